#include "core/learners/dekel_shamir_ipm.h"

#include "core/solvers/conjugate_gradient.h"
#include "core/util/param_check.h"
#include "core/util/parallel.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fdlab {

void DekelShamirIpmParams::validate() const {
    if (!(tolerance > 0.0 && tolerance <= 1e-2))
        invalidParam("DekelShamirIpmParams", "tolerance", "= " + formatParam(tolerance) + " must be in (0, 1e-2]");
    if (maxIterations < 1)
        invalidParam("DekelShamirIpmParams", "maxIterations", "= " + std::to_string(maxIterations) + " must be >= 1");
    if (!(timeLimit >= 0.0) || !std::isfinite(timeLimit))
        invalidParam("DekelShamirIpmParams", "timeLimit", "= " + formatParam(timeLimit) + " must be >= 0");
    if (denseMaxFeatures < 0)
        invalidParam("DekelShamirIpmParams", "denseMaxFeatures", "= " + std::to_string(denseMaxFeatures) + " must be >= 0");
    if (cgMaxIterations < 1)
        invalidParam("DekelShamirIpmParams", "cgMaxIterations", "= " + std::to_string(cgMaxIterations) + " must be >= 1");
    if (cgBlockFeatures < 0 || cgBlockFeatures > kMaxCgBlockFeatures)
        invalidParam("DekelShamirIpmParams", "cgBlockFeatures",
                     "= " + std::to_string(cgBlockFeatures) + " must be in [0, " + std::to_string(kMaxCgBlockFeatures) + "]");
}

namespace {

using Vec = std::vector<double>;

/// Primal (g = (w, b), xi, lambda, beta, row slacks) and dual (row duals, bound duals) values.
struct Point {
    Eigen::VectorXd g, zl, zu;
    Vec xi, lam, beta, sR, sH;  // primal
    Vec yR, yH, zxi, zlam, zbeta;  // dual

    void resize(int m, long nnz, int ng) {
        g = zl = zu = Eigen::VectorXd::Zero(ng);
        for (Vec* v : {&xi, &lam, &sR, &yR, &zxi, &zlam}) v->assign(static_cast<std::size_t>(m), 0.0);
        for (Vec* v : {&beta, &sH, &yH, &zbeta}) v->assign(static_cast<std::size_t>(nnz), 0.0);
    }
};

/// Complementarity right-hand sides, one per (primal >= 0, dual >= 0) pair.
struct Comp {
    Vec R, H, xi, lam, beta;
    Eigen::VectorXd L, U;
};

class Solver {
public:
    Solver(const Dataset& d, const std::vector<double>& v, double gamma, double N, double C, bool boxBias,
           const DekelShamirIpmParams& p)
        : m_m(d.rows()), m_n(d.features()), m_ng(d.features() + 1), m_N(N), m_C(C), m_adv(N > 0.0),
          m_useCg(d.features() > p.denseMaxFeatures), m_tolerance(p.tolerance), m_cgMax(p.cgMaxIterations) {
        const double V = std::accumulate(v.begin(), v.end(), 0.0);
        const double P = V - N;
        m_rhsR.assign(static_cast<std::size_t>(m_m), gamma * V / P);
        // Rows of the data (CSR): the w part of R_i. With an adversary every non-zero also has a
        // hinge entry (R_ij, beta_ij), indexed by the same CSR position; without one (N = 0)
        // there are none and lambda is unused.
        m_start.assign(static_cast<std::size_t>(m_m) + 1, 0);
        m_label.resize(static_cast<std::size_t>(m_m));
        for (int i = 0; i < m_m; ++i) {
            const double y = d.y(i);
            m_label[static_cast<std::size_t>(i)] = y;
            d.forEachNonZero(i, [&](int j, float x) {
                m_col.push_back(j);
                m_gx.push_back(y * static_cast<double>(x));
                m_v.push_back(v[static_cast<std::size_t>(j)]);
                m_rhsH.push_back(-gamma * v[static_cast<std::size_t>(j)] / P);
            });
            m_start[static_cast<std::size_t>(i) + 1] = static_cast<long>(m_col.size());
        }
        m_hStart = m_start;
        if (!m_adv) std::fill(m_hStart.begin(), m_hStart.end(), 0L);
        m_fixed.assign(static_cast<std::size_t>(m_n), std::numeric_limits<double>::quiet_NaN());
        fixOneSignedFeatures();
        m_nnz = m_hStart.back();
        // The two halves of timesG: examples [0, split) and [split, m), about nnz / 2 each.
        const auto mid = std::lower_bound(m_start.begin(), m_start.end(), m_start.back() / 2);
        m_split = {0, static_cast<int>(mid - m_start.begin()), m_m};
        m_split[1] = std::min(m_split[1], m_m);
        if (m_useCg) chooseBlock(p.cgBlockFeatures);
        m_lo.assign(static_cast<std::size_t>(m_ng), 1);
        m_lo[static_cast<std::size_t>(m_n)] = boxBias ? 1 : 0;
    }

