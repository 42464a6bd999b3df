// The `fdlab` Python module: a third front end (beside the GUI and the CLI) over fdlab_core.
//
// Data crossing the boundary:
//  - In: numpy 2-D arrays (any real dtype, C or Fortran order) and scipy.sparse matrices (CSR;
//    other formats are converted with .tocsr()), checked by one function (readFeatures) for
//    every entry point: shape, dtype, finite values, CSR structure and column indices, and the
//    model's feature count. Training, attacks and curves need a Dataset,
//    which owns its storage (a row-major float Eigen matrix or CSR vectors), so those calls
//    always copy the features once into it. decision_function/predict on a C-contiguous float32
//    array or on a CSR matrix with float32 data and int32 indices read the caller's memory
//    directly (no copy). fdlab.last_copy_info() says what the last call did.
//  - Labels: a model trained here keeps its labels' values (Model.classes, dtype of y), so
//    predict() answers in the labels' own type (ints stay ints).
//  - Out: dense results are numpy arrays that own the moved C++ storage (no copy); sparse
//    results are scipy.sparse.csr_matrix built from numpy arrays holding the CSR vectors.
//
// Errors: std::invalid_argument -> ValueError (same message as the CLI prints),
// fdlab::DataError -> fdlab.DataError (attributes `file` and `line`).

#include "core/attacks/attack.h"
#include "core/attacks/threat_registry.h"
#include "core/data/bundled.h"
#include "core/data/dataset.h"
#include "core/data/loaders.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/level_evaluation.h"
#include "core/eval/metrics.h"
#include "core/eval/presets.h"
#include "core/eval/multi_task.h"
#include "core/eval/results_io.h"
#include "core/io/json_file.h"
#include "core/io/kernel_svm_file.h"
#include "core/io/model_file.h"
#include "core/io/model_json.h"
#include "core/learners/kernel_svm.h"
#include "core/learners/nonlinear/classifier.h"
#include "core/learners/nonlinear/model_io.h"
#include "core/learners/registry.h"
#include "core/text/charset.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/param_check.h"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace py = pybind11;
using nlohmann::json;

namespace fdlab::python {

namespace {

// ---- copy bookkeeping ----------------------------------------------------------------------

struct CopyInfo {
    bool copied = false;
    std::string what;   ///< e.g. "float64 C-order 100x784 -> float32 Dataset storage"
};
thread_local CopyInfo g_lastCopy;

void noteCopy(bool copied, std::string what) { g_lastCopy = {copied, std::move(what)}; }

// ---- arguments: one-line TypeErrors naming the argument -------------------------------------

std::string typeText(const py::handle& o) { return py::str(py::type::handle_of(o).attr("__name__")).cast<std::string>(); }

/// o as a T, or TypeError naming the argument (pybind's own cast error is a bare RuntimeError).
/// numpy scalars convert like the Python numbers they hold (np.int64(3) as an int).
template <class T>
T castArg(const py::handle& o, const char* name, const char* expected) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // pybind11 would take 2.0 as 2 for an int: only whole-number types are accepted.
        if (py::isinstance<py::float_>(o) || py::isinstance<py::str>(o) || !py::hasattr(o, "__index__"))
            throw py::type_error(std::string(name) + ": expected " + expected + ", got " + typeText(o));
    }
    if constexpr (std::is_same_v<T, std::string>) {
        if (!py::isinstance<py::str>(o)) throw py::type_error(std::string(name) + ": expected " + expected + ", got " + typeText(o));
    }
    try {
        return o.cast<T>();
    } catch (const py::cast_error&) {
        // An int that does not fit (2**40 repetitions, -1 for an unsigned seed) said "expected an
        // int, got int": name the value and the range instead.
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            if (py::isinstance<py::int_>(o) || py::hasattr(o, "__index__"))
                throw py::value_error(std::string(name) + ": " + py::repr(o).cast<std::string>() + " is out of range (" +
                                      expected + " from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
                                      std::to_string(std::numeric_limits<T>::max()) + ")");
        // A str with a lone surrogate ("svm\udcff") said "expected a learner name (str), got str".
        if constexpr (std::is_same_v<T, std::string>)
            throw py::value_error(std::string(name) + ": " + py::repr(o).cast<std::string>() +
                                  " is not UTF-8 text (it holds a lone surrogate)");
        throw py::type_error(std::string(name) + ": expected " + expected + ", got " + typeText(o));
    }
}

/// A path argument: a str, bytes or any os.PathLike (pathlib.Path), as the file system's bytes
/// (os.fsencode: a name os.listdir returned with undecodable bytes, as lone surrogates, is the
/// file's own name; it raised "Unable to cast Python instance to C++ type").
std::string pathArg(const py::handle& o, const char* name) {
    const py::module_ os = py::module_::import("os");
    if (!py::isinstance<py::str>(o) && !py::isinstance<py::bytes>(o) && !py::hasattr(o, "__fspath__"))
        throw py::type_error(std::string(name) + ": expected a path (str, bytes or pathlib.Path), got " + typeText(o));
    std::string path = os.attr("fsencode")(os.attr("fspath")(o)).cast<std::string>();
    // "victim.json\0.bak" replaced victim.json (the C library stops at the NUL); open() refuses it.
    if (path.find('\0') != std::string::npos) throw py::value_error(std::string(name) + ": embedded null byte in the path");
    return path;
}

/// Raises the OSError subclass `type` for `path` (file system bytes, shown as os.fsdecode does).
[[noreturn]] void raiseOsError(const char* type, int errnum, const std::string& what, const std::string& path) {
    const py::object name = py::module_::import("os").attr("fsdecode")(py::bytes(path));
    const py::object text = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "surrogateescape"));
    py::object exc = py::module_::import("builtins").attr(type)(errnum, text, name);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
    throw py::error_already_set();
}

/// A path to read: FileNotFoundError (an OSError) when nothing is there.
std::string inputPath(const py::handle& o, const char* name) {
    std::string path = pathArg(o, name);
    if (!py::module_::import("os.path").attr("exists")(py::bytes(path)).cast<bool>()) raiseOsError("FileNotFoundError", ENOENT, "No such file or directory", path);
    return path;
}

/// A path to write: ValueError when empty, FileNotFoundError when its directory does not exist.
std::string outputPath(const py::handle& o, const char* name) {
    std::string path = pathArg(o, name);
    // "" said ": cannot replace file: No such file or directory", naming nothing.
    if (path.empty()) throw py::value_error(std::string(name) + ": empty output path (give the name of the file to write)");
    if (path.find_first_not_of(" \t\r\n") == std::string::npos)
        throw py::value_error(std::string(name) + ": the output path " + py::repr(py::str(path)).cast<std::string>() +
                              " is only blanks");
    const py::module_ osPath = py::module_::import("os.path");
    const py::bytes p(path);
    // "." or "d/" raised a bare RuntimeError(".: is a directory") from the writer.
    if (osPath.attr("isdir")(p).cast<bool>())   // also through a symbolic link
        raiseOsError("IsADirectoryError", EISDIR, "Is a directory", path);
    const std::string dir = osPath.attr("dirname")(osPath.attr("abspath")(p)).cast<std::string>();
    if (!osPath.attr("isdir")(py::bytes(dir)).cast<bool>()) raiseOsError("FileNotFoundError", ENOENT, "No such directory: " + dir, path);
    return path;
}

// ---- JSON <-> Python (through the json module: exact for doubles, simple) -------------------

/// A dict of parameter values as JSON; numpy scalars and arrays convert like the numbers and
/// lists they hold (params={"K": np.int64(3)} in a loop over np.arange). Errors name `name`.
json toJson(const py::handle& obj, const char* name) {
    if (obj.is_none()) return json::object();
    if (!py::isinstance<py::dict>(obj))
        throw py::type_error(std::string(name) + ": expected a dict of parameter values, got " + typeText(obj));
    const py::cpp_function numpyValues([name](const py::handle& o) -> py::object {
        const py::module_ np = py::module_::import("numpy");
        if (py::isinstance(o, np.attr("generic")) || py::isinstance(o, np.attr("ndarray"))) return o.attr("tolist")();
        throw py::type_error(std::string(name) + ": a value of type " + typeText(o) + " is not a number, bool, str, list or dict");
    });
    std::string text;
    try {
        text = py::module_::import("json").attr("dumps")(obj, py::arg("default") = numpyValues, py::arg("allow_nan") = false).cast<std::string>();
    } catch (py::error_already_set& e) {
        if (e.matches(PyExc_ValueError)) throw std::invalid_argument(std::string(name) + ": NaN and infinity are not parameter values");
        const std::string what = py::str(e.value()).cast<std::string>();
        throw py::type_error(what.rfind(name, 0) == 0 ? what : std::string(name) + ": " + what);
    }
    return json::parse(text);
}

py::object fromJson(const json& j) {
    return py::module_::import("json").attr("loads")(j.dump());
}

// ---- features in: one checked path for every entry point ------------------------------------

bool isScipySparse(const py::handle& X) { return py::hasattr(X, "tocsr") && py::hasattr(X, "nnz"); }

std::string shapeText(py::ssize_t m, py::ssize_t n) { return std::to_string(m) + "x" + std::to_string(n); }

std::string dtypeText(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

/// The features X of any entry point (train, decision_function, predict, attack, curve and its
/// donors), checked once here so that none of them reads memory a bad input points at:
/// a 2-D array of numbers (bool/int/float, or an object array numpy converts to float32) or a
/// scipy.sparse matrix whose CSR form is consistent (indptr of m + 1 non-decreasing entries from
/// 0, every column index in [0, n)); every value finite as float32; n equal to the model's
/// feature count when there is a model. Unsorted or repeated CSR column indices are sorted and
/// summed (scipy's meaning). Wrong types raise TypeError, wrong shapes or values ValueError.
/// Rows are read through row(i): in place when X already has FDLab's layout (float32 C-order;
/// CSR with float32 data and sorted int32 indices), else from converted copies held here.
struct Features {
    int rows = 0, cols = 0;
    bool sparse = false;
    bool copied = false;     ///< for last_copy_info()
    std::string what;
    py::array_t<float> dense;                ///< dense: float32 C-order (X itself or a converted copy)
    std::vector<std::int64_t> rowStart;      ///< sparse: m + 1 entries
    const std::int32_t* colIndex = nullptr;  ///< sparse: into X's indices or ownIndex
    const float* values = nullptr;           ///< sparse: into X's data or ownValues
    std::vector<std::int32_t> ownIndex;
    std::vector<float> ownValues;
    py::object keepIndex, keepValues;        ///< the arrays colIndex/values point into

    /// Stored entries: the CSR entries, or m x n dense values.
    std::int64_t storedValues() const { return sparse ? rowStart.back() : std::int64_t(rows) * cols; }
    RowView row(int i) const {
        if (!sparse) return RowView::dense({dense.data() + std::size_t(i) * std::size_t(cols), std::size_t(cols)});
        const auto b = rowStart[std::size_t(i)], e = rowStart[std::size_t(i) + 1];
        return {values + b, colIndex + b, static_cast<int>(e - b), cols, true};
    }
};

void checkSize(py::ssize_t m, py::ssize_t n, std::optional<int> expectedCols) {
    if (m > std::numeric_limits<int>::max() || n > std::numeric_limits<int>::max())
        throw std::invalid_argument("X: " + shapeText(m, n) + " has too many rows or columns for FDLab (at most 2^31 - 1)");
    if (n == 0) throw std::invalid_argument("X: " + shapeText(m, n) + " has no columns: FDLab needs at least one feature");
    if (n > Dataset::kMaxFeatures)
        throw std::invalid_argument("X: " + shapeText(m, n) + " has more than 2^24 = " + std::to_string(Dataset::kMaxFeatures) +
                                    " columns, the largest feature count FDLab loads (as fdlab-cli does from a file)");
    if (expectedCols && n != *expectedCols)
        throw std::invalid_argument("X has " + std::to_string(n) + " features; the model expects " + std::to_string(*expectedCols));
}

[[noreturn]] void notFinite(py::ssize_t i, py::ssize_t j, float v) {
    throw std::invalid_argument("X[" + std::to_string(i) + ", " + std::to_string(j) + "] is " + (std::isnan(v) ? "nan" : "inf") +
                                " (as float32): FDLab needs finite feature values");
}

bool isNumberKind(char kind) { return kind == 'f' || kind == 'i' || kind == 'u' || kind == 'b'; }

void readDense(Features& f, const py::handle& X, std::optional<int> expectedCols) {
    py::array a = py::array::ensure(X);
    if (!a) throw py::type_error("X: expected a 2-D numpy array or a scipy.sparse matrix, got " + typeText(X));
    if (a.ndim() == 1)
        throw std::invalid_argument("X: expected a 2-D array (rows x features), got a 1-D array of " + std::to_string(a.shape(0)) +
                                    " values; for one row use X.reshape(1, -1)");
    if (a.ndim() != 2) throw std::invalid_argument("X: expected a 2-D array, got " + std::to_string(a.ndim()) + " dimensions");
    const char kind = a.dtype().kind();
    const bool direct = a.dtype().is(py::dtype::of<float>()) && (a.flags() & py::array::c_style);
    const std::string from = dtypeText(a) + ((a.flags() & py::array::c_style) ? " C-order " : " non-C-order ");
    if (kind == 'O') {   // an object array of real numbers converts; strings ("1.5" too), None, ... do not
        const py::object real = py::module_::import("numbers").attr("Real");
        const py::ssize_t n = a.shape(1);
        py::ssize_t k = 0;
        for (const py::handle o : a.attr("ravel")("C")) {
            if (!py::isinstance(o, real))
                throw py::type_error("X: an object array whose entries are not all numbers: X[" + std::to_string(k / n) + ", " +
                                     std::to_string(k % n) + "] is a " + typeText(o));
            ++k;
        }
        a = py::module_::import("numpy").attr("asarray")(a, py::arg("dtype") = "float32");
    } else if (!isNumberKind(kind)) {
        throw py::type_error("X: expected numbers (bool, int or float), got dtype " + dtypeText(a));
    }
    checkSize(a.shape(0), a.shape(1), expectedCols);
    f.rows = static_cast<int>(a.shape(0));
    f.cols = static_cast<int>(a.shape(1));
    f.dense = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!f.dense) throw py::type_error("X: dtype " + dtypeText(a) + " does not convert to float32");
    f.copied = !direct;
    f.what = direct ? "float32 C-order " + shapeText(f.rows, f.cols)
                    : from + shapeText(f.rows, f.cols) + " converted to float32 C-order";
    const float* v = f.dense.data();
    const std::size_t size = std::size_t(f.rows) * std::size_t(f.cols);
    for (std::size_t k = 0; k < size; ++k)
        if (!std::isfinite(v[k])) notFinite(py::ssize_t(k / std::size_t(f.cols)), py::ssize_t(k % std::size_t(f.cols)), v[k]);
}

