#pragma once
// Scores one trained model on a test set attacked at each of several levels (budgets K or N,
// a drop probability, a corruption fraction). For linear models under the worst-case count
// budget or random deletion it scores every level without materialising the attacked sets
// (ThreatInfo::linearLevels); the result is identical to running the attack at each level, bit
// for bit (tests check it).

#include "core/attacks/attack.h"
#include "core/learners/registry.h"

#include <limits>
#include <vector>

namespace fdlab {

struct LevelScore {
    double error = 0.0;   ///< fraction misclassified (margin <= 0)
    double auc = 0.0;     ///< binary problems; NaN for multi-class
    /// One-sided threats (AttackSpec::attackedClasses set): the error on the instances of the
    /// attacked classes and on the others; NaN otherwise (or when a part is empty).
    double errorAttacked = std::numeric_limits<double>::quiet_NaN();
    double errorOthers = std::numeric_limits<double>::quiet_NaN();
};

/// The attack at another level (K, N, p or fraction, as the threat's LevelKind says).
AttackSpec attackAtLevel(const AttackSpec& base, double level);

/// True when evaluateAtLevels takes the linearLevels route for this model and threat (a linear
/// model, a threat with ThreatInfo::linearLevels, zero replacement).
bool hasFastLevelPath(const TrainedModel& model, const AttackSpec& base);

/// Error and AUC at each level. Cancelled runs throw nothing: they return the levels done
/// (shorter vector). `donors` as in runAttack.
std::vector<LevelScore> evaluateAtLevels(const TrainedModel& model, const Dataset& test, const AttackSpec& base,
                                         const std::vector<double>& levels, const RunControl& rc = {},
                                         const Dataset* donors = nullptr);

/// Error and AUC of a scorer on a dataset as it is; `spec` only says which classes were
/// attacked (for the one-sided errors).
LevelScore scoreDataset(const Scorer& model, const Dataset& d, const AttackSpec& spec = {});

}  // namespace fdlab
