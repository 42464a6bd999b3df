#include "core/eval/reproduction_report.h"

#include "core/attacks/threat_registry.h"

#include "core/eval/multi_task.h"
#include "core/eval/presets.h"
#include "core/eval/sharding.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace fdlab {

using json = nlohmann::json;

namespace {

const char* const kKinds[] = {"below", "close", "flat", "rises", "reduction", "near_paper"};

bool sameLevel(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

std::string num(double v, int decimals = 3) {
    if (!std::isfinite(v)) return "n/a";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

[[noreturn]] void badClaim(std::size_t i, const std::string& what) {
    throw std::invalid_argument("paper.claims[" + std::to_string(i) + "]: " + what);
}

const json& claimsOf(const ExperimentSpec& spec) {
    static const json none = json::array();
    if (!spec.paper.is_object() || !spec.paper.contains("claims")) return none;
    return spec.paper["claims"];
}

// The learner's summary at a level, for the claim's metric; nullopt when not run.
std::optional<MeanSe> measured(const ExperimentResult& r, const std::string& learner, double level, bool attacked) {
    for (const CurveSummary& s : r.summary)
        if (s.learner == learner && sameLevel(s.level, level)) return attacked ? s.errorAttacked : s.error;
    return std::nullopt;
}

// The levels a "below"/"reduction" check applies to.
std::vector<double> checkLevels(const json& check, const ExperimentSpec& spec) {
    if (check.contains("levels")) return check["levels"].get<std::vector<double>>();
    return std::vector<double>(spec.levels.begin() + (spec.levels.size() > 1 ? 1 : 0), spec.levels.end());
}

}  // namespace

void validateClaims(const ExperimentSpec& spec) {
    const json& claims = claimsOf(spec);
    if (!claims.is_array()) throw std::invalid_argument("paper.claims must be a list");
    const auto isLearner = [&](const json& c, const char* key) {
        if (!c.contains(key) || !c[key].is_string()) return false;
        const std::string id = c[key];
        return std::any_of(spec.learners.begin(), spec.learners.end(), [&](const LearnerSpec& l) { return l.id == id; });
    };
    const auto needNumber = [](const json& c, std::size_t i, const char* key) {
        if (!c.contains(key) || !c[key].is_number() || !std::isfinite(c[key].get<double>()))
            badClaim(i, std::string("check needs a number \"") + key + "\"");
    };
    for (std::size_t i = 0; i < claims.size(); ++i) {
        const json& claim = claims[i];
        if (!claim.is_object() || !claim.contains("text") || !claim["text"].is_string() || !claim.contains("check") ||
            !claim["check"].is_object())
            badClaim(i, "needs \"text\" and a \"check\" object");
        const json& c = claim["check"];
        const std::string kind = c.value("kind", "");
        if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds))
            badClaim(i, "unknown check kind '" + kind + "' (below, close, flat, rises, reduction, near_paper)");
        if (!isLearner(c, "learner")) badClaim(i, "\"learner\" must name a learner id of the preset");
        const std::string metric = c.value("metric", "error");
        if (metric != "error" && metric != "error_attacked")
            badClaim(i, "unknown metric '" + metric + "' (error, error_attacked)");
        if (metric == "error_attacked" && spec.attackedClasses.empty())
            badClaim(i, "metric error_attacked needs a one-sided threat (attack.attacked_classes)");
        if (kind == "below" || kind == "reduction" || kind == "close") {
            if (!isLearner(c, "other")) badClaim(i, "\"other\" must name a learner id of the preset");
            if (c.contains("levels")) {
                if (!c["levels"].is_array() || c["levels"].empty()) badClaim(i, "\"levels\" must be a non-empty list");
                for (const json& l : c["levels"]) {
                    if (!l.is_number()) badClaim(i, "\"levels\" must hold numbers");
                    const double v = l.get<double>();
                    if (std::none_of(spec.levels.begin(), spec.levels.end(), [&](double s) { return sameLevel(s, v); }))
                        badClaim(i, "level " + levelText(v) + " is not one of the preset's levels");
                }
            }
            if (kind == "reduction") needNumber(c, i, "at_least");
            else if (kind == "close") needNumber(c, i, "tolerance");
            else if (c.contains("margin")) needNumber(c, i, "margin");
        } else if (kind == "flat" || kind == "near_paper") {
            needNumber(c, i, "tolerance");
        } else if (kind == "rises") {
            needNumber(c, i, "by");
        }
        if (kind == "near_paper" &&
            !(spec.paper.contains("curves") && spec.paper["curves"].contains(c["learner"].get<std::string>())))
            badClaim(i, "near_paper needs the paper's curve for " + c["learner"].get<std::string>());
    }
}

