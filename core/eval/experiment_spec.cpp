#include "core/eval/experiment_spec.h"

#include "core/attacks/threat_registry.h"

#include "core/learners/registry.h"
#include "core/util/atomic_file.h"
#include "core/io/json_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fdlab {

namespace {

using json = nlohmann::json;

[[noreturn]] void fieldError(const std::string& field, const std::string& msg) {
    throw std::invalid_argument("experiment field '" + field + "': " + msg);
}

template <class T>
T getOr(const json& j, const char* key, const std::string& where, T fallback) {
    if (!j.contains(key)) return fallback;
    const json& v = j.at(key);
    const std::string field = where.empty() ? key : where + "." + key;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // JSON numbers convert silently (1.9 -> 1, -1 -> 2^64 - 1): a count or seed must be an
        // integer in its type's range.
        const bool fits = v.is_number_unsigned()
                              ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                              : v.is_number_integer() && v.get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                    (v.get<std::int64_t>() < 0 || static_cast<std::uint64_t>(v.get<std::int64_t>()) <=
                                                                       static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
        if (!fits)
            fieldError(field, "expected an integer from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
                                  std::to_string(std::numeric_limits<T>::max()) + ", got " + v.dump());
    }
    try {
        return v.get<T>();
    } catch (const json::exception&) {
        fieldError(field, "has the wrong type (" + v.dump() + ")");
    }
}

/// Edit distance, for "did you mean" on a misspelt key.
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t k = 0; k <= b.size(); ++k) row[k] = k;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t k = 1; k <= b.size(); ++k) {
            const std::size_t up = row[k];
            row[k] = std::min({row[k] + 1, row[k - 1] + 1, diagonal + (a[i - 1] == b[k - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

/// An experiment file's keys are checked, not skipped: a misspelt "seeed" must not silently run
/// with the default seed. `where` names the object ("" for the top level).
void rejectUnknownKeys(const json& j, std::initializer_list<const char*> known, const std::string& where) {
    if (!j.is_object()) return;
    for (const auto& item : j.items()) {
        const std::string& key = item.key();
        bool ok = false;
        std::string list, closest;
        std::size_t best = 3;   // suggest only a near miss
        for (const char* k : known) {
            if (key == k) ok = true;
            list += (list.empty() ? "" : ", ") + std::string(k);
            const std::size_t d = editDistance(key, k);
            if (d < best) best = d, closest = k;
        }
        if (ok) continue;
        fieldError(where.empty() ? key : where + "." + key,
                   "unknown key" + (closest.empty() ? std::string() : " (did you mean '" + closest + "'?)") +
                       "; known keys here: " + list);
    }
}

std::string resolve(const std::string& p, const std::string& baseDir) {
    if (p.empty() || std::filesystem::path(p).is_absolute()) return p;
    return (std::filesystem::path(baseDir) / p).lexically_normal().string();
}

std::vector<std::string> stringOrList(const json& j, const std::string& field) {
    if (j.is_string()) return {j.get<std::string>()};
    if (!j.is_array()) fieldError(field, "expected a class name or a list of class names");
    std::vector<std::string> out;
    for (const auto& e : j) {
        if (e.is_string()) out.push_back(e.get<std::string>());
        else if (e.is_number_integer()) out.push_back(std::to_string(e.get<long long>()));
        else fieldError(field, "expected class names, got " + e.dump());
    }
    return out;
}

const char* splitKindName(SplitSpec::Kind k) {
    switch (k) {
    case SplitSpec::Kind::Fraction: return "fraction";
    case SplitSpec::Kind::Counts: return "counts";
    case SplitSpec::Kind::KFold: return "kfold";
    }
    return "fraction";
}

const char* importanceKindName(ImportanceSpec::Kind k) {
    switch (k) {
    case ImportanceSpec::Kind::Dataset: return "dataset";
    case ImportanceSpec::Kind::Uniform: return "uniform";
    case ImportanceSpec::Kind::MutualInformation: return "mutual-information";
    case ImportanceSpec::Kind::Csv: return "csv";
    case ImportanceSpec::Kind::Values: return "values";
    }
    return "dataset";
}

const char* missingName(MissingPolicy m) {
    switch (m) {
    case MissingPolicy::Error: return "error";
    case MissingPolicy::DropRow: return "drop";
    case MissingPolicy::Impute: return "impute";
    }
    return "impute";
}

}  // namespace

ExperimentSpec ExperimentSpec::taskSpec(int t) const {
    if (t < 0 || t >= taskCount())
        throw std::out_of_range("task " + std::to_string(t) + " of an experiment with " + std::to_string(taskCount()) + " tasks");
    if (tasks.empty()) return *this;
    ExperimentSpec one = *this;
    const ExperimentTask& task = tasks[static_cast<std::size_t>(t)];
    one.tasks.clear();
    one.dataset = task.dataset;
    one.testDataset = task.testDataset;
    one.task = task.task;
    one.split = task.split;
    return one;
}

std::string ExperimentSpec::taskName(int t) const {
    return tasks.empty() ? std::string() : tasks.at(static_cast<std::size_t>(t)).name;
}

void ExperimentSpec::validate() const {
    if (multiTask()) {
        // Each task is validated as the single-task experiment it runs as.
        for (std::size_t t = 0; t < tasks.size(); ++t) {
            const std::string where = "tasks[" + std::to_string(t) + "]";
            if (tasks[t].name.empty()) fieldError(where + ".name", "must not be empty");
            // A name is one line of a table, a CSV field and a menu entry: no control characters
            // (a newline would split the row), and not the aggregate's label.
            for (const char c : tasks[t].name)
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                    fieldError(where + ".name", "must not contain control characters such as line breaks or tabs");
            if (tasks[t].name == kMeanOverTasks)
                fieldError(where + ".name", std::string("'") + kMeanOverTasks + "' is reserved for the aggregate over the tasks");
            for (std::size_t u = 0; u < t; ++u)
                if (tasks[u].name == tasks[t].name) fieldError(where + ".name", "'" + tasks[t].name + "' is used twice");
            try {
                taskSpec(static_cast<int>(t)).validate();
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(where + " ('" + tasks[t].name + "'): " + e.what());
            }
        }
        return;
    }
    if (dataset.bundled.empty() == dataset.file.empty())
        fieldError("dataset", "give exactly one of \"bundled\" and \"file\"");
    if (learners.empty()) fieldError("learners", "at least one learner is needed");
    const ThreatInfo& threat = threatInfo(attack.threat);
    const nlohmann::json attackParams = attack.completeParams();   // "attack <threat> parameter <name>: ..."
    for (std::size_t a = 0; a < learners.size(); ++a) {
        const LearnerSpec& l = learners[a];
        const std::string where = "learners[" + std::to_string(a) + "]";
        if (l.id.empty()) fieldError(where + ".id", "must not be empty");
        // Ids name curves in legends, CSV and LaTeX tables: a newline or other control character
        // would break those files' lines.
        if (std::any_of(l.id.begin(), l.id.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            fieldError(where + ".id", "must not contain control characters (newlines, tabs, ...), got " + json(l.id).dump());
        for (std::size_t b = 0; b < a; ++b)
            if (learners[b].id == l.id) fieldError(where + ".id", "'" + l.id + "' is used twice");
        completeParams(l.learner, l.params);   // throws naming learner and parameter
        if (threat.learnerCheck)
            if (const std::string why = threat.learnerCheck(attackParams, l.learner); !why.empty())
                fieldError("attack", where + ": " + why);
        if (l.selection == LearnerSpec::Selection::CrossValidation) {
            if (l.cvFolds < 2) fieldError(where + ".cv_folds", "must be >= 2, got " + std::to_string(l.cvFolds));
            if (tunePerLevel && !threat.trainingTime)
                fieldError(where + ".select", "\"cv\" chooses on the clean training set and cannot be combined with "
                                              "tune_per_level (which chooses on an attacked validation set)");
        }
        for (const auto& [name, values] : l.grid) {
            if (values.empty()) fieldError(where + ".grid." + name, "needs at least one value");
            for (double v : values) {
                json p = l.params;
                p[name] = v;
                const LearnerInfo& info = learnerInfo(l.learner);
                for (const auto& pi : info.params)
                    if (pi.name == name && pi.type == ParamInfo::Type::Integer) {
                        if (v != std::floor(v))
                            fieldError(where + ".grid." + name, "learner " + l.learner + " parameter " + name +
                                                                   " takes whole numbers, got " + json(v).dump());
                        p[name] = static_cast<long long>(v);
                    }
                completeParams(l.learner, p);
            }
        }
    }
    if (levels.empty()) fieldError("levels", "at least one level is needed");
    for (double l : levels)
        if (!std::isfinite(l) || l < 0) fieldError("levels", "levels must be finite and >= 0, got " + levelText(l));
    // A count budget K is a whole number of features, and no data has 2^31 of them: said here,
    // where the file and the field are known, rather than when the attack meets the data.
    if (threat.level == LevelKind::Count)
        for (double l : levels)
            if (l != std::floor(l) || l > static_cast<double>(std::numeric_limits<int>::max()))
                fieldError("levels", "the threat " + attack.threat + " deletes K features, a whole number below 2^31, got " + levelText(l));
    // Curves, tables and shard parts index points by level: a repeated level would be two points
    // at one x, and an unsorted list a curve that doubles back. Refused, not silently reordered.
    if (const std::string problem = levelOrderProblem(levels); !problem.empty()) fieldError("levels", problem);
    if (repetitions < 1) fieldError("repetitions", "must be >= 1");
    if (split.kind == SplitSpec::Kind::KFold && split.folds < 2) fieldError("split.folds", "must be >= 2");
    if (split.kind == SplitSpec::Kind::KFold &&
        static_cast<long long>(repetitions) * split.folds > std::numeric_limits<int>::max())
        fieldError("repetitions", std::to_string(repetitions) + " repetitions of " + std::to_string(split.folds) +
                                      "-fold CV are more runs than an int counts");
    if (split.kind == SplitSpec::Kind::Fraction && !(split.testFraction >= 0 && split.testFraction < 1))
        fieldError("split.test", "must be in [0, 1) (0: no test part, with a \"test\" file or to train a final model)");
    if (testDataset && split.kind == SplitSpec::Kind::KFold)
        fieldError("split.kind", "a separate \"test\" file goes with a fraction or counts split (its validation part is carved from the training file)");
    if (testDataset && split.kind == SplitSpec::Kind::Counts && split.perClassTest != 0)
        fieldError("split.test", "with a separate \"test\" file the counts split draws only training and validation instances "
                                 "per class: set \"test\": 0 (got " + std::to_string(split.perClassTest) + ")");
    if (!(split.validationFraction >= 0 && split.validationFraction < 1)) fieldError("split.validation", "must be in [0, 1)");
    if (split.kind == SplitSpec::Kind::Counts && split.perClassTrain < 1) fieldError("split.train", "must be >= 1");
    if (threads < 0) fieldError("threads", "must be >= 0");
}

namespace {
DatasetRef datasetRefFromJson(const json& d, const std::string& field, const std::string& baseDir) {
    rejectUnknownKeys(d, {"bundled", "file", "label", "class", "labels", "missing", "text_column", "subject", "weighting", "min_df"},
                      field);
    DatasetRef r;
    r.bundled = getOr<std::string>(d, "bundled", field, "");
    r.file = resolve(getOr<std::string>(d, "file", field, ""), baseDir);
    r.options.labelColumn = getOr<std::string>(d, "label", field, "");
    r.options.classAttribute = getOr<std::string>(d, "class", field, "");
    r.options.idxLabels = resolve(getOr<std::string>(d, "labels", field, ""), baseDir);
    const std::string missing = getOr<std::string>(d, "missing", field, "impute");
    if (missing == "impute") r.options.missing = MissingPolicy::Impute;
    else if (missing == "drop") r.options.missing = MissingPolicy::DropRow;
    else if (missing == "error") r.options.missing = MissingPolicy::Error;
    else fieldError(field + ".missing", "expected impute, drop or error");

    r.options.textColumn = getOr<std::string>(d, "text_column", field, "");
    r.options.keepSubject = getOr<bool>(d, "subject", field, true);
    r.options.weighting = getOr<std::string>(d, "weighting", field, "binary");
    r.options.minDocumentFrequency = getOr<int>(d, "min_df", field, 2);
    if (r.bundled.empty() == r.file.empty()) fieldError(field, "give exactly one of \"bundled\" and \"file\"");
    return r;
}

json datasetRefToJson(const DatasetRef& r) {
    json d = json::object();
    if (!r.bundled.empty()) d["bundled"] = r.bundled;
    if (!r.file.empty()) d["file"] = r.file;
    if (!r.options.labelColumn.empty()) d["label"] = r.options.labelColumn;
    if (!r.options.classAttribute.empty()) d["class"] = r.options.classAttribute;
    if (!r.options.idxLabels.empty()) d["labels"] = r.options.idxLabels;
    d["missing"] = missingName(r.options.missing);
    if (!r.options.textColumn.empty()) d["text_column"] = r.options.textColumn;
    if (!r.file.empty() && isTextCorpus(r.file, r.options)) {
        d["subject"] = r.options.keepSubject;
        d["weighting"] = r.options.weighting;
        d["min_df"] = r.options.minDocumentFrequency;
    }
    return d;
}
TaskSpec taskFromJson(const json& t, const std::string& field) {
    if (!t.is_object()) fieldError(field, "expected an object {\"kind\": ...}");
    TaskSpec task;
    const std::string kind = getOr<std::string>(t, "kind", field, "multiclass");
    if (kind == "binary") {
        task.kind = TaskSpec::Kind::Binary;
        rejectUnknownKeys(t, {"kind", "positive", "negative"}, field);
        if (!t.contains("positive") || !t.contains("negative")) fieldError(field, "binary needs positive and negative");
        task.positive = stringOrList(t.at("positive"), field + ".positive");
        task.negative = stringOrList(t.at("negative"), field + ".negative");
    } else if (kind == "one-vs-rest") {
        task.kind = TaskSpec::Kind::OneVsRest;
        rejectUnknownKeys(t, {"kind", "positive"}, field);
        if (!t.contains("positive")) fieldError(field + ".positive", "one-vs-rest needs the positive class");
        task.positive = stringOrList(t.at("positive"), field + ".positive");
        if (task.positive.size() != 1) fieldError(field + ".positive", "one-vs-rest takes exactly one class");
    } else if (kind == "multiclass") {
        task.kind = TaskSpec::Kind::MultiClass;
        rejectUnknownKeys(t, {"kind"}, field);
    } else {
        fieldError(field + ".kind", "expected binary, one-vs-rest or multiclass, got '" + kind + "'");
    }
    return task;
}

SplitSpec splitFromJson(const json& sp, const std::string& field) {
    if (!sp.is_object()) fieldError(field, "expected an object {\"kind\": ...}");
    SplitSpec split;
    const std::string kind = getOr<std::string>(sp, "kind", field, "fraction");
    if (kind == "fraction") split.kind = SplitSpec::Kind::Fraction;
    else if (kind == "counts") split.kind = SplitSpec::Kind::Counts;
    else if (kind == "kfold") split.kind = SplitSpec::Kind::KFold;
    else fieldError(field + ".kind", "expected fraction, counts or kfold, got '" + kind + "'");
    if (kind == "fraction") rejectUnknownKeys(sp, {"kind", "test", "validation"}, field);
    else if (kind == "counts") rejectUnknownKeys(sp, {"kind", "train", "validation", "test"}, field);
    else rejectUnknownKeys(sp, {"kind", "folds", "validation"}, field);
    split.testFraction = getOr<double>(sp, "test", field, split.testFraction);
    split.validationFraction = getOr<double>(sp, "validation", field, split.validationFraction);
    split.folds = getOr<int>(sp, "folds", field, split.folds);
    if (split.kind == SplitSpec::Kind::Counts) {
        split.perClassTrain = getOr<int>(sp, "train", field, split.perClassTrain);
        split.perClassValidation = getOr<int>(sp, "validation", field, 0);
        split.perClassTest = getOr<int>(sp, "test", field, -1);
        split.validationFraction = 0.0;
    }
    return split;
}

json taskToJson(const TaskSpec& t) {
    switch (t.kind) {
    case TaskSpec::Kind::Binary: return {{"kind", "binary"}, {"positive", t.positive}, {"negative", t.negative}};
    case TaskSpec::Kind::OneVsRest: return {{"kind", "one-vs-rest"}, {"positive", t.positive.at(0)}};
    case TaskSpec::Kind::MultiClass: break;
    }
    return {{"kind", "multiclass"}};
}

json splitToJson(const SplitSpec& s) {
    json sp = {{"kind", splitKindName(s.kind)}};
    if (s.kind == SplitSpec::Kind::Counts) {
        sp["train"] = s.perClassTrain;
        sp["validation"] = s.perClassValidation;
        sp["test"] = s.perClassTest;
    } else {
        if (s.kind == SplitSpec::Kind::Fraction) sp["test"] = s.testFraction;
        else sp["folds"] = s.folds;
        sp["validation"] = s.validationFraction;
    }
    return sp;
}

/// "tasks": every entry's own fields, the shared ones (dataset, test, split) from the top level.
std::vector<ExperimentTask> tasksFromJson(const json& j, const std::string& baseDir) {
    const json& list = j.at("tasks");
    if (!list.is_array()) fieldError("tasks", "expected a list of tasks [{\"name\": ..., \"task\": {...}}, ...]");
    if (list.empty()) fieldError("tasks", "the list is empty (give at least one task, or \"task\" for a single one)");
    if (j.contains("task"))
        fieldError("task", "given together with \"tasks\": a file holds either one task (\"task\") or several (\"tasks\"), "
                           "so move this task into the list");
    std::vector<ExperimentTask> tasks;
    for (std::size_t index = 0; index < list.size(); ++index) {
        const json& e = list[index];
        const std::string where = "tasks[" + std::to_string(index) + "]";
        if (!e.is_object()) fieldError(where, "expected an object {\"name\": ..., \"task\": {...}}, got " + e.dump());
        rejectUnknownKeys(e, {"name", "task", "dataset", "test", "split"}, where);
        ExperimentTask t;
        if (!e.contains("name")) fieldError(where + ".name", "missing (every task needs a name)");
        t.name = getOr<std::string>(e, "name", where, "");
        if (t.name.empty()) fieldError(where + ".name", "must not be empty");
        for (const ExperimentTask& other : tasks)
            if (other.name == t.name) fieldError(where + ".name", "'" + t.name + "' is used twice");
        if (e.contains("task")) t.task = taskFromJson(e.at("task"), where + ".task");
        // dataset, test and split: shared (top level) or per task, never both.
        for (const char* key : {"dataset", "test", "split"})
            if (e.contains(key) && j.contains(key))
                fieldError(where + "." + key, std::string("also given at the top level: give \"") + key +
                                                  "\" once for every task or in each task, not both");
        const json& d = e.contains("dataset") ? e.at("dataset") : j.contains("dataset") ? j.at("dataset") : json();
        if (!d.is_object()) fieldError(where + ".dataset", "missing or not an object (no shared \"dataset\" at the top level)");
        t.dataset = datasetRefFromJson(d, e.contains("dataset") ? where + ".dataset" : "dataset", baseDir);
        if (const json& test = e.contains("test") ? e.at("test") : j.contains("test") ? j.at("test") : json(); !test.is_null()) {
            const std::string field = e.contains("test") ? where + ".test" : "test";
            if (!test.is_object()) fieldError(field, "expected an object like \"dataset\"");
            t.testDataset = datasetRefFromJson(test, field, baseDir);
        }
        if (e.contains("split")) t.split = splitFromJson(e.at("split"), where + ".split");
        else if (j.contains("split")) t.split = splitFromJson(j.at("split"), "split");
        tasks.push_back(std::move(t));
    }
    return tasks;
}
}  // namespace

ExperimentSpec experimentFromJson(const json& j, const std::string& baseDir) {
    if (!j.is_object()) throw std::invalid_argument("experiment: expected a JSON object");
    rejectUnknownKeys(j,
                      {"schema", "name", "description", "dataset", "test", "task", "preprocessing", "split", "importance",
                       "learners", "attack", "levels", "repetitions", "seed", "threads", "tune_per_level", "paper", "tasks"},
                      "");
    const int schema = getOr<int>(j, "schema", "", 1);
    if (schema != 1) fieldError("schema", "version " + std::to_string(schema) + " is not supported (expected 1)");
    ExperimentSpec s;
    s.name = getOr<std::string>(j, "name", "", "");
    s.description = getOr<std::string>(j, "description", "", "");

    if (!j.contains("tasks") && (!j.contains("dataset") || !j.at("dataset").is_object()))
        fieldError("dataset", "missing or not an object");
    if (!j.contains("tasks")) s.dataset = datasetRefFromJson(j.at("dataset"), "dataset", baseDir);
    if (j.contains("test") && !j.contains("tasks")) {
        if (!j.at("test").is_object()) fieldError("test", "expected an object like \"dataset\"");
        s.testDataset = datasetRefFromJson(j.at("test"), "test", baseDir);
    }

    if (j.contains("tasks")) {
        s.tasks = tasksFromJson(j, baseDir);
        const ExperimentTask& first = s.tasks.front();
        s.dataset = first.dataset;
        s.testDataset = first.testDataset;
        s.task = first.task;
        s.split = first.split;
    } else if (j.contains("task")) {
        s.task = taskFromJson(j.at("task"), "task");
    }
    s.preprocessing = scalingFromString(getOr<std::string>(j, "preprocessing", "", "none"));

    if (j.contains("split") && s.tasks.empty()) s.split = splitFromJson(j.at("split"), "split");

    if (j.contains("importance")) {
        const json& im = j.at("importance");
        if (!im.is_object()) fieldError("importance", "expected an object {\"kind\": ...}");
        const std::string kind = getOr<std::string>(im, "kind", "importance", "dataset");
        if (kind == "mutual-information") rejectUnknownKeys(im, {"kind", "bins", "floor", "total"}, "importance");
        else if (kind == "csv") rejectUnknownKeys(im, {"kind", "path"}, "importance");
        else if (kind == "values") rejectUnknownKeys(im, {"kind", "values"}, "importance");
        else rejectUnknownKeys(im, {"kind"}, "importance");
        if (kind == "dataset") s.importance.kind = ImportanceSpec::Kind::Dataset;
        else if (kind == "uniform") s.importance.kind = ImportanceSpec::Kind::Uniform;
        else if (kind == "mutual-information") {
            s.importance.kind = ImportanceSpec::Kind::MutualInformation;
            s.importance.mutualInfo.bins = getOr<int>(im, "bins", "importance", 8);
            s.importance.mutualInfo.floor = getOr<double>(im, "floor", "importance", 0.1);
            s.importance.mutualInfo.total = getOr<double>(im, "total", "importance", 0.0);
        } else if (kind == "csv") {
            s.importance.kind = ImportanceSpec::Kind::Csv;
            s.importance.path = resolve(getOr<std::string>(im, "path", "importance", ""), baseDir);
        } else if (kind == "values") {
            s.importance.kind = ImportanceSpec::Kind::Values;
            s.importance.values = getOr<std::vector<double>>(im, "values", "importance", {});
            // As an importance CSV's values are checked: a 0 or negative price was taken silently
            // (count threats) or named later by a solver's own index into a row's non-zeros.
            for (std::size_t k = 0; k < s.importance.values.size(); ++k)
                if (const double v = s.importance.values[k]; !(v > 0.0) || !std::isfinite(v))
                    fieldError("importance.values[" + std::to_string(k) + "]",
                               "a feature's value must be finite and > 0, got " + nlohmann::json(v).dump());
        } else {
            fieldError("importance.kind", "expected dataset, uniform, mutual-information, csv or values, got '" + kind + "'");
        }
    }

    if (!j.contains("learners") || !j.at("learners").is_array()) fieldError("learners", "missing or not a list");
    for (std::size_t index = 0; index < j.at("learners").size(); ++index) {
        const json& l = j.at("learners")[index];
        const std::string where = "learners[" + std::to_string(index) + "]";
        if (!l.is_object()) fieldError(where, "expected an object {\"learner\": ..., \"params\": {...}}, got " + l.dump());
        rejectUnknownKeys(l, {"id", "learner", "params", "grid", "select", "cv_folds"}, where);
        LearnerSpec ls;
        ls.learner = getOr<std::string>(l, "learner", "learners", "");
        ls.id = getOr<std::string>(l, "id", "learners", ls.learner);
        if (l.contains("params")) ls.params = l.at("params");
        if (l.contains("grid")) {
            if (!l.at("grid").is_object()) fieldError("learners.grid", "expected an object of value lists");
            for (const auto& [k, v] : l.at("grid").items()) ls.grid[k] = getOr<std::vector<double>>(l.at("grid"), k.c_str(), "learners.grid", {});
        }
        const std::string select = getOr<std::string>(l, "select", "learners", "validation");
        if (select == "validation") ls.selection = LearnerSpec::Selection::Validation;
        else if (select == "cv") ls.selection = LearnerSpec::Selection::CrossValidation;
        else fieldError("learners.select", "expected validation or cv, got '" + select + "'");
        ls.cvFolds = getOr<int>(l, "cv_folds", "learners", ls.cvFolds);
        s.learners.push_back(std::move(ls));
    }

    if (j.contains("attack")) {
        const json& a = j.at("attack");
        if (!a.is_object()) fieldError("attack", "expected an object {\"threat\": ..., its parameters}");
        s.attack.threat = getOr<std::string>(a, "threat", "attack", "none");
        threatInfo(s.attack.threat);   // an unknown name lists the known ones
        s.attackedClasses = getOr<std::vector<std::string>>(a, "attacked_classes", "attack", {});
        // Every other key is one of the threat's parameters (ThreatInfo::params), checked below.
        for (const auto& [key, value] : a.items())
            if (key != "threat" && key != "attacked_classes") s.attack.params[key] = value;
    }
    s.levels = getOr<std::vector<double>>(j, "levels", "", {});
    s.repetitions = getOr<int>(j, "repetitions", "", 1);
    s.seed = getOr<std::uint64_t>(j, "seed", "", 1);
    s.threads = getOr<int>(j, "threads", "", 0);
    s.tunePerLevel = getOr<bool>(j, "tune_per_level", "", false);
    if (j.contains("paper")) {
        // What the reproduction report reads (core/eval/reproduction_report): checked here too, so
        // a misspelt claim key is an error and not a claim that silently checks nothing.
        const json& p = j.at("paper");
        if (!p.is_object()) fieldError("paper", "expected an object {\"source\", \"summary\", \"claims\", \"curves\", \"evidence\"}");
        rejectUnknownKeys(p, {"source", "summary", "claims", "curves", "evidence"}, "paper");
        if (p.contains("evidence")) {
            const json& ev = p.at("evidence");
            if (!ev.is_array()) fieldError("paper.evidence", "expected a list [{\"varied\": \"...\", \"gave\": \"...\"}, ...]");
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const std::string where = "paper.evidence[" + std::to_string(i) + "]";
                if (!ev[i].is_object()) fieldError(where, "expected an object {\"varied\": \"...\", \"gave\": \"...\"}");
                rejectUnknownKeys(ev[i], {"varied", "gave"}, where);
                for (const char* k : {"varied", "gave"})
                    if (!ev[i].contains(k) || !ev[i][k].is_string() || ev[i][k].get<std::string>().empty())
                        fieldError(where + "." + k, "missing or not a non-empty string");
            }
        }
        if (p.contains("claims") && p.at("claims").is_array())
            for (const json& c : p.at("claims")) {
                rejectUnknownKeys(c, {"text", "check"}, "paper.claims");
                if (c.is_object() && c.contains("check"))
                    rejectUnknownKeys(c.at("check"),
                                      {"kind", "learner", "other", "levels", "by", "margin", "at_least", "metric", "tolerance"},
                                      "paper.claims.check");
            }
        s.paper = p;
    }
    s.validate();
    return s;
}

json toJson(const ExperimentSpec& s) {
    json j;
    j["schema"] = 1;
    j["name"] = s.name;
    j["description"] = s.description;
    j["dataset"] = datasetRefToJson(s.dataset);
    if (s.testDataset) j["test"] = datasetRefToJson(*s.testDataset);
    j["task"] = taskToJson(s.task);
    j["preprocessing"] = toString(s.preprocessing);
    j["split"] = splitToJson(s.split);
    json im = {{"kind", importanceKindName(s.importance.kind)}};
    if (s.importance.kind == ImportanceSpec::Kind::MutualInformation) {
        im["bins"] = s.importance.mutualInfo.bins;
        im["floor"] = s.importance.mutualInfo.floor;
        im["total"] = s.importance.mutualInfo.total;
    }
    if (s.importance.kind == ImportanceSpec::Kind::Csv) im["path"] = s.importance.path;
    if (s.importance.kind == ImportanceSpec::Kind::Values) im["values"] = s.importance.values;
    j["importance"] = im;
    json ls = json::array();
    for (const auto& l : s.learners) {
        json e = {{"id", l.id}, {"learner", l.learner}, {"params", l.params}};
        if (!l.grid.empty()) e["grid"] = l.grid;
        if (l.selection == LearnerSpec::Selection::CrossValidation) {
            e["select"] = "cv";
            e["cv_folds"] = l.cvFolds;
        }
        ls.push_back(e);
    }
    j["learners"] = ls;
    // The threat's parameters, complete (defaults written out), next to its name.
    json a = s.attack.completeParams();
    a["threat"] = s.attack.threat;
    a["attacked_classes"] = s.attackedClasses;
    j["attack"] = a;
    j["levels"] = s.levels;
    j["repetitions"] = s.repetitions;
    j["seed"] = s.seed;
    j["threads"] = s.threads;
    j["tune_per_level"] = s.tunePerLevel;
    if (!s.paper.is_null()) j["paper"] = s.paper;
    if (s.multiTask()) {
        // Every task complete in its entry; nothing task-specific at the top level.
        for (const char* key : {"dataset", "test", "task", "split"}) j.erase(key);
        json tasks = json::array();
        for (const ExperimentTask& t : s.tasks) {
            json e = {{"name", t.name}, {"dataset", datasetRefToJson(t.dataset)}, {"task", taskToJson(t.task)}, {"split", splitToJson(t.split)}};
            if (t.testDataset) e["test"] = datasetRefToJson(*t.testDataset);
            tasks.push_back(e);
        }
        j["tasks"] = tasks;
    }
    return j;
}

ExperimentSpec loadExperimentFile(const std::string& path) {
    const json j = readJsonFile(path, "experiment file");
    const std::string dir = std::filesystem::path(path).parent_path().string();
    try {
        return experimentFromJson(j, dir.empty() ? "." : dir);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

void saveExperimentFile(const ExperimentSpec& s, const std::string& path) {
    writeFileAtomically(path, toJson(s).dump(2) + "\n");
}

}  // namespace fdlab
