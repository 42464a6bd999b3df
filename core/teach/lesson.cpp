#include "core/teach/lesson.h"

#include "core/attacks/threat_registry.h"
#include "core/eval/presets.h"
#include "core/io/json_file.h"
#include "core/util/install_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace fdlab {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The keys an experiment file may have at its top level (core/eval/experiment_spec.h).
const std::set<std::string> kExperimentKeys = {
    "schema", "name", "description", "dataset", "test", "task", "preprocessing", "split", "importance",
    "learners", "attack", "levels", "repetitions", "seed", "threads", "tune_per_level", "paper"};
const std::set<std::string> kTabs = {"curves", "heatmaps", "data", "label-noise"};

std::string joined(const std::set<std::string>& s) {
    std::string out;
    for (const auto& k : s) out += (out.empty() ? "" : ", ") + k;
    return out;
}

void checkKeys(const json& j, const std::set<std::string>& known, const std::string& where) {
    if (!j.is_object()) throw std::invalid_argument(where + ": expected an object");
    for (const auto& [key, v] : j.items()) {
        (void)v;
        if (!known.count(key)) throw std::invalid_argument(where + ": unknown key '" + key + "' (known: " + joined(known) + ")");
    }
}

std::string stringAt(const json& j, const char* key, const std::string& where, bool required) {
    if (!j.contains(key)) {
        if (required) throw std::invalid_argument(where + ": missing key '" + std::string(key) + "'");
        return {};
    }
    if (!j.at(key).is_string() || j.at(key).get<std::string>().empty())
        throw std::invalid_argument(where + ": " + key + ": expected a non-empty string");
    return j.at(key).get<std::string>();
}

// The step's experiment: `previous` with `patch` applied (see lesson.h).
json patchedExperiment(const json& previous, const json& patch, const std::string& where) {
    std::set<std::string> known = kExperimentKeys;
    known.insert("preset");
    checkKeys(patch, known, where);
    json out = previous;
    if (patch.contains("preset")) {
        if (!patch.at("preset").is_string()) throw std::invalid_argument(where + ".preset: expected a preset name");
        const std::string name = patch.at("preset").get<std::string>();
        const fs::path file = fs::path(presetsDir()) / (name + ".json");
        std::error_code ec;
        if (name.find('/') != std::string::npos || !fs::is_regular_file(file, ec)) {
            std::string names;
            for (const auto& p : listPresets()) names += (names.empty() ? "" : ", ") + p.name;
            throw std::invalid_argument(where + ".preset: no preset '" + name + "' (presets: " + names + ")");
        }
        out = readJsonFile(file.string(), "preset");
        out.erase("paper");   // a lesson is not a reproduction: no paper curves on its plots
    }
    for (const auto& [key, v] : patch.items())
        if (key != "preset") out[key] = v;
    return out;
}

LessonView parseView(const json& j, const std::string& where) {
    checkKeys(j, {"budget", "instance", "tab"}, where);
    LessonView v;
    if (j.contains("budget")) {
        if (!j.at("budget").is_number() || !(j.at("budget").get<double>() >= 0))
            throw std::invalid_argument(where + ".budget: expected a number >= 0");
        v.budget = j.at("budget").get<double>();
    }
    if (j.contains("instance")) {
        const json& i = j.at("instance");
        if (!i.is_number_integer() || i.get<long long>() < 0 || i.get<long long>() > 1000000000)
            throw std::invalid_argument(where + ".instance: expected a whole number >= 0");
        v.instance = i.get<int>();
    }
    if (j.contains("tab")) {
        v.tab = stringAt(j, "tab", where, true);
        if (!kTabs.count(v.tab)) throw std::invalid_argument(where + ".tab: unknown tab '" + v.tab + "' (known: " + joined(kTabs) + ")");
    }
    return v;
}

}  // namespace

std::string lessonsDir() {
    if (const char* env = std::getenv("FDLAB_LESSONS_DIR"); env && *env) return env;
    return sharedFilesDir(SharedFiles::Lessons).string();
}

