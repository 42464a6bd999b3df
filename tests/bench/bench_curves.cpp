// Benchmark: error-versus-budget curves of a linear model on all 10,000 bundled MNIST digits
// (784 pixels, 16 budget levels), worst-case count budget and random deletion with 20
// repetitions, next to the same curve computed the slow way (attack materialised per level).
// Run by hand: build/tests/bench/bench_curves
//
// bench_curves synthetic [ROWS FEATURES NONZEROS]: the curves at scale (issue 30, item 4). A
// random sparse set built in memory (default 1,000,000 x 100,000 with 50 M non-zeros, values
// 1..3, labels from a random linear rule with 5% noise; the set of bench_sparse's `synthetic`
// mode, without its LIBSVM round trip) and that rule as the linear model (the curves' cost does
// not depend on how the model was trained). Times, each against one pass that only scores every
// row (the floor any curve pays): the worst-case count curve and the random-deletion curve at 16
// levels (0..30), one pass each; then the robustness map (every row's deletions needed to flip)
// for two models, under a count and a real-price value budget.

#include "core/data/bundled.h"
#include "core/data/task.h"
#include "core/eval/level_evaluation.h"
#include "core/learners/registry.h"
#include "core/teach/robustness_map.h"
#include "core/util/parallel.h"
#include "core/util/rng.h"

#include <sys/resource.h>

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

/// The per-instance "deletions needed to flip" of the classroom's robustness map on every row, for
/// the rule and a second model (the rule with noise), under the count budget and a value budget
/// with real prices (branch and bound) -- against the scoring floor's pass.
void robustnessAtScale(Dataset& d, const TrainedModel& rule, const Eigen::VectorXd& w) {
    Rng rng(7);
    Eigen::VectorXd w2 = w;
    for (Eigen::Index j = 0; j < w2.size(); ++j) w2(j) += 0.5 * rng.normal();
    TrainedModel other;
    auto lin = std::make_shared<LinearModel>(LinearModel::binary(w2, 0.1, d.classNames));
    other.linear = lin;
    other.scorer = std::make_shared<LinearScorer>(*lin);
    const auto report = [&](const char* what, const AttackSpec& a) {
        RobustnessMap map;
        Stopwatch t;
        map = robustnessMap(d, rule, other, a);
        const double s = t.seconds();
        const RobustnessCounts c = map.counts();
        double mean = 0;
        long finite = 0;
        for (const double n : map.needA)
            if (std::isfinite(n)) mean += n, ++finite;
        std::printf("  robustness map, %s: %.2f s for %d rows x 2 models (%.2f us per need), mean need %.2f, "
                    "never flipped %d / %d, B needs less on %d\n",
                    what, s, d.rows(), 1e6 * s / (2.0 * d.rows()), finite ? mean / static_cast<double>(finite) : 0.0,
                    c.neverA, c.neverB, c.below);
    };
    AttackSpec count;
    count.threat = "worst-case-count";
    report("count budget (exact worst case)", count);
    for (double& v : d.importance) v = 0.5 + rng.uniform();   // real prices in [0.5, 1.5)
    AttackSpec value;
    value.threat = "worst-case-value-exact";
    report("value budget, real prices (branch and bound)", value);
}

/// The synthetic sparse set and its generating rule as a model (see the header comment).
int synthetic(int rows, int features, long long nonZeros) {
    Stopwatch t;
    Rng rng(1);
    Eigen::VectorXd w(features);
    for (int j = 0; j < features; ++j) w(j) = rng.normal();
    Dataset d;
    d.name = "synthetic";
    d.classNames = {"-1", "+1"};
    d.labels.reserve(static_cast<std::size_t>(rows));
    const int perRow = static_cast<int>(nonZeros / rows);
    SparseRowsBuilder b(features, nonZeros);
    std::vector<int> cols;
    for (int i = 0; i < rows; ++i) {
        cols.clear();
        for (int k = 0; k < perRow; ++k) cols.push_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(features))));
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        double s = 0;
        for (const int j : cols) {
            const auto v = static_cast<float>(1 + rng.below(3));
            s += w(j) * v;
            b.add(j, v);
        }
        b.endRow();
        d.labels.push_back((s > 0) != rng.bernoulli(0.05) ? 1 : 0);
    }
    d.sparse = std::move(b).finish();
    d.featureNames.resize(static_cast<std::size_t>(features));
    d.importance.assign(static_cast<std::size_t>(features), 1.0);
    std::printf("synthetic %d x %d, %lld non-zeros (CSR %.0f MB), built in %.1f s\n", d.rows(), d.features(),
                static_cast<long long>(d.storedValues()), static_cast<double>(d.sparse->bytes()) / 1048576.0, t.seconds());
    TrainedModel m;
    auto lin = std::make_shared<LinearModel>(LinearModel::binary(w, 0.0, d.classNames));
    m.linear = lin;
    m.scorer = std::make_shared<LinearScorer>(*lin);

    std::vector<double> levels;
    for (int k = 0; k <= 30; k += 2) levels.push_back(k);   // 16 levels
    const double tScore = bestOf(3, [&] { (void)scoreDataset(*m.scorer, d); });
    std::printf("  score every row once (no attack):   %.3f s  (the floor)\n", tScore);
    for (const char* threat : {"worst-case-count", "random-deletion"}) {
        AttackSpec a;
        a.threat = threat;
        std::vector<LevelScore> curve;
        const double tc = bestOf(3, [&] { curve = evaluateAtLevels(m, d, a, levels); });
        std::printf("  %-16s 16 levels, one pass: %.3f s  (%.1fx the floor)  errors:", threat, tc, tc / tScore);
        for (const auto& s : curve) std::printf(" %.3f", s.error);
        std::printf("\n");
    }
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("  peak RSS %.0f MB\n", static_cast<double>(u.ru_maxrss) / 1024.0);
    robustnessAtScale(d, m, w);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "synthetic")
        return synthetic(argc > 2 ? std::atoi(argv[2]) : 1000000, argc > 3 ? std::atoi(argv[3]) : 100000,
                         argc > 4 ? std::atoll(argv[4]) : 50000000LL);
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
