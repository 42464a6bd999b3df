#pragma once
// Saving any trained model to the file format of its kind, for the CLI's `train` and the GUI's
// Export model: linear models as "fdlab-linear-model" (core/io/model_json.h, with the training
// description), kernel SVMs as "fdlab-kernel-svm" (core/io/kernel_svm_file.h), trees, kNN, nets
// and ensembles as "fdlab-classifier" (core/learners/nonlinear/model_io.h). All writes are atomic.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/learners/registry.h"

#include <nlohmann/json.hpp>

#include <string>

namespace fdlab {

/// Writes `model`, trained by `learner` with the complete registry `params` on `train` (after
/// `preprocessing`), to `path`. Throws std::invalid_argument for a model type without a file
/// format, and what the writers throw (DataError naming the path on I/O failure).
void saveTrainedModel(const std::string& path, const TrainedModel& model, const Dataset& train,
                      const std::string& learner, const nlohmann::json& params, const Preprocessor& preprocessing = {});

}  // namespace fdlab
