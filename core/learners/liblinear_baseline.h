#pragma once
// The reference linear learners, through liblinear 2.3 (Fan, Chang, Hsieh, Wang & Lin, JMLR 2008;
// Debian liblinear-dev). Everything robust in FDLab is compared with these.
//
// HingeSvmDual (liblinear -s 3, dual coordinate descent of Hsieh et al. 2008):
//     min_w  1/2 ||w~||^2 + C sum_i max(0, 1 - y_i w~.x~_i)
// LogisticRegression (liblinear -s 0, primal trust-region Newton; chosen over the dual -s 7 because
// its stopping rule is on the primal gradient, so the returned w is directly comparable):
//     min_w  1/2 ||w~||^2 + C sum_i log(1 + exp(-y_i w~.x~_i))
// with x~ = (x, B) and w~ = (w, w_B) when bias B >= 0 (liblinear's -B B): the bias b = B w_B is
// REGULARISED (through w_B), as in liblinear 2.3 and as FDROP does, so FDROP with K = 0 solves the
// same problem as -s 3 with B = 1. FitResult::objective is that objective, recomputed by us at
// the returned model (liblinear does not return it).
//
// Notes. liblinear reports through a global print hook and draws its coordinate permutation
// from the C library's rand(); both are global, so every call holds one mutex, routes printing
// to an internal buffer (never to stdout) and calls srand(1) first, which makes results
// deterministic (the same as the liblinear `train` tool's). liblinear cannot be interrupted:
// cancellation is checked only before training. Status is MaxIterations when liblinear warns
// that it reached its iteration limit, else Converged; iterations is unknown (0).

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

namespace fdlab {

enum class LiblinearSolver {
    HingeSvmDual,        ///< -s 3: L2-regularised L1-loss (hinge) SVM, dual
    LogisticRegression   ///< -s 0: L2-regularised logistic regression, primal
};

const char* toString(LiblinearSolver s);

struct LiblinearParams {
    /// Which liblinear solver. Default HingeSvmDual (-s 3).
    LiblinearSolver solver = LiblinearSolver::HingeSvmDual;
    /// Loss weight (-c). Default 1; finite, > 0.
    double C = 1.0;
    /// Stopping tolerance (-e); 0 (default) = liblinear's default for the solver (0.1 for -s 3,
    /// 0.01 for -s 0). >= 0.
    double eps = 0.0;
    /// Bias feature value B (-B). Default 1; < 0 disables the bias; 0 is rejected (it would be a
    /// dead feature).
    double bias = 1.0;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

/// Trains on a binary dataset (throws std::invalid_argument otherwise, or when a class is empty,
/// or when liblinear's check_parameter rejects the setting). Score > 0 means class index 1.
FitResult fitLiblinear(const Dataset& train, const LiblinearParams& p, const RunControl& rc = {});

/// The primal objectives above for a binary model (w, b) on d, bias value B (< 0: no bias term).
double hingeSvmObjective(const Dataset& d, const LinearModel& m, double C, double B = 1.0);
double logisticObjective(const Dataset& d, const LinearModel& m, double C, double B = 1.0);

}  // namespace fdlab
