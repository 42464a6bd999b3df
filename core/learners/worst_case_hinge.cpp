#include "core/learners/worst_case_hinge.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace fdlab {

WorstCaseHingeOracle::WorstCaseHingeOracle(const Dataset& d, int K, bool bias) : m_bias(bias), m_K(K) {
    if (K < 0) throw std::invalid_argument("WorstCaseHingeOracle: K must be >= 0, got " + std::to_string(K));
    build(d);
}

WorstCaseHingeOracle::WorstCaseHingeOracle(const Dataset& d, std::vector<double> v, double N, bool bias)
    : m_bias(bias), m_valueBudget(true), m_v(std::move(v)), m_N(N) {
    if (static_cast<int>(m_v.size()) != d.features())
        throw std::invalid_argument("WorstCaseHingeOracle: " + std::to_string(m_v.size()) + " importance values for " +
                                    std::to_string(d.features()) + " features");
    for (std::size_t j = 0; j < m_v.size(); ++j)
        if (!(m_v[j] > 0.0) || !std::isfinite(m_v[j]))
            throw std::invalid_argument("WorstCaseHingeOracle: importance v[" + std::to_string(j) +
                                        "] must be finite and > 0");
    if (!(N >= 0.0) || !std::isfinite(N))
        throw std::invalid_argument("WorstCaseHingeOracle: budget N must be finite and >= 0");
    build(d);
}

void WorstCaseHingeOracle::build(const Dataset& d) {
    if (!d.isBinary())
        throw std::invalid_argument("WorstCaseHingeOracle: dataset '" + d.name + "' has " +
                                    std::to_string(d.numClasses()) + " classes, a binary dataset is required");
    m_m = d.rows();
    m_n = d.features();
    m_y.resize(static_cast<std::size_t>(m_m));
    for (int i = 0; i < m_m; ++i) m_y[static_cast<std::size_t>(i)] = d.y(i);
    const SparseRows* csr = d.sparse ? &*d.sparse : nullptr;
    if (!csr) {
        // Dense data: its non-zeros once, in exactly reserved arrays.
        auto own = std::make_shared<SparseRows>();
        own->cols = m_n;
        std::size_t nnz = 0;
        for (int i = 0; i < m_m; ++i) nnz += static_cast<std::size_t>(d.nonZeros(i));
        own->colIndex.reserve(nnz);
        own->values.reserve(nnz);
        own->rowStart.reserve(static_cast<std::size_t>(m_m) + 1);
        for (int i = 0; i < m_m; ++i) {
            d.forEachNonZero(i, [&](int j, float x) {
                own->colIndex.push_back(j);
                own->values.push_back(x);
            });
            own->rowStart.push_back(static_cast<std::int64_t>(own->colIndex.size()));
        }
        csr = own.get();
        m_denseAsCsr = std::move(own);
    }
    m_rowStart = csr->rowStart.data();
    m_col = csr->colIndex.data();
    m_val = csr->values.data();
}