    DekelShamirIpmResult run(const DekelShamirIpmParams& p, const RunControl& rc) {
        Stopwatch clock;
        Point x;
        initialise(x);
        DekelShamirIpmResult out;
        Point dAff, dir, trial, best;
        // The iterate with the smallest merit max(relative gap, infeasibilities) is kept: near
        // the end the Newton systems are ill-conditioned and an iterate can get worse again.
        double bestMerit = std::numeric_limits<double>::infinity();
        int bestIt = 0;
        // Progress is also a falling infeasibility: while the iterates are far from feasible the
        // relative gap means little and can grow as the primal value falls (seen with unequal
        // word values on the spam corpus, where the merit stayed flat for 20 iterations while the
        // infeasibilities kept falling by a tenth per iteration).
        double bestInfeasibility = std::numeric_limits<double>::infinity();
        int progressIt = 0;
        for (int it = 1; it <= p.maxIterations; ++it) {
            residuals(x);
            const double mu = complementarity(x);
            const double pobj = std::accumulate(x.xi.begin(), x.xi.end(), 0.0);
            const double dobj = dualObjective(x);
            const double gap = std::abs(pobj - dobj) / std::max(1.0, std::abs(pobj));
            const double merit = std::max({gap, m_pInf, m_dInf});
            const double infeasibility = std::max(m_pInf, m_dInf);
            if (infeasibility < 0.99 * bestInfeasibility) {
                bestInfeasibility = infeasibility;
                progressIt = it - 1;
            }

            if (merit < bestMerit) {
                progressIt = it - 1;
                bestMerit = merit;
                out.merit = merit;
                bestIt = it - 1;
                best = x;
                out.iterations = it - 1;
                out.primal = pobj / m_m;
                out.dual = dobj / m_m;
                m_bestInf = {gap, m_pInf, m_dInf};
            }
            if (bestMerit < p.tolerance) {
                out.status = Status::Converged;
                out.message = message("optimal", bestIt);
                return finish(best, out);
            }
            const bool diverging = bestMerit < 1e-4 && merit > 1e4 * bestMerit;
            if (diverging || it - 1 - progressIt >= 20 || !std::isfinite(merit)) {
                out.status = Status::Failed;
                if (bestMerit < 1e-5) out.status = Status::MaxIterations;
                out.message = message("stalled (numerical limit)", bestIt);
                return finish(best, out);
            }
            if (rc.cancelled()) {
                out.status = Status::Cancelled;
                out.message = message("cancelled", bestIt);
                return finish(best, out);
            }
            if (p.timeLimit > 0.0 && clock.seconds() > p.timeLimit) {
                out.status = Status::MaxIterations;
                out.message = message("time limit reached", bestIt);
                return finish(best, out);
            }
            m_mu = mu;
            if (!factor(x)) {
                out.status = Status::Failed;
                out.status = bestMerit < 1e-5 ? Status::MaxIterations : Status::Failed;
                out.message = message("the Newton system became singular", bestIt);
                return finish(best, out);
            }
            // Predictor (affine scaling): drive every product x z to 0.
            Comp c;
            products(x, nullptr, nullptr, 0.0, c);
            solve(x, c, dAff);
            const std::string blocks = m_trace ? blockTrace(x, dAff, mu) : std::string();
            const double apA = primalStep(x, dAff), adA = dualStep(x, dAff);
            const double muAff = complementarityAfter(x, dAff, apA, adA);
            const double sigma = std::pow(std::clamp(muAff / mu, 0.0, 1.0), 3.0);
            // Corrector: centre at sigma mu and remove the predictor's second-order term.
            products(x, &dAff, &dAff, sigma * mu, c);
            solve(x, c, dir);
            double ap = primalStep(x, dir), ad = dualStep(x, dir);
            const double apM = ap, adM = ad;
            correctCentrality(x, sigma * mu, c, dir, ap, ad, trial);
            ap = std::min(1.0, 0.995 * ap);
            ad = std::min(1.0, 0.995 * ad);
            step(x, dir, ap, ad);
            // Steps are primal / dual: taken, then the predictor's and Mehrotra's corrector's
            // (before the centrality correctors and the 0.995 fraction to the boundary).
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          "interior point %d: primal %.10g, dual %.10g, infeasibility %.1e / %.1e, mu %.1e (products "
                          "%.0e..%.0e mu), steps %.2f / %.2f (affine %.2f / %.2f, sigma %.1e, corrector %.2f / %.2f)%s",
                          it, pobj / m_m, dobj / m_m, m_pInf, m_dInf, mu, m_spread[0], m_spread[1], ap, ad, apA, adA,
                          sigma, apM, adM, cgNote().c_str());
            rc.report(-1.0, it, buf + blocks);
        }
        out.status = Status::MaxIterations;
        out.message = message("iteration limit reached", bestIt);
        return finish(best, out);
    }

private:
    std::string message(const char* what, int it) const {
        char buf[200];
        std::snprintf(buf, sizeof buf, "interior point: %s at iteration %d (relative gap %.1e, infeasibility %.1e / %.1e)",
                      what, it, m_bestInf[0], m_bestInf[1], m_bestInf[2]);
        return buf + cgNote();
    }

    /// The conjugate-gradient work so far (empty on the dense path).
    std::string cgNote() const {
        if (!m_useCg) return {};
        char buf[160];
        std::snprintf(buf, sizeof buf, "; conjugate gradients: %ld steps in %ld solves, %ld stopped at the limit of %d",
                      m_cgSteps, m_cgSolves, m_cgCapped, m_cgMax);
        return buf;
    }

    DekelShamirIpmResult& finish(const Point& x, DekelShamirIpmResult& out) const {
        out.cgIterations = m_cgSteps;
        out.w = x.g.head(m_n).cwiseMax(-m_C).cwiseMin(m_C);
        for (int j = 0; j < m_n; ++j)
            if (!std::isnan(m_fixed[static_cast<std::size_t>(j)])) out.w(j) = m_fixed[static_cast<std::size_t>(j)];
        out.b = x.g(m_n);
        return out;
    }

