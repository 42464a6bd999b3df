// Every bundled dataset runs from the GUI (issue 25, item 11), offscreen: a dataset clicked in the
// Dataset panel gets a task whose classes are ticked items (heart_scale's "+1" stays "+1"; the
// panel split class lists on '+' and ',' so "+1" became "1"), and a split the data can fill, and
// the experiment the Run button builds runs without an error. Class names with ", " and "+"
// survive the pickers; core's task messages name the task, not a function.

#include "core/data/bundled.h"
#include "core/data/task.h"
#include "ui/main_window.h"
#include "ui/panels/algorithms_panel.h"
#include "ui/panels/class_picker.h"
#include "ui/panels/dataset_panel.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

using Names = std::vector<std::string>;

/// Clicks `source`'s row of the Dataset panel's list, as a user picks a dataset.
bool clickDataset(MainWindow& w, const QString& source) {
    QListWidget* list = w.datasetPanel()->list();
    for (int r = 0; r < list->count(); ++r) {
        QListWidgetItem* item = list->item(r);
        if (item->data(Qt::UserRole).toString() != source) continue;
        list->scrollToItem(item);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
        return true;
    }
    return false;
}

/// Clicks row `row` of the picker's open popup.
void clickRow(ClassPicker& p, int row) {
    QAbstractItemView* v = p.view();
    QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, v->visualRect(v->model()->index(row, 0)).center());
}

/// The experiment Run would build, made short: one SVM, levels 0 and 1, one repetition. The
/// dataset, task, split and preprocessing are the panels'.
ExperimentSpec shortRun(const MainWindow& w) {
    ExperimentSpec s = w.buildSpec();
    s.learners = {{"SVM", "svm", {{"C", 1.0}}, {}}};
    s.attack.threat = "random-deletion";
    s.attack.params = nlohmann::json::object();
    s.levels = {0, 1};
    s.repetitions = 1;
    s.tunePerLevel = false;
    return s;
}

}  // namespace

class TestBundledTasks : public QObject {
    Q_OBJECT
private slots:
    void heartScaleKeepsPlusOne() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.show();
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QVERIFY(clickDataset(w, "bundled:heart_scale"));
        QVERIFY(shown.wait(60000));
        QCOMPARE(w.currentDataset()->classNames, (Names{"-1", "+1"}));
        QCOMPARE(w.datasetPanel()->positivePicker()->checkedNames(), Names{"-1"});
        QCOMPARE(w.datasetPanel()->negativePicker()->checkedNames(), Names{"+1"});
        QCOMPARE(w.datasetPanel()->negativePicker()->displayText(), QString("+1"));
        // MNIST's 50 + 100 + 150 per class do not fit 120 patients: the split turned to fractions,
        // and the panel says why.
        auto* note = w.datasetPanel()->findChild<QLabel*>("splitNote");
        QVERIFY(note && !note->isHidden());
        QVERIFY2(note->text().contains("class '-1' has 150 instances") && note->text().contains("300"),
                 qPrintable(note->text()));

        const ExperimentSpec spec = w.buildSpec();
        QCOMPARE(spec.task.positive, Names{"-1"});
        QCOMPARE(spec.task.negative, Names{"+1"});
        QVERIFY(spec.split.kind == SplitSpec::Kind::Fraction);
        const Dataset task = applyTask(*w.currentDataset(), spec.task);
        QCOMPARE(task.rows(), 270);
        QCOMPARE(task.classCounts(), (std::vector<int>{120, 150}));   // negative +1, positive -1

