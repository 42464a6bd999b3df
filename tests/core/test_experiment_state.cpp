// The experiment state (core/eval/experiment_state.h): titles follow the data, task and threat
// actually run; new data adapts the split, task, levels and budget; one budget clamped once;
// the importance a run uses; presets grouped by paper. Hand-made datasets, exact comparisons.

#include "core/data/importance.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_state.h"
#include "core/eval/presets.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace fdlab;

namespace {

/// `perClass[c]` rows of class c over `features` features; X(i, j) = (i + j) % 3 so that
/// features differ (mutual information is not uniform).
std::shared_ptr<Dataset> makeData(const std::string& name, const std::vector<int>& perClass,
                                  std::vector<std::string> classNames, int features) {
    auto d = std::make_shared<Dataset>();
    d->name = name;
    int rows = 0;
    for (int n : perClass) rows += n;
    d->X = Dataset::Matrix::Zero(rows, features);
    int i = 0;
    for (std::size_t c = 0; c < perClass.size(); ++c)
        for (int k = 0; k < perClass[c]; ++k, ++i) {
            d->labels.push_back(static_cast<int>(c));
            for (int j = 0; j < features; ++j)
                d->X(i, j) = static_cast<float>(j == 0 ? static_cast<int>(c) : (i + j) % 3);
        }
    d->classNames = std::move(classNames);
    d->fillDefaults();
    return d;
}

ExperimentSpec mnistLike() {
    ExperimentSpec s = defaultExperiment();
    s.paper = {{"curves", {{"SVM", {{0, 0.1}}}}}};
    return s;
}

DatasetRef fileRef(const std::string& path) {
    DatasetRef r;
    r.file = path;
    return r;
}

}  // namespace

class TestExperimentState : public QObject {
    Q_OBJECT
private slots:
    void splitByCountsBecomesFractionsWhenAClassCannotFillIt() {
        // The 47-message corpus: 23 alpha, 24 beta, and MNIST's 50 + 100 + 150 per class.
        const auto d = makeData("corpus", {23, 24}, {"alpha", "beta"}, 3);
        SplitSpec counts;
        counts.kind = SplitSpec::Kind::Counts;
        counts.perClassTrain = 50;
        counts.perClassValidation = 100;
        counts.perClassTest = 150;
        TaskSpec task;
        task.kind = TaskSpec::Kind::Binary;
        task.positive = {"alpha"};
        task.negative = {"beta"};
        std::string note;
        const SplitSpec fitted = splitThatFits(counts, *d, task, &note);
        QVERIFY(fitted.kind == SplitSpec::Kind::Fraction);
        QVERIFY2(note.find("class 'alpha' has 23 instances") != std::string::npos && note.find("300") != std::string::npos,
                 note.c_str());
        // 10 + 5 + 8 = 23 fits both classes exactly: kept.
        counts.perClassTrain = 10;
        counts.perClassValidation = 5;
        counts.perClassTest = 8;
        QVERIFY(splitThatFits(counts, *d, task, &note).kind == SplitSpec::Kind::Counts);
        QVERIFY(note.empty());
        counts.perClassTest = 9;   // 24 > 23
        QVERIFY(splitThatFits(counts, *d, task, &note).kind == SplitSpec::Kind::Fraction);
        // Test -1 ("the rest") needs only train + validation.
        counts.perClassTest = -1;
        counts.perClassTrain = 18;
        QVERIFY(splitThatFits(counts, *d, task, &note).kind == SplitSpec::Kind::Counts);
    }

