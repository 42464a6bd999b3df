#include "ui/lessons/controller_lesson_host.h"

#include "core/eval/state_change.h"
#include "ui/experiment_controller.h"

namespace fdlab::ui {

ControllerLessonHost::ControllerLessonHost(ExperimentController* controller, QObject* parent)
    : LessonHost(parent ? parent : controller), m_controller(controller) {
    connect(controller, &ExperimentController::finished, this, &LessonHost::runFinished);
    connect(controller, &ExperimentController::failed, this, &LessonHost::runFailed);
}

void ControllerLessonHost::apply(const LessonStateChange& change) {
    StateChange s;
    s.spec = change.spec;
    s.budget = change.view.budget;
    s.instance = change.view.instance;
    if (!change.view.tab.empty()) s.tab = change.view.tab;
    s.run = change.run;
    s.keep = change.keep;
    m_controller->apply(s);
}

const ExperimentResult* ControllerLessonHost::lastResult() const {
    return m_controller->lastResult() ? &*m_controller->lastResult() : nullptr;
}

}  // namespace fdlab::ui
