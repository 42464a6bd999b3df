#include "core/learners/nonlinear/adaboost.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

VotingEnsemble::VotingEnsemble(std::string type, int features, std::vector<std::string> classNames,
                               std::vector<EnsembleMember> members)
    : Classifier(features, std::move(classNames)), m_type(std::move(type)), m_members(std::move(members)) {
    if (m_members.empty()) throw std::invalid_argument(m_type + ": no member");
    double total = 0.0;
    for (std::size_t t = 0; t < m_members.size(); ++t) {
        const EnsembleMember& e = m_members[t];
        const std::string where = m_type + ": member " + std::to_string(t) + ": ";
        if (!e.model) throw std::invalid_argument(where + "no model");
        if (e.model->classNames() != this->classNames()) throw std::invalid_argument(where + "different classes");
        if (!(e.weight >= 0.0) || !std::isfinite(e.weight)) throw std::invalid_argument(where + "bad weight");
        const int inputs = e.columns.empty() ? features : static_cast<int>(e.columns.size());
        if (e.model->features() != inputs)
            throw std::invalid_argument(where + "model takes " + std::to_string(e.model->features()) + " inputs, " +
                                        std::to_string(inputs) + " expected");
        for (int c : e.columns)
            if (c < 0 || c >= features) throw std::invalid_argument(where + "column out of range");
        if (!e.scale.empty() && static_cast<int>(e.scale.size()) != inputs)
            throw std::invalid_argument(where + "scale needs one factor per input");
        for (double s : e.scale)
            if (!std::isfinite(s)) throw std::invalid_argument(where + "non-finite scale");
        total += e.weight;
    }
    for (const EnsembleMember& e : m_members)
        m_normWeights.push_back(total > 0.0 ? e.weight / total : 1.0 / static_cast<double>(m_members.size()));
    m_position.resize(m_members.size());
    for (std::size_t t = 0; t < m_members.size(); ++t) {
        if (m_members[t].columns.empty()) continue;
        m_position[t].assign(static_cast<std::size_t>(features), -1);
        for (std::size_t c = 0; c < m_members[t].columns.size(); ++c)
            m_position[t][static_cast<std::size_t>(m_members[t].columns[c])] = static_cast<int>(c);
    }
}

void VotingEnsemble::setRecord(Eigen::MatrixXd importance, Eigen::MatrixXd distribution) {
    m_importance = std::move(importance);
    m_distribution = std::move(distribution);
}

std::span<const float> VotingEnsemble::memberInput(std::size_t t, std::span<const float> x,
                                                   std::vector<float>& buf) const {
    const EnsembleMember& e = m_members[t];
    if (e.columns.empty() && e.scale.empty()) return x;
    const std::size_t n = e.columns.empty() ? x.size() : e.columns.size();
    buf.resize(n);
    for (std::size_t c = 0; c < n; ++c) {
        const float v = e.columns.empty() ? x[c] : x[static_cast<std::size_t>(e.columns[c])];
        buf[c] = e.scale.empty() ? v : static_cast<float>(v * e.scale[c]);
    }
    return buf;
}

void VotingEnsemble::addVote(std::size_t t, std::span<const double> ms, std::span<double> out) const {
    const int c = classFromScores(ms);
    const double a = m_normWeights[t];
    if (out.size() == 1) out[0] += c == 1 ? a : -a;
    else out[static_cast<std::size_t>(c)] += a;
}

void VotingEnsemble::scores(std::span<const float> x, std::span<double> out) const {
    std::fill(out.begin(), out.end(), 0.0);
    std::vector<float> buf;
    std::vector<double> ms(static_cast<std::size_t>(outputs()));
    for (std::size_t t = 0; t < m_members.size(); ++t) {
        m_members[t].model->scores(memberInput(t, x, buf), ms);
        addVote(t, ms, out);
    }
}

