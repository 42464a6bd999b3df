// Merging sharded results: 100 synthetic parts of a 10,000-point experiment (10 learners x 100
// levels x 10 repetitions = 100 tasks, one per shard) are written, then read, merged and the
// results file written, as `fdlab-cli merge` does. Target: under 1 s.
// usage: bench_merge [PARTS-DIR]   (default: a fresh directory under /tmp)

#include "core/eval/results_io.h"
#include "core/eval/sharding.h"
#include "core/util/rng.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace fdlab;

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "fdlab_bench_merge";
    fs::create_directories(dir);
    ExperimentSpec spec;
    spec.name = "bench merge";
    spec.dataset.bundled = "heart_scale";
    for (int l = 0; l < 10; ++l) spec.learners.push_back({"SVM C=" + std::to_string(l + 1), "svm", {{"C", l + 1.0}}, {}});
    for (int k = 0; k < 100; ++k) spec.levels.push_back(k);
    spec.attack.threat = "worst-case-count";
    spec.repetitions = 10;
    spec.validate();
    const int shards = 100;
    const ShardPlan plan = planShards(spec, shards);

    // Synthetic parts: every point of each shard's tasks, random errors.
    Rng rng(1);
    std::vector<std::string> paths;
    for (int s = 0; s < shards; ++s) {
        ShardPart part;
        part.fingerprint = plan.fingerprint;
        part.dataFingerprint = "0123456789abcdef";   // synthetic parts: one (made-up) data set
        part.shard = {s, shards};
        part.tasks = part.complete = plan.tasksOf(s);
        part.result.spec = spec;
        for (int k : part.tasks)
            for (int l = 0; l < 100; ++l) {
                CurvePoint p;
                p.learnerIndex = k % 10;
                p.learner = spec.learners[static_cast<std::size_t>(p.learnerIndex)].id;
                p.repetition = k / 10;
                p.levelIndex = l;
                p.level = l;
                p.error = rng.uniform(0, 1);
                p.auc = rng.uniform(0, 1);
                p.validationError = rng.uniform(0, 1);
                p.params = {{"C", p.learnerIndex + 1.0}};
                p.trainSeconds = rng.uniform(0, 1);
                part.result.points.push_back(p);
            }
        part.result.message = std::to_string(part.result.points.size()) + " points";
        paths.push_back((dir / ("part-" + std::to_string(s) + ".json")).string());
        savePart(part, paths.back());
    }

    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    std::vector<ShardPart> parts;
    for (const auto& p : paths) parts.push_back(loadPart(p));
    const auto t1 = Clock::now();
    const MergeResult m = mergeParts(parts);
    const auto t2 = Clock::now();
    saveResultsJson(m.result, (dir / "results.json").string());
    saveCurvesCsv(m.result, (dir / "curves.csv").string());
    const auto t3 = Clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("merge of %d parts, %zu points (%s): read %.0f ms, merge %.0f ms, write %.0f ms, total %.0f ms\n", shards,
                m.result.points.size(), m.complete() ? "complete" : "INCOMPLETE", ms(t0, t1), ms(t1, t2), ms(t2, t3),
                ms(t0, t3));
    return m.complete() && m.result.points.size() == 10000 ? 0 : 1;
}
