// fdlab-cli presets / run / train / eval / attack.

#include "cli_args.h"
#include "cli_commands.h"

#include "core/attacks/threat_registry.h"
#include "core/data/bundled.h"
#include "core/data/loaders.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/level_evaluation.h"
#include "core/eval/model_data.h"
#include "core/eval/multi_task.h"
#include "core/eval/presets.h"
#include "core/eval/results_io.h"
#include "core/io/deletion_grid.h"
#include "core/io/json_file.h"
#include "core/io/model_file.h"
#include "core/learners/registry.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fdlab::cli {

namespace {

using json = nlohmann::json;

/// A CSV cell: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string r = "\"";
    for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
}

std::vector<double> parseLevels(const std::string& s) {
    std::vector<double> out;
    for (const auto& t : splitList(s, "levels")) out.push_back(parseNumber(t, "levels"));
    if (out.empty()) throw UsageError("--levels needs at least one value");
    if (const std::string problem = levelOrderProblem(out); !problem.empty()) throw UsageError("--levels: " + problem);
    return out;
}

// Options shared by train / eval / attack: which data, task, preprocessing and split.
const std::set<std::string> kDataOptions = {"bundled", "data", "label", "positive", "negative", "one-vs-rest",
                                            "scale", "test-fraction", "test-data", "seed", "importance",
                                            "text-column", "weighting", "min-df"};
const char* kDataHelp =
    "  data:  --bundled NAME | --data FILE [--label COLUMN]\n"
    "         text corpora: --data FOLDER (one sub-folder of .txt/.eml files per class) or --data FILE.csv\n"
    "         --text-column COL; --weighting binary|tf|tf-idf, --min-df N (default 2; the vocabulary is fitted\n"
    "         on the --data corpus, and a --test-data corpus is vectorised with it)\n"
    "  task:  --positive A[,B] --negative C[,D]   (binary)  |  --one-vs-rest A  |  (default: all classes)\n"
    "         --scale none|zero-one|minus-one-one|unit-norm|binarise (fitted on the training part)\n"
    "         --test-fraction F (default 0.3) --seed S (default 1): the stratified split; --test-fraction 0\n"
    "         trains on all rows. train records the split, the fitted scaling and a fingerprint of the\n"
    "         training part in the model file; eval and attack apply them (leave --scale, --test-fraction\n"
    "         and --seed out: a value that contradicts the model's is refused, exit 3), match the classes\n"
    "         by name, and refuse data whose training part is not the model's (the test part could hold\n"
    "         training rows); files written before this record fall back to the options, with a warning\n"
    "         --label COLUMN: a CSV file's label column or an ARFF file's class attribute\n"
    "         --test-data FILE|BUNDLED: a fixed test set (e.g. spamassassin-test); the whole --data/--bundled\n"
    "         set trains, and the test set's features are matched to it by name (unseen ones dropped)\n"
    "         --importance dataset|uniform|mutual-information|FILE.csv (default: the data's own)\n";

/// --label COLUMN for `ref`: a CSV file's label column, an ARFF file's class attribute. Other
/// sources have no choice of label, so the option is refused there rather than ignored.
void setLabel(DatasetRef& ref, const std::string& label, const std::string& role) {
    ref.options.labelColumn.clear();
    ref.options.classAttribute.clear();
    if (label.empty()) return;
    const std::string& source = ref.bundled.empty() ? ref.file : ref.bundled;
    const bool corpus = !ref.file.empty() && isTextCorpus(ref.file, ref.options);
    const std::optional<FileFormat> format =
        ref.file.empty() || corpus ? std::nullopt : std::optional<FileFormat>(guessFormat(ref.file));
    if (format == FileFormat::Arff) ref.options.classAttribute = label;
    else if (corpus ? !std::filesystem::is_directory(ref.file) : format == FileFormat::Csv) ref.options.labelColumn = label;
    else
        throw UsageError("--label applies to CSV and ARFF files (the label column or class attribute); the " + role +
                         " '" + source + "' has no choice of label");
}

