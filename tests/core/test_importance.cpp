// Importance values (core/data/importance.h): the mutual-information heuristic against
// hand-computed contingency tables and against an independent entropy-based reference
// (I = H(B) + H(C) - H(B,C)) on random data; the mapping to v_j; the CSV reader on good and
// malformed fixtures (tests/data/importance/) with the exact line each error must name; and
// the save/load round trip.

#include "core/data/importance.h"
#include "core/util/errors.h"
#include "core/util/rng.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

const std::string kDir = std::string(FDLAB_TEST_DATA) + "/importance/";

/// Columns given feature by feature.
Dataset makeDataset(const std::vector<std::vector<float>>& columns, const std::vector<int>& labels,
                    std::vector<std::string> classNames) {
    Dataset d;
    d.name = "toy";
    const auto m = static_cast<Eigen::Index>(labels.size());
    const auto n = static_cast<Eigen::Index>(columns.size());
    d.X.resize(m, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < m; ++i) d.X(i, j) = columns[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
    d.labels = labels;
    d.classNames = std::move(classNames);
    d.fillDefaults();
    return d;
}

Dataset greek() {
    Dataset d = makeDataset({{0, 1}, {1, 0}, {2, 2}}, {0, 1}, {"a", "b"});
    d.featureNames = {"alpha", "beta", "gamma"};
    return d;
}

/// The DataError importanceFromCsv throws on a fixture (fails the test if none).
struct Caught {
    bool thrown = false;
    long line = -1;
    std::string what;
};
Caught loadError(const Dataset& d, const std::string& file) {
    Caught c;
    try {
        importanceFromCsv(d, kDir + file);
    } catch (const DataError& e) {
        c.thrown = true;
        c.line = e.line();
        c.what = e.what();
    }
    return c;
}

bool contains(const std::string& s, const std::string& part) {
    if (s.find(part) != std::string::npos) return true;
    qWarning("'%s' does not contain '%s'", s.c_str(), part.c_str());
    return false;
}

template <class F>
bool throwsMentioning(F&& f, const std::string& word) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return contains(e.what(), word);
    }
    return false;
}

/// Reference MI by entropies, with bins found by counting the interior edges a + k w <= x.
double referenceBits(const Dataset& d, int j, int bins) {
    const int m = d.rows();
    double a = d.X(0, j), b = d.X(0, j);
    for (int i = 0; i < m; ++i) {
        a = std::min(a, double(d.X(i, j)));
        b = std::max(b, double(d.X(i, j)));
    }
    std::map<int, int> nb, nc;
    std::map<std::pair<int, int>, int> nbc;
    for (int i = 0; i < m; ++i) {
        int bin = 0;
        if (b > a)
            for (int k = 1; k < bins; ++k)
                if (double(d.X(i, j)) >= a + k * (b - a) / bins) bin = k;
        const int c = d.labels[static_cast<std::size_t>(i)];
        ++nb[bin];
        ++nc[c];
        ++nbc[{bin, c}];
    }
    auto H = [m](const auto& counts) {
        double h = 0;
        for (const auto& [key, cnt] : counts) {
            const double p = double(cnt) / m;
            h -= p * std::log2(p);
        }
        return h;
    };
    return H(nb) + H(nc) - H(nbc);
}

}  // namespace

class TestImportance : public QObject {
    Q_OBJECT
private slots:
    void uniform() {
        const Dataset d = greek();
        QCOMPARE(uniformImportance(d), (std::vector<double>{1.0, 1.0, 1.0}));
    }

