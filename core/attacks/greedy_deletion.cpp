#include "core/attacks/greedy_deletion.h"

#include <limits>

namespace fdlab {

GreedyDeletion greedyDeletion(const Scorer& model, std::span<const float> x, int label, int K, bool stopWhenWrong) {
    const auto outs = static_cast<std::size_t>(model.outputs());
    std::vector<float> cur(x.begin(), x.end());
    std::vector<double> s(outs), trial(outs), bestScores(outs);
    model.scores(cur, s);
    GreedyDeletion r;
    r.marginBefore = r.marginAfter = Scorer::marginOf(s, label);
    for (int step = 0; step < K; ++step) {
        if (stopWhenWrong && r.marginAfter <= 0.0) break;
        int bestJ = -1;
        double bestMargin = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < cur.size(); ++j) {
            if (cur[j] == 0.0f) continue;
            model.scoresWithChange(cur, static_cast<int>(j), 0.0f, s, trial);
            const double mg = Scorer::marginOf(trial, label);
            if (mg < bestMargin) {
                bestMargin = mg;
                bestJ = static_cast<int>(j);
                bestScores = trial;
            }
        }
        // Stop when nothing is left or every deletion would help the model.
        if (bestJ < 0 || bestMargin >= r.marginAfter) break;
        cur[static_cast<std::size_t>(bestJ)] = 0.0f;
        s = bestScores;
        r.deleted.push_back(bestJ);
        r.marginAfter = bestMargin;
    }
    return r;
}

}  // namespace fdlab
