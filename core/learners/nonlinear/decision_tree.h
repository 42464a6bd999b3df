#pragma once
// CART classification tree (Breiman, Friedman, Olshen & Stone 1984), with example weights.
//
// Greedy top-down induction. At a node holding examples S with weights w_i (normalised to sum 1
// over the whole training set) and class masses c_k = sum_{i in S, y_i = k} w_i, W = sum_k c_k:
//   impurity  I(S) = 1 - sum_k (c_k / W)^2              (Gini)
//             I(S) = -sum_k (c_k / W) log2 (c_k / W)      (entropy)
// and every axis-aligned split "x_f <= t" (t the midpoint of two consecutive distinct values of
// feature f in S, both sides holding >= minLeaf examples) has the gain
//   G(f, t) = W I(S) - W_L I(S_L) - W_R I(S_R)     (the weighted impurity decrease; sums to the
//                                                  total decrease over the tree)
// multiplied by an optional per-feature factor g_f (FeatureBoost's soft variant: Sullivan et al.
// suggest "multiply the information gain of each feature by its weight"). The best split
// (largest gain; ties to the lower feature index, then the lower threshold) is made when its gain
// exceeds minGain and the depth is below maxDepth, else the node is a leaf holding the class
// distribution p_k = c_k / W. Deterministic: no randomness.
//
// Scores: binary s(x) = p_1 - p_0 of x's leaf (so a 50/50 leaf predicts class 0); multi-class
// s_k(x) = p_k. Instances go left when x_f <= t.
//
// Cost: every feature is sorted once at the root; each node stably partitions the per-feature
// orders, so a level of the tree costs O(n m) and the whole fit O(n m (log m + depth)).
// scoresWithChange re-walks the tree reading the changed value (O(depth), no copy of x).

#include "core/learners/nonlinear/classifier.h"

#include <span>
#include <vector>

namespace fdlab {

class DecisionTree : public Classifier {
public:
    struct Node {
        int feature = -1;              ///< split feature, -1 for a leaf
        double threshold = 0.0;        ///< go left iff x_feature <= threshold
        int left = -1;                 ///< child indices (greater than this node's index)
        int right = -1;
        std::vector<double> p;         ///< class distribution at the node (numClasses values)
        double weight = 0.0;           ///< training weight reaching the node (fraction of the total)
        int count = 0;                 ///< training examples reaching the node
        bool isLeaf() const { return feature < 0; }
    };

    /// Checks the structure (children after their parent and in range, features in range,
    /// distributions of numClasses finite values); std::invalid_argument otherwise.
    DecisionTree(int features, std::vector<std::string> classNames, std::vector<Node> nodes);

    const char* type() const override { return "decision-tree"; }
    nlohmann::json toJson() const override;
    void scores(std::span<const float> x, std::span<double> out) const override;
    void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                          std::span<double> out) const override;

    const std::vector<Node>& nodes() const { return m_nodes; }
    /// Index of the leaf x falls into.
    int leafOf(std::span<const float> x) const;
    int depth() const;
    /// Features used by some split, increasing.
    std::vector<int> usedFeatures() const;

private:
    template <class Get>
    int walk(Get&& get) const;
    std::vector<Node> m_nodes;
};

/// Fits a tree on d (>= 2 classes, every row labelled). exampleWeights: empty (uniform) or one
/// finite weight >= 0 per row with a positive sum. gainScale: empty or one finite factor >= 0 per
/// feature (0 = never split on it). Throws std::invalid_argument naming the bad argument.
/// Cancelling turns the nodes not yet split into leaves (a valid, smaller tree).
ModelFit<DecisionTree> fitDecisionTree(const Dataset& d, const DecisionTreeParams& p, const RunControl& rc = {},
                                       std::span<const double> exampleWeights = {},
                                       std::span<const double> gainScale = {});

}  // namespace fdlab
