// JobRunner (ui/workers/job_runner.h): results come back on the GUI thread; a newer job
// supersedes the running one (its stop is requested, what it delivers is dropped) and skips the
// pending ones; cancel() stops but still delivers; errors, throttled progress and partial results
// in order; the destructor stops a running job instead of waiting for it to finish on its own.

#include "ui/workers/job_runner.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

/// Waits (up to 10 s) until the stop is requested; returns how long that took in ms.
int waitForStop(const JobContext& c) {
    QElapsedTimer t;
    t.start();
    while (!c.cancelled() && t.elapsed() < 10000) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return static_cast<int>(t.elapsed());
}

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    void resultOnTheGuiThread() {
        JobRunner r("test-jobs");
        QThread* jobThread = nullptr;
        QThread* doneThread = nullptr;
        int result = 0;
        const quint64 id = r.run(
            [&](const JobContext&) {
                jobThread = QThread::currentThread();
                return 6 * 7;
            },
            [&](int v) {
                doneThread = QThread::currentThread();
                result = v;
            });
        QCOMPARE(id, quint64(1));
        QCOMPARE(r.currentId(), quint64(1));
        QVERIFY(r.busy());
        QTRY_COMPARE(result, 42);
        QVERIFY(!r.busy());
        QCOMPARE(doneThread, QThread::currentThread());
        QVERIFY(jobThread && jobThread != QThread::currentThread());
        QCOMPARE(jobThread->objectName(), QString("test-jobs"));
    }

    void newerJobSupersedes() {
        JobRunner r("test-jobs");
        std::atomic<bool> firstStarted{false}, release{false}, firstStopped{false}, secondRan{false};
        std::vector<int> delivered;
        r.run(
            [&](const JobContext& c) {
                firstStarted = true;
                while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                firstStopped = c.cancelled();
                return 1;
            },
            [&](int v) { delivered.push_back(v); });
        QTRY_VERIFY(firstStarted.load());
        // Second is queued behind the first and superseded by the third before it starts.
        r.run(
            [&](const JobContext&) {
                secondRan = true;
                return 2;
            },
            [&](int v) { delivered.push_back(v); });
        const quint64 third = r.run([](const JobContext& c) { return c.cancelled() ? -3 : 3; },
                                    [&](int v) { delivered.push_back(v); });
        QCOMPARE(third, quint64(3));
        release = true;
        QTRY_COMPARE(delivered, std::vector<int>{3});
        QTest::qWait(50);   // nothing else arrives
        QCOMPARE(delivered, std::vector<int>{3});
        QVERIFY(!secondRan.load());
        QVERIFY(firstStopped.load());   // its stop was requested
    }

    void cancelStillDelivers() {
        JobRunner r("test-jobs");
        std::atomic<bool> started{false};
        QString result;
        r.run(
            [&](const JobContext& c) {
                started = true;
                waitForStop(c);
                return QString(c.cancelled() ? "cancelled" : "finished");
            },
            [&](QString s) { result = s; });
        QTRY_VERIFY(started.load());
        r.cancel();
        QTRY_COMPARE(result, QString("cancelled"));
        QVERIFY(!r.busy());
    }

    void discardDropsTheResult() {
        JobRunner r("test-jobs");
        std::atomic<bool> started{false}, finished{false};
        bool delivered = false;
        r.run(
            [&](const JobContext& c) {
                started = true;
                waitForStop(c);
                finished = true;
                return 0;
            },
            [&](int) { delivered = true; });
        QTRY_VERIFY(started.load());
        r.discard();
        QVERIFY(!r.busy());
        QTRY_VERIFY(finished.load());
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    void errorsArriveAsMessages() {
        JobRunner r("test-jobs");
        QString error;
        bool done = false;
        r.run([](const JobContext&) -> int { throw std::invalid_argument("C: must be > 0, got -1"); },
              [&](int) { done = true; }, [&](const QString& e) { error = e; });
        QTRY_COMPARE(error, QString("C: must be > 0, got -1"));
        QVERIFY(!done);
        QVERIFY(!r.busy());
    }

    void progressIsThrottledAndPostsArriveInOrder() {
        JobRunner r("test-jobs");
        std::vector<double> fractions;
        std::vector<int> posted;
        int result = -1;
        // Throttled (50 ms): a thousand fast reports deliver a handful.
        r.run(
            [&posted](const JobContext& c) {
                for (int i = 0; i < 1000; ++i) {
                    c.control().report(i / 1000.0, i);
                    if (i % 100 == 0) c.post([i, &posted] { posted.push_back(i); });
                }
                return 1000;
            },
            [&](int v) { result = v; }, {}, [&](const Progress& p) { fractions.push_back(p.fraction); });
        QTRY_COMPARE(result, 1000);
        QVERIFY(!fractions.empty() && fractions.size() < 20);
        QCOMPARE(fractions.front(), 0.0);
        QCOMPARE(posted, (std::vector<int>{0, 100, 200, 300, 400, 500, 600, 700, 800, 900}));   // all, in order, before done
        // Unthrottled: every report.
        fractions.clear();
        result = -1;
        r.setProgressInterval(0);
        r.run(
            [](const JobContext& c) {
                for (int i = 0; i < 1000; ++i) c.control().report(i / 1000.0, i, "step");
                return 1;
            },
            [&](int v) { result = v; }, {}, [&](const Progress& p) { fractions.push_back(p.fraction); });
        QTRY_COMPARE(result, 1);
        QCOMPARE(fractions.size(), std::size_t(1000));
        QCOMPARE(fractions[999], 0.999);
    }

    void destructorStopsTheRunningJob() {
        std::atomic<bool> started{false};
        std::atomic<int> waited{-1};
        QElapsedTimer t;
        {
            JobRunner r("test-jobs");
            r.run(
                [&](const JobContext& c) {
                    started = true;
                    waited = waitForStop(c);
                    return 0;
                },
                [](int) {});
            QTRY_VERIFY(started.load());
            t.start();
        }
        QVERIFY(t.elapsed() < 5000 * FDLAB_TEST_TIME_SCALE);
        QVERIFY(waited.load() >= 0 && waited.load() < 5000 * FDLAB_TEST_TIME_SCALE);
    }
};

QTEST_MAIN(TestJobRunner)
#include "test_job_runner.moc"
