// Timings of the spammer's view on the bundled SpamAssassin corpus (24,677 words), the GUI as a
// user drives it (offscreen): opening the preset resources/presets/spam-fdrop-worst-case.json
// until the dataset is shown and until the first curve point is drawn (target 5 s), switching
// messages in the Heatmaps tab (target 100 ms) and moving the budget slider (target 50 ms), each
// from the call to the redrawn view. A 5 ms timer on the GUI thread measures the longest stall
// of the event loop meanwhile. Times are printed; the assertions are 10x the targets, so that a
// loaded machine does not fail them, while a freeze still does.
// presetLoadStall opens resources/presets/spam-fdrop-value-budget.json in a 1200x800 window and
// asserts the longest stall (target 50 ms) below 200 ms, printing the stalls over 20 ms with
// their time, so that a regression can be attributed. Measured on the 2-core dev machine: 50-74
// ms before the Data tab's table became a model and the Algorithms panel built its forms
// lazily, 44 ms with the table alone, 21-33 ms with both.

#include "ui/main_window.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/message_view.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

/// The longest gap between ticks of a 5 ms timer: how long the GUI thread did not answer. Gaps
/// over 20 ms are kept with the time they ended (ms since the meter started), to tell which
/// step of a load they belong to.
class StallMeter : public QObject {
public:
    StallMeter() {
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 gap = m_since.restart();
            m_worst = std::max(m_worst, gap);
            if (gap > 20) m_long << QStringLiteral("%1 ms at %2 ms").arg(gap).arg(m_clock.elapsed());
        });
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.start(5);
        m_since.start();
        m_clock.start();
    }
    qint64 takeWorst() {
        const qint64 w = std::max(m_worst, m_since.elapsed());
        m_worst = 0;
        m_since.restart();
        return w;
    }
    /// The gaps over 20 ms since the last call, e.g. "61 ms at 1520 ms; 24 ms at 1800 ms".
    QString takeLong() {
        const QString s = m_long.join(QStringLiteral("; "));
        m_long.clear();
        return s.isEmpty() ? QStringLiteral("none") : s;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_since, m_clock;
    qint64 m_worst = 0;
    QStringList m_long;
};

}  // namespace

