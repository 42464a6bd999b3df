// Sparse (CSR) storage against dense storage of the same data: the same models from every
// linear learner (to 1e-9 relative), the same attacked sets from every test-time threat, the
// same curves; the one-sided threat against brute-force enumeration; a separate test file
// against the rows of one file; the loaders' storage choice; scalings that keep zeros zero.

#include "core/attacks/attack.h"
#include "core/attacks/threat_registry.h"
#include "core/data/align.h"
#include "core/data/importance.h"
#include "core/data/loaders.h"
#include "core/data/preprocess.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/level_evaluation.h"
#include "core/learners/registry.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/rng.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace fdlab;
using json = nlohmann::json;

namespace {

// m x n, about 80% zeros, values in {-1, -0.5, 0.5, 1, 2}; labels from a noisy linear rule.
Dataset sparseish(int m, int n, int classes, std::uint64_t seed) {
    Rng rng(seed);
    Dataset d;
    d.name = "sparseish";
    d.X = Dataset::Matrix::Zero(m, n);
    const float values[] = {-1.0f, -0.5f, 0.5f, 1.0f, 2.0f};
    for (int i = 0; i < m; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j)
            if (rng.bernoulli(0.2)) {
                d.X(i, j) = values[rng.below(5)];
                s += (j % 3 == 0 ? 1.0 : -0.7) * d.X(i, j);
            }
        const double t = s + 0.5 * rng.normal();
        d.labels.push_back(classes == 2 ? (t > 0 ? 1 : 0) : static_cast<int>(std::clamp(std::floor(t + classes / 2.0), 0.0, classes - 1.0)));
    }
    for (int c = 0; c < classes; ++c) d.classNames.push_back("c" + std::to_string(c));
    d.fillDefaults();
    for (int j = 0; j < n; ++j) d.importance[static_cast<std::size_t>(j)] = 1 + j % 3;
    return d;
}

double relDiff(const LinearModel& a, const LinearModel& b) {
    const double scale = std::max({1.0, a.W.norm(), a.b.norm()});
    return std::max((a.W - b.W).norm(), (a.b - b.b).norm()) / scale;
}

void requireSameRows(const Dataset& sparse, const Dataset& dense) {
    QVERIFY(sparse.isSparse());
    QVERIFY(!dense.isSparse());
    QCOMPARE(sparse.rows(), dense.rows());
    QCOMPARE(sparse.features(), dense.features());
    for (int i = 0; i < dense.rows(); ++i)
        for (int j = 0; j < dense.features(); ++j) QCOMPARE(sparse.value(i, j), dense.X(i, j));
}

}  // namespace

class TestSparse : public QObject {
    Q_OBJECT
private slots:
    void storageRoundTrip() {
        const Dataset d = sparseish(40, 25, 2, 1);
        const Dataset s = d.toSparse();
        s.validate("sparse");
        requireSameRows(s, d);
        QCOMPARE(s.storedValues(), static_cast<std::int64_t>((d.X.array() != 0.0f).count()));
        for (int i = 0; i < d.rows(); ++i) {
            QCOMPARE(s.nonZeros(i), d.nonZeros(i));
            const Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(d.features(), -1.0, 2.0);
            QCOMPARE(s.dot(i, w), d.dot(i, w));
        }
        QVERIFY(s.toDense().X == d.X);
        const std::vector<int> idx{5, 0, 39, 5};
        const Dataset sub = s.subset(idx);
        requireSameRows(sub, d.subset(idx));
        QCOMPARE(sub.sourceRow(2), 39);
        QCOMPARE(sub.instanceId(0), std::string("row 6"));
        std::vector<float> loS, hiS, loD, hiD;
        s.columnRange(loS, hiS);
        d.columnRange(loD, hiD);
        QVERIFY(loS == loD && hiS == hiD);
        QVERIFY(mutualInformationImportance(s) == mutualInformationImportance(d));
    }

