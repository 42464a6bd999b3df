#pragma once
// Marginalized Corrupted Features (MCF): train on infinitely many corrupted copies of the data by
// minimising the expected loss under a corrupting distribution p(x~ | x).
//
// Source: L. van der Maaten, M. Chen, S. Tyree, K. Q. Weinberger, "Learning with Marginalized
// Corrupted Features", ICML 2013, section 3 (eqs. 2-5, Tables 1-2); spec ALGORITHMS.md section 4.
// The corruption models and their MGFs are in mcf_noise.h.
//
// Objective (N examples, D features, K score columns, W in R^{D x K}, bias b in R^K; the bias is
// a constant feature that is never corrupted and never regularised, as in the paper's
// experiments; with bias = false, b = 0):
//
//     J(W, b) = sum_n Lbar_n(W, b) + l2 * ||W||_F^2
//
// Binary data (K = 1, y_n in {-1, +1}), with M_nd(t) = E[exp(t x~_nd)] and t_nd = -y_n w_d:
//   quadratic    Lbar_n = E[(w.x~_n + b - y_n)^2] = (w.x_n + b - y_n)^2 + sum_d w_d^2 Var[x~_nd]
//   exponential  Lbar_n = E[exp(-y_n (w.x~_n + b))] = exp(S_n),
//                S_n = -y_n b + sum_d log M_nd(t_nd)                        (paper eq. 4)
//   logistic     Lbar_n = log(1 + exp(S_n)) >= E[log(1 + exp(-y_n (w.x~_n + b)))]
//                (Jensen: E log z <= log E z; paper eq. 5), computed as a stable softplus.
//
// Multi-class data (K = number of classes >= 3, class c_n; prediction argmax_k b_k + w_k.x):
//   quadratic    one-hot targets T_nk = [k == c_n]: Lbar_n = sum_k E[(w_k.x~_n + b_k - T_nk)^2].
//   exponential  label vectors ybar_n = (1 at c_n, -1/(K-1) elsewhere), sum_k ybar_nk = 0
//                (Zhu, Zou, Rosset & Hastie 2006, as the paper says):
//                Lbar_n = E[exp(-ybar_n.(W^T x~_n + b))] = exp(-ybar_n.b + sum_d log M_nd(-(W ybar_n)_d)).
//   logistic     softmax loss l = -log softmax_{c}(W^T x + b) = log sum_k exp(f_k - f_c),
//                f_k - f_c = (w_k - w_c).x + b_k - b_c. Jensen (log is concave), then
//                independence across features:
//                E[l] <= log sum_k E[exp((w_k - w_c).x~ + b_k - b_c)]
//                      = log sum_k exp(a_nk),   a_nk = b_k - b_c + sum_d log M_nd(W_dk - W_dc)
//                (the k = c term is exp(0) = 1; for K = 2 this is the binary bound above with
//                w = w_1 - w_0). Gradient, with p_nk = softmax(a_n)_k and g = d log M / dt:
//                dLbar/dW_dk = p_nk g(W_dk - W_dc) (k != c),  dLbar/dW_dc = -sum_{k != c} of those;
//                dLbar/db_k = p_nk - [k == c].
// Exponential and logistic MCF on binary data are solved by the trust-region Newton method
// (core/solvers/trust_region_newton.h, the solver of liblinear's -s 0) from w = 0, with exact
// Hessian-vector products: with S_n as above, t = -y_n w,
//     grad S_n = -y_n [phi'_d(t_d) + psi'(t_d)]_d (and -y_n for b),
//     Hess S_n = diag(phi''_d(t_d) + psi''(t_d)),
//     Hess Lbar_n = l''(S_n) grad S_n grad S_n^T + l'(S_n) Hess S_n   (l = exp or softplus),
// so H v costs one pass over the non-zeros (the dense psi parts depend only on the class).
// Its stopping rule is liblinear's: ||grad J|| <= newton.epsilon min(#pos, #neg) / N ||grad J(0)||,
// with epsilon 1e-4 by default (liblinear's 0.01 stops 0.3% above the optimum on raw Spambase);
// the CG is preconditioned by the exact Hessian diagonal (McfNewtonObjective::hessianDiagonal).
// The multi-class logistic bound with blankout or Poisson noise is solved the same way (its H v
// in mcf.cpp, min over all classes in the stopping rule; its passes run over row blocks in
// parallel, summed in a fixed order, and cache phi' once per non-zero and class in float: about
// 4 nnz K bytes, 1.1 GB peak for the 42,000 x 784 Fashion-MNIST training part, tests/bench/bench_mcf). Multi-class exponential MCF, the
// multi-class logistic one with Gaussian or Laplace noise (their dense psi terms couple every
// pair of classes in every feature) and any run with solver = Lbfgs use L-BFGS
// (core/solvers/lbfgs_minimizer.h) on J/N from W = 0. The quadratic one in closed form (paper eq. after 3; spec section 4):
//     [w_k; b_k] = (sum_n xh_n xh_n^T + diag(sum_n Var[x~_n], 0) + diag(l2, 0))^{-1} sum_n T_nk xh_n,
// xh_n = [x_n; 1], one Eigen LDLT factorisation shared by the K columns.
// The bias and test-time blankout. The paper's model (section 4: "a bias term that is neither
// regularized nor corrupted") is trained on unbiased corruption, E[x~] = x, but its "nightmare
// at test time" experiment blanks test pixels to zero without the 1/(1-q) rescaling, so a test
// input blanked with probability p has E = (1-p) x: w.x shrinks by (1-p) while b does not, and
// the bias, fitted against full-scale scores, dominates (measured on 7,000 MNIST digits, logistic
// MCF q = 0.5, l2 = 0.5, 3,000 test digits: 0.199 error at p = 0.5 and 0.448 at p = 0.75). The paper keeps that model
// (and picks q and l2 per deletion level on a validation set), so it is the default here too.
// McfParams::testBlankout = p returns b (1 - p) instead: the model then scores a blanked,
// unrescaled input x' as (1-p) (b + w.x'/(1-p)), i.e. as the rescaled corrupted input x~ it was
// trained on (same sign, same argmax). Same run: 0.128 at p = 0.5, 0.200 at p = 0.75, and
// 0.090 -> 0.110 on clean data when p = 0.5 is assumed.
// Note: Gaussian noise with the quadratic loss is ridge regression with l2 + sigma^2 N (paper,
// Chapelle et al. 2000), Laplace noise the same with 2 lambda^2 N.
//
// Sums over features visit the non-zeros only; Gaussian/Laplace noise adds one term per feature
// that does not depend on the example (mcf_noise.h), computed once per evaluation.
// Laplace noise with exponential/logistic loss: the MGF exists only for |lambda t| < 1; outside
// that set the expected loss is +inf and the objective returns +inf, which the L-BFGS line search
// treats as a barrier (the minimiser lies strictly inside, since the loss grows without bound
// towards the boundary). Poisson noise needs x >= 0 (std::invalid_argument otherwise).

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/learners/mcf_noise.h"
#include "core/solvers/lbfgs_minimizer.h"
#include "core/solvers/trust_region_newton.h"
#include "core/util/run_control.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace fdlab {

