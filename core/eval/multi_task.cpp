#include "core/eval/multi_task.h"

#include "core/eval/metrics.h"
#include "core/eval/provenance.h"
#include "core/eval/sharding.h"
#include "core/util/parallel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

namespace fdlab {

namespace {

int learnerCount(const ExperimentSpec& spec) { return static_cast<int>(spec.learners.size()); }

/// Jobs of task t (repetitions x learners).
int taskJobs(const ExperimentSpec& spec, int t) { return repetitionCount(spec.taskSpec(t)) * learnerCount(spec); }

}  // namespace

int jobCount(const ExperimentSpec& spec) {
    int n = 0;
    for (int t = 0; t < spec.taskCount(); ++t) n += taskJobs(spec, t);
    return n;
}

int jobIndex(const ExperimentSpec& spec, int task, int repetition, int learnerIndex) {
    const int L = learnerCount(spec);
    if (task < 0 || task >= spec.taskCount() || learnerIndex < 0 || learnerIndex >= L || repetition < 0 ||
        repetition >= repetitionCount(spec.taskSpec(task)))
        throw std::out_of_range("no job for task " + std::to_string(task) + ", repetition " + std::to_string(repetition) +
                                ", learner " + std::to_string(learnerIndex));
    int offset = 0;
    for (int t = 0; t < task; ++t) offset += taskJobs(spec, t);
    return offset + repetition * L + learnerIndex;
}

JobRef jobRef(const ExperimentSpec& spec, int job) {
    const int L = learnerCount(spec);
    int rest = job;
    for (int t = 0; t < spec.taskCount() && rest >= 0; ++t) {
        const int n = taskJobs(spec, t);
        if (rest < n) return {t, rest / L, rest % L};
        rest -= n;
    }
    throw std::out_of_range("job " + std::to_string(job) + " out of range (the experiment has " + std::to_string(jobCount(spec)) +
                            " jobs)");
}

std::string experimentDataFingerprint(const ExperimentSpec& spec) {
    if (!spec.multiTask()) return dataFingerprint(loadTaskData(spec), spec);
    std::vector<std::string> perTask;
    for (int t = 0; t < spec.taskCount(); ++t) {
        const ExperimentSpec one = spec.taskSpec(t);
        perTask.push_back(dataFingerprint(loadTaskData(one), one));
    }
    return combineFingerprints(perTask);
}

ExperimentResult runTasks(const ExperimentSpec& spec, const RunControl& rc, const PointCallback& onPoint,
                          const RunOptions& options) {
    Stopwatch clock;
    spec.validate();
    const int T = spec.taskCount();
    // The jobs of each task, in the task's own numbering.
    std::vector<std::vector<int>> jobsOf(static_cast<std::size_t>(T));
    std::vector<int> offset(static_cast<std::size_t>(T) + 1, 0);
    for (int t = 0; t < T; ++t) offset[static_cast<std::size_t>(t) + 1] = offset[static_cast<std::size_t>(t)] + taskJobs(spec, t);
    std::vector<int> jobs = options.jobs;
    if (jobs.empty())
        for (int k = 0; k < offset.back(); ++k) jobs.push_back(k);
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    long totalJobs = 0;
    for (int k : jobs) {
        const JobRef ref = jobRef(spec, k);   // out of range: named
        jobsOf[static_cast<std::size_t>(ref.task)].push_back(k - offset[static_cast<std::size_t>(ref.task)]);
        ++totalJobs;
    }

    ExperimentResult result;
    result.spec = spec;
    result.threads = spec.threads > 0 ? spec.threads : hardwareThreads();
    std::vector<std::string> fingerprints, dataWarnings, jobWarnings;
    const long pointsPerJob = static_cast<long>(spec.levels.size());
    long done = 0;
    bool failed = false;
    for (int t = 0; t < T; ++t) {
        const ExperimentSpec one = spec.taskSpec(t);
        const std::string prefix = "task '" + spec.taskName(t) + "': ";
        const std::vector<int>& mine = jobsOf[static_cast<std::size_t>(t)];
        if (mine.empty() || rc.cancelled()) {   // its data still counts: fingerprint and data warnings
            const TaskData data = loadTaskData(one);
            fingerprints.push_back(dataFingerprint(data, one));
            for (const std::string& w : taskDataWarnings(data)) dataWarnings.push_back(prefix + w);
            continue;
        }
        RunOptions sub;
        sub.jobs = mine;
        const int base = offset[static_cast<std::size_t>(t)];
        std::size_t ofJobs = 0;   // calls are serialised by the runner
        sub.onJobWarning = [&](int job, const std::string& w) {
            ++ofJobs;
            if (options.onJobWarning) options.onJobWarning(base + job, prefix + w);
        };
        sub.onData = [&](const TaskData& data) {
            fingerprints.push_back(dataFingerprint(data, one));
            if (options.onData) options.onData(data);
        };
        // Progress over all tasks: the points finished before this task plus this task's share.
        const long before = done * pointsPerJob, total = totalJobs * pointsPerJob;
        RunControl inner{{}, rc.stop};
        if (rc.onProgress)
            inner.onProgress = [&](const Progress& p) {
                const long n = before + p.iteration;
                rc.report(static_cast<double>(n) / static_cast<double>(total), n, prefix + p.message);
            };
        ExperimentResult r;
        try {
            r = runExperiment(one, inner, [&](const CurvePoint& p) {
                CurvePoint q = p;
                q.task = t;
                if (onPoint) onPoint(q);
            }, sub);
        } catch (const std::invalid_argument& e) {
            // A task's own data can refuse what the shared fields ask (a level larger than its
            // instances have features): say which task.
            throw std::invalid_argument(prefix + e.what());
        }
        done += static_cast<long>(mine.size());
        for (CurvePoint& p : r.points) {
            p.task = t;
            result.points.push_back(std::move(p));
        }
        // The task's data warnings come first in its result, then its jobs' (in job order).
        const std::size_t ofData = r.warnings.size() - ofJobs;
        for (std::size_t k = 0; k < r.warnings.size(); ++k) (k < ofData ? dataWarnings : jobWarnings).push_back(prefix + r.warnings[k]);
        if (r.status == Status::Failed) failed = true;
    }
    // As a single-task run: the data's warnings (every task's) first, then the jobs' in job order.
    result.warnings = std::move(dataWarnings);
    result.warnings.insert(result.warnings.end(), jobWarnings.begin(), jobWarnings.end());
    result.provenance = makeProvenance(spec, result.threads, combineFingerprints(fingerprints));
    std::sort(result.points.begin(), result.points.end(), pointLess);
    result.elapsed = clock.seconds();
    finishResult(result, rc.cancelled(), failed, totalJobs * pointsPerJob);
    return result;
}

std::vector<CurveSummary> aggregateOverTasks(const ExperimentResult& r) {
    if (!r.spec.multiTask()) return {};
    // Per (learner, level): the per-task means.
    std::map<std::pair<int, int>, std::vector<const CurveSummary*>> groups;
    for (const CurveSummary& s : r.summary) groups[{s.learnerIndex, s.levelIndex}].push_back(&s);
    std::vector<CurveSummary> out;
    for (const auto& [key, members] : groups) {
        std::vector<double> err, auc, errA, errO;
        for (const CurveSummary* s : members) {
            err.push_back(s->error.mean);
            auc.push_back(s->auc.mean);
            errA.push_back(s->errorAttacked.mean);
            errO.push_back(s->errorOthers.mean);
        }
        CurveSummary a;
        a.task = -1;
        a.learner = members.front()->learner;
        a.learnerIndex = key.first;
        a.levelIndex = key.second;
        a.level = members.front()->level;
        a.error = meanAndStandardError(err);
        // A mean over the tasks only when every task has one: the AUC of the binary tasks alone,
        // labelled as the mean over all, would mislead (a multi-class task has none).
        const bool everyTaskHasAuc = std::none_of(auc.begin(), auc.end(), [](double v) { return std::isnan(v); });
        a.auc = meanAndStandardError(everyTaskHasAuc ? auc : std::vector<double>{std::nan("")});   // as a multi-class task's
        a.errorAttacked = meanAndStandardError(errA);
        a.errorOthers = meanAndStandardError(errO);
        out.push_back(a);
    }
    return out;
}

ExperimentResult taskResult(const ExperimentResult& r, int t) {
    if (!r.spec.multiTask()) {
        if (t != 0) throw std::out_of_range("task " + std::to_string(t) + " of a single-task result");
        return r;
    }
    ExperimentResult one;
    one.spec = r.spec.taskSpec(t);   // range-checked
    one.status = r.status;
    one.message = r.message;
    one.elapsed = r.elapsed;
    one.threads = r.threads;
    one.provenance = r.provenance;
    const std::string prefix = "task '" + r.spec.taskName(t) + "': ";
    for (const std::string& w : r.warnings)
        if (w.starts_with(prefix)) one.warnings.push_back(w.substr(prefix.size()));
    for (const CurvePoint& p : r.points)
        if (p.task == t) {
            one.points.push_back(p);
            one.points.back().task = 0;
        }
    one.summary = summarizePoints(one.points);
    return one;
}

ExperimentResult aggregateResult(const ExperimentResult& r) {
    ExperimentResult a;
    a.spec = r.spec.taskSpec(0);
    a.status = r.status;
    a.message = r.message;
    a.warnings = r.warnings;
    a.elapsed = r.elapsed;
    a.threads = r.threads;
    a.provenance = r.provenance;
    a.summary = aggregateOverTasks(r);
    for (CurveSummary& s : a.summary) s.task = 0;
    return a;
}

}  // namespace fdlab
