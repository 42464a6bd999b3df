#include "core/solvers/bundle_method.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

namespace fdlab {

void BundleParams::validate() const {
    if (!(C > 0.0) || !std::isfinite(C)) throw std::invalid_argument("BundleParams.C must be finite and > 0");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw std::invalid_argument("BundleParams.epsilon must be finite and > 0");
    if (maxIterations < 1) throw std::invalid_argument("BundleParams.maxIterations must be >= 1");
    if (maxInactiveAge < 0) throw std::invalid_argument("BundleParams.maxInactiveAge must be >= 0");
    if (!(innerFraction > 0.0) || !(innerFraction <= 1.0))
        throw std::invalid_argument("BundleParams.innerFraction must be in (0, 1]");
}

namespace {

/// The cutting-plane model and its simplex dual, solved by SMO.
///   minimise q(beta) = 1/2 beta' H beta - c' beta,  H = C^2 A'A,  c = C b,  beta in simplex.
/// D(beta) = -q(beta) is the lower bound.
class PlaneModel {
public:
    PlaneModel(double C, long dim) : m_C(C), m_dim(dim) {}

    int size() const { return static_cast<int>(m_b.size()); }

    void add(Eigen::VectorXd a, double b) {
        const int t = size();
        // Grow the Gram matrix H by one row/column.
        Eigen::MatrixXd H(t + 1, t + 1);
        if (t > 0) H.topLeftCorner(t, t) = m_H;
        for (int i = 0; i < t; ++i) {
            const double v = m_C * m_C * m_a[static_cast<std::size_t>(i)].dot(a);
            H(i, t) = v;
            H(t, i) = v;
        }
        H(t, t) = m_C * m_C * a.squaredNorm();
        m_H.swap(H);
        m_a.push_back(std::move(a));
        m_b.push_back(b);
        m_beta.push_back(t == 0 ? 1.0 : 0.0);
        m_age.push_back(0);
        // Gradient of the new coordinate; the others are unchanged because beta_t = 0 (or t == 0).
        m_g.resize(static_cast<std::size_t>(t + 1));
        if (t == 0) {
            m_g[0] = m_H(0, 0) - m_C * b;
        } else {
            double s = 0;
            for (int i = 0; i < t; ++i) s += m_H(t, i) * m_beta[static_cast<std::size_t>(i)];
            m_g[static_cast<std::size_t>(t)] = s - m_C * b;
        }
    }

    /// SMO until the inner duality gap bound max_{beta>0} g - min g is below tol.
    void solve(double tol) {
        const int t = size();
        if (t <= 1) return;
        // Recompute the gradient exactly: incremental updates drift over thousands of steps.
        for (int k = 0; k < t; ++k) {
            double s = -m_C * m_b[static_cast<std::size_t>(k)];
            for (int i = 0; i < t; ++i)
                if (m_beta[static_cast<std::size_t>(i)] != 0.0) s += m_H(k, i) * m_beta[static_cast<std::size_t>(i)];
            m_g[static_cast<std::size_t>(k)] = s;
        }
        const long maxSteps = 200L * t + 10000;
        for (long step = 0; step < maxSteps; ++step) {
            // i: coordinate to decrease (largest gradient among the support).
            int i = -1;
            double gi = -std::numeric_limits<double>::infinity();
            double gmin = std::numeric_limits<double>::infinity();
            for (int k = 0; k < t; ++k) {
                const double g = m_g[static_cast<std::size_t>(k)];
                if (m_beta[static_cast<std::size_t>(k)] > 0.0 && g > gi) {
                    gi = g;
                    i = k;
                }
                gmin = std::min(gmin, g);
            }
            if (i < 0 || gi - gmin <= tol) break;
            // j: second-order choice, the largest decrease of q moving mass from i to j.
            int j = -1;
            double bestGain = 0.0;
            const double hii = m_H(i, i);
            for (int k = 0; k < t; ++k) {
                const double diff = gi - m_g[static_cast<std::size_t>(k)];
                if (diff <= 0.0) continue;
                double curv = hii + m_H(k, k) - 2.0 * m_H(i, k);
                if (curv <= 1e-12 * (hii + m_H(k, k) + 1e-300)) curv = 1e-12 * (hii + m_H(k, k) + 1e-300);
                const double gain = diff * diff / curv;
                if (gain > bestGain) {
                    bestGain = gain;
                    j = k;
                }
            }
            if (j < 0) break;
            const double diff = gi - m_g[static_cast<std::size_t>(j)];
            const double curv = hii + m_H(j, j) - 2.0 * m_H(i, j);
            const double bi = m_beta[static_cast<std::size_t>(i)];
            double d = curv > 0.0 ? diff / curv : bi;
            if (d >= bi) d = bi;
            if (d <= 0.0) break;
            m_beta[static_cast<std::size_t>(i)] = d == bi ? 0.0 : bi - d;
            m_beta[static_cast<std::size_t>(j)] += d;
            for (int k = 0; k < t; ++k) m_g[static_cast<std::size_t>(k)] += d * (m_H(k, j) - m_H(k, i));
        }
    }

