// Panel values (offscreen): fractions and levels loaded from an experiment come back exactly
// (no rounding to the spin boxes' decimals), and the Attack panel's budget slider is bounded by
// the data: K in [0, n], N in [0, V) with V the total importance, updated live when the
// importance is edited.

#include "core/attacks/threat_registry.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_spec.h"
#include "core/eval/presets.h"
#include "ui/main_window.h"
#include "ui/panels/attack_panel.h"
#include "ui/panels/dataset_panel.h"
#include "ui/panels/importance_editor.h"
#include "ui/panels/uint64_spin_box.h"
#include "small_spec.h"

#include <QFile>

#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

ExperimentSpec fractionSpec() {
    ExperimentSpec s = MainWindow::defaultExperiment();
    s.split.kind = SplitSpec::Kind::Fraction;
    s.split.testFraction = 0.714;
    s.split.validationFraction = 0.1234567;
    s.attack.threat = "feature-corruption";   // fraction levels (a count threat needs whole K)
    s.levels = {0, 0.0125, 0.025, 0.0375};
    return s;
}

}  // namespace

class TestPanelValues : public QObject {
    Q_OBJECT
private slots:
    void fractionsRerunExactly() {
        DatasetPanel d;
        d.setFromSpec(fractionSpec());
        ExperimentSpec out;
        d.applyTo(out);
        QCOMPARE(out.split.testFraction, 0.714);   // exact, not 0.71
        QCOMPARE(out.split.validationFraction, 0.1234567);
        // The box shows the value as it is.
        bool shown = false;
        for (QDoubleSpinBox* sb : d.findChildren<QDoubleSpinBox*>()) shown = shown || sb->text() == "0.714";
        QVERIFY(shown);

        AttackPanel a;
        a.setFromSpec(fractionSpec());
        QCOMPARE(a.levels(), (std::vector<double>{0, 0.0125, 0.025, 0.0375}));
    }

    /// A fixed test file (the spam presets): test fraction 0 is shown as "none", kept exactly and
    /// the box is disabled; a spec without one enables it again.
    void fixedTestFileShowsNoTestFraction() {
        ExperimentSpec s = loadPresetOrFile("spam-fdrop-worst-case");
        QVERIFY(s.testDataset.has_value());
        DatasetPanel d;
        d.setFromSpec(s);
        auto* box = d.findChild<QDoubleSpinBox*>("testFraction");
        QVERIFY(box);
        QCOMPARE(box->text(), QString("none"));
        QVERIFY(!box->isEnabled());
        QVERIFY(box->toolTip().contains("spamassassin-test"));
        ExperimentSpec out;
        d.applyTo(out);
        QCOMPARE(out.split.testFraction, 0.0);
        d.setFromSpec(fractionSpec());
        QVERIFY(box->isEnabled());
        QCOMPARE(box->text(), QString("0.714"));
    }