void VotingEnsemble::scoresWithChange(std::span<const float> x, int j, float value, std::span<const double>,
                                      std::span<double> out) const {
    std::fill(out.begin(), out.end(), 0.0);
    std::vector<float> buf;   // not thread_local: a member may itself be an ensemble
    std::vector<double> ms(static_cast<std::size_t>(outputs()));
    for (std::size_t t = 0; t < m_members.size(); ++t) {
        const EnsembleMember& e = m_members[t];
        const int jj = e.columns.empty() ? j : m_position[t][static_cast<std::size_t>(j)];
        const std::span<const float> in = memberInput(t, x, buf);
        if (jj < 0) {
            e.model->scores(in, ms);   // the member does not see feature j
        } else {
            const float v = e.scale.empty() ? value : static_cast<float>(value * e.scale[static_cast<std::size_t>(jj)]);
            e.model->scoresWithChange(in, jj, v, {}, ms);
        }
        addVote(t, ms, out);
    }
}

Eigen::MatrixXd VotingEnsemble::scoreRows(const Dataset& d) const {
    if (d.features() != features())
        throw std::invalid_argument(m_type + ": model expects " + std::to_string(features()) + " features, data has " +
                                    std::to_string(d.features()));
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(d.rows(), outputs());
    std::vector<double> ms(static_cast<std::size_t>(outputs()));
    for (std::size_t t = 0; t < m_members.size(); ++t) {
        const EnsembleMember& e = m_members[t];
        Eigen::MatrixXd M;
        if (e.columns.empty() && e.scale.empty()) {
            M = e.model->scoreRows(d);
        } else {
            Dataset in;
            in.classNames = d.classNames;
            in.labels = d.labels;
            const auto n = static_cast<Eigen::Index>(e.columns.empty() ? d.features() : e.columns.size());
            in.X.resize(d.rows(), n);
            for (int i = 0; i < d.rows(); ++i)
                for (Eigen::Index c = 0; c < n; ++c) {
                    const float v = e.columns.empty() ? d.X(i, c) : d.X(i, e.columns[static_cast<std::size_t>(c)]);
                    in.X(i, c) = e.scale.empty() ? v : static_cast<float>(v * e.scale[static_cast<std::size_t>(c)]);
                }
            M = e.model->scoreRows(in);
        }
        std::vector<double> row(static_cast<std::size_t>(outputs()));
        for (int i = 0; i < d.rows(); ++i) {
            for (int k = 0; k < outputs(); ++k) ms[static_cast<std::size_t>(k)] = M(i, k);
            std::fill(row.begin(), row.end(), 0.0);
            addVote(t, ms, row);
            for (int k = 0; k < outputs(); ++k) S(i, k) += row[static_cast<std::size_t>(k)];
        }
    }
    return S;
}

nlohmann::json VotingEnsemble::toJson() const {
    nlohmann::json j = jsonHeader();
    nlohmann::json members = nlohmann::json::array();
    for (const EnsembleMember& e : m_members) {
        nlohmann::json o;
        o["weight"] = e.weight;
        o["columns"] = e.columns;
        o["scale"] = e.scale;
        o["model"] = e.model->toJson();
        members.push_back(std::move(o));
    }
    j["members"] = std::move(members);
    auto matrix = [](const Eigen::MatrixXd& M) {
        nlohmann::json a = nlohmann::json::array();
        for (Eigen::Index r = 0; r < M.rows(); ++r) {
            nlohmann::json row = nlohmann::json::array();
            for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
            a.push_back(std::move(row));
        }
        return a;
    };
    if (m_importance.size() > 0) j["importance"] = matrix(m_importance);
    if (m_distribution.size() > 0) j["distribution"] = matrix(m_distribution);
    return j;
}

// ---------------------------------------------------------------------------------------------

double boostingWeight(double error, int numClasses) {
    const double e = std::clamp(error, 1e-10, 1.0 - 1e-10);
    return std::max(0.0, std::log((1.0 - e) / e) + std::log(static_cast<double>(numClasses - 1)));
}

double weightedError(const std::vector<int>& pred, const Dataset& d, const std::vector<double>& w) {
    double wrong = 0.0, total = 0.0;
    for (int i = 0; i < d.rows(); ++i) {
        total += w[static_cast<std::size_t>(i)];
        if (pred[static_cast<std::size_t>(i)] != d.labels[static_cast<std::size_t>(i)]) wrong += w[static_cast<std::size_t>(i)];
    }
    return total > 0.0 ? wrong / total : 0.0;
}

