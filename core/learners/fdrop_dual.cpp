#include "core/learners/fdrop_dual.h"

#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace fdlab {

void FdropDualParams::validate() const {
    if (!(C > 0.0) || !std::isfinite(C)) throw std::invalid_argument("FdropDualParams.C must be finite and > 0");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw std::invalid_argument("FdropDualParams.epsilon must be finite and > 0");
    if (maxEpochs < 1) throw std::invalid_argument("FdropDualParams.maxEpochs must be >= 1");
}

namespace {

std::string fmt(const char* f, double a, double b, double c) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

/// The worst-case margins y_i w.x_i - s_i(w) = 1 - (hinge argument) of every row at w.
void worstCaseMargins(const WorstCaseHingeOracle& o, const Eigen::VectorXd& w, std::vector<double>& m) {
    m.resize(static_cast<std::size_t>(o.rows()));
    for (int i = 0; i < o.rows(); ++i) m[static_cast<std::size_t>(i)] = 1.0 - o.hingeArgument(i, w);
}

/// A primal candidate s w: the scale s and its objective.
struct Scaled {
    double s = 1.0;
    double J = 0.0;
};

/// The exact minimiser over s >= 0 of phi(s) = s^2 ||w||^2 / 2 + C sum_i [1 - s m_i]_+, given the
/// margins m_i of w. The damage s_i is positively homogeneous (s_i(s w) = s s_i(w)), so with the
/// worst-case margins phi(s) = J(s w) exactly, without another adversary call; with the margins
/// of fixed deletions it is the matching lower bound. phi is convex and piecewise quadratic:
/// every row is active for s < 1 / m_i (always, when m_i <= 0), so its slope 2 a s - C S(s), S
/// the sum of the active margins, is scanned over the breakpoints in increasing order (a sort of
/// the positive margins). `bp` is scratch.
Scaled bestScaling(const std::vector<double>& m, double halfNorm2, double C, std::vector<double>& bp) {
    double S = 0.0;
    bp.clear();
    for (const double mi : m) {
        S += mi;
        if (mi > 0.0) bp.push_back(mi);
    }
    std::sort(bp.begin(), bp.end(), std::greater<>());   // breakpoints 1 / m_i ascending
    const double a2 = 2.0 * halfNorm2;
    double s = 0.0;   // left end of the current piece
    for (const double mi : bp) {
        if (a2 / mi - C * S >= 0.0) break;   // the slope turns non-negative on [s, 1 / m_i]
        S -= mi;   // the row leaves at 1 / m_i: the slope jumps up by C m_i
        s = 1.0 / mi;
    }
    // The root of the slope on the current piece, or the piece's left end if the slope is
    // already non-negative there; past the last breakpoint phi is a s^2 (+ linear terms of the
    // rows with m_i <= 0), minimised at C S / (2 a) as well.
    if (a2 > 0.0) s = std::max(s, C * S / a2);
    else s = 1.0;   // w = 0: every s gives the same point
    Scaled r;
    r.s = s;
    double R = 0.0;
    for (const double mi : m) R += std::max(0.0, 1.0 - s * mi);
    r.J = halfNorm2 * s * s + C * R;
    return r;
}

/// The dual state: alpha per row, beta per stored non-zero (CSR position), and w(alpha, beta).
class DualState {
public:
    DualState(const WorstCaseHingeOracle& o, double C)
        : m_o(o), m_C(C), m_alpha(static_cast<std::size_t>(o.rows()), 0.0),
          m_beta(static_cast<std::size_t>(o.rowEnd(o.rows() - 1)), 0.0), m_w(Eigen::VectorXd::Zero(o.dimension())),
          m_nu(static_cast<std::size_t>(o.rows()), 0.0) {
        const auto nnz = m_beta.size();
        m_invX.resize(nnz);
        m_cInvX2.resize(nnz);
        m_cost.resize(nnz);
        for (std::size_t k = 0; k < nnz; ++k) {
            const double x = o.values()[k], c = o.cost(o.columns()[k]);
            m_cost[k] = c;
            m_invX[k] = x != 0.0 ? 1.0 / x : 0.0;
            m_cInvX2[k] = x != 0.0 ? c / (x * x) : 0.0;
            m_largest = std::max(m_largest, std::abs(x));
        }
    }

