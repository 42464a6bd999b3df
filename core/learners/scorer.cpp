#include "core/learners/scorer.h"

#include <algorithm>
#include <limits>

namespace fdlab {

void Scorer::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double>,
                              std::span<double> out) const {
    std::vector<float> copy(x.begin(), x.end());
    copy[static_cast<std::size_t>(j)] = value;
    scores(copy, out);
}

double Scorer::marginOf(std::span<const double> s, int label) {
    if (s.size() == 1) return (label == 1 ? 1.0 : -1.0) * s[0];
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < s.size(); ++k)
        if (static_cast<int>(k) != label) best = std::max(best, s[k]);
    return s[static_cast<std::size_t>(label)] - best;
}

void Scorer::scoresRow(const RowView& x, std::span<double> out) const {
    if (!x.isSparse()) {
        scores({x.values, static_cast<std::size_t>(x.n)}, out);
        return;
    }
    thread_local std::vector<float> dense;
    dense.resize(static_cast<std::size_t>(x.n));
    x.toDense(dense);
    scores(dense, out);
}

int Scorer::predict(const RowView& x) const {
    std::vector<double> s(static_cast<std::size_t>(outputs()));
    scoresRow(x, s);
    if (s.size() == 1) return s[0] > 0.0 ? 1 : 0;
    return static_cast<int>(std::max_element(s.begin(), s.end()) - s.begin());
}

double Scorer::margin(const RowView& x, int label) const {
    std::vector<double> s(static_cast<std::size_t>(outputs()));
    scoresRow(x, s);
    return marginOf(s, label);
}

namespace {

// f(j, x_j) for the non-zeros of x in increasing j, except the features in `deleted` (increasing).
template <class F>
void forEachKept(const RowView& x, std::span<const int> deleted, F&& f) {
    std::size_t d = 0;   // the first deleted feature not below j
    x.forEachNonZero([&](int j, float v) {
        while (d < deleted.size() && deleted[d] < j) ++d;
        if (d < deleted.size() && deleted[d] == j) return;
        f(j, static_cast<double>(v));
    });
}

}  // namespace

// Each s_k is summed in the one order (b_k, then the kept terms by increasing j); the classes are
// summed side by side in one pass over the non-zeros, so their additions overlap instead of
// waiting on one another (same operations per class, so the same bits as one class at a time).
void linearScores(const LinearModel& m, const RowView& x, std::span<const int> deleted, std::span<double> out) {
    const double* W = m.W.data();   // column-major: W(j, k) = W[j + k * rows]
    const auto rows = static_cast<std::size_t>(m.W.rows()), outs = static_cast<std::size_t>(m.W.cols());
    if (outs == 1) {   // a local sum: one chain of additions, kept in a register
        double s = m.b(0);
        forEachKept(x, deleted, [&](int j, double v) { s += W[j] * v; });
        out[0] = s;
        return;
    }
    for (std::size_t k = 0; k < outs; ++k) out[k] = m.b(static_cast<Eigen::Index>(k));
    forEachKept(x, deleted, [&](int j, double v) {
        for (std::size_t k = 0; k < outs; ++k) out[k] += W[static_cast<std::size_t>(j) + k * rows] * v;
    });
}

void LinearScorer::scores(std::span<const float> x, std::span<double> out) const {
    linearScores(m_model, RowView::dense(x), {}, out);
}

void LinearScorer::scoresRow(const RowView& x, std::span<double> out) const { linearScores(m_model, x, {}, out); }

void LinearScorer::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                                    std::span<double> out) const {
    const double delta = static_cast<double>(value) - static_cast<double>(x[static_cast<std::size_t>(j)]);
    for (Eigen::Index k = 0; k < m_model.W.cols(); ++k)
        out[static_cast<std::size_t>(k)] = current[static_cast<std::size_t>(k)] + m_model.W(j, k) * delta;
}

}  // namespace fdlab
