// Seeded stratified splits (core/data/split.h) on in-memory datasets with known class sizes.
// Per-class part sizes are checked against hand-computed numbers (rule: n_test = round(n_c f),
// halves away from zero, clamped to [1, n_c - 1] when n_c >= 2); parts must be disjoint, cover
// every row, and come out sorted ascending. The shuffle itself is checked for uniformity: over
// many seeds each row lands in the test part with frequency f.

#include "core/data/split.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

/// Classes given by a label per row; X(i, 0) = i so rows can be recognised.
Dataset makeDataset(const std::vector<int>& labels, std::vector<std::string> classNames) {
    Dataset d;
    d.name = "toy";
    d.X.resize(static_cast<Eigen::Index>(labels.size()), 1);
    for (std::size_t i = 0; i < labels.size(); ++i) d.X(static_cast<Eigen::Index>(i), 0) = static_cast<float>(i);
    d.labels = labels;
    d.classNames = std::move(classNames);
    d.fillDefaults();
    return d;
}

/// 30 rows, class 0 = every third row (10 rows), class 1 the other 20: classes interleaved, so
/// a split that ignored labels would not come out stratified.
Dataset tenTwenty() {
    std::vector<int> labels;
    for (int i = 0; i < 30; ++i) labels.push_back(i % 3 == 0 ? 0 : 1);
    return makeDataset(labels, {"cat", "dog"});
}

std::vector<int> countPerClass(const Dataset& d, const std::vector<int>& idx) {
    std::vector<int> c(static_cast<std::size_t>(d.numClasses()), 0);
    for (int i : idx) ++c[static_cast<std::size_t>(d.labels[static_cast<std::size_t>(i)])];
    return c;
}

/// Parts are sorted ascending, pairwise disjoint, and together hold every row exactly once.
bool partitionOk(int rows, const std::vector<std::vector<int>>& parts) {
    std::vector<int> all;
    for (const auto& p : parts) {
        if (!std::is_sorted(p.begin(), p.end())) return false;
        all.insert(all.end(), p.begin(), p.end());
    }
    std::sort(all.begin(), all.end());
    if (static_cast<int>(all.size()) != rows) return false;
    for (int i = 0; i < rows; ++i)
        if (all[static_cast<std::size_t>(i)] != i) return false;
    return true;
}

template <class F>
bool throwsMentioning(F&& f, const std::string& word) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(word) != std::string::npos;
    }
    return false;
}

}  // namespace

class TestSplits : public QObject {
    Q_OBJECT
private slots:
    void trainTestCounts() {
        const Dataset d = tenTwenty();
        const TrainTest s = stratifiedSplit(d, 0.3, 42);
        QVERIFY(partitionOk(d.rows(), {s.train, s.test}));
        // round(10 * 0.3) = 3, round(20 * 0.3) = 6.
        QCOMPARE(countPerClass(d, s.test), (std::vector<int>{3, 6}));
        QCOMPARE(countPerClass(d, s.train), (std::vector<int>{7, 14}));
    }

    void roundingRule() {
        const Dataset d = tenTwenty();
        // 10 * 0.25 = 2.5 rounds up to 3; 20 * 0.25 = 5.
        QCOMPARE(countPerClass(d, stratifiedSplit(d, 0.25, 1).test), (std::vector<int>{3, 5}));
        // 10 * 0.05 = 0.5 -> 1; 20 * 0.05 = 1.
        QCOMPARE(countPerClass(d, stratifiedSplit(d, 0.05, 1).test), (std::vector<int>{1, 1}));
        // 10 * 0.01 = 0.1 -> 0, raised to 1; 20 * 0.01 = 0.2 -> 0, raised to 1.
        QCOMPARE(countPerClass(d, stratifiedSplit(d, 0.01, 1).test), (std::vector<int>{1, 1}));
        // 10 * 0.99 = 9.9 -> 10, lowered to 9 (train keeps one); 20 * 0.99 = 19.8 -> 20 -> 19.
        QCOMPARE(countPerClass(d, stratifiedSplit(d, 0.99, 1).test), (std::vector<int>{9, 19}));
    }

    void singletonAndEmptyClass() {
        // Class "b" has one row (goes to train), class "c" none; class "a" 4 rows, f = 0.5 -> 2.
        const Dataset d = makeDataset({0, 0, 1, 0, 0}, {"a", "b", "c"});
        const TrainTest s = stratifiedSplit(d, 0.5, 7);
        QVERIFY(partitionOk(d.rows(), {s.train, s.test}));
        QCOMPARE(countPerClass(d, s.test), (std::vector<int>{2, 0, 0}));
        QCOMPARE(countPerClass(d, s.train), (std::vector<int>{2, 1, 0}));
    }

