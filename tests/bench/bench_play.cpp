// "You are the adversary", by hand:  ./bench_play [clicks] [instances]
//
// What one click costs in core (DeletionGame::toggle, then both learners' scores of the instance
// with the student's deletions, scoreWithDeletions), against the peers measured in the same run
// on the same instance: one full worst-case attack at the same budget (optimalPlay, what "Reveal"
// runs per learner) and the deletions needed to flip (deletionsToFlip, a bisection of attacks).
// Two settings, as the Heatmaps tab plays them: MNIST 3 vs 5 (784 dense pixels; SVM and FDROP
// trained on the preset's split, K = 50) and a SpamAssassin test spam message (sparse bag of
// 24,677 words; SVM C = 1 and C = 0.1, K = 30). Target: < 50 ms per click (the GUI redraw comes
// on top; it is not measured here). For the text setting also "Type your own": one live
// classification of a typed message (typedDocumentRow: the vocabulary index is rebuilt each
// time, then both scores) and "Attack it" (withTypedDocument copies the test set).
//
// Real prices (the value-budget presets' mutual-information v_j): Reveal and the deletions needed
// to flip by branch and bound, per instance over the first `instances` attacked test instances
// (mean and slowest), against the peer measured in the same run on the same instances: the
// knapsack DP on the same prices rounded to whole hundredths (knapsack_scale 100), the only exact
// adversary before. Settings: spam-fdrop-value-budget (24,677 words), spam-dekel-shamir-value-budget
// (2,200 words), spambase-greedy-mi (57 features), SVM C = 1 vs C = 0.1.

#include "core/eval/experiment_runner.h"
#include "core/eval/presets.h"
#include "core/data/text_dataset.h"
#include "core/teach/deletion_game.h"
#include "core/util/run_control.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

struct Setting {
    std::string title;
    Dataset test;
    TrainedModel a, b;
    int instance = 0;
    double K = 0;
};

Setting load(const std::string& preset, const std::string& title, const nlohmann::json& pa, const std::string& lb,
             const nlohmann::json& pb, double K) {
    const ExperimentSpec spec = loadPresetOrFile(preset);
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    Setting s;
    s.title = title;
    s.a = trainLearner("svm", split.train, pa);
    s.b = trainLearner(lb, split.train, pb);
    s.test = std::move(split.test);
    s.K = K;
    // the first instance of class 1 (a 3; spam) with the most non-zeros among the first 50 of them
    int best = -1;
    for (int i = 0, seen = 0; i < s.test.rows() && seen < 50; ++i)
        if (s.test.labels[static_cast<std::size_t>(i)] == 1) {
            ++seen;
            if (best < 0 || s.test.nonZeros(i) > s.test.nonZeros(best)) best = i;
        }
    s.instance = std::max(best, 0);
    return s;
}

template <class F>
double perCall(int reps, F&& f) {
    Stopwatch w;
    for (int r = 0; r < reps; ++r) f(r);
    return w.seconds() / reps;
}

void run(const Setting& s, int clicks) {
    const RowView x = s.test.row(s.instance);
    const int label = s.test.labels[static_cast<std::size_t>(s.instance)];
    const PlayBudget budget = PlayBudget::count(s.K);
    std::vector<int> nonzero;
    x.forEachNonZero([&](int j, float) { nonzero.push_back(j); });
    DeletionGame game(x, label, budget);
    double sink = 0.0;
    // A click: toggle a non-zero feature (the game stays within K), score both learners.
    const double click = perCall(clicks, [&](int r) {
        game.toggle(nonzero[static_cast<std::size_t>(r * 7919) % nonzero.size()]);
        sink += game.score(s.a).margin + game.score(s.b).margin;
    });
    const double reveal = perCall(std::max(1, clicks / 10), [&](int) {
        sink += optimalPlay(s.a, x, label, budget).after.margin + optimalPlay(s.b, x, label, budget).after.margin;
    });
    const double need = perCall(std::max(1, clicks / 10), [&](int) {
        sink += deletionsToFlip(s.a, x, label, budget).need + deletionsToFlip(s.b, x, label, budget).need;
    });
    std::printf("%s: instance %d (%d non-zeros of %d), K = %g\n", s.title.c_str(), s.instance,
                static_cast<int>(nonzero.size()), s.test.features(), s.K);
    std::printf("  click (toggle + both scores):        %10.4f ms  (target < 50 ms)\n", 1e3 * click);
    std::printf("  reveal (worst case, both learners):  %10.4f ms  = %.1f clicks\n", 1e3 * reveal, reveal / click);
    std::printf("  deletions to flip (both learners):   %10.4f ms  = %.1f clicks\n", 1e3 * need, need / click);
    if (s.test.documents) {
        // A typed message of 300 words: 250 of the vocabulary and 50 unknown ones.
        std::string text;
        for (int j = 0; j < 250; ++j) text += s.test.featureNames[static_cast<std::size_t>((j * 97) % s.test.features())] + " ";
        for (int j = 0; j < 50; ++j) text += "zzunknown" + std::to_string(j) + " ";
        const int reps = std::max(5, clicks / 100);
        const double typed = perCall(reps, [&](int) {
            const TypedDocument t = typedDocumentRow(s.test, text);
            const RowView row = t.row(s.test.features());
            sink += scoreWithDeletions(s.a, row, 1, {}).margin + scoreWithDeletions(s.b, row, 1, {}).margin;
        });
        const double attackIt = perCall(reps, [&](int) {
            sink += withTypedDocument(s.test, typedDocumentRow(s.test, text), 1, "typed").rows();
        });
        std::printf("  typed message (300 words), classify: %10.4f ms  = %.1f clicks  (runs 150 ms after the last key)\n",
                    1e3 * typed, typed / click);
        std::printf("  \"Attack it\" (row + copy of %d rows): %10.4f ms\n", s.test.rows(), 1e3 * attackIt);
    }
    std::printf("  (checksum %g)\n", sink);
}

