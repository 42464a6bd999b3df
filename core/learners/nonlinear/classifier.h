#pragma once
// The common base of FDLab's non-linear models (issue 7): decision trees, kNN, a one-hidden-layer
// net, and the voting ensembles built on them (AdaBoost, a mixture of experts, FeatureBoost).
//
// Every model is a Scorer (core/learners/scorer.h), so the model-agnostic attacks of
// core/attacks/ (greedy deletion, feature and group corruption) work on all of them unchanged.
// Score convention (the Scorer's): a model on K = 2 classes has ONE output s(x), class 1 iff
// s(x) > 0; a model on K > 2 classes has K outputs and predicts the argmax (lowest index on ties).
// What s means per model is stated in each header (a class-probability difference for trees and
// kNN, a logit for the net, a normalised weighted vote for the ensembles).
//
// Models are immutable once fitted; fit functions return them as shared_ptr<const M> so that
// ensembles can hold members without copies. Saving: toJson() writes {"type": ..., ...}, read
// back by core/learners/nonlinear/model_io.h.
//
// Incremental scoring. Scorer::scoresWithChange(x, j, v, current, out) may be called many times
// for the same x (the greedy deletion tries every feature). Models whose score of x is a cheap
// function of a per-x state (kNN: the squared distances to every training point, O(m); the net:
// the hidden pre-activations, O(H)) keep that state in a per-thread cache slot keyed by the
// model's unique id (InputStateCache below): a call with a new x recomputes the state in full,
// a call whose x differs from the cached one in a few coordinates updates it in O(m) / O(H) per
// changed coordinate. IMPORTANT: the models in this folder never read `current` (they may be
// called with an empty span), which is what lets ensembles delegate to their members.

#include "core/data/dataset.h"
#include "core/learners/scorer.h"
#include "core/util/run_control.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fdlab {

class Classifier : public Scorer {
public:
    ~Classifier() override = default;

    /// The "type" tag of the JSON schema, e.g. "decision-tree", "knn", "neural-net", "adaboost".
    virtual const char* type() const = 0;
    /// The whole model as JSON: {"type", "features", "classes", ...model-specific fields}.
    virtual nlohmann::json toJson() const = 0;

    int outputs() const override { return numClasses() == 2 ? 1 : numClasses(); }
    int features() const override { return m_features; }
    int numClasses() const { return static_cast<int>(m_classNames.size()); }
    const std::vector<std::string>& classNames() const { return m_classNames; }
    /// Unique per object for the life of the process (keys the incremental caches).
    std::uint64_t id() const { return m_id; }

    /// Scores of every row of d (rows x outputs()). The default calls scores() row by row;
    /// kNN overrides it with batched matrix products.
    virtual Eigen::MatrixXd scoreRows(const Dataset& d) const;
    /// Predicted class index of every row of d.
    std::vector<int> predictRows(const Dataset& d) const;
    /// Fraction of rows of d whose prediction differs from the label.
    double errorRate(const Dataset& d) const;
    /// Predicted class from a score vector (the Scorer convention above).
    static int classFromScores(std::span<const double> s);

protected:
    Classifier(int features, std::vector<std::string> classNames);
    Classifier(const Classifier& other);
    Classifier& operator=(const Classifier&) = delete;
    /// {"type", "features", "classes"}: the fields every model shares.
    nlohmann::json jsonHeader() const;
    /// Writes class probabilities p (numClasses values) as scores: binary p_1 - p_0, else p_k.
    void scoresFromProbabilities(std::span<const double> p, std::span<double> out) const;

private:
    int m_features = 0;
    std::vector<std::string> m_classNames;
    std::uint64_t m_id = 0;
};

/// What every fit in this folder returns (STYLE.md rule 1).
template <class M>
struct ModelFit {
    std::shared_ptr<const M> model;   ///< null only when the run failed or was cancelled before a model existed
    double trainingError = 0.0;       ///< error rate of `model` on the training set it was given
    long iterations = 0;              ///< epochs (net), rounds (ensembles), nodes (tree), 1 (kNN)
    double elapsed = 0.0;             ///< seconds
    Status status = Status::Failed;
    std::string message;

    bool ok() const { return model && (status == Status::Converged || status == Status::MaxIterations); }
    /// The same result with the model seen through its base class.
    ModelFit<Classifier> base() const {
        return ModelFit<Classifier>{model, trainingError, iterations, elapsed, status, message};
    }
};
using ClassifierFit = ModelFit<Classifier>;

// ---------------------------------------------------------------------------------------------
// Parameters of the three base learners (declared here so that the meta-learners can hold them;
// the learners themselves are in decision_tree.h, knn.h and neural_net.h).

enum class SplitCriterion { Gini, Entropy };
const char* toString(SplitCriterion c);

struct DecisionTreeParams {
    /// Impurity measure of CART: Gini 1 - sum p_k^2, or entropy -sum p_k log2 p_k. Default Gini.
    SplitCriterion criterion = SplitCriterion::Gini;
    /// Maximum depth (the root has depth 0; 1 = a stump). Default 8, range 0..64.
    int maxDepth = 8;
    /// Minimum number of training examples in each leaf (a split leaving fewer on one side is
    /// not considered). Default 1, >= 1.
    int minLeaf = 1;
    /// Minimum weighted impurity decrease for a split to be made. Default 1e-12, >= 0.
    double minGain = 1e-12;

    /// Throws std::invalid_argument naming the first bad field.
    void validate() const;
};

struct KnnParams {
    /// Number of neighbours (unweighted majority vote, Euclidean distance). Default 5, >= 1
    /// (and at most the training-set size).
    int k = 5;

