#pragma once
// Runs lessons without a GUI: each step's experiment (a step that keeps the previous step's
// experiment reuses its run) and the step's observation computed from it. The GUI's lesson dock
// uses the same functions on its worker thread, so a student sees exactly what the tests check.

#include "core/eval/experiment_runner.h"
#include "core/eval/instance_view.h"
#include "core/teach/lesson.h"
#include "core/util/run_control.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fdlab {

/// Repetition 0's test set and the named learners trained on its training part with the
/// parameters the run chose there (paramsAtRepetition0, as the Heatmaps tab trains them), with
/// the run's test attack of repetition 0. Throws std::invalid_argument for an unknown learner id;
/// returns null when cancelled.
std::shared_ptr<InstanceViewContext> trainObservationModels(const ExperimentResult& r,
                                                            const std::vector<std::string>& learners,
                                                            const RunControl& rc = {});

/// Step `step`'s observation from `r`, the run of that step's experiment (trains the models the
/// observation needs). Throws std::invalid_argument naming the lesson file, the step and the
/// quantity when the run lacks something; an empty Observation when cancelled.
Observation observeStep(const Lesson& lesson, int step, const ExperimentResult& r, const RunControl& rc = {});

/// Whether `run` (a finished run's spec) is of lesson experiment `step`: the same data (dataset,
/// test file, task, or the tasks of a multi-task experiment), learners (ids and types), threat
/// (with its complete parameters and attacked classes), feature prices and levels. The window may
/// retitle the spec or add what its panels hold (a thread count), so the rest is not compared.
bool sameExperiment(const ExperimentSpec& run, const ExperimentSpec& step);

struct StepOutcome {
    int step = 0;
    std::shared_ptr<const ExperimentResult> result;   ///< shared with the previous step when it kept the experiment
    Observation observation;
    double seconds = 0.0;   ///< wall time of this step (run and observation)
};

/// Every step in order. `onStep` (optional) is called after each. Stops early when cancelled.
std::vector<StepOutcome> runLesson(const Lesson& lesson, const RunControl& rc = {},
                                   const std::function<void(const StepOutcome&)>& onStep = {});

}  // namespace fdlab
