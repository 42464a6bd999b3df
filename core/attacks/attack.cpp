#include "core/attacks/attack.h"

#include "core/attacks/threat_registry.h"

#include "core/attacks/corruption.h"
#include "core/attacks/greedy_deletion.h"
#include "core/attacks/random_deletion.h"
#include "core/attacks/uniform_deletion.h"
#include "core/attacks/worst_case_linear.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& msg) {
    throw std::invalid_argument("attack " + field + ": " + msg);
}

int countBudget(const AttackSpec& s) { return static_cast<int>(std::lround(s.budget)); }

const LinearScorer& requireLinear(const Scorer& model, ThreatModel t) {
    const auto* lin = dynamic_cast<const LinearScorer*>(&model);
    if (!lin)
        throw std::invalid_argument(std::string("attack threat '") + toString(t) +
                                    "' needs a linear model; use 'greedy-deletion' for other models");
    return *lin;
}

void replaceDeleted(std::span<float> x, const std::vector<int>& deleted, Replacement r, Rng& rng) {
    for (int j : deleted) x[static_cast<std::size_t>(j)] = r == Replacement::Zero ? 0.0f : static_cast<float>(rng.uniform(-1.0, 1.0));
}

/// The sparse counterpart of replaceDeleted: appends row x with the features in `deleted`
/// replaced to b. Noise is drawn in the order of `deleted`, as replaceDeleted draws it, so a
/// sparse row and its dense copy get the same values.
void appendAttackedRow(const RowView& x, const std::vector<int>& deleted, Replacement r, Rng& rng,
                       SparseRowsBuilder& b) {
    std::vector<std::pair<int, float>> repl;
    repl.reserve(deleted.size());
    for (int j : deleted) repl.emplace_back(j, r == Replacement::Zero ? 0.0f : static_cast<float>(rng.uniform(-1.0, 1.0)));
    std::stable_sort(repl.begin(), repl.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
    std::size_t d = 0;
    // Replacements before column `col` (exclusive), and whether one is at `col` itself.
    auto flushBefore = [&](int col) {
        while (d < repl.size() && repl[d].first < col) {
            const int j = repl[d].first;
            float v = repl[d].second;
            while (d < repl.size() && repl[d].first == j) v = repl[d++].second;   // a repeated feature keeps its last value
            b.add(j, v);
        }
    };
    x.forEachNonZero([&](int col, float value) {
        flushBefore(col);
        if (d < repl.size() && repl[d].first == col) flushBefore(col + 1);   // the stored value is replaced
        else b.add(col, value);
    });
    flushBefore(x.n);
    b.endRow();
}

}  // namespace

const char* toString(ThreatModel t) { return threatInfo(t).name; }

ThreatModel threatModelFromString(const std::string& s) { return threatInfo(s).threat; }

bool usesCountBudget(ThreatModel t) { return threatInfo(t).level == LevelKind::Count; }

bool isTrainingTime(ThreatModel t) { return threatInfo(t).trainingTime; }

bool usesValueBudget(ThreatModel t) { return threatInfo(t).level == LevelKind::Value; }

std::string levelLabel(ThreatModel t) { return threatInfo(t).levelLabel; }

