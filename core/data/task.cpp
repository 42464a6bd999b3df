#include "core/data/task.h"

#include <stdexcept>

namespace fdlab {

namespace {

std::string joined(const std::vector<std::string>& names, const char* sep) {
    std::string s;
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (k) s += sep;
        s += names[k];
    }
    return s;
}

std::string classList(const Dataset& d) {
    std::string s = joined(d.classNames, ", ");
    return s.size() > 200 ? s.substr(0, 197) + "..." : s;
}

int classIndex(const Dataset& d, const std::string& name, const std::string& where) {
    for (int c = 0; c < d.numClasses(); ++c)
        if (d.classNames[static_cast<std::size_t>(c)] == name) return c;
    throw std::invalid_argument(where + ": unknown class '" + name + "' (classes: " + classList(d) + ")");
}

void checkLabels(const Dataset& d, const std::string& where) {
    if (static_cast<int>(d.labels.size()) != d.rows())
        throw std::invalid_argument(where + ": " + std::to_string(d.labels.size()) + " labels for " +
                                    std::to_string(d.rows()) + " rows");
    for (int l : d.labels)
        if (l < 0 || l >= d.numClasses())
            throw std::invalid_argument(where + ": label index " + std::to_string(l) + " outside [0, " +
                                        std::to_string(d.numClasses()) + ")");
}

/// Rows with side[label] != 0, relabelled 1 (side 1, positive) or 0 (side -1, negative).
Dataset relabelled(const Dataset& d, const std::vector<int>& side, std::vector<std::string> names,
                   const std::string& what) {
    std::vector<int> idx;
    for (int i = 0; i < d.rows(); ++i)
        if (side[static_cast<std::size_t>(d.labels[static_cast<std::size_t>(i)])] != 0) idx.push_back(i);
    Dataset v = d.subset(idx);  // keeps feature names, image shape, importance, name
    for (auto& l : v.labels) l = side[static_cast<std::size_t>(l)] > 0 ? 1 : 0;
    v.classNames = std::move(names);
    v.provenance = d.provenance.empty() ? "task " + what : d.provenance + "; task " + what;
    v.requireNonEmptyClasses("task " + what);
    return v;
}

}  // namespace

std::string TaskSpec::describe() const {
    switch (kind) {
    case Kind::Binary:
        return joined(positive, "+") + " vs " + joined(negative, "+");
    case Kind::OneVsRest:
        return (positive.empty() ? std::string("?") : positive.front()) + " vs rest";
    case Kind::MultiClass:
        break;
    }
    // The spec does not know the dataset, hence no class count here.
    return "all classes";
}

Dataset binaryView(const Dataset& d, const std::vector<std::string>& positive,
                   const std::vector<std::string>& negative) {
    const std::string what = joined(positive, "+") + " vs " + joined(negative, "+");
    // Messages name the task as the user wrote it, not this function (the GUI shows them).
    const std::string where = "task " + what;
    if (positive.empty()) throw std::invalid_argument(where + ": no positive class");
    if (negative.empty()) throw std::invalid_argument(where + ": no negative class");
    checkLabels(d, where);

    std::vector<int> side(static_cast<std::size_t>(d.numClasses()), 0);
    auto mark = [&](const std::vector<std::string>& names, int s) {
        for (const auto& name : names) {
            int& cur = side[static_cast<std::size_t>(classIndex(d, name, where))];
            if (cur == s) throw std::invalid_argument(where + ": class '" + name + "' listed twice");
            if (cur != 0) throw std::invalid_argument(where + ": class '" + name + "' is both positive and negative");
            cur = s;
        }
    };
    mark(positive, 1);
    mark(negative, -1);
    return relabelled(d, side, {joined(negative, "+"), joined(positive, "+")}, what);
}

Dataset oneVsRest(const Dataset& d, const std::string& positive) {
    const std::string what = positive + " vs rest", where = "task " + what;
    checkLabels(d, where);
    std::vector<int> side(static_cast<std::size_t>(d.numClasses()), -1);
    side[static_cast<std::size_t>(classIndex(d, positive, where))] = 1;
    return relabelled(d, side, {"rest", positive}, what);
}

Dataset applyTask(const Dataset& d, const TaskSpec& t) {
    switch (t.kind) {
    case TaskSpec::Kind::Binary:
        return binaryView(d, t.positive, t.negative);
    case TaskSpec::Kind::OneVsRest:
        if (t.positive.size() != 1 || !t.negative.empty())
            throw std::invalid_argument("task: a one-vs-rest task takes exactly one positive class and no "
                                        "negative class (got " + std::to_string(t.positive.size()) + " and " +
                                        std::to_string(t.negative.size()) + ")");
        return oneVsRest(d, t.positive.front());
    case TaskSpec::Kind::MultiClass:
        break;
    }
    return d;
}

}  // namespace fdlab