    /// Starts from a neighbouring problem's dual point, made feasible for this C and budget
    /// (header comment), and recomputes w. Throws std::invalid_argument on a size mismatch.
    void warmStart(const FdropDualStart& s) {
        if (s.alpha.size() != m_alpha.size() || s.beta.size() != m_beta.size() || !(s.C > 0.0))
            throw std::invalid_argument("FDROP warm start: a dual point of other data (" + std::to_string(s.alpha.size()) +
                                        " rows, " + std::to_string(s.beta.size()) + " entries; this problem has " +
                                        std::to_string(m_alpha.size()) + " rows, " + std::to_string(m_beta.size()) + " entries)");
        const double scale = m_C / s.C, B = m_o.capacity();
        for (int i = 0; i < m_o.rows(); ++i) {
            const auto r = static_cast<std::size_t>(i);
            const double a = s.alpha[r];
            m_alpha[r] = std::isfinite(a) ? std::clamp(a * scale, 0.0, m_C) : 0.0;
            const long k0 = m_o.rowBegin(i), k1 = m_o.rowEnd(i);
            double used = 0.0;
            for (long k = k0; k < k1; ++k) {
                const double b = s.beta[static_cast<std::size_t>(k)];
                m_beta[static_cast<std::size_t>(k)] = std::isfinite(b) ? std::clamp(b, 0.0, 1.0) : 0.0;
                used += m_cost[static_cast<std::size_t>(k)] * m_beta[static_cast<std::size_t>(k)];
            }
            if (used > B) {
                const double f = used > 0.0 ? B / used : 0.0;
                for (long k = k0; k < k1; ++k) m_beta[static_cast<std::size_t>(k)] *= f;
            }
        }
        refresh();
    }

    const std::vector<double>& beta() const { return m_beta; }

    /// max |x_ij| over the stored values.
    double largestValue() const { return m_largest; }

    const Eigen::VectorXd& w() const { return m_w; }

    /// One block step on row i; true when the row has settled at a bound: inactive (alpha_i = 0
    /// and its worst-case margin above 1, so its hinge is zero at the current w), or at alpha_i = C
    /// with a beta step that changed nothing.
    bool visit(int i) {
        double f = 0.0, q = 0.0;
        if (m_alpha[static_cast<std::size_t>(i)] == 0.0) {
            // From alpha_i = 0 the step moves only when the worst-case hinge argument (the alpha
            // step's gradient at the best response) is positive. Its value alone (one pass, no
            // deletion positions) settles the usual case of a row that stays inactive; such a
            // row's beta_i enters neither w nor D and is left as it is.
            if (m_o.hingeArgument(i, m_w) < 0.0) return true;
            bestResponse(i);
            marginTerms(i, f, q);
        } else {
            // A row at the upper bound whose beta step moved nothing (every beta_ij at 0 or 1
            // or otherwise unchanged) and whose alpha step keeps it at C has settled, like a
            // row at alpha_i = 0 with a negative gradient: skipped for a few epochs as well.
            const bool atC = m_alpha[static_cast<std::size_t>(i)] == m_C;
            const double moved = updateBeta(i, f, q);
            if (atC && moved == 0.0) {
                updateAlpha(i, f, q);
                return m_alpha[static_cast<std::size_t>(i)] == m_C;
            }
        }
        return updateAlpha(i, f, q);
    }

    /// D(alpha, beta) with the running w (updated step by step, so it carries rounding drift).
    double dual() const { return std::accumulate(m_alpha.begin(), m_alpha.end(), 0.0) - 0.5 * m_w.squaredNorm(); }

