#pragma once
// Seeded synthetic datasets of the papers (spec ../shared/spec/ALGORITHMS.md). Each returns a
// binary Dataset (class 1 = y +1) with provenance naming the generator and its parameters.

#include "core/data/dataset.h"

#include <cstdint>
#include <string>

namespace fdlab {

/// Dekel & Shamir sanity check: m points uniform in [-1,1]^20 labelled by a random hyperplane
/// through the origin (Gaussian normal), each label flipped w.p. flipProbability, then two copies
/// of the (noisy) label appended as features 21 and 22 ("copy1", "copy2"). Importance: 1 for the
/// 20 real features, copyValue for the copies. Paper: m = 1000, flip 0.2, copyValue 10.
Dataset labelCopyDataset(int m, std::uint64_t seed, double flipProbability = 0.2, double copyValue = 10.0);

/// Globerson & Roweis toy logistic model in R^20: x uniform on [-1,1]^20 (the chapter: "drawn uniformly"), w_1 = 5, w_2..w_20 = -2,
/// bias = mean of w, y = +1 w.p. sigmoid(w.x + bias). Feature x1 is the one deleted at test time.
Dataset globersonToyDataset(int m, std::uint64_t seed);

/// Biggio et al.: class z in {-1,+1} equiprobable, x ~ N([z, 0, ..., 0], I/2) in R^dim.
/// dim = 2 for the pictures (m = 100), dim = 300 for the random-flip toy (400 train, 1000 test).
Dataset biggioGaussianDataset(int m, int dim, std::uint64_t seed);

/// FeatureBoost threshold function: t uniform integer in [0, levels), y = +1 iff t >= levels/2,
/// encoded four redundant ways, each a feature group named by its encoding:
/// "gray" (Gray code bits), "peaks" (one bump per level position, i.e. a one-hot "peak" at t),
/// "binary" (plain binary bits), "unary" (thermometer: bit k = 1 iff t > k).
/// Bits are 0/1. levels in [4, 256].
enum class ThresholdEncoding { Gray, Peaks, Binary, Unary };
const char* toString(ThresholdEncoding e);
Dataset thresholdFunctionDataset(int m, int levels, std::uint64_t seed);
/// Feature index ranges [begin, end) of each encoding inside thresholdFunctionDataset's columns
/// (FeatureGroup is declared in dataset.h).
std::vector<FeatureGroup> thresholdFunctionGroups(int levels);

}  // namespace fdlab
