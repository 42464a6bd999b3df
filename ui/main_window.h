#pragma once
// The main window only assembles panels, views and workers; it computes nothing. Core does the
// work on worker threads (DatasetLoader, ExperimentWorker, JobRunner); the window hands specs
// to them and draws what comes back.

#include "core/eval/experiment_runner.h"
#include "ui/workers/core_metatypes.h"
#include "ui/workers/dataset_loader.h"

#include <QMainWindow>

#include <optional>

class QTabWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QMenu;
class QAction;
class QDockWidget;

namespace fdlab::ui {

class DatasetPanel;
class DataView;
class AlgorithmsPanel;
class AttackPanel;
class CurvePlot;
class ExperimentWorker;
class JobRunner;
class ImportanceEditor;
class LabelNoiseView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// What `fdlab` opens with: MNIST 3 vs 5, SVM / FDROP / MCF / Dekel-Shamir LP under random
    /// deletion of 0..150 pixels, tuned per level, 3 repetitions.
    static fdlab::ExperimentSpec defaultExperiment();

    /// Loads "bundled:NAME" or a file path in the background.
    void openSource(const QString& source, const fdlab::LoadOptions& options = {});
    DatasetPtr currentDataset() const { return m_data; }

    /// Shows `spec` in the panels (and loads its dataset); runs it when `run` is true.
    void loadSpec(const fdlab::ExperimentSpec& spec, bool run);
    /// The spec the panels describe now (throws std::invalid_argument when a field is wrong).
    fdlab::ExperimentSpec buildSpec() const;
    /// Builds the spec from the panels and starts it; false (and a message) when it is invalid.
    bool runFromPanels();
    /// Starts `spec` as it is (the panels are not read).
    void runSpec(const fdlab::ExperimentSpec& spec);
    /// Requests the run's stop; it still reports finished() with the points done so far.
    void cancelRun();
    bool isRunning() const;
    /// The last finished (or cancelled) run.
    const std::optional<fdlab::ExperimentResult>& lastResult() const { return m_result; }

    // Files (return false and report the error when something fails).
    bool saveExperiment(const QString& path);   ///< with results when there are any
    /// Results files are redrawn, not rerun. A run going on is abandoned (nothing of it joins
    /// the opened experiment); so does a preset or any loadSpec.
    bool openExperiment(const QString& path);
    bool exportPlot(const QString& path, int width, int height);
    /// .csv (curves), .json (results), .tex (a pgfplots figure, or with texTable a booktabs table).
    bool exportCurves(const QString& path, bool texTable = false);
    /// Trains learner `learnerId` of the current spec on repetition 0's training data on a
    /// worker and saves it (modelSaved / errorShown follow).
    void exportModel(const QString& path, const QString& learnerId);
    void runPreset(const QString& name);

    DataView* dataView() const { return m_dataView; }
    DatasetPanel* datasetPanel() const { return m_datasetPanel; }
    AlgorithmsPanel* algorithmsPanel() const { return m_algorithmsPanel; }
    AttackPanel* attackPanel() const { return m_attackPanel; }
    CurvePlot* curvePlot() const { return m_curves; }
    QTabWidget* tabs() const { return m_tabs; }
    QWidget* heatmapView() const { return m_heatmapWidget; }
    ImportanceEditor* importanceEditor() const { return m_importance; }

signals:
    /// Emitted after a dataset has been shown (for tests and later panels).
    void datasetShown(const QString& source);
    void datasetFailed(const QString& source, const QString& message);
    void runStarted();
    void pointAdded(const fdlab::CurvePoint& p);
    void runFinished(const fdlab::ExperimentResult& r);
    void runFailed(const QString& message);
    void heatmapsReady();
    void modelSaved(const QString& path);
    /// Every error shown to the user (also when quietErrors suppresses the dialog).
    void errorShown(const QString& message);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void buildToolBar();
    void buildStatusBar();
    void openFileDialog();
    void openTextCorpusDialog();
    void openExperimentDialog();
    void saveExperimentDialog();
    void exportPlotDialog();
    void exportCurvesDialog();
    void exportModelDialog();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void onLoaded(const QString& source, DatasetPtr data, const QString& format);
    /// Hands the loaded data, as the Dataset panel's task makes it, to the Label noise tab
    /// (which offers it when it has two classes). Only when the data or the task changed.
    void updateLabelNoiseData();
    void onFailed(const QString& source, const QString& message);
    // Reports of the experiment worker; only those of run m_runId are taken.
    void onPoint(quint64 runId, const fdlab::CurvePoint& p);
    void onProgress(quint64 runId, double fraction, const QString& message);
    void onFinished(quint64 runId, const fdlab::ExperimentResult& r);
    void onRunFailed(quint64 runId, const QString& message);
    /// Stops a run going on and drops all it would still report (an opened experiment replaces
    /// it); hides the progress bar.
    void abandonRun();
    void setRunning(bool running);
    void prepareHeatmaps(const fdlab::ExperimentResult& r);
    void showError(const QString& title, const QString& message);

    DatasetLoader* m_loader = nullptr;
    ExperimentWorker* m_worker = nullptr;
    JobRunner* m_heatmapJobs = nullptr;   // trains the models the Heatmaps tab shows
    JobRunner* m_exportJobs = nullptr;    // trains a model for Export model
    DatasetPanel* m_datasetPanel = nullptr;
    AlgorithmsPanel* m_algorithmsPanel = nullptr;
    AttackPanel* m_attackPanel = nullptr;
    ImportanceEditor* m_importance = nullptr;
    QTabWidget* m_tabs = nullptr;
    DataView* m_dataView = nullptr;
    LabelNoiseView* m_labelNoise = nullptr;
    CurvePlot* m_curves = nullptr;
    QWidget* m_heatmapWidget = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    std::vector<QDockWidget*> m_docks;

    DatasetPtr m_data;
    std::pair<const fdlab::Dataset*, std::string> m_labelNoiseKey;   // data and task last handed over
    QString m_loadedSource;
    fdlab::LoadOptions m_loadOptions;   ///< how the current file source is read (import dialog)
    fdlab::ExperimentSpec m_spec;                 // the template the panels edit on top of
    std::optional<fdlab::ExperimentSpec> m_runSpec;   // the spec of the running / last run
    std::optional<fdlab::ExperimentResult> m_result;
    bool m_importanceEdited = false;
    int m_pointCount = 0;
    quint64 m_runId = 0;      ///< the run whose points and result the window takes (0: none)
    QString m_specSource;     ///< data being loaded for a spec (its split is kept as the spec says)
};

}  // namespace fdlab::ui
