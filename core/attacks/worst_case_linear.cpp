#include "core/attacks/worst_case_linear.h"

#include "core/learners/scorer.h"
#include "core/solvers/knapsack.h"

#include <algorithm>
#include <cmath>
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

// For each competitor k (one pass, k = 0, for binary models): f(marginK, k) with `profit` and
// `index` filled by profitsAgainst and marginK the clean margin against it (s: scratch for the
// clean scores).
// Returns the clean margin.
template <class F>
double forEachCompetitor(const LinearModel& m, const RowView& x, int label, std::vector<double>& s,
                         std::vector<double>& profit, std::vector<int>& index, F&& f) {
    const int classes = m.isBinary() ? 2 : static_cast<int>(m.W.cols());
    if (label < 0 || label >= classes)
        throw std::invalid_argument("worst-case attack: label " + std::to_string(label) + " of a model with " +
                                    std::to_string(classes) + " classes");
    s.resize(static_cast<std::size_t>(m.W.cols()));
    LinearScorer(m).scoresRow(x, s);
    const double margin = Scorer::marginOf(s, label);
    for (int k = 0; k < static_cast<int>(m.W.cols()); ++k) {
        if (!m.isBinary() && k == label) continue;
        profitsAgainst(m, x, label, k, profit, index);
        f(m.isBinary() ? margin : s[static_cast<std::size_t>(label)] - s[static_cast<std::size_t>(k)], k);
    }
    return margin;
}

// The prices of the entries `index` of a row: w[c] = v[index[c]].
void pricesOf(const std::vector<double>& v, const std::vector<int>& index, std::vector<double>& w) {
    w.resize(index.size());
    for (std::size_t c = 0; c < index.size(); ++c) w[c] = v[static_cast<std::size_t>(index[c])];
}

std::vector<int> featuresOf(const std::vector<int>& chosen, const std::vector<int>& index) {
    std::vector<int> f;
    f.reserve(chosen.size());
    for (int c : chosen) f.push_back(index[static_cast<std::size_t>(c)]);
    std::sort(f.begin(), f.end());
    return f;
}

// Shared driver: for each competitor solve the knapsack given by `solve`, keep the competitor
// whose margin ends lowest (the first of equals).
template <class Solve>
InstanceDeletion worstCase(const LinearModel& m, const RowView& x, int label, Solve&& solve) {
    InstanceDeletion best;
    double bestMargin = std::numeric_limits<double>::infinity(), bestBoundMargin = bestMargin;
    std::vector<double> s, profit;
    std::vector<int> index;
    const double margin = forEachCompetitor(m, x, label, s, profit, index, [&](double marginK, int) {
        double lpValue = 0.0;
        const KnapsackResult r = solve(profit, index, lpValue);
        const double after = marginK - r.value;
        bestBoundMargin = std::min(bestBoundMargin, marginK - lpValue);
        if (after < bestMargin) {
            bestMargin = after;
            best.deleted = featuresOf(r.chosen, index);
        }
    });
    best.damage = margin - bestMargin;
    best.bound = margin - bestBoundMargin;
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
                                        double scale, const BranchAndBoundParams& bb) {
    if (!(scale > 0.0) || !std::isfinite(scale))
        throw std::invalid_argument("value-budget knapsack: scale must be finite and > 0");
    std::vector<double> w;
    return worstCase(m, x, label, [&](const std::vector<double>& p, const std::vector<int>& index, double& lp) {
        pricesOf(v, index, w);
        lp = fractionalKnapsack(p, w, N).value;
        if (method == ValueBudgetMethod::Greedy) return greedyKnapsack(p, w, N);
        // The DP where it applies keeps its results (and its choice among equal optima) as they were.
        return dpAccepts(w, N, scale) ? exactKnapsack(p, w, N, scale) : branchAndBoundKnapsack(p, w, N, bb);
    });
}

