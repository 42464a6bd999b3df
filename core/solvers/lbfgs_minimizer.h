#pragma once
// Unconstrained smooth minimisation  min_x f(x),  x in R^n,  by limited-memory BFGS.
//
// Source: Nocedal & Wright, "Numerical Optimization" (2006), Algorithm 7.5 (two-loop recursion),
// as implemented by Yixuan Qiu's LBFGSpp (Debian liblbfgspp-dev, header <LBFGS.h>). This file is
// the one place FDLab calls LBFGSpp: learners supply an objective f(x, grad) -> f(x) (which also
// writes the gradient) and never own an optimisation loop.
//
// What the adapter adds to LBFGSpp:
// - progress and cancellation through RunControl. LBFGSpp has no callback, so the objective is
//   wrapped: after each evaluation it reports (iteration = evaluation count) and polls the stop
//   token; on a stop request it throws an internal exception that the adapter catches.
// - the best point seen is always returned. LBFGSpp's line search leaves x at its last trial
//   point when it fails; we keep the lowest finite f(x) evaluated instead.
// - exceptions become statuses: a cancel gives Status::Cancelled, a line-search failure
//   (step too small/large, too many trials, non-descent direction) Status::Failed with
//   LBFGSpp's message, a non-finite f at the start Status::Failed.
//
// The line search is LBFGSpp's bracketing search with the (weak) Wolfe conditions: it only
// compares f values against the Armijo bound, so f = +inf (or NaN) at a trial point simply
// shrinks the step. Objectives may therefore return +inf outside their domain (a barrier),
// e.g. MCF with Laplace noise where the moment-generating function diverges.

#include "core/util/run_control.h"

#include <Eigen/Core>

#include <functional>
#include <string>

namespace fdlab {

/// f(x, grad) -> f(x); must overwrite grad (same size as x) with the gradient at x.
/// May return +inf where f is undefined (the line search then backs off).
using LbfgsObjective = std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd& grad)>;

struct LbfgsParams {
    /// Maximum number of L-BFGS iterations (each has one line search). Default 500, >= 1.
    int maxIterations = 500;
    /// Gradient tolerance: stop when ||grad f(x)|| <= max(epsilon, epsilonRel * ||x||).
    /// Default 1e-5, > 0. Scale the objective (e.g. divide a sum over examples by their count)
    /// so that this means the same on small and large problems.
    double epsilon = 1e-5;
    /// Relative part of that test. Default 1e-5, >= 0 (0: absolute test only).
    double epsilonRel = 1e-5;
    /// Number of correction pairs kept (memory of the Hessian approximation). Default 10, 1..100.
    int m = 10;
    /// Relative-decrease test: also stop when |f_{k-past} - f_k| <= delta * max(1, |f_k|).
    /// Default 0 (test off), >= 0.
    double delta = 0.0;
    /// Distance (in iterations) of that test. Default 5, >= 1 (used only when delta > 0).
    int past = 5;
    /// Maximum number of trial points per line search. Default 40, >= 1.
    int maxLineSearch = 40;

    /// Throws std::invalid_argument naming the first bad field.
    void validate() const;
};

struct LbfgsResult {
    Eigen::VectorXd x;            ///< best point found (lowest finite f evaluated)
    double fx = 0.0;              ///< f(x)
    double gradNorm = 0.0;        ///< ||grad f(x)||
    long iterations = 0;          ///< L-BFGS iterations (as counted by LBFGSpp)
    long evaluations = 0;         ///< calls of the objective
    Status status = Status::Failed;
    std::string message;          ///< e.g. "||g|| 3.1e-6 <= 1e-5" or the line-search error
};

/// Minimises f from x0. Throws std::invalid_argument for bad params or an empty x0; every
/// numerical trouble is reported through the status, never thrown. Exceptions thrown by f
/// itself (other than through RunControl) propagate.
LbfgsResult minimizeLbfgs(const LbfgsObjective& f, const Eigen::VectorXd& x0, const LbfgsParams& p,
                          const RunControl& rc = {});

}  // namespace fdlab
