#pragma once
// AdaBoost (Freund & Schapire 1997) for two classes and its multi-class form SAMME (Zhu, Zou,
// Rosset & Hastie 2009), plus the weighted-vote ensemble every meta-learner of this folder
// returns (AdaBoost, the mixture of experts, FeatureBoost).
//
// AdaBoost / SAMME, K classes, m examples, weights w_1 = 1/m:
//   for t = 1..T:  h_t = base learner fitted on (S, w_t)
//                  eps_t = sum_i w_t,i [h_t(x_i) != y_i]
//                  alpha_t = log((1 - eps_t) / eps_t) + log(K - 1)
//                  w_t+1,i = w_t,i exp(alpha_t [h_t(x_i) != y_i]) / Z_t   (Z_t normalises to 1)
//   H(x) = argmax_k sum_t alpha_t [h_t(x) = k]
// For K = 2 this is exactly discrete AdaBoost: Freund & Schapire's alpha is half of ours and
// their update w exp(-alpha y h) equals ours after normalisation, so weights and votes agree.
// (After the update the misclassified examples hold exactly half of the weight.)
// Stops early when eps_t = 0 (h_t is kept, alpha computed with eps clamped to 1e-10) or when
// eps_t >= 1 - 1/K (h_t is no better than chance: dropped, unless it is the first member, kept
// with weight 1 so that a model exists).
// Example weights: trees take them natively. kNN and the net cannot, so they are trained on a
// weighted RESAMPLE: m draws with replacement, P(i) = w_t,i, from the seeded Rng (stream split
// per round), and eps_t is still measured on the full weighted set (Freund & Schapire's
// "boosting by resampling").
//
// The ensemble's scores (VotingEnsemble): with normalised weights a_t = alpha_t / sum alpha,
// binary s(x) = sum_t a_t (+1 if h_t(x) = class 1 else -1) in [-1, 1]; multi-class
// s_k(x) = sum_t a_t [h_t(x) = k]. Member votes are hard predictions.

#include "core/learners/nonlinear/classifier.h"
#include "core/util/rng.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace fdlab {

/// One voter: a model and how the ensemble's input x is turned into the model's input.
struct EnsembleMember {
    std::shared_ptr<const Classifier> model;
    double weight = 1.0;          ///< vote weight (>= 0)
    std::vector<int> columns;     ///< empty: all features; else member input c is x[columns[c]]
    std::vector<double> scale;    ///< empty: none; else member input c is multiplied by scale[c]
};

class VotingEnsemble : public Classifier {
public:
    /// type: "adaboost", "mixture-of-experts" or "feature-boost". Checks that the members' input
    /// sizes match their column maps, columns are in range, weights finite and >= 0, classes agree.
    VotingEnsemble(std::string type, int features, std::vector<std::string> classNames,
                   std::vector<EnsembleMember> members);

    const char* type() const override { return m_type.c_str(); }
    nlohmann::json toJson() const override;
    void scores(std::span<const float> x, std::span<double> out) const override;
    void scoresWithChange(std::span<const float> x, int j, float value, std::span<const double> current,
                          std::span<double> out) const override;
    Eigen::MatrixXd scoreRows(const Dataset& d) const override;

    const std::vector<EnsembleMember>& members() const { return m_members; }

    /// FeatureBoost's record (empty for other ensembles): round t's feature importances
    /// (rounds x features, scaled to max 1 per round) and the distribution D_t it was trained
    /// under (rounds x features).
    const Eigen::MatrixXd& importance() const { return m_importance; }
    const Eigen::MatrixXd& distribution() const { return m_distribution; }
    void setRecord(Eigen::MatrixXd importance, Eigen::MatrixXd distribution);

private:
    std::span<const float> memberInput(std::size_t t, std::span<const float> x, std::vector<float>& buf) const;
    void addVote(std::size_t t, std::span<const double> memberScores, std::span<double> out) const;

    std::string m_type;
    std::vector<EnsembleMember> m_members;
    std::vector<double> m_normWeights;
    std::vector<std::vector<int>> m_position;   ///< per member with columns: feature -> input index or -1
    Eigen::MatrixXd m_importance, m_distribution;
};

/// AdaBoost-style vote weight log((1 - eps)/eps) + log(K - 1), eps clamped to [1e-10, 1 - 1e-10];
/// never negative (0 for a member no better than chance).
double boostingWeight(double error, int numClasses);

/// Weighted error sum_i w_i [pred_i != y_i] / sum_i w_i.
double weightedError(const std::vector<int>& predictions, const Dataset& d, const std::vector<double>& w);

/// m draws with replacement, P(i) proportional to w_i (inverse CDF on the seeded stream).
std::vector<int> weightedResample(const std::vector<double>& w, Rng& rng);

struct AdaBoostParams {
    /// The base learner (default a depth-8 CART tree; stumps or shallow trees, e.g. depth 1-3,
    /// are the classic choice: a base learner with zero training error stops boosting at once).
    BaseLearnerParams base;
    /// Boosting rounds T. Default 50, range 1..10000.
    int rounds = 50;
    /// Seed of the resampling (kNN, net) and of the nets' initial weights.
    std::uint64_t seed = 1;

    void validate() const;
};

struct AdaBoostFit : ModelFit<VotingEnsemble> {
    std::vector<double> roundErrors;                 ///< eps_t of every round run
    std::vector<double> alphas;                      ///< alpha_t (0 for a dropped member)
    std::vector<std::vector<double>> exampleWeights; ///< w_t of every round run, then the final w_{T+1}
};

/// Throws std::invalid_argument for bad params or data (>= 2 classes needed). Progress once per
/// round; on cancel returns the rounds done so far (Status::Cancelled).
AdaBoostFit fitAdaBoost(const Dataset& d, const AdaBoostParams& p, const RunControl& rc = {});

}  // namespace fdlab