    /// Recomputes w from (alpha, beta) and returns D(alpha, beta).
    double refresh() {
        m_w.setZero();
        const int* col = m_o.columns();
        const float* val = m_o.values();
        double sumAlpha = 0.0;
        for (int i = 0; i < m_o.rows(); ++i) {
            const double a = m_alpha[static_cast<std::size_t>(i)];
            if (a == 0.0) continue;
            sumAlpha += a;
            const double ay = a * m_o.label(i);
            for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k)
                m_w(col[k]) += ay * val[k] * (1.0 - m_beta[static_cast<std::size_t>(k)]);
            if (m_o.hasBias()) m_w(m_o.features()) += ay;
        }
        return sumAlpha - 0.5 * m_w.squaredNorm();
    }

    const std::vector<double>& alpha() const { return m_alpha; }
    /// The margins y_i w.x~_i with the dual's own deletions, x~_i = x_i o (1 - beta_i) (bias
    /// included): with them J_beta(w) = 1/2 ||w||^2 + C sum_i [1 - m_i]_+ is a lower bound on J(w),
    /// since beta_i is a feasible (not necessarily the worst) deletion.
    void ownMargins(std::vector<double>& m) const {
        m.resize(static_cast<std::size_t>(m_o.rows()));
        for (int i = 0; i < m_o.rows(); ++i) {
            double f = 0.0, q = 0.0;
            marginTerms(i, f, q);
            if (m_o.hasBias()) f += m_w(m_o.features());
            m[static_cast<std::size_t>(i)] = m_o.label(i) * f;
        }
    }

    /// Extrapolation of the last epoch's alpha step with beta fixed: alpha(t) = clip(prev + t
    /// (alpha - prev), 0, C) for t = 2, 4, 8, ... while D increases (every such point is
    /// feasible, since beta_i in P does not depend on alpha_i). Coordinate ascent moves slowly
    /// along directions where many alpha grow together while their x~ cancel in w (most alpha
    /// heading for C); this step takes such a direction in one go. Returns the number of
    /// doublings accepted.
    int extrapolate(const std::vector<double>& prev) {
        const int* col = m_o.columns();
        const float* val = m_o.values();
        const int m = m_o.rows();
        const int bias = m_o.hasBias() ? m_o.features() : -1;
        // Without clipping, w(t) = w + (t - 1) u with u = sum_i (alpha_i - prev_i) y_i x~_i: u
        // costs one pass over the rows that moved, and each t only a correction for the rows
        // whose alpha(t) is clipped (few, except at large t).
        auto addRow = [&](int i, double coef, Eigen::VectorXd& v) {
            for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k)
                v(col[k]) += coef * val[k] * (1.0 - m_beta[static_cast<std::size_t>(k)]);
            if (bias >= 0) v(bias) += coef;
        };
        m_moved.clear();
        m_u.setZero(m_w.size());
        for (int i = 0; i < m; ++i) {
            const auto s = static_cast<std::size_t>(i);
            const double d = m_alpha[s] - prev[s];
            if (d == 0.0) continue;
            m_moved.push_back(i);
            addRow(i, d * m_o.label(i), m_u);
        }
        if (m_moved.empty()) return 0;
        auto dualAt = [&](double t, std::vector<double>& a, Eigen::VectorXd& w) {
            w = m_w + (t - 1.0) * m_u;
            a = m_alpha;
            double sum = std::accumulate(m_alpha.begin(), m_alpha.end(), 0.0);
            for (const int i : m_moved) {
                const auto s = static_cast<std::size_t>(i);
                const double d = m_alpha[s] - prev[s];
                const double raw = prev[s] + t * d;
                const double clipped = std::clamp(raw, 0.0, m_C);
                a[s] = clipped;
                sum += clipped - m_alpha[s];
                if (clipped != raw) addRow(i, (clipped - raw) * m_o.label(i), w);   // (t - 1) d -> clipped - alpha
            }
            return sum - 0.5 * w.squaredNorm();
        };
        double best = dual();
        int accepted = 0;
        for (double t = 2.0; t <= 64.0; t *= 2.0) {
            const double D = dualAt(t, m_tryAlpha, m_tryW);
            if (!(D > best)) break;
            best = D;
            std::swap(m_bestAlpha, m_tryAlpha);
            std::swap(m_bestW, m_tryW);
            ++accepted;
        }
        if (accepted > 0) {
            std::swap(m_alpha, m_bestAlpha);
            std::swap(m_w, m_bestW);
        }
        return accepted;
    }

