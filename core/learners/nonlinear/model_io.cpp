#include "core/learners/nonlinear/model_io.h"

#include "core/learners/nonlinear/adaboost.h"
#include "core/learners/nonlinear/decision_tree.h"
#include "core/learners/nonlinear/knn.h"
#include "core/learners/nonlinear/neural_net.h"
#include "core/io/json_file.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace fdlab {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "fdlab-classifier";

// The shared reader plus matrices (arrays of equal-length number arrays).
class Reader : public JsonReader {
public:
    using JsonReader::JsonReader;
    /// rows x cols matrix from an array of arrays (cols < 0: any, but all rows equal).
    Eigen::MatrixXd matrix(const json& v, const std::string& path, long rows, long cols) const {
        array(v, path);
        if (rows >= 0 && static_cast<long>(v.size()) != rows)
            fail(path, "expected " + std::to_string(rows) + " rows, got " + std::to_string(v.size()));
        Eigen::MatrixXd M;
        for (std::size_t r = 0; r < v.size(); ++r) {
            const std::string pr = path + "[" + std::to_string(r) + "]";
            const std::vector<double> row = numbers(v[r], pr);
            if (r == 0) {
                if (cols < 0) cols = static_cast<long>(row.size());
                M.resize(static_cast<Eigen::Index>(v.size()), cols);
            }
            if (static_cast<long>(row.size()) != cols)
                fail(pr, "expected " + std::to_string(cols) + " values, got " + std::to_string(row.size()));
            for (long c = 0; c < cols; ++c) M(static_cast<Eigen::Index>(r), c) = row[static_cast<std::size_t>(c)];
        }
        return M;
    }
};

std::shared_ptr<const Classifier> parseModel(const json& j, const Reader& rd, const std::string& path);

std::shared_ptr<const Classifier> parseChecked(const json& j, const Reader& rd, const std::string& path) {
    const std::string type = rd.string(rd.field(j, path, "type"), path + ".type");
    const int n = rd.integer(rd.field(j, path, "features"), path + ".features");
    if (n < 1) rd.fail(path + ".features", "must be >= 1");
    const std::vector<std::string> classes = rd.strings(rd.field(j, path, "classes"), path + ".classes");
    if (classes.size() < 2) rd.fail(path + ".classes", "needs at least two classes");
    const int K = static_cast<int>(classes.size());
    const long O = K == 2 ? 1 : K;

    if (type == "decision-tree") {
        const json& nodes = rd.array(rd.field(j, path, "nodes"), path + ".nodes");
        std::vector<DecisionTree::Node> out;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const std::string pn = path + ".nodes[" + std::to_string(i) + "]";
            DecisionTree::Node nd;
            nd.feature = rd.integer(rd.field(nodes[i], pn, "feature"), pn + ".feature");
            nd.threshold = rd.number(rd.field(nodes[i], pn, "threshold"), pn + ".threshold");
            nd.left = rd.integer(rd.field(nodes[i], pn, "left"), pn + ".left");
            nd.right = rd.integer(rd.field(nodes[i], pn, "right"), pn + ".right");
            nd.p = rd.numbers(rd.field(nodes[i], pn, "p"), pn + ".p");
            nd.weight = rd.number(rd.field(nodes[i], pn, "weight"), pn + ".weight");
            nd.count = rd.integer(rd.field(nodes[i], pn, "count"), pn + ".count");
            if (nd.feature < -1) rd.fail(pn + ".feature", "must be -1 (leaf) or a feature index");
            out.push_back(std::move(nd));
        }
        return std::make_shared<DecisionTree>(n, classes, std::move(out));
    }
    if (type == "knn") {
        const int k = rd.integer(rd.field(j, path, "k"), path + ".k");
        const std::vector<int> labels = rd.integers(rd.field(j, path, "labels"), path + ".labels");
        const Eigen::MatrixXd T = rd.matrix(rd.field(j, path, "train"), path + ".train",
                                            static_cast<long>(labels.size()), n);
        Dataset::Matrix X = T.cast<float>();
        return std::make_shared<KnnModel>(k, std::move(X), labels, classes);
    }
    if (type == "neural-net") {
        const std::string a = rd.string(rd.field(j, path, "activation"), path + ".activation");
        if (a != "tanh" && a != "relu") rd.fail(path + ".activation", "expected \"tanh\" or \"relu\", got \"" + a + "\"");
        Eigen::MatrixXd W1 = rd.matrix(rd.field(j, path, "w1"), path + ".w1", -1, n);
        const std::vector<double> b1 = rd.numbers(rd.field(j, path, "b1"), path + ".b1");
        Eigen::MatrixXd W2 = rd.matrix(rd.field(j, path, "w2"), path + ".w2", O, static_cast<long>(W1.rows()));
        const std::vector<double> b2 = rd.numbers(rd.field(j, path, "b2"), path + ".b2");
        return std::make_shared<NeuralNet>(a == "tanh" ? Activation::Tanh : Activation::Relu, std::move(W1),
                                           Eigen::Map<const Eigen::VectorXd>(b1.data(), static_cast<Eigen::Index>(b1.size())),
                                           std::move(W2),
                                           Eigen::Map<const Eigen::VectorXd>(b2.data(), static_cast<Eigen::Index>(b2.size())),
                                           classes);
    }
    if (type == "adaboost" || type == "mixture-of-experts" || type == "feature-boost") {
        const json& ms = rd.array(rd.field(j, path, "members"), path + ".members");
        std::vector<EnsembleMember> members;
        for (std::size_t t = 0; t < ms.size(); ++t) {
            const std::string pm = path + ".members[" + std::to_string(t) + "]";
            EnsembleMember e;
            e.weight = rd.number(rd.field(ms[t], pm, "weight"), pm + ".weight");
            e.columns = rd.integers(rd.field(ms[t], pm, "columns"), pm + ".columns");
            e.scale = rd.numbers(rd.field(ms[t], pm, "scale"), pm + ".scale");
            e.model = parseModel(rd.field(ms[t], pm, "model"), rd, pm + ".model");
            members.push_back(std::move(e));
        }
        auto model = std::make_shared<VotingEnsemble>(type, n, classes, std::move(members));
        if (j.contains("importance") || j.contains("distribution")) {
            Eigen::MatrixXd I = rd.matrix(rd.field(j, path, "importance"), path + ".importance", -1, n);
            Eigen::MatrixXd D = rd.matrix(rd.field(j, path, "distribution"), path + ".distribution", I.rows(), n);
            model->setRecord(std::move(I), std::move(D));
        }
        return model;
    }
    rd.fail(path + ".type", "unknown model type \"" + type + "\"");
}

