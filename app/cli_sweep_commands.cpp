// fdlab-cli plan / merge, and run --shard i/N: sharded sweeps (core/eval/sharding.h).

#include "cli_args.h"
#include "cli_commands.h"

#include "core/eval/presets.h"
#include "core/eval/results_io.h"
#include "core/eval/sharding.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stop_token>
#include <thread>
#include <unistd.h>

namespace fdlab::cli {

namespace {

using json = nlohmann::json;

// The spec as `run` reads it, with the overrides that change the tasks.
ExperimentSpec sweepSpec(const Args& a) {
    ExperimentSpec spec = loadPresetOrFile(a.positional()[0]);
    if (a.has("threads")) spec.threads = intOption(a, "threads", 0, 0);
    if (a.has("repetitions")) spec.repetitions = intOption(a, "repetitions", 1, 1);
    spec.validate();
    return spec;
}

std::string fixed(double v, int prec) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", prec, v);
    return buf;
}

std::string taskList(const std::vector<int>& tasks) {
    std::string s;
    for (int k : tasks) s += (s.empty() ? "" : ",") + std::to_string(k);
    return s.empty() ? "(none)" : s;
}

// ---- plan ------------------------------------------------------------------------------------

int runPlan(const std::vector<std::string>& argv) {
    const Args a(argv, {"shards", "format", "repetitions", "threads"}, {});
    if (a.positional().size() != 1) throw UsageError("plan needs exactly one EXPERIMENT.json or preset name");
    const std::string format = a.choice("format", {"text", "json"}, "text");
    // N < 1 is a usage error (exit 2) like --repetitions 0 or a malformed --shard.
    const int shards = intOption(a, "shards", 1, 1);
    const ExperimentSpec spec = sweepSpec(a);
    const ShardPlan plan = planShards(spec, shards);
    double total = 0;
    for (const auto& t : plan.tasks) total += t.cost;
    if (format == "json") {
        json j = {{"experiment", spec.name}, {"spec_fingerprint", plan.fingerprint}, {"shards", plan.shards},
                  {"levels_per_task", spec.levels.size()}, {"total_cost", total}};
        j["tasks"] = json::array();
        for (const auto& t : plan.tasks)
        {
            j["tasks"].push_back({{"task", t.index}, {"repetition", t.repetition}, {"learner", t.learner},
                                  {"learner_index", t.learnerIndex}, {"cost", t.cost}, {"shard", t.shard}});
            if (spec.multiTask()) j["tasks"].back()["experiment_task"] = spec.taskName(t.experimentTask);
        }
        j["shard_costs"] = plan.shardCost;
        std::cout << jsonText(j) << '\n';
        return Ok;
    }
    const bool multi = spec.multiTask();
    std::cout << spec.name << "\nspec fingerprint " << plan.fingerprint << "\n" << plan.tasks.size() << " independent tasks ("
              << (multi ? std::to_string(spec.taskCount()) + " experiment tasks x " : std::string())
              << repetitionCount(spec.taskSpec(0)) << " repetitions x " << spec.learners.size()
              << " learners), each computing all " << spec.levels.size() << " levels of one learner on one repetition"
              << (multi ? " of one experiment task" : "") << ".\n"
                 "Finer tasks (one level each) would retrain the learner per level, so they are not offered.\n"
                 "Costs are rough relative estimates (1 = one liblinear SVM training).\n\n"
              << (multi ? "task  experiment task     " : "task  ") << "repetition  learner               cost  shard\n";
    for (const auto& t : plan.tasks) {
        char line[240];
        const std::string name = multi ? spec.taskName(t.experimentTask).substr(0, 18) : "";
        std::snprintf(line, sizeof line, "%4d  %s%10d  %-18.18s %7s  %5d\n", t.index,
                      multi ? (name + std::string(20 - name.size(), ' ')).c_str() : "", t.repetition, t.learner.c_str(),
                      fixed(t.cost, 1).c_str(), t.shard);
        std::cout << line;
    }
    std::cout << "\n" << plan.shards << " shard(s), estimated cost (share of " << fixed(total, 1) << "):\n";
    for (int s = 0; s < plan.shards; ++s) {
        const double c = plan.shardCost[static_cast<std::size_t>(s)];
        std::cout << "  shard " << s << "/" << plan.shards << ": " << fixed(c, 1) << " ("
                  << fixed(total > 0 ? 100 * c / total : 0, 1) << "%)  tasks " << taskList(plan.tasksOf(s)) << '\n';
    }
    return Ok;
}

// ---- merge -----------------------------------------------------------------------------------

int runMerge(const std::vector<std::string>& argv) {
    const Args a(argv, {"output", "csv", "tex", "table"}, {"quiet"});
    checkOutputPaths(a, {"output", "csv", "tex", "table"});
    if (a.positional().empty()) throw UsageError("merge needs the part files (fdlab-cli run ... --shard i/N --output PART)");
    if (!a.has("output")) throw UsageError("merge needs --output RESULTS.json");
    std::vector<ShardPart> parts;
    for (const auto& path : a.positional()) parts.push_back(loadPart(path));
    const MergeResult m = mergeParts(parts);
    for (const auto& d : m.duplicates) std::cerr << "fdlab-cli merge: duplicated (identical numbers, kept once): " << d << '\n';
    if (!m.complete()) {
        std::string rerun;
        for (const auto& s : m.rerun) rerun += (rerun.empty() ? "" : ", ") + ("--shard " + s.str());
        std::cerr << "fdlab-cli: merge: " << m.missing.size() << " task(s) missing (" << taskList(m.missing)
                  << "); run again: " << rerun << "; nothing written\n";
        return BadInput;
    }
    saveResultsJson(m.result, *a.value("output"));
    if (a.has("csv")) saveCurvesCsv(m.result, *a.value("csv"));
    if (a.has("tex")) saveCurvesTex(m.result, *a.value("tex"));
    if (a.has("table")) saveCurvesTable(m.result, *a.value("table"));
    if (!a.has("quiet"))
        std::cout << "merged " << parts.size() << " part(s): " << m.result.points.size() << " points of "
                  << m.result.spec.name << " -> " << *a.value("output") << '\n';
    return Ok;
}

}  // namespace

