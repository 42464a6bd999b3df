#pragma once
// The lesson host of the main window, and the few lines that add lessons to it: a "Lessons"
// dock (hidden until asked for), Help > Lessons, and the start page on first launch.

#include "ui/lessons/lesson_host.h"

#include <optional>

class QDockWidget;

namespace fdlab::ui {

class MainWindow;
class LessonDock;

/// Maps the lesson command onto the window: the experiment through loadSpec (its data loads and
/// it runs on the window's worker), the tab, and the budget and instance of the Heatmaps tab
/// once its models are trained.
class MainWindowLessonHost : public LessonHost {
    Q_OBJECT
public:
    explicit MainWindowLessonHost(MainWindow* window);
    void apply(const LessonStateChange& change) override;
    const fdlab::ExperimentResult* lastResult() const override;

private:
    void applyHeatmapView();
    MainWindow* m_window;
    std::optional<double> m_budget;
    std::optional<int> m_instance;
};

/// Adds the lesson dock (hidden) and Help > Lessons to `window`; returns the dock.
LessonDock* addLessons(MainWindow& window);
/// The dock widget holding the lesson dock (to show it).
QDockWidget* lessonsDockWidget(MainWindow& window);

}  // namespace fdlab::ui
