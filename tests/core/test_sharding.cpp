// Sharded sweeps (core/eval/sharding.h): the plan is deterministic and balanced, shards cover
// every task exactly once, merged shards equal a full run byte for byte apart from the timing
// fields, a cancelled shard keeps its finished tasks, and every bad input is one DataError or
// std::invalid_argument naming the file or the option.

#include "core/eval/experiment_runner.h"
#include "core/eval/results_io.h"
#include "core/eval/sharding.h"
#include "core/util/errors.h"
#include "core/util/install_paths.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

using namespace fdlab;
using json = nlohmann::json;

namespace {

// Three learners x three repetitions on heart_scale (270 rows): 9 tasks, about 0.1 s in all. The
// FDROP learner stops at its iteration limit, so every task also raises a warning.
ExperimentSpec smallSpec() {
    ExperimentSpec s;
    s.name = "sharding test";
    s.dataset.bundled = "heart_scale";
    s.split.testFraction = 0.3;
    s.split.validationFraction = 0.2;
    s.learners = {{"SVM", "svm", {{"C", 1.0}}, {}},
                  {"LogReg", "logreg", {{"C", 1.0}}, {}},
                  {"FDROP", "fdrop", {{"C", 1.0}, {"maxIterations", 2}}, {{"K", {0, 2, 4}}}}};
    s.attack.threat = "worst-case-count";
    s.levels = {0, 1, 2, 3};
    s.repetitions = 3;
    s.tunePerLevel = true;
    s.seed = 11;
    s.threads = 2;
    return s;
}

// The results file with the fields that may differ (timings, thread counts) set to zero.
std::string withoutTimings(ExperimentResult r) {
    r.elapsed = 0;
    r.threads = 0;
    r.spec.threads = 0;
    if (r.provenance.is_object()) r.provenance["threads"] = 0;   // the record names the thread count too
    for (auto& p : r.points) p.trainSeconds = 0;
    return resultsToJson(r).dump(2);
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A LIBSVM file of 40 rows over features 1..4 (label +1/-1 by row parity); `extra` is added to
// the first value, `testFeature` > 0 puts that feature into every row (for a test file).
std::string libsvmRows(double extra = 0, int testFeature = 0) {
    std::ostringstream out;
    for (int i = 0; i < 40; ++i) {
        const int label = i % 2 ? 1 : -1;
        out << (label > 0 ? "+1" : "-1") << " 1:" << (label * 0.5 + 0.1 * (i % 7) + (i == 0 ? extra : 0.0)) << " 2:" << (i % 5)
            << " 3:" << (label * (i % 3)) << " 4:" << (0.25 * (i % 4));
        if (testFeature > 0) out << ' ' << testFeature << ":1";
        out << '\n';
    }
    return out.str();
}

// Two learners x two repetitions on the LIBSVM file `train` (and the fixed test file `test`).
ExperimentSpec fileSpec(const std::string& train, const std::string& test = {}) {
    ExperimentSpec s;
    s.name = "file sharding test";
    s.dataset.file = train;
    if (!test.empty()) s.testDataset = DatasetRef{{}, test, {}};
    s.split.testFraction = 0.3;
    s.split.validationFraction = 0;
    s.learners = {{"SVM", "svm", {{"C", 1.0}}, {}}, {"LogReg", "logreg", {{"C", 1.0}}, {}}};
    s.attack.threat = "worst-case-count";
    s.levels = {0, 1, 2};
    s.repetitions = 2;
    s.seed = 3;
    s.threads = 1;
    return s;
}

// The first line of what `f` throws (empty when it does not throw).
template <class F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestSharding : public QObject {
    Q_OBJECT

private slots:
    void shardIdParsing() {
        const ShardId id = ShardId::parse("2/5");
        QCOMPARE(id.index, 2);
        QCOMPARE(id.count, 5);
        QCOMPARE(QString::fromStdString(id.str()), QString("2/5"));
        for (const char* bad : {"4/4", "5/4", "0/0", "-1/3", "1", "a/2", "1/b", "1/2/3", "", " 1/2", "+1/2", "1/ 2", "-0/2", "0/-0",
                                "0/1000000001", "1000000000/1000000001"}) {
            const std::string e = errorOf([&] { ShardId::parse(bad); });
            QVERIFY2(e.find("--shard") != std::string::npos, bad);
            QVERIFY2(e.find('\n') == std::string::npos, bad);
        }
        QVERIFY(errorOf([] { planShards(smallSpec(), 0); }).find("--shards") != std::string::npos);
        // Beyond the range the message says so (it read "0 <= i < N", which 0/1000000001 meets).
        QVERIFY(errorOf([] { ShardId::parse("0/1000000001"); }).find("N <= 1000000000") != std::string::npos);
        QCOMPARE(ShardId::parse("00/2").index, 0);   // leading zeros are still digits
    }

    void fingerprintIgnoresThreadsOnly() {
        ExperimentSpec a = smallSpec(), b = smallSpec();
        b.threads = 1;
        QCOMPARE(specFingerprint(a), specFingerprint(b));
        QCOMPARE(specFingerprint(a).size(), std::size_t(16));
        b.seed = 12;
        QVERIFY(specFingerprint(a) != specFingerprint(b));
        b = smallSpec();
        b.levels.push_back(4);
        QVERIFY(specFingerprint(a) != specFingerprint(b));
        // Stable through the JSON round trip a part file goes through.
        QCOMPARE(specFingerprint(experimentFromJson(toJson(a))), specFingerprint(a));
    }

    // Where the data files are changes no number: one experiment named relatively or absolutely
    // from different working directories, a copy in another checkout and a symlinked folder have
    // one fingerprint (three different ones before for the names alone, so shards started from
    // different folders could not be merged); another file name is another experiment.
    void fingerprintDoesNotDependOnWhereTheFilesAre() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        json j = toJson(smallSpec());
        j["dataset"] = json{{"file", "data.libsvm"}};
        j["importance"] = json{{"kind", "csv"}, {"path", "../values.csv"}};
        for (const std::string& node : {root + "/a/sub", root + "/b/proj/sub"}) {
            std::filesystem::create_directories(node);
            std::ofstream(node + "/e.json") << j.dump();
        }
        std::filesystem::create_directory_symlink(root + "/a", root + "/link");
        const std::filesystem::path before = std::filesystem::current_path();
        std::vector<std::string> prints;
        auto load = [&](const std::string& cwd, const std::string& name) {
            std::filesystem::current_path(cwd);
            const ExperimentSpec s = loadExperimentFile(name);
            prints.push_back(specFingerprint(s));
            return s;
        };
        const ExperimentSpec named = load(root + "/a", "sub/e.json");
        QCOMPARE(named.dataset.file, std::string("sub/data.libsvm"));   // loaded as before
        QCOMPARE(named.importance.path, std::string("values.csv"));
        load(root + "/a/sub", "e.json");
        load("/", root + "/a/sub/e.json");
        load(root + "/b/proj", "sub/e.json");
        load("/", root + "/link/sub/e.json");
        load(root + "/link/sub", "e.json");
        j["dataset"] = json{{"file", "other.libsvm"}};
        std::ofstream(root + "/a/sub/f.json") << j.dump();
        const std::string other = specFingerprint(load(root + "/a/sub", "f.json"));
        std::filesystem::current_path(before);
        prints.pop_back();
        QCOMPARE(prints.size(), std::size_t(6));
        for (const std::string& p : prints) QCOMPARE(p, prints.front());
        QVERIFY(other != prints.front());
        QCOMPARE(runFingerprint(named), runFingerprint(loadExperimentFile(root + "/b/proj/sub/e.json")));
    }

    void planIsDeterministicAndBalanced() {
        const ExperimentSpec s = smallSpec();
        QCOMPARE(estimateTaskCost(s, 0), estimateTaskCost(s, 1));
        QVERIFY(estimateTaskCost(s, 2) > estimateTaskCost(s, 0));   // a 3-candidate grid, tuned per level
        for (int n = 1; n <= 12; ++n) {
            const ShardPlan a = planShards(s, n), b = planShards(s, n);
            QCOMPARE(a.tasks.size(), std::size_t(9));
            double total = 0, biggest = 0;
            for (std::size_t k = 0; k < a.tasks.size(); ++k) {
                QCOMPARE(a.tasks[k].shard, b.tasks[k].shard);
                QCOMPARE(a.tasks[k].index, static_cast<int>(k));
                QCOMPARE(a.tasks[k].repetition, static_cast<int>(k) / 3);
                QCOMPARE(a.tasks[k].learnerIndex, static_cast<int>(k) % 3);
                total += a.tasks[k].cost;
                biggest = std::max(biggest, a.tasks[k].cost);
            }
            // LPT: no shard exceeds the average by more than one task.
            for (double c : a.shardCost) QVERIFY(c <= total / n + biggest + 1e-9);
            if (n <= 9)
                for (double c : a.shardCost) QVERIFY(c > 0);   // no idle shard while tasks remain
        }
        // Equal costs split evenly: 9 tasks in 3 shards of 3 (when the grid learner weighs the same).
        ExperimentSpec even = smallSpec();
        even.learners[2] = {"SVM2", "svm", {{"C", 2.0}}, {}};
        for (int s = 0; s < 3; ++s) QCOMPARE(planShards(even, 3).tasksOf(s).size(), std::size_t(3));
    }

    void shardsCoverEveryTaskOnce() {
        ExperimentSpec s = smallSpec();
        s.repetitions = 7;   // 21 tasks
        for (int n : {1, 2, 3, 4, 5, 8, 21, 30}) {
            const ShardPlan plan = planShards(s, n);
            std::vector<int> seen(21, 0);
            for (int i = 0; i < n; ++i) {
                const std::vector<int> t = plan.tasksOf(i);
                QVERIFY(std::is_sorted(t.begin(), t.end()));
                for (int k : t) ++seen[static_cast<std::size_t>(k)];
            }
            for (int c : seen) QCOMPARE(c, 1);
        }
    }

    void mergedShardsEqualFullRun() {
        const ExperimentSpec s = smallSpec();
        const ExperimentResult full = runExperiment(s);
        QCOMPARE(full.status, Status::Converged);
        QCOMPARE(full.points.size(), std::size_t(36));
        QVERIFY(!full.warnings.empty());   // FDROP's iteration limit: the warnings merge too
        const std::string expected = withoutTimings(full);
        QTemporaryDir dir;
        for (int n : {1, 2, 3, 4, 9, 11}) {
            std::vector<ShardPart> parts;
            for (int i = 0; i < n; ++i) {
                ExperimentSpec si = s;
                si.threads = 1 + i % 2;   // thread counts may differ between shards
                const std::string path = dir.filePath(QString("part-%1-%2.json").arg(n).arg(i)).toStdString();
                savePart(runShard(si, {i, n}), path);
                parts.push_back(loadPart(path));
                QCOMPARE(QString::fromStdString(parts.back().source), QString::fromStdString(path));
            }
            // A part is not the experiment's results: opening one as results (the GUI's File >
            // Open, Python's export_curves) says it is a part and how to merge.
            if (n == 3) {
                const std::string part1 = dir.filePath("part-3-1.json").toStdString();
                try {
                    loadResultsJson(part1);
                    QFAIL("a shard's part opened as complete results");
                } catch (const std::invalid_argument& e) {
                    const QString m = QString::fromStdString(e.what());
                    QVERIFY2(m.startsWith(QString::fromStdString(part1)) && m.contains("part 1 of 3 of a sharded run") &&
                                 m.contains("fdlab-cli merge"), e.what());
                }
            }
            std::reverse(parts.begin(), parts.end());   // the order of the files does not matter
            const MergeResult m = mergeParts(parts);
            QVERIFY(m.complete());
            QVERIFY(m.duplicates.empty());
            QCOMPARE(withoutTimings(m.result), expected);
            // And through the results file, as the GUI reads it.
            const std::string out = dir.filePath(QString("merged-%1.json").arg(n)).toStdString();
            saveResultsJson(m.result, out);
            QCOMPARE(withoutTimings(loadResultsJson(out)), expected);
            QCOMPARE(curvesCsv(m.result), curvesCsv(full));
        }
    }

    void cancelledShardKeepsFinishedTasks() {
        ExperimentSpec s = smallSpec();
        s.threads = 1;
        std::stop_source stop;
        RunControl rc;
        rc.stop = stop.get_token();
        // Stop after the first point: the running task finishes its levels, no other starts.
        const ShardPart cancelled = runShard(s, {0, 1}, rc, [&](const CurvePoint&) { stop.request_stop(); });
        QCOMPARE(cancelled.result.status, Status::Cancelled);
        QVERIFY(!cancelled.complete.empty());
        QVERIFY(cancelled.complete.size() < cancelled.tasks.size());
        QCOMPARE(cancelled.result.points.size(), cancelled.complete.size() * s.levels.size());
        QTemporaryDir dir;
        const std::string path = dir.filePath("cancelled.json").toStdString();
        savePart(cancelled, path);
        const MergeResult m = mergeParts({loadPart(path)});
        QVERIFY(!m.complete());
        QCOMPARE(m.missing.size(), cancelled.tasks.size() - cancelled.complete.size());
        QCOMPARE(m.rerun.size(), std::size_t(1));
        QCOMPARE(m.rerun[0].index, 0);
        // Rerunning the shard completes it; the finished task is a harmless duplicate.
        const std::string again = dir.filePath("again.json").toStdString();
        savePart(runShard(s, {0, 1}), again);
        const MergeResult both = mergeParts({loadPart(path), loadPart(again)});
        QVERIFY(both.complete());
        QCOMPARE(both.duplicates.size(), cancelled.complete.size());
        QCOMPARE(withoutTimings(both.result), withoutTimings(runExperiment(s)));
    }

    void partOfAnotherBuild() {
        // A part another build wrote, whose spec that build recorded differently (here: a
        // fingerprint that is not this build's), is refused for what it is, not as corrupt.
        const ExperimentSpec s = smallSpec();
        QTemporaryDir dir;
        auto file = [&](const char* name) { return dir.filePath(name).toStdString(); };
        savePart(runShard(s, {0, 2}), file("a.json"));
        const json a = json::parse(readText(file("a.json")));
        QCOMPARE(a.at("provenance").at("fdlab").get<std::string>(), versionString());
        json older = a;
        older["provenance"]["fdlab"] = "0.0.9 (commit 0123abc)";
        older["part"]["spec_fingerprint"] = "00000000deadbeef";
        writeText(file("older.json"), older.dump(2));
        std::string e = errorOf([&] { loadPart(file("older.json")); });
        QVERIFY2(e.rfind(file("older.json") + ": written by a different FDLab build (FDLab 0.0.9 (commit 0123abc); this is FDLab " +
                             versionString() + "), which this one cannot merge: rerun the shard with this build",
                         0) == 0,
                 e.c_str());
        // Parts from before provenance records say so.
        older.erase("provenance");
        older["spec"]["no_such_key"] = 1;
        writeText(file("oldest.json"), older.dump(2));
        e = errorOf([&] { loadPart(file("oldest.json")); });
        QVERIFY2(e.find("a build from before parts recorded their build") != std::string::npos, e.c_str());
        // The same edit in a part of this build is what it was: an edited part.
        json edited = a;
        edited["part"]["spec_fingerprint"] = "00000000deadbeef";
        writeText(file("edited.json"), edited.dump(2));
        e = errorOf([&] { loadPart(file("edited.json")); });
        QVERIFY2(e.find("is not the fingerprint of the file's spec") != std::string::npos && e.find("different FDLab build") == std::string::npos,
                 e.c_str());
    }

    void fuzzSeedPartsAreCurrent() {
        // tests/fuzz/corpus/shard seeds the shard harness: stale seeds only exercise the refusal.
        const std::string dir = FDLAB_TEST_DATA "/../fuzz/corpus/shard/";
        const MergeResult m = mergeParts({loadPart(dir + "part-0.json"), loadPart(dir + "part-1.json")});
        QVERIFY(m.complete());
    }

    void badParts() {
        const ExperimentSpec s = smallSpec();
        QTemporaryDir dir;
        auto file = [&](const char* name) { return dir.filePath(name).toStdString(); };
        savePart(runShard(s, {0, 2}), file("a.json"));
        savePart(runShard(s, {1, 2}), file("b.json"));
        const std::string text = readText(file("b.json"));
        const json b = json::parse(text);
        auto rejects = [&](const std::vector<std::string>& paths, const std::string& named, const std::string& words = {}) {
            const std::string e = errorOf([&] {
                std::vector<ShardPart> parts;
                for (const auto& p : paths) parts.push_back(loadPart(p));
                mergeParts(parts);
            });
            if (e.empty() || e.find(named) == std::string::npos || e.find(words) == std::string::npos ||
                e.find('\n') != std::string::npos)
                QFAIL(("expected one line naming " + named + " saying '" + words + "', got: " + e).c_str());
        };
        // A different spec.
        ExperimentSpec other = s;
        other.seed = 99;
        savePart(runShard(other, {1, 2}), file("other.json"));
        rejects({file("a.json"), file("other.json")}, file("other.json"));
        // A different FDLab version.
        json v = b;
        v["fdlab_version"] = "0.0.1";
        writeText(file("version.json"), v.dump(2));
        rejects({file("a.json"), file("version.json")}, file("version.json"));
        // Truncated.
        writeText(file("truncated.json"), text.substr(0, text.size() / 2));
        rejects({file("a.json"), file("truncated.json")}, file("truncated.json"));
        // A results file that is not a part.
        saveResultsJson(runExperiment(s), file("full.json"));
        rejects({file("full.json")}, file("full.json"));
        // The same task twice with different numbers.
        json changed = json::parse(readText(file("a.json")));
        changed["points"][0]["error"] = changed["points"][0]["error"].get<double>() + 0.125;
        writeText(file("changed.json"), changed.dump(2));
        rejects({file("a.json"), file("b.json"), file("changed.json")}, file("changed.json"));
        // The same task twice with the same numbers (other timings) is fine.
        json retimed = json::parse(readText(file("a.json")));
        retimed["points"][0]["train_seconds"] = 123.0;
        writeText(file("retimed.json"), retimed.dump(2));
        const MergeResult ok = mergeParts({loadPart(file("a.json")), loadPart(file("b.json")), loadPart(file("retimed.json"))});
        QVERIFY(ok.complete());
        QVERIFY(!ok.duplicates.empty());
        // An edited spec (fingerprint no longer its own), a dropped point, a foreign point.
        json edited = b;
        edited["spec"]["seed"] = 5;
        writeText(file("edited.json"), edited.dump(2));
        rejects({file("edited.json")}, file("edited.json"));
        json dropped = b;
        dropped["points"].erase(0);
        writeText(file("dropped.json"), dropped.dump(2));
        rejects({file("dropped.json")}, file("dropped.json"));
        json foreign = b;
        foreign["points"].push_back(json::parse(readText(file("a.json")))["points"][0]);
        writeText(file("foreign.json"), foreign.dump(2));
        rejects({file("foreign.json")}, file("foreign.json"));
        // A point moved to another level (level_index edited): still four points per task, so
        // only the spec's levels show that level 2 is lost and level 1 doubled.
        std::size_t at = 0;
        while (b["points"][at]["level_index"].get<int>() != 2) ++at;
        json moved = b;
        moved["points"][at]["level_index"] = 1;
        writeText(file("moved.json"), moved.dump(2));
        rejects({file("a.json"), file("moved.json")}, file("moved.json"), "has level 2.0 at level_index 1, where the spec's level is 1.0");
        json relevelled = moved;   // the level edited to match: level_index 1 twice
        relevelled["points"][at]["level"] = 1.0;
        writeText(file("relevelled.json"), relevelled.dump(2));
        rejects({file("a.json"), file("relevelled.json")}, file("relevelled.json"), "repeats level_index 1");
        json renamed = b;   // a point claiming another learner than its learner_index
        const int li = renamed["points"][0]["learner_index"].get<int>();
        renamed["points"][0]["learner"] = li == 0 ? "LogReg" : "SVM";
        writeText(file("renamed.json"), renamed.dump(2));
        rejects({file("a.json"), file("renamed.json")}, file("renamed.json"), "but learner_index " + std::to_string(li) + " is");
        json nudged = b;   // a level a hair off the spec's
        nudged["points"][at]["level"] = 2.0000000000000004;
        writeText(file("nudged.json"), nudged.dump(2));
        rejects({file("a.json"), file("nudged.json")}, file("nudged.json"), "where the spec's level is 2.0");
        // A part without a data fingerprint (older FDLab).
        json old = b;
        old["part"].erase("data_fingerprint");
        writeText(file("old.json"), old.dump(2));
        rejects({file("a.json"), file("old.json")}, file("old.json"), "no data_fingerprint");
        // Missing: one of two shards.
        const MergeResult half = mergeParts({loadPart(file("a.json"))});
        QVERIFY(!half.complete());
        QCOMPARE(half.rerun.size(), std::size_t(1));
        QCOMPARE(half.rerun[0].str(), std::string("1/2"));
        QCOMPARE(half.missing, planShards(s, 2).tasksOf(1));
    }

    void changedDataIsRefused() {
        QTemporaryDir dir;
        const std::string data = dir.filePath("data.libsvm").toStdString();
        writeText(data, libsvmRows());
        const ExperimentSpec s = fileSpec(data);
        const ShardPart a = runShard(s, {0, 2});
        QCOMPARE(a.dataFingerprint.size(), std::size_t(16));
        QCOMPARE(runShard(s, {1, 2}).dataFingerprint, a.dataFingerprint);   // same data, same fingerprint
        savePart(a, dir.filePath("a.json").toStdString());
        // One value of the data file changes before the second shard runs: same spec, other data.
        writeText(data, libsvmRows(0.125));
        const ShardPart b = runShard(s, {1, 2});
        QCOMPARE(b.fingerprint, a.fingerprint);
        QVERIFY(b.dataFingerprint != a.dataFingerprint);
        const std::string bPath = dir.filePath("b.json").toStdString();
        savePart(b, bPath);
        const std::string e = errorOf([&] { mergeParts({loadPart(dir.filePath("a.json").toStdString()), loadPart(bPath)}); });
        QVERIFY2(e.find(bPath) == 0 && e.find("data fingerprint") != std::string::npos && e.find("data changed") != std::string::npos,
                 e.c_str());
        // Rerunning the first shard on the new data merges into the new data's full run.
        const MergeResult m = mergeParts({runShard(s, {0, 2}), b});
        QVERIFY(m.complete());
        QCOMPARE(withoutTimings(m.result), withoutTimings(runExperiment(s)));
        // The fingerprint covers the fixed test file and an importance CSV file as well.
        const std::string test = dir.filePath("test.libsvm").toStdString();
        writeText(test, libsvmRows(0, 6));
        const std::string before = runShard(fileSpec(data, test), {0, 4}).dataFingerprint;
        writeText(test, libsvmRows(1, 6));
        QVERIFY(runShard(fileSpec(data, test), {0, 4}).dataFingerprint != before);
        ExperimentSpec weighted = s;
        weighted.importance.kind = ImportanceSpec::Kind::Csv;
        weighted.importance.path = dir.filePath("importance.csv").toStdString();
        writeText(weighted.importance.path, "f1,1\nf2,2\nf3,1\nf4,1\n");
        const std::string v1 = runShard(weighted, {3, 4}).dataFingerprint;
        writeText(weighted.importance.path, "f1,1\nf2,3\nf3,1\nf4,1\n");
        QVERIFY(runShard(weighted, {3, 4}).dataFingerprint != v1);
    }

    // Review of the file-name fingerprint: two NumPy arrays with the same bytes as (m, 4, 6) and
    // (m, 6, 4) images had one data fingerprint, so shards of a "regions" corruption run on each
    // merged into a result that matched neither. The image shape is part of the data print.
    void imageShapeIsPartOfTheDataFingerprint() {
        TaskData a;
        a.data.X = Dataset::Matrix::Ones(3, 24);
        a.data.labels = {0, 1, 0};
        a.data.classNames = {"a", "b"};
        a.data.fillDefaults();
        const ExperimentSpec s = smallSpec();
        const std::string none = dataFingerprint(a, s);
        a.data.imageShape = ImageShape{4, 6};
        const std::string wide = dataFingerprint(a, s);
        a.data.imageShape = ImageShape{6, 4};
        const std::string tall = dataFingerprint(a, s);
        QVERIFY(none != wide);
        QVERIFY(wide != tall);
        QVERIFY(none != tall);
        QCOMPARE(dataFingerprint(a, s), tall);
    }

    void dataWarningsDoNotDependOnPartOrder() {
        // A fixed test file with a feature the training file lacks: a data warning. Three shards
        // of four tasks (2 learners x 2 repetitions) in every order, and five shards (one empty).
        QTemporaryDir dir;
        const std::string train = dir.filePath("train.libsvm").toStdString(), test = dir.filePath("test.libsvm").toStdString();
        writeText(train, libsvmRows());
        writeText(test, libsvmRows(0, 6));
        const ExperimentSpec s = fileSpec(train, test);
        const ExperimentResult full = runExperiment(s);
        QCOMPARE(full.warnings.size(), std::size_t(1));
        QVERIFY2(full.warnings[0].find("test file: 2 features unseen in training dropped (40 non-zero values)") == 0,
                 full.warnings[0].c_str());
        const std::string expected = withoutTimings(full);
        for (int n : {3, 5}) {
            std::vector<ShardPart> parts;
            for (int i = 0; i < n; ++i) parts.push_back(runShard(s, {i, n}));
            QVERIFY(parts.back().tasks.empty() == (n == 5));
            std::vector<int> order(static_cast<std::size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            do {
                std::vector<ShardPart> ordered;
                for (int i : order) ordered.push_back(parts[static_cast<std::size_t>(i)]);
                const MergeResult m = mergeParts(ordered);
                QVERIFY(m.complete());
                QCOMPARE(withoutTimings(m.result), expected);
            } while (std::next_permutation(order.begin(), order.end()));
        }
    }
};

QTEST_APPLESS_MAIN(TestSharding)
#include "test_sharding.moc"
