#pragma once
// The data a saved model is evaluated on (fdlab-cli eval and attack): the test part of the split
// the model was trained with, scaled by the preprocessing fitted on its training part, never a
// split or scaling rebuilt from other options.
//
// A model file records (core/io/model_file.h, TrainingRecord) its fitted preprocessing, the
// fingerprint of its training part and its split:
//   "split": {"kind": "fraction", "test": 0.3, "validation": 0, "seed": 1, "test_file": false}
//          | {"kind": "counts", "train": 50, "validation": 0, "test": -1, "seed": 1, "test_file": false}
//          | {"kind": "kfold", "folds": 10, "validation": 0.2, "seed": 1, "test_file": false}
// (repetition 0 of the experiment protocol, core/eval/experiment_runner.h; "test_file": the whole
// dataset trained and a separate test file was the test part).
//
// Evaluating then means:
//   1. the recorded scaling and split replace the options' (an option that contradicts the
//      record is refused, naming both values: numbers for another split or scaling than the
//      model's are not numbers about the model); files without a record fall back to the
//      options, with a warning;
//   2. the task's classes are put in the model's order by name (inModelClassOrder), before the
//      split, so the stratified split sees the labels training saw;
//   3. the recorded preprocessing is applied (not refitted);
//   4. the training part rebuilt this way must have the recorded fingerprint; otherwise the
//      data, task or split differ from training and the "test part" may hold rows the model was
//      trained on: refused. A fixed test file (--test-data) is checked the same way: the
//      training part of the data is rebuilt with the model's split and compared.

#include "core/eval/experiment_runner.h"
#include "core/io/model_file.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fdlab {

/// The "split" record of a model trained by prepareRepetition(data, spec, 0) (with a test file
/// when `testFile`).
nlohmann::json splitRecord(const ExperimentSpec& spec, bool testFile);

/// The learner of `spec` whose id is `id` (ids are unique); std::invalid_argument naming it if none.
const LearnerSpec& learnerById(const ExperimentSpec& spec, const std::string& id);
/// The parameters learner `l` used at repetition 0 of `r` (at the middle level when tuned per
/// level), else (no result, or no point of it) its first grid candidate.
nlohmann::json paramsAtRepetition0(const ExperimentResult* r, const LearnerSpec& l);
/// Export model: trains `l` with `params` on repetition 0's training part of `spec` and writes
/// its model file (linear, kernel SVM or classifier format, with preprocessing and split record)
/// to `path`. Throws std::runtime_error when training fails.
void exportLearnerModel(const ExperimentSpec& spec, const LearnerSpec& l, const nlohmann::json& params,
                        const std::string& path, const RunControl& rc = {});

/// What the user gave explicitly (unset: not given) for the settings a model file records.
struct ModelDataOptions {
    std::optional<Scaling> scaling;
    std::optional<double> testFraction;
    std::optional<std::uint64_t> seed;
};

/// Steps 1: `spec` with the model's recorded scaling and split. Throws std::invalid_argument
/// "PATH: ..." when `given` contradicts the record, or the record is malformed. Appends to
/// `warnings` what could not be taken from the file (old files).
ExperimentSpec specForModel(ExperimentSpec spec, const LoadedModel& model, const ModelDataOptions& given,
                            const std::string& path, std::vector<std::string>& warnings);

/// Steps 2-4: the split of `data` under `spec` (from specForModel) for the model read from
/// `path`. Throws std::invalid_argument "PATH: ..." for other classes or features than the
/// model's, and when the training part's fingerprint is not the recorded one (a warning instead
/// when the file says it was trained outside a split: "split": null).
PreparedSplit prepareForModel(TaskData data, const ExperimentSpec& spec, const LoadedModel& model,
                              const std::string& path, std::vector<std::string>& warnings);

}  // namespace fdlab
