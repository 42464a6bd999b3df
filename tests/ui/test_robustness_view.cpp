// The Robustness tab (ui/plots/robustness_view.h), offscreen: it follows the Heatmaps tab's
// context, computes on its worker thread the needs of the hand-made 4x4 images (tiny_images.h; by
// hand: A needs 0, 3, 3, never; B 0, 0, 10, never), and a click on a point opens that instance in
// the Heatmaps tab. Many instances are drawn as a 2-D histogram.

#include "core/eval/level_evaluation.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/robustness_view.h"
#include "tiny_fixtures.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

using namespace fdlab;
using namespace fdlab::ui;

using testing::imageModels;
using testing::worstCaseCount;

namespace {

// The Heatmaps tab and the Robustness tab following it, at 1280x720.
struct TwoTabs {
    QTabWidget tabs;
    HeatmapView* heatmaps = new HeatmapView;   // owned by tabs
    RobustnessView* map = nullptr;
    TwoTabs() {
        tabs.addTab(heatmaps, "Heatmaps");
        map = addRobustnessTab(&tabs, heatmaps);
        tabs.resize(1280, 720);
        tabs.show();
    }
    /// Computes the tiny images' map under worst-case-count attacking `classes` (empty: every
    /// class) at K = 3; false when it does not arrive.
    bool computeAttacking(std::vector<int> classes) {
        AttackSpec attack = worstCaseCount();
        attack.attackedClasses = std::move(classes);
        heatmaps->setContext(testing::tinyImages(), imageModels(), attack, 3);
        QSignalSpy ready(map, &RobustnessView::mapReady);
        map->compute();
        return ready.wait(20000);
    }
};

}  // namespace

class TestRobustnessView : public QObject {
    Q_OBJECT
private slots:
    void sparedClassIsNamedNotCountedAsNeverFlipped() {
        // Review: on the spam pair the map said "Never flipped: SVM 1269", counting ham the
        // one-sided spammer never attacks. Attacking "pos" only, the tiny images' one "neg"
        // instance (correct clean, so need +inf) is named as not attacked, not as never flipped.
        TwoTabs t;
        RobustnessView* r = t.map;
        QVERIFY(t.computeAttacking({1}));
        const QString text = r->summaryLabel()->text();
        QVERIFY2(text.contains("Never flipped: A 0, B 0."), qPrintable(text));
        QVERIFY2(text.contains("<b>Not attacked:</b> 1 neg (the threat attacks pos only)"), qPrintable(text));
        QVERIFY2(text.contains("A gets 0 of them wrong, B 0."), qPrintable(text));
        // Instances 0-2 are attacked: A needs 0, 3, 3 and B 0, 0, 10: below, above and on it one each.
        QVERIFY2(text.contains("<b>Below the diagonal</b> (1 instances)") && text.contains("<b>above</b> (1)") &&
                     text.contains("on it: 1."), qPrintable(text));
    }

    // Review (helper-44): a spared instance the learner gets wrong has need 0 and sat in the
    // need-0 bar, while the axis says spared ones are in the last bar. Attacking "neg" only,
    // instances 0-2 are spared (instance 0 wrong for both) and instance 3 is never flipped: one
    // bar of 4 per learner.
    void sparedInstancesAreInTheLastHistogramBar() {
        TwoTabs t;
        QVERIFY(t.computeAttacking({0}));
        int histograms = 0;
        for (QCustomPlot* plot : t.map->findChildren<QCustomPlot*>())
            for (int k = 0; k < plot->plottableCount(); ++k) {
                auto* bars = qobject_cast<QCPBars*>(plot->plottable(k));
                if (!bars) continue;
                ++histograms;
                QCOMPARE(bars->data()->size(), 1);
                QCOMPARE(bars->data()->constBegin()->value, 4.0);
            }
        QCOMPARE(histograms, 2);
    }

