#include "core/eval/experiment_state.h"

#include "core/eval/experiment_runner.h"
#include "core/learners/registry.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fdlab {

std::string sourceName(const DatasetRef& ref) {
    return ref.bundled.empty() ? ref.file : "bundled:" + ref.bundled;
}

std::string derivedTitle(const std::string& dataName, const TaskSpec& task, const std::string& threat) {
    std::string t = dataName + ": " + task.describe();
    if (!threat.empty()) t += " - " + threatInfo(threat).title;
    return t;
}

namespace {

std::string number(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

/// Instances of class `name` in `d` (-1 when it has no such class).
long long countOf(const Dataset& d, const std::vector<int>& counts, const std::vector<std::string>& names) {
    if (names.empty()) return -1;
    long long n = 0;
    for (const std::string& name : names) {
        const auto it = std::find(d.classNames.begin(), d.classNames.end(), name);
        if (it == d.classNames.end()) return -1;
        n += counts[static_cast<std::size_t>(it - d.classNames.begin())];
    }
    return n;
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : "+") + n;
    return s;
}

bool hasClasses(const Dataset& d, const std::vector<std::string>& names) {
    return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
        return std::find(d.classNames.begin(), d.classNames.end(), n) != d.classNames.end();
    });
}

}  // namespace

double valueBudgetStep(double totalValue) {
    const double x = totalValue / 1000.0;
    if (!(x > 0.0) || !std::isfinite(x)) return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    for (const double m : {5.0, 2.0, 1.0})
        if (m * p <= x * (1.0 + 1e-12)) return m * p;
    return p;
}

double budgetAtPosition(long position, double step) {
    const double inverse = std::round(1.0 / step);
    return step < 1.0 && std::abs(inverse * step - 1.0) < 1e-12 ? static_cast<double>(position) / inverse
                                                               : static_cast<double>(position) * step;
}

long maxValuePosition(double totalValue) {
    if (!(totalValue > 0.0) || !std::isfinite(totalValue)) return 0;
    const double step = valueBudgetStep(totalValue);
    auto p = static_cast<long>(std::min(1e6, std::floor(totalValue / step)));
    while (p > 0 && budgetAtPosition(p, step) >= totalValue) --p;
    return p;
}

double maxBudgetFor(LevelKind kind, int features, double totalValue) {
    switch (kind) {
    case LevelKind::None: return 0.0;
    case LevelKind::Count: return std::max(0, features);
    case LevelKind::Value: return budgetAtPosition(maxValuePosition(totalValue), valueBudgetStep(totalValue));
    case LevelKind::Probability:
    case LevelKind::Fraction: return 1.0;
    }
    return 0.0;
}

double clampBudget(LevelKind kind, double b, int features, double totalValue) {
    if (!std::isfinite(b)) b = 0.0;
    const double hi = maxBudgetFor(kind, features, totalValue);
    double step = 0.01;
    if (kind == LevelKind::Count) step = 1.0;
    if (kind == LevelKind::Value) step = valueBudgetStep(totalValue);
    const double snapped = budgetAtPosition(std::lround(std::clamp(b, 0.0, std::max(hi, 0.0)) / step), step);
    return std::min(snapped, hi);
}

std::vector<std::size_t> heatmapLearners(const ExperimentSpec& spec) {
    if (spec.attack.threat.empty() || threatInfo(spec.attack.threat).trainingTime) return {};
    const auto& ls = spec.learners;
    std::vector<std::size_t> chosen;
    auto taken = [&](std::size_t i) { return std::find(chosen.begin(), chosen.end(), i) != chosen.end(); };
    auto pick = [&](const char* want) {
        for (std::size_t i = 0; i < ls.size(); ++i)
            if (ls[i].learner == want && chosen.size() < 2 && !taken(i)) {
                chosen.push_back(i);
                return;
            }
    };
    pick("svm");
    pick("fdrop");
    const bool linearPair = !chosen.empty();
    if (!linearPair) {
        pick("adaboost");
        pick("featureboost");
    }
    for (std::size_t i = 0; i < ls.size(); ++i)
        if (chosen.size() < 2 && !taken(i) && (!linearPair || learnerInfo(ls[i].learner).linear)) chosen.push_back(i);
    if (chosen.size() == 2 && ls[chosen[0]].learner == "featureboost" && ls[chosen[1]].learner != "featureboost")
        std::swap(chosen[0], chosen[1]);   // A is the one expected to lose
    if (!linearPair)
        for (std::size_t i = 0; i < ls.size(); ++i)
            if (!taken(i)) chosen.push_back(i);
    return chosen;
}

