// Reading any model file back (core/io/model_file.h): each kind written by saveTrainedModel --
// a linear model, a kernel SVM, a tree, kNN, a boosted ensemble -- loads with the same scores (bit
// for bit), learner, params and names; a dataset that does not fit (feature count, feature names,
// classes) and broken files (missing, not JSON, not a model, a bad field) give one error that
// names the file.

#include "core/data/generators.h"
#include "core/data/loaders.h"
#include "core/eval/level_evaluation.h"
#include "core/eval/model_data.h"
#include "core/io/model_file.h"
#include "core/learners/registry.h"
#include "core/util/errors.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace fdlab;

namespace {

std::string writeText(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

/// The message of what f throws as E, or "" (and a test failure) when it throws nothing.
template <class E, class F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    QTest::qFail("no exception", __FILE__, __LINE__);
    return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

/// A linear model over two features f1, f2 with the given weight columns and class names.
TrainedModel linearModel(const Eigen::MatrixXd& W, std::vector<std::string> classes) {
    FitResult f;
    f.model.W = W;
    f.model.b = Eigen::VectorXd::Zero(W.cols());
    f.model.classNames = std::move(classes);
    f.status = Status::Converged;
    return wrapLinear(std::move(f));
}

/// Dense rows with labels and class names, features f1..fn.
Dataset rowsOf(const std::vector<std::vector<float>>& rows, std::vector<int> labels, std::vector<std::string> classes) {
    Dataset d;
    d.X.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = 0; j < rows[i].size(); ++j) d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
    d.labels = std::move(labels);
    d.classNames = std::move(classes);
    d.name = "rows";
    d.fillDefaults();
    return d;
}

}  // namespace

class TestModelFile : public QObject {
    Q_OBJECT
private slots:
    void everyKindRoundTrips_data() {
        QTest::addColumn<QString>("learner");
        QTest::addColumn<QString>("params");
        QTest::addColumn<bool>("linear");
        QTest::addColumn<QString>("type");   // what the file says about the learner
        QTest::newRow("svm") << "svm" << R"({"C": 2})" << true << "svm";
        QTest::newRow("logreg") << "logreg" << R"({"C": 0.5})" << true << "logreg";
        QTest::newRow("kernel-svm") << "kernel-svm" << R"({"kernel": "rbf", "gamma": 0.5, "C": 3})" << false << "kernel-svm";
        QTest::newRow("tree") << "tree" << R"({"depth": 3})" << false << "decision-tree";
        QTest::newRow("knn") << "knn" << R"({"k": 3})" << false << "knn";
        QTest::newRow("adaboost") << "adaboost" << R"({"rounds": 4})" << false << "adaboost";
    }

    void everyKindRoundTrips() {
        QFETCH(QString, learner);
        QFETCH(QString, params);
        QFETCH(bool, linear);
        QFETCH(QString, type);
        const std::string name = learner.toStdString();
        Dataset train = biggioGaussianDataset(80, 3, 1);
        const Dataset test = biggioGaussianDataset(60, 3, 9);
        const nlohmann::json p = completeParams(name, nlohmann::json::parse(params.toStdString()));
        const TrainedModel t = trainLearner(name, train, p);
        QVERIFY2(t.fit.ok(), t.fit.message.c_str());
        QTemporaryDir dir;
        const std::string path = dir.filePath("model.json").toStdString();
        saveTrainedModel(path, t, train, name, p);

        const LoadedModel m = loadModelFile(path);
        QCOMPARE(static_cast<bool>(m.trained.linear), linear);
        QCOMPARE(static_cast<bool>(m.savedLinear), linear);
        QCOMPARE(static_cast<bool>(m.savedKernel), name == "kernel-svm");
        QCOMPARE(m.features(), 3);
        QCOMPARE(m.classNames, train.classNames);
        QCOMPARE(m.trained.fit.status, Status::Converged);
        QCOMPARE(m.learner, type.toStdString());
        if (linear || name == "kernel-svm") {   // classifier files keep neither params nor names
            QVERIFY(m.params == p);
            QCOMPARE(m.featureNames, train.featureNameList());
        }
        // Bit-identical scores.
        std::vector<double> a(static_cast<std::size_t>(t.scorer->outputs())), b(a.size());
        for (int i = 0; i < test.rows(); ++i) {
            t.scorer->scoresRow(test.row(i), a);
            m.trained.scorer->scoresRow(test.row(i), b);
            QCOMPARE(b, a);
        }
        // loadModelFor: the same model, checked against the data.
        const TrainedModel u = loadModelFor(path, test);
        QCOMPARE(u.scorer->predict(test.row(5)), t.scorer->predict(test.row(5)));
        QCOMPARE(static_cast<bool>(u.linear), linear);
    }

