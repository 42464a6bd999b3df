#include "core/io/model_json.h"

#include "core/io/json_file.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/param_check.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fdlab {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "fdlab-linear-model";

using Reader = JsonReader;

json floats(const std::vector<float>& v) {
    json a = json::array();
    for (float x : v) a.push_back(static_cast<double>(x));
    return a;
}

}  // namespace

std::string fingerprintHex(std::uint64_t fingerprint) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fingerprint));
    return buf;
}

json preprocessingToJson(const Preprocessor& p) {
    return {{"scaling", toString(p.scaling)},
            {"binarise_threshold", static_cast<double>(p.binariseThreshold)},
            {"offset", floats(p.offset)},
            {"factor", floats(p.factor)},
            {"shift", static_cast<double>(p.shift)}};
}

Preprocessor preprocessingFromJson(const json& pre, const JsonReader& r, std::size_t n) {
    Preprocessor p;
    // Stored as float: a finite double beyond float's range (1e39) became inf, and the file
    // saved with it could not be read back (inf is written as null).
    const auto asFloat = [&](double x, const std::string& path) {
        if (!std::isfinite(static_cast<float>(x))) r.fail(path, formatParam(x) + " is beyond the range of a float");
        return static_cast<float>(x);
    };
    const std::string scaling = r.string(r.field(pre, "preprocessing", "scaling"), "preprocessing.scaling");
    try {
        p.scaling = scalingFromString(scaling);
    } catch (const std::invalid_argument& e) {
        r.fail("preprocessing.scaling", e.what());
    }
    p.binariseThreshold = asFloat(r.number(r.field(pre, "preprocessing", "binarise_threshold"), "preprocessing.binarise_threshold"),
                                  "preprocessing.binarise_threshold");
    p.shift = asFloat(r.number(r.field(pre, "preprocessing", "shift"), "preprocessing.shift"), "preprocessing.shift");
    for (const char* key : {"offset", "factor"}) {
        const std::string path = std::string("preprocessing.") + key;
        const std::vector<double> v = r.numbers(r.field(pre, "preprocessing", key), path);
        if (!v.empty() && v.size() != n)
            r.fail(path, std::to_string(v.size()) + " values for " + std::to_string(n) + " features");
        const bool affine = p.scaling == Scaling::MinusOneOne || p.scaling == Scaling::ZeroOne;
        if (affine && v.size() != n) r.fail(path, "scaling '" + scaling + "' needs one value per feature");
        std::vector<float>& dst = std::string(key) == "offset" ? p.offset : p.factor;
        dst.clear();
        for (std::size_t j = 0; j < v.size(); ++j) dst.push_back(asFloat(v[j], path + "[" + std::to_string(j) + "]"));
    }
    return p;
}

ModelMetadata describeTraining(const Dataset& train, std::string learner, nlohmann::json params,
                               const Preprocessor& preprocessing) {
    ModelMetadata m;
    m.learner = std::move(learner);
    m.params = std::move(params);
    m.featureNames = train.featureNameList();
    m.classNames = train.classNames;
    m.imageShape = train.imageShape;
    m.preprocessing = preprocessing;
    m.trainingFingerprint = fingerprintHex(train.fingerprint());
    return m;
}

