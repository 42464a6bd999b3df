// The Label noise tab (offscreen): what it draws equals the scene core computes for the same
// settings (flipped points, support vectors, decision values, boundary), changing the flip kind
// recomputes, a bad setting shows core's error, and the loaded data is offered when it has two
// classes. With FDLAB_SCREENSHOT_DIR set, also grabs the tab (biggio-2d adversarial, Sonar random,
// loaded MNIST 3 vs 5 adversarial) to PNGs for a look.

#include "core/data/bundled.h"
#include "core/data/task.h"
#include "core/eval/label_noise_scene.h"
#include "ui/plots/label_noise_view.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name) {
    for (int k = 0; k < plot->graphCount(); ++k)
        if (plot->graph(k)->name() == name) return plot->graph(k);
    return nullptr;
}

QCPColorMap* colorMap(QCustomPlot* plot) {
    for (int k = 0; k < plot->plottableCount(); ++k)
        if (auto* m = qobject_cast<QCPColorMap*>(plot->plottable(k))) return m;
    return nullptr;
}

QCPCurve* curve(QCustomPlot* plot) {
    for (int k = 0; k < plot->plottableCount(); ++k)
        if (auto* c = qobject_cast<QCPCurve*>(plot->plottable(k))) return c;
    return nullptr;
}

}  // namespace

class TestLabelNoiseView : public QObject {
    Q_OBJECT
private slots:
    void drawsTheCoreScene() {
        LabelNoiseView view;
        view.resize(1100, 600);
        view.show();
        LabelNoiseSceneParams p;   // linear, C = 1, 10 adversarial flips, mu = 0.5
        p.seed = 1;
        view.setSettings("biggio-2d", p);
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.statusText().contains("10 adversarial flips"), 30000);
        // reference: the same scene computed here
        const LabelNoiseScene ref = computeLabelNoiseScene(loadBundled("biggio-2d"), view.params());
        const LabelNoiseScene& s = *view.scene();
        QCOMPARE(s.flipped, ref.flipped);
        for (int k = 0; k < 2; ++k) {
            const SvmPanelResult& r = k == 0 ? ref.svm : ref.robust;
            QCustomPlot* plot = view.plot(k);
            QCOMPARE(graphNamed(plot, "flipped")->dataCount(), 10);
            QCOMPARE(graphNamed(plot, "SV")->dataCount(), static_cast<int>(r.supportVectors.size()));
            QCOMPARE(graphNamed(plot, "+1")->dataCount() + graphNamed(plot, "-1")->dataCount(), 100);
            // a flipped point is drawn at its 2-D position, with its tainted label
            const int f = ref.flipped.front();
            const QCPGraph* side = graphNamed(plot, ref.y[static_cast<std::size_t>(f)] > 0 ? "+1" : "-1");
            bool found = false;
            for (auto it = side->data()->constBegin(); it != side->data()->constEnd(); ++it)
                found = found || (it->key == ref.points(f, 0) && it->value == ref.points(f, 1));
            QVERIFY(found);
            // background = core's grid, boundary = core's contour (3 curve points per segment)
            QCPColorMap* map = colorMap(plot);
            QVERIFY(map);
            QCOMPARE(map->data()->keySize(), r.grid.nu);
            QCOMPARE(map->data()->cell(7, 11), r.grid.at(7, 11));
            QCOMPARE(curve(plot)->dataCount(), static_cast<int>(3 * r.boundary.size()));
            QVERIFY(!r.boundary.empty());
        }
        // no flips: nothing ringed in green
        view.findChild<QComboBox*>("labelNoiseFlipKind")->setCurrentIndex(2);
        QTRY_VERIFY_WITH_TIMEOUT(view.statusText().contains("no flips"), 30000);
        QCOMPARE(graphNamed(view.plot(0), "flipped")->dataCount(), 0);
        // too many flips for the data: core's error, naming the field
        QSignalSpy failed(&view, &LabelNoiseView::sceneFailed);
        view.findChild<QComboBox*>("labelNoiseFlipKind")->setCurrentIndex(1);
        view.findChild<QSpinBox*>("labelNoiseFlips")->setValue(150);
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() > 0, 30000);
        QVERIFY2(view.statusText().contains("flips"), qPrintable(view.statusText()));
    }

    /// The loaded data (two classes, e.g. a task's class pair) is offered first as
    /// "loaded: NAME" and computed from the data given, not from a bundled name; data without
    /// exactly two classes removes the entry and the tab falls back to a bundled set.
    void offersTheLoadedData() {
        LabelNoiseView view;
        view.resize(1100, 600);
        view.show();
        auto* box = view.findChild<QComboBox*>("labelNoiseDataset");
        const int bundled = box->count();
        Dataset pair = binaryView(loadBundled("mnist"), {"3"}, {"5"});
        pair.name = "mnist (3 vs 5)";
        const int rows = pair.rows();
        view.setLoadedData(std::make_shared<Dataset>(std::move(pair)));
        QCOMPARE(box->count(), bundled + 1);
        QCOMPARE(box->itemText(0), QString("loaded: mnist (3 vs 5)"));
        LabelNoiseSceneParams p;
        p.flipKind = FlipKind::Random;
        p.flips = 20;
        view.setSettings("loaded: mnist (3 vs 5)", p);
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.scene()->data.features() == 784, 60000 * FDLAB_TEST_TIME_SCALE);
        QVERIFY(rows > 400);
        QCOMPARE(view.scene()->data.rows(), 400);   // thinned to maxRows
        QCOMPARE(static_cast<int>(view.scene()->flipped.size()), 20);
        // three classes: the entry goes, and a bundled set is shown instead
        view.setLoadedData(std::make_shared<Dataset>(loadBundled("mnist")));
        QCOMPARE(box->count(), bundled);
        QVERIFY(!view.hasLoadedData());
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.scene()->data.features() != 784, 60000);
    }

    void screenshots() {
        const QByteArray dir = qgetenv("FDLAB_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("set FDLAB_SCREENSHOT_DIR to write PNGs");
        LabelNoiseView view;
        view.resize(1200, 640);
        view.show();
        LabelNoiseSceneParams p;
        view.setSettings("biggio-2d", p);
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.statusText().contains("adversarial"), 30000);
        QTest::qWait(200);
        QVERIFY(view.grab().save(QString::fromUtf8(dir) + "/label_noise_2d.png"));
        p.flipKind = FlipKind::Random;
        p.flips = 25;
        p.svm.kernel = SvmKernel::Rbf;
        p.svm.gamma = 0.05;
        p.svm.C = 10;
        view.setSettings("sonar", p);
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.statusText().contains("random") && view.scene()->data.features() == 60, 60000);
        QTest::qWait(200);
        QVERIFY(view.grab().save(QString::fromUtf8(dir) + "/label_noise_sonar.png"));
        Dataset pair = binaryView(loadBundled("mnist"), {"3"}, {"5"});
        pair.name = "mnist (3 vs 5)";
        view.setLoadedData(std::make_shared<Dataset>(std::move(pair)));
        p = LabelNoiseSceneParams{};
        p.flips = 40;
        view.setSettings("loaded: mnist (3 vs 5)", p);
        QTRY_VERIFY_WITH_TIMEOUT(view.scene() && view.scene()->data.features() == 784 && view.statusText().contains("adversarial"), 120000);
        QTest::qWait(200);
        QVERIFY(view.grab().save(QString::fromUtf8(dir) + "/label_noise_mnist.png"));
    }
};

QTEST_MAIN(TestLabelNoiseView)
#include "test_label_noise_view.moc"
