// Preprocessing (core/data/preprocess.h) and learning tasks (core/data/task.h) on tiny in-memory
// datasets whose every output value is computed by hand in the comments.

#include "core/data/preprocess.h"
#include "core/data/task.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

Dataset makeDataset(const std::vector<std::vector<float>>& rows, const std::vector<int>& labels,
                    std::vector<std::string> classNames) {
    Dataset d;
    d.name = "toy";
    d.provenance = "memory";
    const auto m = static_cast<Eigen::Index>(rows.size());
    const auto n = static_cast<Eigen::Index>(rows.empty() ? 0 : rows[0].size());
    d.X.resize(m, n);
    for (Eigen::Index i = 0; i < m; ++i)
        for (Eigen::Index j = 0; j < n; ++j) d.X(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    d.labels = labels;
    d.classNames = std::move(classNames);
    d.fillDefaults();
    return d;
}

/// Three features: f1 in {0, 5, 10}, f2 constant 2, f3 in {-1, 3, 1}.
Dataset trainSet() { return makeDataset({{0, 2, -1}, {5, 2, 3}, {10, 2, 1}}, {0, 1, 0}, {"a", "b"}); }

/// Values inside and outside the training range.
Dataset testSet() { return makeDataset({{15, 7, 5}, {-5, 2, 0}}, {1, 0}, {"a", "b"}); }

bool rowIs(const Dataset& d, int i, const std::vector<double>& want, double tol = 1e-6) {
    for (int j = 0; j < d.features(); ++j)
        if (std::abs(d.X(i, j) - want[static_cast<std::size_t>(j)]) > tol) {
            qWarning("row %d feature %d: got %.9g want %.9g", i, j, double(d.X(i, j)), want[static_cast<std::size_t>(j)]);
            return false;
        }
    return true;
}

template <class F>
bool throwsMentioning(F&& f, const std::string& word) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        if (std::string(e.what()).find(word) != std::string::npos) return true;
        qWarning("message '%s' lacks '%s'", e.what(), word.c_str());
    }
    return false;
}

/// Digits-like dataset: classes "5", "3", "7", "1" (index order), 2x2 "images".
Dataset digits() {
    Dataset d = makeDataset({{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {1, 1, 0, 0}, {1, 1, 1, 1}},
                            {0, 1, 2, 1, 0, 3}, {"5", "3", "7", "1"});
    d.imageShape = ImageShape{2, 2};
    d.featureNames = {"p11", "p12", "p21", "p22"};
    d.importance = {1.0, 2.0, 0.5, 3.0};
    return d;
}

}  // namespace

class TestPreprocess : public QObject {
    Q_OBJECT
private slots:
    void zeroOne() {
        const Dataset train = trainSet();
        const Preprocessor p = Preprocessor::fit(train, Scaling::ZeroOne);
        // Fitting does not touch the data.
        QCOMPARE(train.X(1, 0), 5.0f);
        Dataset a = train;
        p.apply(a);
        // f1: (x - 0)/10; f2 constant -> 0; f3: (x + 1)/4.
        QVERIFY(rowIs(a, 0, {0.0, 0.0, 0.0}));
        QVERIFY(rowIs(a, 1, {0.5, 0.0, 1.0}));
        QVERIFY(rowIs(a, 2, {1.0, 0.0, 0.5}));
        // Test values use the training range: 15 -> 1.5, -5 -> -0.5, f2 = 7 -> 0, f3 = 5 -> 1.5, 0 -> 0.25.
        Dataset t = testSet();
        p.apply(t);
        QVERIFY(rowIs(t, 0, {1.5, 0.0, 1.5}));
        QVERIFY(rowIs(t, 1, {-0.5, 0.0, 0.25}));
    }

    void minusOneOne() {
        const Preprocessor p = Preprocessor::fit(trainSet(), Scaling::MinusOneOne);
        Dataset a = trainSet();
        p.apply(a);
        // f1: (x - 5)/5; f2 -> 0; f3: (x - 1)/2.
        QVERIFY(rowIs(a, 0, {-1.0, 0.0, -1.0}));
        QVERIFY(rowIs(a, 1, {0.0, 0.0, 1.0}));
        QVERIFY(rowIs(a, 2, {1.0, 0.0, 0.0}));
        Dataset t = testSet();
        p.apply(t);
        // 15 -> 2, -5 -> -2; f3: 5 -> 2, 0 -> -0.5.
        QVERIFY(rowIs(t, 0, {2.0, 0.0, 2.0}));
        QVERIFY(rowIs(t, 1, {-2.0, 0.0, -0.5}));
        // Fitted on the test part instead, the numbers would differ: guard that apply uses p.
        const Preprocessor q = Preprocessor::fit(testSet(), Scaling::MinusOneOne);
        Dataset u = testSet();
        q.apply(u);
        QVERIFY(rowIs(u, 0, {1.0, 1.0, 1.0}));
    }

