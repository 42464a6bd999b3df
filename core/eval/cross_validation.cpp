#include "core/eval/cross_validation.h"

#include "core/data/split.h"
#include "core/eval/level_evaluation.h"
#include "core/learners/registry.h"

#include <limits>
#include <stdexcept>

namespace fdlab {

void CrossValidationParams::validate() const {
    if (folds < 2) throw std::invalid_argument("cross-validation folds: must be >= 2, got " + std::to_string(folds));
}

CrossValidationResult crossValidateCandidates(const std::string& learner, const Dataset& train,
                                              const std::vector<nlohmann::json>& candidates,
                                              const CrossValidationParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (candidates.empty()) throw std::invalid_argument("cross-validation: no candidates for learner " + learner);
    for (const auto& c : candidates) completeParams(learner, c);   // names learner and parameter

    // The partition is built once and shared by every candidate, so the errors are comparable.
    const std::vector<TrainTest> folds = stratifiedKFold(train, p.folds, p.seed);
    std::vector<Dataset> fit, held;
    for (const auto& f : folds) {
        fit.push_back(train.subset(f.train));
        held.push_back(train.subset(f.test));
    }

    CrossValidationResult r;
    r.errors.assign(candidates.size(), std::numeric_limits<double>::quiet_NaN());
    const RunControl inner{{}, rc.stop};
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        double wrong = 0.0;
        for (std::size_t f = 0; f < folds.size(); ++f) {
            if (rc.cancelled()) {
                r.status = Status::Cancelled;
                r.message = "cancelled after " + std::to_string(r.trainings) + " trainings";
                r.elapsed = clock.seconds();
                return r;
            }
            const TrainedModel m = trainLearner(learner, fit[f], candidates[c], inner);
            ++r.trainings;
            if (m.fit.status == Status::Failed || !m.scorer)
                throw std::runtime_error("cross-validation of " + learner + " with " + candidates[c].dump() +
                                         " (fold " + std::to_string(f) + "): " + m.fit.message);
            wrong += scoreDataset(*m.scorer, held[f]).error * held[f].rows();
        }
        r.errors[c] = wrong / train.rows();
        if (r.errors[c] < r.errors[r.best]) r.best = c;
        rc.report(static_cast<double>(c + 1) / static_cast<double>(candidates.size()), static_cast<long>(c + 1),
                  "cv error " + std::to_string(r.errors[c]));
    }
    r.status = Status::Converged;
    r.message = std::to_string(candidates.size()) + " candidates, " + std::to_string(folds.size()) + " folds";
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