enum class McfLoss { Quadratic, Exponential, Logistic };
/// Solver of the exponential and logistic losses. Auto: Newton where implemented (see
/// McfNewtonObjective::supports), L-BFGS otherwise.
enum class McfSolver { Auto, Newton, Lbfgs };

const char* toString(McfLoss l);
/// "quadratic", "exponential", "logistic"; throws std::invalid_argument.
McfLoss mcfLossFromString(const std::string& s);

struct McfParams {
    /// Loss whose expectation is minimised. Default Logistic (the paper's best on MNIST).
    McfLoss loss = McfLoss::Logistic;
    /// Corrupting distribution. Default Blankout.
    McfNoise noise = McfNoise::Blankout;
    /// Blankout level q of every feature, in [0, 1). Default 0.5. q = 0 is the plain loss.
    double q = 0.5;
    /// Per-feature blankout levels q_d in [0, 1); overrides q when non-empty (size = features).
    std::vector<double> qPerFeature;
    /// Gaussian noise standard deviation sigma >= 0. Default 0.1.
    double sigma = 0.1;
    /// Laplace noise scale lambda >= 0 (variance 2 lambda^2). Default 0.1.
    double laplaceScale = 0.1;
    /// l2 >= 0: weight of ||W||_F^2 added to the SUM of the expected losses (bias excluded).
    /// Default 0.5, the regulariser of liblinear with C = 1 (C sum loss + ||w||^2 / 2); it keeps
    /// q = 0 well posed on separable data. The paper cross-validates it and often finds ~0.
    double l2 = 0.5;
    /// Add an uncorrupted, unregularised bias (constant feature). Default true.
    bool bias = true;
    /// Blankout probability in [0, 1) expected on the TEST inputs, which are blanked without
    /// rescaling: the returned bias is b (1 - testBlankout) (header comment). Default 0: the
    /// paper's model, trained and returned as is. Training (and FitResult::objective) is unchanged.
    double testBlankout = 0.0;
    /// Solver of the exponential and logistic losses. Default Auto (Newton where implemented;
    /// Newton elsewhere throws std::invalid_argument).
    McfSolver solver = McfSolver::Auto;
    /// L-BFGS settings. epsilon applies to the gradient of J / N.
    LbfgsParams lbfgs;
    /// Newton settings. epsilon is scaled by min(#pos, #neg) / N as liblinear does with its eps.
    NewtonParams newton;

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

/// The MCF objective J(W, b) of the header comment, as a function of the packed parameter
/// vector theta = [vec(W) column by column; b (if bias)]. For the solver, the tests and tools.
class McfObjective {
public:
    /// Throws std::invalid_argument for bad params, an empty or single-class dataset, a wrong
    /// qPerFeature size, or negative values with Poisson noise.
    McfObjective(const Dataset& train, const McfParams& p);
    ~McfObjective();
    McfObjective(const McfObjective&) = delete;
    McfObjective& operator=(const McfObjective&) = delete;