ExperimentSpec dataSpec(const Args& a) {
    ExperimentSpec s;
    s.dataset.bundled = a.value("bundled", "");
    s.dataset.file = a.value("data", "");
    if (s.dataset.bundled.empty() == s.dataset.file.empty()) throw UsageError("give exactly one of --bundled and --data");
    s.dataset.options.textColumn = a.value("text-column", "");
    s.dataset.options.weighting = a.value("weighting", "binary");
    s.dataset.options.minDocumentFrequency = intOption(a, "min-df", 2, 1);
    if (a.has("test-data")) {
        DatasetRef t;
        const std::string v = *a.value("test-data");
        const auto all = bundledDatasets();
        const bool isBundled = !std::filesystem::exists(v) &&
                               std::any_of(all.begin(), all.end(), [&](const BundledInfo& b) { return b.name == v; });
        (isBundled ? t.bundled : t.file) = v;
        t.options = s.dataset.options;
        setLabel(t, a.value("label", ""), "test data");
        s.testDataset = t;
    }
    setLabel(s.dataset, a.value("label", ""), "data");
    if (a.has("positive") || a.has("negative")) {
        s.task.kind = TaskSpec::Kind::Binary;
        s.task.positive = splitList(a.value("positive", ""), "positive");
        s.task.negative = splitList(a.value("negative", ""), "negative");
    } else if (a.has("one-vs-rest")) {
        s.task.kind = TaskSpec::Kind::OneVsRest;
        s.task.positive = {a.value("one-vs-rest", "")};
    }
    s.preprocessing = scalingFromString(a.value("scale", "none"));
    s.split.kind = SplitSpec::Kind::Fraction;
    s.split.testFraction = parseNumber(a.value("test-fraction", "0.3"), "test-fraction");
    s.split.validationFraction = 0.0;
    s.seed = parseSeed(a.value("seed", "1"), "seed");
    const std::string imp = a.value("importance", "dataset");
    if (imp == "dataset") s.importance.kind = ImportanceSpec::Kind::Dataset;
    else if (imp == "uniform") s.importance.kind = ImportanceSpec::Kind::Uniform;
    else if (imp == "mutual-information") s.importance.kind = ImportanceSpec::Kind::MutualInformation;
    else {
        s.importance.kind = ImportanceSpec::Kind::Csv;
        s.importance.path = imp;
    }
    return s;
}

PreparedSplit prepare(const ExperimentSpec& s) {
    const TaskData data = loadTaskData(s);
    if (const std::string note = data.testAlignment.describe(); !note.empty()) std::cerr << "test data: " << note << '\n';
    return prepareRepetition(data, s, 0);
}

/// A model file and the data it is evaluated on: the model's recorded split and preprocessing
/// applied to the data options (core/eval/model_data.h); warnings on stderr.
struct ModelAndData {
    LoadedModel model;
    PreparedSplit split;
};

ModelAndData modelAndData(const Args& a) {
    const std::string path = *a.value("model");
    const ExperimentSpec options = dataSpec(a);   // usage mistakes before the files are read
    ModelAndData out;
    out.model = loadModelFile(path);
    ModelDataOptions given;
    if (const auto v = a.value("scale")) given.scaling = scalingFromString(*v);
    if (const auto v = a.value("test-fraction")) given.testFraction = parseNumber(*v, "test-fraction");
    if (const auto v = a.value("seed")) given.seed = parseSeed(*v, "seed");
    std::vector<std::string> warnings;
    auto flush = [&warnings] {
        for (const auto& w : warnings) std::cerr << "warning: " << w << '\n';
        warnings.clear();
    };
    const ExperimentSpec spec = specForModel(options, out.model, given, path, warnings);
    flush();
    TaskData data = loadTaskData(spec);
    if (const std::string note = data.testAlignment.describe(); !note.empty()) std::cerr << "test data: " << note << '\n';
    out.split = prepareForModel(std::move(data), spec, out.model, path, warnings);
    flush();
    return out;
}

/// The test part, or a usage error saying that --test-fraction 0 left none.
const Dataset& requireTest(const PreparedSplit& ps) {
    if (ps.test.rows() == 0) throw UsageError("there is no test part: give --test-fraction above 0 or --test-data FILE");
    return ps.test;
}

