#pragma once
// The few lines that add lessons to the main window: a "Lessons" dock (hidden until asked for)
// and Help > Lessons (F1). The dock drives the window's one experiment state through
// ControllerLessonHost (ExperimentController::apply), never the window's widgets.

class QDockWidget;

namespace fdlab::ui {

class MainWindow;
class LessonDock;

/// Adds the lesson dock (hidden) and Help > Lessons to `window`; returns the dock.
LessonDock* addLessons(MainWindow& window);
/// The dock widget holding the lesson dock (to show it).
QDockWidget* lessonsDockWidget(MainWindow& window);

}  // namespace fdlab::ui