Lesson lessonFromJson(const json& j, const std::string& source) {
    checkKeys(j, {"schema", "title", "summary", "steps"}, source);
    if (j.contains("schema") && j.at("schema") != 1)
        throw std::invalid_argument(source + ": schema: only schema 1 is known");
    Lesson lesson;
    lesson.title = stringAt(j, "title", source, true);
    lesson.summary = stringAt(j, "summary", source, true);
    if (!j.contains("steps") || !j.at("steps").is_array())
        throw std::invalid_argument(source + ": missing key 'steps' (an array of 4 to 8 steps)");
    const json& steps = j.at("steps");
    if (steps.size() < 4 || steps.size() > 8)
        throw std::invalid_argument(source + ": steps: a lesson has 4 to 8 steps, this one " + std::to_string(steps.size()));
    json experiment;   // null until the first step sets one
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const json& s = steps[i];
        std::string where = source + ": step " + std::to_string(i + 1);
        if (s.is_object() && s.contains("title") && s.at("title").is_string())
            where += " (\"" + s.at("title").get<std::string>() + "\")";
        checkKeys(s, {"title", "text", "try", "experiment", "view", "observation"}, where);
        LessonStep step;
        step.title = stringAt(s, "title", where, true);
        step.text = stringAt(s, "text", where, true);
        step.tryThis = stringAt(s, "try", where, true);
        if (s.contains("experiment")) {
            experiment = patchedExperiment(experiment.is_null() ? json::object() : experiment, s.at("experiment"), where + ": experiment");
            step.newExperiment = true;
        } else if (experiment.is_null()) {
            throw std::invalid_argument(where + ": the first step needs an 'experiment' (a preset or a whole experiment)");
        }
        try {
            step.experiment = experimentFromJson(experiment, lessonsDir());
            step.experiment.validate();
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(where + ": experiment: " + e.what());
        }
        if (s.contains("view")) step.view = parseView(s.at("view"), where + ": view");
        if (!s.contains("observation")) throw std::invalid_argument(where + ": missing key 'observation'");
        std::vector<std::string> ids;
        for (const LearnerSpec& l : step.experiment.learners) ids.push_back(l.id);
        step.observation = parseObservation(s.at("observation"), where + ": observation", ids);
        for (const QuantitySpec& q : step.observation.values)
            if (q.kind == "error" || q.kind == "lost") {
                const auto& lv = step.experiment.levels;
                if (std::none_of(lv.begin(), lv.end(), [&](double l) { return std::abs(l - q.level) < 1e-9; }))
                    throw std::invalid_argument(where + ": observation.values." + q.name + ".level: " +
                                                levelText(q.level) + " is not one of the experiment's levels");
            }
        lesson.steps.push_back(std::move(step));
    }
    return lesson;
}

Lesson loadLessonFile(const std::string& path) {
    Lesson l = lessonFromJson(readJsonFile(path, "lesson file"), path);
    l.id = fs::path(path).stem().string();
    l.path = path;
    return l;
}

std::vector<Lesson> listLessons(std::vector<std::string>* broken) {
    std::vector<Lesson> out;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(lessonsDir(), ec))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        if (!broken) {
            out.push_back(loadLessonFile(file.string()));
            continue;
        }
        try {
            out.push_back(loadLessonFile(file.string()));
        } catch (const std::exception& e) {
            // Messages already name the file (and the step and key) except a few from below.
            const std::string what = e.what();
            broken->push_back(what.rfind(file.string(), 0) == 0 ? what : file.string() + ": " + what);
        }
    }
    std::sort(out.begin(), out.end(), [](const Lesson& a, const Lesson& b) { return a.id < b.id; });
    return out;
}

int lessonInstance(const Lesson& lesson, int step) {
    for (int s = std::min<int>(step, static_cast<int>(lesson.steps.size()) - 1); s >= 0; --s)
        if (lesson.steps[static_cast<std::size_t>(s)].view.instance) return *lesson.steps[static_cast<std::size_t>(s)].view.instance;
    return 0;
}

}  // namespace fdlab
