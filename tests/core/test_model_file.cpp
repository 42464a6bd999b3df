// Reading any model file back (core/io/model_file.h): each kind written by saveTrainedModel --
// a linear model, a kernel SVM, a tree, kNN, a boosted ensemble -- loads with the same scores (bit
// for bit), learner, params and names; a dataset that does not fit (feature count, feature names,
// classes) and broken files (missing, not JSON, not a model, a bad field) give one error that
// names the file.

#include "core/data/generators.h"
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
            QCOMPARE(m.featureNames, train.featureNames);
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
    }
};

QTEST_APPLESS_MAIN(TestModelFile)
#include "test_model_file.moc"