    /// Presolve: a feature whose non-zero y_i x_ij all have one sign is at +-C at an optimum
    /// (it enters only its examples' rows R_i and R_ij; raising y_i x_ij w_j by t raises R_i's
    /// left side by t minus the growth of beta_ij, which is at most t). It is fixed there and
    /// leaves the Newton system: its terms move to the rows' right-hand sides.
    void fixOneSignedFeatures() {
        std::vector<char> sign(static_cast<std::size_t>(m_n), 0);  // bit 1: a positive y x, bit 2: a negative
        for (std::size_t k = 0; k < m_col.size(); ++k)
            if (m_gx[k] != 0.0) sign[static_cast<std::size_t>(m_col[k])] |= m_gx[k] > 0.0 ? 1 : 2;
        for (int j = 0; j < m_n; ++j) {
            const char s = sign[static_cast<std::size_t>(j)];
            if (s == 1) m_fixed[static_cast<std::size_t>(j)] = m_C;
            if (s == 2) m_fixed[static_cast<std::size_t>(j)] = -m_C;
        }
        for (int i = 0; i < m_m; ++i)
            for (long e = m_start[static_cast<std::size_t>(i)]; e < m_start[static_cast<std::size_t>(i) + 1]; ++e) {
                const auto k = static_cast<std::size_t>(e);
                const double w = m_fixed[static_cast<std::size_t>(m_col[k])];
                if (std::isnan(w)) continue;
                const double t = m_gx[k] * w;
                m_rhsR[static_cast<std::size_t>(i)] -= t;
                if (m_adv) m_rhsH[k] += t;
                m_gx[k] = 0.0;
            }
    }

    bool lower(int j) const { return m_lo[static_cast<std::size_t>(j)] != 0; }
    double tl(const Point& x, int j) const { return x.g(j) + m_C; }
    double tu(const Point& x, int j) const { return m_C - x.g(j); }

    void initialise(Point& x) const {
        x.resize(m_m, m_nnz, m_ng);
        // A uniform start; 0.1 for every primal and dual value took the fewest iterations on
        // MNIST 3 vs 5 among 0.01, 0.03, 0.1, 1 and 10 for each (66 / 83 / 98 iterations for
        // 200 / 500 / 1000 digits, against 98 / 124 / diverging from 1).
        const double P0 = 0.1, D0 = 0.1;
        for (int i = 0; i < m_m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            x.xi[s] = x.sR[s] = P0;
            x.yR[s] = x.zxi[s] = D0;
            x.lam[s] = m_adv ? P0 : 0.0;
            x.zlam[s] = m_adv ? D0 : 0.0;
        }
        std::fill(x.beta.begin(), x.beta.end(), P0);
        std::fill(x.sH.begin(), x.sH.end(), P0);
        std::fill(x.yH.begin(), x.yH.end(), D0);
        std::fill(x.zbeta.begin(), x.zbeta.end(), D0);
        for (int j = 0; j < m_ng; ++j) x.zl(j) = x.zu(j) = lower(j) ? D0 : 0.0;
    }

    /// Primal residual rp = rhs - (A x - s) and dual residual rd = c - A^T y - z_l + z_u; also
    /// their relative max norms.
    void residuals(const Point& x) {
        m_rpR.assign(static_cast<std::size_t>(m_m), 0.0);
        m_rpH.assign(static_cast<std::size_t>(m_nnz), 0.0);
        m_rdG = -(x.zl - x.zu);
        m_rdXi.resize(static_cast<std::size_t>(m_m));
        m_rdLam.resize(static_cast<std::size_t>(m_m));
        m_rdBeta.resize(static_cast<std::size_t>(m_nnz));
        double pInf = 0.0, dInf = 0.0;
        for (int i = 0; i < m_m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            const double y = m_label[s];
            double act = y * x.g(m_n) - m_N * x.lam[s] + x.xi[s];
            for (long k = m_start[s]; k < m_start[s + 1]; ++k) {
                act += m_gx[static_cast<std::size_t>(k)] * x.g(m_col[static_cast<std::size_t>(k)]);
                m_rdG(m_col[static_cast<std::size_t>(k)]) -= m_gx[static_cast<std::size_t>(k)] * x.yR[s];
            }
            m_rdG(m_n) -= y * x.yR[s];
            double lamDual = -m_N * x.yR[s];
            for (long e = m_hStart[s]; e < m_hStart[s + 1]; ++e) {
                const auto k = static_cast<std::size_t>(e);
                act -= x.beta[k];
                const double actH = x.beta[k] + m_v[k] * x.lam[s] - m_gx[k] * x.g(m_col[k]) - x.sH[k];
                m_rpH[k] = m_rhsH[k] - actH;
                pInf = std::max(pInf, std::abs(m_rpH[k]));
                m_rdG(m_col[k]) += m_gx[k] * x.yH[k];
                lamDual += m_v[k] * x.yH[k];
                m_rdBeta[k] = x.yR[s] - x.yH[k] - x.zbeta[k];
                dInf = std::max(dInf, std::abs(m_rdBeta[k]));
            }
            m_rpR[s] = m_rhsR[s] - (act - x.sR[s]);
            pInf = std::max(pInf, std::abs(m_rpR[s]));
            m_rdXi[s] = 1.0 - x.yR[s] - x.zxi[s];
            m_rdLam[s] = m_adv ? -lamDual - x.zlam[s] : 0.0;
            dInf = std::max({dInf, std::abs(m_rdXi[s]), std::abs(m_rdLam[s])});
        }
        m_rdGMax = m_rdG.cwiseAbs().maxCoeff();
        dInf = std::max(dInf, m_rdGMax);
        double rhsMax = 0.0;
        for (double r : m_rhsR) rhsMax = std::max(rhsMax, std::abs(r));
        for (double r : m_rhsH) rhsMax = std::max(rhsMax, std::abs(r));
        m_pInf = pInf / (1.0 + rhsMax);
        m_dInf = dInf / 2.0;  // 1 + max |c|
    }

    double dualObjective(const Point& x) const {
        double d = 0.0;
        for (int i = 0; i < m_m; ++i) d += m_rhsR[static_cast<std::size_t>(i)] * x.yR[static_cast<std::size_t>(i)];
        for (long e = 0; e < m_nnz; ++e) d += m_rhsH[static_cast<std::size_t>(e)] * x.yH[static_cast<std::size_t>(e)];
        for (int j = 0; j < m_ng; ++j)
            if (lower(j)) d -= m_C * (x.zl(j) + x.zu(j));
        return d;
    }

