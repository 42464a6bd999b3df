#pragma once
// FDROP solved in the dual by coordinate ascent, liblinear-style (Hsieh et al., "A dual coordinate
// descent method for large-scale linear SVM", ICML 2008), extended to the adversary's variables.
// Problem: Globerson & Roweis, "Nightmare at test time", eq. 1.3 (spec section 3):
//
//     min_w  J(w) = 1/2 ||w||^2 + C sum_i [1 - y_i w.x_i + s_i(w)]_+ ,
//     s_i(w) = max { sum_j beta_j y_i w_j x_ij : beta in P },  P = {beta in [0,1]^n, sum_j c_j beta_j <= B}
//
// (c_j = 1, B = K for the count budget; c_j = v_j, B = N for FDLab's value budget; the bias is
// the last, undeletable coordinate, as in core/learners/worst_case_hinge.h).
//
// Dual (derivation: write the hinge as max over alpha_i in [0, C] and the damage as the max over
// beta_i in P, then minimise over w; the Lagrangian is linear in lambda_ij = alpha_i beta_ij, so
// the problem is a concave QP in (alpha, lambda) and strong duality holds):
//
//     max  D(alpha, beta) = sum_i alpha_i - 1/2 ||w(alpha, beta)||^2,
//     w(alpha, beta) = sum_i alpha_i y_i (x_i o (1 - beta_i)),   0 <= alpha_i <= C,  beta_i in P.
//
// Weak duality gives the certificate J(w) - D(alpha, beta) >= J(w) - min J for every feasible pair.
//
// Each visit of row i (rows in a seeded random order every epoch) does two exact block steps:
//  1. beta_i with alpha_i fixed: D is a separable concave quadratic in beta_i over P, maximised
//     exactly through the multiplier nu >= 0 of the budget constraint,
//         beta_ij(nu) = clip(beta_ij + (r_j w_j - nu c_j) / r_j^2, 0, 1),  r_j = alpha_i y_i x_ij,
//     with nu = 0 if that is within budget, else the root of sum_j c_j beta_ij(nu) = B (piecewise
//     linear, bracketed over the sorted breakpoints, then interpolated). When alpha_i = 0, beta_i
//     does not enter D and is set to the adversary's best response at w (so the next alpha step
//     sees the worst-case hinge) -- unless the worst-case hinge argument is negative, which the
//     oracle's hingeArgument() tells in one pass: then alpha_i stays 0 and beta_i is not needed.
//  2. alpha_i with beta_i fixed: liblinear's clipped Newton step on x~_i = x_i o (1 - beta_i).
// Block ascent on (alpha, beta) reaches the optimum of the concave problem in (alpha, lambda):
// for alpha_i > 0 the map is a local diffeomorphism and the two blocks' directions span every
// feasible direction of row i. After each epoch the alpha step of the whole epoch is
// extrapolated (alpha(t) = clip(alpha_prev + t (alpha - alpha_prev), 0, C), t = 2, 4, ... while D
// grows). (Extrapolating (alpha, lambda = alpha beta) jointly, beta clipped and scaled back into
// P, was measured and not kept: SpamAssassin K = 10 400 -> 576 epochs, K = 50 3,472 -> 4,864.)
// (Nor, 2026-11-28: a projected-CG Newton step on the dual's current face -- alpha_i free in
// (0, C), lambda_ij = alpha_i beta_ij free where 0 < beta_ij < 1, tied to alpha_i at 1, 0 at 0,
// the active budgets as per-row equalities, Jacobi-scaled -- every 8 or 32 epochs. On
// SpamAssassin K = 10 the face stays huge (about 990 free alpha and 13,800 fractional beta:
// the optimum ties many deletion profits), 400 CG steps reduce the face residual only 17-fold
// (squared), and the step leaves the feasible set at t ~ 1e-6 of its length: clipped back, D
// fell in 90% of the tries, so the run took the same 384-400 epochs at twice the time.) The primal J(w) is evaluated exactly by the oracle at the coordinate-ascent iterate
// (before the extrapolation) on a schedule, skipped when a cheap lower bound on J(w) shows it
// cannot beat the best J so far; at the scheduled looks also at a polynomial-decay average of
// the iterates (Shamir & Zhang, ICML 2013; a window of about the last 1/16 of the epochs),
// which in long tails is the better primal point (the iterate wobbles around w* along the kinks
// of the worst-case hinge; SpamAssassin K = 10 reaches the relative gap 1e-4 in 528 instead of
// 752 epochs). Each candidate v is also rescaled exactly: the damage is positively homogeneous,
// so the worst-case margins of s v are s times those of v, and min over s >= 0 of J(s v) is a
// convex piecewise quadratic in s minimised by one sort of the margins, without another
// adversary call (SpamAssassin K = 10: 448 -> 400 epochs; bench_fdrop issue30). Only D values with w recomputed from (alpha, beta) (no rounding
// drift; every 8th epoch and before a stop) enter the certificate. The run stops when J - D < epsilon (relative to J by default). (The best
// constant classifier is deliberately not a primal candidate: on imbalanced data it is often
// within a loose epsilon of the optimum without being the optimum, and a certified but useless
// constant answer is worse than a few more epochs.) Each epoch costs O(nnz log(row nnz)). Rows that
// stay inactive (alpha_i = 0, worst-case margin above 1) or settled at alpha_i = C (beta_i step
// unchanged) are skipped for a few epochs, like liblinear's shrinking; the gap is still computed over all rows, so the certificate holds.
//
// Warm start (regularisation-path style, for a grid of (K, N, C) on one training set): any
// feasible dual point may start the ascent, and a neighbouring problem's final (alpha, beta) is
// made feasible for this one by alpha_i <- clip(alpha_i C / C_start, 0, C) (the rows at the box
// stay at the box) and, per row, beta_i <- beta_i B / sum_j c_j beta_ij when its budget use
// exceeds this capacity B (beta_i in P again). The certificate is the same (weak duality holds
// for every feasible point); only the number of epochs changes.