    int columns() const;     ///< K (1 for binary data)
    int dimension() const;   ///< D K (+ K with bias)
    int examples() const;    ///< N

    /// J at theta; writes dJ/dtheta into grad (resized). +inf outside the Laplace domain.
    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const;
    /// Expected losses only (J without the l2 term).
    double expectedLoss(const Eigen::VectorXd& theta) const;

    LinearModel toModel(const Eigen::VectorXd& theta) const;
    Eigen::VectorXd fromModel(const LinearModel& m) const;

private:
    friend class McfNewtonObjective;
    struct Impl;
    std::unique_ptr<Impl> m;
};

/// MCF as a NewtonObjective: J(theta) with its gradient and exact Hessian-vector products, for
/// the exponential and logistic losses on binary data and the logistic (softmax) loss with
/// blankout or Poisson noise on multi-class data (header comment). Holds a reference to `obj`,
/// which must outlive it. Throws std::invalid_argument for other settings (see supports()).
class McfNewtonObjective final : public NewtonObjective {
public:
    /// Whether Newton is implemented for obj's loss, noise and number of classes.
    static bool supports(const McfObjective& obj);
    explicit McfNewtonObjective(const McfObjective& obj);
    ~McfNewtonObjective() override;
    double value(const Eigen::VectorXd& theta) override;
    void gradient(const Eigen::VectorXd& theta, Eigen::VectorXd& g) override;
    void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override;
    /// The exact diagonal of the Hessian (one pass over the non-zeros), for the solver's
    /// preconditioner.
    bool hessianDiagonal(Eigen::VectorXd& h) const override;

private:
    struct State;
    std::unique_ptr<State> s;
};

/// Trains MCF. Binary datasets give a one-column model, datasets with >= 3 classes a K-column
/// model trained jointly (no one-vs-rest). objective = J at the returned model; iterations =
/// L-BFGS iterations (1 for the closed form). Throws std::invalid_argument for bad params or data.
FitResult fitMcf(const Dataset& train, const McfParams& p, const RunControl& rc = {});

}  // namespace fdlab
