#pragma once
// The "simple mixture of experts" baseline of Sullivan et al. (FeatureBoost): M members, each
// trained by the base learner on its own random subset of the features (drawn uniformly without
// replacement, round(subsetFraction * n) of them, at least 1), combined by a vote. This is a
// random-subspace ensemble (Ho 1998) rather than a gated mixture: the paper describes its
// experts only as models on different feature sets whose predictions are voted.
//   Majority: every member has weight 1.
//   Weighted: member t has the AdaBoost-style weight log((1 - eps_t)/eps_t) + log(K - 1), eps_t
//             its error on the training set (0 when no better than chance).
// The members see the whole training set (no resampling). Returned as a VotingEnsemble of type
// "mixture-of-experts" (adaboost.h) whose members carry their column lists.

#include "core/learners/nonlinear/adaboost.h"

namespace fdlab {

enum class VoteRule { Majority, Weighted };
const char* toString(VoteRule v);

struct MixtureParams {
    /// The members' learner. Default a depth-8 CART tree.
    BaseLearnerParams base;
    /// Number of members M. Default 10, range 1..1000.
    int members = 10;
    /// Fraction of the features each member sees. Default 0.5, (0, 1].
    double subsetFraction = 0.5;
    /// How the members' votes are combined. Default Majority.
    VoteRule vote = VoteRule::Majority;
    /// Seed of the feature subsets and of the nets' initial weights.
    std::uint64_t seed = 1;

    void validate() const;
};

/// Throws std::invalid_argument for bad params or data. Progress once per member; on cancel
/// returns the members done so far (Status::Cancelled).
ModelFit<VotingEnsemble> fitMixtureOfExperts(const Dataset& d, const MixtureParams& p, const RunControl& rc = {});

}  // namespace fdlab