// The value-budget preset's repetition 0 with its mutual-information prices; instances of the
// class the preset attacks.
struct PricedSetting {
    std::string title;
    Dataset test;
    TrainedModel a, b;
    std::vector<int> rows;
    double N = 0;
};

PricedSetting loadPriced(const std::string& preset, const std::string& title, double N, int instances) {
    const ExperimentSpec spec = loadPresetOrFile(preset);
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    PricedSetting s;
    s.title = title;
    s.a = trainLearner("svm", split.train, {{"C", 1}});
    s.b = trainLearner("svm", split.train, {{"C", 0.1}});
    s.test = std::move(split.test);
    s.N = N;
    for (int i = 0; i < s.test.rows() && static_cast<int>(s.rows.size()) < instances; ++i)
        if (s.test.labels[static_cast<std::size_t>(i)] == 1) s.rows.push_back(i);
    return s;
}

void runPriced(const PricedSetting& s) {
    std::vector<double> hundredths;
    for (double v : s.test.importance) hundredths.push_back(std::max(0.01, std::round(v * 100) / 100));
    const PlayBudget real = PlayBudget::value(s.N, s.test.importance);
    const PlayBudget dp = PlayBudget::value(s.N, hundredths, 100.0);
    struct Times { double mean = 0, slowest = 0; };
    double sink = 0.0;
    const auto perInstance = [&](auto&& f) {
        Times t;
        for (int i : s.rows) {
            Stopwatch w;
            f(i);
            const double sec = w.seconds();
            t.mean += sec / static_cast<double>(s.rows.size());
            t.slowest = std::max(t.slowest, sec);
        }
        return t;
    };
    const auto reveal = [&](const PlayBudget& b) {
        return perInstance([&](int i) {
            sink += optimalPlay(s.a, s.test.row(i), 1, b).after.margin + optimalPlay(s.b, s.test.row(i), 1, b).after.margin;
        });
    };
    const auto need = [&](const PlayBudget& b) {
        return perInstance([&](int i) {
            sink += deletionsToFlip(s.a, s.test.row(i), 1, b).need + deletionsToFlip(s.b, s.test.row(i), 1, b).need;
        });
    };
    double nnz = 0, lo = 1e300, hi = 0;
    for (int i : s.rows) nnz += s.test.nonZeros(i) / static_cast<double>(s.rows.size());
    for (double v : s.test.importance) lo = std::min(lo, v), hi = std::max(hi, v);
    std::printf("%s: %zu spam instances (mean %.0f non-zeros of %d), prices v_j in [%.3g, %.3g], N = %g\n",
                s.title.c_str(), s.rows.size(), nnz, s.test.features(), lo, hi, s.N);
    const Times rb = reveal(real), rd = reveal(dp), nb = need(real), nd = need(dp);
    std::printf("  reveal, both learners, branch and bound (real prices): mean %9.3f ms, slowest %9.3f ms\n", 1e3 * rb.mean, 1e3 * rb.slowest);
    std::printf("  reveal, both learners, DP (hundredths, scale 100):     mean %9.3f ms, slowest %9.3f ms  (B&B/DP %.2f)\n",
                1e3 * rd.mean, 1e3 * rd.slowest, rb.mean / rd.mean);
    std::printf("  to flip, both learners, branch and bound (cover):      mean %9.3f ms, slowest %9.3f ms\n", 1e3 * nb.mean, 1e3 * nb.slowest);
    std::printf("  to flip, both learners, DP bisection (hundredths):     mean %9.3f ms, slowest %9.3f ms  (B&B/DP %.2f)\n",
                1e3 * nd.mean, 1e3 * nd.slowest, nb.mean / nd.mean);
    std::printf("  (checksum %g)\n", sink);
}

}  // namespace

int main(int argc, char** argv) {
    const int clicks = argc > 1 ? std::max(10, std::atoi(argv[1])) : 2000;
    run(load("mnist-digit-pairs", "MNIST 3 vs 5, SVM vs FDROP", {{"C", 1}}, "fdrop", {{"C", 1}, {"K", 10}}, 50), clicks);
    run(load("spam-fdrop-worst-case", "SpamAssassin spam message, SVM C=1 vs C=0.1", {{"C", 1}}, "svm", {{"C", 0.1}}, 30),
        clicks);
    const int instances = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    runPriced(loadPriced("spambase-greedy-mi", "Spambase, mutual-information prices", 5, instances));
    runPriced(loadPriced("spam-dekel-shamir-value-budget", "SpamAssassin (2,200 words), mutual-information prices", 10,
                         instances));
    runPriced(loadPriced("spam-fdrop-value-budget", "SpamAssassin (24,677 words), mutual-information prices", 10, instances));
    return 0;
}
