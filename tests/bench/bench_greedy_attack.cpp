// Greedy deletion and corruption on the non-linear models, by hand:  ./bench_greedy_attack [digits]
//
// 1. MNIST 3 vs 5 (bundled 10,000 digits): 500 training digits, `digits` test digits (default
//    200), greedy deletion with budget K = 50 (stop when misclassified) on a tree, kNN, a net,
//    AdaBoost(trees) and FeatureBoost(trees); fit time, attack time, clean and attacked accuracy.
//    kNN is also attacked through a wrapper that hides its incremental scoresWithChange (every
//    candidate re-scores in O(m n)) on the first 20 digits, to show what the distance cache buys.
// 2. Vote (435 x 32, 70/30 split): clean accuracy and accuracy under 30% random feature
//    corruption (values from random training rows), mean of 5 corruption seeds.
// 3. Threshold function (32 levels, four encodings = four groups, 600 train / 400 test): accuracy
//    under corruption of 0..3 whole encodings (values from one random training row per group),
//    mean of 5 seeds -- the paper's right-hand panel (FeatureBoost vs AdaBoost vs mixture).

#include "core/attacks/attack.h"
#include "core/data/bundled.h"
#include "core/data/generators.h"
#include "core/data/split.h"
#include "core/data/task.h"
#include "core/learners/nonlinear/adaboost.h"
#include "core/learners/nonlinear/decision_tree.h"
#include "core/learners/nonlinear/feature_boost.h"
#include "core/learners/nonlinear/knn.h"
#include "core/learners/nonlinear/mixture_of_experts.h"
#include "core/learners/nonlinear/neural_net.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

/// Forwards scores() only, so the attack falls back to Scorer's copy-and-rescore default.
class NoIncremental : public Scorer {
public:
    explicit NoIncremental(const Scorer& s) : m_s(s) {}
    int outputs() const override { return m_s.outputs(); }
    int features() const override { return m_s.features(); }
    void scores(std::span<const float> x, std::span<double> out) const override { m_s.scores(x, out); }

private:
    const Scorer& m_s;
};

double accuracyOf(const Scorer& s, const Dataset& d) {
    int ok = 0;
    for (int i = 0; i < d.rows(); ++i) ok += s.predict(rowSpan(d, i)) == d.labels[static_cast<std::size_t>(i)];
    return static_cast<double>(ok) / d.rows();
}

struct Named {
    std::string name;
    ClassifierFit fit;
};

std::vector<Named> fitAll(const Dataset& train, bool withMixture, int treeDepth) {
    std::vector<Named> out;
    out.push_back({"tree", fitDecisionTree(train, DecisionTreeParams{.maxDepth = treeDepth}).base()});
    out.push_back({"knn (k=5)", fitKnn(train, KnnParams{5}).base()});
    out.push_back({"net (H=16)", fitNeuralNet(train, NeuralNetParams{.hidden = 16}).base()});
    AdaBoostParams ap;
    ap.base.tree.maxDepth = 3;
    ap.rounds = 20;
    out.push_back({"adaboost(tree d3, 20)", fitAdaBoost(train, ap).base()});
    if (withMixture) {
        MixtureParams mp;
        mp.base.tree.maxDepth = treeDepth;
        out.push_back({"mixture(tree, 10)", fitMixtureOfExperts(train, mp).base()});
    }
    FeatureBoostParams fp;
    fp.base.tree.maxDepth = treeDepth;
    fp.rounds = 10;
    out.push_back({"featureboost(tree, 10, hard)", fitFeatureBoost(train, fp).base()});
    fp.variant = FeatureBoostVariant::SoftNoise;
    out.push_back({"featureboost(tree, 10, noise)", fitFeatureBoost(train, fp).base()});
    return out;
}

double meanAccuracyUnder(const Scorer& m, const Dataset& test, const Dataset& train, std::string t, double fraction,
                         const std::vector<FeatureGroup>& groups) {
    double s = 0.0;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        AttackSpec spec;
        spec.threat = t;
        spec.level = fraction;
        if (!groups.empty()) {
            nlohmann::json g = nlohmann::json::array();
            for (const FeatureGroup& fg : groups)
                g.push_back({{"name", fg.name}, {"begin", fg.begin}, {"end", fg.end}, {"features", fg.features}});
            spec.params["groups"] = g;
        }
        spec.seed = seed;
        s += accuracyOf(m, runAttack(test, m, spec, {}, &train).attacked);
    }
    return s / 5.0;
}

}  // namespace

