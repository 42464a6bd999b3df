#include "core/teach/lesson_runner.h"

#include "core/eval/model_data.h"

#include <chrono>
#include <stdexcept>

namespace fdlab {

std::shared_ptr<InstanceViewContext> trainObservationModels(const ExperimentResult& r,
                                                            const std::vector<std::string>& learners,
                                                            const RunControl& rc) {
    const ExperimentSpec& spec = r.spec;
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    auto ctx = std::make_shared<InstanceViewContext>();
    for (const std::string& id : learners) {
        const LearnerSpec& l = learnerById(spec, id);
        TrainedModel m = trainLearner(l.learner, split.train, paramsAtRepetition0(&r, l), rc);
        if (rc.cancelled()) return nullptr;
        ctx->models.emplace_back(id, std::move(m));
    }
    ctx->test = std::make_shared<const Dataset>(std::move(split.test));
    ctx->donors = std::make_shared<const Dataset>(std::move(split.train));
    // The curves' test attack of repetition 0 (experiment_runner.cpp), as the Heatmaps tab uses.
    ctx->attack = resolvedAttack(spec, data.data);
    ctx->attack.seed = derivedSeed(spec, 0, 1);
    return ctx;
}

bool sameExperiment(const ExperimentSpec& run, const ExperimentSpec& step) {
    if (run.levels != step.levels || run.attack.threat != step.attack.threat || run.learners.size() != step.learners.size())
        return false;
    for (std::size_t i = 0; i < run.learners.size(); ++i)
        if (run.learners[i].id != step.learners[i].id || run.learners[i].learner != step.learners[i].learner) return false;
    // The data: a run of another dataset or class pair must not stand for the step's; nor one
    // under the same threat name with other attacked classes, parameters or feature prices
    // (toJson writes the threat's parameters complete, so a default written out is no change).
    const nlohmann::json a = toJson(run), b = toJson(step);
    for (const char* key : {"dataset", "test", "task", "tasks", "attack", "importance"})
        if (a.value(key, nlohmann::json()) != b.value(key, nlohmann::json())) return false;
    return true;
}

Observation observeStep(const Lesson& lesson, int step, const ExperimentResult& r, const RunControl& rc) {
    const LessonStep& s = lesson.steps.at(static_cast<std::size_t>(step));
    const std::string where = lesson.path + ": step " + std::to_string(step + 1) + " (\"" + s.title + "\")";
    try {
        std::shared_ptr<InstanceViewContext> models;
        if (s.observation.needsModels()) {
            models = trainObservationModels(r, s.observation.modelLearners(), rc);
            if (!models) return {};
        }
        ObservationInput in;
        in.result = &r;
        in.models = models.get();
        in.instance = lessonInstance(lesson, step);
        return computeObservation(s.observation, in);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(where + ": " + e.what());
    }
}

std::vector<StepOutcome> runLesson(const Lesson& lesson, const RunControl& rc,
                                   const std::function<void(const StepOutcome&)>& onStep) {
    std::vector<StepOutcome> out;
    std::shared_ptr<const ExperimentResult> run;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
        const auto start = std::chrono::steady_clock::now();
        const LessonStep& s = lesson.steps[static_cast<std::size_t>(i)];
        if (s.newExperiment || !run) {
            ExperimentResult r = [&] {
                try {
                    return runExperiment(s.experiment, rc);
                } catch (const std::invalid_argument& e) {   // a field that does not fit the data
                    throw std::invalid_argument(lesson.path + ": step " + std::to_string(i + 1) + " (\"" + s.title + "\"): experiment: " + e.what());
                }
            }();
            if (r.status == Status::Cancelled) break;
            if (r.status == Status::Failed)
                throw std::runtime_error(lesson.path + ": step " + std::to_string(i + 1) + ": the run failed: " + r.message);
            run = std::make_shared<const ExperimentResult>(std::move(r));
        }
        StepOutcome o;
        o.step = i;
        o.result = run;
        o.observation = observeStep(lesson, i, *run, rc);
        if (rc.cancelled()) break;
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (onStep) onStep(o);
        out.push_back(std::move(o));
    }
    return out;
}

}  // namespace fdlab
