#include "core/eval/sharding.h"

#include "core/eval/multi_task.h"
#include "core/eval/provenance.h"

#include "core/attacks/threat_registry.h"
#include "core/data/idx_format.h"

#include "core/eval/results_io.h"
#include "core/io/json_file.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/install_paths.h"
#include "core/util/parallel.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>

namespace fdlab {

namespace {

using json = nlohmann::json;

constexpr const char* kPartFormat = "fdlab-results-part";

int parseInt(const std::string& s, const std::string& option, const std::string& text) {
    // Exactly the digits (stol also took " 1" and "+1", from_chars "-0"), as the CLI reads its
    // other numbers.
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!s.empty() && s[0] >= '0' && s[0] <= '9' && ec == std::errc() && end == s.data() + s.size() && v <= 1000000000L)
        return static_cast<int>(v);
    throw std::invalid_argument(option + " '" + text + "': expected i/N with whole numbers 0 <= i < N <= 1000000000");
}

// Per-learner training weight: roughly the time of one training relative to a liblinear SVM
// on the same data (measured on the presets' datasets; only ratios matter).
double learnerWeight(const std::string& learner) {
    static const std::map<std::string, double> w = {
        {"svm", 1}, {"logreg", 1}, {"ds-perceptron", 1}, {"knn", 1}, {"tree", 2}, {"mcf", 3},
        {"fdrop", 4}, {"kernel-svm", 4}, {"net", 4}, {"ds-lp", 8}, {"adaboost", 10}, {"mixture", 10},
        {"featureboost", 20}};
    const auto it = w.find(learner);
    return it == w.end() ? 4.0 : it->second;
}

std::string taskName(const ExperimentSpec& spec, int task) {
    const JobRef ref = jobRef(spec, task);
    return "task " + std::to_string(task) + " (" + (spec.multiTask() ? "'" + spec.taskName(ref.task) + "', " : std::string()) +
           spec.learners[static_cast<std::size_t>(ref.learnerIndex)].id + ", repetition " + std::to_string(ref.repetition) + ")";
}

// The job of a point; -1 when its task or repetition is not the spec's (an edited part).
int jobOfPoint(const ExperimentSpec& spec, const CurvePoint& p) {
    try {
        return jobIndex(spec, p.task, p.repetition, p.learnerIndex);
    } catch (const std::out_of_range&) {
        return -1;
    }
}

// 64-bit FNV-1a of `bytes`, continuing from `h`.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 14695981039346656037ull) {
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex16(std::uint64_t h) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

bool isHex16(const std::string& s) { return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string::npos; }

// The data's own warnings of all parts, whatever their order: the distinct lists in sorted
// order, each warning kept at its first place. Parts of one run have one list (or none, for a
// shard without tasks), which this returns unchanged.
std::vector<std::string> combinedDataWarnings(const std::vector<ShardPart>& parts) {
    std::set<std::vector<std::string>> lists;
    for (const ShardPart& p : parts) lists.insert(p.dataWarnings);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& list : lists)
        for (const auto& w : list)
            if (seen.insert(w).second) out.push_back(w);
    return out;
}

// Every point is one level of its task: the spec's learner and level at its indices, each
// level index once (the counts per task are checked by the caller).
void checkPointsMatchSpec(const ShardPart& part) {
    const ExperimentSpec& spec = part.result.spec;
    std::map<int, std::set<int>> levelsOf;
    for (const CurvePoint& p : part.result.points) {
        const int k = jobOfPoint(spec, p);
        auto fail = [&](const std::string& what) { throw DataError(part.source, 0, "a point of " + taskName(spec, k) + " " + what); };
        const std::string& id = spec.learners[static_cast<std::size_t>(p.learnerIndex)].id;
        if (p.learner != id)
            fail("names learner '" + p.learner + "', but learner_index " + std::to_string(p.learnerIndex) + " is '" + id + "'");
        const double level = spec.levels[static_cast<std::size_t>(p.levelIndex)];
        if (p.level != level)
            fail("has level " + json(p.level).dump() + " at level_index " + std::to_string(p.levelIndex) + ", where the spec's level is " +
                 json(level).dump() + " (edited part?)");
        if (!levelsOf[k].insert(p.levelIndex).second)
            fail("repeats level_index " + std::to_string(p.levelIndex) + " (edited part?)");
    }
}

