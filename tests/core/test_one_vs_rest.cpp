// One-vs-rest (core/learners/one_vs_rest.h). Reference: each column trained directly on the
// binary problem oneVsRest(d, class k) must equal the wrapper's column exactly.

#include "core/data/task.h"
#include "core/learners/mcf.h"
#include "core/learners/one_vs_rest.h"
#include "core/util/rng.h"

#include <QtTest>

#include <stop_token>
#include <vector>

using namespace fdlab;

namespace {

// 3 blobs in 4 features: class c has mean 2 on feature c.
Dataset blobs() {
    Rng rng(3);
    Dataset d;
    d.name = "blobs";
    const int N = 90, D = 4;
    d.X.resize(N, D);
    for (int i = 0; i < N; ++i) {
        const int c = i % 3;
        d.labels.push_back(c);
        for (int j = 0; j < D; ++j) d.X(i, j) = static_cast<float>(rng.normal() * 0.7 + (j == c ? 2.0 : 0.0));
    }
    d.classNames = {"a", "b", "c"};
    d.fillDefaults();
    return d;
}

McfParams mcfParams() {
    McfParams p;
    p.loss = McfLoss::Logistic;
    p.noise = McfNoise::Blankout;
    p.q = 0.3;
    return p;
}

}  // namespace

class TestOneVsRest : public QObject {
    Q_OBJECT

private slots:
    void columnsEqualDirectBinaryFits() {
        const Dataset d = blobs();
        const McfParams p = mcfParams();
        std::vector<double> fractions;
        RunControl rc;
        rc.onProgress = [&](const Progress& pr) { fractions.push_back(pr.fraction); };
        const FitResult r = fitOneVsRest(d, [&](const Dataset& b, const RunControl& sub) { return fitMcf(b, p, sub); }, rc);
        QCOMPARE(r.status, Status::Converged);
        QCOMPARE(r.model.W.rows(), 4);
        QCOMPARE(r.model.W.cols(), 3);
        QCOMPARE(r.model.b.size(), 3);
        QVERIFY(r.model.classNames == d.classNames);
        double objSum = 0;
        long itSum = 0;
        for (int k = 0; k < 3; ++k) {
            const FitResult direct = fitMcf(oneVsRest(d, d.classNames[static_cast<std::size_t>(k)]), p);
            QVERIFY(r.model.W.col(k) == direct.model.W.col(0));
            QCOMPARE(r.model.b(k), direct.model.b(0));
            objSum += direct.objective;
            itSum += direct.iterations;
        }
        QCOMPARE(r.objective, objSum);
        QCOMPARE(r.iterations, itSum);
        // The stacked model classifies the blobs (argmax of the three scores).
        QVERIFY(r.model.errorRate(d) < 0.1);
        // Progress: monotone, in [0, 1], ends at 1.
        QVERIFY(!fractions.empty());
        for (std::size_t i = 1; i < fractions.size(); ++i) QVERIFY(fractions[i] >= fractions[i - 1]);
        QVERIFY(fractions.front() >= 0.0);
        QCOMPARE(fractions.back(), 1.0);
    }

    void binaryPassesThrough() {
        const Dataset d = oneVsRest(blobs(), "b");
        const McfParams p = mcfParams();
        const FitResult r = fitOneVsRest(d, [&](const Dataset& b, const RunControl& sub) { return fitMcf(b, p, sub); });
        const FitResult direct = fitMcf(d, p);
        QCOMPARE(r.model.W.cols(), 1);
        QVERIFY(r.model.W == direct.model.W);
    }

    void cancelAfterFirstClass() {
        const Dataset d = blobs();
        std::stop_source src;
        RunControl rc;
        rc.stop = src.get_token();
        int calls = 0;
        const FitResult r = fitOneVsRest(d, [&](const Dataset& b, const RunControl& sub) {
            ++calls;
            FitResult s = fitMcf(b, mcfParams(), sub);
            src.request_stop();   // the user presses Stop during the first sub-problem
            return s;
        }, rc);
        QCOMPARE(r.status, Status::Cancelled);
        QCOMPARE(calls, 1);
        QVERIFY(r.model.W.col(0).norm() > 0);
        QCOMPARE(r.model.W.col(1).norm(), 0.0);
        QCOMPARE(r.model.W.col(2).norm(), 0.0);
    }

    void failureNamesTheClass() {
        const Dataset d = blobs();
        const FitResult r = fitOneVsRest(d, [&](const Dataset& b, const RunControl&) {
            FitResult s;
            s.model = LinearModel::binary(Eigen::VectorXd::Zero(b.features()), 0.0, b.classNames);
            s.status = b.classNames[1] == "b" ? Status::Failed : Status::Converged;
            s.message = "boom";
            return s;
        });
        QCOMPARE(r.status, Status::Failed);
        QVERIFY(r.message.find("class b") != std::string::npos);
        QVERIFY(r.message.find("boom") != std::string::npos);
    }

    void rejectsBadInput() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitOneVsRest(blobs(), BinaryFit{}));
        const BinaryFit wrongShape = [](const Dataset& b, const RunControl&) {
            FitResult s;
            s.model = LinearModel::binary(Eigen::VectorXd::Zero(b.features() + 1), 0.0, b.classNames);
            s.status = Status::Converged;
            return s;
        };
        QVERIFY_THROWS_EXCEPTION(std::logic_error, fitOneVsRest(blobs(), wrongShape));
    }
};

QTEST_APPLESS_MAIN(TestOneVsRest)
#include "test_one_vs_rest.moc"
