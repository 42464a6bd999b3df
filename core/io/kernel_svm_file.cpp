#include "core/io/kernel_svm_file.h"

#include "core/io/json_file.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <stdexcept>

namespace fdlab {

using json = nlohmann::json;

std::string kernelSvmToJson(const SavedKernelSvm& saved) {
    json j;
    j["format"] = kKernelSvmFormat;
    j["schema_version"] = kKernelSvmSchemaVersion;
    j["fdlab_version"] = FDLAB_VERSION;
    j["learner"] = "kernel-svm";
    j["params"] = saved.params;
    j["features"] = saved.featureNames;
    j["model"] = saved.model.toJson();
    return j.dump(1) + "\n";
}

bool isKernelSvmDocument(const json& j) {
    return j.is_object() && j.contains("format") && j.at("format").is_string() &&
           j.at("format").get<std::string>() == kKernelSvmFormat;
}

namespace {

SavedKernelSvm fromParsed(const json& j, const std::string& source) {
    const JsonReader r(source);
    if (!j.is_object()) r.fail("(top level)", "expected a JSON object");
    if (!isKernelSvmDocument(j))
        r.fail("format", "not an FDLab kernel SVM (expected \"" + std::string(kKernelSvmFormat) + "\")");
    SavedKernelSvm out;
    out.schemaVersion = r.integer(r.field(j, "", "schema_version"), "schema_version");
    if (out.schemaVersion != kKernelSvmSchemaVersion)
        r.fail("schema_version", "version " + std::to_string(out.schemaVersion) + " is not supported (this FDLab reads " +
                                     std::to_string(kKernelSvmSchemaVersion) + ")");
    out.fdlabVersion = r.string(r.field(j, "", "fdlab_version"), "fdlab_version");
    out.params = r.field(j, "", "params");
    if (!out.params.is_object()) r.fail("params", "expected a JSON object");
    out.featureNames = r.strings(r.field(j, "", "features"), "features");
    try {
        out.model = KernelSvmModel::fromJson(r.field(j, "", "model"), "model");
    } catch (const std::invalid_argument& e) {
        throw DataError(source, 0, e.what());
    }
    if (!out.featureNames.empty() && static_cast<int>(out.featureNames.size()) != out.model.features())
        r.fail("features", std::to_string(out.featureNames.size()) + " names for a model of " +
                               std::to_string(out.model.features()) + " features");
    return out;
}

}  // namespace

SavedKernelSvm kernelSvmFromJson(const std::string& text, const std::string& source) {
    const json j = parseJsonText(text, source, "not a valid JSON model file");
    return fromParsed(j, source);
}

void saveKernelSvm(const std::string& path, const SavedKernelSvm& saved) {
    writeFileAtomically(path, kernelSvmToJson(saved));
}

SavedKernelSvm loadKernelSvm(const std::string& path) {
    return fromParsed(readJsonFile(path, "the model file"), path);
}

void checkCompatible(const SavedKernelSvm& saved, const Dataset& d) {
    const KernelSvmModel& m = saved.model;
    if (m.features() != d.features())
        throw std::invalid_argument("model expects " + std::to_string(m.features()) + " features, dataset '" + d.name +
                                    "' has " + std::to_string(d.features()));
    for (std::size_t j = 0; j < saved.featureNames.size(); ++j)
        if (const std::string name = d.featureName(static_cast<int>(j)); name != saved.featureNames[j])
            throw std::invalid_argument("feature " + std::to_string(j + 1) + " is '" + saved.featureNames[j] +
                                        "' in the model but '" + name + "' in dataset '" + d.name + "'");
    if (d.classNames != m.classNames)
        throw std::invalid_argument("model classes are '" + m.classNames.at(0) + "', '" + m.classNames.at(1) +
                                    "' but dataset '" + d.name + "' has " + std::to_string(d.numClasses()) +
                                    " classes" + (d.numClasses() == 2 ? " '" + d.classNames[0] + "', '" + d.classNames[1] + "'" : ""));
}

}  // namespace fdlab
