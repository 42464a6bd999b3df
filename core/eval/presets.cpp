#include "core/eval/presets.h"

#include "core/util/install_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace fdlab {

namespace fs = std::filesystem;

std::string presetsDir() {
    if (const char* env = std::getenv("FDLAB_PRESETS_DIR"); env && *env) return env;
    return sharedFilesDir(SharedFiles::Presets).string();
}

const std::vector<std::string>& presetGroups() {
    static const std::vector<std::string> groups = {"Dekel & Shamir",
                                                    "Globerson & Roweis",
                                                    "van der Maaten et al. (MCF)",
                                                    "Biggio et al.",
                                                    "Sullivan et al. (FeatureBoost)",
                                                    "Other"};
    return groups;
}

std::string presetGroup(const std::string& name) {
    // The paper each preset reproduces: its protocol, data and learners come from there.
    static const std::vector<std::pair<std::string, std::size_t>> table = {
        {"dekel-shamir-", 0}, {"spambase-greedy-", 0}, {"spam-dekel-shamir-", 0},
        {"globerson-", 1},    {"mnist-digit-pairs", 1}, {"spam-fdrop-", 1}, {"spam-random-deletion", 1},
        {"mcf-", 2},
        {"biggio-", 3},       {"breastcancer-", 3}, {"ionosphere-", 3}, {"pima-", 3}, {"sonar-", 3},
        {"featureboost-", 4}};
    for (const auto& [prefix, group] : table)
        if (name.rfind(prefix, 0) == 0) return presetGroups()[group];
    return presetGroups().back();
}

std::string oneLineSummary(const std::string& description, std::size_t maxChars) {
    std::size_t end = description.size();
    for (const char* stop : {". ", ": ", "; "}) end = std::min(end, description.find(stop));
    std::string s = description.substr(0, end);
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (s.size() > maxChars) {
        std::size_t cut = s.rfind(' ', maxChars - 3);
        if (cut == std::string::npos || cut == 0) cut = maxChars - 3;
        s = s.substr(0, cut) + "...";
    }
    return s;
}

ExperimentSpec defaultExperiment() {
    ExperimentSpec s;
    s.name = "MNIST 3 vs 5 under random pixel deletion";
    s.description = "The default experiment: SVM, FDROP, MCF (logistic, blankout q = 0.5) and the Dekel-Shamir LP "
                    "on 50 training digits per class, 0..150 pixels deleted at random from each test digit.";
    s.dataset.bundled = "mnist";
    s.task.kind = TaskSpec::Kind::Binary;
    s.task.positive = {"3"};
    s.task.negative = {"5"};
    s.preprocessing = Scaling::None;
    s.split.kind = SplitSpec::Kind::Counts;
    s.split.perClassTrain = 50;
    s.split.perClassValidation = 100;
    s.split.perClassTest = 150;
    LearnerSpec svm{"SVM", "svm", nlohmann::json::object(), {}};
    LearnerSpec fdrop{"FDROP", "fdrop", nlohmann::json::object(), {{"K", {0, 10, 25, 50}}}};
    LearnerSpec mcf{"MCF logistic", "mcf", {{"loss", "logistic"}, {"noise", "blankout"}, {"q", 0.5}}, {}};
    LearnerSpec lp{"Dekel-Shamir LP", "ds-lp", {{"N", 20}, {"gamma", 0.1}}, {}};
    s.learners = {svm, fdrop, mcf, lp};
    s.attack.threat = "random-deletion";
    for (int k = 0; k <= 150; k += 10) s.levels.push_back(k);
    s.tunePerLevel = true;
    s.repetitions = 3;
    s.seed = 1;
    return s;
}

std::vector<PresetInfo> listPresets() {
    std::vector<PresetInfo> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(presetsDir(), ec)) {
        if (entry.path().extension() != ".json") continue;
        const ExperimentSpec s = loadExperimentFile(entry.path().string());
        const std::string name = entry.path().stem().string();
        out.push_back({name, entry.path().string(), s.name, s.description, presetGroup(name), oneLineSummary(s.description)});
    }
    std::sort(out.begin(), out.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
    return out;
}

std::string noPresetsMessage() {
    // Set to an empty folder, "FDLAB_PRESETS_DIR names another folder" read as if it were unset.
    const char* env = std::getenv("FDLAB_PRESETS_DIR");
    if (env && *env) return "no presets in " + presetsDir() + " (the folder FDLAB_PRESETS_DIR names)";
    return "no presets in " + presetsDir() + "; set FDLAB_PRESETS_DIR to the folder that holds them";
}

ExperimentSpec loadPresetOrFile(const std::string& nameOrPath) {
    std::error_code ec;
    if (fs::is_regular_file(nameOrPath, ec)) return loadExperimentFile(nameOrPath);
    const fs::path preset = fs::path(presetsDir()) / (nameOrPath + ".json");
    if (fs::is_regular_file(preset, ec)) return loadExperimentFile(preset.string());
    std::string names;
    for (const auto& p : listPresets()) names += (names.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("'" + nameOrPath + "' is neither an experiment file nor a preset (" +
                                (names.empty() ? noPresetsMessage() : "presets in " + presetsDir() + ": " + names) +
                                ")");
}

std::optional<double> paperReference(const ExperimentSpec& spec, const std::string& learnerId, double level) {
    if (!spec.paper.is_object() || !spec.paper.contains("curves")) return std::nullopt;
    const auto& curves = spec.paper.at("curves");
    if (!curves.contains(learnerId)) return std::nullopt;
    for (const auto& pt : curves.at(learnerId))
        if (pt.is_array() && pt.size() >= 2 && pt[0].is_number() && pt[1].is_number() &&
            std::abs(pt[0].get<double>() - level) < 1e-9)
            return pt[1].get<double>();
    return std::nullopt;
}

}  // namespace fdlab
