#pragma once
// The Dekel-Shamir LP (4) (spec ALGORITHMS.md section 2) solved by a primal-dual interior-point
// method (Mehrotra's predictor-corrector) that exploits the LP's block-angular structure.
//
// LP (4) in its "sum of the top N" form, over the non-zero x_ij only (see dekel_shamir_lp.h;
// the zero pixels drop out exactly), with the cost scaled by m:
//     min  sum_i xi_i
//     R_i :   y_i (b + sum_j x_ij w_j) - N lambda_i - sum_j beta_ij + xi_i >= gamma V / P
//     R_ij:   beta_ij + v_j lambda_i - y_i x_ij w_j                        >= -gamma v_j / P
//     xi, lambda, beta >= 0,  -C <= w_j <= C,  b free (or boxed by C).
// The shared variables (w, b) couple every row, which is why general sparse LP codes do badly:
// GLPK's interior point forms A D A^T, dense in the rows (10^8 non-zeros for 100 digits; spec,
// "Measured"), and simplex pivots through a highly degenerate vertex (tied pixel values).
//
// Here each Newton step is solved by block elimination of the augmented system
//     [ -H_x  A^T   ] [dx]   [f]
//     [  A    S Y^-1] [dy] = [h]
// example by example: the rows R_ij and the columns beta_ij are eliminated in closed form (each
// touches only beta_ij, lambda_i, w_j), then xi_i, leaving per example a 2x2 block in
// (lambda_i, dual of R_i) that couples to (w, b) through one dense rank-2 term. What remains is
// the SPD system G dg = r in (w, b) of size n+1,
//     G = D + sum_i C_i^T T_i^-1 C_i    (D diagonal; C_i: 2 x (n+1), non-zero on example i's words
//                                        and the bias only; T_i^-1 the 2x2 block),
// solved in one of two ways (DekelShamirIpmParams::denseMaxFeatures):
//  - n <= 3000 (MNIST's 784 pixels): G formed and factored by dense Cholesky, O(sum_i nnz_i^2 +
//    n^3 / 3) per iteration; the centrality correctors reuse the factor;
//  - above: G is never formed. Preconditioned conjugate gradients (solvePcg) with the product
//    G v computed from the C_i and T_i in O(nnz) (two threads, fixed split); memory O(nnz + n).
//    A dense G at SpamAssassin's 24,598 words would be 4.9 GB, and a sparse Cholesky of it fills
//    in: G has the pattern of X^T X, where the common words meet every other word. So the
//    preconditioner is block Jacobi: G's exact block on the cgBlockFeatures (500) most frequent
//    features and the bias, formed in O(sum_i nnz_i^2) over those features and factored densely
//    (about 4e7 flops), and G's diagonal elsewhere. Measured on every 3rd training message
//    (1,411 x 24,598, N = 20, bench_dekel_shamir --spam --every 3 --block B, same LP value
//    0.003174694): Jacobi alone 183 s and 258,844 CG steps; block 500: 65 s and 87,739 steps;
//    1,000: 77,186 steps but more time in the factorisation; 2,000: 28,146 steps, 235 s. On all
//    4,232 messages it is not enough: block 500 stalled after 165 iterations and 839 s at a
//    relative gap of 1.2e-3 (542,136 CG steps, 183 solves at the 2,000-step cap). Inexact
//    Newton: each solve stops at a residual tied to mu and to the (w, b) rows' dual infeasibility (linearSolve in the .cpp). Measured on
//    the full spam training part (N = 20, bench_dekel_shamir --spam): 1e-3 and 1e-5 times
//    that tolerance gave the same Newton step lengths per iteration, only slower; 10 times it
//    left the dual infeasibility at 0.1-0.5 for 100 iterations. The stopping test uses
//    residuals computed from the iterates, never the CG's own.
// Presolve: a feature whose non-zero y_i x_ij all have one sign (a word seen in one class only)
// is at +-C at an optimum (raising y_i x_ij w_j raises row R_i's left side by at least what
// beta_ij grows), so it is fixed there, its terms move to the right-hand sides and it leaves G.
// On the spam training part 14,456 of the 24,598 words are such words (10,142 appear in both
// classes, with 522,000 of the 587,000 non-zeros). Measured with bench_dekel_shamir --spam
// --budgets 20, block 500, same LP values: every 3rd message 56 s (stalled at a relative gap of
// 4e-8) -> 50 s (converged, 79,072 CG steps); every 6th 4.7 -> 5.0 s; all 4,232 messages after
// 300 s: iteration 125 at a relative gap of 0.20 -> iteration 155 at 0.12. It does not change
// the picture below: the common words, which couple to everything, are all in both classes.
// (Also measured, not kept: solving on a working set of examples, adding those the restricted
// optimum violates; on every 3rd message the set grew to 814 of 1,411 in 8 rounds, 94 s.)
// (Nor: re-choosing the block at every Newton step by the share of a word's diagonal in G that
// is coupling (three scorings: that share, times the word's count, times its square root);
// every 6th message 4.27 s -> 4.4-5.6 s, every 3rd 50 s -> 62-71 s, more CG steps each time.
// Nor fixing words at +-C as an active set or generating columns over words: the optimal face is
// large -- in this solver's answer on every 6th message 1 of the 3,961 words seen in both
// classes is at +-C, in the active-set simplex's vertex on every 14th 62 of 2,318.)
// The iteration count of Mehrotra's method hardly grows with m on MNIST; on the spam corpus with
// word values it does: steps of only 0.1-0.4 (29 iterations for 300 messages, 108 for 1,058
// and 148 for all 4,232 at 2,200 words; all 24,598 words: 113 iterations in 200 s, relative
// gap 0.34), and the CG steps per solve grow as mu falls (Jacobi does not follow G's
// conditioning). The short steps belong to the LP, not to this code's step rules (measured
// 2026-11-27, bench_dekel_shamir --spam --data spamassassin-common --every 4, N = 20, with
// FDLAB_IPM_TRACE, which reports per block of pairs the product spread and the step limits):
//  - primal and dual steps are already separate, with Mehrotra's sigma = (mu_aff / mu)^3,
//    his second-order corrector and up to 3 Gondzio correctors;
//  - the predictor's own steps stay at 0.05-0.4 long after the iterates are feasible (primal
//    and dual infeasibility 1e-12), limited in turn by the R_ij rows, beta and the box of w;
//  - HiGHS's interior point (IPX, Mehrotra + Gondzio, own scaling and starting point) on the
//    same LP (tests/bench/ds_lp_highs.py, 1,058 messages x 2,202 words) was still at a primal
//    / dual value of 0.0300 / 0.0083 after 100 iterations and 171 s (optimum 0.0192948); this
//    solver converges there in 108 iterations, 55 s;
//  - on 529 messages (108 iterations with the defaults): Mehrotra's starting point 125, a
//    uniform start at 1 instead of 0.1: 124, no Gondzio correctors 135, 8 of them 90 (6%
//    less time on the dense path; on the CG path each costs a full solve), a fraction to the
//    boundary of 0.9999 with 8 correctors 99, sigma = (mu_aff / mu)^2 with 8 correctors 106.
// So the full corpus stays out of reach of this method in a minute: it needs ~150 iterations
// at a few seconds each.
// (Nor a first-order LP method. PDLP -- restarted primal-dual hybrid gradient with Ruiz and
// Pock-Chambolle scaling, KKT-error restarts and primal-weight updates (Applegate et al., NeurIPS
// 2021) -- prototyped in NumPy on the same LP for every 6th training message (706 x 24,598,
// 98,322 non-zeros; 99,028 rows, 124,333 columns), measured 2026-11-28: after 60,000 iterations
// (each two products with the constraint matrix, about as much work as one CG step here) its
// primal value 0.00186823576 matched this solver's 0.001868235 to 1e-7, but the primal residual
// was 6e-7, the dual value still 6% off, and the primal weight swung between 7e-4 and 7. This
// solver needs 5,109 CG steps for the same subset; the first-order method 10 times more.)
//
// The result is LP (4)'s optimum to the requested relative duality gap (primal and dual
// infeasibility below the same tolerance); the dual value is a lower bound on the optimum up to
// that infeasibility. It is not a vertex: where the LP has several optimal (w, b), the interior
// point returns one in the relative interior of the optimal face, not the simplex's vertex.

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

