#include "core/learners/nonlinear/knn.h"

#include <Eigen/Dense>

#include <algorithm>
#include <stdexcept>

namespace fdlab {

KnnModel::KnnModel(int k, Dataset::Matrix train, std::vector<int> labels, std::vector<std::string> classNames)
    : Classifier(static_cast<int>(train.cols()), std::move(classNames)), m_k(k), m_train(std::move(train)),
      m_labels(std::move(labels)) {
    const auto m = m_train.rows();
    if (m < 1) throw std::invalid_argument("knn: empty training set");
    if (static_cast<Eigen::Index>(m_labels.size()) != m)
        throw std::invalid_argument("knn: " + std::to_string(m_labels.size()) + " labels for " + std::to_string(m) +
                                    " training rows");
    if (k < 1 || k > m)
        throw std::invalid_argument("k: must be in 1.." + std::to_string(m) + " (the training size), got " +
                                    std::to_string(k));
    for (int y : m_labels)
        if (y < 0 || y >= numClasses()) throw std::invalid_argument("knn: training label out of range");
    if (!m_train.allFinite()) throw std::invalid_argument("knn: non-finite training value");
    m_byFeature = m_train.transpose();
}

std::vector<int> KnnModel::neighbours(std::span<const float> x) const {
    const auto m = static_cast<int>(m_train.rows());
    std::vector<std::pair<double, int>> d(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        const float* t = m_train.row(i).data();
        double s = 0.0;
        for (std::size_t j = 0; j < x.size(); ++j) {
            const double e = static_cast<double>(x[j]) - static_cast<double>(t[j]);
            s += e * e;
        }
        d[static_cast<std::size_t>(i)] = {s, i};
    }
    std::partial_sort(d.begin(), d.begin() + m_k, d.end());
    std::vector<int> out;
    for (int a = 0; a < m_k; ++a) out.push_back(d[static_cast<std::size_t>(a)].second);
    return out;
}

InputStateCache::Slot& KnnModel::stateFor(std::span<const float> x, int maxChanges) const {
    InputStateCache::Slot& slot = InputStateCache::slot(id());
    const auto m = static_cast<int>(m_train.rows());
    syncInputState(
        slot, x, maxChanges,
        [&] {
            slot.state.resize(static_cast<std::size_t>(m));
            for (int i = 0; i < m; ++i) {
                const float* t = m_train.row(i).data();
                double s = 0.0;
                for (std::size_t j = 0; j < x.size(); ++j) {
                    const double e = static_cast<double>(x[j]) - static_cast<double>(t[j]);
                    s += e * e;
                }
                slot.state[static_cast<std::size_t>(i)] = s;
            }
        },
        [&](int j, float oldV, float newV) {
            const float* t = m_byFeature.row(j).data();
            const double o = oldV, v = newV;
            for (int i = 0; i < m; ++i) {
                const double ti = t[i];
                slot.state[static_cast<std::size_t>(i)] += (v - ti) * (v - ti) - (o - ti) * (o - ti);
            }
        });
    return slot;
}

// Keeps the k smallest (distance, index) pairs in a sorted array: O(m) for small k.
template <class Dist>
void KnnModel::vote(Dist&& dist, std::span<double> out) const {
    const auto m = static_cast<int>(m_train.rows());
    thread_local std::vector<std::pair<double, int>> best;
    best.clear();
    for (int i = 0; i < m; ++i) {
        const std::pair<double, int> c{dist(i), i};
        if (static_cast<int>(best.size()) == m_k) {
            if (!(c < best.back())) continue;
            best.pop_back();
        }
        best.insert(std::upper_bound(best.begin(), best.end(), c), c);
    }
    std::vector<double> p(static_cast<std::size_t>(numClasses()), 0.0);
    for (const auto& b : best) p[static_cast<std::size_t>(m_labels[static_cast<std::size_t>(b.second)])] += 1.0 / m_k;
    scoresFromProbabilities(p, out);
}

void KnnModel::scores(std::span<const float> x, std::span<double> out) const {
    const InputStateCache::Slot& slot = stateFor(x, 0);
    const double* d = slot.state.data();
    vote([d](int i) { return d[i]; }, out);
}

void KnnModel::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double>,
                                std::span<double> out) const {
    const InputStateCache::Slot& slot = stateFor(x, 8);
    const double* d = slot.state.data();
    const float* t = m_byFeature.row(j).data();
    const double o = x[static_cast<std::size_t>(j)], v = value;
    vote([&](int i) { const double ti = t[i]; return d[i] + ((v - ti) * (v - ti) - (o - ti) * (o - ti)); }, out);
}

Eigen::MatrixXd KnnModel::scoreRows(const Dataset& d) const {
    if (d.features() != features())
        throw std::invalid_argument("knn: model expects " + std::to_string(features()) + " features, data has " +
                                    std::to_string(d.features()));
    const Eigen::MatrixXd T = m_train.cast<double>();
    const Eigen::VectorXd tn = T.rowwise().squaredNorm();
    Eigen::MatrixXd S(d.rows(), outputs());
    std::vector<double> s(static_cast<std::size_t>(outputs()));
    constexpr int kBatch = 256;
    for (int b0 = 0; b0 < d.rows(); b0 += kBatch) {
        const int nb = std::min(kBatch, d.rows() - b0);
        const Eigen::MatrixXd Q = d.X.middleRows(b0, nb).cast<double>();
        Eigen::MatrixXd D = -2.0 * Q * T.transpose();
        D.colwise() += Q.rowwise().squaredNorm();
        D.rowwise() += tn.transpose();
        for (int r = 0; r < nb; ++r) {
            vote([&](int i) { return D(r, i); }, s);
            for (int k = 0; k < outputs(); ++k) S(b0 + r, k) = s[static_cast<std::size_t>(k)];
        }
    }
    return S;
}

nlohmann::json KnnModel::toJson() const {
    nlohmann::json j = jsonHeader();
    j["k"] = m_k;
    j["labels"] = m_labels;
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index i = 0; i < m_train.rows(); ++i) {
        nlohmann::json r = nlohmann::json::array();
        for (Eigen::Index c = 0; c < m_train.cols(); ++c) r.push_back(static_cast<double>(m_train(i, c)));
        rows.push_back(std::move(r));
    }
    j["train"] = std::move(rows);
    return j;
}

ModelFit<KnnModel> fitKnn(const Dataset& d, const KnnParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (d.numClasses() < 2) throw std::invalid_argument("knn: needs at least two classes");
    ModelFit<KnnModel> r;
    auto model = std::make_shared<KnnModel>(p.k, d.X, d.labels, d.classNames);
    r.trainingError = model->errorRate(d);
    r.model = std::move(model);
    r.iterations = 1;
    r.status = Status::Converged;
    r.message = "stored " + std::to_string(d.rows()) + " training points, k = " + std::to_string(p.k);
    r.elapsed = clock.seconds();
    rc.report(1.0, 1, r.message);
    return r;
}

}  // namespace fdlab
