#pragma once
// Test-time attacks (spec section 1): what the adversary deletes or corrupts in each test
// instance. Every attack returns, per instance, the deleted (or corrupted) feature set and the
// attacked dataset, so that the GUI can draw what happened and the evaluation engine can score
// the model on it.
//
// Worst case against a linear model, one instance with label y: maximise the margin lost,
// sum_{j in S} p_j, p_j = y w_j x_j (binary) or (w_y - w_k)_j x_j against the strongest
// competitor class k (multi-class: the best k is found by trying every k), over
//   count budget:  |S| <= K                    -- exact by sorting (topKProfits)
//   value budget:  sum_{j in S} v_j <= N       -- exact 0/1 knapsack by DP on integer (or
//                                                 scaled) v_j, by branch and bound on real v_j;
//                                                 the greedy adversary; and the LP relaxation
//                                                 as an upper bound on the damage.
// The bias is never deletable. Every threat model is declared in core/attacks/threat_registry.h.

#include "core/data/dataset.h"
#include "core/learners/scorer.h"
#include "core/util/run_control.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

/// One attack: the threat (a name from threatRegistry(), core/attacks/threat_registry.h), its
/// level, its own parameters, and the randomness. What the level means (K, N, p, a fraction)
/// and which parameters exist are declared by the threat's registry entry.
struct AttackSpec {
    std::string threat = "none";
    /// K for count budgets (a whole number >= 0), N for value budgets (0 <= N < V = sum v_j), a
    /// probability or fraction in [0, 1] otherwise (ThreatInfo::level).
    double level = 0.0;
    /// The threat's parameters by name (ThreatInfo::params); missing ones take their defaults,
    /// unknown names and bad values are errors (validate, completeParams).
    nlohmann::json params = nlohmann::json::object();
    /// One-sided adversary: the class indices whose instances are attacked (e.g. only spam);
    /// the others stay clean. Empty = every class.
    std::vector<int> attackedClasses;
    /// Row i of the attacked set draws its randomness from stream i of `seed`.
    std::uint64_t seed = 1;

    /// Throws std::invalid_argument naming the field: an unknown threat, a level outside what
    /// the threat allows (negative or fractional K, N outside [0, V), p outside [0, 1]), a bad
    /// parameter, or what the threat's own check refuses on data d (feature out of range...).
    void validate(const Dataset& d) const;
    /// The threat's parameters with defaults filled in (throws like validate for bad values).
    nlohmann::json completeParams() const;
    /// True when instances of class `label` are attacked (attackedClasses empty or holds it).
    bool attacks(int label) const;
};

struct AttackResult {
    Dataset attacked;                          ///< the test set after the attack
    std::vector<std::vector<int>> deleted;     ///< per instance: deleted/corrupted features, increasing
    std::vector<double> damage;                ///< per instance: margin lost (worst-case threats), else empty
    std::vector<double> damageBound;           ///< value budgets: LP-relaxation upper bound, else empty
    double elapsed = 0.0;
    Status status = Status::Converged;
    std::string message;
};

/// Runs the attack on every instance of `test` (labels are the true labels), dense or sparse:
/// a sparse test set gives a sparse attacked set, and deletions act on stored non-zeros (the
/// corruption threats and the greedy search densify one row at a time). Worst-case and
/// uniform threats need a LinearScorer (std::invalid_argument otherwise). Corruption threats
/// take replacement values from `donors` (e.g. the training set; default: `test` itself),
/// never from the instance being corrupted. Deterministic for spec.seed (each instance draws
/// from its own stream, so results do not depend on the order or thread of evaluation).
/// Reports progress per 1/20 of the instances; on cancel returns Status::Cancelled with the
/// instances done so far attacked and the rest left clean.
AttackResult runAttack(const Dataset& test, const Scorer& model, const AttackSpec& spec, const RunControl& rc = {},
                       const Dataset* donors = nullptr);

/// Rows `rows` of runAttack(test, model, spec, rc, donors), without attacking the others: the
/// threat makes its choices on the whole of `test` (uniform-exact picks its one set from every
/// row), and row rows[r] is attacked as the whole-set attack attacks it (its random stream, its
/// index for the donor rule), so result row r equals row rows[r] of runAttack(test, ...) for
/// every threat. The result holds the rows in the order given (std::out_of_range for a row
/// outside `test`). The per-instance views (core/eval/instance_view.h) rely on it.
AttackResult runAttackOnRows(const Dataset& test, const std::vector<int>& rows, const Scorer& model,
                             const AttackSpec& spec, const RunControl& rc = {}, const Dataset* donors = nullptr);

}  // namespace fdlab
