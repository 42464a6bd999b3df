#include "core/solvers/trust_region_newton.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fdlab {

void NewtonParams::validate() const {
    if (!(epsilon > 0.0) || !std::isfinite(epsilon)) throw std::invalid_argument("NewtonParams.epsilon must be finite and > 0");
    if (maxIterations < 1) throw std::invalid_argument("NewtonParams.maxIterations must be >= 1");
    if (!(cgTolerance > 0.0 && cgTolerance < 1.0)) throw std::invalid_argument("NewtonParams.cgTolerance must be in (0, 1)");
    if (maxCgIterations < 1) throw std::invalid_argument("NewtonParams.maxCgIterations must be >= 1");
    if (!(preconditionerMix >= 0.0 && preconditionerMix <= 1.0))
        throw std::invalid_argument("NewtonParams.preconditionerMix must be in [0, 1]");
}

namespace {

template <class... A>
std::string fmt(const char* f, A... a) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, static_cast<double>(a)...);
    return buf;
}

/// M = (1 - a) + a diag(H) at the point of the latest gradient() call; all ones when the
/// objective has no diagonal, a = 0, or some entry of M would not be finite and > 0 (a
/// non-convex f, where diag(H) may be negative).
void preconditioner(const NewtonObjective& f, double a, long n, Eigen::VectorXd& M) {
    Eigen::VectorXd h;
    if (a > 0.0 && f.hessianDiagonal(h) && h.size() == n) {
        M = ((1.0 - a) + a * h.array()).matrix();
        if (M.allFinite() && M.minCoeff() > 0.0) return;
    }
    M.setOnes(n);
}

/// u.M v for the diagonal M.
double mDot(const Eigen::VectorXd& u, const Eigen::VectorXd& M, const Eigen::VectorXd& v) {
    return u.cwiseProduct(M).dot(v);
}

/// Steihaug's truncated CG, preconditioned by the diagonal M, for min g.s + 1/2 s.H s subject
/// to ||s||_M <= delta. Returns the CG steps taken; s is the step, r = -g - H s the final
/// residual; *boundary tells whether s ends on the trust-region boundary.
int truncatedCg(const NewtonObjective& f, const Eigen::VectorXd& g, const Eigen::VectorXd& M, double delta,
                const NewtonParams& p, Eigen::VectorXd& s, Eigen::VectorXd& r, bool* boundary) {
    const long n = g.size();
    s.setZero(n);
    r = -g;
    Eigen::VectorXd z = r.cwiseQuotient(M);
    Eigen::VectorXd d = z, Hd(n);
    double zr = z.dot(r);
    const double tol = p.cgTolerance * std::sqrt(zr);
    *boundary = false;
    int it = 0;
    while (it < p.maxCgIterations && std::sqrt(zr) > tol) {
        ++it;
        f.hessianTimes(d, Hd);
        const double dHd = d.dot(Hd);
        const double alpha = dHd > 0.0 ? zr / dHd : 0.0;
        Eigen::VectorXd next = s + alpha * d;
        if (!(dHd > 0.0) || mDot(next, M, next) > delta * delta) {
            // To the boundary along d: the root tau >= 0 of ||s + tau d||_M = delta.
            const double sd = mDot(s, M, d), dd = mDot(d, M, d), ss = mDot(s, M, s);
            const double rad = std::sqrt(std::max(0.0, sd * sd + dd * (delta * delta - ss)));
            const double tau = sd >= 0.0 ? (delta * delta - ss) / (sd + rad) : (rad - sd) / dd;
            s += tau * d;
            r -= tau * Hd;
            *boundary = true;
            break;
        }
        s = std::move(next);
        r -= alpha * Hd;
        z = r.cwiseQuotient(M);
        const double zrNew = z.dot(r);
        d = z + (zrNew / zr) * d;
        zr = zrNew;
    }
    return it;
}

}  // namespace

