#include "core/attacks/worst_case_linear.h"

#include "core/learners/scorer.h"
#include "core/solvers/knapsack.h"

#include <algorithm>
#include <stdexcept>
#include <limits>

namespace fdlab {

namespace {

// Profits of the non-zero features of x for the margin "class label against competitor k"
// (binary models: k is ignored), with the feature index of each entry.
void profitsAgainst(const LinearModel& m, const RowView& x, int label, int k, std::vector<double>& profit,
                    std::vector<int>& index) {
    profit.clear();
    index.clear();
    const bool binary = m.isBinary();
    const double y = label == 1 ? 1.0 : -1.0;
    x.forEachNonZero([&](int j, float v) {
        const auto jj = static_cast<Eigen::Index>(j);
        const double coef = binary ? y * m.W(jj, 0) : m.W(jj, label) - m.W(jj, k);
        profit.push_back(coef * static_cast<double>(v));
        index.push_back(j);
    });
}

// Shared driver: for each competitor (one pass for binary models) solve the knapsack given by
// `solve`, keep the competitor whose margin ends lowest.
template <class Solve>
InstanceDeletion worstCase(const LinearModel& m, const RowView& x, int label, Solve&& solve) {
    const int classes = m.isBinary() ? 2 : static_cast<int>(m.W.cols());
    if (label < 0 || label >= classes)
        throw std::invalid_argument("worst-case attack: label " + std::to_string(label) + " of a model with " +
                                    std::to_string(classes) + " classes");
    std::vector<double> s(static_cast<std::size_t>(m.W.cols()));
    LinearScorer(m).scoresRow(x, s);
    const double margin = Scorer::marginOf(s, label);
    std::vector<int> competitors;
    if (m.isBinary()) competitors.push_back(0);
    else
        for (int k = 0; k < static_cast<int>(m.W.cols()); ++k)
            if (k != label) competitors.push_back(k);

    InstanceDeletion best;
    double bestMargin = std::numeric_limits<double>::infinity(), bestBoundMargin = bestMargin;
    std::vector<double> profit;
    std::vector<int> index;
    for (int k : competitors) {
        profitsAgainst(m, x, label, k, profit, index);
        const double marginK = m.isBinary() ? margin : s[static_cast<std::size_t>(label)] - s[static_cast<std::size_t>(k)];
        double lpValue = 0.0;
        const KnapsackResult r = solve(profit, index, lpValue);
        const double after = marginK - r.value;
        bestBoundMargin = std::min(bestBoundMargin, marginK - lpValue);
        if (after < bestMargin) {
            bestMargin = after;
            best.deleted.clear();
            for (int c : r.chosen) best.deleted.push_back(index[static_cast<std::size_t>(c)]);
        }
    }
    best.damage = margin - bestMargin;
    best.bound = margin - bestBoundMargin;
    std::sort(best.deleted.begin(), best.deleted.end());
    return best;
}

}  // namespace

InstanceDeletion worstCaseCountDeletion(const LinearModel& m, const RowView& x, int label, int K) {
    return worstCase(m, x, label, [K](const std::vector<double>& p, const std::vector<int>&, double& lp) {
        KnapsackResult r = topKProfits(p, K);
        lp = r.value;
        return r;
    });
}

InstanceDeletion worstCaseValueDeletion(const LinearModel& m, const RowView& x, int label,
                                        const std::vector<double>& v, double N, ValueBudgetMethod method,
                                        double scale) {
    std::vector<double> w;
    return worstCase(m, x, label, [&](const std::vector<double>& p, const std::vector<int>& index, double& lp) {
        w.resize(index.size());
        for (std::size_t c = 0; c < index.size(); ++c) w[c] = v[static_cast<std::size_t>(index[c])];
        lp = fractionalKnapsack(p, w, N).value;
        return method == ValueBudgetMethod::Exact ? exactKnapsack(p, w, N, scale) : greedyKnapsack(p, w, N);
    });
}

// Each level deletes what the attack deletes (worstCaseCountDeletion) and is scored in the one
// summation order of linear scores, so the curve is the attack's, bit for bit: an earlier one-pass
// version summed bias + kept terms + a suffix of the sorted profits, and at margins near 0 its
// level 0 disagreed with the clean error.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const int outs = static_cast<int>(m.W.cols());
    if (test.numClasses() != (outs == 1 ? 2 : outs))   // a label past the columns would read past the scores
        throw std::invalid_argument("worst-case attack: the model scores " + std::to_string(outs == 1 ? 2 : outs) +
                                    " classes, dataset '" + test.name + "' has " + std::to_string(test.numClasses()));
    scoreLinearDeletions(m, test, base, Ks, sink, [&m](const RowView& x, int label, int K, Rng&) {
        return worstCaseCountDeletion(m, x, label, K).deleted;
    });
}

}  // namespace fdlab
