#pragma once
// The adversary's knapsacks with real prices, solved exactly by depth-first branch and bound
// (Horowitz & Sahni 1974; Martello & Toth, "Knapsack Problems", 1990, section 2.5), for one
// instance with profits p_j (margin lost by deleting feature j) and prices v_j > 0:
//
//   the most damaging deletion:   max_S  sum_{j in S} p_j   s.t.  sum_{j in S} v_j <= N
//   the cheapest flip:            min_S  sum_{j in S} v_j   s.t.  sum_{j in S} p_j >= D
//
// (D: the margin to destroy). Only p_j > 0 can help either. The items are ordered by p_j / v_j,
// largest first; the search tries the greedy choice first and prunes a branch when its
// fractional (Dantzig / LP-relaxation) bound cannot beat the best set found. Items with the same
// (p_j, v_j) -- common in sparse text, where words seen in the same training messages get the
// same weight and the same price -- are one group, branched on how many of them are taken, so
// that interchangeable items do not multiply the search; where every price left is the same,
// the bounds count whole items (so equal prices are as quick as sorting). The DP of knapsack.h
// needs every v_j * scale to be a whole number; this one takes any real prices.
//
// The budget follows knapsack.h's rule: a set fits when its summed price is at most
// N * (1 + kBudgetTolerance). A set covers D when its profits summed largest first (coverSum)
// reach D. That sum depends only on the multiset of profits, not on which items carry them: the
// search takes "t items of a group" as its t lowest indices, and with the index-order sum it used
// before, a demand equal to a sum of profits to the last bit could be reached by {2,3,4,6,9} and
// missed by the interchangeable {0,2,3,4,6} (0 and 9 identical), returning a dearer set (cost
// 3.35 for 3.25). Optimal up to rounding: a branch that can only tie the best set to 1e-13
// (relative) is not explored. The search's work is bounded (BranchAndBoundParams::maxNodes);
// past it, std::invalid_argument with a message for the user, never a set that may not be
// optimal. Exactly proportional profits (p_j = c v_j for many j) are the hard case: then the
// bound never proves a set optimal unless it fills N exactly.

#include "core/solvers/knapsack.h"

#include <functional>
#include <limits>
#include <vector>

namespace fdlab {

struct BranchAndBoundParams {
    /// Search nodes (a choice of how many items of one group to take) before giving up with
    /// std::invalid_argument. 10^7 nodes take about 0.2 s, so a hopeless instance soon says so
    /// (Reveal runs it on a worker thread: ui/plots/adversary_play.h).
    long maxNodes = 10'000'000;

    /// Throws std::invalid_argument naming the field (maxNodes < 1).
    void validate() const;
};

/// The most damaging deletion: max profit within `capacity`. value and chosen as exactKnapsack
/// (chosen increasing, value summed by valueOf); weights finite and > 0, capacity finite, >= 0.
KnapsackResult branchAndBoundKnapsack(const std::vector<double>& profit, const std::vector<double>& weight,
                                      double capacity, const BranchAndBoundParams& params = {});

struct CoverResult {
    /// Smallest summed weight of a set with summed profit >= demand (0 when demand <= 0);
    /// +infinity when even every positive profit together falls short.
    double cost = std::numeric_limits<double>::infinity();
    std::vector<int> chosen;   ///< that set, increasing (empty when cost is 0 or +infinity)
    bool covered() const { return cost != std::numeric_limits<double>::infinity(); }
};

/// The profits of `chosen` summed largest first: equal for every set with the same multiset of
/// profits (the cover's test "reaches the demand", so that equal items are interchangeable).
double coverSum(const std::vector<double>& profit, const std::vector<int>& chosen);

/// Whether a set that reaches the demand counts (its positions into profit, increasing).
using CoverAccept = std::function<bool(const std::vector<int>& chosen)>;

/// The cheapest flip: min weight over sets of positive profits with coverSum(profit, set) >=
/// demand (finite) and, when
/// `accept` is given, accept(set) for the sets whose coverSum is below demand + sure (those
/// clearing the demand by `sure` or more are accepted without asking). The cost is the chosen
/// weights summed in increasing index order. A set `accept` refuses is searched past (its
/// supersets are tried), so the answer is the cheapest accepted set; the search below a refused
/// set is exhaustive (bounded by maxNodes), so `accept` should refuse only sets within rounding of
/// the demand.
CoverResult branchAndBoundCover(const std::vector<double>& profit, const std::vector<double>& weight, double demand,
                                const BranchAndBoundParams& params = {}, const CoverAccept& accept = {},
                                double sure = 0.0);

}  // namespace fdlab