    /// D(beta) = -q(beta) = -(1/2 beta'H beta - c'beta) = -1/2 (g + c)'beta + c'beta.
    double lowerBound() const {
        double q = 0;
        for (int k = 0; k < size(); ++k) {
            const double bk = m_beta[static_cast<std::size_t>(k)];
            if (bk == 0.0) continue;
            const double ck = m_C * m_b[static_cast<std::size_t>(k)];
            q += bk * (0.5 * (m_g[static_cast<std::size_t>(k)] + ck) - ck);
        }
        return -q;
    }

    Eigen::VectorXd primal() const {
        Eigen::VectorXd w = Eigen::VectorXd::Zero(m_dim);
        for (int k = 0; k < size(); ++k) {
            const double bk = m_beta[static_cast<std::size_t>(k)];
            if (bk != 0.0) w.noalias() -= (m_C * bk) * m_a[static_cast<std::size_t>(k)];
        }
        return w;
    }

    /// Ages the planes and drops those inactive for more than maxAge iterations (never the last one).
    void prune(int maxAge) {
        if (maxAge <= 0) return;
        std::vector<int> keep;
        for (int k = 0; k < size(); ++k) {
            auto& age = m_age[static_cast<std::size_t>(k)];
            age = m_beta[static_cast<std::size_t>(k)] > 0.0 ? 0 : age + 1;
            if (age <= maxAge || k == size() - 1) keep.push_back(k);
        }
        if (static_cast<int>(keep.size()) == size()) return;
        const int t = static_cast<int>(keep.size());
        Eigen::MatrixXd H(t, t);
        std::vector<Eigen::VectorXd> a;
        std::vector<double> b, beta, g;
        std::vector<int> age;
        for (int r = 0; r < t; ++r) {
            const auto kr = static_cast<std::size_t>(keep[static_cast<std::size_t>(r)]);
            for (int c = 0; c < t; ++c) H(r, c) = m_H(keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)]);
            a.push_back(std::move(m_a[kr]));
            b.push_back(m_b[kr]);
            beta.push_back(m_beta[kr]);   // dropped planes have beta = 0: g stays exact
            g.push_back(m_g[kr]);
            age.push_back(m_age[kr]);
        }
        m_H.swap(H);
        m_a.swap(a);
        m_b.swap(b);
        m_beta.swap(beta);
        m_g.swap(g);
        m_age.swap(age);
    }

private:
    double m_C;
    long m_dim;
    Eigen::MatrixXd m_H;
    std::vector<Eigen::VectorXd> m_a;
    std::vector<double> m_b, m_beta, m_g;
    std::vector<int> m_age;
};

std::string fmt(const char* f, double a, double b, double c) {
    char buf[128];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

}  // namespace