    void unitNorm() {
        Dataset d = makeDataset({{3, 4, 0}, {0, 0, 0}, {-1, 2, 2}}, {0, 1, 0}, {"a", "b"});
        const Preprocessor p = Preprocessor::fit(d, Scaling::UnitNorm);
        QVERIFY(p.offset.empty());
        p.apply(d);
        QVERIFY(rowIs(d, 0, {0.6, 0.8, 0.0}));
        QVERIFY(rowIs(d, 1, {0.0, 0.0, 0.0}));  // zero row stays zero (no NaN)
        QVERIFY(rowIs(d, 2, {-1.0 / 3, 2.0 / 3, 2.0 / 3}));
    }

    void binarise() {
        Dataset d = makeDataset({{0.5f, 0.51f, -1.0f, 2.0f}}, {0}, {"a"});
        Dataset e = d;
        Preprocessor::fit(d, Scaling::Binarise).apply(d);
        QVERIFY(rowIs(d, 0, {0, 1, 0, 1}));  // strictly greater than 0.5
        Preprocessor::fit(e, Scaling::Binarise, -1.0f).apply(e);
        QVERIFY(rowIs(e, 0, {1, 1, 0, 1}));
    }

    void noneAndErrors() {
        Dataset d = trainSet();
        Preprocessor::fit(d, Scaling::None).apply(d);
        QVERIFY(rowIs(d, 1, {5, 2, 3}));
        const Preprocessor p = Preprocessor::fit(trainSet(), Scaling::ZeroOne);
        Dataset wrong = makeDataset({{1, 2}}, {0}, {"a"});
        QVERIFY(throwsMentioning([&] { p.apply(wrong); }, "fitted on 3 features"));
        Dataset empty;
        empty.X.resize(0, 3);
        QVERIFY(throwsMentioning([&] { Preprocessor::fit(empty, Scaling::ZeroOne); }, "no rows"));
        // A range of 1e-39 (a denormal float) gave the factor 1e39 = inf in float and NaN / inf
        // in the scaled data; it is refused, naming the feature.
        Dataset tiny = makeDataset({{0, 1}, {1e-39f, 2}}, {0, 1}, {"a", "b"});
        tiny.featureNames = {"speck", "x"};
        for (const Scaling s : {Scaling::ZeroOne, Scaling::MinusOneOne})
            QVERIFY(throwsMentioning([&] { Preprocessor::fit(tiny, s); }, "feature 1 (speck) ranges over 1.000000215e-39 only"));
        // A range of 1e-30 fits (factor 1e30), but a test value of 1e12 maps beyond a float: it
        // became inf (a margin of inf, counted correct); refused, naming the row and feature.
        Dataset small = makeDataset({{0, 1}, {1e-30f, 2}}, {0, 1}, {"a", "b"});
        small.featureNames = {"speck", "x"};
        const Preprocessor fitted = Preprocessor::fit(small, Scaling::ZeroOne);
        Dataset far = makeDataset({{1e-30f, 1}, {1e12f, 2}}, {0, 1}, {"a", "b"});
        far.name = "test";
        far.featureNames = small.featureNames;
        QVERIFY(throwsMentioning([&] { fitted.apply(far); }, "of 'test': row 2, feature speck: 9.999999959e+11 maps to 1.000000011e+42, beyond a float"));
        Dataset near = makeDataset({{5e-31f, 1}}, {0}, {"a", "b"});
        fitted.apply(near);
        QVERIFY(std::abs(near.X(0, 0) - 0.5f) < 1e-3f);
    }

    void scalingNames() {
        for (Scaling s : {Scaling::None, Scaling::MinusOneOne, Scaling::ZeroOne, Scaling::UnitNorm, Scaling::Binarise})
            QVERIFY(scalingFromString(toString(s)) == s);
        QCOMPARE(std::string(toString(Scaling::MinusOneOne)), std::string("minus-one-one"));
        QVERIFY(scalingFromString("zero-one") == Scaling::ZeroOne);
        QVERIFY(throwsMentioning([] { scalingFromString("zscore"); }, "'zscore'"));
    }

    // ---- tasks ----