/// --attack-class NAME[,NAME]: the one-sided threat's classes, as indices of the task's classes.
void setAttackedClasses(AttackSpec& at, const Args& a, const Dataset& d) {
    ExperimentSpec s;
    s.attack = at;
    s.attackedClasses = splitList(a.value("attack-class", ""), "attack-class");
    at = resolvedAttack(s, d);
}

/// "--knapsack-scale" for the parameter knapsack_scale.
std::string optionName(const std::string& param) {
    std::string o = param;
    std::replace(o.begin(), o.end(), '_', '-');
    return o;
}

/// The options eval and attack accept: the data options, theirs, and every threat parameter.
std::set<std::string> attackOptions(std::set<std::string> own) {
    std::set<std::string> valued = kDataOptions;
    valued.merge(own);
    valued.insert({"threat", "attack-seed", "attack-class"});
    for (const std::string& p : threatParamNames()) valued.insert(optionName(p));
    return valued;
}

/// --threat T, --attack-seed S and T's own parameters as --name VALUE (ThreatInfo::params);
/// an option of another threat is a usage error that lists T's.
AttackSpec attackFrom(const Args& a) {
    AttackSpec at;
    at.threat = a.value("threat", "none");
    at.seed = parseSeed(a.value("attack-seed", "1"), "attack-seed");
    std::map<std::string, std::string> given;
    for (const std::string& name : threatParamNames())
        if (const auto v = a.value(optionName(name))) given[name] = *v;
    try {
        at.params = threatParamsFromText(at.threat, given);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return at;
}

std::string fmt(double v, int prec = 4) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", prec, v);
    return buf;
}

// ---- presets ---------------------------------------------------------------------------------

int runPresets(const std::vector<std::string>& argv) {
    const Args a(argv, {"format"}, {});
    const std::string format = a.choice("format", {"text", "json"}, "text");
    json all = json::array();
    const std::vector<PresetInfo> presets = listPresets();
    if (presets.empty()) {   // an empty list with exit 0 looked like "FDLab has no presets"
        std::cerr << "fdlab-cli: " << noPresetsMessage() << '\n';
        return BadInput;
    }
    for (const auto& p : presets) {
        if (format == "json") all.push_back({{"name", p.name}, {"title", p.title}, {"description", p.description}, {"path", p.path}});
        else std::cout << p.name << "\n  " << p.title << "\n  " << p.description << "\n\n";
    }
    if (format == "json") std::cout << jsonText(all) << '\n';
    return Ok;
}

// ---- run -------------------------------------------------------------------------------------

// One table row per summary entry (the task column only for multi-task results).
void printSummaryRows(const ExperimentResult& r, const std::vector<CurveSummary>& rows, bool oneSided) {
    for (const auto& s : rows) {
        // The paper's numbers are the aggregate's (a multi-task paper reports the mean over tasks).
        const auto ref = paperReference(r.spec, s.learner, s.level);
        const bool showRef = ref && !(r.spec.multiTask() && s.task >= 0);
        const std::string task = !r.spec.multiTask() ? "" : s.task < 0 ? kMeanOverTasks : r.spec.taskName(s.task);
        char line[320];
        std::snprintf(line, sizeof line, "%s%-18s %6g   %-7s  %-7s  %-7s  %s%s\n",
                      r.spec.multiTask() ? (std::string(task.size() < 18 ? 18 - task.size() : 0, ' ') + task + "  ").c_str() : "",
                      s.learner.c_str(), s.level, fmt(s.error.mean).c_str(), fmt(s.error.se).c_str(), fmt(s.auc.mean).c_str(),
                      oneSided ? (fmt(s.errorAttacked.mean) + "   " + fmt(s.errorOthers.mean) + "   ").c_str() : "",
                      showRef ? fmt(*ref, 3).c_str() : "");
        std::cout << line;
    }
}