std::shared_ptr<const Classifier> parseModel(const json& j, const Reader& rd, const std::string& path) {
    try {
        return parseChecked(j, rd, path);
    } catch (const std::invalid_argument& e) {
        rd.fail(path, e.what());   // inconsistent model: name the file and the model's path
    }
}

}  // namespace

std::string classifierToJson(const Classifier& model) {
    json j;
    j["format"] = kFormat;
    j["schema_version"] = kClassifierSchemaVersion;
    j["fdlab_version"] = FDLAB_VERSION;
    j["model"] = model.toJson();
    return j.dump(1) + "\n";
}

std::shared_ptr<const Classifier> classifierFromModelJson(const json& model, const std::string& source,
                                                          const std::string& path) {
    return parseModel(model, Reader(source), path);
}

std::shared_ptr<const Classifier> classifierFromJson(const std::string& text, const std::string& source) {
    const json j = parseJsonText(text, source, "not a valid JSON model file");
    const Reader rd(source);
    if (!j.is_object()) rd.fail("(top level)", "expected a JSON object");
    if (rd.string(rd.field(j, "(top level)", "format"), "format") != kFormat)
        rd.fail("format", "not an FDLab non-linear model (expected \"" + std::string(kFormat) + "\")");
    const int version = rd.integer(rd.field(j, "(top level)", "schema_version"), "schema_version");
    if (version != kClassifierSchemaVersion)
        rd.fail("schema_version", "version " + std::to_string(version) + " is not supported (this FDLab reads " +
                                      std::to_string(kClassifierSchemaVersion) + ")");
    return parseModel(rd.field(j, "(top level)", "model"), rd, "model");
}

void saveClassifier(const std::string& path, const Classifier& model) {
    writeFileAtomically(path, classifierToJson(model));
}

std::shared_ptr<const Classifier> loadClassifier(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open the model file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw DataError(path, 0, "cannot read the model file");
    return classifierFromJson(ss.str(), path);
}

bool isClassifierDocument(const json& doc) {
    return doc.is_object() && doc.contains("format") && doc.at("format") == kFormat;
}

void checkCompatible(const Classifier& model, const Dataset& d) {
    if (model.features() != d.features())
        throw std::invalid_argument("model expects " + std::to_string(model.features()) + " features, dataset '" + d.name +
                                    "' has " + std::to_string(d.features()));
    if (model.classNames() != d.classNames) {
        auto list = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& c : v) s += (s.empty() ? "" : ", ") + c;
            return s;
        };
        throw std::invalid_argument("model classes [" + list(model.classNames()) + "] differ from the classes [" +
                                    list(d.classNames) + "] of dataset '" + d.name + "' (use the training task)");
    }
}

}  // namespace fdlab
