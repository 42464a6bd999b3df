// The liblinear baselines (core/learners/liblinear_baseline.h): the objective we report against
// one recomputed here from the returned w, optimality conditions checked independently, label
// order, accuracy on separable toys, determinism and parameter errors. Fixed seeds.

#include "core/learners/liblinear_baseline.h"
#include "core/util/rng.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace fdlab;

namespace {

/// Noisy linear rule (noise 0: separable with margin `gap` around the hyperplane).
Dataset linearData(std::uint64_t seed, int m, int n, double noise, double gap = 0.0, bool firstIsNegative = false) {
    Rng rng(seed);
    Eigen::VectorXd truth(n);
    for (int j = 0; j < n; ++j) truth(j) = rng.normal();
    truth /= truth.norm();
    Dataset d;
    d.name = "linear";
    d.X.resize(m, n);
    int i = 0;
    while (i < m) {
        double s = 0.2;
        for (int j = 0; j < n; ++j) {
            d.X(i, j) = static_cast<float>(rng.bernoulli(0.2) ? 0.0 : rng.uniform(-1.0, 1.0));
            s += truth(j) * d.X(i, j);
        }
        if (std::abs(s) < gap) continue;   // leave a margin
        const int label = s + noise * rng.normal() > 0 ? 1 : 0;
        if (i == 0 && firstIsNegative && label == 1) continue;
        if (i == 0 && !firstIsNegative && label == 0) continue;
        d.labels.push_back(label);
        ++i;
    }
    d.classNames = {"neg", "pos"};
    d.fillDefaults();
    return d;
}

/// Primal hinge objective computed from scratch (x~ = (x, 1), w~ = (w, b)).
double hingeReference(const Dataset& d, const LinearModel& m, double C) {
    double s = 0;
    for (int i = 0; i < d.rows(); ++i) {
        double f = m.b(0);
        for (int j = 0; j < d.features(); ++j) f += m.W(j, 0) * static_cast<double>(d.X(i, j));
        const double y = d.labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
        s += std::max(0.0, 1.0 - y * f);
    }
    return 0.5 * (m.W.squaredNorm() + m.b(0) * m.b(0)) + C * s;
}

/// Gradient of 1/2||w~||^2 + C sum log(1 + exp(-y w~.x~)) (bias included, last).
Eigen::VectorXd logisticGradient(const Dataset& d, const LinearModel& m, double C) {
    const int n = d.features();
    Eigen::VectorXd g(n + 1);
    g << m.W.col(0), m.b(0);
    for (int i = 0; i < d.rows(); ++i) {
        double f = m.b(0);
        for (int j = 0; j < n; ++j) f += m.W(j, 0) * static_cast<double>(d.X(i, j));
        const double y = d.labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
        const double sig = 1.0 / (1.0 + std::exp(y * f));   // d/dz log(1+e^-z) = -sigma(-z)
        for (int j = 0; j < n; ++j) g(j) -= C * y * sig * static_cast<double>(d.X(i, j));
        g(n) -= C * y * sig;
    }
    return g;
}

double accuracy(const LinearModel& m, const Dataset& d) { return 1.0 - m.errorRate(d); }

}  // namespace

class TestLiblinear : public QObject {
    Q_OBJECT
private slots:
    void hingeObjectiveMatchesIndependentComputation() {
        const Dataset d = linearData(41, 200, 15, 0.4);
        for (double C : {0.1, 1.0}) {
            for (double eps : {0.1, 1e-4}) {
                LiblinearParams p;
                p.C = C;
                p.eps = eps;
                const FitResult r = fitLiblinear(d, p);
                QVERIFY(r.ok());
                const double ref = hingeReference(d, r.model, C);
                QVERIFY2(std::abs(r.objective - ref) < 1e-10 * ref,
                         qPrintable(QString("%1 vs %2").arg(r.objective, 0, 'g', 14).arg(ref, 0, 'g', 14)));
                QVERIFY(std::abs(hingeSvmObjective(d, r.model, C) - ref) < 1e-10 * ref);
            }
        }
        // A tighter tolerance never ends at a (meaningfully) worse objective.
        LiblinearParams loose, tight;
        tight.eps = 1e-5;
        const double jl = fitLiblinear(d, loose).objective, jt = fitLiblinear(d, tight).objective;
        QVERIFY(jt <= jl * (1 + 1e-9));
    }

    void hingeOptimalityByPerturbation() {
        // At the tight optimum no small coordinate move lowers the (convex) objective.
        const Dataset d = linearData(42, 120, 8, 0.5);
        LiblinearParams p;
        p.eps = 1e-7;
        const FitResult r = fitLiblinear(d, p);
        const double J = hingeReference(d, r.model, p.C);
        for (int j = 0; j <= d.features(); ++j) {
            for (double h : {1e-3, -1e-3}) {
                LinearModel m = r.model;
                if (j < d.features()) m.W(j, 0) += h;
                else m.b(0) += h;
                QVERIFY2(hingeReference(d, m, p.C) >= J - 1e-6 * J,
                         qPrintable(QString("coordinate %1 step %2").arg(j).arg(h)));
            }
        }
    }