void printTable(const ExperimentResult& r) {
    std::cout << r.spec.name << "\n" << std::string(r.spec.name.size(), '=') << "\n";
    if (r.spec.paper.is_object() && r.spec.paper.contains("summary"))
        std::cout << "Paper: " << r.spec.paper.at("summary").get<std::string>() << "\n";
    // One-sided threats: the error on the attacked classes' instances and on the others too.
    const bool oneSided = !r.spec.attackedClasses.empty();
    const std::string header = std::string(r.spec.multiTask() ? "              task  " : "") +
                               "learner             level   error    +-se     AUC      " + (oneSided ? "attacked others   " : "") +
                               "paper\n";
    if (r.spec.multiTask()) {
        // The paper's aggregate first: per level, the mean over tasks of each task's mean error
        // (+-se across tasks); then every task's own curves.
        std::cout << "\nMean over " << r.spec.taskCount() << " tasks (+-se across tasks):\n" << header;
        printSummaryRows(r, aggregateOverTasks(r), oneSided);
        std::cout << "\nPer task (+-se across repetitions):\n";
    } else {
        std::cout << "\n";
    }
    std::cout << header;
    printSummaryRows(r, r.summary, oneSided);
    for (const auto& w : groupedWarnings(r.warnings)) std::cout << "warning: " << w << '\n';
    std::cout << "\n" << r.message << " in " << fmt(r.elapsed, 2) << " s on " << r.threads << " threads\n";
}

int runRun(const std::vector<std::string>& argv) {
    for (const auto& s : argv)   // one shard of a sharded sweep: cli_sweep_commands.cpp
        if (s == "--shard" || s.starts_with("--shard=")) return runShardedRun(argv);
    const Args a(argv, {"output", "csv", "tex", "table", "format", "threads", "repetitions"}, {"quiet"});
    checkOutputPaths(a, {"output", "csv", "tex", "table"});
    if (a.positional().size() != 1) throw UsageError("run needs exactly one EXPERIMENT.json or preset name");
    const std::string format = a.choice("format", {"text", "csv", "json"}, "text");
    ExperimentSpec spec = loadPresetOrFile(a.positional()[0]);
    spec.threads = intOption(a, "threads", spec.threads, 0);
    spec.repetitions = intOption(a, "repetitions", spec.repetitions, 1);

    InterruptGuard guard;
    StderrProgress progress(a.has("quiet"));
    RunControl rc;
    rc.stop = guard.token();
    rc.onProgress = [&progress](const Progress& p) { progress(p); };
    const ExperimentResult r = [&] {
        try {
            return runExperiment(spec, rc);
        } catch (const std::invalid_argument& e) {   // a field that does not fit the data: name the file too
            throw std::invalid_argument(a.positional()[0] + ": " + e.what());
        }
    }();
    progress.finish();
    // A learner that failed (a parameter its data do not allow, e.g. K above the feature count)
    // is reported before anything is printed, and a run with no point prints nothing: the CSV
    // header came out first, then the error.
    const bool failed = r.status == Status::Failed;
    if (failed)
        for (const auto& w : groupedWarnings(r.warnings)) std::cerr << "fdlab-cli: " << w << '\n';
    // Nor does it write files: a results file with no point replaced a good one of the same name.
    const bool nothing = failed && r.points.empty();
    if (nothing && (a.has("output") || a.has("csv") || a.has("tex") || a.has("table")))
        std::cerr << "fdlab-cli: no point was computed: no file written\n";
    if (!nothing) {
        if (a.has("output")) saveResultsJson(r, *a.value("output"));
        if (a.has("csv")) saveCurvesCsv(r, *a.value("csv"));
        if (a.has("tex")) saveCurvesTex(r, *a.value("tex"));
        if (a.has("table")) saveCurvesTable(r, *a.value("table"));
    }
    if (!nothing) {
        if (format == "json") std::cout << jsonText(resultsToJson(r)) << '\n';
        else if (format == "csv") std::cout << curvesCsv(r);
        else printTable(r);
    }
    if (r.status == Status::Cancelled) {
        std::cerr << "fdlab-cli: cancelled (" << r.message << ")\n";
        return Cancelled;
    }
    return failed ? BadInput : Ok;
}

// ---- train -----------------------------------------------------------------------------------

