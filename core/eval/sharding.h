#pragma once
// Sharded sweeps: an experiment split into independent tasks that an existing engine (GNU
// parallel, a Slurm job array) runs as separate processes, and the parts merged into exactly
// the results of a single-process run. FDLab schedules nothing itself.
//
// A task is one job of the runner (experiment_runner.h): one learner on one repetition, every
// level (of a multi-task experiment: on one of its tasks, core/eval/multi_task.h; parts then
// name it as "experiment_task" in their task list and their points carry "task"). It is the finest independent unit that costs no extra work: a learner's levels share
// its trained models (and, with tune_per_level, its validation attacks), so per-level tasks
// would retrain the model once per level. Every random draw derives from (seed, repetition,
// purpose), so a task's points do not depend on which process ran it.
//
// Shard assignment: tasks sorted by estimated cost (descending, ties by task index) go one by
// one to the shard with the least estimated cost so far (ties to the lowest shard index), the
// "longest processing time first" rule: deterministic, and within 4/3 of the best balance.
//
// Partial results ("parts") are results files (results_io.h) with a "part" object:
//   "part": {"format": "fdlab-results-part", "spec_fingerprint": "16 hex digits",
//            "data_fingerprint": "16 hex digits", "shard": {"index": i, "count": N}, "data_warnings": [...],
//            "tasks": [{"task": k, "repetition": r, "learner": "id", "learner_index": l,
//                       "complete": true, "warnings": [...]}, ...]}   (every task of the shard)
// and the points of the complete tasks only (a cancelled shard keeps its finished tasks).
// Every point must be one of its task's levels: its learner and level those of the spec at its
// learner_index and level_index, each level index once.
// The data fingerprint (dataFingerprint) covers the data the shard ran on, so parts run before
// and after a data file changed (same spec, other numbers) are refused by the merge.
//
// Merged results equal a single-process run's file byte for byte except these fields, which are
// timings or machine facts: "elapsed_seconds" (the merge gives the sum of the parts'),
// "threads" (the first part's), "spec"."threads" (the first part's spec) and every point's
// "train_seconds". Warnings are the data's own, then each task's in task order, as a full run
// lists them. The data's own warnings are combined from every part independently of the parts'
// order (an empty part, of a shard without tasks, has none; the others have the same list).

#include "core/eval/experiment_runner.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace fdlab {

/// "i/N": shard i (0-based) of N.
struct ShardId {
    int index = 0;
    int count = 1;
    /// Parses "i/N"; std::invalid_argument naming `option` unless 0 <= i < N.
    static ShardId parse(const std::string& text, const std::string& option = "--shard");
    std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// One independent task: learner `learnerIndex` on repetition `repetition`, every level.
struct ShardTask {
    int index = 0;          ///< runner job: repetition x learners + learnerIndex (multi-task: multi_task.h)
    int experimentTask = 0; ///< index into ExperimentSpec::tasks (0 for a single-task experiment)
    int repetition = 0;
    int learnerIndex = 0;
    std::string learner;    ///< LearnerSpec::id
    double cost = 0.0;      ///< estimated, relative units (see estimateTaskCost)
    int shard = 0;          ///< assigned shard
};

struct ShardPlan {
    std::string fingerprint;           ///< specFingerprint
    int shards = 1;
    std::vector<ShardTask> tasks;      ///< by index
    std::vector<double> shardCost;     ///< estimated cost per shard
    /// The tasks of one shard, increasing.
    std::vector<int> tasksOf(int shard) const;
};

/// 64-bit FNV-1a of the spec's canonical JSON (toJson, keys sorted, compact) without "threads"
/// (which changes no number), as 16 lower-case hex digits. Data, label and importance file paths
/// enter by their last component only: where the files are changes no number, and what is in
/// them is checked by dataFingerprint (merge and report --results refuse changed data).
std::string specFingerprint(const ExperimentSpec& spec);

/// specFingerprint without the words either: "name", "description" and "paper" (its summary,
/// claims and evidence) change no number of a run, so a finished run stays a run of its preset
/// when only these are edited afterwards (the report's --results).
std::string runFingerprint(const ExperimentSpec& spec);

/// 64-bit FNV-1a, as 16 lower-case hex digits, of the task data the runner loads for `spec`:
/// Dataset::fingerprint() (values, labels, feature names), class names and importance of the
/// data and of the fixed test file, and the bytes of an importance CSV file.
std::string dataFingerprint(const TaskData& data, const ExperimentSpec& spec);

/// A multi-task experiment's data fingerprint: 64-bit FNV-1a of its tasks' dataFingerprint
/// values in task order (core/eval/multi_task.h).
std::string combineFingerprints(const std::vector<std::string>& perTask);

/// A rough relative cost of one task of learner `learnerIndex` (every repetition costs the
/// same): trainings (grid candidates, cross-validation folds, one per level under label flips)
/// times a per-learner weight, plus test and validation attacks per level times a per-threat
/// weight. Only the ratios matter: they balance the shards.
double estimateTaskCost(const ExperimentSpec& spec, int learnerIndex);

/// The tasks and their assignment to `shards` shards (>= 1, else std::invalid_argument).
ShardPlan planShards(const ExperimentSpec& spec, int shards);

/// A partial result: the points of the complete tasks of one shard.
struct ShardPart {
    std::string source;                 ///< file it was read from (for errors); empty when run
    std::string version = FDLAB_VERSION;
    std::string fingerprint;
    std::string dataFingerprint;        ///< of the data the shard ran on (dataFingerprint)
    ShardId shard;
    ExperimentResult result;            ///< points of complete tasks; status/message of the shard run
    std::vector<int> tasks;             ///< every task of the shard, increasing
    std::vector<int> complete;          ///< the finished ones, increasing
    std::vector<std::string> dataWarnings;               ///< not tied to a task (test file alignment)
    std::map<int, std::vector<std::string>> taskWarnings;   ///< by task
};

/// Runs shard `id` of the spec's plan (progress and cancellation as runExperiment; a cancelled
/// shard keeps its finished tasks).
ShardPart runShard(const ExperimentSpec& spec, ShardId id, const RunControl& rc = {}, const PointCallback& onPoint = {});

nlohmann::json partToJson(const ShardPart& part);
/// Inverse of partToJson; DataError naming `source` for anything inconsistent (not a part,
/// fingerprint not the spec's, points of unlisted tasks, a complete task missing levels, a
/// point whose learner or level is not the spec's at its indices, a level index twice).
ShardPart partFromJson(const nlohmann::json& j, const std::string& source);
void savePart(const ShardPart& part, const std::string& path);   ///< atomic
ShardPart loadPart(const std::string& path);                     ///< DataError naming the file

struct MergeResult {
    ExperimentResult result;              ///< valid when missing is empty
    std::vector<int> missing;             ///< tasks no part completed
    std::vector<ShardId> rerun;           ///< the shards to run again for them (plan of the first part's N)
    std::vector<std::string> duplicates;  ///< "task 3 (SVM, repetition 1): a.json and b.json" (identical numbers)
    bool complete() const { return missing.empty(); }
};

/// Merges parts: same FDLab version (this build's), spec fingerprint and data fingerprint, else
/// DataError naming the odd file; a task completed twice with different numbers (timings aside) is a DataError
/// naming the second file; identical duplicates are kept once and listed.
MergeResult mergeParts(const std::vector<ShardPart>& parts);

}  // namespace fdlab
