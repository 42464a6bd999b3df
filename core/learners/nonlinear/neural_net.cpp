#include "core/learners/nonlinear/neural_net.h"

#include "core/solvers/lbfgs_minimizer.h"
#include "core/util/rng.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fdlab {

namespace {
double act(Activation a, double v) { return a == Activation::Tanh ? std::tanh(v) : (v > 0.0 ? v : 0.0); }
}  // namespace

NeuralNet::NeuralNet(Activation a, Eigen::MatrixXd W1, Eigen::VectorXd b1, Eigen::MatrixXd W2, Eigen::VectorXd b2,
                     std::vector<std::string> classNames)
    : Classifier(static_cast<int>(W1.cols()), std::move(classNames)), m_act(a), m_W1(std::move(W1)),
      m_W2(std::move(W2)), m_b1(std::move(b1)), m_b2(std::move(b2)) {
    const auto H = m_W1.rows();
    if (H < 1) throw std::invalid_argument("neural-net: no hidden unit");
    if (m_b1.size() != H) throw std::invalid_argument("neural-net: b1 must have one value per hidden unit");
    if (m_W2.rows() != outputs() || m_W2.cols() != H)
        throw std::invalid_argument("neural-net: W2 must be " + std::to_string(outputs()) + " x " + std::to_string(H));
    if (m_b2.size() != outputs()) throw std::invalid_argument("neural-net: b2 must have one value per output");
    if (!m_W1.allFinite() || !m_b1.allFinite() || !m_W2.allFinite() || !m_b2.allFinite())
        throw std::invalid_argument("neural-net: non-finite weight");
}

Eigen::VectorXd NeuralNet::parameters() const {
    Eigen::VectorXd t(m_W1.size() + m_b1.size() + m_W2.size() + m_b2.size());
    Eigen::Index o = 0;
    t.segment(o, m_W1.size()) = Eigen::Map<const Eigen::VectorXd>(m_W1.data(), m_W1.size());
    o += m_W1.size();
    t.segment(o, m_b1.size()) = m_b1;
    o += m_b1.size();
    t.segment(o, m_W2.size()) = Eigen::Map<const Eigen::VectorXd>(m_W2.data(), m_W2.size());
    o += m_W2.size();
    t.segment(o, m_b2.size()) = m_b2;
    return t;
}

void NeuralNet::output(const double* a, std::span<double> out) const {
    const auto H = m_W1.rows();
    for (Eigen::Index k = 0; k < m_W2.rows(); ++k) {
        double z = m_b2(k);
        for (Eigen::Index h = 0; h < H; ++h) z += m_W2(k, h) * act(m_act, a[h]);
        out[static_cast<std::size_t>(k)] = z;
    }
}

InputStateCache::Slot& NeuralNet::stateFor(std::span<const float> x, int maxChanges) const {
    const auto H = m_W1.rows();
    InputStateCache::Slot& slot = InputStateCache::slot(id());
    syncInputState(
        slot, x, maxChanges,
        [&] {
            slot.state.assign(m_b1.data(), m_b1.data() + H);
            for (std::size_t j = 0; j < x.size(); ++j) {
                if (x[j] == 0.0f) continue;
                const double v = x[j];
                const double* w = m_W1.col(static_cast<Eigen::Index>(j)).data();
                for (Eigen::Index h = 0; h < H; ++h) slot.state[static_cast<std::size_t>(h)] += w[h] * v;
            }
        },
        [&](int j, float oldV, float newV) {
            const double dv = static_cast<double>(newV) - static_cast<double>(oldV);
            const double* w = m_W1.col(j).data();
            for (Eigen::Index h = 0; h < H; ++h) slot.state[static_cast<std::size_t>(h)] += w[h] * dv;
        });
    return slot;
}

void NeuralNet::scores(std::span<const float> x, std::span<double> out) const {
    output(stateFor(x, 0).state.data(), out);
}

void NeuralNet::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double>,
                                 std::span<double> out) const {
    const InputStateCache::Slot& slot = stateFor(x, 8);
    const auto H = m_W1.rows();
    thread_local std::vector<double> a;
    a.assign(slot.state.begin(), slot.state.end());
    const double dv = static_cast<double>(value) - static_cast<double>(x[static_cast<std::size_t>(j)]);
    const double* w = m_W1.col(j).data();
    for (Eigen::Index h = 0; h < H; ++h) a[static_cast<std::size_t>(h)] += w[h] * dv;
    output(a.data(), out);
}

