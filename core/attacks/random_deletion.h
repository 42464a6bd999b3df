#pragma once
// Random (non-adversarial) deletion, the "random deletion of N non-zero features" of the
// Dekel-Shamir and FDROP experiments, and the Globerson toy's "feature j missing w.p. p".

#include "core/attacks/threat_registry.h"
#include "core/data/dataset.h"
#include "core/util/rng.h"

#include <span>
#include <vector>

namespace fdlab {

/// K distinct features drawn uniformly among the non-zero entries of x (all of them when
/// fewer than K are non-zero); increasing order.
std::vector<int> randomNonZeroDeletion(const RowView& x, int K, Rng& rng);
/// Each non-zero feature of x independently with probability p (MCF's blankout; a zero has
/// nothing to delete), in increasing order: one Bernoulli draw per non-zero, so a sparse row
/// and its dense copy lose the same features.
std::vector<int> randomNonZeroBlankout(const RowView& x, double p, Rng& rng);

/// {feature} with probability p, else {} (feature is deleted whatever its value).
std::vector<int> randomFeatureDrop(int feature, double p, Rng& rng);

/// Every count level Ks of random deletion, for a linear model with zero replacement, without
/// materialising the attacked sets: the attack's own draw per level (row i's stream), scored by
/// linearScores, so the scores equal runAttack's at each level bit for bit.
void randomDeletionLevels(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink);

}  // namespace fdlab
