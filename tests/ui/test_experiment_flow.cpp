// GUI flows of experiments (offscreen): panels round-trip a spec, a tiny experiment draws its
// curves, cancelling mid-run stops within a second and keeps the finished points, exports are
// valid files, a saved experiment re-opens to the same points, a model exports as JSON.

#include "core/eval/presets.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/multi_task.h"
#include "core/eval/results_io.h"
#include "core/io/model_json.h"
#include "core/learners/nonlinear/model_io.h"
#include "ui/main_window.h"
#include "ui/panels/dataset_panel.h"
#include "ui/panels/algorithms_panel.h"
#include "ui/panels/attack_panel.h"
#include "ui/plots/curve_plot.h"
#include "ui/workers/experiment_worker.h"
#include "small_spec.h"

#include <cmath>

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QTimer>
#include <QFile>
#include <QJsonObject>
#include <QImage>
#include <QListWidget>
#include <qcustomplot.h>
#include <QJsonDocument>
#include <QLineEdit>
#include <QComboBox>
#include <QDir>
#include <QDialog>
#include <QTextBrowser>
#include <QToolButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

namespace {
ExperimentSpec tinySpec() {
    return smallSpec("tiny", "heart_scale", {{"SVM", "svm", {{"C", 1.0}}, {}}, {"LogReg", "logreg", {{"C", 1.0}}, {}}},
                     "random-deletion", {0, 2, 4}, 2);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
}  // namespace

class TestExperimentFlow : public QObject {
    Q_OBJECT
private slots:
    void panelsRoundTripTheDefaultSpec() {
        MainWindow w;
        const ExperimentSpec d = MainWindow::defaultExperiment();
        const ExperimentSpec s = w.buildSpec();
        QCOMPARE(s.learners.size(), d.learners.size());
        for (std::size_t i = 0; i < d.learners.size(); ++i) {
            QCOMPARE(s.learners[i].id, d.learners[i].id);
            QCOMPARE(s.learners[i].learner, d.learners[i].learner);
            QCOMPARE(s.learners[i].grid, d.learners[i].grid);
        }
        QCOMPARE(s.learners[2].params["q"].get<double>(), 0.5);
        QCOMPARE(s.learners[3].params["N"].get<double>(), 20.0);
        QCOMPARE(s.learners[3].params["gamma"].get<double>(), 0.1);
        QCOMPARE(s.levels, d.levels);
        QCOMPARE(s.repetitions, 3);
        QVERIFY(s.tunePerLevel);
        QCOMPARE(s.split.perClassTrain, 50);
        QCOMPARE(s.split.perClassValidation, 100);
        QCOMPARE(s.split.perClassTest, 150);
        QCOMPARE(s.task.positive, std::vector<std::string>{"3"});
        QCOMPARE(s.task.negative, std::vector<std::string>{"5"});
        QCOMPARE(s.dataset.bundled, std::string("mnist"));
    }

    void panelsKeepCrossValidatedGrids() {
        // the RBF label-noise preset chooses gamma by 5-fold CV: the panels must keep that
        MainWindow w;
        const ExperimentSpec p = loadPresetOrFile("ionosphere-rbf-random-flips");
        w.loadSpec(p, false);
        const ExperimentSpec s = w.buildSpec();
        QCOMPARE(s.learners.size(), p.learners.size());
        for (std::size_t i = 0; i < p.learners.size(); ++i) {
            QCOMPARE(s.learners[i].grid, p.learners[i].grid);
            QVERIFY(s.learners[i].selection == LearnerSpec::Selection::CrossValidation);
            QCOMPARE(s.learners[i].cvFolds, 5);
        }
        // and the default spec keeps choosing on its validation set
        QVERIFY(MainWindow().buildSpec().learners[1].selection == LearnerSpec::Selection::Validation);
    }

    void runsATinyExperiment() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy done(&w, &MainWindow::runFinished);
        QSignalSpy points(&w, &MainWindow::pointAdded);
        w.runSpec(tinySpec());
        QVERIFY(done.wait(60000));
        QCOMPARE(points.count(), 2 * 3 * 2);
        QCOMPARE(w.curvePlot()->learnerCount(), 2);
        QCOMPARE(w.curvePlot()->graphPointCount(0), 3);
        QCOMPARE(w.curvePlot()->graphPointCount(1), 3);
        QVERIFY(w.lastResult());
        QCOMPARE(w.lastResult()->points.size(), std::size_t(12));
    }