    void handComputedBits() {
        // Labels 0,0,1,1 (balanced). Feature 1 copies the label: the 2x2 table is diagonal with
        // p = 1/2 each, I = 2 * 1/2 * log2((1/2) / (1/2 * 1/2)) = 1 bit exactly.
        // Feature 2 = 0,1,0,1: every cell 1/4 = p(b) p(c), I = 0 exactly.
        // Feature 3 constant: a single bin, I = 0.
        const Dataset d = makeDataset({{0, 0, 1, 1}, {0, 1, 0, 1}, {3, 3, 3, 3}}, {0, 0, 1, 1}, {"n", "p"});
        const auto I = mutualInformationBits(d, 8);
        QCOMPARE(I[0], 1.0);
        QCOMPARE(I[1], 0.0);
        QCOMPARE(I[2], 0.0);
    }

    void asymmetricTable() {
        // Six rows: (x=0,y=0) x3, (x=0,y=1) x1, (x=1,y=1) x2. p(b0) = 4/6, p(b1) = 2/6,
        // p(c0) = p(c1) = 1/2.
        // I = 3/6 log2((3/6)/(4/6 * 1/2)) + 1/6 log2((1/6)/(4/6 * 1/2)) + 2/6 log2((2/6)/(2/6 * 1/2))
        //   = 1/2 log2(1.5) + 1/6 log2(0.5) + 1/3 log2(2) = 0.2924812503605781 + 1/6
        //   = 0.4591479170272448 bits.
        const Dataset d = makeDataset({{0, 0, 0, 0, 1, 1}}, {0, 0, 0, 1, 1, 1}, {"n", "p"});
        const double I = mutualInformationBits(d, 2)[0];
        QVERIFY2(std::abs(I - 0.4591479170272448) < 1e-14, qPrintable(QString::number(I, 'g', 17)));
        // The bin count does not matter for a two-valued feature (its values fall in the first
        // and the last bin).
        QVERIFY(std::abs(mutualInformationBits(d, 256)[0] - 0.4591479170272448) < 1e-14);
    }

    void binEdges() {
        // x = 0, 1, 1.5, 3 over [0, 3] with 2 bins of width 1.5: [0, 1.5) and [1.5, 3].
        // 1.5 sits on the edge and belongs to the upper bin, so the bins {0,0,1,1} match the
        // labels exactly: 1 bit. (Putting 1.5 in the lower bin would give 0.311 bits.)
        const Dataset e = makeDataset({{0, 1, 1.5f, 3}}, {0, 0, 1, 1}, {"n", "p"});
        QCOMPARE(mutualInformationBits(e, 2)[0], 1.0);

        // x = 0, 2.5, 3 with 2 bins [0, 1.5), [1.5, 3]: the max 3 is in the last (closed) bin,
        // together with 2.5: bins {0, 1, 1}, labels {0, 1, 0}. p(b1) = 2/3, p(c0) = 2/3.
        // I = 1/3 log2((1/3)/(1/3*2/3)) + 1/3 log2((1/3)/(2/3*1/3)) + 1/3 log2((1/3)/(2/3*2/3))
        //   = 1/3 log2(1.5 * 1.5 * 0.75) = 1/3 log2(1.6875) = 0.25162916738782287 bits.
        // (A separate bin for the max would give H(Y) = 0.918 bits.)
        const Dataset f = makeDataset({{0, 2.5f, 3}}, {0, 1, 0}, {"n", "p"});
        const double I = mutualInformationBits(f, 2)[0];
        QVERIFY2(std::abs(I - 0.25162916738782287) < 1e-14, qPrintable(QString::number(I, 'g', 17)));
    }

    void randomAgainstEntropyReference() {
        // 3 classes, 200 rows, 6 features of growing dependence on the label; 5 bins.
        Rng rng(2024);
        const int m = 200, n = 6, bins = 5;
        std::vector<int> labels;
        for (int i = 0; i < m; ++i) labels.push_back(static_cast<int>(rng.below(3)));
        std::vector<std::vector<float>> cols(n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i)
                cols[static_cast<std::size_t>(j)].push_back(
                    static_cast<float>(rng.uniform() + 0.3 * j * labels[static_cast<std::size_t>(i)]));
        const Dataset d = makeDataset(cols, labels, {"x", "y", "z"});
        const auto I = mutualInformationBits(d, bins);
        for (int j = 0; j < n; ++j) {
            const double ref = referenceBits(d, j, bins);
            QVERIFY2(std::abs(I[static_cast<std::size_t>(j)] - ref) < 1e-12,
                     qPrintable(QString("feature %1: %2 vs %3").arg(j).arg(I[static_cast<std::size_t>(j)]).arg(ref)));
        }
        QVERIFY(I[5] > I[0]);  // the label-dependent feature carries more information
    }

