#include "ui/lessons/main_window_lesson_host.h"

#include "ui/lessons/lesson_dock.h"
#include "ui/main_window.h"
#include "ui/panels/attack_panel.h"
#include "ui/plots/heatmap_view.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTimer>
#include <QSpinBox>
#include <QTabWidget>

#include <algorithm>

namespace fdlab::ui {

namespace {

// Lesson tab ids and the central tabs' titles.
int tabIndex(QTabWidget* tabs, const std::string& id) {
    const QString title = id == "curves" ? "Curves" : id == "heatmaps" ? "Heatmaps" : id == "data" ? "Data" : "Label noise";
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove('&') == title) return i;
    return -1;
}

}  // namespace

MainWindowLessonHost::MainWindowLessonHost(MainWindow* window) : LessonHost(window), m_window(window) {
    connect(window, &MainWindow::runFinished, this, &LessonHost::runFinished);
    connect(window, &MainWindow::runFailed, this, &LessonHost::runFailed);
    connect(window, &MainWindow::heatmapsReady, this, &MainWindowLessonHost::applyHeatmapView);
    if (auto* view = qobject_cast<HeatmapView*>(window->heatmapView()))
        // The window opens new heatmaps on an instance A loses and B keeps; a lesson's own
        // instance wins once that jump is done.
        connect(view, &HeatmapView::jumpFinished, this, [this, view] {
            if (m_instance) view->setInstance(*m_instance);
        });
}

void MainWindowLessonHost::apply(const LessonStateChange& change) {
    if (change.view.budget) m_budget = change.view.budget;
    if (change.view.instance) m_instance = change.view.instance;
    if (change.spec) {
        m_window->loadSpec(*change.spec, change.run);
    } else if (change.run) {
        m_window->runFromPanels();
    }
    if (!change.view.tab.empty()) {
        const int i = tabIndex(m_window->tabs(), change.view.tab);
        if (i >= 0) m_window->tabs()->setCurrentIndex(i);
    }
    // Without a new run the heatmaps shown are this experiment's: set the view now.
    if (!change.spec && !change.run) applyHeatmapView();
}

const ExperimentResult* MainWindowLessonHost::lastResult() const {
    return m_window->lastResult() ? &*m_window->lastResult() : nullptr;
}

void MainWindowLessonHost::applyHeatmapView() {
    auto* view = qobject_cast<HeatmapView*>(m_window->heatmapView());
    if (!view || !view->hasContext()) return;
    if (m_budget) {
        view->setBudget(*m_budget);
        if (m_window->attackPanel()) m_window->attackPanel()->setBudget(*m_budget);
    }
    if (m_instance && *m_instance < (view->instanceSpin() ? view->instanceSpin()->maximum() + 1 : 0))
        view->setInstance(*m_instance);
}

LessonDock* addLessons(MainWindow& window) {
    std::vector<Lesson> lessons;
    std::vector<std::string> broken;
    QString error;
    try {
        lessons = listLessons(&broken);   // a broken file is reported, the others still listed
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    for (const std::string& b : broken) error += (error.isEmpty() ? "" : "\n\n") + QString::fromStdString(b);
    auto* host = new MainWindowLessonHost(&window);
    auto* dock = new LessonDock(host, std::move(lessons));
    auto* holder = new QDockWidget(QObject::tr("Lessons"), &window);
    holder->setObjectName("lessonsDockWidget");
    holder->setWidget(dock);
    window.addDockWidget(Qt::RightDockWidgetArea, holder);
    holder->hide();
    // Stacked under the Algorithms and Attack docks it would get a third of the column, and the
    // step text, "Try this" and the observation were cut to a line each at 1280x720: when it
    // opens it takes most of the column's height (the other docks scroll).
    QObject::connect(holder, &QDockWidget::visibilityChanged, &window, [&window, holder](bool visible) {
        if (!visible || holder->isFloating()) return;
        QTimer::singleShot(0, &window, [&window, holder] {
            window.resizeDocks({holder}, {std::max(480, window.height() * 4 / 5)}, Qt::Vertical);
        });
    });
    if (!error.isEmpty())
        QObject::connect(holder, &QDockWidget::visibilityChanged, &window, [&window, error](bool visible) {
            if (visible) QMessageBox::warning(&window, QObject::tr("Lessons"), QObject::tr("These lesson files are broken and left out; the other lessons are listed:\n\n%1").arg(error));
        });
    for (QAction* a : window.menuBar()->actions())
        if (a->menu() && a->text().remove('&') == "Help") {
            QAction* open = new QAction(QObject::tr("&Lessons"), a->menu());
            open->setObjectName("helpLessons");
            open->setShortcut(QKeySequence(Qt::Key_F1));
            QObject::connect(open, &QAction::triggered, holder, [holder] {
                holder->show();
                holder->raise();
            });
            a->menu()->insertAction(a->menu()->actions().value(0), open);
        }
    return dock;
}

QDockWidget* lessonsDockWidget(MainWindow& window) { return window.findChild<QDockWidget*>("lessonsDockWidget"); }

}  // namespace fdlab::ui