// ---- run --shard -----------------------------------------------------------------------------

int runShardedRun(const std::vector<std::string>& argv) {
    const Args a(argv, {"output", "threads", "repetitions", "shard"}, {"quiet"});
    if (a.positional().size() != 1) throw UsageError("run needs exactly one EXPERIMENT.json or preset name");
    if (!a.has("output")) throw UsageError("run --shard needs --output PART.json");
    checkOutputPaths(a, {"output"});
    const ShardId id = [&] {
        try {
            return ShardId::parse(*a.value("shard"));
        } catch (const std::invalid_argument& e) {   // a mistake in the command line, as other options' (exit 2)
            throw UsageError(e.what());
        }
    }();
    const ExperimentSpec spec = sweepSpec(a);

    InterruptGuard guard(true);   // SIGTERM too: Slurm sends it at a time limit
    const bool quiet = a.has("quiet");
    StderrProgress progress(quiet);
    RunControl rc;
    rc.stop = guard.token();
    rc.onProgress = [&progress](const Progress& p) { progress(p); };
    const ShardPart part = runShard(spec, id, rc);
    progress.finish();
    savePart(part, *a.value("output"));
    if (!quiet)
        std::cout << "shard " << id.str() << ": " << part.complete.size() << " of " << part.tasks.size() << " task(s) ("
                  << taskList(part.complete) << "), " << part.result.points.size() << " points, "
                  << fixed(part.result.elapsed, 2) << " s -> " << *a.value("output") << '\n';
    if (part.result.status == Status::Cancelled) {
        std::cerr << "fdlab-cli: cancelled (" << part.complete.size() << " of " << part.tasks.size()
                  << " tasks finished and kept)\n";
        return Cancelled;
    }
    if (part.result.status == Status::Failed) {
        for (const auto& w : part.result.warnings) std::cerr << "fdlab-cli: " << w << '\n';
        return BadInput;
    }
    return Ok;
}

std::vector<Command> sweepCommands() {
    return {
        {"plan", "split an experiment into independent tasks and balanced shards",
         "usage: fdlab-cli plan EXPERIMENT.json|PRESET [--shards N] [--format text|json] [--repetitions R]\n"
         "  lists the tasks (one learner on one repetition, every level), a rough cost of each and the\n"
         "  deterministic assignment to N shards (default 1), balanced by cost. Run the shards with\n"
         "    fdlab-cli run EXPERIMENT|PRESET --shard i/N --output part-i.json   (i = 0..N-1)\n"
         "  (e.g. under GNU parallel or as a Slurm job array), then\n"
         "    fdlab-cli merge part-*.json --output results.json [--csv curves.csv]\n"
         "  run --shard takes --threads, --repetitions (give every shard the same) and --quiet; Ctrl-C\n"
         "  or SIGTERM writes the finished tasks and exits 4.\n",
         runPlan},
        {"merge", "merge the parts of a sharded run into one results file",
         "usage: fdlab-cli merge PART.json... --output RESULTS.json [--csv CURVES.csv] [--tex FIGURE.tex]\n"
         "                       [--table TABLE.tex] [--quiet]   (--tex, --table: as for run)\n"
         "  checks that the parts come from the same experiment (spec fingerprint), the same data (data\n"
         "  fingerprint: a data file changed between shard runs is refused) and this FDLab version, that\n"
         "  every point is one of its task's levels (learner and level as the spec's, each level once)\n"
         "  and that every task is present once (identical duplicates are kept once and reported); missing\n"
         "  tasks are listed with the --shard runs that compute them, and nothing is written.\n"
         "  The results equal a single-process run's, apart from the timings: elapsed_seconds (here the\n"
         "  sum of the parts'), threads, spec.threads and each point's train_seconds.\n",
         runMerge},
    };
}

}  // namespace fdlab::cli
