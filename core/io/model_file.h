#pragma once
// Saving any trained model to the file format of its kind, for the CLI's `train` and the GUI's
// Export model: linear models as "fdlab-linear-model" (core/io/model_json.h, with the training
// description), kernel SVMs as "fdlab-kernel-svm" (core/io/kernel_svm_file.h), trees, kNN, nets
// and ensembles as "fdlab-classifier" (core/learners/nonlinear/model_io.h). All writes are atomic.
// And reading any of the three back, told apart by the file's "format", for the CLI's `eval` and
// `attack`, the Python module's load_model and the GUI.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/io/kernel_svm_file.h"
#include "core/io/model_json.h"
#include "core/learners/registry.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace fdlab {

/// How the training data of a saved model was made, so that eval and attack rebuild the same
/// test part: every model file written by saveTrainedModel carries, at its top level,
///   "preprocessing": {...}            the scaling fitted on the training part (model_json.h)
///   "training_fingerprint": "16 hex"  Dataset::fingerprint() of the training part (preprocessed)
///   "split": {...} | null              the split and seed that made it (core/eval/model_data.h)
/// Files written before this record (kernel SVM and classifier files; the split of linear ones)
/// read back without it.
struct TrainingRecord {
    std::optional<Preprocessor> preprocessing;
    std::string fingerprint;                  ///< empty: not recorded
    nlohmann::json split;                     ///< null: not recorded
    bool hasSplitField = false;               ///< "split" present (null: trained outside a split, e.g. Python)
    /// "label_dtype": the numpy dtype (e.g. "<i8") of the labels a model trained in Python was
    /// given, so that the Python module predicts in that type again; empty: class names as text.
    std::string labelDtype;
    /// "input_scaled": true when `preprocessing` was applied by the caller before training: a
    /// model trained in Python on fdlab.prepare(scale=...) data. fdlab-cli and the GUI read raw
    /// files and apply `preprocessing` as for any model; the Python module's model takes X
    /// already scaled, as prepare() returns it (the same numbers before and after save / load).
    bool inputScaled = false;
};

/// Writes `model`, trained by `learner` with the complete registry `params` on `train` (after
/// `preprocessing`), to `path`, with its TrainingRecord (`split` as core/eval/model_data.h
/// writes it, or null when unknown). Throws std::invalid_argument for a model type without a file
/// format, and what the writers throw (DataError naming the path on I/O failure).
void saveTrainedModel(const std::string& path, const TrainedModel& model, const Dataset& train,
                      const std::string& learner, const nlohmann::json& params, const Preprocessor& preprocessing = {},
                      const nlohmann::json& split = nullptr);

/// The document saveTrainedModel writes, as text (the Python module pickles models with it);
/// labelDtype and inputScaled as in TrainingRecord.
std::string trainedModelText(const TrainedModel& model, const Dataset& train, const std::string& learner,
                             const nlohmann::json& params, const Preprocessor& preprocessing = {},
                             const nlohmann::json& split = nullptr, const std::string& labelDtype = "",
                             bool inputScaled = false);

/// A model file of any kind, as read.
struct LoadedModel {
    /// scorer always set; linear (the view the worst-case threats need) for linear-model files.
    TrainedModel trained;
    std::string learner;                       ///< registry name; for classifier files the model type
                                               ///< ("decision-tree", "knn", "adaboost", ...)
    nlohmann::json params = nlohmann::json::object();   ///< the training params the file records
    std::optional<SavedModel> savedLinear;     ///< a linear-model file as read (its metadata kept)
    std::optional<SavedKernelSvm> savedKernel;   ///< a kernel SVM file as read
    std::vector<std::string> classNames;
    std::vector<std::string> featureNames;     ///< empty when the file keeps none (classifier files)
    std::optional<ImageShape> imageShape;
    TrainingRecord training;                   ///< what the file records of its training data

    int features() const { return trained.scorer->features(); }
};

/// Writes a model as read by loadModelFile back to `path`, its TrainingRecord kept as it was.
void saveLoadedModel(const std::string& path, const LoadedModel& model);
/// The document saveLoadedModel writes, as text.
std::string loadedModelText(const LoadedModel& model);

/// Reads a linear-model, kernel SVM or classifier file (dispatching on its "format"). Throws
/// DataError naming the path when it cannot be read, is not JSON or does not follow its schema.
LoadedModel loadModelFile(const std::string& path);
/// The same from a document's text (a pickled model); errors name `source`.
LoadedModel modelFromText(const std::string& text, const std::string& source);
/// The same from a parsed document.
LoadedModel modelFromDocument(const nlohmann::json& doc, const std::string& source);

/// Throws std::invalid_argument "PATH: ..." when `data` does not fit the model read from `path`:
/// another feature count, other feature names (when both have names) or other classes (names,
/// count and order; checkCompatible of the model's kind).
void checkModelFits(const LoadedModel& model, const Dataset& data, const std::string& path);

/// `data` with its classes in the model's order: the same class names in another order (a binary
/// task given as --positive B --negative A for a model of [B, A]) are matched by name and the
/// labels renumbered. Other names or another count leave `data` as it is, for checkModelFits to
/// refuse (a 4-class test set under a 3-class model would index past the model's scores).
Dataset inModelClassOrder(const LoadedModel& model, Dataset data);

/// loadModelFile + checkModelFits: the model of `path`, ready to score `data`.
TrainedModel loadModelFor(const std::string& path, const Dataset& data);

}  // namespace fdlab
