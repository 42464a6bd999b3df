#pragma once
// Random (non-adversarial) deletion, the "random deletion of N non-zero features" of the
// Dekel-Shamir and FDROP experiments, and the Globerson toy's "feature j missing w.p. p".

#include "core/util/rng.h"

#include <span>
#include <vector>

namespace fdlab {

/// K distinct features drawn uniformly among the non-zero entries of x (all of them when
/// fewer than K are non-zero); increasing order.
std::vector<int> randomNonZeroDeletion(std::span<const float> x, int K, Rng& rng);

/// {feature} with probability p, else {} (feature is deleted whatever its value).
std::vector<int> randomFeatureDrop(int feature, double p, Rng& rng);

}  // namespace fdlab
