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
}

namespace {

std::string fmt(const char* f, double a, double b) {
    char buf[128];
    std::snprintf(buf, sizeof buf, f, a, b);
    return buf;
}

/// Steihaug's truncated CG for min g.s + 1/2 s.H s, ||s|| <= delta. Returns the CG steps taken;
/// s is the step, r = -g - H s the final residual.
int truncatedCg(const NewtonObjective& f, const Eigen::VectorXd& g, double delta, const NewtonParams& p,
                Eigen::VectorXd& s, Eigen::VectorXd& r) {
    const long n = g.size();
    s.setZero(n);
    r = -g;
    Eigen::VectorXd d = r, Hd(n);
    double rr = r.squaredNorm();
    const double tol = p.cgTolerance * g.norm();
    int it = 0;
    while (it < p.maxCgIterations && std::sqrt(rr) > tol) {
        ++it;
        f.hessianTimes(d, Hd);
        const double dHd = d.dot(Hd);
        const double alpha = dHd > 0.0 ? rr / dHd : 0.0;
        Eigen::VectorXd next = s + alpha * d;
        if (!(dHd > 0.0) || next.norm() > delta) {
            // To the boundary along d: the root tau >= 0 of ||s + tau d|| = delta.
            const double sd = s.dot(d), dd = d.squaredNorm(), ss = s.squaredNorm();
            const double rad = std::sqrt(std::max(0.0, sd * sd + dd * (delta * delta - ss)));
            const double tau = sd >= 0.0 ? (delta * delta - ss) / (sd + rad) : (rad - sd) / dd;
            s += tau * d;
            r -= tau * Hd;
            break;
        }
        s = std::move(next);
        r -= alpha * Hd;
        const double rrNew = r.squaredNorm();
        d = r + (rrNew / rr) * d;
        rr = rrNew;
    }
    return it;
}

}  // namespace

NewtonResult minimizeNewton(NewtonObjective& f, const Eigen::VectorXd& x0, const NewtonParams& p, const RunControl& rc) {
    p.validate();
    if (x0.size() == 0) throw std::invalid_argument("minimizeNewton: empty starting point");
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
    Eigen::VectorXd g, s, r;
    f.gradient(res.x, g);
    const double g0 = g.norm();
    res.gradNorm = g0;
    double delta = g0;
    const double tol = p.epsilon * g0;
    if (g0 <= tol || g0 == 0.0) {
        res.status = Status::Converged;
        res.message = fmt("||g0|| %.3g <= %.3g at the start", g0, tol);
        return res;
    }
    bool first = true;
    long tries = 0;
    while (res.iterations < p.maxIterations) {
        if (rc.cancelled()) {
            res.status = Status::Cancelled;
            res.message = fmt("cancelled after %.0f iterations, ||g|| %.3g", static_cast<double>(res.iterations), res.gradNorm);
            return res;
        }
        res.cgIterations += truncatedCg(f, g, delta, p, s, r);
        const Eigen::VectorXd xNew = res.x + s;
        const double gs = g.dot(s);
        const double predicted = -0.5 * (gs - s.dot(r));
        const double fNew = f.value(xNew);
        const double actual = res.fx - fNew;
        const double snorm = s.norm();
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
        else delta = std::max(delta, std::min(alpha * snorm, sigma3 * delta));
        ++tries;

        if (std::isfinite(fNew) && actual > eta0 * predicted) {
            res.x = xNew;
            res.fx = fNew;
            f.gradient(res.x, g);
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
        if (std::abs(actual) <= 1e-12 * std::abs(res.fx) && std::abs(predicted) <= 1e-12 * std::abs(res.fx)) {
            res.status = Status::Converged;
            res.message = fmt("no reduction left at ||g|| %.3g (f %.10g)", res.gradNorm, res.fx);
            return res;
        }
        if (tries > 20L * p.maxIterations) break;   // only rejected steps: give up
    }
    res.status = Status::MaxIterations;
    res.message = fmt("stopped after %.0f iterations, ||g|| %.3g", static_cast<double>(res.iterations), res.gradNorm);
    return res;
}

}  // namespace fdlab