double WorstCaseHingeOracle::damage(int i, const Eigen::VectorXd& w,
                                    std::vector<std::pair<std::int64_t, double>>* deleted) const {
    if (!m_valueBudget && m_K == 0) return 0.0;
    if (m_valueBudget && m_N <= 0.0) return 0.0;
    const double y = m_y[static_cast<std::size_t>(i)];
    const long k0 = m_rowStart[i], k1 = m_rowStart[i + 1];
    auto& buf = m_buf;
    if (buf.size() < static_cast<std::size_t>(k1 - k0)) buf.resize(static_cast<std::size_t>(k1 - k0));
    // The positive profits, collected without a branch (each is written, and kept by advancing).
    std::size_t count = 0;
    for (long k = k0; k < k1; ++k) {
        const double p = y * w(m_col[k]) * m_val[k];
        buf[count] = {p, k};   // CSR position: x and j both follow
        count += p > 0.0 ? 1 : 0;
    }
    buf.resize(count);
    double s = 0.0;
    if (!m_valueBudget) {
        // Count budget: the K largest positive profits.
        const auto K = static_cast<std::size_t>(m_K);
        if (buf.size() > K)
            std::nth_element(buf.begin(), buf.begin() + static_cast<long>(K), buf.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
        const std::size_t take = std::min(K, buf.size());
        for (std::size_t k = 0; k < take; ++k) {
            s += buf[k].first;
            if (deleted) deleted->emplace_back(buf[k].second, 1.0);
        }
        return s;
    }
    // Value budget: fractional knapsack, by ratio p_j / v_j.
    double total = 0.0;
    for (const auto& [p, k] : buf) total += m_v[static_cast<std::size_t>(m_col[k])];
    if (total <= m_N) {
        for (const auto& [p, k] : buf) {
            s += p;
            if (deleted) deleted->emplace_back(k, 1.0);
        }
        return s;
    }
    for (auto& e : buf) e.first /= m_v[static_cast<std::size_t>(m_col[e.second])];   // ratio
    std::sort(buf.begin(), buf.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    double left = m_N;
    for (const auto& [ratio, k] : buf) {
        const double v = m_v[static_cast<std::size_t>(m_col[k])];
        if (v <= left) {
            left -= v;
            s += ratio * v;
            if (deleted) deleted->emplace_back(k, 1.0);
        } else {
            if (left > 0.0) {
                s += ratio * left;
                if (deleted) deleted->emplace_back(k, left / v);
            }
            break;
        }
    }
    return s;
}

double WorstCaseHingeOracle::loss(int i, const Eigen::VectorXd& w) const { return std::max(0.0, hingeArgument(i, w)); }

double WorstCaseHingeOracle::hingeArgument(int i, const Eigen::VectorXd& w) const {
    if (w.size() != dimension())
        throw std::invalid_argument("WorstCaseHingeOracle: parameter vector has size " + std::to_string(w.size()) +
                                    ", expected " + std::to_string(dimension()));
    const double y = m_y[static_cast<std::size_t>(i)];
    double f = m_bias ? w(m_n) : 0.0;
    const long k0 = m_rowStart[i], k1 = m_rowStart[i + 1];
    if (m_valueBudget || m_K == 0) {
        for (long k = k0; k < k1; ++k) f += w(m_col[k]) * m_val[k];
        return 1.0 - y * f + damage(i, w, nullptr);
    }
    // Count budget (the primal J of the dual solver is a sum of these): w.x_i and the positive
    // profits y w_j x_ij = y (w_j x_ij) in one pass, and only the profits' values are selected (not
    // which features): half the data nth_element moves in damage(), which also reports positions.
    auto& buf = m_profits;
    if (buf.size() < static_cast<std::size_t>(k1 - k0)) buf.resize(static_cast<std::size_t>(k1 - k0));
    std::size_t count = 0;
    for (long k = k0; k < k1; ++k) {
        const double wx = w(m_col[k]) * m_val[k];
        f += wx;
        const double p = y * wx;
        buf[count] = p;
        count += p > 0.0 ? 1 : 0;
    }
    const auto K = static_cast<std::size_t>(m_K);
    if (count > K)
        std::nth_element(buf.begin(), buf.begin() + static_cast<long>(K), buf.begin() + static_cast<long>(count),
                         std::greater<>());
    double s = 0.0;
    for (std::size_t k = 0, take = std::min(K, count); k < take; ++k) s += buf[k];
    return 1.0 - y * f + s;
}

double WorstCaseHingeOracle::risk(const Eigen::VectorXd& w) const {
    double R = 0.0;
    for (int i = 0; i < m_m; ++i) R += loss(i, w);
    return R;
}

double WorstCaseHingeOracle::evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& g) {
    if (w.size() != dimension())
        throw std::invalid_argument("WorstCaseHingeOracle: parameter vector has size " + std::to_string(w.size()) +
                                    ", expected " + std::to_string(dimension()));
    m_hasLine = false;
    return evaluateWith(w, nullptr, g);
}

double WorstCaseHingeOracle::evaluateOnLine(double s, const Eigen::VectorXd& w, Eigen::VectorXd& g) {
    if (!m_hasLine || w.size() != dimension()) return evaluate(w, g);
    m_fTmp.resize(static_cast<std::size_t>(m_m));
    for (std::size_t i = 0; i < m_fTmp.size(); ++i) m_fTmp[i] = m_fb[i] + s * m_fd[i];
    return evaluateWith(w, m_fTmp.data(), g);
}

double WorstCaseHingeOracle::evaluateWith(const Eigen::VectorXd& w, const double* fPre, Eigen::VectorXd& g) {
    g.setZero(dimension());
    double R = 0.0;
    const double b = m_bias ? w(m_n) : 0.0;
    std::vector<std::pair<std::int64_t, double>> deleted;
    const double* wd = w.data();
    double* gd = g.data();
    for (int i = 0; i < m_m; ++i) {
        const long k0 = m_rowStart[i], k1 = m_rowStart[i + 1];
        const int* col = m_col;
        const float* val = m_val;
        double f = b;
        if (fPre) f = fPre[i];
        else
            for (long k = k0; k < k1; ++k) f += wd[col[k]] * val[k];
        const double y = m_y[static_cast<std::size_t>(i)];
        const double base = 1.0 - y * f;
        deleted.clear();
        const double s = damage(i, w, &deleted);
        const double h = base + s;
        if (h <= 0.0) continue;
        R += h;
        // -y x o (1 - alpha): the full row, then give back the deleted part.
        for (long k = k0; k < k1; ++k) gd[col[k]] -= y * val[k];
        if (m_bias) gd[m_n] -= y;
        for (const auto& [k, alpha] : deleted) gd[col[k]] += y * alpha * val[k];
    }
    return R;
}

void WorstCaseHingeOracle::outputs(const Eigen::VectorXd& w, std::vector<double>& f) const {
    f.resize(static_cast<std::size_t>(m_m));
    const double b = m_bias ? w(m_n) : 0.0;
    const double* wd = w.data();
    for (int i = 0; i < m_m; ++i) {
        double s = b;
        for (long k = m_rowStart[i]; k < m_rowStart[i + 1]; ++k)
            s += wd[m_col[k]] * m_val[k];
        f[static_cast<std::size_t>(i)] = s;
    }
}

bool WorstCaseHingeOracle::lineSearch(const Eigen::VectorXd& wb, const Eigen::VectorXd& d, double C, double& t,
                                      double& value) {
    const bool plainHinge = m_valueBudget ? m_N <= 0.0 : m_K == 0;
    if (!plainHinge || wb.size() != dimension() || d.size() != dimension()) return false;
    // phi(t) = 1/2||wb||^2 + t wb.d + t^2/2 ||d||^2 + C sum_i max(0, c_i - t e_i),
    // c_i = 1 - y_i f_i(wb), e_i = y_i f_i(d), f_i(w) = w.x_i + b is linear in (w, b).
    std::vector<double>& fb = m_fb;
    std::vector<double>& fd = m_fd;
    if (m_wBest.size() == wb.size() && m_wBest == wb) fb = m_fBest;   // the previous minimiser
    else outputs(wb, fb);
    outputs(d, fd);
    m_hasLine = false;
    const double A = wb.dot(d), B = d.squaredNorm(), w2 = wb.squaredNorm();
    if (!(B > 0.0)) {
        t = 0.0;
        value = 0.5 * w2;
        for (int i = 0; i < m_m; ++i) value += C * std::max(0.0, 1.0 - m_y[static_cast<std::size_t>(i)] * fb[static_cast<std::size_t>(i)]);
        return true;
    }
    // Slope at 0+: rows active just after 0 contribute -C e_i; each breakpoint t_i = c_i / e_i > 0
    // raises the slope by C |e_i| (a row with e_i > 0 leaves, one with e_i < 0 enters).
    double S = 0.0;   // sum of e_i over rows active on the current interval
    std::vector<std::pair<double, double>> bp;   // (t_i, |e_i|)
    for (int i = 0; i < m_m; ++i) {
        const double y = m_y[static_cast<std::size_t>(i)];
        const double c = 1.0 - y * fb[static_cast<std::size_t>(i)], e = y * fd[static_cast<std::size_t>(i)];
        if (e == 0.0) continue;
        const bool activeAt0 = c > 0.0 || (c == 0.0 && e < 0.0);
        if (activeAt0) S += e;
        const double ti = c / e;
        if (ti > 0.0) bp.emplace_back(ti, std::abs(e));
    }
    std::sort(bp.begin(), bp.end());
    double tt = 0.0;
    bool found = false;
    for (const auto& [ti, ae] : bp) {
        // On [tt, ti] the slope is A + B t - C S: root inside?
        if (A + B * ti - C * S >= 0.0) {
            tt = std::max(tt, (C * S - A) / B);
            found = true;
            break;
        }
        S -= ae;   // slope jumps up by C |e_i| at t_i
        tt = ti;
    }
    if (!found) tt = std::max(tt, (C * S - A) / B);
    t = std::max(0.0, tt);
    value = 0.5 * (w2 + 2.0 * t * A + t * t * B);
    double R = 0.0;
    for (int i = 0; i < m_m; ++i)
        R += std::max(0.0, 1.0 - m_y[static_cast<std::size_t>(i)] * (fb[static_cast<std::size_t>(i)] + t * fd[static_cast<std::size_t>(i)]));
    value += C * R;
    // Cache the minimiser, keyed by the same expression the bundle method uses for it.
    m_wBest = wb + t * d;
    m_fBest.resize(fb.size());
    for (std::size_t i = 0; i < fb.size(); ++i) m_fBest[i] = fb[i] + t * fd[i];
    m_hasLine = true;
    return true;
}

}  // namespace fdlab
