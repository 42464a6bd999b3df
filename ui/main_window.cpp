#include "ui/main_window.h"

#include "core/eval/results_io.h"
#include "core/io/json_file.h"
#include "core/learners/registry.h"
#include "ui/dialogs/algorithm_help.h"
#include "ui/dialogs/export_dialog.h"
#include "ui/dialogs/import_dialog.h"
#include "ui/dialogs/text_corpus_dialog.h"
#include "ui/panels/algorithms_panel.h"
#include "ui/panels/attack_panel.h"
#include "ui/panels/compact_spin_box.h"
#include "ui/panels/data_view.h"
#include "ui/panels/dataset_panel.h"
#include "ui/panels/importance_editor.h"
#include "ui/panels/run_progress.h"
#include "ui/plots/curve_plot.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/robustness_view.h"
#include "ui/plots/label_noise_view.h"
#include "ui/plots/message_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <fstream>
#include <iterator>

namespace fdlab::ui {

namespace {
/// `w` in a frameless scroll area, so that its minimum size never forces the window wider than the screen.
QScrollArea* scrolled(QWidget* w, QWidget* parent) {
    auto* scroll = new QScrollArea(parent);
    scroll->setWidget(w);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("FDLab - Feature Deletion Lab"));
    setObjectName("fdlabMainWindow");
    resize(1200, 800);
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_controller = new ExperimentController(defaultExperiment(), this);

    // Central tabs; the heatmap and label-noise views are large, hence scrolled.
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("centralTabs");
    m_curves = new CurvePlot(m_tabs);
    m_heatmapWidget = new HeatmapView(m_tabs);
    m_dataView = new DataView(m_tabs);
    m_labelNoise = new LabelNoiseView(m_tabs);
    m_tabById = {{"curves", m_tabs->widget(m_tabs->addTab(m_curves, tr("Curves")))},
                 {"heatmaps", m_tabs->widget(m_tabs->addTab(scrolled(m_heatmapWidget, m_tabs), tr("Heatmaps")))},
                 {"data", m_tabs->widget(m_tabs->addTab(m_dataView, tr("Data")))},
                 {"label-noise", m_tabs->widget(m_tabs->addTab(scrolled(m_labelNoise, m_tabs), tr("Label noise")))}};
    m_tabById.insert("robustness", addRobustnessTab(m_tabs, static_cast<HeatmapView*>(m_heatmapWidget)));
    // The loaded data's two-class task is offered there; the task may have changed since.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_tabs->widget(index)->isAncestorOf(m_labelNoise)) updateLabelNoiseData();
    });
    // Under the views, a run's progress in presentation mode (the status bar is hidden there).
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_tabs, 1);
    m_presentationProgress = new RunProgress(m_controller, true, central);
    m_presentationProgress->setObjectName("presentationProgress");
    m_presentationProgress->setWanted(false);
    centralLayout->addWidget(m_presentationProgress);
    setCentralWidget(central);

    // Docks: dataset and importance on the left, algorithms and attack on the right.
    m_datasetPanel = new DatasetPanel;
    QDockWidget* datasetDock = addDock(m_datasetPanel, tr("Dataset"), "datasetDock", Qt::LeftDockWidgetArea);
    m_importance = new ImportanceEditor;
    m_importance->setProperty("quietErrors", property("quietErrors"));
    tabifyDockWidget(datasetDock, addDock(m_importance, tr("Importance"), "importanceDock", Qt::LeftDockWidgetArea));
    datasetDock->raise();
    m_algorithmsPanel = new AlgorithmsPanel;
    addDock(m_algorithmsPanel, tr("Algorithms"), "algorithmsDock", Qt::RightDockWidgetArea);
    m_attackPanel = new AttackPanel;
    addDock(m_attackPanel, tr("Attack"), "attackDock", Qt::RightDockWidgetArea);

    buildMenus();
    buildToolBar();
    buildStatusBar();
    connectController();
    showSpec(m_controller->state().spec());   // Run does something sensible from the start

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: dock sizes apply once the window has its real size.
        resizeDocks({m_docks[0], m_docks[2]}, {260, 320}, Qt::Horizontal);
        resizeDocks({m_docks[2], m_docks[3]}, {360, 340}, Qt::Vertical);
    }
    // Never larger than the screen's free area (under Xvfb no window manager clamps it).
    if (const QScreen* sc = screen()) {
        const QSize avail = sc->availableGeometry().size();
        resize(std::min(width(), avail.width()), std::min(height(), avail.height()));
    }
    statusBar()->showMessage(tr("Ready"));
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addDock(QWidget* w, const QString& title, const char* name, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    compactEditors(w);
    dock->setWidget(scrolled(w, dock));
    addDockWidget(area, dock);
    m_docks.push_back(dock);
    // Below the first-start widths (resizeDocks), so that the docks can give way on a 1024 px
    // screen; the scroll area takes what no longer fits.
    dock->setMinimumWidth(area == Qt::LeftDockWidgetArea ? 220 : 240);
    return dock;
}

