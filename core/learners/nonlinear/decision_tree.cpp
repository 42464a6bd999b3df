#include "core/learners/nonlinear/decision_tree.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

DecisionTree::DecisionTree(int features, std::vector<std::string> classNames, std::vector<Node> nodes)
    : Classifier(features, std::move(classNames)), m_nodes(std::move(nodes)) {
    if (m_nodes.empty()) throw std::invalid_argument("decision-tree: no node");
    const int N = static_cast<int>(m_nodes.size());
    for (int i = 0; i < N; ++i) {
        const Node& nd = m_nodes[static_cast<std::size_t>(i)];
        const std::string where = "decision-tree: node " + std::to_string(i) + ": ";
        if (static_cast<int>(nd.p.size()) != numClasses())
            throw std::invalid_argument(where + "needs " + std::to_string(numClasses()) + " class probabilities");
        for (double v : nd.p)
            if (!std::isfinite(v)) throw std::invalid_argument(where + "non-finite class probability");
        if (nd.isLeaf()) continue;
        if (nd.feature >= features) throw std::invalid_argument(where + "feature index out of range");
        if (!std::isfinite(nd.threshold)) throw std::invalid_argument(where + "non-finite threshold");
        if (nd.left <= i || nd.right <= i || nd.left >= N || nd.right >= N)
            throw std::invalid_argument(where + "child index out of range (children must follow their parent)");
    }
}

template <class Get>
int DecisionTree::walk(Get&& get) const {
    int i = 0;
    while (!m_nodes[static_cast<std::size_t>(i)].isLeaf()) {
        const Node& nd = m_nodes[static_cast<std::size_t>(i)];
        i = static_cast<double>(get(nd.feature)) <= nd.threshold ? nd.left : nd.right;
    }
    return i;
}

int DecisionTree::leafOf(std::span<const float> x) const {
    return walk([&](int f) { return x[static_cast<std::size_t>(f)]; });
}

void DecisionTree::scores(std::span<const float> x, std::span<double> out) const {
    scoresFromProbabilities(m_nodes[static_cast<std::size_t>(leafOf(x))].p, out);
}

void DecisionTree::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double>,
                                    std::span<double> out) const {
    const int leaf = walk([&](int f) { return f == j ? value : x[static_cast<std::size_t>(f)]; });
    scoresFromProbabilities(m_nodes[static_cast<std::size_t>(leaf)].p, out);
}

int DecisionTree::depth() const {
    std::vector<int> d(m_nodes.size(), 0);
    int best = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        best = std::max(best, d[i]);
        if (!m_nodes[i].isLeaf()) {
            d[static_cast<std::size_t>(m_nodes[i].left)] = d[i] + 1;
            d[static_cast<std::size_t>(m_nodes[i].right)] = d[i] + 1;
        }
    }
    return best;
}

std::vector<int> DecisionTree::usedFeatures() const {
    std::vector<int> f;
    for (const Node& nd : m_nodes)
        if (!nd.isLeaf()) f.push_back(nd.feature);
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    return f;
}

nlohmann::json DecisionTree::toJson() const {
    nlohmann::json j = jsonHeader();
    nlohmann::json nodes = nlohmann::json::array();
    for (const Node& nd : m_nodes) {
        nlohmann::json o;
        o["feature"] = nd.feature;
        o["threshold"] = nd.threshold;
        o["left"] = nd.left;
        o["right"] = nd.right;
        o["p"] = nd.p;
        o["weight"] = nd.weight;
        o["count"] = nd.count;
        nodes.push_back(std::move(o));
    }
    j["nodes"] = std::move(nodes);
    return j;
}

// ---------------------------------------------------------------------------------------------

