#include "core/teach/observation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

namespace fdlab {

using nlohmann::json;

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

struct KindInfo {
    const char* name;
    std::vector<const char*> required;
    std::vector<const char*> optional;
    const char* format;   // default format
    bool needsModels;
};

const std::vector<KindInfo>& kinds() {
    static const std::vector<KindInfo> k = {
        {"error", {"learner", "level"}, {"metric"}, "fixed3", false},
        {"lost", {"learner", "level"}, {"metric"}, "int", true},
        {"test_size", {}, {"metric"}, "int", true},
        {"crossing", {"learner", "other"}, {}, "level", false},
        {"level_reaching", {"learner", "error"}, {}, "level", false},
        {"score", {"learner"}, {"instance"}, "fixed2", true},
        {"margin", {"learner"}, {"instance"}, "fixed2", true},
        {"half_margin", {"learner"}, {"instance"}, "int", true},
        {"flip_count", {"learner"}, {"instance"}, "int", true},
        {"deleted", {"learner", "level"}, {"instance"}, "int", true},
        {"deleted_names", {"learner", "level"}, {"instance", "count"}, "", true},
        {"margin_after", {"learner", "level"}, {"instance"}, "fixed2", true},
        {"weight_share", {"learner"}, {"top"}, "percent", true},
        {"round_tops", {"learner"}, {}, "int", true},
        {"rounds", {"learner"}, {}, "int", true},
        {"expr", {"expr"}, {}, "fixed3", false},
    };
    return k;
}

const KindInfo* findKind(const std::string& name) {
    for (const KindInfo& k : kinds())
        if (name == k.name) return &k;
    return nullptr;
}

std::string kindNames() {
    std::string s;
    for (const KindInfo& k : kinds()) s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
}

// ---- expressions: sum := term (('+'|'-') term)*, term := factor (('*'|'/') factor)*,
//      factor := number | name | '-' factor | '(' sum ')' -------------------------------------

class ExprParser {
public:
    ExprParser(const std::string& s, std::function<double(const std::string&)> lookup)
        : m_s(s), m_lookup(std::move(lookup)) {}

    double parseAll() {
        const double v = sum();
        skip();
        if (m_pos != m_s.size()) fail("unexpected '" + m_s.substr(m_pos, 1) + "'");
        return v;
    }
    double sum() {
        double v = term();
        for (;;) {
            skip();
            if (eat('+')) v += term();
            else if (eat('-')) v -= term();
            else return v;
        }
    }

private:
    double term() {
        double v = factor();
        for (;;) {
            skip();
            if (eat('*')) v *= factor();
            else if (eat('/')) v /= factor();
            else return v;
        }
    }
    double factor() {
        skip();
        if (eat('-')) return -factor();
        if (eat('(')) {
            const double v = sum();
            skip();
            if (!eat(')')) fail("missing ')'");
            return v;
        }
        if (m_pos < m_s.size() && (std::isdigit(static_cast<unsigned char>(m_s[m_pos])) || m_s[m_pos] == '.')) {
            double v = 0.0;
            const char* begin = m_s.data() + m_pos;
            const auto [end, ec] = std::from_chars(begin, m_s.data() + m_s.size(), v);
            std::size_t len = 0;   // the number as written, for the message
            while (m_pos + len < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_pos + len])) ||
                                                m_s[m_pos + len] == '.' || m_s[m_pos + len] == '+' || m_s[m_pos + len] == '-'))
                ++len;
            if (ec == std::errc::result_out_of_range || (ec == std::errc() && !std::isfinite(v)))
                fail("the number " + m_s.substr(m_pos, len) + " is beyond a double's range");
            if (ec != std::errc()) fail("expected a number, found '" + m_s.substr(m_pos, std::max<std::size_t>(len, 1)) + "'");
            m_pos += static_cast<std::size_t>(end - begin);
            return v;
        }
        const std::size_t start = m_pos;
        while (m_pos < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_pos])) || m_s[m_pos] == '_')) ++m_pos;
        if (start == m_pos) fail(m_pos < m_s.size() ? "unexpected '" + m_s.substr(m_pos, 1) + "'" : "expression ends early");
        return m_lookup(m_s.substr(start, m_pos - start));
    }
    void skip() {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos]))) ++m_pos;
    }
    bool eat(char c) {
        if (m_pos < m_s.size() && m_s[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("'" + m_s + "': " + what);
    }

    const std::string& m_s;
    std::size_t m_pos = 0;
    std::function<double(const std::string&)> m_lookup;
};

struct Claim {
    std::string lhs, op, rhs;
};

Claim splitClaim(const std::string& claim) {
    for (const char* op : {"<=", ">=", "<", ">"}) {
        const auto at = claim.find(op);
        if (at != std::string::npos)
            return {claim.substr(0, at), op, claim.substr(at + std::string(op).size())};
    }
    throw std::invalid_argument("'" + claim + "': a claim compares two expressions with <, <=, > or >=");
}

std::string formatValue(double v, const std::string& format) {
    if (std::isnan(v)) return "none";
    if (std::isinf(v)) return v > 0 ? "no number (deleting every feature that helps is not enough)" : "minus infinity";
    char buf[64];
    if (format == "int") std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (format == "fixed2") std::snprintf(buf, sizeof buf, "%.2f", v);
    else if (format == "percent") std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * v);
    else if (format == "level") std::snprintf(buf, sizeof buf, "%g", v);
    else std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// The template's {slot} names, in order.
std::vector<std::string> slotsOf(const std::string& text, const std::string& where) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '}') throw std::invalid_argument(where + ".text: '}' without '{'");
        if (text[i] != '{') continue;
        const auto end = text.find('}', i);
        if (end == std::string::npos) throw std::invalid_argument(where + ".text: '{' without '}'");
        out.push_back(text.substr(i + 1, end - i - 1));
        i = end;
    }
    return out;
}