    void savedExperimentReopensWithTheSameSplit() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fractions.json");
        saveExperimentFile(fractionSpec(), path.toStdString());
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.loadSpec(loadExperimentFile(path.toStdString()), false);
        const ExperimentSpec again = w.buildSpec();
        QCOMPARE(again.split.testFraction, 0.714);
        QCOMPARE(again.split.validationFraction, 0.1234567);
        QCOMPARE(again.levels, fractionSpec().levels);
    }

    void budgetSliderBounds() {
        AttackPanel a;
        ExperimentSpec s = MainWindow::defaultExperiment();
        s.attack.threat = "worst-case-count";
        s.levels = {0, 25, 50};
        a.setFromSpec(s);
        a.setBudgetBounds(784, 784.0);
        QCOMPARE(a.budget(), 25.0);   // the middle level
        QCOMPARE(a.budgetSlider()->maximum(), 784);
        a.setBudget(1000);
        QCOMPARE(a.budget(), 784.0);   // K <= n
        QVERIFY(a.findChild<QLabel*>("attackBudgetLabel")->text().contains("K = 784 of 784"));

        // Value budget: N in [0, V), V = 10.5.
        s.attack.threat = "worst-case-value-exact";
        s.levels = {0, 2, 4};
        a.setFromSpec(s);
        a.setBudgetBounds(7, 10.5);
        // The step is 0.01 (1, 2 or 5 x 10^k at most V/1000), so N = 2 is a position: V/1000
        // itself snapped it to 1.995 (and the Heatmaps' N = 3 on spambase showed as 3.021 here).
        QCOMPARE(a.budget(), 2.0);
        a.setBudget(3.0);
        QCOMPARE(a.budget(), 3.0);
        a.setBudget(100);
        QVERIFY(a.budget() < 10.5);
        QVERIFY(a.budget() >= 10.5 * 0.998);
        QCOMPARE(a.maxBudget(), a.budget());
        // New importance values, smaller total: the budget follows below the new V at once.
        QSignalSpy changed(&a, &AttackPanel::budgetChanged);
        a.setBudgetBounds(7, 3.5);
        QCOMPARE(changed.count(), 1);
        QVERIFY(a.budget() < 3.5);
        QVERIFY(a.budget() >= 3.5 * 0.998);
        // Fractions: [0, 1].
        s.attack.threat = "feature-corruption";
        s.levels = {0, 0.2, 0.4};
        a.setFromSpec(s);
        QCOMPARE(a.budget(), 0.2);
        QCOMPARE(a.maxBudget(), 1.0);
    }

    void threatFormsAreGeneratedFromTheRegistry() {
        // Every threat's parameters get an editor; a threat registered by a test (no GUI code)
        // appears with its own editor, and applyTo/setFromSpec carry its value both ways.
        ThreatInfo t;
        t.name = "test-panel-threat";
        t.title = "A threat only this test knows";
        t.level = LevelKind::Count;
        t.levelLabel = "test level K";
        t.verb = ThreatVerb::Deleted;
        t.doc = "deletes nothing; it has one parameter";
        t.params = {realParam("strength", 0.5, 0.0, 2.0, "how hard it tries"), integerListParam("cols", {1, 2}, 0, 99, "columns")};
        t.prepare = [](const ThreatContext&) { return PreparedThreat{}; };
        registerThreat(t);
        AttackPanel a;
        for (const ThreatInfo& info : threatRegistry())
            for (const ParamInfo& p : info.params)
                QVERIFY2(a.findChild<QWidget*>(QString::fromStdString("attack." + info.name + "." + p.name)),
                         (info.name + "." + p.name).c_str());
        ExperimentSpec s = MainWindow::defaultExperiment();
        s.attack.threat = t.name;
        s.attack.params = {{"strength", 1.25}, {"cols", {4, 5, 6}}};
        a.setFromSpec(s);
        QCOMPARE(a.threat(), t.name);
        auto* strength = a.findChild<QDoubleSpinBox*>("attack.test-panel-threat.strength");
        QCOMPARE(strength->value(), 1.25);
        QCOMPARE(a.findChild<QLineEdit*>("attack.test-panel-threat.cols")->text(), QString("4, 5, 6"));
        strength->setValue(1.75);
        ExperimentSpec out;
        a.applyTo(out);
        QCOMPARE(out.attack.threat, t.name);
        QVERIFY(out.attack.params == nlohmann::json({{"strength", 1.75}, {"cols", {4, 5, 6}}}));
        // Text a list editor cannot read is an error naming the threat and parameter.
        a.findChild<QLineEdit*>("attack.test-panel-threat.cols")->setText("4, five");
        try {
            a.applyTo(out);
            QFAIL("bad list accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("attack test-panel-threat parameter cols") != std::string::npos);
        }
    }

    void attackPanelHasNoGapOnATallScreen() {
        // The threat's parameter stack takes its current page's height, not the spare height of
        // a tall dock (1920x1050 showed a gap between "replacement" and the levels).
        AttackPanel a;
        ExperimentSpec s = MainWindow::defaultExperiment();
        s.attack.threat = "random-deletion";   // one parameter: replacement
        a.setFromSpec(s);
        a.resize(300, 1000);
        a.show();
        QVERIFY(QTest::qWaitForWindowExposed(&a));
        auto* stack = a.findChild<QStackedWidget*>("threatParams");
        QVERIFY(stack);
        const int page = stack->currentWidget()->sizeHint().height();
        QVERIFY2(stack->height() <= page + 2, qPrintable(QString("stack %1 px, page %2 px").arg(stack->height()).arg(page)));
        // A threat with more parameters gets a taller stack.
        s.attack.threat = "group-corruption";
        a.setFromSpec(s);
        QTRY_VERIFY(stack->height() >= stack->currentWidget()->sizeHint().height() - 2);
        QVERIFY(stack->height() > page);
    }

    void importanceEditsMoveTheBound() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.openSource("bundled:heart_scale");
        QVERIFY(shown.wait(20000));
        QCOMPARE(w.attackPanel()->budgetFeatures(), 13);
        QCOMPARE(w.attackPanel()->budgetTotalValue(), 13.0);   // default importance 1 per feature
        w.importanceEditor()->setImportance(std::vector<double>(13, 2.5));
        QCOMPARE(w.attackPanel()->budgetTotalValue(), 32.5);
        std::vector<double> v(13, 1.0);
        v[0] = 0.5;
        w.importanceEditor()->setImportance(v);
        QCOMPARE(w.attackPanel()->budgetTotalValue(), 12.5);
    }

    void seedsKeepAll64Bits() {
        // Issue 25, item 17: file -> GUI -> Save and Run, unchanged (a QSpinBox held an int:
        // 3,000,000,000 became 0, 2^64 - 1 became 0 too).
        const std::uint64_t seeds[] = {0, std::uint64_t(1) << 31, 3000000000ULL, 18446744073709551615ULL};
        for (const std::uint64_t seed : seeds) {
            QTemporaryDir dir;
            const QString in = dir.filePath("in.json"), out = dir.filePath("out.json");
            ExperimentSpec s = MainWindow::defaultExperiment();
            s.seed = seed;
            saveExperimentFile(s, in.toStdString());
            MainWindow w;
            w.setProperty("quietErrors", true);
            w.loadSpec(loadExperimentFile(in.toStdString()), false);
            UInt64SpinBox* box = w.attackPanel()->seedBox();
            QCOMPARE(box->value(), quint64(seed));
            QCOMPARE(box->text(), QString::number(seed));
            QCOMPARE(w.buildSpec().seed, seed);   // what Run starts
            QVERIFY(w.saveExperiment(out));
            QCOMPARE(loadExperimentFile(out.toStdString()).seed, seed);
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.readAll().contains(("\"seed\": " + std::to_string(seed)).c_str()));
        }
    }

    void seedBoxTypingAndStepping() {
        UInt64SpinBox b;
        b.show();
        QLineEdit* edit = b.findChild<QLineEdit*>();
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClicks(edit, "18446744073709551615");
        QCOMPARE(b.value(), quint64(18446744073709551615ULL));
        QTest::keyClicks(edit, "0");   // 2^64 * 10 does not fit: the key is refused
        QCOMPARE(edit->text(), QString("18446744073709551615"));
        b.stepBy(1);   // saturates
        QCOMPARE(b.value(), quint64(18446744073709551615ULL));
        b.stepBy(-2);
        QCOMPARE(b.value(), quint64(18446744073709551613ULL));
        edit->selectAll();
        QTest::keyClicks(edit, "-3");   // no sign
        QTest::keyClicks(edit, "x 1e9");   // no letters, spaces, exponents
        QCOMPARE(edit->text(), QString("319"));
        QCOMPARE(b.value(), quint64(319));
        b.setValue(0);
        b.stepBy(-1);
        QCOMPARE(b.value(), quint64(0));
        QCOMPARE(b.text(), QString("0"));
        b.stepBy(std::numeric_limits<int>::max());
        QCOMPARE(b.value(), quint64(2147483647));
        b.stepBy(std::numeric_limits<int>::min());   // 2^31 steps down from 2^31 - 1: stops at 0
        QCOMPARE(b.value(), quint64(0));
        b.setValue(3000000000ULL);
        QCOMPARE(b.text(), QString("3000000000"));
    }

    void runUsesALargeSeed() {
        // Run with a file's seed 3,000,000,000 gives the curves core (fdlab-cli run) gives.
        ExperimentSpec s =
            smallSpec("large seed", "heart_scale", {{"SVM", "svm", {{"C", 1.0}}, {}}}, "random-deletion", {0, 3, 6}, 2);
        s.seed = 3000000000ULL;
        QTemporaryDir dir;
        const QString file = dir.filePath("large-seed.json");
        saveExperimentFile(s, file.toStdString());
        const ExperimentSpec fromFile = loadExperimentFile(file.toStdString());
        const ExperimentResult direct = runExperiment(fromFile);
        const ExperimentResult seedZero = [&] {
            ExperimentSpec z = fromFile;
            z.seed = 0;
            return runExperiment(z);
        }();

        MainWindow w;
        w.setProperty("quietErrors", true);
        w.loadSpec(fromFile, false);
        QSignalSpy done(&w, &MainWindow::runFinished);
        QVERIFY(w.runFromPanels());
        QVERIFY(done.wait(60000));
        const ExperimentResult& r = *w.lastResult();
        QCOMPARE(r.spec.seed, std::uint64_t(3000000000ULL));
        QCOMPARE(r.points.size(), direct.points.size());
        bool differsFromZero = false;
        for (std::size_t i = 0; i < r.points.size(); ++i) {
            QCOMPARE(r.points[i].error, direct.points[i].error);
            differsFromZero = differsFromZero || r.points[i].error != seedZero.points[i].error;
        }
        QVERIFY(differsFromZero);   // the seed matters on this experiment
    }
};

QTEST_MAIN(TestPanelValues)
#include "test_panel_values.moc"