    void dataThatDoesNotFitNamesTheFile() {
        const Dataset train = biggioGaussianDataset(60, 3, 1);
        QTemporaryDir dir;
        for (const std::string name : {"svm", "kernel-svm", "tree"}) {
            const nlohmann::json p = completeParams(name, nlohmann::json::object());
            const std::string path = dir.filePath(QString::fromStdString(name + ".json")).toStdString();
            saveTrainedModel(path, trainLearner(name, train, p), train, name, p);
            // Another feature count.
            const Dataset four = biggioGaussianDataset(20, 4, 2);
            const std::string e = errorOf<std::invalid_argument>([&] { loadModelFor(path, four); });
            QVERIFY2(e.starts_with(path + ": ") && contains(e, "expects 3 features") && contains(e, "has 4"), e.c_str());
        }
        // Other feature names (a linear-model file keeps them).
        Dataset renamed = biggioGaussianDataset(20, 3, 2);
        renamed.featureNames[1] = "elsewhere";
        const std::string svm = dir.filePath("svm.json").toStdString();
        const std::string e = errorOf<std::invalid_argument>([&] { loadModelFor(svm, renamed); });
        QVERIFY2(e.starts_with(svm + ": ") && contains(e, "feature 2") && contains(e, "elsewhere"), e.c_str());
        // Other classes (a classifier file keeps them).
        Dataset classes = biggioGaussianDataset(20, 3, 2);
        classes.classNames = {"ham", "spam"};
        const std::string tree = dir.filePath("tree.json").toStdString();
        const std::string c = errorOf<std::invalid_argument>([&] { loadModelFor(tree, classes); });
        QVERIFY2(c.starts_with(tree + ": ") && contains(c, "ham"), c.c_str());
    }