std::vector<ClaimResult> evaluateClaims(const ExperimentResult& r) {
    if (r.spec.multiTask()) return evaluateClaims(aggregateResult(r));
    const ExperimentSpec& spec = r.spec;
    validateClaims(spec);
    std::vector<ClaimResult> out;
    for (const json& claim : claimsOf(spec)) {
        ClaimResult cr;
        cr.text = claim["text"];
        cr.check = claim["check"];
        const json& c = cr.check;
        const std::string kind = c["kind"], learner = c["learner"];
        const bool attacked = c.value("metric", "error") == "error_attacked";
        const auto at = [&](const std::string& who, double level) { return measured(r, who, level, attacked); };
        std::ostringstream ev;
        bool holds = true;
        if (kind == "below" || kind == "reduction" || kind == "close") {
            const std::string other = c["other"];
            const double margin = c.value("margin", 0.0);
            for (double level : checkLevels(c, spec)) {
                const auto a = at(learner, level), b = at(other, level);
                if (!a || !b) {
                    ev << "level " << levelText(level) << " not run; ";
                    holds = false;
                    continue;
                }
                bool ok = false;
                if (kind == "below" || kind == "close") {
                    ok = kind == "below" ? a->mean + margin < b->mean
                                         : std::abs(a->mean - b->mean) <= c["tolerance"].get<double>();
                    ev << levelText(level) << ": " << num(a->mean) << " vs " << num(b->mean) << (ok ? "" : " (fails)") << "; ";
                } else {
                    const double red = b->mean > 0 ? (b->mean - a->mean) / b->mean : 0.0;
                    ok = red >= c["at_least"].get<double>();
                    ev << levelText(level) << ": " << num(b->mean) << " -> " << num(a->mean) << " = " << num(100 * red, 0)
                       << "% fewer errors" << (ok ? "" : " (fails)") << "; ";
                }
                holds = holds && ok;
            }
        } else if (kind == "flat" || kind == "rises") {
            std::vector<double> errs;
            for (double level : spec.levels)
                if (const auto a = at(learner, level)) errs.push_back(a->mean);
            if (errs.size() != spec.levels.size()) {
                holds = false;
                ev << "not every level was run; ";
            } else if (kind == "flat") {
                const auto [lo, hi] = std::minmax_element(errs.begin(), errs.end());
                holds = *hi - *lo <= c["tolerance"].get<double>();
                ev << "range " << num(*lo) << " .. " << num(*hi) << " (spread " << num(*hi - *lo) << ", tolerance "
                   << num(c["tolerance"].get<double>()) << "); ";
            } else {
                const double rise = errs.back() - errs.front();
                holds = rise >= c["by"].get<double>();
                ev << num(errs.front()) << " at " << levelText(spec.levels.front()) << " -> " << num(errs.back()) << " at "
                   << levelText(spec.levels.back()) << " (rise " << num(rise) << ", needed " << num(c["by"].get<double>())
                   << "); ";
            }
        } else {   // near_paper
            const double tol = c["tolerance"].get<double>();
            for (const json& p : spec.paper["curves"][learner]) {
                const double level = p[0].get<double>(), paper = p[1].get<double>();
                const auto a = at(learner, level);
                const bool ok = a && std::abs(a->mean - paper) <= tol;
                ev << levelText(level) << ": " << (a ? num(a->mean) : std::string("not run")) << " vs paper " << num(paper)
                   << (ok ? "" : " (fails)") << "; ";
                holds = holds && ok;
            }
        }
        cr.holds = holds;
        cr.evidence = ev.str();
        if (cr.evidence.size() >= 2) cr.evidence.resize(cr.evidence.size() - 2);
        out.push_back(std::move(cr));
    }
    return out;
}