/// A CSR component as a 1-D numpy array of an integer (or, for data, number) kind.
py::array csrPart(const py::object& csr, const char* name, bool numbers) {
    py::array a = py::array::ensure(csr.attr(name));
    if (!a || a.ndim() != 1) throw std::invalid_argument(std::string("X: the sparse matrix's ") + name + " is not a 1-D array");
    const char kind = a.dtype().kind();
    if (numbers ? !isNumberKind(kind) : (kind != 'i' && kind != 'u'))
        throw py::type_error(std::string("X: the sparse matrix's ") + name + " has dtype " + dtypeText(a) + ", expected " +
                             (numbers ? "numbers" : "integers"));
    return a;
}

/// Checks the columns of every row against [0, n) and tells whether each row's are increasing.
template <class Index>
bool checkColumns(const Features& f, const Index* ix) {
    bool canonical = true;
    for (int i = 0; i < f.rows; ++i)
        for (auto k = f.rowStart[std::size_t(i)]; k < f.rowStart[std::size_t(i) + 1]; ++k) {
            const auto j = static_cast<std::int64_t>(ix[k]);
            if (j < 0 || j >= f.cols)
                throw std::invalid_argument("X: row " + std::to_string(i) + " of the sparse matrix has column index " +
                                            std::to_string(j) + ", outside [0, " + std::to_string(f.cols) + ")");
            if (k > f.rowStart[std::size_t(i)] && j <= static_cast<std::int64_t>(ix[k - 1])) canonical = false;
        }
    return canonical;
}

/// A CSR index array (indptr or indices) as int64. uint64 values beyond int64 were wrapped into
/// negative numbers (the messages said "column index -9223372036854775807").
py::array_t<std::int64_t> csrIndexArray(const py::array& a, const char* what) {
    if (a.dtype().kind() == 'u' && a.dtype().itemsize() >= 8 && a.size() > 0) {
        const py::object largest = a.attr("max")();
        if (largest.cast<unsigned long long>() > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
            throw std::invalid_argument(std::string("X: the sparse matrix's ") + what + " holds " +
                                        py::str(largest).cast<std::string>() + ", beyond any index");
    }
    return py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

void readSparse(Features& f, const py::handle& X, std::optional<int> expectedCols) {
    f.sparse = true;
    const std::string format = py::hasattr(X, "format") ? py::str(X.attr("format")).cast<std::string>() : "";
    // scipy's own conversion trusts the source's indices: check them first where scipy can.
    if (format != "csr" && py::hasattr(X, "check_format")) X.attr("check_format")(py::arg("full_check") = true);
    // COO has no check_format, and its tocsr() writes wherever a row index points (a row of 10^6
    // or -5 crashed the interpreter): both index arrays are checked against the shape first.
    if (format == "coo" && py::hasattr(X, "row") && py::hasattr(X, "col")) {
        const py::tuple dims = X.attr("shape");
        for (const char* part : {"row", "col"}) {
            const py::array a = py::array::ensure(X.attr(part));
            if (!a || a.size() == 0) continue;
            // Compared as Python ints: a uint64 index of 2^63 or more (or a float) did not fit a
            // long long, and pybind11's cast failed with a bare RuntimeError.
            if (const char kind = a.dtype().kind(); kind != 'i' && kind != 'u')
                throw py::type_error(std::string("X: the COO matrix's ") + part + " indices have dtype " + dtypeText(a) +
                                     ", expected integers");
            const py::object lo = py::int_(a.attr("min")()), hi = py::int_(a.attr("max")()), zero = py::int_(0);
            const py::object n = py::int_(py::object(dims[part[0] == 'r' ? 0 : 1]));
            if (lo < zero || hi >= n)
                throw std::invalid_argument(std::string("X: the COO matrix has a ") + part + " index " +
                                            py::repr(lo < zero ? lo : hi).cast<std::string>() + ", outside [0, " +
                                            py::repr(n).cast<std::string>() + ")");
        }
    }
    const py::object csr = X.attr("tocsr")();
    const py::tuple shape = csr.attr("shape");
    if (shape.size() != 2) throw std::invalid_argument("X: expected a 2-D sparse matrix, got " + std::to_string(shape.size()) + " dimensions");
    const auto m = shape[0].cast<py::ssize_t>(), n = shape[1].cast<py::ssize_t>();
    checkSize(m, n, expectedCols);
    f.rows = static_cast<int>(m);
    f.cols = static_cast<int>(n);

    // indptr: m + 1 non-decreasing row starts from 0, ending within indices and data.
    const py::array indptr = csrPart(csr, "indptr", false), ind = csrPart(csr, "indices", false), dat = csrPart(csr, "data", true);
    if (indptr.size() != m + 1)
        throw std::invalid_argument("X: the sparse matrix's indptr has " + std::to_string(indptr.size()) + " entries for " +
                                    std::to_string(m) + " rows (expected " + std::to_string(m + 1) + ")");
    if (ind.size() != dat.size())
        throw std::invalid_argument("X: the sparse matrix has " + std::to_string(ind.size()) + " indices but " +
                                    std::to_string(dat.size()) + " values");
    const auto p = csrIndexArray(indptr, "indptr");
    f.rowStart.assign(p.data(), p.data() + p.size());
    if (f.rowStart[0] != 0) throw std::invalid_argument("X: the sparse matrix's indptr starts at " + std::to_string(f.rowStart[0]) + ", not 0");
    for (int i = 0; i < f.rows; ++i)
        if (f.rowStart[std::size_t(i) + 1] < f.rowStart[std::size_t(i)])
            throw std::invalid_argument("X: the sparse matrix's indptr decreases at row " + std::to_string(i));
    if (f.rowStart.back() > ind.size())
        throw std::invalid_argument("X: the sparse matrix's indptr ends at " + std::to_string(f.rowStart.back()) + " but it has " +
                                    std::to_string(ind.size()) + " entries");

    // Columns: int32 indices are read in place; others are checked as int64 and narrowed.
    bool canonical = false;
    if (ind.dtype().is(py::dtype::of<std::int32_t>()) && (ind.flags() & py::array::c_style)) {
        f.keepIndex = ind;
        f.colIndex = static_cast<const std::int32_t*>(ind.data());
        canonical = checkColumns(f, f.colIndex);
    } else {
        const auto wide = csrIndexArray(ind, "indices");
        canonical = checkColumns(f, wide.data());
        f.ownIndex.resize(std::size_t(f.rowStart.back()));
        std::transform(wide.data(), wide.data() + f.rowStart.back(), f.ownIndex.begin(), [](std::int64_t j) { return static_cast<std::int32_t>(j); });
        f.colIndex = f.ownIndex.data();
    }
    const auto values = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(dat);
    f.keepValues = values;
    f.values = values.data();
    for (int i = 0; i < f.rows; ++i)
        for (auto k = f.rowStart[std::size_t(i)]; k < f.rowStart[std::size_t(i) + 1]; ++k)
            if (!std::isfinite(f.values[k])) notFinite(i, f.colIndex[k], f.values[k]);
    const bool direct = f.keepIndex && dat.dtype().is(py::dtype::of<float>()) && canonical;
    f.copied = !direct;
    f.what = "scipy.sparse " + shapeText(m, n) + (direct ? " CSR float32/int32" : " CSR (indices/data converted to int32/float32" +
                                                          std::string(canonical ? ")" : ", columns sorted, duplicates summed)"));
    if (canonical) return;
    // Sort each row's columns and sum repeated ones, as scipy's sum_duplicates does.
    std::vector<std::int64_t> start{0};
    std::vector<std::int32_t> index;
    std::vector<float> value;
    std::vector<std::pair<std::int32_t, double>> row;
    for (int i = 0; i < f.rows; ++i) {
        row.clear();
        for (auto k = f.rowStart[std::size_t(i)]; k < f.rowStart[std::size_t(i) + 1]; ++k) row.emplace_back(f.colIndex[k], f.values[k]);
        std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t k = 0; k < row.size(); ++k) {
            if (k > 0 && row[k].first == row[k - 1].first) {
                value.back() = static_cast<float>(static_cast<double>(value.back()) + row[k].second);
                if (!std::isfinite(value.back())) notFinite(i, row[k].first, value.back());
            } else {
                index.push_back(row[k].first);
                value.push_back(static_cast<float>(row[k].second));
            }
        }
        start.push_back(static_cast<std::int64_t>(index.size()));
    }
    f.rowStart = std::move(start);
    f.ownIndex = std::move(index);
    f.ownValues = std::move(value);
    f.colIndex = f.ownIndex.data();
    f.values = f.ownValues.data();
    f.keepIndex = f.keepValues = py::object();
}

/// X checked and readable row by row; expectedCols: the model's feature count, when there is one.
Features readFeatures(const py::handle& X, std::optional<int> expectedCols = std::nullopt) {
    Features f;
    if (isScipySparse(X)) readSparse(f, X, expectedCols);
    else readDense(f, X, expectedCols);
    return f;
}

/// Copies X into d's own storage (dense stays dense, sparse stays sparse: never densified).
/// Records what was copied in g_lastCopy.
void setFeatures(Dataset& d, const py::handle& X, std::optional<int> expectedCols) {
    const Features f = readFeatures(X, expectedCols);
    if (f.sparse) {
        const auto nnz = static_cast<std::size_t>(f.storedValues());
        if (std::find(f.values, f.values + nnz, 0.0f) == f.values + nnz) {
            // No explicit zeros: readSparse checked the columns (range, order), so the CSR arrays
            // are copied as they are (three bulk copies; the builder's per-entry checks were 7% of
            // from_sklearn + curve on the spam test file, perf).
            SparseRows s;
            s.cols = f.cols;
            s.rowStart = f.rowStart;
            s.colIndex.assign(f.colIndex, f.colIndex + nnz);
            s.values.assign(f.values, f.values + nnz);
            d.sparse = std::move(s);
        } else {
            SparseRowsBuilder b(f.cols, f.storedValues());
            for (int i = 0; i < f.rows; ++i) {
                f.row(i).forEachNonZero([&](int j, float v) { b.add(j, v); });   // zeros are dropped
                b.endRow();
            }
            d.sparse = std::move(b).finish();
        }
        d.X.resize(0, 0);
    } else {
        d.sparse.reset();
        d.X.resize(f.rows, f.cols);
        if (f.storedValues() > 0) std::memcpy(d.X.data(), f.dense.data(), std::size_t(f.storedValues()) * sizeof(float));
    }
    noteCopy(true, f.what + (f.sparse ? " -> copied into Dataset CSR (explicit zeros dropped, never densified)"
                                      : " -> copied into Dataset storage"));
}

// ---- labels in ------------------------------------------------------------------------------

/// Class names of the label values, sorted as the loaders sort them: numerically when every
/// name is a number, else lexicographically.
std::vector<std::string> sortedClassNames(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<double> value(names.size());
    bool numeric = true;
    for (std::size_t c = 0; c < names.size() && numeric; ++c) {
        std::string_view s = names[c];
        if (s.size() > 1 && s[0] == '+') s.remove_prefix(1);
        const auto r = std::from_chars(s.data(), s.data() + s.size(), value[c]);
        numeric = r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(value[c]);
    }
    if (numeric)
        std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
            double va = 0, vb = 0;
            std::from_chars(a.data() + (a[0] == '+'), a.data() + a.size(), va);
            std::from_chars(b.data() + (b[0] == '+'), b.data() + b.size(), vb);
            return va < vb;
        });
    return names;
}

/// The UTF-8 text of a str or bytes name. Names are text in model files (JSON) and pickles: a
/// label such as b'\xff' trained, then was neither saved nor pickled ("invalid UTF-8 byte at
/// index 0"), and a str with a lone surrogate (os.fsdecode's escape of such bytes) was a bare
/// RuntimeError. Either is a ValueError "`what` <repr> is ...; `fix`".
std::string nameText(const py::handle& o, const std::string& what, const char* fix) {
    const bool bytes = py::isinstance<py::bytes>(o);
    if (bytes) {
        std::string text = o.cast<std::string>();
        if (isValidUtf8(text)) return text;
    } else {
        Py_ssize_t size = 0;
        if (const char* p = PyUnicode_AsUTF8AndSize(o.ptr(), &size)) return std::string(p, static_cast<std::size_t>(size));
        PyErr_Clear();
    }
    throw std::invalid_argument(what + " " + py::repr(o).cast<std::string>() +
                                (bytes ? " is bytes that are not UTF-8 text; " : " is a str that UTF-8 cannot encode (a lone surrogate); ") +
                                fix);
}