    void linearModelsCheckTheDatasClasses() {
        // Issue 25 item 1: linear-model files were checked on features only. A 3-class model on
        // 4-class data then indexed past its scores (heap corruption under worst-case-count), and
        // a binary model of classes [k1, k0] scored data of [k0, k1] with flipped labels.
        QTemporaryDir dir;
        Eigen::MatrixXd W3(2, 3);
        W3 << 1, -1, 0, 0, 1, -1;
        const TrainedModel three = linearModel(W3, {"a", "b", "c"});
        const Dataset abc = rowsOf({{1, 0}, {0, 1}, {-1, -1}}, {0, 1, 2}, {"a", "b", "c"});
        const std::string path3 = dir.filePath("three.json").toStdString();
        saveTrainedModel(path3, three, abc, "svm", nlohmann::json::object());
        const Dataset abcd = rowsOf({{1, 0}, {0, 1}, {-1, -1}, {2, 2}}, {0, 1, 2, 3}, {"a", "b", "c", "d"});
        std::string e = errorOf<std::invalid_argument>([&] { loadModelFor(path3, abcd); });
        QVERIFY2(e.starts_with(path3 + ": ") && contains(e, "model classes [a, b, c] differ from the classes [a, b, c, d]"),
                 e.c_str());
        QCOMPARE(inModelClassOrder(loadModelFile(path3), abcd).classNames, abcd.classNames);   // no reordering
        // The worst-case curve itself refuses instead of writing past its three scores.
        AttackSpec wc;
        wc.threat = "worst-case-count";
        e = errorOf<std::invalid_argument>([&] { evaluateAtLevels(three, abcd, wc, {1}); });
        QVERIFY2(contains(e, "3 classes") && contains(e, "has 4"), e.c_str());
        QCOMPARE(evaluateAtLevels(three, abc, wc, {0}).front().error, 0.0);

        // Binary: the model's class 1 ("k0") is the positive side of w = (1, -1).
        Eigen::MatrixXd w(2, 1);
        w << 1, -1;
        const TrainedModel binary = linearModel(w, {"k1", "k0"});
        const std::string path2 = dir.filePath("binary.json").toStdString();
        saveTrainedModel(path2, binary, rowsOf({{1, 0}, {0, 1}}, {1, 0}, {"k1", "k0"}), "svm", nlohmann::json::object());
        // The same two rows as a task of classes [k0, k1]: read in their own order, all wrong.
        const Dataset swapped = rowsOf({{1, 0}, {0, 1}}, {0, 1}, {"k0", "k1"});
        QCOMPARE(scoreDataset(*binary.scorer, swapped).error, 1.0);
        e = errorOf<std::invalid_argument>([&] { loadModelFor(path2, swapped); });
        QVERIFY2(contains(e, "model classes [k1, k0] differ from the classes [k0, k1]"), e.c_str());
        // Matched by name: labels renumbered, every row right.
        const Dataset matched = inModelClassOrder(loadModelFile(path2), swapped);
        checkModelFits(loadModelFile(path2), matched, path2);   // does not throw
        QCOMPARE(matched.classNames, (std::vector<std::string>{"k1", "k0"}));
        QCOMPARE(matched.labels, (std::vector<int>{1, 0}));
        QCOMPARE(scoreDataset(*binary.scorer, matched).error, 0.0);
        // Other names are refused, not matched.
        const LoadedModel m2 = loadModelFile(path2);
        e = errorOf<std::invalid_argument>([&] {
            checkModelFits(m2, inModelClassOrder(m2, rowsOf({{1, 0}, {0, 1}}, {0, 1}, {"k0", "k2"})), path2);
        });
        QVERIFY2(contains(e, "[k1, k0]") && contains(e, "[k0, k2]"), e.c_str());
    }