#include "core/learners/worst_case_hinge.h"
#include "core/util/run_control.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

/// A dual point of the same data (the same oracle rows and stored entries): a warm start.
struct FdropDualStart {
    double C = 1.0;              ///< the C it was computed for
    std::vector<double> alpha;   ///< one per row, in [0, C]
    std::vector<double> beta;    ///< one per stored entry (CSR order), each row's in its P

    bool empty() const { return alpha.empty(); }
};

struct FdropDualParams {
    /// Weight of the summed worst-case hinge (the box of alpha). Default 1; finite, > 0.
    double C = 1.0;
    /// Stopping tolerance on the duality gap J - D. Default 1e-4; finite, > 0.
    double epsilon = 1e-4;
    /// true (default): stop when gap < epsilon * J; false: gap < epsilon.
    bool relativeEpsilon = true;
    /// Maximum number of epochs (passes over the rows). Default 1000; >= 1.
    long maxEpochs = 1000;
    /// Seed of the row order. Default 1.
    std::uint64_t seed = 1;

    /// Optional start (not owned; may be null): a dual point of a neighbouring problem on the
    /// same data, made feasible as in the header comment. Null or empty: alpha = 0.
    const FdropDualStart* start = nullptr;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

struct FdropDualResult {
    Eigen::VectorXd w;          ///< the primal point with the lowest J seen (bias last when enabled)
    double objective = 0.0;     ///< J(w)
    double dualObjective = 0.0; ///< best D(alpha, beta): a certified lower bound on min J
    double gap = 0.0;           ///< objective - dualObjective
    long epochs = 0;
    FdropDualStart end;         ///< the final dual point (feasible): a start for a neighbouring problem
    Status status = Status::Failed;
    std::string message;
};

/// Minimises J for the data and budget held by `oracle` (which is used for the exact primal
/// value and the adversary's best responses). Progress once per epoch; cancellation polled once
/// per epoch (Status::Cancelled with the best w so far).
FdropDualResult solveFdropDual(const WorstCaseHingeOracle& oracle, const FdropDualParams& p, const RunControl& rc = {});

}  // namespace fdlab
