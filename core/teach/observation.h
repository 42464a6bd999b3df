#pragma once
// What a lesson step shows the student after its run: a sentence whose numbers are computed
// from that run (the curves, the models trained on repetition 0's training part, one test
// instance), never typed in, and a claim the lesson makes about those numbers, checked on them.
//
// An observation is written in a lesson file (core/teach/lesson.h) as
//   "observation": {
//     "values": {                                   named quantities, computed in order
//       "svm":   {"kind": "error", "learner": "SVM", "level": 20},
//       "fdrop": {"kind": "error", "learner": "FDROP", "level": 20},
//       "lost":  {"kind": "lost", "learner": "SVM", "level": 20},
//       "n":     {"kind": "test_size"},
//       "gap":   {"kind": "expr", "expr": "svm - fdrop"}
//     },
//     "text": "At K = 20 the SVM loses {lost} of these {n} digits (error {svm}); FDROP's error is {fdrop}.",
//     "claim": "fdrop < svm"
//   }
// Quantity kinds (fields besides "kind"; "format" is optional: "int", "fixed2", "fixed3",
// "percent", "level"):
//   error        learner, level, metric ("error" | "error_attacked" | "error_others" | "auc"):
//                the curve's mean at that level
//   lost         learner, level, metric: repetition 0's error times the number of test
//                instances it is measured on (attacked classes only for error_attacked), an integer
//                (every instance wrong at that level, those wrong before any deletion included:
//                a lesson says "gets {lost} wrong", not "loses", which the Heatmaps tab counts
//                as going from correct to wrong)
//   test_size    metric: that number of test instances
//   crossing     learner, other: the first level at which learner's error is below other's
//                although it was not at the first level (none: not a number, shown "none")
//   level_reaching learner, error: the first level at which learner's error reaches `error`
//   score        learner, instance: s(x) of the clean test instance (multi-class: its margin)
//   margin       learner, instance: y s(x), > 0 when classified correctly
//   half_margin  learner, instance: the fewest features whose contributions y w_j x_j add up to
//                at least half the margin (linear learners)
//   flip_count   learner, instance: the fewest deletions with which the exact worst-case
//                adversary (worst-case-count) makes the instance wrong (+infinity when no number
//                of deletions does: a claim "a > b" then holds for any finite b)
//   deleted      learner, instance, level: how many features the step's threat deletes from
//                the instance at that level (its view in the Heatmaps tab)
//   deleted_names learner, instance, level, count: the names of `count` of them (text), those
//                with the largest contributions y w_j x_j first for a linear learner (the ones
//                the adversary wants most), else in feature order
//   margin_after learner, instance, level: the margin after that attack
//   weight_share learner, top (a fraction in (0, 1]): the share of sum |w_j| carried by the top
//                fraction of features by |w_j| (linear learners)
//   round_tops   learner: how many different features were the most relied-on feature of some
//                FeatureBoost round
//   rounds       learner: FeatureBoost's number of rounds
//   expr         expr: arithmetic (+ - * / parentheses, numbers) over earlier quantities
// Instances are indices into repetition 0's test set (the Heatmaps tab's numbering).
// The claim is "EXPR OP EXPR" with OP one of < <= > >=; a quantity that is "none" makes it false.

#include "core/eval/experiment_runner.h"
#include "core/eval/instance_view.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

struct QuantitySpec {
    std::string name;
    std::string kind;
    std::string learner, other;       ///< learner ids of the step's experiment
    double level = 0.0;
    std::string metric = "error";
    int instance = -1;                ///< -1: the step's view instance
    double top = 0.1;
    double threshold = 0.5;           ///< level_reaching's "error"
    int count = 5;
    std::string expr;
    std::string format;               ///< empty: the kind's default
};

struct ObservationSpec {
    std::vector<QuantitySpec> values;
    std::string text;    ///< template with {name} slots
    std::string claim;   ///< "EXPR OP EXPR"; empty: none

    /// True when a quantity needs trained models and the test set (not only the curves).
    bool needsModels() const;
    /// The learner ids whose trained models the quantities use, in first-use order.
    std::vector<std::string> modelLearners() const;
};

/// Parses an "observation" object. Throws std::invalid_argument "WHERE: ..." naming the key for
/// an unknown key or kind, a missing field, a slot or claim name that is not a quantity, or a
/// claim that does not parse. Learner ids are checked against `learnerIds` (when non-empty).
ObservationSpec parseObservation(const nlohmann::json& j, const std::string& where,
                                 const std::vector<std::string>& learnerIds = {});

/// What the quantities are computed from. `models` (the test set of repetition 0 and models
/// named by learner id, attack = the step's) is needed only when spec.needsModels().
struct ObservationInput {
    const ExperimentResult* result = nullptr;
    const InstanceViewContext* models = nullptr;
    int instance = 0;   ///< the step's view instance (quantities without their own)
};

struct ObservedValue {
    std::string name;
    double value = 0.0;   ///< NaN: none
    std::string text;     ///< as shown in the sentence
};

struct Observation {
    std::vector<ObservedValue> values;
    std::string text;            ///< the template with its slots filled
    std::string claim;           ///< as written
    std::string claimNumbers;    ///< the claim's two sides evaluated, e.g. "0.381 < 0.996"
    std::string claimWithValues; ///< the claim with each name replaced by its shown value, e.g. "0.52 > 0.03 + 0.2"
    bool claimHolds = true;      ///< true when there is no claim
};

/// Computes every quantity and fills the template. Throws std::invalid_argument naming the
/// quantity when the run lacks what it needs (a learner or level not in the result, a model
/// missing, an instance outside the test set, a non-linear model where w is needed).
Observation computeObservation(const ObservationSpec& spec, const ObservationInput& in);

/// Evaluates "EXPR" over named values (used by claims and "expr"); throws std::invalid_argument
/// for a syntax error or an unknown name. Exposed for tests.
double evaluateExpression(const std::string& expr, const std::vector<ObservedValue>& values);

/// The fewest features (largest contributions first) whose contributions add up to at least
/// half of `margin`; -1 when margin <= 0 or they never do.
int halfMarginCount(const std::vector<double>& contribution, double margin);
/// Share of sum |w_j| held by the ceil(top * n) largest |w_j|.
double weightShare(const std::vector<double>& w, double top);

}  // namespace fdlab