private:
    /// When alpha_i = 0, beta_i does not enter D: it is set to the adversary's best response at w,
    /// so that the alpha step sees the worst-case hinge.
    void bestResponse(int i) {
        const long k0 = m_o.rowBegin(i), k1 = m_o.rowEnd(i);
        std::fill(m_beta.begin() + k0, m_beta.begin() + k1, 0.0);
        m_deleted.clear();
        m_o.damage(i, m_w, &m_deleted);
        for (const auto& [k, f] : m_deleted) m_beta[static_cast<std::size_t>(k)] = f;
    }

    /// f = w.x~_i and q = ||x~_i||^2 for x~_i = x_i o (1 - beta_i), without the bias.
    void marginTerms(int i, double& f, double& q) const {
        const int* col = m_o.columns();
        const float* val = m_o.values();
        for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k) {
            const double xt = val[k] * (1.0 - m_beta[static_cast<std::size_t>(k)]);
            f += m_w(col[k]) * xt;
            q += xt * xt;
        }
    }

    /// Exact maximisation of D over beta_i with alpha_i > 0 fixed. Updates w, and returns the
    /// alpha step's f and q (as marginTerms) at the new beta_i from the same pass. With
    /// r_k = alpha_i y_i x_k the step is beta_k(nu) = clip(beta_k + (r_k w_j - nu c_k) / r_k^2, 0, 1)
    /// = clip(p_k - nu q_k, 0, 1), p_k = beta_k + y_i w_j / (alpha_i x_k), q_k = c_k / (alpha_i x_k)^2
    /// (a stored zero x_k has q_k = 0 and p_k = beta_k: its beta does not matter and stays).
    /// Returns max_k |beta_k change|.
    double updateBeta(int i, double& fOut, double& qOut) {
        const long k0 = m_o.rowBegin(i), k1 = m_o.rowEnd(i);
        const auto len = static_cast<std::size_t>(k1 - k0);
        const int* col = m_o.columns() + k0;
        const float* val = m_o.values() + k0;
        const double y = m_o.label(i);
        const double a = m_alpha[static_cast<std::size_t>(i)];
        const double ya = y / a, ia2 = 1.0 / (a * a);
        double* beta = m_beta.data() + k0;
        const double* invX = m_invX.data() + k0;
        const double* cost = m_cost.data() + k0;
        if (m_pAll.size() < len) {
            for (auto* v : {&m_pAll, &m_p, &m_q, &m_cq, &m_c, &m_nb}) v->resize(len);
        }
        // p of every item, and the items with p_k > 0 packed into (m_p, m_q, m_c, m_cq = c_k q_k)
        // by a conditional advance: the others have beta_k(nu) = 0 for every nu >= 0.
        std::size_t n = 0;
        for (std::size_t t = 0; t < len; ++t) {
            const double pk = beta[t] + ya * m_w(col[t]) * invX[t];
            m_pAll[t] = pk;
            m_p[n] = pk;
            m_q[n] = ia2 * m_cInvX2[static_cast<std::size_t>(k0) + t];
            m_c[n] = cost[t];
            n += pk > 0.0 ? 1 : 0;
        }
        // used(nu) = sum_k c_k beta_k(nu): piecewise linear, non-increasing; its slope is
        // -sum c_k q_k over the items strictly inside (0, 1). Evaluated with Eigen's array
        // min/max and an arithmetic inside-mask: branch-free (which items are inside is
        // unpredictable) and vectorised.
        const auto cnt = static_cast<Eigen::Index>(n);
        const Eigen::Map<const Eigen::ArrayXd> P(m_p.data(), cnt), Q(m_q.data(), cnt), Cst(m_c.data(), cnt);
        Eigen::Map<Eigen::ArrayXd> CQ(m_cq.data(), cnt);
        CQ = Cst * Q;
        auto usedAt = [&](double nu, double* slope) {
            const auto raw = P - nu * Q;
            const auto clipped = raw.max(0.0).min(1.0);
            // Inside (0, 1) <=> clipped == raw; as arithmetic, so that it vectorises too:
            // min(1, |raw - clipped| * 1e300) is 0 inside and 1 outside.
            if (slope) *slope = -(CQ * (1.0 - ((raw - clipped).abs() * 1e300).min(1.0))).sum();
            return (Cst * clipped).sum();
        };
        const double B = m_o.capacity();
        double nu = 0.0;
        if (usedAt(0.0, nullptr) > B) {
            // Root of used(nu) = B: safeguarded Newton from the row's previous multiplier (a
            // warm start that is usually within one or two linear pieces of the root), keeping a
            // bracket [lo, hi] and bisecting when a Newton step leaves it; exact once the
            // iterate is on the root's linear piece.
            double& rowNu = m_nu[static_cast<std::size_t>(i)];
            double lo = 0.0, hi = std::numeric_limits<double>::infinity();
            double x = rowNu;
            const double tol = 1e-12 * std::max(1.0, B);
            bool found = false;
            for (int it = 0; it < 60; ++it) {
                double sl = 0.0;
                const double u = usedAt(x, &sl);
                if (std::abs(u - B) <= tol) {
                    found = true;
                    break;
                }
                if (u > B) lo = std::max(lo, x);
                else hi = std::min(hi, x);
                double next = sl < 0.0 ? x + (u - B) / -sl : (u > B ? 2.0 * x + 1.0 : 0.5 * (lo + x));
                if (!(next > lo && next < hi)) next = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * lo + 1.0;
                if (next == x) {
                    found = true;
                    break;
                }
                x = next;
            }
            nu = found ? x : rootBySorting(n, B, usedAt);
            rowNu = nu;
        }
        const auto all = static_cast<Eigen::Index>(len);
        Eigen::Map<Eigen::ArrayXd>(m_nb.data(), all) =
            (Eigen::Map<const Eigen::ArrayXd>(m_pAll.data(), all) -
             (nu * ia2) * Eigen::Map<const Eigen::ArrayXd>(m_cInvX2.data() + k0, all))
                .max(0.0)
                .min(1.0);
        const double ay = a * y;
        double f = 0.0, q = 0.0, moved = 0.0;
        for (std::size_t t = 0; t < len; ++t) {
            const double nb = m_nb[t];
            moved = std::max(moved, std::abs(nb - beta[t]));
            double& wj = m_w(col[t]);
            wj -= ay * val[t] * (nb - beta[t]);
            beta[t] = nb;
            const double xt = val[t] * (1.0 - nb);
            f += wj * xt;
            q += xt * xt;
        }
        fOut = f;
        qOut = q;
        return moved;
    }

    /// The exact root of used(nu) = B over the sorted breakpoints (where a beta leaves 1 or
    /// reaches 0), then interpolation on the linear piece: the fallback of the Newton search.
    template <class UsedAt>
    double rootBySorting(std::size_t n, double B, const UsedAt& usedAt) {
        m_bp.clear();
        for (std::size_t t = 0; t < n; ++t) {
            if (m_q[t] == 0.0) continue;
            const double leave1 = (m_p[t] - 1.0) / m_q[t];
            const double reach0 = m_p[t] / m_q[t];
            if (leave1 > 0.0) m_bp.push_back(leave1);
            if (reach0 > 0.0) m_bp.push_back(reach0);
        }
        std::sort(m_bp.begin(), m_bp.end());
        // used(largest breakpoint) = 0 <= B: find the first breakpoint within budget.
        std::size_t lo = 0, hi = m_bp.size();
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (usedAt(m_bp[mid], nullptr) <= B) hi = mid;
            else lo = mid + 1;
        }
        const double right = m_bp[std::min(lo, m_bp.size() - 1)];
        const double left = lo == 0 ? 0.0 : m_bp[lo - 1];
        const double sl = usedAt(left, nullptr), sr = usedAt(right, nullptr);
        return sl > sr ? left + (sl - B) * (right - left) / (sl - sr) : right;
    }

    /// liblinear's clipped Newton step on alpha_i with x~_i = x_i o (1 - beta_i), given the row's
    /// f = w.x~_i and q = ||x~_i||^2 without the bias. Returns true when alpha_i stays 0 with a
    /// negative gradient (inactive row).
    bool updateAlpha(int i, double f, double q) {
        const int* col = m_o.columns();
        const float* val = m_o.values();
        const double y = m_o.label(i);
        if (m_o.hasBias()) {
            f += m_w(m_o.features());
            q += 1.0;
        }
        double& a = m_alpha[static_cast<std::size_t>(i)];
        const double G = 1.0 - y * f;
        const double na = q > 0.0 ? std::clamp(a + G / q, 0.0, m_C) : (G > 0.0 ? m_C : 0.0);
        const double d = (na - a) * y;
        if (d == 0.0) return na == 0.0 && G < 0.0;
        for (long k = m_o.rowBegin(i); k < m_o.rowEnd(i); ++k)
            m_w(col[k]) += d * val[k] * (1.0 - m_beta[static_cast<std::size_t>(k)]);
        if (m_o.hasBias()) m_w(m_o.features()) += d;
        a = na;
        return false;
    }

    const WorstCaseHingeOracle& m_o;
    double m_C;
    std::vector<double> m_alpha, m_beta;
    Eigen::VectorXd m_w;
    // Scratch.
    std::vector<double> m_pAll, m_p, m_q, m_cq, m_c, m_nb, m_bp;   // row scratch (see updateBeta)
    // Per stored non-zero k (CSR order), fixed: 1 / x_k and c_k / x_k^2 (0 for a stored zero),
    // and c_k, the cost of its feature.
    std::vector<double> m_invX, m_cInvX2, m_cost;
    double m_largest = 0.0;
    std::vector<double> m_nu;        // per row: the budget multiplier of its last beta step
    std::vector<std::pair<std::int64_t, double>> m_deleted;
    std::vector<double> m_tryAlpha = std::vector<double>(m_alpha.size()), m_bestAlpha;
    Eigen::VectorXd m_tryW, m_bestW, m_u;
    std::vector<int> m_moved;   // extrapolate: rows whose alpha moved in the epoch
};

}  // namespace

