#pragma once
// An experiment, as saved in experiment files (JSON): which data and task, how it is split and
// preprocessed, the importance values, the learners (with parameters or grids), the attack and
// its levels, repetitions and the seed. The same spec gives the same numbers (see
// experiment_runner.h).
//
// JSON schema (version 1; every key but "dataset", "learners" and "levels" is optional):
// {
//   "schema": 1, "name": "...", "description": "...",
//   "dataset": {"bundled": "mnist"} | {"file": "PATH", "label": "COL", "class": "ATTR", "missing": "impute"}
//              | {"file": "FOLDER" | "CORPUS.csv", "text_column": "text", "label": "label",
//                 "subject": true, "weighting": "binary" | "tf" | "tf-idf", "min_df": 2}   (text),
//   "test": {...as "dataset"...}   (a fixed test file: the whole "dataset" file trains (less the
//           validation fraction), preprocessing, importance and vocabulary come from it, and the
//           test file's features are matched to it by name; unseen features are dropped and counted),
//   "task": {"kind": "binary", "positive": ["3"], "negative": ["5"]} | {"kind": "one-vs-rest", "positive": "3"}
//           | {"kind": "multiclass"},
//   "preprocessing": "none" | "zero-one" | "minus-one-one" | "unit-norm" | "binarise",
//   "split": {"kind": "fraction", "test": 0.3, "validation": 0.2}
//          | {"kind": "counts", "train": 50, "validation": 100, "test": 150}   (per class; test -1 = rest;
//            with a "test" file, "test": 0: train and validation per class from "dataset", every
//            instance of the test file tests)
//          | {"kind": "kfold", "folds": 10, "validation": 0.2},
//          (fraction "test": 0 trains on all rows: no test part unless a "test" file is given)
//   "importance": {"kind": "dataset"} | {"kind": "uniform"} | {"kind": "mutual-information", "bins": 8, "floor": 0.1}
//               | {"kind": "csv", "path": "PATH"} | {"kind": "values", "values": [...]},
//   "learners": [{"id": "FDROP", "learner": "fdrop", "params": {"C": 1}, "grid": {"K": [0, 10, 50]},
//                 "select": "validation" | "cv", "cv_folds": 5}],
//       (how a grid candidate is chosen: on the validation split, or by k-fold cross-validation on
//        the training set -- the tainted one under label flips -- as Biggio et al. choose gamma)
//   "attack": {"threat": "random-deletion",
//              "attacked_classes": ["spam"]   (one-sided: only these classes' instances are attacked;
//                                              curves then also report the error on them and on the rest),
//              ...the threat's own parameters, as its registry entry declares them
//              (core/attacks/threat_registry.cpp; `fdlab-cli eval --help` lists them), e.g.
//              "replacement": "zero", "feature": 0, "features": [...], "regions": [7, 7],
//              "groups": [{"name": "gray", "begin": 0, "end": 5}], "knapsack_scale": 1,
//              "stop_when_wrong": true, "flip_repeats": 10, "flip_svm": {"kernel": "linear", "C": 1} | "learner"},
//   "levels": [0, 10, 20], "repetitions": 5, "seed": 1, "threads": 0,
//   "tune_per_level": false,
//   "paper": {"summary": "...", "curves": {"SVM": [[level, error], ...]}}   (reference numbers)
// }
// A multi-task experiment (e.g. the 12 digit pairs of Globerson and Roweis) replaces "task" by
//   "tasks": [{"name": "1 vs 7", "task": {...}, "dataset": {...}, "test": {...}, "split": {...}}, ...]
// sharing everything else (learners, attack, levels, repetitions, seed). "name" is required in
// each entry ("task" defaults to multiclass, as at the top level); "dataset", "test" and "split" are given either once at the top level
// (shared by every task) or per task, never both; a top-level "task" next to "tasks" is an error.
// Each task runs as its own single-task experiment (ExperimentSpec::taskSpec), with the same seed.
// Relative paths are resolved against the experiment file's directory.

#include "core/attacks/attack.h"
#include "core/data/loaders.h"
#include "core/data/importance.h"
#include "core/data/preprocess.h"
#include "core/data/task.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fdlab {

struct DatasetRef {
    std::string bundled;   ///< a name of bundledDatasets(), or
    std::string file;      ///< a data file path
    LoadOptions options;
};

