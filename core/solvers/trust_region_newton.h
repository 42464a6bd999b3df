#pragma once
// Unconstrained minimisation of a smooth, twice-differentiable convex f(x), x in R^n, by a trust
// region Newton method whose subproblems are solved by conjugate gradients with Hessian-vector
// products only (the Hessian is never formed).
//
// Source: C.-J. Lin, R. C. Weng and S. S. Keerthi, "Trust region Newton method for large-scale
// logistic regression", JMLR 9 (2008), Algorithm 2 with Steihaug's truncated CG (their
// Algorithm 2 inner loop), and the trust-region update rules of liblinear's tron.cpp (the
// constants eta_0..2 and sigma_1..3 below). This is the solver liblinear's -s 0 runs, so MCF
// trained with it is compared with liblinear on equal terms.
//
// Per outer iteration: CG on  min_s  g.s + 1/2 s.H s  subject to ||s|| <= Delta, stopped when the
// residual is below cgTolerance * ||g|| or at the trust-region boundary; then the ratio of the
// actual to the predicted reduction accepts or rejects x + s and resizes Delta.
// Stops when ||grad f(x)|| <= epsilon * ||grad f(x0)|| (liblinear's relative test).

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
};

struct NewtonParams {
    /// Relative gradient tolerance: stop when ||g|| <= epsilon ||g0||. Default 1e-2 (liblinear's
    /// -s 0 default eps 0.01 before its class-balance factor); > 0.
    double epsilon = 1e-2;
    /// Maximum outer (Newton) iterations. Default 1000; >= 1.
    int maxIterations = 1000;
    /// CG stops when ||residual|| <= cgTolerance ||g||. Default 0.1 (liblinear); in (0, 1).
    double cgTolerance = 0.1;
    /// Maximum CG steps per outer iteration. Default 200; >= 1.
    int maxCgIterations = 200;

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

struct NewtonResult {
    Eigen::VectorXd x;       ///< last accepted point
    double fx = 0.0;         ///< f(x)
    double gradNorm = 0.0;   ///< ||grad f(x)||
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