const std::set<std::string> kMetrics = {"error", "error_attacked", "error_others", "auc"};
const std::set<std::string> kFormats = {"int", "fixed2", "fixed3", "percent", "level"};

}  // namespace

bool ObservationSpec::needsModels() const {
    return std::any_of(values.begin(), values.end(), [](const QuantitySpec& q) { return findKind(q.kind)->needsModels; });
}

std::vector<std::string> ObservationSpec::modelLearners() const {
    std::vector<std::string> out;
    for (const QuantitySpec& q : values)
        if (findKind(q.kind)->needsModels && !q.learner.empty() &&
            std::find(out.begin(), out.end(), q.learner) == out.end())
            out.push_back(q.learner);
    return out;
}

ObservationSpec parseObservation(const json& j, const std::string& where, const std::vector<std::string>& learnerIds) {
    if (!j.is_object()) throw std::invalid_argument(where + ": expected an object");
    for (const auto& [key, v] : j.items())
        if (key != "values" && key != "text" && key != "claim")
            throw std::invalid_argument(where + ": unknown key '" + key + "' (known: values, text, claim)");
    auto str = [](const json& v, const std::string& path) {
        if (!v.is_string()) throw std::invalid_argument(path + ": expected a string");
        return v.get<std::string>();
    };
    auto num = [](const json& v, const std::string& path) {
        if (!v.is_number()) throw std::invalid_argument(path + ": expected a number");
        return v.get<double>();
    };
    ObservationSpec spec;
    if (!j.contains("values") || !j.at("values").is_object() || j.at("values").empty())
        throw std::invalid_argument(where + ".values: expected an object of named quantities");
    if (!j.contains("text")) throw std::invalid_argument(where + ": missing key 'text'");
    spec.text = str(j.at("text"), where + ".text");
    if (j.contains("claim")) spec.claim = str(j.at("claim"), where + ".claim");

    std::vector<ObservedValue> known;   // names defined so far (for expr checks)
    // nlohmann::json objects are sorted by key; quantities must keep the file's order for "expr"
    // to see only earlier ones, so ordered_json would be needed: instead "expr" may use any
    // non-expr quantity and earlier expr ones in key order. Dependencies are checked below.
    for (const auto& [name, q] : j.at("values").items()) {
        const std::string path = where + ".values." + name;
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
            }) || std::isdigit(static_cast<unsigned char>(name[0])))
            throw std::invalid_argument(path + ": a quantity's name is letters, digits and '_', not starting with a digit");
        if (!q.is_object() || !q.contains("kind")) throw std::invalid_argument(path + ": expected an object with a 'kind'");
        QuantitySpec s;
        s.name = name;
        s.kind = str(q.at("kind"), path + ".kind");
        const KindInfo* info = findKind(s.kind);
        if (!info) throw std::invalid_argument(path + ".kind: unknown kind '" + s.kind + "' (known: " + kindNames() + ")");
        for (const auto& item : q.items()) {
            const std::string key = item.key();   // not a structured binding: clang 14 refuses capturing one
            if (key == "kind" || key == "format") continue;
            const bool ok = std::any_of(info->required.begin(), info->required.end(), [&](const char* k) { return key == k; }) ||
                            std::any_of(info->optional.begin(), info->optional.end(), [&](const char* k) { return key == k; });
            if (!ok) throw std::invalid_argument(path + ": unknown key '" + key + "' for kind '" + s.kind + "'");
        }
        for (const char* k : info->required)
            if (!q.contains(k)) throw std::invalid_argument(path + ": missing key '" + std::string(k) + "'");
        if (q.contains("learner")) s.learner = str(q.at("learner"), path + ".learner");
        if (q.contains("other")) s.other = str(q.at("other"), path + ".other");
        for (const std::string* id : {&s.learner, &s.other})
            if (!id->empty() && !learnerIds.empty() &&
                std::find(learnerIds.begin(), learnerIds.end(), *id) == learnerIds.end()) {
                std::string ids;
                for (const auto& l : learnerIds) ids += (ids.empty() ? "" : ", ") + l;
                throw std::invalid_argument(path + ": no learner '" + *id + "' in the step's experiment (learners: " + ids + ")");
            }
        if (q.contains("level")) s.level = num(q.at("level"), path + ".level");
        if (q.contains("metric")) {
            s.metric = str(q.at("metric"), path + ".metric");
            if (!kMetrics.count(s.metric))
                throw std::invalid_argument(path + ".metric: unknown metric '" + s.metric + "' (known: auc, error, error_attacked, error_others)");
        }
        if (q.contains("instance")) {
            const double v = num(q.at("instance"), path + ".instance");
            // Bounded like a view's instance: a cast of 1e10 to int is undefined (it became -1,
            // "the step's instance", silently).
            if (!(v >= 0 && v <= 1e9) || v != std::floor(v))
                throw std::invalid_argument(path + ".instance: expected a whole number from 0 to 1000000000, got " + q.at("instance").dump());
            s.instance = static_cast<int>(v);
        }
        if (q.contains("top")) {
            s.top = num(q.at("top"), path + ".top");
            if (!(s.top > 0 && s.top <= 1)) throw std::invalid_argument(path + ".top: expected a fraction in (0, 1]");
        }
        if (q.contains("error")) s.threshold = num(q.at("error"), path + ".error");
        if (q.contains("count")) {
            const double v = num(q.at("count"), path + ".count");
            if (v < 1 || v > 50 || v != std::floor(v)) throw std::invalid_argument(path + ".count: expected a whole number in [1, 50]");
            s.count = static_cast<int>(v);
        }
        if (q.contains("expr")) s.expr = str(q.at("expr"), path + ".expr");
        s.format = info->format;
        if (q.contains("format")) {
            s.format = str(q.at("format"), path + ".format");
            if (!kFormats.count(s.format))
                throw std::invalid_argument(path + ".format: unknown format '" + s.format + "' (known: fixed2, fixed3, int, level, percent)");
        }
        spec.values.push_back(std::move(s));
    }
    // Expressions run after every other quantity (in name order among themselves), so they may
    // name any non-expr quantity and the expr ones before them.
    std::stable_partition(spec.values.begin(), spec.values.end(), [](const QuantitySpec& q) { return q.kind != "expr"; });
    for (const QuantitySpec& q : spec.values) {
        if (q.kind == "expr") {
            try {
                evaluateExpression(q.expr, known);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(where + ".values." + q.name + ".expr: " + e.what());
            }
        }
        known.push_back({q.name, 1.0, ""});
    }
    for (const std::string& slot : slotsOf(spec.text, where))
        if (std::none_of(known.begin(), known.end(), [&](const ObservedValue& v) { return v.name == slot; }))
            throw std::invalid_argument(where + ".text: slot {" + slot + "} is not one of the values");
    if (!spec.claim.empty()) {
        try {
            const Claim c = splitClaim(spec.claim);
            evaluateExpression(c.lhs, known);
            evaluateExpression(c.rhs, known);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(where + ".claim: " + e.what());
        }
    }
    return spec;
}