/// The class name of one label of an object array (or of the classes given as `argument`). Equal
/// labels get one name whatever their type and order, and the name a numeric array would give: a
/// number equal to an integer (1, 1.0, True, numpy.int64(1), Decimal('1.0'), Fraction(2, 1)) is
/// that integer ('1', as in an int, float or bool array), another number equal to a float is the
/// float's repr ('0.5'); str and bytes are themselves (UTF-8 text: nameText), anything else str().
std::string objectLabelName(const py::handle& o, const char* argument = "y") {
    if (py::isinstance<py::bytes>(o) || py::isinstance<py::str>(o))
        return nameText(o, std::string(argument) + ": the label",
                        "FDLab's class names are text (model files are JSON): decode the labels, or use integers");
    const py::module_ builtins = py::module_::import("builtins");
    for (const char* type : {"int", "float"}) {
        try {
            py::object v = builtins.attr(type)(o);
            if (o.equal(v)) return type[0] == 'i' ? py::str(v).cast<std::string>() : py::repr(v).cast<std::string>();
        } catch (const py::error_already_set&) {   // not a number (or inf for int): str() below
        }
    }
    return py::str(o).cast<std::string>();
}

/// Label values as strings: integers (and integral floats) print as integers, others via str().
/// A float array must hold whole numbers (a regression target is no set of classes), unless
/// `fractional`: labels checked against known classes (a model's, which may be 0.5 and 1.25
/// when it was trained on such object labels) are named as objectLabelName names them.
std::vector<std::string> labelStrings(const py::handle& y, bool fractional = false) {
    py::array a = py::array::ensure(y);
    if (!a) throw std::invalid_argument("y: expected a 1-D array of class labels");
    if (a.ndim() != 1) throw std::invalid_argument("y: expected a 1-D array, got " + std::to_string(a.ndim()) + " dimensions");
    std::vector<std::string> out(static_cast<std::size_t>(a.shape(0)));
    const char kind = a.dtype().kind();
    if (kind == 'u') {   // uint64 labels of 2^63 or more were cast to negative numbers
        auto v = py::array_t<unsigned long long, py::array::forcecast>::ensure(a);
        auto r = v.unchecked<1>();
        for (py::ssize_t i = 0; i < r.shape(0); ++i) out[static_cast<std::size_t>(i)] = std::to_string(r(i));
    } else if (kind == 'i' || kind == 'b') {
        auto v = py::array_t<long long, py::array::forcecast>::ensure(a);
        auto r = v.unchecked<1>();
        for (py::ssize_t i = 0; i < r.shape(0); ++i) out[static_cast<std::size_t>(i)] = std::to_string(r(i));
    } else if (kind == 'f') {
        auto v = py::array_t<double, py::array::forcecast>::ensure(a);
        auto r = v.unchecked<1>();
        for (py::ssize_t i = 0; i < r.shape(0); ++i) {
            const double x = r(i);
            if (fractional && !std::isnan(x) && (!std::isfinite(x) || x != std::round(x) || !(std::abs(x) < 9.2e18))) {
                out[static_cast<std::size_t>(i)] = objectLabelName(py::float_(x));
                continue;
            }
            if (!std::isfinite(x) || x != std::round(x))
                throw std::invalid_argument("y: float labels must be whole numbers (y[" + std::to_string(i) + "] is " +
                                            std::to_string(x) + "); pass integers or strings");
            // Beyond +-2^63 the cast is undefined (1e19 and 2e19 both became -9223372036854775808,
            // two classes merged into one).
            if (!(std::abs(x) < 9.2e18))
                throw std::invalid_argument("y: float label y[" + std::to_string(i) + "] = " + formatParam(x) +
                                            " is too large to name a class exactly; pass integers or strings");
            out[static_cast<std::size_t>(i)] = std::to_string(static_cast<long long>(x));
        }
    } else {
        py::list l = a.attr("tolist")();
        // Labels that are different objects but print alike (1 and '1') would be one class.
        std::map<std::string, std::size_t> first;
        // Labels that are equal (1, 1.0 and True; numpy.unique and scikit-learn see one class)
        // were two classes, '1' and '1.0': an equal label takes the name of the first one.
        // Unhashable labels (a list) are named by str() alone.
        py::dict named;
        for (std::size_t i = 0; i < out.size(); ++i) {
            py::object o = l[i];
            if (PyFloat_Check(o.ptr()) && std::isnan(PyFloat_AsDouble(o.ptr())))   // NaN (np.nan, float("nan")): no class
                throw std::invalid_argument("y: label y[" + std::to_string(i) + "] is NaN; every label must name a class");
            const int seen = PyDict_Contains(named.ptr(), o.ptr());
            if (seen < 0) PyErr_Clear();
            if (seen == 1) {
                out[i] = named[o].cast<std::string>();
                continue;
            }
            out[i] = objectLabelName(o);
            if (seen == 0) named[o] = py::bytes(out[i]);
            const auto [it, fresh] = first.try_emplace(out[i], i);
            if (!fresh && !o.equal(l[it->second]))
                throw std::invalid_argument("y: labels " + py::repr(l[it->second]).cast<std::string>() + " (y[" +
                                            std::to_string(it->second) + "]) and " + py::repr(o).cast<std::string>() +
                                            " (y[" + std::to_string(i) + "]) differ but both read '" + out[i] +
                                            "'; use labels of one type");
        }
    }
    return out;
}

/// Sets d.labels/classNames from y; `classes` fixes the class order (e.g. a model's classes).
/// modelClasses: `classes` are a trained model's (labelStrings' fractional); train() passes false,
/// also with classes= given, so that a float y of 0.5 is refused there as without.
void setLabels(Dataset& d, const py::handle& y, const std::vector<std::string>& classes, bool modelClasses) {
    const std::vector<std::string> s = labelStrings(y, modelClasses);
    if (static_cast<int>(s.size()) != d.rows())
        throw std::invalid_argument("y: " + std::to_string(s.size()) + " labels for " + std::to_string(d.rows()) + " rows of X");
    d.classNames = classes.empty() ? sortedClassNames(s) : classes;
    std::map<std::string, int> index;
    for (std::size_t c = 0; c < d.classNames.size(); ++c) index[d.classNames[c]] = static_cast<int>(c);
    d.labels.resize(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto it = index.find(s[i]);
        if (it == index.end()) {
            std::string known;
            for (const auto& c : d.classNames) known += (known.empty() ? "" : ", ") + c;
            throw std::invalid_argument("y: label '" + s[i] + "' (y[" + std::to_string(i) + "]) is not one of the classes " + known);
        }
        d.labels[i] = it->second;
    }
}

/// The class labels of d as values of y (same numpy dtype), in class index order: for each
/// class the first row of y that has it. A class y lacks (named only in train's `classes`) is
/// its name converted to y's dtype; when a name does not convert back to itself, all are str.
py::object classValuesOf(const Dataset& d, const py::handle& y) {
    const py::module_ np = py::module_::import("numpy");
    const py::array values = py::array::ensure(y);
    std::vector<std::int64_t> first(d.classNames.size(), -1);
    for (std::size_t i = d.labels.size(); i-- > 0;) first[static_cast<std::size_t>(d.labels[i])] = static_cast<std::int64_t>(i);
    if (std::find(first.begin(), first.end(), -1) == first.end()) return values.attr("take")(py::cast(first));
    try {
        py::object converted = np.attr("asarray")(d.classNames).attr("astype")(values.dtype());
        if (labelStrings(converted) == d.classNames) return converted;
    } catch (const py::error_already_set&) {
    } catch (const std::invalid_argument&) {
    }
    return np.attr("array")(d.classNames, py::arg("dtype") = "str");
}

/// feature_names (train, Model.linear): a sequence of str (or bytes of UTF-8 text) as text.
std::vector<std::string> featureNameArg(const py::handle& o) {
    const auto wrong = [&](const py::handle& what) {
        return py::type_error("feature_names: expected a sequence of str, got " + typeText(what));
    };
    if (py::isinstance<py::str>(o) || py::isinstance<py::bytes>(o) || !py::isinstance<py::sequence>(o)) throw wrong(o);
    std::vector<std::string> names;
    for (const py::handle v : o) {
        if (!py::isinstance<py::str>(v) && !py::isinstance<py::bytes>(v)) throw wrong(v);
        names.push_back(nameText(v, "feature_names[" + std::to_string(names.size()) + "]:",
                                 "feature names are text (model files are JSON): decode them"));
    }
    return names;
}

struct DataArgs {
    py::object featureNames = py::none();
    py::object imageShape = py::none();
    py::object importance = py::none();
};

/// A Dataset from Python arrays; `classes` as in setLabels; expectedCols: the model's feature
/// count (attack, curve), checked before anything is copied.
Dataset makeDataset(const py::handle& X, const py::handle& y, const std::vector<std::string>& classes, const DataArgs& extra,
                    std::optional<int> expectedCols = std::nullopt) {
    Dataset d;
    d.name = "python";
    d.provenance = "python arrays";
    setFeatures(d, X, expectedCols);
    const CopyInfo features = g_lastCopy;
    setLabels(d, y, classes, expectedCols.has_value());   // expectedCols: X and y meet a model
    if (!extra.featureNames.is_none()) d.featureNames = featureNameArg(extra.featureNames);
    if (!extra.imageShape.is_none()) {
        const auto rc = castArg<std::pair<int, int>>(extra.imageShape, "image_shape", "(rows, cols)");
        d.imageShape = ImageShape{rc.first, rc.second};
    }
    if (!extra.importance.is_none()) d.importance = castArg<std::vector<double>>(extra.importance, "importance", "a sequence of numbers");
    d.fillDefaults();
    d.validate("python data");
    g_lastCopy = features;
    return d;
}

// ---- data out -------------------------------------------------------------------------------

