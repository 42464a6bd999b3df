#pragma once
// The worst-case deletion against a linear model for one instance (spec section 1): the
// adversary maximises the margin lost sum_{j in S} p_j, p_j = y w_j x_j (binary) or
// (w_label - w_k)_j x_j against each competitor class k (multi-class; the k that ends with the
// smallest margin wins). Count budget: exact by sorting. Value budget: the exact 0/1 knapsack --
// by DP when every price v_j * knapsack_scale is a whole number (and N * scale <= 10^7), else by
// branch and bound over the real prices (core/solvers/knapsack_bb.h) -- or the greedy adversary;
// all also report the fractional (LP) relaxation, an upper bound.
//
// The cheapest flip (value budgets): the smallest sum_{j in S} v_j after which the margin is <= 0
// (Scorer's convention), i.e. for some competitor k, sum_{j in S} p_j >= the clean margin against
// k: a min-cost covering knapsack per competitor, by branch and bound, the cheapest over them.

#include "core/attacks/threat_registry.h"
#include "core/learners/linear_model.h"
#include "core/solvers/knapsack_bb.h"

#include <limits>
#include <span>
#include <vector>

namespace fdlab {

enum class ValueBudgetMethod { Exact, Greedy };

struct InstanceDeletion {
    std::vector<int> deleted;   ///< increasing feature indices
    double damage = 0.0;        ///< margin lost: margin(x) - margin(x with S deleted)
    double bound = 0.0;         ///< value budget: LP-relaxation bound on the damage; count: = damage
};

/// K largest positive profits (exact). x is a dense or sparse row; only its non-zeros count.
InstanceDeletion worstCaseCountDeletion(const LinearModel& m, const RowView& x, int label, int K);

/// Value budget N with feature values v (size n, each finite and > 0): Exact is the DP when the
/// prices of x's non-zeros times `scale` are whole numbers and N * scale <= 10^7, else branch and
/// bound (std::invalid_argument past `bb.maxNodes`); or Greedy.
InstanceDeletion worstCaseValueDeletion(const LinearModel& m, const RowView& x, int label,
                                        const std::vector<double>& v, double N, ValueBudgetMethod method,
                                        double scale = 1.0, const BranchAndBoundParams& bb = {});

struct ValueFlip {
    /// Smallest summed price of a deletion that leaves margin <= 0 (0 when x is misclassified
    /// clean); +infinity when deleting every helpful feature leaves it right.
    double cost = std::numeric_limits<double>::infinity();
    std::vector<int> deleted;   ///< that deletion, increasing feature indices
};

/// The cheapest flip of x under prices v (any finite v_j > 0), exact by branch and bound.
ValueFlip worstCaseValueFlip(const LinearModel& m, const RowView& x, int label, const std::vector<double>& v,
                             const BranchAndBoundParams& bb = {});

/// Every count level Ks of the worst-case count threat, for a linear model with zero
/// replacement, without materialising the attacked sets: the attack's own deletion per level,
/// scored by linearScores, so the scores equal runAttack's at each level bit for bit (tests
/// check it); instances of classes the threat spares (AttackSpec::attacks) are scored clean.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink);

}  // namespace fdlab
