#include "core/solvers/conjugate_gradient.h"

#include <stdexcept>
#include <string>

namespace fdlab {

namespace {
constexpr int kTrueResidualEvery = 50;
}

PcgResult solvePcg(const MatVec& A, const Eigen::VectorXd& invDiag, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                   double tolerance, int maxIterations) {
    if (invDiag.size() != b.size())
        throw std::invalid_argument("conjugate gradients: sizes " + std::to_string(b.size()) + " and " +
                                    std::to_string(invDiag.size()) + " differ");
    return solvePcg(
        A, [&invDiag](const Eigen::VectorXd& r, Eigen::VectorXd& z) { z = invDiag.cwiseProduct(r); }, b, x, tolerance,
        maxIterations);
}

PcgResult solvePcg(const MatVec& A, const MatVec& precondition, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                   double tolerance, int maxIterations) {
    const Eigen::Index n = b.size();
    if (x.size() != n)
        throw std::invalid_argument("conjugate gradients: sizes " + std::to_string(n) + " and " + std::to_string(x.size()) +
                                    " differ");
    PcgResult out;
    Eigen::VectorXd r(n), z(n), p(n), q(n);
    auto trueResidual = [&] {
        A(x, q);
        r = b - q;
    };
    trueResidual();
    out.residual = r.cwiseAbs().maxCoeff();
    if (out.residual <= tolerance) {
        out.converged = true;
        return out;
    }
    precondition(r, z);
    p = z;
    double rz = r.dot(z);
    while (out.iterations < maxIterations) {
        A(p, q);
        const double pq = p.dot(q);
        if (!(pq > 0.0)) break;  // A not positive definite along p (rounding at the end): stop here
        const double alpha = rz / pq;
        x += alpha * p;
        ++out.iterations;
        if (out.iterations % kTrueResidualEvery == 0) trueResidual();
        else r -= alpha * q;
        out.residual = r.cwiseAbs().maxCoeff();
        if (out.residual <= tolerance) break;
        precondition(r, z);
        const double rzNew = r.dot(z);
        p = z + (rzNew / rz) * p;
        rz = rzNew;
    }
    trueResidual();
    out.residual = r.cwiseAbs().maxCoeff();
    out.converged = out.residual <= tolerance;
    return out;
}

}  // namespace fdlab