template <class T>
py::array_t<T> vectorToNumpy(std::vector<T> v) {
    auto* owner = new std::vector<T>(std::move(v));
    py::capsule free(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>({static_cast<py::ssize_t>(owner->size())}, {static_cast<py::ssize_t>(sizeof(T))}, owner->data(), free);
}

/// The features of d: a numpy float32 array owning d's moved matrix, or a csr_matrix.
py::object featuresOut(Dataset& d) {
    if (d.sparse) {
        SparseRows s = std::move(*d.sparse);
        const int m = s.rows(), n = s.cols;
        py::object csr = py::module_::import("scipy.sparse").attr("csr_matrix");
        return csr(py::make_tuple(vectorToNumpy(std::move(s.values)), vectorToNumpy(std::move(s.colIndex)),
                                  vectorToNumpy(std::move(s.rowStart))),
                   py::arg("shape") = py::make_tuple(m, n));
    }
    auto* owner = new Dataset::Matrix(std::move(d.X));
    py::capsule free(owner, [](void* p) { delete static_cast<Dataset::Matrix*>(p); });
    const auto m = static_cast<py::ssize_t>(owner->rows()), n = static_cast<py::ssize_t>(owner->cols());
    return py::array_t<float>({m, n}, {n * static_cast<py::ssize_t>(sizeof(float)), static_cast<py::ssize_t>(sizeof(float))},
                              owner->data(), free);
}

/// Text that may hold a file name's undecodable bytes, as os.fsdecode gives it (lone
/// surrogates): load(b"tiny\xff.libsvm") raised UnicodeDecodeError from the info dict.
py::object fsText(const std::string& s) {
    return py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape"));
}

py::array labelsOut(const Dataset& d) {
    py::list l;
    for (int c : d.labels) l.append(fsText(d.classNames[static_cast<std::size_t>(c)]));
    return py::module_::import("numpy").attr("array")(l, py::arg("dtype") = "str");
}

py::dict infoOut(const Dataset& d) {
    py::dict info;
    info["name"] = fsText(d.name);
    info["provenance"] = fsText(d.provenance);
    // Class names from a corpus's folder or mailbox names, feature names from a header: bytes
    // that are not UTF-8 raised UnicodeDecodeError; they come as os.fsdecode would give them.
    py::list classNames, featureNames;
    for (const std::string& c : d.classNames) classNames.append(fsText(c));
    for (const std::string& f : d.featureNameList()) featureNames.append(fsText(f));
    info["class_names"] = classNames;
    info["feature_names"] = featureNames;
    info["image_shape"] = d.imageShape ? py::object(py::make_tuple(d.imageShape->rows, d.imageShape->cols)) : py::none();
    info["importance"] = vectorToNumpy(std::vector<double>(d.importance));
    info["labels"] = vectorToNumpy(std::vector<int>(d.labels));
    info["sparse"] = d.isSparse();
    return info;
}

py::tuple datasetOut(Dataset d) {
    py::dict info = infoOut(d);
    py::array y = labelsOut(d);
    py::object X = featuresOut(d);
    return py::make_tuple(X, y, info);
}

// ---- models ---------------------------------------------------------------------------------

/// The label_dtype of bytes labels in an object array: not a numpy dtype string, so that a file
/// whose label_dtype is numpy's own "|O" (str labels in an object array) keeps loading as str, and
/// an FDLab that does not know it falls back to str class names.
constexpr const char* kObjectBytes = "object-bytes";

/// writeFileAtomically from Python: Python's own stdout and stderr are flushed first, so that a
/// path that is stdout (/dev/stdout) comes after what the script printed, as in the CLI.
void writeFromPython(const std::string& path, const std::string& text) {
    if (ownDescriptorOf(path)) {   // only then: a broken stdout must not stop a save to a file
        const py::module_ sys = py::module_::import("sys");
        for (const char* stream : {"stdout", "stderr"}) {
            try {
                const py::object s = sys.attr(stream);
                if (!s.is_none() && py::hasattr(s, "flush")) s.attr("flush")();
            } catch (const py::error_already_set&) {
            }
        }
    }
    // Without the GIL: a pipe that a Python thread of this process reads must be drained.
    py::gil_scoped_release free;
    writeFileAtomically(path, text);
}

/// The numpy dtype string of label values that survive a model file as text ("<i8", "|b1",
/// "<f8"); empty for strings (class names are text already). An object array (a pandas-style
/// column) records "|b1" when its classes are all bool and "<i8" (or "<u8" beyond int64) when
/// they are all whole numbers of any type, and "<f8" when they are all real numbers: a saved
/// and loaded model predicted the str '1' for the int 1 (its accuracy against the same y fell
/// from 0.95 to 0; the same for 0.5). Other object classes (strings, None, a mix with strings)
/// record nothing and load as str classes. Bytes labels record "|S<n>" (an S array) or
/// kObjectBytes (an object array of bytes) and load as bytes again.
std::string labelDtypeOf(const py::object& classValues) {
    if (classValues.is_none()) return "";
    const py::array values = py::array::ensure(classValues);
    const py::dtype dt = values.dtype();
    const char kind = dt.kind();
    if (kind == 'O') {
        // All bytes: recorded as kObjectBytes, an object array of bytes, so load_model() predicts
        // bytes again (they came back as str: accuracy 0 against the y the model was trained on).
        {
            const py::list l = values.attr("tolist")();
            bool allBytes = !l.empty();
            for (const py::handle o : l) {
                if (!py::isinstance<py::bytes>(o)) {
                    allBytes = false;
                    break;
                }
            }
            if (allBytes) return kObjectBytes;   // (an S array would drop a trailing NUL)
        }
        // The classes' names (objectLabelName) say what they are: all bool (also numpy.bool_)
        // restore as bool, all numbers named as integers (int, numpy integers, whole floats,
        // True with 1, Decimal('2')) as int64, or uint64 beyond it; each restored value equals
        // (==) the label it came from. numpy scalars in an object array were missed at first.
        const py::object npBool = py::module_::import("numpy").attr("bool_");
        const py::object toInt = py::module_::import("builtins").attr("int");
        const py::object toFloat = py::module_::import("builtins").attr("float");
        const py::list l = values.attr("tolist")();
        if (l.empty()) return "";
        bool allBool = true, allInt64 = true, allUint64 = true;
        for (const py::handle o : l) {
            if (py::isinstance<py::str>(o) || py::isinstance<py::bytes>(o)) return "";
            allBool = allBool && (PyBool_Check(o.ptr()) || py::isinstance(o, npBool));
            // Whole when int() works and gives a value equal to the label (a name that only
            // reads like a number, e.g. numpy.datetime64('2020'), is not; it loaded as 2020).
            // Not whole: a real number when float() gives a value equal to the label both ways
            // (0.5, numpy.float32(1.25)); those record "<f8" (they loaded as the str '0.5').
            // (int(inf) raises: infinities are real numbers too.)
            std::string digits;
            try {
                const py::object v = toInt(o);
                if (o.equal(v) && v.equal(o)) digits = py::str(v).cast<std::string>();
            } catch (const py::error_already_set&) {
            }
            if (digits.empty()) {
                try {
                    const py::object f = toFloat(o);
                    if (!o.equal(f) || !f.equal(o)) return "";
                } catch (const py::error_already_set&) {
                    return "";
                }
                allInt64 = allUint64 = false;
                continue;
            }
            long long i = 0;
            unsigned long long u = 0;
            const char* end = digits.data() + digits.size();
            const auto ri = std::from_chars(digits.data(), end, i);
            const auto ru = std::from_chars(digits.data(), end, u);
            allInt64 = allInt64 && ri.ec == std::errc() && ri.ptr == end;
            allUint64 = allUint64 && ru.ec == std::errc() && ru.ptr == end;
        }
        if (allBool) return "|b1";
        if (allInt64) return "<i8";
        if (allUint64) return "<u8";
        // All real (or whole beyond uint64, or a mix of signs beyond int64): as float64 when the
        // names read back as those values (classValuesFromNames checks), else str classes.
        return "<f8";
    }
    // Bytes labels (dtype S) are named by their bytes; recorded, they load as bytes again (they
    // came back as str: accuracy 0 against the y the model was trained on).
    if (kind != 'i' && kind != 'u' && kind != 'b' && kind != 'f' && kind != 'S') return "";
    return py::str(dt.attr("str")).cast<std::string>();
}

/// Class names as values of the numpy dtype `dtype` (a file's label_dtype), or None when there
/// is none or a name does not convert back to itself (then the names, as str, are the classes).
py::object classValuesFromNames(const std::vector<std::string>& names, const std::string& dtype) {
    if (dtype.empty()) return py::none();
    const py::module_ np = py::module_::import("numpy");
    try {
        const py::dtype dt(dtype == kObjectBytes ? std::string("O") : dtype);
        py::list items;
        const bool bytes = dt.kind() == 'S' || dtype == kObjectBytes;
        if (bytes)   // the names are the bytes themselves
            for (const std::string& n : names) items.append(py::bytes(n));
        py::object v = bytes ? np.attr("array")(items, py::arg("dtype") = dt) : np.attr("asarray")(names);
        if (dt.kind() == 'b') v = v.attr("astype")("int64");   // "1" -> 1 -> True
        // (uint64 beyond 2^63 parses directly; through int64 it overflowed to str classes.)
        v = v.attr("astype")(dt);
        // Float classes may be non-whole (object labels 0.5, 1.25: labelStrings refuses those),
        // named as objectLabelName names them.
        std::vector<std::string> back;
        if (dt.kind() == 'f')
            for (const py::handle o : v.attr("tolist")().cast<py::list>()) back.push_back(objectLabelName(o));
        else
            back = labelStrings(v);
        if (back == names) return v;
    } catch (const py::error_already_set&) {
    } catch (const std::invalid_argument&) {
    }
    return py::none();
}

/// A trained or loaded model, with what saving it needs: a loaded one keeps its file as read
/// (LoadedModel); one trained in Python also its training set.
struct Model : LoadedModel {
    std::shared_ptr<const Dataset> train;    ///< the training set (trained in Python; for save's description)
    /// The class labels in class index order, as values of the y given to train (same dtype:
    /// ints stay ints); for a loaded model from the file's label_dtype, else None (class names).
    py::object classValues = py::none();
    bool fitKnown = true;                    ///< false when read from a file, which records no fit
    /// Trained in Python on data prepare(scale=...) scaled (train(info=...) carries it): the
    /// scaling its file records for fdlab-cli and the GUI; X is given scaled (TrainingRecord::inputScaled).
    std::optional<Preprocessor> inputScaling;

    /// classValues, or the class names as a numpy str array.
    py::array classes() const {
        if (!classValues.is_none()) return classValues;
        return py::module_::import("numpy").attr("array")(classNames, py::arg("dtype") = "str");
    }
    /// The fitted scaling a model file records, when it changes anything.
    const Preprocessor* recordedScaling() const {
        if (inputScaling) return &*inputScaling;
        return training.preprocessing && training.preprocessing->scaling != Scaling::None ? &*training.preprocessing : nullptr;
    }
    /// The scaling X is scaled with before scoring, as fdlab-cli eval/attack scale the data for
    /// the model; none for a model trained on prepare()'s scaled data, which takes X scaled.
    const Preprocessor* scaling() const {
        return inputScaling || training.inputScaled ? nullptr : recordedScaling();
    }
    /// The feature names; a model from weights without names has f1..fn (built only when asked).
    std::vector<std::string> featureNameList() const {
        if (!featureNames.empty() || !savedLinear) return featureNames;
        std::vector<std::string> names(static_cast<std::size_t>(features()));
        for (std::size_t j = 0; j < names.size(); ++j) names[j] = defaultFeatureName(j);
        return names;
    }
    /// The model file's text (save, pickle).
    std::string text() const {
        if (train)
            return trainedModelText(trained, *train, learner, params, inputScaling.value_or(Preprocessor{}), nullptr,
                                    labelDtypeOf(classValues), inputScaling.has_value());
        LoadedModel copy = *this;
        copy.training.labelDtype = labelDtypeOf(classValues);
        if (copy.savedLinear && copy.savedLinear->metadata.featureNames.empty()) copy.savedLinear->metadata.featureNames = featureNameList();
        return loadedModelText(copy);
    }
};

/// A model read from a file's text (load_model, unpickling).
std::shared_ptr<Model> modelFromFileText(const std::string& text, const std::string& source) {
    auto model = std::make_shared<Model>();
    static_cast<LoadedModel&>(*model) = modelFromText(text, source);
    model->classValues = classValuesFromNames(model->classNames, model->training.labelDtype);
    model->fitKnown = false;
    return model;
}

/// Scores of every row of X (checked by readFeatures against the model's feature count),
/// reading float32 C-order / CSR float32-int32 memory in place. A model whose file records a
/// scaling scores a scaled copy of X.
Eigen::MatrixXd scoreRows(const Model& model, const py::handle& X) {
    const Scorer& s = *model.trained.scorer;
    const int K = s.outputs();
    std::vector<double> row(static_cast<std::size_t>(K));
    if (const Preprocessor* scale = model.scaling()) {
        Dataset d;
        d.name = "X";
        setFeatures(d, X, s.features());
        d.fillDefaults();
        scale->apply(d);
        noteCopy(true, g_lastCopy.what + ", scaled by the model's recorded " + toString(scale->scaling));
        Eigen::MatrixXd out(d.rows(), K);
        py::gil_scoped_release release;
        for (int i = 0; i < d.rows(); ++i) {
            s.scoresRow(d.row(i), row);
            for (int k = 0; k < K; ++k) out(i, k) = row[static_cast<std::size_t>(k)];
        }
        return out;
    }
    const Features f = readFeatures(X, s.features());
    noteCopy(f.copied, f.what + (f.copied ? " (a temporary for scoring)" : ": rows read in place"));
    Eigen::MatrixXd out(f.rows, K);
    py::gil_scoped_release release;
    for (int i = 0; i < f.rows; ++i) {
        s.scoresRow(f.row(i), row);
        for (int k = 0; k < K; ++k) out(i, k) = row[static_cast<std::size_t>(k)];
    }
    return out;
}

py::array_t<double> matrixOut(const Eigen::MatrixXd& M, bool flatten) {
    if (flatten) {
        std::vector<double> v(M.data(), M.data() + M.rows());
        return vectorToNumpy(std::move(v));
    }
    py::array_t<double> out({static_cast<py::ssize_t>(M.rows()), static_cast<py::ssize_t>(M.cols())});
    auto r = out.mutable_unchecked<2>();
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index k = 0; k < M.cols(); ++k) r(i, k) = M(i, k);
    return out;
}

py::dict fitInfo(const Model& m) {
    py::dict d;
    const FitResult& f = m.trained.fit;
    const auto known = [&](py::object v) { return m.fitKnown ? v : py::object(py::none()); };
    d["status"] = m.fitKnown ? py::object(py::str(toString(f.status))) : py::object(py::none());
    d["objective"] = known(py::float_(f.objective));
    d["gap"] = f.gap < 0 ? py::object(py::none()) : known(py::float_(f.gap));
    d["iterations"] = known(py::int_(f.iterations));
    d["elapsed"] = known(py::float_(f.elapsed));
    d["message"] = known(py::str(f.message));
    return d;
}

/// A test set for `model` from Python arrays: the model's class order and feature count, scaled
/// by the scaling the model's file records (as fdlab-cli eval/attack scale their data).
Dataset testSet(const Model& model, const py::handle& X, const py::handle& y, const py::object& importance) {
    DataArgs extra;
    extra.importance = importance;
    Dataset d = makeDataset(X, y, model.classNames, extra, model.features());
    if (!model.featureNames.empty() && model.featureNames.size() == static_cast<std::size_t>(d.features()) &&
        !extra.featureNames.is_none())
        d.featureNames = model.featureNames;
    if (model.imageShape && model.imageShape->size() == d.features()) d.imageShape = model.imageShape;
    if (const Preprocessor* scale = model.scaling()) {
        const CopyInfo copy = g_lastCopy;
        scale->apply(d);
        noteCopy(true, copy.what + ", scaled by the model's recorded " + toString(scale->scaling));
    }
    return d;
}

/// A registry entry's parameters as {name: {default, min, max, choices, doc}}.
py::dict paramsOut(const std::vector<ParamInfo>& ps) {
    py::dict params;
    for (const auto& p : ps) {
        py::dict pd;
        pd["default"] = fromJson(p.defaultValue);
        pd["min"] = p.min;
        pd["max"] = p.max;
        pd["choices"] = p.choices;
        pd["doc"] = p.doc;
        params[py::str(p.name)] = pd;
    }
    return params;
}

std::vector<std::string> nameList(const py::object& o, const char* name);

