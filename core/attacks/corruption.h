#pragma once
// Corruption by substitution (Sullivan et al., FeatureBoost): instead of deleting a feature,
// give it the value the same feature has in another random example, so the corrupted instance
// still looks like data. Individual features, or whole feature groups (an encoding, an image
// region) at once.

#include "core/data/dataset.h"
#include "core/util/rng.h"

#include <nlohmann/json.hpp>

#include <span>
#include <vector>

namespace fdlab {

/// round(fraction * n) distinct features chosen uniformly; each takes its value from its own
/// random donor row of `donors` (never row `self` when donors has another row; self = -1 when
/// the instance is not in donors). Writes into x; returns the chosen features, increasing.
std::vector<int> corruptFeatures(std::span<float> x, double fraction, const Dataset& donors, int self, Rng& rng);

/// round(fraction * G) distinct groups chosen uniformly; each group takes the values of one
/// random donor row (never `self` when possible). Returns the corrupted features, increasing.
std::vector<int> corruptGroups(std::span<float> x, double fraction, const std::vector<FeatureGroup>& groups,
                               const Dataset& donors, int self, Rng& rng);

/// The groups group-corruption acts on, from its parameters: image blocks of regions =
/// [rows, cols] pixels on image data, else the listed groups ({name, begin, end} or {name,
/// features}). Throws std::invalid_argument "attack regions/groups: ..." for malformed ones.
std::vector<FeatureGroup> groupCorruptionGroups(const nlohmann::json& params, const Dataset& d);

}  // namespace fdlab