#include <Eigen/Core>

#include <limits>
#include <string>
#include <vector>

namespace fdlab {

/// The largest block preconditioner DekelShamirIpmParams::cgBlockFeatures accepts.
inline constexpr int kMaxCgBlockFeatures = 4000;

struct DekelShamirIpmParams {
    /// Stop when the relative gap |p - d| / max(1, |p|) and the relative primal and dual
    /// infeasibilities are all below this. Default 1e-8; in (0, 1e-2].
    double tolerance = 1e-8;
    /// Newton iterations at most. Default 200; >= 1.
    int maxIterations = 200;
    /// Wall-clock limit in seconds, 0 = none. Default 0.
    double timeLimit = 0.0;
    /// The reduced (w, b) Newton system is factored densely (Cholesky) when the data has at most
    /// this many features, and solved by preconditioned conjugate gradients otherwise (block Jacobi,
    /// cgBlockFeatures).
    /// Default 3000; >= 0 (0: always conjugate gradients).
    int denseMaxFeatures = 3000;
    /// Conjugate-gradient steps per Newton solve at most. Default 2000; >= 1.
    int cgMaxIterations = 2000;
    /// Conjugate-gradient path: the preconditioner is G's exact block on this many of the most
    /// frequent features (and the bias), factored densely, and G's diagonal elsewhere (block
    /// Jacobi). 0: Jacobi alone. Default 500; in [0, kMaxCgBlockFeatures] (the block is dense:
    /// 4,000 features take 128 MB and about 2e10 flops per Newton step).
    int cgBlockFeatures = 500;

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

struct DekelShamirIpmResult {
    Eigen::VectorXd w;       ///< weights (size n), clipped to [-C, C]
    double b = 0.0;          ///< bias
    double primal = 0.0;     ///< (1/m) sum_i xi_i at the last iterate
    double dual = 0.0;       ///< the dual objective / m at the last iterate
    int iterations = 0;
    long cgIterations = 0;   ///< conjugate-gradient steps in all (0 on the dense path)
    /// max(relative gap, primal infeasibility, dual infeasibility) at the returned iterate (the
    /// best one seen): how far from LP (4)'s optimum it is, also when the method stalled.
    double merit = std::numeric_limits<double>::infinity();
    Status status = Status::Failed;
    std::string message;
};

/// Solves LP (4) for binary `d` (labels from d.y), feature values `v` (size n, > 0), margin
/// gamma, budget N in [0, V), box C. Progress and cancellation once per iteration; on
/// cancellation or a limit, returns the current iterate (status Cancelled / MaxIterations).
DekelShamirIpmResult solveDekelShamirIpm(const Dataset& d, const std::vector<double>& v, double gamma, double N,
                                         double C, bool boxBias, const DekelShamirIpmParams& p,
                                         const RunControl& rc = {});

}  // namespace fdlab
