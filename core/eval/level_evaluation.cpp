#include "core/eval/level_evaluation.h"

#include "core/attacks/threat_registry.h"
#include "core/eval/metrics.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace fdlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Errors and binary scores of one level, overall and split by whether the threat attacks the
// instance's class.
struct LevelTally {
    const AttackSpec& spec;
    const std::vector<int>& labels;
    std::vector<double> bin;
    int wrong = 0, wrongAttacked = 0, attacked = 0;

    LevelTally(const AttackSpec& s, const std::vector<int>& l) : spec(s), labels(l), bin(l.size(), 0.0) {}
    void add(int i, std::span<const double> s) {
        const int label = labels[static_cast<std::size_t>(i)];
        const bool err = Scorer::marginOf(s, label) <= 0.0, hit = spec.attacks(label);
        wrong += err;
        attacked += hit;
        wrongAttacked += err && hit;
        bin[static_cast<std::size_t>(i)] = s[0];
    }
    LevelScore finish(bool binary) const {
        const auto m = static_cast<int>(labels.size());
        LevelScore r;
        r.error = m ? static_cast<double>(wrong) / m : kNaN;
        r.auc = binary ? rocAuc(bin, labels) : kNaN;
        if (!spec.attackedClasses.empty()) {
            r.errorAttacked = attacked ? static_cast<double>(wrongAttacked) / attacked : kNaN;
            r.errorOthers = m > attacked ? static_cast<double>(wrong - wrongAttacked) / (m - attacked) : kNaN;
        }
        return r;
    }
};

}  // namespace

AttackSpec attackAtLevel(const AttackSpec& base, double level) {
    AttackSpec s = base;
    s.level = level;
    return s;
}

bool hasFastLevelPath(const TrainedModel& model, const AttackSpec& base) {
    const ThreatInfo& info = threatInfo(base.threat);
    return model.linear && info.linearLevels && base.completeParams().value("replacement", "zero") == "zero";
}

LevelScore scoreDataset(const Scorer& model, const Dataset& d, const AttackSpec& spec) {
    std::vector<double> s(static_cast<std::size_t>(model.outputs()));
    LevelTally tally(spec, d.labels);
    for (int i = 0; i < d.rows(); ++i) {
        model.scoresRow(d.row(i), s);
        tally.add(i, s);
    }
    return tally.finish(model.outputs() == 1);
}

std::vector<LevelScore> evaluateAtLevels(const TrainedModel& model, const Dataset& test, const AttackSpec& base,
                                         const std::vector<double>& levels, const RunControl& rc, const Dataset* donors) {
    std::vector<LevelScore> out;
    if (!model.scorer) throw std::invalid_argument("evaluation: the model was not trained");
    if (const std::string problem = levelOrderProblem(levels); !problem.empty())
        throw std::invalid_argument("levels: " + problem);
    const bool binary = model.scorer->outputs() == 1;
    if (hasFastLevelPath(model, base)) {
        std::vector<int> Ks;
        for (double l : levels) {
            attackAtLevel(base, l).validate(test);   // same errors as the attack itself
            Ks.push_back(static_cast<int>(std::lround(l)));
        }
        std::vector<LevelTally> tallies(levels.size(), LevelTally(base, test.labels));
        const ScoreSink sink = [&](int i, std::size_t l, std::span<const double> s) { tallies[l].add(i, s); };
        threatInfo(base.threat).linearLevels(*model.linear, test, base, Ks, sink);
        for (const LevelTally& t : tallies) out.push_back(t.finish(binary));
        return out;
    }
    for (double level : levels) {
        if (rc.cancelled()) break;
        const AttackSpec spec = attackAtLevel(base, level);
        const AttackResult a = runAttack(test, *model.scorer, spec, {{}, rc.stop}, donors);
        if (a.status == Status::Cancelled) break;
        out.push_back(scoreDataset(*model.scorer, a.attacked, spec));
    }
    return out;
}

}  // namespace fdlab