    void binaryViewBasic() {
        const Dataset d = digits();
        const Dataset b = binaryView(d, {"3"}, {"5"});
        // Rows with class 5 (0, 4) or 3 (1, 3), in original order: 0, 1, 3, 4.
        QCOMPARE(b.rows(), 4);
        QCOMPARE(b.classNames, (std::vector<std::string>{"5", "3"}));
        QCOMPARE(b.labels, (std::vector<int>{0, 1, 1, 0}));
        QVERIFY(b.isBinary());
        QCOMPARE(b.y(1), 1);
        QCOMPARE(b.y(0), -1);
        QVERIFY(rowIs(b, 2, {0, 0, 1, 0}));  // original row 3
        QCOMPARE(b.featureNames, d.featureNames);
        QVERIFY(b.imageShape && *b.imageShape == (ImageShape{2, 2}));
        QCOMPARE(b.importance, d.importance);
        b.validate("binary view");

        // Several classes per side, joined with '+'.
        const Dataset m = binaryView(d, {"3", "7"}, {"5", "1"});
        QCOMPARE(m.rows(), 6);
        QCOMPARE(m.classNames, (std::vector<std::string>{"5+1", "3+7"}));
        QCOMPARE(m.labels, (std::vector<int>{0, 1, 1, 1, 0, 0}));
    }

    void binaryViewErrors() {
        const Dataset d = digits();
        QVERIFY(throwsMentioning([&] { binaryView(d, {"9"}, {"5"}); }, "'9'"));
        QVERIFY(throwsMentioning([&] { binaryView(d, {"3"}, {"5", "8"}); }, "'8'"));
        QVERIFY(throwsMentioning([&] { binaryView(d, {"3", "5"}, {"5"}); }, "'5' is both"));
        QVERIFY(throwsMentioning([&] { binaryView(d, {"3", "3"}, {"5"}); }, "'3' listed twice"));
        QVERIFY(throwsMentioning([&] { binaryView(d, {}, {"5"}); }, "no positive"));
        QVERIFY(throwsMentioning([&] { binaryView(d, {"3"}, {}); }, "no negative"));
        // A class that exists but has no rows leaves a side empty.
        Dataset e = digits();
        e.classNames.push_back("0");
        QVERIFY(throwsMentioning([&] { binaryView(e, {"0"}, {"5"}); }, "'0' has no instance"));
    }

    void oneVsRestBasic() {
        const Dataset d = digits();
        const Dataset o = oneVsRest(d, "3");
        QCOMPARE(o.rows(), d.rows());
        QCOMPARE(o.classNames, (std::vector<std::string>{"rest", "3"}));
        QCOMPARE(o.labels, (std::vector<int>{0, 1, 0, 1, 0, 0}));
        QCOMPARE(o.featureNames, d.featureNames);
        QCOMPARE(o.importance, d.importance);
        QVERIFY(throwsMentioning([&] { oneVsRest(d, "4"); }, "'4'"));
        const Dataset single = makeDataset({{1}, {2}}, {0, 0}, {"only"});
        QVERIFY(throwsMentioning([&] { oneVsRest(single, "only"); }, "'rest' has no instance"));
    }

    void applyAndDescribe() {
        const Dataset d = digits();
        TaskSpec t;
        QCOMPARE(t.describe(), std::string("all classes"));
        const Dataset all = applyTask(d, t);
        QCOMPARE(all.labels, d.labels);
        QCOMPARE(all.classNames, d.classNames);
        QVERIFY(all.X == d.X);

        t.kind = TaskSpec::Kind::Binary;
        t.positive = {"3", "7"};
        t.negative = {"5"};
        QCOMPARE(t.describe(), std::string("3+7 vs 5"));
        const Dataset b = applyTask(d, t);
        QCOMPARE(b.labels, binaryView(d, {"3", "7"}, {"5"}).labels);
        QCOMPARE(b.classNames, (std::vector<std::string>{"5", "3+7"}));

        t.kind = TaskSpec::Kind::OneVsRest;
        t.positive = {"7"};
        t.negative = {};
        QCOMPARE(t.describe(), std::string("7 vs rest"));
        QCOMPARE(applyTask(d, t).labels, (std::vector<int>{0, 0, 1, 0, 0, 0}));
        t.positive = {"7", "3"};
        QVERIFY(throwsMentioning([&] { applyTask(d, t); }, "exactly one positive"));
    }
};

QTEST_APPLESS_MAIN(TestPreprocess)
#include "test_preprocess.moc"