void MainWindow::connectController() {
    ExperimentController* c = m_controller;
    c->setSpecReader([this](const ExperimentSpec& base) {
        ExperimentSpec spec = base;
        m_datasetPanel->applyTo(spec);
        spec.learners = m_algorithmsPanel->learners();
        m_attackPanel->applyTo(spec);
        return spec;
    });
    auto* view = static_cast<HeatmapView*>(m_heatmapWidget);
    connect(m_datasetPanel, &DatasetPanel::datasetRequested, c, [c](const QString& s) { c->openSource(s); });
    connect(m_datasetPanel, &DatasetPanel::openFileRequested, this, &MainWindow::openFileDialog);
    connect(m_datasetPanel, &DatasetPanel::openTextCorpusRequested, this, &MainWindow::openTextCorpusDialog);
    connect(m_importance, &ImportanceEditor::importanceChanged, this, [this](const std::vector<double>& v) {
        if (!m_showingRunImportance) m_controller->setEditedImportance(v);
    });
    connect(c, &ExperimentController::importanceReady, this, [this](const std::vector<double>& v) {
        m_showingRunImportance = true;
        m_importance->setImportance(v);
        m_showingRunImportance = false;
    });

    // The one budget: the Attack panel and the Heatmaps tab show the state's (clamped once).
    connect(m_attackPanel, &AttackPanel::budgetChanged, c, [this](double b) {
        if (!m_syncingBudget) m_controller->setBudget(b);
    });
    connect(view->budgetSlider(), &QSlider::valueChanged, c, [this, view] {
        if (!m_syncingBudget && view->hasContext() && view->threat() == m_attackPanel->threat())
            m_controller->setBudget(view->budget());
    });
    connect(c, &ExperimentController::budgetChanged, this, [this, view](double b, double maxBudget) {
        m_syncingBudget = true;
        if (const DatasetPtr& d = m_controller->data())
            m_attackPanel->setBudgetBounds(d->features(), m_controller->state().totalValue());
        m_attackPanel->setBudget(b);
        if (view->hasContext() && view->threat() == m_attackPanel->threat()) {
            view->setMaxBudget(maxBudget);
            view->setBudget(b);
        }
        m_syncingBudget = false;
    });
    connect(c, &ExperimentController::heatmapsReady, this, [this, view](std::shared_ptr<const HeatmapContext> h) {
        m_syncingBudget = true;
        view->setContext(h->test, h->models, h->attack, h->budget, h->train, h->preprocessor);
        m_syncingBudget = false;
        // Open on a digit the first learner (SVM) loses under the attack and the second (FDROP)
        // keeps; the view performs the jump once its analysis has arrived.
        view->jumpToLostByFirstKeptBySecond();
        emit heatmapsReady();
    });
    connect(c, &ExperimentController::instanceRequested, view, &HeatmapView::setInstance);
    // Views still showing the previous experiment (its heatmaps, its message view, Play) clear.
    connect(c, &ExperimentController::viewsStale, view, [view] {
        view->clear();
        view->messageView()->clear();
    });
    connect(c, &ExperimentController::tabRequested, this, [this](const QString& id) {
        if (QWidget* page = m_tabById.value(id)) m_tabs->setCurrentWidget(page);
    });

    connect(c, &ExperimentController::keptCurvesRequested, this, [this](const KeptCurves& k) {
        if (k.ifKept && m_curves->keptLabel() != QString::fromStdString(*k.ifKept)) return;
        if (k.label.empty()) m_curves->dropKeptCurves();
        else m_curves->keepCurves(QString::fromStdString(k.label), k.points, k.spec);
    });
    connect(c, &ExperimentController::specApplied, this, &MainWindow::showSpec);
    connect(c, &ExperimentController::dataLoaded, this, &MainWindow::onLoaded);
    connect(c, &ExperimentController::dataFailed, this, &MainWindow::datasetFailed);
    // (The progress bars follow the runs by themselves: RunProgress.)
    connect(c, &ExperimentController::runStarted, this, [this](const ExperimentSpec& spec) {
        m_curves->setSpec(spec);
        m_cancelAction->setEnabled(true);
        emit runStarted();
    });
    connect(c, &ExperimentController::pointAdded, this, [this](const CurvePoint& p) {
        m_curves->addPoint(p);
        emit pointAdded(p);
    });
    connect(c, &ExperimentController::finished, this, [this](const ExperimentResult& r) {
        m_cancelAction->setEnabled(false);
        m_curves->setPoints(r.points);   // the engine's sorted, complete list
        m_curves->setWarnings(r.warnings);
        emit runFinished(r);
    });
    connect(c, &ExperimentController::resultShown, this, [this](const ExperimentResult& r) {
        m_cancelAction->setEnabled(false);
        m_curves->setSpec(r.spec);
        m_curves->setPoints(r.points);
        m_curves->setWarnings(r.warnings);
    });
    connect(c, &ExperimentController::failed, this, [this](const QString& message) {
        m_cancelAction->setEnabled(false);
        if (!message.isEmpty()) emit runFailed(message);
    });
    connect(c, &ExperimentController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(c, &ExperimentController::errorOccurred, this, &MainWindow::showError);
    connect(c, &ExperimentController::modelSaved, this, &MainWindow::modelSaved);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open dataset..."), QKeySequence::Open, this, &MainWindow::openFileDialog);
    file->addAction(tr("Open &text corpus..."), this, &MainWindow::openTextCorpusDialog);
    file->addAction(tr("Open e&xperiment..."), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open experiment"), QString(),
                                                          tr("Experiments and results (*.json);;All files (*)"));
        if (!path.isEmpty()) openExperiment(path);
    });
    file->addAction(tr("&Save experiment..."), QKeySequence::Save, this, [this] {
        // *.fdlab.json: the MIME type the Debian package registers, so a double-click opens FDLab.
        const QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"), "experiment.fdlab.json",
                                                          tr("FDLab experiment (*.fdlab.json);;JSON (*.json)"));
        if (!path.isEmpty()) saveExperiment(path);
    });
    file->addSeparator();
    file->addAction(tr("Export &plot..."), QKeySequence(tr("Ctrl+E")), this, [this] {
        ExportDialog dlg("curves.png", this);
        if (dlg.exec() == QDialog::Accepted && !dlg.path().isEmpty())
            exportPlot(dlg.path(), dlg.exportWidth(), dlg.exportHeight());
    });
    file->addAction(tr("Export &curves (CSV/JSON/LaTeX)..."), this, [this] {
        const QString table = tr("LaTeX table, booktabs (*.tex)");
        QString filter;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export curves"), "curves.csv",
            tr("Curves CSV (*.csv);;Results JSON (*.json);;LaTeX figure, pgfplots (*.tex);;") + table, &filter);
        if (!path.isEmpty()) exportCurves(path, filter == table);
    });
    file->addAction(tr("Export &model..."), this, [this] {
        // The selected row itself (its id), not its type: SVM-A and SVM-B are both "svm".
        const QString id = QString::fromStdString(m_algorithmsPanel->selectedLearnerId());
        if (id.isEmpty()) return showError(tr("Export model"), tr("Select a ticked learner in the Algorithms panel first."));
        const QString path = QFileDialog::getSaveFileName(this, tr("Export model %1").arg(id), id + ".json",
                                                          tr("Model file (*.json)"));
        if (!path.isEmpty()) exportModel(path, id);
    })->setObjectName("exportModelAction");
    file->addSeparator();
    m_recentMenu = file->addMenu(tr("&Recent files"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(tr("&Run experiment"), QKeySequence(tr("Ctrl+R")), this, [this] { runFromPanels(); });
    m_runAction->setToolTip(tr("Run the experiment the panels describe (Ctrl+R)"));
    m_cancelAction = run->addAction(tr("&Cancel"), QKeySequence(tr("Esc")), this, &MainWindow::cancelRun);
    m_cancelAction->setEnabled(false);

    buildPresetMenu(menuBar()->addMenu(tr("&Presets")));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : m_docks) m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    for (int i = 0; i < m_tabs->count(); ++i)
        m_viewMenu->addAction(m_tabs->tabText(i), QKeySequence(QString("Ctrl+%1").arg(i + 1)), this,
                              [this, i] { m_tabs->setCurrentIndex(i); });
    m_viewMenu->addSeparator();
    m_presentationAction = m_viewMenu->addAction(tr("&Presentation (F11; Esc leaves)"));
    m_presentationAction->setObjectName("presentationAction");
    m_presentationAction->setShortcuts({QKeySequence(Qt::Key_F11), QKeySequence(tr("Ctrl+Shift+P"))});
    m_presentationAction->setCheckable(true);
    connect(m_presentationAction, &QAction::triggered, this, [this](bool on) { setPresentation(on); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About FDLab"), this, [this] {
        QMessageBox::about(this, tr("About FDLab"),
                           tr("<b>FDLab %1</b> - the Feature Deletion Lab.<p>How classifiers survive features "
                              "that vanish or are corrupted at test time, and labels flipped at training time."
                              "<p>Learners: see the Help menu's page for each algorithm (problem, paper, "
                              "parameters).")
                               .arg(FDLAB_VERSION));
    });
    QMenu* algorithms = help->addMenu(tr("&Algorithms"));
    for (const LearnerInfo& info : learnerCatalogue())
        algorithms->addAction(QString::fromStdString(info.title), this,
                              [this, name = info.name] { showAlgorithmHelp(name, this); });
}

