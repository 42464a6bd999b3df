#pragma once
// Multi-task experiments (ExperimentSpec::tasks, e.g. the 12 MNIST digit pairs over which
// Globerson and Roweis average): each task runs as its own single-task experiment
// (ExperimentSpec::taskSpec: same learners, attack, levels, repetitions and seed), and the
// paper's aggregate is the mean over tasks of each task's mean error per learner and level.
//
// Jobs are numbered task-major: job k of task t, repetition r, learner l (L learners, R_t
// repetitions of task t) is  offset(t) + r L + l,  offset(t) = sum over u < t of R_u L. For a
// single-task spec this is the runner's own numbering (r L + l), so shards, parts and merges
// (core/eval/sharding.h) work on tasks x repetitions x learners unchanged.
//
// Points and summaries carry their task index (CurvePoint::task); a single-task experiment's
// are all 0, and its results files are written exactly as before.

#include "core/eval/experiment_runner.h"

#include <string>
#include <vector>

namespace fdlab {

struct JobRef {
    int task = 0;
    int repetition = 0;
    int learnerIndex = 0;
};

/// Number of jobs: sum over tasks of repetitionCount(task) x learners.
int jobCount(const ExperimentSpec& spec);
/// The job index of (task, repetition, learner) (std::out_of_range outside the experiment).
int jobIndex(const ExperimentSpec& spec, int task, int repetition, int learnerIndex);
/// Inverse of jobIndex (std::out_of_range outside [0, jobCount)).
JobRef jobRef(const ExperimentSpec& spec, int job);

/// Runs a multi-task spec (runExperiment calls it): every task with jobs in options.jobs (all
/// when empty) in task order, each on spec.threads threads; points carry their task index, and
/// onPoint sees them so. Warnings of a task are prefixed with its name; the data's warnings of
/// every task come first, then the jobs' in job order. The provenance's data fingerprint covers
/// every task's data (each task's data is loaded, also for tasks without jobs).
ExperimentResult runTasks(const ExperimentSpec& spec, const RunControl& rc, const PointCallback& onPoint,
                          const RunOptions& options);

/// The data fingerprint of a multi-task spec: every task's dataFingerprint combined in task
/// order (loads every task's data). For a single-task spec, dataFingerprint of its data.
std::string experimentDataFingerprint(const ExperimentSpec& spec);

/// The paper's aggregate of a multi-task result: for each learner and level, the mean over the
/// tasks of each task's mean error (and AUC), error.n = the number of tasks that have the point,
/// error.se = the standard error of the per-task means across tasks. Sorted by (learner, level);
/// task = -1. Empty for a single-task result.
std::vector<CurveSummary> aggregateOverTasks(const ExperimentResult& r);

/// Task t of a result as a single-task result (its spec taskSpec(t), its points and summary with
/// task 0); for a single-task result and t = 0 the result itself.
ExperimentResult taskResult(const ExperimentResult& r, int t);
/// The aggregate as a result whose summary is aggregateOverTasks (task 0, no points), for code
/// that draws or checks a result's summary curves (charts, the report's claims). Its spec is
/// task 0's single-task spec (learners, levels, attack and paper as the experiment's): a view to
/// draw, not a run to save.
ExperimentResult aggregateResult(const ExperimentResult& r);

}  // namespace fdlab
