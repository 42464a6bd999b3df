#pragma once
// The reproduction report: runs the paper presets and sets each paper's claims next to what
// FDLab measures, with a verdict computed from the run (never typed in).
//
// A preset states its paper's findings as machine-checkable claims in its "paper" object:
//   "paper": {"source": "Globerson & Roweis 2006", "summary": "...",
//             "curves": {"SVM": [[level, error], ...]},          (the paper's own numbers, if any)
//             "claims": [{"text": "FDROP stays flat", "check": {"kind": "flat", "learner": "FDROP",
//                                                              "tolerance": 0.02}}, ...]}
// Check kinds, on the mean test error over the repetitions (or "metric": "error_attacked", the
// error on the attacked classes' instances of a one-sided threat):
//   below      {"learner", "other", "levels", "margin"}: err(learner) + margin < err(other) at each
//              listed level ("levels" omitted: every level but the first)
//   close      {"learner", "other", "levels", "tolerance"}: |err(learner) - err(other)| <= tolerance
//              at each listed level (default as for below)
//   flat       {"learner", "tolerance"}: max - min of err(learner) over all levels <= tolerance
//   rises      {"learner", "by"}: err at the last level - err at the first >= by
//   reduction  {"learner", "other", "levels", "at_least"}: (err(other) - err(learner)) / err(other)
//              >= at_least at each listed level
//   near_paper {"learner", "tolerance"}: |err - paper| <= tolerance at every level of the paper's
//              curve for that learner
// A multi-task preset (core/eval/multi_task.h) is checked, charted and compared with the paper
// on the mean over its tasks (as the papers average over digit pairs); the report adds a table
// of every task's mean error per level.
// A preset's verdict: "reproduced" when every claim holds, "not reproduced" when none does,
// "partly reproduced" otherwise, "no checkable claim" without claims.

#include "core/eval/experiment_runner.h"
#include "core/io/curve_chart.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace fdlab {

struct ClaimResult {
    std::string text;            ///< the claim as the paper makes it
    nlohmann::json check;        ///< the check, as in the preset
    bool holds = false;
    std::string evidence;        ///< the measured numbers the verdict rests on
};

struct PaperComparison {
    std::string learner;
    double level = 0.0;
    double paper = 0.0;          ///< the paper's error
    double measured = 0.0;       ///< FDLab's mean error (NaN when the level was not run)
    double se = 0.0;
};

struct PresetReport {
    std::string preset;          ///< preset name (file stem)
    std::string title;           ///< experiment name
    std::string source;          ///< the paper ("paper"."source")
    std::string summary;         ///< what the paper reports ("paper"."summary")
    std::string fingerprint;     ///< specFingerprint of the preset that ran
    std::string verdict;
    std::vector<ClaimResult> claims;
    std::vector<PaperComparison> paperNumbers;
    /// "paper"."evidence": what else was varied in runs outside this report and what each gave
    /// (text from the preset, not recomputed): pairs (varied, gave).
    std::vector<std::pair<std::string, std::string>> evidence;
    std::string chart;           ///< PNG file name, relative to the report
    std::string levelLabel;
    nlohmann::json curves;       ///< {learner: [[level, mean, se], ...]} (multi-task: the mean over tasks)
    std::vector<std::string> tasks;   ///< multi-task presets: the task names; empty otherwise
    nlohmann::json taskCurves;   ///< multi-task: {task: {learner: [[level, mean, se], ...]}}; null otherwise
    double elapsed = 0.0;
    int repetitions = 0;
    std::string status;          ///< the run's status and message
    std::vector<std::string> warnings;
};

/// Throws std::invalid_argument naming "paper.claims[i]" for a malformed claim (unknown kind,
/// unknown learner id, level not in the spec, missing number). A spec without claims passes.
void validateClaims(const ExperimentSpec& spec);

/// Evaluates the spec's claims on a finished run.
std::vector<ClaimResult> evaluateClaims(const ExperimentResult& r);

/// "reproduced", "partly reproduced", "not reproduced" or "no checkable claim".
std::string verdictOf(const std::vector<ClaimResult>& claims);

/// The preset's report entry (claims, paper numbers, curves); chart names the PNG.
PresetReport reportPreset(const std::string& preset, const ExperimentResult& r, const std::string& chart);

/// The run's curves (mean +- se per learner) and the paper's numbers as hollow markers.
ChartSpec chartOf(const ExperimentResult& r);

/// The presets that state claims, sorted by name.
std::vector<std::string> claimPresets();

nlohmann::json reportToJson(const std::vector<PresetReport>& presets, const std::string& generated);
std::string reportMarkdown(const std::vector<PresetReport>& presets, const std::string& generated);

}  // namespace fdlab
