#pragma once
// FeatureBoost: boosting over FEATURES instead of examples, so that the ensemble's members rely
// on different feature subsets and the vote survives corrupted or missing features.
// Source: J. Sullivan, J. Langford, R. Caruana & A. Blum, "FeatureBoost: A Meta-Learning
// Algorithm that Improves Model Robustness", ICML 2000. The OCR text of the paper lost every
// formula and the pseudocode tables; spec section 6 and the surviving words fix the structure.
// Below, every choice this reconstruction makes is marked (CHOICE) with its reason.
//
// Notation: S = {(x_i, y_i)}, m rows, n features, K classes; base learner L (tree, kNN, net);
// T rounds; "marginalising feature f of x" = replacing x_f by x_rf of a random training row
// r != i (the paper: "replace values by those of a random example", which keeps feature f's
// marginal distribution).
//
//   D_1 = uniform over the n features.     D is an EMPHASIS distribution: high D_f = f should
//                                          be used more (paper: "increase emphasis on unused
//                                          features").
//   for t = 1..T:
//     1. de-emphasise features according to D_t and train h_t = L(S_t)          (variants below)
//     2. eps_t = error of h_t on the clean S; alpha_t = log((1-eps_t)/eps_t) + log(K-1)
//        (AdaBoost/SAMME weight, "accurate hypotheses have more influence"; 0 if eps_t >= 1-1/K,
//        eps clamped to [1e-10, 1-1e-10])
//     3. importance I_t(f) by sensitivity analysis: N_I random rows i; for each row and feature
//        f, marginalise f alone (donor row r drawn per (i, f)) and measure the change of h_t's
//        0/1 error on (x_i, y_i); I_t(f) = max(0, mean change), then scaled so max_f I_t = 1
//        (all zero stays zero). (CHOICE: the same N_I rows for every feature -- common random
//        numbers make features comparable and let scoresWithChange reuse the per-row state;
//        the paper: "repeatedly pick a random training example, assign a random value from the
//        feature's distribution, measure the change in error; scale the entries".)
//        Optional measure MarginChange: mean decrease of the true-class margin instead of the
//        0/1 error (a smoother signal when single features rarely flip predictions, e.g. pixels).
//     4. D_t+1(f) proportional to D_t(f) * exp(-u * alpha_t * I_t(f))     (CHOICE: the AdaBoost
//        multiplicative update with the member's own weight as the step, beta_t^{I_t(f)} with
//        beta_t = eps_t/(1-eps_t); u = updateScale), then D_t+1(f) >= floor/n and renormalised
//        (CHOICE: the floor keeps every feature drawable after a near-perfect round).
//   H(x) = weighted vote of the h_t with weights alpha_t (VotingEnsemble, adaboost.h).
//
// Variants of step 1 ("options range from hard, removing features, to soft, scaling or adding
// noise to individual features"):
//  Hard (progressive feature removal, the paper's main method; works for every learner):
//    t = 1: S_1 = S (nothing to de-emphasise yet, D_1 uniform).
//    t >= 2, with the previous hypothesis h_t-1 and its clean error e = eps_t-1:
//      E_full = error of h_t-1 with ALL features marginalised (each feature from its own random
//               row): the "full marginalisation error", an upper bound of what removal can do.
//      theta_t = e + phi * (t-1)/T * (E_full - e)      (CHOICE: the pseudocode's inputs are the
//               iteration number, T, the previous hypothesis and its error; we interpolate
//               linearly between its error and the full marginalisation error, so later rounds
//               remove more; phi = thresholdFraction, default 1)
//      Marginalise(k) = error of h_t-1 on N_s random rows, each with k features marginalised,
//               the k drawn without replacement with probability R(f) proportional to 1/D_t(f)
//               (CHOICE: removal must hit the features D de-emphasises, i.e. the complement of
//               the emphasis distribution; 1/D keeps ratios: twice the emphasis, half the
//               removal rate). Common random numbers over k (one feature order and one donor
//               per feature per sampled row), so Marginalise is nearly monotone in k.
//      k_t = the smallest k in [1, n-1] with Marginalise(k) >= theta_t, by bisection (n-1 when
//               none; "at least one feature removed, at least one remains").
//      S_t = S with, in EVERY row independently, k_t features drawn by R marginalised.
//  SoftNoise: S_t = S with each value x_if marginalised independently with probability
//      q_f = s * (1 - D_t(f) / max D_t)   (s = softStrength, default 0.9; q = 0 for the most
//      emphasised features, up to s for the least).
//  SoftScale: c_f = D_t(f) / max D_t in (0, 1]. Trees: each feature's impurity decrease is
//      multiplied by c_f (the paper's "multiply the information gain by the feature's weight").
//      kNN and nets: inputs are scaled, x_f -> c_f x_f, at training AND test time (the member
//      carries the scale; the paper's "weighted inner product" for kNN, "multiply the value of
//      each feature by its emphasis" for nets).
//
// Determinism: every random draw comes from fdlab::Rng(seed), one split stream per round and
// purpose; two runs with the same seed give identical models.

