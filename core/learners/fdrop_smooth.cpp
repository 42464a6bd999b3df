#include "core/learners/fdrop_smooth.h"

#include "core/solvers/trust_region_newton.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

namespace fdlab {

void FdropSmoothParams::validate() const {
    if (!(C > 0.0) || !std::isfinite(C)) throw std::invalid_argument("FdropSmoothParams.C must be finite and > 0");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw std::invalid_argument("FdropSmoothParams.epsilon must be finite and > 0");
    if (!(mu0 > 0.0) || !std::isfinite(mu0)) throw std::invalid_argument("FdropSmoothParams.mu0 must be finite and > 0");
    if (!(muFactor > 1.0) || !std::isfinite(muFactor))
        throw std::invalid_argument("FdropSmoothParams.muFactor must be finite and > 1");
    if (maxRounds < 1) throw std::invalid_argument("FdropSmoothParams.maxRounds must be >= 1");
    if (maxNewtonIterations < 1) throw std::invalid_argument("FdropSmoothParams.maxNewtonIterations must be >= 1");
}

double projectDeletionCone(double t, const double* v, const double* c, std::size_t n, double B, double* l, double* nuOut) {
    // a(nu): the root in [0, 1] of h(a) = a - t - B nu - sum_j [u_j - a]_+, u_j = v_j - nu c_j.
    auto aAt = [&](double nu) {
        const double base = t + B * nu;
        double s0 = 0.0, s1 = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const double u = v[j] - nu * c[j];
            if (u > 0.0) s0 += u;
            if (u > 1.0) s1 += u - 1.0;
        }
        if (base + s0 <= 0.0) return 0.0;       // h(0) >= 0
        if (1.0 - base - s1 <= 0.0) return 1.0;  // h(1) <= 0
        double a = 0.0;
        for (std::size_t it = 0; it <= n + 1; ++it) {
            double S = 0.0;
            double k = 0.0;
            for (std::size_t j = 0; j < n; ++j) {
                const double u = v[j] - nu * c[j];
                if (u > a) {
                    S += u;
                    k += 1.0;
                }
            }
            const double next = (base + S) / (1.0 + k);   // the root of h's piece at a
            if (!(next > a)) break;
            a = next;
        }
        return std::min(a, 1.0);
    };
    auto residual = [&](double nu, double a) {
        double used = 0.0;
        for (std::size_t j = 0; j < n; ++j) used += c[j] * std::clamp(v[j] - nu * c[j], 0.0, a);
        return used - B * a;
    };
    double nu = 0.0;
    double a = aAt(0.0);
    const double tol = 1e-14 * (1.0 + B);
    double rlo = residual(0.0, a);
    if (rlo > tol) {
        double lo = 0.0, hi = 0.0;
        for (std::size_t j = 0; j < n; ++j)
            if (v[j] > 0.0) hi = std::max(hi, v[j] / c[j]);   // beyond: every l_j = 0, residual -B a <= 0
        double rhi = residual(hi, aAt(hi));
        nu = hi;
        int kept = 0;   // Illinois: which end was kept last (+1 hi, -1 lo)
        for (int it = 0; it < 200 && hi - lo > 1e-16 * hi; ++it) {
            double x = rhi < rlo ? hi - rhi * (hi - lo) / (rhi - rlo) : 0.5 * (lo + hi);
            if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
            const double rx = residual(x, aAt(x));
            if (std::abs(rx) <= tol) {
                nu = x;
                break;
            }
            if (rx > 0.0) {
                lo = x;
                rlo = rx;
                if (kept == 1) rhi *= 0.5;
                kept = 1;
            } else {
                hi = x;
                rhi = rx;
                if (kept == -1) rlo *= 0.5;
                kept = -1;
            }
            nu = hi;   // the feasible end, unless the tolerance is met
        }
        a = aAt(nu);
    }
    for (std::size_t j = 0; j < n; ++j) l[j] = std::clamp(v[j] - nu * c[j], 0.0, a);
    if (nuOut) *nuOut = nu;
    return a;
}

namespace {

std::string fmt(const char* f, double a, double b, double c, double d = 0.0) {
    char buf[200];
    std::snprintf(buf, sizeof buf, f, a, b, c, d);
    return buf;
}

}  // namespace

SmoothedFdropObjective::SmoothedFdropObjective(const WorstCaseHingeOracle& o, double C)
    : m_o(o), m_C(C), m_a(static_cast<std::size_t>(o.rows()), 0.0), m_nu(m_a.size(), 0.0),
      m_l(static_cast<std::size_t>(o.rowEnd(o.rows() - 1)), 0.0), m_cost(m_l.size()) {
    const int* col = o.columns();
    for (std::size_t k = 0; k < m_cost.size(); ++k) m_cost[k] = o.cost(col[k]);
}