    void exportLearnerModelIsRepetition0sModel() {
        // The GUI's Export model (core since the review): the learner chosen by id, with the
        // parameters of repetition 0's middle level, trained on repetition 0's training part.
        QTemporaryDir dir;
        const std::string csv = dir.filePath("data.csv").toStdString();
        saveCsv(biggioGaussianDataset(120, 3, 4), csv);
        ExperimentSpec spec;
        spec.dataset.file = csv;
        spec.split.testFraction = 0.3;
        spec.split.validationFraction = 0.0;
        LearnerSpec a, b;
        a.id = "SVM-A", a.learner = "svm", a.params = {{"C", 0.1}};
        b.id = "SVM-B", b.learner = "svm", b.params = {{"C", 10.0}};
        spec.learners = {a, b};
        QCOMPARE(learnerById(spec, "SVM-B").params["C"].get<double>(), 10.0);
        bool named = false;
        try {
            learnerById(spec, "SVM-C");
        } catch (const std::invalid_argument& e) {
            named = std::string(e.what()).find("\"SVM-C\"") != std::string::npos;
        }
        QVERIFY(named);
        ExperimentResult r;
        for (int level = 0; level < 3; ++level) {   // levels 0, 1, 2 at repetition 0: the middle one's params
            CurvePoint pt;
            pt.learner = "SVM-B", pt.levelIndex = level, pt.params = {{"C", 1.0 + level}};
            r.points.push_back(pt);
        }
        QCOMPARE(paramsAtRepetition0(&r, spec.learners[1])["C"].get<double>(), 2.0);
        QCOMPARE(paramsAtRepetition0(nullptr, spec.learners[0])["C"].get<double>(), 0.1);

        const std::string path = dir.filePath("b.json").toStdString();
        exportLearnerModel(spec, spec.learners[1], {{"C", 2.0}}, path);
        const PreparedSplit ps = prepareRepetition(loadTaskData(spec), spec, 0);
        const TrainedModel ref = trainLearner("svm", ps.train, completeParams("svm", {{"C", 2.0}}));
        const LoadedModel saved = loadModelFile(path);
        QVERIFY(saved.trained.linear && ref.linear);
        QCOMPARE(saved.trained.linear->W.rows(), ref.linear->W.rows());
        QVERIFY((saved.trained.linear->W - ref.linear->W).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(std::abs(saved.trained.linear->b(0) - ref.linear->b(0)) < 1e-12);
        QCOMPARE(saved.params["C"].get<double>(), 2.0);
    }

    void evaluationUsesTheModelsSplitAndScaling() {
        // Issue 25 item 2: eval and attack rebuilt the split and the scaling from their own
        // options. The model file now records both (and the training part's fingerprint) and
        // specForModel / prepareForModel apply them, refuse contradicting options and refuse data
        // whose training part is not the model's.
        QTemporaryDir dir;
        Dataset raw = biggioGaussianDataset(120, 3, 4);
        for (int i = 0; i < raw.rows(); ++i) raw.X(i, 1) *= 1000.0f, raw.X(i, 2) += 50.0f;   // scaling matters
        const std::string csv = dir.filePath("data.csv").toStdString();
        saveCsv(raw, csv);
        ExperimentSpec trainSpec;
        trainSpec.dataset.file = csv;
        trainSpec.preprocessing = Scaling::ZeroOne;
        trainSpec.split.testFraction = 0.3;
        trainSpec.split.validationFraction = 0.0;
        trainSpec.seed = 1;
        const PreparedSplit ps = prepareRepetition(loadTaskData(trainSpec), trainSpec, 0);
        const nlohmann::json p = completeParams("knn", {{"k", 1}});
        const TrainedModel t = trainLearner("knn", ps.train, p);
        const std::string path = dir.filePath("knn.json").toStdString();
        saveTrainedModel(path, t, ps.train, "knn", p, ps.preprocessor, splitRecord(trainSpec, false));
        const double expected = scoreDataset(*t.scorer, ps.test).error;

        // What eval's options say when only the data is given: no scaling, and (say) seed 3.
        ExperimentSpec options = trainSpec;
        options.preprocessing = Scaling::None;
        options.seed = 3;
        const LoadedModel model = loadModelFile(path);
        QVERIFY(model.training.preprocessing && model.training.preprocessing->scaling == Scaling::ZeroOne);
        // Before the fix eval scored this split (other rows, unscaled): another number.
        const PreparedSplit naive = prepareRepetition(loadTaskData(options), options, 0);
        const double naiveError = scoreDataset(*model.trained.scorer, naive.test).error;
        std::vector<std::string> warnings;
        const ExperimentSpec spec = specForModel(options, model, {}, path, warnings);
        QCOMPARE(spec.seed, std::uint64_t{1});
        QCOMPARE(spec.preprocessing, Scaling::ZeroOne);
        const PreparedSplit back = prepareForModel(loadTaskData(spec), spec, model, path, warnings);
        QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());
        QCOMPARE(back.test.fingerprint(), ps.test.fingerprint());
        QCOMPARE(scoreDataset(*model.trained.scorer, back.test).error, expected);
        qInfo("test error %.3f with the model's split and scaling, %.3f with the options'", expected, naiveError);
        QVERIFY(naiveError != expected);

        // Options that contradict the record are refused, naming both values.
        ModelDataOptions given;
        given.seed = 2;
        std::string e = errorOf<std::invalid_argument>([&] { specForModel(options, model, given, path, warnings); });
        QVERIFY2(e.starts_with(path + ": ") && contains(e, "--seed 1") && contains(e, "--seed 2"), e.c_str());
        given = {};
        given.scaling = Scaling::None;
        e = errorOf<std::invalid_argument>([&] { specForModel(options, model, given, path, warnings); });
        QVERIFY2(contains(e, "--scale zero-one") && contains(e, "--scale none"), e.c_str());
        given = {};
        given.testFraction = 0.5;
        e = errorOf<std::invalid_argument>([&] { specForModel(options, model, given, path, warnings); });
        QVERIFY2(contains(e, "test fraction 0.3") && contains(e, "--test-fraction 0.5"), e.c_str());
        given.testFraction = 0.3;   // the same value is no contradiction
        QCOMPARE(specForModel(options, model, given, path, warnings).seed, std::uint64_t{1});

        // Changed data (one value): the training part is not the model's, refused.
        Dataset changed = raw;
        changed.X(0, 0) += 1.0f;
        const std::string csv2 = dir.filePath("changed.csv").toStdString();
        saveCsv(changed, csv2);
        ExperimentSpec other = spec;
        other.dataset.file = csv2;
        e = errorOf<std::invalid_argument>([&] { prepareForModel(loadTaskData(other), other, model, path, warnings); });
        QVERIFY2(contains(e, "is not the data the model was trained on") && contains(e, "may hold rows"), e.c_str());

        // A file written before the split was recorded: the options' split, with a warning, and
        // the fingerprint refuses a seed that is not the training one.
        nlohmann::json doc = readJson(path);
        doc.erase("split");
        const std::string old = writeText(dir, "old.json", doc.dump());
        const LoadedModel oldModel = loadModelFile(old);
        warnings.clear();
        const ExperimentSpec oldSpec = specForModel(options, oldModel, {}, old, warnings);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(contains(warnings[0], "records no split") && contains(warnings[0], "seed 3"), warnings[0].c_str());
        e = errorOf<std::invalid_argument>([&] { prepareForModel(loadTaskData(oldSpec), oldSpec, oldModel, old, warnings); });
        QVERIFY2(contains(e, "may hold rows"), e.c_str());
        ExperimentSpec seed1 = oldSpec;
        seed1.seed = 1;
        QCOMPARE(scoreDataset(*oldModel.trained.scorer, prepareForModel(loadTaskData(seed1), seed1, oldModel, old, warnings).test).error,
                 expected);

        // Saved without a split (Python): nothing to rebuild, a difference is only reported.
        doc["split"] = nullptr;
        const std::string direct = writeText(dir, "direct.json", doc.dump());
        const LoadedModel directModel = loadModelFile(direct);
        warnings.clear();
        const ExperimentSpec directSpec = specForModel(options, directModel, {}, direct, warnings);
        prepareForModel(loadTaskData(directSpec), directSpec, directModel, direct, warnings);
        QCOMPARE(warnings.size(), std::size_t(2));
        QVERIFY2(contains(warnings[1], "is not the data the model was trained on"), warnings[1].c_str());
    }