struct SplitSpec {
    enum class Kind { Fraction, Counts, KFold };
    Kind kind = Kind::Fraction;
    double testFraction = 0.3;
    double validationFraction = 0.2;   ///< Fraction and KFold (carved from the training part)
    int perClassTrain = 50, perClassValidation = 0, perClassTest = -1;
    int folds = 10;
};

struct ImportanceSpec {
    enum class Kind { Dataset, Uniform, MutualInformation, Csv, Values };
    Kind kind = Kind::Dataset;   ///< Dataset: keep the values the data comes with (1 for files)
    MutualInfoParams mutualInfo;
    std::string path;
    std::vector<double> values;
};

struct LearnerSpec {
    std::string id;                                  ///< label in plots and results (unique)
    std::string learner;                             ///< registry name
    nlohmann::json params = nlohmann::json::object();
    std::map<std::string, std::vector<double>> grid; ///< candidate values; best on validation
    /// How a grid candidate is chosen. Validation: lowest error on the validation split (per
    /// level with tune_per_level). CrossValidation: lowest cvFolds-fold CV error on the training
    /// set (core/eval/cross_validation.h), one choice per repetition, or per level under label
    /// flips (on that level's tainted training set); needs no validation split.
    enum class Selection { Validation, CrossValidation };
    Selection selection = Selection::Validation;
    int cvFolds = 5;   ///< CrossValidation: k, >= 2
};

/// The label of a multi-task result's aggregate rows (the mean over tasks) in tables and CSV
/// files; no task may be called so (ExperimentSpec::validate), or its rows would read as the
/// aggregate's.
inline constexpr const char* kMeanOverTasks = "mean over tasks";

/// One task of a multi-task experiment: what differs from task to task.
struct ExperimentTask {
    std::string name;                        ///< unique among the tasks; labels tables and menus
    DatasetRef dataset;
    std::optional<DatasetRef> testDataset;
    TaskSpec task;
    SplitSpec split;
};

struct ExperimentSpec {
    std::string name;
    std::string description;
    DatasetRef dataset;
    std::optional<DatasetRef> testDataset;   ///< a fixed test file ("test"); none: split "dataset"
    TaskSpec task;
    Scaling preprocessing = Scaling::None;
    SplitSpec split;
    ImportanceSpec importance;
    std::vector<LearnerSpec> learners;
    AttackSpec attack;
    /// One-sided threats: the class names (after the task) whose instances are attacked;
    /// resolved into attack.attackedClasses when the data is loaded. Empty: every class.
    std::vector<std::string> attackedClasses;
    std::vector<double> levels;
    int repetitions = 1;               ///< random splits; k-fold: shuffles, each tests all k folds (R x k runs)
    bool tunePerLevel = false;         ///< choose grid values per level on an attacked validation set
    std::uint64_t seed = 1;
    int threads = 0;                   ///< 0 = all hardware threads
    nlohmann::json paper;              ///< reference numbers from the paper, shown next to ours
    /// Multi-task experiments ("tasks"); empty for a single-task one. When set, dataset,
    /// testDataset, task and split above hold tasks[0]'s (what single-task code paths see).
    std::vector<ExperimentTask> tasks;

    bool multiTask() const { return !tasks.empty(); }
    /// Number of tasks: tasks.size(), or 1 for a single-task experiment.
    int taskCount() const { return tasks.empty() ? 1 : static_cast<int>(tasks.size()); }
    /// Task t as a single-task experiment (tasks cleared, the task's data, test, task and split);
    /// a single-task spec is returned unchanged for t = 0. std::out_of_range for a bad t.
    ExperimentSpec taskSpec(int t) const;
    /// The task's name; "" for a single-task experiment.
    std::string taskName(int t) const;

    /// Structural checks (learner names and params, levels, counts); std::invalid_argument
    /// naming the field.
    void validate() const;
};

ExperimentSpec experimentFromJson(const nlohmann::json& j, const std::string& baseDir = ".");
nlohmann::json toJson(const ExperimentSpec& s);

/// Reads an experiment file; DataError naming the file (and JSON byte position) when broken,
/// std::invalid_argument (prefixed with the file name) when a field is wrong.
ExperimentSpec loadExperimentFile(const std::string& path);
void saveExperimentFile(const ExperimentSpec& s, const std::string& path);

}  // namespace fdlab