    void oneSidedThreatDrawsThreeCurvesPerLearner() {
        // Only class +1 is attacked: each learner gets its overall, attacked and other-class
        // curves, named in the legend; the other class is never attacked, so its error is the
        // same at every budget.
        MainWindow w;
        w.setProperty("quietErrors", true);
        ExperimentSpec s = tinySpec();
        s.learners.resize(1);
        s.attack.threat = "worst-case-count";
        s.attackedClasses = {"+1"};
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.runSpec(s);
        QVERIFY(done.wait(60000));
        CurvePlot* plot = w.curvePlot();
        QCOMPARE(plot->graphPointCount(0), 3);
        QCOMPARE(plot->attackedPointCount(0), 3);
        QCOMPARE(plot->othersPointCount(0), 3);
        QStringList names;
        for (int i = 0; i < plot->plot()->graphCount(); ++i) names << plot->plot()->graph(i)->name();
        QVERIFY2(names.contains("SVM: all instances") && names.contains("SVM: attacked (+1)") &&
                     names.contains("SVM: other classes"),
                 qPrintable(names.join(" | ")));
        const auto& summary = w.lastResult()->summary;
        QCOMPARE(summary.size(), std::size_t(3));
        QVERIFY(summary[2].errorAttacked.mean > summary[0].errorAttacked.mean);   // K = 4 hurts
        for (const auto& sm : summary) QCOMPARE(sm.errorOthers.mean, summary[0].errorOthers.mean);
        plot->setMetric(CurvePlot::Metric::Auc);
        QVERIFY(!plot->plot()->graph(names.indexOf("SVM: attacked (+1)"))->visible());
    }

    void errorAxisStartsAtZeroAndClearsTheLegend() {
        // Error curves near 0.23 that barely move: the axis starts at 0 (from the data's minimum
        // a rise of 0.03 filled the plot like a rise of 0.8), and the top leaves room for the
        // legend in the top left (flat curves near the top ran under it).
        CurvePlot plot;
        plot.resize(900, 600);
        plot.show();
        ExperimentSpec s = tinySpec();
        s.learners.push_back({"FDROP", "fdrop", {{"K", 1}}, {}});
        plot.setSpec(s);
        for (int l = 0; l < 3; ++l)
            for (int k = 0; k < 3; ++k) {
                CurvePoint p;
                p.learner = s.learners[static_cast<std::size_t>(l)].id;
                p.learnerIndex = l;
                p.levelIndex = k;
                p.level = s.levels[static_cast<std::size_t>(k)];
                p.error = 0.23 + 0.005 * l + 0.01 * k;
                p.auc = 0.8;
                plot.addPoint(p);
            }
        plot.plot()->replot();
        CurvePoint again;   // a second repetition: one more rescale, now with the legend laid out
        again.learner = "SVM";
        again.repetition = 1;
        again.error = 0.23;
        again.auc = 0.8;
        plot.addPoint(again);
        plot.plot()->replot();
        QCOMPARE(plot.plot()->yAxis->range().lower, 0.0);
        const double legendBottom = plot.plot()->legend->outerRect().bottom();
        const double highest = plot.plot()->yAxis->coordToPixel(0.23 + 0.005 * 2 + 0.01 * 2);
        QVERIFY2(highest > legendBottom, qPrintable(QString("highest point at %1 px, legend down to %2 px").arg(highest).arg(legendBottom)));
    }