double evaluateExpression(const std::string& expr, const std::vector<ObservedValue>& values) {
    ExprParser p(expr, [&](const std::string& name) {
        for (const ObservedValue& v : values)
            if (v.name == name) return v.value;
        throw std::invalid_argument("'" + expr + "': unknown name '" + name + "'");
    });
    return p.parseAll();
}

int halfMarginCount(const std::vector<double>& contribution, double margin) {
    if (!(margin > 0)) return -1;
    std::vector<double> c(contribution);
    std::sort(c.begin(), c.end(), std::greater<>());
    double sum = 0.0;
    for (std::size_t k = 0; k < c.size() && c[k] > 0; ++k) {
        sum += c[k];
        if (sum >= 0.5 * margin) return static_cast<int>(k) + 1;
    }
    return -1;
}

double weightShare(const std::vector<double>& w, double top) {
    std::vector<double> a(w.size());
    std::transform(w.begin(), w.end(), a.begin(), [](double v) { return std::abs(v); });
    std::sort(a.begin(), a.end(), std::greater<>());
    const double total = std::accumulate(a.begin(), a.end(), 0.0);
    if (a.empty() || total <= 0) return kNone;
    const auto k = static_cast<std::size_t>(std::ceil(top * static_cast<double>(a.size()) - 1e-9));
    return std::accumulate(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(k, 1)), 0.0) / total;
}

