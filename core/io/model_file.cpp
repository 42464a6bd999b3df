#include "core/io/model_file.h"

#include "core/io/json_file.h"
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

LoadedModel loadModelFile(const std::string& path) {
    LoadedModel m;
    const nlohmann::json doc = readJsonFile(path, "the model file");
    if (isKernelSvmDocument(doc)) {
        m.savedKernel = loadKernelSvm(path);
        m.trained.scorer = std::make_shared<KernelSvmModel>(m.savedKernel->model);
        m.trained.fit.status = Status::Converged;
        m.learner = "kernel-svm";
        m.params = m.savedKernel->params;
        m.featureNames = m.savedKernel->featureNames;
        m.classNames = m.savedKernel->model.classNames;
    } else if (isClassifierDocument(doc)) {
        std::shared_ptr<const Classifier> c = loadClassifier(path);
        m.classNames = c->classNames();
        m.learner = c->type();   // the file does not record the registry name
        m.trained.scorer = std::move(c);
        m.trained.fit.status = Status::Converged;
    } else {
        // Also every document that is no model file: the linear reader names the "format" field.
        m.savedLinear = loadModel(path);
        FitResult f;
        f.model = m.savedLinear->model;
        f.status = Status::Converged;
        m.trained = wrapLinear(std::move(f));
        const ModelMetadata& meta = m.savedLinear->metadata;
        m.learner = meta.learner;
        m.params = meta.params;
        m.featureNames = meta.featureNames;
        m.classNames = meta.classNames.empty() ? m.savedLinear->model.classNames : meta.classNames;
        m.imageShape = meta.imageShape;
    }
    return m;
}

void checkModelFits(const LoadedModel& model, const Dataset& data, const std::string& path) {
    try {
        if (model.savedKernel) checkCompatible(*model.savedKernel, data);
        else if (model.savedLinear) checkCompatible(*model.savedLinear, data);
        else if (const auto* c = dynamic_cast<const Classifier*>(model.trained.scorer.get())) checkCompatible(*c, data);
        else throw std::invalid_argument("not a model read from a file");
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

TrainedModel loadModelFor(const std::string& path, const Dataset& data) {
    LoadedModel m = loadModelFile(path);
    checkModelFits(m, data, path);
    return std::move(m.trained);
}

}  // namespace fdlab