    /// f(primal, dPrimal, dual, dDual) for every complementarity pair once (d = nullptr: zero
    /// direction). The upper bound of w is the pair (C - w, z_u), whose direction is -dw.
    template <class F>
    void forEachPair(const Point& x, const Point* d, F&& f) const {
        auto pair = [&](const Vec Point::*p, const Vec Point::*u, std::size_t k) {
            f((x.*p)[k], d ? (d->*p)[k] : 0.0, (x.*u)[k], d ? (d->*u)[k] : 0.0);
        };
        for (std::size_t i = 0; i < static_cast<std::size_t>(m_m); ++i) {
            pair(&Point::sR, &Point::yR, i);
            pair(&Point::xi, &Point::zxi, i);
            if (m_adv) pair(&Point::lam, &Point::zlam, i);
        }
        for (std::size_t k = 0; k < static_cast<std::size_t>(m_nnz); ++k) {
            pair(&Point::sH, &Point::yH, k);
            pair(&Point::beta, &Point::zbeta, k);
        }
        for (int j = 0; j < m_ng; ++j) {
            if (!lower(j)) continue;
            const double dg = d ? d->g(j) : 0.0;
            f(tl(x, j), dg, x.zl(j), d ? d->zl(j) : 0.0);
            f(tu(x, j), -dg, x.zu(j), d ? d->zu(j) : 0.0);
        }
    }

    /// The mean product mu; also the spread of the products (m_spread: smallest and largest / mu).
    double complementarity(const Point& x) {
        double s = 0.0, lo = std::numeric_limits<double>::infinity(), hi = 0.0;
        long count = 0;
        forEachPair(x, nullptr, [&](double p, double, double u, double) {
            s += p * u;
            lo = std::min(lo, p * u);
            hi = std::max(hi, p * u);
            ++count;
        });
        m_pairs = count;
        const double mu = s / static_cast<double>(count);
        m_spread = {lo / mu, hi / mu};
        return mu;
    }

    double complementarityAfter(const Point& x, const Point& d, double ap, double ad) const {
        double s = 0.0;
        forEachPair(x, &d, [&](double p, double dp, double u, double du) { s += (p + ap * dp) * (u + ad * du); });
        return s / static_cast<double>(m_pairs);
    }

    /// c = target - x z - dx dz (the last term only for the corrector).
    void products(const Point& x, const Point* dp, const Point* dd, double target, Comp& c) const {
        auto fill = [&](Vec& out, const Vec& a, const Vec& b, const Vec Point::*da, const Vec Point::*db) {
            out.resize(a.size());
            for (std::size_t k = 0; k < a.size(); ++k)
                out[k] = target - a[k] * b[k] - (dp ? (dp->*da)[k] * (dd->*db)[k] : 0.0);
        };
        fill(c.R, x.sR, x.yR, &Point::sR, &Point::yR);
        fill(c.H, x.sH, x.yH, &Point::sH, &Point::yH);
        fill(c.xi, x.xi, x.zxi, &Point::xi, &Point::zxi);
        fill(c.lam, x.lam, x.zlam, &Point::lam, &Point::zlam);
        fill(c.beta, x.beta, x.zbeta, &Point::beta, &Point::zbeta);
        c.L = Eigen::VectorXd::Zero(m_ng);
        c.U = Eigen::VectorXd::Zero(m_ng);
        for (int j = 0; j < m_ng; ++j) {
            if (!lower(j)) continue;
            c.L(j) = target - tl(x, j) * x.zl(j) - (dp ? dp->g(j) * dd->zl(j) : 0.0);
            c.U(j) = target - tu(x, j) * x.zu(j) + (dp ? dp->g(j) * dd->zu(j) : 0.0);
        }
        if (!m_adv) std::fill(c.lam.begin(), c.lam.end(), 0.0);
    }

    /// Gondzio's multiple centrality correctors (Gondzio 1996; Colombo & Gondzio 2008): aim at
    /// longer steps (a + 0.2) and push every product of the trial point that falls outside
    /// [0.1, 10] * target back to that interval, through one more solve with the same factor
    /// (cheap: the factor costs O(n^3), a solve O(nnz + n^2)). A corrected direction is kept
    /// while it lengthens the shorter of the two steps by at least 1% of the aspiration.
    /// Without them the Mehrotra steps stayed at 0.1-0.3 on the spam corpus with unequal word
    /// values (200 iterations, not converged).
    void correctCentrality(const Point& x, double target, Comp& c, Point& dir, double& ap, double& ad,
                           Point& trial) {
        constexpr int kMaxCorrectors = 3;
        constexpr double kAspiration = 0.2, kLow = 0.1, kHigh = 10.0;
        for (int k = 0; k < kMaxCorrectors; ++k) {
            const double apT = std::min(1.0, ap + kAspiration), adT = std::min(1.0, ad + kAspiration);
            Comp& c2 = m_trialComp;
            c2 = c;   // reuses c2's storage after the first corrector
            auto fix = [&](double& out, double p, double dp, double u, double du) {
                const double v = (p + apT * dp) * (u + adT * du);
                if (v < kLow * target) out += kLow * target - v;
                else if (v > kHigh * target) out += std::max(kHigh * target - v, -kHigh * target);
            };
            auto fixAll = [&](Vec& out, const Vec Point::*p, const Vec Point::*u) {
                for (std::size_t i = 0; i < out.size(); ++i)
                    fix(out[i], (x.*p)[i], (dir.*p)[i], (x.*u)[i], (dir.*u)[i]);
            };
            fixAll(c2.R, &Point::sR, &Point::yR);
            fixAll(c2.xi, &Point::xi, &Point::zxi);
            if (m_adv) fixAll(c2.lam, &Point::lam, &Point::zlam);
            fixAll(c2.H, &Point::sH, &Point::yH);
            fixAll(c2.beta, &Point::beta, &Point::zbeta);
            for (int j = 0; j < m_ng; ++j) {
                if (!lower(j)) continue;
                fix(c2.L(j), tl(x, j), dir.g(j), x.zl(j), dir.zl(j));
                fix(c2.U(j), tu(x, j), -dir.g(j), x.zu(j), dir.zu(j));
            }
            solve(x, c2, trial);
            const double ap2 = primalStep(x, trial), ad2 = dualStep(x, trial);
            if (std::min(ap2, ad2) < std::min(ap, ad) + 0.01 * kAspiration) break;
            std::swap(dir, trial);
            std::swap(c, c2);
            ap = ap2;
            ad = ad2;
        }
    }

