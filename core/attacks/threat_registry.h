#pragma once
// The threat models, declared once: name, title, source, what a level means, the verb and
// wording the views use, flags, the threat's own parameters (ParamInfo, as learners declare
// theirs) and its code: the per-instance attack for test-time threats, the tainted training
// set for training-time ones, and optionally a one-pass evaluation of many levels for linear
// models. Everything else is generated from these entries: runAttack, the experiment files'
// "attack" keys and their validation, the CLI's threat options and help, the GUI's Attack panel
// controls, curve axes and heatmap wording, and the shard planner's cost estimate. Adding a
// threat is its algorithm's file pair plus one entry in threat_registry.cpp (or, for tests,
// registerThreat).

#include "core/attacks/attack.h"
#include "core/learners/linear_model.h"
#include "core/util/param_info.h"
#include "core/util/rng.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fdlab {

/// What a curve's level is for a threat.
enum class LevelKind {
    None,          ///< no budget (the clean test set)
    Count,         ///< K features (a whole number)
    Value,         ///< a value budget N < V = sum of the importance values
    Probability,   ///< a probability in [0, 1]
    Fraction       ///< a fraction in [0, 1] (of features, groups or training labels)
};

/// What the attack does to what it touches (the views' wording).
enum class ThreatVerb { None, Deleted, Corrupted, Flipped };

/// What a prepared test-time threat sees, once per runAttack.
struct ThreatContext {
    const Dataset& test;
    const Scorer& model;
    const AttackSpec& spec;
    const nlohmann::json& params;   ///< spec.params, completed
    const Dataset& donors;          ///< where corruption takes values from
    bool externalDonors;            ///< donors is not `test` (row i may then be its own donor)
    const RunControl& rc;
};

/// One instance under attack.
struct InstanceAttack {
    int row = 0;                ///< its index in the attacked set
    RowView x;                  ///< the clean row (sparse or dense)
    int label = 0;
    std::span<float> dense;     ///< the row densified (PreparedThreat::denseRow), written in place when substituting
    Rng* rng = nullptr;         ///< the row's own stream
    std::vector<int> deleted;   ///< out: deleted/corrupted features, increasing
    double damage = 0.0;        ///< out: margin lost (PreparedThreat::damage)
    double bound = 0.0;         ///< out: LP bound on the damage (PreparedThreat::bound)
};

/// A test-time threat made ready for one test set and model (data-independent choices made).
struct PreparedThreat {
    bool denseRow = false;      ///< the attack reads `dense` (sparse rows are densified one at a time)
    bool substitutes = false;   ///< it writes its own values into `dense` (corruption); else deleted features are replaced
    bool damage = false;        ///< fills InstanceAttack::damage
    bool bound = false;         ///< fills InstanceAttack::bound
    std::function<void(InstanceAttack&)> attack;   ///< null: nothing is attacked
    std::string cancelled;      ///< non-empty: preparation was cancelled, with this message
};

/// Per instance, per level: the class scores after the attack, handed to sink(i, level, s).
using ScoreSink = std::function<void(int, std::size_t, std::span<const double>)>;
/// An evaluation of count levels Ks for a linear model without materialising the attacked sets:
/// the scores equal re-scoring runAttack's rows at each level bit for bit (scoreLinearDeletions).
using LinearLevels = void (*)(const LinearModel&, const Dataset&, const AttackSpec&, const std::vector<int>& Ks,
                              const ScoreSink&);

/// What a deletion threat deletes from row x (class `label`) at every budget of a curve:
/// deleted[l] := the features (increasing) its attack deletes at budget Ks[l] from a fresh copy of
/// `rng` (row i's stream of runAttack, as the attack starts from it afresh at each level).
/// deleted has Ks.size() entries; reusing their capacity across rows avoids allocations.
using RowDeletions = std::function<void(const RowView& x, int label, std::span<const int> Ks, const Rng& rng,
                                        std::vector<std::vector<int>>& deleted)>;

/// The body of a LinearLevels: per instance i and level l, the features `choose` deletes at budget
/// Ks[l] (must be what the threat's attack deletes), scored by linearScores, i.e. the scores of
/// row i of the attacked set bit for bit (also at margins near 0). Instances of classes the threat
/// spares are scored clean.
void scoreLinearDeletions(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink, const RowDeletions& choose);

/// out[l] := the first min(max(Ks[l], 0), order.size()) entries of `order`, in increasing order,
/// for every level l (Ks in any order, repeats allowed); O(sum of the prefixes) after one sort of
/// each level's new entries, reusing out's capacity. For deletions whose set at budget K is the
/// first K of one ranking (worst-case count: profits sorted; random: one Fisher-Yates draw).
void sortedPrefixes(std::span<const int> order, std::span<const int> Ks, std::vector<std::vector<int>>& out);