// A point as JSON without its timing (for comparing duplicates).
json numbersOf(const json& point) {
    json p = point;
    p.erase("train_seconds");
    return p;
}

}  // namespace

ShardId ShardId::parse(const std::string& text, const std::string& option) {
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        throw std::invalid_argument(option + " '" + text + "': expected i/N with whole numbers 0 <= i < N <= 1000000000");
    ShardId id;
    id.index = parseInt(text.substr(0, slash), option, text);
    id.count = parseInt(text.substr(slash + 1), option, text);
    if (id.count < 1) throw std::invalid_argument(option + " '" + text + "': the shard count N must be at least 1");
    if (id.index < 0 || id.index >= id.count)
        throw std::invalid_argument(option + " '" + text + "': the shard index i must be in 0.." + std::to_string(id.count - 1));
    return id;
}

std::vector<int> ShardPlan::tasksOf(int shard) const {
    std::vector<int> out;
    for (const ShardTask& t : tasks)
        if (t.shard == shard) out.push_back(t.index);
    return out;
}

namespace {

/// The last component of a file path ("a/b/" gives "b"), "" for "".
std::string lastComponent(const std::string& p) {
    if (p.empty()) return p;
    std::filesystem::path q = std::filesystem::path(p).lexically_normal();
    if (!q.has_filename()) q = q.parent_path();
    return q.filename().string();
}

void keepFileNames(DatasetRef& r) {
    r.file = lastComponent(r.file);
    r.options.idxLabels = lastComponent(r.options.idxLabels);
}

}  // namespace

std::string specFingerprint(const ExperimentSpec& spec) {
    // Where the files are changes no number (their content is dataFingerprint's part): two
    // checkouts at different paths, a relative or an absolute name, a symlinked folder or a
    // per-job scratch copy are one experiment, and their shards merge.
    ExperimentSpec named = spec;
    keepFileNames(named.dataset);
    if (named.testDataset) keepFileNames(*named.testDataset);
    for (ExperimentTask& t : named.tasks) {
        keepFileNames(t.dataset);
        if (t.testDataset) keepFileNames(*t.testDataset);
    }
    named.importance.path = lastComponent(named.importance.path);
    json j = toJson(named);
    j.erase("threads");
    return hex16(fnv1a(j.dump(-1, ' ', false, json::error_handler_t::replace)));   // a non-UTF-8 path threw
}

std::string runFingerprint(const ExperimentSpec& spec) {
    ExperimentSpec numbers = spec;
    numbers.name.clear();
    numbers.description.clear();
    numbers.paper = nlohmann::json();
    return specFingerprint(numbers);
}

std::string dataFingerprint(const TaskData& data, const ExperimentSpec& spec) {
    std::uint64_t h = fnv1a({});
    auto mix = [&](const void* p, std::size_t n) { h = fnv1a({static_cast<const char*>(p), n}, h); };
    auto mixDataset = [&](const Dataset& d) {
        const std::uint64_t f = d.fingerprint();
        mix(&f, sizeof f);
        for (const auto& c : d.classNames) mix(c.c_str(), c.size() + 1);
        mix(d.importance.data(), d.importance.size() * sizeof(double));
        // The image shape changes numbers (region groups, heatmaps) without changing a value or a
        // name: a NumPy (m, 4, 6) and (m, 6, 4) array hold the same bytes.
        const int shape[2] = {d.imageShape ? d.imageShape->rows : -1, d.imageShape ? d.imageShape->cols : -1};
        mix(shape, sizeof shape);
    };
    mixDataset(data.data);
    const char hasTest = data.test ? 1 : 0;
    mix(&hasTest, 1);
    if (data.test) mixDataset(*data.test);
    if (spec.importance.kind == ImportanceSpec::Kind::Csv) {
        const std::string bytes = detail::readFileBytes(spec.importance.path);
        mix(bytes.data(), bytes.size());
    }
    return hex16(h);
}