namespace {

double impurityTimesWeight(const double* c, int K, double W, SplitCriterion crit) {
    if (W <= 0.0) return 0.0;
    if (crit == SplitCriterion::Gini) {
        double s = 0.0;
        for (int k = 0; k < K; ++k) s += c[k] * c[k];
        return W - s / W;
    }
    double h = 0.0;
    for (int k = 0; k < K; ++k)
        if (c[k] > 0.0) h -= c[k] * std::log2(c[k] / W);
    return h;
}

class TreeBuilder {
public:
    TreeBuilder(const Dataset& d, const DecisionTreeParams& p, std::vector<double> w, std::span<const double> gain,
                const RunControl& rc)
        : m_d(d), m_p(p), m_w(std::move(w)), m_gain(gain), m_rc(rc), m_K(d.numClasses()),
          m_n(d.features()), m_m(d.rows()) {
        // One order per feature: rows sorted by value, ties by row index.
        m_order.assign(static_cast<std::size_t>(m_n), std::vector<int>(static_cast<std::size_t>(m_m)));
        for (int f = 0; f < m_n; ++f) {
            auto& o = m_order[static_cast<std::size_t>(f)];
            std::iota(o.begin(), o.end(), 0);
            std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return d.value(a, f) < d.value(b, f); });
        }
        m_goesLeft.assign(static_cast<std::size_t>(m_m), 0);
        m_buffer.resize(static_cast<std::size_t>(m_m));
    }

    std::vector<DecisionTree::Node> build() {
        m_nodes.clear();
        grow(0, m_m, 0);
        return std::move(m_nodes);
    }
    bool cancelled() const { return m_cancelled; }

private:
    int grow(int begin, int end, int depth) {
        const int self = static_cast<int>(m_nodes.size());
        m_nodes.emplace_back();
        std::vector<double> c(static_cast<std::size_t>(m_K), 0.0);
        const auto& rows = m_order[0];
        for (int a = begin; a < end; ++a) {
            const int r = rows[static_cast<std::size_t>(a)];
            c[static_cast<std::size_t>(m_d.labels[static_cast<std::size_t>(r)])] += m_w[static_cast<std::size_t>(r)];
        }
        const double W = std::accumulate(c.begin(), c.end(), 0.0);
        {
            DecisionTree::Node& nd = m_nodes.back();
            nd.weight = W;
            nd.count = end - begin;
            nd.p.resize(static_cast<std::size_t>(m_K));
            for (int k = 0; k < m_K; ++k)
                nd.p[static_cast<std::size_t>(k)] = W > 0.0 ? c[static_cast<std::size_t>(k)] / W : 1.0 / m_K;
        }
        if (m_rc.cancelled()) m_cancelled = true;
        const double parentImp = impurityTimesWeight(c.data(), m_K, W, m_p.criterion);
        if (m_cancelled || depth >= m_p.maxDepth || end - begin < 2 * m_p.minLeaf || W <= 0.0 || parentImp <= 0.0)
            return self;

        // Best split over every feature.
        int bestF = -1;
        double bestGain = m_p.minGain, bestT = 0.0;
        std::vector<double> cl(static_cast<std::size_t>(m_K)), cr(static_cast<std::size_t>(m_K));
        const int len = end - begin;
        for (int f = 0; f < m_n; ++f) {
            const double scale = m_gain.empty() ? 1.0 : m_gain[static_cast<std::size_t>(f)];
            if (scale <= 0.0) continue;
            const int* o = m_order[static_cast<std::size_t>(f)].data() + begin;
            if (m_d.value(o[0], f) == m_d.value(o[len - 1], f)) continue;
            std::fill(cl.begin(), cl.end(), 0.0);
            double WL = 0.0;
            for (int a = 0; a + 1 < len; ++a) {
                const int r = o[a];
                const double wr = m_w[static_cast<std::size_t>(r)];
                cl[static_cast<std::size_t>(m_d.labels[static_cast<std::size_t>(r)])] += wr;
                WL += wr;
                const int nl = a + 1;
                if (nl < m_p.minLeaf) continue;
                if (len - nl < m_p.minLeaf) break;
                const float v = m_d.value(r, f), vn = m_d.value(o[a + 1], f);
                if (v == vn) continue;
                for (int k = 0; k < m_K; ++k)
                    cr[static_cast<std::size_t>(k)] = c[static_cast<std::size_t>(k)] - cl[static_cast<std::size_t>(k)];
                const double WR = W - WL;
                const double g = scale * (parentImp - impurityTimesWeight(cl.data(), m_K, WL, m_p.criterion) -
                                          impurityTimesWeight(cr.data(), m_K, WR, m_p.criterion));
                if (g > bestGain) {
                    bestGain = g;
                    bestF = f;
                    bestT = 0.5 * (static_cast<double>(v) + static_cast<double>(vn));
                }
            }
        }
        if (bestF < 0) return self;

        // Stable partition of every feature's order: the left part keeps its sorted order.
        int nl = 0;
        for (int a = begin; a < end; ++a) {
            const int r = rows[static_cast<std::size_t>(a)];
            const bool left = static_cast<double>(m_d.value(r, bestF)) <= bestT;
            m_goesLeft[static_cast<std::size_t>(r)] = left ? 1 : 0;
            nl += left ? 1 : 0;
        }
        for (int f = 0; f < m_n; ++f) {
            int* o = m_order[static_cast<std::size_t>(f)].data();
            int li = begin, ri = 0;
            for (int a = begin; a < end; ++a) {
                const int r = o[a];
                if (m_goesLeft[static_cast<std::size_t>(r)]) o[li++] = r;
                else m_buffer[static_cast<std::size_t>(ri++)] = r;
            }
            std::copy(m_buffer.begin(), m_buffer.begin() + ri, o + li);
        }
        const int left = grow(begin, begin + nl, depth + 1);
        const int right = grow(begin + nl, end, depth + 1);
        DecisionTree::Node& nd = m_nodes[static_cast<std::size_t>(self)];
        nd.feature = bestF;
        nd.threshold = bestT;
        nd.left = left;
        nd.right = right;
        return self;
    }

    const Dataset& m_d;
    const DecisionTreeParams& m_p;
    std::vector<double> m_w;
    std::span<const double> m_gain;
    const RunControl& m_rc;
    int m_K, m_n, m_m;
    std::vector<std::vector<int>> m_order;
    std::vector<char> m_goesLeft;
    std::vector<int> m_buffer;
    std::vector<DecisionTree::Node> m_nodes;
    bool m_cancelled = false;
};

}  // namespace