NewtonResult minimizeNewton(NewtonObjective& f, const Eigen::VectorXd& x0, const NewtonParams& p, const RunControl& rc) {
    p.validate();
    if (x0.size() == 0) throw std::invalid_argument("Newton solver: empty starting point");
    // liblinear's tron.cpp constants.
    const double eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75;
    const double sigma1 = 0.25, sigma2 = 0.5, sigma3 = 4.0;

    NewtonResult res;
    res.x = x0;
    res.fx = f.value(res.x);
    if (!std::isfinite(res.fx)) {
        res.message = "f is not finite at the starting point";
        return res;
    }
    Eigen::VectorXd g, s, r, M;
    f.gradient(res.x, g);
    const double g0 = g.norm();
    res.gradNorm = g0;
    if (!std::isfinite(g0)) {
        res.message = "the gradient is not finite at the starting point";
        return res;
    }
    const double tol = p.epsilon * g0;
    res.tolerance = tol;
    if (g0 <= tol || g0 == 0.0) {
        res.status = Status::Converged;
        res.message = fmt("||g0|| %.3g <= %.3g at the start", g0, tol);
        return res;
    }
    preconditioner(f, p.preconditionerMix, g.size(), M);
    double delta = std::sqrt(mDot(g, M, g));
    bool first = true, boundary = false;
    long tries = 0;
    while (res.iterations < p.maxIterations) {
        if (rc.cancelled()) {
            res.status = Status::Cancelled;
            res.message = fmt("cancelled after %.0f iterations, ||g|| %.3g", res.iterations, res.gradNorm);
            return res;
        }
        res.cgIterations += truncatedCg(f, g, M, delta, p, s, r, &boundary);
        const Eigen::VectorXd xNew = res.x + s;
        const double gs = g.dot(s);
        const double predicted = -0.5 * (gs - s.dot(r));
        const double fNew = f.value(xNew);
        const double actual = res.fx - fNew;
        const double snorm = std::sqrt(mDot(s, M, s));
        if (first) {
            delta = std::min(delta, snorm);
            first = false;
        }
        // Trust-region update (liblinear tron.cpp): alpha from a quadratic fit along s.
        const double curv = fNew - res.fx - gs;
        const double alpha = !std::isfinite(fNew) ? sigma1 : (curv <= 0.0 ? sigma3 : std::max(sigma1, -0.5 * (gs / curv)));
        if (!(actual >= eta0 * predicted)) delta = std::min(std::max(alpha, sigma1) * snorm, sigma2 * delta);
        else if (actual < eta1 * predicted) delta = std::max(sigma1 * delta, std::min(alpha * snorm, sigma2 * delta));
        else if (actual < eta2 * predicted) delta = std::max(sigma1 * delta, std::min(alpha * snorm, sigma3 * delta));
        else delta = boundary ? sigma3 * delta : std::max(delta, std::min(alpha * snorm, sigma3 * delta));
        ++tries;

        if (std::isfinite(fNew) && actual > eta0 * predicted) {
            res.x = xNew;
            res.fx = fNew;
            f.gradient(res.x, g);
            preconditioner(f, p.preconditionerMix, g.size(), M);
            res.gradNorm = g.norm();
            ++res.iterations;
            rc.report(-1.0, res.iterations, fmt("f %.8g ||g|| %.3g", res.fx, res.gradNorm));
            if (res.gradNorm <= tol) {
                res.status = Status::Converged;
                res.message = fmt("||g|| %.3g <= %.3g", res.gradNorm, tol);
                return res;
            }
        }
        // No further progress is possible in floating point: the model and f agree to rounding.
        // The gradient test has not been met, so this is not convergence.
        if (std::abs(actual) <= 1e-12 * std::abs(res.fx) && std::abs(predicted) <= 1e-12 * std::abs(res.fx)) {
            res.status = Status::MaxIterations;
            res.message = fmt("no reduction left in floating point at ||g|| %.3g > tolerance %.3g", res.gradNorm, tol);
            return res;
        }
        if (tries > 20L * p.maxIterations) break;   // only rejected steps: give up
    }
    res.status = Status::MaxIterations;
    res.message = fmt("stopped after %.0f iterations at ||g|| %.3g > tolerance %.3g", res.iterations, res.gradNorm, tol);
    return res;
}

}  // namespace fdlab