/// What a training-time threat taints: `count` training labels of `train`, against the
/// learner it will train (its name and complete params), with `seed`.
struct TaintRequest {
    const Dataset& train;
    const nlohmann::json& params;   ///< the threat's, completed
    int count = 0;
    std::uint64_t seed = 1;
    const std::string& learner;
    const nlohmann::json& learnerParams;
    const RunControl& rc;
};

struct ThreatInfo {
    std::string name;         ///< in experiment files and on the command line: "worst-case-count"
    std::string title;        ///< for menus: "Worst-case deletion of K features (exact)"
    std::string source;       ///< where it comes from: "Globerson & Roweis 2006"
    LevelKind level = LevelKind::None;
    std::string levelLabel;   ///< axis label of a curve's level: "deleted features K"
    ThreatVerb verb = ThreatVerb::None;
    /// The views' phrase for what becomes of a touched feature, e.g. "set to 0"; "{donor}" is
    /// replaced by where corrupted values come from ("a training instance").
    std::string how;
    bool trainingTime = false;       ///< acts on the training labels, not on test instances
    bool needsLinearModel = false;   ///< worst-case and uniform threats
    bool exact = false;              ///< the adversary's exact optimum (false: heuristic or random)
    bool randomised = false;         ///< draws random numbers (the attack seed matters)
    std::string doc;                 ///< one line for help texts
    std::vector<ParamInfo> params;   ///< the threat's own parameters (besides level, seed, classes)
    /// Relative cost of one attack of a test set, against one training (shard planning).
    double costWeight = 0.2;
    /// Checks of the completed parameters alone (AttackSpec::completeParams calls it): throws
    /// std::invalid_argument "attack <param>: ...". May be null.
    std::function<void(const nlohmann::json& params)> checkParams;
    /// Checks that need the data (feature indices, groups...): throws std::invalid_argument
    /// "attack <param>: ...". May be null.
    std::function<void(const AttackSpec&, const nlohmann::json& params, const Dataset&)> check;
    /// Test-time threats: the per-instance attack for one set and model. Null for training time.
    std::function<PreparedThreat(const ThreatContext&)> prepare;
    /// Optional evaluation of many count levels for linear models (zero replacement).
    LinearLevels linearLevels = nullptr;
    /// Training-time threats: the tainted training set, nullopt when cancelled.
    std::function<std::optional<Dataset>(const TaintRequest&)> taint;
    /// Training-time threats: what the tainted set depends on besides repetition and level; the
    /// learners of a repetition with the same key share one tainted set. Null: each learner
    /// computes its own (cheap threats).
    std::function<std::string(const nlohmann::json& params, const std::string& learner, const nlohmann::json& learnerParams)>
        taintKey;
    /// Extra trainings per level that taint() costs (shard planning). May be null (none).
    std::function<double(const nlohmann::json& params)> taintTrainings;
    /// Refuses a learner the threat cannot be combined with (message) or returns "". May be null.
    std::function<std::string(const nlohmann::json& params, const std::string& learner)> learnerCheck;
};

/// Every threat, in the order menus show them.
const std::vector<ThreatInfo>& threatRegistry();
/// The entry named `name`; std::invalid_argument listing every name otherwise.
const ThreatInfo& threatInfo(const std::string& name);
/// Adds an entry (e.g. a test's own threat); std::invalid_argument if the name is taken or the
/// entry lacks its code (prepare for test-time threats, taint for training-time ones).
/// Not thread-safe: register before anything reads the registry concurrently.
void registerThreat(ThreatInfo info);
/// "  name  doc" lines of the test-time threats (or all, with training-time ones), each with
/// its parameters, for help texts.
std::string threatHelp(bool includeTrainingTime);
/// Every parameter name any threat declares (the CLI accepts them as --name options).
std::vector<std::string> threatParamNames();

/// A threat's parameters from text, keyed by parameter name (the CLI's --name VALUE options):
/// each value parsed by its ParamInfo (paramFromText), then completed and checked. A name that
/// `threat` does not declare is an error listing the ones it does, written with `prefix`
/// ("--" for the CLI) and '-' for '_'. Throws std::invalid_argument.
nlohmann::json threatParamsFromText(const std::string& threat, const std::map<std::string, std::string>& values,
                                    const std::string& prefix = "--");

/// The count budget K of a level (levels of count threats are whole numbers), saturated to
/// [0, INT_MAX] so that no level converts with undefined behaviour.
int countLevel(double level);
/// A level for messages: whole numbers without decimals ("2147483648", "0.3", "1e+300").
std::string levelText(double level);
/// Why a list of levels cannot make a curve, or "" when it can: a level given twice (two points
/// at one x) or out of increasing order (a curve that doubles back). Refused everywhere -- in
/// experiment files, `fdlab-cli eval --levels`, Python's curve() -- never silently reordered.
std::string levelOrderProblem(std::span<const double> levels);

}  // namespace fdlab