std::string modelToJson(const LinearModel& model, const ModelMetadata& meta) {
    const auto n = static_cast<std::size_t>(model.W.rows());
    const auto K = static_cast<std::size_t>(model.W.cols());
    if (K == 0) throw std::invalid_argument("saving the model: the model has no column");
    if (static_cast<std::size_t>(model.b.size()) != K)
        throw std::invalid_argument("saving the model: the model has " + std::to_string(K) + " columns but " +
                                    std::to_string(model.b.size()) + " biases");
    if (meta.featureNames.size() != n)
        throw std::invalid_argument("saving the model: " + std::to_string(meta.featureNames.size()) + " feature names for " +
                                    std::to_string(n) + " weights per column");
    const std::vector<std::string>& classes = meta.classNames.empty() ? model.classNames : meta.classNames;
    if (!meta.classNames.empty() && !model.classNames.empty() && meta.classNames != model.classNames)
        throw std::invalid_argument("saving the model: the metadata's class names differ from the model's");
    const std::size_t wantClasses = K == 1 ? 2 : K;
    if (classes.size() != wantClasses)
        throw std::invalid_argument("saving the model: a model with " + std::to_string(K) + " column(s) needs " +
                                    std::to_string(wantClasses) + " class names, has " + std::to_string(classes.size()));
    if (!model.W.allFinite() || !model.b.allFinite())
        throw std::invalid_argument("saving the model: the model has non-finite weights (JSON cannot store NaN/Inf)");
    if (meta.imageShape && static_cast<std::size_t>(meta.imageShape->size()) != n)
        throw std::invalid_argument("saving the model: image shape does not match the feature count");

    json j;
    j["format"] = kFormat;
    j["schema_version"] = kModelSchemaVersion;
    j["fdlab_version"] = meta.fdlabVersion;
    j["learner"] = meta.learner;
    j["params"] = meta.params.is_null() ? json::object() : meta.params;
    j["features"] = meta.featureNames;
    j["classes"] = classes;
    if (meta.imageShape)
        j["image_shape"] = {{"rows", meta.imageShape->rows}, {"cols", meta.imageShape->cols}};
    else
        j["image_shape"] = nullptr;
    j["preprocessing"] = preprocessingToJson(meta.preprocessing);
    if (!meta.trainingFingerprint.empty()) j["training_fingerprint"] = meta.trainingFingerprint;
    json weights = json::array();
    json bias = json::array();
    for (std::size_t k = 0; k < K; ++k) {
        json col = json::array();
        for (std::size_t i = 0; i < n; ++i)
            col.push_back(model.W(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)));
        weights.push_back(std::move(col));
        bias.push_back(model.b(static_cast<Eigen::Index>(k)));
    }
    j["model"] = {{"columns", K}, {"bias", std::move(bias)}, {"weights", std::move(weights)}};
    return j.dump(1) + "\n";
}