void MainWindow::buildPresetMenu(QMenu* presets) {
    // One submenu per paper (core/eval/presets.h); each entry's one-line summary shows as its
    // tooltip and in the status bar.
    presets->setToolTipsVisible(true);
    presets->addAction(tr("Default: MNIST 3 vs 5"), this, [this] { loadSpec(defaultExperiment(), true); });
    presets->addSeparator();
    try {
        const std::vector<PresetInfo> all = listPresets();
        for (const std::string& group : presetGroups()) {
            QMenu* sub = nullptr;
            for (const PresetInfo& p : all) {
                if (p.group != group) continue;
                if (!sub) sub = presets->addMenu(QString::fromStdString(group));
                sub->setToolTipsVisible(true);
                QAction* a = sub->addAction(QString::fromStdString(p.title), this,
                                            [this, name = QString::fromStdString(p.name)] { runPreset(name); });
                a->setToolTip(QString::fromStdString(p.summary));
                a->setStatusTip(QString::fromStdString(p.summary));
            }
        }
    } catch (const std::exception& e) {
        presets->addAction(tr("(presets unavailable: %1)").arg(QString::fromStdString(e.what())))->setEnabled(false);
    }
}

void MainWindow::buildToolBar() {
    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName("mainToolBar");
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open data"), this, &MainWindow::openFileDialog)
        ->setToolTip(tr("Open a data file (Ctrl+O)"));
    tb->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save"), this, [this] {
          if (const QString p = QFileDialog::getSaveFileName(this, tr("Save experiment"), "experiment.fdlab.json",
                                                             tr("FDLab experiment (*.fdlab.json);;JSON (*.json)"));
              !p.isEmpty())
              saveExperiment(p);
      })->setToolTip(tr("Save the experiment with its results (Ctrl+S)"));
    tb->addSeparator();
    m_runAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_runAction->setIconText(tr("Run"));
    tb->addAction(m_runAction);
    m_cancelAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_cancelAction->setIconText(tr("Cancel"));
    tb->addAction(m_cancelAction);
}