ModelFit<DecisionTree> fitDecisionTree(const Dataset& d, const DecisionTreeParams& p, const RunControl& rc,
                                       std::span<const double> exampleWeights, std::span<const double> gainScale) {
    Stopwatch clock;
    p.validate();
    if (d.rows() < 1) throw std::invalid_argument("decision-tree: empty training set");
    if (d.numClasses() < 2) throw std::invalid_argument("decision-tree: needs at least two classes");
    const int m = d.rows();
    std::vector<double> w(static_cast<std::size_t>(m), 1.0 / m);
    if (!exampleWeights.empty()) {
        if (static_cast<int>(exampleWeights.size()) != m)
            throw std::invalid_argument("decision-tree: exampleWeights has " + std::to_string(exampleWeights.size()) +
                                        " values for " + std::to_string(m) + " rows");
        double s = 0.0;
        for (double v : exampleWeights) {
            if (!(v >= 0.0) || !std::isfinite(v))
                throw std::invalid_argument("decision-tree: exampleWeights must be finite and >= 0");
            s += v;
        }
        if (!(s > 0.0)) throw std::invalid_argument("decision-tree: exampleWeights sum to 0");
        for (int i = 0; i < m; ++i) w[static_cast<std::size_t>(i)] = exampleWeights[static_cast<std::size_t>(i)] / s;
    }
    if (!gainScale.empty()) {
        if (static_cast<int>(gainScale.size()) != d.features())
            throw std::invalid_argument("decision-tree: gainScale has " + std::to_string(gainScale.size()) +
                                        " values for " + std::to_string(d.features()) + " features");
        for (double v : gainScale)
            if (!(v >= 0.0) || !std::isfinite(v))
                throw std::invalid_argument("decision-tree: gainScale must be finite and >= 0");
    }
    TreeBuilder b(d, p, std::move(w), gainScale, rc);
    std::vector<DecisionTree::Node> nodes = b.build();
    ModelFit<DecisionTree> r;
    const long count = static_cast<long>(nodes.size());
    auto tree = std::make_shared<DecisionTree>(d.features(), d.classNames, std::move(nodes));
    r.trainingError = tree->errorRate(d);
    r.model = std::move(tree);
    r.iterations = count;
    r.status = b.cancelled() ? Status::Cancelled : Status::Converged;
    r.message = std::to_string(count) + " nodes, depth " + std::to_string(r.model->depth()) +
                (b.cancelled() ? " (cancelled: unfinished nodes are leaves)" : "");
    r.elapsed = clock.seconds();
    rc.report(1.0, count, r.message);
    return r;
}

}  // namespace fdlab