SavedModel modelFromJson(const std::string& text, const std::string& source) {
    const json j = parseJsonText(text, source, "not a valid JSON model file");
    const Reader r(source);
    if (!j.is_object()) r.fail("(top level)", "expected a JSON object");
    if (r.string(r.field(j, "", "format"), "format") != kFormat)
        r.fail("format", "not an FDLab linear model (expected \"" + std::string(kFormat) + "\")");
    const int version = r.integer(r.field(j, "", "schema_version"), "schema_version");
    if (version != kModelSchemaVersion)
        r.fail("schema_version", "version " + std::to_string(version) + " is not supported (this FDLab reads " +
                                     std::to_string(kModelSchemaVersion) + ")");

    SavedModel out;
    ModelMetadata& m = out.metadata;
    m.schemaVersion = version;
    m.fdlabVersion = r.string(r.field(j, "", "fdlab_version"), "fdlab_version");
    m.learner = r.string(r.field(j, "", "learner"), "learner");
    m.params = r.field(j, "", "params");
    if (!m.params.is_object()) r.fail("params", "expected a JSON object");
    m.featureNames = r.strings(r.field(j, "", "features"), "features");
    m.classNames = r.strings(r.field(j, "", "classes"), "classes");
    const std::size_t n = m.featureNames.size();
    if (n == 0) r.fail("features", "the model has no feature");

    const json& shape = r.field(j, "", "image_shape");
    if (!shape.is_null()) {
        ImageShape s;
        s.rows = r.integer(r.field(shape, "image_shape", "rows"), "image_shape.rows");
        s.cols = r.integer(r.field(shape, "image_shape", "cols"), "image_shape.cols");
        if (s.rows <= 0 || s.cols <= 0 || static_cast<std::size_t>(s.size()) != n)
            r.fail("image_shape", std::to_string(s.rows) + " x " + std::to_string(s.cols) + " does not match " +
                                      std::to_string(n) + " features");
        m.imageShape = s;
    }

    m.preprocessing = preprocessingFromJson(r.field(j, "", "preprocessing"), r, n);

    // Absent for a model made outside FDLab's training (the Python module's Model.linear).
    if (j.contains("training_fingerprint")) {
        m.trainingFingerprint = r.string(j.at("training_fingerprint"), "training_fingerprint");
        if (m.trainingFingerprint.size() != 16 ||
            m.trainingFingerprint.find_first_not_of("0123456789abcdef") != std::string::npos)
            r.fail("training_fingerprint", "expected 16 lower-case hex digits");
    }

    const json& model = r.field(j, "", "model");
    const int K = r.integer(r.field(model, "model", "columns"), "model.columns");
    if (K < 1) r.fail("model.columns", "must be >= 1");
    const std::size_t wantClasses = K == 1 ? 2 : static_cast<std::size_t>(K);
    if (m.classNames.size() != wantClasses)
        r.fail("classes", std::to_string(m.classNames.size()) + " class names for a model with " + std::to_string(K) +
                              " column(s) (needs " + std::to_string(wantClasses) + ")");
    const std::vector<double> bias = r.numbers(r.field(model, "model", "bias"), "model.bias");
    if (bias.size() != static_cast<std::size_t>(K))
        r.fail("model.bias", std::to_string(bias.size()) + " values for " + std::to_string(K) + " column(s)");
    const json& weights = r.field(model, "model", "weights");
    if (!weights.is_array() || weights.size() != static_cast<std::size_t>(K))
        r.fail("model.weights", "expected an array of " + std::to_string(K) + " column(s)");

    LinearModel& lm = out.model;
    lm.W.resize(static_cast<Eigen::Index>(n), K);
    lm.b.resize(K);
    for (int k = 0; k < K; ++k) {
        const std::string path = "model.weights[" + std::to_string(k) + "]";
        const std::vector<double> w = r.numbers(weights[static_cast<std::size_t>(k)], path);
        if (w.size() != n)
            r.fail(path, std::to_string(w.size()) + " weights for " + std::to_string(n) + " features");
        for (std::size_t i = 0; i < n; ++i) lm.W(static_cast<Eigen::Index>(i), k) = w[i];
        lm.b(k) = bias[static_cast<std::size_t>(k)];
    }
    lm.classNames = m.classNames;
    return out;
}

void saveModel(const std::string& path, const LinearModel& model, const ModelMetadata& metadata) {
    const std::string text = modelToJson(model, metadata);
    writeFileAtomically(path, text);
}

SavedModel loadModel(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open the model file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw DataError(path, 0, "cannot read the model file");
    return modelFromJson(ss.str(), path);
}

void checkCompatible(const SavedModel& model, const Dataset& d) {
    const std::size_t n = model.metadata.featureNames.size();
    if (static_cast<std::size_t>(d.features()) != n || model.model.features() != d.features())
        throw std::invalid_argument("model expects " + std::to_string(model.model.features()) + " features, dataset '" +
                                    d.name + "' has " + std::to_string(d.features()));
    for (std::size_t j = 0; j < n; ++j)
        if (const std::string name = d.featureName(static_cast<int>(j)); name != model.metadata.featureNames[j])
            throw std::invalid_argument("feature " + std::to_string(j + 1) + " is '" + model.metadata.featureNames[j] +
                                        "' in the model but '" + name + "' in dataset '" + d.name + "'");
    // A label outside the model's classes would index past its scores (heap corruption in the
    // worst-case attack); the same names in another order would score the wrong class.
    const std::vector<std::string>& classes =
        model.metadata.classNames.empty() ? model.model.classNames : model.metadata.classNames;
    if (d.classNames != classes)
        throw std::invalid_argument("model classes [" + joinedNames(classes) + "] differ from the classes [" +
                                    joinedNames(d.classNames) + "] of dataset '" + d.name + "' (use the training task)");
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& c : names) s += (s.empty() ? "" : ", ") + c;
    return s;
}

}  // namespace fdlab