SplitSpec splitThatFits(const SplitSpec& split, const Dataset& d, const TaskSpec& t, std::string* note) {
    if (note) note->clear();
    if (split.kind != SplitSpec::Kind::Counts) return split;
    const std::vector<int> counts = d.classCounts();
    // The classes of the task, as the split sees them: (name, instances).
    std::vector<std::pair<std::string, long long>> sides;
    if (t.kind == TaskSpec::Kind::Binary) {
        sides = {{joinedNames(t.positive), countOf(d, counts, t.positive)},
                 {joinedNames(t.negative), countOf(d, counts, t.negative)}};
    } else if (t.kind == TaskSpec::Kind::OneVsRest) {
        const long long pos = countOf(d, counts, t.positive);
        sides = {{joinedNames(t.positive), pos}, {"rest", pos < 0 ? -1 : d.rows() - pos}};
    } else {
        for (std::size_t c = 0; c < counts.size(); ++c) sides.emplace_back(d.classNames[c], counts[c]);
    }
    const long long needed = static_cast<long long>(split.perClassTrain) + split.perClassValidation +
                             std::max(split.perClassTest, 0);
    for (const auto& [name, n] : sides) {
        if (n < 0 || n >= needed) continue;   // a class the data lacks: the task reports it
        SplitSpec out = split;
        out.kind = SplitSpec::Kind::Fraction;
        if (note)
            *note = d.name + ": class '" + name + "' has " + std::to_string(n) + " instances, fewer than the " +
                    std::to_string(needed) + " per class the split by counts needs; the split is now by fractions (test " +
                    number(out.testFraction) + ", validation " + number(out.validationFraction) + ").";
        return out;
    }
    return split;
}

std::vector<double> importanceOfRun(const ExperimentSpec& spec, const Dataset& data) {
    const TaskData task = spec.testDataset ? loadTaskData(spec) : TaskData{applyTask(data, spec.task), {}, {}, {}};
    return prepareRepetition(task, spec, 0).train.importance;
}

// ---- the state ------------------------------------------------------------------------------

ExperimentState::ExperimentState(ExperimentSpec spec) { setSpec(std::move(spec)); }

std::string ExperimentState::titleKey(const ExperimentSpec& s) const {
    return sourceName(s.dataset) + "|" + s.task.describe() + "|" + s.attack.threat;
}

int ExperimentState::features() const { return m_data ? m_data->features() : 0; }

double ExperimentState::totalValue() const {
    if (m_importanceTotal) return *m_importanceTotal;
    return m_data ? m_data->totalImportance() : 0.0;
}

void ExperimentState::setImportance(std::vector<double> values) {
    double V = 0.0;
    for (double v : values) V += v;
    m_importanceTotal = V;
    setBudget(m_budget);
}

void ExperimentState::edit(ExperimentSpec spec) { m_spec = std::move(spec); }

void ExperimentState::setSpec(ExperimentSpec spec) {
    m_spec = std::move(spec);
    m_titleKey = titleKey(m_spec);
    m_importanceTotal.reset();
    if (m_data && sourceName(m_spec.dataset) != m_dataSource) {
        m_data.reset();   // the spec's own data is on its way
        m_dataSource.clear();
    }
    setBudget(m_budget);
}

double ExperimentState::maxBudget() const {
    if (m_spec.attack.threat.empty()) return 0.0;
    return maxBudgetFor(threatInfo(m_spec.attack.threat).level, features(), totalValue());
}

double ExperimentState::setBudget(double b) {
    if (!m_data || m_spec.attack.threat.empty()) {
        m_budget = std::isfinite(b) ? std::max(b, 0.0) : 0.0;   // clamped once the data is there
        return m_budget;
    }
    m_budget = clampBudget(threatInfo(m_spec.attack.threat).level, b, features(), totalValue());
    return m_budget;
}