int main(int argc, char** argv) {
    const int digits = argc > 1 ? std::atoi(argv[1]) : 200;

    // 1. MNIST 3 vs 5.
    {
        const Dataset pair = binaryView(loadBundled("mnist"), {"3"}, {"5"});
        const TrainTest tt = stratifiedSplit(pair, 0.5, 1);
        std::vector<int> tr(tt.train.begin(), tt.train.begin() + 500), te(tt.test.begin(), tt.test.begin() + digits);
        const Dataset train = pair.subset(tr), test = pair.subset(te);
        std::printf("MNIST 3 vs 5: %d train, %d test digits, 784 pixels; greedy deletion K = 50, stop when wrong\n",
                    train.rows(), test.rows());
        std::printf("  %-30s %8s %8s %10s %10s %9s\n", "model", "fit s", "clean", "attack s", "attacked", "ms/digit");
        AttackSpec spec;
        spec.threat = "greedy-deletion";
        spec.level = 50;
        for (const Named& m : fitAll(train, false, 8)) {
            const AttackResult a = runAttack(test, *m.fit.model, spec);
            std::printf("  %-30s %8.2f %8.3f %10.2f %10.3f %9.1f\n", m.name.c_str(), m.fit.elapsed,
                        accuracyOf(*m.fit.model, test), a.elapsed, accuracyOf(*m.fit.model, a.attacked),
                        1000.0 * a.elapsed / test.rows());
            if (m.name.rfind("knn", 0) == 0) {
                const std::vector<int> first(te.begin(), te.begin() + std::min(20, digits));
                const Dataset few = pair.subset(first);
                const NoIncremental plain(*m.fit.model);
                const AttackResult slow = runAttack(few, plain, spec);
                const AttackResult fast = runAttack(few, *m.fit.model, spec);
                std::printf("  %-30s %8s %8s %10.2f %10s %9.1f   (same deletions: %s)\n", "knn without cache, 20 digits",
                            "", "", slow.elapsed, "", 1000.0 * slow.elapsed / few.rows(),
                            slow.deleted == fast.deleted ? "yes" : "no");
            }
        }
    }

    // 2. Vote.
    {
        const Dataset all = loadBundled("vote");
        const TrainTest tt = stratifiedSplit(all, 0.3, 1);
        const Dataset train = all.subset(tt.train), test = all.subset(tt.test);
        std::printf("\nVote: %d train, %d test, 32 features; feature corruption = value of a random training row\n",
                    train.rows(), test.rows());
        std::printf("  %-30s %8s %12s %12s\n", "model", "clean", "30% corrupt", "50% corrupt");
        for (const Named& m : fitAll(train, true, 6))
            std::printf("  %-30s %8.3f %12.3f %12.3f\n", m.name.c_str(), accuracyOf(*m.fit.model, test),
                        meanAccuracyUnder(*m.fit.model, test, train, "feature-corruption", 0.3, {}),
                        meanAccuracyUnder(*m.fit.model, test, train, "feature-corruption", 0.5, {}));
    }

    // 3. Threshold function, whole encodings corrupted.
    {
        const Dataset all = thresholdFunctionDataset(1000, 32, 1);
        const auto groups = thresholdFunctionGroups(32);
        const TrainTest tt = stratifiedSplit(all, 0.4, 1);
        const Dataset train = all.subset(tt.train), test = all.subset(tt.test);
        std::printf("\nThreshold function (32 levels, %d features in 4 encodings): %d train, %d test\n", all.features(),
                    train.rows(), test.rows());
        std::printf("  %-30s %8s %10s %10s %10s %10s\n", "model", "clean", "1 group", "2 groups", "3 groups",
                    "30% feat");
        for (const Named& m : fitAll(train, true, 6))
            std::printf("  %-30s %8.3f %10.3f %10.3f %10.3f %10.3f\n", m.name.c_str(), accuracyOf(*m.fit.model, test),
                        meanAccuracyUnder(*m.fit.model, test, train, "group-corruption", 0.25, groups),
                        meanAccuracyUnder(*m.fit.model, test, train, "group-corruption", 0.5, groups),
                        meanAccuracyUnder(*m.fit.model, test, train, "group-corruption", 0.75, groups),
                        meanAccuracyUnder(*m.fit.model, test, train, "feature-corruption", 0.3, {}));
    }
    return 0;
}
