#pragma once
// Shared by the Heatmaps GUI tests on text and on images (test_message_view_ui,
// test_adversary_play, test_robustness_view): a hand-made two-message corpus with two hand-made
// linear models, the hand-made 4x4 images' models by name, and the worst-case count attack.

#include "core/attacks/attack.h"
#include "core/learners/registry.h"
#include "core/data/text_dataset.h"
#include "core/text/text_corpus.h"
#include "../core/tiny_images.h"

#include <QString>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fdlab::testing {

// Vocabulary (train, minimum document frequency 1): at, cheap, meeting, now, pills = 0..4.
// Test 0 (spam): "Cheap PILLS, cheap! Meeting at noon."
// Test 1 (spam): "pills <now> & meeting"
// A: w = (0, 2, -1, 0.5, 3), b = -1 -> test 0: 3, at K = 1 (pills): 0 -> lost; K = 2: -2.
// B: w = (0, 1, 0, 1, 1), b = 0.5  -> test 0: 2.5, at K = 2 (cheap, pills): 0.5 -> kept.
inline std::shared_ptr<Dataset> tinyText() {
    TextCorpusOptions o;
    o.minDocumentFrequency = 1;
    auto corpus = [](std::vector<std::string> texts, std::vector<int> labels) {
        TextCorpus c;
        c.classNames = {"ham", "spam"};
        c.source = "memory";
        for (std::size_t k = 0; k < texts.size(); ++k) {
            c.documents.docs.push_back(makeDocument(texts[k]));
            c.labels.push_back(labels[k]);
            c.ids.push_back("msg" + std::to_string(k));
        }
        return c;
    };
    TextSplit s = vectorizeSplit(corpus({"cheap pills now", "cheap meeting at", "pills meeting"}, {1, 0, 1}),
                                 corpus({"Cheap PILLS, cheap! Meeting at noon.", "pills <now> & meeting"}, {1, 1}), o, "tiny");
    return std::make_shared<Dataset>(std::move(s.test.data));
}

/// The binary linear model b + w.x over classes {"ham", "spam"}.
inline TrainedModel textModel(const Eigen::VectorXd& w, double b) {
    FitResult f;
    f.model = LinearModel::binary(w, b, {"ham", "spam"});
    f.status = Status::Converged;
    return wrapLinear(std::move(f));
}

/// A and B of tinyText (above).
inline std::vector<std::pair<QString, TrainedModel>> textModels() {
    Eigen::VectorXd wa(5), wb(5);
    wa << 0.0, 2.0, -1.0, 0.5, 3.0;
    wb << 0.0, 1.0, 0.0, 1.0, 1.0;
    return {{"A", textModel(wa, -1.0)}, {"B", textModel(wb, 0.5)}};
}

/// tinyModels (tiny_images.h) named A and B.
inline std::vector<std::pair<QString, TrainedModel>> imageModels() {
    auto [a, b] = tinyModels();
    return {{"A", std::move(a)}, {"B", std::move(b)}};
}

inline AttackSpec worstCaseCount() {
    AttackSpec s;
    s.threat = "worst-case-count";
    return s;
}

}  // namespace fdlab::testing
