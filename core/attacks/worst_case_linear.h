#pragma once
// The worst-case deletion against a linear model for one instance (spec section 1): the
// adversary maximises the margin lost sum_{j in S} p_j, p_j = y w_j x_j (binary) or
// (w_label - w_k)_j x_j against each competitor class k (multi-class; the k that ends with the
// smallest margin wins). Count budget: exact by sorting. Value budget: exact 0/1 knapsack (DP),
// or the greedy adversary; both also report the fractional (LP) relaxation, an upper bound.

#include "core/attacks/threat_registry.h"
#include "core/learners/linear_model.h"

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

/// Value budget N with feature values v (exact DP with v_j * scale integral, or greedy).
InstanceDeletion worstCaseValueDeletion(const LinearModel& m, const RowView& x, int label,
                                        const std::vector<double>& v, double N, ValueBudgetMethod method,
                                        double scale = 1.0);

/// Every count level Ks of the worst-case count threat, for a linear model with zero
/// replacement, without materialising the attacked sets: the attack's own deletion per level,
/// scored by linearScores, so the scores equal runAttack's at each level bit for bit (tests
/// check it); instances of classes the threat spares (AttackSpec::attacks) are scored clean.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink);

}  // namespace fdlab
