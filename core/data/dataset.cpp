#include "core/data/dataset.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace fdlab {

std::vector<int> Dataset::signedLabels() const {
    std::vector<int> s(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) s[i] = labels[i] == 1 ? 1 : -1;
    return s;
}

int Dataset::nonZeros(int i) const {
    int c = 0;
    forEachNonZero(i, [&](int, float) { ++c; });
    return c;
}

std::vector<int> Dataset::classCounts() const {
    std::vector<int> c(classNames.size(), 0);
    for (int l : labels)
        if (l >= 0 && static_cast<std::size_t>(l) < c.size()) ++c[static_cast<std::size_t>(l)];
    return c;
}

double Dataset::totalImportance() const {
    double s = 0;
    for (double v : importance) s += v;
    return s;
}

Dataset Dataset::subset(std::span<const int> idx) const {
    Dataset d;
    d.name = name;
    d.provenance = provenance;
    d.classNames = classNames;
    d.featureNames = featureNames;
    d.imageShape = imageShape;
    d.importance = importance;
    d.X.resize(static_cast<Eigen::Index>(idx.size()), X.cols());
    d.labels.resize(idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k) {
        const int i = idx[k];
        if (i < 0 || i >= rows())
            throw std::out_of_range("Dataset::subset: row " + std::to_string(i) + " out of range [0, " +
                                    std::to_string(rows()) + ")");
        d.X.row(static_cast<Eigen::Index>(k)) = X.row(i);
        d.labels[k] = labels[static_cast<std::size_t>(i)];
    }
    return d;
}

void Dataset::fillDefaults() {
    const auto n = static_cast<std::size_t>(features());
    if (featureNames.empty()) {
        featureNames.resize(n);
        for (std::size_t j = 0; j < n; ++j) featureNames[j] = "f" + std::to_string(j + 1);
    }
    if (importance.empty()) importance.assign(n, 1.0);
    if (classNames.empty()) {
        int maxLabel = -1;
        for (int l : labels) maxLabel = std::max(maxLabel, l);
        for (int c = 0; c <= maxLabel; ++c) classNames.push_back(std::to_string(c));
    }
}

void Dataset::validate(const std::string& where) const {
    auto fail = [&](const std::string& msg) { throw std::invalid_argument(where + ": " + msg); };
    const auto m = static_cast<std::size_t>(rows());
    const auto n = static_cast<std::size_t>(features());
    if (labels.size() != m)
        fail(std::to_string(labels.size()) + " labels for " + std::to_string(m) + " instances");
    if (featureNames.size() != n)
        fail(std::to_string(featureNames.size()) + " feature names for " + std::to_string(n) + " features");
    if (importance.size() != n)
        fail(std::to_string(importance.size()) + " importance values for " + std::to_string(n) + " features");
    if (classNames.empty()) fail("no classes");
    for (std::size_t i = 0; i < m; ++i)
        if (labels[i] < 0 || static_cast<std::size_t>(labels[i]) >= classNames.size())
            fail("instance " + std::to_string(i + 1) + " has label index " + std::to_string(labels[i]) +
                 " outside [0, " + std::to_string(classNames.size()) + ")");
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            if (!std::isfinite(X(i, j)))
                fail("non-finite value at instance " + std::to_string(i + 1) + ", feature " +
                     featureNames[static_cast<std::size_t>(j)]);
    for (std::size_t j = 0; j < n; ++j)
        if (!(importance[j] > 0.0) || !std::isfinite(importance[j]))
            fail("importance of feature " + featureNames[j] + " is " + std::to_string(importance[j]) +
                 " (must be finite and > 0)");
    if (imageShape && static_cast<std::size_t>(imageShape->size()) != n)
        fail("image shape " + std::to_string(imageShape->rows) + "x" + std::to_string(imageShape->cols) +
             " does not match " + std::to_string(n) + " features");
}

void Dataset::requireNonEmptyClasses(const std::string& where) const {
    const auto counts = classCounts();
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c] == 0)
            throw std::invalid_argument(where + ": class '" + classNames[c] + "' has no instance");
}

std::uint64_t Dataset::fingerprint() const {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](const void* p, std::size_t len) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t k = 0; k < len; ++k) {
            h ^= b[k];
            h *= 1099511628211ULL;
        }
    };
    const std::int64_t dims[2] = {X.rows(), X.cols()};
    mix(dims, sizeof dims);
    mix(X.data(), static_cast<std::size_t>(X.size()) * sizeof(float));
    mix(labels.data(), labels.size() * sizeof(int));
    for (const auto& f : featureNames) mix(f.data(), f.size() + 1);
    return h;
}

std::vector<int> FeatureGroup::members() const {
    if (!features.empty()) return features;
    std::vector<int> out;
    for (int j = begin; j < end; ++j) out.push_back(j);
    return out;
}

std::vector<FeatureGroup> imageRegionGroups(const ImageShape& shape, int regionRows, int regionCols) {
    if (regionRows < 1 || regionCols < 1)
        throw std::invalid_argument("image regions: sizes must be >= 1, got " + std::to_string(regionRows) + " x " +
                                    std::to_string(regionCols));
    if (shape.rows < 1 || shape.cols < 1) throw std::invalid_argument("image regions: the data has no image shape");
    std::vector<FeatureGroup> out;
    for (int r0 = 0; r0 < shape.rows; r0 += regionRows)
        for (int c0 = 0; c0 < shape.cols; c0 += regionCols) {
            const int r1 = std::min(shape.rows, r0 + regionRows), c1 = std::min(shape.cols, c0 + regionCols);
            FeatureGroup g;
            g.name = "rows " + std::to_string(r0) + "-" + std::to_string(r1 - 1) + ", cols " + std::to_string(c0) + "-" +
                     std::to_string(c1 - 1);
            for (int r = r0; r < r1; ++r)
                for (int c = c0; c < c1; ++c) g.features.push_back(r * shape.cols + c);
            out.push_back(std::move(g));
        }
    return out;
}

}  // namespace fdlab
