#pragma once
// The one experiment state the GUI shows, and the workers that compute it. The state itself
// (spec, loaded data, title, adapting the spec to new data, the budget) is core's ExperimentState
// (core/eval/experiment_state.h); this QObject owns the loader, the experiment worker and the
// jobs that train the heatmaps' and exported models, keeps the run ids (reports of a run that no
// longer owns the views are dropped) and emits signals the panels and views follow.
//
// Everything that changes what the GUI shows goes through apply(StateChange) (or the few calls
// below it is made of): lessons, menus and panels never poke each other's widgets.
//
//     controller->apply({.spec = loadPresetOrFile("globerson-toy"), .tab = "curves", .run = true});
//     connect(controller, &ExperimentController::finished, this, &Lesson::observe);

#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_state.h"
#include "core/eval/state_change.h"
#include "core/learners/registry.h"
#include "ui/workers/core_metatypes.h"
#include "ui/workers/dataset_loader.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace fdlab::ui {

class ExperimentWorker;
class JobRunner;

/// What the Heatmaps tab needs for a finished experiment: repetition 0's test (and training)
/// part, the learners to compare trained as the curves trained them, the curves' attack and the
/// budget to open on.
struct HeatmapContext {
    std::shared_ptr<const fdlab::Dataset> test;
    std::shared_ptr<const fdlab::Dataset> train;   ///< corruption's donors, as in the curves
    std::vector<std::pair<QString, fdlab::TrainedModel>> models;
    fdlab::AttackSpec attack;
    double budget = 0.0;
    std::shared_ptr<const fdlab::Preprocessor> preprocessor;   ///< what the run applied to its rows
};

class ExperimentController : public QObject {
    Q_OBJECT
public:
    /// Starts on `initial` (the panels show it; its data is not loaded until asked).
    explicit ExperimentController(fdlab::ExperimentSpec initial, QObject* parent = nullptr);
    ~ExperimentController() override;

    /// THE command entry point: applies the fields set, in the order spec, budget, instance,
    /// tab, run (core/eval/state_change.h). Errors are reported through errorOccurred.
    void apply(const fdlab::StateChange& change);

    /// The experiment as the panels describe it now (the reader installed by the window; the
    /// state's spec when none is installed). Throws std::invalid_argument when a field is wrong.
    fdlab::ExperimentSpec currentSpec() const;
    /// The window installs how the panels' edits are read on top of `base` (the state's spec).
    void setSpecReader(std::function<fdlab::ExperimentSpec(const fdlab::ExperimentSpec& base)> reader);
    /// The state: the spec last applied (adapted to the loaded data), the data, the budget.
    const fdlab::ExperimentState& state() const { return m_state; }

    // ---- data ----
    /// Loads "bundled:NAME" or a file path in the background; dataLoaded or dataFailed follows.
    /// Data chosen on its own: the spec is adapted to it (split, task, levels, budget, title).
    void openSource(const QString& source, const fdlab::LoadOptions& options = {});
    DatasetPtr data() const { return m_data; }
    QString loadedSource() const { return m_loadedSource; }
    const fdlab::LoadOptions& loadOptions() const { return m_loadOptions; }
    DatasetLoader* loader() const { return m_loader; }
    /// Importance values edited by hand replace the spec's importance at the next run.
    void setEditedImportance(const std::vector<double>& values);

    // ---- runs ----
    /// Starts `spec` as it is; its data, task and threat become the state's.
    void run(const fdlab::ExperimentSpec& spec);
    /// Builds the spec from the panels and starts it; false (and errorOccurred) when invalid.
    bool runCurrent();
    /// Requests the run's stop; finished() still follows with the points done so far.
    void cancel();
    bool isRunning() const;
    /// Shows a saved result (results file): no run, the views draw it as finished.
    void showResult(const fdlab::ExperimentResult& r);
    /// The spec of the running or last run, and the last finished (or cancelled) run.
    const std::optional<fdlab::ExperimentSpec>& runSpec() const { return m_runSpec; }
    const std::optional<fdlab::ExperimentResult>& lastResult() const { return m_result; }
    /// Trains learner `learnerId` of the run's (else the current) spec and saves it.
    void exportModel(const QString& path, const QString& learnerId);