std::vector<std::string> ExperimentState::adaptToData(std::shared_ptr<const Dataset> data, const DatasetRef& ref,
                                                      bool specsData) {
    std::vector<std::string> notes;
    m_data = std::move(data);
    m_dataSource = sourceName(ref);
    m_importanceTotal.reset();
    if (!m_data) return notes;
    const Dataset& d = *m_data;
    ExperimentSpec& s = m_spec;
    if (!specsData) {
        s.dataset = ref;
        s.testDataset.reset();
    }
    // Classes the data lacks: its first two (or all of them when it has one class).
    const bool taskFits = s.task.kind == TaskSpec::Kind::MultiClass ||
                          (hasClasses(d, s.task.positive) && hasClasses(d, s.task.negative) && !s.task.positive.empty() &&
                           (s.task.kind == TaskSpec::Kind::OneVsRest || !s.task.negative.empty()));
    if (!taskFits && d.classNames.size() >= 2) {
        const std::string before = s.task.describe();
        s.task.kind = TaskSpec::Kind::Binary;
        s.task.positive = {d.classNames[0]};
        s.task.negative = {d.classNames[1]};
        notes.push_back(d.name + " has no classes " + before + ": the task is now " + s.task.describe() + ".");
    }
    std::erase_if(s.attackedClasses, [&](const std::string& c) {
        const bool gone = s.task.kind == TaskSpec::Kind::Binary
                              ? std::find(s.task.positive.begin(), s.task.positive.end(), c) == s.task.positive.end() &&
                                    std::find(s.task.negative.begin(), s.task.negative.end(), c) == s.task.negative.end()
                              : !hasClasses(d, {c}) && c != "rest";
        if (gone) notes.push_back("the attacked class '" + c + "' is not in the task any more: every class is attacked.");
        return gone;
    });
    std::string note;
    s.split = splitThatFits(s.split, d, s.task, &note);
    if (!note.empty()) notes.push_back(note);
    // Importance values of another length, or a file for other data: the data's own.
    if ((s.importance.kind == ImportanceSpec::Kind::Values &&
         static_cast<int>(s.importance.values.size()) != d.features()) ||
        (!specsData && s.importance.kind == ImportanceSpec::Kind::Csv)) {
        s.importance = ImportanceSpec{};
        notes.push_back("the importance values were for other data: " + d.name + "'s own values are used.");
    }
    // Levels the data cannot reach.
    if (!s.attack.threat.empty() && !s.levels.empty()) {
        const LevelKind kind = threatInfo(s.attack.threat).level;
        const double hi = kind == LevelKind::Value ? d.totalImportance() : maxBudgetFor(kind, d.features(), d.totalImportance());
        const auto beyond = [&](double l) { return kind == LevelKind::Value ? l >= hi : l > hi; };
        if ((kind == LevelKind::Count || kind == LevelKind::Value) && std::any_of(s.levels.begin(), s.levels.end(), beyond)) {
            const std::size_t before = s.levels.size();
            std::erase_if(s.levels, beyond);
            if (s.levels.empty()) {   // a ladder of about ten steps up to the largest budget
                const double top = maxBudgetFor(kind, d.features(), d.totalImportance());
                const double step = kind == LevelKind::Count ? std::max(1.0, std::ceil(top / 10.0)) : top / 10.0;
                for (int i = 0; i <= 10 && i * step <= top; ++i) s.levels.push_back(i * step);
            }
            notes.push_back(std::to_string(before - std::min(before, s.levels.size())) + " level(s) beyond " + d.name +
                            "'s " + (kind == LevelKind::Count ? std::to_string(d.features()) + " features" : "total value " + number(hi)) +
                            " were dropped.");
        }
    }
    // A title written for other data, classes or threat.
    if (titleKey(s) != m_titleKey) {
        s.name = derivedTitle(d.name, s.task, s.attack.threat);
        s.description.clear();
        s.paper = nlohmann::json();
        m_titleKey = titleKey(s);
    }
    setBudget(m_budget);
    return notes;
}

ExperimentSpec ExperimentState::forRun(ExperimentSpec edited) const {
    if (titleKey(edited) != m_titleKey) {
        const bool sameData = m_data && sourceName(edited.dataset) == m_dataSource;
        edited.name = derivedTitle(sameData ? m_data->name : sourceName(edited.dataset), edited.task, edited.attack.threat);
        edited.description.clear();
        edited.paper = nlohmann::json();
    }
    if (m_data && sourceName(edited.dataset) == m_dataSource && !edited.testDataset)
        edited.split = splitThatFits(edited.split, *m_data, edited.task, nullptr);
    return edited;
}

}  // namespace fdlab
