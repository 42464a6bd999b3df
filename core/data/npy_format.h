#pragma once
// numpy's .npy and .npz files (numpy/lib/format.py, "NEP 1 -- A simple file format for NumPy
// arrays"; scipy.sparse.save_npz for sparse matrices).
//
// .npy: "\x93NUMPY", version 1.x/2.x/3.x, a little-endian header length (2 bytes in 1.x, 4 in
// 2.x/3.x), then a Python dict literal {'descr': '<f8', 'fortran_order': False, 'shape': (m, n)}
// and the raw array. Accepted dtypes: bool (|b1), signed and unsigned integers of 1..8 bytes,
// float32/float64 ('f4', 'f8'), either byte order ('<', '>', '|', '='); for labels also
// fixed-width strings ('U' UTF-32 and 'S' bytes). C and Fortran order. Object arrays, structured
// dtypes and complex numbers are refused. The header's shape is checked against the bytes that
// follow it before anything is allocated.
//
// A dataset is:
//   * X.npy (m x n, or m x rows x cols for images, which sets imageShape) with the labels in a
//     separate .npy (length m, or m x 1): LoadOptions::idxLabels (the CLI's --labels), else the
//     file next to X whose name has the token "X"/"x" replaced by "y" (tokens separated by '_',
//     '-' or '.'): X.npy -> y.npy, X_train.npy -> y_train.npy, mnist-x.npy -> mnist-y.npy.
//   * a dense .npz from np.savez(FILE, X=X, y=y) (or np.savez(FILE, X, y): arr_0, arr_1);
//   * a sparse .npz from scipy.sparse.save_npz(FILE, M) (csr, csc or coo; duplicates summed as
//     scipy does). save_npz cannot store labels, so they travel in one of two ways: a member 'y'
//     in the same archive (what `fdlab-cli convert --to npz` writes; scipy.sparse.load_npz
//     ignores it), else the separate labels .npy found as for X.npy above. A sparse file loads
//     sparse whatever its density (LoadOptions::storage Dense alone densifies it).
// An optional member 'feature_names' (strings, length n) names the features.
//
// Labels: integers, booleans, integral floats or strings; class names ordered as the CSV loader
// orders them (numerically when all are numbers).
//
// Internal helpers; the public API is loadNpy / saveNpz in core/data/loaders.h.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab::detail {

/// A parsed .npy array: a view of its payload (into the buffer passed to parseNpy).
struct NpyArray {
    char kind = 'f';            ///< 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'U' UTF-32, 'S' bytes
    int itemSize = 8;           ///< bytes per element
    bool bigEndian = false;
    bool fortranOrder = false;
    std::vector<std::uint64_t> shape;
    std::string_view data;
    std::string descr;          ///< as written in the header, for messages

    std::uint64_t count() const;
    /// Element k (in storage order) as a double; kind must be b, i, u or f.
    double number(std::uint64_t k) const;
    /// True for bool and integer arrays ('b', 'i', 'u'), whose elements integerText reads exactly.
    bool integral() const { return kind == 'b' || kind == 'i' || kind == 'u'; }
    /// Element k of an integral array in decimal, exactly (int64 and uint64 beyond 2^53 too).
    std::string integerText(std::uint64_t k) const;
    /// Element k of an integral array when it is in [0, 2^64): false for a negative value.
    bool unsignedValue(std::uint64_t k, std::uint64_t& v) const;
    /// Element k of a 'U' or 'S' array as UTF-8, trailing NULs removed.
    std::string text(std::uint64_t k) const;
};

/// Parses a .npy buffer. `what` names the array in messages (e.g. "X.npy in d.npz").
NpyArray parseNpy(std::string_view bytes, const std::string& path);

/// Serialises a C-order array: descr ('<f4', '<i8', '<U7', '|S3', ...), shape, payload.
std::string makeNpy(const std::string& descr, const std::vector<std::uint64_t>& shape, std::string_view payload);

/// The labels file next to an X file (see above), or "" when the name has no "X"/"x" token.
std::string deriveNpyLabelsPath(const std::string& xPath);

}  // namespace fdlab::detail
