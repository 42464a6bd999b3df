#include "core/learners/mcf.h"

#include "core/util/parallel.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace fdlab {

const char* toString(McfLoss l) {
    switch (l) {
    case McfLoss::Quadratic: return "quadratic";
    case McfLoss::Exponential: return "exponential";
    case McfLoss::Logistic: return "logistic";
    }
    return "?";
}

McfLoss mcfLossFromString(const std::string& s) {
    for (McfLoss l : {McfLoss::Quadratic, McfLoss::Exponential, McfLoss::Logistic})
        if (s == toString(l)) return l;
    throw std::invalid_argument("unknown MCF loss '" + s + "' (quadratic, exponential, logistic)");
}

void McfParams::validate() const {
    if (!(q >= 0.0 && q < 1.0)) throw std::invalid_argument("McfParams.q must be in [0, 1)");
    for (std::size_t j = 0; j < qPerFeature.size(); ++j)
        if (!(qPerFeature[j] >= 0.0 && qPerFeature[j] < 1.0))
            throw std::invalid_argument("McfParams.qPerFeature[" + std::to_string(j) + "] must be in [0, 1)");
    if (!(sigma >= 0.0 && std::isfinite(sigma))) throw std::invalid_argument("McfParams.sigma must be finite and >= 0");
    if (!(laplaceScale >= 0.0 && std::isfinite(laplaceScale)))
        throw std::invalid_argument("McfParams.laplaceScale must be finite and >= 0");
    if (!(l2 >= 0.0 && std::isfinite(l2))) throw std::invalid_argument("McfParams.l2 must be finite and >= 0");
    if (!(testBlankout >= 0.0 && testBlankout < 1.0))
        throw std::invalid_argument("McfParams.testBlankout must be in [0, 1)");
    lbfgs.validate();
}

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double softplus(double s) { return s > 0.0 ? s + std::log1p(std::exp(-s)) : std::log1p(std::exp(s)); }
double sigmoid(double s) {
    if (s >= 0.0) return 1.0 / (1.0 + std::exp(-s));
    const double e = std::exp(s);
    return e / (1.0 + e);
}

}  // namespace

struct McfObjective::Impl {
    McfParams p;
    CorruptionModel noise;
    int N = 0, D = 0, K = 1;
    bool binary = true;
    // The training rows in compressed sparse row form (built once through forEachNonZero; values
    // in the dataset's own float precision, so the copy is exact at half the memory).
    std::vector<int> rowStart, col;
    std::vector<float> val;
    std::vector<int> cls;   // class index of each row
    int maxRowNnz = 0;

    Impl(const Dataset& d, const McfParams& params)
        : p(params), noise(params.noise, d.features(), params.q, params.qPerFeature, params.sigma, params.laplaceScale) {
        N = d.rows();
        D = d.features();
        binary = d.isBinary();
        K = binary ? 1 : d.numClasses();
        rowStart.reserve(static_cast<std::size_t>(N) + 1);
        rowStart.push_back(0);
        cls.reserve(static_cast<std::size_t>(N));
        for (int i = 0; i < N; ++i) {
            d.forEachNonZero(i, [&](int j, float x) {
                col.push_back(j);
                val.push_back(x);
            });
            rowStart.push_back(static_cast<int>(col.size()));
            maxRowNnz = std::max(maxRowNnz, rowStart.back() - rowStart[rowStart.size() - 2]);
            cls.push_back(d.labels[static_cast<std::size_t>(i)]);
        }
        if (p.noise == McfNoise::Poisson)
            for (std::size_t e = 0; e < val.size(); ++e)
                if (val[e] < 0.0)
                    throw std::invalid_argument("MCF with Poisson noise needs features >= 0; feature " +
                                                std::to_string(col[e] + 1) + " has " + std::to_string(val[e]));
    }

    int dim() const { return D * K + (p.bias ? K : 0); }

