// Benchmark: error-versus-budget curves of a linear model on all 10,000 bundled MNIST digits
// (784 pixels, 16 budget levels), worst-case count budget and random deletion with 20
// repetitions, next to the same curve computed the slow way (attack materialised per level).
// Run by hand: build/tests/bench/bench_curves

#include "core/data/bundled.h"
#include "core/data/task.h"
#include "core/eval/level_evaluation.h"
#include "core/learners/registry.h"
#include "core/util/parallel.h"

#include <cstdio>
#include <mutex>

using namespace fdlab;

namespace {

double bestOf(int runs, const std::function<void()>& f) {
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        Stopwatch t;
        f();
        best = std::min(best, t.seconds());
    }
    return best;
}

void run(const char* title, const Dataset& d, const TrainedModel& m) {
    std::vector<double> levels;
    for (int k = 0; k < 16; ++k) levels.push_back(10.0 * k);
    AttackSpec worst;
    worst.threat = "worst-case-count";
    std::vector<LevelScore> curve;
    const double tWorst = bestOf(3, [&] { curve = evaluateAtLevels(m, d, worst, levels); });
    std::printf("\n%s: %d digits x %d pixels, %zu levels, %d outputs\n", title, d.rows(), d.features(), levels.size(),
                m.scorer->outputs());
    std::printf("worst-case count, one pass:        %.3f s   errors:", tWorst);
    for (const auto& s : curve) std::printf(" %.3f", s.error);
    std::printf("\n");

    const double tSlow = bestOf(1, [&] {
        for (double l : levels) {
            const AttackResult a = runAttack(d, *m.scorer, attackAtLevel(worst, l));
            (void)scoreDataset(*m.scorer, a.attacked);
        }
    });
    std::printf("worst-case count, attack per level: %.3f s   (%.1fx slower)\n", tSlow, tSlow / tWorst);

    AttackSpec random;
    random.threat = "random-deletion";
    std::vector<std::vector<LevelScore>> reps(20);
    const double tRandom = bestOf(3, [&] {
        parallelFor(20, 0, [&](int r) {
            AttackSpec a = random;
            a.seed = static_cast<std::uint64_t>(r + 1);
            reps[static_cast<std::size_t>(r)] = evaluateAtLevels(m, d, a, levels);
        });
    });
    std::printf("random deletion, 20 repetitions:    %.3f s on %d threads   mean errors:", tRandom, hardwareThreads());
    for (std::size_t l = 0; l < levels.size(); ++l) {
        double s = 0;
        for (const auto& r : reps) s += r[l].error;
        std::printf(" %.3f", s / 20);
    }
    std::printf("\n");
}

}  // namespace

int main() {
    const Dataset all = loadBundled("mnist");
    {
        const Dataset d = oneVsRest(all, "3");
        const TrainedModel m = trainLearner("svm", d, {{"C", 0.1}});
        run("MNIST 3 vs rest (binary, with AUC)", d, m);
    }
    {
        const TrainedModel m = trainLearner("svm", all, {{"C", 0.1}});
        run("MNIST all ten digits (one-vs-rest SVM, 10 outputs)", all, m);
    }
    return 0;
}
