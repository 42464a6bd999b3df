#pragma once
// "You are the adversary": a student deletes features of one instance by hand, within the
// attack's budget, and compares the result with the optimal adversary's (spec section 1).
//
// Budget: |S| <= K (count) or sum_{j in S} v_j <= N (value, v_j the feature's price). The
// student's set S is scored as the attacks score theirs: s(x with x_j = 0 for j in S), for a
// linear model by linearScores (the one summation order of every attack and curve), otherwise
// by the model's scorer on a dense copy. The optimal adversary at the same budget is the exact
// worst case of core/attacks/worst_case_linear.h for linear models, and the greedy deletion of
// core/attacks/greedy_deletion.h (a heuristic, reported as not exact) otherwise.
//
// "Deletions needed to flip": the smallest budget B (a count K or a value N) at which the same
// adversary leaves the instance misclassified (margin <= 0, Scorer's convention). For linear
// models the worst-case damage never falls as B grows, so on a grid of budgets (counts, or
// multiples of 1/knapsack_scale when every price of the instance is one) B is found by bisection,
// each step one worst-case attack scored as above. Real prices have no grid: B is the cheapest
// flip, a min-cost covering knapsack solved by branch and bound (worstCaseValueFlip). The
// robustness map (core/teach/robustness_map.h) uses the same function per test instance.

#include "core/data/dataset.h"
#include "core/learners/registry.h"

#include <limits>
#include <utility>
#include <span>
#include <string>
#include <vector>

namespace fdlab {

/// The adversary's budget for one game.
struct PlayBudget {
    bool byValue = false;    ///< false: count K; true: value N with prices v_j
    double limit = 0.0;      ///< K (whole) or N, >= 0; a K above the features deletes them all (clamped)
    /// Value budgets: v_j > 0 per feature (the test set's importance); ignored for counts.
    std::vector<double> prices;
    /// Value budgets: the exact knapsack DP's unit, as the threat's knapsack_scale. Prices that
    /// are not whole multiples of 1/knapsackScale are solved by branch and bound instead.
    double knapsackScale = 1.0;

    static PlayBudget count(double K) { return {false, K, {}, 1.0}; }
    static PlayBudget value(double N, std::vector<double> prices, double scale = 1.0) {
        return {true, N, std::move(prices), scale};
    }

    /// Throws std::invalid_argument naming the field: negative or non-finite limit, a
    /// fractional count, prices of the wrong length or not > 0, a scale <= 0.
    void validate(int features) const;
    /// validate without the limit: the prices and the scale (value budgets), O(features).
    void validatePrices(int features) const;
    /// The cost of deleting the features `set`: its size, or the sum of their prices.
    double cost(std::span<const int> set) const;
};

/// One learner's scores on an instance with some features deleted.
struct PlayScore {
    std::vector<double> scores;   ///< class scores (one for binary models)
    double margin = 0.0;          ///< > 0: still classified correctly
    int predicted = -1;
};

/// model's scores on x (class `label`) with the features `deleted` (increasing) set to 0.
/// Throws std::invalid_argument for an untrained model, a feature out of range or unsorted.
PlayScore scoreWithDeletions(const TrainedModel& model, const RowView& x, int label, std::span<const int> deleted);

/// The student's side of the game: the features deleted so far, never over the budget.
class DeletionGame {
public:
    enum class Move { Deleted, Restored, OverBudget, AlreadyZero };

    /// x: the clean instance (its values are copied); label: its true class.
    DeletionGame(const RowView& x, int label, PlayBudget budget);

    /// Deletes feature j, or restores it when deleted. A deletion that would exceed the budget,
    /// or of a feature that is already 0, changes nothing. std::out_of_range for j outside x.
    Move toggle(int j);
    /// Deletes j if it is not deleted (brushing never restores); same outcomes as toggle.
    Move erase(int j);
    void reset() { m_deleted.clear(); }

    const std::vector<int>& deleted() const { return m_deleted; }   ///< increasing
    double spent() const { return m_budget.cost(m_deleted); }
    double remaining() const { return m_budget.limit - spent(); }
    const PlayBudget& budget() const { return m_budget; }
    RowView row() const { return RowView::dense(m_x); }
    int label() const { return m_label; }
    /// The student's result against `model`.
    PlayScore score(const TrainedModel& model) const { return scoreWithDeletions(model, row(), m_label, m_deleted); }

private:
    std::vector<float> m_x;
    int m_label;
    PlayBudget m_budget;
    std::vector<int> m_deleted;
};

/// The optimal adversary against one model at one budget.
struct OptimalPlay {
    std::vector<int> deleted;   ///< increasing
    PlayScore after;            ///< scoreWithDeletions of `deleted`
    bool exact = true;          ///< false: greedy deletion (non-linear model), a heuristic
    std::string method;         ///< "exact worst case", "exact knapsack" or "greedy (heuristic)"
};

/// The worst case (linear) or greedy deletion (other models; count budgets only, else
/// std::invalid_argument) within `budget` on x.
OptimalPlay optimalPlay(const TrainedModel& model, const RowView& x, int label, const PlayBudget& budget);

/// The smallest budget at which the adversary of optimalPlay flips x.
struct FlipNeed {
    /// The budget (count K or value N; 0 when x is misclassified clean); +infinity when no
    /// budget flips it (deleting every helpful feature leaves it right).
    double need = std::numeric_limits<double>::infinity();
    bool exact = true;   ///< false: greedy deletion's count (an upper bound on the true need)
    bool flips() const { return need != std::numeric_limits<double>::infinity(); }
};

/// budget.limit is ignored (the search runs over every budget: value budgets over the multiples
/// of 1 / knapsackScale up to the sum of x's non-zero features' prices when those prices are
/// whole multiples of it, else the exact cheapest flip over the real prices). Throws
/// std::invalid_argument when the exact search gives up (BranchAndBoundParams::maxNodes).
FlipNeed deletionsToFlip(const TrainedModel& model, const RowView& x, int label, const PlayBudget& budget);
/// deletionsToFlip for a budget whose validatePrices(x.n) has passed: no O(features) check per
/// call, for callers that ask for every row of a dataset (robustnessMap).
FlipNeed deletionsToFlipValidated(const TrainedModel& model, const RowView& x, int label, const PlayBudget& budget);

}  // namespace fdlab
