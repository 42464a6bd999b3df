#include "core/eval/level_evaluation.h"

#include "core/eval/metrics.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace fdlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Per instance, per level: the K class scores after the attack, handed to `sink(i, level, s)`.
using ScoreSink = std::function<void(int, std::size_t, std::span<const double>)>;

// Worst-case count budget for a linear model: for each competitor (binary: the one margin)
// sort the positive profits once and read every level off suffix sums. The margin after the
// attack is summed from what survives (bias + kept terms) rather than by subtracting from the
// clean margin, so that an instance stripped of every useful feature ends exactly where a
// re-evaluation of the attacked instance ends (ties in the AUC stay ties).
// Instances of classes the threat spares (AttackSpec::attacks) are read at budget 0.
void worstCaseCountLevels(const LinearModel& m, const Dataset& test, const AttackSpec& base, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const int outs = static_cast<int>(m.W.cols());
    std::vector<double> after(static_cast<std::size_t>(outs)), profit, suffix;
    for (int i = 0; i < test.rows(); ++i) {
        const int label = test.labels[static_cast<std::size_t>(i)];
        const bool hit = base.attacks(label);
        const double y = label == 1 ? 1.0 : -1.0;
        std::vector<double> bestMargin(Ks.size(), std::numeric_limits<double>::infinity());
        for (int k = 0; k < (outs == 1 ? 1 : outs); ++k) {
            if (outs > 1 && k == label) continue;
            profit.clear();
            double kept = 0.0;   // terms the adversary never deletes (profit <= 0)
            test.forEachNonZero(i, [&](int j, float v) {
                const double c = outs == 1 ? y * m.W(j, 0) : m.W(j, label) - m.W(j, k);
                const double p = c * static_cast<double>(v);
                if (p > 0.0) profit.push_back(p);
                else kept += p;
            });
            std::sort(profit.begin(), profit.end(), std::greater<>());
            suffix.assign(profit.size() + 1, 0.0);
            for (std::size_t a = profit.size(); a > 0; --a) suffix[a - 1] = suffix[a] + profit[a - 1];
            const double bias = outs == 1 ? y * m.b(0) : m.b(label) - m.b(k);
            for (std::size_t l = 0; l < Ks.size(); ++l) {
                const double mg = bias + kept + suffix[std::min(profit.size(), static_cast<std::size_t>(hit ? Ks[l] : 0))];
                bestMargin[l] = std::min(bestMargin[l], mg);
            }
        }
        for (std::size_t l = 0; l < Ks.size(); ++l) {
            if (outs == 1) {
                after[0] = y * bestMargin[l];
            } else {
                // Only the margin matters for multi-class scoring: encode it as scores.
                std::fill(after.begin(), after.end(), 0.0);
                after[static_cast<std::size_t>(label)] = bestMargin[l];
            }
            sink(i, l, after);
        }
    }
}

// Random deletion: one random permutation of the non-zeros per instance (the attack's own
// stream), deletion at budget K = its first K entries; scores summed from the survivors.
void randomDeletionLevels(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const auto outs = static_cast<std::size_t>(m.W.cols());
    const Rng base(spec.seed);
    const int maxK = Ks.empty() ? 0 : *std::max_element(Ks.begin(), Ks.end());
    std::vector<double> after(outs);
    std::vector<std::pair<int, float>> nz;
    std::vector<double> suffix;   // (nnz+1) x outs: suffix[a] = sum over nz[a..] of W x
    for (int i = 0; i < test.rows(); ++i) {
        nz.clear();
        test.forEachNonZero(i, [&](int j, float v) { nz.emplace_back(j, v); });
        Rng rng = base.split(static_cast<std::uint64_t>(i));
        const bool hit = spec.attacks(test.labels[static_cast<std::size_t>(i)]);
        const std::size_t take = hit ? std::min(nz.size(), static_cast<std::size_t>(maxK)) : 0;
        for (std::size_t a = 0; a < take; ++a) {
            const std::size_t b = a + static_cast<std::size_t>(rng.below(nz.size() - a));
            std::swap(nz[a], nz[b]);
        }
        suffix.assign((nz.size() + 1) * outs, 0.0);
        for (std::size_t a = nz.size(); a > 0; --a)
            for (std::size_t k = 0; k < outs; ++k)
                suffix[(a - 1) * outs + k] = suffix[a * outs + k] +
                    m.W(nz[a - 1].first, static_cast<Eigen::Index>(k)) * static_cast<double>(nz[a - 1].second);
        for (std::size_t l = 0; l < Ks.size(); ++l) {
            const std::size_t K = std::min(take, static_cast<std::size_t>(Ks[l]));
            for (std::size_t k = 0; k < outs; ++k) after[k] = m.b(static_cast<Eigen::Index>(k)) + suffix[K * outs + k];
            sink(i, l, after);
        }
    }
}

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
    switch (base.threat) {
    case ThreatModel::RandomFeatureDrop:
    case ThreatModel::RandomBlankout: s.probability = level; break;
    case ThreatModel::FeatureCorruption:
    case ThreatModel::GroupCorruption:
    case ThreatModel::RandomLabelFlip:
    case ThreatModel::AdversarialLabelFlip: s.fraction = level; break;
    case ThreatModel::None: break;
    default: s.budget = level; break;
    }
    return s;
}

bool hasFastLevelPath(const TrainedModel& model, const AttackSpec& base) {
    return model.linear && base.replacement == Replacement::Zero &&
           (base.threat == ThreatModel::WorstCaseCount || base.threat == ThreatModel::RandomDeletion);
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
    if (!model.scorer) throw std::invalid_argument("evaluateAtLevels: the model was not trained");
    const bool binary = model.scorer->outputs() == 1;
    if (hasFastLevelPath(model, base)) {
        std::vector<int> Ks;
        for (double l : levels) {
            attackAtLevel(base, l).validate(test);   // same errors as the attack itself
            Ks.push_back(static_cast<int>(std::lround(l)));
        }
        std::vector<LevelTally> tallies(levels.size(), LevelTally(base, test.labels));
        const ScoreSink sink = [&](int i, std::size_t l, std::span<const double> s) { tallies[l].add(i, s); };
        if (base.threat == ThreatModel::WorstCaseCount) worstCaseCountLevels(*model.linear, test, base, Ks, sink);
        else randomDeletionLevels(*model.linear, test, base, Ks, sink);
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