std::string verdictOf(const std::vector<ClaimResult>& claims) {
    if (claims.empty()) return "no checkable claim";
    const auto held = std::count_if(claims.begin(), claims.end(), [](const ClaimResult& c) { return c.holds; });
    if (held == static_cast<long>(claims.size())) return "reproduced";
    return held == 0 ? "not reproduced" : "partly reproduced";
}

ChartSpec chartOf(const ExperimentResult& r) {
    if (r.spec.multiTask()) {
        ChartSpec chart = chartOf(aggregateResult(r));
        chart.title += " (mean over " + std::to_string(r.spec.taskCount()) + " tasks)";
        return chart;
    }
    ChartSpec chart;
    chart.title = r.spec.name;
    chart.xLabel = threatInfo(r.spec.attack.threat).levelLabel;
    chart.yLabel = "test error";
    for (std::size_t li = 0; li < r.spec.learners.size(); ++li) {
        const std::string& id = r.spec.learners[li].id;
        ChartSeries s;
        s.name = id;
        s.colour = static_cast<int>(li);
        for (const CurveSummary& c : r.summary)
            if (c.learner == id && std::isfinite(c.error.mean)) {
                s.x.push_back(c.level);
                s.y.push_back(c.error.mean);
                s.se.push_back(std::isfinite(c.error.se) ? c.error.se : 0.0);
            }
        if (!r.spec.attackedClasses.empty()) {   // one-sided: the attacked classes' error, dashed
            std::string classes;
            for (const std::string& c : r.spec.attackedClasses) classes += (classes.empty() ? "" : ", ") + c;
            ChartSeries a;
            a.name = id + ": attacked (" + classes + ")";
            a.colour = static_cast<int>(li);
            a.dashed = true;
            for (const CurveSummary& c : r.summary)
                if (c.learner == id && std::isfinite(c.errorAttacked.mean)) {
                    a.x.push_back(c.level);
                    a.y.push_back(c.errorAttacked.mean);
                }
            s.name += ": all instances";
            chart.series.push_back(std::move(s));
            chart.series.push_back(std::move(a));
        } else {
            chart.series.push_back(std::move(s));
        }
        if (r.spec.paper.is_object() && r.spec.paper.contains("curves") && r.spec.paper["curves"].contains(id)) {
            ChartSeries p;
            p.name = id + " (paper)";
            p.colour = static_cast<int>(li);
            p.markersOnly = true;
            for (const json& lv : r.spec.paper["curves"][id]) {
                p.x.push_back(lv[0].get<double>());
                p.y.push_back(lv[1].get<double>());
            }
            chart.series.push_back(std::move(p));
        }
    }
    return chart;
}

PresetReport reportPreset(const std::string& preset, const ExperimentResult& run, const std::string& chart) {
    PresetReport p;
    p.preset = preset;
    p.title = run.spec.name;
    p.fingerprint = specFingerprint(run.spec);
    if (run.spec.multiTask()) {
        p.taskCurves = json::object();
        for (int t = 0; t < run.spec.taskCount(); ++t) p.tasks.push_back(run.spec.taskName(t));
        for (const CurveSummary& c : run.summary)
            p.taskCurves[run.spec.taskName(c.task)][c.learner].push_back({c.level, c.error.mean, c.error.se});
    }
    // A multi-task run is reported on its mean over tasks.
    const ExperimentResult& r = run.spec.multiTask() ? aggregateResult(run) : run;
    if (r.spec.paper.is_object()) {
        p.source = r.spec.paper.value("source", "");
        p.summary = r.spec.paper.value("summary", "");
        if (r.spec.paper.contains("evidence"))
            for (const json& e : r.spec.paper["evidence"]) p.evidence.emplace_back(e.at("varied"), e.at("gave"));
    }
    p.claims = evaluateClaims(r);
    p.verdict = verdictOf(p.claims);
    if (r.status != Status::Converged) p.verdict += " (run " + std::string(toString(r.status)) + ")";
    p.chart = chart;
    p.levelLabel = threatInfo(r.spec.attack.threat).levelLabel;
    p.elapsed = r.elapsed;
    p.repetitions = repetitionCount(r.spec);
    p.warnings = run.warnings;
    p.status = std::string(toString(r.status)) + (r.message.empty() ? "" : ": " + r.message);
    p.curves = json::object();
    for (const CurveSummary& c : r.summary)
        p.curves[c.learner].push_back({c.level, c.error.mean, c.error.se});
    if (r.spec.paper.is_object() && r.spec.paper.contains("curves"))
        for (const auto& [learner, points] : r.spec.paper["curves"].items())
            for (const json& lv : points) {
                PaperComparison pc;
                pc.learner = learner;
                pc.level = lv[0].get<double>();
                pc.paper = lv[1].get<double>();
                const auto m = measured(r, learner, pc.level, false);
                pc.measured = m ? m->mean : std::numeric_limits<double>::quiet_NaN();
                pc.se = m ? m->se : 0.0;
                p.paperNumbers.push_back(pc);
            }
    return p;
}

