#pragma once
// Model-agnostic greedy deletion -- a HEURISTIC, not a worst case: for models other than linear
// ones (trees, kNN, nets, ensembles) the exact inner maximisation is intractable. Starting from
// the clean instance, repeatedly delete the non-zero feature whose deletion lowers the true
// class's margin the most (Scorer::scoresWithChange, O(K) per candidate for linear models,
// a re-evaluation otherwise), until K features are gone or (optionally) the instance is
// misclassified, or no deletion lowers the margin any more (so the margin never rises). The
// final margin is not guaranteed minimal.

#include "core/learners/scorer.h"

#include <span>
#include <vector>

namespace fdlab {

struct GreedyDeletion {
    std::vector<int> deleted;   ///< in the order the adversary chose them
    double marginBefore = 0.0;
    double marginAfter = 0.0;
};

GreedyDeletion greedyDeletion(const Scorer& model, std::span<const float> x, int label, int K, bool stopWhenWrong);

}  // namespace fdlab
