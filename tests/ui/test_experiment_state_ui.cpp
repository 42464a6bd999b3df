// Every view follows the one experiment state (issue 26, items 5 and 6), offscreen: the curve
// title and legend follow the data and classes actually run; other data clears the heatmaps
// (and stops Play) instead of re-analysing them at the new data's budget; a label-flip preset
// leaves no message view of the previous experiment; the Attack panel's budget and the
// heatmap's agree; a 47-message corpus runs (its split adapted); the Importance panel shows the
// values the run uses; presets are grouped by paper; the docks fit 1280x720; presentation mode
// fits 1280x720 and Esc restores the window; in presentation mode the Heatmaps tab's MNIST
// images are at least 220 px at 1280x720 and 330 px at 1920x1080 (in the real window, with its
// 1.5x fonts; they were 168-190 px at 1280x720 with blank space below them).

#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_state.h"
#include "core/eval/presets.h"
#include "ui/experiment_controller.h"
#include "ui/main_window.h"
#include "ui/panels/attack_panel.h"
#include "ui/panels/class_picker.h"
#include "ui/panels/dataset_panel.h"
#include "ui/panels/importance_editor.h"
#include "ui/panels/run_progress.h"
#include "ui/plots/curve_plot.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/message_view.h"
#include "ui/plots/robustness_view.h"
#include "small_spec.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

QString curveTitle(MainWindow& w) { return w.curvePlot()->findChild<QLabel*>("curveTitle")->text(); }

QStringList legendNames(MainWindow& w) {
    QStringList names;
    QCustomPlot* p = w.curvePlot()->plot();
    for (int i = 0; i < p->graphCount(); ++i) names << p->graph(i)->name();
    return names;
}

HeatmapView* heatmaps(MainWindow& w) { return static_cast<HeatmapView*>(w.heatmapView()); }

/// MNIST 3 vs 5, SVM and FDROP, 20 training and 30 test digits per class, worst-case deletion.
ExperimentSpec smallMnist() {
    ExperimentSpec s = defaultExperiment();
    s.split.perClassTrain = 20;
    s.split.perClassValidation = 0;
    s.split.perClassTest = 30;
    s.learners = {{"SVM", "svm", nlohmann::json::object(), {}}, {"FDROP", "fdrop", {{"K", 10}}, {}}};
    s.attack.threat = "worst-case-count";
    s.levels = {0, 20, 40};
    s.tunePerLevel = false;
    s.repetitions = 1;
    return s;
}

/// A 47-message corpus: 23 "alpha" and 24 "beta" messages over a few words each.
QString writeCorpus(const QTemporaryDir& dir) {
    const QString path = dir.filePath("corpus47.csv");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write("text,label\n");
    const char* alphaWords[] = {"apple", "river", "green", "stone", "cloud"};
    const char* betaWords[] = {"money", "offer", "cheap", "click", "winner"};
    for (int i = 0; i < 47; ++i) {
        const bool alpha = i < 23;
        const char** w = alpha ? alphaWords : betaWords;
        f.write(QString("\"%1 %2 %3 common words here\",%4\n")
                    .arg(w[i % 5], w[(i + 1) % 5], w[(i + 3) % 5], alpha ? "alpha" : "beta")
                    .toUtf8());
    }
    return path;
}

/// An MNIST 3 vs 5 heatmap context (SVM and FDROP, worst-case deletion), as the controller sets
/// it after a run.
struct MnistContext {
    std::shared_ptr<const Dataset> test, train;
    std::vector<std::pair<QString, TrainedModel>> models;
    AttackSpec attack;
};
MnistContext mnistContext() {
    const ExperimentSpec spec = loadPresetOrFile("mnist-digit-pairs");
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    MnistContext c;
    c.models.emplace_back("SVM", trainLearner("svm", split.train, {{"C", 1}}));
    c.models.emplace_back("FDROP", trainLearner("fdrop", split.train, {{"C", 1}, {"K", 10}}));
    c.attack = resolvedAttack(spec, data.data);
    c.attack.threat = "worst-case-count";
    c.test = std::make_shared<const Dataset>(std::move(split.test));
    c.train = std::make_shared<const Dataset>(std::move(split.train));
    return c;
}

/// Why tab page `page` does not fit its place ("" when it does): a scroll area whose content is
/// taller than its viewport (or shows a vertical scroll bar), or a page whose minimum height is
/// more than it has.
QString overflow(QWidget* page) {
    if (auto* scroll = qobject_cast<QScrollArea*>(page)) {
        const int content = std::max(scroll->widget()->height(), scroll->widget()->minimumSizeHint().height());
        if (scroll->verticalScrollBar()->isVisible() || content > scroll->viewport()->height())
            return QString("content %1 px tall in a %2 px viewport").arg(content).arg(scroll->viewport()->height());
        return {};
    }
    if (page->minimumSizeHint().height() > page->height())
        return QString("needs %1 px, has %2 px").arg(page->minimumSizeHint().height()).arg(page->height());
    return {};
}