#include "core/learners/nonlinear/adaboost.h"

#include <Eigen/Core>

#include <vector>

namespace fdlab {

enum class FeatureBoostVariant { Hard, SoftNoise, SoftScale };
enum class ImportanceMeasure { ErrorChange, MarginChange };
const char* toString(FeatureBoostVariant v);
const char* toString(ImportanceMeasure m);

struct FeatureBoostParams {
    /// The base learner L. Default a depth-8 CART tree.
    BaseLearnerParams base;
    /// Rounds T. Default 10, range 1..1000.
    int rounds = 10;
    /// How features are de-emphasised. Default Hard (progressive feature removal).
    FeatureBoostVariant variant = FeatureBoostVariant::Hard;
    /// N_s: rows sampled to estimate a marginalised error (Hard). Default 200, >= 1.
    int marginalisationSamples = 200;
    /// N_I: rows sampled per feature in the sensitivity analysis. Default 50, >= 1.
    int importanceSamples = 50;
    /// phi of the threshold schedule (Hard). Default 1.0, [0, 1].
    double thresholdFraction = 1.0;
    /// s of SoftNoise: the largest marginalisation probability. Default 0.9, [0, 1].
    double softStrength = 0.9;
    /// u: multiplies the step alpha_t of the distribution update. Default 1.0, >= 0.
    double updateScale = 1.0;
    /// Every D_t(f) is at least floor / n. Default 0.01, [0, 1].
    double distributionFloor = 0.01;
    /// Importance measure of the sensitivity analysis. Default ErrorChange (the paper's).
    ImportanceMeasure importance = ImportanceMeasure::ErrorChange;
    /// Seed of every random draw (and of the nets' initial weights).
    std::uint64_t seed = 1;

    void validate() const;
};

struct FeatureBoostFit : ModelFit<VotingEnsemble> {
    Eigen::MatrixXd importance;        ///< rounds x n: I_t, the features round t relied on (max 1)
    Eigen::MatrixXd distribution;      ///< rounds x n: D_t, the distribution round t trained under
    std::vector<int> removed;          ///< Hard: k_t per round (0 for round 1); else empty
    std::vector<double> thresholds;    ///< Hard: theta_t per round (0 for round 1); else empty
    std::vector<double> memberErrors;  ///< eps_t: clean training error of h_t
    std::vector<double> alphas;        ///< alpha_t
};

/// Throws std::invalid_argument for bad params or data (>= 2 classes, >= 2 features for Hard).
/// Progress once per round; on cancel returns the rounds done so far (Status::Cancelled).
FeatureBoostFit fitFeatureBoost(const Dataset& d, const FeatureBoostParams& p, const RunControl& rc = {});

/// Sensitivity-analysis importance of a model (step 3 above), exposed for tests and the GUI:
/// n values >= 0, scaled to max 1; the marginalisation values are drawn from the rows of d.
std::vector<double> sensitivityImportance(const Classifier& model, const Dataset& d, int samples,
                                          ImportanceMeasure measure, Rng& rng);

}  // namespace fdlab
