#pragma once
// Seeded, stratified splits of a dataset's row indices. Deterministic for a seed on every
// platform (fdlab::Rng). Stratified: each class is shuffled on its own and divided in the
// requested proportion, so class balance is kept up to rounding.

#include "core/data/dataset.h"

#include <cstdint>
#include <vector>

namespace fdlab {

struct TrainTest {
    std::vector<int> train;
    std::vector<int> test;
};

struct TrainValTest {
    std::vector<int> train;
    std::vector<int> validation;
    std::vector<int> test;
};

/// testFraction in (0,1). Every class with >= 2 instances gets at least one in each part.
/// Throws std::invalid_argument for a bad fraction or a dataset with < 2 rows.
TrainTest stratifiedSplit(const Dataset& d, double testFraction, std::uint64_t seed);

/// Fractions in (0,1) with sum < 1; train gets the rest.
TrainValTest stratifiedSplit3(const Dataset& d, double validationFraction, double testFraction,
                              std::uint64_t seed);

/// Exact counts per class, as the papers' protocols use ("50 training digits per class, 200
/// holdout, 300 test"): perClassTrain (and perClassValidation) instances of every class, the
/// test part gets perClassTest of every class (or all the rest when perClassTest < 0).
/// Throws std::invalid_argument naming the class when it has too few instances.
TrainValTest splitByCounts(const Dataset& d, int perClassTrain, int perClassValidation, int perClassTest,
                           std::uint64_t seed);

/// k stratified folds: fold f's test part is the f-th slice of every class; train the rest.
/// 2 <= k <= smallest class size, else std::invalid_argument.
std::vector<TrainTest> stratifiedKFold(const Dataset& d, int k, std::uint64_t seed);

}  // namespace fdlab
