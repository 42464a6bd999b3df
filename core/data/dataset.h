#pragma once
// The in-memory dataset every part of FDLab works on.
//
// Storage is either dense -- a row-major float matrix X (m instances x n features), the fast
// layout for images -- or sparse -- compressed sparse rows (SparseRows: float values, 32-bit
// column indices, 64-bit row starts), the layout for text with 10^4..10^6 word features. The
// loaders choose per file: LIBSVM, sparse ARFF and text corpora load as CSR; IDX dense; CSV
// dense unless mostly zeros. Labels are class indices into classNames. A two-class dataset is
// "binary": class index 1 is the positive class (y = +1) and class index 0 the negative one
// (y = -1); see y().
//
// Everything on a training, attack or curve path reads rows through the accessors -- row(),
// dot(), forEachNonZero(), value(), nonZeros() -- which work on both layouts and never
// densify a sparse set. The few callers that need a dense matrix (image views, PCA, the
// non-linear learners, kernel SVMs) ask for denseCopy(), which refuses sets above
// kMaxDensifyValues values with a message that says so.

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <span>
#include <string>
#include <vector>

namespace fdlab {

struct TextDocuments;   // core/text/text_documents.h

/// The name of feature j (0-based) when the data names none: "f<j+1>".
std::string defaultFeatureName(std::size_t j);

/// Shape of pixel data: feature j is pixel (j / cols, j % cols).
struct ImageShape {
    int rows = 0;
    int cols = 0;
    /// rows x cols, computed in 64 bits; -1 unless both are >= 1. (As int, (2^30 + 1) x 4 wrapped
    /// to 4 and (-1) x (-4) was 4: both passed as the shape of 4 features.)
    std::int64_t size() const { return rows > 0 && cols > 0 ? std::int64_t{rows} * cols : -1; }
    bool operator==(const ImageShape&) const = default;
};

/// A named group of features, e.g. one encoding of the threshold function or an image region;
/// feature-set corruption acts on whole groups. Consecutive features [begin, end), or an
/// explicit list (image regions are not consecutive in row-major order).
struct FeatureGroup {
    std::string name;
    int begin = 0;
    int end = 0;
    /// When non-empty, the group is exactly these features and begin/end are unused.
    std::vector<int> features = {};

    /// The group's features: `features` when given, else begin, ..., end - 1.
    std::vector<int> members() const;
};

/// The image cut into blocks of regionRows x regionCols pixels, row-major over the blocks
/// (blocks at the right and bottom edges are smaller when the sizes do not divide the image).
/// Names "rows a-b, cols c-d" (0-based, inclusive). Throws std::invalid_argument for sizes < 1.
std::vector<FeatureGroup> imageRegionGroups(const ImageShape& shape, int regionRows, int regionCols);

/// Compressed sparse rows. Row i's entries are [rowStart[i], rowStart[i + 1]) of colIndex and
/// values, with strictly increasing columns and finite, non-zero values (Dataset::validate
/// checks this; SparseRowsBuilder produces it).
struct SparseRows {
    int cols = 0;
    std::vector<std::int64_t> rowStart{0};
    std::vector<std::int32_t> colIndex;
    std::vector<float> values;

    int rows() const { return static_cast<int>(rowStart.size()) - 1; }
    std::int64_t nonZeros() const { return rowStart.back(); }
    /// Bytes held by the three arrays (for memory reports).
    std::size_t bytes() const;
    bool operator==(const SparseRows&) const = default;
};

/// Builds SparseRows one row at a time: add(j, x) in increasing j (zeros are skipped), then
/// endRow(). Throws std::invalid_argument for a column out of [0, cols) or out of order.
class SparseRowsBuilder {
public:
    explicit SparseRowsBuilder(int cols, std::int64_t reserveNonZeros = 0);
    void add(int j, float x);
    void endRow();
    SparseRows finish() &&;

private:
    SparseRows m_s;
    int m_last = -1;
};

/// One instance's features, dense (all n values) or sparse (the stored entries). Cheap to copy;
/// valid while the Dataset it came from lives.
struct RowView {
    const float* values = nullptr;          ///< dense: n values; sparse: `count` values
    const std::int32_t* indices = nullptr;  ///< sparse: `count` increasing columns; dense: null
    int count = 0;                          ///< dense: n; sparse: stored entries
    int n = 0;                              ///< number of features
    /// The layout. Not inferred from `indices`: an empty sparse row may have null pointers.
    bool sparse = false;