std::string combineFingerprints(const std::vector<std::string>& perTask) {
    std::uint64_t h = fnv1a({});
    for (const std::string& f : perTask) h = fnv1a(f + "\n", h);
    return hex16(h);
}

double estimateTaskCost(const ExperimentSpec& spec, int learnerIndex) {
    const LearnerSpec& ls = spec.learners.at(static_cast<std::size_t>(learnerIndex));
    const double cands = static_cast<double>(gridCandidates(ls).size());
    const double levels = static_cast<double>(spec.levels.size());
    const bool cv = ls.selection == LearnerSpec::Selection::CrossValidation && cands > 1;
    // Trainings: with "select": "cv", folds x candidates plus the final one; else each candidate.
    double trainings = cv ? cands * ls.cvFolds + 1 : cands;
    double attacks = levels * (spec.tunePerLevel && !cv && cands > 1 ? cands + 1 : 1);
    const ThreatInfo& threat = threatInfo(spec.attack.threat);
    if (threat.trainingTime) {
        trainings *= levels;   // one tainted training set per level
        if (threat.taintTrainings) trainings += levels * threat.taintTrainings(spec.attack.completeParams());
    }
    return learnerWeight(ls.learner) * trainings + threat.costWeight * learnerWeight(ls.learner) * attacks;
}

ShardPlan planShards(const ExperimentSpec& spec, int shards) {
    if (shards < 1) throw std::invalid_argument("--shards: the shard count must be at least 1, got " + std::to_string(shards));
    ShardPlan plan;
    plan.fingerprint = specFingerprint(spec);
    plan.shards = shards;
    const int L = static_cast<int>(spec.learners.size());
    std::vector<double> learnerCost;
    for (int l = 0; l < L; ++l) learnerCost.push_back(estimateTaskCost(spec, l));
    for (int k = 0; k < jobCount(spec); ++k) {
        const JobRef ref = jobRef(spec, k);
        ShardTask t;
        t.index = k;
        t.experimentTask = ref.task;
        t.repetition = ref.repetition;
        t.learnerIndex = ref.learnerIndex;
        t.learner = spec.learners[static_cast<std::size_t>(ref.learnerIndex)].id;
        t.cost = learnerCost[static_cast<std::size_t>(ref.learnerIndex)];
        plan.tasks.push_back(t);
    }
    // Longest processing time first; every tie broken by index, so the plan is deterministic.
    std::vector<int> order(plan.tasks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return plan.tasks[static_cast<std::size_t>(a)].cost > plan.tasks[static_cast<std::size_t>(b)].cost;
    });
    plan.shardCost.assign(static_cast<std::size_t>(shards), 0.0);
    for (int k : order) {
        const auto lightest = std::min_element(plan.shardCost.begin(), plan.shardCost.end());
        ShardTask& t = plan.tasks[static_cast<std::size_t>(k)];
        t.shard = static_cast<int>(lightest - plan.shardCost.begin());
        *lightest += t.cost;
    }
    return plan;
}

