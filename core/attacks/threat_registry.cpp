#include "core/attacks/threat_registry.h"

#include <algorithm>
#include <stdexcept>

namespace fdlab {

namespace {

using L = LevelKind;
using V = ThreatVerb;
using T = ThreatModel;

// One entry per threat. Flags: trainingTime, needsLinearModel, exact, randomised.
const std::vector<ThreatInfo> kThreats = {
    {T::None, "none", "No attack (the clean test set)", "", L::None, "attack level", V::None, false, false, false, false,
     "the clean test set"},
    {T::WorstCaseCount, "worst-case-count", "Worst-case deletion of K features (exact)", "Globerson & Roweis 2006",
     L::Count, "deleted features K", V::Deleted, false, true, true, false,
     "the K features whose deletion costs the linear model's true-class margin most (exact, per instance)"},
    {T::WorstCaseValueExact, "worst-case-value-exact", "Worst-case deletion within a value budget N (exact knapsack)",
     "Dekel & Shamir 2008", L::Value, "value budget N", V::Deleted, false, true, true, false,
     "the most damaging deletion with sum of v_j <= N, by an exact knapsack DP (linear models)"},
    {T::WorstCaseValueGreedy, "worst-case-value-greedy", "Greedy adversary within a value budget N",
     "Dekel & Shamir 2008", L::Value, "value budget N", V::Deleted, false, true, false, false,
     "Dekel & Shamir's greedy adversary: damage per unit value first, within sum of v_j <= N (linear models)"},
    {T::RandomDeletion, "random-deletion", "K non-zero features deleted at random",
     "Globerson & Roweis 2006; Dekel & Shamir 2008", L::Count, "deleted features K", V::Deleted, false, false, false,
     true, "K of each instance's non-zero features, uniformly at random"},
    {T::RandomFeatureDrop, "random-feature-drop", "One feature deleted with probability p",
     "Globerson & Roweis 2006 (toy)", L::Probability, "deletion probability p", V::Deleted, false, false, false, true,
     "feature --feature J deleted from each instance with probability p"},
    {T::UniformTopWeight, "uniform-top-weight", "The same K largest-|w| features deleted everywhere", "FDLab",
     L::Count, "deleted features K", V::Deleted, false, true, false, false,
     "the same K features from every instance: the K largest |w_j| (heuristic, linear models)"},
    {T::UniformExact, "uniform-exact", "The same K features deleted everywhere (exact)", "FDLab", L::Count,
     "deleted features K", V::Deleted, false, true, true, false,
     "the same K features from every instance, maximising the test error over all C(n, K) sets (linear models)"},
    {T::GreedyDeletion, "greedy-deletion", "Greedy deletion against any model", "FDLab", L::Count,
     "deleted features K", V::Deleted, false, false, false, false,
     "any model: deletes, one at a time, the feature that lowers the true class's margin most"},
    {T::FeatureCorruption, "feature-corruption", "A fraction of features corrupted", "Sullivan et al. 2000",
     L::Fraction, "fraction corrupted", V::Corrupted, false, false, false, true,
     "a fraction of each instance's features take the values of another random instance"},
    {T::GroupCorruption, "group-corruption", "A fraction of feature groups corrupted", "Sullivan et al. 2000",
     L::Fraction, "fraction corrupted", V::Corrupted, false, false, false, true,
     "a fraction of the feature groups (encodings, image regions: --regions RxC) take another instance's values"},
    {T::FixedDeletion, "fixed-deletion", "Fixed features deleted everywhere", "Dekel & Shamir 2008 (label copies)",
     L::Count, "deleted features K", V::Deleted, false, false, false, false,
     "the first K of --features J1,J2,... deleted from every instance"},
    {T::RandomBlankout, "random-blankout", "Every non-zero feature blanked out with probability p",
     "van der Maaten et al. 2013", L::Probability, "deletion probability p", V::Deleted, false, false, false, true,
     "every non-zero feature deleted independently with probability p (MCF's test-time blankout)"},
    {T::RandomLabelFlip, "random-label-flips", "Random label flips (training time)", "Biggio, Nelson & Laskov 2011",
     L::Fraction, "fraction of training labels flipped", V::Flipped, true, false, false, true,
     "a fraction of the training labels flipped at random (experiments only)"},
    {T::AdversarialLabelFlip, "adversarial-label-flips", "Adversarial label flips (training time)",
     "Biggio, Nelson & Laskov 2011, Algorithm 1", L::Fraction, "fraction of training labels flipped", V::Flipped, true,
     false, false, true, "the same number of flips chosen by Biggio et al.'s Algorithm 1 against an SVM (experiments only)"},
};

}  // namespace

const std::vector<ThreatInfo>& threatRegistry() { return kThreats; }

const ThreatInfo& threatInfo(ThreatModel t) {
    for (const ThreatInfo& i : kThreats)
        if (i.threat == t) return i;
    throw std::logic_error("threat " + std::to_string(static_cast<int>(t)) + " has no registry entry");
}

const ThreatInfo& threatInfo(const std::string& name) {
    for (const ThreatInfo& i : kThreats)
        if (name == i.name) return i;
    std::string all;
    for (const ThreatInfo& i : kThreats) all += (all.empty() ? "" : ", ") + std::string(i.name);
    throw std::invalid_argument("unknown threat model '" + name + "' (expected one of: " + all + ")");
}

std::string threatHelp(bool includeTrainingTime) {
    std::string out;
    for (const ThreatInfo& i : kThreats) {
        if (i.trainingTime && !includeTrainingTime) continue;
        std::string name = i.name;
        name.resize(std::max<std::size_t>(name.size(), 24), ' ');
        out += "    " + name + " " + i.doc + "\n";
    }
    return out;
}

}  // namespace fdlab