    /// The matrix part of the block elimination (see the header): per hinge entry d = y/s and
    /// p = H_beta + d; per example the 2x2 block T^-1 and its coupling (C_lambda, C_y) to (w, b);
    /// the diagonal part of the (w, b) system G. Then either G itself, factored (dense path), or
    /// G's diagonal for the Jacobi preconditioner (conjugate-gradient path).
    bool factor(const Point& x) {
        m_d.resize(static_cast<std::size_t>(m_nnz));
        m_p.resize(static_cast<std::size_t>(m_nnz));
        m_Tinv.resize(static_cast<std::size_t>(m_m));
        m_Hxi.resize(static_cast<std::size_t>(m_m));
        m_cl.assign(m_col.size(), 0.0);
        m_cy = m_gx;
        m_diag = Eigen::VectorXd::Zero(m_ng);
        for (int j = 0; j < m_ng; ++j)
            if (lower(j)) m_diag(j) = x.zl(j) / tl(x, j) + x.zu(j) / tu(x, j);
        for (int i = 0; i < m_m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            m_Hxi[s] = x.zxi[s] / x.xi[s];
            const double hlam = m_adv ? x.zlam[s] / x.lam[s] : 0.0;
            double kll = -hlam, kly = -m_N, kyy = x.sR[s] / x.yR[s] + 1.0 / m_Hxi[s];
            // Hinge entries of example i are the same pixels in the same order as its R_i row,
            // so they share the CSR index; the coupling of (lambda_i, y_i) to w folds them in.
            for (long e = m_hStart[s]; e < m_hStart[s + 1]; ++e) {
                const auto k = static_cast<std::size_t>(e);
                const double d = x.yH[k] / x.sH[k];
                const double hb = x.zbeta[k] / x.beta[k];
                const double p = hb + d;
                m_d[k] = d;
                m_p[k] = p;
                const double keep = hb / p;  // 1 - d / p
                kll -= d * m_v[k] * m_v[k] * keep;
                kly += d * m_v[k] / p;
                kyy += 1.0 / p;
                m_cl[k] = d * m_v[k] * m_gx[k] * keep;
                m_cy[k] = m_gx[k] * keep;
                m_diag(m_col[k]) += d * m_gx[k] * m_gx[k] * keep;
            }
            if (!m_adv) kll = -1.0;  // lambda absent: a decoupled dummy
            const double det = kll * kyy - kly * kly;
            if (!(det != 0.0) || !std::isfinite(det)) return false;
            m_Tinv[s] = {kyy / det, -kly / det, kll / det};  // T^-1 = [a c; c e]
        }
        return m_useCg ? prepareCg() : factorDense();
    }

    /// out += sum_i C_i^T T_i^-1 C_i (lower triangle) over the features with a place in `out`:
    /// feature j at row pos[j] (-1: left out), or at row j when pos is null. Places ascend with
    /// the features (each example's entries are in column order, the bias last).
    void addCouplings(Eigen::MatrixXd& out, const std::vector<int>* pos) const {
        std::vector<int> idx;
        std::vector<double> cl, cy;
        for (int i = 0; i < m_m; ++i) {
            idx.clear();
            cl.clear();
            cy.clear();
            forCoupling(i, [&](int j, double l, double y) {
                const int at = pos ? (*pos)[static_cast<std::size_t>(j)] : j;
                if (at < 0) return;
                idx.push_back(at);
                cl.push_back(l);
                cy.push_back(y);
            });
            const auto& T = m_Tinv[static_cast<std::size_t>(i)];
            for (std::size_t b = 0; b < idx.size(); ++b) {
                const double vb0 = T[0] * cl[b] + T[1] * cy[b], vb1 = T[1] * cl[b] + T[2] * cy[b];
                double* colb = out.col(idx[b]).data();
                for (std::size_t a = b; a < idx.size(); ++a) colb[idx[a]] += cl[a] * vb0 + cy[a] * vb1;
            }
        }
    }

    /// Dense path: G = diag + sum_i C_i^T T_i^-1 C_i (lower triangle), Cholesky with a small
    /// diagonal shift if it fails.
    bool factorDense() {
        m_G.setZero(m_ng, m_ng);
        m_G.diagonal() = m_diag;
        addCouplings(m_G, nullptr);
        for (double reg = 0.0;;) {
            m_llt.compute(m_G);
            if (m_llt.info() == Eigen::Success) return true;
            reg = reg == 0.0 ? 1e-12 * std::max(1.0, m_G.diagonal().cwiseAbs().maxCoeff()) : reg * 100.0;
            if (reg > 1e-2 * std::max(1.0, m_G.diagonal().cwiseAbs().maxCoeff())) return false;
            m_G.diagonal().array() += reg;
        }
    }