ShardPart runShard(const ExperimentSpec& spec, ShardId id, const RunControl& rc, const PointCallback& onPoint) {
    spec.validate();
    const ShardPlan plan = planShards(spec, id.count);
    ShardPart part;
    part.fingerprint = plan.fingerprint;
    part.shard = id;
    part.tasks = plan.tasksOf(id.index);
    std::mutex mutex;
    RunOptions options;
    options.jobs = part.tasks;
    options.onJobWarning = [&](int job, const std::string& w) {
        std::lock_guard lock(mutex);
        part.taskWarnings[job].push_back(w);
    };
    if (!spec.multiTask())
        options.onData = [&](const TaskData& data) { part.dataFingerprint = dataFingerprint(data, spec); };
    ExperimentResult r;
    if (part.tasks.empty()) {   // more shards than tasks: an empty part
        part.dataFingerprint = experimentDataFingerprint(spec);
        r.spec = spec;
        r.threads = spec.threads > 0 ? spec.threads : hardwareThreads();
        r.message = "0 points";
    } else {
        r = runExperiment(spec, rc, onPoint, options);
        if (spec.multiTask()) part.dataFingerprint = r.provenance.value("data_fingerprint", "");
    }
    // The data's own warnings come first in the result, then the tasks'.
    std::size_t taskWarnings = 0;
    for (const auto& [k, ws] : part.taskWarnings) taskWarnings += ws.size();
    part.dataWarnings.assign(r.warnings.begin(), r.warnings.end() - static_cast<std::ptrdiff_t>(taskWarnings));
    // Keep only the points of complete tasks (a cancelled or failed task may have some levels).
    std::map<int, std::size_t> count;
    for (const CurvePoint& p : r.points) ++count[jobIndex(spec, p.task, p.repetition, p.learnerIndex)];
    for (int k : part.tasks)
        if (count[k] == spec.levels.size()) part.complete.push_back(k);
    const std::set<int> done(part.complete.begin(), part.complete.end());
    std::erase_if(r.points, [&](const CurvePoint& p) { return !done.count(jobIndex(spec, p.task, p.repetition, p.learnerIndex)); });
    r.summary = summarizePoints(r.points);
    part.result = std::move(r);
    return part;
}

json partToJson(const ShardPart& part) {
    json j = resultsToJson(part.result);
    j["fdlab_version"] = part.version;
    const ExperimentSpec& spec = part.result.spec;
    const std::set<int> done(part.complete.begin(), part.complete.end());
    json tasks = json::array();
    for (int k : part.tasks) {
        const auto w = part.taskWarnings.find(k);
        const JobRef ref = jobRef(spec, k);
        tasks.push_back({{"task", k}, {"repetition", ref.repetition},
                         {"learner", spec.learners[static_cast<std::size_t>(ref.learnerIndex)].id},
                         {"learner_index", ref.learnerIndex}, {"complete", done.count(k) > 0},
                         {"warnings", w == part.taskWarnings.end() ? std::vector<std::string>{} : w->second}});
        if (spec.multiTask()) tasks.back()["experiment_task"] = spec.taskName(ref.task);
    }
    j["part"] = {{"format", kPartFormat},
                 {"spec_fingerprint", part.fingerprint},
                 {"data_fingerprint", part.dataFingerprint},
                 {"shard", {{"index", part.shard.index}, {"count", part.shard.count}}},
                 {"data_warnings", part.dataWarnings},
                 {"tasks", tasks}};
    return j;
}

namespace {

/// The FDLab build that wrote a part: its provenance's "fdlab" (version and commit), else its
/// version alone (parts from before provenance records).
std::string writerOf(const json& j) {
    if (const auto p = j.find("provenance"); p != j.end() && p->is_object())
        if (const auto f = p->find("fdlab"); f != p->end() && f->is_string()) return f->get<std::string>();
    const auto v = j.find("fdlab_version");
    return (v != j.end() && v->is_string() ? v->get<std::string>() : std::string("an unknown version")) +
           ", a build from before parts recorded their build";
}

}  // namespace

