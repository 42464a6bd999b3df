#pragma once
// Bundle method for regularised risk minimisation (BMRM), Teo, Vishwanathan, Smola & Le,
// "Bundle methods for regularized risk minimization", JMLR 2010 (and KDD 2007); as used by
// Globerson & Roweis for FDROP (their Figure 1.2). Spec section 3.
//
// Problem:  min_w  J(w) = 1/2 ||w||^2 + C R(w),   R convex, given by an oracle that returns
// R(w) and one subgradient a in dR(w). (This is the C-form used by FDROP and liblinear; the
// lambda-form lambda/2||w||^2 + R(w) is the same problem with C = 1/lambda and J scaled by lambda.)
//
// Iteration t: the oracle at w_t gives the cutting plane  R(w) >= <a_t, w> + b_t  with
// b_t = R(w_t) - <a_t, w_t>. The model J_t(w) = 1/2||w||^2 + C max(0, max_i <a_i,w> + b_i)
// (the 0 plane only when R >= 0 is declared) is minimised through its dual, a QP over the simplex
// of plane multipliers beta:
//
//     max_beta  D(beta) = -C^2/2 || A beta ||^2 + C <b, beta>,   beta >= 0, sum beta = 1,
//     w_{t+1} = -C A beta.
//
// Any simplex point gives a valid lower bound D(beta) <= min J_t <= min J (weak duality), so an
// inexact inner solve only loosens the bound, it never makes it wrong. Upper bound: the best J(w_i)
// seen. The gap (upper - best lower bound) certifies the returned w: J(w) - min J <= gap.
//
// Inner solver: SMO on the simplex (move mass between the most violating pair, second-order
// working-set choice as in Fan, Chen & Lin 2005), warm-started from the previous beta with the
// new plane at 0. Each step is exact on its 2-variable subproblem and costs O(#planes); it stops
// when max_{beta_i>0} g_i - min_j g_j (which bounds the inner duality gap) is below 10% of
// max(outer tolerance, current gap). All planes are kept (the Gram matrix grows by one row per iteration; plane
// counts are at most maxIterations, typically a few hundred); `maxInactiveAge` optionally drops
// planes whose multiplier has been zero that many iterations in a row (the bound stays valid;
// the best lower bound so far is kept).
//
// Line search (OCAS, Franc & Sonnenburg, "Optimized cutting plane algorithm for support vector
// machines", ICML 2008 / JMLR 2009): when the oracle offers an exact line search (plain hinge,
// K = 0), the best point w_b moves to the minimiser of J on the segment towards the model's
// minimiser w_c, and the next plane is taken at w_b + mu (w_c - w_b), mu = 0.1. The lower bound
// and the gap are the same as in BMRM; only the sequence of points changes (many fewer
// iterations on SVM problems). Disable with BundleParams::lineSearch = false.

#include "core/util/run_control.h"

#include <Eigen/Core>

#include <string>

namespace fdlab {

/// R(w) with one subgradient. Implementations: core/learners/worst_case_hinge.h.
struct CuttingPlaneOracle {
    virtual ~CuttingPlaneOracle() = default;
    /// Returns R(w) and writes a subgradient of R at w into `subgradient` (resized to w.size()).
    virtual double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& subgradient) = 0;
    /// Optional exact line search: the t >= 0 minimising phi(t) = 1/2||wb + t d||^2 + C R(wb + t d),
    /// with phi(t) in `value`. Returns false when the oracle cannot do it cheaply (the default);
    /// the bundle method then runs plain BMRM.
    virtual bool lineSearch(const Eigen::VectorXd& wb, const Eigen::VectorXd& d, double C, double& t, double& value) {
        (void)wb, (void)d, (void)C, (void)t, (void)value;
        return false;
    }
    /// After a successful lineSearch(wb, d, ...): evaluate at w = wb + s d (passed too). An oracle
    /// may reuse what the line search computed (OCAS keeps the outputs X wb and X d, so this costs
    /// no dot products). Default: evaluate(w, subgradient).
    virtual double evaluateOnLine(double s, const Eigen::VectorXd& w, Eigen::VectorXd& subgradient) {
        (void)s;
        return evaluate(w, subgradient);
    }
};

struct BundleParams {
    /// Weight of the risk in J(w) = 1/2||w||^2 + C R(w). Default 1; > 0.
    double C = 1.0;
    /// Stopping tolerance on the gap J(w_best) - lower bound. Default 1e-4; > 0.
    double epsilon = 1e-4;
    /// true (default): stop when gap < epsilon * J(w_best) (relative); false: gap < epsilon (absolute).
    bool relativeEpsilon = true;
    /// Maximum number of oracle calls (= planes). Default 1000; >= 1.
    long maxIterations = 1000;
    /// Declares R >= 0 (losses), which adds the plane R >= 0 to the model. Default true.
    bool riskNonNegative = true;
    /// Drop a plane after its multiplier has been 0 for this many consecutive iterations;
    /// 0 (default) keeps every plane. >= 0.
    int maxInactiveAge = 0;
    /// Use the oracle's exact line search when it has one (OCAS). Default true.
    bool lineSearch = true;
    /// Stop the inner SMO when its duality gap is below innerFraction * max(outer absolute
    /// tolerance, current gap): a loose model minimiser is as good a next point far from the optimum.
    /// Default 0.1; in (0, 1].
    double innerFraction = 0.1;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

struct BundleResult {
    Eigen::VectorXd w;          ///< the iterate with the lowest J seen
    double objective = 0.0;     ///< J(w)
    double lowerBound = 0.0;    ///< best lower bound on min J
    double gap = 0.0;           ///< objective - lowerBound (>= 0 up to rounding)
    long iterations = 0;        ///< oracle calls
    int planes = 0;             ///< planes in the final model
    Status status = Status::Failed;
    std::string message;
};

/// Minimises J starting from w0 (its size is the dimension). Reports progress once per iteration
/// ("J .. lb .. gap .."), polls rc.cancelled() once per iteration and returns Status::Cancelled with
/// the best w so far.
BundleResult minimiseBundle(CuttingPlaneOracle& oracle, const Eigen::VectorXd& w0, const BundleParams& p,
                            const RunControl& rc = {});

}  // namespace fdlab
