#pragma once
// Preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad, "Iterative methods for
// sparse linear systems", 2nd ed., Algorithm 9.1) for A x = b with A symmetric positive definite
// and given only through products A v, and a preconditioner: diagonal (Jacobi) or any SPD M given
// through products M^-1 r.
//
// Stops when the max-norm of the residual b - A x is at most `tolerance` or after
// `maxIterations` steps. The residual tested is the recursively updated one; every
// `kTrueResidualEvery` steps (and at the end) it is replaced by b - A x computed afresh, so the
// reported residual is the true one up to the rounding of that one product.

#include <Eigen/Core>

#include <functional>

namespace fdlab {

struct PcgResult {
    int iterations = 0;        ///< CG steps taken (products A v, not counting residual refreshes)
    double residual = 0.0;     ///< max |b - A x| at the returned x
    bool converged = false;    ///< residual <= tolerance
};

/// y = A v (y is sized by the caller to v's size; overwrite it).
using MatVec = std::function<void(const Eigen::VectorXd& v, Eigen::VectorXd& y)>;

/// Solves A x = b from the start x (in/out), preconditioned by 1 / invDiag (invDiag > 0: the
/// inverse of A's diagonal for Jacobi). Throws std::invalid_argument on mismatched sizes.
PcgResult solvePcg(const MatVec& A, const Eigen::VectorXd& invDiag, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                   double tolerance, int maxIterations);

/// The same with any symmetric positive definite preconditioner M, given as z = M^-1 r
/// (`precondition(r, z)`; z sized by the caller).
PcgResult solvePcg(const MatVec& A, const MatVec& precondition, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                   double tolerance, int maxIterations);

}  // namespace fdlab