nlohmann::json NeuralNet::toJson() const {
    nlohmann::json j = jsonHeader();
    j["activation"] = toString(m_act);
    auto rows = [](const Eigen::MatrixXd& M) {
        nlohmann::json a = nlohmann::json::array();
        for (Eigen::Index r = 0; r < M.rows(); ++r) {
            nlohmann::json row = nlohmann::json::array();
            for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
            a.push_back(std::move(row));
        }
        return a;
    };
    auto vec = [](const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
    j["w1"] = rows(m_W1);
    j["b1"] = vec(m_b1);
    j["w2"] = rows(m_W2);
    j["b2"] = vec(m_b2);
    return j;
}

// ---------------------------------------------------------------------------------------------

NeuralNetObjective::NeuralNetObjective(const Dataset& d, std::vector<int> rows, int hidden, Activation a, double l2)
    : m_d(d), m_rows(std::move(rows)), m_H(hidden), m_n(d.features()), m_O(d.numClasses() == 2 ? 1 : d.numClasses()),
      m_act(a), m_l2(l2) {
    if (d.numClasses() < 2) throw std::invalid_argument("neural-net: needs at least two classes");
}

int NeuralNetObjective::parameterCount() const { return m_H * m_n + m_H + m_O * m_H + m_O; }

double NeuralNetObjective::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const {
    return evaluate(theta, m_rows, &grad, true);
}

double NeuralNetObjective::evaluate(const Eigen::VectorXd& theta, std::span<const int> rows, Eigen::VectorXd* grad,
                                    bool withPenalty) const {
    using Eigen::Map;
    using Eigen::MatrixXd;
    const int H = m_H, n = m_n, O = m_O;
    const double* t = theta.data();
    Map<const MatrixXd> W1(t, H, n);
    Map<const Eigen::VectorXd> b1(t + H * n, H);
    Map<const MatrixXd> W2(t + H * n + H, O, H);
    Map<const Eigen::VectorXd> b2(t + H * n + H + O * H, O);
    const auto B = static_cast<Eigen::Index>(rows.size());
    MatrixXd X(B, n);
    for (Eigen::Index r = 0; r < B; ++r) X.row(r) = m_d.X.row(rows[static_cast<std::size_t>(r)]).cast<double>();
    MatrixXd A = X * W1.transpose();
    A.rowwise() += b1.transpose();
    MatrixXd Hh = A;
    if (m_act == Activation::Tanh) Hh = A.array().tanh().matrix();
    else Hh = A.array().max(0.0).matrix();
    MatrixXd Z = Hh * W2.transpose();
    Z.rowwise() += b2.transpose();

    double loss = 0.0;
    MatrixXd dZ(B, O);
    for (Eigen::Index r = 0; r < B; ++r) {
        const int y = m_d.labels[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)])];
        if (O == 1) {
            const double z = Z(r, 0);
            const double yy = y == 1 ? 1.0 : 0.0;
            loss += std::max(z, 0.0) - yy * z + std::log1p(std::exp(-std::abs(z)));
            const double p = z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
            dZ(r, 0) = p - yy;
        } else {
            const double zmax = Z.row(r).maxCoeff();
            double s = 0.0;
            for (int k = 0; k < O; ++k) s += std::exp(Z(r, k) - zmax);
            const double lse = zmax + std::log(s);
            loss += lse - Z(r, y);
            for (int k = 0; k < O; ++k) dZ(r, k) = std::exp(Z(r, k) - lse) - (k == y ? 1.0 : 0.0);
        }
    }
    const double invB = B > 0 ? 1.0 / static_cast<double>(B) : 0.0;
    loss *= invB;
    if (withPenalty) loss += 0.5 * m_l2 * (W1.squaredNorm() + W2.squaredNorm());
    if (!grad) return loss;

    grad->resize(parameterCount());
    double* g = grad->data();
    Map<MatrixXd> gW1(g, H, n);
    Map<Eigen::VectorXd> gb1(g + H * n, H);
    Map<MatrixXd> gW2(g + H * n + H, O, H);
    Map<Eigen::VectorXd> gb2(g + H * n + H + O * H, O);
    dZ *= invB;
    gW2 = dZ.transpose() * Hh;
    gb2 = dZ.colwise().sum().transpose();
    MatrixXd dA = dZ * W2;
    if (m_act == Activation::Tanh) dA.array() *= 1.0 - Hh.array().square();
    else dA.array() *= (A.array() > 0.0).cast<double>();
    gW1 = dA.transpose() * X;
    gb1 = dA.colwise().sum().transpose();
    if (withPenalty) {
        gW1 += m_l2 * W1;
        gW2 += m_l2 * W2;
    }
    return loss;
}

std::shared_ptr<NeuralNet> NeuralNetObjective::model(const Eigen::VectorXd& theta) const {
    const int H = m_H, n = m_n, O = m_O;
    const double* t = theta.data();
    Eigen::MatrixXd W1 = Eigen::Map<const Eigen::MatrixXd>(t, H, n);
    Eigen::VectorXd b1 = Eigen::Map<const Eigen::VectorXd>(t + H * n, H);
    Eigen::MatrixXd W2 = Eigen::Map<const Eigen::MatrixXd>(t + H * n + H, O, H);
    Eigen::VectorXd b2 = Eigen::Map<const Eigen::VectorXd>(t + H * n + H + O * H, O);
    return std::make_shared<NeuralNet>(m_act, std::move(W1), std::move(b1), std::move(W2), std::move(b2),
                                       m_d.classNames);
}

// ---------------------------------------------------------------------------------------------

