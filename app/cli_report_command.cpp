// fdlab-cli report: runs the paper presets and writes the reproduction report
// (core/eval/reproduction_report.h): report.md with one PNG chart per preset, and report.json.

#include "cli_args.h"
#include "cli_commands.h"

#include "core/eval/multi_task.h"
#include "core/eval/presets.h"
#include "core/eval/reproduction_report.h"
#include "core/eval/results_io.h"
#include "core/eval/sharding.h"
#include "core/util/atomic_file.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace fdlab::cli {

namespace {

std::string utcNow() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buf;
}

// --results NAME=FILE,...: the finished run of preset NAME (e.g. merged from Slurm shards) read
// from FILE instead of running it again. The file must hold the very spec the report would run
// (same fingerprint, so the same --repetitions) and be complete: a shard's part or a cancelled
// or failed run is refused, naming the file.
std::map<std::string, std::string> resultFiles(const Args& a, const std::vector<std::string>& names) {
    std::map<std::string, std::string> files;
    if (!a.has("results")) return files;
    for (const std::string& item : splitList(*a.value("results"), "results")) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            throw UsageError("--results takes PRESET=RESULTS.json entries, got '" + item + "'");
        const std::string name = item.substr(0, eq);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw UsageError("--results names '" + name + "', which is not among the presets of this report");
        if (!files.emplace(name, item.substr(eq + 1)).second) throw UsageError("--results names '" + name + "' twice");
    }
    return files;
}

ExperimentResult loadFinishedRun(const std::string& path, const ExperimentSpec& spec, const std::string& name) {
    ExperimentResult r = loadResultsJson(path);
    if (runFingerprint(r.spec) != runFingerprint(spec))
        throw std::invalid_argument(path + ": not a run of " + name + " as this report would run it (run fingerprint " +
                                    runFingerprint(r.spec) + ", the preset's is " + runFingerprint(spec) +
                                    "; a changed preset or another --repetitions)");
    if (r.status != Status::Converged)
        throw std::invalid_argument(path + ": the run did not finish (" + r.message + ")");
    // The data are not in the spec: the run's must be the data as they are now.
    const std::string ran = r.provenance.is_object() ? r.provenance.value("data_fingerprint", std::string()) : "";
    if (ran.empty()) throw std::invalid_argument(path + ": records no data fingerprint, so its data cannot be checked");
    if (const std::string now = experimentDataFingerprint(spec); ran != now)
        throw std::invalid_argument(path + ": ran on other data than " + name + "'s now (data fingerprint " + ran +
                                    ", the data's is " + now + "; a dataset file changed since the run)");
    // The same run: its words (name, description, the paper's claims and evidence) are the preset's
    // as it is now, so claims added after a long run are checked on it.
    r.spec.name = spec.name;
    r.spec.description = spec.description;
    r.spec.paper = spec.paper;
    return r;
}

int runReport(const std::vector<std::string>& argv) {
    const Args a(argv, {"presets", "output", "threads", "repetitions", "results"}, {"quiet"});
    checkOutputPaths(a, {"output"}, true);
    if (!a.positional().empty()) throw UsageError("report takes no positional arguments (see --presets)");
    const std::string dir = a.value("output", "fdlab-report");
    std::vector<std::string> names = a.has("presets") ? splitList(*a.value("presets"), "presets") : claimPresets();
    if (names.empty()) throw UsageError("--presets names no preset");

    // Load and check every preset before running any (a typo fails in a second, not after an hour).
    std::vector<ExperimentSpec> specs;
    for (const std::string& n : names) {
        ExperimentSpec spec = loadPresetOrFile(n);
        try {
            validateClaims(spec);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(n + ": " + e.what());
        }
        spec.threads = intOption(a, "threads", spec.threads, 0);
        spec.repetitions = intOption(a, "repetitions", spec.repetitions, 1);
        specs.push_back(std::move(spec));
    }
    const std::map<std::string, std::string> files = resultFiles(a, names);
    std::map<std::string, ExperimentResult> finished;   // read (and checked) before any run
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (const auto f = files.find(names[i]); f != files.end())
            finished.emplace(names[i], loadFinishedRun(f->second, specs[i], names[i]));
    std::filesystem::create_directories(dir);

    InterruptGuard guard;
    std::vector<PresetReport> reports;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const std::string name = std::filesystem::path(names[i]).stem().string();
        if (!a.has("quiet")) std::cerr << "report: [" << i + 1 << "/" << specs.size() << "] " << name << "\n";
        ExperimentResult r;
        if (const auto f = finished.find(names[i]); f != finished.end()) {
            r = f->second;
        } else {
            StderrProgress progress(a.has("quiet"));
            RunControl rc;
            rc.stop = guard.token();
            rc.onProgress = [&progress](const Progress& p) { progress(p); };
            r = runExperiment(specs[i], rc);
            progress.finish();
        }
        if (r.status == Status::Cancelled) {
            std::cerr << "fdlab-cli: report cancelled during " << name << "; nothing written\n";
            return Cancelled;
        }
        const std::string chart = name + ".png";
        writeChartPng(chartOf(r), (std::filesystem::path(dir) / chart).string());
        reports.push_back(reportPreset(name, r, chart));
        std::cout << name << ": " << reports.back().verdict << " (" << r.elapsed << " s)\n";
    }
    const std::string generated = utcNow();
    writeFileAtomically((std::filesystem::path(dir) / "report.json").string(), jsonText(reportToJson(reports, generated)) + "\n");
    writeFileAtomically((std::filesystem::path(dir) / "report.md").string(), reportMarkdown(reports, generated));
    std::cout << "wrote " << (std::filesystem::path(dir) / "report.md").string() << " and report.json with "
              << reports.size() << " chart(s)\n";
    return Ok;
}

}  // namespace

std::vector<Command> reportCommands() {
    return {{"report", "run the paper presets and write the reproduction report (Markdown, PNG, JSON)",
             "usage: fdlab-cli report [--presets NAME[,NAME...]] [--output DIR] [--threads N] [--repetitions R]\n"
             "                       [--results NAME=RESULTS.json[,...]] [--quiet]\n"
             "Runs every preset that states its paper's claims (or the listed presets/experiment files), checks\n"
             "each claim on the run's mean test errors and writes DIR/report.md (default DIR: fdlab-report),\n"
             "one chart DIR/PRESET.png per preset and DIR/report.json. Verdicts and numbers come from the runs.\n"
             "--repetitions overrides the presets' own count (a quick look, not the paper's protocol); with a\n"
             "k-fold split it counts repetitions of k-fold CV (R x k points per level).\n"
             "--results takes a long preset's finished run from a results file (e.g. merged from Slurm shards:\n"
             "plan / run --shard / merge) instead of running it; the file must be a complete run of that very\n"
             "preset (the same run fingerprint, so the same --repetitions; only its name, description and paper\n"
             "claims may have changed since, and the report uses them as they are now), else the report stops\n"
             "before any run.\n"
             "Progress on stderr; Ctrl-C cancels (exit 4) and writes no report.\n",
             runReport}};
}

}  // namespace fdlab::cli
