#include "core/eval/provenance.h"

#include "core/util/install_paths.h"

#include <unistd.h>

#include <climits>
#include <fstream>

namespace fdlab {

std::string hostName() {
    char buf[HOST_NAME_MAX + 1] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "unknown";
    return buf;
}

std::string cpuModel() {
    // Linux: the first "model name" of /proc/cpuinfo (x86), else "Model"/"Hardware" (ARM).
    std::ifstream in("/proc/cpuinfo");
    std::string line, fallback;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(value.begin());
        if (value.empty()) continue;
        if (key == "model name") return value;
        if ((key == "Model" || key == "Hardware") && fallback.empty()) fallback = value;
    }
    return fallback.empty() ? "unknown" : fallback;
}

nlohmann::json makeProvenance(const ExperimentSpec& spec, int threads, const std::string& dataFingerprint) {
    nlohmann::json p = {{"fdlab", versionString()}, {"seed", spec.seed}, {"threads", threads},
                        {"host", hostName()}, {"cpu", cpuModel()}};
    if (!dataFingerprint.empty()) p["data_fingerprint"] = dataFingerprint;
    p["spec"] = toJson(spec);
    return p;
}

std::vector<std::string> provenanceLines(const nlohmann::json& provenance) {
    std::vector<std::string> lines;
    if (!provenance.is_object()) return lines;
    for (const char* key : {"fdlab", "seed", "data_fingerprint", "threads", "host", "cpu", "spec"}) {
        if (!provenance.contains(key)) continue;
        const auto& v = provenance.at(key);
        // dump() escapes control characters, so every value stays on one line.
        lines.push_back(std::string(key) + ": " + (v.is_string() ? v.get<std::string>() : v.dump()));
        for (char& c : lines.back())
            if (c == '\n' || c == '\r') c = ' ';
    }
    return lines;
}

}  // namespace fdlab
