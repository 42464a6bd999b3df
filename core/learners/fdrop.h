#pragma once
// FDROP: the minimax SVM against feature deletion. Globerson & Roweis, "Nightmare at test time:
// robust learning by feature deletion" (ICML 2006; book chapter with Teo & Smola), eq. 1.3;
// spec section 3.
//
//     min_{w,b}  1/2 (||w||^2 + b^2) + C sum_i [1 - y_i (w.x_i + b) + s_i(w)]_+
//
// s_i(w): the adversary's damage on instance i (core/learners/worst_case_hinge.h):
//   - count budget (default): the K largest positive y_i w_j x_ij (K deletions per instance);
//   - value budget (useImportance): the fractional knapsack with weights v_j = d.importance[j]
//     and capacity N -- the convex relaxation FDLab's weighted variant optimises (spec's weighted
//     QP); equals the count budget for v_j = 1, N = K.
// The bias is the constant feature x_{n+1} = 1 (the paper's footnote 6): it is regularised like
// the other weights, exactly as liblinear's -s 3 with -B 1 does, so FDROP with K = 0 is the same
// problem as liblinear's hinge SVM, and the adversary can never delete it.
//
// Two solvers, both certifying their answer (FitResult::gap >= objective - min):
//  - DualCoordinate: coordinate ascent on the dual over the hinge multipliers and the
//    adversary's deletion fractions (core/learners/fdrop_dual.h), gap = J - D;
//  - Bundle: the bundle method (core/solvers/bundle_method.h) from w = 0, with OCAS's exact line
//    search when K = 0 (plain hinge), plain BMRM otherwise; planes inactive for 50 iterations are
//    dropped to keep the inner QP small; gap = J - best cutting-plane lower bound.
// Auto (the default) takes the bundle method with its line search for the plain hinge (K = 0 or
// N = 0), where it is the faster route, and the dual solver for K > 0 (measured in
// tests/bench/bench_fdrop.cpp). FitResult::objective is the objective above at the returned model.

#include "core/data/dataset.h"
#include "core/learners/fdrop_dual.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

#include <cstdint>
#include <string>

namespace fdlab {

enum class FdropSolver { Auto, DualCoordinate, Bundle };
/// "auto" / "dual-cd" / "bundle".
const char* toString(FdropSolver s);
/// Inverse of toString; throws std::invalid_argument on an unknown name.
FdropSolver fdropSolverFromString(const std::string& name);

struct FdropParams;
/// The solver fitFdrop runs for p (resolves Auto).
FdropSolver fdropSolverFor(const FdropParams& p);

struct FdropParams {
    /// Weight of the summed worst-case hinge. Default 1; finite, > 0.
    double C = 1.0;
    /// Count budget: features the adversary deletes per instance. Default 0 (plain hinge SVM); >= 0.
    int K = 0;
    /// Use the value budget (d.importance, budget N, fractional knapsack) instead of K. Default false.
    bool useImportance = false;
    /// Value budget N (only with useImportance). Default 0; finite, >= 0.
    double N = 0.0;
    /// Stopping tolerance of the bundle method on the gap. Default 1e-4; > 0.
    double epsilon = 1e-4;
    /// true (default): epsilon is relative, stop when gap < epsilon * objective; false: absolute.
    bool relativeEpsilon = true;
    /// Maximum iterations: epochs of the dual solver, oracle calls of the bundle method.
    /// Default 10000; >= 1. (The dual solver's epochs are cheap: 100 MNIST digits with K = 25
    /// need 2000-4000 of them for the default relative gap 1e-4, a few tenths of a second.)
    long maxIterations = 10000;
    /// Solver. Default Auto: Bundle for the plain hinge (K = 0 / N = 0), DualCoordinate otherwise.
    FdropSolver solver = FdropSolver::Auto;
    /// Seed of the dual solver's row order. Default 1.
    std::uint64_t seed = 1;
    /// Fit a bias b (constant, undeletable, regularised feature). Default true.
    bool bias = true;
    /// Warm start of the dual solver (not owned; may be null): the final dual point of a fit of
    /// a neighbouring (K, N, C) on the same training set with the same bias (fitFdrop's `end`).
    /// Ignored by the bundle method. See core/learners/fdrop_dual.h.
    const FdropDualStart* start = nullptr;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

/// Trains FDROP on a binary dataset (throws std::invalid_argument otherwise, or on bad params).
/// Status: Converged (gap below tolerance), MaxIterations, Cancelled (best model so far).
/// With the dual solver, `end` (when not null) receives its final dual point (else it is cleared).
FitResult fitFdrop(const Dataset& train, const FdropParams& p, const RunControl& rc = {}, FdropDualStart* end = nullptr);

}  // namespace fdlab