FdropDualResult solveFdropDual(const WorstCaseHingeOracle& oracle, const FdropDualParams& p, const RunControl& rc) {
    p.validate();
    FdropDualResult res;
    res.w = Eigen::VectorXd::Zero(oracle.dimension());
    res.objective = std::numeric_limits<double>::infinity();
    res.dualObjective = -std::numeric_limits<double>::infinity();
    if (oracle.rows() == 0) throw std::invalid_argument("FDROP: no rows");

    DualState state(oracle, p.C);
    if (p.start && !p.start->empty()) state.warmStart(*p.start);
    // Every return hands back the final dual point as a start for a neighbouring problem.
    auto keepEnd = [&] {
        res.end.C = p.C;
        res.end.alpha = state.alpha();
        res.end.beta = state.beta();
    };
    std::vector<int> order(static_cast<std::size_t>(oracle.rows()));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(p.seed);
    // Shrinking (as liblinear's, simplified): a row that ends a visit settled at a bound (inactive
    // at alpha_i = 0, or at alpha_i = C with an unchanged beta_i; DualState::visit) is skipped for
    // 1, 2, 4, ... up to 16 epochs while it stays settled. (Rows at C: SpamAssassin K = 10 1.9 ->
    // 1.55 s with the same 448 epochs, bench_fdrop issue30.) It only reorders the coordinate
    // steps: the gap below is always computed over every row, so the certificate is unchanged.
    std::vector<long> skipUntil(order.size(), 0);
    std::vector<int> streak(order.size(), 0);
    std::vector<double> prevAlpha;
    double lookedAtDual = -std::numeric_limits<double>::infinity();   // D at the last look at J
    Eigen::VectorXd avgW = Eigen::VectorXd::Zero(oracle.dimension());
    std::vector<double> margins, scratch;
    constexpr double kAvgEta = 15.0;
    for (long epoch = 1; epoch <= p.maxEpochs; ++epoch) {
        rng.shuffle(order);
        prevAlpha = state.alpha();
        for (const int i : order) {
            const auto k = static_cast<std::size_t>(i);
            if (skipUntil[k] >= epoch) continue;
            if (state.visit(i)) {
                streak[k] = std::min(streak[k] + 1, 4);
                skipUntil[k] = epoch + (1L << streak[k]) - 1;
            } else {
                streak[k] = 0;
            }
        }
        res.epochs = epoch;
        // Polynomial-decay average of the iterates (Shamir & Zhang, ICML 2013), a second primal
        // candidate: w_avg += (eta + 1) / (epoch + eta) (w - w_avg), with eta = 15 a window of about
        // the last 1/16 of the epochs. The dual's w wobbles around w* along the many directions
        // where the worst-case hinge has kinks (rows on their margin, tied deletion profits);
        // averaging cancels part of that, so J(w_avg) is often well below J(w) in slow tails
        // (SpamAssassin K = 10: 528 instead of 752 epochs to the relative gap 1e-4).
        avgW += ((kAvgEta + 1.0) / (static_cast<double>(epoch) + kAvgEta)) * (state.w() - avgW);

        // The primal J (one adversary call per row) at two candidates: the coordinate-ascent
        // iterate, before the extrapolation below (that one raises D, but its w is a poor primal
        // point: on MNIST K = 50 its J is often twice the optimum while the iterate's is within
        // 1%), and the average above. J costs about as much as an epoch, so it is evaluated
        //  - on a schedule: epochs 1, 2, 4, 8, ... and every max(4, epoch / 16)-th epoch, so
        //    that the best J keeps up with the iterate at a bounded cost;
        //  - when the run may stop: the best J is within 4 tol of D and D has gained a quarter
        //    of the remaining gap since the last look (often when D moves fast, rarely in slow
        //    tails); then only the iterate, and only if its J could certify (J(w) >= J_beta(w)).
        // Cheaper bounds come first: J(w) >= J_beta(w), the objective with the dual's own
        // (feasible, not worst) deletions, for the iterate; J(v) >= L(v, alpha, beta) = D +
        // 1/2 ||v - w||^2 (the Lagrangian, below J for any feasible dual point) for the average.
        // A candidate that cannot beat the best J is skipped. The average is only looked at on the
        // schedule and when the iterate did not give a new best J: it pays off in long tails, not
        // in fast runs (MNIST K = 50: 35 epochs), where the iterate improves at every look and
        // extra J evaluations would only cost.
        // (Skipping the iterate while the average wins saves a little in tails but cost MNIST
        // K = 50 five epochs: early wins of the average are no guide.) Any dual value
        // certifies the best w seen, so skipping J never weakens the result.
        {
            const double tolNow = p.relativeEpsilon ? p.epsilon * std::abs(res.objective) : p.epsilon;
            const double running = state.dual();
            const double D = std::max(res.dualObjective, running);
            const bool scheduled = (epoch & (epoch - 1)) == 0 || epoch % std::max(4L, epoch / 16) == 0 ||
                                   epoch == p.maxEpochs || rc.cancelled();
            const double gapNow = res.objective - D;
            const bool mayStop = gapNow < 4.0 * tolNow && D - lookedAtDual >= 0.25 * gapNow;
            if (scheduled || mayStop) {
                lookedAtDual = D;
                const Eigen::VectorXd& w = state.w();
                bool iterateImproved = false;
                {
                    state.ownMargins(margins);
                    const double lower = bestScaling(margins, 0.5 * w.squaredNorm(), p.C, scratch).J;
                    if (lower < res.objective && (scheduled || lower - D < tolNow)) {
                        worstCaseMargins(oracle, w, margins);
                        const Scaled c = bestScaling(margins, 0.5 * w.squaredNorm(), p.C, scratch);
                        if (c.J < res.objective) {
                            iterateImproved = true;
                            res.objective = c.J;
                            res.w = c.s * w;
                        }
                    }
                }
                // min_s L(s v, alpha, beta) = D + 1/2 min_s ||s v - w||^2 bounds J(s v) for every s.
                const double aw = avgW.dot(w), aa = avgW.squaredNorm();
                const double avgLower = running + 0.5 * std::max(0.0, w.squaredNorm() - (aa > 0.0 ? aw * aw / aa : 0.0));
                if (scheduled && !iterateImproved && epoch > 1 && avgLower < res.objective) {
                    worstCaseMargins(oracle, avgW, margins);
                    const Scaled c = bestScaling(margins, 0.5 * aa, p.C, scratch);
                    if (c.J < res.objective) {
                        res.objective = c.J;
                        res.w = c.s * avgW;
                    }
                }
            }
        }
        state.extrapolate(prevAlpha);

        // D(alpha, beta) from the running w. Only values with w recomputed from (alpha, beta)
        // (no rounding drift) enter the certificate: that is done every 8th epoch, and whenever
        // the running value is within the tolerance of the best J.
        const double running = state.dual();
        const double tol = p.relativeEpsilon ? p.epsilon * std::abs(res.objective) : p.epsilon;
        if (epoch % 8 == 0 || res.objective - running < tol || epoch == p.maxEpochs || rc.cancelled())
            res.dualObjective = std::max(res.dualObjective, state.refresh());
        res.gap = res.objective - res.dualObjective;
        // Weak duality makes the gap >= 0; J and D are each exact to rounding, so a gap of
        // rounding size below 0 means optimal to machine precision (a larger one would be a bug
        // and stays visible).
        if (res.gap < 0.0 && res.gap > -1e-12 * std::max(1.0, std::abs(res.objective))) res.gap = 0.0;
        rc.report(-1.0, epoch, fmt("J %.6g D %.6g gap %.3g", res.objective, std::max(res.dualObjective, running),
                                   res.objective - std::max(res.dualObjective, running)));
        if (res.gap < tol) {
            res.status = Status::Converged;
            res.message = fmt("gap %.3g < tol %.3g after %.0f epochs", res.gap, tol, static_cast<double>(epoch));
            keepEnd();
            return res;
        }
        if (rc.cancelled()) {
            res.status = Status::Cancelled;
            res.message = fmt("cancelled at epoch %.0f, gap %.3g (J %.6g)", static_cast<double>(epoch), res.gap, res.objective);
            keepEnd();
            return res;
        }
        res.status = Status::MaxIterations;
        res.message = fmt("stopped at maxEpochs %.0f, gap %.3g (tol %.3g)", static_cast<double>(epoch), res.gap, tol);
        if (state.largestValue() > 10.0)   // the usual reason: coordinate ascent crawls on unscaled features
            res.message += fmt("; features reach |x| = %.4g: scaling them (e.g. to [-1, 1]) usually makes this "
                               "converge", state.largestValue(), 0.0, 0.0);
    }
    keepEnd();
    return res;
}

}  // namespace fdlab