    void importanceMapping() {
        // Labels 0,0,1,1. f1 = label (1 bit); f2 = 0,1,0,1 (0 bits); f3 = 0,0,0,1:
        // table (b0,c0)=2, (b0,c1)=1, (b1,c1)=1, p(b0)=3/4:
        // I3 = 1/2 log2((1/2)/(3/4*1/2)) + 1/4 log2((1/4)/(3/4*1/2)) + 1/4 log2((1/4)/(1/4*1/2))
        //    = 1/2 log2(4/3) + 1/4 log2(2/3) + 1/4 = 0.31127812445913283.
        // r = (1, 0.1, 0.1 + 0.9 I3) = (1, 0.1, 0.3801503120132196), sum 1.4801503120132198;
        // v = 3 r / sum = (2.0268211786677015, 0.20268211786677015, 0.770496703465528).
        const Dataset d = makeDataset({{0, 0, 1, 1}, {0, 1, 0, 1}, {0, 0, 0, 1}}, {0, 0, 1, 1}, {"n", "p"});
        const auto I = mutualInformationBits(d, 8);
        QVERIFY(std::abs(I[2] - 0.31127812445913283) < 1e-14);
        const auto v = mutualInformationImportance(d);
        const std::vector<double> want{2.0268211786677015, 0.20268211786677015, 0.770496703465528};
        for (std::size_t j = 0; j < 3; ++j)
            QVERIFY2(std::abs(v[j] - want[j]) < 1e-12, qPrintable(QString::number(v[j], 'g', 17)));
        QVERIFY(std::abs(v[0] + v[1] + v[2] - 3.0) < 1e-12);
        // The floor: the uninformative feature costs exactly floor * the most informative one.
        QVERIFY(std::abs(v[1] / v[0] - 0.1) < 1e-12);

        MutualInfoParams p;
        p.total = 10.0;
        p.floor = 0.5;
        const auto w = mutualInformationImportance(d, p);
        QVERIFY(std::abs(w[0] + w[1] + w[2] - 10.0) < 1e-12);
        QVERIFY(std::abs(w[1] / w[0] - 0.5) < 1e-12);
        // r3 = 0.5 + 0.5 I3, sum r = 1.5 + 0.5 + 0.5 I3.
        QVERIFY(std::abs(w[2] - 10.0 * (0.5 + 0.5 * 0.31127812445913283) / (2.0 + 0.5 * 0.31127812445913283)) < 1e-12);
    }

    void noInformationIsUniform() {
        const Dataset d = makeDataset({{0, 1, 0, 1}, {5, 5, 5, 5}}, {0, 0, 1, 1}, {"n", "p"});
        QCOMPARE(mutualInformationImportance(d), (std::vector<double>{1.0, 1.0}));
        MutualInfoParams p;
        p.total = 7.0;
        QCOMPARE(mutualInformationImportance(d, p), (std::vector<double>{3.5, 3.5}));
    }

    void paramsValidation() {
        const Dataset d = greek();
        MutualInfoParams p;
        p.bins = 1;
        QVERIFY(throwsMentioning([&] { mutualInformationImportance(d, p); }, "bins"));
        p.bins = 257;
        QVERIFY(throwsMentioning([&] { p.validate(); }, "bins"));
        p = {};
        p.floor = 0.0;
        QVERIFY(throwsMentioning([&] { p.validate(); }, "floor"));
        p.floor = 1.5;
        QVERIFY(throwsMentioning([&] { p.validate(); }, "floor"));
        p = {};
        p.total = std::nan("");
        QVERIFY(throwsMentioning([&] { p.validate(); }, "total"));
        QVERIFY(throwsMentioning([&] { mutualInformationBits(d, 0); }, "bins"));
    }

