#include "core/io/model_file.h"

#include "core/io/json_file.h"
#include "core/util/errors.h"
#include "core/util/atomic_file.h"
#include "core/learners/kernel_svm.h"
#include "core/learners/nonlinear/model_io.h"

#include <algorithm>
#include <stdexcept>

namespace fdlab {

namespace {

/// `text` (a model document of any kind) with `record` at its top level.
std::string withRecord(const std::string& text, const TrainingRecord& record) {
    nlohmann::json doc = nlohmann::json::parse(text);
    if (record.preprocessing) doc["preprocessing"] = preprocessingToJson(*record.preprocessing);
    if (!record.fingerprint.empty()) doc["training_fingerprint"] = record.fingerprint;
    if (record.hasSplitField) doc["split"] = record.split;
    if (!record.labelDtype.empty()) doc["label_dtype"] = record.labelDtype;
    if (record.inputScaled) doc["input_scaled"] = true;
    return doc.dump(1) + "\n";
}

}  // namespace

void saveTrainedModel(const std::string& path, const TrainedModel& model, const Dataset& train,
                      const std::string& learner, const nlohmann::json& params, const Preprocessor& preprocessing,
                      const nlohmann::json& split) {
    writeFileAtomically(path, trainedModelText(model, train, learner, params, preprocessing, split));
}

std::string trainedModelText(const TrainedModel& model, const Dataset& train, const std::string& learner,
                             const nlohmann::json& params, const Preprocessor& preprocessing, const nlohmann::json& split,
                             const std::string& labelDtype, bool inputScaled) {
    std::string text;
    if (model.linear) {
        text = modelToJson(*model.linear, describeTraining(train, learner, params, preprocessing));
    } else if (const auto* k = dynamic_cast<const KernelSvmModel*>(model.scorer.get())) {
        text = kernelSvmToJson(SavedKernelSvm{*k, kKernelSvmSchemaVersion, FDLAB_VERSION, params, train.featureNameList()});
    } else if (const auto* c = dynamic_cast<const Classifier*>(model.scorer.get())) {
        text = classifierToJson(*c);   // trees, kNN, nets, ensembles
    } else {
        throw std::invalid_argument("learner " + learner + ": this model type has no file format");
    }
    // The same record in every format (a linear file has the first two fields already).
    return withRecord(text, {preprocessing, fingerprintHex(train.fingerprint()), split, true, labelDtype,
                             inputScaled && preprocessing.scaling != Scaling::None});
}

void saveLoadedModel(const std::string& path, const LoadedModel& model) {
    writeFileAtomically(path, loadedModelText(model));
}

std::string loadedModelText(const LoadedModel& model) {
    std::string text;
    if (model.savedLinear) text = modelToJson(model.savedLinear->model, model.savedLinear->metadata);
    else if (model.savedKernel) text = kernelSvmToJson(*model.savedKernel);
    else if (const auto* c = dynamic_cast<const Classifier*>(model.trained.scorer.get())) text = classifierToJson(*c);
    else throw std::invalid_argument("this model has no file format");
    return withRecord(text, model.training);
}

namespace {

TrainingRecord readTrainingRecord(const nlohmann::json& doc, const std::string& path, std::size_t features) {
    const JsonReader r(path);
    TrainingRecord t;
    if (doc.contains("preprocessing")) t.preprocessing = preprocessingFromJson(doc.at("preprocessing"), r, features);
    if (doc.contains("training_fingerprint")) {
        t.fingerprint = r.string(doc.at("training_fingerprint"), "training_fingerprint");
        if (t.fingerprint.size() != 16 || t.fingerprint.find_first_not_of("0123456789abcdef") != std::string::npos)
            r.fail("training_fingerprint", "expected 16 lower-case hex digits");
    }
    if (doc.contains("split")) {
        t.hasSplitField = true;
        t.split = doc.at("split");
        if (!t.split.is_null() && !t.split.is_object()) r.fail("split", "expected a JSON object or null");
    }
    if (doc.contains("label_dtype")) t.labelDtype = r.string(doc.at("label_dtype"), "label_dtype");
    if (doc.contains("input_scaled")) {
        if (!doc.at("input_scaled").is_boolean()) r.fail("input_scaled", "expected true or false");
        t.inputScaled = doc.at("input_scaled").get<bool>();
        if (t.inputScaled && (!t.preprocessing || t.preprocessing->scaling == Scaling::None))
            r.fail("input_scaled", "true, but the file records no scaling");
    }
    return t;
}

}  // namespace

LoadedModel loadModelFile(const std::string& path) {
    return modelFromDocument(readJsonFile(path, "the model file"), path);
}

LoadedModel modelFromText(const std::string& text, const std::string& source) {
    // parseJsonText, as for files: its depth check keeps nlohmann's recursive parser off the
    // stack limit (100,000 nested brackets crashed Python's load_model), and number overflow
    // (1e999) is a DataError naming the source like any other syntax error.
    return modelFromDocument(parseJsonText(text, source), source);
}

LoadedModel modelFromDocument(const nlohmann::json& doc, const std::string& path) {
    LoadedModel m;
    const std::string text = doc.dump();
    if (isKernelSvmDocument(doc)) {
        m.savedKernel = kernelSvmFromJson(text, path);
        m.trained.scorer = std::make_shared<KernelSvmModel>(m.savedKernel->model);
        m.trained.fit.status = Status::Converged;
        m.learner = "kernel-svm";
        m.params = m.savedKernel->params;
        m.featureNames = m.savedKernel->featureNames;
        m.classNames = m.savedKernel->model.classNames;
    } else if (isClassifierDocument(doc)) {
        std::shared_ptr<const Classifier> c = classifierFromJson(text, path);
        m.classNames = c->classNames();
        m.learner = c->type();   // the file does not record the registry name
        m.trained.scorer = std::move(c);
        m.trained.fit.status = Status::Converged;
    } else {
        // Also every document that is no model file: the linear reader names the "format" field.
        m.savedLinear = modelFromJson(text, path);
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
    m.training = readTrainingRecord(doc, path, static_cast<std::size_t>(m.features()));
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

Dataset inModelClassOrder(const LoadedModel& model, Dataset data) {
    const std::vector<std::string>& want = model.classNames;
    if (data.classNames == want) return data;
    std::vector<int> to(data.classNames.size(), -1);   // data class -> model class
    for (std::size_t c = 0; c < data.classNames.size(); ++c) {
        const auto it = std::find(want.begin(), want.end(), data.classNames[c]);
        if (it != want.end()) to[c] = static_cast<int>(it - want.begin());
    }
    if (data.classNames.size() != want.size() || std::count(to.begin(), to.end(), -1) > 0)
        return data;   // not a reordering: checkModelFits names the difference
    for (int& l : data.labels) l = to[static_cast<std::size_t>(l)];
    data.classNames = want;
    return data;
}

TrainedModel loadModelFor(const std::string& path, const Dataset& data) {
    LoadedModel m = loadModelFile(path);
    checkModelFits(m, data, path);
    return std::move(m.trained);
}

}  // namespace fdlab
