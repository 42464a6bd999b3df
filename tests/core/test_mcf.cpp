// MCF (core/learners/mcf.h), the L-BFGS adapter (core/solvers/lbfgs_minimizer.h) and the
// trust-region Newton solver (core/solvers/trust_region_newton.h).
// References: central finite differences for every gradient, Monte-Carlo averages of the
// corrupted loss (sampled here, independently of mcf_noise.h) for the closed-form expectations,
// ridge regression solved by QR for Gaussian/Laplace quadratic MCF, the plain losses written out
// for q = 0, Rosenbrock's known minimiser for L-BFGS and Newton, central differences of the
// gradient for Newton's Hessian-vector products, and L-BFGS's optimum for Newton's.

#include "core/data/bundled.h"
#include "core/learners/mcf.h"
#include "core/solvers/lbfgs_minimizer.h"
#include "core/solvers/trust_region_newton.h"
#include "core/util/rng.h"

#include <Eigen/QR>
#include <QtTest>

#include <cmath>
#include <functional>
#include <stop_token>
#include <vector>

using namespace fdlab;

// QCOMPARE would print a Status through fdlab::toString (found by ADL), whose static string
// QTest then deletes: a failing comparison aborts the run. Compare and print it here instead.
#define QCOMPARE_STATUS(actual, expected)                                                                  \
    QVERIFY2((actual) == (expected),                                                                        \
             qPrintable(QString("status %1, expected %2").arg(toString(actual)).arg(toString(expected))))

namespace {

Dataset makeData(const std::vector<std::vector<float>>& rows, const std::vector<int>& labels, int classes) {
    Dataset d;
    d.name = "tiny";
    d.X.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows[0].size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = 0; j < rows[i].size(); ++j)
            d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
    d.labels = labels;
    for (int c = 0; c < classes; ++c) d.classNames.push_back("c" + std::to_string(c));
    d.fillDefaults();
    return d;
}

// N x D non-negative blobs: row i has class i mod classes; x_ij = 0 with probability
// zeroFraction, else |sd * normal + mean(j, class)|.
template <class Mean>
Dataset blobs(std::uint64_t seed, int N, int D, int classes, double zeroFraction, double sd, Mean mean) {
    Rng rng(seed);
    std::vector<std::vector<float>> X(static_cast<std::size_t>(N), std::vector<float>(static_cast<std::size_t>(D)));
    std::vector<int> y(static_cast<std::size_t>(N));
    for (int i = 0; i < N; ++i) {
        const int c = i % classes;
        y[static_cast<std::size_t>(i)] = c;
        for (int j = 0; j < D; ++j)
            X[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] =
                zeroFraction > 0.0 && rng.bernoulli(zeroFraction) ? 0.0f : static_cast<float>(std::abs(sd * rng.normal() + mean(j, c)));
    }
    return makeData(X, y, classes);
}

// 6 examples x 4 features, non-negative (Poisson-compatible), with zeros.
Dataset tiny(int classes) {
    const std::vector<std::vector<float>> X = {{1.0f, 0.0f, 0.5f, 1.5f}, {0.0f, 2.0f, 1.0f, 0.0f},
                                               {0.5f, 0.5f, 0.0f, 1.0f}, {1.5f, 0.0f, 0.0f, 0.5f},
                                               {0.0f, 1.0f, 1.5f, 0.5f}, {2.0f, 0.5f, 1.0f, 0.0f}};
    std::vector<int> y = {1, 0, 1, 0, 0, 1};
    if (classes == 3) y = {0, 1, 2, 2, 1, 0};
    return makeData(X, y, classes);
}

McfParams params(McfLoss loss, McfNoise noise) {
    McfParams p;
    p.loss = loss;
    p.noise = noise;
    p.q = 0.3;
    p.qPerFeature = {0.1, 0.5, 0.3, 0.7};
    p.sigma = 0.4;
    p.laplaceScale = 0.2;
    p.l2 = 0.1;
    return p;
}

Eigen::VectorXd randomTheta(int dim, std::uint64_t seed, double scale) {
    Rng rng(seed);
    Eigen::VectorXd t(dim);
    for (int i = 0; i < dim; ++i) t(i) = scale * rng.uniform(-1.0, 1.0);
    return t;
}

// Relative error of the analytic gradient against central differences.
double gradientError(const McfObjective& obj, const Eigen::VectorXd& theta) {
    Eigen::VectorXd g, tmp;
    obj(theta, g);
    Eigen::VectorXd fd(theta.size());
    const double h = 1e-5;
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        Eigen::VectorXd a = theta, b = theta;
        a(i) += h;
        b(i) -= h;
        fd(i) = (obj(a, tmp) - obj(b, tmp)) / (2 * h);
    }
    return (g - fd).norm() / std::max(1e-12, fd.norm());
}

// Independent sampler of the corrupting distributions (paper Table 1).
double corrupt(McfNoise noise, double q, double sigma, double lambda, double x, Rng& rng) {
    switch (noise) {
    case McfNoise::Blankout: return rng.uniform() < q ? 0.0 : x / (1.0 - q);
    case McfNoise::Gaussian: return x + sigma * rng.normal();
    case McfNoise::Laplace: {
        const double u = rng.uniform() - 0.5;
        return x - lambda * (u < 0 ? -1.0 : 1.0) * std::log(1.0 - 2.0 * std::abs(u));
    }
    case McfNoise::Poisson: {
        const double L = std::exp(-x);
        int k = 0;
        double prod = 1.0;
        do {
            ++k;
            prod *= rng.uniform();
        } while (prod > L);
        return k - 1;
    }
    }
    return x;
}

