#pragma once
// Results files: JSON with the full experiment spec, FDLab's version, timings and every point
// (reloadable), and CSV of the curves (one row per learner and level) or of all points.

#include "core/eval/experiment_runner.h"

#include <nlohmann/json.hpp>

#include <string>

namespace fdlab {

nlohmann::json resultsToJson(const ExperimentResult& r);
/// Inverse of resultsToJson (the spec is re-validated); std::invalid_argument on bad content.
ExperimentResult resultsFromJson(const nlohmann::json& j);

/// learner,level,repetitions,mean_error,se_error,mean_auc,se_auc
std::string curvesCsv(const ExperimentResult& r);
/// learner,level,repetition,error,auc,validation_error,train_seconds,params
std::string pointsCsv(const ExperimentResult& r);

/// Atomic writes.
void saveResultsJson(const ExperimentResult& r, const std::string& path);
void saveCurvesCsv(const ExperimentResult& r, const std::string& path);
/// saveResultsJson for a path ending in .json (any case), else saveCurvesCsv.
void saveResultsOrCurves(const ExperimentResult& r, const std::string& path);
/// DataError naming the file when it is not valid JSON.
ExperimentResult loadResultsJson(const std::string& path);

}  // namespace fdlab
