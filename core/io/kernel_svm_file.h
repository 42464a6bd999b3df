#pragma once
// Kernel SVM (and LN-robust SVM) models on disk, like the linear and non-linear model files:
//
//   { "format": "fdlab-kernel-svm", "schema_version": 1, "fdlab_version": "0.1.0",
//     "learner": "kernel-svm", "params": {...the training parameters...},
//     "features": ["name", ...],                      (the training data's feature names)
//     "model": {"type": "kernel-svm", "kernel": "linear" | "rbf", "gamma", "C", "mu", "b",
//               "classes": [2 names], "features": n, "supportIndices": [...],
//               "coef": [nSV], "supportVectors": [[n values] x nSV]} }
//
// score(x) = sum_k coef_k K(sv_k, x) + b, coef already including the LN-robust factor (1 - 2 mu)
// (core/learners/kernel_svm.h). Support vectors are the training rows as floats widened to
// double, and nlohmann::json writes the shortest decimal that reads back to the same double, so
// a loaded model gives bit-identical decision values (tests/core/test_label_noise.cpp checks ==).
// Written atomically (core/util/atomic_file.h).

#include "core/data/dataset.h"
#include "core/learners/kernel_svm.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

inline constexpr int kKernelSvmSchemaVersion = 1;
inline constexpr const char* kKernelSvmFormat = "fdlab-kernel-svm";

struct SavedKernelSvm {
    KernelSvmModel model;
    int schemaVersion = kKernelSvmSchemaVersion;
    std::string fdlabVersion;
    nlohmann::json params = nlohmann::json::object();   ///< the registry parameters it was trained with
    std::vector<std::string> featureNames;              ///< of the training data (may be empty)
};

/// The whole document as text.
std::string kernelSvmToJson(const SavedKernelSvm& saved);
/// Parses a document. Throws DataError naming `source`: "SOURCE: byte N: ..." for a syntax error,
/// "SOURCE: <field>: <problem>" for a wrong format or version, a missing or mistyped field, or an
/// inconsistent model (sizes, a non-positive RBF gamma, mu outside [0, 0.5]).
SavedKernelSvm kernelSvmFromJson(const std::string& text, const std::string& source);

/// True when the parsed document announces format "fdlab-kernel-svm" (lets readers dispatch).
bool isKernelSvmDocument(const nlohmann::json& j);

/// Writes atomically; std::runtime_error naming the path when writing fails.
void saveKernelSvm(const std::string& path, const SavedKernelSvm& saved);
/// Reads and parses; DataError naming the path (also when it cannot be read).
SavedKernelSvm loadKernelSvm(const std::string& path);

/// Throws std::invalid_argument when d does not match the model (feature count, feature names
/// when both have them, the two class names), naming the first difference.
void checkCompatible(const SavedKernelSvm& saved, const Dataset& d);

}  // namespace fdlab
