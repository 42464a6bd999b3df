// A run's points and result join only the experiment they belong to (issue 25, item 15),
// offscreen. Opening a results or experiment file while a run is going abandons the run: none
// of its points or its final result reach the opened experiment's curves, the progress bar is
// reset, and Save writes the opened file's spec and points. (Points were grouped by learner id
// and level index only, so a running "SVM" landed in an opened file's "SVM" curve, and the old
// run's result replaced the opened one when it ended.) Opening data cancels the run as Cancel
// does: its finished points stay, with its own spec.

#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_spec.h"
#include "core/eval/results_io.h"
#include "ui/main_window.h"
#include "ui/plots/curve_plot.h"
#include "small_spec.h"

#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

/// What the opened files hold: sonar, "SVM" (the running experiment's learner id too) at
/// levels 0, 5, 10, two repetitions.
ExperimentSpec sonarSpec() {
    ExperimentSpec s = smallSpec("sonar, saved", "sonar", {{"SVM", "svm", {{"C", 0.5}}, {}}}, "worst-case-count",
                                 {0, 5, 10}, 2);
    s.seed = 7;
    return s;
}

/// The run going on when the file is opened: the default MNIST experiment (whose first learner
/// is also "SVM") with 20 repetitions: 1280 points over some 20 s (the default's 3 repetitions
/// take about 6 s on one thread); its first points arrive within seconds.
ExperimentSpec longSpec() {
    ExperimentSpec s = MainWindow::defaultExperiment();
    s.repetitions = 20;
    return s;
}

QProgressBar* progressBar(MainWindow& w) { return w.statusBar()->findChild<QProgressBar*>(); }

/// A window running longSpec(); start() returns once its first point has arrived.
struct Running {
    MainWindow w;
    QSignalSpy points{&w, &MainWindow::pointAdded};
    QSignalSpy finished{&w, &MainWindow::runFinished};
    bool start() {
        w.setProperty("quietErrors", true);
        w.runSpec(longSpec());
        return points.wait(60000);
    }
};

}  // namespace

class TestRunOwnership : public QObject {
    Q_OBJECT
private slots:
    void openingResultsAbandonsTheRun() {
        QTemporaryDir dir;
        const QString file = dir.filePath("sonar-results.json");
        const ExperimentResult saved = runExperiment(sonarSpec());
        QCOMPARE(saved.points.size(), std::size_t(6));
        saveResultsJson(saved, file.toStdString());

        Running run;
        QVERIFY(run.start());
        MainWindow& w = run.w;
        QSignalSpy& points = run.points;
        QSignalSpy& finished = run.finished;
        QVERIFY(w.isRunning());
        QVERIFY(!progressBar(w)->isHidden());

        QVERIFY(w.openExperiment(file));
        QVERIFY(!w.isRunning());
        QVERIFY(progressBar(w)->isHidden());
        QCOMPARE(progressBar(w)->value(), 0);
        points.clear();
        // Long enough for the old run to deliver more points (before the fix they joined the
        // opened file's "SVM" curve).
        QTest::qWait(4000);
        QCOMPARE(points.count(), 0);
        QCOMPARE(finished.count(), 0);
        QVERIFY(progressBar(w)->isHidden());

        // The curves, the result and what Save writes are the file's.
        comparePoints(w.curvePlot()->points(), saved.points);
        QVERIFY(w.lastResult());
        QCOMPARE(w.lastResult()->spec.name, std::string("sonar, saved"));
        comparePoints(w.lastResult()->points, saved.points);
        const QString again = dir.filePath("saved-again.json");
        QVERIFY(w.saveExperiment(again));
        const ExperimentResult reread = loadResultsJson(again.toStdString());
        QCOMPARE(reread.spec.name, std::string("sonar, saved"));
        QCOMPARE(reread.spec.dataset.bundled, std::string("sonar"));
        QCOMPARE(reread.spec.seed, std::uint64_t(7));
        comparePoints(reread.points, saved.points);
        QCOMPARE(reread.summary.size(), saved.summary.size());
        for (std::size_t k = 0; k < saved.summary.size(); ++k)
            QCOMPARE(reread.summary[k].error.mean, saved.summary[k].error.mean);

        // A new run afterwards works and owns the curves again.
        w.runSpec(smallSpec("small", "heart_scale", {{"SVM", "svm", {{"C", 1.0}}, {}}, {"LogReg", "logreg", {{"C", 1.0}}, {}}},
                            "random-deletion", {0, 4}, 1));
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.lastResult()->points.size(), std::size_t(4));
        QCOMPARE(w.curvePlot()->points().size(), std::size_t(4));
    }

    void openingAnExperimentRunsOnlyIt() {
        QTemporaryDir dir;
        const QString file = dir.filePath("sonar-experiment.json");
        saveExperimentFile(sonarSpec(), file.toStdString());
        const ExperimentResult direct = runExperiment(sonarSpec());

        Running run;
        QVERIFY(run.start());
        MainWindow& w = run.w;
        QSignalSpy& points = run.points;
        QSignalSpy& finished = run.finished;
        points.clear();
        QVERIFY(w.openExperiment(file));   // runs the opened experiment
        QVERIFY(finished.wait(60000));
        QTest::qWait(1000);   // nothing of the old run follows
        QCOMPARE(finished.count(), 1);
        const ExperimentResult r = finished.at(0).at(0).value<ExperimentResult>();
        QCOMPARE(r.spec.name, std::string("sonar, saved"));
        QCOMPARE(points.count(), 6);
        for (const QList<QVariant>& args : std::as_const(points))
            QCOMPARE(args.at(0).value<CurvePoint>().learner, std::string("SVM"));
        comparePoints(w.curvePlot()->points(), direct.points);
        comparePoints(w.lastResult()->points, direct.points);
        QVERIFY(progressBar(w)->isHidden());
    }

    void openingDataCancelsTheRun() {
        Running run;
        MainWindow& w = run.w;
        QSignalSpy& finished = run.finished;
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QVERIFY(run.start());
        w.openSource("bundled:sonar");
        QVERIFY(finished.wait(5000));
        const ExperimentResult r = finished.at(0).at(0).value<ExperimentResult>();
        // (QVERIFY: QCOMPARE would hand core's static toString(Status) text to Qt Test, which frees it.)
        QVERIFY2(r.status == Status::Cancelled, toString(r.status));
        QCOMPARE(r.spec.name, longSpec().name);   // its points, with its own spec
        QVERIFY(!r.points.empty());
        QVERIFY(r.points.size() < std::size_t(4 * 16 * 20));
        QVERIFY(!w.isRunning());
        QVERIFY(progressBar(w)->isHidden());
        QVERIFY(shown.count() == 1 || shown.wait(30000));
        QCOMPARE(w.currentDataset()->name, std::string("sonar"));
    }
};

QTEST_MAIN(TestRunOwnership)
#include "test_run_ownership.moc"