    static RowView dense(std::span<const float> x) {
        return {x.data(), nullptr, static_cast<int>(x.size()), static_cast<int>(x.size()), false};
    }
    bool isSparse() const { return sparse; }
    /// Calls f(j, x_j) for each non-zero feature, in increasing j.
    template <class F>
    void forEachNonZero(F&& f) const {
        if (sparse) {
            for (int k = 0; k < count; ++k)
                if (values[k] != 0.0f) f(static_cast<int>(indices[k]), values[k]);
        } else {
            for (int j = 0; j < n; ++j)
                if (values[j] != 0.0f) f(j, values[j]);
        }
    }
    /// x_j (a binary search on sparse rows).
    float value(int j) const;
    /// w . x over the first n entries of w (w may be longer, e.g. carry a bias).
    template <class Vec>
    double dot(const Vec& w) const {
        double s = 0.0;
        forEachNonZero([&](int j, float x) { s += static_cast<double>(x) * w(j); });
        return s;
    }
    /// Writes all n values into out (length n), zeros included.
    void toDense(std::span<float> out) const;
};

class Dataset {
public:
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    /// denseCopy() refuses sets with more values than this (256 MB of floats).
    static constexpr std::int64_t kMaxDensifyValues = std::int64_t{1} << 26;
    /// The largest feature count FDLab loads (2^24), from any file or from Python: every feature
    /// gets per-feature vectors (importance, scaling, weights), so a declared feature count is a
    /// memory request, and a hostile "2147483647:1" or a scipy matrix of shape (2, 2^31 - 1)
    /// must be an error naming it, not a 2^31-element allocation.
    static constexpr std::int64_t kMaxFeatures = std::int64_t{1} << 24;

    std::string name;                        ///< short name, e.g. "mnist" or a file stem
    std::string provenance;                  ///< where the data came from (file, generator+seed)
    Matrix X;                                ///< dense storage: m x n features (0 x 0 when sparse)
    std::optional<SparseRows> sparse;        ///< CSR storage; when set, the set is sparse
    std::vector<int> labels;                 ///< class index of each instance
    std::vector<std::string> classNames;     ///< one name per class
    /// One name per feature, or empty for the default names "f1".."fn" (files without feature
    /// names -- LIBSVM, NumPy without feature_names -- load that way, so that a 20-byte LIBSVM line
    /// declaring feature 2^24 costs no 16.7 million strings). Read names through featureName().
    std::vector<std::string> featureNames;
    std::optional<ImageShape> imageShape;    ///< set for pixel data
    std::vector<double> importance;          ///< v_j > 0, one per feature (default 1)
    /// Where each instance came from, carried through subset(): its 0-based row in the loaded
    /// file (or document index of a text corpus). Empty means "row i is source row i".
    std::vector<int> sourceRows;
    /// Optional instance ids (e.g. message file names), indexed by source row.
    std::shared_ptr<const std::vector<std::string>> sourceIds;
    /// Text corpora: the documents (display text, token positions), indexed by source row.
    std::shared_ptr<const TextDocuments> documents;

    /// The source row of instance i (i itself when sourceRows is empty).
    int sourceRow(int i) const { return sourceRows.empty() ? i : sourceRows[static_cast<std::size_t>(i)]; }
    /// The id of instance i: sourceIds' entry, or "row N" (1-based source row) without ids.
    std::string instanceId(int i) const;

    /// Name of feature j: featureNames[j], or the default "f<j+1>" when featureNames is empty.
    std::string featureName(int j) const;
    /// Every feature's name (the defaults spelled out when featureNames is empty): for the few
    /// callers that need a list, e.g. a file that stores the names.
    std::vector<std::string> featureNameList() const;

