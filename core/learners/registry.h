#pragma once
// The catalogue of learners by name: what the CLI, experiment files and the GUI's algorithm
// panel use. Each entry describes its parameters (type, default, range, doc) so that forms can
// be generated from it, and trains from a JSON object of parameter values. Binary-only learners
// are run one-vs-rest on multi-class data.

#include "core/data/dataset.h"
#include "core/learners/fdrop_dual.h"
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

/// A fit's final solver state, handed to the next fit of a neighbouring parameter setting on the
/// same training set (regularisation-path warm start, e.g. along a tuning grid). Only FDROP's
/// dual solver has one (its dual point, core/learners/fdrop_dual.h); the liblinear baselines have
/// none (liblinear 2.3 starts only its primal solvers -s 0, 2, 11 from a given w, not the dual
/// -s 3), and MCF's fits are cheap next to FDROP's. Empty for every other learner.
struct WarmStart {
    FdropDualStart fdropDual;
};

struct LearnerInfo {
    std::string name;      ///< key, e.g. "fdrop"
    std::string title;     ///< e.g. "FDROP (Globerson & Roweis)"
    std::string paper;     ///< citation
    std::string formula;   ///< the optimisation problem in one line
    bool linear = true;
    bool binaryOnly = true;   ///< fits two classes; see multiClassHandling for more
    std::vector<ParamInfo> params;
    /// Trains on `train` with complete, validated params (see completeParams).
    std::function<TrainedModel(const Dataset&, const nlohmann::json&, const RunControl&)> train;
    /// As train, from `start` (may be null) and filling `end` (may be null); empty for learners
    /// without a warm start. (The "= {}" keeps clang's -Wmissing-field-initializers quiet about the
    /// catalogue entries that omit it; GCC does not warn.)
    std::function<TrainedModel(const Dataset&, const nlohmann::json&, const RunControl&, const WarmStart*, WarmStart*)>
        trainWarm = {};
};

/// A linear fit as a TrainedModel (the scorer shares ownership of the model). Models are set
/// when fit is ok or cancelled.
TrainedModel wrapLinear(FitResult fit);

/// How trainLearner treats data with more than two classes: "native", "one-vs-rest" (linear
/// binary learners) or "refused" (non-linear binary learners such as kernel-svm). What help texts
/// must say.
std::string multiClassHandling(const LearnerInfo& info);

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
/// trainLearner with a warm start: `start` (may be null or empty) is the `end` of a fit of the same
/// learner on the same training set; `end` (may be null) receives this fit's. Learners without a
/// warm start train as trainLearner does and leave `end` empty.
TrainedModel trainLearner(const std::string& learner, const Dataset& train, const nlohmann::json& params,
                          const RunControl& rc, const WarmStart* start, WarmStart* end);

}  // namespace fdlab