double SmoothedFdropObjective::value(const Eigen::VectorXd& w) {
    const int* col = m_o.columns();
    const float* val = m_o.values();
    const int n = m_o.features();
    const double B = m_o.capacity();
    double sum = 0.0;
    for (int i = 0; i < m_o.rows(); ++i) {
        const long k0 = m_o.rowBegin(i), k1 = m_o.rowEnd(i);
        const auto len = static_cast<std::size_t>(k1 - k0);
        const double y = m_o.label(i);
        m_v.resize(len);
        double f = m_o.hasBias() ? w(n) : 0.0;
        for (std::size_t t = 0; t < len; ++t) {
            const double wx = w(col[k0 + static_cast<long>(t)]) * val[k0 + static_cast<long>(t)];
            f += wx;
            m_v[t] = y * wx / m_mu;
        }
        const double z0 = 1.0 - y * f;
        double* l = m_l.data() + k0;
        const double a = projectDeletionCone(z0 / m_mu, m_v.data(), m_cost.data() + k0, len, B, l, &m_nu[static_cast<std::size_t>(i)]);
        m_a[static_cast<std::size_t>(i)] = a;
        if (a == 0.0) continue;
        // q.z - mu/2 ||q||^2 = mu (q.z/mu - 1/2 ||q||^2)
        double qz = a * z0 / m_mu, qq = a * a;
        for (std::size_t t = 0; t < len; ++t) {
            qz += l[t] * m_v[t];
            qq += l[t] * l[t];
        }
        sum += m_mu * (qz - 0.5 * qq);
    }
    return 0.5 * w.squaredNorm() + m_C * sum;
}

void SmoothedFdropObjective::dualW(Eigen::VectorXd& wq) const {
    const int* col = m_o.columns();
    const float* val = m_o.values();
    wq.setZero(m_o.dimension());
    for (int i = 0; i < m_o.rows(); ++i) {
        const double a = m_a[static_cast<std::size_t>(i)];
        if (a == 0.0) continue;
        const double cy = m_C * m_o.label(i);
        for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k)
            wq(col[k]) += cy * val[k] * (a - m_l[static_cast<std::size_t>(k)]);
        if (m_o.hasBias()) wq(m_o.features()) += cy * a;
    }
}

void SmoothedFdropObjective::gradient(const Eigen::VectorXd& w, Eigen::VectorXd& g) {
    dualW(m_wq);
    g = w - m_wq;
}

void SmoothedFdropObjective::hessianTimes(const Eigen::VectorXd& v, Eigen::VectorXd& Hv) const {
    const int* col = m_o.columns();
    const float* val = m_o.values();
    const int n = m_o.features();
    const double B = m_o.capacity();
    Hv = v;
    const double scale = m_C / m_mu;
    for (int i = 0; i < m_o.rows(); ++i) {
        const auto r = static_cast<std::size_t>(i);
        const double a = m_a[r];
        if (a == 0.0) continue;
        const long k0 = m_o.rowBegin(i), k1 = m_o.rowEnd(i);
        const bool aFree = a < 1.0;
        const bool budget = m_nu[r] > 0.0;
        // s = M v: s_a = -(x.v + v_b), s_j = x_j v_j. Sums over the capped (l_j = a) and free
        // (0 < l_j < a) entries: the tangent space is span{d_A = e_a + sum_U e_j (a free),
        // e_j (j free)} minus the budget normal's component when the budget binds.
        double sa = m_o.hasBias() ? -v(n) : 0.0, sU = 0.0, nU = 0.0, cU = 0.0, cs = 0.0, cc = 0.0;
        for (long k = k0; k < k1; ++k) {
            const double xs = val[k] * v(col[k]);
            sa -= xs;
            const double lk = m_l[static_cast<std::size_t>(k)];
            if (lk == a) {
                sU += xs;
                nU += 1.0;
                cU += m_cost[static_cast<std::size_t>(k)];
            } else if (lk > 0.0) {
                const double c = m_cost[static_cast<std::size_t>(k)];
                cs += c * xs;
                cc += c * c;
            }
        }
        double qA = 0.0, coef = 0.0, gA = 0.0;
        if (aFree) {
            qA = (sa + sU) / (1.0 + nU);
            if (budget) {
                gA = (cU - B) / (1.0 + nU);
                const double gg = gA * gA * (1.0 + nU) + cc;
                if (gg > 1e-300) coef = (gA * (sa + sU) + cs) / gg;
                qA -= coef * gA;
            }
        } else if (budget && cc > 0.0) {
            coef = cs / cc;
        }
        // Hv += C / mu * M^T (J s): column j gets x_j (r_j - r_a), the bias -r_a.
        for (long k = k0; k < k1; ++k) {
            const double lk = m_l[static_cast<std::size_t>(k)];
            double rj = 0.0;
            if (lk == a) rj = aFree ? qA : 0.0;
            else if (lk > 0.0) rj = val[k] * v(col[k]) - coef * m_cost[static_cast<std::size_t>(k)];
            Hv(col[k]) += scale * val[k] * (rj - qA);
        }
        if (m_o.hasBias()) Hv(n) -= scale * qA;
    }
}

