#pragma once
// FDROP solved in the primal on a Nesterov-smoothed objective, with a certified duality gap at
// every iterate. Problem (Globerson & Roweis, "Nightmare at test time", eq. 1.3; spec section 3;
// the dual variables as in core/learners/fdrop_dual.h, with a_i = alpha_i / C, l_ij = a_i beta_ij):
//
//     J(w) = 1/2 ||w||^2 + C sum_i max { q_i . z_i(w) : q_i = (a_i, l_i) in Q_i },
//     z_i(w) = (1 - y_i (w.x_i + b), (y_i w_j x_ij)_j),
//     Q_i = { 0 <= a <= 1, 0 <= l_j <= a, sum_j c_j l_j <= B a }
//
// (the worst-case hinge as the maximum of a linear function over the polytope Q_i: a the hinge's
// multiplier, l_j = a beta_j the deleted mass; c_j, B the adversary's costs and budget).
// Smoothing (Nesterov, "Smooth minimization of non-smooth functions", Math. Prog. 2005):
//
//     J_mu(w) = 1/2 ||w||^2 + C sum_i max_{q in Q_i} [ q . z_i(w) - mu/2 ||q||^2 ],
//
// whose inner maximiser is the Euclidean projection q_i(w) = P_Q(z_i(w) / mu) (projectDeletionCone)
// and whose gradient is w - w(q(w)), w(q) = C sum_i y_i (a_i x_i - l_i o x_i) (+ C sum_i y_i a_i for
// the bias). J_mu is convex and piecewise quadratic (the projection onto a polytope is piecewise
// linear), so the trust-region Newton method (core/solvers/trust_region_newton.h) with the
// generalised Hessian I + C / mu sum_i M_i^T J_i M_i (J_i the projector onto the tangent space of
// Q_i's face that holds q_i) converges fast for a fixed mu. The q_i(w) are feasible dual points, so
//
//     J(w) - D(q(w)),   D(q) = C sum_i a_i - 1/2 ||w(q)||^2
//
// is a certified gap at every iterate (weak duality). Continuation: mu is divided by muFactor until
// that gap meets the tolerance. Since J_mu(w) - D(q(w)) = 1/2 ||grad J_mu(w)||^2 - C mu / 2 sum_i
// ||q_i||^2, each Newton solve runs until 1/2 ||grad||^2 is a tenth of the tolerance.
//
// Measured (bench_fdrop smooth spam|mnist K mu0 factor rounds, against the dual solver in the
// same process; issue 30 item 1): slower than the dual coordinate ascent in all cases tried.
// MNIST 3 vs 5 K = 10: after 3 rounds (mu 0.01, 4.3 s, 92 Newton steps, 2,300 Hessian products)
// the gap is still 4.5 where the dual solver certifies 0.061 in 3.6 s; below mu = 1e-4 the Newton
// solves stall (||grad|| stays at 139: the Hessian scales as C / mu and the quadratic pieces change
// within a step), so D(q(w)) never certifies the tolerance. SpamAssassin K = 10: gap 16.8 after
// 44 s against 0.019 in 1.7 s; K = 50: gap 66 after 177 s against 0.25 in 34 s. As a warm start
// the smoothed dual point saves few epochs (MNIST K = 10 1,968 -> 1,458; spam K = 10 400 -> 288;
// spam K = 50 3,472 -> 1,968) at a higher total cost. Not used by fitFdrop.

#include "core/learners/fdrop_dual.h"
#include "core/learners/worst_case_hinge.h"
#include "core/solvers/trust_region_newton.h"
#include "core/util/run_control.h"

#include <Eigen/Core>

#include <cstddef>
#include <string>
#include <vector>

namespace fdlab {

/// The Euclidean projection of (t, v) onto Q = {(a, l): 0 <= a <= 1, 0 <= l_j <= a,
/// sum_j c_j l_j <= B a} (c_j > 0, B >= 0): writes l (size n) and returns a. nu (optional)
/// receives the multiplier of the budget constraint. Exact to rounding: for a fixed multiplier
/// nu, a solves a - t - B nu - sum_j [v_j - nu c_j - a]_+ = 0 (concave, increasing: Newton from
/// the left converges monotonically, one linear piece per step) and l_j = clip(v_j - nu c_j, 0, a);
/// the budget residual sum_j c_j l_j - B a is non-increasing in nu (the derivative of the concave
/// dual function) and its root is bracketed and found by the Illinois method.
double projectDeletionCone(double t, const double* v, const double* c, std::size_t n, double B, double* l,
                           double* nu = nullptr);

/// J_mu with its gradient and generalised Hessian for the trust-region Newton method. The inner
/// maximisers q_i of the latest value() call are kept: gradient(), hessianTimes() and dual() use them.
class SmoothedFdropObjective : public NewtonObjective {
public:
    SmoothedFdropObjective(const WorstCaseHingeOracle& o, double C);
    void setMu(double mu) { m_mu = mu; }
    double value(const Eigen::VectorXd& w) override;
    void gradient(const Eigen::VectorXd& w, Eigen::VectorXd& g) override;
    void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const override;
    /// Makes the latest q exactly feasible (budget rounding) and returns D(q); `start` (optional)
    /// receives q as a dual solver start (alpha = C a, beta = l / a).
    double dual(FdropDualStart* start);

private:
    /// w(q) from the latest q.
    void dualW(Eigen::VectorXd& wq) const;

    const WorstCaseHingeOracle& m_o;
    double m_C;
    double m_mu = 1.0;
    std::vector<double> m_a, m_nu, m_l, m_cost, m_v;
    Eigen::VectorXd m_wq;
};

struct FdropSmoothParams {
    /// Weight of the summed worst-case hinge. Default 1; finite, > 0.
    double C = 1.0;
    /// Stopping tolerance on the certified gap J - D. Default 1e-4; finite, > 0.
    double epsilon = 1e-4;
    /// true (default): stop when gap < epsilon * J; false: gap < epsilon.
    bool relativeEpsilon = true;
    /// First smoothing parameter. Default 1; finite, > 0.
    double mu0 = 1.0;
    /// Divisor of mu between rounds. Default 10; finite, > 1.
    double muFactor = 10.0;
    /// Maximum continuation rounds. Default 30; >= 1.
    int maxRounds = 30;
    /// Maximum Newton iterations per round. Default 200; >= 1.
    int maxNewtonIterations = 200;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

struct FdropSmoothResult {
    Eigen::VectorXd w;          ///< the primal point with the lowest J seen (bias last when enabled)
    double objective = 0.0;     ///< J(w)
    double dualObjective = 0.0; ///< best D(q): a certified lower bound on min J
    double gap = 0.0;           ///< objective - dualObjective
    int rounds = 0;             ///< continuation rounds
    long newtonIterations = 0;  ///< accepted Newton steps in all rounds
    long hessianProducts = 0;   ///< conjugate-gradient steps (Hessian-vector products) in all rounds
    FdropDualStart end;         ///< the last dual point q (feasible): a start for the dual solver
    Status status = Status::Failed;
    std::string message;
};

/// Minimises J for the data and budget held by `oracle` from w0 (size oracle.dimension(); empty:
/// 0). Progress once per round; cancellation polled by the Newton solver.
FdropSmoothResult solveFdropSmooth(const WorstCaseHingeOracle& oracle, const FdropSmoothParams& p,
                                   const Eigen::VectorXd& w0 = {}, const RunControl& rc = {});

}  // namespace fdlab
