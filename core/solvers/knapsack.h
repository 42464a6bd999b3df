#pragma once
// The adversary's inner maximisation against a linear model, for one instance:
//
//     max_S  sum_{j in S} p_j    s.t.  sum_{j in S} v_j <= N,
//
// with profit p_j = y w_j x_j (only p_j > 0 is ever worth taking) and weight v_j > 0.
// Equal weights (v_j = 1, N = K): the K largest positive p_j, exact by partial sort.
// General weights: 0/1 knapsack -- exact by dynamic programming over integer weights, the
// greedy rule (largest p_j / v_j first, skip what does not fit; Dekel & Shamir's "greedy
// adversary"), and the fractional LP relaxation (greedy plus a fraction of the first item that
// does not fit), an upper bound on the exact value. Spec section 1.
//
// The budget is compared with a relative tolerance (kBudgetTolerance): weights are summed in
// floating point, where 0.1 + 0.1 + 0.1 > 0.3, and three features of importance 0.1 must fit in
// N = 0.3 for the greedy rule, the LP relaxation and the DP alike. Every solver sums the profits
// of its set in increasing index order, so one set has one value whichever solver chose it.

#include <cstddef>
#include <span>
#include <vector>

namespace fdlab {

/// A set fits in capacity N when its summed weight is at most N * (1 + kBudgetTolerance).
inline constexpr double kBudgetTolerance = 1e-9;
/// The largest summed weight that fits in capacity N: N * (1 + kBudgetTolerance).
inline double budgetLimit(double capacity) { return capacity * (1.0 + kBudgetTolerance); }

/// Throws std::invalid_argument ("<who>: ...") unless weight has profit's length, every weight is
/// finite and > 0, and capacity is finite and >= 0.
void checkKnapsackInput(const std::vector<double>& profit, const std::vector<double>& weight, double capacity,
                        const char* who);

struct KnapsackResult {
    double value = 0.0;              ///< total profit of the chosen set (fractional: LP value)
    std::vector<int> chosen;         ///< indices taken whole, increasing
    int fractionalItem = -1;         ///< LP relaxation only: item taken in part, else -1
    double fraction = 0.0;           ///< its fraction in (0,1)
};

/// K largest positive profits (ties: lower index first). K >= 0.
KnapsackResult topKProfits(const std::vector<double>& profit, int K);
/// topKProfits' ranking: ranked := the indices of the positive profits, larger first (ties: lower
/// index first), the first `top` of them in order (the rest follow unordered). topKProfits(p, K)
/// chooses exactly the first min(K, ranked.size()) entries.
void rankPositiveProfits(const std::vector<double>& profit, std::size_t top, std::vector<int>& ranked);
/// Sum of the profits of `chosen`, in its order from 0.0: the value every solver reports for its
/// (increasing) set.
double valueOf(const std::vector<double>& profit, std::span<const int> chosen);

/// Greedy by ratio p_j / v_j over positive profits, skipping items that do not fit.
KnapsackResult greedyKnapsack(const std::vector<double>& profit, const std::vector<double>& weight, double capacity);

/// Fractional (LP-relaxation) knapsack: upper bound on the 0/1 optimum.
KnapsackResult fractionalKnapsack(const std::vector<double>& profit, const std::vector<double>& weight, double capacity);

/// Exact 0/1 knapsack by DP; weights are rounded to integers after multiplying by `scale`
/// (scale = 1 for integer weights), the capacity to floor(capacity * scale * (1 + kBudgetTolerance));
/// throws std::invalid_argument if a scaled weight is not
/// within 1e-9 of an integer or capacity*scale exceeds 10^7.
KnapsackResult exactKnapsack(const std::vector<double>& profit, const std::vector<double>& weight, double capacity,
                             double scale = 1.0);

/// Whether exactKnapsack solves this instance rather than throwing: scale finite and > 0, every
/// weight * scale within 1e-9 of a whole number, capacity * scale at most 10^7.
bool dpAccepts(const std::vector<double>& weight, double capacity, double scale);

/// The whole weight units (of 1/scale) exactKnapsack allows for `capacity`:
/// floor(capacity * scale * (1 + kBudgetTolerance)). Whoever asks "does a need fit in this
/// budget?" of the exact adversary compares against this, so both agree exactly.
long knapsackCapacityUnits(double capacity, double scale);

}  // namespace fdlab