std::vector<std::string> claimPresets() {
    std::vector<std::string> out;
    for (const PresetInfo& info : listPresets()) {
        const ExperimentSpec spec = loadPresetOrFile(info.path);
        if (!claimsOf(spec).empty()) out.push_back(info.name);
    }
    return out;
}

json reportToJson(const std::vector<PresetReport>& presets, const std::string& generated) {
    json j = {{"format", "fdlab-reproduction-report"}, {"fdlab_version", FDLAB_VERSION}, {"generated", generated},
              {"presets", json::array()}};
    for (const PresetReport& p : presets) {
        json e = {{"preset", p.preset},          {"title", p.title},       {"source", p.source},
                  {"summary", p.summary},        {"fingerprint", p.fingerprint}, {"verdict", p.verdict},
                  {"chart", p.chart},            {"level_label", p.levelLabel},  {"curves", p.curves},
                  {"elapsed_seconds", p.elapsed}, {"repetitions", p.repetitions}, {"status", p.status},
                  {"warnings", p.warnings},      {"claims", json::array()}, {"paper_numbers", json::array()}};
        if (!p.evidence.empty()) {
            e["evidence"] = json::array();
            for (const auto& [varied, gave] : p.evidence) e["evidence"].push_back({{"varied", varied}, {"gave", gave}});
        }
        if (!p.tasks.empty()) {
            e["tasks"] = p.tasks;
            e["task_curves"] = p.taskCurves;
        }
        for (const ClaimResult& c : p.claims)
            e["claims"].push_back({{"text", c.text}, {"check", c.check}, {"holds", c.holds}, {"evidence", c.evidence}});
        for (const PaperComparison& c : p.paperNumbers)
            e["paper_numbers"].push_back({{"learner", c.learner},
                                          {"level", c.level},
                                          {"paper", c.paper},
                                          {"measured", std::isfinite(c.measured) ? json(c.measured) : json(nullptr)},
                                          {"se", c.se}});
        j["presets"].push_back(std::move(e));
    }
    return j;
}

namespace {
// Multi-task presets: every task's mean error per learner and level, then the mean over tasks.
std::string taskTable(const PresetReport& p) {
    std::ostringstream md;
    std::vector<double> levels;
    for (const auto& [learner, points] : p.curves.items())
        for (const json& lv : points)
            if (std::none_of(levels.begin(), levels.end(), [&](double l) { return sameLevel(l, lv[0].get<double>()); }))
                levels.push_back(lv[0].get<double>());
    std::sort(levels.begin(), levels.end());
    md << "Per task (mean test error over the repetitions; the last rows are the mean over the " << p.tasks.size()
       << " tasks, +- se across tasks):\n\n| task | learner |";
    for (double l : levels) md << " " << p.levelLabel << " " << levelText(l) << " |";
    md << "\n|---|---|" << [&] { std::string s; for (std::size_t k = 0; k < levels.size(); ++k) s += "---|"; return s; }() << "\n";
    auto row = [&](const std::string& task, const std::string& learner, const json& points, bool withSe) {
        md << "| " << task << " | " << learner << " |";
        for (double l : levels) {
            std::string cell = "n/a";
            for (const json& lv : points)
                if (sameLevel(lv[0].get<double>(), l))
                    cell = num(lv[1].is_number() ? lv[1].get<double>() : std::nan("")) +
                           (withSe ? " +- " + num(lv[2].is_number() ? lv[2].get<double>() : std::nan("")) : "");
            md << " " << cell << " |";
        }
        md << "\n";
    };
    for (const std::string& task : p.tasks)
        if (p.taskCurves.contains(task))
            for (const auto& [learner, points] : p.taskCurves[task].items()) row(task, learner, points, false);
    for (const auto& [learner, points] : p.curves.items()) row("**mean over tasks**", learner, points, true);
    md << "\n";
    return md.str();
}
}  // namespace