    void csvGoodFixture() {
        // Header, comments, blank line, spaces around fields, a leading '+', any order.
        const auto v = importanceFromCsv(greek(), kDir + "good.csv");
        QCOMPARE(v, (std::vector<double>{0.25, 10.0, 2.5}));
    }

    void csvMalformedFixtures() {
        const Dataset d = greek();
        struct Case {
            const char* file;
            long line;
            const char* words;
        };
        const Case cases[] = {
            {"unknown_feature.csv", 3, "unknown feature 'delta'"},
            {"duplicate.csv", 4, "'alpha' listed twice (first on line 2)"},
            {"non_numeric.csv", 3, "'abc' of feature 'beta' is not a number"},
            {"empty_value.csv", 4, "'' of feature 'beta' is not a number"},
            {"zero.csv", 4, "'0' of feature 'gamma' must be > 0"},
            {"negative.csv", 2, "'-2' of feature 'alpha' must be > 0"},
            {"nan.csv", 3, "'nan' of feature 'beta' is not finite"},
            {"inf.csv", 4, "'inf' of feature 'gamma' is not finite"},
            {"no_comma.csv", 2, "expected 'name,value'"},
            {"missing.csv", 0, "feature 'alpha' is missing (and 1 more)"},
        };
        for (const Case& c : cases) {
            const Caught e = loadError(d, c.file);
            QVERIFY2(e.thrown, c.file);
            QVERIFY2(e.line == c.line, qPrintable(QString("%1: line %2").arg(c.file).arg(e.line)));
            const std::string prefix = kDir + c.file + (c.line > 0 ? ":" + std::to_string(c.line) : std::string()) + ": ";
            QVERIFY2(e.what.rfind(prefix, 0) == 0, qPrintable(QString::fromStdString(e.what)));
            QVERIFY(contains(e.what, c.words));
        }
        const Caught none = loadError(d, "does_not_exist.csv");
        QVERIFY(none.thrown);
        QVERIFY(contains(none.what, "does_not_exist.csv"));
    }

    void csvRoundTrip() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Dataset d = makeDataset({{0}, {0}, {0}, {0}}, {0}, {"a"});
        // Names that need quoting (comma, quote, leading '#', surrounding space) must survive too.
        d.featureNames = {"plain", "b,c", "say \"hi\"", "#tag"};
        const std::vector<double> v{0.1, 1e-7, 3.141592653589793, 123456.789};
        const std::string path = dir.filePath("imp.csv").toStdString();
        saveImportanceCsv(d, v, path);
        QCOMPARE(importanceFromCsv(d, path), v);  // bit-identical
        std::ifstream in(path);
        std::string first;
        std::getline(in, first);
        QCOMPARE(first, std::string("name,value"));

        // CRLF line ends read the same.
        const std::string crlf = dir.filePath("crlf.csv").toStdString();
        std::ofstream(crlf, std::ios::binary) << "name,value\r\nplain,1\r\n\"b,c\",2\r\n\"say \"\"hi\"\"\",3\r\n\"#tag\",4\r\n";
        QCOMPARE(importanceFromCsv(d, crlf), (std::vector<double>{1, 2, 3, 4}));

        QVERIFY(throwsMentioning([&] { saveImportanceCsv(d, {1.0, 2.0}, path); }, "2 values for 4 features"));
        QVERIFY(throwsMentioning([&] { saveImportanceCsv(d, {1.0, 0.0, 1.0, 1.0}, path); }, "'b,c'"));
        // The failed saves left the earlier file intact.
        QCOMPARE(importanceFromCsv(d, path), v);
    }
};

QTEST_APPLESS_MAIN(TestImportance)
#include "test_importance.moc"