// A flip is what the scorer calls one: margin <= 0 when x is scored with `deleted` removed. The
// cover compares profits summed apart with the clean margin, which differs from that score by
// rounding, so at an exact tie (margin 0 after deletion) a set can fall an ulp short of the demand
// though it flips, or reach it though it does not. So the cover asks for the clean margin less a
// bound on that rounding, and a set whose profits do not clear the margin by the bound too is
// re-scored and, if the scorer says it does not flip, searched past (branchAndBoundCover's
// accept and sure). The cost found is the cheapest set the scorer calls a flip.
ValueFlip worstCaseValueFlip(const LinearModel& m, const RowView& x, int label, const std::vector<double>& v,
                             const BranchAndBoundParams& bb) {
    ValueFlip best;
    std::vector<double> s, profit, w, after(static_cast<std::size_t>(m.W.cols()));
    std::vector<int> index;
    const bool binary = m.isBinary();
    forEachCompetitor(m, x, label, s, profit, index, [&](double marginK, int k) {
        // The scores' terms in magnitude (both classes' weights times x, and the biases): scoring
        // any subset rounds by less than (terms + 2) * eps times this, and so does summing profits.
        double magnitude = std::abs(marginK);
        std::size_t terms = 0;
        x.forEachNonZero([&](int j, float xj) {
            const auto jj = static_cast<Eigen::Index>(j);
            const double xv = std::abs(static_cast<double>(xj));
            magnitude += xv * (binary ? std::abs(m.W(jj, 0)) : std::abs(m.W(jj, label)) + std::abs(m.W(jj, k)));
            ++terms;
        });
        magnitude += binary ? std::abs(m.b(0)) : std::abs(m.b(label)) + std::abs(m.b(k));
        const double slack = 4.0 * static_cast<double>(terms + 4) * std::numeric_limits<double>::epsilon() * magnitude;
        const auto flips = [&](const std::vector<int>& chosen) {
            linearScores(m, x, featuresOf(chosen, index), after);
            return Scorer::marginOf(after, label) <= 0.0;
        };
        pricesOf(v, index, w);
        const CoverResult c = branchAndBoundCover(profit, w, marginK - slack, bb, flips, 2.0 * slack);
        if (c.cost < best.cost) {
            best.cost = c.cost;
            best.deleted = featuresOf(c.chosen, index);
        }
    });
    return best;
}

// Each level deletes what the attack deletes (worstCaseCountDeletion) and is scored in the one
// summation order of linear scores, so the curve is the attack's, bit for bit: an earlier one-pass
// version summed bias + kept terms + a suffix of the sorted profits, and at margins near 0 its
// level 0 disagreed with the clean error. All levels of a row share one ranking per competitor:
// topKProfits' top K is the first K of rankPositiveProfits, summed by valueOf in increasing
// index order as topKProfits does, and each level keeps the first competitor whose margin ends
// lowest, as worstCase does; so every level's set and winner are the attack's.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const int outs = static_cast<int>(m.W.cols());
    if (test.numClasses() != (outs == 1 ? 2 : outs))   // a label past the columns would read past the scores
        throw std::invalid_argument("worst-case attack: the model scores " + std::to_string(outs == 1 ? 2 : outs) +
                                    " classes, dataset '" + test.name + "' has " + std::to_string(test.numClasses()));
    for (int K : Ks)
        if (K < 0) (void)topKProfits({}, K);   // the attack's error
    const std::size_t most = Ks.empty() ? 0 : static_cast<std::size_t>(*std::max_element(Ks.begin(), Ks.end()));
    std::vector<double> s, profit, lowest;
    std::vector<int> index, ranked;
    std::vector<std::vector<int>> chosen;   // per level: positions into profit, increasing
    scoreLinearDeletions(m, test, base, Ks, sink,
                         [&](const RowView& x, int label, std::span<const int> budgets, const Rng&,
                             std::vector<std::vector<int>>& deleted) {
                             lowest.assign(budgets.size(), std::numeric_limits<double>::infinity());
                             for (auto& d : deleted) d.clear();
                             forEachCompetitor(m, x, label, s, profit, index, [&](double marginK, int) {
                                 rankPositiveProfits(profit, most, ranked);
                                 sortedPrefixes(ranked, budgets, chosen);
                                 for (std::size_t l = 0; l < budgets.size(); ++l) {
                                     const double after = marginK - valueOf(profit, chosen[l]);
                                     if (after < lowest[l]) {
                                         lowest[l] = after;
                                         deleted[l].clear();
                                         for (int c : chosen[l]) deleted[l].push_back(index[static_cast<std::size_t>(c)]);
                                     }
                                 }
                             });
                             for (auto& d : deleted) std::sort(d.begin(), d.end());   // as worstCase
                         });
}

}  // namespace fdlab