namespace {

class Computer {
public:
    Computer(const ObservationInput& in) : m_in(in) {}

    double compute(const QuantitySpec& q, const std::vector<ObservedValue>& earlier, std::string& text) {
        const std::string& k = q.kind;
        if (k == "error") return curveMean(q, q.learner, q.level);
        if (k == "lost") return std::round(repetition0Error(q) * static_cast<double>(testSize(q)));
        if (k == "test_size") return testSize(q);
        if (k == "crossing") return crossing(q);
        if (k == "level_reaching") return levelReaching(q);
        if (k == "expr") return evaluateExpression(q.expr, earlier);
        if (k == "weight_share") return weightShare(linearWeights(q), q.top);
        if (k == "round_tops" || k == "rounds") return roundsQuantity(q);
        // Instance quantities.
        if (k == "score" || k == "margin" || k == "half_margin") {
            const LearnerView v = view(q, 0.0);
            if (k == "score") return v.scoreBefore;
            if (k == "margin") return v.marginBefore;
            if (v.contribution.empty()) fail(q, "needs a linear learner (its contributions y w_j x_j)");
            const int c = halfMarginCount(v.contribution, v.marginBefore);
            return c < 0 ? kNone : c;
        }
        if (k == "flip_count") return flipCount(q);
        const LearnerView v = view(q, q.level);
        if (k == "deleted") return static_cast<double>(v.deleted.size());
        if (k == "margin_after") return v.marginAfter;
        // deleted_names: the adversary's most wanted first (largest contribution), not the
        // features' index order, which named the alphabetically first words of a message.
        const Dataset& test = *models(q).test;
        std::vector<int> deleted = v.deleted;
        if (!v.contribution.empty())
            std::stable_sort(deleted.begin(), deleted.end(), [&](int x, int y) {
                return v.contribution[static_cast<std::size_t>(x)] > v.contribution[static_cast<std::size_t>(y)];
            });
        const int n = std::min<int>(q.count, static_cast<int>(deleted.size()));
        for (int i = 0; i < n; ++i) {
            const auto f = static_cast<std::size_t>(deleted[static_cast<std::size_t>(i)]);
            const std::string name = f < static_cast<std::size_t>(test.features()) ? test.featureName(static_cast<int>(f)) : std::to_string(f);
            text += (i == 0 ? "" : ", ") + ("'" + name + "'");
        }
        if (n == 0) text = "none";
        return n;
    }

private:
    [[noreturn]] static void fail(const QuantitySpec& q, const std::string& what) {
        throw std::invalid_argument("quantity '" + q.name + "' (" + q.kind + "): " + what);
    }
    const ExperimentResult& result(const QuantitySpec& q) const {
        if (!m_in.result) fail(q, "no run result");
        return *m_in.result;
    }
    const InstanceViewContext& models(const QuantitySpec& q) const {
        if (!m_in.models || !m_in.models->test) fail(q, "needs the trained models and the test set");
        return *m_in.models;
    }
    static double metricOf(const CurveSummary& s, const std::string& metric) {
        if (metric == "error_attacked") return s.errorAttacked.mean;
        if (metric == "error_others") return s.errorOthers.mean;
        if (metric == "auc") return s.auc.mean;
        return s.error.mean;
    }
    // The learner's curve: (level, value) by level.
    std::vector<std::pair<double, double>> curve(const QuantitySpec& q, const std::string& learner,
                                                 const std::string& metric = "error") const {
        std::vector<std::pair<double, double>> out;
        for (const CurveSummary& s : result(q).summary)
            if (s.learner == learner) out.emplace_back(s.level, metricOf(s, metric));
        if (out.empty()) fail(q, "the run has no curve of '" + learner + "'");
        std::sort(out.begin(), out.end());
        return out;
    }
    double curveMean(const QuantitySpec& q, const std::string& learner, double level) const {
        for (const auto& [l, v] : curve(q, learner, q.metric))
            if (std::abs(l - level) < 1e-9) return v;
        fail(q, "the run has no level " + formatValue(level, "level") + " for '" + learner + "'");
    }
    double repetition0Error(const QuantitySpec& q) const {
        for (const CurvePoint& p : result(q).points)
            if (p.learner == q.learner && p.repetition == 0 && std::abs(p.level - q.level) < 1e-9)
                return q.metric == "error_attacked" ? p.errorAttacked
                       : q.metric == "error_others" ? p.errorOthers
                       : q.metric == "auc"          ? p.auc
                                                    : p.error;
        fail(q, "the run has no point of '" + q.learner + "' at level " + formatValue(q.level, "level") + " in repetition 0");
    }
    int testSize(const QuantitySpec& q) const {
        const InstanceViewContext& ctx = models(q);
        if (q.metric != "error_attacked" && q.metric != "error_others") return ctx.test->rows();
        int n = 0;
        for (int i = 0; i < ctx.test->rows(); ++i)
            n += ctx.attack.attacks(ctx.test->labels[static_cast<std::size_t>(i)]) == (q.metric == "error_attacked");
        return n;
    }
    double crossing(const QuantitySpec& q) const {
        const auto a = curve(q, q.learner), b = curve(q, q.other);
        if (a.size() != b.size()) fail(q, "the two curves have different levels");
        if (a.empty() || a.front().second < b.front().second) return kNone;
        for (std::size_t i = 1; i < a.size(); ++i)
            if (a[i].second < b[i].second) return a[i].first;
        return kNone;
    }
    double levelReaching(const QuantitySpec& q) const {
        for (const auto& [level, err] : curve(q, q.learner))
            if (err >= q.threshold) return level;
        return kNone;
    }
    int modelIndex(const QuantitySpec& q) const {
        const auto& m = models(q).models;
        for (std::size_t i = 0; i < m.size(); ++i)
            if (m[i].first == q.learner) return static_cast<int>(i);
        fail(q, "no trained model of '" + q.learner + "'");
    }
    int instanceOf(const QuantitySpec& q) const {
        const int i = q.instance >= 0 ? q.instance : m_in.instance;
        if (i < 0 || i >= models(q).test->rows())
            fail(q, "instance " + std::to_string(i) + " is outside the test set (0.." + std::to_string(models(q).test->rows() - 1) + ")");
        return i;
    }
    LearnerView view(const QuantitySpec& q, double level, const InstanceViewContext* ctx = nullptr) const {
        LearnerView v = computeLearnerView(ctx ? *ctx : models(q), modelIndex(q), instanceOf(q), level);
        if (!v.error.empty()) fail(q, v.error);
        return v;
    }
    std::vector<double> linearWeights(const QuantitySpec& q) const {
        const TrainedModel& m = models(q).models[static_cast<std::size_t>(modelIndex(q))].second;
        if (!m.linear) fail(q, "needs a linear learner");
        return {m.linear->W.data(), m.linear->W.data() + m.linear->W.size()};
    }
    double roundsQuantity(const QuantitySpec& q) const {
        const FeatureRounds& r = models(q).models[static_cast<std::size_t>(modelIndex(q))].second.rounds;
        if (r.empty()) fail(q, "needs a FeatureBoost model (its rounds)");
        if (q.kind == "rounds") return r.rounds();
        std::set<Eigen::Index> tops;
        for (int t = 0; t < r.rounds(); ++t) {
            Eigen::Index best = 0;
            r.importance.row(t).maxCoeff(&best);
            tops.insert(best);
        }
        return static_cast<double>(tops.size());
    }
    // The fewest deletions that make the instance wrong under the exact worst-case count
    // adversary: its damage grows with K, so a binary search over K in [0, non-zeros].
    double flipCount(const QuantitySpec& q) const {
        InstanceViewContext ctx = models(q);
        ctx.attack = AttackSpec{};
        ctx.attack.threat = "worst-case-count";
        const LearnerView clean = view(q, 0.0, &ctx);
        if (clean.w.empty()) fail(q, "needs a linear learner");
        if (clean.marginBefore <= 0) return 0.0;
        // Only features with a positive contribution lower the margin when deleted.
        int hi = static_cast<int>(std::count_if(clean.contribution.begin(), clean.contribution.end(),
                                                [](double c) { return c > 0; }));
        if (hi == 0 || view(q, hi, &ctx).marginAfter > 0) return std::numeric_limits<double>::infinity();
        int lo = 0;   // invariant: wrong after hi deletions, right after lo
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            (view(q, mid, &ctx).marginAfter > 0 ? lo : hi) = mid;
        }
        return hi;
    }