    void seedDeterminism() {
        const Dataset d = tenTwenty();
        const TrainTest a = stratifiedSplit(d, 0.3, 123);
        const TrainTest b = stratifiedSplit(d, 0.3, 123);
        const TrainTest c = stratifiedSplit(d, 0.3, 124);
        QCOMPARE(a.test, b.test);
        QCOMPARE(a.train, b.train);
        QVERIFY(a.test != c.test);
        const auto f1 = stratifiedKFold(d, 5, 9), f2 = stratifiedKFold(d, 5, 9), f3 = stratifiedKFold(d, 5, 10);
        for (std::size_t f = 0; f < f1.size(); ++f) QCOMPARE(f1[f].test, f2[f].test);
        QVERIFY(f1[0].test != f3[0].test);
    }

    void shuffleIsUniform() {
        // Each row of a class is in the test part with probability 3/10 (class 0) and 6/20
        // (class 1), i.e. 0.3. Over 2000 seeds the standard error of a frequency is
        // sqrt(0.21 / 2000) = 0.010, so 0.05 is five standard errors.
        const Dataset d = tenTwenty();
        std::vector<int> hits(30, 0);
        const int seeds = 2000;
        for (int s = 0; s < seeds; ++s)
            for (int i : stratifiedSplit(d, 0.3, static_cast<std::uint64_t>(s)).test) ++hits[static_cast<std::size_t>(i)];
        for (int i = 0; i < 30; ++i) {
            const double freq = hits[static_cast<std::size_t>(i)] / double(seeds);
            QVERIFY2(std::abs(freq - 0.3) < 0.05, qPrintable(QString("row %1: %2").arg(i).arg(freq)));
        }
    }

    void threeWayCounts() {
        const Dataset d = tenTwenty();
        const TrainValTest s = stratifiedSplit3(d, 0.2, 0.3, 5);
        QVERIFY(partitionOk(d.rows(), {s.train, s.validation, s.test}));
        // class 0: val round(2.0) = 2, test 3, train 5; class 1: val 4, test 6, train 10.
        QCOMPARE(countPerClass(d, s.validation), (std::vector<int>{2, 4}));
        QCOMPARE(countPerClass(d, s.test), (std::vector<int>{3, 6}));
        QCOMPARE(countPerClass(d, s.train), (std::vector<int>{5, 10}));

        // Small classes: 3 rows -> one in each part (0.1 * 3 = 0.3 -> 0, raised to 1); 2 rows ->
        // one train, one test; 1 row -> train.
        const Dataset small = makeDataset({0, 0, 0, 1, 1, 2}, {"a", "b", "c"});
        const TrainValTest t = stratifiedSplit3(small, 0.1, 0.1, 3);
        QVERIFY(partitionOk(small.rows(), {t.train, t.validation, t.test}));
        QCOMPARE(countPerClass(small, t.train), (std::vector<int>{1, 1, 1}));
        QCOMPARE(countPerClass(small, t.validation), (std::vector<int>{1, 0, 0}));
        QCOMPARE(countPerClass(small, t.test), (std::vector<int>{1, 1, 0}));
    }

    void byCounts() {
        const Dataset d = tenTwenty();
        const TrainValTest s = splitByCounts(d, 5, 2, 3, 11);
        QCOMPARE(countPerClass(d, s.train), (std::vector<int>{5, 5}));
        QCOMPARE(countPerClass(d, s.validation), (std::vector<int>{2, 2}));
        QCOMPARE(countPerClass(d, s.test), (std::vector<int>{3, 3}));
        std::set<int> seen;
        for (const auto* p : {&s.train, &s.validation, &s.test}) {
            QVERIFY(std::is_sorted(p->begin(), p->end()));
            for (int i : *p) QVERIFY(seen.insert(i).second);  // disjoint
        }
        QCOMPARE(int(seen.size()), 20);

        // perClassTest < 0: the rest (10 - 7 = 3, 20 - 7 = 13): a partition of all rows.
        const TrainValTest r = splitByCounts(d, 5, 2, -1, 11);
        QVERIFY(partitionOk(d.rows(), {r.train, r.validation, r.test}));
        QCOMPARE(countPerClass(d, r.test), (std::vector<int>{3, 13}));
        // Same seed: the train part does not depend on perClassTest.
        QCOMPARE(r.train, s.train);

        // Exactly enough is fine; one more names the short class.
        QCOMPARE(countPerClass(d, splitByCounts(d, 8, 0, 2, 1).test), (std::vector<int>{2, 2}));
        QVERIFY(throwsMentioning([&] { splitByCounts(d, 8, 1, 2, 1); }, "'cat'"));
        QVERIFY(throwsMentioning([&] { splitByCounts(d, 8, 1, 2, 1); }, "11 needed"));
        QVERIFY(throwsMentioning([&] { splitByCounts(d, 11, 0, -1, 1); }, "'cat'"));
        QVERIFY(throwsMentioning([&] { splitByCounts(d, 0, 0, 1, 1); }, "training instances per class"));
        QVERIFY(throwsMentioning([&] { splitByCounts(d, 1, -1, 1, 1); }, "validation instances per class"));
    }

