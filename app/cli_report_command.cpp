// fdlab-cli report: runs the paper presets and writes the reproduction report
// (core/eval/reproduction_report.h): report.md with one PNG chart per preset, and report.json.

#include "cli_args.h"
#include "cli_commands.h"

#include "core/eval/presets.h"
#include "core/eval/reproduction_report.h"
#include "core/util/atomic_file.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fdlab::cli {

namespace {

std::string utcNow() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buf;
}

int runReport(const std::vector<std::string>& argv) {
    const Args a(argv, {"presets", "output", "threads", "repetitions"}, {"quiet"});
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
    std::filesystem::create_directories(dir);

    InterruptGuard guard;
    std::vector<PresetReport> reports;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const std::string name = std::filesystem::path(names[i]).stem().string();
        if (!a.has("quiet")) std::cerr << "report: [" << i + 1 << "/" << specs.size() << "] " << name << "\n";
        StderrProgress progress(a.has("quiet"));
        RunControl rc;
        rc.stop = guard.token();
        rc.onProgress = [&progress](const Progress& p) { progress(p); };
        const ExperimentResult r = runExperiment(specs[i], rc);
        progress.finish();
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
    writeFileAtomically((std::filesystem::path(dir) / "report.json").string(), reportToJson(reports, generated).dump(2) + "\n");
    writeFileAtomically((std::filesystem::path(dir) / "report.md").string(), reportMarkdown(reports, generated));
    std::cout << "wrote " << (std::filesystem::path(dir) / "report.md").string() << " and report.json with "
              << reports.size() << " chart(s)\n";
    return Ok;
}

}  // namespace

std::vector<Command> reportCommands() {
    return {{"report", "run the paper presets and write the reproduction report (Markdown, PNG, JSON)",
             "usage: fdlab-cli report [--presets NAME[,NAME...]] [--output DIR] [--threads N] [--repetitions R] [--quiet]\n"
             "Runs every preset that states its paper's claims (or the listed presets/experiment files), checks\n"
             "each claim on the run's mean test errors and writes DIR/report.md (default DIR: fdlab-report),\n"
             "one chart DIR/PRESET.png per preset and DIR/report.json. Verdicts and numbers come from the runs.\n"
             "--repetitions overrides the presets' own count (a quick look, not the paper's protocol); with a\n"
             "k-fold split it counts repetitions of k-fold CV (R x k points per level).\n"
             "Progress on stderr; Ctrl-C cancels (exit 4) and writes no report.\n",
             runReport}};
}

}  // namespace fdlab::cli