    const ObservationInput& m_in;
};

}  // namespace

Observation computeObservation(const ObservationSpec& spec, const ObservationInput& in) {
    Observation out;
    Computer c(in);
    for (const QuantitySpec& q : spec.values) {
        std::string text;
        const double v = c.compute(q, out.values, text);
        // Only a flip count is infinite for the reason formatValue gives; an expression's 1 / 0 is not.
        if (text.empty() && std::isinf(v) && q.kind != "flip_count") text = v > 0 ? "infinity" : "minus infinity";
        out.values.push_back({q.name, v, text.empty() ? formatValue(v, q.format) : text});
    }
    for (std::size_t i = 0; i < spec.text.size(); ++i) {
        if (spec.text[i] != '{') {
            out.text += spec.text[i];
            continue;
        }
        const auto end = spec.text.find('}', i);
        const std::string slot = spec.text.substr(i + 1, end - i - 1);
        for (const ObservedValue& v : out.values)
            if (v.name == slot) out.text += v.text;
        i = end;
    }
    out.claim = spec.claim;
    if (!spec.claim.empty()) {
        const Claim cl = splitClaim(spec.claim);
        const double a = evaluateExpression(cl.lhs, out.values), b = evaluateExpression(cl.rhs, out.values);
        // A flip count that no budget reaches reads "never" (a student read "infinity > 6").
        const auto flipCount = [&](std::string name) {
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            return std::any_of(spec.values.begin(), spec.values.end(),
                               [&](const QuantitySpec& q) { return q.name == name && q.kind == "flip_count"; });
        };
        auto number = [](double v, bool flips) {
            return std::isinf(v) ? std::string(v > 0 ? (flips ? "never" : "infinity") : "-infinity") : formatValue(v, "level");
        };
        out.claimNumbers = number(a, flipCount(cl.lhs)) + " " + cl.op + " " + number(b, flipCount(cl.rhs));
        // Names (letters, digits, '_', starting with a letter or '_') become the values shown.
        const std::string& c = spec.claim;
        for (std::size_t i = 0; i < c.size();) {
            const auto isName = [&](std::size_t k, bool first) {
                const unsigned char ch = static_cast<unsigned char>(c[k]);
                return std::isalpha(ch) || ch == '_' || (!first && std::isdigit(ch));
            };
            const bool afterNumber = i > 0 && (std::isdigit(static_cast<unsigned char>(c[i - 1])) || c[i - 1] == '.');
            if (!isName(i, true) || afterNumber) {
                out.claimWithValues += c[i++];
                continue;
            }
            std::size_t e = i;
            while (e < c.size() && isName(e, false)) ++e;
            const std::string name = c.substr(i, e - i);
            const auto v = std::find_if(out.values.begin(), out.values.end(), [&](const ObservedValue& o) { return o.name == name; });
            // Short words for what has no number (the sentence explains it at length).
            out.claimWithValues += v == out.values.end()        ? name
                                   : std::isnan(v->value)       ? std::string("none")
                                   : std::isinf(v->value)       ? std::string(v->value > 0 ? (flipCount(name) ? "never" : "infinity")
                                                                                           : "-infinity")
                                                                : v->text;
            i = e;
        }
        out.claimHolds = !std::isnan(a) && !std::isnan(b) &&
                         (cl.op == "<" ? a < b : cl.op == "<=" ? a <= b : cl.op == ">" ? a > b : a >= b);
    }
    return out;
}

}  // namespace fdlab
