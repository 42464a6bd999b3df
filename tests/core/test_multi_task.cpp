// Multi-task experiments (core/eval/multi_task.h): the "tasks" form of experiment files, runs
// whole and sharded (identical numbers), the aggregate against an independent mean, results
// files and the report, and single-task files giving exactly what they gave before.

#include "core/eval/experiment_runner.h"
#include "core/eval/multi_task.h"
#include "core/eval/presets.h"
#include "core/eval/reproduction_report.h"
#include "core/eval/results_io.h"
#include "core/eval/sharding.h"
#include "core/io/json_file.h"
#include "core/util/errors.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace fdlab;
using json = nlohmann::json;

namespace {

const std::string kData = std::string(FDLAB_TEST_DATA) + "/multitask/";

// Three MNIST digit pairs x two learners x two repetitions, about a second in all.
ExperimentSpec pairsSpec() { return loadExperimentFile(kData + "pairs.json"); }

// A results file as JSON without what differs between runs of the same spec: timings, thread
// counts and the machine (host, CPU, source commit).
json stable(json j) {
    j.erase("elapsed_seconds");
    j.erase("threads");
    j["spec"].erase("threads");
    for (const char* k : {"threads", "host", "cpu", "fdlab"}) j["provenance"].erase(k);
    for (json& p : j["points"]) p.erase("train_seconds");
    return j;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// What experimentFromJson throws for `j` ("" when it accepts it).
std::string specError(const json& j) {
    try {
        experimentFromJson(j, kData);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestMultiTask : public QObject {
    Q_OBJECT

private slots:
    void specFormAndRoundTrip() {
        const ExperimentSpec s = pairsSpec();
        QVERIFY(s.multiTask());
        QCOMPARE(s.taskCount(), 3);
        QCOMPARE(QString::fromStdString(s.taskName(1)), QString("3 vs 5"));
        // Shared fields reach every task; the top level holds task 0's (for single-task code).
        for (int t = 0; t < 3; ++t) {
            const ExperimentSpec one = s.taskSpec(t);
            QVERIFY(!one.multiTask());
            QCOMPARE(QString::fromStdString(one.dataset.bundled), QString("mnist"));
            QCOMPARE(one.split.perClassTrain, 20);
            QCOMPARE(one.split.perClassTest, 30);
        }
        QCOMPARE(s.taskSpec(2).task.positive, std::vector<std::string>{"4"});
        QCOMPARE(s.task.negative, std::vector<std::string>{"7"});
        // Saved, every entry is complete and nothing task-specific is at the top level.
        const json j = toJson(s);
        QVERIFY(!j.contains("task") && !j.contains("dataset") && !j.contains("split"));
        QCOMPARE(j["tasks"][1]["split"]["train"].get<int>(), 20);
        QCOMPARE(toJson(experimentFromJson(j)).dump(), j.dump());
        QVERIFY(specFingerprint(s) != specFingerprint(s.taskSpec(0)));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, s.taskSpec(3));
        // Per-task data: each entry its own dataset (no shared one at the top level).
        json k = j;
        k["tasks"][0]["dataset"] = {{"bundled", "heart_scale"}};
        k["tasks"][0]["task"] = {{"kind", "multiclass"}};
        const ExperimentSpec mixed = experimentFromJson(k);
        QCOMPARE(QString::fromStdString(mixed.taskSpec(0).dataset.bundled), QString("heart_scale"));
        QCOMPARE(QString::fromStdString(mixed.taskSpec(1).dataset.bundled), QString("mnist"));
    }

    void badMultiTaskFilesAreNamed() {
        const json ok = json::parse(readText(kData + "pairs.json"));
        QVERIFY(specError(ok).empty());
        auto expect = [&](const json& j, const std::string& needle) {
            const std::string e = specError(j);
            QVERIFY2(e.find(needle) != std::string::npos, ("expected '" + needle + "', got '" + e + "'").c_str());
        };
        json j = ok;
        j["tasks"] = json::array();
        expect(j, "experiment field 'tasks': the list is empty");
        j = ok;
        j["tasks"] = {{"kind", "binary"}};
        expect(j, "experiment field 'tasks': expected a list of tasks");
        j = ok;
        j["tasks"][2]["name"] = "1 vs 7";
        expect(j, "experiment field 'tasks[2].name': '1 vs 7' is used twice");
        j = ok;
        j["tasks"][1]["taks"] = {{"kind", "multiclass"}};
        expect(j, "experiment field 'tasks[1].taks': unknown key (did you mean 'task'?)");
        j = ok;
        j["tasks"][1]["task"]["negatve"] = "2";
        expect(j, "experiment field 'tasks[1].task.negatve': unknown key (did you mean 'negative'?)");
        j = ok;
        j["tasks"][0].erase("name");
        expect(j, "experiment field 'tasks[0].name': missing");
        j = ok;
        j["tasks"][0]["name"] = "";
        expect(j, "'tasks[0].name': must not be empty");
        j = ok;
        j["tasks"][1] = "3 vs 5";
        expect(j, "'tasks[1]': expected an object");
        // Both forms in one file.
        j = ok;
        j["task"] = {{"kind", "binary"}, {"positive", "1"}, {"negative", "7"}};
        expect(j, "experiment field 'task': given together with \"tasks\"");
        j = ok;
        j["tasks"][2]["split"] = {{"kind", "fraction"}};
        expect(j, "'tasks[2].split': also given at the top level");
        j = ok;
        j.erase("dataset");
        expect(j, "'tasks[0].dataset': missing or not an object (no shared \"dataset\" at the top level)");
        // A task's own field errors and task-level validation name the task.
        j = ok;
        j.erase("split");
        j["tasks"][1]["split"] = {{"kind", "kfold"}, {"folds", 1}};
        expect(j, "tasks[1] ('3 vs 5'): experiment field 'split.folds': must be >= 2");
        j = ok;
        j["tasks"][0]["dataset"] = {{"bundled", "mnist"}, {"bundeld", "x"}};
        j.erase("dataset");
        expect(j, "'tasks[0].dataset.bundeld': unknown key");
        // Names are single table cells and CSV fields: no line breaks or tabs, and not the
        // aggregate's label (its rows would be indistinguishable from the task's).
        j = ok;
        j["tasks"][1]["name"] = "3 vs\n5";
        expect(j, "experiment field 'tasks[1].name': must not contain control characters");
        j = ok;
        j["tasks"][1]["name"] = "3\tvs 5";
        expect(j, "experiment field 'tasks[1].name': must not contain control characters");
        j = ok;
        j["tasks"][2]["name"] = kMeanOverTasks;
        expect(j, "experiment field 'tasks[2].name': 'mean over tasks' is reserved");
        // Unknown classes surface when the task's data is loaded, naming the class.
        j = ok;
        j["tasks"][2]["task"]["positive"] = "11";
        const ExperimentSpec bad = experimentFromJson(j);
        try {
            runExperiment(bad);
            QFAIL("no error for an unknown class");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("11") != std::string::npos, e.what());
        }
    }

    void aggregateAucOnlyWhenEveryTaskHasOne() {
        // A multi-class task has no AUC: the mean over tasks has none either (it was the binary
        // tasks' mean, labelled as the mean over all).
        ExperimentSpec s = pairsSpec();
        s.tasks.back().task = TaskSpec{};   // multi-class
        s.tasks.back().name = "all classes";
        const ExperimentResult r = runExperiment(s);
        QCOMPARE(r.status, Status::Converged);
        bool binaryAuc = false;
        for (const CurveSummary& c : r.summary) binaryAuc |= c.task == 0 && !std::isnan(c.auc.mean);
        QVERIFY(binaryAuc);
        const std::vector<CurveSummary> agg = aggregateOverTasks(r);
        QVERIFY(!agg.empty());
        for (const CurveSummary& a : agg) QVERIFY2(std::isnan(a.auc.mean), qPrintable(QString::number(a.auc.mean)));
        for (const CurveSummary& a : aggregateOverTasks(runExperiment(pairsSpec()))) QVERIFY(!std::isnan(a.auc.mean));
    }

    void aggregateIsTheMeanOfTaskMeans() {
        const ExperimentResult r = runExperiment(pairsSpec());
        QCOMPARE(r.status, Status::Converged);
        QCOMPARE(r.points.size(), std::size_t(3 * 2 * 2 * 3));   // tasks x learners x repetitions x levels
        // Independently: per (learner, level), the per-task means over repetitions, then their mean.
        std::map<std::pair<std::string, double>, std::map<int, std::vector<double>>> errors;
        for (const CurvePoint& p : r.points) errors[{p.learner, p.level}][p.task].push_back(p.error);
        const std::vector<CurveSummary> agg = aggregateOverTasks(r);
        QCOMPARE(agg.size(), std::size_t(2 * 3));
        for (const CurveSummary& a : agg) {
            const auto& byTask = errors.at({a.learner, a.level});
            QCOMPARE(byTask.size(), std::size_t(3));
            double sum = 0;
            std::vector<double> means;
            for (const auto& [task, errs] : byTask) {
                QCOMPARE(errs.size(), std::size_t(2));
                means.push_back((errs[0] + errs[1]) / 2);
                sum += means.back();
            }
            const double mean = sum / 3;
            double ss = 0;
            for (double m : means) ss += (m - mean) * (m - mean);
            QCOMPARE(a.task, -1);
            QCOMPARE(a.error.n, 3);
            QVERIFY(std::abs(a.error.mean - mean) < 1e-12);
            QVERIFY(std::abs(a.error.se - std::sqrt(ss / 2) / std::sqrt(3.0)) < 1e-12);
        }
        // The tasks really differ (else the test could not tell them apart).
        std::map<int, double> clean;
        for (const CurveSummary& s : r.summary)
            if (s.learner == "SVM" && s.level == 0) clean[s.task] = s.error.mean;
        QCOMPARE(clean.size(), std::size_t(3));
        QVERIFY(clean[0] != clean[1] || clean[1] != clean[2]);
        // In the results file: "aggregate" rows and every point's task; reloaded, the same.
        const json j = resultsToJson(r);
        QCOMPARE(j["aggregate"].size(), std::size_t(6));
        QCOMPARE(j["aggregate"][0]["tasks"].get<int>(), 3);
        QVERIFY(std::abs(j["aggregate"][0]["mean_error"].get<double>() - agg[0].error.mean) < 1e-15);
        QCOMPARE(j["curves"][0]["task"].get<std::string>(), std::string("1 vs 7"));
        QCOMPARE(j["points"].back()["task"].get<int>(), 2);
        QCOMPARE(resultsToJson(resultsFromJson(j)).dump(), j.dump());
        json badTask = j;
        badTask["points"][0]["task"] = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, resultsFromJson(badTask));
        // CSV: a task column, the mean over tasks first.
        const std::string csv = curvesCsv(r);
        QVERIFY2(csv.starts_with("task,learner,level,repetitions,mean_error"), csv.c_str());
        QVERIFY2(csv.find("\nmean over tasks,SVM,0,3,") != std::string::npos, csv.c_str());
        QVERIFY2(csv.find("\n4 vs 9,LogReg,20,2,") != std::string::npos, csv.c_str());
        // Views: one task as a single-task result, the aggregate as a result to draw.
        const ExperimentResult t1 = taskResult(r, 1);
        QVERIFY(!t1.spec.multiTask());
        QCOMPARE(t1.points.size(), std::size_t(12));
        QCOMPARE(t1.spec.task.positive, std::vector<std::string>{"3"});
        const ExperimentResult view = aggregateResult(r);
        QCOMPARE(view.summary.size(), agg.size());
        QCOMPARE(view.summary[4].error.mean, agg[4].error.mean);
    }

    void oneTaskAloneGivesItsOwnNumbers() {
        // A task of a multi-task run is exactly the single-task experiment it describes.
        const ExperimentSpec s = pairsSpec();
        const ExperimentResult all = runExperiment(s);
        const ExperimentResult alone = runExperiment(s.taskSpec(2));
        const ExperimentResult t2 = taskResult(all, 2);
        QCOMPARE(t2.points.size(), alone.points.size());
        for (std::size_t k = 0; k < alone.points.size(); ++k) {
            QCOMPARE(t2.points[k].error, alone.points[k].error);
            QCOMPARE(t2.points[k].level, alone.points[k].level);
        }
    }

    void shardedAndMergedEqualsWhole() {
        const ExperimentSpec s = pairsSpec();
        const ExperimentResult whole = runExperiment(s);
        const json expected = stable(resultsToJson(whole));
        QCOMPARE(jobCount(s), 12);
        const ShardPlan plan = planShards(s, 5);
        QCOMPARE(plan.tasks.size(), std::size_t(12));
        QCOMPARE(plan.tasks[7].experimentTask, 1);   // task-major: jobs 4..7 are "3 vs 5"
        QCOMPARE(plan.tasks[7].repetition, 1);
        QCOMPARE(plan.tasks[7].learnerIndex, 1);
        for (int k = 0; k < 12; ++k) {
            const JobRef ref = jobRef(s, k);
            QCOMPARE(jobIndex(s, ref.task, ref.repetition, ref.learnerIndex), k);
        }
        QTemporaryDir dir;
        for (int n : {1, 3, 5, 13}) {   // 13: more shards than jobs (an empty part)
            std::vector<ShardPart> parts;
            for (int i = 0; i < n; ++i) {
                const std::string path = dir.filePath(QString("part-%1-%2.json").arg(n).arg(i)).toStdString();
                savePart(runShard(s, {i, n}), path);
                parts.push_back(loadPart(path));
            }
            std::reverse(parts.begin(), parts.end());
            const MergeResult m = mergeParts(parts);
            QVERIFY(m.complete());
            QCOMPARE(stable(resultsToJson(m.result)).dump(), expected.dump());
            QCOMPARE(curvesCsv(m.result), curvesCsv(whole));
        }
        // A part missing: the merge names the job of its task and the shard to rerun.
        std::vector<ShardPart> parts;
        for (int i = 0; i < 3; ++i) parts.push_back(runShard(s, {i, 3}));
        const int lost = parts[1].tasks.front();
        parts.erase(parts.begin() + 1);
        const MergeResult m = mergeParts(parts);
        QVERIFY(!m.complete());
        QVERIFY(std::find(m.missing.begin(), m.missing.end(), lost) != m.missing.end());
        QCOMPARE(m.rerun.size(), std::size_t(1));
        QCOMPARE(m.rerun[0].index, 1);
        // A part whose point claims a task the spec does not have is refused, naming the file.
        json j = partToJson(runShard(s, {0, 3}));
        j["points"][0]["task"] = 7;
        try {
            partFromJson(j, "edited.json");
            QFAIL("no error for a point of task 7");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("edited.json") != std::string::npos, e.what());
        }
    }

