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

/// Writes `model`, trained by `learner` with the complete registry `params` on `train` (after
/// `preprocessing`), to `path`. Throws std::invalid_argument for a model type without a file
/// format, and what the writers throw (DataError naming the path on I/O failure).
void saveTrainedModel(const std::string& path, const TrainedModel& model, const Dataset& train,
                      const std::string& learner, const nlohmann::json& params, const Preprocessor& preprocessing = {});

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

    int features() const { return trained.scorer->features(); }
};

/// Reads a linear-model, kernel SVM or classifier file (dispatching on its "format"). Throws
/// DataError naming the path when it cannot be read, is not JSON or does not follow its schema.
LoadedModel loadModelFile(const std::string& path);

/// Throws std::invalid_argument "PATH: ..." when `data` does not fit the model read from `path`:
/// another feature count, other feature names (when both have names) or, for kernel SVM and
/// classifier files, other classes (checkCompatible of the model's kind).
void checkModelFits(const LoadedModel& model, const Dataset& data, const std::string& path);

/// loadModelFile + checkModelFits: the model of `path`, ready to score `data`.
TrainedModel loadModelFor(const std::string& path, const Dataset& data);

}  // namespace fdlab