    // A set holding only empty sparse rows has no storage at all (null pointers): its rows must
    // still read as sparse and empty (they once read as dense rows of n values at nullptr).
    void emptySparseRows() {
        const Dataset d = sparseish(30, 12, 2, 5);
        Dataset s = d.toSparse();
        const TrainedModel m = trainLearner("svm", d, json::object());
        SparseRowsBuilder b(12);
        b.endRow();
        Dataset empty = s.subset(std::vector<int>{0});
        empty.sparse = std::move(b).finish();
        QVERIFY(empty.sparse->values.data() == nullptr);
        QVERIFY(empty.row(0).isSparse());
        QCOMPARE(empty.nonZeros(0), 0);
        QCOMPARE(empty.value(0, 3), 0.0f);
        const int label = empty.labels[0];
        QCOMPARE(m.scorer->margin(empty.row(0), label), (label == 1 ? 1.0 : -1.0) * m.linear->b(0));
        AttackSpec a;
        a.threat = "worst-case-count";
        a.level = 3;
        const AttackResult r = runAttack(empty, *m.scorer, a);
        QVERIFY(r.deleted[0].empty());
        QCOMPARE(r.attacked.nonZeros(0), 0);
    }

    void builderAndValidation() {
        SparseRowsBuilder b(4);
        b.add(1, 2.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, b.add(1, 3.0f));   // not increasing
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, b.add(4, 1.0f));   // out of range
        b.endRow();
        Dataset d;
        d.sparse = std::move(b).finish();
        d.labels = {0};
        d.classNames = {"a"};
        d.fillDefaults();
        d.validate("one row");
        d.sparse->values[0] = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, d.validate("nan"));
        // Densifying refuses sets above the limit and names the caller.
        Dataset huge;
        huge.name = "huge";
        huge.sparse = SparseRows{};
        huge.sparse->cols = 1 << 20;
        for (int i = 0; i < 100; ++i) huge.sparse->rowStart.push_back(0);
        try {
            (void)huge.denseCopy("the tree learner");
            QFAIL("expected an error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("the tree learner needs dense data") != std::string::npos);
        }
    }

    void sameModels_data() {
        QTest::addColumn<QString>("learner");
        QTest::addColumn<QString>("params");
        QTest::addColumn<int>("classes");
        QTest::newRow("svm") << "svm" << "{}" << 2;
        QTest::newRow("logreg") << "logreg" << "{}" << 2;
        QTest::newRow("svm one-vs-rest") << "svm" << "{}" << 3;
        QTest::newRow("fdrop K=3") << "fdrop" << R"({"K": 3})" << 2;
        QTest::newRow("fdrop value budget") << "fdrop" << R"({"useImportance": true, "N": 4})" << 2;
        QTest::newRow("ds-lp") << "ds-lp" << R"({"N": 3})" << 2;
        QTest::newRow("ds-perceptron") << "ds-perceptron" << "{}" << 2;
        QTest::newRow("mcf logistic") << "mcf" << R"({"loss": "logistic", "q": 0.3})" << 2;
        QTest::newRow("mcf quadratic") << "mcf" << R"({"loss": "quadratic", "q": 0.3})" << 2;
        QTest::newRow("mcf multi-class") << "mcf" << R"({"loss": "logistic", "q": 0.3})" << 3;
    }
    void sameModels() {
        QFETCH(QString, learner);
        QFETCH(QString, params);
        QFETCH(int, classes);
        const Dataset d = sparseish(120, 30, classes, 7);
        const json p = json::parse(params.toStdString());
        const TrainedModel a = trainLearner(learner.toStdString(), d, p);
        const TrainedModel b = trainLearner(learner.toStdString(), d.toSparse(), p);
        QVERIFY(a.fit.ok());
        QVERIFY(b.fit.ok());
        QVERIFY(a.linear && b.linear);
        QVERIFY2(relDiff(*a.linear, *b.linear) <= 1e-9, qPrintable(QString::number(relDiff(*a.linear, *b.linear))));
        QVERIFY(a.linear->W.norm() > 0.0);   // a real model, not a constant one
    }

    void nonLinearLearnersDensify() {
        const Dataset d = sparseish(80, 12, 2, 3);
        const TrainedModel a = trainLearner("tree", d, json{{"depth", 3}});
        const TrainedModel b = trainLearner("tree", d.toSparse(), json{{"depth", 3}});
        std::vector<double> sa(1), sb(1);
        for (int i = 0; i < d.rows(); ++i) {
            a.scorer->scoresRow(d.row(i), sa);
            b.scorer->scoresRow(d.toSparse().row(i), sb);
            QCOMPARE(sa[0], sb[0]);
        }
    }

    void sameAttacks_data() {
        QTest::addColumn<std::string>("threat");
        QTest::addColumn<double>("level");
        QTest::addColumn<bool>("noise");
        QTest::newRow("worst-case-count") << std::string("worst-case-count") << 3.0 << false;
        QTest::newRow("worst-case-value-exact") << std::string("worst-case-value-exact") << 4.0 << false;
        QTest::newRow("worst-case-value-greedy") << std::string("worst-case-value-greedy") << 4.0 << false;
        QTest::newRow("random-deletion") << std::string("random-deletion") << 3.0 << false;
        QTest::newRow("random-deletion noise") << std::string("random-deletion") << 3.0 << true;
        QTest::newRow("random-feature-drop") << std::string("random-feature-drop") << 0.5 << false;
        QTest::newRow("uniform-top-weight") << std::string("uniform-top-weight") << 4.0 << false;
        QTest::newRow("uniform-exact") << std::string("uniform-exact") << 2.0 << false;
        QTest::newRow("greedy-deletion") << std::string("greedy-deletion") << 3.0 << false;
        QTest::newRow("feature-corruption") << std::string("feature-corruption") << 0.3 << false;
        QTest::newRow("group-corruption") << std::string("group-corruption") << 0.5 << false;
        QTest::newRow("fixed-deletion noise") << std::string("fixed-deletion") << 3.0 << true;
        QTest::newRow("random-blankout") << std::string("random-blankout") << 0.4 << false;
    }
    void sameAttacks() {
        QFETCH(std::string, threat);
        QFETCH(double, level);
        QFETCH(bool, noise);
        const Dataset d = sparseish(60, 16, 2, 11);
        const Dataset s = d.toSparse();
        const TrainedModel m = trainLearner("svm", d, json::object());
        AttackSpec base;
        base.threat = threat;
        base.seed = 5;
        // The parameters each threat declares, from one sample.
        const json sample = {{"features", {0, 7, 3, 9}},
                             {"feature", 4},
                             {"groups", {{{"name", "a"}, {"begin", 0}, {"end", 4}}, {{"name", "b"}, {"begin", 4}, {"end", 10}},
                                         {{"name", "c"}, {"begin", 10}, {"end", 16}}}},
                             {"replacement", noise ? "uniform-noise" : "zero"}};
        for (const ParamInfo& p : threatInfo(threat).params)
            if (sample.contains(p.name)) base.params[p.name] = sample.at(p.name);
        const AttackSpec spec = attackAtLevel(base, level);
        const AttackResult rd = runAttack(d, *m.scorer, spec, {}, &d);
        const AttackResult rs = runAttack(s, *m.scorer, spec, {}, &s);
        QVERIFY(rd.deleted == rs.deleted);
        QVERIFY(rd.damage == rs.damage);
        requireSameRows(rs.attacked, rd.attacked);
        int changed = 0;
        for (const auto& del : rd.deleted) changed += !del.empty();
        QVERIFY(changed > 0);   // the attack did something
        // The curve path (one-pass where it exists) agrees too.
        const std::vector<double> levels{0, level};
        const auto cd = evaluateAtLevels(m, d, base, levels, {}, &d);
        const auto cs = evaluateAtLevels(m, s, base, levels, {}, &s);
        QCOMPARE(cd.size(), cs.size());
        for (std::size_t l = 0; l < cd.size(); ++l) {
            QCOMPARE(cd[l].error, cs[l].error);
            QCOMPARE(cd[l].auc, cs[l].auc);
        }
    }

    // One-sided worst-case count: the attacked class's instances lose exactly the brute-force
    // worst K-subset of their features; the others are untouched.
    void oneSidedAgainstBruteForce() {
        const Dataset d = sparseish(50, 10, 2, 21).toSparse();
        const TrainedModel m = trainLearner("svm", d, json::object());
        AttackSpec spec;
        spec.threat = "worst-case-count";
        spec.attackedClasses = {1};
        const int K = 2;
        const auto scores = evaluateAtLevels(m, d, spec, {static_cast<double>(K)});
        int wrongA = 0, nA = 0, wrongO = 0, nO = 0;
        const int n = d.features();
        for (int i = 0; i < d.rows(); ++i) {
            const int label = d.labels[static_cast<std::size_t>(i)];
            std::vector<float> x(static_cast<std::size_t>(n));
            d.row(i).toDense(x);
            double worst = m.scorer->margin(std::span<const float>(x), label);
            if (label == 1)
                for (int a = 0; a < n; ++a)
                    for (int b = a; b < n; ++b) {   // every set of at most 2 features
                        std::vector<float> y = x;
                        y[static_cast<std::size_t>(a)] = y[static_cast<std::size_t>(b)] = 0.0f;
                        worst = std::min(worst, m.scorer->margin(std::span<const float>(y), label));
                    }
            const bool wrong = worst <= 0.0;
            if (label == 1) nA++, wrongA += wrong;
            else nO++, wrongO += wrong;
        }
        QVERIFY(nA > 5 && nO > 5);
        QVERIFY(wrongA > 0);
        QCOMPARE(scores.at(0).errorAttacked, static_cast<double>(wrongA) / nA);
        QCOMPARE(scores.at(0).errorOthers, static_cast<double>(wrongO) / nO);
        QCOMPARE(scores.at(0).error, static_cast<double>(wrongA + wrongO) / (nA + nO));
        // The attack itself leaves class 0 alone.
        const AttackResult r = runAttack(d, *m.scorer, attackAtLevel(spec, K));
        for (int i = 0; i < d.rows(); ++i)
            if (d.labels[static_cast<std::size_t>(i)] == 0) QVERIFY(r.deleted[static_cast<std::size_t>(i)].empty());
        AttackSpec bad = spec;
        bad.attackedClasses = {2};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate(d));
    }

    void libsvmLoadsSparse() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.svm").toStdString();
        writeFileAtomically(path, "+1 3:0.5 40:2\n-1 1:1\n+1 40:-1.5 # comment\n");
        const Dataset d = loadDataFile(path);
        QVERIFY(d.isSparse());
        QCOMPARE(d.rows(), 3);
        QCOMPARE(d.features(), 40);
        QCOMPARE(d.storedValues(), std::int64_t{4});
        QCOMPARE(d.value(0, 2), 0.5f);
        QCOMPARE(d.value(0, 39), 2.0f);
        QCOMPARE(d.value(1, 0), 1.0f);
        QCOMPARE(d.value(2, 39), -1.5f);
        QCOMPARE(d.value(2, 0), 0.0f);
        LoadOptions dense;
        dense.storage = Storage::Dense;
        requireSameRows(d, loadDataFile(path, dense));
        // A dense-ish CSV stays dense; the same data as Storage::Sparse is sparse.
        writeFileAtomically(dir.filePath("c.csv").toStdString(), "a,b,y\n1,2,p\n3,0,q\n");
        QVERIFY(!loadDataFile(dir.filePath("c.csv").toStdString()).isSparse());
        LoadOptions sp;
        sp.storage = Storage::Sparse;
        const Dataset c = loadDataFile(dir.filePath("c.csv").toStdString(), sp);
        QVERIFY(c.isSparse());
        QCOMPARE(c.value(1, 0), 3.0f);
        QCOMPARE(c.storedValues(), std::int64_t{3});
        // Sparse ARFF rows with few non-zeros load as CSR.
        std::string arff = "@relation r\n";
        for (int a = 0; a < 20; ++a) arff += "@attribute a" + std::to_string(a) + " numeric\n";
        arff += "@attribute class {no,yes}\n@data\n{1 2.5, 20 yes}\n{7 -1, 20 no}\n{20 yes}\n";
        writeFileAtomically(dir.filePath("s.arff").toStdString(), arff);
        const Dataset a = loadDataFile(dir.filePath("s.arff").toStdString());
        QVERIFY(a.isSparse());
        QCOMPARE(a.features(), 20);
        QCOMPARE(a.storedValues(), std::int64_t{2});
        QCOMPARE(a.value(0, 1), 2.5f);
        QCOMPARE(a.value(1, 7), -1.0f);
        QCOMPARE(a.labels, (std::vector<int>{1, 0, 1}));
    }

    // Binary and UTF-16 files passed as CSV: one line naming the file and the byte, no raw bytes.
    void binaryFilesAreRefused() {
        for (const auto& [file, expected] : {std::pair<std::string, std::string>{"bad_nul.csv", "bad_nul.csv: byte 13: NUL byte"},
                                             {"bad_utf16.csv", "bad_utf16.csv: UTF-16 text"}}) {
            try {
                (void)loadDataFile(std::string(FDLAB_TEST_DATA) + "/text/" + file);
                QFAIL("expected a DataError");
            } catch (const DataError& e) {
                const std::string msg = e.what();
                QVERIFY2(msg.find(expected) != std::string::npos, msg.c_str());
                QVERIFY(msg.find('\0') == std::string::npos && msg.find('\n') == std::string::npos);
            }
        }
    }

    void scalingsKeepZeros() {
        Dataset d = sparseish(30, 8, 2, 4);
        d.transformStoredValues([](int, int, float& x) { x = std::abs(x); });   // non-negative
        for (Scaling sc : {Scaling::ZeroOne, Scaling::UnitNorm, Scaling::Binarise}) {
            Dataset a = d, b = d.toSparse();
            const Preprocessor pa = Preprocessor::fit(a, sc), pb = Preprocessor::fit(b, sc);
            pa.apply(a);
            pb.apply(b);
            for (int i = 0; i < a.rows(); ++i)
                for (int j = 0; j < a.features(); ++j) QCOMPARE(b.value(i, j), a.X(i, j));
        }
        Dataset s = sparseish(30, 8, 2, 4).toSparse();   // has negative values
        const Preprocessor p = Preprocessor::fit(s, Scaling::MinusOneOne);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.apply(s));
    }

    // A separate test file gives what the same rows give inside one file; unseen test
    // features are dropped and counted; a class training never saw is an error.
    void separateTestFile() {
        QTemporaryDir dir;
        const Dataset all = sparseish(150, 12, 2, 9);
        std::vector<int> tr, te;
        for (int i = 0; i < all.rows(); ++i) (i < 100 ? tr : te).push_back(i);
        const std::string trainPath = dir.filePath("train.svm").toStdString(), testPath = dir.filePath("test.svm").toStdString();
        saveLibsvm(all.subset(tr), trainPath);
        // The test file has two extra features (13, 14) that training never saw.
        Dataset test = all.subset(te);
        Dataset wide;
        wide.labels = test.labels;
        wide.classNames = test.classNames;
        SparseRowsBuilder b(14);
        for (int i = 0; i < test.rows(); ++i) {
            test.forEachNonZero(i, [&](int j, float x) { b.add(j, x); });
            b.add(12, 1.0f);
            if (i % 2) b.add(13, 2.0f);
            b.endRow();
        }
        wide.sparse = std::move(b).finish();
        wide.fillDefaults();
        saveLibsvm(wide, testPath);

        ExperimentSpec spec;
        spec.dataset.file = trainPath;
        spec.testDataset = DatasetRef{};
        spec.testDataset->file = testPath;
        spec.split.validationFraction = 0.0;
        spec.learners = {{"SVM", "svm", json::object(), {}}};
        spec.attack.threat = "worst-case-count";
        spec.levels = {0, 2};
        const TaskData td = loadTaskData(spec);
        QCOMPARE(td.testAlignment.droppedFeatures, 2);
        QCOMPARE(td.testAlignment.droppedValues, std::int64_t{50 + 25});
        const PreparedSplit ps = prepareRepetition(td, spec, 0);
        QCOMPARE(ps.train.rows(), 100);
        QCOMPARE(ps.test.rows(), 50);
        const ExperimentResult r = runExperiment(spec);
        QCOMPARE(r.status, Status::Converged);
        QCOMPARE(r.warnings.size(), std::size_t{1});   // the dropped features
        // Reference: the rows of one file.
        const TrainedModel m = trainLearner("svm", all.subset(tr), json::object());
        const auto ref = evaluateAtLevels(m, all.subset(te), attackAtLevel(spec.attack, 0), {0, 2});
        QCOMPARE(r.points.size(), std::size_t{2});
        QCOMPARE(r.points[0].error, ref[0].error);
        QCOMPARE(r.points[1].error, ref[1].error);
        QVERIFY(ref[1].error > ref[0].error);

        // Test fraction 0 without a test file trains on every row and has no test part.
        ExperimentSpec final = spec;
        final.testDataset.reset();
        final.split.testFraction = 0.0;
        const PreparedSplit fp = prepareRepetition(loadTaskData(final), final, 0);
        QCOMPARE(fp.train.rows(), 100);
        QCOMPARE(fp.test.rows(), 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runExperiment(final));

        // A class the training file does not have.
        writeFileAtomically(testPath, "+1 1:1\n7 2:1\n");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, loadTaskData(spec));
    }
};

QTEST_APPLESS_MAIN(TestSparse)
#include "test_sparse.moc"