void AttackSpec::validate(const Dataset& d) const {
    if (!std::isfinite(budget) || budget < 0) bad("budget", "must be finite and >= 0, got " + std::to_string(budget));
    if (usesCountBudget(threat)) {
        if (budget != std::floor(budget)) bad("budget", "K must be a whole number, got " + std::to_string(budget));
        if (budget > d.features())
            bad("budget", "K = " + std::to_string(countBudget(*this)) + " exceeds the " + std::to_string(d.features()) +
                              " features");
    }
    if (usesValueBudget(threat)) {
        const double V = d.totalImportance();
        if (budget >= V)
            bad("budget", "N = " + std::to_string(budget) + " must be below the total value V = " + std::to_string(V));
        if (!(knapsackScale > 0) || !std::isfinite(knapsackScale)) bad("knapsackScale", "must be finite and > 0");
    }
    if (threat == ThreatModel::RandomFeatureDrop) {
        if (feature < 0 || feature >= d.features())
            bad("feature", std::to_string(feature) + " is not in [0, " + std::to_string(d.features()) + ")");
        if (!(probability >= 0 && probability <= 1)) bad("probability", "must be in [0, 1]");
    }
    if (threat == ThreatModel::FixedDeletion) {
        if (budget > static_cast<double>(features.size()))
            bad("budget", "K = " + std::to_string(countBudget(*this)) + " exceeds the " + std::to_string(features.size()) +
                              " listed features");
        for (int j : features)
            if (j < 0 || j >= d.features())
                bad("features", std::to_string(j) + " is not in [0, " + std::to_string(d.features()) + ")");
    }
    for (int c : attackedClasses)
        if (c < 0 || c >= d.numClasses())
            bad("attacked_classes", "class index " + std::to_string(c) + " is not in [0, " + std::to_string(d.numClasses()) + ")");
    if (!attackedClasses.empty() && isTrainingTime(threat))
        bad("attacked_classes", "a one-sided threat acts on test instances; label flips choose their own instances");
    if (threat == ThreatModel::RandomBlankout && !(probability >= 0 && probability <= 1))
        bad("probability", "must be in [0, 1]");
    if (threat == ThreatModel::FeatureCorruption || threat == ThreatModel::GroupCorruption || isTrainingTime(threat))
        if (!(fraction >= 0 && fraction <= 1)) bad("fraction", "must be in [0, 1]");
    if (isTrainingTime(threat)) {
        if (!d.isBinary()) bad("threat", std::string(toString(threat)) + " needs a binary task");
        if (labelFlipRepeats < 1) bad("labelFlipRepeats", "must be >= 1");
        labelFlipSvm.validate();
    }
    if (threat == ThreatModel::GroupCorruption) {
        if (regionRows < 0 || regionCols < 0 || (regionRows > 0) != (regionCols > 0))
            bad("regions", "give both region sizes (rows and columns of pixels), got " + std::to_string(regionRows) + " x " +
                               std::to_string(regionCols));
        if (regionRows > 0 && !d.imageShape) bad("regions", "image regions need image data (dataset '" + d.name + "' has no image shape)");
        const std::vector<FeatureGroup> gs = effectiveGroups(d);
        if (gs.empty()) bad("groups", "group corruption needs at least one feature group (or image regions)");
        std::vector<char> used(static_cast<std::size_t>(d.features()), 0);
        for (const auto& g : gs) {
            const std::vector<int> members = g.members();
            if (members.empty())
                bad("groups", "group '" + g.name + "' is empty (range [" + std::to_string(g.begin) + ", " + std::to_string(g.end) + "))");
            for (int j : members) {
                if (j < 0 || j >= d.features())
                    bad("groups", "group '" + g.name + "' has feature " + std::to_string(j) + " outside [0, " +
                                      std::to_string(d.features()) + ")");
                if (used[static_cast<std::size_t>(j)]) bad("groups", "group '" + g.name + "' overlaps another group");
                used[static_cast<std::size_t>(j)] = 1;
            }
        }
    }
}

bool AttackSpec::attacks(int label) const {
    return attackedClasses.empty() || std::find(attackedClasses.begin(), attackedClasses.end(), label) != attackedClasses.end();
}

std::vector<FeatureGroup> AttackSpec::effectiveGroups(const Dataset& d) const {
    if (regionRows > 0 && regionCols > 0 && d.imageShape) return imageRegionGroups(*d.imageShape, regionRows, regionCols);
    return groups;
}

