// Model files (core/io/model_json.h): exact round trip (scores compared with ==), and every
// corrupted variant rejected with a DataError naming the file.

#include "core/io/json_file.h"
#include "core/io/model_file.h"
#include "core/io/model_json.h"
#include "core/learners/mcf.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/rng.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <optional>
#include <thread>
#include <future>
#include <csignal>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>

using namespace fdlab;
using nlohmann::json;

namespace {

Dataset blobs(int classes) {
    Rng rng(21);
    Dataset d;
    d.name = "blobs";
    const int N = 60;
    d.X.resize(N, 6);
    for (int i = 0; i < N; ++i) {
        const int c = i % classes;
        d.labels.push_back(c);
        for (int j = 0; j < 6; ++j) d.X(i, j) = static_cast<float>(rng.normal() + (j == c ? 1.5 : 0.0));
    }
    for (int c = 0; c < classes; ++c) d.classNames.push_back("class" + std::to_string(c));
    for (int j = 0; j < 6; ++j) d.featureNames.push_back("px" + std::to_string(j));
    d.imageShape = ImageShape{2, 3};
    d.fillDefaults();
    return d;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

}  // namespace

class TestModelJson : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string path(const char* name) const { return QDir(m_dir.path()).filePath(name).toStdString(); }
    static std::string readAll(const std::string& file) {
        std::ifstream in(file, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    // A valid model file's JSON, for the corruption tests.
    json goodJson() {
        const Dataset d = blobs(3);
        McfParams p;
        const FitResult r = fitMcf(d, p);
        const ModelMetadata meta = describeTraining(d, "mcf", json{{"loss", "logistic"}, {"q", 0.5}});
        return json::parse(modelToJson(r.model, meta));
    }

    /// The DataError message of each reader of a JSON model file (loadModel, readJsonFile,
    /// loadModelFile); "accepted" for a reader that did not throw.
    static std::vector<std::string> readerErrors(const std::string& file) {
        std::vector<std::string> out;
        for (const auto& load : std::vector<std::function<void()>>{[&] { loadModel(file); },
                                                                  [&] { readJsonFile(file, "a file"); },
                                                                  [&] { loadModelFile(file); }}) {
            try {
                load();
                out.push_back("accepted");
            } catch (const DataError& e) {
                out.push_back(e.what());
            }
        }
        return out;
    }

    void expectRejected(const char* name, const std::function<void(json&)>& corrupt, const char* expected) {
        json j = goodJson();
        corrupt(j);
        const std::string file = path(name);
        writeText(file, j.dump(1));
        try {
            loadModel(file);
            QFAIL(qPrintable(QString("%1 was accepted").arg(name)));
        } catch (const DataError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find(file) == 0, msg.c_str());
            QVERIFY2(msg.find(expected) != std::string::npos, msg.c_str());
            QVERIFY(msg.find('\n') == std::string::npos);
        }
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    /// The atomic writer replaced whatever the path named by a regular file: a symbolic link lost
    /// its target, a device node (as root, --output /dev/null) or pipe became a file, and the
    /// mode became 0644.
    void atomicWritesKeepLinksPipesAndModes() {
        namespace fs = std::filesystem;
        const std::string target = path("target.json"), link = path("link.json");
        writeFileAtomically(target, "old\n");
        ::chmod(target.c_str(), 0600);
        fs::create_symlink("target.json", link);
        writeFileAtomically(link, "new\n");
        QVERIFY(fs::is_symlink(fs::symlink_status(link)));
        QCOMPARE(readAll(target), std::string("new\n"));
        QCOMPARE(fs::status(target).permissions() & fs::perms::mask, fs::perms::owner_read | fs::perms::owner_write);
        // A dangling link: the file it names is created, the link stays.
        const std::string dangling = path("dangling.json");
        fs::create_symlink("created.json", dangling);
        writeFileAtomically(dangling, "made\n");
        QVERIFY(fs::is_symlink(fs::symlink_status(dangling)));
        QCOMPARE(readAll(path("created.json")), std::string("made\n"));
        // A pipe is written through (a reader opened without blocking holds it open).
        const std::string fifo = path("pipe");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(fd >= 0);
        writeFileAtomically(fifo, "through\n");
        char buf[32] = {};
        const auto got = ::read(fd, buf, sizeof buf - 1);
        ::close(fd);
        QCOMPARE(std::string(buf, got > 0 ? std::size_t(got) : 0), std::string("through\n"));
        QVERIFY(fs::is_fifo(fs::symlink_status(fifo)));
        // This process's own descriptor (/dev/fd/N, /proc/self/fd/N, as /dev/stdout is): written
        // through it, after what it holds (a rename over the name /proc shows lost what `>>` had
        // appended). The file stays the same file.
        const std::string log = path("log.txt");
        writeFileAtomically(log, "previous\n");
        struct stat before {}, after {};
        QCOMPARE(::stat(log.c_str(), &before), 0);
        const int lfd = ::open(log.c_str(), O_WRONLY | O_APPEND);
        QVERIFY(lfd >= 0);
        writeFileAtomically("/dev/fd/" + std::to_string(lfd), "first\n");
        writeFileAtomically("/proc/self/fd/" + std::to_string(lfd), "second\n");
        ::close(lfd);
        QCOMPARE(readAll(log), std::string("previous\nfirst\nsecond\n"));
        QCOMPARE(::stat(log.c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
        // However the descriptor table is reached: /proc/thread-self, a link to /dev/fd.
        fs::create_directory_symlink("/dev/fd", path("fdlink"));
        const int afd = ::open(log.c_str(), O_WRONLY | O_APPEND);
        QVERIFY(afd >= 0);
        writeFileAtomically("/proc/thread-self/fd/" + std::to_string(afd), "third\n");
        writeFileAtomically(path("fdlink") + "/" + std::to_string(afd), "fourth\n");
        QCOMPARE(ownDescriptorOf(path("fdlink") + "/" + std::to_string(afd)), std::optional<int>(afd));
        ::close(afd);
        QCOMPARE(readAll(log), std::string("previous\nfirst\nsecond\nthird\nfourth\n"));
        QCOMPARE(::stat(log.c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(ownDescriptorOf("/dev/stdout"), std::optional<int>(1));
        QCOMPARE(ownDescriptorOf(log), std::optional<int>());
        // /proc/T/fd/N of one of our threads is ours too; another process's table is refused
        // (a rename over the name /proc shows lost that process's file), and "01" is no entry.
        {
            std::promise<long> tid;
            std::promise<void> done;
            std::thread t([&] {
                tid.set_value(::syscall(SYS_gettid));
                done.get_future().wait();
            });
            const long thread = tid.get_future().get();
            const int tfd = ::open(log.c_str(), O_WRONLY | O_APPEND);
            writeFileAtomically("/proc/" + std::to_string(thread) + "/fd/" + std::to_string(tfd), "fifth\n");
            const std::string id = std::to_string(thread);
            writeFileAtomically("/proc/" + id + "/task/" + id + "/fd/" + std::to_string(tfd), "sixth\n");
            ::close(tfd);
            done.set_value();
            t.join();
            QCOMPARE(readAll(log), std::string("previous\nfirst\nsecond\nthird\nfourth\nfifth\nsixth\n"));
        }
        const pid_t child = ::fork();
        if (child == 0) {
            ::pause();
            ::_exit(0);
        }
        try {
            writeFileAtomically("/proc/" + std::to_string(child) + "/fd/1", "x");
            QFAIL("another process's descriptor was written");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("another process") != std::string::npos, e.what());
        }
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically("/dev/fd/01", "x"));
        // Opened read-write without truncation (1<>file): no stale tail past what was written.
        const std::string rw = path("rw.txt");
        writeFileAtomically(rw, std::string(30, 'Z'));
        const int rfd = ::open(rw.c_str(), O_RDWR);
        writeFileAtomically("/dev/fd/" + std::to_string(rfd), "abc\n");
        ::close(rfd);
        QCOMPARE(readAll(rw), std::string("abc\n"));
        // A non-blocking pipe (left so by whoever passed it) is waited for, not a failed write.
        int pfd[2];
        QCOMPARE(::pipe2(pfd, O_NONBLOCK), 0);
        ::fcntl(pfd[0], F_SETFL, 0);   // the reader blocks
        const std::string big(300000, 'q');
        std::string received;
        std::thread reader([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            char chunk[65536];
            while (received.size() < big.size()) {
                const auto n = ::read(pfd[0], chunk, sizeof chunk);
                if (n <= 0) break;
                received.append(chunk, std::size_t(n));
            }
        });
        writeFileAtomically("/dev/fd/" + std::to_string(pfd[1]), big);
        reader.join();
        ::close(pfd[0]);
        ::close(pfd[1]);
        QVERIFY(received == big);
        // A chain of exactly 40 links (Linux's limit) is followed; 41 are refused.
        std::string last = "target.json";
        for (int k = 1; k <= 41; ++k) {
            const std::string name = "chain" + std::to_string(k);
            fs::create_symlink(last, path(name.c_str()));
            last = name;
        }
        writeFileAtomically(path("chain40"), "via 40\n");
        QCOMPARE(readAll(target), std::string("via 40\n"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(path("chain41"), "x"));
        QVERIFY(isRegularFileTarget(path("chain40")) && isRegularFileTarget(path("new.json")));
        QVERIFY(!isRegularFileTarget("/dev/stdout") && !isRegularFileTarget(fifo));
        // A directory is an error naming it; nothing is left behind.
        const std::string dir = path("adir");
        fs::create_directory(dir);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(dir, "x"));
        QVERIFY(fs::is_directory(dir));
        QCOMPARE(QDir(m_dir.path()).entryList(QStringList() << "*.tmp-*", QDir::Files).size(), 0);
    }

    /// An empty path said ": cannot replace file: No such file or directory", naming nothing.
    void atomicWriteRefusesAnEmptyPath() {
        try {
            writeFileAtomically("", "x");
            QFAIL("an empty path was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("empty output path") != std::string::npos, e.what());
        }
    }

    void writableTargetIsCheckedBeforeAnyData() {
        // What the writer would refuse, found up front (a run finished, then failed on these).
        QTemporaryDir tmp;
        namespace fs = std::filesystem;
        const fs::path dir = tmp.path().toStdString();
        auto refusal = [](const std::string& p) {
            try {
                checkWritableTarget(p);
                return std::string();
            } catch (const std::exception& e) {
                return std::string(e.what());
            }
        };
        QCOMPARE(refusal((dir / "new.json").string()), std::string());   // a new file in a folder
        QVERIFY(refusal((dir / "none" / "x.json").string()).find("none is not a folder") != std::string::npos);
        fs::create_symlink(dir / "none" / "x.json", dir / "dangling");   // a link into a missing folder
        QVERIFY(refusal((dir / "dangling").string()).find("none is not a folder") != std::string::npos);
        // Chains of 40 links are followed (Linux's limit), 41 are refused.
        fs::path prev = dir / "end.json";
        for (int i = 1; i <= 41; ++i) {
            const fs::path link = dir / ("l" + std::to_string(i));
            fs::create_symlink(prev, link);
            prev = link;
        }
        QCOMPARE(refusal((dir / "l40").string()), std::string());
        QVERIFY(refusal((dir / "l41").string()).find("too many levels of symbolic links") != std::string::npos);
        // This process's descriptors: open for writing is fine, read-only or closed is not.
        const int w = ::open((dir / "w").c_str(), O_WRONLY | O_CREAT, 0644);
        const int r = ::open((dir / "w").c_str(), O_RDONLY);
        QVERIFY(w >= 0 && r >= 0);
        QCOMPARE(refusal("/dev/fd/" + std::to_string(w)), std::string());
        QVERIFY(refusal("/dev/fd/" + std::to_string(r)).find("open for reading only") != std::string::npos);
        ::close(r);
        QVERIFY(refusal("/dev/fd/" + std::to_string(r)).find("is not open") != std::string::npos);
        ::close(w);
    }

    void roundTripIsBitIdentical_data() {
        QTest::addColumn<int>("classes");
        QTest::newRow("binary") << 2;
        QTest::newRow("3 classes") << 3;
    }
    void roundTripIsBitIdentical() {
        QFETCH(int, classes);
        const Dataset d = blobs(classes);
        McfParams p;
        p.q = 0.37;
        const FitResult r = fitMcf(d, p);
        QVERIFY(r.ok());
        Preprocessor pre;
        pre.scaling = Scaling::ZeroOne;
        pre.offset = {0.1f, -0.2f, 1.0f / 3.0f, 0.0f, 7.5f, 1e-7f};
        pre.factor = {1.0f, 2.0f, 0.3f, 1.0f, 0.1f, 3.0f};
        pre.shift = 0.0f;
        const json params = {{"loss", "logistic"}, {"q", 0.37}, {"nested", {{"a", 1}}}};
        const ModelMetadata meta = describeTraining(d, "mcf", params, pre);
        const std::string file = path(classes == 2 ? "binary.json" : "multi.json");
        saveModel(file, r.model, meta);
        // The atomic writer leaves no temporary file behind.
        QCOMPARE(QDir(m_dir.path()).entryList(QStringList() << "*.tmp-*", QDir::Files).size(), 0);

        const SavedModel s = loadModel(file);
        QCOMPARE(s.model.W.rows(), r.model.W.rows());
        QCOMPARE(s.model.W.cols(), r.model.W.cols());
        for (Eigen::Index i = 0; i < r.model.W.size(); ++i) QVERIFY(sameBits(s.model.W(i), r.model.W(i)));
        for (Eigen::Index k = 0; k < r.model.b.size(); ++k) QVERIFY(sameBits(s.model.b(k), r.model.b(k)));
        for (int i = 0; i < d.rows(); ++i) {
            QVERIFY(s.model.scores(d, i) == r.model.scores(d, i));
            QCOMPARE(s.model.predict(d, i), r.model.predict(d, i));
        }
        QVERIFY(s.model.classNames == d.classNames);
        const ModelMetadata& m = s.metadata;
        QCOMPARE(m.learner, std::string("mcf"));
        QVERIFY(m.params == params);
        QVERIFY(m.featureNames == d.featureNames);
        QVERIFY(m.classNames == d.classNames);
        QVERIFY(m.imageShape && *m.imageShape == (ImageShape{2, 3}));
        QCOMPARE(m.preprocessing.scaling, Scaling::ZeroOne);
        QVERIFY(m.preprocessing.offset == pre.offset);
        QVERIFY(m.preprocessing.factor == pre.factor);
        QCOMPARE(m.trainingFingerprint, fingerprintHex(d.fingerprint()));
        QCOMPARE(m.trainingFingerprint.size(), std::size_t(16));
        QCOMPARE(m.schemaVersion, 1);
        QCOMPARE(m.fdlabVersion, std::string(FDLAB_VERSION));
        checkCompatible(s, d);   // does not throw
    }

    void awkwardDoublesRoundTrip() {
        const double values[] = {0.1, 1.0 / 3.0, -2.0 / 3.0, M_PI, 1e-300, 5e-324 /* denormal */,
                                 std::numeric_limits<double>::max(), std::nextafter(1.0, 2.0), 123456789.123456789,
                                 -0.0};
        const int n = sizeof values / sizeof values[0];
        LinearModel m = LinearModel::binary(Eigen::Map<const Eigen::VectorXd>(values, n), std::nextafter(0.5, 0.0), {"neg", "pos"});
        ModelMetadata meta;
        meta.learner = "hand";
        for (int j = 0; j < n; ++j) meta.featureNames.push_back("f" + std::to_string(j));
        meta.trainingFingerprint = fingerprintHex(0x0123456789abcdefULL);
        const SavedModel s = modelFromJson(modelToJson(m, meta), "mem");
        for (int j = 0; j < n; ++j) QVERIFY2(sameBits(s.model.W(j), values[j]), qPrintable(QString::number(values[j], 'g', 17)));
        QVERIFY(sameBits(s.model.b(0), std::nextafter(0.5, 0.0)));
        QCOMPARE(s.metadata.trainingFingerprint, std::string("0123456789abcdef"));
    }

    void saveRefusesBadModels() {
        LinearModel m = LinearModel::binary(Eigen::VectorXd::Ones(3), 0.0, {"a", "b"});
        ModelMetadata meta;
        meta.featureNames = {"x", "y", "z"};
        meta.trainingFingerprint = fingerprintHex(1);
        m.W(1) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, saveModel(path("nan.json"), m, meta));
        QVERIFY(!QFile::exists(QString::fromStdString(path("nan.json"))));
        m.W(1) = 1.0;
        meta.featureNames = {"x", "y"};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelToJson(m, meta));
        meta.featureNames = {"x", "y", "z"};
        m.classNames = {"a", "b", "c"};   // 1 column needs 2 classes
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelToJson(m, meta));
    }

    void rejectsNotJson() {
        const std::string text = goodJson().dump(1);
        const std::string file = path("truncated.json");
        writeText(file, text.substr(0, text.size() / 2));
        try {
            loadModel(file);
            QFAIL("truncated JSON accepted");
        } catch (const DataError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.find(file + ": byte ") == 0, msg.c_str());
            QVERIFY2(msg.find("not a valid JSON") != std::string::npos, msg.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(DataError, loadModel(path("does-not-exist.json")));
    }

    // Issue 29: JSON nested 200000 deep crashed `fdlab-cli plan` (stack overflow in a recursive
    // walk of the parsed document). Every reader now refuses more than kMaxJsonDepth levels,
    // naming the byte of the first bracket too deep; 64 levels are still read.
    // Issue 29, found by tests/fuzz (model, experiment, shard, results): a number beyond a double
    // ("1e400") made nlohmann throw out_of_range, which no reader caught (a crash of the GUI's
    // loader, exit 1 with an internal message in the CLI). Now a DataError naming the file.
    void rejectsNumberOverflow() {
        const std::string file = path("overflow.json");
        json j = goodJson();
        j["model"]["bias"][0] = 12345.5;
        std::string text = j.dump(1);
        text.replace(text.find("12345.5"), 7, "-1e400");
        writeText(file, text);
        for (const std::string& msg : readerErrors(file)) {
            QVERIFY2(msg.starts_with(file + ": not"), msg.c_str());
            QVERIFY2(msg.ends_with("number overflow parsing '-1e400'"), msg.c_str());
        }
    }

    void rejectsDeepNesting() {
        const std::string deep = std::string(200000, '[') + std::string(200000, ']');
        const std::string file = path("deep.json");
        writeText(file, "{\"format\": " + deep + "}");
        for (const std::string& msg : readerErrors(file))
            QCOMPARE(msg, file + ": byte 74: JSON nested deeper than 64 levels");
        writeText(file, std::string(64, '[') + std::string(64, ']'));
        QCOMPARE(readJsonFile(file, "a file").dump().size(), std::size_t(128));
        // Brackets inside strings (escaped quotes included) are not nesting.
        writeText(file, "[\"" + std::string(100, '[') + "\\\"" + std::string(100, '{') + "\"]");
        QCOMPARE(readJsonFile(file, "a file")[0].get<std::string>().size(), std::size_t(201));
    }

    void rejectsCorruptedFiles() {
        expectRejected("schema.json", [](json& j) { j["schema_version"] = 2; }, "schema_version: version 2 is not supported");
        expectRejected("format.json", [](json& j) { j["format"] = "something-else"; }, "format");
        expectRejected("nofeatures.json", [](json& j) { j.erase("features"); }, "features: missing field");
        expectRejected("noweights.json", [](json& j) { j["model"].erase("weights"); }, "model.weights: missing field");
        expectRejected("noclasses.json", [](json& j) { j.erase("classes"); }, "classes: missing field");
        expectRejected("noprep.json", [](json& j) { j.erase("preprocessing"); }, "preprocessing: missing field");
        expectRejected("short.json", [](json& j) { j["model"]["weights"][1].erase(2); }, "model.weights[1]: 5 weights for 6 features");
        expectRejected("extra.json", [](json& j) { j["features"].push_back("px6"); }, "7 features");
        expectRejected("null.json", [](json& j) { j["model"]["weights"][0][3] = nullptr; }, "model.weights[0][3]: null");
        expectRejected("string.json", [](json& j) { j["model"]["bias"][2] = "1.0"; }, "model.bias[2]: expected a number");
        expectRejected("classes.json", [](json& j) { j["classes"].erase(2); }, "classes: 2 class names for a model with 3 column(s)");
        expectRejected("columns.json", [](json& j) { j["model"]["columns"] = 2; }, "classes: 3 class names for a model with 2 column(s)");
        expectRejected("bias.json", [](json& j) { j["model"]["bias"].erase(0); }, "model.bias: 2 values");
        expectRejected("shape.json", [](json& j) { j["image_shape"]["cols"] = 4; }, "image_shape: 2 x 4 does not match");
        expectRejected("scaling.json", [](json& j) { j["preprocessing"]["scaling"] = "log"; }, "preprocessing.scaling");
        expectRejected("fingerprint.json", [](json& j) { j["training_fingerprint"] = "xyz"; }, "training_fingerprint");
        expectRejected("toplevel.json", [](json& j) { j = json::array({1, 2}); }, "(top level)");
    }

    void checkCompatibleRejectsOtherFeatures() {
        const Dataset d = blobs(2);
        const FitResult r = fitMcf(d, McfParams{});
        const SavedModel s{r.model, describeTraining(d, "mcf", json::object())};
        checkCompatible(s, d);
        Dataset renamed = d;
        renamed.featureNames[4] = "other";
        try {
            checkCompatible(s, renamed);
            QFAIL("renamed feature accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("feature 5 is 'px4'") != std::string::npos, e.what());
        }
        Dataset fewer = d;
        fewer.X = d.X.leftCols(5);
        fewer.featureNames.resize(5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkCompatible(s, fewer));
    }
};

QTEST_APPLESS_MAIN(TestModelJson)
#include "test_model_json.moc"