    void dataChosenOnItsOwnAdaptsTaskSplitTitleAndRunsWithoutError() {
        ExperimentState st(mnistLike());
        const auto d = makeData("corpus", {23, 24}, {"alpha", "beta"}, 3);
        const auto notes = st.adaptToData(d, fileRef("/tmp/corpus.csv"), false);
        const ExperimentSpec& s = st.spec();
        QCOMPARE(s.dataset.file, std::string("/tmp/corpus.csv"));
        QVERIFY(s.dataset.bundled.empty());
        QCOMPARE(s.task.positive, std::vector<std::string>{"alpha"});
        QCOMPARE(s.task.negative, std::vector<std::string>{"beta"});
        QVERIFY(s.split.kind == SplitSpec::Kind::Fraction);
        // Count levels 0..150 on 3 features: only 0 stays... a ladder is not needed (0 fits).
        QCOMPARE(s.levels, std::vector<double>{0});
        QCOMPARE(s.name, std::string("corpus: alpha vs beta - ") + threatInfo("random-deletion").title);
        QVERIFY(s.description.empty());
        QVERIFY(s.paper.is_null());
        QCOMPARE(notes.size(), std::size_t(3));   // task, split, levels
        for (const std::string& n : notes) QVERIFY2(n.find("split") == std::string::npos || n.find("splitBy") == std::string::npos, n.c_str());

        // The adapted spec prepares without "splitByCounts: class 'beta' has 24 instances, 300 needed".
        const TaskData task{applyTask(*d, s.task), {}, {}, {}};
        const PreparedSplit p = prepareRepetition(task, s, 0);
        QCOMPARE(p.train.rows() + p.validation.rows() + p.test.rows(), 47);
    }

    void levelsBeyondTheDataAreDroppedAndALadderMadeWhenNoneRemain() {
        ExperimentSpec spec = mnistLike();
        spec.attack.threat = "worst-case-count";
        spec.levels = {0, 10, 20, 30};
        ExperimentState st(spec);
        st.adaptToData(makeData("twentyfive", {5, 5}, {"3", "5"}, 25), fileRef("a.csv"), false);
        QCOMPARE(st.spec().levels, (std::vector<double>{0, 10, 20}));
        spec.levels = {30, 40};
        ExperimentState st2(spec);
        st2.adaptToData(makeData("twentyfive", {5, 5}, {"3", "5"}, 25), fileRef("a.csv"), false);
        // ceil(25 / 10) = 3: 0, 3, ..., 24 (and never beyond n).
        QCOMPARE(st2.spec().levels, (std::vector<double>{0, 3, 6, 9, 12, 15, 18, 21, 24}));
        // Data the task fits: the task stays (the classes were "3" and "5").
        QCOMPARE(st2.spec().task.positive, std::vector<std::string>{"3"});
    }

    void aSpecsOwnDataKeepsItsTitleAndSplit() {
        ExperimentSpec spec = mnistLike();
        spec.split.perClassTrain = 2;
        spec.split.perClassValidation = 1;
        spec.split.perClassTest = 2;
        ExperimentState st(spec);
        DatasetRef ref;
        ref.bundled = "mnist";
        st.adaptToData(makeData("mnist", {5, 5}, {"3", "5"}, 784), ref, true);
        QCOMPARE(st.spec().name, spec.name);
        QVERIFY(st.spec().split.kind == SplitSpec::Kind::Counts);
        QVERIFY(!st.spec().paper.is_null());
        QCOMPARE(st.spec().levels, spec.levels);
    }

    void aRunOnOtherClassesOrThreatIsRetitled() {
        ExperimentState st(mnistLike());
        DatasetRef ref;
        ref.bundled = "mnist";
        st.adaptToData(makeData("mnist", {400, 400, 400}, {"3", "5", "8"}, 784), ref, true);
        ExperimentSpec edited = st.spec();
        QCOMPARE(st.forRun(edited).name, mnistLike().name);   // nothing changed: the preset's title
        QVERIFY(!st.forRun(edited).paper.is_null());
        edited.task.negative = {"8"};
        const ExperimentSpec run = st.forRun(edited);
        QCOMPARE(run.name, std::string("mnist: 3 vs 8 - ") + threatInfo("random-deletion").title);
        QVERIFY(run.paper.is_null());   // the paper's markers were for 3 vs 5
        edited = st.spec();
        edited.attack.threat = "worst-case-count";
        QCOMPARE(st.forRun(edited).name, std::string("mnist: 3 vs 5 - ") + threatInfo("worst-case-count").title);
        // Another data source than the one loaded: named by its source.
        edited = st.spec();
        edited.dataset = fileRef("/data/heart.csv");
        QVERIFY(st.forRun(edited).name.rfind("/data/heart.csv: 3 vs 5", 0) == 0);
    }