void MainWindow::buildStatusBar() { statusBar()->addPermanentWidget(new RunProgress(m_controller, false, this)); }

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(title);
    emit errorShown(message);
    if (!property("quietErrors").toBool()) QMessageBox::critical(this, title, message);
}

void MainWindow::setPresentation(bool on, bool fullScreen) {
    if (on == presentation()) return;
    if (on) {
        m_presentation = Saved{saveGeometry(), saveState(), font(), isMaximized()};
        for (QDockWidget* d : m_docks) d->hide();
        for (QToolBar* t : findChildren<QToolBar*>()) t->hide();
        m_tabs->tabBar()->hide();
        // The menu and status bars go too (the view gets their height); the menus' shortcuts
        // (F11 and Esc among them) keep working as the window's own actions.
        for (QAction* m : menuBar()->actions())
            if (m->menu()) addActions(m->menu()->actions());
        menuBar()->hide();
        statusBar()->hide();
        m_presentationProgress->setWanted(true);
        QFont big = font();
        if (big.pointSizeF() > 0) big.setPointSizeF(big.pointSizeF() * 1.5);
        else big.setPixelSize(big.pixelSize() * 3 / 2);
        setFont(big);
        m_curves->setFontScale(1.5);
        m_cancelAction->setShortcut({});   // Esc leaves presentation mode
        m_presentationAction->setShortcuts({QKeySequence(Qt::Key_F11), QKeySequence(tr("Ctrl+Shift+P")), QKeySequence(Qt::Key_Escape)});
        if (fullScreen) showFullScreen();
    } else {
        const Saved saved = *std::exchange(m_presentation, std::nullopt);
        m_presentationAction->setShortcuts({QKeySequence(Qt::Key_F11), QKeySequence(tr("Ctrl+Shift+P"))});
        m_cancelAction->setShortcut(QKeySequence(tr("Esc")));
        setFont(saved.font);
        m_curves->setFontScale(1.0);
        m_tabs->tabBar()->show();
        menuBar()->show();
        statusBar()->show();
        m_presentationProgress->setWanted(false);
        if (isFullScreen()) saved.maximized ? showMaximized() : showNormal();
        restoreState(saved.state);   // docks and toolbar as they were
        restoreGeometry(saved.geometry);
    }
    m_presentationAction->setChecked(on);
}

