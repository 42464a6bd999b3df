#include "core/attacks/attack.h"

#include "core/attacks/threat_registry.h"


#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& msg) {
    throw std::invalid_argument("attack " + field + ": " + msg);
}

void replaceDeleted(std::span<float> x, const std::vector<int>& deleted, bool noise, Rng& rng) {
    for (int j : deleted) x[static_cast<std::size_t>(j)] = noise ? static_cast<float>(rng.uniform(-1.0, 1.0)) : 0.0f;
}

/// The sparse counterpart of replaceDeleted: appends row x with the features in `deleted`
/// replaced to b. Noise is drawn in the order of `deleted`, as replaceDeleted draws it, so a
/// sparse row and its dense copy get the same values.
void appendAttackedRow(const RowView& x, const std::vector<int>& deleted, bool noise, Rng& rng,
                       SparseRowsBuilder& b) {
    std::vector<std::pair<int, float>> repl;
    repl.reserve(deleted.size());
    for (int j : deleted) repl.emplace_back(j, noise ? static_cast<float>(rng.uniform(-1.0, 1.0)) : 0.0f);
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

nlohmann::json AttackSpec::completeParams() const {
    const ThreatInfo& info = threatInfo(threat);
    nlohmann::json p = completeParamValues(info.params, params, "attack " + threat);
    if (info.checkParams) info.checkParams(p);
    return p;
}

void AttackSpec::validate(const Dataset& d) const {
    const ThreatInfo& info = threatInfo(threat);
    const nlohmann::json p = completeParams();
    if (!std::isfinite(level) || level < 0) bad("level", "must be finite and >= 0, got " + levelText(level));
    switch (info.level) {
    case LevelKind::Count:
        if (level != std::floor(level)) bad("level", "K must be a whole number, got " + levelText(level));
        if (level > d.features())
            bad("level", "K = " + levelText(level) + " exceeds the " + std::to_string(d.features()) + " features");
        break;
    case LevelKind::Value: {
        const double V = d.totalImportance();
        if (level >= V) bad("level", "N = " + levelText(level) + " must be below the total value V = " + levelText(V));
        break;
    }
    case LevelKind::Probability:
    case LevelKind::Fraction:
        if (level > 1) bad("level", "a " + std::string(info.level == LevelKind::Fraction ? "fraction" : "probability") +
                                        " must be in [0, 1], got " + levelText(level));
        break;
    case LevelKind::None: break;
    }
    for (int c : attackedClasses)
        if (c < 0 || c >= d.numClasses())
            bad("attacked_classes", "class index " + std::to_string(c) + " is not in [0, " + std::to_string(d.numClasses()) + ")");
    if (!attackedClasses.empty() && info.trainingTime)
        bad("attacked_classes", "a one-sided threat acts on test instances; label flips choose their own instances");
    if (info.trainingTime && !d.isBinary()) bad("threat", threat + " needs a binary task");
    if (info.check) info.check(*this, p, d);
}

bool AttackSpec::attacks(int label) const {
    return attackedClasses.empty() || std::find(attackedClasses.begin(), attackedClasses.end(), label) != attackedClasses.end();
}

namespace {

/// runAttack on the rows `rows` of `test` (null: every row, the result keeping `test` itself).
AttackResult attackRows(const Dataset& test, const std::vector<int>* rows, const Scorer& model, const AttackSpec& spec,
                        const RunControl& rc, const Dataset* donors) {
    Stopwatch clock;
    spec.validate(test);
    const ThreatInfo& info = threatInfo(spec.threat);
    if (info.trainingTime)
        throw std::invalid_argument("attack threat '" + spec.threat + "' acts on training labels; run it through an experiment");
    if (model.features() != test.features())
        throw std::invalid_argument("attack: the model expects " + std::to_string(model.features()) +
                                    " features, the data has " + std::to_string(test.features()));
    if (donors && donors->features() != test.features())
        throw std::invalid_argument("attack: donor set has a different number of features");
    const nlohmann::json params = spec.completeParams();
    const bool noise = params.value("replacement", "zero") == "uniform-noise";
    const Dataset clean = rows ? test.subset(*rows) : Dataset{};   // the result's rows, before the attack
    const Dataset& out0 = rows ? clean : test;
    // Result row r is row `source(r)` of `test`.
    auto source = [rows](int r) { return rows ? (*rows)[static_cast<std::size_t>(r)] : r; };

    AttackResult res;
    // Choices for the whole set are made once, on all of `test` (uniform-exact's one set).
    const PreparedThreat threat = info.prepare({test, model, spec, params, donors ? *donors : test, donors != nullptr, rc});
    if (!threat.cancelled.empty()) {
        res.status = Status::Cancelled;
        res.message = threat.cancelled;
        res.attacked = out0;
        res.elapsed = clock.seconds();
        return res;
    }
    const bool sparse = test.isSparse();
    if (sparse) {
        res.attacked = out0.subset({});   // the metadata; rows are appended below
        res.attacked.labels = out0.labels;
        res.attacked.sourceRows = out0.sourceRows;
    } else {
        res.attacked = out0;
    }
    const int m = out0.rows(), n = test.features();
    res.deleted.assign(static_cast<std::size_t>(m), {});
    if (threat.damage) res.damage.assign(static_cast<std::size_t>(m), 0.0);
    if (threat.bound) res.damageBound.assign(static_cast<std::size_t>(m), 0.0);
    // Threats that look at every feature (corruption, the model-agnostic greedy search) work on
    // one densified row at a time when the set is sparse.
    std::vector<float> scratch(sparse && threat.denseRow ? static_cast<std::size_t>(n) : 0);
    SparseRowsBuilder builder(sparse ? n : 0, sparse ? out0.storedValues() : 0);

    const Rng base(spec.seed);
    const int reportEvery = std::max(1, m / 20);
    for (int r = 0; r < m; ++r) {
        if (r % reportEvery == 0) {
            if (rc.cancelled()) {
                res.status = Status::Cancelled;
                res.message = "cancelled after " + std::to_string(r) + " of " + std::to_string(m) + " instances";
                if (sparse) {   // the rest stays clean
                    Rng unused = base;
                    for (int q = r; q < m; ++q) appendAttackedRow(out0.row(q), {}, noise, unused, builder);
                    res.attacked.sparse = std::move(builder).finish();
                }
                res.elapsed = clock.seconds();
                return res;
            }
            rc.report(static_cast<double>(r) / m, r, "attacking");
        }
        // Row i of `test` draws from stream i and is row i for corruption's donors, whichever
        // rows are attacked with it.
        const int i = source(r);
        Rng rng = base.split(static_cast<std::uint64_t>(i));
        const int label = out0.labels[static_cast<std::size_t>(r)];
        const RowView x = out0.row(r);
        std::span<float> out;
        if (!sparse) out = {res.attacked.X.row(r).data(), static_cast<std::size_t>(n)};
        else if (threat.denseRow) {
            x.toDense(scratch);
            out = scratch;
        }
        const bool attacked = threat.attack && spec.attacks(label);
        InstanceAttack a{i, x, label, out, &rng, {}, 0.0, 0.0};
        if (attacked) threat.attack(a);
        if (threat.damage) res.damage[static_cast<std::size_t>(r)] = a.damage;
        if (threat.bound) res.damageBound[static_cast<std::size_t>(r)] = a.bound;
        const bool substituted = attacked && threat.substitutes;   // corruption wrote its own values
        if (!sparse) {
            if (!substituted) replaceDeleted(out, a.deleted, noise, rng);
        } else if (substituted) {
            appendAttackedRow(RowView::dense(scratch), {}, noise, rng, builder);
        } else {
            appendAttackedRow(x, a.deleted, noise, rng, builder);
        }
        res.deleted[static_cast<std::size_t>(r)] = std::move(a.deleted);
    }
    if (sparse) res.attacked.sparse = std::move(builder).finish();
    res.status = Status::Converged;
    res.elapsed = clock.seconds();
    rc.report(1.0, m, "attack done");
    return res;
}

}  // namespace

AttackResult runAttack(const Dataset& test, const Scorer& model, const AttackSpec& spec, const RunControl& rc,
                       const Dataset* donors) {
    return attackRows(test, nullptr, model, spec, rc, donors);
}

AttackResult runAttackOnRows(const Dataset& test, const std::vector<int>& rows, const Scorer& model,
                             const AttackSpec& spec, const RunControl& rc, const Dataset* donors) {
    for (int i : rows)
        if (i < 0 || i >= test.rows())
            throw std::out_of_range("attack: row " + std::to_string(i) + " is not in [0, " + std::to_string(test.rows()) + ")");
    return attackRows(test, &rows, model, spec, rc, donors);
}

}  // namespace fdlab
