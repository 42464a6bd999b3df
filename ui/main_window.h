#pragma once
// The main window only builds panels, views and menus and connects them to the one experiment
// state (ExperimentController, ui/experiment_controller.h), which owns the workers and decides
// what every view shows. The window computes nothing; its public calls forward to the controller.

#include "core/eval/presets.h"
#include "ui/experiment_controller.h"

#include <QMainWindow>

#include <optional>

class QTabWidget;
class QLabel;
class QMenu;
class QAction;
class QDockWidget;

namespace fdlab::ui {

class DatasetPanel;
class DataView;
class AlgorithmsPanel;
class AttackPanel;
class CurvePlot;
class ImportanceEditor;
class LabelNoiseView;
class RunProgress;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// What `fdlab` opens with (core/eval/presets.h).
    static fdlab::ExperimentSpec defaultExperiment() { return fdlab::defaultExperiment(); }
    /// The one experiment state: lessons and views change what is shown through its apply().
    ExperimentController* controller() const { return m_controller; }

    /// Loads "bundled:NAME" or a file path in the background.
    void openSource(const QString& source, const fdlab::LoadOptions& options = {}) { m_controller->openSource(source, options); }
    DatasetPtr currentDataset() const { return m_controller->data(); }

    /// Shows `spec` in the panels (and loads its dataset); runs it when `run` is true.
    void loadSpec(const fdlab::ExperimentSpec& spec, bool run);
    /// The spec the panels describe now (throws std::invalid_argument when a field is wrong).
    fdlab::ExperimentSpec buildSpec() const { return m_controller->currentSpec(); }
    /// Builds the spec from the panels and starts it; false (and a message) when it is invalid.
    bool runFromPanels() { return m_controller->runCurrent(); }
    /// Starts `spec` as it is (the panels are not read).
    void runSpec(const fdlab::ExperimentSpec& spec) { m_controller->run(spec); }
    /// Requests the run's stop; it still reports finished() with the points done so far.
    void cancelRun() { m_controller->cancel(); }
    bool isRunning() const { return m_controller->isRunning(); }
    /// The last finished (or cancelled) run.
    const std::optional<fdlab::ExperimentResult>& lastResult() const { return m_controller->lastResult(); }

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
    void exportModel(const QString& path, const QString& learnerId) { m_controller->exportModel(path, learnerId); }
    void runPreset(const QString& name);

    /// Presentation mode (View > Presentation, F11): docks, toolbar and tab bar hidden, the
    /// current view alone, fonts 1.5x; `fullScreen` also fills the screen. Off restores the
    /// docks, fonts and geometry. Esc leaves it.
    void setPresentation(bool on, bool fullScreen = true);
    bool presentation() const { return m_presentation.has_value(); }

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
    QDockWidget* addDock(QWidget* w, const QString& title, const char* name, Qt::DockWidgetArea area);
    void connectController();
    void buildMenus();
    void buildPresetMenu(QMenu* presets);
    void buildToolBar();
    void buildStatusBar();
    void openFileDialog();
    void openTextCorpusDialog();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    /// The panels show `spec` (a spec applied, or the state's spec adapted to new data).
    void showSpec(const fdlab::ExperimentSpec& spec);
    void onLoaded(const QString& source, DatasetPtr data, const QString& format, const fdlab::ExperimentSpec& spec,
                  const QString& note);
    /// Hands the loaded data, as the Dataset panel's task makes it, to the Label noise tab
    /// (which offers it when it has two classes). Only when the data or the task changed.
    void updateLabelNoiseData();
    void showError(const QString& title, const QString& message);

    ExperimentController* m_controller = nullptr;
    DatasetPanel* m_datasetPanel = nullptr;
    AlgorithmsPanel* m_algorithmsPanel = nullptr;
    AttackPanel* m_attackPanel = nullptr;
    ImportanceEditor* m_importance = nullptr;
    QTabWidget* m_tabs = nullptr;
    QHash<QString, QWidget*> m_tabById;   ///< ExperimentController::tabIds() -> page
    DataView* m_dataView = nullptr;
    LabelNoiseView* m_labelNoise = nullptr;
    CurvePlot* m_curves = nullptr;
    QWidget* m_heatmapWidget = nullptr;
    RunProgress* m_presentationProgress = nullptr;   ///< under the views in presentation mode
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_presentationAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    std::vector<QDockWidget*> m_docks;

    std::pair<const fdlab::Dataset*, std::string> m_labelNoiseKey;   // data and task last handed over
    bool m_syncingBudget = false;   ///< a budget being handed to the views (no echo back)
    bool m_showingRunImportance = false;   ///< the Importance panel shows the run's values (not an edit)
    /// What presentation mode hides and scales, to restore it.
    struct Saved {
        QByteArray geometry, state;
        QFont font;
        bool maximized = false;
    };
    std::optional<Saved> m_presentation;
};

}  // namespace fdlab::ui
