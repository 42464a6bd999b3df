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
//                                                 scaled) v_j; the greedy adversary; and the
//                                                 LP relaxation as an upper bound on the damage.
// The bias is never deletable. Other threat models are documented at ThreatModel.

#include "core/data/dataset.h"
#include "core/learners/kernel_svm.h"
#include "core/learners/scorer.h"
#include "core/util/run_control.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

enum class ThreatModel {
    None,                  ///< the clean test set
    WorstCaseCount,        ///< K deletions per instance, exact worst case (linear models)
    WorstCaseValueExact,   ///< value budget N, exact knapsack DP (linear models)
    WorstCaseValueGreedy,  ///< value budget N, the Dekel-Shamir greedy adversary (linear models)
    RandomDeletion,        ///< K of the instance's non-zero features, uniformly at random
    RandomFeatureDrop,     ///< feature `feature` deleted with probability `probability`
    UniformTopWeight,      ///< the same K features from every instance: the K largest |w_j| (heuristic)
    UniformExact,          ///< the same K features from every instance, maximising the test error
                           ///< by enumerating all C(n, K) sets (refused above 10^6 sets)
    GreedyDeletion,        ///< any model: delete, one at a time, the feature that lowers the true
                           ///< class's margin most (a heuristic; stops once misclassified)
    FeatureCorruption,     ///< a fraction of each instance's features get the value of the same
                           ///< feature in another random test instance
    GroupCorruption,       ///< a fraction of the feature groups get the values of another random
                           ///< test instance (whole group at once)
    FixedDeletion,         ///< the first K features of `features` deleted from every instance
                           ///< (e.g. Dekel-Shamir's "delete both label copies")
    RandomBlankout,        ///< every non-zero feature deleted independently with probability
                           ///< `probability` (MCF's "blankout at test time"; the level is the
                           ///< probability; a zero has nothing to delete)
    RandomLabelFlip,       ///< TRAINING time: a fraction `fraction` of the training labels flipped
                           ///< at random (binary data; the experiment runner applies it)
    AdversarialLabelFlip   ///< TRAINING time: the same number of flips chosen by Algorithm 1 of
                           ///< Biggio et al. against `labelFlipSvm` (core/attacks/label_flips.h)
};

const char* toString(ThreatModel t);
/// Parses the names printed by toString ("worst-case-count", ...); std::invalid_argument otherwise.
ThreatModel threatModelFromString(const std::string& s);
/// True for the threat models whose budget is a count K (else a value N, or no budget).
bool usesCountBudget(ThreatModel t);
bool usesValueBudget(ThreatModel t);
/// What a curve's level means for the threat, as an axis label ("deleted features K", ...).
std::string levelLabel(ThreatModel t);
/// True for the label-flip threats, which act on the training set, not on test instances.
bool isTrainingTime(ThreatModel t);

/// What a deleted feature becomes.
enum class Replacement {
    Zero,          ///< x_j = 0 (deletion)
    UniformNoise   ///< x_j ~ U[-1, 1], zero-mean noise (Dekel-Shamir section 2.4 "corruption")
};

struct AttackSpec {
    ThreatModel threat = ThreatModel::None;
    /// K for count budgets (a whole number >= 0), N for value budgets (0 <= N < V = sum v_j).
    double budget = 0.0;
    /// FixedDeletion: the features to delete, in order (the budget K takes the first K).
    std::vector<int> features;
    /// RandomFeatureDrop: the feature index and its deletion probability in [0, 1];
    /// RandomBlankout: the probability.
    int feature = 0;
    double probability = 0.0;
    /// FeatureCorruption / GroupCorruption: fraction of features / groups corrupted, [0, 1].
    double fraction = 0.0;
    /// GroupCorruption: the groups (e.g. encodings, image regions); must not overlap.
    std::vector<FeatureGroup> groups;
    /// GroupCorruption on image data: when both > 0, the groups are the image's blocks of
    /// regionRows x regionCols pixels (imageRegionGroups) instead of `groups`, e.g. 7 x 7 on
    /// MNIST = a 4 x 4 grid of 16 regions. Default 0 (use `groups`).
    int regionRows = 0;
    int regionCols = 0;
    /// What deleted features become (deletion-type threats).
    Replacement replacement = Replacement::Zero;
    /// WorstCaseValueExact: v_j * scale must be within 1e-9 of integers (scale 1 = integer values).
    double knapsackScale = 1.0;
    /// AdversarialLabelFlip: the SVM the attacker targets (kernel, C, gamma) and the repetitions
    /// R of Algorithm 1.
    KernelSvmParams labelFlipSvm;
    int labelFlipRepeats = 10;
    /// AdversarialLabelFlip in experiments: attack each kernel-svm learner's own plain SVM (its
    /// kernel, C and gamma, mu = 0) instead of labelFlipSvm, as Biggio et al. do per panel of C.
    bool labelFlipSvmFromLearner = false;
    /// GreedyDeletion: stop as soon as the instance is misclassified.
    bool stopWhenWrong = true;
    /// One-sided adversary: the class indices whose instances are attacked (e.g. only spam);
    /// the others stay clean. Empty = every class.
    std::vector<int> attackedClasses;
    std::uint64_t seed = 1;
    /// Row i of the attacked set draws its randomness from stream firstRowStream + i of `seed`.
    /// Default 0. Attacking the one-row subset {i} of a set with firstRowStream = i reproduces
    /// exactly what the attack of the whole set does to row i (the Heatmaps tab relies on it).
    std::uint64_t firstRowStream = 0;

    /// Throws std::invalid_argument naming the field: negative or fractional K, N outside
    /// [0, V), probability/fraction outside [0, 1], feature out of range, bad groups.
    void validate(const Dataset& d) const;
    /// True when instances of class `label` are attacked (attackedClasses empty or holds it).
    bool attacks(int label) const;
    /// The groups GroupCorruption acts on for data d: the image regions when set, else `groups`.
    std::vector<FeatureGroup> effectiveGroups(const Dataset& d) const;
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

}  // namespace fdlab