AttackSpec attackSpecFrom(const Model& model, const std::string& threat, std::uint64_t seed, const py::object& attackedClasses,
                          const py::object& feature, const py::object& features, const py::object& regions,
                          const std::string& replacement, const py::object& threatParams) {
    AttackSpec at;
    at.threat = threat;
    const ThreatInfo& info = threatInfo(threat);
    at.seed = seed;
    // threat_params: any threat's own parameters by name (fdlab.threats() lists them), as in the
    // "attack" object of an experiment file; the keywords below are shorthands for four of them.
    if (!threatParams.is_none()) {
        at.params = toJson(threatParams, "threat_params");
    }
    auto setOnce = [&](const char* key, json value) {
        if (at.params.contains(key))
            throw std::invalid_argument(std::string("'") + key + "' is given both as a keyword and in threat_params");
        at.params[key] = std::move(value);
    };
    // The keyword arguments are the threats' parameters of the same names (ThreatInfo::params);
    // AttackSpec::completeParams refuses one the threat does not take.
    if (!feature.is_none()) setOnce("feature", castArg<int>(feature, "feature", "an int (a feature index)"));
    if (!features.is_none()) setOnce("features", castArg<std::vector<int>>(features, "features", "a sequence of ints (feature indices)"));
    if (!regions.is_none()) {
        const auto rc = castArg<std::pair<int, int>>(regions, "regions", "(rows, cols)");
        setOnce("regions", json::array({rc.first, rc.second}));
    }
    const bool takesReplacement = std::any_of(info.params.begin(), info.params.end(), [](const ParamInfo& p) { return p.name == "replacement"; });
    if (replacement != "zero") setOnce("replacement", replacement);
    else if (takesReplacement && !at.params.contains("replacement")) at.params["replacement"] = replacement;
    at.completeParams();
    if (!attackedClasses.is_none()) {
        for (const auto& name : nameList(attackedClasses, "attacked_classes")) {
            const auto it = std::find(model.classNames.begin(), model.classNames.end(), name);
            if (it == model.classNames.end()) throw std::invalid_argument("attacked_classes: '" + name + "' is not a class of the model");
            at.attackedClasses.push_back(static_cast<int>(it - model.classNames.begin()));
        }
    }
    return at;
}

// ---- the CLI's data options -----------------------------------------------------------------

LoadOptions loadOptionsFrom(const py::kwargs& kw, std::set<std::string>& used) {
    LoadOptions o;
    auto str = [&](const char* key, std::string& out) {
        if (kw.contains(key)) out = castArg<std::string>(kw[key], key, "a str"), used.insert(key);
    };
    if (kw.contains("storage")) {
        const std::string s = castArg<std::string>(kw["storage"], "storage", "a str");
        used.insert("storage");
        if (s == "auto") o.storage = Storage::Auto;
        else if (s == "dense") o.storage = Storage::Dense;
        else if (s == "sparse") o.storage = Storage::Sparse;
        else throw std::invalid_argument("storage must be 'auto', 'dense' or 'sparse', got '" + s + "'");
    }
    str("label", o.labelColumn);
    str("class_attribute", o.classAttribute);
    str("text_column", o.textColumn);
    str("weighting", o.weighting);
    if (kw.contains("idx_labels")) o.idxLabels = inputPath(kw["idx_labels"], "idx_labels"), used.insert("idx_labels");
    if (kw.contains("separator")) {
        const std::string s = castArg<std::string>(kw["separator"], "separator", "a str");
        used.insert("separator");
        if (s.size() != 1) throw std::invalid_argument("separator must be one character");
        o.separator = s[0];
    }
    if (kw.contains("min_df")) o.minDocumentFrequency = castArg<int>(kw["min_df"], "min_df", "an int"), used.insert("min_df");
    if (kw.contains("missing")) {
        const std::string s = castArg<std::string>(kw["missing"], "missing", "a str");
        used.insert("missing");
        if (s == "error") o.missing = MissingPolicy::Error;
        else if (s == "drop-row") o.missing = MissingPolicy::DropRow;
        else if (s == "impute") o.missing = MissingPolicy::Impute;
        else throw std::invalid_argument("missing must be 'error', 'drop-row' or 'impute', got '" + s + "'");
    }
    return o;
}

void rejectUnknown(const py::kwargs& kw, const std::set<std::string>& used, const std::string& who) {
    for (const auto& item : kw) {
        const std::string k = item.first.cast<std::string>();
        if (!used.count(k)) throw std::invalid_argument(who + ": unknown option '" + k + "'");
    }
}

std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> out;
    std::size_t b = 0;
    while (b <= s.size()) {
        const std::size_t e = std::min(s.find(',', b), s.size());
        if (e > b) out.push_back(s.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

/// Class names: a list (any values, as str) or "A,B"; `name` for messages.
std::vector<std::string> nameList(const py::object& o, const char* name) {
    if (o.is_none()) return {};
    if (py::isinstance<py::str>(o)) return splitComma(objectLabelName(o, name));
    // b"a,b" was iterated as the integers 97, 44, 98; bytes are text here, as bytes labels are.
    if (py::isinstance<py::bytes>(o)) return splitComma(objectLabelName(o, name));
    if (PyByteArray_Check(o.ptr())) return nameList(py::module_::import("builtins").attr("bytes")(o), name);
    if (!py::isinstance<py::iterable>(o)) throw py::type_error(std::string(name) + ": expected a list of class names or 'A,B', got " + typeText(o));
    std::vector<std::string> out;
    // A class given as a value is named as a label of that value is (objectLabelName): a float
    // 0.5 went through labelStrings' float rule and was refused as "y: ... y[0] is 0.500000".
    // NaN of any float type (numpy float32's is no Python float) and a class given twice (1,
    // 1.0 and True name one class) are refused here: they were blamed on y.
    const py::object isnan = py::module_::import("math").attr("isnan");
    std::set<std::string> seen;
    for (const auto& v : o) {
        if (!py::isinstance<py::str>(v) && !py::isinstance<py::bytes>(v)) {
            bool nan = false;
            try {
                nan = isnan(v).cast<bool>();
            } catch (const py::error_already_set&) {   // not a number
            }
            if (nan) throw std::invalid_argument(std::string(name) + ": NaN names no class");
        }
        out.push_back(objectLabelName(v, name));
        if (!seen.insert(out.back()).second)
            throw std::invalid_argument(std::string(name) + ": class '" + out.back() + "' is given twice");
    }
    return out;
}

// ---- long work: a worker thread, the calling thread polls for Ctrl-C --------------------------

/// Runs work() (which watches `stop` through its RunControl) on a worker thread, without the
/// GIL, while the calling thread checks for Ctrl-C every 50 ms and calls poll() (run's points).
/// Ctrl-C or an exception from poll() requests the stop; once the work has ended, the
/// exception is re-raised, Ctrl-C as KeyboardInterrupt(cancelled(result)). Else the result.
template <class Work, class Poll, class Message>
auto runInterruptibly(Work work, std::stop_source& stop, Poll poll, Message cancelled) {
    auto fut = std::async(std::launch::async, std::move(work));
    bool interrupted = false;
    std::exception_ptr pollError;
    for (;;) {
        std::future_status st;
        {
            py::gil_scoped_release release;
            st = fut.wait_for(std::chrono::milliseconds(50));
        }
        if (!interrupted && !pollError) {
            try {
                if (PyErr_CheckSignals() != 0) throw py::error_already_set();
                poll();
            } catch (py::error_already_set& e) {
                interrupted = e.matches(PyExc_KeyboardInterrupt);
                if (!interrupted) pollError = std::current_exception();
                stop.request_stop();
            }
        }
        if (st == std::future_status::ready) break;
    }
    decltype(fut.get()) r;
    {
        py::gil_scoped_release release;
        r = fut.get();   // rethrows the work's exceptions
    }
    if (pollError) std::rethrow_exception(pollError);
    if (interrupted) {
        PyErr_SetString(PyExc_KeyboardInterrupt, cancelled(r).c_str());
        throw py::error_already_set();
    }
    return r;
}

// ---- run --------------------------------------------------------------------------------------

py::object runExperimentPy(const py::object& presetOrFile, const py::object& threads, const py::object& repetitions,
                           const py::object& onPoint) {
    ExperimentSpec spec = loadPresetOrFile(pathArg(presetOrFile, "preset_or_file"));   // a preset name is a str too
    const int nThreads = castArg<int>(threads, "threads", "an int");
    if (nThreads > 0) spec.threads = nThreads;
    if (!repetitions.is_none()) spec.repetitions = castArg<int>(repetitions, "repetitions", "an int or None");
    if (!onPoint.is_none() && !PyCallable_Check(onPoint.ptr()))
        throw py::type_error("on_point: expected a function of one dict, got " + typeText(onPoint));
    spec.validate();

    std::stop_source stop;
    std::mutex mu;
    std::vector<CurvePoint> pending;
    RunControl rc;
    rc.stop = stop.get_token();
    PointCallback cb;
    if (!onPoint.is_none())
        cb = [&](const CurvePoint& p) {
            std::lock_guard lock(mu);
            pending.push_back(p);
        };
    auto deliver = [&] {
        std::vector<CurvePoint> batch;
        {
            std::lock_guard lock(mu);
            batch.swap(pending);
        }
        for (const auto& p : batch) {
            py::dict d;
            d["learner"] = p.learner;
            if (spec.multiTask()) d["task"] = spec.taskName(p.task);
            d["level"] = p.level;
            d["repetition"] = p.repetition;
            d["error"] = p.error;
            d["auc"] = p.auc;
            d["params"] = fromJson(p.params);
            d["train_seconds"] = p.trainSeconds;
            onPoint(d);
        }
    };
    const ExperimentResult r = runInterruptibly([&] { return runExperiment(spec, rc, cb); }, stop, deliver,
                                                [](const ExperimentResult& res) { return "fdlab.run cancelled: " + res.message; });
    deliver();
    py::dict out = fromJson(resultsToJson(r));
    // The summary per learner as numpy arrays, ready to plot (a multi-task experiment: the mean
    // over its tasks, as "aggregate" in the results; each task's curves are in "curves").
    py::dict curves;
    const std::vector<CurveSummary> rows = r.spec.multiTask() ? aggregateOverTasks(r) : r.summary;
    for (const LearnerSpec& l : r.spec.learners) {
        std::vector<double> lv, err, se, auc, ea, eo;
        for (const CurveSummary& c : rows) {
            if (c.learner != l.id) continue;
            lv.push_back(c.level), err.push_back(c.error.mean), se.push_back(c.error.se), auc.push_back(c.auc.mean);
            ea.push_back(c.errorAttacked.mean), eo.push_back(c.errorOthers.mean);
        }
        py::dict d;
        d["levels"] = vectorToNumpy(std::move(lv));
        d["error"] = vectorToNumpy(std::move(err));
        d["error_se"] = vectorToNumpy(std::move(se));
        d["auc"] = vectorToNumpy(std::move(auc));
        if (!r.spec.attackedClasses.empty()) {
            d["error_attacked"] = vectorToNumpy(std::move(ea));
            d["error_others"] = vectorToNumpy(std::move(eo));
        }
        curves[py::str(l.id)] = d;
    }
    out["arrays"] = curves;
    return out;
}

// ---- models from weights; pickling ------------------------------------------------------------

/// Model.linear: w (n,) / (n, 1) and a number b (binary), or w (n, K) and b (K,); a two-column w
/// becomes the binary model of column 1 minus column 0 (the same decisions, ties included).
std::shared_ptr<Model> linearModel(const py::object& wArg, const py::object& bArg, const py::object& classNames,
                                   const py::object& featureNames, const py::object& learner) {
    const py::module_ np = py::module_::import("numpy");
    const auto numbers = [&](const py::object& o, const char* name) {
        py::array a;
        try {
            a = np.attr("asarray")(o, py::arg("dtype") = "float64");
        } catch (const py::error_already_set&) {
            throw py::type_error(std::string(name) + ": expected an array of numbers, got " + typeText(o));
        }
        if (!np.attr("all")(np.attr("isfinite")(a)).cast<bool>()) throw std::invalid_argument(std::string(name) + ": has NaN or infinite values");
        return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    };
    const auto w = numbers(wArg, "w");
    const auto b = numbers(bArg, "b");
    if (w.ndim() != 1 && w.ndim() != 2) throw std::invalid_argument("w: expected shape (n,) or (n, K), got " + std::to_string(w.ndim()) + " dimensions");
    const py::ssize_t n = w.shape(0), K = w.ndim() == 2 ? w.shape(1) : 1;
    if (n == 0) throw std::invalid_argument("w: has no rows: a model needs at least one feature");
    // b is separate, so w has a row per feature: more rows than any X can have columns made a
    // model no data could meet.
    if (n > Dataset::kMaxFeatures)
        throw std::invalid_argument("w: has " + std::to_string(n) + " rows (one per feature), more than 2^24 = " +
                                    std::to_string(Dataset::kMaxFeatures) + ", the largest feature count FDLab loads");
    if (K == 0) throw std::invalid_argument("w: has no columns");
    if (b.size() != K)
        throw std::invalid_argument("b: " + std::to_string(b.size()) + " values for the " + std::to_string(K) +
                                    " column(s) of w (w is (n,) or (n, K), one column per class: scikit-learn's coef_ "
                                    "is (K, n), pass coef_.T, or use fdlab.from_sklearn)");
    LinearModel lm;
    const double* wv = w.data();
    const double* bv = b.data();
    if (K == 2) {   // [w_0, w_1] -> w_1 - w_0: s > 0 exactly when column 1 wins (ties: class 0, as argmax)
        lm.W.resize(n, 1);
        for (py::ssize_t j = 0; j < n; ++j) lm.W(j, 0) = wv[j * 2 + 1] - wv[j * 2];
        lm.b = Eigen::VectorXd::Constant(1, bv[1] - bv[0]);
    } else {
        lm.W.resize(n, K);
        for (py::ssize_t j = 0; j < n; ++j)
            for (py::ssize_t k = 0; k < K; ++k) lm.W(j, k) = wv[j * K + k];
        lm.b = Eigen::Map<const Eigen::VectorXd>(bv, K);
    }
    const py::ssize_t classes = K == 1 ? 2 : K;
    auto model = std::make_shared<Model>();
    model->classValues = classNames.is_none() ? np.attr("arange")(classes) : np.attr("asarray")(classNames);
    std::vector<std::string> names;
    try {
        names = labelStrings(model->classValues);
    } catch (const std::invalid_argument& e) {   // labelStrings names its argument y
        std::string what = e.what();
        if (what.starts_with("y: ")) what.erase(0, 3);
        throw std::invalid_argument("class_names: " + what);
    }
    if (static_cast<py::ssize_t>(names.size()) != classes)
        throw std::invalid_argument("class_names: " + std::to_string(names.size()) + " names for a model of " + std::to_string(classes) + " classes");
    if (std::set<std::string>(names.begin(), names.end()).size() != names.size())
        throw std::invalid_argument("class_names: the names are not distinct");
    lm.classNames = names;
    ModelMetadata meta;
    meta.learner = castArg<std::string>(learner, "learner", "a str");
    meta.classNames = names;
    // Default names (f1..fn) are not built here: Model::text() and the feature_names property make
    // them when asked. (24,598 of them, copied three times, were most of from_sklearn's 2 ms.)
    if (!featureNames.is_none()) {
        meta.featureNames = featureNameArg(featureNames);
        if (static_cast<py::ssize_t>(meta.featureNames.size()) != n)
            throw std::invalid_argument("feature_names: " + std::to_string(meta.featureNames.size()) + " names for " + std::to_string(n) + " features");
    }
    FitResult f;
    f.model = lm;
    f.status = Status::Converged;
    model->trained = wrapLinear(std::move(f));
    model->learner = meta.learner;
    model->classNames = names;
    model->featureNames = meta.featureNames;
    model->savedLinear = SavedModel{std::move(lm), std::move(meta)};
    model->training.preprocessing = Preprocessor{};   // weights for the data as given
    model->training.hasSplitField = true;             // "split": null: trained outside a split
    model->fitKnown = false;
    return model;
}

/// Pickle state: the model file's text, the class labels (their dtype), the fit record and the
/// registry name and parameters (a classifier file records only the model type).
py::tuple modelState(const Model& m) {
    const FitResult& f = m.trained.fit;
    return py::make_tuple(m.text(), m.classValues, m.fitKnown,
                          py::make_tuple(std::string(toString(f.status)), f.objective, f.gap, f.iterations, f.elapsed, f.message),
                          m.learner, m.params.dump());
}

std::shared_ptr<Model> modelFromState(const py::tuple& state) {
    if (state.size() != 6) throw std::invalid_argument("not a pickled fdlab.Model of this FDLab version");
    auto model = modelFromFileText(state[0].cast<std::string>(), "pickled fdlab.Model");
    model->classValues = state[1];
    model->fitKnown = state[2].cast<bool>();
    model->learner = state[4].cast<std::string>();
    model->params = parseJsonText(state[5].cast<std::string>(), "pickled fdlab.Model (params)");
    const py::tuple fit = state[3];
    FitResult& f = model->trained.fit;
    const std::string status = fit[0].cast<std::string>();
    for (Status s : {Status::Converged, Status::MaxIterations, Status::Cancelled, Status::Failed})
        if (status == toString(s)) f.status = s;
    f.objective = fit[1].cast<double>();
    f.gap = fit[2].cast<double>();
    f.iterations = fit[3].cast<long>();
    f.elapsed = fit[4].cast<double>();
    f.message = fit[5].cast<std::string>();
    return model;
}

}  // namespace

}  // namespace fdlab::python

