#pragma once
// The in-memory dataset every part of FDLab works on.
//
// Storage is a dense, row-major float matrix X (m instances x n features). Labels are class
// indices into classNames. A two-class dataset is "binary": class index 1 is the positive class
// (y = +1) and class index 0 the negative one (y = -1); see y().
//
// Sparse data (text with 1e5+ features). LIBSVM files load into this dense storage today. The
// callers that must scale to sparse data (learners, attacks) only touch X through the row
// accessors below -- dot(), forEachNonZero(), value(), nonZeros() -- never through X's memory
// layout. A sparse build replaces `X` by an Eigen::SparseMatrix<float, Eigen::RowMajor> (CSR)
// behind the same accessors: dot() becomes a loop over the row's stored entries,
// forEachNonZero() walks the InnerIterator, and the dense matrix is only materialised on
// request by the few callers that want pixels (image views), which already check imageShape.
// The loaders produce (row, col, value) triplets, so only Dataset's constructor changes.

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fdlab {

/// Shape of pixel data: feature j is pixel (j / cols, j % cols).
struct ImageShape {
    int rows = 0;
    int cols = 0;
    int size() const { return rows * cols; }
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

class Dataset {
public:
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

    std::string name;                        ///< short name, e.g. "mnist" or a file stem
    std::string provenance;                  ///< where the data came from (file, generator+seed)
    Matrix X;                                ///< m x n features
    std::vector<int> labels;                 ///< class index of each instance
    std::vector<std::string> classNames;     ///< one name per class
    std::vector<std::string> featureNames;   ///< one name per feature
    std::optional<ImageShape> imageShape;    ///< set for pixel data
    std::vector<double> importance;          ///< v_j > 0, one per feature (default 1)

    int rows() const { return static_cast<int>(X.rows()); }
    int features() const { return static_cast<int>(X.cols()); }
    int numClasses() const { return static_cast<int>(classNames.size()); }
    bool isBinary() const { return classNames.size() == 2; }

    /// Signed label of a binary dataset: +1 for class index 1, -1 for class index 0.
    int y(int i) const { return labels[static_cast<std::size_t>(i)] == 1 ? 1 : -1; }
    /// All signed labels (binary datasets).
    std::vector<int> signedLabels() const;

    float value(int i, int j) const { return X(i, j); }
    /// w . x_i (no bias).
    double dot(int i, const Eigen::VectorXd& w) const {
        return X.row(i).cast<double>().dot(w);
    }
    /// Calls f(j, x_ij) for each non-zero feature of row i, in increasing j.
    template <class F>
    void forEachNonZero(int i, F&& f) const {
        const float* r = X.row(i).data();
        for (int j = 0, n = features(); j < n; ++j)
            if (r[j] != 0.0f) f(j, r[j]);
    }
    int nonZeros(int i) const;

    std::vector<int> classCounts() const;
    double totalImportance() const;
    void setUniformImportance() { importance.assign(static_cast<std::size_t>(features()), 1.0); }

    /// Rows idx (in that order), with all metadata. Throws std::out_of_range on a bad index.
    Dataset subset(std::span<const int> idx) const;

    /// Fills defaults (feature names "f1".., class names, importance 1) where they are empty.
    void fillDefaults();
    /// Checks every invariant (sizes agree, labels in range, finite values, v_j > 0 and finite,
    /// image shape matches n). Throws std::invalid_argument naming `where` and the problem.
    void validate(const std::string& where = "dataset") const;
    /// Throws std::invalid_argument if some class has no instance.
    void requireNonEmptyClasses(const std::string& where = "dataset") const;

    /// Stable 64-bit FNV-1a fingerprint of X, labels and feature names (for model files).
    std::uint64_t fingerprint() const;
};

}  // namespace fdlab