    void oneBudgetClampedOnce() {
        ExperimentSpec spec = mnistLike();
        spec.attack.threat = "worst-case-count";
        ExperimentState st(spec);
        QCOMPARE(st.setBudget(784.0), 784.0);   // no data yet: kept, clamped when it arrives
        DatasetRef ref;
        ref.bundled = "mnist";
        st.adaptToData(makeData("mnist", {5, 5}, {"3", "5"}, 160), ref, true);
        QCOMPARE(st.budget(), 160.0);            // K <= n
        QCOMPARE(st.maxBudget(), 160.0);
        QCOMPARE(st.setBudget(-3.0), 0.0);
        QCOMPARE(st.setBudget(std::nan("")), 0.0);
        QCOMPARE(st.setBudget(12.4), 12.0);
        QCOMPARE(st.setBudget(12.6), 13.0);
        // Value budgets: N < V on a grid of V / 1000 (V = 160 with v_j = 1).
        // The value grid is 1, 2 or 5 x 10^k at most V / 1000 (0.1 for V = 160): round budgets
        // are steps (the grid of V / 1000 held N = 3 on spambase's V = 57 as 3.021).
        QCOMPARE(valueBudgetStep(160.0), 0.1);
        QCOMPARE(clampBudget(LevelKind::Value, 500.0, 160, 160.0), 159.9);
        QCOMPARE(clampBudget(LevelKind::Value, 3.0, 57, 57.0), 3.0);
        QCOMPARE(clampBudget(LevelKind::Value, 1.0, 57, 57.0), 1.0);
        QCOMPARE(clampBudget(LevelKind::Value, 10.0, 57, 57.0), 10.0);
        QCOMPARE(clampBudget(LevelKind::Value, 3.02, 57, 57.0), 3.0);   // step 0.05
        QCOMPARE(maxBudgetFor(LevelKind::Value, 57, 57.0), 56.95);
        QCOMPARE(valueBudgetStep(0.0057), 5e-6);
        QVERIFY(clampBudget(LevelKind::Value, 1.0, 57, 0.0057) < 0.0057);
        QVERIFY(clampBudget(LevelKind::Value, 500.0, 160, 160.0) < 160.0);
        QCOMPARE(clampBudget(LevelKind::Value, 8.0, 160, 160.0), 8.0);
        QCOMPARE(clampBudget(LevelKind::Fraction, 1.7, 160, 160.0), 1.0);
        QCOMPARE(clampBudget(LevelKind::Probability, 0.333, 160, 160.0), 0.33);
        QCOMPARE(clampBudget(LevelKind::None, 5.0, 160, 160.0), 0.0);
        // The run's importance values bound value budgets: V = 2 * 160.
        st.setImportance(std::vector<double>(160, 2.0));
        QCOMPARE(st.totalValue(), 320.0);
    }

    void heatmapLearnersPickTheComparedPair() {
        ExperimentSpec s = mnistLike();   // SVM, FDROP, MCF, LP
        QCOMPARE(heatmapLearners(s), (std::vector<std::size_t>{0, 1}));
        std::swap(s.learners[0], s.learners[2]);   // MCF, FDROP, SVM, LP
        QCOMPARE(heatmapLearners(s), (std::vector<std::size_t>{2, 1}));
        s.learners = {{"FB", "featureboost", {}, {}}, {"AB", "adaboost", {}, {}}, {"T", "tree", {}, {}}};
        QCOMPARE(heatmapLearners(s), (std::vector<std::size_t>{1, 0, 2}));   // baseline A, FeatureBoost B, then the rest
        s.attack.threat = "adversarial-label-flips";
        QVERIFY(heatmapLearners(s).empty());
    }