// Plain (uncorrupted) loss of one example with scores f = W^T x + b.
double plainLoss(McfLoss loss, const Eigen::VectorXd& f, int cls, int K) {
    if (K == 1) {
        const double y = cls == 1 ? 1.0 : -1.0;
        switch (loss) {
        case McfLoss::Quadratic: return (f(0) - y) * (f(0) - y);
        case McfLoss::Exponential: return std::exp(-y * f(0));
        case McfLoss::Logistic: return std::log1p(std::exp(-y * f(0)));
        }
    }
    double s = 0;
    switch (loss) {
    case McfLoss::Quadratic:
        for (int k = 0; k < K; ++k) s += (f(k) - (k == cls ? 1.0 : 0.0)) * (f(k) - (k == cls ? 1.0 : 0.0));
        return s;
    case McfLoss::Exponential:
        for (int k = 0; k < K; ++k) s += (k == cls ? 1.0 : -1.0 / (K - 1)) * f(k);
        return std::exp(-s);
    case McfLoss::Logistic:
        for (int k = 0; k < K; ++k) s += std::exp(f(k) - f(cls));
        return std::log(s);
    }
    return 0;
}

Eigen::VectorXd scoresOf(const Eigen::VectorXd& theta, const Eigen::VectorXd& x, int K, bool bias) {
    const int D = static_cast<int>(x.size());
    const Eigen::Map<const Eigen::MatrixXd> W(theta.data(), D, K);
    Eigen::VectorXd f = W.transpose() * x;
    if (bias) f += theta.tail(K);
    return f;
}

struct McStats {
    double mean = 0, se = 0;
};

// Monte-Carlo mean (and standard error) of g(corrupted data), `draws` draws.
McStats monteCarlo(const Dataset& d, const McfParams& p, int draws, std::uint64_t seed,
                   const std::function<double(const std::vector<Eigen::VectorXd>&)>& g) {
    Rng rng(seed);
    double sum = 0, sum2 = 0;
    std::vector<Eigen::VectorXd> xs(static_cast<std::size_t>(d.rows()), Eigen::VectorXd(d.features()));
    for (int m = 0; m < draws; ++m) {
        for (int i = 0; i < d.rows(); ++i)
            for (int j = 0; j < d.features(); ++j) {
                const double q = p.qPerFeature.empty() ? p.q : p.qPerFeature[static_cast<std::size_t>(j)];
                xs[static_cast<std::size_t>(i)](j) = corrupt(p.noise, q, p.sigma, p.laplaceScale, d.value(i, j), rng);
            }
        const double v = g(xs);
        sum += v;
        sum2 += v * v;
    }
    McStats s;
    s.mean = sum / draws;
    s.se = std::sqrt(std::max(0.0, sum2 / draws - s.mean * s.mean) / draws);
    return s;
}

const McfNoise kNoises[] = {McfNoise::Blankout, McfNoise::Gaussian, McfNoise::Laplace, McfNoise::Poisson};

// Newton's objective against McfObjective at theta: value and gradient equal to tol, and H v
// within 1e-6 of the central difference of the independent gradient. Returns H v.
Eigen::VectorXd checkNewton(const McfObjective& obj, McfNewtonObjective& newton, const Eigen::VectorXd& theta,
                            const Eigen::VectorXd& v, double tol) {
    Eigen::VectorXd g, gN, Hv, gp, gm;
    const double J = obj(theta, g);
    [&] {
        QVERIFY(std::abs(newton.value(theta) - J) <= tol * std::abs(J));
        newton.gradient(theta, gN);
        QVERIFY((gN - g).norm() <= tol * std::max(1.0, g.norm()));
        newton.hessianTimes(v, Hv);
        const double h = 1e-5;
        obj(theta + h * v, gp);
        obj(theta - h * v, gm);
        const Eigen::VectorXd fd = (gp - gm) / (2 * h);
        const double err = (Hv - fd).norm() / std::max(1e-12, fd.norm());
        QVERIFY2(err < 1e-6, qPrintable(QString("relative H v error %1").arg(err)));
    }();
    return Hv;
}

}  // namespace