namespace pybind11::detail {

/// Every binding that takes a Model (each method's and property's self, attack(model, ...)) loads
/// it here. Model.__new__(Model) makes an instance without a Model (pickle's __setstate__, which
/// does not come through here, fills it in); pybind11 2.10 handed the bindings uninitialised
/// memory for it, and any use crashed the interpreter. Such an instance is a TypeError instead.
template <>
class type_caster<fdlab::python::Model> : public type_caster_base<fdlab::python::Model> {
public:
    bool load(handle src, bool convert) {
        if (isinstance<fdlab::python::Model>(src) &&
            !reinterpret_cast<instance*>(src.ptr())->get_value_and_holder().holder_constructed())
            throw type_error("fdlab.Model was not initialised (Model.__new__ makes an empty object): create models with "
                             "fdlab.train(), fdlab.load_model(), Model.linear() or fdlab.from_sklearn()");
        return type_caster_base<fdlab::python::Model>::load(src, convert);
    }
};

}  // namespace pybind11::detail

PYBIND11_MODULE(_fdlab, m) {
    using namespace fdlab;
    using namespace fdlab::python;
    m.doc() = "FDLab, the Feature Deletion Lab, from Python: the same C++ core as fdlab-cli and the GUI.\n\n"
              "Learners robust to deleted/corrupted features (FDROP, Dekel-Shamir LP, MCF, LN-robust SVM,\n"
              "FeatureBoost, ...), exact worst-case attacks and error-versus-budget curves on numpy arrays and\n"
              "scipy.sparse CSR matrices. Training, attacks and curves copy the features once into FDLab's\n"
              "own storage (see last_copy_info()); results come back as numpy arrays without a copy.";

    static py::exception<DataError> dataError(m, "DataError", PyExc_Exception);
    dataError.doc() = "A data or model file is malformed. str(e) reads 'FILE:LINE: message'; e.file and e.line give the parts.";
    // Messages quote file contents, which need not be UTF-8 (a model file with the byte 0xff in a
    // name raised UnicodeDecodeError instead of the DataError naming the file): undecodable
    // bytes read as \xff.
    static const auto text = [](const std::string& s) {
        return py::reinterpret_steal<py::object>(
            PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "backslashreplace"));
    };
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const DataError& e) {
            py::object exc = py::reinterpret_borrow<py::object>(dataError.ptr())(text(e.what()));
            exc.attr("file") = py::reinterpret_steal<py::object>(   // the file's own name (os.fsdecode's form)
                PyUnicode_DecodeUTF8(e.file().data(), static_cast<Py_ssize_t>(e.file().size()), "surrogateescape"));
            exc.attr("line") = e.line();
            PyErr_SetObject(dataError.ptr(), exc.ptr());
        } catch (const nlohmann::json::exception& e) {
            // Whatever core did not word itself: nlohmann's text without its "[json.exception...]" tag.
            PyErr_SetObject(PyExc_ValueError, text(jsonErrorText(e)).ptr());
        } catch (const std::invalid_argument& e) {
            PyErr_SetObject(PyExc_ValueError, text(e.what()).ptr());
        } catch (const py::builtin_exception&) {
            throw;   // pybind11's own (py::value_error...) keep their types
        } catch (const std::runtime_error& e) {
            // A file name with undecodable bytes in the message (a write that failed) raised
            // UnicodeDecodeError instead of the error.
            PyErr_SetObject(PyExc_RuntimeError, text(e.what()).ptr());
        }
    });

    m.attr("__version__") = FDLAB_VERSION;

    m.def("last_copy_info", [] {
        py::dict d;
        d["copied"] = g_lastCopy.copied;
        d["what"] = g_lastCopy.what;
        return d;
    }, "last_copy_info() -> dict\n\n"
       "What the last call that took features did with them (this thread): {'copied': bool, 'what': str}.\n"
       "train/attack/curve always copy once into FDLab's Dataset (it owns its storage): a C-order\n"
       "float32 array is one memcpy, other dtypes/orders are converted to float32 C-order first, and a\n"
       "scipy.sparse CSR matrix is copied as CSR (never densified). decision_function/predict read a\n"
       "C-order float32 array, or a CSR matrix with float32 data and int32 indices, in place (copied=False).");

    m.def("learners", [] {
        py::list out;
        for (const auto& l : learnerCatalogue()) {
            py::dict d;
            d["name"] = l.name;
            d["title"] = l.title;
            d["paper"] = l.paper;
            d["formula"] = l.formula;
            d["linear"] = l.linear;
            // What trainLearner really does with more than two classes: binary-only linear
            // learners run one-vs-rest (registry.cpp, linearFit); a binary-only non-linear one
            // (the kernel SVM) refuses; the others are multi-class themselves.
            const std::string multi = multiClassHandling(l);
            d["multiclass"] = multi;
            d["binary_only"] = multi == "refused";
            // Sparse X: linear learners iterate over stored entries; the others get a dense copy.
            d["sparse"] = l.linear ? "native" : "densified";
            d["params"] = paramsOut(l.params);
            out.append(d);
        }
        return out;
    }, "learners() -> list of dict\n\nEvery registry learner: name (what train() accepts), title, paper, formula, linear,\n"
       "multiclass ('native': trains on any number of classes; 'one-vs-rest': a binary learner that train()\n"
       "runs one-vs-rest on more than two classes; 'refused': binary data only), binary_only (multiclass ==\n"
       "'refused'), sparse ('native': scipy.sparse X stays sparse; 'densified': trained on a dense copy, refused\n"
       "when too large) and its parameters (default, min, max, choices, doc).");

    m.def("threats", [] {
        py::list out;
        for (const auto& t : threatRegistry()) {
            py::dict d;
            d["name"] = t.name;
            d["title"] = t.title;
            d["source"] = t.source;
            d["level"] = t.levelLabel;
            d["training_time"] = t.trainingTime;
            d["needs_linear_model"] = t.needsLinearModel;
            d["exact"] = t.exact;
            d["randomised"] = t.randomised;
            d["doc"] = t.doc;
            d["params"] = paramsOut(t.params);
            out.append(d);
        }
        return out;
    }, "threats() -> list of dict\n\nEvery registry threat (name, title, source, level axis, flags, doc) and its own\n"
       "parameters (default, min, max, choices, doc): the names attack()/curve() take in threat_params.");

    m.def("datasets", [] {
        py::list out;
        for (const auto& b : bundledDatasets()) {
            py::dict d;
            d["name"] = b.name;
            d["title"] = b.title;
            d["files"] = b.files;
            d["licence"] = b.licence;
            d["synthetic"] = b.synthetic;
            out.append(d);
        }
        return out;
    }, "datasets() -> list of dict\n\nThe bundled datasets and generators (name, title, files, licence, synthetic).");

    m.def("bundled", [](const py::object& name) { return datasetOut(loadBundled(castArg<std::string>(name, "name", "a str"))); },
          py::arg("name"),
          "bundled(name) -> (X, y, info)\n\n"
          "A bundled dataset ('mnist', 'spambase', 'vote', ...; see datasets()). X is a float32 numpy array\n"
          "(owning FDLab's storage, no copy) or a scipy.sparse.csr_matrix for sparse sets; y holds the class\n"
          "names of each row (numpy str array); info has name, class_names, feature_names, image_shape\n"
          "(rows, cols) or None, importance, labels (class indices) and sparse.\n"
          "Raises ValueError for an unknown name, fdlab.DataError for a broken file.");

    m.def("load", [](const py::object& path, const py::kwargs& kw) {
        const std::string file = inputPath(path, "path");
        std::set<std::string> used;
        const LoadOptions o = loadOptionsFrom(kw, used);
        rejectUnknown(kw, used, "load");
        return datasetOut(loadDataFile(file, o));
    }, py::arg("path"),
          "load(path, **options) -> (X, y, info)\n\n"
          "Reads an IDX, CSV, LIBSVM or ARFF file (or a text corpus) with FDLab's loaders; returns as bundled().\n"
          "path: a str, bytes or pathlib.Path (FileNotFoundError when nothing is there).\n"
          "Options: storage='auto'|'dense'|'sparse', label=COLUMN (CSV), separator=',', class_attribute=NAME\n"
          "(ARFF), missing='impute'|'drop-row'|'error' (ARFF), text_column=COL, weighting='binary'|'tf'|'tf-idf',\n"
          "min_df=2, idx_labels=PATH. Class names are sorted numerically when all numeric, else\n"
          "lexicographically. Raises fdlab.DataError ('FILE:LINE: message') for a malformed file.");

    m.def("prepare", [](const py::object& bundled, const py::object& data, const py::object& positive,
                        const py::object& negative, const py::object& oneVsRest, const py::object& scale,
                        const py::object& testFraction, const py::object& seed, const py::object& importance,
                        const py::kwargs& kw) {
        ExperimentSpec s;
        std::set<std::string> used;
        s.dataset.options = loadOptionsFrom(kw, used);
        rejectUnknown(kw, used, "prepare");
        if (bundled.is_none() == data.is_none()) throw std::invalid_argument("give exactly one of bundled= and data=");
        if (!bundled.is_none()) s.dataset.bundled = castArg<std::string>(bundled, "bundled", "a str");
        else s.dataset.file = inputPath(data, "data");
        if (!positive.is_none() || !negative.is_none()) {
            s.task.kind = TaskSpec::Kind::Binary;
            s.task.positive = nameList(positive, "positive");
            s.task.negative = nameList(negative, "negative");
        } else if (!oneVsRest.is_none()) {
            s.task.kind = TaskSpec::Kind::OneVsRest;
            s.task.positive = nameList(oneVsRest, "one_vs_rest");
        }
        s.preprocessing = scalingFromString(castArg<std::string>(scale, "scale", "a str"));
        s.split.kind = SplitSpec::Kind::Fraction;
        s.split.testFraction = castArg<double>(testFraction, "test_fraction", "a number");
        s.split.validationFraction = 0.0;
        s.seed = castArg<std::uint64_t>(seed, "seed", "a non-negative int");
        const std::string imp = pathArg(importance, "importance");   // a kind ("uniform") or a file
        if (imp == "dataset") s.importance.kind = ImportanceSpec::Kind::Dataset;
        else if (imp == "uniform") s.importance.kind = ImportanceSpec::Kind::Uniform;
        else if (imp == "mutual-information") s.importance.kind = ImportanceSpec::Kind::MutualInformation;
        else s.importance.kind = ImportanceSpec::Kind::Csv, s.importance.path = inputPath(importance, "importance");
        PreparedSplit ps = prepareRepetition(loadTaskData(s), s, 0);
        py::dict out;
        out["train"] = datasetOut(std::move(ps.train));
        out["test"] = datasetOut(std::move(ps.test));
        if (ps.preprocessor.scaling != Scaling::None)   // for train(info=...): the model file records it
            for (const char* part : {"train", "test"})
                out[part].cast<py::tuple>()[2].cast<py::dict>()["preprocessing"] = fromJson(preprocessingToJson(ps.preprocessor));
        return out;
    }, py::kw_only(), py::arg("bundled") = py::none(), py::arg("data") = py::none(), py::arg("positive") = py::none(),
          py::arg("negative") = py::none(), py::arg("one_vs_rest") = py::none(), py::arg("scale") = "none",
          py::arg("test_fraction") = 0.3, py::arg("seed") = 1, py::arg("importance") = "dataset",
          "prepare(*, bundled=None, data=None, positive=None, negative=None, one_vs_rest=None, scale='none',\n"
          "        test_fraction=0.3, seed=1, importance='dataset', **load_options) -> {'train': (X, y, info), 'test': (X, y, info)}\n\n"
          "The data exactly as fdlab-cli train/eval/attack prepare it from the same DATA-OPTIONS: the task\n"
          "(positive/negative class names, a list or 'A,B'; binary class index 1 = positive), the scaling\n"
          "fitted on the training part, and the stratified split (test_fraction, seed). data: a file (str or\n"
          "pathlib.Path); importance: 'dataset', 'uniform', 'mutual-information' or a CSV file of v_j.\n"
          "Use it to get the CLI's numbers from Python. For a binary task train with classes=info['class_names']\n"
          "of the train part. With a scaling, info also holds 'preprocessing' (the scaling fitted on the train\n"
          "part): train(..., info=info) records it, so that the model's file makes fdlab-cli eval/attack and the\n"
          "GUI scale their raw files as for fdlab-cli train --scale, while the model (also after save/load or\n"
          "pickling) takes X scaled as prepare() returns it (Model.scaling names it; Model.scales_input is False).");

    py::class_<Model, std::shared_ptr<Model>>(m, "Model",
                                               "A trained (or loaded) FDLab model: any registry learner, or any linear model\n"
                                               "(Model.linear, fdlab.from_sklearn). Create with fdlab.train(), fdlab.load_model(),\n"
                                               "Model.linear() or fdlab.from_sklearn(). Pickles (joblib, multiprocessing) to a model\n"
                                               "that predicts the same.")
        .def("decision_function", [](const Model& self, const py::handle& X) {
            const Eigen::MatrixXd s = scoreRows(self, X);
            return matrixOut(s, s.cols() == 1);
        }, py::arg("X"),
             "decision_function(X) -> ndarray\n\nScores: shape (m,) for binary models (positive = class_names[1]),\n"
             "(m, K) for multi-class. X is checked as train() checks it (2-D, numbers, finite, the model's feature\n"
             "count, CSR indices in range; TypeError/ValueError otherwise). Reads C-order float32 arrays and\n"
             "float32/int32 CSR matrices with sorted indices in place. A model read from a file that records a\n"
             "scaling (fdlab-cli train --scale) scales X with it first, as fdlab-cli eval does: give it raw data.")
        .def("predict", [](const Model& self, const py::handle& X) {
            const Eigen::MatrixXd s = scoreRows(self, X);
            std::vector<std::int64_t> predicted(static_cast<std::size_t>(s.rows()));
            for (Eigen::Index i = 0; i < s.rows(); ++i) {
                int c = 0;
                if (s.cols() == 1) c = s(i, 0) > 0 ? 1 : 0;
                else s.row(i).maxCoeff(&c);
                predicted[static_cast<std::size_t>(i)] = c;
            }
            return self.classes().attr("take")(vectorToNumpy(std::move(predicted)));
        }, py::arg("X"),
             "predict(X) -> ndarray\n\nThe predicted classes (binary: classes[1] when the score is > 0; multi-class:\n"
             "argmax, ties to the lowest index), as FDLab's Scorer decides, as values of `classes`: the labels'\n"
             "own type (y of ints gives ints, also after save/load_model and pickling); class names (str) for a\n"
             "model file from the CLI or the GUI. X is checked and scaled as in decision_function.\n"
             "A tie (score 0, or two classes with the top score) gets a class here, but FDLab's error rates\n"
             "(curve(), attack(), fdlab-cli eval) count it as an error: mean(predict(X) != y) can be lower\n"
             "than their error where ties occur (trees, kNN).")
        .def_property_readonly("classes", &Model::classes,
                               "ndarray: the class labels in class index order, with the dtype of the y given to train()\n"
                               "(kept by save() and pickling; str for a model file from the CLI or the GUI).")
        .def_property_readonly("weights", [](const Model& self) -> py::object {
            if (!self.trained.linear) return py::none();
            const Eigen::MatrixXd& W = self.trained.linear->W;
            return matrixOut(W, W.cols() == 1);
        }, "Linear models: w, shape (n,) for binary, (n, K) for multi-class; None for non-linear models.")
        .def_property_readonly("bias", [](const Model& self) -> py::object {
            if (!self.trained.linear) return py::none();
            const Eigen::VectorXd& b = self.trained.linear->b;
            if (b.size() == 1) return py::float_(b(0));
            return vectorToNumpy(std::vector<double>(b.data(), b.data() + b.size()));
        }, "Linear models: b (a float for binary, shape (K,) for multi-class); None otherwise.")
        .def_property_readonly("is_linear", [](const Model& self) { return static_cast<bool>(self.trained.linear); },
                               "True when the model is linear (worst-case attacks need that); also model.linear.")
        .def_property_readonly("fit_info", &fitInfo,
                               "dict: status ('converged', 'max-iterations', ...), objective, gap, iterations, elapsed (s),\n"
                               "message. None where nothing is known: gap for solvers without one, and every entry of a\n"
                               "model read from a file or made by Model.linear/from_sklearn (files record no fit).")
        .def_property_readonly("class_names", [](const Model& self) { return self.classNames; },
                               "The class names in index order (binary: [negative, positive]).")
        .def_property_readonly("feature_names", &Model::featureNameList, "The feature names (f1..fn when none were given).")
        .def_property_readonly("learner", [](const Model& self) { return self.learner; },
                               "The registry learner name ('linear' or 'sklearn.<Class>' for Model.linear/from_sklearn).")
        .def_property_readonly("params", [](const Model& self) { return fromJson(self.params); },
                               "The complete parameters (defaults filled in) the model was trained with.")
        .def_property_readonly("scaling", [](const Model& self) -> py::object {
            if (const Preprocessor* p = self.recordedScaling()) return py::str(toString(p->scaling));
            return py::none();
        }, "The scaling a model file records ('zero-one', ...), or None.")
        .def_property_readonly("scales_input", [](const Model& self) { return self.scaling() != nullptr; },
                               "True when scoring scales X with the recorded scaling first (a file from fdlab-cli train --scale,\n"
                               "which expects raw data); False when X is taken as given (no scaling, or a model trained on\n"
                               "prepare(scale=...) data through train(info=...), which takes prepare()'s scaled X).")
        .def_property_readonly("n_features", &Model::features, "Number of input features.")
        .def("save", [](const Model& self, const py::object& path) { writeFromPython(outputPath(path, "path"), self.text()); },
             py::arg("path"),
             "save(path)\n\nWrites the model file the CLI and the GUI read (atomic; path a str, bytes or pathlib.Path; ValueError when\n"
             "empty, FileNotFoundError when its directory does not exist): linear models as fdlab-linear-model JSON, kernel SVMs as\n"
             "fdlab-kernel-svm, trees/kNN/nets/ensembles as fdlab-classifier. The labels' dtype is recorded, so\n"
             "load_model() predicts in it again.")
        .def_static("_linear", [](const py::object& w, const py::object& b, const py::object& classNames,
                                 const py::object& featureNames, const py::object& learner) {
            return linearModel(w, b, classNames, featureNames, learner);
        }, py::arg("w"), py::arg("b"), py::kw_only(), py::arg("class_names") = py::none(), py::arg("feature_names") = py::none(),
            py::arg("learner") = "linear",
            "Model.linear(w, b, *, class_names=None, feature_names=None, learner='linear') -> Model\n\n"
            "Any linear classifier as an FDLab model, for attack()/curve()/save(): binary scores b + w.x with w\n"
            "of shape (n,) (or (n, 1)) and b a number, positive class class_names[1]; K classes: w of shape\n"
            "(n, K), b of shape (K,), prediction argmax; n at most 2^24, the largest feature count FDLab loads. class_names: the K (binary: 2) class labels in column\n"
            "order, of any dtype (predict answers in it; default 0..K-1). feature_names: n names (default\n"
            "f1..fn; give the data's names for a file fdlab-cli eval checks against named data).")
        .def(py::pickle([](const Model& self) { return modelState(self); },
                        [](const py::tuple& state) { return modelFromState(state); }))
        .def("__repr__", [](const Model& self) {
            return "<fdlab.Model " + self.learner + " n_features=" + std::to_string(self.features()) +
                   " classes=" + std::to_string(self.classNames.size()) + ">";
        });

    m.def("train", [](const py::object& nameArg, const py::handle& X, const py::handle& y, const py::object& params,
                      const py::object& importance, const py::object& featureNames, const py::object& imageShape,
                      const py::object& classes, const py::object& info) {
        const std::string name = castArg<std::string>(nameArg, "name", "a learner name (str)");
        DataArgs extra{featureNames, imageShape, importance};
        py::object cls = classes;
        json prescaled;   // info['preprocessing']: X was scaled by prepare()
        if (!info.is_none()) {   // the metadata dict load()/bundled()/prepare() return
            if (!py::isinstance<py::dict>(info)) throw py::type_error("info: expected the dict load()/bundled()/prepare() return, got " + typeText(info));
            const py::dict i = info.cast<py::dict>();
            if (extra.featureNames.is_none() && i.contains("feature_names")) extra.featureNames = i["feature_names"];
            if (extra.imageShape.is_none() && i.contains("image_shape")) extra.imageShape = i["image_shape"];
            if (cls.is_none() && i.contains("class_names")) cls = i["class_names"];
            if (i.contains("preprocessing") && !i["preprocessing"].is_none()) prescaled = toJson(i["preprocessing"], "info['preprocessing']");
        }
        const json p = toJson(params, "params");
        const json complete = completeParams(name, p);   // ValueError before any work
        auto d = std::make_shared<Dataset>(makeDataset(X, y, nameList(cls, "classes"), extra));
        const CopyInfo copy = g_lastCopy;
        auto model = std::make_shared<Model>();
        if (!prescaled.is_null()) {
            // Checked as a model file's is (a scaling for as many features as X has).
            model->inputScaling = preprocessingFromJson(prescaled, JsonReader("info['preprocessing']"),
                                                        static_cast<std::size_t>(d->features()));
            if (model->inputScaling->scaling == Scaling::None) model->inputScaling.reset();
        }
        std::stop_source stop;
        RunControl rc;
        rc.stop = stop.get_token();
        model->trained = runInterruptibly([&] { return trainLearner(name, *d, p, rc); }, stop, [] {},
                                          [&](const TrainedModel&) { return "fdlab.train cancelled: " + name + " stopped"; });
        if (model->trained.fit.status == Status::Failed) throw std::runtime_error("training failed: " + model->trained.fit.message);
        model->learner = name;
        model->params = complete;
        model->classNames = d->classNames;
        model->featureNames = d->featureNameList();
        model->imageShape = d->imageShape;
        model->classValues = classValuesOf(*d, y);
        model->train = std::move(d);
        g_lastCopy = copy;
        return model;
    }, py::arg("name"), py::arg("X"), py::arg("y"), py::arg("params") = py::dict(), py::arg("importance") = py::none(),
          py::kw_only(), py::arg("feature_names") = py::none(), py::arg("image_shape") = py::none(), py::arg("classes") = py::none(),
          py::arg("info") = py::none(),
          "train(name, X, y, params={}, importance=None, *, feature_names=None, image_shape=None, classes=None,\n"
          "      info=None) -> Model\n\n"
          "Trains registry learner `name` (see learners()) on X (numpy 2-D, any real dtype/order, or\n"
          "scipy.sparse CSR) and labels y (ints, bools or strings; the model's predict() returns the same type).\n"
          "X must hold finite numbers and at least one column (TypeError/ValueError otherwise). Classes are\n"
          "sorted as the loaders sort them unless `classes` gives the order (binary: [negative, positive]).\n"
          "info: the dict load()/bundled()/prepare() return, supplying feature_names, image_shape and classes\n"
          "(so saved models match the CLI's data), and prepare()'s scaling ('preprocessing'; see prepare()).\n"
          "importance: one v_j > 0 per feature. params: a dict; numpy scalars are fine ({'K': np.int64(3)}). Parameters are checked by the CLI's code: a bad name or value\n"
          "raises ValueError with its message. X is copied once into FDLab's storage (last_copy_info()); the\n"
          "model keeps that copy for save(). Training runs without the GIL on a worker thread; Ctrl-C stops it\n"
          "within a fraction of a second (KeyboardInterrupt).");

    m.def("load_model", [](const py::object& path) {
        const std::string file = inputPath(path, "path");
        std::string text;
        {
            std::ifstream in(file, std::ios::binary);
            if (!in) throw DataError(file, 0, "cannot open the model file");
            std::ostringstream ss;
            ss << in.rdbuf();
            text = ss.str();
        }
        return modelFromFileText(text, file);
    }, py::arg("path"),
          "load_model(path) -> Model\n\nAny FDLab model file (linear, kernel SVM, classifier), e.g. one written by\n"
          "fdlab-cli train, the GUI or Model.save (path a str, bytes or pathlib.Path; FileNotFoundError when missing).\n"
          "A file that records a scaling (fdlab-cli train --scale) applies it to X in every call, as the CLI does.\n"
          "Raises fdlab.DataError naming the file for a broken one.");

    m.def("attack", [](const Model& model, const py::handle& X, const py::handle& y, const py::object& threat, const py::object& budget,
                       const py::object& importance, const py::object& seed, const py::object& attackedClasses,
                       const py::object& feature, const py::object& features, const py::object& regions,
                       const py::object& replacement, const py::object& threatParams) {
        const Dataset test = testSet(model, X, y, importance);
        const CopyInfo copy = g_lastCopy;
        AttackSpec at = attackAtLevel(
            attackSpecFrom(model, castArg<std::string>(threat, "threat", "a threat name (str)"),
                           castArg<std::uint64_t>(seed, "seed", "a non-negative int"), attackedClasses, feature, features,
                           regions, castArg<std::string>(replacement, "replacement", "a str"), threatParams),
            castArg<double>(budget, "budget", "a number"));
        at.validate(test);
        AttackResult r;
        {
            py::gil_scoped_release release;
            r = runAttack(test, *model.trained.scorer, at);
        }
        const Scorer& s = *model.trained.scorer;
        std::vector<double> before(static_cast<std::size_t>(test.rows())), after(before.size());
        for (int i = 0; i < test.rows(); ++i) {
            before[static_cast<std::size_t>(i)] = s.margin(test.row(i), test.labels[static_cast<std::size_t>(i)]);
            after[static_cast<std::size_t>(i)] = s.margin(r.attacked.row(i), test.labels[static_cast<std::size_t>(i)]);
        }
        py::dict out;
        py::list deleted;
        for (auto& v : r.deleted) deleted.append(vectorToNumpy(std::move(v)));
        out["deleted"] = deleted;
        out["margins_before"] = vectorToNumpy(std::move(before));
        out["margins_after"] = vectorToNumpy(std::move(after));
        out["damage"] = vectorToNumpy(std::move(r.damage));
        out["damage_bound"] = vectorToNumpy(std::move(r.damageBound));
        out["status"] = std::string(toString(r.status));
        out["message"] = r.message;
        out["elapsed"] = r.elapsed;
        out["attacked"] = featuresOut(r.attacked);
        g_lastCopy = copy;
        return out;
    }, py::arg("model"), py::arg("X"), py::arg("y"), py::kw_only(), py::arg("threat"), py::arg("budget") = 0.0,
          py::arg("importance") = py::none(), py::arg("seed") = 1, py::arg("attacked_classes") = py::none(),
          py::arg("feature") = py::none(), py::arg("features") = py::none(), py::arg("regions") = py::none(),
          py::arg("replacement") = "zero", py::arg("threat_params") = py::none(),
          "attack(model, X, y, *, threat, budget=0, importance=None, seed=1, attacked_classes=None, feature=None,\n"
          "       features=None, regions=None, replacement='zero', threat_params=None) -> dict\n\n"
          "Runs an FDLab attack (threat names as fdlab-cli: 'worst-case-count', 'worst-case-value-exact',\n"
          "'random-deletion', 'feature-corruption', 'group-corruption', ...) at level `budget` on every row.\n"
          "model: any fdlab.Model (also Model.linear / from_sklearn). Returns 'attacked' (same layout as X:\n"
          "float32 ndarray or csr_matrix; scaled when the model's file records a scaling), 'deleted' (per row,\n"
          "an int array of 0-based deleted/corrupted feature indices), 'margins_before'/'margins_after'\n"
          "(true-class margins; <= 0 is an error), 'damage' and 'damage_bound' (worst-case threats), status,\n"
          "message, elapsed. y must use the model's classes. importance: v_j per feature (value budgets).\n"
          "regions=(r, c) for group-corruption on images. threat_params: a dict of any of the threat's own\n"
          "parameters (see fdlab.threats()); a name it does not take is an error. Corruption donors are X\n"
          "itself. The GIL is released.");

    m.def("curve", [](const Model& model, const py::handle& X, const py::handle& y, const py::object& threatArg,
                      const py::object& levelsArg, const py::object& seedArg, const py::object& importance,
                      const py::object& attackedClasses, const py::object& feature, const py::object& features,
                      const py::object& regions, const py::object& replacement, const py::object& donorsX,
                      const py::object& donorsY, const py::object& repetitionsArg, const py::object& threatParams) {
        const std::string threat = castArg<std::string>(threatArg, "threat", "a threat name (str)");
        const std::vector<double> levels = castArg<std::vector<double>>(levelsArg, "levels", "a sequence of numbers");
        const auto seed = castArg<std::uint64_t>(seedArg, "seed", "a non-negative int");
        const int repetitions = castArg<int>(repetitionsArg, "repetitions", "an int");
        if (repetitions < 1) throw std::invalid_argument("repetitions must be >= 1, got " + std::to_string(repetitions));
        const Dataset test = testSet(model, X, y, importance);
        const CopyInfo copy = g_lastCopy;
        std::optional<Dataset> donors;
        if (donorsX.is_none() != donorsY.is_none())   // y's own message blamed y
            throw std::invalid_argument(donorsX.is_none() ? "donors_y is given without donors_X: give both or neither"
                                                          : "donors_X is given without donors_y: give both or neither");
        if (!donorsX.is_none()) donors = testSet(model, donorsX, donorsY, py::none());
        AttackSpec at = attackSpecFrom(model, threat, seed, attackedClasses, feature, features, regions,
                                       castArg<std::string>(replacement, "replacement", "a str"), threatParams);
        // Repetition r draws the attack with seed + r (repetition 0 is fdlab-cli eval --attack-seed seed).
        std::vector<std::vector<LevelScore>> runs(static_cast<std::size_t>(repetitions));
        {
            py::gil_scoped_release release;
            for (int r = 0; r < repetitions; ++r) {
                at.seed = seed + static_cast<std::uint64_t>(r);
                runs[static_cast<std::size_t>(r)] = evaluateAtLevels(model.trained, test, at, levels, {}, donors ? &*donors : nullptr);
            }
        }
        const auto column = [&](auto field) {
            std::vector<double> mean, se;
            py::array_t<double> all({static_cast<py::ssize_t>(repetitions), static_cast<py::ssize_t>(levels.size())});
            auto a = all.mutable_unchecked<2>();
            for (std::size_t k = 0; k < levels.size(); ++k) {
                std::vector<double> v;
                for (std::size_t r = 0; r < runs.size(); ++r) v.push_back(a(r, k) = field(runs[r][k]));
                const MeanSe m = meanAndStandardError(v);
                mean.push_back(m.mean), se.push_back(repetitions > 1 ? m.se : 0.0);
            }
            return std::make_tuple(vectorToNumpy(std::move(mean)), vectorToNumpy(std::move(se)), all);
        };
        const auto [err, errSe, errRuns] = column([](const LevelScore& s) { return s.error; });
        py::dict out;
        out["levels"] = vectorToNumpy(std::vector<double>(levels));
        out["error"] = err;
        out["error_se"] = errSe;
        out["error_runs"] = errRuns;
        out["auc"] = std::get<0>(column([](const LevelScore& s) { return s.auc; }));
        if (!at.attackedClasses.empty()) {
            out["error_attacked"] = std::get<0>(column([](const LevelScore& s) { return s.errorAttacked; }));
            out["error_others"] = std::get<0>(column([](const LevelScore& s) { return s.errorOthers; }));
        }
        g_lastCopy = copy;
        return out;
    }, py::arg("model"), py::arg("X"), py::arg("y"), py::kw_only(), py::arg("threat") = "none",
          py::arg("levels") = std::vector<double>{0.0}, py::arg("seed") = 1, py::arg("importance") = py::none(),
          py::arg("attacked_classes") = py::none(), py::arg("feature") = py::none(), py::arg("features") = py::none(),
          py::arg("regions") = py::none(), py::arg("replacement") = "zero", py::arg("donors_X") = py::none(),
          py::arg("donors_y") = py::none(), py::arg("repetitions") = 1, py::arg("threat_params") = py::none(),
          "curve(model, X, y, *, threat='none', levels=[0], seed=1, importance=None, attacked_classes=None, feature=None,\n"
          "      features=None, regions=None, replacement='zero', donors_X=None, donors_y=None, repetitions=1,\n"
          "      threat_params=None) -> dict\n\n"
          "Error (fraction with margin <= 0) and AUC (binary; NaN for multi-class) of the model (any fdlab.Model,\n"
          "also Model.linear / from_sklearn) on X attacked at each level, by the same code as fdlab-cli eval\n"
          "(evaluateAtLevels): same data, threat, levels and seed (the CLI's --attack-seed) give the same\n"
          "numbers. Corruption threats draw replacement values from donors_X/donors_y (fdlab-cli eval uses the\n"
          "training part) or X itself. Returns 'levels', 'error', 'auc' arrays (and 'error_attacked'/\n"
          "'error_others' for one-sided threats). repetitions=R draws a random threat R times (seeds seed,\n"
          "seed+1, ...): the arrays are then means over the draws, 'error_se' their standard errors and\n"
          "'error_runs' the R x levels errors. threat_params: the threat's own parameters by name, as in\n"
          "attack(). GIL released.");

    // The keys run() returns: those of the results file (resultsToJson) and 'arrays';
    // test_habits.py checks this list against a real run.
    static const char* runDoc =
        "run(preset_or_file, *, threads=0, repetitions=None, on_point=None) -> dict\n\n"
        "Runs an experiment (a preset name, see presets(), or an experiment JSON file as a str or pathlib.Path)\n"
        "as fdlab-cli run does and returns its results file as a dict (the JSON `fdlab-cli run --output`\n"
        "writes) plus 'arrays'. Its keys: curves, elapsed_seconds, fdlab_version, message, points, provenance, "
        "results_schema, spec, status, threads, warnings, arrays.\n"
        "'points': every (learner, level, repetition) point; 'curves': mean and standard error per learner and\n"
        "level; 'arrays': per learner id, numpy arrays 'levels', 'error', 'error_se', 'auc' (and\n"
        "'error_attacked'/'error_others' for one-sided threats). threads=0 uses every core. The work runs on a\n"
        "worker thread with the GIL released; on_point(dict) is called on the calling thread as points finish.\n"
        "Ctrl-C (KeyboardInterrupt) stops the run cleanly within ~0.1 s of the solvers noticing, and is\n"
        "re-raised; an exception in on_point also stops the run and is re-raised.";
    m.def("run", &runExperimentPy, py::arg("preset_or_file"), py::kw_only(), py::arg("threads") = 0,
          py::arg("repetitions") = py::none(), py::arg("on_point") = py::none(), runDoc);

    m.def("export_curves", [](const py::object& results, const py::object& path, bool table) {
        const std::string out = outputPath(path, "path");   // the arguments in order: a bad path is named first
        // A results dict (run()'s, its numpy 'arrays' aside) or a results JSON file.
        ExperimentResult r;
        if (py::isinstance<py::dict>(results)) {
            py::dict copy;
            for (const auto& kv : py::reinterpret_borrow<py::dict>(results))
                if (py::str(kv.first).cast<std::string>() != "arrays") copy[kv.first] = kv.second;
            const json j = toJson(copy, "results");
            requireCompleteResults(j, "results");
            r = resultsFromJson(j);
        } else if (py::isinstance<py::str>(results) || py::isinstance<py::bytes>(results) || py::hasattr(results, "__fspath__")) {
            r = loadResultsJson(pathArg(results, "results"));
        } else {
            throw py::type_error("results: expected the dict run() returns or a results JSON file's path, got " + typeText(results));
        }
        saveResultsOrCurves(r, out, table);
    }, py::arg("results"), py::arg("path"), py::kw_only(), py::arg("table") = false,
          "export_curves(results, path, *, table=False) -> None\n\n"
          "Writes the curves of `results` (the dict run() returns, or a results JSON file's path) by the\n"
          "extension of `path`: .tex a standalone pgfplots figure (pdflatex compiles it), or with table=True\n"
          "a booktabs table of mean +- se per level (\\input it; needs \\usepackage{booktabs}); .json the\n"
          "results file; else the curves CSV. Every file carries the run's provenance record (FDLab version\n"
          "and commit, spec, seed, data fingerprint, threads, host, CPU) as a comment header, as fdlab-cli\n"
          "run --tex/--table/--csv write them. Written atomically.");

    m.def("presets", [] {
        const std::vector<PresetInfo> presets = listPresets();
        // [] looked like "FDLab has no presets" (fdlab-cli presets exits 3 naming the folder).
        if (presets.empty()) raiseOsError("FileNotFoundError", ENOENT, noPresetsMessage(), presetsDir());
        py::list out;
        for (const auto& p : presets) {
            py::dict d;
            d["name"] = p.name;
            d["title"] = p.title;
            d["description"] = p.description;
            d["path"] = p.path;
            out.append(d);
        }
        return out;
    }, "presets() -> list of dict\n\nThe paper presets (name, title, description, path) that run() accepts by name.\n"
          "FileNotFoundError naming the folder when it holds none ($FDLAB_PRESETS_DIR names another folder).");
}
