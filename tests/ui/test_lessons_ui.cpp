// The lesson dock (offscreen): walking lesson (a) with Next and Back, the progress reads "Step k
// of n", each step's tab is shown, the observation the dock displays is exactly the text core
// computes from the same run (observeStep), steps that keep the experiment do not run it again,
// a run the student starts does not replace the lesson's numbers; Help > Lessons opens the dock;
// closing the dock drops the curves a step kept, opening it brings them back;
// the start page's "Don't show again" and FDLAB_NO_START_PAGE.

#include "core/teach/lesson.h"
#include "core/teach/lesson_runner.h"
#include "ui/experiment_controller.h"
#include "ui/lessons/controller_lesson_host.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/lessons/add_lessons.h"
#include "ui/lessons/start_page.h"
#include "ui/main_window.h"
#include "ui/plots/curve_plot.h"
#include "ui/plots/heatmap_view.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <qcustomplot.h>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

// Waits for the dock's observation; returns its text ("" on failure or time-out).
QString waitForObservation(LessonDock& dock, QSignalSpy& shown, QSignalSpy& failed, int ms = 120000) {
    QElapsedTimer t;
    t.start();
    while (shown.isEmpty() && failed.isEmpty() && t.elapsed() < ms) QTest::qWait(20);
    if (!failed.isEmpty()) qWarning("observation failed: %s", qPrintable(failed.takeFirst().at(0).toString()));
    const QString text = shown.isEmpty() ? QString() : shown.takeFirst().at(0).toString();
    (void)dock;
    return text;
}

QString currentTab(MainWindow& w) { return w.tabs()->tabText(w.tabs()->currentIndex()).remove('&'); }

LessonDock* quietLessonDock(MainWindow& w) {
    w.setProperty("quietErrors", true);
    return addLessons(w);
}

// A window with the Lessons dock and one lesson opened at a step (0-based), with spies on the
// dock's observations and the window's runs.
struct LessonWindow {
    LessonWindow(const char* lesson, int step)
        : dock(quietLessonDock(w)), shown(dock, &LessonDock::observationShown), failed(dock, &LessonDock::observationFailed),
          runs(&w, &MainWindow::runStarted) {
        started = dock->startLesson(QString(lesson), step);
    }
    QString observation() { return waitForObservation(*dock, shown, failed); }

    MainWindow w;
    LessonDock* dock;
    QSignalSpy shown, failed, runs;
    bool started = false;
};

}  // namespace

