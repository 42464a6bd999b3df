#pragma once
// Runs an experiment: error-versus-budget curves for every learner, level and repetition.
//
// Protocol, per repetition r (a seeded random split, or under k-fold CV fold r % k of the
// (r / k)-th shuffled partition: "repetitions": R runs R x k repetitions, repeated k-fold CV):
//   0. a synthetic dataset (a generator entry of the bundled catalogue, core/data/bundled.h) is
//      drawn anew for every repetition (under k-fold, for every shuffle), as the papers do, from
//      its own seed derivedSeed(spec, d, 5) = Rng(spec.seed).split(d).split(5).next(), d = r
//      (k-fold: r / k) (a generator test set: purpose 6); files are the same in every repetition;
//   1. split the task data into train / validation / test (stratified, seed derived from
//      spec.seed and r); fit the preprocessing on train and apply it to all three; compute the
//      importance values on train (mutual information never sees the test part);
//   2. for each learner, train one model per grid candidate on train;
//   3. choose the candidate: with tune_per_level, per level, by the error on the validation set
//      attacked the same way at that level (the papers' protocol: "K chosen per level on a
//      holdout attacked the same way"); otherwise by the clean validation error (one choice for
//      all levels); with "select": "cv" by k-fold cross-validation on the training set instead
//      (only the chosen candidate is then trained on all of it); a single candidate needs no
//      validation;
//   4. attack the test set at every level and record the error and AUC.
// Jobs (repetition x learner) run in parallel; each finished point is handed to onPoint at
// once (from the worker thread, calls serialised). Every random draw comes from a seed derived
// from (spec.seed, repetition, purpose), never from the thread that runs it, so the numbers
// are identical for any thread count. Cancelling keeps the finished points.

#include "core/data/align.h"
#include "core/eval/experiment_spec.h"
#include "core/eval/metrics.h"
#include "core/learners/registry.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace fdlab {

struct CurvePoint {
    int task = 0;                 ///< index into ExperimentSpec::tasks (0 for a single-task experiment)
    std::string learner;          ///< LearnerSpec::id
    int learnerIndex = 0;
    int levelIndex = 0;
    double level = 0.0;
    int repetition = 0;
    double error = 0.0;
    double auc = 0.0;             ///< NaN for multi-class
    /// One-sided threats: the error on the attacked classes' instances and on the others
    /// (NaN when the threat attacks every class).
    double errorAttacked = std::numeric_limits<double>::quiet_NaN();
    double errorOthers = std::numeric_limits<double>::quiet_NaN();
    double validationError = 0.0;   ///< of the chosen candidate (NaN without validation)
    nlohmann::json params;        ///< the parameters of the model that produced the point
    double trainSeconds = 0.0;    ///< training time of that model
};

struct CurveSummary {
    int task = 0;                 ///< as CurvePoint::task (-1: the mean over tasks, multi_task.h)
    std::string learner;
    int learnerIndex = 0;
    int levelIndex = 0;
    double level = 0.0;
    MeanSe error;
    MeanSe auc;
    MeanSe errorAttacked;   ///< one-sided threats (NaN mean otherwise)
    MeanSe errorOthers;
};

struct ExperimentResult {
    ExperimentSpec spec;
    std::vector<CurvePoint> points;        ///< sorted by (task, learner, level, repetition)
    std::vector<CurveSummary> summary;     ///< by (task, learner, level)
    Status status = Status::Converged;
    std::string message;
    std::vector<std::string> warnings;     ///< e.g. a learner stopped at its iteration limit
    double elapsed = 0.0;
    int threads = 1;
    /// Who ran it where, on which data (core/eval/provenance.h); null for a results file
    /// written before the record (resultsToJson then records the writing FDLab and machine).
    nlohmann::json provenance;
};

/// The data and split of one repetition, as the runner uses them (also for the GUI's
/// heatmaps, so they show exactly the instances the curves were computed on).
struct PreparedSplit {
    Dataset train, validation, test;
    Preprocessor preprocessor;
};

/// The data an experiment runs on: the dataset with the task applied, and the fixed test file
/// (task applied, features and classes aligned to the training file) when the spec has one.
struct TaskData {
    Dataset data;
    std::optional<Dataset> test;
    AlignReport testAlignment;   ///< unseen test features dropped (see core/data/align.h)
    std::string testUnseenWords;   ///< two text corpora: the test report over the training vocabulary
};