    // ---- the one budget ----
    /// The adversary's budget (clamped once, by the state, to the data and threat).
    double budget() const { return m_state.budget(); }
    /// Largest budget for the current threat and data (K <= n; N < V; 1 for fractions).
    double maxBudget() const { return m_state.maxBudget(); }
    void setBudget(double b);

    /// Tab ids apply() accepts, in the order of the central tabs.
    static QStringList tabIds();

signals:
    /// A spec was applied: the panels show it.
    void specApplied(const fdlab::ExperimentSpec& spec);
    /// The experiment shown changed (another spec, other data): views still showing the previous
    /// one clear themselves (heatmaps, message view, play) so nothing is shown unlabelled.
    void viewsStale();
    /// Data arrived; `spec` is the state's spec adapted to it (the panels show it), `note` says
    /// what was adapted ("" when nothing).
    void dataLoaded(const QString& source, fdlab::ui::DatasetPtr data, const QString& format,
                    const fdlab::ExperimentSpec& spec, const QString& note);
    void dataFailed(const QString& source, const QString& message);
    /// A run started with `spec` (its title and legend are the curves').
    void runStarted(const fdlab::ExperimentSpec& spec);
    /// A curve point; `fraction` of all expected points are done.
    void pointAdded(const fdlab::CurvePoint& p, double fraction);
    void progressMessage(const QString& message);
    void finished(const fdlab::ExperimentResult& r);
    /// A saved result is shown (showResult): drawn as it was saved, no run started or finished.
    void resultShown(const fdlab::ExperimentResult& r);
    void failed(const QString& message);
    /// The heatmaps' models are trained.
    void heatmapsReady(std::shared_ptr<const fdlab::ui::HeatmapContext> context);
    /// The one budget changed (already clamped); the Attack panel and the Heatmaps tab follow.
    void budgetChanged(double budget, double maxBudget);
    void instanceRequested(int instance);
    /// One of tabIds().
    void tabRequested(const QString& tab);
    /// StateChange::keep: the Curves tab keeps these curves (an empty label: drops its kept ones).
    void keptCurvesRequested(const fdlab::KeptCurves& curves);
    void statusMessage(const QString& message, int timeoutMs);
    void errorOccurred(const QString& title, const QString& message);
    void modelSaved(const QString& path);
    /// The importance values the run will use (repetition 0's training part) when the spec does
    /// not simply keep the data's own (mutual information, uniform, a file): the Importance panel shows them.
    void importanceReady(const std::vector<double>& values, const QString& what);

private:
    void onLoaded(const QString& source, DatasetPtr data, const QString& format);
    void onFailed(const QString& source, const QString& message);
    void onPoint(quint64 runId, const fdlab::CurvePoint& p);
    void onFinished(quint64 runId, const fdlab::ExperimentResult& r);
    void onRunFailed(quint64 runId, const QString& message);
    void applySpec(const fdlab::ExperimentSpec& spec);
    /// Stops a run going on and drops all it would still report.
    void abandonRun();
    void prepareHeatmaps(const fdlab::ExperimentResult& r);
    void computeRunImportance();

    fdlab::ExperimentState m_state;
    std::function<fdlab::ExperimentSpec(const fdlab::ExperimentSpec&)> m_reader;
    DatasetLoader* m_loader = nullptr;
    ExperimentWorker* m_worker = nullptr;
    JobRunner* m_heatmapJobs = nullptr;
    JobRunner* m_exportJobs = nullptr;
    JobRunner* m_importanceJobs = nullptr;
    DatasetPtr m_data;
    QString m_loadedSource;
    fdlab::LoadOptions m_loadOptions;
    QString m_specSource;   ///< data being loaded for a spec (its split is kept as the spec says)
    std::optional<std::vector<double>> m_editedImportance;
    std::optional<fdlab::ExperimentSpec> m_runSpec;
    std::optional<fdlab::ExperimentResult> m_result;
    std::optional<double> m_pendingBudget;   ///< asked for while the heatmaps were being prepared
    std::optional<int> m_pendingInstance;
    int m_pointCount = 0;
    quint64 m_runId = 0;   ///< the run whose reports are taken (0: none)
};

}  // namespace fdlab::ui

Q_DECLARE_METATYPE(std::shared_ptr<const fdlab::ui::HeatmapContext>)