    bool isSparse() const { return sparse.has_value(); }
    int rows() const { return sparse ? sparse->rows() : static_cast<int>(X.rows()); }
    int features() const { return sparse ? sparse->cols : static_cast<int>(X.cols()); }
    /// Stored entries: the non-zeros of a sparse set, m x n for a dense one.
    std::int64_t storedValues() const { return sparse ? sparse->nonZeros() : static_cast<std::int64_t>(X.size()); }
    int numClasses() const { return static_cast<int>(classNames.size()); }
    bool isBinary() const { return classNames.size() == 2; }

    /// Signed label of a binary dataset: +1 for class index 1, -1 for class index 0.
    int y(int i) const { return labels[static_cast<std::size_t>(i)] == 1 ? 1 : -1; }
    /// All signed labels (binary datasets).
    std::vector<int> signedLabels() const;

    /// Row i, dense or sparse.
    RowView row(int i) const {
        if (sparse) {
            const auto b = sparse->rowStart[static_cast<std::size_t>(i)];
            const auto e = sparse->rowStart[static_cast<std::size_t>(i) + 1];
            return {sparse->values.data() + b, sparse->colIndex.data() + b, static_cast<int>(e - b), sparse->cols, true};
        }
        return {X.row(i).data(), nullptr, static_cast<int>(X.cols()), static_cast<int>(X.cols()), false};
    }
    float value(int i, int j) const { return sparse ? row(i).value(j) : X(i, j); }
    /// w . x_i (no bias).
    double dot(int i, const Eigen::VectorXd& w) const {
        if (sparse) return row(i).dot(w);
        return X.row(i).cast<double>().dot(w);
    }
    /// Calls f(j, x_ij) for each non-zero feature of row i, in increasing j.
    template <class F>
    void forEachNonZero(int i, F&& f) const {
        row(i).forEachNonZero(std::forward<F>(f));
    }
    int nonZeros(int i) const;

    /// The dense matrix: X itself for a dense set, a densified copy of a sparse one. `who` names
    /// the caller in the error thrown (std::invalid_argument) when a sparse set has more than
    /// kMaxDensifyValues values.
    Matrix denseCopy(const std::string& who) const;
    /// A dense set's storage; for a sparse set throws std::invalid_argument saying that `who`
    /// needs dense data.
    const Matrix& denseOnly(const std::string& who) const;
    /// The same data in the other layout (sparse -> dense within kMaxDensifyValues).
    Dataset toSparse() const;
    Dataset toDense(const std::string& who = "toDense") const;

    /// Per-feature minimum and maximum over all rows (implicit zeros of sparse rows count).
    void columnRange(std::vector<float>& lo, std::vector<float>& hi) const;
    /// Stored values of a sparse set, for in-place maps that keep zeros zero (scalings).
    template <class F>
    void transformStoredValues(F&& f) {
        if (sparse) {
            for (int i = 0; i < sparse->rows(); ++i)
                for (auto k = sparse->rowStart[static_cast<std::size_t>(i)]; k < sparse->rowStart[static_cast<std::size_t>(i) + 1]; ++k)
                    f(i, static_cast<int>(sparse->colIndex[static_cast<std::size_t>(k)]), sparse->values[static_cast<std::size_t>(k)]);
        } else {
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                for (Eigen::Index j = 0; j < X.cols(); ++j) f(static_cast<int>(i), static_cast<int>(j), X(i, j));
        }
    }

    std::vector<int> classCounts() const;
    double totalImportance() const;
    void setUniformImportance() { importance.assign(static_cast<std::size_t>(features()), 1.0); }

    /// Rows idx (in that order), with all metadata. Throws std::out_of_range on a bad index.
    Dataset subset(std::span<const int> idx) const;

    /// Fills defaults (class names, importance 1) where they are empty. Feature names stay empty:
    /// featureName() spells out the defaults.
    void fillDefaults();
    /// Checks every invariant (sizes agree -- featureNames has n names or none -- labels in range, finite values, v_j > 0 and finite,
    /// image shape matches n). Throws std::invalid_argument naming `where` and the problem.
    void validate(const std::string& where = "dataset") const;
    /// Throws std::invalid_argument if some class has no instance.
    void requireNonEmptyClasses(const std::string& where = "dataset") const;

    /// Stable 64-bit FNV-1a fingerprint of the values, labels and feature names (for model
    /// files). The layout is part of it: a sparse set and its dense copy differ.
    std::uint64_t fingerprint() const;
};

}  // namespace fdlab
