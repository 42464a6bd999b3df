#include "ui/lessons/add_lessons.h"

#include "ui/lessons/controller_lesson_host.h"

#include "ui/lessons/lesson_dock.h"
#include "ui/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>

namespace fdlab::ui {

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
    auto* host = new ControllerLessonHost(window.controller(), &window);
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
    // Closing the dock ends what the lesson shows on the Curves tab (its kept curves); opening it
    // again brings them back. The view action follows the dock's own show and close, not a tab
    // switch when the dock shares its area with others.
    QObject::connect(holder->toggleViewAction(), &QAction::toggled, dock, [dock](bool open) {
        if (open) dock->reopened();
        else dock->closed();
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
