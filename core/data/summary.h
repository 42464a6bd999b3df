#pragma once
// A short, printable description of a dataset: what `fdlab-cli info` prints and the GUI's
// dataset panel shows.

#include "core/data/dataset.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace fdlab {

struct DatasetSummary {
    std::string name;
    std::string format;                 ///< "IDX", "CSV", ... or "generator"
    std::string provenance;
    int instances = 0;
    int features = 0;
    std::vector<std::string> classNames;
    std::vector<int> classCounts;
    std::optional<ImageShape> imageShape;
    double density = 0.0;               ///< fraction of non-zero entries
    bool sparse = false;                ///< stored as compressed sparse rows
    double minValue = 0.0, maxValue = 0.0;
    double totalImportance = 0.0;
};

DatasetSummary summarize(const Dataset& d, const std::string& format);

/// Human-readable multi-line text.
std::string toText(const DatasetSummary& s);
nlohmann::json toJson(const DatasetSummary& s);

}  // namespace fdlab
