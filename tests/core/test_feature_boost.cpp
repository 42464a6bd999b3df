// FeatureBoost (core/learners/nonlinear/feature_boost.h): deterministic for a seed, the
// sensitivity analysis finds exactly the features a model uses, and the feature distribution
// moves away from the features round 1 relied on; the hard variant removes features.

#include "core/data/generators.h"
#include "core/learners/nonlinear/decision_tree.h"
#include "core/learners/nonlinear/feature_boost.h"
#include "core/learners/nonlinear/model_io.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <stop_token>

using namespace fdlab;

namespace {

int argmax(const Eigen::RowVectorXd& v) {
    Eigen::Index i = 0;
    v.maxCoeff(&i);
    return static_cast<int>(i);
}

}  // namespace

class TestFeatureBoost : public QObject {
    Q_OBJECT

private slots:
    // A tree that splits on one feature only: marginalising any other feature never changes its
    // prediction, so the importance is exactly 1 there (after scaling) and 0 elsewhere.
    void sensitivityFindsTheUsedFeature() {
        const Dataset d = thresholdFunctionDataset(400, 16, 3);
        const auto tree = fitDecisionTree(d, DecisionTreeParams{.maxDepth = 1}).model;
        QCOMPARE(tree->errorRate(d), 0.0);   // one bit of the code decides t >= 8
        const std::vector<int> used = tree->usedFeatures();
        QCOMPARE(used.size(), std::size_t(1));
        for (ImportanceMeasure m : {ImportanceMeasure::ErrorChange, ImportanceMeasure::MarginChange}) {
            Rng rng(5);
            const std::vector<double> I = sensitivityImportance(*tree, d, 100, m, rng);
            for (int f = 0; f < d.features(); ++f) QCOMPARE(I[static_cast<std::size_t>(f)], f == used[0] ? 1.0 : 0.0);
        }
    }

    void deterministicForASeed() {
        const Dataset d = thresholdFunctionDataset(300, 16, 1);
        for (FeatureBoostVariant v : {FeatureBoostVariant::Hard, FeatureBoostVariant::SoftNoise, FeatureBoostVariant::SoftScale}) {
            FeatureBoostParams p;
            p.rounds = 5;
            p.variant = v;
            p.base.tree.maxDepth = 3;
            p.seed = 42;
            const FeatureBoostFit a = fitFeatureBoost(d, p), b = fitFeatureBoost(d, p);
            QVERIFY2(a.ok(), a.message.c_str());
            QCOMPARE(a.importance.rows(), Eigen::Index(5));
            QVERIFY(a.importance == b.importance);
            QVERIFY(a.distribution == b.distribution);
            QCOMPARE(a.removed, b.removed);
            QCOMPARE(classifierToJson(*a.model), classifierToJson(*b.model));
            p.seed = 43;
            const FeatureBoostFit c = fitFeatureBoost(d, p);
            if (v != FeatureBoostVariant::SoftScale)   // SoftScale with trees draws no random numbers
                QVERIFY(classifierToJson(*c.model) != classifierToJson(*a.model) || a.distribution != c.distribution);
        }
    }

    // Round 1 (D_1 uniform, clean data) on the threshold function: a tree relies on few features.
    // D_2 must put less mass on round 1's most important feature than D_1 did (1/n) and, for the
    // hard variant, round 2 must marginalise at least one feature, round 2's member must rely on
    // a different feature than round 1's, and the threshold must lie between h_1's error and chance.
    void distributionMovesAwayFromImportantFeatures() {
        const Dataset d = thresholdFunctionDataset(400, 16, 2);
        const int n = d.features();
        for (FeatureBoostVariant v : {FeatureBoostVariant::Hard, FeatureBoostVariant::SoftNoise, FeatureBoostVariant::SoftScale}) {
            FeatureBoostParams p;
            p.rounds = 6;
            p.variant = v;
            p.base.tree.maxDepth = 2;
            const FeatureBoostFit r = fitFeatureBoost(d, p);
            QVERIFY(r.ok());
            const int top = argmax(r.importance.row(0));
            QCOMPARE(r.importance(0, top), 1.0);
            QCOMPARE(r.distribution(0, top), 1.0 / n);
            QVERIFY2(r.distribution(1, top) < 0.5 / n, toString(v));
            QVERIFY(std::abs(r.distribution.row(1).sum() - 1.0) < 1e-12);
            QVERIFY2(argmax(r.importance.row(1)) != top, toString(v));
            if (v == FeatureBoostVariant::Hard) {
                QCOMPARE(r.removed[0], 0);
                for (int t = 1; t < 6; ++t) {
                    QVERIFY(r.removed[static_cast<std::size_t>(t)] >= 1 && r.removed[static_cast<std::size_t>(t)] <= n - 1);
                    QVERIFY(r.thresholds[static_cast<std::size_t>(t)] >= 0.0 && r.thresholds[static_cast<std::size_t>(t)] <= 0.75);
                }
                // Later rounds aim at a higher marginalised error, so they remove at least as much
                // (up to sampling noise in the estimate).
                QVERIFY(r.removed[5] >= r.removed[1]);
            }
            // The ensemble still fits the noise-free threshold function.
            QVERIFY2(r.trainingError < 0.05, qPrintable(QString("%1: %2").arg(toString(v)).arg(r.trainingError)));
        }
    }

    void cancelReturnsRoundsDone() {
        const Dataset d = thresholdFunctionDataset(200, 16, 4);
        std::stop_source src;
        RunControl rc;
        rc.stop = src.get_token();
        int calls = 0;
        rc.onProgress = [&](const Progress&) {
            if (++calls == 2) src.request_stop();
        };
        FeatureBoostParams p;
        p.rounds = 8;
        const FeatureBoostFit r = fitFeatureBoost(d, p, rc);
        QCOMPARE(r.status, Status::Cancelled);
        QVERIFY(r.model);
        QCOMPARE(r.importance.rows(), Eigen::Index(2));
    }

    void badParamsNameTheField() {
        const Dataset d = thresholdFunctionDataset(50, 8, 1);
        FeatureBoostParams p;
        p.thresholdFraction = 1.5;
        bool threw = false;
        try {
            fitFeatureBoost(d, p);
        } catch (const std::invalid_argument& e) {
            threw = std::string(e.what()).rfind("thresholdFraction", 0) == 0;
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestFeatureBoost)
#include "test_feature_boost.moc"