std::vector<int> weightedResample(const std::vector<double>& w, Rng& rng) {
    std::vector<double> cdf(w.size());
    std::partial_sum(w.begin(), w.end(), cdf.begin());
    const double total = cdf.empty() ? 0.0 : cdf.back();
    std::vector<int> idx(w.size());
    for (auto& i : idx) {
        const double u = rng.uniform() * total;
        const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
        i = static_cast<int>(std::min<std::ptrdiff_t>(it - cdf.begin(), static_cast<std::ptrdiff_t>(w.size()) - 1));
    }
    return idx;
}

void AdaBoostParams::validate() const {
    base.validate();
    if (rounds < 1 || rounds > 10000)
        throw std::invalid_argument("rounds: must be in 1..10000, got " + std::to_string(rounds));
}

AdaBoostFit fitAdaBoost(const Dataset& d, const AdaBoostParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (d.rows() < 1) throw std::invalid_argument("adaboost: empty training set");
    if (d.numClasses() < 2) throw std::invalid_argument("adaboost: needs at least two classes");
    const int m = d.rows(), K = d.numClasses();
    const RunControl inner{{}, rc.stop};
    const Rng base(p.seed);

    AdaBoostFit r;
    std::vector<EnsembleMember> members;
    std::vector<double> w(static_cast<std::size_t>(m), 1.0 / m);
    r.status = Status::MaxIterations;
    r.message = std::to_string(p.rounds) + " rounds";
    for (int t = 0; t < p.rounds; ++t) {
        if (rc.cancelled()) {
            r.status = Status::Cancelled;
            r.message = "cancelled after " + std::to_string(t) + " rounds";
            break;
        }
        r.exampleWeights.push_back(w);
        Rng rng = base.split(static_cast<std::uint64_t>(t));
        BaseFitOptions opt;
        opt.seed = rng.next();
        ClassifierFit h;
        if (p.base.acceptsExampleWeights()) {
            opt.exampleWeights = w;
            h = fitBaseLearner(d, p.base, opt, inner);
        } else {
            const std::vector<int> idx = weightedResample(w, rng);
            h = fitBaseLearner(d.subset(idx), p.base, opt, inner);
        }
        if (!h.model || h.status == Status::Cancelled) {
            r.status = Status::Cancelled;
            r.message = "cancelled in round " + std::to_string(t + 1);
            r.exampleWeights.pop_back();
            break;
        }
        const std::vector<int> pred = h.model->predictRows(d);
        const double eps = weightedError(pred, d, w);
        r.roundErrors.push_back(eps);
        if (eps >= 1.0 - 1.0 / K) {
            r.alphas.push_back(members.empty() ? 1.0 : 0.0);
            if (members.empty()) members.push_back({h.model, 1.0, {}, {}});
            r.status = Status::Converged;
            r.message = "round " + std::to_string(t + 1) + ": base learner error " + std::to_string(eps) +
                        " no better than chance; stopped";
            break;
        }
        const double alpha = boostingWeight(eps, K);
        r.alphas.push_back(alpha);
        members.push_back({h.model, alpha, {}, {}});
        // Re-weight: misclassified examples get exp(alpha) times more weight.
        double Z = 0.0;
        for (int i = 0; i < m; ++i) {
            auto& wi = w[static_cast<std::size_t>(i)];
            if (pred[static_cast<std::size_t>(i)] != d.labels[static_cast<std::size_t>(i)]) wi *= std::exp(alpha);
            Z += wi;
        }
        for (auto& wi : w) wi /= Z;
        rc.report(static_cast<double>(t + 1) / p.rounds, t + 1, "round " + std::to_string(t + 1) + " error " +
                                                                    std::to_string(eps));
        if (eps <= 0.0) {
            r.status = Status::Converged;
            r.message = "round " + std::to_string(t + 1) + ": base learner has zero weighted error; stopped";
            break;
        }
    }
    r.exampleWeights.push_back(w);
    r.iterations = static_cast<long>(members.size());
    if (!members.empty()) {
        auto model = std::make_shared<VotingEnsemble>("adaboost", d.features(), d.classNames, std::move(members));
        r.trainingError = model->errorRate(d);
        r.model = std::move(model);
    } else if (r.status != Status::Cancelled) {
        r.status = Status::Failed;
    }
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