ShardPart partFromJson(const json& j, const std::string& source) {
    if (!j.is_object() || !j.contains("part") || !j["part"].is_object() || j["part"].value("format", "") != kPartFormat)
        throw DataError(source, 0, "not a partial results file (no \"part\" object; write one with fdlab-cli run --shard i/N)");
    // A part that does not read as this build writes parts: when another build wrote it, that is
    // the reason (its spec is recorded as that build records specs), not corruption.
    const std::string writer = writerOf(j), self = versionString();
    auto fail = [&](const std::string& what) {
        if (writer != self)
            throw DataError(source, 0, "written by a different FDLab build (FDLab " + writer + "; this is FDLab " + self +
                                           "), which this one cannot merge: rerun the shard with this build (" + what + ")");
        throw DataError(source, 0, what);
    };
    ShardPart part;
    part.source = source;
    try {
        part.result = resultsFromJson(j);
        const json& pj = j.at("part");
        part.version = j.at("fdlab_version").get<std::string>();
        part.fingerprint = pj.at("spec_fingerprint").get<std::string>();
        if (!pj.contains("data_fingerprint")) fail("no data_fingerprint (a part of an older FDLab: rerun the shard)");
        part.dataFingerprint = pj.at("data_fingerprint").get<std::string>();
        if (!isHex16(part.dataFingerprint)) fail("data_fingerprint '" + part.dataFingerprint + "': expected 16 lower-case hex digits");
        part.shard.index = pj.at("shard").at("index").get<int>();
        part.shard.count = pj.at("shard").at("count").get<int>();
        part.dataWarnings = pj.at("data_warnings").get<std::vector<std::string>>();
        for (const json& t : pj.at("tasks")) {
            const int k = t.at("task").get<int>();
            part.tasks.push_back(k);
            if (t.at("complete").get<bool>()) part.complete.push_back(k);
            const auto ws = t.at("warnings").get<std::vector<std::string>>();
            if (!ws.empty()) part.taskWarnings[k] = ws;
        }
    } catch (const json::exception& e) {
        fail("malformed part: " + jsonErrorText(e));
    } catch (const DataError&) {
        throw;
    } catch (const std::exception& e) {
        fail(e.what());
    }
    // Consistency: the spec is the one fingerprinted, the tasks exist, complete tasks have
    // every level and no other points are present.
    const ExperimentSpec& spec = part.result.spec;
    if (specFingerprint(spec) != part.fingerprint)
        fail("spec_fingerprint " + part.fingerprint + " is not the fingerprint of the file's spec (" + specFingerprint(spec) + ")");
    if (part.shard.count < 1 || part.shard.index < 0 || part.shard.index >= part.shard.count)
        fail("bad shard " + part.shard.str());
    const int total = jobCount(spec);
    std::map<int, std::size_t> count;
    for (int k : part.tasks)
        if (k < 0 || k >= total) fail("task " + std::to_string(k) + " out of range (the experiment has " + std::to_string(total) + ")");
    for (int k : part.complete) count[k] = 0;
    for (const CurvePoint& p : part.result.points) {
        const int k = jobOfPoint(spec, p);
        if (k < 0 || !count.count(k))
            fail("a point of " + (k >= 0 ? taskName(spec, k) : "repetition " + std::to_string(p.repetition)) +
                 ", which the part does not list as complete");
        ++count[k];
    }
    checkPointsMatchSpec(part);
    for (const auto& [k, n] : count)
        if (n != spec.levels.size())
            fail(taskName(spec, k) + " has " + std::to_string(n) + " points for " + std::to_string(spec.levels.size()) +
                 " levels (truncated or edited part?)");
    return part;
}

void savePart(const ShardPart& part, const std::string& path) {
    writeFileAtomically(path, partToJson(part).dump(2, ' ', false, json::error_handler_t::replace) + "\n");   // as saveResultsJson
}

ShardPart loadPart(const std::string& path) { return partFromJson(readJsonFile(path, "partial results file"), path); }

