#include "core/learners/nonlinear/classifier.h"

#include "core/learners/nonlinear/decision_tree.h"
#include "core/learners/nonlinear/knn.h"
#include "core/learners/nonlinear/neural_net.h"

#include <array>
#include <atomic>
#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {
std::atomic<std::uint64_t> g_nextModelId{1};

[[noreturn]] void bad(const std::string& field, const std::string& what) {
    throw std::invalid_argument(field + ": " + what);
}
}  // namespace

Classifier::Classifier(int features, std::vector<std::string> classNames)
    : m_features(features), m_classNames(std::move(classNames)), m_id(g_nextModelId.fetch_add(1)) {
    if (features <= 0) throw std::invalid_argument("model: needs at least one feature");
    if (m_classNames.size() < 2) throw std::invalid_argument("model: needs at least two classes");
}

Classifier::Classifier(const Classifier& other)
    : Scorer(other), m_features(other.m_features), m_classNames(other.m_classNames),
      m_id(g_nextModelId.fetch_add(1)) {}

Eigen::MatrixXd Classifier::scoreRows(const Dataset& d) const {
    if (d.features() != features())
        throw std::invalid_argument("model expects " + std::to_string(features()) + " features, data has " +
                                    std::to_string(d.features()));
    Eigen::MatrixXd S(d.rows(), outputs());
    std::vector<double> s(static_cast<std::size_t>(outputs()));
    for (int i = 0; i < d.rows(); ++i) {
        scoresRow(d.row(i), s);
        for (int k = 0; k < outputs(); ++k) S(i, k) = s[static_cast<std::size_t>(k)];
    }
    return S;
}

int Classifier::classFromScores(std::span<const double> s) {
    if (s.size() == 1) return s[0] > 0.0 ? 1 : 0;
    std::size_t best = 0;
    for (std::size_t k = 1; k < s.size(); ++k)
        if (s[k] > s[best]) best = k;
    return static_cast<int>(best);
}

std::vector<int> Classifier::predictRows(const Dataset& d) const {
    const Eigen::MatrixXd S = scoreRows(d);
    std::vector<int> out(static_cast<std::size_t>(d.rows()));
    std::vector<double> s(static_cast<std::size_t>(S.cols()));
    for (int i = 0; i < d.rows(); ++i) {
        for (Eigen::Index k = 0; k < S.cols(); ++k) s[static_cast<std::size_t>(k)] = S(i, k);
        out[static_cast<std::size_t>(i)] = classFromScores(s);
    }
    return out;
}

double Classifier::errorRate(const Dataset& d) const {
    if (d.rows() == 0) return 0.0;
    const std::vector<int> p = predictRows(d);
    int wrong = 0;
    for (int i = 0; i < d.rows(); ++i)
        if (p[static_cast<std::size_t>(i)] != d.labels[static_cast<std::size_t>(i)]) ++wrong;
    return static_cast<double>(wrong) / d.rows();
}

nlohmann::json Classifier::jsonHeader() const {
    return {{"type", type()}, {"features", m_features}, {"classes", m_classNames}};
}