/// Whether writing `path` writes into the file stdout writes to (this process's descriptor 1, or
/// another of its descriptors open on the same file or pipe).
bool sameFileAsStdout(const std::string& path) {
    const auto fd = ownDescriptorOf(path);
    if (!fd) return false;
    if (*fd == 1) return true;
    struct stat a {}, b {};
    return ::fstat(*fd, &a) == 0 && ::fstat(1, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int runTrain(const std::vector<std::string>& argv) {
    std::set<std::string> valued = kDataOptions;
    valued.insert({"learner", "params", "output"});
    const Args a(argv, valued, {});
    if (!a.has("learner")) throw UsageError("train needs --learner NAME");
    if (!a.has("output")) throw UsageError("train needs --output MODEL.json");
    checkOutputPaths(a, {"output"});
    const std::string learner = *a.value("learner");
    json params = json::object();
    if (a.has("params")) {
        try {
            params = parseJsonText(*a.value("params"), "--params");
        } catch (const DataError& e) {
            throw UsageError(std::string("--params is not valid JSON: ") + e.what());
        }
    }
    const ExperimentSpec spec = dataSpec(a);
    const PreparedSplit ps = prepare(spec);
    InterruptGuard guard;
    const TrainedModel t = trainLearner(learner, ps.train, params, {{}, guard.token()});
    if (t.fit.status == Status::Cancelled) return Cancelled;
    if (!t.fit.ok()) throw std::runtime_error("training failed: " + t.fit.message);
    saveTrainedModel(*a.value("output"), t, ps.train, learner, completeParams(learner, params), ps.preprocessor,
                     splitRecord(spec, spec.testDataset.has_value()));
    // The report goes to stderr when the model went to stdout's file (--output /dev/stdout > m.json,
    // or /dev/fd/3 with 3>&1: the report ended up inside the JSON).
    std::ostream& report = sameFileAsStdout(*a.value("output")) ? std::cerr : std::cout;
    // liblinear does not report its iteration count (0): say nothing rather than "0 iterations".
    report << "trained " << learner << " on " << ps.train.rows() << " instances: objective " << t.fit.objective << ", "
              << (t.fit.iterations > 0 ? std::to_string(t.fit.iterations) + " iterations, " : std::string()) << fmt(t.fit.elapsed, 3)
              << " s (" << toString(t.fit.status)
              << ")\ntraining error " << fmt(scoreDataset(*t.scorer, ps.train).error);
    if (ps.test.rows() > 0)
        report << ", test error " << fmt(scoreDataset(*t.scorer, ps.test).error) << " (" << ps.test.rows() << " instances)";
    else
        report << " (no test part: trained on all " << ps.train.rows() << " rows)";
    report << "\nsaved " << *a.value("output") << '\n';
    if (t.fit.status == Status::MaxIterations)   // why it stopped, and what may help
        std::cerr << "warning: " << learner << ": " << t.fit.message << '\n';
    return Ok;
}

// ---- eval / attack ---------------------------------------------------------------------------

int runEval(const std::vector<std::string>& argv) {
    const Args a(argv, attackOptions({"model", "levels", "format"}), {});
    if (!a.has("model")) throw UsageError("eval needs --model MODEL.json");
    const std::string format = a.choice("format", {"text", "csv", "json"}, "text");
    AttackSpec at = attackFrom(a);   // option mistakes first, before any data is read
    const std::vector<double> levels = parseLevels(a.value("levels", "0"));
    const ModelAndData md = modelAndData(a);
    const PreparedSplit& ps = md.split;
    requireTest(ps);
    const TrainedModel& m = md.model.trained;
    setAttackedClasses(at, a, ps.test);
    InterruptGuard guard;
    const Stopwatch sw;
    const auto scores = evaluateAtLevels(m, ps.test, at, levels, {{}, guard.token()}, &ps.train);
    const double seconds = sw.seconds();
    if (scores.size() < levels.size()) return Cancelled;
    json out = json::array();
    // One-sided threats add the error on the attacked classes and on the others.
    const bool oneSided = !at.attackedClasses.empty();
    auto num = [](double v) { return std::isfinite(v) ? json(v) : json(); };
    auto cell = [](double v) { return std::isfinite(v) ? std::to_string(v) : std::string(); };
    if (format == "csv") std::cout << "level,error,auc" << (oneSided ? ",error_attacked,error_others" : "") << "\n";
    if (format == "text")
        std::cout << "threat " << at.threat << " on " << ps.test.rows() << " test instances\nlevel    error    AUC"
                  << (oneSided ? "      attacked  others" : "") << "\n";
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const LevelScore& sc = scores[l];
        if (format == "json") {
            out.push_back({{"level", levels[l]}, {"error", sc.error}, {"auc", num(sc.auc)}});
            if (oneSided) out.back()["error_attacked"] = num(sc.errorAttacked), out.back()["error_others"] = num(sc.errorOthers);
        } else if (format == "csv") {
            std::cout << levels[l] << ',' << sc.error << ',' << cell(sc.auc);
            if (oneSided) std::cout << ',' << cell(sc.errorAttacked) << ',' << cell(sc.errorOthers);
            std::cout << '\n';
        } else {
            std::cout << levels[l] << "\t " << fmt(sc.error) << "   " << fmt(sc.auc);
            if (oneSided) std::cout << "   " << fmt(sc.errorAttacked) << "    " << fmt(sc.errorOthers);
            std::cout << '\n';
        }
    }
    if (format == "json")
        std::cout << json{{"threat", at.threat}, {"instances", ps.test.rows()}, {"levels", out}, {"seconds", seconds}}.dump(2)
                  << '\n';
    if (format == "text") std::cout << "curve computed in " << fmt(seconds, 3) << " s\n";
    return Ok;
}

int runAttackCmd(const std::vector<std::string>& argv) {
    const Args a(argv, attackOptions({"model", "budget", "format", "png", "count"}), {});
    if (!a.has("model")) throw UsageError("attack needs --model MODEL.json");
    checkOutputPaths(a, {"png"});
    const std::string format = a.choice("format", {"csv", "json"}, "csv");
    AttackSpec at = attackFrom(a);   // option mistakes first, before any data is read
    const double budget = parseNumber(a.value("budget", "0"), "budget");
    const int count = intOption(a, "count", 10, 0);
    const ModelAndData md = modelAndData(a);
    const PreparedSplit& ps = md.split;
    requireTest(ps);
    // What --png needs is checked before anything is printed (the CSV came out, then the error).
    if (a.has("png") && !ps.test.imageShape)
        throw std::invalid_argument("--png draws image data: " + ps.test.name + " has no image shape");
    if (a.has("png") && count == 0) throw UsageError("--png draws the first --count instances: --count 0 draws none");
    const TrainedModel& m = md.model.trained;
    setAttackedClasses(at, a, ps.test);
    at = attackAtLevel(at, budget);
    InterruptGuard guard;
    const AttackResult r = runAttack(ps.test, *m.scorer, at, {{}, guard.token()}, &ps.train);
    if (r.status == Status::Cancelled) return Cancelled;
    const Scorer& model = *m.scorer;
    // The PNG is written before the table is printed: a PNG that cannot be written (a missing
    // folder, a dangling link, a closed /dev/fd/N) fails before any output, not after it.
    std::string png;
    if (a.has("png")) {
        std::vector<int> rows;
        for (int i = 0; i < std::min(count, ps.test.rows()); ++i) rows.push_back(i);
        png = *a.value("png");
        savePng(deletionGrid(ps.test, r, rows), png);
    }
    if (format == "json") {
        json rows = json::array();
        for (int i = 0; i < ps.test.rows(); ++i)
            rows.push_back({{"instance", i}, {"source_row", ps.test.sourceRow(i) + 1}, {"id", ps.test.instanceId(i)}, {"label", ps.test.classNames[static_cast<std::size_t>(ps.test.labels[static_cast<std::size_t>(i)])]},
                            {"margin_before", model.margin(ps.test.row(i), ps.test.labels[static_cast<std::size_t>(i)])},
                            {"margin_after", model.margin(r.attacked.row(i), ps.test.labels[static_cast<std::size_t>(i)])},
                            {"deleted", r.deleted[static_cast<std::size_t>(i)]}});
        std::cout << json{{"threat", at.threat}, {"instances", rows}}.dump(2) << '\n';
    } else {
        std::cout << "instance,source_row,id,label,margin_before,margin_after,deleted\n";
        for (int i = 0; i < ps.test.rows(); ++i) {
            const int y = ps.test.labels[static_cast<std::size_t>(i)];
            std::cout << i << ',' << ps.test.sourceRow(i) + 1 << ',' << csvField(ps.test.instanceId(i)) << ',' << ps.test.classNames[static_cast<std::size_t>(y)] << ','
                      << model.margin(ps.test.row(i), y) << ',' << model.margin(r.attacked.row(i), y) << ',';
            std::string del;
            for (int j : r.deleted[static_cast<std::size_t>(i)]) del += (del.empty() ? "" : " ") + ps.test.featureName(j);
            std::cout << del << '\n';
        }
    }
    if (!png.empty()) std::cerr << "wrote " << png << '\n';
    return Ok;
}

}  // namespace

