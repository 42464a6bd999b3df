#pragma once
// The catalogue of learners by name: what the CLI, experiment files and the GUI's algorithm
// panel use. Each entry describes its parameters (type, default, range, doc) so that forms can
// be generated from it, and trains from a JSON object of parameter values. Binary-only learners
// are run one-vs-rest on multi-class data.

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/learners/scorer.h"
#include "core/util/param_info.h"
#include "core/util/run_control.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fdlab {


/// FeatureBoost's record of what each round relied on (core/learners/nonlinear/feature_boost.h),
/// for the GUI's rounds-by-features map. Empty for every other learner.
struct FeatureRounds {
    Eigen::MatrixXd importance;     ///< rounds x n: I_t(f), sensitivity-analysis importance, max 1 per round
    Eigen::MatrixXd distribution;   ///< rounds x n: D_t(f), the emphasis round t was trained under
    std::vector<double> alphas;     ///< alpha_t: the vote weight of round t
    std::vector<double> errors;     ///< eps_t: clean training error of round t's member
    std::vector<int> removed;       ///< hard variant: k_t features marginalised per row (else empty)

    int rounds() const { return static_cast<int>(importance.rows()); }
    bool empty() const { return importance.size() == 0; }
};

/// A trained model as the evaluation engine sees it.
struct TrainedModel {
    std::shared_ptr<const Scorer> scorer;        ///< always set when status is ok
    std::shared_ptr<const LinearModel> linear;   ///< set for linear learners (fast attacks, JSON)
    FitResult fit;                               ///< objective, iterations, status... (fit.model unused for non-linear)
    FeatureRounds rounds;                        ///< FeatureBoost only
};

struct LearnerInfo {
    std::string name;      ///< key, e.g. "fdrop"
    std::string title;     ///< e.g. "FDROP (Globerson & Roweis)"
    std::string paper;     ///< citation
    std::string formula;   ///< the optimisation problem in one line
    bool linear = true;
    bool binaryOnly = true;   ///< multi-class data is handled one-vs-rest
    std::vector<ParamInfo> params;
    /// Trains on `train` with complete, validated params (see completeParams).
    std::function<TrainedModel(const Dataset&, const nlohmann::json&, const RunControl&)> train;
};

/// A linear fit as a TrainedModel (the scorer shares ownership of the model). Models are set
/// when fit is ok or cancelled.
TrainedModel wrapLinear(FitResult fit);

/// Every learner, in a stable order.
const std::vector<LearnerInfo>& learnerCatalogue();
/// Throws std::invalid_argument listing the known names.
const LearnerInfo& learnerInfo(const std::string& name);

/// Fills defaults for missing parameters and checks the given ones: unknown names, wrong
/// types, values outside [min, max], unknown choices -> std::invalid_argument naming the
/// learner and the parameter.
nlohmann::json completeParams(const std::string& learner, const nlohmann::json& params);

/// completeParams, then trains (one-vs-rest for binary-only learners on > 2 classes).
TrainedModel trainLearner(const std::string& learner, const Dataset& train, const nlohmann::json& params,
                          const RunControl& rc = {});

}  // namespace fdlab
