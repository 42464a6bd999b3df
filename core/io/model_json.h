#pragma once
// Linear models on disk: one JSON document holding the weights and everything needed to use
// them again (feature and class names, image shape, the preprocessing fitted on the training
// data, the learner and its parameters, a fingerprint of the training data).
//
// Layout (schema_version 1):
//   { "format": "fdlab-linear-model", "schema_version": 1, "fdlab_version": "0.1.0",
//     "learner": "mcf", "params": { ... as given by the caller ... },
//     "features": ["f1", ...], "classes": ["3", "5"],
//     "image_shape": {"rows": 28, "cols": 28} | null,
//     "preprocessing": {"scaling": "zero-one", "binarise_threshold": 0.5,
//                       "offset": [...], "factor": [...], "shift": 0.0},
//     "training_fingerprint": "89abcdef01234567",
//     "model": {"columns": K, "bias": [b_1..b_K], "weights": [[w_1 (n values)], ..., [w_K]]} }
// A binary model has 1 column and 2 classes; a multi-class model K columns and K classes.
//
// Exactness: doubles are written by nlohmann::json as the shortest decimal string that reads back
// to the same double (<= 17 significant digits), so a loaded model scores bit-identically
// (test_model_json checks this with ==). JSON has no NaN/Inf: saving refuses non-finite
// weights, and loading rejects null or non-numbers where numbers belong.
// Preprocessing vectors are floats (core/data/preprocess.h); float -> double -> text -> double
// -> float is exact.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/learners/linear_model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fdlab {

inline constexpr int kModelSchemaVersion = 1;

struct ModelMetadata {
    std::string learner;                                 ///< e.g. "mcf", "fdrop"
    nlohmann::json params = nlohmann::json::object();    ///< the learner's parameters (caller's JSON)
    std::vector<std::string> featureNames;               ///< one per weight row
    std::vector<std::string> classNames;                 ///< of the training data (2 for binary)
    std::optional<ImageShape> imageShape;                ///< pixel data only
    Preprocessor preprocessing;                          ///< Scaling::None when none was applied
    std::string trainingFingerprint;                     ///< Dataset::fingerprint() as 16 hex digits; empty
                                                         ///< (not written) for a model made outside FDLab
    std::string fdlabVersion = FDLAB_VERSION;            ///< version that wrote the file
    int schemaVersion = kModelSchemaVersion;
};

struct SavedModel {
    LinearModel model;
    ModelMetadata metadata;
};

class JsonReader;

/// The "preprocessing" object of a model file (layout above), shared by every model format.
nlohmann::json preprocessingToJson(const Preprocessor& p);
/// Parses it for a model of n features; DataError through `r` naming the field.
Preprocessor preprocessingFromJson(const nlohmann::json& pre, const JsonReader& r, std::size_t n);

/// "a, b, c" (class and feature lists in messages).
std::string joinedNames(const std::vector<std::string>& names);

/// Dataset::fingerprint() as 16 lower-case hex digits.
std::string fingerprintHex(std::uint64_t fingerprint);

/// Metadata of a model trained on `train` (names, image shape, fingerprint filled in).
ModelMetadata describeTraining(const Dataset& train, std::string learner, nlohmann::json params,
                               const Preprocessor& preprocessing = {});

/// The JSON text of a model. metadata.classNames may be empty (model.classNames is used).
/// Throws std::invalid_argument when model and metadata disagree (sizes, class count) or a
/// weight is not finite.
std::string modelToJson(const LinearModel& model, const ModelMetadata& metadata);

/// Parses a model. Throws DataError naming `source`: "SOURCE: byte N: not JSON ..." for a syntax
/// error, "SOURCE: <field>: <problem>" for a wrong schema version, a missing or mistyped field,
/// a non-finite or null number, weights not matching the feature count, or a class count that
/// does not match the number of columns.
SavedModel modelFromJson(const std::string& text, const std::string& source);

/// Writes atomically (core/util/atomic_file.h). Throws as modelToJson, or std::runtime_error
/// naming the path when writing fails.
void saveModel(const std::string& path, const LinearModel& model, const ModelMetadata& metadata);

/// Reads and parses. Throws DataError naming the path (also when it cannot be read).
SavedModel loadModel(const std::string& path);

/// Throws std::invalid_argument when the dataset's features do not match the model's (count,
/// or names when the dataset has names), naming the first differing feature, or its classes are
/// not the model's (names, count and order), naming both lists.
void checkCompatible(const SavedModel& model, const Dataset& d);

}  // namespace fdlab
