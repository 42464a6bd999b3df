#pragma once
// The model-agnostic view of a classifier that attacks and evaluation use: K class scores for
// one instance, the prediction, and the margin of the true class. Linear models, trees, kNN,
// nets and ensembles all implement it.
//
// Margin convention: binary (K = 1 output): margin = y * s(x) with y in {-1,+1} from label
// (class 1 -> +1). Multi-class: margin = s_label(x) - max_{k != label} s_k(x). The instance is
// misclassified when margin <= 0 (binary: prediction +1 iff s > 0, so s = 0 counts as class 0;
// margin <= 0 is the error test used throughout, matching LinearModel::predict up to ties).

#include "core/learners/linear_model.h"

#include <span>
#include <vector>

namespace fdlab {

class Scorer {
public:
    virtual ~Scorer() = default;
    /// Number of score outputs (1 for binary models).
    virtual int outputs() const = 0;
    /// Number of input features expected.
    virtual int features() const = 0;
    /// Scores of one instance x (length features()) into out (length outputs()).
    virtual void scores(std::span<const float> x, std::span<double> out) const = 0;
    /// Scores of one dense or sparse row. The default hands dense rows to scores() and
    /// densifies a sparse row into a per-thread buffer first (trees, kNN, nets, kernels);
    /// linear models override it and touch only the stored entries.
    virtual void scoresRow(const RowView& x, std::span<double> out) const;
    /// Scores of x with feature j set to `value`, given the scores `current` of x. The default
    /// recomputes; models that can update incrementally (linear) override it.
    virtual void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                                  std::span<double> out) const;

    int predict(const RowView& x) const;
    double margin(const RowView& x, int label) const;
    int predict(std::span<const float> x) const { return predict(RowView::dense(x)); }
    double margin(std::span<const float> x, int label) const { return margin(RowView::dense(x), label); }
    static double marginOf(std::span<const double> s, int label);
};

/// The one summation order of linear scores: s_k = b_k, then + W_jk x_j over the non-zeros of x
/// in increasing j, leaving out the features listed in `deleted` (increasing). LinearScorer scores
/// every row with it, and the attacks' fast curves (ThreatInfo::linearLevels) score their
/// deletions with it, so that a curve equals re-scoring the attacked rows bit for bit (also at
/// margins near 0).
void linearScores(const LinearModel& m, const RowView& x, std::span<const int> deleted, std::span<double> out);

/// A LinearModel seen as a Scorer (incremental updates in O(K) per changed feature).
class LinearScorer : public Scorer {
public:
    explicit LinearScorer(const LinearModel& m) : m_model(m) {}
    int outputs() const override { return static_cast<int>(m_model.W.cols()); }
    int features() const override { return m_model.features(); }
    void scores(std::span<const float> x, std::span<double> out) const override;
    void scoresRow(const RowView& x, std::span<double> out) const override;
    void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                          std::span<double> out) const override;
    const LinearModel& model() const { return m_model; }

private:
    const LinearModel& m_model;
};

/// Row i of a dense set as a span (std::invalid_argument for a sparse set: use d.row(i)).
inline std::span<const float> rowSpan(const Dataset& d, int i) {
    return {d.denseOnly("a dense row view").row(i).data(), static_cast<std::size_t>(d.features())};
}

}  // namespace fdlab