        QSignalSpy done(&w, &MainWindow::runFinished);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        w.runSpec(shortRun(w));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(w.lastResult()->points.size(), std::size_t(2));
    }

    void everyBundledDatasetRunsItsDefaultTask() {
        // One window, the datasets clicked one after another as a user would.
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.show();
        QSignalSpy errors(&w, &MainWindow::errorShown);
        int ran = 0;
        Names prevClasses;
        for (const BundledInfo& info : bundledDatasets()) {
            const QString source = QString::fromStdString("bundled:" + info.name);
            QSignalSpy shown(&w, &MainWindow::datasetShown);
            QVERIFY(clickDataset(w, source));
            QVERIFY2(shown.wait(120000), info.name.c_str());
            QCOMPARE(shown.at(0).at(0).toString(), source);

            const ExperimentSpec spec = w.buildSpec();
            QCOMPARE(spec.dataset.bundled, info.name);
            const Dataset& data = *w.currentDataset();
            // The task Run builds is made of the data's own classes (MNIST keeps the default 3 vs
            // 5; the others, whose classes differ from the previous data's, take their first two).
            QVERIFY(spec.task.kind == TaskSpec::Kind::Binary);
            if (info.name == "mnist") {
                QCOMPARE(spec.task.positive, Names{"3"});
                QCOMPARE(spec.task.negative, Names{"5"});
            } else if (prevClasses != data.classNames) {
                QCOMPARE(spec.task.positive, Names{data.classNames.at(0)});
                QCOMPARE(spec.task.negative, Names{data.classNames.at(1)});
            }
            prevClasses = data.classNames;
            try {
                const Dataset task = applyTask(data, spec.task);
                QVERIFY(task.rows() > 0);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString::fromStdString(info.name + ": " + e.what())));
            }

            QSignalSpy done(&w, &MainWindow::runFinished);
            QSignalSpy failed(&w, &MainWindow::runFailed);
            w.runSpec(shortRun(w));
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 120000);
            QVERIFY2(failed.isEmpty(),
                     failed.isEmpty() ? "" : qPrintable(QString::fromStdString(info.name) + ": " +
                                                        failed.at(0).at(0).toString()));
            const ExperimentResult& r = *w.lastResult();
            QVERIFY2(r.status == Status::Converged, toString(r.status));
            QCOMPARE(r.points.size(), std::size_t(2));
            for (const CurvePoint& p : r.points)
                QVERIFY2(std::isfinite(p.error) && p.error >= 0 && p.error <= 1, info.name.c_str());
            ++ran;
        }
        QCOMPARE(ran, static_cast<int>(bundledDatasets().size()));
        QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.at(0).at(0).toString()));
    }

    void classNamesWithSeparatorsSurvive() {
        // Names with the old separators, ticked by clicks in the popup.
        const Names names{"a, b", "x+y", "+1", "-1"};
        DatasetPanel d;
        d.show();
        d.setClassNames(names);
        ClassPicker& pos = *d.positivePicker();
        ClassPicker& neg = *d.negativePicker();
        QCOMPARE(pos.checkedNames(), Names{"a, b"});
        QCOMPARE(neg.checkedNames(), Names{"x+y"});
        pos.showPopup();
        QVERIFY(QTest::qWaitForWindowExposed(pos.view()->window()));
        clickRow(pos, 1);   // "x+y" joins the positive side and leaves the negative one
        clickRow(pos, 2);   // "+1"
        QVERIFY(pos.view()->isVisible());   // the popup stays open for more ticks
        pos.hidePopup();
        QCOMPARE(pos.checkedNames(), (Names{"a, b", "x+y", "+1"}));
        QCOMPARE(neg.checkedNames(), Names{});
        neg.setNameChecked("-1", true);
        ExperimentSpec out;
        d.applyTo(out);
        QCOMPARE(out.task.positive, (Names{"a, b", "x+y", "+1"}));
        QCOMPARE(out.task.negative, Names{"-1"});
        // Ticking it again unticks it.
        pos.showPopup();
        clickRow(pos, 0);
        pos.hidePopup();
        QCOMPARE(pos.checkedNames(), (Names{"x+y", "+1"}));

        // A spec's classes come back exactly, in their order, also before the data is loaded.
        ExperimentSpec spec;
        spec.task.kind = TaskSpec::Kind::Binary;
        spec.task.positive = {"+1", "a, b"};
        spec.task.negative = {"new, class"};
        DatasetPanel e;
        e.setFromSpec(spec);
        ExperimentSpec back;
        e.applyTo(back);
        QCOMPARE(back.task.positive, (Names{"+1", "a, b"}));
        QCOMPARE(back.task.negative, Names{"new, class"});

        // One class against the rest takes one class: a tick replaces the other.
        spec.task.kind = TaskSpec::Kind::OneVsRest;
        spec.task.positive = {"+1"};
        e.setFromSpec(spec);
        e.positivePicker()->setNameChecked("a, b", true);
        e.applyTo(back);
        QCOMPARE(back.task.positive, Names{"a, b"});
        QVERIFY(back.task.negative.empty());
    }

    void taskErrorsNameTheTaskNotAFunction() {
        // What the GUI shows when a spec names a class the data lacks.
        MainWindow w;
        w.setProperty("quietErrors", true);
        ExperimentSpec s = MainWindow::defaultExperiment();
        s.dataset.bundled = "heart_scale";
        s.task.positive = {"1"};
        s.task.negative = {"-1"};
        s.split.kind = SplitSpec::Kind::Fraction;
        s.learners.resize(1);
        s.levels = {0};
        s.repetitions = 1;
        QSignalSpy failed(&w, &MainWindow::runFailed);
        w.runSpec(s);
        QVERIFY(failed.wait(60000));
        const QString msg = failed.at(0).at(0).toString();
        QVERIFY2(msg.contains("task 1 vs -1: unknown class '1' (classes: -1, +1)"), qPrintable(msg));
        QVERIFY2(!msg.contains("binaryView") && !msg.contains("applyTask"), qPrintable(msg));
        const Dataset d = loadBundled("heart_scale");
        try {
            oneVsRest(d, "2");
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()), QString("task 2 vs rest: unknown class '2' (classes: -1, +1)"));
        }
    }
};

QTEST_MAIN(TestBundledTasks)
#include "test_bundled_tasks.moc"