// ---- datasets -------------------------------------------------------------------------------

void MainWindow::openFileDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open dataset"), QString(),
        tr("Data files (*.csv *.arff *.npy *.npz *.gz *-ubyte *.idx* *.libsvm *.svm *.txt);;All files (*)"));
    if (path.isEmpty()) return;
    LoadOptions options;
    if (ImportDialog::needed(path)) {
        ImportDialog dialog(path, this);
        if (dialog.exec() != QDialog::Accepted) return;
        options = dialog.options();
    }
    openSource(path, options);
}

void MainWindow::openTextCorpusDialog() {
    TextCorpusDialog dialog(m_controller->loader(), this);
    if (dialog.exec() == QDialog::Accepted) openSource(dialog.path(), dialog.options());
}

void MainWindow::showSpec(const ExperimentSpec& spec) {
    m_datasetPanel->setFromSpec(spec);
    m_algorithmsPanel->setLearners(spec.learners);
    m_attackPanel->setFromSpec(spec);
    // The curves keep what they show of this very experiment (a run going on, or a results file
    // whose data arrives after it was opened); another experiment clears them.
    const auto& shown = m_controller->runSpec();
    if (!shown || toJson(*shown) != toJson(spec)) m_curves->setSpec(spec);
}

void MainWindow::onLoaded(const QString& source, DatasetPtr data, const QString& format, const ExperimentSpec& spec,
                          const QString& note) {
    if (!format.isEmpty()) m_dataView->setDataset(data, format);
    m_datasetPanel->setClassNames(data->classNames);
    showSpec(spec);   // the spec as adapted to this data (task, split, levels, title)
    m_datasetPanel->setCurrentSource(source);
    QString shown = note;
    if (spec.multiTask()) {   // the panels hold one task: say so, the file's tasks are what runs
        QStringList names;
        for (const ExperimentTask& t : spec.tasks) names << QString::fromStdString(t.name);
        shown = tr("This experiment has %1 tasks (%2). The panels show the first; edits here do not change the "
                   "tasks, and Run runs all %1 as the file says.")
                    .arg(spec.tasks.size()).arg(names.join(", ")) + (note.isEmpty() ? QString() : " " + note);
    }
    m_datasetPanel->setNote(shown);
    m_importance->setDataset(data);
    updateLabelNoiseData();
    if (!source.startsWith("bundled:")) addRecent(source);
    emit datasetShown(source);
}