    void brokenFilesNameTheFile() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("missing.json").toStdString();
        std::string e = errorOf<DataError>([&] { loadModelFile(missing); });
        QVERIFY2(e.starts_with(missing + ":"), e.c_str());

        const std::string notJson = writeText(dir, "not.json", "{\"format\": \"fdlab-linear-model\",\n  oops");
        e = errorOf<DataError>([&] { loadModelFile(notJson); });
        QVERIFY2(e.starts_with(notJson + ":") && contains(e, "JSON"), e.c_str());

        // Valid JSON that is no model file (an experiment): the format field is named.
        const std::string experiment = writeText(dir, "experiment.json", R"({"name": "x", "learners": []})");
        e = errorOf<DataError>([&] { loadModelFile(experiment); });
        QVERIFY2(e.starts_with(experiment + ":") && contains(e, "format"), e.c_str());

        // A linear model whose weights do not match its feature names.
        const Dataset train = biggioGaussianDataset(40, 2, 1);
        const nlohmann::json p = completeParams("svm", nlohmann::json::object());
        const std::string good = dir.filePath("good.json").toStdString();
        saveTrainedModel(good, trainLearner("svm", train, p), train, "svm", p);
        QFile f(QString::fromStdString(good));
        QVERIFY(f.open(QIODevice::ReadOnly));
        nlohmann::json doc = nlohmann::json::parse(f.readAll().toStdString());
        QVERIFY(doc.contains("model"));
        doc["model"]["weights"] = nlohmann::json::array({1.0});
        const std::string short_ = writeText(dir, "short.json", doc.dump());
        e = errorOf<DataError>([&] { loadModelFile(short_); });
        QVERIFY2(e.starts_with(short_ + ":") && contains(e, "weights"), e.c_str());

