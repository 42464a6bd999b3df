#include "core/eval/instance_view.h"

#include "core/eval/level_evaluation.h"
#include "core/io/deletion_grid.h"

#include <algorithm>
#include <stdexcept>

namespace fdlab {

namespace {

/// Words per side in the message view's "top words" line.
constexpr int kTopWords = 12;

const TrainedModel& modelAt(const InstanceViewContext& ctx, int k) {
    if (k < 0 || k >= static_cast<int>(ctx.models.size()))
        throw std::out_of_range("instance view: no learner " + std::to_string(k));
    const auto& [name, m] = ctx.models[static_cast<std::size_t>(k)];
    if (!m.scorer) throw std::invalid_argument("instance view: learner " + name + " has no trained model");
    return m;
}

/// Row i as all n values: the views draw every feature (one row at a time, also for sparse data).
std::vector<float> denseRow(const Dataset& d, int i) {
    std::vector<float> x(static_cast<std::size_t>(d.features()));
    d.row(i).toDense(x);
    return x;
}

double scoreOf(const Scorer& s, std::span<const float> x, int label) {
    if (s.outputs() == 1) {
        double out = 0.0;
        s.scores(x, {&out, 1});
        return out;
    }
    return s.margin(x, label);
}

/// The direction the worst-case adversary attacks for instance x with class `label`, and the
/// sign that makes y * w_j * x_j the contribution (see LearnerView::w).
std::pair<Eigen::VectorXd, double> attackDirection(const LinearModel& lm, const Scorer& s, std::span<const float> x,
                                                   int label, double y) {
    if (lm.isBinary()) return {lm.w(0), y};
    // The strongest competitor on the clean instance.
    std::vector<double> sc(static_cast<std::size_t>(s.outputs()));
    s.scores(x, sc);
    int best = -1;
    for (int k = 0; k < s.outputs(); ++k)
        if (k != label && (best < 0 || sc[static_cast<std::size_t>(k)] > sc[static_cast<std::size_t>(best)])) best = k;
    return {lm.W.col(label) - lm.W.col(best), 1.0};
}

}  // namespace

bool InstanceAnalysis::lostByAKeptByB(int i) const {
    const auto k = static_cast<std::size_t>(i);
    if (i < 0 || k >= marginA1.size()) return false;
    return marginA0[k] > 0.0 && marginA1[k] <= 0.0 && marginB0[k] > 0.0 && marginB1[k] > 0.0;
}

int InstanceAnalysis::countLostByAKeptByB() const {
    int n = 0;
    for (int i = 0; i < static_cast<int>(marginA1.size()); ++i) n += lostByAKeptByB(i) ? 1 : 0;
    return n;
}

int InstanceAnalysis::countLostByA() const {
    int n = 0;
    for (std::size_t i = 0; i < marginA1.size(); ++i) n += marginA0[i] > 0.0 && marginA1[i] <= 0.0 ? 1 : 0;
    return n;
}

AttackResult attackInstance(const Dataset& test, int i, const Scorer& model, const AttackSpec& spec,
                            const Dataset* donors) {
    return runAttackOnRows(test, {i}, model, spec, {}, donors);
}

LearnerView computeLearnerView(const InstanceViewContext& ctx, int model, int instance, double level) {
    LearnerView v;
    v.learner = ctx.models.at(static_cast<std::size_t>(model)).first;
    const Dataset& d = *ctx.test;
    const int n = d.features(), label = d.labels.at(static_cast<std::size_t>(instance));
    try {
        const TrainedModel& m = modelAt(ctx, model);
        const Scorer& s = *m.scorer;
        const std::vector<float> xv = denseRow(d, instance);
        const std::span<const float> x = xv;
        const AttackResult r = attackInstance(d, instance, s, attackAtLevel(ctx.attack, level), ctx.donors.get());
        v.deleted = r.deleted.at(0);
        const std::vector<float> xav = denseRow(r.attacked, 0);
        const std::span<const float> xa = xav;
        v.attackedX.assign(xav.begin(), xav.end());
        v.scoreBefore = scoreOf(s, x, label);
        v.scoreAfter = scoreOf(s, xa, label);
        v.marginBefore = s.margin(x, label);
        v.marginAfter = s.margin(xa, label);
        v.predictedBefore = s.predict(x);
        v.predictedAfter = s.predict(xa);
        if (m.linear) {
            const LinearModel& lm = *m.linear;
            const auto [w, sign] = attackDirection(lm, s, x, label, d.y(instance));
            v.w.assign(w.data(), w.data() + n);
            v.contribution.resize(static_cast<std::size_t>(n));
            for (int j = 0; j < n; ++j) v.contribution[static_cast<std::size_t>(j)] = sign * w(j) * x[static_cast<std::size_t>(j)];
            if (d.documents && lm.isBinary()) v.topWords = topWordsByWeight(lm, d.featureNames, kTopWords, 0, ctx.wordDocuments);
        }
        if (d.documents) {
            auto msg = std::make_shared<MessageView>(buildMessageView(d, instance, s, m.linear.get(), r, 0));
            v.messageBodyHtml = messageBodyHtml(*msg, {});
            v.message = std::move(msg);
        }
    } catch (const std::exception& e) {
        v.error = e.what();
    }
    return v;
}

InstanceView computeInstanceView(const InstanceViewContext& ctx, int a, int b, int instance, double level) {
    InstanceView view;
    view.instance = instance;
    view.level = level;
    view.label = ctx.test->labels.at(static_cast<std::size_t>(instance));
    const std::vector<float> x = denseRow(*ctx.test, instance);
    view.x.assign(x.begin(), x.end());
    view.a = computeLearnerView(ctx, a, instance, level);
    view.b = computeLearnerView(ctx, b, instance, level);
    return view;
}

InstanceAnalysis analyseInstances(const InstanceViewContext& ctx, int a, int b, double level, const RunControl& rc) {
    InstanceAnalysis res;
    res.level = level;
    res.a = a;
    res.b = b;
    const Dataset& d = *ctx.test;
    const Scorer& sa = *modelAt(ctx, a).scorer;
    const Scorer& sb = *modelAt(ctx, b).scorer;
    const AttackSpec spec = attackAtLevel(ctx.attack, level);
    // Each learner's whole-set attack (its rows are what the views show), reported as halves.
    auto half = [&rc](double from) {
        return RunControl{[&rc, from](const Progress& p) { rc.report(from + 0.5 * p.fraction, p.iteration, p.message); },
                          rc.stop};
    };
    const AttackResult ra = runAttack(d, sa, spec, half(0.0), ctx.donors.get());
    if (ra.status == Status::Cancelled) return res;
    const AttackResult rb = runAttack(d, sb, spec, half(0.5), ctx.donors.get());
    if (rb.status == Status::Cancelled) return res;
    const int m = d.rows();
    for (auto* v : {&res.marginA0, &res.marginA1, &res.marginB0, &res.marginB1}) v->reserve(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        const int label = d.labels[static_cast<std::size_t>(i)];
        res.marginA0.push_back(sa.margin(d.row(i), label));
        res.marginA1.push_back(sa.margin(ra.attacked.row(i), label));
        res.marginB0.push_back(sb.margin(d.row(i), label));
        res.marginB1.push_back(sb.margin(rb.attacked.row(i), label));
    }
    res.complete = true;
    rc.report(1.0, m);
    return res;
}

RgbImage instanceDeletionGrid(const InstanceViewContext& ctx, int model, const std::vector<int>& rows, double level,
                              int columns, int scale) {
    const Dataset sub = ctx.test->subset(rows);
    sub.denseOnly("the deletion grid");   // image grids are dense: a clear error for sparse sets
    const Scorer& s = *modelAt(ctx, model).scorer;
    const AttackResult all = runAttackOnRows(*ctx.test, rows, s, attackAtLevel(ctx.attack, level), {}, ctx.donors.get());
    std::vector<int> order(rows.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    return deletionGrid(sub, all, order, columns, scale);
}

}  // namespace fdlab
