#include "core/eval/results_io.h"

#include "core/eval/multi_task.h"
#include "core/eval/provenance.h"
#include "core/eval/reproduction_report.h"
#include "core/io/latex_export.h"
#include "core/util/atomic_file.h"
#include "core/io/json_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace fdlab {

namespace {

using json = nlohmann::json;

// JSON has no NaN: store null and read it back as NaN.
json number(double v) { return std::isfinite(v) ? json(v) : json(); }
double number(const json& j) { return j.is_number() ? j.get<double>() : std::nan(""); }

std::string fmt(double v) {
    if (!std::isfinite(v)) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

json resultsToJson(const ExperimentResult& r) {
    json j;
    j["fdlab_version"] = FDLAB_VERSION;
    j["results_schema"] = 1;
    j["spec"] = toJson(r.spec);
    j["status"] = toString(r.status);
    j["message"] = r.message;
    j["warnings"] = r.warnings;
    j["elapsed_seconds"] = r.elapsed;
    j["threads"] = r.threads;
    // The spec is stored once, at the top level.
    j["provenance"] = r.provenance.is_object() ? r.provenance : makeProvenance(r.spec, r.threads, "");
    j["provenance"].erase("spec");
    // One-sided threats add the errors on the attacked classes and on the rest.
    const bool oneSided = !r.spec.attackedClasses.empty();
    const bool multi = r.spec.multiTask();   // points and curves name their task; "aggregate" added
    json pts = json::array();
    for (const auto& p : r.points) {
        pts.push_back({{"learner", p.learner}, {"learner_index", p.learnerIndex}, {"level_index", p.levelIndex},
                       {"level", p.level}, {"repetition", p.repetition}, {"error", number(p.error)},
                       {"auc", number(p.auc)}, {"validation_error", number(p.validationError)}, {"params", p.params},
                       {"train_seconds", p.trainSeconds}});
        if (multi) pts.back()["task"] = p.task;
        if (oneSided) {
            pts.back()["error_attacked"] = number(p.errorAttacked);
            pts.back()["error_others"] = number(p.errorOthers);
        }
    }
    j["points"] = pts;
    auto curves = [&](const std::vector<CurveSummary>& rows, const char* countKey) {
        json sum = json::array();
        for (const auto& s : rows) {
            sum.push_back({{"learner", s.learner}, {"level", s.level}, {countKey, s.error.n},
                           {"mean_error", number(s.error.mean)}, {"se_error", number(s.error.se)},
                           {"mean_auc", number(s.auc.mean)}, {"se_auc", number(s.auc.se)}});
            if (multi && s.task >= 0) sum.back()["task"] = r.spec.taskName(s.task);
            if (oneSided) {
                sum.back()["mean_error_attacked"] = number(s.errorAttacked.mean);
                sum.back()["se_error_attacked"] = number(s.errorAttacked.se);
                sum.back()["mean_error_others"] = number(s.errorOthers.mean);
                sum.back()["se_error_others"] = number(s.errorOthers.se);
            }
        }
        return sum;
    };
    j["curves"] = curves(r.summary, "repetitions");
    // The paper's aggregate: the mean over tasks of each task's mean (se across tasks).
    if (multi) j["aggregate"] = curves(aggregateOverTasks(r), "tasks");
    return j;
}

ExperimentResult resultsFromJson(const json& j) {
    std::string at = "spec";   // where a type error was, for the message
    try {
        ExperimentResult r;
        r.spec = experimentFromJson(j.at("spec"));
        at = "the top level";
        const std::string status = j.value("status", "converged");
        r.status = status == "cancelled" ? Status::Cancelled : status == "failed" ? Status::Failed
                   : status == "max-iterations" ? Status::MaxIterations : Status::Converged;
        r.message = j.value("message", "");
        r.warnings = j.value("warnings", std::vector<std::string>{});
        r.elapsed = j.value("elapsed_seconds", 0.0);
        r.threads = j.value("threads", 1);
        if (const auto p = j.find("provenance"); p != j.end() && p->is_object()) r.provenance = *p;
        std::size_t k = 0;
        for (const json& p : j.at("points")) {
            at = "points[" + std::to_string(k++) + "]";
            CurvePoint c;
            c.learner = p.at("learner").get<std::string>();
            c.learnerIndex = p.at("learner_index").get<int>();
            c.levelIndex = p.at("level_index").get<int>();
            c.level = p.at("level").get<double>();
            c.repetition = p.at("repetition").get<int>();
            c.error = number(p.at("error"));
            c.auc = number(p.at("auc"));
            c.validationError = number(p.at("validation_error"));
            if (p.contains("error_attacked")) c.errorAttacked = number(p.at("error_attacked"));
            if (p.contains("error_others")) c.errorOthers = number(p.at("error_others"));
            c.params = p.value("params", json::object());
            c.trainSeconds = p.value("train_seconds", 0.0);
            c.task = p.value("task", 0);
            if (c.task < 0 || c.task >= r.spec.taskCount())
                throw std::invalid_argument("point refers to task " + std::to_string(c.task) + ", the spec has " +
                                            std::to_string(r.spec.taskCount()));
            if (c.learnerIndex < 0 || c.learnerIndex >= static_cast<int>(r.spec.learners.size()) || c.levelIndex < 0 ||
                c.levelIndex >= static_cast<int>(r.spec.levels.size()))
                throw std::invalid_argument("point refers to a learner or level the spec does not have");
            r.points.push_back(std::move(c));
        }
        r.summary = summarizePoints(r.points);
        return r;
    } catch (const json::exception& e) {
        throw std::invalid_argument("results file: " + at + ": " + jsonErrorText(e));
    }
}

std::string curvesCsv(const ExperimentResult& r) {
    std::ostringstream os;
    const bool oneSided = !r.spec.attackedClasses.empty();
    // Multi-task: a first "task" column; the aggregate's rows (mean over tasks of the per-task
    // means, "repetitions" then counts tasks) come first, as task "mean over tasks".
    const bool multi = r.spec.multiTask();
    os << (multi ? "task," : "") << "learner,level,repetitions,mean_error,se_error,mean_auc,se_auc"
       << (oneSided ? ",mean_error_attacked,se_error_attacked,mean_error_others,se_error_others" : "") << '\n';
    std::vector<CurveSummary> rows = aggregateOverTasks(r);
    rows.insert(rows.end(), r.summary.begin(), r.summary.end());
    for (const auto& s : rows) {
        if (multi) os << csvField(s.task < 0 ? kMeanOverTasks : r.spec.taskName(s.task)) << ',';
        os << csvField(s.learner) << ',' << fmt(s.level) << ',' << s.error.n << ',' << fmt(s.error.mean) << ','
           << fmt(s.error.se) << ',' << fmt(s.auc.mean) << ',' << fmt(s.auc.se);
        if (oneSided)
            os << ',' << fmt(s.errorAttacked.mean) << ',' << fmt(s.errorAttacked.se) << ',' << fmt(s.errorOthers.mean) << ','
               << fmt(s.errorOthers.se);
        os << '\n';
    }
    return os.str();
}

std::string pointsCsv(const ExperimentResult& r) {
    std::ostringstream os;
    const bool multi = r.spec.multiTask();
    os << (multi ? "task," : "") << "learner,level,repetition,error,auc,validation_error,train_seconds,params\n";
    for (const auto& p : r.points)
        os << (multi ? csvField(r.spec.taskName(p.task)) + "," : std::string()) << csvField(p.learner) << ',' << fmt(p.level) << ',' << p.repetition << ',' << fmt(p.error) << ','
           << fmt(p.auc) << ',' << fmt(p.validationError) << ',' << fmt(p.trainSeconds) << ','
           << csvField(p.params.dump()) << '\n';
    return os.str();
}

void saveResultsJson(const ExperimentResult& r, const std::string& path) {
    // A data path or class name with bytes that are not UTF-8 (a folder named so) made the dump
    // throw after the run, losing it ("invalid UTF-8 byte at index 5"): such bytes are written as
    // U+FFFD; the numbers are unaffected.
    writeFileAtomically(path, resultsToJson(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

void saveCurvesCsv(const ExperimentResult& r, const std::string& path) {
    std::string header;
    for (const std::string& line : resultProvenanceLines(r)) header += "# " + line + '\n';
    writeFileAtomically(path, header + curvesCsv(r));
}

void requireCompleteResults(const json& j, const std::string& source) {
    // A shard's part holds only its shard's tasks: read as results it would show (and report)
    // partial curves as if they were the experiment's.
    if (!j.is_object() || !j.contains("part")) return;
    std::string which = "a shard's part";
    const json& pj = j["part"];
    if (pj.is_object() && pj.contains("shard") && pj["shard"].is_object() && pj["shard"].value("index", json()).is_number_integer() &&
        pj["shard"].value("count", json()).is_number_integer())
        which = "part " + std::to_string(pj["shard"]["index"].get<long long>()) + " of " +
                std::to_string(pj["shard"]["count"].get<long long>()) + " of a sharded run";
    throw std::invalid_argument(source + ": " + which +
                                ", not complete results; merge the parts first (fdlab-cli merge PART.json ... --output RESULTS.json)");
}

ExperimentResult loadResultsJson(const std::string& path) {
    const json j = readJsonFile(path, "results file");
    requireCompleteResults(j, path);
    try {
        return resultsFromJson(j);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

std::vector<std::string> resultProvenanceLines(const ExperimentResult& r) {
    nlohmann::json p = r.provenance.is_object() ? r.provenance : makeProvenance(r.spec, r.threads, "");
    p["spec"] = toJson(r.spec);
    return provenanceLines(p);
}

void saveCurvesTex(const ExperimentResult& r, const std::string& path) {
    writeFileAtomically(path, pgfplotsFigure(chartOf(r), resultProvenanceLines(r)));
}

void saveCurvesTable(const ExperimentResult& r, const std::string& path) {
    writeFileAtomically(path, booktabsTable(chartOf(r), resultProvenanceLines(r)));
}

void saveResultsOrCurves(const ExperimentResult& r, const std::string& path, bool texTable) {
    auto endsWith = [&](const char* ext) {
        const std::string_view e(ext);
        return path.size() >= e.size() && std::equal(path.end() - static_cast<std::ptrdiff_t>(e.size()), path.end(), e.begin(),
                                                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    };
    if (endsWith(".json")) saveResultsJson(r, path);
    else if (endsWith(".tex")) texTable ? saveCurvesTable(r, path) : saveCurvesTex(r, path);
    else saveCurvesCsv(r, path);
}

}  // namespace fdlab