        // Model text (Python's load_model, unpickling): 100,000 nested brackets overflowed the
        // stack in nlohmann's recursive parser (a segfault); 1e999 was a bare "number overflow".
        // Both are DataErrors naming the source, as for files.
        e = errorOf<DataError>([&] { modelFromText(std::string(100000, '[') + std::string(100000, ']'), "deep.json"); });
        QVERIFY2(e.starts_with("deep.json:") && contains(e, "nested deeper than 64"), e.c_str());
        e = errorOf<DataError>([&] { modelFromText(R"({"a": 1e999})", "big.json"); });
        QVERIFY2(e.starts_with("big.json:"), e.c_str());
        // A NUL byte ended nlohmann's input: a model followed by NUL and garbage loaded.
        QFile gf(QString::fromStdString(good));
        QVERIFY(gf.open(QIODevice::ReadOnly));
        const std::string goodText = gf.readAll().toStdString();
        QVERIFY(modelFromText(goodText, "good.json").trained.scorer);
        e = errorOf<DataError>([&] { modelFromText(goodText + std::string(1, '\0') + "{garbage", "nul.json"); });
        QVERIFY2(e.starts_with("nul.json:") && contains(e, "NUL byte"), e.c_str());

        // "input_scaled" (a model trained in Python on prepare()'s scaled data): a boolean, and
        // only with a scaling to apply; it reads back and survives a save of the loaded model.
        doc = nlohmann::json::parse(goodText);
        doc["input_scaled"] = "yes";
        e = errorOf<DataError>([&] { modelFromText(doc.dump(), "flag.json"); });
        QVERIFY2(e.starts_with("flag.json:") && contains(e, "input_scaled") && contains(e, "true or false"), e.c_str());
        doc["input_scaled"] = true;
        e = errorOf<DataError>([&] { modelFromText(doc.dump(), "flag.json"); });
        QVERIFY2(contains(e, "input_scaled") && contains(e, "no scaling"), e.c_str());
        const Preprocessor zeroOne = Preprocessor::fit(train, Scaling::ZeroOne);
        Dataset scaled = train;
        zeroOne.apply(scaled);
        const std::string text = trainedModelText(trainLearner("svm", scaled, p), scaled, "svm", p, zeroOne, nullptr, "", true);
        const LoadedModel loaded = modelFromText(text, "scaled.json");
        QVERIFY(loaded.training.inputScaled);
        QVERIFY(loaded.training.preprocessing && loaded.training.preprocessing->scaling == Scaling::ZeroOne);
        QVERIFY(modelFromText(loadedModelText(loaded), "again.json").training.inputScaled);
        // Preprocessing is stored as float: 1e39 is refused (it became inf, written as null).
        doc = nlohmann::json::parse(goodText);
        doc["preprocessing"]["shift"] = 1e39;
        e = errorOf<DataError>([&] { modelFromText(doc.dump(), "big.json"); });
        QVERIFY2(contains(e, "preprocessing.shift") && contains(e, "beyond the range of a float"), e.c_str());
        // Without a scaling the flag is not written.
        QVERIFY(!modelFromText(trainedModelText(trainLearner("svm", train, p), train, "svm", p, {}, nullptr, "", true),
                               "plain.json").training.inputScaled);
    }
};

QTEST_APPLESS_MAIN(TestModelFile)
#include "test_model_file.moc"
