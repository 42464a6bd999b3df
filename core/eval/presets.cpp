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

std::vector<PresetInfo> listPresets() {
    std::vector<PresetInfo> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(presetsDir(), ec)) {
        if (entry.path().extension() != ".json") continue;
        const ExperimentSpec s = loadExperimentFile(entry.path().string());
        out.push_back({entry.path().stem().string(), entry.path().string(), s.name, s.description});
    }
    std::sort(out.begin(), out.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
    return out;
}

ExperimentSpec loadPresetOrFile(const std::string& nameOrPath) {
    std::error_code ec;
    if (fs::is_regular_file(nameOrPath, ec)) return loadExperimentFile(nameOrPath);
    const fs::path preset = fs::path(presetsDir()) / (nameOrPath + ".json");
    if (fs::is_regular_file(preset, ec)) return loadExperimentFile(preset.string());
    std::string names;
    for (const auto& p : listPresets()) names += (names.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("'" + nameOrPath + "' is neither an experiment file nor a preset (presets: " + names + ")");
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
