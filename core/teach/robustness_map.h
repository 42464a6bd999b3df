#pragma once
// The robustness map: for every test instance, the smallest budget with which the adversary
// flips it (deletionsToFlip, core/teach/deletion_game.h), for two learners side by side. A
// dataset-level view of the worst-case curve: under the curve's threat (count or value budget,
// the same one-sidedness) the fraction of instances whose need is <= B is the curve's error at
// budget B, for every B (tests check it on MNIST 3 vs 5 and on the SpamAssassin pair).
// Instances of classes a one-sided threat spares are never attacked: their need is 0 when the
// learner gets them wrong clean, +infinity otherwise.

#include "core/attacks/attack.h"
#include "core/learners/registry.h"
#include "core/teach/deletion_game.h"
#include "core/util/run_control.h"

#include <vector>

namespace fdlab {

/// The budget the map measures for a threat: a value N for the value-budget threats (prices =
/// test.importance, the threat's knapsack_scale; the exact knapsack adversary, also for
/// worst-case-value-greedy), a count K for every other threat (the exact worst-case adversary:
/// under random or greedy deletion the map shows what the optimal adversary would need, which is
/// not that threat's curve).
PlayBudget budgetOfThreat(const AttackSpec& attack, const Dataset& test);

/// The map's instances (the first `done`) counted, those of spared classes apart: a one-sided
/// threat never attacks them, so "never flipped" would say nothing about the learners there.
struct RobustnessCounts {
    int below = 0, above = 0, equal = 0;    ///< attacked instances: need against B <, >, = need against A
    int neverA = 0, neverB = 0;             ///< attacked instances no budget flips
    int spared = 0;                         ///< instances of classes the threat does not attack
    int sparedWrongA = 0, sparedWrongB = 0; ///< of those, misclassified clean (need 0)
};

struct RobustnessMap {
    std::vector<double> needA, needB;   ///< per test instance; +infinity: never flipped
    std::vector<char> spared;           ///< per test instance: 1 when the threat spares its class
    bool exactA = true, exactB = true;  ///< false: greedy deletion's need (a heuristic)
    bool byValue = false;               ///< needs are values N (else counts K)
    double knapsackScale = 1.0;         ///< the threat's knapsack_scale
    /// Value needs are whole multiples of 1/knapsackScale (every price is one; the DP's grid),
    /// else sums of real prices.
    bool wholeUnits = true;
    int done = 0;                       ///< instances computed (all unless cancelled)
    Status status = Status::Converged;  ///< Cancelled: the first `done` entries are set

    /// Fraction of the test instances with need <= budget (A: which = 0, B: 1). Value needs are
    /// compared as the worst-case curve's exact adversary decides: in the knapsack's whole units
    /// (knapsackCapacityUnits) on the DP's grid -- a need of 3 x 0.1 fits a budget of 0.3 although
    /// 3 * 0.1 > 0.3 in floating point -- else with the budget's tolerance (budgetLimit).
    double fractionFlipped(int which, double budget) const;
    RobustnessCounts counts() const;
};

/// Both learners' needs on every instance of `test`. Progress once per 1/50 of the instances;
/// a cancel returns Status::Cancelled with the instances done so far.
RobustnessMap robustnessMap(const Dataset& test, const TrainedModel& a, const TrainedModel& b,
                            const AttackSpec& attack, const RunControl& rc = {});

}  // namespace fdlab