    void validate() const;
};

enum class Activation { Tanh, Relu };
enum class NetOptimizer { Sgd, Lbfgs };
const char* toString(Activation a);
const char* toString(NetOptimizer o);

struct NeuralNetParams {
    /// Hidden units. Default 16, range 1..4096.
    int hidden = 16;
    /// Hidden activation. Default tanh.
    Activation activation = Activation::Tanh;
    /// Minibatch SGD with momentum, or full-batch L-BFGS (core/solvers/lbfgs_minimizer.h) run in
    /// blocks of `lbfgsBlock` iterations with the holdout checked after each block. Default SGD.
    NetOptimizer optimizer = NetOptimizer::Sgd;
    /// SGD step size. Default 0.1, > 0.
    double learningRate = 0.1;
    /// SGD momentum. Default 0.9, [0, 1).
    double momentum = 0.9;
    /// SGD minibatch size. Default 32, >= 1.
    int batchSize = 32;
    /// Maximum epochs (SGD) or L-BFGS blocks. Default 200, >= 1.
    int maxEpochs = 200;
    /// L-BFGS iterations per block. Default 10, >= 1.
    int lbfgsBlock = 10;
    /// L2 penalty (lambda/2)(||W1||^2 + ||W2||^2) added to the mean cross-entropy (biases are
    /// not penalised). Default 1e-4, >= 0.
    double l2 = 1e-4;
    /// Fraction of the training set held out (stratified, seeded) for early stopping: the
    /// parameters with the lowest holdout cross-entropy are kept. 0 = no early stopping
    /// (train all epochs). Default 0.2, [0, 0.9].
    double holdoutFraction = 0.2;
    /// Stop after this many epochs (blocks) without a holdout improvement. Default 15, >= 1.
    int patience = 15;
    /// Seed of the initial weights, the holdout split and the minibatch order.
    std::uint64_t seed = 1;

    void validate() const;
};

enum class BaseLearner { DecisionTree, Knn, NeuralNet };
const char* toString(BaseLearner b);

/// The base learner of a meta-learner: its kind and the parameters of that kind (the other two
/// parameter sets are ignored).
struct BaseLearnerParams {
    BaseLearner kind = BaseLearner::DecisionTree;
    DecisionTreeParams tree;
    KnnParams knn;
    NeuralNetParams net;

    void validate() const;
    /// Trees accept example weights natively; kNN and the net do not (meta-learners resample).
    bool acceptsExampleWeights() const { return kind == BaseLearner::DecisionTree; }
};

/// Optional per-fit inputs of a base learner.
struct BaseFitOptions {
    /// Example weights (trees only; >= 0, one per row, not all 0). Empty = uniform.
    std::vector<double> exampleWeights;
    /// Trees only: multiplies each feature's impurity decrease (soft feature de-emphasis,
    /// FeatureBoost's SoftScale variant). Empty = all 1.
    std::vector<double> gainScale;
    /// Seed for learners that draw random numbers (the net); overrides NeuralNetParams::seed.
    std::uint64_t seed = 1;
};

/// Fits the base learner `p.kind` on d. Throws std::invalid_argument for bad params or data.
ClassifierFit fitBaseLearner(const Dataset& d, const BaseLearnerParams& p, const BaseFitOptions& opt,
                             const RunControl& rc = {});

nlohmann::json toJson(const BaseLearnerParams& p);

// ---------------------------------------------------------------------------------------------
// Per-thread state cache for incremental scoring (see the file comment).

class InputStateCache {
public:
    struct Slot {
        std::uint64_t owner = 0;        ///< Classifier::id() of the model, 0 = free
        std::vector<float> x;           ///< the input the state belongs to
        std::vector<double> state;      ///< model-specific (distances, pre-activations)
        int incrementalUpdates = 0;     ///< since the last full recomputation
        std::uint64_t lastUse = 0;
    };
    /// The calling thread's slot for `owner` (an LRU of 32 slots per thread; a model that is
    /// evicted simply recomputes). The reference is valid until the next call on this thread.
    static Slot& slot(std::uint64_t owner);
};

/// Brings `slot` to input x. maxChanges = 0 (exact mode, for scores()): the cached state is
/// reused only when it was computed from scratch for exactly this x, else recomputed by `full()`
/// -- so scores() is bit-identical to a fresh model's. maxChanges > 0 (scoresWithChange): when x
/// differs from the cached input in at most maxChanges coordinates and fewer than 64
/// incremental updates were made since the last full computation (bounding round-off drift),
/// `update(j, old, new)` is called per changed coordinate; otherwise `full()`.
template <class Full, class Update>
void syncInputState(InputStateCache::Slot& slot, std::span<const float> x, int maxChanges, Full&& full,
                    Update&& update) {
    if (slot.x.size() == x.size()) {
        int changes = 0;
        for (std::size_t j = 0; j < x.size() && changes <= maxChanges; ++j)
            if (slot.x[j] != x[j]) ++changes;
        if (changes == 0 && (maxChanges > 0 || slot.incrementalUpdates == 0)) return;
        if (changes > 0 && changes <= maxChanges && slot.incrementalUpdates < 64) {
            for (std::size_t j = 0; j < x.size(); ++j)
                if (slot.x[j] != x[j]) {
                    update(static_cast<int>(j), slot.x[j], x[j]);
                    slot.x[j] = x[j];
                }
            slot.incrementalUpdates += changes;
            return;
        }
    }
    slot.x.assign(x.begin(), x.end());
    full();
    slot.incrementalUpdates = 0;
}

}  // namespace fdlab
