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

void linearScores(const LinearModel& m, const RowView& x, std::span<const int> deleted, std::span<double> out) {
    for (Eigen::Index k = 0; k < m.W.cols(); ++k) {
        const double* w = m.W.col(k).data();
        double s = m.b(k);
        std::size_t d = 0;   // the first deleted feature not below j
        x.forEachNonZero([&](int j, float v) {
            while (d < deleted.size() && deleted[d] < j) ++d;
            if (d < deleted.size() && deleted[d] == j) return;
            s += w[j] * static_cast<double>(v);
        });
        out[static_cast<std::size_t>(k)] = s;
    }
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