AttackResult runAttack(const Dataset& test, const Scorer& model, const AttackSpec& spec, const RunControl& rc,
                       const Dataset* donors) {
    Stopwatch clock;
    spec.validate(test);
    if (isTrainingTime(spec.threat))
        throw std::invalid_argument(std::string("attack threat '") + toString(spec.threat) +
                                    "' acts on training labels; run it through an experiment");
    if (model.features() != test.features())
        throw std::invalid_argument("attack: the model expects " + std::to_string(model.features()) +
                                    " features, the data has " + std::to_string(test.features()));
    const Dataset& donorSet = donors ? *donors : test;
    if (donors && donors->features() != test.features())
        throw std::invalid_argument("attack: donor set has a different number of features");

    AttackResult res;
    const bool sparse = test.isSparse();
    if (sparse) {
        res.attacked = test.subset({});   // the metadata; rows are appended below
        res.attacked.labels = test.labels;
        res.attacked.sourceRows = test.sourceRows;
    } else {
        res.attacked = test;
    }
    const int m = test.rows(), n = test.features(), K = countBudget(spec);
    res.deleted.assign(static_cast<std::size_t>(m), {});
    const bool worstCase = spec.threat == ThreatModel::WorstCaseCount || usesValueBudget(spec.threat);
    if (worstCase) res.damage.assign(static_cast<std::size_t>(m), 0.0);
    if (usesValueBudget(spec.threat)) res.damageBound.assign(static_cast<std::size_t>(m), 0.0);

    // Data-independent choices are made once for all instances.
    std::vector<int> uniformSet;
    if (spec.threat == ThreatModel::UniformTopWeight)
        uniformSet = uniformTopWeightDeletion(requireLinear(model, spec.threat).model(), K);
    if (spec.threat == ThreatModel::UniformExact) {
        const UniformExactResult u = uniformExactDeletion(requireLinear(model, spec.threat).model(), test, K, 1e6, rc);
        if (!u.complete) {
            res.status = Status::Cancelled;
            res.message = "cancelled while enumerating uniform deletion sets";
            res.attacked = test;
            res.elapsed = clock.seconds();
            return res;
        }
        uniformSet = u.deleted;
    }
    const LinearModel* linear = worstCase ? &requireLinear(model, spec.threat).model() : nullptr;
    const std::vector<FeatureGroup> groups =
        spec.threat == ThreatModel::GroupCorruption ? spec.effectiveGroups(test) : std::vector<FeatureGroup>{};
    // Threats that look at every feature (corruption, the model-agnostic greedy search) work on
    // one densified row at a time when the set is sparse.
    const bool needsDenseRow = spec.threat == ThreatModel::FeatureCorruption ||
                               spec.threat == ThreatModel::GroupCorruption || spec.threat == ThreatModel::GreedyDeletion;
    std::vector<float> scratch(sparse && needsDenseRow ? static_cast<std::size_t>(n) : 0);
    SparseRowsBuilder builder(sparse ? n : 0, sparse ? test.storedValues() : 0);

    const Rng base(spec.seed);
    const int reportEvery = std::max(1, m / 20);
    for (int i = 0; i < m; ++i) {
        if (i % reportEvery == 0) {
            if (rc.cancelled()) {
                res.status = Status::Cancelled;
                res.message = "cancelled after " + std::to_string(i) + " of " + std::to_string(m) + " instances";
                if (sparse) {   // the rest stays clean
                    Rng unused = base;
                    for (int r = i; r < m; ++r) appendAttackedRow(test.row(r), {}, spec.replacement, unused, builder);
                    res.attacked.sparse = std::move(builder).finish();
                }
                res.elapsed = clock.seconds();
                return res;
            }
            rc.report(static_cast<double>(i) / m, i, "attacking");
        }
        Rng rng = base.split(spec.firstRowStream + static_cast<std::uint64_t>(i));
        const int label = test.labels[static_cast<std::size_t>(i)];
        const RowView x = test.row(i);
        std::span<float> out;
        if (!sparse) out = {res.attacked.X.row(i).data(), static_cast<std::size_t>(n)};
        else if (needsDenseRow) {
            x.toDense(scratch);
            out = scratch;
        }
        std::vector<int>& del = res.deleted[static_cast<std::size_t>(i)];
        bool substituted = false;   // corruption writes its own values
        const bool attacked = spec.attacks(label);
        switch (attacked ? spec.threat : ThreatModel::None) {
        case ThreatModel::None: break;
        case ThreatModel::WorstCaseCount: {
            const InstanceDeletion d = worstCaseCountDeletion(*linear, x, label, K);
            del = d.deleted;
            res.damage[static_cast<std::size_t>(i)] = d.damage;
            break;
        }
        case ThreatModel::WorstCaseValueExact:
        case ThreatModel::WorstCaseValueGreedy: {
            const InstanceDeletion d = worstCaseValueDeletion(
                *linear, x, label, test.importance, spec.budget,
                spec.threat == ThreatModel::WorstCaseValueExact ? ValueBudgetMethod::Exact : ValueBudgetMethod::Greedy,
                spec.knapsackScale);
            del = d.deleted;
            res.damage[static_cast<std::size_t>(i)] = d.damage;
            res.damageBound[static_cast<std::size_t>(i)] = d.bound;
            break;
        }
        case ThreatModel::RandomDeletion: del = randomNonZeroDeletion(x, K, rng); break;
        case ThreatModel::RandomFeatureDrop: del = randomFeatureDrop(spec.feature, spec.probability, rng); break;
        case ThreatModel::UniformTopWeight:
        case ThreatModel::UniformExact: del = uniformSet; break;
        case ThreatModel::FixedDeletion:
            del.assign(spec.features.begin(), spec.features.begin() + K);
            std::sort(del.begin(), del.end());
            break;
        case ThreatModel::RandomBlankout: del = randomNonZeroBlankout(x, spec.probability, rng); break;
        case ThreatModel::RandomLabelFlip:
        case ThreatModel::AdversarialLabelFlip: break;   // refused above
        case ThreatModel::GreedyDeletion: {
            del = greedyDeletion(model, out, label, K, spec.stopWhenWrong).deleted;
            std::sort(del.begin(), del.end());
            break;
        }
        case ThreatModel::FeatureCorruption:
            del = corruptFeatures(out, spec.fraction, donorSet, donors ? -1 : i, rng);
            substituted = true;
            break;
        case ThreatModel::GroupCorruption:
            del = corruptGroups(out, spec.fraction, groups, donorSet, donors ? -1 : i, rng);
            substituted = true;
            break;
        }
        if (!sparse) {
            if (!substituted) replaceDeleted(out, del, spec.replacement, rng);
        } else if (substituted) {
            appendAttackedRow(RowView::dense(scratch), {}, spec.replacement, rng, builder);
        } else {
            appendAttackedRow(x, del, spec.replacement, rng, builder);
        }
    }
    if (sparse) res.attacked.sparse = std::move(builder).finish();
    res.status = Status::Converged;
    res.elapsed = clock.seconds();
    rc.report(1.0, m, "attack done");
    return res;
}

}  // namespace fdlab
