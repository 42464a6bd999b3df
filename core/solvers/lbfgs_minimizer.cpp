#include "core/solvers/lbfgs_minimizer.h"

#include <LBFGS.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <stdexcept>

namespace fdlab {

void LbfgsParams::validate() const {
    if (maxIterations < 1) throw std::invalid_argument("LbfgsParams.maxIterations must be >= 1");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw std::invalid_argument("LbfgsParams.epsilon must be finite and > 0");
    if (!(epsilonRel >= 0.0) || !std::isfinite(epsilonRel))
        throw std::invalid_argument("LbfgsParams.epsilonRel must be finite and >= 0");
    if (m < 1 || m > 100) throw std::invalid_argument("LbfgsParams.m must be in 1..100");
    if (!(delta >= 0.0) || !std::isfinite(delta))
        throw std::invalid_argument("LbfgsParams.delta must be finite and >= 0");
    if (past < 1) throw std::invalid_argument("LbfgsParams.past must be >= 1");
    if (maxLineSearch < 1) throw std::invalid_argument("LbfgsParams.maxLineSearch must be >= 1");
}

namespace {

// Thrown from inside LBFGSpp's loop when the caller asks to stop; never leaves this file.
struct CancelSignal {};
// Wraps an exception thrown by the caller's objective so it is not mistaken for LBFGSpp's own.
struct ObjectiveThrew {};

std::string fmt(const char* format, double a, double b) {
    char buf[128];
    std::snprintf(buf, sizeof buf, format, a, b);
    return buf;
}

// The objective as LBFGSpp sees it: counts evaluations, remembers the best point, reports
// progress and turns a stop request into CancelSignal.
class Wrapped {
public:
    Wrapped(const LbfgsObjective& f, const LbfgsParams& p, const RunControl& rc) : m_f(f), m_p(p), m_rc(rc) {}

    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        if (m_rc.cancelled()) throw CancelSignal{};
        double fx = 0.0;
        try {
            fx = m_f(x, grad);
        } catch (...) {
            error = std::current_exception();
            throw ObjectiveThrew{};
        }
        ++evaluations;
        lastGradNorm = grad.norm();
        if (std::isfinite(fx) && (!hasBest || fx < bestF)) {
            hasBest = true;
            bestF = fx;
            bestX = x;
            bestGradNorm = lastGradNorm;
        }
        const double frac = std::min(0.99, static_cast<double>(evaluations) / m_p.maxIterations);
        m_rc.report(frac, evaluations, fmt("f %.6g, |g| %.3g", bestF, bestGradNorm));
        if (m_rc.cancelled()) throw CancelSignal{};
        return fx;
    }

    long evaluations = 0;
    bool hasBest = false;
    double bestF = std::numeric_limits<double>::infinity();
    double bestGradNorm = 0.0;
    double lastGradNorm = 0.0;
    Eigen::VectorXd bestX;
    std::exception_ptr error;

private:
    const LbfgsObjective& m_f;
    const LbfgsParams& m_p;
    const RunControl& m_rc;
};

}  // namespace

LbfgsResult minimizeLbfgs(const LbfgsObjective& f, const Eigen::VectorXd& x0, const LbfgsParams& p,
                          const RunControl& rc) {
    p.validate();
    if (x0.size() == 0) throw std::invalid_argument("L-BFGS solver: empty starting point");
    if (!f) throw std::invalid_argument("L-BFGS solver: no objective");

    LBFGSpp::LBFGSParam<double> lp;
    lp.m = p.m;
    // LBFGSpp stops when ||g|| <= epsilon or ||g|| <= epsilon_rel ||x||.
    lp.epsilon = p.epsilon;
    lp.epsilon_rel = p.epsilonRel;
    lp.past = p.delta > 0.0 ? p.past : 0;
    lp.delta = p.delta;
    lp.max_iterations = p.maxIterations;
    lp.max_linesearch = p.maxLineSearch;
    lp.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_WOLFE;

    LbfgsResult r;
    Wrapped w(f, p, rc);
    Eigen::VectorXd x = x0;
    double fx = 0.0;
    auto takeBest = [&](Status s, std::string msg) {
        if (w.hasBest) {
            r.x = w.bestX;
            r.fx = w.bestF;
            r.gradNorm = w.bestGradNorm;
        } else {
            r.x = x0;
            r.fx = std::numeric_limits<double>::quiet_NaN();
            r.gradNorm = std::numeric_limits<double>::quiet_NaN();
        }
        r.status = s;
        r.message = std::move(msg);
    };

    try {
        LBFGSpp::LBFGSSolver<double, LBFGSpp::LineSearchBracketing> solver(lp);
        // A non-finite start would make LBFGSpp's first direction meaningless: check first.
        Eigen::VectorXd g0(x0.size());
        const double f0 = w(x0, g0);
        if (!std::isfinite(f0) || !g0.allFinite()) {
            takeBest(Status::Failed, "objective or gradient not finite at the starting point");
            r.evaluations = w.evaluations;
            return r;
        }
        const int k = solver.minimize(w, x, fx);
        r.iterations = k;
        r.evaluations = w.evaluations;
        // LBFGSpp returns the accepted point of its last line search, whose gradient the
        // wrapper evaluated last.
        r.x = x;
        r.fx = fx;
        r.gradNorm = w.lastGradNorm;
        const double tol = std::max(p.epsilon, p.epsilonRel * x.norm());
        if (!std::isfinite(fx)) {
            takeBest(Status::Failed, "objective not finite at the returned point");
        } else if (r.gradNorm <= tol) {
            r.status = Status::Converged;
            r.message = fmt("|g| %.3g <= %.3g", r.gradNorm, tol);
        } else if (k >= p.maxIterations) {
            r.status = Status::MaxIterations;
            r.message = fmt("%.0f iterations, |g| %.3g", static_cast<double>(k), r.gradNorm);
        } else {
            r.status = Status::Converged;
            r.message = fmt("relative decrease <= %.3g, |g| %.3g", p.delta, r.gradNorm);
        }
    } catch (const ObjectiveThrew&) {
        std::rethrow_exception(w.error);
    } catch (const CancelSignal&) {
        takeBest(Status::Cancelled, "cancelled");
        r.evaluations = w.evaluations;
    } catch (const std::logic_error& e) {
        // LBFGSpp: std::invalid_argument for a bad step, std::logic_error for a non-descent
        // direction (a wrong gradient or severe round-off).
        takeBest(Status::Failed, std::string("L-BFGS failed: ") + e.what());
        r.evaluations = w.evaluations;
    } catch (const std::runtime_error& e) {
        // LBFGSpp: line search step too small/large or too many trials.
        takeBest(Status::Failed, std::string("L-BFGS line search failed: ") + e.what());
        r.evaluations = w.evaluations;
    }
    return r;
}

}  // namespace fdlab
