#pragma once
// Results files: JSON with the full experiment spec, the provenance record, timings and every
// point (reloadable), CSV of the curves (one row per learner and level) or of all points, and
// the curves for papers (pgfplots figure, booktabs table).

#include "core/eval/experiment_runner.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

nlohmann::json resultsToJson(const ExperimentResult& r);
/// Inverse of resultsToJson (the spec is re-validated); std::invalid_argument on bad content.
ExperimentResult resultsFromJson(const nlohmann::json& j);

/// learner,level,repetitions,mean_error,se_error,mean_auc,se_auc
std::string curvesCsv(const ExperimentResult& r);
/// learner,level,repetition,error,auc,validation_error,train_seconds,params
std::string pointsCsv(const ExperimentResult& r);

/// The run's provenance record (core/eval/provenance.h) with its spec, as comment lines; a result
/// without one (a file written before the record) gets the writing FDLab's and machine's.
std::vector<std::string> resultProvenanceLines(const ExperimentResult& r);

/// Atomic writes. Every file carries the provenance record: the JSON as "provenance", the CSV
/// and LaTeX files as a comment header ("# " and "% " lines; pandas: read_csv(comment='#')).
void saveResultsJson(const ExperimentResult& r, const std::string& path);
void saveCurvesCsv(const ExperimentResult& r, const std::string& path);
/// The curves (chartOf) as a standalone pgfplots figure (core/io/latex_export.h).
void saveCurvesTex(const ExperimentResult& r, const std::string& path);
/// The curves as a booktabs table of mean +- se per level.
void saveCurvesTable(const ExperimentResult& r, const std::string& path);
/// By extension (any case): .json saveResultsJson; .tex saveCurvesTex, or saveCurvesTable when
/// texTable; else saveCurvesCsv.
void saveResultsOrCurves(const ExperimentResult& r, const std::string& path, bool texTable = false);
/// DataError naming the file when it is not valid JSON; std::invalid_argument naming it for a
/// shard's part (fdlab-cli run --shard), which holds only some tasks: merge the parts first.
ExperimentResult loadResultsJson(const std::string& path);

}  // namespace fdlab