/// The window into $FDLAB_SCREENSHOT_DIR, when set.
void shoot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("FDLAB_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    w.grab().save(dir + "/" + name);
}

LoadOptions corpusOptions() {
    LoadOptions o;
    o.textColumn = "text";
    o.labelColumn = "label";
    o.minDocumentFrequency = 1;
    return o;
}

}  // namespace

class TestExperimentStateUi : public QObject {
    Q_OBJECT
private slots:
    void init() { QCoreApplication::setOrganizationName("FDLabTestState"); }

    void titleAndLegendFollowTheDataRun() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        const ExperimentSpec preset = loadPresetOrFile("dekel-shamir-label-copy");
        w.loadSpec(preset, false);
        QVERIFY(shown.wait(60000));
        QVERIFY(legendNames(w).join(",").contains("(paper)"));   // the preset has the paper's numbers
        // Other data chosen on its own, then Run: heart_scale's title, no paper markers.
        w.openSource("bundled:heart_scale");
        QVERIFY(shown.wait(60000));
        QSignalSpy started(&w, &MainWindow::runStarted);
        QVERIFY(w.runFromPanels());
        QCOMPARE(started.count(), 1);
        const QString title = curveTitle(w);
        QVERIFY2(title.contains("heart_scale") && !title.contains(QString::fromStdString(preset.name).toHtmlEscaped()), qPrintable(title));
        QVERIFY2(!legendNames(w).join(",").contains("(paper)"), qPrintable(legendNames(w).join(",")));
        w.cancelRun();
    }

    void otherClassesRetitleTheRun() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.loadSpec(loadPresetOrFile("mnist-digit-pairs"), false);
        QVERIFY(shown.wait(60000));
        QCOMPARE(w.buildSpec().name, loadPresetOrFile("mnist-digit-pairs").name);   // unchanged: the preset's title
        w.datasetPanel()->negativePicker()->setCheckedNames({"8"});
        const ExperimentSpec spec = w.buildSpec();
        QVERIFY2(spec.name.find("3 vs 8") != std::string::npos, spec.name.c_str());
        QVERIFY(spec.paper.is_null());
    }

    void aSmallCorpusRunsWithAnAdaptedSplit() {
        QTemporaryDir dir;
        const QString path = writeCorpus(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QSignalSpy errors(&w, &MainWindow::errorShown);
        w.openSource(path, corpusOptions());
        QVERIFY(shown.wait(60000));
        ExperimentSpec spec = w.buildSpec();
        QVERIFY(spec.split.kind == SplitSpec::Kind::Fraction);
        QVERIFY2(spec.name.find("corpus47") != std::string::npos && spec.name.find("MNIST") == std::string::npos,
                 spec.name.c_str());
        for (double l : spec.levels) QVERIFY(l <= w.currentDataset()->features());
        QSignalSpy done(&w, &MainWindow::runFinished);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        QVERIFY(w.runFromPanels());
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        for (const QList<QVariant>& e : errors) QVERIFY2(!e.at(0).toString().contains("splitBy"), qPrintable(e.at(0).toString()));
        QVERIFY(!w.lastResult()->points.empty());
    }

    void otherDataClearsTheHeatmapsAndStopsPlay() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy ready(&w, &MainWindow::heatmapsReady);
        w.loadSpec(smallMnist(), true);
        QVERIFY(ready.wait(120000));
        HeatmapView* view = heatmaps(w);
        QVERIFY(view->hasContext());
        // The one budget: the Attack panel's K and the heatmap's agree, also at K = n.
        QCOMPARE(view->budget(), w.attackPanel()->budget());
        w.attackPanel()->setBudget(784);
        QCOMPARE(w.attackPanel()->budget(), 784.0);
        QCOMPARE(view->budget(), 784.0);
        QCOMPARE(w.controller()->budget(), 784.0);
        view->budgetSlider()->setValue(100);   // and the other way round
        QCOMPARE(w.attackPanel()->budget(), 100.0);
        view->setPlaying(true);
        QVERIFY(view->playing());
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.openSource("bundled:spambase");
        // At once, not when spambase has arrived: the MNIST analysis is not re-run at spambase's budget.
        QVERIFY(!view->hasContext());
        QVERIFY(!view->playing());
        QVERIFY(shown.wait(60000));
        QVERIFY(!view->hasContext());
        QVERIFY(w.attackPanel()->budget() <= 57.0);
    }

    void aLabelFlipPresetLeavesNoMessageView() {
        QTemporaryDir dir;
        const QString path = writeCorpus(dir);
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.resize(1280, 720);
        w.show();
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.openSource(path, corpusOptions());
        QVERIFY(shown.wait(60000));
        ExperimentSpec spec = w.buildSpec();
        spec.learners = {{"SVM", "svm", nlohmann::json::object(), {}}, {"FDROP", "fdrop", {{"K", 2}}, {}}};
        spec.attack.threat = "worst-case-count";
        spec.levels = {0, 2};
        spec.repetitions = 1;
        spec.tunePerLevel = false;
        QSignalSpy ready(&w, &MainWindow::heatmapsReady);
        w.runSpec(spec);
        QVERIFY(ready.wait(120000));
        HeatmapView* view = heatmaps(w);
        QVERIFY(view->textLayout());
        w.tabs()->setCurrentIndex(1);
        QTRY_VERIFY_WITH_TIMEOUT(view->messageView()->isVisible(), 20000);
        w.loadSpec(loadPresetOrFile("sonar-random-flips"), false);
        QVERIFY(!view->hasContext());
        QVERIFY(!view->messageView()->isVisible());
    }

    void theImportancePanelShowsTheRunsValues() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        const ExperimentSpec preset = loadPresetOrFile("spambase-greedy-mi");
        QVERIFY(preset.importance.kind == ImportanceSpec::Kind::MutualInformation);
        w.loadSpec(preset, false);
        QTRY_VERIFY_WITH_TIMEOUT(w.currentDataset() && w.importanceEditor()->dataset() &&
                                     std::any_of(w.importanceEditor()->importance().begin(),
                                                 w.importanceEditor()->importance().end(),
                                                 [](double v) { return std::abs(v - 1.0) > 1e-9; }),
                                 60000);
        const std::vector<double> want = importanceOfRun(w.controller()->state().spec(), *w.currentDataset());
        const std::vector<double>& got = w.importanceEditor()->importance();
        QCOMPARE(got.size(), want.size());
        for (std::size_t j = 0; j < want.size(); ++j) QVERIFY(std::abs(got[j] - want[j]) <= 1e-12);
        QVERIFY2(!w.importanceEditor()->totalLabel()->text().contains("[1, 1]"),
                 qPrintable(w.importanceEditor()->totalLabel()->text()));
        // Shown, not edited: the run keeps its mutual-information spec (per repetition).
        QVERIFY(w.buildSpec().importance.kind == ImportanceSpec::Kind::MutualInformation);
    }

    void presetsAreGroupedByPaper() {
        MainWindow w;
        QMenu* presets = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->text().remove('&') == "Presets") presets = a->menu();
        QVERIFY(presets);
        QStringList groups;
        int entries = 0;
        for (QAction* a : presets->actions()) {
            if (!a->menu()) continue;
            groups << a->text();
            for (QAction* p : a->menu()->actions()) {
                ++entries;
                QVERIFY2(!p->toolTip().isEmpty() && p->toolTip() != p->text(), qPrintable(p->text()));
            }
        }
        QCOMPARE(groups, (QStringList{"Dekel & Shamir", "Globerson & Roweis", "van der Maaten et al. (MCF)",
                                      "Biggio et al.", "Sullivan et al. (FeatureBoost)"}));
        QCOMPARE(entries, static_cast<int>(listPresets().size()));
    }

    void theCommandInterfaceSetsTabsAndReportsUnknownOnes() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy errors(&w, &MainWindow::errorShown);
        StateChange c;
        c.tab = "data";
        w.controller()->apply(c);
        QCOMPARE(w.tabs()->currentIndex(), 2);
        c.tab = "label-noise";
        w.controller()->apply(c);
        QCOMPARE(w.tabs()->currentIndex(), 3);
        c.tab = "nonsense";
        w.controller()->apply(c);
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains("nonsense"));
    }

    void docksShowTheirFormsWithoutAHorizontalScrollbarAt1280x720() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(50);
        for (const char* name : {"algorithmsDock", "attackDock"}) {
            auto* dock = w.findChild<QDockWidget*>(name);
            QVERIFY(dock && dock->isVisible());
            auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
            QVERIFY(scroll);
            QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
                     qPrintable(QString("%1: content %2 px in %3 px").arg(name).arg(scroll->widget()->minimumSizeHint().width()).arg(scroll->viewport()->width())));
            // Nor inside: the learner list and the forms (review: the list scrolled sideways to
            // show "Dekel-Shamir online Perceptron  -  ds-perceptron").
            for (QAbstractScrollArea* inner : dock->findChildren<QAbstractScrollArea*>()) {
                if (!inner->isVisible()) continue;
                QVERIFY2(!inner->horizontalScrollBar()->isVisible(),
                         qPrintable(QString("%1: %2 %3 scrolls sideways").arg(name, inner->metaObject()->className(), inner->objectName())));
            }
        }
        // Every learner's entry is shown whole: its text fits its row (wrapped if need be).
        auto* list = w.findChild<QListWidget*>("algorithmsList");
        QVERIFY(list);
        for (int i = 0; i < list->count(); ++i) {
            QListWidgetItem* item = list->item(i);
            const QRect row = list->visualItemRect(item);
            // The check box and the item's margins take the row's left part.
            const int textWidth = row.width() - list->style()->pixelMetric(QStyle::PM_IndicatorWidth) - 12;
            const QRect need = list->fontMetrics().boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap, item->text());
            QVERIFY2(row.right() <= list->viewport()->width() && need.height() <= row.height(),
                     qPrintable(QString("'%1': row %2x%3, text needs %4x%5 in %6 px").arg(item->text()).arg(row.width()).arg(row.height())
                                    .arg(need.width()).arg(need.height()).arg(list->viewport()->width())));
        }
    }

    void presentationModeFits1280x720AndEscRestores() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QFont normal = w.font();
        const QSize size = w.size();
        w.setPresentation(true, false);
        QTest::qWait(50);
        QVERIFY(w.presentation());
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) QVERIFY2(!d->isVisible(), qPrintable(d->objectName()));
        QVERIFY(!w.tabs()->tabBar()->isVisible());
        QVERIFY(std::abs(w.font().pointSizeF() - 1.5 * normal.pointSizeF()) < 0.01);
        QVERIFY(std::abs(w.curvePlot()->plot()->xAxis->tickLabelFont().pointSizeF() - 1.5 * QApplication::font().pointSizeF()) < 0.01);
        QCOMPARE(w.size(), QSize(1280, 720));
        // No visible widget reaches beyond the window.
        const QRect inside = w.rect();
        for (QWidget* c : w.findChildren<QWidget*>()) {
            if (!c->isVisible() || c->isWindow()) continue;
            // The window's own tab bars of tabified docks stay "visible" while their docks are hidden.
            if (qobject_cast<QTabBar*>(c) && c->parentWidget() == &w) continue;
            const QRect r(c->mapTo(&w, QPoint(0, 0)), c->size());
            // Widgets inside a scroll area may extend its viewport; the viewport itself must fit.
            bool scrolled = false;
            for (QWidget* p = c->parentWidget(); p && p != &w; p = p->parentWidget())
                if (qobject_cast<QAbstractScrollArea*>(p)) scrolled = true;
            if (!scrolled) QVERIFY2(inside.contains(r), qPrintable(QString("%1 %2 at %3,%4 %5x%6").arg(c->metaObject()->className(), c->objectName()).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
        }
        QVERIFY(w.minimumSizeHint().width() <= 1280 && w.minimumSizeHint().height() <= 720);
        // Esc leaves it: docks, tab bar, fonts and size as before.
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presentation());
        QTest::qWait(50);
        QCOMPARE(w.font().pointSizeF(), normal.pointSizeF());
        for (const char* name : {"datasetDock", "algorithmsDock", "attackDock"})
            QVERIFY2(w.findChild<QDockWidget*>(name)->isVisible(), name);
        QVERIFY(w.tabs()->tabBar()->isVisible());
        QCOMPARE(w.size(), size);
    }

    void presentationHeatmapImagesFillTheScreen() {
        const MnistContext c = mnistContext();
        const auto& [test, train, models, attack] = c;
        for (const auto& [size, least] : {std::pair{QSize(1280, 720), 220}, std::pair{QSize(1920, 1080), 330}}) {
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            HeatmapView* view = heatmaps(w);
            w.tabs()->setCurrentIndex(1);
            view->setContext(test, models, attack, 30, train);
            view->setInstance(4);
            QTRY_VERIFY_WITH_TIMEOUT(view->currentView().instance == 4, 30000);
            const QString tag = QString("%1x%2").arg(size.width()).arg(size.height());
            QTest::qWait(300);
            qInfo("normal %s: heatmap image side %d px", qPrintable(tag), view->imageSide());
            shoot(w, "heatmaps-normal-" + tag + ".png");
            w.setPresentation(true, false);
            // (The plots lay themselves out over a few turns of the event loop.)
            QTRY_VERIFY2_WITH_TIMEOUT(view->imageSide() >= least, qPrintable(tag + ": " + QString::number(view->imageSide())), 3000);
            qInfo("presentation %s: heatmap image side %d px", qPrintable(tag), view->imageSide());
            shoot(w, "heatmaps-presentation-" + tag + ".png");
            // (That it fits without scrolling: presentationEveryTabFitsWithoutScrolling.)
            auto* scroll = qobject_cast<QScrollArea*>(w.tabs()->currentWidget());
            QVERIFY(scroll);
            qInfo("presentation %s: view %d px tall, viewport %d px", qPrintable(tag), view->height(), scroll->viewport()->height());
            w.setPresentation(false);
        }
    }

    void presentationEveryTabFitsWithoutScrolling() {
        // Review: at 1280x720 the Heatmaps tab was 764 px tall in a 716 px viewport, so the
        // bottom of learner B's maps needed scrolling. Every tab, with content (MNIST heatmaps,
        // the robustness map computed), fits the screen in presentation mode.
        const MnistContext c = mnistContext();
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            HeatmapView* view = heatmaps(w);
            view->setContext(c.test, c.models, c.attack, 30, c.train);
            view->setInstance(4);
            QTRY_VERIFY_WITH_TIMEOUT(view->currentView().instance == 4, 30000);
            auto* robustness = w.findChild<RobustnessView*>();
            QVERIFY(robustness);
            QSignalSpy mapReady(robustness, &RobustnessView::mapReady);
            robustness->compute();
            QVERIFY(mapReady.wait(60000));
            w.setPresentation(true, false);
            const QString tag = QString("%1x%2").arg(size.width()).arg(size.height());
            for (int t = 0; t < w.tabs()->count(); ++t) {
                w.tabs()->setCurrentIndex(t);
                QTest::qWait(200);   // (the plots lay themselves out over a few turns of the event loop)
                const QString name = w.tabs()->tabText(t).remove('&');
                shoot(w, "presentation-" + tag + "-" + name + ".png");
                const QString why = overflow(w.tabs()->widget(t));
                QVERIFY2(why.isEmpty(), qPrintable(tag + " " + name + ": " + why));
            }
            w.tabs()->setCurrentIndex(1);
            QTRY_VERIFY_WITH_TIMEOUT(view->imageSide() >= (size.width() == 1280 ? 220 : 330), 3000);
            w.setPresentation(false);
        }
    }

    void presentationShowsTheRunsProgressAndCancel() {
        // Review: presentation mode hides the status bar, where the progress bar lives, so a
        // teacher pressing Run saw nothing happen. A strip under the views shows the progress
        // and Cancel there while a run goes on (and only then, and only in presentation mode).
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setPresentation(true, false);
        auto* strip = w.findChild<RunProgress*>("presentationProgress");
        QVERIFY(strip);
        QVERIFY(!strip->isVisible());
        ExperimentSpec spec = defaultExperiment();
        spec.repetitions = 20;   // some 20 s: long enough to see and cancel
        QSignalSpy points(&w, &MainWindow::pointAdded), finished(&w, &MainWindow::runFinished);
        w.runSpec(spec);
        QVERIFY(points.wait(60000));
        QVERIFY(strip->isVisible() && strip->bar()->isVisible() && strip->cancelButton()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(strip->bar()->value() > 0, 20000);
        QVERIFY(strip->bar()->value() < 1000);
        for (QWidget* c : {static_cast<QWidget*>(strip->bar()), static_cast<QWidget*>(strip->cancelButton())}) {
            const QRect r(c->mapTo(&w, QPoint(0, 0)), c->size());
            QVERIFY2(w.rect().contains(r) && r.height() > 10, qPrintable(QString("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
        }
        shoot(w, "presentation-running-1280x720.png");
        QTest::mouseClick(strip->cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).value<ExperimentResult>().status, Status::Cancelled);
        QVERIFY(!strip->isVisible());
        QVERIFY(!w.isRunning());

        // Out of presentation mode the status bar's bar shows it; the strip stays hidden.
        w.setPresentation(false);
        points.clear();
        w.runSpec(spec);
        QVERIFY(points.wait(60000));
        QVERIFY(!strip->isVisible());
        QVERIFY(w.statusBar()->findChild<QProgressBar*>()->isVisible());
        w.cancelRun();
        QVERIFY(finished.wait(30000));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestExperimentStateUi t;
    return QTest::qExec(&t, argc, argv);
}
#include "test_experiment_state_ui.moc"
