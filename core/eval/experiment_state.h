#pragma once
// The experiment the GUI shows, as one model: the spec the panels edit, the data actually
// loaded, the title that belongs to them, and the one adversary budget the Attack panel and the
// Heatmaps tab share. Pure logic (no Qt): ui/experiment_controller.h drives it from the workers'
// reports; tests/core/test_experiment_state.cpp checks it on hand-made datasets.
//
// Rules it keeps:
//  - A spec's title, description and paper reference belong to the data source, task and threat
//    it was written for. A run on other data, classes or threat gets a title derived from what is
//    actually run ("heart_scale: class 1 vs -1, random deletion of K features") and no paper markers.
//  - New data adapts what no longer fits it: a split by counts per class that a class cannot
//    fill becomes a split by fractions; classes the data does not have are replaced by its first
//    two; count levels above n features and value levels at or above V are dropped (a ladder
//    0..max is made when none remain); importance values of another length fall back to the
//    data's own. Each adaptation is reported as one sentence for the user.
//  - The budget is clamped once, here, to [0, n] (count threats, whole numbers), [0, V) on a
//    grid of 1, 2 or 5 x 10^k at most V/1000 (value budgets, valueBudgetStep) or [0, 1] on a
//    grid of 0.01 (fractions, probabilities).

#include "core/attacks/threat_registry.h"
#include "core/data/dataset.h"
#include "core/eval/experiment_spec.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fdlab {

/// "bundled:NAME" or the file path of a dataset reference (how the GUI names a source).
std::string sourceName(const DatasetRef& ref);

/// Title of an experiment on `dataName` with `task` under `threat` (a registry name), e.g.
/// "heart_scale: 1 vs -1, random deletion".
std::string derivedTitle(const std::string& dataName, const TaskSpec& task, const std::string& threat);

/// Value budgets move in steps of 1, 2 or 5 x 10^k, the largest at most V / 1000 (V > 0; else
/// 1), so that round budgets (N = 3) are steps: a grid of V / 1000 itself held a lesson's N = 3
/// as 3.021. The Attack panel, the Heatmaps tab and the shared state all use this grid.
double valueBudgetStep(double totalValue);
/// The budget `position` steps of `step` up; a step below 1 divides (30 / 10 is exactly 3,
/// while 30 * 0.1 is 3.0000000000000004).
double budgetAtPosition(long position, double step);
/// The largest position of the value grid below V (N < V), at most 1e6; 0 when V <= 0.
long maxValuePosition(double totalValue);

/// The largest budget the threat allows on data with n features and total importance V.
double maxBudgetFor(LevelKind kind, int features, double totalValue);
/// `b` clamped to [0, maxBudgetFor] and snapped to the budget grid (see the header comment).
double clampBudget(LevelKind kind, double b, int features, double totalValue);

/// The learners the Heatmaps tab compares (indices into spec.learners, A first): SVM and FDROP
/// when present (else the first linear learners); on experiments without them a baseline
/// (AdaBoost, else the first learner) against FeatureBoost, followed by every other learner
/// (non-linear experiments are small, so all can be picked). Empty for training-time threats.
std::vector<std::size_t> heatmapLearners(const ExperimentSpec& spec);

class ExperimentState {
public:
    explicit ExperimentState(ExperimentSpec spec = {});

    const ExperimentSpec& spec() const { return m_spec; }
    /// Replaces the experiment (a preset, a lesson step, an opened file); its title belongs to
    /// its own data, task and threat. Keeps the loaded data when the spec names the same source.
    void setSpec(ExperimentSpec spec);

    /// The user's edits of the spec (the panels' version of it): its title stays tied to the
    /// data, task and threat of the spec last set, so forRun and adaptToData retitle it when those changed.
    void edit(ExperimentSpec spec);

    /// Data arrived from `ref`. When `specsData` it is the data the spec names (the spec's
    /// split and levels are kept where they fit); otherwise the data was chosen on its own and
    /// becomes the spec's. Adapts what no longer fits (header comment) and returns one sentence
    /// per adaptation.
    std::vector<std::string> adaptToData(std::shared_ptr<const Dataset> data, const DatasetRef& ref,
                                         bool specsData);
    const std::shared_ptr<const Dataset>& data() const { return m_data; }

    /// The spec a run uses, from `edited` (the panels' version of spec()): retitled (and its
    /// paper reference dropped) when its data, task or threat differ from the ones the title
    /// was written for; its split adapted when it cannot be filled by the loaded data.
    ExperimentSpec forRun(ExperimentSpec edited) const;

    /// The importance values the run uses (importanceOfRun, or values edited by hand): value
    /// budgets are bounded by their sum V. Reset by setSpec and adaptToData (then V is the data's).
    void setImportance(std::vector<double> values);
    /// V: the sum of the run's importance values (the data's own until setImportance).
    double totalValue() const;

    /// The one budget (clamped) and its bounds for the spec's threat and the loaded data.
    double budget() const { return m_budget; }
    double maxBudget() const;
    /// Sets the budget (clamped) and returns it.
    double setBudget(double b);

private:
    std::string titleKey(const ExperimentSpec& s) const;
    int features() const;

    ExperimentSpec m_spec;
    std::string m_titleKey;   ///< source | task | threat the spec's title was written for
    std::shared_ptr<const Dataset> m_data;
    std::string m_dataSource;   ///< sourceName of the data in m_data
    double m_budget = 0.0;
    std::optional<double> m_importanceTotal;   ///< V of setImportance
};

/// The split `split` made to fit `data` under `task`: a split by counts per class becomes one by
/// fractions when a class of the task has fewer instances than train + validation + test.
/// `note` gets the sentence saying so ("" when kept).
SplitSpec splitThatFits(const SplitSpec& split, const Dataset& data, const TaskSpec& task, std::string* note);

/// The importance values a run uses for repetition 0 (computed on its training part, as
/// core/eval/experiment_runner.cpp does), for `spec` on its loaded `data`.
std::vector<double> importanceOfRun(const ExperimentSpec& spec, const Dataset& data);

}  // namespace fdlab