void Classifier::scoresFromProbabilities(std::span<const double> p, std::span<double> out) const {
    if (out.size() == 1) {
        out[0] = p[1] - p[0];
        return;
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = p[k];
}

// ---------------------------------------------------------------------------------------------

const char* toString(SplitCriterion c) { return c == SplitCriterion::Gini ? "gini" : "entropy"; }
const char* toString(Activation a) { return a == Activation::Tanh ? "tanh" : "relu"; }
const char* toString(NetOptimizer o) { return o == NetOptimizer::Sgd ? "sgd" : "lbfgs"; }
const char* toString(BaseLearner b) {
    switch (b) {
    case BaseLearner::DecisionTree: return "decision-tree";
    case BaseLearner::Knn: return "knn";
    case BaseLearner::NeuralNet: return "neural-net";
    }
    return "?";
}

void DecisionTreeParams::validate() const {
    if (maxDepth < 0 || maxDepth > 64) bad("maxDepth", "must be in 0..64, got " + std::to_string(maxDepth));
    if (minLeaf < 1) bad("minLeaf", "must be >= 1, got " + std::to_string(minLeaf));
    if (!(minGain >= 0.0) || !std::isfinite(minGain)) bad("minGain", "must be finite and >= 0");
}

void KnnParams::validate() const {
    if (k < 1) bad("k", "must be >= 1, got " + std::to_string(k));
}

void NeuralNetParams::validate() const {
    if (hidden < 1 || hidden > 4096) bad("hidden", "must be in 1..4096, got " + std::to_string(hidden));
    if (!(learningRate > 0.0) || !std::isfinite(learningRate)) bad("learningRate", "must be finite and > 0");
    if (!(momentum >= 0.0 && momentum < 1.0)) bad("momentum", "must be in [0, 1)");
    if (batchSize < 1) bad("batchSize", "must be >= 1");
    if (maxEpochs < 1) bad("maxEpochs", "must be >= 1");
    if (lbfgsBlock < 1) bad("lbfgsBlock", "must be >= 1");
    if (!(l2 >= 0.0) || !std::isfinite(l2)) bad("l2", "must be finite and >= 0");
    if (!(holdoutFraction >= 0.0 && holdoutFraction <= 0.9)) bad("holdoutFraction", "must be in [0, 0.9]");
    if (patience < 1) bad("patience", "must be >= 1");
}

void BaseLearnerParams::validate() const {
    switch (kind) {
    case BaseLearner::DecisionTree: tree.validate(); break;
    case BaseLearner::Knn: knn.validate(); break;
    case BaseLearner::NeuralNet: net.validate(); break;
    }
}

nlohmann::json toJson(const BaseLearnerParams& p) {
    nlohmann::json j;
    j["kind"] = toString(p.kind);
    switch (p.kind) {
    case BaseLearner::DecisionTree:
        j["criterion"] = toString(p.tree.criterion);
        j["max_depth"] = p.tree.maxDepth;
        j["min_leaf"] = p.tree.minLeaf;
        j["min_gain"] = p.tree.minGain;
        break;
    case BaseLearner::Knn: j["k"] = p.knn.k; break;
    case BaseLearner::NeuralNet:
        j["hidden"] = p.net.hidden;
        j["activation"] = toString(p.net.activation);
        j["optimizer"] = toString(p.net.optimizer);
        j["learning_rate"] = p.net.learningRate;
        j["momentum"] = p.net.momentum;
        j["batch_size"] = p.net.batchSize;
        j["max_epochs"] = p.net.maxEpochs;
        j["lbfgs_block"] = p.net.lbfgsBlock;
        j["l2"] = p.net.l2;
        j["holdout_fraction"] = p.net.holdoutFraction;
        j["patience"] = p.net.patience;
        break;
    }
    return j;
}

ClassifierFit fitBaseLearner(const Dataset& d, const BaseLearnerParams& p, const BaseFitOptions& opt,
                             const RunControl& rc) {
    p.validate();
    switch (p.kind) {
    case BaseLearner::DecisionTree:
        return fitDecisionTree(d, p.tree, rc, opt.exampleWeights, opt.gainScale).base();
    case BaseLearner::Knn:
        if (!opt.exampleWeights.empty()) throw std::invalid_argument("knn: does not take example weights (resample)");
        return fitKnn(d, p.knn, rc).base();
    case BaseLearner::NeuralNet: {
        if (!opt.exampleWeights.empty())
            throw std::invalid_argument("neural-net: does not take example weights (resample)");
        NeuralNetParams np = p.net;
        np.seed = opt.seed;
        return fitNeuralNet(d, np, rc).base();
    }
    }
    throw std::invalid_argument("base learner: unknown kind");
}

// ---------------------------------------------------------------------------------------------

InputStateCache::Slot& InputStateCache::slot(std::uint64_t owner) {
    thread_local std::array<Slot, 32> slots;
    thread_local std::uint64_t clock = 0;
    ++clock;
    Slot* victim = &slots[0];
    for (Slot& s : slots) {
        if (s.owner == owner) {
            s.lastUse = clock;
            return s;
        }
        if (s.lastUse < victim->lastUse) victim = &s;
    }
    victim->owner = owner;
    victim->x.clear();
    victim->state.clear();
    victim->incrementalUpdates = 0;
    victim->lastUse = clock;
    return *victim;
}

}  // namespace fdlab