BundleResult minimiseBundle(CuttingPlaneOracle& oracle, const Eigen::VectorXd& w0, const BundleParams& p,
                            const RunControl& rc) {
    p.validate();
    const long dim = w0.size();
    PlaneModel model(p.C, dim);
    if (p.riskNonNegative) model.add(Eigen::VectorXd::Zero(dim), 0.0);   // R >= 0: a = 0, b = 0

    BundleResult res;
    res.objective = std::numeric_limits<double>::infinity();
    res.lowerBound = -std::numeric_limits<double>::infinity();
    Eigen::VectorXd w = w0, a(dim);
    bool useLineSearch = p.lineSearch;
    double lineParam = -1.0;   // >= 0: w = origin + lineParam * dir of the last line search
    for (long t = 1; t <= p.maxIterations; ++t) {
        // Upper bound at the current point, and its cutting plane.
        const double R = lineParam >= 0.0 ? oracle.evaluateOnLine(lineParam, w, a) : oracle.evaluate(w, a);
        if (!std::isfinite(R) || a.size() != dim || !a.allFinite()) {
            res.status = Status::Failed;
            res.message = "oracle returned a non-finite value or a subgradient of the wrong size";
            res.iterations = t;
            break;
        }
        const double J = 0.5 * w.squaredNorm() + p.C * R;
        if (J < res.objective) {
            res.objective = J;
            res.w = w;
        }
        res.iterations = t;
        model.add(a, R - a.dot(w));

        // Minimise the model: its dual on the simplex.
        const double tolOuter = p.relativeEpsilon ? p.epsilon * std::abs(res.objective) : p.epsilon;
        // Solve the inner QP only as well as the outer gap needs: to a fraction of the current
        // gap (far from the optimum a rough model minimiser is as good a next point), never
        // looser than needed to certify tolOuter.
        const double gapNow = std::isfinite(res.lowerBound) ? res.objective - res.lowerBound : res.objective;
        model.solve(std::max(p.innerFraction * std::max(tolOuter, gapNow), 1e-14 * std::abs(res.objective)));
        res.lowerBound = std::max(res.lowerBound, model.lowerBound());
        res.gap = res.objective - res.lowerBound;
        res.planes = model.size();
        rc.report(-1.0, t, fmt("J %.6g lb %.6g gap %.3g", res.objective, res.lowerBound, res.gap));

        if (res.gap < tolOuter) {
            res.status = Status::Converged;
            res.message = fmt("gap %.3g < tol %.3g after %.0f iterations", res.gap, tolOuter, static_cast<double>(t));
            return res;
        }
        if (rc.cancelled()) {
            res.status = Status::Cancelled;
            res.message = fmt("cancelled at iteration %.0f, gap %.3g (J %.6g)", static_cast<double>(t), res.gap, res.objective);
            return res;
        }
        model.prune(p.maxInactiveAge);
        const Eigen::VectorXd wc = model.primal();
        if (!useLineSearch) {
            w = wc;
        } else {
            // OCAS: move the best point to the minimiser of J on [w_b, w_c], then cut near it.
            double tStar = 0.0, phi = 0.0;
            const Eigen::VectorXd dir = wc - res.w;
            useLineSearch = oracle.lineSearch(res.w, dir, p.C, tStar, phi);
            if (!useLineSearch) {
                lineParam = -1.0;
                w = wc;
            } else {
                const Eigen::VectorXd origin = res.w;
                if (phi < res.objective) {
                    res.w = origin + tStar * dir;   // the same expression as the oracle's cache key
                    res.objective = phi;
                } else {
                    tStar = 0.0;
                }
                constexpr double mu = 0.1;
                lineParam = tStar + mu * (1.0 - tStar);   // (1-mu) w_b + mu w_c, on the line
                w = origin + lineParam * dir;
            }
        }
        res.status = Status::MaxIterations;
        res.message = fmt("stopped at maxIterations %.0f, gap %.3g (tol %.3g)", static_cast<double>(t), res.gap, tolOuter);
    }
    if (res.w.size() != dim) res.w = w0;
    return res;
}

}  // namespace fdlab
