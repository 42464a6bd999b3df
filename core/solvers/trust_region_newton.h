#pragma once
// Unconstrained minimisation of a smooth, twice-differentiable convex f(x), x in R^n, by a trust
// region Newton method whose subproblems are solved by preconditioned conjugate gradients with
// Hessian-vector products only (the Hessian is never formed).
//
// Source: C.-J. Lin, R. C. Weng and S. S. Keerthi, "Trust region Newton method for large-scale
// logistic regression", JMLR 9 (2008), Algorithm 2 with Steihaug's truncated CG, the trust-region
// update rules of liblinear's tron.cpp (the constants eta_0..2 and sigma_1..3 below), and the
// mixed diagonal preconditioner of liblinear 2.20-2.3x (C.-Y. Hsia, W.-L. Chiang and C.-J. Lin,
// "Preconditioned conjugate gradient methods in truncated Newton frameworks for large-scale
// linear classification", ACML 2018):
//     M = (1 - a) I + a diag(H),  a = preconditionerMix (0.01),
// with the trust region measured in the M-norm, ||s||_M = sqrt(s.M s) <= Delta. On badly scaled
// data (Spambase's raw features run from 0 to 15,841) the Hessian's diagonal spans many orders
// of magnitude, plain CG stalls in the directions of the small entries, and the outer loop can
// stop far from the optimum; the preconditioner equalises those scales.
//
// Per outer iteration: CG on  min_s  g.s + 1/2 s.H s  subject to ||s||_M <= Delta, stopped when
// the preconditioned residual ||r||_{M^-1} is below cgTolerance * ||g||_{M^-1} or at the trust-
// region boundary; then the ratio of the actual to the predicted reduction accepts or rejects
// x + s and resizes Delta.
// Status: Converged only when ||grad f(x)|| <= epsilon * ||grad f(x0)|| holds at the returned
// point (liblinear's relative test). When no further step reduces f in floating point, or the
// iteration limit is hit, before that, the status is MaxIterations and the message gives the
// final ||g|| against the tolerance.

#include "core/util/run_control.h"

#include <Eigen/Core>

#include <string>

namespace fdlab {

/// The function to minimise. The solver calls value() at trial points, gradient() only at
/// accepted points (where the implementation may prepare its Hessian), and hessianTimes() for
/// the Hessian at the point of the latest gradient() call.
class NewtonObjective {
public:
    virtual ~NewtonObjective() = default;
    /// f(x); may return +inf outside the domain (the step is then rejected and the region shrinks).
    virtual double value(const Eigen::VectorXd& x) = 0;
    /// grad f(x) into g (resized); x was the argument of the latest value() call.
    virtual void gradient(const Eigen::VectorXd& x, Eigen::VectorXd& g) = 0;
    /// H v at the point of the latest gradient() call.
    virtual void hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const = 0;
    /// The diagonal of H at the point of the latest gradient() call into d (resized), for the
    /// preconditioner. Returns false (the default) when the objective cannot supply it; the CG
    /// is then unpreconditioned (M = I).
    virtual bool hessianDiagonal(Eigen::VectorXd& d) const {
        (void)d;
        return false;
    }
};

struct NewtonParams {
    /// Relative gradient tolerance: stop when ||g|| <= epsilon ||g0||; > 0. Default 1e-4, 100
    /// times tighter than liblinear's -s 0 default (0.01 before its class-balance factor): with
    /// 0.01 the preconditioned solver stops 0.32% above the optimum of L2 logistic regression on
    /// raw Spambase (976.92 against 973.80), with 1e-4 within 1e-6 (tests/core/test_mcf.cpp).
    double epsilon = 1e-4;
    /// Maximum outer (Newton) iterations. Default 1000; >= 1.
    int maxIterations = 1000;
    /// CG stops when ||residual|| <= cgTolerance ||g||. Default 0.1 (liblinear); in (0, 1).
    double cgTolerance = 0.1;
    /// Maximum CG steps per outer iteration. Default 200; >= 1.
    int maxCgIterations = 200;
    /// Weight a of diag(H) in the preconditioner M = (1 - a) I + a diag(H). Default 0.01
    /// (liblinear); in [0, 1]; 0 = plain CG. Used only when the objective supplies its diagonal.
    double preconditionerMix = 0.01;

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

struct NewtonResult {
    Eigen::VectorXd x;       ///< last accepted point
    double fx = 0.0;         ///< f(x)
    double gradNorm = 0.0;   ///< ||grad f(x)||
    double tolerance = 0.0;  ///< the gradient-norm target epsilon ||grad f(x0)||
    long iterations = 0;     ///< accepted outer iterations
    long cgIterations = 0;   ///< Hessian-vector products in all
    Status status = Status::Failed;
    std::string message;
};

/// Minimises f from x0. Progress once per outer iteration; cancellation polled there (Cancelled,
/// with the last accepted point). Throws std::invalid_argument for bad params or an empty x0.
NewtonResult minimizeNewton(NewtonObjective& f, const Eigen::VectorXd& x0, const NewtonParams& p,
                            const RunControl& rc = {});

}  // namespace fdlab
