#pragma once
// Non-linear models on disk: one JSON document per model, one schema for every kind, told apart
// by the "type" field of the model object (ensembles nest their members' model objects).
//
//   { "format": "fdlab-classifier", "schema_version": 1, "fdlab_version": "0.1.0",
//     "model": MODEL }
//   MODEL = { "type": T, "features": n, "classes": ["democrat", "republican"], ... } with, per T:
//     "decision-tree":  "nodes": [{"feature": f | -1, "threshold": t, "left": i, "right": j,
//                                  "p": [class distribution], "weight": w, "count": c}, ...]
//                       (node 0 is the root; children follow their parent)
//     "knn":            "k": k, "labels": [m class indices], "train": [[n values] x m]
//     "neural-net":     "activation": "tanh" | "relu", "w1": [[n] x H], "b1": [H],
//                       "w2": [[H] x O], "b2": [O]   (O = 1 for two classes, else K)
//     "adaboost", "mixture-of-experts", "feature-boost":
//                       "members": [{"weight": a, "columns": [..] (empty = all),
//                                    "scale": [..] (empty = none), "model": MODEL}, ...],
//                       FeatureBoost also "importance" and "distribution": [[n] x rounds]
//
// Exactness: nlohmann::json writes each double as the shortest decimal that reads back to the
// same double, and float training values go float -> double -> text -> double -> float exactly,
// so a loaded model gives bit-identical scores (tests/core/test_nonlinear.cpp checks ==).
// Files are written atomically (core/util/atomic_file.h).

#include "core/learners/nonlinear/classifier.h"

#include <memory>
#include <string>

namespace fdlab {

inline constexpr int kClassifierSchemaVersion = 1;

/// The JSON text of a model (the whole document).
std::string classifierToJson(const Classifier& model);

/// Parses a document. Throws DataError naming `source`: "SOURCE: byte N: not JSON ..." for a
/// syntax error, "SOURCE: <json path>: <problem>" for a wrong format or version, an unknown
/// type, a missing or mistyped field, or an inconsistent model (sizes, indices).
std::shared_ptr<const Classifier> classifierFromJson(const std::string& text, const std::string& source);

/// Model object (MODEL above) <-> model, for embedding in other documents (experiments).
std::shared_ptr<const Classifier> classifierFromModelJson(const nlohmann::json& model, const std::string& source,
                                                          const std::string& path = "model");

/// Writes atomically; std::runtime_error naming the path when writing fails.
void saveClassifier(const std::string& path, const Classifier& model);

/// Reads and parses; DataError naming the path (also when it cannot be read).
std::shared_ptr<const Classifier> loadClassifier(const std::string& path);

/// True when the JSON document is a classifier file ("format": "fdlab-classifier"), so that
/// callers holding either kind of model file can dispatch without parsing twice.
bool isClassifierDocument(const nlohmann::json& doc);

/// Throws std::invalid_argument when `d` does not fit the model: a different number of features,
/// or different class names (in order). Classifier files keep no feature names.
void checkCompatible(const Classifier& model, const Dataset& d);

}  // namespace fdlab