ModelFit<NeuralNet> fitNeuralNet(const Dataset& d, const NeuralNetParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (d.rows() < 1) throw std::invalid_argument("neural-net: empty training set");
    if (d.numClasses() < 2) throw std::invalid_argument("neural-net: needs at least two classes");
    Rng rng(p.seed);

    // Stratified holdout for early stopping.
    std::vector<int> train, holdout;
    {
        std::vector<std::vector<int>> byClass(static_cast<std::size_t>(d.numClasses()));
        for (int i = 0; i < d.rows(); ++i) byClass[static_cast<std::size_t>(d.labels[static_cast<std::size_t>(i)])].push_back(i);
        for (auto& c : byClass) {
            rng.shuffle(c);
            const auto h = static_cast<std::size_t>(std::llround(p.holdoutFraction * static_cast<double>(c.size())));
            const std::size_t take = c.size() >= 2 ? std::min(h, c.size() - 1) : 0;
            holdout.insert(holdout.end(), c.begin(), c.begin() + static_cast<std::ptrdiff_t>(take));
            train.insert(train.end(), c.begin() + static_cast<std::ptrdiff_t>(take), c.end());
        }
        std::sort(train.begin(), train.end());
        std::sort(holdout.begin(), holdout.end());
    }
    const bool early = !holdout.empty();

    NeuralNetObjective obj(d, train, p.hidden, p.activation, p.l2);
    const int H = p.hidden, n = d.features(), O = obj.outputs();
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(obj.parameterCount());
    {
        const double a1 = p.activation == Activation::Tanh ? std::sqrt(6.0 / (n + H)) : std::sqrt(6.0 / n);
        const double a2 = p.activation == Activation::Tanh ? std::sqrt(6.0 / (H + O)) : std::sqrt(6.0 / H);
        for (int i = 0; i < H * n; ++i) theta(i) = rng.uniform(-a1, a1);
        for (int i = 0; i < O * H; ++i) theta(H * n + H + i) = rng.uniform(-a2, a2);
    }

    auto holdoutLoss = [&](const Eigen::VectorXd& t) {
        return early ? obj.evaluate(t, holdout, nullptr, false) : obj.evaluate(t, train, nullptr, true);
    };
    Eigen::VectorXd best = theta;
    double bestLoss = holdoutLoss(theta);
    int sinceBest = 0;
    long epoch = 0;
    Status status = Status::MaxIterations;
    std::string why;

    Eigen::VectorXd velocity = Eigen::VectorXd::Zero(theta.size()), g;
    std::vector<int> order = train;
    for (epoch = 1; epoch <= p.maxEpochs; ++epoch) {
        if (rc.cancelled()) {
            status = Status::Cancelled;
            why = "cancelled";
            --epoch;
            break;
        }
        if (p.optimizer == NetOptimizer::Sgd) {
            rng.shuffle(order);
            for (std::size_t b0 = 0; b0 < order.size(); b0 += static_cast<std::size_t>(p.batchSize)) {
                const std::size_t nb = std::min(order.size() - b0, static_cast<std::size_t>(p.batchSize));
                obj.evaluate(theta, std::span<const int>(order.data() + b0, nb), &g, true);
                velocity = p.momentum * velocity - p.learningRate * g;
                theta += velocity;
            }
        } else {
            LbfgsParams lp;
            lp.maxIterations = p.lbfgsBlock;
            const LbfgsResult lr = minimizeLbfgs(obj, theta, lp, RunControl{{}, rc.stop});
            theta = lr.x;
            if (lr.status == Status::Converged) {
                status = Status::Converged;
                why = "L-BFGS converged";
            } else if (lr.status == Status::Failed) {
                // A failed line search is not convergence (the gradient test was not met).
                status = Status::Failed;
                why = "L-BFGS failed in block " + std::to_string(epoch) + ": " + lr.message;
            }
        }
        const double hl = holdoutLoss(theta);
        if (!std::isfinite(hl) || !theta.allFinite()) {
            status = Status::Failed;
            why = "loss became non-finite at epoch " + std::to_string(epoch) + " (lower learningRate)";
            break;
        }
        if (hl < bestLoss) {
            bestLoss = hl;
            best = theta;
            sinceBest = 0;
        } else if (early && status != Status::Failed && ++sinceBest >= p.patience) {   // a failure stays one
            status = Status::Converged;
            why = "early stop: no holdout improvement for " + std::to_string(p.patience) + " epochs";
            break;
        }
        if (!early) best = theta;
        rc.report(static_cast<double>(epoch) / p.maxEpochs, epoch,
                  (early ? "holdout CE " : "training loss ") + std::to_string(hl));
        if (status == Status::Converged || status == Status::Failed) break;
    }
    if (epoch > p.maxEpochs) epoch = p.maxEpochs;

    ModelFit<NeuralNet> r;
    auto model = obj.model(best);
    r.trainingError = model->errorRate(d);
    r.model = std::move(model);
    r.iterations = epoch;
    r.status = status;
    r.message = (why.empty() ? std::string("max epochs reached") : why) + "; best " +
                (early ? "holdout CE " : "training loss ") + std::to_string(bestLoss);
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
