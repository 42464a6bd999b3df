#include "core/io/model_file.h"

#include "core/io/kernel_svm_file.h"
#include "core/io/model_json.h"
#include "core/learners/kernel_svm.h"
#include "core/learners/nonlinear/model_io.h"

#include <stdexcept>

namespace fdlab {

void saveTrainedModel(const std::string& path, const TrainedModel& model, const Dataset& train,
                      const std::string& learner, const nlohmann::json& params, const Preprocessor& preprocessing) {
    if (model.linear) {
        saveModel(path, *model.linear, describeTraining(train, learner, params, preprocessing));
    } else if (const auto* k = dynamic_cast<const KernelSvmModel*>(model.scorer.get())) {
        saveKernelSvm(path, SavedKernelSvm{*k, kKernelSvmSchemaVersion, FDLAB_VERSION, params, train.featureNames});
    } else if (const auto* c = dynamic_cast<const Classifier*>(model.scorer.get())) {
        saveClassifier(path, *c);   // trees, kNN, nets, ensembles
    } else {
        throw std::invalid_argument("learner " + learner + ": this model type has no file format");
    }
}

}  // namespace fdlab