    void importanceOfRunIsWhatTheRunUses() {
        const auto d = makeData("toy", {20, 20}, {"a", "b"}, 4);
        ExperimentSpec s;
        s.dataset = fileRef("toy.csv");
        s.task.kind = TaskSpec::Kind::Binary;
        s.task.positive = {"a"};
        s.task.negative = {"b"};
        s.split.kind = SplitSpec::Kind::Fraction;
        s.split.testFraction = 0.3;
        s.split.validationFraction = 0.2;
        s.importance.kind = ImportanceSpec::Kind::MutualInformation;
        const std::vector<double> v = importanceOfRun(s, *d);
        // The reference: mutual information on repetition 0's training part, computed here.
        const TaskData task{applyTask(*d, s.task), {}, {}, {}};
        ExperimentSpec uniform = s;
        uniform.importance.kind = ImportanceSpec::Kind::Dataset;
        const PreparedSplit p = prepareRepetition(task, uniform, 0);
        const std::vector<double> ref = mutualInformationImportance(p.train, s.importance.mutualInfo);
        QCOMPARE(v.size(), std::size_t(4));
        for (std::size_t j = 0; j < v.size(); ++j) QCOMPARE(v[j], ref[j]);
        // Feature 0 is the class itself: the most informative; not every v_j is 1.
        QVERIFY(v[0] > v[1] && v[0] > v[2]);
        QVERIFY(std::any_of(v.begin(), v.end(), [](double x) { return std::abs(x - 1.0) > 1e-9; }));
    }

    void presetsAreGroupedByPaperWithAOneLineSummary() {
        QCOMPARE(presetGroup("globerson-toy"), std::string("Globerson & Roweis"));
        QCOMPARE(presetGroup("spambase-greedy-mi"), std::string("Dekel & Shamir"));
        QCOMPARE(presetGroup("mcf-nightmare"), std::string("van der Maaten et al. (MCF)"));
        QCOMPARE(presetGroup("sonar-random-flips"), std::string("Biggio et al."));
        QCOMPARE(presetGroup("featureboost-vote"), std::string("Sullivan et al. (FeatureBoost)"));
        QCOMPARE(presetGroup("my-own"), std::string("Other"));
        QCOMPARE(oneLineSummary("Two Gaussians in R^2. 100 points: more."), std::string("Two Gaussians in R^2"));
        QCOMPARE(oneLineSummary("UCI Sonar (208 x 60) scaled: 5 splits"), std::string("UCI Sonar (208 x 60) scaled"));
        const std::string longText(300, 'x');
        QCOMPARE(oneLineSummary(longText, 50).size(), std::size_t(50));
        // Every shipped preset belongs to a paper and has a summary of one line.
        for (const PresetInfo& p : listPresets()) {
            QVERIFY2(p.group != "Other", p.name.c_str());
            QVERIFY2(!p.summary.empty() && p.summary.size() <= 110 && p.summary.find('\n') == std::string::npos, p.name.c_str());
        }
    }

    void noInternalFunctionNameInUserMessages() {
        // Every `throw ...("...")` message in core: no internal function name (camelCase
        // identifier followed by ':' at the start, e.g. "splitByCounts: ...").
        const std::filesystem::path core = std::filesystem::path(FDLAB_TEST_DATA) / ".." / ".." / "core";
        const std::regex internal("throw\\s+[\\w:]+\\s*\\(\\s*\"([a-z]+[A-Z]\\w*)\\s*:");
        QStringList found;
        for (const auto& e : std::filesystem::recursive_directory_iterator(core)) {
            if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
            std::ifstream in(e.path());
            const std::string text((std::istreambuf_iterator<char>(in)), {});
            for (auto it = std::sregex_iterator(text.begin(), text.end(), internal); it != std::sregex_iterator(); ++it)
                found << QString::fromStdString(e.path().filename().string() + ": " + (*it)[1].str());
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.join("; ")));
    }
};

QTEST_APPLESS_MAIN(TestExperimentState)
#include "test_experiment_state.moc"