    void keepCurvesByHand() {
        // The Curves tab's "Keep these curves": the run's curves stay dashed under the next run
        // with the same level unit, are hidden under another unit, and the button drops them.
        CurvePlot plot;
        plot.resize(900, 600);
        plot.show();
        ExperimentSpec s = tinySpec();
        plot.setSpec(s);
        QVERIFY(!plot.keepButton()->isEnabled());   // nothing to keep yet
        for (int k = 0; k < 3; ++k) {
            CurvePoint p;
            p.learner = "SVM";
            p.levelIndex = k;
            p.level = s.levels[static_cast<std::size_t>(k)];
            p.error = 0.1 * (k + 1);
            plot.addPoint(p);
        }
        QVERIFY(plot.keepButton()->isEnabled());
        plot.keepButton()->click();
        QCOMPARE(plot.keptCurveCount(), 1);
        QCOMPARE(plot.keptPointCount(0), 3);
        plot.setSpec(s);   // the next run: kept, drawn before any point arrives
        QCOMPARE(plot.keptCurveCount(), 1);
        const int lines = static_cast<int>(s.learners.size());
        QCOMPARE(plot.plot()->graphCount(), lines + 1);
        QCOMPARE(plot.keptPointCount(0), 3);
        QVERIFY(plot.plot()->yAxis->range().upper >= 0.3);   // the axis makes room for them
        // A run of the learners in the other order: the kept SVM keeps the SVM's colour (it took
        // the colour of its place, the other learner's).
        ExperimentSpec swapped = s;
        std::swap(swapped.learners[0], swapped.learners[1]);
        plot.setSpec(swapped);
        QColor solid, kept;
        for (int g = 0; g < plot.plot()->graphCount(); ++g) {
            if (plot.plot()->graph(g)->name() == "SVM") solid = plot.plot()->graph(g)->pen().color();
            if (plot.plot()->graph(g)->name() == "SVM (kept)") kept = plot.plot()->graph(g)->pen().color();
        }
        QVERIFY(kept.isValid());
        QCOMPARE(kept.rgb(), solid.rgb());
        ExperimentSpec other = s;
        other.attack.threat = "random-feature-drop";   // a probability: another x axis
        plot.setSpec(other);
        QCOMPARE(plot.keptCurveCount(), 0);
        plot.setSpec(s);
        QCOMPARE(plot.keptCurveCount(), 1);
        QCOMPARE(plot.keepButton()->text(), QString("Drop kept curves"));
        plot.keepButton()->click();
        QCOMPARE(plot.keptCurveCount(), 0);
        QCOMPARE(plot.plot()->graphCount(), lines);
    }