class TestLessonsUi : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("FDLabTest");
        QCoreApplication::setApplicationName("test_lessons_ui");
        QSettings().clear();
    }

    void walkLessonA() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        LessonDock* dock = addLessons(w);
        QVERIFY(dock->lessons().size() >= 8);
        QDockWidget* holder = lessonsDockWidget(w);
        QVERIFY(holder && !holder->isVisible());
        w.show();
        // Help > Lessons opens the dock.
        QAction* help = w.findChild<QAction*>("helpLessons");
        QVERIFY(help);
        help->trigger();
        QVERIFY(holder->isVisible());

        const Lesson lesson = loadLessonFile(lessonsDir() + "/a-linear-classifier.json");
        QSignalSpy shown(dock, &LessonDock::observationShown), failed(dock, &LessonDock::observationFailed);
        QSignalSpy runs(&w, &MainWindow::runStarted);
        QVERIFY(dock->startLesson(QString("a-linear-classifier")));
        auto* next = dock->findChild<QPushButton*>("lessonNext");
        auto* back = dock->findChild<QPushButton*>("lessonBack");
        QVERIFY(next && back);

        // Every step: the displayed observation is core's, computed from the window's run.
        auto check = [&](int step) {
            const QString text = waitForObservation(*dock, shown, failed);
            QVERIFY2(!text.isEmpty(), qPrintable(QString("step %1: no observation").arg(step + 1)));
            QCOMPARE(dock->step(), step);
            QCOMPARE(dock->progressText(), QString("Step %1 of %2").arg(step + 1).arg(lesson.steps.size()));
            QVERIFY(w.lastResult());
            const Observation core = observeStep(lesson, step, *w.lastResult());
            QCOMPARE(text, QString::fromStdString(core.text));
            QVERIFY(dock->observationText().contains(QString::fromStdString(core.text).toHtmlEscaped()));
            QVERIFY(core.claimHolds);
            QVERIFY(dock->observationText().contains("claim holds"));
            const std::string& tab = lesson.steps[static_cast<std::size_t>(step)].view.tab;
            const QString want = tab == "heatmaps" ? "Heatmaps" : tab == "curves" ? "Curves" : currentTab(w);
            QCOMPARE(currentTab(w), want);
        };
        check(0);
        QVERIFY(!back->isEnabled());
        for (int s = 1; s < static_cast<int>(lesson.steps.size()); ++s) {
            QTest::mouseClick(next, Qt::LeftButton);
            check(s);
        }
        QCOMPARE(next->text(), QString("Next lesson >"));
        QTest::mouseClick(back, Qt::LeftButton);
        check(static_cast<int>(lesson.steps.size()) - 2);
        QTest::mouseClick(back, Qt::LeftButton);
        check(static_cast<int>(lesson.steps.size()) - 3);
        // Lesson (a) keeps one experiment: one run for all its steps, Back included.
        QCOMPARE(runs.count(), 1);

        // A run the student starts (other levels) does not change the lesson's numbers: the
        // next step's observation still comes from the lesson's experiment, and the views show
        // that experiment again (review: they kept the student's levels {0, 1} beside an
        // observation about K = 10), run once more.
        const ExperimentResult lessonRun = *w.lastResult();
        ExperimentSpec other = lessonRun.spec;
        other.levels = {0, 1};
        QSignalSpy finished(&w, &MainWindow::runFinished);
        w.runSpec(other);
        QVERIFY(finished.wait(60000));
        QTest::mouseClick(next, Qt::LeftButton);
        const QString text = waitForObservation(*dock, shown, failed);
        QCOMPARE(text, QString::fromStdString(observeStep(lesson, dock->step(), lessonRun).text));
        QVERIFY(w.lastResult());
        QCOMPARE(w.lastResult()->spec.levels, lessonRun.spec.levels);
        QCOMPARE(runs.count(), 3);
    }

    void aRunOfOtherClassesIsNotTheStepsRun() {
        // Review: the dock's "same experiment" check compared learners, threat and levels only,
        // so after the student ran the lesson's spec on 3 vs 8 the next step kept showing those
        // curves and heatmaps beside an observation about 3 vs 5. Now the step runs again.
        MainWindow w;
        w.setProperty("quietErrors", true);
        LessonDock* dock = addLessons(w);
        const Lesson lesson = loadLessonFile(lessonsDir() + "/a-linear-classifier.json");
        QSignalSpy shown(dock, &LessonDock::observationShown), failed(dock, &LessonDock::observationFailed);
        QSignalSpy runs(&w, &MainWindow::runStarted);
        QVERIFY(dock->startLesson(QString("a-linear-classifier")));
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());
        QVERIFY(w.lastResult());
        const ExperimentResult lessonRun = *w.lastResult();
        QCOMPARE(lessonRun.spec.task.negative, std::vector<std::string>{"5"});
        ExperimentSpec other = lessonRun.spec;
        other.task.negative = {"8"};
        QSignalSpy finished(&w, &MainWindow::runFinished);
        w.runSpec(other);
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.lastResult()->spec.task.negative, std::vector<std::string>{"8"});
        dock->next();
        const QString text = waitForObservation(*dock, shown, failed);
        QCOMPARE(text, QString::fromStdString(observeStep(lesson, 1, lessonRun).text));
        QCOMPARE(runs.count(), 3);
        QCOMPARE(w.lastResult()->spec.task.negative, std::vector<std::string>{"5"});
    }

    void aTwoSidedRunIsNotTheSpammersStepRun() {
        // Review: sameExperiment compared the threat's name only, so after the student ran
        // lesson (d)'s spec with every class attacked (or other prices, other threat
        // parameters), Next kept those curves beside an observation about the one-sided spammer.
        MainWindow w;
        w.setProperty("quietErrors", true);
        LessonDock* dock = addLessons(w);
        const Lesson lesson = loadLessonFile(lessonsDir() + "/d-the-spammer-deletes-words.json");
        QSignalSpy shown(dock, &LessonDock::observationShown), failed(dock, &LessonDock::observationFailed);
        QSignalSpy runs(&w, &MainWindow::runStarted);
        QVERIFY(dock->startLesson(QString("d-the-spammer-deletes-words")));
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());   // the window's run is the step's
        QVERIFY(w.lastResult());
        const ExperimentResult lessonRun = *w.lastResult();
        QCOMPARE(lessonRun.spec.attackedClasses, std::vector<std::string>{"spam"});
        QVERIFY(sameExperiment(lessonRun.spec, lesson.steps[0].experiment));
        ExperimentSpec twoSided = lessonRun.spec;
        twoSided.attackedClasses.clear();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        w.runSpec(twoSided);
        QVERIFY(finished.wait(120000));
        QVERIFY(w.lastResult()->spec.attackedClasses.empty());
        dock->next();
        const QString text = waitForObservation(*dock, shown, failed);
        QCOMPARE(text, QString::fromStdString(observeStep(lesson, 1, lessonRun).text));
        QCOMPARE(runs.count(), 3);
        QCOMPARE(w.lastResult()->spec.attackedClasses, std::vector<std::string>{"spam"});
    }

    void stepWithNewExperimentRunsIt() {
        // Lesson (b) step 2 changes the threat: Next starts a second run, and Back to step 1
        // runs step 1's experiment again (the window now shows step 2's).
        MainWindow w;
        w.setProperty("quietErrors", true);
        LessonDock* dock = addLessons(w);
        QSignalSpy shown(dock, &LessonDock::observationShown), failed(dock, &LessonDock::observationFailed);
        QSignalSpy runs(&w, &MainWindow::runStarted);
        QVERIFY(dock->startLesson(QString("b-random-versus-worst-case")));
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());
        QCOMPARE(w.lastResult()->spec.attack.threat, std::string("random-deletion"));
        const std::vector<CurvePoint> step1 = w.lastResult()->points;
        dock->next();
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());
        QCOMPARE(w.lastResult()->spec.attack.threat, std::string("worst-case-count"));
        QCOMPARE(runs.count(), 2);
        // Step 1's curve stays on the Curves tab, dashed, beside step 2's (the student compared
        // them by pressing Back): the SVM's four random-deletion levels, as "SVM (step 1: random-deletion)".
        auto* curves = w.findChild<CurvePlot*>();
        QVERIFY(curves);
        QCOMPARE(curves->keptCurveCount(), 1);
        QCOMPARE(curves->keptPointCount(0), 4);
        const QCPGraph* kept = nullptr;
        for (int g = 0; g < curves->plot()->graphCount(); ++g)
            if (curves->plot()->graph(g)->name() == "SVM (step 1: random-deletion)") kept = curves->plot()->graph(g);
        QVERIFY(kept);
        // Its points are step 1's errors (one repetition: the points themselves), level by level.
        QCOMPARE(step1.size(), std::size_t(4));
        for (const CurvePoint& p : step1) {
            const auto it = kept->data()->findBegin(p.level, false);
            QVERIFY(it != kept->data()->constEnd() && it->key == p.level);
            QCOMPARE(it->value, p.error);
        }
        // Closing the dock ends the lesson's comparison: the kept curve goes; opening it again
        // (Help > Lessons) brings it back.
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QDockWidget* holder = lessonsDockWidget(w);
        QVERIFY(holder);
        holder->show();
        QCOMPARE(curves->keptCurveCount(), 1);
        // Tabbed with the Algorithms dock and behind it, the lesson is still open: kept.
        auto* algorithms = w.findChild<QDockWidget*>("algorithmsDock");
        QVERIFY(algorithms);
        w.tabifyDockWidget(algorithms, holder);
        algorithms->raise();
        QTest::qWait(50);
        QVERIFY(!holder->isHidden());
        QCOMPARE(curves->keptCurveCount(), 1);
        holder->raise();
        holder->close();
        QCOMPARE(curves->keptCurveCount(), 0);
        holder->show();
        QCOMPARE(curves->keptCurveCount(), 1);
        // Curves the student kept are theirs: closing the dock leaves them, and opening it again
        // does not lay the lesson's over them.
        curves->keepButton()->click();   // drops the lesson's
        curves->keepButton()->click();   // keeps step 2's run as the student's own
        QCOMPARE(curves->keptLabel(), QString("kept"));
        holder->close();
        QCOMPARE(curves->keptLabel(), QString("kept"));
        holder->show();
        QCOMPARE(curves->keptLabel(), QString("kept"));
        curves->keepButton()->click();   // dropped: the next step keeps the lesson's again
        QCOMPARE(curves->keptCurveCount(), 0);
        dock->next();   // step 3 keeps step 2's experiment, and step 1's curve with it
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());
        QCOMPARE(curves->keptCurveCount(), 1);
        dock->back();
        dock->back();
        QVERIFY(!waitForObservation(*dock, shown, failed).isEmpty());
        QCOMPARE(w.lastResult()->spec.attack.threat, std::string("random-deletion"));
        QCOMPARE(runs.count(), 3);
        QCOMPARE(curves->keptCurveCount(), 0);   // step 1 has no earlier experiment
    }

    void openedAtAStepThatComparesRunsTheEarlierExperimentFirst() {
        // Lesson b opened at step 2 (--lesson-step 2, a teacher's jump): the step's text speaks of
        // step 1's dashed curve, which was not there since step 1 never ran. Step 1's experiment
        // runs first on the dock's own worker, then step 2's as the window's run, with step 1's
        // curve kept beside it.
        LessonWindow l("b-random-versus-worst-case", 1);
        QVERIFY(l.started);
        QVERIFY(!l.observation().isEmpty());
        QCOMPARE(l.runs.count(), 1);
        QCOMPARE(l.w.lastResult()->spec.attack.threat, std::string("worst-case-count"));
        auto* curves = l.w.findChild<CurvePlot*>();
        QVERIFY(curves);
        QCOMPARE(curves->keptCurveCount(), 1);
        QCOMPARE(curves->keptLabel(), QString("step 1: random-deletion"));
        QCOMPARE(curves->keptPointCount(0), 4);
        // The observation is step 2's own, on step 2's run.
        const Lesson lesson = loadLessonFile(lessonsDir() + "/b-random-versus-worst-case.json");
        QCOMPARE(l.dock->observation()->text, observeStep(lesson, 1, *l.w.lastResult()).text);
        l.dock->next();   // step 3 keeps the experiment: no run
        QVERIFY(!l.observation().isEmpty());
        QCOMPARE(l.runs.count(), 1);
        QCOMPARE(curves->keptCurveCount(), 1);
    }

    void openedAtALaterStepShowsTheStepsOwnView() {
        // Lesson e opened at step 3 (prices): step 1's experiment runs first for the comparison;
        // the Heatmaps tab then shows step 3's budget N = 3 and instance 6, which its observation
        // speaks of (run as a window run, step 1's heatmaps took them and N = 2, instance 1 stayed).
        LessonWindow l("e-features-with-prices", 2);
        QSignalSpy ready(&l.w, &MainWindow::heatmapsReady);   // the runs deliver through the event loop
        QVERIFY(l.started);
        QVERIFY(!l.observation().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 120000);
        auto* view = static_cast<HeatmapView*>(l.w.heatmapView());
        QTRY_COMPARE_WITH_TIMEOUT(view->instance(), 6, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(view->budget(), 3.0, 20000);
    }

    void curvesOnAnotherAxisAreNotRunNorKept() {
        // Lesson f step 3 (worst case, K) after step 1 (random blankout, p): step 1's curves
        // cannot be drawn on K's axis, so opening step 3 does not run step 1 for them (it did,
        // and the Curves tab offered "Drop kept curves" with none drawn).
        LessonWindow l("f-noise-you-expect", 2);
        QVERIFY(l.started);
        QVERIFY(l.dock->observationText().contains("Running this step's experiment"));   // not step 1's first
        QVERIFY(!l.observation().isEmpty());
        auto* curves = l.w.findChild<CurvePlot*>();
        QVERIFY(curves);
        QCOMPARE(curves->keptCurveCount(), 0);
        QCOMPARE(curves->keptLabel(), QString());
    }

    void throughTheStateCommand() {
        // The dock over ExperimentController::apply (the application's one state command): each
        // step becomes one StateChange; the observation shown is core's on the controller's run.
        ExperimentController controller(MainWindow::defaultExperiment());
        ControllerLessonHost host(&controller);
        LessonDock dock(&host, listLessons());
        QSignalSpy shown(&dock, &LessonDock::observationShown), failed(&dock, &LessonDock::observationFailed);
        QSignalSpy tabs(&controller, &ExperimentController::tabRequested);
        QSignalSpy runs(&controller, &ExperimentController::runStarted);
        const Lesson lesson = loadLessonFile(lessonsDir() + "/c-fdrop-spreads-its-weight.json");
        QVERIFY(dock.startLesson(QString("c-fdrop-spreads-its-weight")));
        for (int step = 0; step < 3; ++step) {
            if (step > 0) dock.next();
            const QString text = waitForObservation(dock, shown, failed);
            QVERIFY(controller.lastResult());
            QCOMPARE(text, QString::fromStdString(observeStep(lesson, step, *controller.lastResult()).text));
            QVERIFY(!tabs.isEmpty());
            QCOMPARE(tabs.last().at(0).toString(), QString::fromStdString(lesson.steps[static_cast<std::size_t>(step)].view.tab));
        }
        QCOMPARE(runs.count(), 1);
    }

    void startPageDontShowAgain() {
        qunsetenv("FDLAB_NO_START_PAGE");
        QSettings().remove("startPage/show");
        QVERIFY(StartPage::wanted());
        const std::vector<Lesson> lessons = listLessons();
        {
            StartPage page(lessons);
            QSignalSpy chosen(&page, &StartPage::lessonChosen);
            auto* b = page.findChild<QPushButton*>(QString("startLesson_%1").arg(QString::fromStdString(lessons[2].id)));
            QVERIFY(b);
            QVERIFY(!page.dontShowAgain()->isChecked());
            b->click();
            QCOMPARE(chosen.count(), 1);
            QCOMPARE(chosen.at(0).at(0).toInt(), 2);
        }
        QVERIFY(StartPage::wanted());   // closed without the box: shown again next time
        {
            StartPage page(lessons);
            page.dontShowAgain()->setChecked(true);
            page.reject();
        }
        QVERIFY(!StartPage::wanted());
        QSettings().remove("startPage/show");
        qputenv("FDLAB_NO_START_PAGE", "1");
        QVERIFY(!StartPage::wanted());
        qunsetenv("FDLAB_NO_START_PAGE");
        QVERIFY(StartPage::wanted());
    }
};

QTEST_MAIN(TestLessonsUi)
#include "test_lessons_ui.moc"