double SmoothedFdropObjective::dual(FdropDualStart* start) {
    const double B = m_o.capacity();
    double sumA = 0.0;
    for (int i = 0; i < m_o.rows(); ++i) {
        const auto r = static_cast<std::size_t>(i);
        m_a[r] = std::clamp(m_a[r], 0.0, 1.0);
        double used = 0.0;
        for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k) {
            double& lk = m_l[static_cast<std::size_t>(k)];
            lk = std::clamp(lk, 0.0, m_a[r]);
            used += m_cost[static_cast<std::size_t>(k)] * lk;
        }
        if (used > B * m_a[r])
            for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k) m_l[static_cast<std::size_t>(k)] *= B * m_a[r] / used;
        sumA += m_a[r];
    }
    dualW(m_wq);
    if (start) {
        start->C = m_C;
        start->alpha.resize(m_a.size());
        start->beta.assign(m_l.size(), 0.0);
        for (int i = 0; i < m_o.rows(); ++i) {
            const auto r = static_cast<std::size_t>(i);
            start->alpha[r] = m_C * m_a[r];
            if (m_a[r] > 0.0)
                for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k)
                    start->beta[static_cast<std::size_t>(k)] = std::min(1.0, m_l[static_cast<std::size_t>(k)] / m_a[r]);
        }
    }
    return m_C * sumA - 0.5 * m_wq.squaredNorm();
}

FdropSmoothResult solveFdropSmooth(const WorstCaseHingeOracle& oracle, const FdropSmoothParams& p, const Eigen::VectorXd& w0,
                                   const RunControl& rc) {
    p.validate();
    if (oracle.rows() == 0) throw std::invalid_argument("FDROP: no rows");
    if (w0.size() != 0 && w0.size() != oracle.dimension())
        throw std::invalid_argument("FDROP smoothed solver: the start has " + std::to_string(w0.size()) + " weights, the problem " +
                                    std::to_string(oracle.dimension()));
    FdropSmoothResult res;
    res.objective = std::numeric_limits<double>::infinity();
    res.dualObjective = -std::numeric_limits<double>::infinity();
    Eigen::VectorXd w = w0.size() ? w0 : Eigen::VectorXd::Zero(oracle.dimension());
    res.w = w;
    SmoothedFdropObjective f(oracle, p.C);
    double mu = p.mu0;
    Eigen::VectorXd g;
    for (int round = 1; round <= p.maxRounds; ++round) {
        f.setMu(mu);
        res.rounds = round;
        // The Newton solve's target: 1/2 ||grad||^2 at a tenth of the tolerance on the gap.
        f.value(w);
        f.gradient(w, g);
        const double Jnow = 0.5 * w.squaredNorm() + p.C * oracle.risk(w);
        const double tolNow = p.relativeEpsilon ? p.epsilon * std::min(Jnow, res.objective) : p.epsilon;
        const double gTarget = std::sqrt(0.2 * tolNow);
        const double g0 = g.norm();
        if (g0 > gTarget) {
            NewtonParams np;
            np.epsilon = std::min(0.5, gTarget / g0);
            np.maxIterations = p.maxNewtonIterations;
            np.maxCgIterations = 500;
            const NewtonResult nr = minimizeNewton(f, w, np, rc);
            w = nr.x;
            res.newtonIterations += nr.iterations;
            res.hessianProducts += nr.cgIterations;
            if (nr.status == Status::Cancelled) {
                res.status = Status::Cancelled;
                res.message = fmt("cancelled in round %.0f (mu %.3g), gap %.3g", round, mu, res.gap);
                return res;
            }
        }
        f.value(w);
        const double D = f.dual(&res.end);
        const double J = 0.5 * w.squaredNorm() + p.C * oracle.risk(w);
        if (J < res.objective) {
            res.objective = J;
            res.w = w;
        }
        res.dualObjective = std::max(res.dualObjective, D);
        res.gap = res.objective - res.dualObjective;
        const double tol = p.relativeEpsilon ? p.epsilon * std::abs(res.objective) : p.epsilon;
        rc.report(-1.0, round, fmt("mu %.3g J %.8g D %.8g gap %.3g", mu, res.objective, res.dualObjective, res.gap));
        if (res.gap < tol) {
            res.status = Status::Converged;
            res.message = fmt("gap %.3g < tol %.3g after %.0f rounds (mu %.3g)", res.gap, tol, round, mu);
            return res;
        }
        mu /= p.muFactor;
    }
    res.status = Status::MaxIterations;
    res.message = fmt("stopped at maxRounds %.0f, gap %.3g (mu %.3g)", p.maxRounds, res.gap, mu);
    return res;
}

}  // namespace fdlab