    void sparedInstancesAreDrawnApart() {
        // Review: the scatter drew the instances a one-sided threat spares (ham, when only spam is
        // attacked) like attacked ones, sitting at "never" as if the learners resisted there.
        // Attacking "pos" only: instances 0-2 are attacked points, instance 3 ("neg") a hollow
        // grey point, named "not attacked" in the legend, and a click on it still opens it.
        TwoTabs t;
        RobustnessView* r = t.map;
        HeatmapView* heatmaps = t.heatmaps;
        QTabWidget& tabs = t.tabs;
        tabs.setCurrentWidget(r);
        QVERIFY(t.computeAttacking({1}));
        QCOMPARE(r->attackedPoints()->data()->size(), 3);
        QCOMPARE(r->sparedPoints()->data()->size(), 1);
        for (int k = 0; k < 3; ++k) QCOMPARE(r->instanceAtPoint(k), k);
        QCOMPARE(r->instanceAtSparedPoint(0), 3);
        QCOMPARE(r->instanceAtPoint(3), -1);
        // Hollow and grey against filled blue.
        const QCPScatterStyle spared = r->sparedPoints()->scatterStyle(), attacked = r->attackedPoints()->scatterStyle();
        QCOMPARE(spared.brush().style(), Qt::NoBrush);
        QVERIFY(attacked.brush().style() != Qt::NoBrush);
        QCOMPARE(spared.pen().color().saturation(), 0);
        QVERIFY(attacked.pen().color().saturation() > 100);
        // The legend names both, and only them.
        QCustomPlot* p = r->scatterPlot();
        QVERIFY(p->legend->visible());
        QStringList names;
        for (int k = 0; k < p->legend->itemCount(); ++k)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(p->legend->item(k))) names << item->plottable()->name();
        QCOMPARE(names, (QStringList{"not attacked", "attacked"}));
        QVERIFY2(r->summaryLabel()->text().contains("hollow grey points"), qPrintable(r->summaryLabel()->text()));
        if (const QByteArray dir = qgetenv("FDLAB_SCREENSHOT_DIR"); !dir.isEmpty())   // to look at, not a check
            for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
                tabs.resize(size);
                QTest::qWait(100);
                r->grab().save(QString("%1/robustness-spared-%2.png").arg(QString::fromUtf8(dir)).arg(size.width()));
            }
        tabs.resize(1280, 720);
        QTest::qWait(50);
        // Instance 3 is correct clean for both: at "never" in both directions; a click opens it.
        p->replot();
        const auto at3 = r->sparedPoints()->data()->at(0);
        QTest::mouseClick(p, Qt::LeftButton, {}, QPoint(static_cast<int>(p->xAxis->coordToPixel(at3->key)),
                                                         static_cast<int>(p->yAxis->coordToPixel(at3->value))));
        QCOMPARE(heatmaps->instance(), 3);
        // Both classes attacked: no spared points, no legend.
        QVERIFY(t.computeAttacking({}));
        QCOMPARE(r->attackedPoints()->data()->size(), 4);
        QCOMPARE(r->sparedPoints()->data()->size(), 0);
        QVERIFY(!p->legend->visible());
    }

    void mapOfTheTinyImagesOpensAnInstance() {
        QTabWidget tabs;
        auto* heatmaps = new HeatmapView;
        tabs.addTab(heatmaps, "Heatmaps");
        RobustnessView* r = addRobustnessTab(&tabs, heatmaps);
        QCOMPARE(r->objectName(), QString("robustness"));
        tabs.resize(1280, 720);
        tabs.show();
        heatmaps->setContext(testing::tinyImages(), imageModels(), worstCaseCount(), 3);
        tabs.setCurrentWidget(r);
        QSignalSpy ready(r, &RobustnessView::mapReady);
        r->compute();
        QVERIFY(ready.wait(20000));
        const double inf = std::numeric_limits<double>::infinity();
        QCOMPARE(r->map()->needA, (std::vector<double>{0, 3, 3, inf}));
        QCOMPARE(r->map()->needB, (std::vector<double>{0, 0, 10, inf}));
        QVERIFY(!r->showsHistogram2d());
        QVERIFY2(r->summaryLabel()->text().contains("Never flipped: A 1, B 1"), qPrintable(r->summaryLabel()->text()));
        // Click on instance 2's point.
        QCustomPlot* p = r->scatterPlot();
        p->replot();
        auto* curve = qobject_cast<QCPCurve*>(p->plottable(p->plottableCount() - 1));
        QVERIFY(curve);
        QCOMPARE(r->instanceAtPoint(2), 2);
        const QPoint at(static_cast<int>(p->xAxis->coordToPixel(curve->data()->at(2)->key)),
                        static_cast<int>(p->yAxis->coordToPixel(curve->data()->at(2)->value)));
        QTest::mouseClick(p, Qt::LeftButton, {}, at);
        QCOMPARE(heatmaps->instance(), 2);
        QCOMPARE(tabs.currentWidget(), static_cast<QWidget*>(heatmaps));
        // A new context clears the map.
        heatmaps->clear();
        QVERIFY(!r->map());
    }

    void saysWhenTheCurveIsAnotherAdversary() {
        // Review: under the greedy value adversary (all four value presets) or random deletion
        // the curve is not the exact adversary the map measures, and the map's fractions differ
        // from the curve's errors without a word. Greedy by price ratio on x = (1, 1, 1),
        // w = (3, 2, 2), b = -3.5, prices (2, 1.5, 1.5), N = 3: the greedy takes feature 0 (ratio
        // 1.5; margin 0.5) and nothing else fits; the exact adversary takes 1 and 2 (margin -0.5).
        auto one = std::make_shared<Dataset>();
        one->X = Dataset::Matrix::Ones(1, 3);
        one->labels = {1};
        one->classNames = {"neg", "pos"};
        one->fillDefaults();
        one->importance = {2, 1.5, 1.5};
        const TrainedModel t = testing::linearModel(Eigen::Vector3d(3, 2, 2), -3.5);
        AttackSpec greedy;
        greedy.threat = "worst-case-value-greedy";
        AttackSpec exact;
        exact.threat = "worst-case-value-exact";
        exact.params = {{"knapsack_scale", 2}};
        QCOMPARE(evaluateAtLevels(t, *one, greedy, {3.0}).at(0).error, 0.0);
        QCOMPARE(evaluateAtLevels(t, *one, exact, {3.0}).at(0).error, 1.0);
        for (const AttackSpec& attack : {greedy, exact}) {
            RobustnessView r;
            auto ctx = std::make_shared<InstanceViewContext>();
            ctx->test = one;
            ctx->models = {{"A", t}, {"B", t}};
            ctx->attack = attack;
            r.setContext(ctx);
            const bool other = attack.threat == "worst-case-value-greedy";
            QCOMPARE(r.summaryLabel()->text().contains("Not this experiment's curve"), other);
            if (other) QVERIFY(r.summaryLabel()->text().contains("Greedy adversary within a value budget N"));
        }
        // Random deletion (a count budget the map can compute): said after Compute too.
        RobustnessView r;
        auto ctx = std::make_shared<InstanceViewContext>();
        ctx->test = testing::tinyImages();
        auto [a, b] = testing::tinyModels();
        ctx->models = {{"A", std::move(a)}, {"B", std::move(b)}};
        ctx->attack = worstCaseCount();
        ctx->attack.threat = "random-deletion";
        r.setContext(ctx);
        QSignalSpy ready(&r, &RobustnessView::mapReady);
        r.compute();
        QVERIFY(ready.wait(20000));
        QVERIFY2(r.summaryLabel()->text().contains("Not this experiment's curve"), qPrintable(r.summaryLabel()->text()));
    }

    // Review (helper-43): with prices (a value budget) the histograms' bins were rounded up to
    // 1 unit, so prices of 0.5-2.5 gave three bars and instances already wrong (need 0) shared
    // the first bar with needs below 1. Now 30 bins over the range and need 0 a bar of its own
    // left of 0.
    void valueBudgetHistogramsHaveFineBins() {
        auto d = testing::tinyImages();
        auto priced = std::make_shared<Dataset>(*d);
        priced->importance.assign(16, 0.0);
        for (int j = 0; j < 16; ++j) priced->importance[static_cast<std::size_t>(j)] = 0.5 + 0.125 * j;
        RobustnessView r;
        auto ctx = std::make_shared<InstanceViewContext>();
        ctx->test = priced;
        auto [a, b] = testing::tinyModels();
        ctx->models = {{"A", std::move(a)}, {"B", std::move(b)}};
        ctx->attack.threat = "worst-case-value-exact";
        r.setContext(ctx);
        QSignalSpy ready(&r, &RobustnessView::mapReady);
        r.compute();
        QVERIFY(ready.wait(30000));
        int histograms = 0;
        for (QCustomPlot* plot : r.findChildren<QCustomPlot*>())
            for (int k = 0; k < plot->plottableCount(); ++k) {
                auto* bars = qobject_cast<QCPBars*>(plot->plottable(k));
                if (!bars) continue;
                ++histograms;
                QVERIFY2(bars->width() < 0.9, qPrintable(QString::number(bars->width())));
                bool zeroApart = false;
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    zeroApart |= it->key < 0.0;   // need 0: instance 0 is wrong for both (tiny_images.h)
                QVERIFY(zeroApart);
            }
        QCOMPARE(histograms, 2);
    }

    void manyInstancesAsAHistogram() {
        auto d = std::make_shared<Dataset>();
        d->X = Dataset::Matrix::Zero(RobustnessView::kScatterLimit + 1, 16);
        for (int i = 0; i < d->X.rows(); ++i) {
            for (int j = 0; j <= i % 16; ++j) d->X(i, j) = 1.0f;
            d->labels.push_back(1);
        }
        d->classNames = {"neg", "pos"};
        d->imageShape = ImageShape{4, 4};
        d->fillDefaults();
        RobustnessView r;
        auto ctx = std::make_shared<InstanceViewContext>();
        ctx->test = d;
        auto [a, b] = testing::tinyModels();
        ctx->models = {{"A", std::move(a)}, {"B", std::move(b)}};
        ctx->attack = worstCaseCount();
        r.setContext(ctx);
        QSignalSpy ready(&r, &RobustnessView::mapReady);
        r.compute();
        QVERIFY(ready.wait(30000));
        QVERIFY(r.showsHistogram2d());
        QCOMPARE(r.map()->done, RobustnessView::kScatterLimit + 1);
    }
};

QTEST_MAIN(TestRobustnessView)
#include "test_robustness_view.moc"
