#pragma once
// What an attack does to single test instances, for two learners side by side: the view of one
// instance (deleted features, scores and margins before and after, the weight and contribution
// maps of linear models, the message of text data), the margins on every test instance (to find
// the instances learner A loses and learner B keeps) and the grid of Figure 1.4 of the FDROP
// chapter (Globerson & Roweis, "Nightmare at test time", ICML 2006).
//
// Every view is row i of runAttack on the whole test set (runAttackOnRows), for every threat: the
// threat makes its choices on the whole set (uniform-exact's one set for all rows), random threats
// show the very draw the curves were computed from (with the attack seeded as the curves' test
// attack), corruption never takes row i's own values. The GUI's Heatmaps tab draws these (ui/plots/heatmap_view.h)
// after computing them on a worker thread; tests and the CLI call them directly.

#include "core/attacks/attack.h"
#include "core/data/preprocess.h"
#include "core/eval/message_view.h"
#include "core/io/png_writer.h"
#include "core/learners/registry.h"
#include "core/util/run_control.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fdlab {

/// What the views look at: a test set, trained models by name, and the attack (its level is
/// set per call).
struct InstanceViewContext {
    std::shared_ptr<const Dataset> test;
    std::vector<std::pair<std::string, TrainedModel>> models;
    AttackSpec attack;
    /// Where corruption threats take their values from: the training set, as the curves do
    /// (experiment_runner); null: the test set itself (the instance may then be its own donor).
    std::shared_ptr<const Dataset> donors;
    /// Text data: training documents containing each word (documentFrequency of the training
    /// set), the order of the words that tie at a capped weight in the top words; empty: by
    /// feature index.
    std::vector<int> wordDocuments;
    /// What the run applied to its rows (fitted on its training part); an instance the user
    /// makes (a drawn digit, a typed message) gets the same. Null: none.
    std::shared_ptr<const Preprocessor> preprocessor;
};

/// One learner on one instance at one attack level.
struct LearnerView {
    std::string learner;
    std::string error;                  ///< non-empty when the attack failed (core's message)
    std::vector<int> deleted;           ///< deleted/corrupted features, increasing
    std::vector<double> attackedX;      ///< the instance after the attack
    /// The direction the worst-case adversary attacks: binary w; multi-class w_label - w_k with
    /// k the strongest competitor on the clean instance. Empty for non-linear models.
    std::vector<double> w;
    std::vector<double> contribution;   ///< y * w_j * x_j on the clean instance (empty when w is)
    double scoreBefore = 0.0;           ///< binary: s(x); multi-class: the margin
    double scoreAfter = 0.0;
    double marginBefore = 0.0;          ///< > 0: classified correctly
    double marginAfter = 0.0;
    int predictedBefore = -1;
    int predictedAfter = -1;
    /// Text data (Dataset::documents): the message with its words' contributions and deletions
    /// (null otherwise), its body as rich text (messageBodyHtml with default options, built with
    /// the view so a GUI need not do it on its own thread), and the model's top words by weight
    /// (binary linear models; empty otherwise).
    std::shared_ptr<const MessageView> message;
    std::string messageBodyHtml;
    TopWords topWords;
};

struct InstanceView {
    int instance = -1;
    double level = 0.0;
    int label = -1;
    std::vector<double> x;   ///< the clean instance
    LearnerView a, b;
};

/// Margins of two learners on every test instance, clean and attacked at one level.
struct InstanceAnalysis {
    double level = 0.0;
    int a = 0, b = 0;
    std::vector<double> marginA0, marginA1, marginB0, marginB1;
    bool complete = false;   ///< false when cancelled

    /// A classifies i correctly only before the attack; B is right before and after.
    bool lostByAKeptByB(int i) const;
    int countLostByAKeptByB() const;
    int countLostByA() const;
};

/// Row i of runAttack(test, model, spec, {}, donors), as a one-row result (runAttackOnRows;
/// throws what runAttack throws).
AttackResult attackInstance(const Dataset& test, int i, const Scorer& model, const AttackSpec& spec,
                            const Dataset* donors = nullptr);

/// Model `model` of the context on test instance `instance`, attacked at `level`. A failing
/// attack or a model index without a trained model is reported in LearnerView::error, not thrown.
LearnerView computeLearnerView(const InstanceViewContext& ctx, int model, int instance, double level);

/// Both learners' views of one instance (std::out_of_range for an instance outside the test set).
InstanceView computeInstanceView(const InstanceViewContext& ctx, int a, int b, int instance, double level);

/// Margins of learners a and b on every test instance, clean and attacked at `level` (one
/// whole-set attack per learner); reports progress as runAttack does, A's attack as the first half. Cancelled runs return complete = false. Throws std::out_of_range /
/// std::invalid_argument for a model index without a trained model.
InstanceAnalysis analyseInstances(const InstanceViewContext& ctx, int a, int b, double level,
                                  const RunControl& rc = {});

/// fdlab::deletionGrid of the test rows `rows` for model `model`: rows `rows` of the whole-set
/// attack, as in their views. Requires an image test set.
RgbImage instanceDeletionGrid(const InstanceViewContext& ctx, int model, const std::vector<int>& rows, double level,
                              int columns = 5, int scale = 3);

}  // namespace fdlab