/// The warnings a run lists for its data (test file alignment, unseen test words).
std::vector<std::string> taskDataWarnings(const TaskData& data);
/// Loads the dataset (and the test file) and applies the task. A generator entry gives its
/// default draw (seed 1); the repetitions use their own draws (prepareRepetition).
TaskData loadTaskData(const ExperimentSpec& spec);
/// spec.attack with the one-sided class names resolved against the task's classes
/// (std::invalid_argument naming attack.attacked_classes for an unknown name).
AttackSpec resolvedAttack(const ExperimentSpec& spec, const Dataset& taskData);
/// Number of repetitions the spec runs: spec.repetitions, times the folds for k-fold (each of the
/// R repetitions of k-fold CV shuffles the rows anew and tests every fold once).
int repetitionCount(const ExperimentSpec& spec);
/// The split of one repetition. With a fixed test file, the training file is split into train
/// and validation only; with a fraction split of test 0 and no test file, the test part is
/// empty (a final model on all rows). With `fitted`, that preprocessing (a saved model's) is
/// applied instead of one fitted on the training part. When the spec's dataset (or test set) is
/// a generator entry, the repetition's own draw replaces taskData (header comment, step 0).
PreparedSplit prepareRepetition(const TaskData& taskData, const ExperimentSpec& spec, int repetition,
                                const Preprocessor* fitted = nullptr);
/// Seeds derived from the spec: purpose 0 = split, 1 = test attack, 2 = validation attack,
/// 3 = label flips (split by level), 4 = cross-validation folds (split by level under label flips),
/// 5 = the synthetic dataset's draw, 6 = a synthetic test set's draw.
std::uint64_t derivedSeed(const ExperimentSpec& spec, int repetition, int purpose);
/// Every combination of the learner's grid values (the params alone when there is no grid).
std::vector<nlohmann::json> gridCandidates(const LearnerSpec& l);

using PointCallback = std::function<void(const CurvePoint&)>;

/// Which jobs of an experiment to run (sharded sweeps, core/eval/sharding.h). Job k is
/// (repetition k / L, learner k % L) for L learners (multi-task experiments: task-major, see
/// core/eval/multi_task.h); a job's numbers do not depend on which
/// other jobs run, so any subset gives exactly the points a full run gives for those jobs.
struct RunOptions {
    /// Job indices to run, each in [0, repetitions x learners) (run in increasing order, repeats
    /// ignored); empty = every job.
    std::vector<int> jobs;
    /// Called (serialised, from worker threads) with every warning a job raises; the result's
    /// warnings list them too.
    std::function<void(int job, const std::string& warning)> onJobWarning;
    /// Called once with the loaded task data, before any job runs (e.g. to fingerprint it).
    std::function<void(const TaskData& data)> onData;
};

/// A warning for a linear model that gives every training instance one class whatever is
/// deleted (the weights' reach sum_j |x_ij| * spread_j below the biases' lead on every row), or
/// a tie everywhere (w.x = 0 and no bias decides: every instance counted wrong), naming the class,
/// the common causes and, when most training values are -1 after minus-one-one scaling, that
/// one; empty for any other model. FDROP on [-1, 1]-scaled spambase learns w = 0 from K = 2 on
/// (its optimum), which looked like a solver failure: a flat curve, AUC 0.5, no word of why.
std::string constantModelWarning(const TrainedModel& m, const Dataset& train, Scaling preprocessing);

/// Warnings for reading: those that differ only in their repetition ("FDROP (repetition 3): ...",
/// also "(repetition 3, level 0.1)") become one, "FDROP (repetitions 0-2, 5): ...", at the place
/// of the first; the others as they are, in order, repeated ones once. Results files keep every job's own (merging
/// sharded runs needs them); 10-fold CV repeated 3 times listed one warning 30 times.
std::vector<std::string> groupedWarnings(const std::vector<std::string>& warnings);

/// Result warnings: the data's own (test file alignment) first, then each job's in job order
/// (deterministic for any thread count). Only the repetitions the jobs need are prepared.
ExperimentResult runExperiment(const ExperimentSpec& spec, const RunControl& rc = {}, const PointCallback& onPoint = {},
                               const RunOptions& options = {});

/// Multi-task specs run every task (core/eval/multi_task.h).
/// The order of a result's points: by (task, learner, level, repetition).
bool pointLess(const CurvePoint& a, const CurvePoint& b);
/// A run's summary (summarizePoints), status and message from its points: Cancelled ("cancelled
/// with n of totalPoints points"), Failed (a learner failed; see warnings) or Converged.
void finishResult(ExperimentResult& result, bool cancelled, bool failed, long totalPoints);
/// Groups points by (task, learner, level) into means and standard errors.
std::vector<CurveSummary> summarizePoints(const std::vector<CurvePoint>& points);
/// The result of a run stopped part-way: `spec`, the points so far and their summary, Cancelled.
ExperimentResult partialResult(const ExperimentSpec& spec, std::vector<CurvePoint> points);

}  // namespace fdlab
