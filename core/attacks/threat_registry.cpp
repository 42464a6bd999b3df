#include "core/attacks/threat_registry.h"

#include "core/attacks/corruption.h"
#include "core/attacks/greedy_deletion.h"
#include "core/attacks/label_flips.h"
#include "core/attacks/random_deletion.h"
#include "core/attacks/uniform_deletion.h"
#include "core/attacks/worst_case_linear.h"
#include "core/learners/registry.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

namespace {

using json = nlohmann::json;
using L = LevelKind;
using V = ThreatVerb;

[[noreturn]] void bad(const std::string& field, const std::string& msg) {
    throw std::invalid_argument("attack " + field + ": " + msg);
}

const LinearModel& requireLinear(const ThreatContext& c) {
    const auto* lin = dynamic_cast<const LinearScorer*>(&c.model);
    if (!lin)
        throw std::invalid_argument("attack threat '" + c.spec.threat +
                                    "' needs a linear model; use 'greedy-deletion' for other models");
    return lin->model();
}

/// What deleted features become, for the deletion threats.
ParamInfo replacementParam() {
    return choiceParam("replacement", "zero", {"zero", "uniform-noise"},
                       "what a deleted feature becomes: 0, or U[-1, 1] noise (Dekel & Shamir's corruption)");
}

/// A per-instance attack that only chooses the deleted set.
PreparedThreat deleting(std::function<std::vector<int>(InstanceAttack&)> choose) {
    PreparedThreat p;
    p.attack = [choose = std::move(choose)](InstanceAttack& a) { a.deleted = choose(a); };
    return p;
}

// ---- the threats' preparation ----------------------------------------------------------------

PreparedThreat prepareWorstCaseCount(const ThreatContext& c) {
    const LinearModel* m = &requireLinear(c);
    const int K = countLevel(c.spec.level);
    PreparedThreat p;
    p.damage = true;
    p.attack = [m, K](InstanceAttack& a) {
        InstanceDeletion d = worstCaseCountDeletion(*m, a.x, a.label, K);
        a.deleted = std::move(d.deleted);
        a.damage = d.damage;
    };
    return p;
}

PreparedThreat prepareWorstCaseValue(const ThreatContext& c, ValueBudgetMethod method) {
    const LinearModel* m = &requireLinear(c);
    const std::vector<double>* v = &c.test.importance;
    const double N = c.spec.level;
    const double scale = c.params.contains("knapsack_scale") ? c.params.at("knapsack_scale").get<double>() : 1.0;
    PreparedThreat p;
    p.damage = p.bound = true;
    p.attack = [m, v, N, method, scale](InstanceAttack& a) {
        InstanceDeletion d = worstCaseValueDeletion(*m, a.x, a.label, *v, N, method, scale);
        a.deleted = std::move(d.deleted);
        a.damage = d.damage;
        a.bound = d.bound;
    };
    return p;
}

PreparedThreat prepareUniform(const ThreatContext& c, bool exact) {
    const LinearModel& m = requireLinear(c);
    const int K = countLevel(c.spec.level);
    std::vector<int> set;
    if (exact) {
        const UniformExactResult u = uniformExactDeletion(m, c.test, K, c.spec.attackedClasses, 1e6, c.rc);
        if (!u.complete) {
            PreparedThreat p;
            p.cancelled = "cancelled while enumerating uniform deletion sets";
            return p;
        }
        set = u.deleted;
    } else {
        set = uniformTopWeightDeletion(m, K);
    }
    return deleting([set](InstanceAttack&) { return set; });
}

PreparedThreat prepareCorruption(const ThreatContext& c, bool groupsAtOnce) {
    PreparedThreat p;
    p.denseRow = p.substitutes = true;
    const double fraction = c.spec.level;
    const Dataset* donors = &c.donors;
    const bool external = c.externalDonors;
    // Every corrupted value is drawn from a donor row: none to draw from divided by zero
    // (SIGFPE in the Python module with an empty donors_X).
    if (donors->rows() == 0 && c.test.rows() > 0)
        throw std::invalid_argument("attack '" + c.spec.threat + "': the donor set has no rows (corruption copies each "
                                    "replaced value from a donor instance)");
    if (!groupsAtOnce) {
        p.attack = [=](InstanceAttack& a) {
            a.deleted = corruptFeatures(a.dense, fraction, *donors, external ? -1 : a.row, *a.rng);
        };
        return p;
    }
    auto groups = std::make_shared<const std::vector<FeatureGroup>>(groupCorruptionGroups(c.params, c.test));
    p.attack = [=](InstanceAttack& a) {
        a.deleted = corruptGroups(a.dense, fraction, *groups, *donors, external ? -1 : a.row, *a.rng);
    };
    return p;
}

// ---- checks that need the data ---------------------------------------------------------------

void checkFeatureIndex(int j, const Dataset& d, const std::string& field) {
    if (j < 0 || j >= d.features()) bad(field, std::to_string(j) + " is not in [0, " + std::to_string(d.features()) + ")");
}

void checkGroups(const AttackSpec&, const json& params, const Dataset& d) {
    const std::vector<FeatureGroup> gs = groupCorruptionGroups(params, d);
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

// ---- label flips -----------------------------------------------------------------------------

/// The SVM Algorithm 1 attacks: flip_svm = {kernel, C, gamma}, or "learner" (the learner's own
/// plain SVM: its kernel, C and gamma, mu = 0).
KernelSvmParams attackedSvm(const json& params, const std::string& learner, const json& learnerParams) {
    const json& f = params.at("flip_svm");
    KernelSvmParams k;
    const json& src = f.is_string() ? learnerParams : f;
    if (f.is_string() && learner != "kernel-svm")
        bad("flip_svm", "\"learner\" attacks each learner's own SVM, but the learner is " + learner);
    k.kernel = svmKernelFromString(src.value("kernel", std::string("linear")));
    k.C = src.value("C", 1.0);
    k.gamma = src.value("gamma", 1.0);
    k.mu = 0.0;
    return k;
}

void checkFlipSvm(const json& params) {
    const json& f = params.at("flip_svm");
    if (f.is_string()) {
        if (f.get<std::string>() != "learner") bad("flip_svm", "expected an object {kernel, C, gamma} or \"learner\"");
        return;
    }
    if (!f.is_object()) bad("flip_svm", "expected an object {kernel, C, gamma} or \"learner\", got " + f.dump());
    for (const auto& [k, v] : f.items())
        if (k != "kernel" && k != "C" && k != "gamma") bad("flip_svm." + k, "unknown key (expected kernel, C, gamma)");
    const std::string kernel = f.value("kernel", std::string("linear"));
    if (kernel != "linear" && kernel != "rbf") bad("flip_svm.kernel", "expected linear or rbf, got '" + kernel + "'");
    for (const char* key : {"C", "gamma"})
        if (f.contains(key) && !f.at(key).is_number()) bad(std::string("flip_svm.") + key, "expected a number");
    attackedSvm(params, "", json::object()).validate();
}

std::optional<Dataset> randomTaint(const TaintRequest& r) { return randomLabelFlips(r.train, r.count, r.seed).tainted; }

std::optional<Dataset> adversarialTaint(const TaintRequest& r) {
    AdversarialLabelFlipParams ap;
    ap.flips = r.count;
    ap.repeats = r.params.at("flip_repeats").get<int>();
    ap.svm = attackedSvm(r.params, r.learner, r.learnerParams);
    ap.seed = r.seed;
    LabelFlipResult res = adversarialLabelFlips(r.train, ap, r.rc);
    if (res.status == Status::Cancelled) return std::nullopt;
    return std::move(res.tainted);
}

std::string adversarialTaintKey(const json& params, const std::string& learner, const json& learnerParams) {
    const KernelSvmParams k = attackedSvm(params, learner, learnerParams);
    return std::string(toString(k.kernel)) + "/" + json(k.C).dump() + "/" + json(k.gamma).dump();
}

/// An entry's header; the rest is set field by field.
ThreatInfo entry(std::string name, std::string title, std::string source, LevelKind level, std::string levelLabel,
                 ThreatVerb verb, std::string how) {
    ThreatInfo i;
    i.name = std::move(name);
    i.title = std::move(title);
    i.source = std::move(source);
    i.level = level;
    i.levelLabel = std::move(levelLabel);
    i.verb = verb;
    i.how = std::move(how);
    return i;
}

// ---- the entries -----------------------------------------------------------------------------

std::vector<ThreatInfo> builtInThreats() {
    std::vector<ThreatInfo> t;
    const std::string setToZero = "set to 0";
    {
        ThreatInfo i = entry("none", "No attack (the clean test set)", "", L::None, "attack level", V::None, "");
        i.doc = "the clean test set";
        i.costWeight = 0.05;
        i.prepare = [](const ThreatContext&) { return PreparedThreat{}; };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("worst-case-count", "Worst-case deletion of K features (exact)", "Globerson & Roweis 2006",
                     L::Count, "deleted features K", V::Deleted, setToZero);
        i.needsLinearModel = i.exact = true;
        i.doc = "the K features whose deletion costs the linear model's true-class margin most (exact, per instance)";
        i.params = {replacementParam()};
        i.costWeight = 0.05;
        i.prepare = prepareWorstCaseCount;
        i.linearLevels = worstCaseCountLevels;
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("worst-case-value-exact", "Worst-case deletion within a value budget N (exact knapsack)",
                     "Dekel & Shamir 2008", L::Value, "value budget N", V::Deleted, setToZero);
        i.needsLinearModel = i.exact = true;
        i.doc = "the most damaging deletion with sum of v_j <= N, by an exact knapsack: a DP when every v_j is a whole "
                "multiple of 1/knapsack_scale, else branch and bound over the real prices (linear models)";
        i.params = {replacementParam(),
                    realParam("knapsack_scale", 1.0, 1e-12, 1e12,
                              "the knapsack DP's unit: used when every v_j * scale is within 1e-9 of a whole "
                              "number (and N * scale <= 10^7), else branch and bound",
                              true)};
        i.prepare = [](const ThreatContext& c) { return prepareWorstCaseValue(c, ValueBudgetMethod::Exact); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("worst-case-value-greedy", "Greedy adversary within a value budget N", "Dekel & Shamir 2008",
                     L::Value, "value budget N", V::Deleted, setToZero);
        i.needsLinearModel = true;
        i.doc = "Dekel & Shamir's greedy adversary: damage per unit value first, within sum of v_j <= N (linear models)";
        i.params = {replacementParam()};
        i.prepare = [](const ThreatContext& c) { return prepareWorstCaseValue(c, ValueBudgetMethod::Greedy); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("random-deletion", "K non-zero features deleted at random",
                     "Globerson & Roweis 2006; Dekel & Shamir 2008", L::Count, "deleted features K", V::Deleted, setToZero);
        i.randomised = true;
        i.doc = "K of each instance's non-zero features, uniformly at random";
        i.params = {replacementParam()};
        i.prepare = [](const ThreatContext& c) {
            const int K = countLevel(c.spec.level);
            return deleting([K](InstanceAttack& a) { return randomNonZeroDeletion(a.x, K, *a.rng); });
        };
        i.linearLevels = randomDeletionLevels;
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("random-feature-drop", "One feature deleted with probability p", "Globerson & Roweis 2006 (toy)",
                     L::Probability, "deletion probability p", V::Deleted, setToZero);
        i.randomised = true;
        i.doc = "feature --feature J deleted from each instance with probability p";
        i.params = {replacementParam(), integerParam("feature", 0, 0, 2147483647, "J: the feature that may vanish")};
        i.check = [](const AttackSpec&, const json& p, const Dataset& d) { checkFeatureIndex(p.at("feature"), d, "feature"); };
        i.prepare = [](const ThreatContext& c) {
            const int j = c.params.at("feature");
            const double p = c.spec.level;
            return deleting([j, p](InstanceAttack& a) { return randomFeatureDrop(j, p, *a.rng); });
        };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("uniform-top-weight", "The same K largest-|w| features deleted everywhere", "FDLab", L::Count,
                     "deleted features K", V::Deleted, setToZero);
        i.needsLinearModel = true;
        i.doc = "the same K features from every instance: the K largest |w_j| (heuristic, linear models)";
        i.params = {replacementParam()};
        i.costWeight = 0.05;
        i.prepare = [](const ThreatContext& c) { return prepareUniform(c, false); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("uniform-exact", "The same K features deleted everywhere (exact)", "FDLab", L::Count,
                     "deleted features K", V::Deleted, setToZero);
        i.needsLinearModel = i.exact = true;
        i.doc = "the same K features from every instance, maximising the test error over all C(n, K) sets (linear models)";
        i.params = {replacementParam()};
        i.costWeight = 2.0;
        i.prepare = [](const ThreatContext& c) { return prepareUniform(c, true); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("greedy-deletion", "Greedy deletion against any model", "FDLab", L::Count, "deleted features K",
                     V::Deleted, setToZero);
        i.doc = "any model: deletes, one at a time, the feature that lowers the true class's margin most";
        i.params = {replacementParam(),
                    boolParam("stop_when_wrong", true, "stop as soon as the instance is misclassified")};
        i.costWeight = 2.0;
        i.prepare = [](const ThreatContext& c) {
            const int K = countLevel(c.spec.level);
            const bool stop = c.params.at("stop_when_wrong");
            const Scorer* model = &c.model;
            PreparedThreat p = deleting([=](InstanceAttack& a) {
                std::vector<int> del = greedyDeletion(*model, a.dense, a.label, K, stop).deleted;
                std::sort(del.begin(), del.end());
                return del;
            });
            p.denseRow = true;
            return p;
        };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("feature-corruption", "A fraction of features corrupted", "Sullivan et al. 2000", L::Fraction,
                     "fraction corrupted", V::Corrupted, "each takes the value of {donor}");
        i.randomised = true;
        i.doc = "a fraction of each instance's features take the values of another random instance";
        i.prepare = [](const ThreatContext& c) { return prepareCorruption(c, false); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("group-corruption", "A fraction of feature groups corrupted", "Sullivan et al. 2000", L::Fraction,
                     "fraction corrupted", V::Corrupted, "whole groups take the values of {donor}");
        i.randomised = true;
        i.doc = "a fraction of the feature groups (encodings, image regions: --regions R,C) take another instance's values";
        i.params = {jsonParam("groups", json::array(),
                              "the feature groups: [{name, begin, end} or {name, features: [...]}, ...], disjoint"),
                    integerListParam("regions", {}, 1, 100000,
                                     "[rows, cols]: on image data, the groups are blocks of rows x cols pixels instead")};
        i.checkParams = [](const json& p) {
            if (const auto regions = p.at("regions"); !regions.empty() && regions.size() != 2)
                bad("regions", "expected [rows, cols] of pixels per region, got " + regions.dump());
        };
        i.check = checkGroups;
        i.prepare = [](const ThreatContext& c) { return prepareCorruption(c, true); };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("fixed-deletion", "Fixed features deleted everywhere", "Dekel & Shamir 2008 (label copies)",
                     L::Count, "deleted features K", V::Deleted, setToZero);
        i.doc = "the first K of --features J1,J2,... deleted from every instance";
        i.params = {replacementParam(),
                    integerListParam("features", {}, 0, 2147483647, "the features to delete, in order (K takes the first K)")};
        i.costWeight = 0.05;
        i.check = [](const AttackSpec& s, const json& p, const Dataset& d) {
            const auto features = p.at("features").get<std::vector<int>>();
            if (s.level > static_cast<double>(features.size()))
                bad("level", "K = " + levelText(s.level) + " exceeds the " + std::to_string(features.size()) +
                                 " listed features");
            for (int j : features) checkFeatureIndex(j, d, "features");
            // A repeated feature made "K = 2" delete one feature (the level would misstate it).
            std::vector<int> sorted = features;
            std::sort(sorted.begin(), sorted.end());
            if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
                bad("features", "feature " + std::to_string(*dup) + " is listed twice (each K deletes K distinct features)");
        };
        i.prepare = [](const ThreatContext& c) {
            std::vector<int> del = c.params.at("features").get<std::vector<int>>();
            del.resize(static_cast<std::size_t>(countLevel(c.spec.level)));
            std::sort(del.begin(), del.end());
            return deleting([del](InstanceAttack&) { return del; });
        };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("random-blankout", "Every non-zero feature blanked out with probability p",
                     "van der Maaten et al. 2013", L::Probability, "deletion probability p", V::Deleted, setToZero);
        i.randomised = true;
        i.doc = "every non-zero feature deleted independently with probability p (MCF's test-time blankout)";
        i.params = {replacementParam()};
        i.prepare = [](const ThreatContext& c) {
            const double p = c.spec.level;
            return deleting([p](InstanceAttack& a) { return randomNonZeroBlankout(a.x, p, *a.rng); });
        };
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("random-label-flips", "Random label flips (training time)", "Biggio, Nelson & Laskov 2011",
                     L::Fraction, "fraction of training labels flipped", V::Flipped, "flipped");
        i.trainingTime = i.randomised = true;
        i.doc = "a fraction of the training labels flipped at random (experiments only)";
        i.costWeight = 0.05;
        i.taint = randomTaint;
        t.push_back(i);
    }
    {
        ThreatInfo i = entry("adversarial-label-flips", "Adversarial label flips (training time)",
                     "Biggio, Nelson & Laskov 2011, Algorithm 1", L::Fraction, "fraction of training labels flipped",
                     V::Flipped, "flipped");
        i.trainingTime = i.randomised = true;
        i.doc = "the same number of flips chosen by Biggio et al.'s Algorithm 1 against an SVM (experiments only)";
        i.params = {integerParam("flip_repeats", 10, 1, 100000, "R: random restarts of Algorithm 1"),
                    jsonParam("flip_svm", json{{"kernel", "linear"}, {"C", 1.0}, {"gamma", 1.0}},
                              "the attacked SVM {kernel: linear|rbf, C, gamma}, or \"learner\": each kernel-svm "
                              "learner's own plain SVM (Biggio et al. per panel of C)")};
        i.costWeight = 0.05;
        i.checkParams = checkFlipSvm;
        i.taint = adversarialTaint;
        i.taintKey = adversarialTaintKey;
        i.taintTrainings = [](const json& p) { return p.at("flip_repeats").get<double>(); };
        i.learnerCheck = [](const json& p, const std::string& learner) -> std::string {
            if (p.at("flip_svm").is_string() && learner != "kernel-svm")
                return "\"learner\" attacks each learner's own SVM, but this learner is " + learner +
                       " (use an explicit {kernel, C, gamma})";
            return "";
        };
        t.push_back(i);
    }
    return t;
}

std::vector<ThreatInfo>& registry() {
    static std::vector<ThreatInfo> r = builtInThreats();
    return r;
}

}  // namespace

const std::vector<ThreatInfo>& threatRegistry() { return registry(); }

const ThreatInfo& threatInfo(const std::string& name) {
    for (const ThreatInfo& i : registry())
        if (name == i.name) return i;
    std::string all;
    for (const ThreatInfo& i : registry()) all += (all.empty() ? "" : ", ") + i.name;
    throw std::invalid_argument("unknown threat model '" + name + "' (expected one of: " + all + ")");
}

void registerThreat(ThreatInfo info) {
    for (const ThreatInfo& i : registry())
        if (i.name == info.name) throw std::invalid_argument("threat '" + info.name + "' is already registered");
    if (info.trainingTime ? !info.taint : !info.prepare)
        throw std::invalid_argument("threat '" + info.name + "' has no code (" +
                                    (info.trainingTime ? "taint" : "prepare") + ")");
    registry().push_back(std::move(info));
}

std::string threatHelp(bool includeTrainingTime) {
    std::string out;
    for (const ThreatInfo& i : registry()) {
        if (i.trainingTime && !includeTrainingTime) continue;
        std::string name = i.name;
        name.resize(std::max<std::size_t>(name.size(), 24), ' ');
        out += "    " + name + " " + i.doc + "\n";
        for (const ParamInfo& p : i.params) {
            std::string opt = "--" + p.name;
            std::replace(opt.begin(), opt.end(), '_', '-');
            out += "        " + opt + "  " + p.doc + " (default " + p.defaultValue.dump() +
                   (paramRangeText(p).empty() ? "" : ", " + paramRangeText(p)) + ")\n";
        }
    }
    return out;
}

std::vector<std::string> threatParamNames() {
    std::vector<std::string> names;
    for (const ThreatInfo& i : registry())
        for (const ParamInfo& p : i.params)
            if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
    return names;
}

nlohmann::json threatParamsFromText(const std::string& threat, const std::map<std::string, std::string>& values,
                                    const std::string& prefix) {
    const ThreatInfo& info = threatInfo(threat);
    auto option = [&](std::string name) {
        std::replace(name.begin(), name.end(), '_', '-');
        return prefix + name;
    };
    json params = json::object();
    for (const auto& [name, text] : values) {
        const auto p = std::find_if(info.params.begin(), info.params.end(), [&name = name](const ParamInfo& x) { return x.name == name; });
        if (p == info.params.end()) {
            std::string own;
            for (const ParamInfo& x : info.params) own += (own.empty() ? "" : ", ") + option(x.name);
            throw std::invalid_argument(option(name) + " is not a parameter of " + threat + " (" +
                                        (own.empty() ? std::string("it takes none") : "it takes " + own) + ")");
        }
        params[name] = paramFromText(*p, text, "attack " + threat);
    }
    AttackSpec check;
    check.threat = threat;
    check.params = params;
    check.completeParams();   // ranges, choices and the threat's own checks
    return params;
}

int countLevel(double level) {
    // Saturated before the conversion: lround of 2^31 or more into an int is undefined (it gave
    // K = -2147483648). Validation refuses such a K against the features; this keeps the
    // arithmetic defined on the way there.
    if (!(level >= 0)) return 0;
    if (level >= static_cast<double>(std::numeric_limits<int>::max())) return std::numeric_limits<int>::max();
    return static_cast<int>(std::lround(level));
}

std::string levelText(double level) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", level);
    return buf;
}

std::string levelOrderProblem(std::span<const double> levels) {
    for (std::size_t k = 1; k < levels.size(); ++k) {
        if (levels[k] == levels[k - 1]) return "the level " + levelText(levels[k]) + " is given twice";
        if (levels[k] < levels[k - 1])
            return "levels must be increasing, got " + levelText(levels[k]) + " after " + levelText(levels[k - 1]);
    }
    return "";
}

void scoreLinearDeletions(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink, const RowDeletions& choose) {
    std::vector<double> after(static_cast<std::size_t>(m.W.cols()));
    std::vector<std::int32_t> index;
    std::vector<float> value;
    std::vector<std::vector<int>> deleted(Ks.size());
    const Rng base(spec.seed);
    for (int i = 0; i < test.rows(); ++i) {
        const int label = test.labels[static_cast<std::size_t>(i)];
        // The row's non-zeros as a sparse view, gathered once for all levels: forEachNonZero
        // visits the same (j, x_j) in the same order as on the row itself, so every result is
        // the same, at O(non-zeros) per level instead of O(features) on dense data.
        index.clear();
        value.clear();
        test.forEachNonZero(i, [&](int j, float v) {
            index.push_back(j);
            value.push_back(v);
        });
        const RowView x{value.data(), index.data(), static_cast<int>(index.size()), test.features(), true};
        if (!spec.attacks(label)) {   // spared: the clean scores at every level
            linearScores(m, x, {}, after);
            for (std::size_t l = 0; l < Ks.size(); ++l) sink(i, l, after);
            continue;
        }
        choose(x, label, Ks, base.split(static_cast<std::uint64_t>(i)), deleted);   // row i's stream, as runAttack
        for (std::size_t l = 0; l < Ks.size(); ++l) {
            linearScores(m, x, deleted[l], after);
            sink(i, l, after);
        }
    }
}

void sortedPrefixes(std::span<const int> order, std::span<const int> Ks, std::vector<std::vector<int>>& out) {
    thread_local std::vector<std::size_t> byBudget;   // scratch: levels by increasing prefix
    thread_local std::vector<int> fresh;              // scratch: a level's entries past the previous prefix
    const auto length = [&](std::size_t l) {
        return std::min(order.size(), static_cast<std::size_t>(std::max(Ks[l], 0)));
    };
    out.resize(Ks.size());
    byBudget.resize(Ks.size());
    std::iota(byBudget.begin(), byBudget.end(), std::size_t{0});
    std::sort(byBudget.begin(), byBudget.end(), [&](std::size_t a, std::size_t b) { return length(a) < length(b); });
    const std::vector<int>* previous = nullptr;   // the last level's prefix, increasing
    std::size_t have = 0;
    for (std::size_t l : byBudget) {
        const std::size_t n = length(l);
        fresh.assign(order.begin() + static_cast<std::ptrdiff_t>(have), order.begin() + static_cast<std::ptrdiff_t>(n));
        std::sort(fresh.begin(), fresh.end());
        out[l].resize(n);
        if (previous) std::merge(previous->begin(), previous->end(), fresh.begin(), fresh.end(), out[l].begin());
        else std::copy(fresh.begin(), fresh.end(), out[l].begin());
        previous = &out[l];
        have = n;
    }
}

}  // namespace fdlab