void MainWindow::updateLabelNoiseData() {
    const DatasetPtr data = m_controller->data();
    if (!data) return;
    ExperimentSpec spec;
    m_datasetPanel->applyTo(spec);
    const std::string task = spec.task.describe();
    if (m_labelNoiseKey.first == data.get() && m_labelNoiseKey.second == task) return;
    m_labelNoiseKey = {data.get(), task};
    try {
        auto d = std::make_shared<Dataset>(applyTask(*data, spec.task));
        if (spec.task.kind != TaskSpec::Kind::MultiClass) d->name += " (" + task + ")";
        m_labelNoise->setLoadedData(std::move(d));
    } catch (const std::exception&) {
        m_labelNoise->setLoadedData(nullptr);   // e.g. a class pair the data does not have
    }
}

// ---- experiments and files ------------------------------------------------------------------

void MainWindow::loadSpec(const ExperimentSpec& spec, bool run) {
    StateChange change;
    change.spec = spec;
    change.run = run;
    m_controller->apply(change);
}

void MainWindow::runPreset(const QString& name) {
    try {
        loadSpec(loadPresetOrFile(name.toStdString()), true);
    } catch (const std::exception& e) {
        showError(tr("Could not load the preset"), QString::fromStdString(e.what()));
    }
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList recent = s.value("recentFiles").toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > 10) recent.removeLast();
    s.setValue("recentFiles", recent);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    if (recent.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (path.endsWith(".json", Qt::CaseInsensitive))
                openExperiment(path);
            else
                openSource(path);
        })->setToolTip(path);
}

bool MainWindow::saveExperiment(const QString& path) {
    try {
        if (lastResult() && !lastResult()->points.empty())
            saveResultsJson(*lastResult(), path.toStdString());
        else
            saveExperimentFile(buildSpec(), path.toStdString());
        addRecent(path);
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Could not save the experiment"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::openExperiment(const QString& path) {
    try {
        // A results file (it has "points") is redrawn as saved; a plain experiment is run.
        std::ifstream in(path.toStdString());
        bool isResults = false;
        if (in) {
            try {
                const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                const nlohmann::json j = parseJsonText(text, path.toStdString());
                isResults = j.is_object() && j.contains("points");
            } catch (const std::exception&) {
                // core's loaders below report the error with the file name and position
            }
        }
        if (isResults) {
            const ExperimentResult r = loadResultsJson(path.toStdString());
            loadSpec(r.spec, false);
            m_controller->showResult(r);
            statusBar()->showMessage(tr("Opened %1: %2 points").arg(QFileInfo(path).fileName()).arg(r.points.size()));
        } else {
            loadSpec(loadExperimentFile(path.toStdString()), true);
        }
        addRecent(path);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Could not open the experiment"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::exportPlot(const QString& path, int width, int height) {
    QString error;
    if (!m_curves->exportTo(path, width, height, &error)) {
        showError(tr("Could not export the plot"), error);
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    return true;
}

bool MainWindow::exportCurves(const QString& path, bool texTable) {
    try {
        // A run in progress: what has been drawn so far.
        const auto& runSpec = m_controller->runSpec();
        saveResultsOrCurves(lastResult() ? *lastResult()
                                         : partialResult(runSpec ? *runSpec : m_controller->state().spec(), m_curves->points()),
                            path.toStdString(), texTable);
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Could not export the curves"), QString::fromStdString(e.what()));
        return false;
    }
}

// ---- window events --------------------------------------------------------------------------

void MainWindow::closeEvent(QCloseEvent* e) {
    setPresentation(false);   // the normal layout is the one remembered
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    m_controller->cancel();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& url : e->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (path.isEmpty()) continue;
        if (path.endsWith(".json", Qt::CaseInsensitive))
            openExperiment(path);
        else
            openSource(path);
        break;
    }
    e->acceptProposedAction();
}

}  // namespace fdlab::ui
