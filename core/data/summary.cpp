#include "core/data/summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace fdlab {

DatasetSummary summarize(const Dataset& d, const std::string& format) {
    DatasetSummary s;
    s.name = d.name;
    s.format = format;
    s.provenance = d.provenance;
    s.instances = d.rows();
    s.features = d.features();
    s.classNames = d.classNames;
    s.classCounts = d.classCounts();
    s.imageShape = d.imageShape;
    if (d.X.size() > 0) {
        s.density = static_cast<double>((d.X.array() != 0.0f).count()) / static_cast<double>(d.X.size());
        s.minValue = d.X.minCoeff();
        s.maxValue = d.X.maxCoeff();
    }
    s.totalImportance = d.totalImportance();
    return s;
}

std::string toText(const DatasetSummary& s) {
    std::ostringstream os;
    os << "name:        " << s.name << '\n'
       << "format:      " << s.format << '\n'
       << "instances:   " << s.instances << '\n'
       << "features:    " << s.features << '\n'
       << "classes:     " << s.classNames.size() << " (";
    for (std::size_t c = 0; c < s.classNames.size(); ++c)
        os << (c ? ", " : "") << s.classNames[c] << ": " << s.classCounts[c];
    os << ")\n";
    os << "image shape: ";
    if (s.imageShape) os << s.imageShape->rows << " x " << s.imageShape->cols << '\n';
    else os << "none\n";
    char buf[160];
    std::snprintf(buf, sizeof buf, "values:      [%g, %g], %.1f%% non-zero\n", s.minValue, s.maxValue,
                  100.0 * s.density);
    os << buf;
    std::snprintf(buf, sizeof buf, "importance:  total V = %g\n", s.totalImportance);
    os << buf;
    os << "provenance:  " << s.provenance << '\n';
    return os.str();
}

nlohmann::json toJson(const DatasetSummary& s) {
    nlohmann::json j;
    j["name"] = s.name;
    j["format"] = s.format;
    j["instances"] = s.instances;
    j["features"] = s.features;
    nlohmann::json classes = nlohmann::json::array();
    for (std::size_t c = 0; c < s.classNames.size(); ++c)
        classes.push_back({{"name", s.classNames[c]}, {"count", s.classCounts[c]}});
    j["classes"] = classes;
    j["image_shape"] = s.imageShape ? nlohmann::json::array({s.imageShape->rows, s.imageShape->cols}) : nlohmann::json();
    j["density"] = s.density;
    j["min"] = s.minValue;
    j["max"] = s.maxValue;
    j["total_importance"] = s.totalImportance;
    j["provenance"] = s.provenance;
    return j;
}

}  // namespace fdlab