    void levelTooLargeForOneTaskNamesTheTask() {
        // The shared level 20 fits MNIST's 784 pixels but not heart_scale's 13 features: the
        // error names the task whose data refuses it.
        json j = json::parse(readText(kData + "pairs.json"));
        j["tasks"][1]["dataset"] = {{"bundled", "heart_scale"}};
        j["tasks"][1]["task"] = {{"kind", "multiclass"}};
        j["tasks"][1]["split"] = {{"kind", "fraction"}, {"test", 0.3}, {"validation", 0.2}};
        for (int t : {0, 2}) j["tasks"][t]["dataset"] = {{"bundled", "mnist"}}, j["tasks"][t]["split"] = j["split"];
        j.erase("dataset");
        j.erase("split");
        const ExperimentSpec s = experimentFromJson(j, kData);
        try {
            runExperiment(s);
            QFAIL("no error for level 20 on 13 features");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            QVERIFY2(what.rfind("task '3 vs 5': experiment field 'levels'", 0) == 0, e.what());
        }
    }

    void partIsNotReadAsResults() {
        // The GUI, the report and Python read results through loadResultsJson: a shard's part
        // (only its shard's tasks) must not pass for the experiment's results.
        const ExperimentSpec s = pairsSpec();
        QTemporaryDir dir;
        const std::string path = dir.filePath("part-1.json").toStdString();
        savePart(runShard(s, {1, 3}), path);
        try {
            loadResultsJson(path);
            QFAIL("a part was read as complete results");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("part-1.json: part 1 of 3 of a sharded run, not complete results") != std::string::npos,
                     e.what());
        }
        // Merged, the same file reads.
        std::vector<ShardPart> parts;
        for (int i = 0; i < 3; ++i) parts.push_back(runShard(s, {i, 3}));
        const std::string merged = dir.filePath("merged.json").toStdString();
        saveResultsJson(mergeParts(parts).result, merged);
        QCOMPARE(loadResultsJson(merged).points.size(), std::size_t(3 * 2 * 2 * 3));
    }

    void singleTaskResultsAreUnchanged() {
        // single_results_before.json: `fdlab-cli run single.json --output` of FDLab before
        // multi-task experiments (main at ea45e6f). Same numbers, same keys, same order. Its
        // data_fingerprint was updated when the image shape joined the data print (MNIST digits),
        // and its warnings' wording when "stopped at the iteration limit" became "stopped short of
        // its tolerance" (a stalled interior point that keeps its iterate stops short too).
        const json before = json::parse(readText(kData + "single_results_before.json"));
        const ExperimentResult now = runExperiment(loadExperimentFile(kData + "single.json"));
        QCOMPARE(stable(resultsToJson(now)).dump(2), stable(before).dump(2));
        QVERIFY(!resultsToJson(now).contains("aggregate"));
        QVERIFY(aggregateOverTasks(now).empty());
        // And its curves CSV, as written then (provenance comment lines aside).
        std::string csvBefore;
        std::istringstream lines(readText(kData + "single_curves_before.csv"));
        for (std::string line; std::getline(lines, line);)
            if (!line.starts_with("#")) csvBefore += line + "\n";
        QCOMPARE(curvesCsv(now), csvBefore);
    }

    void reportUsesTheMeanOverTasks() {
        ExperimentSpec s = pairsSpec();
        s.paper = {{"source", "test"},
                   {"curves", {{"SVM", json::array({json::array({0, 0.05})})}}},
                   {"claims", json::array({{{"text", "SVM error rises"}, {"check", {{"kind", "rises"}, {"learner", "SVM"}, {"by", 0.0}}}}})}};
        const ExperimentResult r = runExperiment(s);
        const std::vector<CurveSummary> agg = aggregateOverTasks(r);
        const PresetReport p = reportPreset("pairs", r, "pairs.png");
        QCOMPARE(p.tasks.size(), std::size_t(3));
        QCOMPARE(p.curves["SVM"].size(), std::size_t(3));
        QCOMPARE(p.curves["SVM"][2][1].get<double>(), agg[2].error.mean);   // SVM at level 20: the mean over tasks
        QCOMPARE(p.paperNumbers.size(), std::size_t(1));
        QCOMPARE(p.paperNumbers[0].measured, agg[0].error.mean);
        QCOMPARE(p.claims.size(), std::size_t(1));
        char first[32];   // the evidence quotes the mean over tasks at the first level
        std::snprintf(first, sizeof first, "%.3f at 0 ->", agg[0].error.mean);
        QVERIFY2(p.claims[0].evidence.starts_with(first), p.claims[0].evidence.c_str());
        QCOMPARE(p.fingerprint, specFingerprint(s));
        const std::string md = reportMarkdown({p}, "now");
        QVERIFY2(md.find("| 3 vs 5 | LogReg |") != std::string::npos, md.c_str());
        QVERIFY2(md.find("| **mean over tasks** | SVM |") != std::string::npos, md.c_str());
        const ChartSpec chart = chartOf(r);
        QVERIFY2(chart.title.find("mean over 3 tasks") != std::string::npos, chart.title.c_str());
        QCOMPARE(chart.series[0].y[1], agg[1].error.mean);
        QCOMPARE(reportToJson({p}, "now")["presets"][0]["task_curves"]["4 vs 9"]["SVM"].size(), std::size_t(3));
    }

    void globersonPresetIsTheChaptersTwelvePairs() {
        const ExperimentSpec s = loadPresetOrFile("globerson-mnist-pairs");
        // Section 1.6.2: "(4,9),(3,5),(7,9),(5,8),(3,8),(2,8),(2,3),(8,9),(5,6),(2,7),(4,7) and (2,6)".
        const std::vector<std::pair<std::string, std::string>> pairs = {{"4", "9"}, {"3", "5"}, {"7", "9"}, {"5", "8"},
                                                                        {"3", "8"}, {"2", "8"}, {"2", "3"}, {"8", "9"},
                                                                        {"5", "6"}, {"2", "7"}, {"4", "7"}, {"2", "6"}};
        QCOMPARE(s.taskCount(), 12);
        for (int t = 0; t < 12; ++t) {
            const ExperimentSpec one = s.taskSpec(t);
            QCOMPARE(one.task.positive, std::vector<std::string>{pairs[static_cast<std::size_t>(t)].first});
            QCOMPARE(one.task.negative, std::vector<std::string>{pairs[static_cast<std::size_t>(t)].second});
            QCOMPARE(QString::fromStdString(one.dataset.bundled), QString("mnist-full"));
            QCOMPARE(one.split.perClassTrain, 50);
            QCOMPARE(one.split.perClassValidation, 100);
            QCOMPARE(one.split.perClassTest, 150);
        }
        QCOMPARE(s.repetitions, 20);
        QCOMPARE(jobCount(s), 12 * 20 * 4);
        validateClaims(s);
        // Reduced: every pair, one repetition, 10 training / 10 holdout / 20 test digits per
        // class, three levels, two-value grids.
        ExperimentSpec r = s;
        r.repetitions = 1;
        r.levels = {0, 50, 150};
        for (ExperimentTask& t : r.tasks) t.split.perClassTrain = 10, t.split.perClassValidation = 10, t.split.perClassTest = 20;
        for (LearnerSpec& l : r.learners) {
            if (l.grid.count("K")) l.grid["K"] = {0, 25};
            if (l.grid.count("C")) l.grid["C"] = {0.01, 1};
        }
        r.paper["claims"][1]["check"]["levels"] = json::array({150});
        r.paper["claims"][2]["check"]["levels"] = json::array({150});
        const ExperimentResult res = runExperiment(r);
        QCOMPARE(res.status, Status::Converged);
        QCOMPARE(res.points.size(), std::size_t(12 * 4 * 3));
        QCOMPARE(aggregateOverTasks(res).size(), std::size_t(4 * 3));
        for (const CurveSummary& a : aggregateOverTasks(res)) QCOMPARE(a.error.n, 12);
        const PresetReport p = reportPreset("globerson-mnist-pairs", res, "g.png");
        QCOMPARE(p.claims.size(), std::size_t(4));
        QCOMPARE(p.tasks.size(), std::size_t(12));
    }

    void dekelShamirPresetTestsOnEveryOneAndSeven() {
        const ExperimentSpec s = loadPresetOrFile("dekel-shamir-mnist-1-7");
        QVERIFY(!s.multiTask());
        QCOMPARE(s.task.positive, std::vector<std::string>{"1"});
        QCOMPARE(s.task.negative, std::vector<std::string>{"7"});
        QCOMPARE(s.split.perClassTrain, 50);
        QCOMPARE(s.split.perClassValidation, 100);
        QCOMPARE(s.repetitions, 5);
        QVERIFY(s.tunePerLevel);
        const auto lp = std::find_if(s.learners.begin(), s.learners.end(), [](const LearnerSpec& l) { return l.id == "DS LP"; });
        const auto n0 = std::find_if(s.learners.begin(), s.learners.end(), [](const LearnerSpec& l) { return l.id == "DS LP (N = 0)"; });
        QVERIFY(lp != s.learners.end() && n0 != s.learners.end());
        QVERIFY(lp->grid.count("N") && lp->grid.count("gamma"));
        QVERIFY(!n0->grid.count("N") && n0->grid.count("gamma"));
        QCOMPARE(n0->params.at("N").get<double>(), 0.0);
        validateClaims(s);
        // Reduced: 10 + 10 digits per class, one repetition, two levels, two-value grids; the
        // test part is every 1 and 7 of the 10,000 test digits (1135 + 1028).
        ExperimentSpec r = s;
        r.repetitions = 1;
        r.levels = {0, 75};
        r.split.perClassTrain = 10;
        r.split.perClassValidation = 10;
        for (LearnerSpec& l : r.learners) {
            if (l.grid.count("N")) l.grid["N"] = {0, 25};
            if (l.grid.count("gamma")) l.grid["gamma"] = {0.1, 1};
            if (l.grid.count("C")) l.grid["C"] = {0.01, 1};
        }
        for (json& c : r.paper["claims"]) c["check"]["levels"] = json::array({75});
        const TaskData data = loadTaskData(r);
        const PreparedSplit ps = prepareRepetition(data, r, 0);
        QCOMPARE(ps.test.rows(), 1135 + 1028);
        QCOMPARE(ps.train.rows(), 20);
        QCOMPARE(ps.validation.rows(), 20);
        const ExperimentResult res = runExperiment(r);
        QCOMPARE(res.status, Status::Converged);
        QCOMPARE(res.points.size(), std::size_t(3 * 2));
        for (const CurvePoint& p : res.points)
            if (p.learner == "DS LP (N = 0)") QCOMPARE(p.params.at("N").get<double>(), 0.0);
        QCOMPARE(reportPreset("dekel-shamir-mnist-1-7", res, "d.png").claims.size(), std::size_t(3));
    }

    void mcfFullPresetTrainsOnTheSixtyThousand() {
        const ExperimentSpec s = loadPresetOrFile("mcf-nightmare-mnist-full");
        QCOMPARE(QString::fromStdString(s.dataset.bundled), QString("mnist-full"));
        QVERIFY(s.testDataset && s.testDataset->bundled == "mnist-full-test");
        QCOMPARE(s.split.kind, SplitSpec::Kind::Fraction);
        QCOMPARE(s.split.testFraction, 0.0);
        QCOMPARE(s.split.validationFraction, 0.05);
        QVERIFY(s.tunePerLevel);
        // The same learners and grids as mcf-nightmare (only the data differ).
        const ExperimentSpec small = loadPresetOrFile("mcf-nightmare");
        QCOMPARE(toJson(s)["learners"].dump(), toJson(small)["learners"].dump());
        QCOMPARE(s.levels, small.levels);
        // The split as shipped: 57,000 training and 3,000 validation digits, all 10,000 test digits.
        const TaskData data = loadTaskData(s);
        const PreparedSplit ps = prepareRepetition(data, s, 0);
        QCOMPARE(ps.train.rows() + ps.validation.rows(), 60000);
        QCOMPARE(ps.validation.rows(), 3000);
        QCOMPARE(ps.test.rows(), 10000);
        // Reduced: 30 + 10 digits per class, one-value grids, two levels; tested on the 10,000.
        ExperimentSpec r = s;
        r.split.kind = SplitSpec::Kind::Counts;
        r.split.perClassTrain = 30;
        r.split.perClassValidation = 10;
        r.split.perClassTest = 0;
        r.levels = {0, 0.5};
        for (LearnerSpec& l : r.learners)
            for (auto& [name, values] : l.grid) values = {values.front()};
        const ExperimentResult res = runExperiment(r);
        QCOMPARE(res.status, Status::Converged);
        QCOMPARE(res.points.size(), std::size_t(7 * 2));
        for (const CurvePoint& p : res.points) {
            QVERIFY2(p.error > 0.0 && p.error < 0.9, qPrintable(QString::fromStdString(p.learner)));
            if (p.level == 0.0) QVERIFY2(p.error < 0.5, qPrintable(QString::fromStdString(p.learner)));   // 300 digits learn something
        }
    }

    void cancelledMultiTaskRunKeepsItsPoints() {
        const ExperimentSpec s = pairsSpec();
        std::stop_source stop;
        int seen = 0;
        RunControl rc;
        rc.stop = stop.get_token();
        double lastFraction = 0;
        bool monotone = true;
        rc.onProgress = [&](const Progress& p) {
            monotone = monotone && p.fraction >= lastFraction && p.fraction <= 1.0;
            lastFraction = p.fraction;
        };
        const ExperimentResult r = runExperiment(s, rc, [&](const CurvePoint& p) {
            if (p.task == 1 && ++seen == 1) stop.request_stop();
        });
        QCOMPARE(r.status, Status::Cancelled);
        QVERIFY(monotone);
        QVERIFY(r.points.size() >= 12 && r.points.size() < 36);   // all of task 0, none of task 2
        for (const CurvePoint& p : r.points) QVERIFY(p.task < 2);
    }
};

QTEST_GUILESS_MAIN(TestMultiTask)
#include "test_multi_task.moc"
