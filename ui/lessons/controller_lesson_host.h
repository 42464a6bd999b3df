#pragma once
// The lesson host over the application's one state command: a lesson step becomes a StateChange
// handed to ExperimentController::apply (spec, budget, instance, tab, run), and the controller's
// finished / failed reports are the host's. The main window's lessons use it (add_lessons.h).

#include "ui/lessons/lesson_host.h"

namespace fdlab::ui {

class ExperimentController;

class ControllerLessonHost : public LessonHost {
    Q_OBJECT
public:
    explicit ControllerLessonHost(ExperimentController* controller, QObject* parent = nullptr);
    void apply(const LessonStateChange& change) override;
    const fdlab::ExperimentResult* lastResult() const override;

private:
    ExperimentController* m_controller;
};

}  // namespace fdlab::ui