    void logisticStationaryAndObjective() {
        const Dataset d = linearData(43, 300, 10, 0.5);
        LiblinearParams p;
        p.solver = LiblinearSolver::LogisticRegression;
        p.eps = 1e-8;
        p.C = 0.5;
        const FitResult r = fitLiblinear(d, p);
        QCOMPARE(r.status, Status::Converged);
        const Eigen::VectorXd g = logisticGradient(d, r.model, p.C);
        QVERIFY2(g.norm() < 1e-5, qPrintable(QString("gradient norm %1").arg(g.norm())));
        double ref = 0.5 * (r.model.W.squaredNorm() + r.model.b(0) * r.model.b(0));
        for (int i = 0; i < d.rows(); ++i) ref += p.C * std::log(1.0 + std::exp(-d.y(i) * r.model.score(d, i)));
        QVERIFY(std::abs(r.objective - ref) < 1e-10 * ref);
    }

    void separableToyAccuracy_data() {
        QTest::addColumn<bool>("logistic");
        QTest::addColumn<bool>("firstNegative");
        QTest::newRow("hinge, first row positive") << false << false;
        QTest::newRow("hinge, first row negative") << false << true;
        QTest::newRow("logistic, first row positive") << true << false;
        QTest::newRow("logistic, first row negative") << true << true;
    }
    void separableToyAccuracy() {
        // liblinear numbers labels by first appearance; whichever comes first, score > 0 must
        // mean class index 1.
        QFETCH(bool, logistic);
        QFETCH(bool, firstNegative);
        const Dataset train = linearData(44, 300, 5, 0.0, 0.1, firstNegative);
        const Dataset test = linearData(44, 300, 5, 0.0, 0.1, !firstNegative);   // same rule
        QCOMPARE(train.labels[0], firstNegative ? 0 : 1);
        LiblinearParams p;
        p.C = 100;
        if (logistic) p.solver = LiblinearSolver::LogisticRegression;
        const FitResult r = fitLiblinear(train, p);
        QVERIFY(r.ok());
        QVERIFY2(accuracy(r.model, train) >= 0.98, qPrintable(QString::number(accuracy(r.model, train))));
        QVERIFY2(accuracy(r.model, test) >= 0.95, qPrintable(QString::number(accuracy(r.model, test))));
        QCOMPARE(r.model.classNames, train.classNames);
    }

    void labelOrderDoesNotChangeTheSolution() {
        // The same rows, with the first row of the other class moved to the front: same optimum.
        const Dataset d = linearData(45, 150, 6, 0.3);
        int k = 0;
        while (d.labels[static_cast<std::size_t>(k)] == d.labels[0]) ++k;
        std::vector<int> order{k};
        for (int i = 0; i < d.rows(); ++i)
            if (i != k) order.push_back(i);
        const Dataset r = d.subset(order);
        QVERIFY(d.labels.front() != r.labels.front());
        LiblinearParams p;
        p.eps = 1e-8;
        p.solver = LiblinearSolver::LogisticRegression;   // strictly convex: unique w
        const FitResult a = fitLiblinear(d, p), b = fitLiblinear(r, p);
        QVERIFY((a.model.W - b.model.W).norm() < 1e-5);
        QVERIFY(std::abs(a.model.b(0) - b.model.b(0)) < 1e-5);
    }

    void deterministicAndNoBias() {
        const Dataset d = linearData(46, 200, 10, 0.4);
        LiblinearParams p;
        const FitResult a = fitLiblinear(d, p), b = fitLiblinear(d, p);
        QVERIFY(a.model.W == b.model.W);
        QCOMPARE(a.model.b(0), b.model.b(0));
        p.bias = -1;
        const FitResult nb = fitLiblinear(d, p);
        QCOMPARE(nb.model.b(0), 0.0);
        // Without a bias the objective has no bias term and the hinge uses w.x only.
        double ref = 0.5 * nb.model.W.squaredNorm();
        for (int i = 0; i < d.rows(); ++i) ref += std::max(0.0, 1.0 - d.y(i) * d.dot(i, nb.model.w()));
        QVERIFY(std::abs(nb.objective - ref) < 1e-10 * ref);
    }

    void errors() {
        const Dataset d = linearData(47, 50, 4, 0.4);
        auto bad = [&](auto mutate) {
            LiblinearParams p;
            mutate(p);
            try {
                fitLiblinear(d, p);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(bad([](LiblinearParams& p) { p.C = 0; }));
        QVERIFY(bad([](LiblinearParams& p) { p.C = std::nan(""); }));
        QVERIFY(bad([](LiblinearParams& p) { p.eps = -1; }));
        QVERIFY(bad([](LiblinearParams& p) { p.bias = 0; }));
        QVERIFY(bad([](LiblinearParams& p) { p.solver = static_cast<LiblinearSolver>(7); }));
        Dataset three = d;
        three.classNames.push_back("third");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitLiblinear(three, LiblinearParams{}));
        Dataset oneClass = d;
        for (int& l : oneClass.labels) l = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitLiblinear(oneClass, LiblinearParams{}));
        // Cancelled before training: a normal status, not an exception.
        std::stop_source src;
        src.request_stop();
        RunControl rc;
        rc.stop = src.get_token();
        QCOMPARE(fitLiblinear(d, LiblinearParams{}, rc).status, Status::Cancelled);
    }
};

QTEST_APPLESS_MAIN(TestLiblinear)
#include "test_liblinear.moc"