class TestMcf : public QObject {
    Q_OBJECT

private slots:
    // ---- L-BFGS adapter ----
    void lbfgsRosenbrock() {
        const LbfgsObjective f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            const double a = 1 - x(0), b = x(1) - x(0) * x(0);
            g.resize(2);
            g(0) = -2 * a - 400 * x(0) * b;
            g(1) = 200 * b;
            return a * a + 100 * b * b;
        };
        LbfgsParams p;
        p.epsilon = 1e-9;
        p.epsilonRel = 1e-9;
        long reports = 0;
        RunControl rc;
        rc.onProgress = [&](const Progress&) { ++reports; };
        const LbfgsResult r = minimizeLbfgs(f, Eigen::Vector2d(-1.2, 1.0), p, rc);
        QCOMPARE_STATUS(r.status, Status::Converged);
        QVERIFY(std::abs(r.x(0) - 1) < 1e-7 && std::abs(r.x(1) - 1) < 1e-7);
        QVERIFY(r.fx < 1e-14);
        QCOMPARE(reports, r.evaluations);
        QVERIFY(r.iterations > 10 && r.iterations < 200);
    }

    void lbfgsMaxIterationsAndCancel() {
        const LbfgsObjective f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            const double a = 1 - x(0), b = x(1) - x(0) * x(0);
            g.resize(2);
            g(0) = -2 * a - 400 * x(0) * b;
            g(1) = 200 * b;
            return a * a + 100 * b * b;
        };
        LbfgsParams p;
        p.maxIterations = 3;
        const LbfgsResult r = minimizeLbfgs(f, Eigen::Vector2d(-1.2, 1.0), p);
        QCOMPARE_STATUS(r.status, Status::MaxIterations);
        QCOMPARE(r.iterations, 3L);
        QVERIFY(r.fx < 24.2);   // f(-1.2, 1) = 24.2: some progress

        std::stop_source src;
        RunControl rc;
        rc.stop = src.get_token();
        long seen = 0;
        rc.onProgress = [&](const Progress&) {
            if (++seen == 4) src.request_stop();
        };
        p.maxIterations = 1000;
        const LbfgsResult c = minimizeLbfgs(f, Eigen::Vector2d(-1.2, 1.0), p, rc);
        QCOMPARE_STATUS(c.status, Status::Cancelled);
        QCOMPARE(c.evaluations, 4L);
        QVERIFY(c.fx <= 24.2);
    }

    void lbfgsWrongGradientFails() {
        // The gradient has the wrong sign: no step decreases f along -g, the line search fails.
        const LbfgsObjective f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            g = -2 * x;
            return x.squaredNorm();
        };
        const LbfgsResult r = minimizeLbfgs(f, Eigen::Vector2d(1.0, 2.0), LbfgsParams{});
        QCOMPARE_STATUS(r.status, Status::Failed);
        QVERIFY(!r.message.empty());
        QVERIFY(r.fx <= 5.0);   // the best point seen, not a failed trial point
        LbfgsParams bad;
        bad.m = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, minimizeLbfgs(f, Eigen::Vector2d(1.0, 2.0), bad));
    }

    // ---- gradients ----
    void gradientsMatchFiniteDifferences_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        QTest::addColumn<bool>("bias");
        for (McfLoss l : {McfLoss::Quadratic, McfLoss::Exponential, McfLoss::Logistic})
            for (McfNoise n : kNoises)
                for (int k : {2, 3})
                    for (bool b : {true, false}) {
                        const std::string name = std::string(toString(l)) + "/" + toString(n) + "/K" +
                                                 std::to_string(k) + (b ? "/bias" : "");
                        QTest::newRow(name.c_str()) << int(l) << int(n) << k << b;
                    }
    }
    void gradientsMatchFiniteDifferences() {
        QFETCH(int, loss);
        QFETCH(int, noise);
        QFETCH(int, classes);
        QFETCH(bool, bias);
        McfParams p = params(McfLoss(loss), McfNoise(noise));
        p.bias = bias;
        const Dataset d = tiny(classes);
        const McfObjective obj(d, p);
        QCOMPARE(obj.columns(), classes == 2 ? 1 : 3);
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const Eigen::VectorXd theta = randomTheta(obj.dimension(), seed, 0.6);
            const double err = gradientError(obj, theta);
            if (!(err < 1e-5)) qWarning("seed %d: relative gradient error %g", int(seed), err);
            QVERIFY(err < 1e-5);
        }
    }

    void hessianTimesMatchesFiniteDifferences_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        QTest::addColumn<bool>("bias");
        for (McfLoss l : {McfLoss::Exponential, McfLoss::Logistic})
            for (McfNoise n : kNoises)
                for (int k : {2, 3})
                    for (bool b : {true, false})
                        QTest::newRow((std::string(toString(l)) + "/" + toString(n) + "/K" + std::to_string(k) +
                                       (b ? "/bias" : "")).c_str())
                            << int(l) << int(n) << k << b;
    }
    void hessianTimesMatchesFiniteDifferences() {
        // Newton's objective: its value and gradient equal McfObjective's, and H v equals the
        // central difference (g(theta + h v) - g(theta - h v)) / 2h of the independent gradient.
        QFETCH(int, loss);
        QFETCH(int, noise);
        QFETCH(int, classes);
        QFETCH(bool, bias);
        McfParams p = params(McfLoss(loss), McfNoise(noise));
        p.bias = bias;
        const Dataset d = tiny(classes);
        const McfObjective obj(d, p);
        const bool supported = classes == 2 || (McfLoss(loss) == McfLoss::Logistic &&
                                                (McfNoise(noise) == McfNoise::Blankout || McfNoise(noise) == McfNoise::Poisson));
        QCOMPARE(McfNewtonObjective::supports(obj), supported);
        if (!supported) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, McfNewtonObjective{obj});
            p.solver = McfSolver::Newton;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitMcf(d, p));
            return;
        }
        McfNewtonObjective newton(obj);
        for (std::uint64_t seed : {4u, 5u, 6u}) {
            const Eigen::VectorXd theta = randomTheta(obj.dimension(), seed, 0.6);
            const Eigen::VectorXd v = randomTheta(obj.dimension(), seed + 100, 1.0);
            const Eigen::VectorXd Hv = checkNewton(obj, newton, theta, v, 1e-12);
            if (QTest::currentTestFailed()) return;
            // A rejected trust-region step: value() at another point, then H v at the accepted
            // point again must be the same product (the multi-class cache is refreshed).
            newton.value(theta + 0.3 * v);
            Eigen::VectorXd Hv2;
            newton.hessianTimes(v, Hv2);
            QVERIFY((Hv2 - Hv).norm() <= 1e-12 * std::max(1.0, Hv.norm()));
            // The preconditioner's diagonal: entry i equals (H e_i)_i.
            Eigen::VectorXd diag, e, He;
            QVERIFY(newton.hessianDiagonal(diag));
            QCOMPARE(diag.size(), Eigen::Index(obj.dimension()));
            for (int i = 0; i < obj.dimension(); ++i) {
                e.setZero(obj.dimension());
                e(i) = 1.0;
                newton.hessianTimes(e, He);
                QVERIFY2(std::abs(diag(i) - He(i)) <= 1e-12 * std::max(1.0, std::abs(He(i))),
                         qPrintable(QString("diagonal %1: %2 against H e_i %3").arg(i).arg(diag(i)).arg(He(i))));
            }
        }
    }

    void softmaxNewtonOverRowBlocks() {
        // 9,000 rows: the multi-class Newton passes run over several row blocks in parallel; the
        // value and gradient still equal McfObjective's serial ones and H v the central difference.
        Rng rng(21);
        std::vector<std::vector<float>> X(9000, std::vector<float>(4));
        std::vector<int> y(9000);
        for (std::size_t i = 0; i < X.size(); ++i) {
            y[i] = static_cast<int>(rng.below(3));
            for (int j = 0; j < 4; ++j)
                X[i][static_cast<std::size_t>(j)] = rng.uniform() < 0.4 ? 0.0f : static_cast<float>(rng.uniform(0.0, 2.0) + 0.3 * y[i] * j);
        }
        const Dataset d = makeData(X, y, 3);
        for (McfNoise n : {McfNoise::Blankout, McfNoise::Poisson}) {
            const McfObjective obj(d, params(McfLoss::Logistic, n));
            McfNewtonObjective newton(obj);
            const Eigen::VectorXd theta = randomTheta(obj.dimension(), 8, 0.6), v = randomTheta(obj.dimension(), 9, 1.0);
            checkNewton(obj, newton, theta, v, 1e-11);
            if (QTest::currentTestFailed()) return;
        }
    }

    void newtonRosenbrockAndCancel() {
        // Rosenbrock is not convex, but the trust region handles it: minimiser (1, 1).
        struct Rosenbrock final : NewtonObjective {
            Eigen::Vector2d at;
            double value(const Eigen::VectorXd& x) override {
                return 100 * std::pow(x(1) - x(0) * x(0), 2) + std::pow(1 - x(0), 2);
            }
            void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) override {
                at = x;
                g.resize(2);
                g(0) = -400 * x(0) * (x(1) - x(0) * x(0)) - 2 * (1 - x(0));
                g(1) = 200 * (x(1) - x(0) * x(0));
            }
            void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override {
                Eigen::Matrix2d H;
                H << 1200 * at(0) * at(0) - 400 * at(1) + 2, -400 * at(0), -400 * at(0), 200;
                Hv = H * v;
            }
        } f;
        NewtonParams p;
        p.epsilon = 1e-10;
        const NewtonResult r = minimizeNewton(f, Eigen::Vector2d(-1.2, 1.0), p);
        QCOMPARE_STATUS(r.status, Status::Converged);
        QVERIFY((r.x - Eigen::Vector2d(1, 1)).norm() < 1e-6);
        QVERIFY(r.iterations > 5);   // from (-1.2, 1) it has to follow the valley

        std::stop_source src;
        RunControl rc;
        rc.stop = src.get_token();
        rc.onProgress = [&](const Progress& pr) {
            if (pr.iteration == 3) src.request_stop();
        };
        const NewtonResult c = minimizeNewton(f, Eigen::Vector2d(-1.2, 1.0), p, rc);
        QCOMPARE_STATUS(c.status, Status::Cancelled);
        QCOMPARE(c.iterations, 3L);
        p.cgTolerance = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.validate());
    }

    void newtonReachesLbfgsOptimum_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        for (McfLoss l : {McfLoss::Exponential, McfLoss::Logistic})
            for (McfNoise n : kNoises)
                QTest::newRow((std::string(toString(l)) + "/" + toString(n)).c_str()) << int(l) << int(n) << 2;
        for (McfNoise n : {McfNoise::Blankout, McfNoise::Poisson})
            QTest::newRow((std::string("logistic/") + toString(n) + "/K4").c_str()) << int(McfLoss::Logistic) << int(n) << 4;
    }
    void newtonReachesLbfgsOptimum() {
        QFETCH(int, classes);
        // Sparse blobs: 30% zeros, class c brighter on the features j = c (mod classes).
        const Dataset d = blobs(19, 200, 8, classes, 0.3, 0.7, [&](int j, int c) { return j % classes == c ? 0.8 : 0.2; });
        QFETCH(int, loss);
        QFETCH(int, noise);
        McfParams p = params(McfLoss(loss), McfNoise(noise));
        p.qPerFeature.clear();
        p.q = 0.4;
        p.laplaceScale = 0.3;
        p.solver = McfSolver::Lbfgs;
        p.lbfgs.epsilon = 1e-9;
        p.lbfgs.epsilonRel = 0;
        const FitResult ref = fitMcf(d, p);
        p.solver = McfSolver::Newton;
        p.newton.epsilon = 1e-6;   // 1e-8 is below what f's rounding lets the trust region verify
        const FitResult nt = fitMcf(d, p);
        QVERIFY2(nt.status == Status::Converged, nt.message.c_str());
        QVERIFY2(std::abs(nt.objective - ref.objective) <= 1e-9 * ref.objective,
                 qPrintable(QString("newton %1 lbfgs %2").arg(nt.objective, 0, 'g', 14).arg(ref.objective, 0, 'g', 14)));
        QVERIFY((nt.model.W - ref.model.W).norm() <= 1e-4 * std::max(1.0, ref.model.W.norm()));
        // Auto picks Newton where it is implemented.
        p.solver = McfSolver::Auto;
        QVERIFY(fitMcf(d, p).message.find("Newton") != std::string::npos);
    }

    void newtonConvergesOnUnscaledSpambase_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<double>("q");
        QTest::newRow("logistic/q0") << int(McfLoss::Logistic) << 0.0;
        for (McfLoss l : {McfLoss::Logistic, McfLoss::Exponential})
            for (double q : {0.1, 0.5})
                QTest::newRow((std::string(toString(l)) + "/q" + std::to_string(q).substr(0, 3)).c_str()) << int(l) << q;
    }
    void newtonConvergesOnUnscaledSpambase() {
        // Issue 25 item 10: raw Spambase (features up to 15,841) with the default settings
        // (blankout, l2 = 0.5, bias, Newton). "Converged" must mean close to the optimum: within
        // 1e-4 (relative) of an independent reference, L-BFGS on McfObjective (a separate
        // implementation of J) from 0 to a tight gradient test. Before the preconditioned CG the
        // Newton path stopped "converged" at 1138.5 for logistic q = 0 against the optimum 973.8.
        static const Dataset spam = loadBundled("spambase");
        QFETCH(int, loss);
        QFETCH(double, q);
        McfParams p;
        p.loss = McfLoss(loss);
        p.q = q;
        const FitResult nt = fitMcf(spam, p);
        QVERIFY2(nt.status == Status::Converged, nt.message.c_str());
        QVERIFY(nt.message.find("Newton") != std::string::npos);

        const McfObjective obj(spam, p);
        const double N = obj.examples();
        // L-BFGS on J / N in the coordinates u = S theta, S = diag(largest |x_nd| of feature d;
        // 1 for the bias): the change of variables that scaling the features would make, so
        // L-BFGS converges tightly (from theta = 0 on the raw scale it stalls at |grad J| ~ 1e-2).
        Eigen::VectorXd S = Eigen::VectorXd::Ones(obj.dimension());
        for (int i = 0; i < spam.rows(); ++i)
            spam.forEachNonZero(i, [&](int j, float x) { S(j) = std::max(S(j), std::abs(static_cast<double>(x))); });
        const LbfgsObjective f = [&](const Eigen::VectorXd& u, Eigen::VectorXd& g) {
            const double v = obj(u.cwiseQuotient(S), g) / N;
            g = g.cwiseQuotient(S) / N;
            return v;
        };
        LbfgsParams lp;
        lp.epsilon = 1e-10;
        lp.epsilonRel = 0.0;
        lp.maxIterations = 20000;
        const LbfgsResult ref = minimizeLbfgs(f, Eigen::VectorXd::Zero(obj.dimension()), lp);
        Eigen::VectorXd gRef;
        const double Jref = obj(ref.x.cwiseQuotient(S), gRef);
        const double gap = (nt.objective - Jref) / Jref;
        qInfo("%s q=%.1f: Newton J %.8f (%ld iterations; %s), reference J %.8f |g| %.3g (%ld iterations, %s), relative gap %.2e",
              toString(p.loss), q, nt.objective, nt.iterations, nt.message.c_str(), Jref, gRef.norm(), ref.iterations,
              ref.message.c_str(), gap);
        // The reference gradient: about 1e-6 of grad J(0) (2e5); rounding in J (about 1e3, a sum
        // over 4,601 rows with features up to 1.6e4) stops L-BFGS's line search there.
        QVERIFY2(gRef.norm() <= 0.2, qPrintable(QString("reference |g| %1 (%2)").arg(gRef.norm()).arg(ref.message.c_str())));
        QVERIFY2(gap <= 1e-4, qPrintable(QString("Newton %1, reference %2").arg(nt.objective, 0, 'g', 10).arg(Jref, 0, 'g', 10)));
        QVERIFY(gap >= -1e-9);   // the reference is the optimum: nothing lies below it
    }

    void newtonStallIsNotConvergence() {
        // f = 1e20 + x^2 / 2 from x = 10: every reduction (<= 50) is lost in the rounding of f
        // (ulp 16,384), so no step can be accepted. The gradient is 10, far above the tolerance
        // 1e-3: the status must say so (it used to be Converged).
        struct Offset final : NewtonObjective {
            double value(const Eigen::VectorXd& x) override { return 1e20 + 0.5 * x.squaredNorm(); }
            void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) override { g = x; }
            void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override { Hv = v; }
        } f;
        const NewtonResult r = minimizeNewton(f, Eigen::VectorXd::Constant(1, 10.0), NewtonParams{});
        QCOMPARE_STATUS(r.status, Status::MaxIterations);
        QCOMPARE(r.gradNorm, 10.0);
        QCOMPARE(r.tolerance, 1e-3);   // the default epsilon 1e-4 times ||g0|| = 10
        QVERIFY2(r.message.find("> tolerance") != std::string::npos, r.message.c_str());
        // Without the offset the same problem converges in one step.
        struct Plain final : NewtonObjective {
            double value(const Eigen::VectorXd& x) override { return 0.5 * x.squaredNorm(); }
            void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) override { g = x; }
            void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override { Hv = v; }
        } plain;
        const NewtonResult c = minimizeNewton(plain, Eigen::VectorXd::Constant(1, 10.0), NewtonParams{});
        QCOMPARE_STATUS(c.status, Status::Converged);
        QVERIFY(c.gradNorm <= c.tolerance);
    }

    void preconditionerEqualisesScales() {
        // A diagonal quadratic whose curvatures span 1 .. 1e8 (as raw Spambase's features do):
        // with its diagonal, M = 0.99 + 0.01 diag(H) takes the CG to the Newton step in far fewer
        // products than plain CG, and both reach the minimiser 0.
        struct Diagonal final : NewtonObjective {
            Eigen::VectorXd h;
            bool offerDiagonal = true;
            double value(const Eigen::VectorXd& x) override { return 0.5 * x.dot(h.cwiseProduct(x)); }
            void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) override { g = h.cwiseProduct(x); }
            void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override { Hv = h.cwiseProduct(v); }
            bool hessianDiagonal(Eigen::VectorXd& d) const override {
                d = h;
                return offerDiagonal;
            }
        } f;
        const int n = 40;
        f.h.resize(n);
        for (int i = 0; i < n; ++i) f.h(i) = std::pow(10.0, 8.0 * i / (n - 1));
        NewtonParams p;
        p.epsilon = 1e-16;
        p.maxCgIterations = 1000;
        const NewtonResult pre = minimizeNewton(f, Eigen::VectorXd::Ones(n), p);
        f.offerDiagonal = false;
        const NewtonResult plain = minimizeNewton(f, Eigen::VectorXd::Ones(n), p);
        QCOMPARE_STATUS(pre.status, Status::Converged);
        QCOMPARE_STATUS(plain.status, Status::Converged);
        qInfo("preconditioned: %ld iterations, %ld CG steps, |x| %.3g; plain: %ld iterations, %ld CG steps, |x| %.3g",
              pre.iterations, pre.cgIterations, pre.x.norm(), plain.iterations, plain.cgIterations, plain.x.norm());
        QVERIFY(pre.x.norm() < 1e-6 && plain.x.norm() < 1e-6);
        QVERIFY2(2 * pre.cgIterations < plain.cgIterations,
                 qPrintable(QString("CG steps: preconditioned %1, plain %2").arg(pre.cgIterations).arg(plain.cgIterations)));
        p.preconditionerMix = 1.5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.validate());
    }

    // ---- closed-form expectations against Monte Carlo ----
    void expectedLossMatchesMonteCarlo_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        for (McfLoss l : {McfLoss::Quadratic, McfLoss::Exponential})
            for (McfNoise n : kNoises)
                for (int k : {2, 3}) {
                    const std::string name = std::string(toString(l)) + "/" + toString(n) + "/K" + std::to_string(k);
                    QTest::newRow(name.c_str()) << int(l) << int(n) << k;
                }
    }
    void expectedLossMatchesMonteCarlo() {
        QFETCH(int, loss);
        QFETCH(int, noise);
        QFETCH(int, classes);
        const McfParams p = params(McfLoss(loss), McfNoise(noise));
        const Dataset full = tiny(classes);
        const std::vector<int> rows = {0, 1, 2};
        const Dataset d = full.subset(rows);
        const McfObjective obj(d, p);
        const int K = obj.columns();
        const Eigen::VectorXd theta = randomTheta(obj.dimension(), 7, 0.5);
        const double closed = obj.expectedLoss(theta);
        const McStats mc = monteCarlo(d, p, 100000, 11, [&](const std::vector<Eigen::VectorXd>& xs) {
            double s = 0;
            for (int i = 0; i < d.rows(); ++i)
                s += plainLoss(p.loss, scoresOf(theta, xs[static_cast<std::size_t>(i)], K, true),
                               d.labels[static_cast<std::size_t>(i)], K);
            return s;
        });
        qInfo("closed %.6f  MC %.6f +- %.6f", closed, mc.mean, mc.se);
        QVERIFY(mc.se > 0);
        QVERIFY(std::abs(closed - mc.mean) < 4 * mc.se);
    }

    // Logistic: exp(bound) - 1 is the exact expectation E[sum_{k != c} exp(f_k - f_c)] (one
    // example), and the bound is above the Monte-Carlo expected logistic loss.
    void logisticBoundAgainstMonteCarlo_data() {
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        for (McfNoise n : kNoises)
            for (int k : {2, 3}) QTest::newRow((std::string(toString(n)) + "/K" + std::to_string(k)).c_str()) << int(n) << k;
    }
    void logisticBoundAgainstMonteCarlo() {
        QFETCH(int, noise);
        QFETCH(int, classes);
        const McfParams p = params(McfLoss::Logistic, McfNoise(noise));
        const std::vector<int> rows = {2};
        const Dataset d = tiny(classes).subset(rows);
        const McfObjective obj(d, p);
        const int K = obj.columns();
        const Eigen::VectorXd theta = randomTheta(obj.dimension(), 5, 0.5);
        const double bound = obj.expectedLoss(theta);
        const int c = d.labels[0];
        const McStats inner = monteCarlo(d, p, 100000, 13, [&](const std::vector<Eigen::VectorXd>& xs) {
            const Eigen::VectorXd f = scoresOf(theta, xs[0], K, true);
            if (K == 1) return std::exp(-(c == 1 ? 1.0 : -1.0) * f(0));
            double s = 0;
            for (int k = 0; k < K; ++k)
                if (k != c) s += std::exp(f(k) - f(c));
            return s;
        });
        QVERIFY(std::abs(std::expm1(bound) - inner.mean) < 4 * inner.se);
        const McStats actual = monteCarlo(d, p, 100000, 17, [&](const std::vector<Eigen::VectorXd>& xs) {
            return plainLoss(McfLoss::Logistic, scoresOf(theta, xs[0], K, true), c, K);
        });
        qInfo("bound %.6f  MC logistic %.6f +- %.6f", bound, actual.mean, actual.se);
        QVERIFY(bound > actual.mean - 4 * actual.se);
    }

    // ---- q = 0 is the plain loss ----
    void blankoutZeroIsPlainLoss() {
        for (McfLoss l : {McfLoss::Quadratic, McfLoss::Exponential, McfLoss::Logistic})
            for (int classes : {2, 3}) {
                McfParams p = params(l, McfNoise::Blankout);
                p.qPerFeature.clear();
                p.q = 0.0;
                const Dataset d = tiny(classes);
                const McfObjective obj(d, p);
                const int K = obj.columns();
                const Eigen::VectorXd theta = randomTheta(obj.dimension(), 3, 1.5);
                double ref = 0;
                for (int i = 0; i < d.rows(); ++i) {
                    Eigen::VectorXd x(d.features());
                    for (int j = 0; j < d.features(); ++j) x(j) = d.value(i, j);
                    ref += plainLoss(l, scoresOf(theta, x, K, true), d.labels[static_cast<std::size_t>(i)], K);
                }
                const double got = obj.expectedLoss(theta);
                QVERIFY2(std::abs(got - ref) <= 1e-12 * std::abs(ref), toString(l));
            }
    }

    // ---- quadratic: ridge regression ----
    void gaussianQuadraticIsRidge_data() {
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        QTest::addColumn<bool>("bias");
        for (McfNoise n : {McfNoise::Gaussian, McfNoise::Laplace})
            for (int k : {2, 3})
                for (bool b : {true, false})
                    QTest::newRow((std::string(toString(n)) + "/K" + std::to_string(k) + (b ? "/bias" : "")).c_str())
                        << int(n) << k << b;
    }
    void gaussianQuadraticIsRidge() {
        QFETCH(int, noise);
        QFETCH(int, classes);
        QFETCH(bool, bias);
        Rng rng(42);
        const int N = 30, D = 5;
        std::vector<std::vector<float>> X(N, std::vector<float>(D));
        std::vector<int> y(N);
        for (int i = 0; i < N; ++i) {
            y[static_cast<std::size_t>(i)] = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes)));
            for (int j = 0; j < D; ++j)
                X[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] =
                    static_cast<float>(rng.normal() + (j == y[static_cast<std::size_t>(i)] ? 1.0 : 0.0));
        }
        const Dataset d = makeData(X, y, classes);
        McfParams p;
        p.loss = McfLoss::Quadratic;
        p.noise = McfNoise(noise);
        p.sigma = 0.3;
        p.laplaceScale = 0.25;
        p.l2 = 0.0;
        p.bias = bias;
        const FitResult r = fitMcf(d, p);
        QCOMPARE_STATUS(r.status, Status::Converged);
        const double lambda = (p.noise == McfNoise::Gaussian ? p.sigma * p.sigma : 2 * p.laplaceScale * p.laplaceScale) * N;

        // Ridge: min ||A theta - T||^2 + lambda ||w||^2 as least squares on stacked rows, by QR.
        const int K = classes == 2 ? 1 : classes;
        const int P = D + (bias ? 1 : 0);
        Eigen::MatrixXd A = Eigen::MatrixXd::Zero(N + D, P), T = Eigen::MatrixXd::Zero(N + D, K);
        for (int i = 0; i < N; ++i) {
            for (int j = 0; j < D; ++j) A(i, j) = d.value(i, j);
            if (bias) A(i, D) = 1;
            const int c = y[static_cast<std::size_t>(i)];
            if (K == 1)
                T(i, 0) = c == 1 ? 1 : -1;
            else
                T(i, c) = 1;
        }
        for (int j = 0; j < D; ++j) A(N + j, j) = std::sqrt(lambda);
        const Eigen::MatrixXd ref = A.colPivHouseholderQr().solve(T);
        const double err = (r.model.W - ref.topRows(D)).norm() / ref.norm();
        QVERIFY2(err < 1e-10, qPrintable(QString::number(err)));
        if (bias) QVERIFY((r.model.b - ref.row(D).transpose()).norm() < 1e-10 * ref.norm());
        // The closed form is the minimiser of the (Monte-Carlo-checked) objective: zero gradient.
        const McfObjective obj(d, p);
        Eigen::VectorXd g;
        const double J = obj(obj.fromModel(r.model), g);
        QVERIFY(g.norm() < 1e-9 * N);
        QVERIFY(std::abs(J - r.objective) < 1e-12 * std::abs(J));
    }

    void quadraticBlankoutClosedFormIsStationary() {
        for (int classes : {2, 3}) {
            McfParams p = params(McfLoss::Quadratic, McfNoise::Blankout);
            const Dataset d = tiny(classes);
            const FitResult r = fitMcf(d, p);
            QCOMPARE_STATUS(r.status, Status::Converged);
            const McfObjective obj(d, p);
            Eigen::VectorXd g;
            obj(obj.fromModel(r.model), g);
            QVERIFY(g.norm() < 1e-10);
        }
    }

    // ---- learners converge ----
    void learnersConverge_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("classes");
        for (McfLoss l : {McfLoss::Exponential, McfLoss::Logistic})
            for (McfNoise n : kNoises)
                for (int k : {2, 3})
                    QTest::newRow((std::string(toString(l)) + "/" + toString(n) + "/K" + std::to_string(k)).c_str())
                        << int(l) << int(n) << k;
    }
    void learnersConverge() {
        QFETCH(int, loss);
        QFETCH(int, noise);
        QFETCH(int, classes);
        // Blobs: class c has mean 1.5 on feature c, features >= 0 (Poisson needs it).
        const int N = 120;
        const Dataset d = blobs(9, N, 5, classes, 0.0, 0.5, [](int j, int c) { return j == c ? 1.5 : 0.0; });
        McfParams p = params(McfLoss(loss), McfNoise(noise));
        p.qPerFeature.clear();
        p.q = 0.5;
        p.laplaceScale = 0.5;
        p.lbfgs.epsilon = 1e-7;
        p.lbfgs.epsilonRel = 1e-7;
        p.newton.epsilon = 1e-7;   // binary data: Newton, relative to ||grad J(0)|| (1e-8: below the rounding of f)
        long reports = 0;
        RunControl rc;
        rc.onProgress = [&](const Progress&) { ++reports; };
        const FitResult r = fitMcf(d, p, rc);
        QCOMPARE_STATUS(r.status, Status::Converged);
        QVERIFY(reports > 0);
        QVERIFY(r.model.errorRate(d) < 0.1);
        const McfObjective obj(d, p);
        Eigen::VectorXd g;
        const Eigen::VectorXd theta = obj.fromModel(r.model);
        const double J = obj(theta, g);
        QVERIFY(std::abs(J - r.objective) <= 1e-12 * J);
        QVERIFY(g.norm() / N <= 1e-7 * std::max(1.0, theta.norm()));
        if (p.noise == McfNoise::Laplace) {
            // The minimiser lies inside the MGF's domain |lambda t| < 1.
            const double maxDiff = classes == 2 ? r.model.W.cwiseAbs().maxCoeff()
                                                : (r.model.W.rowwise().maxCoeff() - r.model.W.rowwise().minCoeff()).maxCoeff();
            QVERIFY(p.laplaceScale * maxDiff < 1.0);
        }
    }

    void laplaceBarrierHolds() {
        // A large Laplace scale: the unconstrained optimum of the plain loss is far outside
        // |lambda w_d| < 1; the barrier keeps the iterates inside and L-BFGS still converges.
        McfParams p;
        p.loss = McfLoss::Logistic;
        p.noise = McfNoise::Laplace;
        p.laplaceScale = 2.0;
        p.l2 = 0.0;
        const Dataset d = tiny(2);
        const McfObjective obj(d, p);
        Eigen::VectorXd g;
        Eigen::VectorXd outside = Eigen::VectorXd::Zero(obj.dimension());
        outside(0) = 0.6;   // |2 * 0.6| > 1
        QVERIFY(std::isinf(obj(outside, g)));
        const FitResult r = fitMcf(d, p);
        QCOMPARE_STATUS(r.status, Status::Converged);
        QVERIFY(2.0 * r.model.W.cwiseAbs().maxCoeff() < 1.0);
    }

    void rejectsBadInput() {
        McfParams p = params(McfLoss::Logistic, McfNoise::Poisson);
        Dataset d = tiny(2);
        d.X(0, 0) = -1.0f;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitMcf(d, p));
        p.noise = McfNoise::Blankout;
        p.qPerFeature = {0.1, 0.2};   // 2 values for 4 features
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitMcf(tiny(2), p));
        p.qPerFeature.clear();
        p.q = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.validate());
        p.q = 0.5;
        p.l2 = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, p.validate());
        QCOMPARE(mcfLossFromString("exponential"), McfLoss::Exponential);
        QCOMPARE(mcfNoiseFromString("laplace"), McfNoise::Laplace);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mcfNoiseFromString("dropout"));
    }

    void cancelReturnsModel() {
        std::stop_source src;
        src.request_stop();
        RunControl rc;
        rc.stop = src.get_token();
        const FitResult r = fitMcf(tiny(3), params(McfLoss::Logistic, McfNoise::Blankout), rc);
        QCOMPARE_STATUS(r.status, Status::Cancelled);
        QCOMPARE(r.model.W.rows(), 4);
        QCOMPARE(r.model.W.cols(), 3);
    }

    void deterministic() {
        const McfParams p = params(McfLoss::Logistic, McfNoise::Blankout);
        const FitResult a = fitMcf(tiny(3), p), b = fitMcf(tiny(3), p);
        QVERIFY(a.model.W == b.model.W);
        QVERIFY(a.model.b == b.model.b);
    }
    // ---- the bias under test-time blankout (header comment) ----
    void testBlankoutScalesTheBias() {
        for (const int classes : {2, 3}) {
            McfParams p = params(McfLoss::Logistic, McfNoise::Blankout);
            const FitResult a = fitMcf(tiny(classes), p);
            p.testBlankout = 0.4;
            const FitResult b = fitMcf(tiny(classes), p);
            // Training is unchanged: same W, same objective; only b is scaled.
            QCOMPARE(b.model.W, a.model.W);
            QCOMPARE(b.objective, a.objective);
            QVERIFY((b.model.b - 0.6 * a.model.b).norm() <= 1e-15 * (1 + a.model.b.norm()));
            QVERIFY(a.model.b.norm() > 1e-3);   // the check is not vacuous
            // A blanked, unrescaled input x' scores as (1 - p) times the trained model's score of
            // the rescaled input x' / (1 - p): same sign, same argmax.
            const Dataset d = tiny(classes);
            for (int i = 0; i < d.rows(); ++i) {
                Eigen::VectorXd x(d.features());
                for (int j = 0; j < d.features(); ++j) x[j] = (i + j) % 3 == 0 ? 0.0 : d.value(i, j);
                const Eigen::VectorXd scaled = b.model.W.transpose() * x + b.model.b;
                const Eigen::VectorXd trained = a.model.W.transpose() * (x / 0.6) + a.model.b;
                QVERIFY((scaled - 0.6 * trained).norm() <= 1e-12 * (1 + trained.norm()));
            }
        }
        McfParams bad;
        bad.testBlankout = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
        bad.testBlankout = -0.1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
    }

    void testBlankoutRestoresTheDecisionUnderBlankout() {
        // Two classes of non-negative features (means 1.0 and 0.5 on all 30 features): the bias
        // sits near -0.75 sum_d w_d, so blanking half the features (no rescaling) pushes nearly
        // every score below it; b (1 - p) moves the threshold with the scores. Fixed seeds;
        // the margins are wide (measured: 0.472 error as is, 0.055 scaled).
        const auto mean = [](int, int c) { return c == 1 ? 1.0 : 0.5; };
        const Dataset train = blobs(5, 400, 30, 2, 0.0, 0.3, mean);
        const Dataset test = blobs(6, 400, 30, 2, 0.0, 0.3, mean);
        McfParams p;
        p.loss = McfLoss::Logistic;
        p.q = 0.5;
        p.l2 = 0.1;
        const LinearModel asIs = fitMcf(train, p).model;
        p.testBlankout = 0.5;
        const LinearModel scaled = fitMcf(train, p).model;
        Rng rng(7);
        int errAsIs = 0, errScaled = 0;
        for (int i = 0; i < test.rows(); ++i) {
            Eigen::VectorXd x(test.features());
            for (int j = 0; j < test.features(); ++j) x[j] = rng.bernoulli(0.5) ? 0.0 : test.value(i, j);
            const int y = test.labels[static_cast<std::size_t>(i)];
            errAsIs += (asIs.W.col(0).dot(x) + asIs.b[0] > 0) != (y == 1);
            errScaled += (scaled.W.col(0).dot(x) + scaled.b[0] > 0) != (y == 1);
        }
        qInfo("blanked test error: as is %.3f, bias scaled %.3f", errAsIs / 400.0, errScaled / 400.0);
        QVERIFY(errAsIs > 120);
        QVERIFY(errScaled < 40);
    }
};

QTEST_APPLESS_MAIN(TestMcf)
#include "test_mcf.moc"