    void kFold() {
        const Dataset d = tenTwenty();
        const int k = 3;
        const auto folds = stratifiedKFold(d, k, 77);
        QCOMPARE(int(folds.size()), k);
        std::vector<int> timesInTest(30, 0);
        std::vector<int> totals;
        for (const auto& f : folds) {
            QVERIFY(partitionOk(d.rows(), {f.train, f.test}));  // train = complement of test
            for (int i : f.test) ++timesInTest[static_cast<std::size_t>(i)];
            const auto c = countPerClass(d, f.test);
            // 10 / 3 -> slices of 3 or 4; 20 / 3 -> 6 or 7.
            QVERIFY(c[0] == 3 || c[0] == 4);
            QVERIFY(c[1] == 6 || c[1] == 7);
            totals.push_back(int(f.test.size()));
        }
        for (int t : timesInTest) QCOMPARE(t, 1);
        // 30 rows / 3 folds: every fold exactly 10 (remainders spread across folds).
        QCOMPARE(totals, (std::vector<int>{10, 10, 10}));

        // k = smallest class size (10): each class-0 row alone in its fold, class 1 two per fold.
        for (const auto& f : stratifiedKFold(d, 10, 1)) QCOMPARE(countPerClass(d, f.test), (std::vector<int>{1, 2}));
        // 7 folds: class 0 slices of 1 or 2, class 1 of 2 or 3, totals 4 or 5 (30 = 2*5 + 5*4).
        int total = 0;
        for (const auto& f : stratifiedKFold(d, 7, 1)) {
            const auto c = countPerClass(d, f.test);
            QVERIFY(c[0] == 1 || c[0] == 2);
            QVERIFY(c[1] == 2 || c[1] == 3);
            QVERIFY(f.test.size() == 4 || f.test.size() == 5);
            total += int(f.test.size());
        }
        QCOMPARE(total, 30);
    }

    void badArguments() {
        const Dataset d = tenTwenty();
        for (double f : {0.0, 1.0, -0.1, 1.5, std::nan("")})
            QVERIFY(throwsMentioning([&] { stratifiedSplit(d, f, 1); }, "test fraction"));
        QVERIFY(throwsMentioning([&] { stratifiedSplit3(d, 0.0, 0.3, 1); }, "validation fraction"));
        QVERIFY(throwsMentioning([&] { stratifiedSplit3(d, 0.3, 1.0, 1); }, "test fraction"));
        QVERIFY(throwsMentioning([&] { stratifiedSplit3(d, 0.5, 0.5, 1); }, "validation fraction + test fraction"));
        QVERIFY(throwsMentioning([&] { stratifiedKFold(d, 1, 1); }, "k = 1"));
        QVERIFY(throwsMentioning([&] { stratifiedKFold(d, 11, 1); }, "k = 11"));
        const Dataset one = makeDataset({0}, {"a"});
        QVERIFY(throwsMentioning([&] { stratifiedSplit(one, 0.5, 1); }, "at least 2 rows"));
        QVERIFY(throwsMentioning([&] { stratifiedKFold(one, 2, 1); }, "at least 2 rows"));
        Dataset bad = tenTwenty();
        bad.labels[4] = 5;
        QVERIFY(throwsMentioning([&] { stratifiedSplit(bad, 0.5, 1); }, "label index 5"));
    }
};

QTEST_APPLESS_MAIN(TestSplits)
#include "test_splits.moc"
