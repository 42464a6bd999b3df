#include "core/data/summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
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
    if (d.rows() > 0 && d.features() > 0) {
        std::int64_t nonZeros = 0;
        for (int i = 0; i < d.rows(); ++i) nonZeros += d.nonZeros(i);
        s.density = static_cast<double>(nonZeros) / (static_cast<double>(d.rows()) * d.features());
        // Over the non-zeros, and 0 when some value is zero: no per-feature vectors (a LIBSVM file
        // naming feature 2^24 would make two of 64 MB each).
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
        for (int i = 0; i < d.rows(); ++i)
            d.forEachNonZero(i, [&](int, float x) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            });
        if (static_cast<double>(nonZeros) < static_cast<double>(d.rows()) * d.features()) {
            lo = std::min(lo, 0.0f);
            hi = std::max(hi, 0.0f);
        }
        s.minValue = lo;
        s.maxValue = hi;
    }
    s.sparse = d.isSparse();
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
    std::snprintf(buf, sizeof buf, "values:      [%g, %g], %.1f%% non-zero, stored %s\n", s.minValue, s.maxValue,
                  100.0 * s.density, s.sparse ? "sparse (CSR)" : "dense");
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
    j["storage"] = s.sparse ? "sparse" : "dense";
    j["min"] = s.minValue;
    j["max"] = s.maxValue;
    j["total_importance"] = s.totalImportance;
    j["provenance"] = s.provenance;
    return j;
}

}  // namespace fdlab
