#pragma once
// A one-hidden-layer neural net ("backprop net" of Sullivan et al.; Rumelhart, Hinton & Williams
// 1986) for classification.
//
// Model, for an input x in R^n:   a = W1 x + b1 (H),  h = phi(a) (phi = tanh or ReLU),
//                                 z = W2 h + b2 (O outputs).
// Binary (K = 2): O = 1, P(class 1 | x) = sigma(z); the score is the logit z (class 1 iff z > 0).
// Multi-class: O = K, P(k | x) = softmax(z)_k; the scores are the logits z_k.
//
// Training problem (the objective NeuralNetObjective evaluates, separate from the optimiser):
//   min_theta  (1/|S|) sum_{i in S} CE(z(x_i), y_i) + (lambda/2)(||W1||_F^2 + ||W2||_F^2)
//   CE binary: log(1 + exp(z)) - [y_i = 1] z   (computed as max(z,0) - [y=1] z + log1p(exp(-|z|)))
//   CE multi:  logsumexp(z) - z_{y_i}
// Gradient by backpropagation: dz = (p - onehot(y)) / |S|, dW2 = dz^T h + lambda W2,
//   db2 = sum dz, dh = dz W2, da = dh .* phi'(a), dW1 = da^T X + lambda W1, db1 = sum da.
// (ReLU's derivative at a = 0 is taken as 0.) Parameter vector theta = [vec(W1) (H x n,
// column-major), b1, vec(W2) (O x H, column-major), b2].
//
// Optimisers: minibatch SGD with (heavy-ball) momentum, v <- mu v - eta g, theta <- theta + v,
// examples reshuffled every epoch; or full-batch L-BFGS (core/solvers/lbfgs_minimizer.h) in
// blocks. Early stopping (Caruana's practice; the paper's "early stopping on hold-out sets"): a
// stratified, seeded holdout is split off the training set; after every epoch (block) its mean
// cross-entropy is measured and the parameters with the lowest value are returned; training stops
// after `patience` epochs without improvement. Initial weights: Glorot uniform
// U(+-sqrt(6 / (fan_in + fan_out))) for tanh, He uniform U(+-sqrt(6 / fan_in)) for ReLU, biases 0.
//
// scoresWithChange keeps a per-thread cache of a = W1 x + b1 (classifier.h), so a changed
// coordinate costs O(H + H O) instead of O(n H); scores() only reuses a state computed from
// scratch for exactly its x (bit-identical to a freshly loaded model).

#include "core/learners/nonlinear/classifier.h"

#include <Eigen/Core>

#include <span>
#include <vector>

namespace fdlab {

class NeuralNet : public Classifier {
public:
    /// W1: H x n, b1: H, W2: O x H, b2: O with O = 1 for two classes, else K. Finite values.
    NeuralNet(Activation act, Eigen::MatrixXd W1, Eigen::VectorXd b1, Eigen::MatrixXd W2, Eigen::VectorXd b2,
              std::vector<std::string> classNames);

    const char* type() const override { return "neural-net"; }
    nlohmann::json toJson() const override;
    void scores(std::span<const float> x, std::span<double> out) const override;
    void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                          std::span<double> out) const override;

    Activation activation() const { return m_act; }
    int hidden() const { return static_cast<int>(m_W1.rows()); }
    const Eigen::MatrixXd& W1() const { return m_W1; }
    const Eigen::VectorXd& b1() const { return m_b1; }
    const Eigen::MatrixXd& W2() const { return m_W2; }
    const Eigen::VectorXd& b2() const { return m_b2; }
    /// theta in the layout of NeuralNetObjective.
    Eigen::VectorXd parameters() const;

private:
    void output(const double* a, std::span<double> out) const;
    InputStateCache::Slot& stateFor(std::span<const float> x, int maxChanges) const;
    Activation m_act;
    Eigen::MatrixXd m_W1, m_W2;
    Eigen::VectorXd m_b1, m_b2;
};

/// The regularised mean cross-entropy of the file comment over rows `rows` of d (value and
/// gradient), for the optimisers and for finite-difference tests.
class NeuralNetObjective {
public:
    NeuralNetObjective(const Dataset& d, std::vector<int> rows, int hidden, Activation act, double l2);

    int parameterCount() const;
    int outputs() const { return m_O; }
    /// Value over all rows; writes the gradient (resized).
    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const;
    /// Value over a subset of rows (indices into d); grad may be null. l2 term included when
    /// withPenalty.
    double evaluate(const Eigen::VectorXd& theta, std::span<const int> rows, Eigen::VectorXd* grad,
                    bool withPenalty = true) const;
    /// Builds the model from theta.
    std::shared_ptr<NeuralNet> model(const Eigen::VectorXd& theta) const;

private:
    const Dataset& m_d;
    std::vector<int> m_rows;
    int m_H, m_n, m_O;
    Activation m_act;
    double m_l2;
};

/// Fits the net on d (>= 2 classes). Throws std::invalid_argument for bad params or data.
/// Status: Converged when early stopping stopped it (or L-BFGS converged), MaxIterations after
/// maxEpochs, Cancelled (best parameters so far), Failed when the loss became non-finite or an
/// L-BFGS block failed (its line search found no decrease); the best parameters so far are
/// returned then too.
ModelFit<NeuralNet> fitNeuralNet(const Dataset& d, const NeuralNetParams& p, const RunControl& rc = {});

}  // namespace fdlab