    /// Conjugate-gradient path: the inverse of G's diagonal, in O(nnz). G is positive definite,
    /// so a diagonal entry <= 0 (or not finite) means the system has broken down.
    bool prepareCg() {
        Eigen::VectorXd dg = m_diag;
        for (int i = 0; i < m_m; ++i) {
            const auto& T = m_Tinv[static_cast<std::size_t>(i)];
            forCoupling(i, [&](int j, double l, double y) { dg(j) += T[0] * l * l + 2.0 * T[1] * l * y + T[2] * y * y; });
        }
        if (!(dg.minCoeff() > 0.0) || !std::isfinite(dg.maxCoeff())) return false;
        m_invDiag = dg.cwiseInverse();
        m_blockReady = !m_block.empty() && factorBlock();
        return true;
    }

    /// The block preconditioner's features: the `size` features with the most non-zeros (ties
    /// to the lower index), and the bias, ascending. The common words couple to every other
    /// word in G (its pattern is X^T X), which Jacobi ignores.
    void chooseBlock(int size) {
        m_blockPos.assign(static_cast<std::size_t>(m_ng), -1);
        m_block.clear();
        if (size <= 0) return;
        std::vector<long> count(static_cast<std::size_t>(m_n), 0);
        // By occurrences, also of the features the presolve fixed (they have no coupling left).
        // Counting only the coupled ones was measured and not kept: every 3rd spam message 60.8 s
        // and a stall (92,709 CG steps) against 50.0 s converged (79,072); every 6th 4.6 / 5.0 s.
        for (const int j : m_col) ++count[static_cast<std::size_t>(j)];
        std::vector<int> order(static_cast<std::size_t>(m_n));
        std::iota(order.begin(), order.end(), 0);
        const auto take = static_cast<std::size_t>(std::min(size, m_n));
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(take), order.end(), [&](int a, int b) {
            return count[static_cast<std::size_t>(a)] != count[static_cast<std::size_t>(b)]
                       ? count[static_cast<std::size_t>(a)] > count[static_cast<std::size_t>(b)]
                       : a < b;
        });
        m_block.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(take));
        m_block.push_back(m_n);   // the bias couples to every example
        std::sort(m_block.begin(), m_block.end());
        for (std::size_t t = 0; t < m_block.size(); ++t) m_blockPos[static_cast<std::size_t>(m_block[t])] = static_cast<int>(t);
    }

    /// G restricted to the block's features (exact: the diagonal part plus every example's
    /// C^T T^-1 C on them), factored by Cholesky. false if it is not numerically positive
    /// definite: Jacobi alone is used then.
    bool factorBlock() {
        const auto q = static_cast<Eigen::Index>(m_block.size());
        m_blockG.setZero(q, q);
        for (Eigen::Index t = 0; t < q; ++t) m_blockG(t, t) = m_diag(m_block[static_cast<std::size_t>(t)]);
        addCouplings(m_blockG, &m_blockPos);
        m_blockLlt.compute(m_blockG);
        return m_blockLlt.info() == Eigen::Success;
    }

    /// z = M^-1 r for the block-Jacobi preconditioner (Jacobi alone without a block).
    void precondition(const Eigen::VectorXd& r, Eigen::VectorXd& z) {
        z = m_invDiag.cwiseProduct(r);
        if (!m_blockReady) return;
        const auto q = static_cast<Eigen::Index>(m_block.size());
        m_blockR.resize(q);
        for (Eigen::Index t = 0; t < q; ++t) m_blockR(t) = r(m_block[static_cast<std::size_t>(t)]);
        m_blockLlt.solveInPlace(m_blockR);
        for (Eigen::Index t = 0; t < q; ++t) z(m_block[static_cast<std::size_t>(t)]) = m_blockR(t);
    }

    /// out = G v without forming G: O(nnz). The examples are split in two halves of about equal
    /// non-zeros, summed into separate vectors on two threads and added in a fixed order, so
    /// the result does not depend on the number of threads.
    void timesG(const Eigen::VectorXd& v, Eigen::VectorXd& out) {
        m_half.resize(m_ng);
        auto part = [&](int t) {
            Eigen::VectorXd& acc = t == 0 ? out : m_half;
            acc.setZero(m_ng);
            for (int i = m_split[static_cast<std::size_t>(t)]; i < m_split[static_cast<std::size_t>(t) + 1]; ++i) {
                double a = 0.0, c = 0.0;
                forCoupling(i, [&](int j, double l, double y) {
                    a += l * v(j);
                    c += y * v(j);
                });
                const auto& T = m_Tinv[static_cast<std::size_t>(i)];
                const double u0 = T[0] * a + T[1] * c, u1 = T[1] * a + T[2] * c;
                forCoupling(i, [&](int j, double l, double y) { acc(j) += l * u0 + y * u1; });
            }
        };
        parallelFor(2, std::min(2, hardwareThreads()), part);
        out += m_half;
        out += m_diag.cwiseProduct(v);
    }

    /// dg = G^-1 rhs: the Cholesky factor, or conjugate gradients started from the previous
    /// solve's answer. Inexact Newton: CG stops at a max-norm residual tied to the current
    /// complementarity mu and the dual infeasibility of the (w, b) rows (the only equations the
    /// CG error enters, since everything else is back-substituted exactly), never looser than a
    /// tenth of |rhs| and never tighter than needed for the stopping test. The IPM's residuals
    /// are recomputed from the iterates, so an inexact direction can slow it but not fool it.
    void linearSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& dg) {
        if (!m_useCg) {
            dg = m_llt.solve(rhs);
            return;
        }
        if (m_lastDg.size() != m_ng) m_lastDg = Eigen::VectorXd::Zero(m_ng);
        dg = m_lastDg;
        const double eta = std::max(0.05 * m_tolerance,
                                    0.1 * std::min(rhs.cwiseAbs().maxCoeff(), std::max(m_rdGMax, m_mu)));
        const PcgResult r = solvePcg([this](const Eigen::VectorXd& v, Eigen::VectorXd& y) { timesG(v, y); },
                                     [this](const Eigen::VectorXd& v, Eigen::VectorXd& y) { precondition(v, y); }, rhs, dg,
                                     eta, m_cgMax);
        m_cgSteps += r.iterations;
        ++m_cgSolves;
        if (!r.converged) ++m_cgCapped;
        m_lastDg = dg;
    }

    /// The Newton direction for complementarity targets c (see the header for the elimination).
    void solve(const Point& x, const Comp& c, Point& dx) {
        dx.resize(m_m, m_nnz, m_ng);
        // x-row right-hand sides f and row right-hand sides h.
        Eigen::VectorXd fg = m_rdG;
        for (int j = 0; j < m_ng; ++j)
            if (lower(j)) fg(j) += -c.L(j) / tl(x, j) + c.U(j) / tu(x, j);
        Eigen::VectorXd rg = fg;
        m_locL.resize(static_cast<std::size_t>(m_m));
        m_locY.resize(static_cast<std::size_t>(m_m));
        m_rb.resize(static_cast<std::size_t>(m_nnz));
        m_hH.resize(static_cast<std::size_t>(m_nnz));
        for (int i = 0; i < m_m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            const double fxi = m_rdXi[s] - c.xi[s] / x.xi[s];
            const double flam = m_adv ? m_rdLam[s] - c.lam[s] / x.lam[s] : 0.0;
            const double hR = m_rpR[s] + c.R[s] / x.yR[s];
            double rl = flam, ry = hR + fxi / m_Hxi[s];
            for (long e = m_hStart[s]; e < m_hStart[s + 1]; ++e) {
                const auto k = static_cast<std::size_t>(e);
                const double fb = m_rdBeta[k] - c.beta[k] / x.beta[k];
                const double h = m_rpH[k] + c.H[k] / x.yH[k];
                const double rb = fb - m_d[k] * h;
                m_hH[k] = h;
                m_rb[k] = rb;
                const double t = h + rb / m_p[k];
                rl -= m_d[k] * m_v[k] * t;
                ry -= rb / m_p[k];
                rg(m_col[k]) += m_d[k] * m_gx[k] * t;
            }
            m_locL[s] = rl;
            m_locY[s] = ry;
            // rg -= C^T T^-1 loc.
            const auto& T = m_Tinv[s];
            const double ul = T[0] * rl + T[1] * ry, uy = T[1] * rl + T[2] * ry;
            forCoupling(i, [&](int j, double cl, double cy) { rg(j) -= cl * ul + cy * uy; });
        }
        // G dg = -rg.
        linearSolve(-rg, dx.g);
        // Back substitution, example by example.
        for (int i = 0; i < m_m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            double cgl = 0.0, cgy = 0.0;
            forCoupling(i, [&](int j, double cl, double cy) {
                cgl += cl * dx.g(j);
                cgy += cy * dx.g(j);
            });
            const auto& T = m_Tinv[s];
            const double bl = m_locL[s] - cgl, by = m_locY[s] - cgy;
            const double dlam = m_adv ? T[0] * bl + T[1] * by : 0.0;
            const double dyR = T[1] * bl + T[2] * by;
            dx.lam[s] = dlam;
            dx.yR[s] = dyR;
            const double fxi = m_rdXi[s] - c.xi[s] / x.xi[s];
            dx.xi[s] = (dyR - fxi) / m_Hxi[s];
            for (long e = m_hStart[s]; e < m_hStart[s + 1]; ++e) {
                const auto k = static_cast<std::size_t>(e);
                const double dw = dx.g(m_col[k]);
                // beta row: -p dbeta + l dlam + om dw - dyR = rb, l = -d v, om = d gx.
                const double db = (-m_d[k] * m_v[k] * dlam + m_d[k] * m_gx[k] * dw - dyR - m_rb[k]) / m_p[k];
                dx.beta[k] = db;
                dx.yH[k] = m_d[k] * (m_hH[k] - (db + m_v[k] * dlam - m_gx[k] * dw));
                dx.sH[k] = (c.H[k] - x.sH[k] * dx.yH[k]) / x.yH[k];
                dx.zbeta[k] = (c.beta[k] - x.zbeta[k] * db) / x.beta[k];
            }
            dx.sR[s] = (c.R[s] - x.sR[s] * dyR) / x.yR[s];
            dx.zxi[s] = (c.xi[s] - x.zxi[s] * dx.xi[s]) / x.xi[s];
            dx.zlam[s] = m_adv ? (c.lam[s] - x.zlam[s] * dlam) / x.lam[s] : 0.0;
        }
        for (int j = 0; j < m_ng; ++j) {
            if (!lower(j)) continue;
            dx.zl(j) = (c.L(j) - x.zl(j) * dx.g(j)) / tl(x, j);
            dx.zu(j) = (c.U(j) + x.zu(j) * dx.g(j)) / tu(x, j);
        }
    }

    /// f(j, C_lambda,j, C_y,j) over example i's coupling to (w, b), as computed in factor():
    /// its words in increasing order, then the bias.
    template <class F>
    void forCoupling(int i, F&& f) const {
        const auto s = static_cast<std::size_t>(i);
        for (long k = m_start[s]; k < m_start[s + 1]; ++k) {
            const auto h = static_cast<std::size_t>(k);
            f(m_col[h], m_cl[h], m_cy[h]);
        }
        f(m_n, 0.0, m_label[s]);
    }

    /// The largest step in (0, 1] keeping the primal (or the dual) values positive.
    double maxStep(const Point& x, const Point& d, bool primal) const {
        double a = 1.0;
        forEachPair(x, &d, [&](double p, double dp, double u, double du) {
            const double v = primal ? p : u, dv = primal ? dp : du;
            if (dv < 0.0) a = std::min(a, -v / dv);
        });
        return a;
    }
    double primalStep(const Point& x, const Point& d) const { return maxStep(x, d, true); }

    /// FDLAB_IPM_TRACE: per block of complementarity pairs (rows R_i, xi, lambda, rows R_ij,
    /// beta, the box of w), the smallest and largest product / mu and the largest primal /
    /// dual step along the predictor d, to see which variables keep the steps short.
    std::string blockTrace(const Point& x, const Point& d, double mu) const {
        std::string out = "\n   ";
        auto block = [&](const char* name, auto&& each) {
            double lo = std::numeric_limits<double>::infinity(), hi = 0.0, ap = 1.0, ad = 1.0;
            each([&](double p, double dp, double u, double du) {
                lo = std::min(lo, p * u / mu);
                hi = std::max(hi, p * u / mu);
                if (dp < 0.0) ap = std::min(ap, -p / dp);
                if (du < 0.0) ad = std::min(ad, -u / du);
            });
            char buf[120];
            std::snprintf(buf, sizeof buf, " %s [%.0e..%.0e mu, steps %.2f / %.2f]", name, lo, hi, ap, ad);
            out += buf;
        };
        auto vecBlock = [&](const char* name, const Vec Point::*p, const Vec Point::*u) {
            block(name, [&](auto&& f) {
                for (std::size_t k = 0; k < (x.*p).size(); ++k) f((x.*p)[k], (d.*p)[k], (x.*u)[k], (d.*u)[k]);
            });
        };
        vecBlock("R_i", &Point::sR, &Point::yR);
        vecBlock("xi", &Point::xi, &Point::zxi);
        if (m_adv) vecBlock("lambda", &Point::lam, &Point::zlam);
        vecBlock("R_ij", &Point::sH, &Point::yH);
        vecBlock("beta", &Point::beta, &Point::zbeta);
        block("box", [&](auto&& f) {
            for (int j = 0; j < m_ng; ++j) {
                if (!lower(j)) continue;
                f(tl(x, j), d.g(j), x.zl(j), d.zl(j));
                f(tu(x, j), -d.g(j), x.zu(j), d.zu(j));
            }
        });
        return out;
    }
    double dualStep(const Point& x, const Point& d) const { return maxStep(x, d, false); }

    static void axpy(Vec& a, double t, const Vec& d) {
        for (std::size_t k = 0; k < a.size(); ++k) a[k] += t * d[k];
    }

    void step(Point& x, const Point& d, double ap, double ad) const {
        x.g += ap * d.g;
        for (Vec Point::*mem : {&Point::xi, &Point::lam, &Point::beta, &Point::sR, &Point::sH}) axpy(x.*mem, ap, d.*mem);
        for (Vec Point::*mem : {&Point::yR, &Point::yH, &Point::zxi, &Point::zlam, &Point::zbeta})
            axpy(x.*mem, ad, d.*mem);
        x.zl += ad * d.zl;
        x.zu += ad * d.zu;
    }

    int m_m, m_n, m_ng;
    double m_N, m_C;
    bool m_adv;
    bool m_useCg;
    double m_tolerance;
    int m_cgMax;
    long m_nnz = 0, m_pairs = 1;
    std::vector<long> m_start, m_hStart;
    std::vector<int> m_col;
    Vec m_gx, m_v, m_rhsR, m_rhsH, m_label;
    Vec m_fixed;   // per feature: the value presolve fixed it at, NaN where it is a variable
    std::vector<char> m_lo;
    // Residuals of the current point.
    Vec m_rpR, m_rpH, m_rdXi, m_rdLam, m_rdBeta;
    Eigen::VectorXd m_rdG;
    double m_pInf = 0.0, m_dInf = 0.0, m_rdGMax = 0.0, m_mu = 0.0;
    std::array<double, 2> m_spread{};  // smallest and largest complementarity product / mu
    bool m_trace = std::getenv("FDLAB_IPM_TRACE") != nullptr;
    std::array<double, 3> m_bestInf{};  // gap, primal and dual infeasibility of the best iterate
    // Factorisation.
    Vec m_d, m_p, m_Hxi, m_cl, m_cy;
    std::vector<std::array<double, 3>> m_Tinv;
    Eigen::VectorXd m_diag;
    Eigen::MatrixXd m_G;                               // dense path
    Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> m_llt;
    Eigen::VectorXd m_invDiag, m_lastDg, m_half;       // conjugate-gradient path
    std::vector<int> m_block, m_blockPos;              // block preconditioner: features, position of each (-1)
    Eigen::MatrixXd m_blockG;
    Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> m_blockLlt;
    Eigen::VectorXd m_blockR;
    bool m_blockReady = false;
    std::array<int, 3> m_split{};
    long m_cgSteps = 0, m_cgSolves = 0, m_cgCapped = 0;
    // Per-solve scratch.
    Vec m_locL, m_locY, m_rb, m_hH;
    Comp m_trialComp;   // a centrality corrector's complementarity targets
};

}  // namespace

DekelShamirIpmResult solveDekelShamirIpm(const Dataset& d, const std::vector<double>& v, double gamma, double N,
                                         double C, bool boxBias, const DekelShamirIpmParams& p, const RunControl& rc) {
    p.validate();
    if (d.rows() == 0) throw std::invalid_argument("Dekel-Shamir LP (interior point): no examples");
    if (static_cast<int>(v.size()) != d.features())
        throw std::invalid_argument("Dekel-Shamir LP (interior point): " + std::to_string(v.size()) + " feature values for " +
                                    std::to_string(d.features()) + " features");
    Solver s(d, v, gamma, N, C, boxBias, p);
    return s.run(p, rc);
}

}  // namespace fdlab
