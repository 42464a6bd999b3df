#pragma once
// k-fold cross-validation for choosing among a learner's parameter candidates on the training
// set alone, the selection Biggio, Nelson & Laskov (ACML 2011, section 6) use for the RBF width:
// "gamma was selected among {0.01, 0.1, 1, 10, 100} by performing a 5-fold cross validation on
// training data" (under label flips the training data is the tainted one: no clean holdout).
//
// For candidates theta_1..theta_K and a stratified partition of the m training rows into k folds
// F_1..F_k (seeded), the CV error of theta is the pooled error
//     cv(theta) = (1/m) sum_f #{ i in F_f : model trained on D \ F_f with theta misclassifies i },
// and the choice is the first candidate with the smallest cv (ties go to the earlier one, so the
// choice does not depend on float noise in later candidates).

#include "core/data/dataset.h"
#include "core/util/run_control.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

struct CrossValidationParams {
    /// Number of folds k. Default 5 (the paper's); >= 2 and at most the size of the smallest class.
    int folds = 5;
    /// Seed of the stratified fold partition. Default 1.
    std::uint64_t seed = 1;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

struct CrossValidationResult {
    std::vector<double> errors;   ///< cv(theta_c) per candidate (those not reached when cancelled: NaN)
    std::size_t best = 0;         ///< index of the chosen candidate
    long trainings = 0;           ///< models trained (candidates x folds when complete)
    double elapsed = 0.0;         ///< seconds
    Status status = Status::Failed;
    std::string message;
};

/// Cross-validates every candidate (complete or partial parameter objects of registry learner
/// `learner`) on `train`. Throws std::invalid_argument when there are no candidates, a class has
/// fewer rows than folds, or a parameter is invalid (naming the learner and parameter);
/// std::runtime_error when a training fails. Cancellation is checked between trainings and
/// gives Status::Cancelled.
CrossValidationResult crossValidateCandidates(const std::string& learner, const Dataset& train,
                                              const std::vector<nlohmann::json>& candidates,
                                              const CrossValidationParams& p, const RunControl& rc = {});

}  // namespace fdlab