MergeResult mergeParts(const std::vector<ShardPart>& parts) {
    if (parts.empty()) throw std::invalid_argument("merge: no parts given");
    const ShardPart& first = parts.front();
    for (const ShardPart& p : parts) {
        if (p.version != FDLAB_VERSION)
            throw DataError(p.source, 0, "written by FDLab " + p.version + ", this is FDLab " FDLAB_VERSION " (rerun the shard)");
        if (p.fingerprint != first.fingerprint)
            throw DataError(p.source, 0, "spec fingerprint " + p.fingerprint + " differs from " + first.source + "'s " +
                                             first.fingerprint + " (parts of different experiments, or written by FDLab builds that fingerprint "
                                             "differently: rerun every shard with one build)");
        if (p.dataFingerprint != first.dataFingerprint)
            throw DataError(p.source, 0, "data fingerprint " + p.dataFingerprint + " differs from " + first.source + "'s " +
                                             first.dataFingerprint + " (the data changed between the shard runs: rerun every shard)");
    }
    const ExperimentSpec& spec = first.result.spec;
    const int total = jobCount(spec);

    // Each task's points (as JSON, the format results files use) and the part they came from.
    struct Owner {
        const ShardPart* part = nullptr;
        std::vector<const CurvePoint*> points;
    };
    std::vector<Owner> owners(static_cast<std::size_t>(total));
    MergeResult m;
    for (const ShardPart& p : parts) {
        std::map<int, std::vector<const CurvePoint*>> byTask;
        for (const CurvePoint& c : p.result.points) byTask[jobIndex(spec, c.task, c.repetition, c.learnerIndex)].push_back(&c);
        for (int k : p.complete) {
            Owner& o = owners[static_cast<std::size_t>(k)];
            auto& pts = byTask[k];
            if (!o.part) {
                o.part = &p;
                o.points = pts;
                continue;
            }
            // A duplicate: the same numbers (timings aside) are harmless, different ones are not.
            auto asJson = [&](const std::vector<const CurvePoint*>& v) {
                ExperimentResult r;
                r.spec = spec;
                for (const CurvePoint* c : v) r.points.push_back(*c);
                std::sort(r.points.begin(), r.points.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.levelIndex < b.levelIndex; });
                const json all = resultsToJson(r);
                json out = json::array();
                for (const json& q : all.at("points")) out.push_back(numbersOf(q));
                return out;
            };
            if (asJson(o.points) != asJson(pts))
                throw DataError(p.source, 0, taskName(spec, k) + " has different numbers than in " + o.part->source);
            m.duplicates.push_back(taskName(spec, k) + ": " + o.part->source + " and " + p.source);
        }
    }
    for (int k = 0; k < total; ++k)
        if (!owners[static_cast<std::size_t>(k)].part) m.missing.push_back(k);
    if (!m.missing.empty()) {
        const ShardPlan plan = planShards(spec, first.shard.count);
        std::set<int> shards;
        for (int k : m.missing) shards.insert(plan.tasks[static_cast<std::size_t>(k)].shard);
        for (int s : shards) m.rerun.push_back({s, first.shard.count});
        return m;
    }

    // The merged result, built as runExperiment builds a full run's.
    ExperimentResult& r = m.result;
    r.spec = spec;
    r.threads = first.result.threads;
    r.provenance = makeProvenance(spec, r.threads, first.dataFingerprint);
    r.warnings = combinedDataWarnings(parts);
    for (int k = 0; k < total; ++k) {
        const Owner& o = owners[static_cast<std::size_t>(k)];
        for (const CurvePoint* c : o.points) r.points.push_back(*c);
        if (const auto w = o.part->taskWarnings.find(k); w != o.part->taskWarnings.end())
            r.warnings.insert(r.warnings.end(), w->second.begin(), w->second.end());
    }
    for (const ShardPart& p : parts) r.elapsed += p.result.elapsed;
    std::sort(r.points.begin(), r.points.end(), pointLess);
    r.summary = summarizePoints(r.points);
    r.status = Status::Converged;
    r.message = std::to_string(r.points.size()) + " points";
    return m;
}

}  // namespace fdlab
