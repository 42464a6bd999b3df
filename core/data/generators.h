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

/// Feature distribution of the Globerson & Roweis toy.
enum class GlobersonFeatures {
    /// x uniform on {0,1}^20, bias = -E[w.x] = 16.5 (centred score, about 55% positives). The
    /// chapter checks "the cases where x_1 = 1", and zeroing x_1 changes only rows with x_1 = 1:
    /// the default, and the variant under which the chapter's finding can show (spec section 3).
    Binary,
    /// x uniform on [-1,1]^20, bias = mean of w = -1.65 (FDLab's first reading of "drawn
    /// uniformly"; kept for comparison: deleting x_1 costs every method alike here).
    Uniform
};
const char* toString(GlobersonFeatures f);

/// Globerson & Roweis toy logistic model in R^20: w_1 = 5, w_2..w_20 = -2, y = +1 w.p.
/// sigmoid(w.x + bias), x and bias as GlobersonFeatures says. Feature x1 is the one deleted at
/// test time. Draw order per row: 20 uniforms for x (Binary: x_j = 1 iff u < 0.5; Uniform:
/// x_j = -1 + 2u), then one uniform u, y = +1 iff u < sigmoid(w.x + bias).
Dataset globersonToyDataset(int m, std::uint64_t seed, GlobersonFeatures features = GlobersonFeatures::Binary);

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
