#pragma once
// What the lesson dock needs from the application: one command that sets the experiment state
// (the experiment, to be run; the budget, instance and tab the views show) and a signal when a
// run has finished. The dock never touches other widgets; ControllerLessonHost
// (controller_lesson_host.h) maps the command onto the one experiment state.

#include "core/eval/experiment_runner.h"
#include "core/eval/state_change.h"
#include "core/teach/lesson.h"

#include <QObject>

#include <optional>

namespace fdlab::ui {

/// One change of the experiment state: the same fields as the application's state command.
struct LessonStateChange {
    std::optional<fdlab::ExperimentSpec> spec;   ///< show this experiment (and load its data)
    fdlab::LessonView view;                      ///< budget / instance / tab to show (unset: keep)
    bool run = false;                            ///< start the experiment
    /// Curves the Curves tab keeps beside this step's (an earlier step's run), or (empty
    /// label) none; unset: as they are.
    std::optional<fdlab::KeptCurves> keep;
};

class LessonHost : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    /// Applies the change (never blocks: runs go to the application's worker).
    virtual void apply(const LessonStateChange& change) = 0;
    /// The last finished (or cancelled) run, if any.
    virtual const fdlab::ExperimentResult* lastResult() const = 0;

signals:
    /// A run started by apply(run = true) or by the user has finished (or was cancelled).
    void runFinished(const fdlab::ExperimentResult& r);
    /// A run failed to start or failed.
    void runFailed(const QString& message);
};

}  // namespace fdlab::ui
