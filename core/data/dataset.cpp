#include "core/data/dataset.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
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

void Dataset::columnRange(std::vector<float>& lo, std::vector<float>& hi) const {
    const auto n = static_cast<std::size_t>(features());
    lo.assign(n, std::numeric_limits<float>::infinity());
    hi.assign(n, -std::numeric_limits<float>::infinity());
    std::vector<int> stored(n, 0);
    for (int i = 0; i < rows(); ++i) {
        const RowView r = row(i);
        for (int k = 0; k < r.count; ++k) {
            const auto j = static_cast<std::size_t>(r.sparse ? r.indices[k] : k);
            lo[j] = std::min(lo[j], r.values[k]);
            hi[j] = std::max(hi[j], r.values[k]);
            ++stored[j];
        }
    }
    for (std::size_t j = 0; j < n; ++j)
        if (stored[j] < rows()) {   // some row has an implicit zero
            lo[j] = std::min(lo[j], 0.0f);
            hi[j] = std::max(hi[j], 0.0f);
        }
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

std::size_t SparseRows::bytes() const {
    return rowStart.size() * sizeof(std::int64_t) + colIndex.size() * sizeof(std::int32_t) +
           values.size() * sizeof(float);
}

SparseRowsBuilder::SparseRowsBuilder(int cols, std::int64_t reserveNonZeros) {
    if (cols < 0) throw std::invalid_argument("SparseRowsBuilder: negative column count");
    m_s.cols = cols;
    m_s.colIndex.reserve(static_cast<std::size_t>(reserveNonZeros));
    m_s.values.reserve(static_cast<std::size_t>(reserveNonZeros));
}

void SparseRowsBuilder::add(int j, float x) {
    if (j < 0 || j >= m_s.cols)
        throw std::invalid_argument("SparseRowsBuilder: column " + std::to_string(j) + " outside [0, " +
                                    std::to_string(m_s.cols) + ")");
    if (j <= m_last)
        throw std::invalid_argument("SparseRowsBuilder: column " + std::to_string(j) + " after column " +
                                    std::to_string(m_last) + " in the same row");
    m_last = j;
    if (x == 0.0f) return;
    m_s.colIndex.push_back(j);
    m_s.values.push_back(x);
}

void SparseRowsBuilder::endRow() {
    m_s.rowStart.push_back(static_cast<std::int64_t>(m_s.values.size()));
    m_last = -1;
}

SparseRows SparseRowsBuilder::finish() && { return std::move(m_s); }

float RowView::value(int j) const {
    if (!sparse) return values[j];
    const std::int32_t* end = indices + count;
    const std::int32_t* it = std::lower_bound(indices, end, j);
    return it != end && *it == j ? values[it - indices] : 0.0f;
}

void RowView::toDense(std::span<float> out) const {
    if (!sparse) {
        std::copy(values, values + n, out.begin());
        return;
    }
    std::fill(out.begin(), out.end(), 0.0f);
    for (int k = 0; k < count; ++k) out[static_cast<std::size_t>(indices[k])] = values[k];
}

Dataset::Matrix Dataset::denseCopy(const std::string& who) const {
    if (!sparse) return X;
    const std::int64_t total = static_cast<std::int64_t>(rows()) * features();
    if (total > kMaxDensifyValues)
        throw std::invalid_argument(who + " needs dense data, and '" + name + "' is sparse with " +
                                    std::to_string(rows()) + " x " + std::to_string(features()) +
                                    " values, more than the " + std::to_string(kMaxDensifyValues) +
                                    " FDLab densifies; use a linear learner or fewer features");
    Matrix D = Matrix::Zero(rows(), features());
    for (int i = 0; i < rows(); ++i) row(i).toDense({D.row(i).data(), static_cast<std::size_t>(features())});
    return D;
}

const Dataset::Matrix& Dataset::denseOnly(const std::string& who) const {
    if (sparse)
        throw std::invalid_argument(who + " needs dense data, and '" + name + "' is sparse (" +
                                    std::to_string(rows()) + " x " + std::to_string(features()) + ", " +
                                    std::to_string(sparse->nonZeros()) + " non-zeros)");
    return X;
}

namespace {
/// A copy of d's metadata and labels, without the feature values.
Dataset metadataOf(const Dataset& src) {
    Dataset d;
    d.name = src.name;
    d.provenance = src.provenance;
    d.labels = src.labels;
    d.classNames = src.classNames;
    d.featureNames = src.featureNames;
    d.imageShape = src.imageShape;
    d.importance = src.importance;
    d.sourceRows = src.sourceRows;
    d.sourceIds = src.sourceIds;
    d.documents = src.documents;
    return d;
}
}  // namespace

std::string defaultFeatureName(std::size_t j) {
    // Not "f" + to_string(): GCC 12 warns falsely there (-Wrestrict, PR 105329).
    std::string name = std::to_string(j + 1);
    name.insert(name.begin(), 'f');
    return name;
}

std::string Dataset::featureName(int j) const {
    return featureNames.empty() ? defaultFeatureName(static_cast<std::size_t>(j)) : featureNames[static_cast<std::size_t>(j)];
}

std::vector<std::string> Dataset::featureNameList() const {
    if (!featureNames.empty()) return featureNames;
    std::vector<std::string> names(static_cast<std::size_t>(features()));
    for (std::size_t j = 0; j < names.size(); ++j) names[j] = defaultFeatureName(j);
    return names;
}

std::string Dataset::instanceId(int i) const {
    const int r = sourceRow(i);
    if (sourceIds && r >= 0 && static_cast<std::size_t>(r) < sourceIds->size()) return (*sourceIds)[static_cast<std::size_t>(r)];
    return "row " + std::to_string(r + 1);
}

Dataset Dataset::toSparse() const {
    if (sparse) return *this;
    Dataset d = metadataOf(*this);
    SparseRowsBuilder b(features());
    for (int i = 0; i < rows(); ++i) {
        forEachNonZero(i, [&](int j, float x) { b.add(j, x); });
        b.endRow();
    }
    d.sparse = std::move(b).finish();
    return d;
}

Dataset Dataset::toDense(const std::string& who) const {
    if (!sparse) return *this;
    Dataset d = metadataOf(*this);
    d.X = denseCopy(who);
    return d;
}

Dataset Dataset::subset(std::span<const int> idx) const {
    Dataset d;
    d.name = name;
    d.provenance = provenance;
    d.classNames = classNames;
    d.featureNames = featureNames;
    d.imageShape = imageShape;
    d.importance = importance;
    d.sourceIds = sourceIds;
    d.documents = documents;
    d.labels.resize(idx.size());
    d.sourceRows.resize(idx.size());
    for (int i : idx)
        if (i < 0 || i >= rows())
            throw std::out_of_range("Dataset::subset: row " + std::to_string(i) + " out of range [0, " +
                                    std::to_string(rows()) + ")");
    if (sparse) {
        std::int64_t nnz = 0;
        for (int i : idx) nnz += row(i).count;
        SparseRows s;
        s.cols = sparse->cols;
        s.rowStart.reserve(idx.size() + 1);
        s.colIndex.reserve(static_cast<std::size_t>(nnz));
        s.values.reserve(static_cast<std::size_t>(nnz));
        for (int i : idx) {
            const RowView r = row(i);
            s.colIndex.insert(s.colIndex.end(), r.indices, r.indices + r.count);
            s.values.insert(s.values.end(), r.values, r.values + r.count);
            s.rowStart.push_back(static_cast<std::int64_t>(s.values.size()));
        }
        d.sparse = std::move(s);
    } else {
        d.X.resize(static_cast<Eigen::Index>(idx.size()), X.cols());
        for (std::size_t k = 0; k < idx.size(); ++k) d.X.row(static_cast<Eigen::Index>(k)) = X.row(idx[k]);
    }
    for (std::size_t k = 0; k < idx.size(); ++k) {
        d.labels[k] = labels[static_cast<std::size_t>(idx[k])];
        d.sourceRows[k] = sourceRow(idx[k]);
    }
    return d;
}

void Dataset::fillDefaults() {
    const auto n = static_cast<std::size_t>(features());
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
    if (!sourceRows.empty() && sourceRows.size() != m)
        fail(std::to_string(sourceRows.size()) + " source rows for " + std::to_string(m) + " instances");
    if (labels.size() != m)
        fail(std::to_string(labels.size()) + " labels for " + std::to_string(m) + " instances");
    if (!featureNames.empty() && featureNames.size() != n)
        fail(std::to_string(featureNames.size()) + " feature names for " + std::to_string(n) + " features");
    if (importance.size() != n)
        fail(std::to_string(importance.size()) + " importance values for " + std::to_string(n) + " features");
    if (classNames.empty()) fail("no classes");
    for (std::size_t i = 0; i < m; ++i)
        if (labels[i] < 0 || static_cast<std::size_t>(labels[i]) >= classNames.size())
            fail("instance " + std::to_string(i + 1) + " has label index " + std::to_string(labels[i]) +
                 " outside [0, " + std::to_string(classNames.size()) + ")");
    if (sparse) {
        const SparseRows& s = *sparse;
        if (s.rowStart.empty() || s.rowStart.front() != 0 ||
            s.colIndex.size() != static_cast<std::size_t>(s.nonZeros()) || s.values.size() != s.colIndex.size())
            fail("sparse storage: row starts and entries disagree");
        for (int i = 0; i < s.rows(); ++i) {
            const auto b = s.rowStart[static_cast<std::size_t>(i)], e = s.rowStart[static_cast<std::size_t>(i) + 1];
            if (e < b) fail("sparse storage: row " + std::to_string(i + 1) + " ends before it starts");
            for (auto k = b; k < e; ++k) {
                const auto kk = static_cast<std::size_t>(k);
                const int j = s.colIndex[kk];
                if (j < 0 || j >= s.cols || (k > b && j <= s.colIndex[kk - 1]))
                    fail("sparse storage: instance " + std::to_string(i + 1) +
                         " has columns out of range or out of order");
                if (!std::isfinite(s.values[kk]))
                    fail("non-finite value at instance " + std::to_string(i + 1) + ", feature " +
                         featureName(j));
            }
        }
    } else {
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                if (!std::isfinite(X(i, j)))
                    fail("non-finite value at instance " + std::to_string(i + 1) + ", feature " +
                         featureName(static_cast<int>(j)));
    }
    for (std::size_t j = 0; j < n; ++j)
        if (!(importance[j] > 0.0) || !std::isfinite(importance[j]))
            fail("importance of feature " + featureName(static_cast<int>(j)) + " is " + std::to_string(importance[j]) +
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
    if (sparse) {
        // A different stream from the dense one (the layout is part of the fingerprint): hashing
        // m x n zeros of a text corpus would cost seconds.
        const std::int64_t dims[3] = {-1, rows(), features()};
        mix(dims, sizeof dims);
        mix(sparse->rowStart.data(), sparse->rowStart.size() * sizeof(std::int64_t));
        mix(sparse->colIndex.data(), sparse->colIndex.size() * sizeof(std::int32_t));
        mix(sparse->values.data(), sparse->values.size() * sizeof(float));
    } else {
        const std::int64_t dims[2] = {X.rows(), X.cols()};
        mix(dims, sizeof dims);
        mix(X.data(), static_cast<std::size_t>(X.size()) * sizeof(float));
    }
    mix(labels.data(), labels.size() * sizeof(int));
    // Default names hash as if spelled out: a set keeps its fingerprint (and its model files
    // stay valid) whether its names were filled in or left to featureName().
    if (featureNames.empty()) {
        for (std::size_t j = 0; j < static_cast<std::size_t>(features()); ++j) {
            const std::string f = defaultFeatureName(j);
            mix(f.data(), f.size() + 1);
        }
    }
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