std::vector<Command> experimentCommands() {
    return {
        {"presets", "list the paper presets", "usage: fdlab-cli presets [--format text|json]\n", runPresets},
        {"run", "run an experiment file or preset: error-versus-budget curves",
         "usage: fdlab-cli run EXPERIMENT.json|PRESET [--output RESULTS.json] [--csv CURVES.csv]\n"
         "                     [--tex FIGURE.tex] [--table TABLE.tex]\n"
         "                     [--format text|csv|json] [--threads N] [--repetitions R] [--quiet]\n"
         "                     [--shard I/N --output PART.json]   (one shard of a sweep; see plan and merge)\n"
         "Trains every learner, attacks the test set at every level and prints mean error +- standard\n"
         "error (and AUC) per learner and level, next to the paper's numbers for presets. Progress on\n"
         "stderr; Ctrl-C cancels cleanly (exit 4) and keeps the finished points.\n"
         "--repetitions R overrides the file's count: R random splits, or with a k-fold split R repetitions\n"
         "of k-fold CV (each shuffles the rows anew and tests every fold once: R x k points per level).\n"
         "--tex writes the curves as a standalone pgfplots figure (pdflatex FIGURE.tex), --table as a booktabs\n"
         "tabular of mean +- se per level (\\input it; needs \\usepackage{booktabs}). Every file written carries\n"
         "the provenance record (FDLab version and commit, spec, seed, data fingerprint, threads, host, CPU):\n"
         "in the JSON as \"provenance\", in CSV and LaTeX files as a comment header.\n",
         runRun},
        {"train", "train a learner and save the model as JSON",
         std::string("usage: fdlab-cli train --learner NAME [--params JSON] --output MODEL.json DATA-OPTIONS\n") + kDataHelp +
             "  learners: svm, logreg, fdrop, ds-lp, ds-perceptron, mcf (linear-model files);\n"
             "            kernel-svm (kernel SVM files); tree, knn, net, adaboost, mixture, featureboost\n"
             "            (classifier files); eval and attack read all three (see the GUI's Help for parameters)\n"
             "  e.g. --params '{\"C\": 1, \"K\": 20}'\n",
         runTrain},
        {"eval", "evaluate a saved model (linear or classifier file) on attacked test data",
         std::string("usage: fdlab-cli eval --model MODEL.json [--threat T] [--levels L1,L2,...] [--format text|csv|json]\n"
                     "                      [--attack-seed S] [the threat's parameters, listed under it below] DATA-OPTIONS\n") +
             kDataHelp +
             "  threats (--threat; the level is K, N, p or a fraction as the threat says), each with its\n"
             "  parameters as --name VALUE:\n" + threatHelp(false) +
             "  --attack-class NAME[,NAME]: a one-sided adversary that attacks only these classes (e.g. spam);\n"
             "           the error is then also reported on the attacked instances and on the others\n",
         runEval},
        {"attack", "per-instance deleted features of an attack (and a PNG grid for images)",
         std::string("usage: fdlab-cli attack --model MODEL.json --threat T --budget B [--format csv|json]\n"
                     "                        [the threat's parameters] [--png GRID.png [--count N]] DATA-OPTIONS\n") +
             kDataHelp + "  threats (--threat; --budget is K, N, p or a fraction as the threat says), each with its\n"
                         "  parameters as --name VALUE:\n" + threatHelp(false) +
                 "  --png draws originals next to attacked images, deleted pixels in red (image data)\n"
                         "  --attack-class NAME[,NAME]: attack only these classes' instances\n"
                         "  each row names the instance's 1-based row in its file (source_row) and its id (message id\n"
                         "  for text corpora)\n",
         runAttackCmd},
    };
}

}  // namespace fdlab::cli
