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

// Worst-case count budget for a linear model: for each competitor (binary: the one margin)
// sort the positive profits once and read every level off suffix sums. The margin after the
// attack is summed from what survives (bias + kept terms) rather than by subtracting from the
// clean margin, so that an instance stripped of every useful feature ends exactly where a
// re-evaluation of the attacked instance ends (ties in the AUC stay ties).
// Instances of classes the threat spares (AttackSpec::attacks) are read at budget 0.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const int outs = static_cast<int>(m.W.cols());
    if (test.numClasses() != (outs == 1 ? 2 : outs))   // a label past the columns would write past `after`
        throw std::invalid_argument("worst-case attack: the model scores " + std::to_string(outs == 1 ? 2 : outs) +
                                    " classes, dataset '" + test.name + "' has " + std::to_string(test.numClasses()));
    std::vector<double> after(static_cast<std::size_t>(outs)), profit, suffix;
    for (int i = 0; i < test.rows(); ++i) {
        const int label = test.labels[static_cast<std::size_t>(i)];
        const bool hit = base.attacks(label);
        const double y = label == 1 ? 1.0 : -1.0;
        std::vector<double> bestMargin(Ks.size(), std::numeric_limits<double>::infinity());
        for (int k = 0; k < (outs == 1 ? 1 : outs); ++k) {
            if (outs > 1 && k == label) continue;
            profit.clear();
            double kept = 0.0;   // terms the adversary never deletes (profit <= 0)
            test.forEachNonZero(i, [&](int j, float v) {
                const double c = outs == 1 ? y * m.W(j, 0) : m.W(j, label) - m.W(j, k);
                const double p = c * static_cast<double>(v);
                if (p > 0.0) profit.push_back(p);
                else kept += p;
            });
            std::sort(profit.begin(), profit.end(), std::greater<>());
            suffix.assign(profit.size() + 1, 0.0);
            for (std::size_t a = profit.size(); a > 0; --a) suffix[a - 1] = suffix[a] + profit[a - 1];
            const double bias = outs == 1 ? y * m.b(0) : m.b(label) - m.b(k);
            for (std::size_t l = 0; l < Ks.size(); ++l) {
                const double mg = bias + kept + suffix[std::min(profit.size(), static_cast<std::size_t>(hit ? Ks[l] : 0))];
                bestMargin[l] = std::min(bestMargin[l], mg);
            }
        }
        for (std::size_t l = 0; l < Ks.size(); ++l) {
            if (outs == 1) {
                after[0] = y * bestMargin[l];
            } else {
                // Only the margin matters for multi-class scoring: encode it as scores.
                std::fill(after.begin(), after.end(), 0.0);
                after[static_cast<std::size_t>(label)] = bestMargin[l];
            }
            sink(i, l, after);
        }
    }
}

}  // namespace fdlab
