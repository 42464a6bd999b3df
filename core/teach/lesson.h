#pragma once
// Lessons: short guided tours through FDLab for a classroom, one JSON file each in
// resources/lessons/ (installed to <prefix>/share/fdlab/lessons, found like the presets).
//
// {
//   "schema": 1,
//   "title": "How a linear classifier reads a digit",
//   "summary": "one line for the lesson picker",
//   "steps": [                                     4 to 8 steps
//     {
//       "title": "A score is a sum",
//       "text": "what the student reads (one formula at most)",
//       "try": "what to do in the app now",
//       "experiment": {"preset": "mnist-digit-pairs", "levels": [0, 10], ...},
//       "view": {"budget": 10, "instance": 0, "tab": "heatmaps"},
//       "observation": {...}                       core/teach/observation.h
//     }, ...
//   ]
// }
// "experiment" changes the previous step's experiment (the first step's starts empty): its
// "preset" key, when present, starts again from that preset; every other key is an experiment
// file key (core/eval/experiment_spec.h) and replaces the previous value as a whole (objects
// such as "attack" too). The first step must give a preset or a whole experiment. Steps
// without "experiment" keep the previous step's experiment and its run. "view" sets what the
// views show: budget (the Heatmaps tab's attack level), instance (an index into repetition 0's
// test set) and tab ("curves", "heatmaps", "data", "label-noise"). Every key is checked: an
// unknown key is an error naming the file, the step and the key.

#include "core/eval/experiment_spec.h"
#include "core/teach/observation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace fdlab {

/// What a step sets besides the experiment (empty: leave as is).
struct LessonView {
    std::optional<double> budget;
    std::optional<int> instance;
    std::string tab;   ///< "curves", "heatmaps", "data", "label-noise" or empty
};

struct LessonStep {
    std::string title;
    std::string text;
    std::string tryThis;
    /// The whole experiment in force at this step (the patches up to here applied).
    ExperimentSpec experiment;
    /// True when this step changed the experiment (it needs a run of its own); false: the
    /// previous step's run serves.
    bool newExperiment = false;
    LessonView view;
    ObservationSpec observation;
};

struct Lesson {
    std::string id;      ///< file stem, e.g. "a-linear-classifier"
    std::string path;
    std::string title;
    std::string summary;
    std::vector<LessonStep> steps;
};

/// $FDLAB_LESSONS_DIR if set, else the source tree's resources/lessons for a binary run from
/// its build tree, else <prefix>/share/fdlab/lessons (core/util/install_paths.h).
std::string lessonsDir();

/// Parses a lesson; `source` names it in errors (std::invalid_argument "SOURCE: step 3
/// (\"title\"): ..." naming the key).
Lesson lessonFromJson(const nlohmann::json& j, const std::string& source);
/// Reads a lesson file (DataError for unreadable JSON, with the byte position).
Lesson loadLessonFile(const std::string& path);
/// Every lesson of lessonsDir(), sorted by id. Broken files throw (they are part of the product),
/// unless `broken` is given: then each broken file is left out and reported there as
/// "PATH: what is wrong", so one bad file does not hide the others.
std::vector<Lesson> listLessons(std::vector<std::string>* broken = nullptr);

/// The view instance a step's observation uses: the step's view instance, else the last one
/// set by an earlier step, else 0.
int lessonInstance(const Lesson& lesson, int step);

}  // namespace fdlab