    double quadratic(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                     Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const;
    double classVector(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                       Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const;
    double softmax(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                   Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const;
};

// Quadratic: E[(w_k.x~ + b_k - T_k)^2] = (w_k.x + b_k - T_k)^2 + sum_d w_dk^2 Var[x~_d].
double McfObjective::Impl::quadratic(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                                     Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const {
    const RowMatrix Wr = W;
    RowMatrix gWr = RowMatrix::Zero(D, K);
    Eigen::VectorXd r(K);
    double total = 0.0;
    for (int n = 0; n < N; ++n) {
        const int c = cls[static_cast<std::size_t>(n)];
        for (int k = 0; k < K; ++k) {
            const double target = binary ? (c == 1 ? 1.0 : -1.0) : (k == c ? 1.0 : 0.0);
            r(k) = b(k) - target;
        }
        for (int e = rowStart[static_cast<std::size_t>(n)]; e < rowStart[static_cast<std::size_t>(n) + 1]; ++e)
            r += static_cast<double>(val[static_cast<std::size_t>(e)]) * Wr.row(col[static_cast<std::size_t>(e)]).transpose();
        total += r.squaredNorm();
        gb += 2.0 * r;
        for (int e = rowStart[static_cast<std::size_t>(n)]; e < rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
            const int d = col[static_cast<std::size_t>(e)];
            const double x = val[static_cast<std::size_t>(e)];
            gWr.row(d) += 2.0 * x * r.transpose();
            if (!noise.corruptsZeros()) {
                const double v = noise.variance(d, x);
                total += v * Wr.row(d).squaredNorm();
                gWr.row(d) += 2.0 * v * Wr.row(d);
            }
        }
    }
    gW = gWr;
    if (noise.corruptsZeros()) {
        const double v = noise.variance(0, 0.0) * N;
        total += v * W.squaredNorm();
        gW += 2.0 * v * W;
    }
    return total;
}

// Binary exponential/logistic and multi-class exponential: every example's expected loss is a
// function of one scalar S_n = beta_c + sum_d log M_nd(T_dc), whose t-vector T_.c depends only
// on the class c of the example (binary: T_.c = -y_c w; multi-class: T_.c = -W ybar_c).
double McfObjective::Impl::classVector(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                                       Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const {
    const int C = binary ? 2 : K;
    Eigen::MatrixXd T(D, C);
    Eigen::VectorXd beta(C);
    if (binary) {
        T.col(1) = -W.col(0);
        T.col(0) = W.col(0);
        beta(1) = -b(0);
        beta(0) = b(0);
    } else {
        const Eigen::VectorXd rowSum = W.rowwise().sum();
        const double bSum = b.sum();
        for (int c = 0; c < C; ++c) {
            T.col(c) = -(K * W.col(c) - rowSum) / (K - 1.0);
            beta(c) = -(K * b(c) - bSum) / (K - 1.0);
        }
    }
    std::vector<char> present(static_cast<std::size_t>(C), 0);
    for (int c : cls) present[static_cast<std::size_t>(c)] = 1;

    // Example-independent part psi (Gaussian, Laplace), and the Laplace domain.
    Eigen::VectorXd Psi = Eigen::VectorXd::Zero(C);
    Eigen::MatrixXd dPsi = Eigen::MatrixXd::Zero(D, C);
    if (noise.corruptsZeros()) {
        for (int c = 0; c < C; ++c) {
            if (!present[static_cast<std::size_t>(c)]) continue;
            for (int d = 0; d < D; ++d) {
                double g = 0.0;
                Psi(c) += noise.psi(T(d, c), g);
                dPsi(d, c) = g;
            }
            if (!std::isfinite(Psi(c))) return std::numeric_limits<double>::infinity();
        }
    }

    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(D, C);
    Eigen::VectorXd Lsum = Eigen::VectorXd::Zero(C);
    std::vector<double> dphi(static_cast<std::size_t>(std::max(1, maxRowNnz)));
    const bool expLoss = p.loss == McfLoss::Exponential;
    double total = 0.0;
    for (int n = 0; n < N; ++n) {
        const int c = cls[static_cast<std::size_t>(n)];
        const double* t = T.col(c).data();
        const int e0 = rowStart[static_cast<std::size_t>(n)], e1 = rowStart[static_cast<std::size_t>(n) + 1];
        double S = beta(c) + Psi(c);
        for (int e = e0; e < e1; ++e) {
            const int d = col[static_cast<std::size_t>(e)];
            S += noise.phi(d, t[d], val[static_cast<std::size_t>(e)], dphi[static_cast<std::size_t>(e - e0)]);
        }
        double lp;
        if (expLoss) {
            const double v = std::exp(S);
            total += v;
            lp = v;
        } else {
            total += softplus(S);
            lp = sigmoid(S);
        }
        Lsum(c) += lp;
        double* g = G.col(c).data();
        for (int e = e0; e < e1; ++e) g[col[static_cast<std::size_t>(e)]] += lp * dphi[static_cast<std::size_t>(e - e0)];
    }
    if (noise.corruptsZeros())
        for (int c = 0; c < C; ++c) G.col(c) += Lsum(c) * dPsi.col(c);

    // Chain rule back from (T, beta) to (W, b).
    if (binary) {
        gW.col(0) = G.col(0) - G.col(1);
        gb(0) = Lsum(0) - Lsum(1);
    } else {
        const Eigen::VectorXd gSum = G.rowwise().sum();
        const double lSum = Lsum.sum();
        for (int k = 0; k < K; ++k) {
            gW.col(k) = -(K * G.col(k) - gSum) / (K - 1.0);
            gb(k) = -(K * Lsum(k) - lSum) / (K - 1.0);
        }
    }
    return total;
}

// Multi-class logistic: Jensen bound on the softmax loss, log sum_k exp(a_nk) (header comment).
double McfObjective::Impl::softmax(const Eigen::Map<const Eigen::MatrixXd>& W, const Eigen::VectorXd& b,
                                   Eigen::Map<Eigen::MatrixXd>& gW, Eigen::VectorXd& gb) const {
    const RowMatrix Wr = W;
    // Laplace domain: every difference W_dk - W_dc must satisfy |lambda t| < 1.
    const double tMax = noise.maxAbsT();
    if (std::isfinite(tMax))
        for (int d = 0; d < D; ++d)
            if (!(Wr.row(d).maxCoeff() - Wr.row(d).minCoeff() < tMax)) return std::numeric_limits<double>::infinity();

    Eigen::MatrixXd Psi = Eigen::MatrixXd::Zero(K, K);   // (c, k): sum_d psi(W_dk - W_dc)
    if (noise.corruptsZeros())
        for (int c = 0; c < K; ++c)
            for (int k = 0; k < K; ++k)
                if (k != c)
                    for (int d = 0; d < D; ++d) {
                        double g = 0.0;
                        Psi(c, k) += noise.psi(Wr(d, k) - Wr(d, c), g);
                    }

    RowMatrix gWr = RowMatrix::Zero(D, K);
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(K, K);   // (c, k): sum over class-c examples of p_nk
    std::vector<double> buf(static_cast<std::size_t>(std::max(1, maxRowNnz)) * static_cast<std::size_t>(K));
    Eigen::VectorXd a(K), prob(K);
    double total = 0.0;
    for (int n = 0; n < N; ++n) {
        const int c = cls[static_cast<std::size_t>(n)];
        for (int k = 0; k < K; ++k) a(k) = k == c ? 0.0 : b(k) - b(c) + Psi(c, k);
        const int e0 = rowStart[static_cast<std::size_t>(n)], e1 = rowStart[static_cast<std::size_t>(n) + 1];
        for (int e = e0; e < e1; ++e) {
            const int d = col[static_cast<std::size_t>(e)];
            const double x = val[static_cast<std::size_t>(e)];
            const double* w = Wr.row(d).data();
            double* out = buf.data() + static_cast<std::size_t>(e - e0) * static_cast<std::size_t>(K);
            for (int k = 0; k < K; ++k) {
                if (k == c) continue;
                a(k) += noise.phi(d, w[k] - w[c], x, out[k]);
            }
        }
        const double m = a.maxCoeff();
        prob = (a.array() - m).exp();
        const double s = prob.sum();
        total += m + std::log(s);
        prob /= s;
        for (int e = e0; e < e1; ++e) {
            const int d = col[static_cast<std::size_t>(e)];
            const double* in = buf.data() + static_cast<std::size_t>(e - e0) * static_cast<std::size_t>(K);
            double* g = gWr.row(d).data();
            double acc = 0.0;
            for (int k = 0; k < K; ++k) {
                if (k == c) continue;
                const double v = prob(k) * in[k];
                g[k] += v;
                acc += v;
            }
            g[c] -= acc;
        }
        for (int k = 0; k < K; ++k) {
            if (k == c) continue;
            gb(k) += prob(k);
            gb(c) -= prob(k);
            P(c, k) += prob(k);
        }
    }
    if (noise.corruptsZeros())
        for (int d = 0; d < D; ++d)
            for (int c = 0; c < K; ++c)
                for (int k = 0; k < K; ++k) {
                    if (k == c || P(c, k) == 0.0) continue;
                    double g = 0.0;
                    noise.psi(Wr(d, k) - Wr(d, c), g);
                    gWr(d, k) += P(c, k) * g;
                    gWr(d, c) -= P(c, k) * g;
                }
    gW = gWr;
    return total;
}

McfObjective::McfObjective(const Dataset& train, const McfParams& p) {
    p.validate();
    train.validate("MCF training data");
    if (train.rows() == 0) throw std::invalid_argument("MCF: the training set is empty");
    if (train.numClasses() < 2) throw std::invalid_argument("MCF: the training set needs at least 2 classes");
    m = std::make_unique<Impl>(train, p);
}

McfObjective::~McfObjective() = default;

int McfObjective::columns() const { return m->K; }
int McfObjective::dimension() const { return m->dim(); }
int McfObjective::examples() const { return m->N; }

double McfObjective::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const {
    if (theta.size() != m->dim())
        throw std::invalid_argument("McfObjective: parameter vector has size " + std::to_string(theta.size()) +
                                    ", expected " + std::to_string(m->dim()));
    const int D = m->D, K = m->K;
    grad.setZero(m->dim());
    const Eigen::Map<const Eigen::MatrixXd> W(theta.data(), D, K);
    const Eigen::VectorXd b = m->p.bias ? Eigen::VectorXd(theta.tail(K)) : Eigen::VectorXd::Zero(K);
    Eigen::Map<Eigen::MatrixXd> gW(grad.data(), D, K);
    Eigen::VectorXd gb = Eigen::VectorXd::Zero(K);
    double f = 0.0;
    if (m->p.loss == McfLoss::Quadratic)
        f = m->quadratic(W, b, gW, gb);
    else if (m->p.loss == McfLoss::Exponential || m->binary)
        f = m->classVector(W, b, gW, gb);
    else
        f = m->softmax(W, b, gW, gb);
    if (!std::isfinite(f)) {
        grad.setZero();
        return std::numeric_limits<double>::infinity();
    }
    f += m->p.l2 * W.squaredNorm();
    gW += 2.0 * m->p.l2 * W;
    if (m->p.bias) grad.tail(K) = gb;
    return f;
}

double McfObjective::expectedLoss(const Eigen::VectorXd& theta) const {
    Eigen::VectorXd g;
    const double f = (*this)(theta, g);
    const Eigen::Map<const Eigen::MatrixXd> W(theta.data(), m->D, m->K);
    return f - m->p.l2 * W.squaredNorm();
}

LinearModel McfObjective::toModel(const Eigen::VectorXd& theta) const {
    LinearModel model;
    model.W = Eigen::Map<const Eigen::MatrixXd>(theta.data(), m->D, m->K);
    model.b = m->p.bias ? Eigen::VectorXd(theta.tail(m->K)) : Eigen::VectorXd::Zero(m->K);
    return model;
}

Eigen::VectorXd McfObjective::fromModel(const LinearModel& model) const {
    if (model.W.rows() != m->D || model.W.cols() != m->K || model.b.size() != m->K)
        throw std::invalid_argument("McfObjective::fromModel: model shape does not match the data");
    Eigen::VectorXd theta(m->dim());
    theta.head(m->D * m->K) = Eigen::Map<const Eigen::VectorXd>(model.W.data(), m->D * m->K);
    if (m->p.bias) theta.tail(m->K) = model.b;
    return theta;
}

namespace {

std::string fmt(const char* f, double a) {
    char buf[96];
    std::snprintf(buf, sizeof buf, f, a);
    return buf;
}

// Closed-form quadratic MCF (header comment): one LDLT of the (D+1) x (D+1) matrix.
FitResult fitQuadratic(const Dataset& train, const McfParams& p, const McfObjective& obj, const RunControl& rc) {
    Stopwatch sw;
    FitResult r;
    const int N = train.rows(), D = train.features(), K = obj.columns();
    const int P = D + (p.bias ? 1 : 0);
    const CorruptionModel noise(p.noise, D, p.q, p.qPerFeature, p.sigma, p.laplaceScale);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(P, P);
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(P, K);
    Eigen::VectorXd var = Eigen::VectorXd::Zero(D);
    // Rows in blocks: a symmetric rank-B update per block keeps memory at B x P.
    const int B = 256;
    Eigen::MatrixXd Xb(B, P), Tb(B, K);
    for (int start = 0; start < N; start += B) {
        if (rc.cancelled()) {
            r.model = obj.toModel(Eigen::VectorXd::Zero(obj.dimension()));
            r.model.classNames = train.classNames;
            r.status = Status::Cancelled;
            r.message = "cancelled while accumulating the normal equations";
            r.elapsed = sw.seconds();
            return r;
        }
        const int rows = std::min(B, N - start);
        Xb.setZero();
        Tb.setZero();
        for (int i = 0; i < rows; ++i) {
            const int n = start + i;
            train.forEachNonZero(n, [&](int j, float x) {
                Xb(i, j) = x;
                var(j) += noise.variance(j, x);
            });
            if (p.bias) Xb(i, D) = 1.0;
            const int cl = train.labels[static_cast<std::size_t>(n)];
            if (K == 1)
                Tb(i, 0) = cl == 1 ? 1.0 : -1.0;
            else
                Tb(i, cl) = 1.0;
        }
        H.selfadjointView<Eigen::Lower>().rankUpdate(Xb.topRows(rows).transpose());
        c.noalias() += Xb.topRows(rows).transpose() * Tb.topRows(rows);
    }
    // Gaussian/Laplace corrupt every feature of every example, zero or not.
    if (noise.corruptsZeros()) var.setConstant(noise.variance(0, 0.0) * N);
    for (int d = 0; d < D; ++d) H(d, d) += var(d) + p.l2;

    const Eigen::LDLT<Eigen::MatrixXd, Eigen::Lower> ldlt(H);
    const Eigen::VectorXd piv = ldlt.vectorD();
    const double scale = std::max(1.0, piv.cwiseAbs().maxCoeff());
    if (ldlt.info() != Eigen::Success || !(piv.minCoeff() > 1e-12 * scale)) {
        r.model = obj.toModel(Eigen::VectorXd::Zero(obj.dimension()));
        r.model.classNames = train.classNames;
        r.status = Status::Failed;
        r.message = "quadratic MCF: the expected-loss matrix is singular (smallest pivot " + fmt("%.3g", piv.minCoeff()) +
                    "); increase l2 or the noise";
        r.elapsed = sw.seconds();
        return r;
    }
    const Eigen::MatrixXd theta = ldlt.solve(c);   // P x K: rows 0..D-1 = W, row D = b
    LinearModel model;
    model.W = theta.topRows(D);
    model.b = p.bias ? Eigen::VectorXd(theta.row(D).transpose()) : Eigen::VectorXd::Zero(K);
    model.classNames = train.classNames;
    Eigen::VectorXd g;
    r.objective = obj(obj.fromModel(model), g);
    r.model = std::move(model);
    r.iterations = 1;
    r.status = r.model.W.allFinite() && r.model.b.allFinite() ? Status::Converged : Status::Failed;
    r.message = r.status == Status::Converged ? "closed form (LDLT)" : "closed form gave non-finite weights";
    r.elapsed = sw.seconds();
    rc.report(1.0, 1, r.message);
    return r;
}

}  // namespace

// Binary exponential/logistic MCF for the trust-region Newton method (header comment). value()
// caches S_n and the per-non-zero derivatives of the trial point; gradient() adopts them and
// prepares the Hessian: l'(S_n), l''(S_n) per row and the diagonal part sum_n l'_n Hess S_n.
//
// Multi-class logistic (softmax Jensen bound, blankout or Poisson noise): with a_nk as in the
// header, p_n = softmax(a_n), and the derivatives g_ek = phi'(W_dk - W_dc), h_ek = phi''(.) of
// each non-zero e = (n, d) and class k != c_n, a direction (V, v_b) moves a_nk by
//     da_k = sum_e g_ek (V_dk - V_dc) + v_bk - v_bc,
// and H (V, v_b) = J^T (diag(p) - p p^T) da + sum_k p_k Hess a_k (V, v_b): both scatter into
// the (d, k) and (d, c) entries of each non-zero, so H v costs O(nnz K) with the g cached.
// Memory is what limits this case (60,000 Fashion-MNIST images: 25 M non-zeros x 10 classes), so
// only g is kept, once, in float: value() at a trial point keeps p alone; gradient() recomputes g
// at the accepted point in double (the gradient is exact) and stores it rounded to float for the
// Hessian products (an inexact Newton direction does not move the optimum, which the gradient
// defines); h = phi''(g) is derived from g in each product (CorruptionModel::secondFromFirst).
struct McfNewtonObjective::State {
    struct Cache {
        Eigen::VectorXd theta;
        std::vector<double> S, d1, d2;    // binary: S per row, phi' and phi'' per non-zero
                                          // softmax: S = p (N x K); d1, d2 unused
        Eigen::MatrixXd psi1, psi2;       // D x 2 (class 0: t = w, class 1: t = -w)
        Eigen::VectorXd grad;             // softmax: the exact gradient, computed with the value
    };
    const McfObjective::Impl& m;
    Cache trial, at;
    // Softmax: g (nnz x K) of the last value() point, or of `at` once gHoldsAt. Refreshed for
    // `at` by the Hessian product after a rejected trial point (mutable: a cache of `at`).
    mutable std::vector<float> g;
    mutable bool gHoldsAt = false;
    std::vector<double> lpp;              // l''(S_n) at `at`
    double lpClass[2] = {0.0, 0.0};       // sum of l'(S_n) per class
    Eigen::VectorXd diag;                 // diagonal part of the Hessian (W block)

    explicit State(const McfObjective::Impl& impl) : m(impl) {}

    // The softmax passes run over blocks of rows in parallel. The number of blocks depends only
    // on the data's shape (and the per-block D x K partial sums are capped at about 256 MB), and
    // partial sums are added in block order, so results do not depend on the thread count.
    int blocks() const {
        const double perBlock = 8.0 * m.D * m.K;
        const int byMemory = static_cast<int>(std::max(1.0, 256e6 / std::max(perBlock, 1.0)));
        return std::clamp(std::min(m.N / 4096, byMemory), 1, 8);
    }
    std::pair<int, int> blockRows(int b, int nb) const {
        const auto n = static_cast<long long>(m.N);
        return {static_cast<int>(n * b / nb), static_cast<int>(n * (b + 1) / nb)};
    }

    double softmaxValue(const Eigen::VectorXd& theta);
    void refreshG() const;
    void softmaxHessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const;
    void softmaxHessianDiagonal(Eigen::VectorXd& h) const;
};

// Value and exact gradient at a trial point in one pass (the trust-region method asks for the
// gradient only where it accepts a step, and accepted points are the last value() points); g of
// the trial point goes into the float cache on the way.
double McfNewtonObjective::State::softmaxValue(const Eigen::VectorXd& theta) {
    const int D = m.D, K = m.K, nb = blocks();
    Cache& c = trial;
    c.theta = theta;
    const RowMatrix W = Eigen::Map<const Eigen::MatrixXd>(theta.data(), D, K);
    std::vector<double> part(static_cast<std::size_t>(nb), 0.0);
    std::vector<RowMatrix> gWs(static_cast<std::size_t>(nb));
    std::vector<Eigen::VectorXd> gbs(static_cast<std::size_t>(nb));
    parallelFor(nb, 0, [&](int blk) {
        const auto [n0, n1] = blockRows(blk, nb);
        RowMatrix& gW = gWs[static_cast<std::size_t>(blk)];
        Eigen::VectorXd& gb = gbs[static_cast<std::size_t>(blk)];
        gW.setZero(D, K);
        gb.setZero(K);
        Eigen::VectorXd a(K);
        std::vector<double> rowG(static_cast<std::size_t>(std::max(1, m.maxRowNnz)) * static_cast<std::size_t>(K));
        double total = 0.0;
        for (int n = n0; n < n1; ++n) {
            const int cl = m.cls[static_cast<std::size_t>(n)];
            const int e0 = m.rowStart[static_cast<std::size_t>(n)], e1 = m.rowStart[static_cast<std::size_t>(n) + 1];
            for (int k = 0; k < K; ++k) a(k) = k == cl ? 0.0 : (m.p.bias ? theta(D * K + k) - theta(D * K + cl) : 0.0);
            for (int e = e0; e < e1; ++e) {
                const auto ee = static_cast<std::size_t>(e);
                const int d = m.col[ee];
                const double* w = W.row(d).data();
                double* gr = rowG.data() + static_cast<std::size_t>(e - e0) * static_cast<std::size_t>(K);
                float* gs = g.data() + ee * static_cast<std::size_t>(K);
                for (int k = 0; k < K; ++k) {
                    gr[k] = 0.0;
                    if (k != cl) a(k) += m.noise.phi(d, w[k] - w[cl], m.val[ee], gr[k]);
                    gs[k] = static_cast<float>(gr[k]);
                }
            }
            const double mx = a.maxCoeff();
            double sum = 0.0;
            double* pr = c.S.data() + static_cast<std::size_t>(n) * static_cast<std::size_t>(K);
            for (int k = 0; k < K; ++k) sum += (pr[k] = std::exp(a(k) - mx));
            for (int k = 0; k < K; ++k) pr[k] /= sum;
            total += mx + std::log(sum);
            for (int e = e0; e < e1; ++e) {
                const double* gr = rowG.data() + static_cast<std::size_t>(e - e0) * static_cast<std::size_t>(K);
                double* out = gW.row(m.col[static_cast<std::size_t>(e)]).data();
                double acc = 0.0;
                for (int k = 0; k < K; ++k) {
                    const double t = pr[k] * gr[k];   // gr[cl] = 0
                    out[k] += t;
                    acc += t;
                }
                out[cl] -= acc;
            }
            for (int k = 0; k < K; ++k) gb(k) += pr[k];
            gb(cl) -= 1.0;
        }
        part[static_cast<std::size_t>(blk)] = total;
    });
    double total = 0.0;
    for (int blk = 0; blk < nb; ++blk) {
        total += part[static_cast<std::size_t>(blk)];
        if (blk == 0) continue;
        gWs[0] += gWs[static_cast<std::size_t>(blk)];
        gbs[0] += gbs[static_cast<std::size_t>(blk)];
    }
    gHoldsAt = false;
    c.grad.setZero(theta.size());
    Eigen::Map<Eigen::MatrixXd>(c.grad.data(), D, K) = gWs[0];
    c.grad.head(D * K) += 2.0 * m.p.l2 * theta.head(D * K);
    if (m.p.bias) c.grad.tail(K) = gbs[0];
    return total + m.p.l2 * W.squaredNorm();
}

void McfNewtonObjective::State::refreshG() const {
    const int D = m.D, K = m.K, nb = blocks();
    const RowMatrix W = Eigen::Map<const Eigen::MatrixXd>(at.theta.data(), D, K);
    parallelFor(nb, 0, [&](int blk) {
        const auto [n0, n1] = blockRows(blk, nb);
        for (int n = n0; n < n1; ++n) {
            const int cl = m.cls[static_cast<std::size_t>(n)];
            for (int e = m.rowStart[static_cast<std::size_t>(n)]; e < m.rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
                const auto ee = static_cast<std::size_t>(e);
                const int d = m.col[ee];
                const double* w = W.row(d).data();
                float* gs = g.data() + ee * static_cast<std::size_t>(K);
                for (int k = 0; k < K; ++k)
                    gs[k] = k == cl ? 0.0f : static_cast<float>(m.noise.dphi(d, w[k] - w[cl], m.val[ee]));
            }
        }
    });
    gHoldsAt = true;
}

void McfNewtonObjective::State::softmaxHessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const {
    if (!gHoldsAt) refreshG();
    const int D = m.D, K = m.K, nb = blocks();
    const Cache& c = at;
    const RowMatrix V = Eigen::Map<const Eigen::MatrixXd>(v.data(), D, K);
    std::vector<RowMatrix> outs(static_cast<std::size_t>(nb));
    std::vector<Eigen::VectorXd> hbs(static_cast<std::size_t>(nb));
    parallelFor(nb, 0, [&](int blk) {
        const auto [n0, n1] = blockRows(blk, nb);
        RowMatrix& out = outs[static_cast<std::size_t>(blk)];
        Eigen::VectorXd& hb = hbs[static_cast<std::size_t>(blk)];
        out.setZero(D, K);
        hb.setZero(K);
        Eigen::VectorXd da(K), r(K);
        for (int n = n0; n < n1; ++n) {
            const int cl = m.cls[static_cast<std::size_t>(n)];
            const double* pr = c.S.data() + static_cast<std::size_t>(n) * static_cast<std::size_t>(K);
            const int e0 = m.rowStart[static_cast<std::size_t>(n)], e1 = m.rowStart[static_cast<std::size_t>(n) + 1];
            for (int k = 0; k < K; ++k) da(k) = k == cl || !m.p.bias ? 0.0 : v(D * K + k) - v(D * K + cl);
            for (int e = e0; e < e1; ++e) {
                const auto ee = static_cast<std::size_t>(e);
                const float* gs = g.data() + ee * static_cast<std::size_t>(K);
                const double* vr = V.row(m.col[ee]).data();
                for (int k = 0; k < K; ++k) da(k) += gs[k] * (vr[k] - vr[cl]);
            }
            double pda = 0.0;
            for (int k = 0; k < K; ++k) pda += pr[k] * da(k);
            for (int k = 0; k < K; ++k) r(k) = pr[k] * (da(k) - pda);
            r(cl) = 0.0;   // a_c = 0 has no derivative
            for (int e = e0; e < e1; ++e) {
                const auto ee = static_cast<std::size_t>(e);
                const int d = m.col[ee];
                double A = 0.0, B = 0.0;   // h = g (A + B g)
                m.noise.secondOrderCoefficients(d, m.val[ee], A, B);
                const float* gs = g.data() + ee * static_cast<std::size_t>(K);
                const double* vr = V.row(d).data();
                double* o = out.row(d).data();
                double acc = 0.0;
                for (int k = 0; k < K; ++k) {
                    const double gk = gs[k];   // 0 for k = cl, and so is h
                    const double t = r(k) * gk + pr[k] * gk * (A + B * gk) * (vr[k] - vr[cl]);
                    o[k] += t;
                    acc += t;
                }
                o[cl] -= acc;
            }
            for (int k = 0; k < K; ++k) hb(k) += r(k);
            hb(cl) -= r.sum();
        }
    });
    for (int blk = 1; blk < nb; ++blk) {
        outs[0] += outs[static_cast<std::size_t>(blk)];
        hbs[0] += hbs[static_cast<std::size_t>(blk)];
    }
    Hv.setZero(v.size());
    Eigen::Map<Eigen::MatrixXd>(Hv.data(), D, K) = outs[0];
    Hv.head(D * K) += 2.0 * m.p.l2 * v.head(D * K);
    if (m.p.bias) Hv.tail(K) = hbs[0];
}

// The diagonal of the softmax Hessian: with P = sum_{k != c} p_k g_k and h_k = phi''(.), a
// non-zero e = (n, d) adds to entry (d, k), k != c:  p_k (1 - p_k) g_k^2 + p_k h_k, and to
// (d, c):  sum_{k != c} p_k g_k^2 - P^2 + sum_{k != c} p_k h_k; each row adds p_k (1 - p_k) to
// the bias entry k. (The unit vector at (d, k) moves only a_nk, by g_k; the one at (d, c) moves
// every a_nk, k != c, by -g_k.)
void McfNewtonObjective::State::softmaxHessianDiagonal(Eigen::VectorXd& h) const {
    if (!gHoldsAt) refreshG();
    const int D = m.D, K = m.K, nb = blocks();
    std::vector<RowMatrix> outs(static_cast<std::size_t>(nb));
    std::vector<Eigen::VectorXd> hbs(static_cast<std::size_t>(nb));
    parallelFor(nb, 0, [&](int blk) {
        const auto [n0, n1] = blockRows(blk, nb);
        RowMatrix& out = outs[static_cast<std::size_t>(blk)];
        Eigen::VectorXd& hb = hbs[static_cast<std::size_t>(blk)];
        out.setZero(D, K);
        hb.setZero(K);
        for (int n = n0; n < n1; ++n) {
            const int cl = m.cls[static_cast<std::size_t>(n)];
            const double* pr = at.S.data() + static_cast<std::size_t>(n) * static_cast<std::size_t>(K);
            for (int e = m.rowStart[static_cast<std::size_t>(n)]; e < m.rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
                const auto ee = static_cast<std::size_t>(e);
                const int d = m.col[ee];
                double A = 0.0, B = 0.0;   // h = g (A + B g)
                m.noise.secondOrderCoefficients(d, m.val[ee], A, B);
                const float* gs = g.data() + ee * static_cast<std::size_t>(K);
                double* o = out.row(d).data();
                double P = 0.0, own = 0.0;
                for (int k = 0; k < K; ++k) {
                    if (k == cl) continue;
                    const double gk = gs[k], second = pr[k] * gk * (A + B * gk);
                    o[k] += pr[k] * (1.0 - pr[k]) * gk * gk + second;
                    P += pr[k] * gk;
                    own += pr[k] * gk * gk + second;
                }
                o[cl] += own - P * P;
            }
            for (int k = 0; k < K; ++k) hb(k) += pr[k] * (1.0 - pr[k]);
        }
    });
    for (int blk = 1; blk < nb; ++blk) {
        outs[0] += outs[static_cast<std::size_t>(blk)];
        hbs[0] += hbs[static_cast<std::size_t>(blk)];
    }
    h.setZero(m.dim());
    Eigen::Map<Eigen::MatrixXd>(h.data(), D, K) = outs[0];
    h.head(D * K).array() += 2.0 * m.p.l2;
    if (m.p.bias) h.tail(K) = hbs[0];
}

McfNewtonObjective::McfNewtonObjective(const McfObjective& obj) {
    const McfObjective::Impl& m = *obj.m;
    if (!McfNewtonObjective::supports(obj))
        throw std::invalid_argument("McfNewtonObjective: exponential or logistic loss on binary data, or the logistic "
                                    "loss with blankout or Poisson noise on multi-class data");
    s = std::make_unique<State>(m);
    if (m.K > 1) {
        const std::size_t K = static_cast<std::size_t>(m.K);
        for (State::Cache* c : {&s->trial, &s->at}) c->S.resize(static_cast<std::size_t>(m.N) * K);
        s->g.resize(m.val.size() * K);
        return;
    }
    for (State::Cache* c : {&s->trial, &s->at}) {
        c->S.resize(static_cast<std::size_t>(m.N));
        c->d1.resize(m.val.size());
        c->d2.resize(m.val.size());
        if (m.noise.corruptsZeros()) {
            c->psi1.setZero(m.D, 2);
            c->psi2.setZero(m.D, 2);
        }
    }
    s->lpp.resize(static_cast<std::size_t>(m.N));
}

McfNewtonObjective::~McfNewtonObjective() = default;

bool McfNewtonObjective::supports(const McfObjective& obj) {
    const McfObjective::Impl& m = *obj.m;
    if (m.p.loss == McfLoss::Quadratic) return false;
    return m.K == 1 || (m.p.loss == McfLoss::Logistic && !m.noise.corruptsZeros());
}

double McfNewtonObjective::value(const Eigen::VectorXd& theta) {
    const McfObjective::Impl& m = s->m;
    if (m.K > 1) return s->softmaxValue(theta);
    State::Cache& c = s->trial;
    c.theta = theta;
    const double b = m.p.bias ? theta(m.D) : 0.0;
    double Psi[2] = {0.0, 0.0};
    if (m.noise.corruptsZeros())
        for (int cl = 0; cl < 2; ++cl) {
            const double y = cl == 1 ? 1.0 : -1.0;
            for (int d = 0; d < m.D; ++d) Psi[cl] += m.noise.psi(-y * theta(d), c.psi1(d, cl), c.psi2(d, cl));
            if (!std::isfinite(Psi[cl])) return std::numeric_limits<double>::infinity();
        }
    const bool expLoss = m.p.loss == McfLoss::Exponential;
    double total = 0.0;
    for (int n = 0; n < m.N; ++n) {
        const int cl = m.cls[static_cast<std::size_t>(n)];
        const double y = cl == 1 ? 1.0 : -1.0;
        double S = -y * b + Psi[cl];
        for (int e = m.rowStart[static_cast<std::size_t>(n)]; e < m.rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
            const auto k = static_cast<std::size_t>(e);
            S += m.noise.phi(m.col[k], -y * theta(m.col[k]), m.val[k], c.d1[k], c.d2[k]);
        }
        c.S[static_cast<std::size_t>(n)] = S;
        total += expLoss ? std::exp(S) : softplus(S);
    }
    return total + m.p.l2 * theta.head(m.D).squaredNorm();
}

void McfNewtonObjective::gradient(const Eigen::VectorXd& theta, Eigen::VectorXd& g) {
    const McfObjective::Impl& m = s->m;
    if (s->trial.theta.size() != theta.size() || s->trial.theta != theta) value(theta);
    std::swap(s->at, s->trial);
    if (m.K > 1) {
        s->gHoldsAt = !s->gHoldsAt;   // g holds one of the two points, which swapped names
        g = s->at.grad;
        return;
    }
    const State::Cache& c = s->at;
    const bool expLoss = m.p.loss == McfLoss::Exponential;
    g.setZero(theta.size());
    s->diag = Eigen::VectorXd::Constant(m.D, 2.0 * m.p.l2);
    s->lpClass[0] = s->lpClass[1] = 0.0;
    for (int n = 0; n < m.N; ++n) {
        const int cl = m.cls[static_cast<std::size_t>(n)];
        const double y = cl == 1 ? 1.0 : -1.0;
        const double S = c.S[static_cast<std::size_t>(n)];
        const double lp = expLoss ? std::exp(S) : sigmoid(S);
        s->lpp[static_cast<std::size_t>(n)] = expLoss ? lp : lp * (1.0 - lp);
        s->lpClass[cl] += lp;
        for (int e = m.rowStart[static_cast<std::size_t>(n)]; e < m.rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
            const auto k = static_cast<std::size_t>(e);
            g(m.col[k]) -= y * lp * c.d1[k];
            s->diag(m.col[k]) += lp * c.d2[k];
        }
        if (m.p.bias) g(m.D) -= y * lp;
    }
    if (m.noise.corruptsZeros())
        for (int cl = 0; cl < 2; ++cl) {
            const double y = cl == 1 ? 1.0 : -1.0;
            g.head(m.D) -= y * s->lpClass[cl] * c.psi1.col(cl);
            s->diag += s->lpClass[cl] * c.psi2.col(cl);
        }
    g.head(m.D) += 2.0 * m.p.l2 * theta.head(m.D);
}

void McfNewtonObjective::hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const {
    const McfObjective::Impl& m = s->m;
    if (m.K > 1) return s->softmaxHessianTimes(v, Hv);
    const State::Cache& c = s->at;
    Hv.setZero(v.size());
    const bool dense = m.noise.corruptsZeros();
    double densePart[2] = {0.0, 0.0}, A[2] = {0.0, 0.0};
    if (dense)
        for (int cl = 0; cl < 2; ++cl) densePart[cl] = c.psi1.col(cl).dot(v.head(m.D));
    const double vb = m.p.bias ? v(m.D) : 0.0;
    for (int n = 0; n < m.N; ++n) {
        const int cl = m.cls[static_cast<std::size_t>(n)];
        const int e0 = m.rowStart[static_cast<std::size_t>(n)], e1 = m.rowStart[static_cast<std::size_t>(n) + 1];
        // grad S_n = -y (phi', psi', 1): a = l''_n (grad S_n . v) times the -y of grad S_n.
        double u = vb + densePart[cl];
        for (int e = e0; e < e1; ++e) u += c.d1[static_cast<std::size_t>(e)] * v(m.col[static_cast<std::size_t>(e)]);
        const double a = s->lpp[static_cast<std::size_t>(n)] * u;   // (-y)^2 = 1
        if (a == 0.0) continue;
        for (int e = e0; e < e1; ++e) Hv(m.col[static_cast<std::size_t>(e)]) += a * c.d1[static_cast<std::size_t>(e)];
        if (m.p.bias) Hv(m.D) += a;
        A[cl] += a;
    }
    if (dense)
        for (int cl = 0; cl < 2; ++cl) Hv.head(m.D) += A[cl] * c.psi1.col(cl);
    Hv.head(m.D) += s->diag.cwiseProduct(v.head(m.D));
}

// Binary: grad S_n = -y (phi' + psi'(class), psi' elsewhere, 1 for the bias), so the rank-one
// parts add l''_n (phi'_e + psi'_d)^2 at a non-zero and l''_n psi'_d^2 at a zero; `diag` holds
// the rest (l2 and l'_n Hess S_n).
bool McfNewtonObjective::hessianDiagonal(Eigen::VectorXd& h) const {
    const McfObjective::Impl& m = s->m;
    if (m.K > 1) {
        s->softmaxHessianDiagonal(h);
        return true;
    }
    const State::Cache& c = s->at;
    const bool dense = m.noise.corruptsZeros();
    h.setZero(m.dim());
    double lppClass[2] = {0.0, 0.0};
    for (int n = 0; n < m.N; ++n) {
        const int cl = m.cls[static_cast<std::size_t>(n)];
        const double l = s->lpp[static_cast<std::size_t>(n)];
        lppClass[cl] += l;
        for (int e = m.rowStart[static_cast<std::size_t>(n)]; e < m.rowStart[static_cast<std::size_t>(n) + 1]; ++e) {
            const int d = m.col[static_cast<std::size_t>(e)];
            const double zeroPart = dense ? c.psi1(d, cl) : 0.0;
            const double gd = c.d1[static_cast<std::size_t>(e)] + zeroPart;
            h(d) += l * (gd * gd - zeroPart * zeroPart);
        }
        if (m.p.bias) h(m.D) += l;
    }
    if (dense)
        for (int cl = 0; cl < 2; ++cl) h.head(m.D) += lppClass[cl] * c.psi1.col(cl).cwiseAbs2();
    h.head(m.D) += s->diag;
    return true;
}

namespace {

FitResult fitMcfUnscaled(const Dataset& train, const McfParams& p, const RunControl& rc) {
    Stopwatch sw;
    const McfObjective obj(train, p);
    if (p.loss == McfLoss::Quadratic) return fitQuadratic(train, p, obj, rc);
    const bool newtonOk = McfNewtonObjective::supports(obj);
    if (p.solver == McfSolver::Newton && !newtonOk)
        throw std::invalid_argument("McfParams.solver: Newton is implemented for binary data and for the multi-class "
                                    "logistic loss with blankout or Poisson noise; use lbfgs or auto");
    if (p.solver != McfSolver::Lbfgs && newtonOk) {
        McfNewtonObjective f(obj);
        NewtonParams np = p.newton;
        const auto counts = train.classCounts();
        np.epsilon *= static_cast<double>(*std::min_element(counts.begin(), counts.end())) / train.rows();
        const NewtonResult s = minimizeNewton(f, Eigen::VectorXd::Zero(obj.dimension()), np, rc);
        FitResult r;
        r.model = obj.toModel(s.x);
        r.model.classNames = train.classNames;
        r.objective = s.fx;
        r.iterations = s.iterations;
        r.status = s.status;
        r.message = s.message + " (Newton, " + std::to_string(s.cgIterations) + " CG steps)";
        r.elapsed = sw.seconds();
        return r;
    }

    // L-BFGS on J / N: the gradient tolerance then means the same for 100 or 60,000 examples.
    const double invN = 1.0 / obj.examples();
    const LbfgsObjective f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        const double v = obj(x, grad);
        grad *= invN;
        return v * invN;
    };
    const LbfgsResult s = minimizeLbfgs(f, Eigen::VectorXd::Zero(obj.dimension()), p.lbfgs, rc);
    FitResult r;
    r.model = obj.toModel(s.x);
    r.model.classNames = train.classNames;
    r.objective = s.fx * obj.examples();
    r.iterations = s.iterations;
    r.status = s.status;
    r.message = s.message;
    r.elapsed = sw.seconds();
    return r;
}

}  // namespace

FitResult fitMcf(const Dataset& train, const McfParams& p, const RunControl& rc) {
    // As the liblinear baselines: a class without instances is named (it made the Newton
    // tolerance 0 and the error said "NewtonParams.epsilon must be finite and > 0").
    train.requireNonEmptyClasses("MCF: dataset '" + train.name + "'");
    FitResult r = fitMcfUnscaled(train, p, rc);
    // Test inputs blanked without rescaling (header comment): b (1 - p) keeps b in proportion
    // to the shrunken w.x.
    if (p.testBlankout > 0.0) {
        r.model.b *= 1.0 - p.testBlankout;
        r.message += "; bias scaled by 1 - testBlankout = " + fmt("%.3g", 1.0 - p.testBlankout);
    }
    return r;
}

}  // namespace fdlab