    void runsAPresetWithOneRepetition() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        ExperimentSpec s = loadPresetOrFile("globerson-toy");
        s.repetitions = 1;
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.loadSpec(s, true);
        QVERIFY(done.wait(120000));
        QCOMPARE(w.curvePlot()->graphPointCount(0), static_cast<int>(s.levels.size()));
        QCOMPARE(w.curvePlot()->plot()->xAxis->label(), QString("deletion probability p"));
    }

    void cancelStopsQuicklyAndKeepsPoints() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        ExperimentSpec s = MainWindow::defaultExperiment();
        s.repetitions = 10;   // far more work than the test waits for
        QSignalSpy done(&w, &MainWindow::runFinished);
        QSignalSpy points(&w, &MainWindow::pointAdded);
        w.runSpec(s);
        QVERIFY(points.wait(30000));
        QElapsedTimer t;
        t.start();
        w.cancelRun();
        QVERIFY(done.wait(5000));
        const qint64 ms = t.elapsed();
        qInfo("cancel -> finished in %lld ms", ms);
        QVERIFY2(ms < 1000 * FDLAB_TEST_TIME_SCALE, qPrintable(QString::number(ms)));
        const ExperimentResult r = done.at(0).at(0).value<ExperimentResult>();
        QCOMPARE(r.status, Status::Cancelled);
        QVERIFY(!r.points.empty());
        QVERIFY(!w.isRunning());
        QCOMPARE(w.curvePlot()->points().size(), r.points.size());
        QVERIFY(w.curvePlot()->graphPointCount(0) > 0);
    }

    void exportsValidFiles() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.runSpec(tinySpec());
        QVERIFY(done.wait(60000));
        QTemporaryDir dir;
        const QString png = dir.filePath("c.png"), pdf = dir.filePath("c.pdf"), svg = dir.filePath("c.svg");
        QVERIFY(w.exportPlot(png, 640, 480));
        QVERIFY(w.exportPlot(pdf, 640, 480));
        QVERIFY(w.exportPlot(svg, 640, 480));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(640, 480));
        QVERIFY(readAll(pdf).startsWith("%PDF"));
        const QByteArray svgText = readAll(svg).trimmed();
        QVERIFY(svgText.startsWith("<?xml") || svgText.startsWith("<svg"));
        QVERIFY(svgText.contains("</svg>"));
        // Written atomically: no temporaries beside them, and a failed export writes nothing.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
        QString error;
        QVERIFY(!w.curvePlot()->exportTo(dir.filePath("no/such/dir/c.png"), 640, 480, &error));
        QVERIFY2(error.contains("no/such/dir"), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);

        const QString csv = dir.filePath("c.csv"), json = dir.filePath("c.json");
        QVERIFY(w.exportCurves(csv));
        QVERIFY(w.exportCurves(json));
        // The CSV opens with the provenance record as '#' comment lines, then the table.
        const QList<QByteArray> csvLines = readAll(csv).trimmed().split('\n');
        qsizetype header = 0;
        while (header < csvLines.size() && csvLines[header].startsWith("# ")) ++header;
        QVERIFY(csvLines[0].startsWith("# fdlab: "));
        QVERIFY(csvLines[header].startsWith("learner,level"));
        QCOMPARE(csvLines.size() - header, 1 + 2 * 3);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(readAll(json), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QVERIFY(doc.isObject());
        QVERIFY(doc.object().value("provenance").toObject().contains("data_fingerprint"));
        // LaTeX: the figure and, chosen in the dialog's filter, the table.
        const QString fig = dir.filePath("c.tex"), table = dir.filePath("t.tex");
        QVERIFY(w.exportCurves(fig));
        QVERIFY(w.exportCurves(table, true));
        QVERIFY(readAll(fig).contains("\\begin{axis}"));
        QVERIFY(readAll(table).contains("\\toprule"));
    }

    // Only the first warning reached the status bar, for a moment: FDROP's constant classifier
    // (K = 13 of heart_scale's 13 features) stood behind an iteration-limit note. The Curves
    // tab lists them all, keeps them when the results are reopened, and a new run clears them.
    void runWarningsAreListed() {
        QTemporaryDir dir;
        const QString path = dir.filePath("exp.json");
        ExperimentSpec s = tinySpec();
        s.learners = {{"SVM", "svm", {{"C", 1.0}}, {}}, {"FDROP", "fdrop", {{"C", 1.0}, {"K", 13}}, {}}};
        {
            MainWindow w;
            w.setProperty("quietErrors", true);
            QSignalSpy done(&w, &MainWindow::runFinished);
            w.runSpec(s);
            QVERIFY(done.wait(60000));
            const auto& warnings = w.lastResult()->warnings;
            QCOMPARE(warnings.size(), std::size_t(2));   // FDROP in both repetitions
            QCOMPARE(w.curvePlot()->warningsButtonText(), QString("1 warning(s)"));   // the two read as one
            const QString text = w.curvePlot()->warningsText();
            QCOMPARE(text.count("learnt a constant classifier"), 1);
            QVERIFY2(text.contains("FDROP (repetitions 0-1): learnt a constant classifier"), qPrintable(text));
            // The list opens in a scrolling dialog of bounded size (a message box grew past the
            // screen with 39 warnings), the text escaped.
            w.curvePlot()->setWarnings(std::vector<std::string>(60, "x (repetition 0): |w.x| < |b| <b>not bold</b>"));
            bool checked = false;
            QTimer::singleShot(0, [&] {
                auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
                QVERIFY(dialog && dialog->objectName() == "curveWarningsDialog");
                QVERIFY2(dialog->height() <= 480, qPrintable(QString::number(dialog->height())));
                auto* list = dialog->findChild<QTextBrowser*>();
                QVERIFY(list && list->toPlainText().contains("|w.x| < |b| <b>not bold</b>"));
                checked = true;
                dialog->reject();
            });
            w.curvePlot()->findChild<QToolButton*>("curveWarnings")->click();
            QVERIFY(checked);
            w.curvePlot()->setWarnings(w.lastResult()->warnings);
            QVERIFY(w.saveExperiment(path));
            QSignalSpy again(&w, &MainWindow::runFinished);
            w.runSpec(tinySpec());
            QCOMPARE(w.curvePlot()->warningsButtonText(), QString());   // cleared when the run starts
            QVERIFY(again.wait(60000));
            QCOMPARE(w.curvePlot()->warningsButtonText(), QString());
        }
        MainWindow w2;
        w2.setProperty("quietErrors", true);
        QVERIFY(w2.openExperiment(path));
        QCOMPARE(w2.curvePlot()->warningsButtonText(), QString("1 warning(s)"));
    }

    void savedExperimentReopensWithTheSamePoints() {
        QTemporaryDir dir;
        const QString path = dir.filePath("exp.json");
        std::vector<CurvePoint> before;
        {
            MainWindow w;
            w.setProperty("quietErrors", true);
            QSignalSpy done(&w, &MainWindow::runFinished);
            w.runSpec(tinySpec());
            QVERIFY(done.wait(60000));
            QVERIFY(w.saveExperiment(path));
            before = w.curvePlot()->points();
        }
        MainWindow w2;
        w2.setProperty("quietErrors", true);
        QSignalSpy started(&w2, &MainWindow::runStarted);
        QVERIFY(w2.openExperiment(path));
        QCOMPARE(started.count(), 0);   // redrawn, not rerun
        comparePoints(w2.curvePlot()->points(), before);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(w2.curvePlot()->graphPointCount(0), 3);
        QCOMPARE(w2.buildSpec().learners.size(), std::size_t(2));
    }

    void exportsATrainedModel() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.runSpec(tinySpec());
        QVERIFY(done.wait(60000));
        QTemporaryDir dir;
        const QString path = dir.filePath("svm.json");
        QSignalSpy saved(&w, &MainWindow::modelSaved);
        w.exportModel(path, "SVM");
        QVERIFY(saved.wait(60000));
        const SavedModel m = loadModel(path.toStdString());
        QCOMPARE(m.metadata.learner, std::string("svm"));
        QCOMPARE(static_cast<int>(m.model.W.rows()), 13);
    }

    void exportsTheSelectedOfTwoSvms() {
        // Issue 25, item 16: SVM-A (C = 0.1) selected, Export model offers SVM-A.json and saves
        // SVM-A's model (it offered SVM-B.json and saved SVM-B's, C = 10: the rows were matched
        // by type, the last match kept).
        ExperimentSpec spec = tinySpec();
        spec.learners = {{"SVM-A", "svm", {{"C", 0.1}}, {}}, {"SVM-B", "svm", {{"C", 10.0}}, {}}};
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.loadSpec(spec, true);
        QVERIFY(done.wait(60000));
        auto* exportAction = w.findChild<QAction*>("exportModelAction");
        QVERIFY(exportAction);
        QTemporaryDir dir;
        const PreparedSplit split = prepareRepetition(loadTaskData(spec), spec, 0);
        std::vector<Eigen::MatrixXd> weights;
        for (int row : {0, 1}) {
            const QString path = dir.filePath(QString("export-%1.json").arg(row));
            w.algorithmsPanel()->list()->setCurrentRow(row);
            QString offered;
            QTimer poll;   // answers the save dialog Export model opens
            connect(&poll, &QTimer::timeout, &poll, [&] {
                auto* dlg = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
                if (!dlg) return;
                poll.stop();
                offered = QFileInfo(dlg->selectedFiles().value(0)).fileName();
                // The name typed into the dialog's file name box (selectFile of a file that does
                // not exist yet may keep the offered name).
                dlg->setDirectory(dir.path());
                if (auto* name = dlg->findChild<QLineEdit*>("fileNameEdit")) name->setText(QFileInfo(path).fileName());
                static_cast<QDialog*>(dlg)->accept();   // QFileDialog::accept, public in QDialog
            });
            poll.start(20);
            QSignalSpy saved(&w, &MainWindow::modelSaved);
            exportAction->trigger();
            QCOMPARE(offered, row == 0 ? QString("SVM-A.json") : QString("SVM-B.json"));
            QVERIFY(saved.wait(60000));
            QCOMPARE(saved.at(0).at(0).toString(), path);
            const SavedModel m = loadModel(path.toStdString());
            QCOMPARE(m.metadata.learner, std::string("svm"));
            const double C = row == 0 ? 0.1 : 10.0;
            QCOMPARE(m.metadata.params.at("C").get<double>(), C);
            // The weights are those of an SVM trained by core with that C on repetition 0.
            const TrainedModel direct = trainLearner("svm", split.train, nlohmann::json{{"C", C}});
            QVERIFY(direct.linear);
            QCOMPARE(m.model.W.rows(), direct.linear->W.rows());
            QVERIFY((m.model.W - direct.linear->W).cwiseAbs().maxCoeff() <= 1e-12);
            QVERIFY(std::abs(m.model.b(0) - direct.linear->b(0)) <= 1e-12);
            weights.push_back(m.model.W);
        }
        QVERIFY((weights[0] - weights[1]).cwiseAbs().maxCoeff() > 1e-3);   // two different models

        // An unticked row is not exported.
        w.algorithmsPanel()->list()->setCurrentRow(2);
        QCOMPARE(w.algorithmsPanel()->list()->item(2)->checkState(), Qt::Unchecked);
        QSignalSpy errors(&w, &MainWindow::errorShown);
        exportAction->trigger();
        QCOMPARE(errors.count(), 1);
    }

    void exportsANonLinearModel() {
        // A tree is saved as a classifier file that predicts exactly like the same tree trained
        // directly by core on repetition 0's training split.
        ExperimentSpec spec = tinySpec();
        spec.task.kind = TaskSpec::Kind::MultiClass;
        spec.learners = {{"Tree", "tree", {{"depth", 3}}, {}}};
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy done(&w, &MainWindow::runFinished);
        w.runSpec(spec);
        QVERIFY(done.wait(60000));
        QTemporaryDir dir;
        const QString path = dir.filePath("tree.json");
        QSignalSpy saved(&w, &MainWindow::modelSaved);
        w.exportModel(path, "Tree");
        QVERIFY(saved.wait(60000));
        const std::shared_ptr<const Classifier> loaded = loadClassifier(path.toStdString());
        const PreparedSplit split = prepareRepetition(loadTaskData(spec), spec, 0);
        const TrainedModel direct = trainLearner("tree", split.train, nlohmann::json{{"depth", 3}});
        int same = 0;
        for (int i = 0; i < split.test.rows(); ++i)
            same += loaded->predict(rowSpan(split.test, i)) == direct.scorer->predict(rowSpan(split.test, i));
        QCOMPARE(same, split.test.rows());
        QVERIFY(split.test.rows() > 50);
    }

    void opensAMultiTaskResultsFileWithATaskSelector() {
        // A results file of a multi-task experiment (issue 31) opens as the mean over its tasks,
        // and the Curves tab's task selector shows each task's own curves.
        const ExperimentResult r = runExperiment(loadExperimentFile(std::string(FDLAB_TEST_DATA) + "/multitask/pairs.json"));
        QCOMPARE(r.status, Status::Converged);
        QTemporaryDir dir;
        const QString path = dir.filePath("pairs-results.json");
        saveResultsJson(r, path.toStdString());
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        QVERIFY(w.openExperiment(path));
        // The Dataset panel holds one task: it says that the file's three tasks are what runs.
        QVERIFY(shown.wait(60000));
        QVERIFY2(w.datasetPanel()->note().startsWith("This experiment has 3 tasks ("), qPrintable(w.datasetPanel()->note()));
        CurvePlot* plot = w.curvePlot();
        auto* box = plot->findChild<QComboBox*>("curveTask");
        QVERIFY(box && box->isVisibleTo(plot));
        QCOMPARE(box->count(), 4);
        QCOMPARE(box->itemText(0), QString("Mean over 3 tasks"));
        QCOMPARE(box->itemText(2), QString("3 vs 5"));
        QCOMPARE(plot->shownTask(), -1);
        const std::vector<CurveSummary> agg = aggregateOverTasks(r);
        const QCPGraph* svm = plot->plot()->graph(0);
        QCOMPARE(svm->dataCount(), 3);
        for (int k = 0; k < 3; ++k) QCOMPARE(svm->data()->at(k)->value, agg[static_cast<std::size_t>(k)].error.mean);
        box->setCurrentIndex(2);   // as a user picks "3 vs 5"
        QCOMPARE(plot->shownTask(), 1);
        std::vector<double> own;
        for (const CurveSummary& s : r.summary)
            if (s.task == 1 && s.learner == "SVM") own.push_back(s.error.mean);
        QCOMPARE(own.size(), std::size_t(3));
        for (int k = 0; k < 3; ++k) QCOMPARE(svm->data()->at(k)->value, own[static_cast<std::size_t>(k)]);
        plot->setShownTask(7);   // out of range: ignored
        QCOMPARE(plot->shownTask(), 1);
        // A single-task spec has no selector.
        plot->setSpec(tinySpec());
        QVERIFY(!box->isVisibleTo(plot));
    }

    void invalidSpecIsReportedNotRun() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy errors(&w, &MainWindow::errorShown);
        for (int r = 0; r < w.algorithmsPanel()->list()->count(); ++r)
            w.algorithmsPanel()->list()->item(r)->setCheckState(Qt::Unchecked);
        QVERIFY(!w.runFromPanels());
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains("learner"));
    }
};

QTEST_MAIN(TestExperimentFlow)
#include "test_experiment_flow.moc"
