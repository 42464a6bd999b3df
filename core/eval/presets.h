#pragma once
// The paper presets: experiment files in resources/presets/*.json, each with a description of
// what the paper reported ("paper" key of the experiment, see experiment_spec.h).

#include "core/eval/experiment_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace fdlab {

struct PresetInfo {
    std::string name;          ///< file stem, e.g. "dekel-shamir-label-copy"
    std::string path;
    std::string title;         ///< the experiment's name
    std::string description;
    std::string group;         ///< the paper it reproduces (presetGroups()), "Other" when none
    std::string summary;       ///< the description's first sentence (one line for menus)
};

/// The papers the presets are grouped by, in menu order; the last is "Other".
const std::vector<std::string>& presetGroups();
/// The group of preset `name` (a file stem), from the table in presets.cpp.
std::string presetGroup(const std::string& name);
/// The first sentence of `description` (up to the first ". " or ": "), at most `maxChars`
/// characters (cut at a word, with "...").
std::string oneLineSummary(const std::string& description, std::size_t maxChars = 110);

/// What `fdlab` opens with: MNIST 3 vs 5, SVM / FDROP / MCF / Dekel-Shamir LP under random
/// deletion of 0..150 pixels, tuned per level, 3 repetitions.
ExperimentSpec defaultExperiment();

/// $FDLAB_PRESETS_DIR if set, else the source tree's resources/presets for a binary run from
/// its build tree, else <prefix>/share/fdlab/presets (core/util/install_paths.h).
std::string presetsDir();
/// Every preset, sorted by name. Broken files throw (they are part of the product).
std::vector<PresetInfo> listPresets();
/// What the CLI and Python say when listPresets() finds none: "no presets in DIR; ...".
std::string noPresetsMessage();
/// Loads a preset by name, or an experiment file by path when `nameOrPath` names a file.
ExperimentSpec loadPresetOrFile(const std::string& nameOrPath);

/// The paper's reference error for a learner id at a level, if the preset has one:
/// spec.paper["curves"][id] = [[level, error], ...] (exact level match).
std::optional<double> paperReference(const ExperimentSpec& spec, const std::string& learnerId, double level);

}  // namespace fdlab