class TestSpamTimings : public QObject {
    Q_OBJECT
private slots:
    // Opening the value-budget preset: the dataset (24,677 words) reaches the Data tab, the
    // Importance editor, the Attack panel and the Label noise tab on the GUI thread, the run
    // starts on a worker. The longest stall from openExperiment to the first curve point.
    void presetLoadStall() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QSignalSpy point(&w, &MainWindow::pointAdded);
        QTest::qWait(100);
        StallMeter stall;
        QElapsedTimer t;
        t.start();
        QVERIFY(w.openExperiment(QStringLiteral(FDLAB_TEST_DATA "/../../resources/presets/spam-fdrop-value-budget.json")));
        const qint64 open = t.elapsed();
        QVERIFY(shown.count() > 0 || shown.wait(60000));
        const qint64 loaded = t.elapsed();
        QTest::qWait(300);   // the views lay out and paint what they were given
        const qint64 loadStall = stall.takeWorst();
        const QString loadLong = stall.takeLong();
        QVERIFY(point.count() > 0 || point.wait(120000));
        const qint64 firstPoint = t.elapsed();
        const qint64 runStall = stall.takeWorst();
        qInfo("open value-budget preset: openExperiment returned after %lld ms, dataset shown after %lld ms, first "
              "curve point after %lld ms (target 5000)",
              open, loaded, firstPoint);
        qInfo("longest GUI stall: %lld ms while loading (gaps > 20 ms: %s), %lld ms until the first point (%s); target 50",
              std::max(open, loadStall), qPrintable(loadLong), runStall, qPrintable(stall.takeLong()));
        // 4x the 50 ms target: a loaded CI machine stays below it, while filling a widget per
        // word (the 24,677-row tables) does not. Sanitizer builds scale every bound by
        // FDLAB_TEST_TIME_SCALE (10): CI's ASan stage measured a 229 ms load stall here.
        QVERIFY2(std::max(open, loadStall) < 200 * FDLAB_TEST_TIME_SCALE, qPrintable(QString("load stall %1 ms").arg(std::max(open, loadStall))));
        QVERIFY2(runStall < 200 * FDLAB_TEST_TIME_SCALE, qPrintable(QString("run stall %1 ms").arg(runStall)));
        w.cancelRun();
    }

    void presetSwitchAndSlider() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QSignalSpy point(&w, &MainWindow::pointAdded);
        QSignalSpy ready(&w, &MainWindow::heatmapsReady);
        StallMeter stall;
        QElapsedTimer t;
        t.start();
        QVERIFY(w.openExperiment(QStringLiteral(FDLAB_TEST_DATA "/../../resources/presets/spam-fdrop-worst-case.json")));
        QVERIFY(shown.count() > 0 || shown.wait(60000));
        const qint64 loaded = t.elapsed();
        QVERIFY(point.count() > 0 || point.wait(120000));
        const qint64 firstPoint = t.elapsed();
        const qint64 runStall = stall.takeWorst();
        qInfo("open preset: dataset shown after %lld ms, first curve point after %lld ms (target 5000); "
              "longest GUI stall %lld ms",
              loaded, firstPoint, runStall);
        QVERIFY(ready.count() > 0 || ready.wait(300000));

        auto* view = w.findChild<HeatmapView*>();
        QVERIFY(view && view->textLayout());
        w.tabs()->setCurrentWidget(w.heatmapView());
        // The view for the instance and budget the tab shows when it is drawn: read afresh while
        // waiting, since the run may still move them after heatmapsReady (a budget read once
        // before the wait was never drawn in about 1 of 4 ctest runs).
        const bool drawn = QTest::qWaitFor(
            [&] {
                const InstanceView& c = view->currentView();
                return c.instance >= 0 && c.instance == view->instance() && std::abs(c.level - view->budget()) < 1e-9;
            },
            60000);
        QVERIFY2(drawn, qPrintable(QString("view of instance %1 at %2; the tab shows instance %3 at %4")
                                       .arg(view->currentView().instance)
                                       .arg(view->currentView().level)
                                       .arg(view->instance())
                                       .arg(view->budget())));
        QTest::qWait(200);
        stall.takeWorst();

        // Switching messages: the next five instances, each from setInstance to the redrawn view.
        QSignalSpy updated(view, &HeatmapView::viewUpdated);
        auto timeUntilDrawn = [&](auto&& change) {
            updated.clear();
            QElapsedTimer c;
            c.start();
            change();
            if (updated.isEmpty() && !updated.wait(20000)) return qint64(-1);
            return c.elapsed();
        };
        QList<qint64> switches, slides;
        const int start = view->instance();
        const int m = view->instanceSpin()->maximum() + 1;
        for (int k = 1; k <= 5; ++k) switches << timeUntilDrawn([&] { view->setInstance((start + k) % m); });
        const qint64 switchStall = stall.takeWorst();
        // The budget slider: five steps up from the current budget.
        const double b0 = view->budget();
        for (int k = 1; k <= 5; ++k) slides << timeUntilDrawn([&] { view->setBudget(b0 + 2 * k); });
        const qint64 slideStall = stall.takeWorst();
        auto list = [](const QList<qint64>& v) {
            QStringList s;
            for (qint64 x : v) s << QString::number(x);
            return s.join(' ');
        };
        qInfo("switch message: %s ms (target 100), longest GUI stall %lld ms", qPrintable(list(switches)), switchStall);
        qInfo("budget slider: %s ms (target 50), longest GUI stall %lld ms", qPrintable(list(slides)), slideStall);

        QVERIFY2(firstPoint < 50000 * FDLAB_TEST_TIME_SCALE, qPrintable(QString("first point after %1 ms").arg(firstPoint)));
        for (qint64 s : switches) QVERIFY2(s >= 0 && s < 1000 * FDLAB_TEST_TIME_SCALE, qPrintable(list(switches)));
        for (qint64 s : slides) QVERIFY2(s >= 0 && s < 500 * FDLAB_TEST_TIME_SCALE, qPrintable(list(slides)));
        QVERIFY(view->messageView()->view(0) != nullptr);
    }
};

QTEST_MAIN(TestSpamTimings)
#include "test_spam_timings.moc"