std::string reportMarkdown(const std::vector<PresetReport>& presets, const std::string& generated) {
    std::ostringstream md;
    md << "# FDLab reproduction report\n\n"
       << "Generated by `fdlab-cli report` (FDLab " << FDLAB_VERSION << ", " << generated << "). Each section runs one "
       << "paper preset as it ships (`fdlab-cli run PRESET` gives the same numbers) and checks the paper's findings, "
          "stated as claims in the preset, against the run's mean test errors. Every FDLab number and verdict below "
          "is computed from that run, except the tables headed *What else was varied*, which quote separate runs "
          "described in the preset; the paper's numbers are the ones printed in the paper (most papers give "
          "curves only). Errors are means over the preset's repetitions, +- one standard error.\n\n";
    md << "## Summary\n\n| paper | preset | verdict | claims that hold | run time |\n|---|---|---|---|---|\n";
    for (const PresetReport& p : presets) {
        const auto held = std::count_if(p.claims.begin(), p.claims.end(), [](const ClaimResult& c) { return c.holds; });
        md << "| " << p.source << " | [" << p.title << "](#" << p.preset << ") | **" << p.verdict << "** | " << held
           << " of " << p.claims.size() << " | " << num(p.elapsed, 1) << " s |\n";
    }
    // Sections grouped by paper, in order of first appearance.
    std::vector<std::string> sources;
    for (const PresetReport& p : presets)
        if (std::find(sources.begin(), sources.end(), p.source) == sources.end()) sources.push_back(p.source);
    for (const std::string& source : sources) {
        md << "\n## " << (source.empty() ? "Other presets" : source) << "\n";
        for (const PresetReport& p : presets) {
            if (p.source != source) continue;
            md << "\n<a id=\"" << p.preset << "\"></a>\n### " << p.title << " (`" << p.preset << "`)\n\n";
            md << "**Verdict: " << p.verdict << ".** " << p.repetitions << " repetition(s), " << num(p.elapsed, 1)
               << " s.\n\n";
            if (!p.summary.empty()) md << "*The paper:* " << p.summary << "\n\n";
            if (!p.chart.empty()) md << "![" << p.title << "](" << p.chart << ")\n\n";
            if (!p.claims.empty()) {
                md << "| claim | holds | FDLab measured |\n|---|---|---|\n";
                for (const ClaimResult& c : p.claims)
                    md << "| " << c.text << " | " << (c.holds ? "yes" : "**no**") << " | " << c.evidence << " |\n";
                md << "\n";
            }
            if (!p.evidence.empty()) {
                md << "*What else was varied* (separate runs described in the preset, not recomputed by this report):\n\n"
                   << "| varied | what it gave |\n|---|---|\n";
                for (const auto& [varied, gave] : p.evidence) md << "| " << varied << " | " << gave << " |\n";
                md << "\n";
            }
            if (!p.paperNumbers.empty()) {
                md << "| learner | " << p.levelLabel << " | paper | FDLab |\n|---|---|---|---|\n";
                for (const PaperComparison& c : p.paperNumbers)
                    md << "| " << c.learner << " | " << levelText(c.level) << " | " << num(c.paper) << " | "
                       << num(c.measured) << " +- " << num(c.se) << " |\n";
                md << "\n";
            }
            if (!p.tasks.empty()) md << taskTable(p);
            for (const std::string& w : p.warnings) md << "- warning: " << w << "\n";
        }
    }
    return md.str();
}

}  // namespace fdlab
