#pragma once
// k nearest neighbours with unweighted Euclidean distance (the kNN of Sullivan et al.'s
// FeatureBoost experiments): the k training points closest to x (squared distance
// d_i(x) = sum_j (x_j - t_ij)^2, ties broken by the lower training index) vote, one vote each.
// Scores: binary s(x) = (votes_1 - votes_0) / k (an even k can tie at 0 -> class 0); multi-class
// s_k(x) = votes_k / k. "Fitting" stores the training set (no randomness, no parameters to learn).
//
// Speed on the MNIST pairs (m = 2000 training digits x n = 784 pixels):
// - scoreRows (evaluation, boosting): batched Eigen products in double,
//   D = ||q||^2 1^T + 1 ||t||^2^T - 2 Q T^T, 256 query rows at a time.
// - scores / scoresWithChange (attacks): a per-thread cache (classifier.h, InputStateCache)
//   holds the m squared distances of the last x seen (computed exactly as sum_j (x_j - t_ij)^2,
//   O(m n)). Changing coordinate j from x_j to v changes every distance by
//       (v - t_ij)^2 - (x_j - t_ij)^2,
//   read from a feature-major copy of the training set (t_.j contiguous), so scoring the change
//   costs O(m) (+ the k-selection, O(m) for small k) instead of O(m n). The greedy deletion tries
//   every feature of the same x (cache hits) and then commits one change (an O(m) update of the
//   cached distances, since x differs from the cached input in one coordinate). After 64
//   incremental updates the distances are recomputed in full to bound round-off drift.
//   scores() itself only reuses distances computed from scratch for exactly its x, so it is
//   bit-identical to a freshly loaded model's scores.
// The batched path and the cached path compute the same distances up to round-off (~1e-12
// relative); they can disagree only when two training points are that close to tied.

#include "core/learners/nonlinear/classifier.h"

#include <span>
#include <vector>

namespace fdlab {

class KnnModel : public Classifier {
public:
    /// train: m x n, labels: m class indices in [0, classNames.size()). 1 <= k <= m.
    KnnModel(int k, Dataset::Matrix train, std::vector<int> labels, std::vector<std::string> classNames);

    const char* type() const override { return "knn"; }
    nlohmann::json toJson() const override;
    void scores(std::span<const float> x, std::span<double> out) const override;
    void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                          std::span<double> out) const override;
    Eigen::MatrixXd scoreRows(const Dataset& d) const override;

    int k() const { return m_k; }
    const Dataset::Matrix& trainX() const { return m_train; }
    const std::vector<int>& trainLabels() const { return m_labels; }
    /// Indices of the k nearest training points of x, nearest first (exact distances, no cache).
    std::vector<int> neighbours(std::span<const float> x) const;

private:
    InputStateCache::Slot& stateFor(std::span<const float> x, int maxChanges) const;
    template <class Dist>
    void vote(Dist&& dist, std::span<double> out) const;

    int m_k = 1;
    Dataset::Matrix m_train;                                                 ///< m x n
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m_byFeature;  ///< n x m
    std::vector<int> m_labels;
};

/// Stores d (>= 2 classes). Throws std::invalid_argument for bad k (> rows) or data.
ModelFit<KnnModel> fitKnn(const Dataset& d, const KnnParams& p, const RunControl& rc = {});

}  // namespace fdlab
