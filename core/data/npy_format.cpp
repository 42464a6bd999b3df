#include "core/data/npy_format.h"

#include "core/data/csv_format.h"
#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "core/data/zip_archive.h"
#include "core/text/charset.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <numeric>

namespace fdlab {

namespace detail {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
/// As for LIBSVM: each feature costs a name, an importance and per-class weights.
constexpr auto kMaxFeatures = static_cast<std::uint64_t>(Dataset::kMaxFeatures);

/// A cursor over the header's Python dict literal.
class HeaderParser {
public:
    HeaderParser(std::string_view s, const std::string& path, std::uint64_t offset) : m_s(s), m_path(path), m_offset(offset) {}

    [[noreturn]] void fail(const std::string& msg) const {
        throw DataError::atByte(m_path, m_offset + m_pos, "malformed .npy header: " + msg);
    }
    void skipSpace() {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\n' || m_s[m_pos] == '\t')) ++m_pos;
    }
    bool accept(char c) {
        skipSpace();
        if (m_pos < m_s.size() && m_s[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void expect(char c, const char* where) {
        if (!accept(c)) fail(std::string("expected '") + c + "' " + where + ", found " + found());
    }
    std::string found() const {
        return m_pos < m_s.size() ? inQuotes(m_s.substr(m_pos, 12)) : std::string("end of header");
    }
    char peek() {
        skipSpace();
        return m_pos < m_s.size() ? m_s[m_pos] : '\0';
    }
    std::string quoted() {
        skipSpace();
        if (m_pos >= m_s.size() || (m_s[m_pos] != '\'' && m_s[m_pos] != '"')) fail("expected a quoted string, found " + found());
        const char q = m_s[m_pos++];
        const auto end = m_s.find(q, m_pos);
        if (end == std::string_view::npos) fail("unterminated string");
        std::string r(m_s.substr(m_pos, end - m_pos));
        m_pos = end + 1;
        return r;
    }
    bool boolean() {
        skipSpace();
        for (auto [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
            if (m_s.substr(m_pos, word.size()) == word) {
                m_pos += word.size();
                return value;
            }
        fail("expected True or False for 'fortran_order', found " + found());
    }
    std::vector<std::uint64_t> tuple() {
        expect('(', "to open 'shape'");
        std::vector<std::uint64_t> dims;
        while (!accept(')')) {
            skipSpace();
            std::uint64_t v = 0;
            const auto [p, ec] = std::from_chars(m_s.data() + m_pos, m_s.data() + m_s.size(), v);
            if (ec != std::errc() || p == m_s.data() + m_pos) fail("expected a non-negative integer in 'shape', found " + found());
            m_pos = static_cast<std::size_t>(p - m_s.data());
            dims.push_back(v);
            if (dims.size() > 32) fail("more than 32 dimensions in 'shape'");
            if (!accept(',')) {
                expect(')', "to close 'shape'");
                break;
            }
        }
        return dims;
    }

private:
    std::string_view m_s;
    const std::string& m_path;
    std::uint64_t m_offset;
    std::size_t m_pos = 0;
};

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string s = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

/// Little-endian `bytes`-byte unsigned integer.
std::uint64_t readLe(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | p[k];
    return v;
}

/// A double in its shortest round-trip form ("3", "1e+300", "0.1"), for messages.
std::string shortest(double v) {
    char buf[40];
    return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

/// UTF-8 to code points; an invalid byte becomes U+FFFD.
std::vector<std::uint32_t> codePoints(std::string_view s) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
        std::uint32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; ok && k < len; ++k) {
            const auto t = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            ok = (t & 0xC0) == 0x80;
            c = (c << 6) | (t & 0x3F);
        }
        out.push_back(ok ? c : 0xFFFD);
        i += ok ? static_cast<std::size_t>(len) : 1;
    }
    return out;
}

}  // namespace

std::uint64_t NpyArray::count() const {
    std::uint64_t c = 1;
    for (auto d : shape) c *= d;
    return c;
}

namespace {

/// Element k's bytes as a little-endian unsigned integer (byte order undone).
std::uint64_t rawBits(const NpyArray& a, std::uint64_t k) {
    const auto* p = reinterpret_cast<const unsigned char*>(a.data.data()) + k * static_cast<std::uint64_t>(a.itemSize);
    unsigned char buf[8];
    for (int b = 0; b < a.itemSize; ++b) buf[b] = a.bigEndian ? p[a.itemSize - 1 - b] : p[b];
    return readLe(buf, a.itemSize);
}

std::int64_t signExtended(std::uint64_t v, int itemSize) {
    const int shift = 64 - 8 * itemSize;
    return static_cast<std::int64_t>(v << shift) >> shift;
}

}  // namespace

std::string NpyArray::integerText(std::uint64_t k) const {
    const std::uint64_t v = rawBits(*this, k);
    if (kind == 'b') return v != 0 ? "1" : "0";
    return kind == 'i' ? std::to_string(signExtended(v, itemSize)) : std::to_string(v);
}

bool NpyArray::unsignedValue(std::uint64_t k, std::uint64_t& v) const {
    const std::uint64_t bits = rawBits(*this, k);
    if (kind == 'b') v = bits != 0;
    else if (kind == 'u') v = bits;
    else if (signExtended(bits, itemSize) < 0) return false;
    else v = static_cast<std::uint64_t>(signExtended(bits, itemSize));
    return true;
}

double NpyArray::number(std::uint64_t k) const {
    const std::uint64_t v = rawBits(*this, k);
    switch (kind) {
    case 'b': return v != 0 ? 1.0 : 0.0;
    case 'u': return static_cast<double>(v);
    case 'i': return static_cast<double>(signExtended(v, itemSize));
    default:
        return itemSize == 4 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v)))
                             : std::bit_cast<double>(v);
    }
}

std::string NpyArray::text(std::uint64_t k) const {
    const auto* p = reinterpret_cast<const unsigned char*>(data.data()) + k * static_cast<std::uint64_t>(itemSize);
    std::string out;
    if (kind == 'S') {
        out.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(itemSize));
    } else {
        for (int c = 0; c < itemSize / 4; ++c) {
            unsigned char buf[4];
            for (int b = 0; b < 4; ++b) buf[b] = bigEndian ? p[4 * c + 3 - b] : p[4 * c + b];
            const auto cp = static_cast<std::uint32_t>(readLe(buf, 4));
            if (cp == 0) break;
            appendUtf8(out, cp > 0x10FFFF ? char32_t{0xFFFD} : static_cast<char32_t>(cp));
        }
    }
    while (!out.empty() && out.back() == '\0') out.pop_back();
    return out;
}

NpyArray parseNpy(std::string_view bytes, const std::string& path) {
    auto fail = [&](std::uint64_t at, const std::string& msg) { throw DataError::atByte(path, at, msg); };
    if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic)
        fail(0, "expected a .npy file (magic \\x93NUMPY), found " +
                    (bytes.size() < 10 ? std::to_string(bytes.size()) + " bytes" : inQuotes(bytes.substr(0, 6))));
    const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
    const int major = u[6];
    if (major < 1 || major > 3) fail(6, "expected .npy format version 1, 2 or 3, found " + std::to_string(major));
    const std::uint64_t lenBytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + lenBytes) fail(bytes.size(), "truncated .npy header");
    const std::uint64_t headerLen = readLe(u + 8, static_cast<int>(lenBytes));
    const std::uint64_t start = 8 + lenBytes;
    if (headerLen > bytes.size() - start)
        fail(8, "truncated .npy header: expected " + std::to_string(headerLen) + " header bytes, found " +
                    std::to_string(bytes.size() - start));

    NpyArray a;
    HeaderParser h(bytes.substr(start, headerLen), path, start);
    bool haveDescr = false, haveOrder = false, haveShape = false;
    h.expect('{', "at the start of the header");
    while (!h.accept('}')) {
        const std::string key = h.quoted();
        h.expect(':', "after a key");
        if (key == "descr") {
            if (h.peek() == '[') h.fail("structured dtypes (a list 'descr') are not supported; save a plain numeric array");
            a.descr = h.quoted();
            haveDescr = true;
        } else if (key == "fortran_order") {
            a.fortranOrder = h.boolean();
            haveOrder = true;
        } else if (key == "shape") {
            a.shape = h.tuple();
            haveShape = true;
        } else {
            h.fail("unexpected key '" + key + "' (expected descr, fortran_order, shape)");
        }
        if (!h.accept(',')) {
            h.expect('}', "to close the header");
            break;
        }
    }
    if (!haveDescr || !haveOrder || !haveShape) h.fail("expected the keys 'descr', 'fortran_order' and 'shape'");

    // dtype: byte order, kind, item size ("<f8", "|b1", ">i4", "<U7").
    const std::string& d = a.descr;
    int size = 0;
    if (d.size() < 2 || (d[0] != '<' && d[0] != '>' && d[0] != '|' && d[0] != '='))
        h.fail("expected a dtype like '<f8', found " + inQuotes(d));
    // "|O" (objects) and other sizeless kinds leave size 0: refused below as unsupported.
    if (const auto [p, ec] = std::from_chars(d.data() + 2, d.data() + d.size(), size); ec != std::errc() || p != d.data() + d.size())
        size = 0;
    a.kind = d[1];
    a.bigEndian = d[0] == '>';
    const bool known = (a.kind == 'b' && size == 1) || ((a.kind == 'i' || a.kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                       (a.kind == 'f' && (size == 4 || size == 8)) || (a.kind == 'U' && size > 0) || (a.kind == 'S' && size > 0);
    if (!known)
        fail(start, "unsupported dtype " + inQuotes(d) +
                        ": expected bool, (unsigned) integers, float32/float64, or strings for labels");
    if (a.kind == 'U') size *= 4;
    a.itemSize = size;

    // Shape against the bytes that follow, before anyone allocates from it.
    const std::uint64_t available = bytes.size() - start - headerLen;
    std::uint64_t need = static_cast<std::uint64_t>(size);
    bool overflow = false;
    for (auto dim : a.shape) {
        overflow = overflow || (dim != 0 && need > std::numeric_limits<std::uint64_t>::max() / dim);
        need *= dim;
    }
    if (overflow && std::find(a.shape.begin(), a.shape.end(), std::uint64_t{0}) == a.shape.end())
        fail(start, "truncated array: shape " + shapeText(a.shape) + " of " + d + " needs over 2^64 bytes, found " +
                        std::to_string(available));
    if (need > available)
        fail(bytes.size(), "truncated array: shape " + shapeText(a.shape) + " of " + d + " needs " + std::to_string(need) +
                               " bytes, found " + std::to_string(available));
    if (need < available)
        fail(start + headerLen + need, "expected end of file after shape " + shapeText(a.shape) + " of " + d + ", found " +
                                           std::to_string(available - need) + " trailing bytes");
    a.data = bytes.substr(start + headerLen, need);
    return a;
}

std::string makeNpy(const std::string& descr, const std::vector<std::uint64_t>& shape, std::string_view payload) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
    // numpy pads so that the data starts at a multiple of 64 bytes, ending the header with '\n'.
    const std::size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out(kMagic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    out += payload;
    return out;
}

std::string deriveNpyLabelsPath(const std::string& xPath) {
    const std::filesystem::path p(xPath);
    std::string name = p.filename().string();
    const auto dot = name.rfind('.');
    std::string stem = dot == std::string::npos ? name : name.substr(0, dot);
    auto sep = [](char c) { return c == '_' || c == '-' || c == '.'; };
    for (std::size_t k = stem.size(); k-- > 0;) {
        if ((stem[k] == 'X' || stem[k] == 'x') && (k == 0 || sep(stem[k - 1])) && (k + 1 == stem.size() || sep(stem[k + 1]))) {
            stem[k] = 'y';
            return (p.parent_path() / (stem + ".npy")).string();
        }
    }
    return "";
}

namespace {

/// The class label of element k as a class name: integers and integral floats in decimal,
/// other floats in shortest form, strings as they are.
std::string labelName(const NpyArray& y, std::uint64_t k, const std::string& path) {
    if (y.kind == 'U' || y.kind == 'S') {
        std::string s = y.text(k);
        if (s.empty()) throw DataError(path, 0, "label " + std::to_string(k) + " (0-based) is an empty string");
        return s;
    }
    if (y.kind == 'b') return y.number(k) != 0 ? "True" : "False";
    if (y.integral()) return y.integerText(k);   // exactly: int64 labels beyond 2^53 stay distinct
    const double v = y.number(k);
    if (!std::isfinite(v)) throw DataError(path, 0, "label " + std::to_string(k) + " (0-based) is " + (std::isnan(v) ? "NaN" : "infinite"));
    char buf[40];
    const auto r = std::abs(v) < 9.0e15 && v == std::floor(v)
                       ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v))
                       : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

/// Reads labels of length m into d.labels / d.classNames.
void readLabels(const NpyArray& y, std::uint64_t m, const std::string& path, Dataset& d) {
    const bool column = y.shape.size() == 2 && y.shape[1] == 1;
    if (y.shape.size() != 1 && !column)
        throw DataError(path, 0, "expected labels of shape (" + std::to_string(m) + ",), found " + shapeText(y.shape));
    if (y.shape[0] != m)
        throw DataError(path, 0, "expected " + std::to_string(m) + " labels (one per row of X), found " + std::to_string(y.shape[0]));
    LabelCollector classes;
    std::vector<int> labels;
    labels.reserve(m);
    for (std::uint64_t k = 0; k < m; ++k) labels.push_back(classes.add(labelName(y, k, path)));
    classes.finish(labels, d.classNames);
    d.labels = std::move(labels);
}

float featureValue(const NpyArray& x, std::uint64_t k, const std::string& path, std::uint64_t i, std::uint64_t j) {
    const double v = x.number(k);
    const auto f = static_cast<float>(v);
    if (!std::isfinite(f))
        throw DataError(path, 0, "row " + std::to_string(i) + ", column " + std::to_string(j) + " (0-based): expected a finite value" +
                                     (std::isfinite(v) ? " within float32's range" : "") + ", found " + shortest(v));
    return f;
}

/// Fills d.X or d.sparse from a 2-D (m x n) or 3-D image (m x rows x cols) numeric array.
void readDenseFeatures(const NpyArray& x, const std::string& path, const LoadOptions& opt, Dataset& d) {
    if (x.kind == 'U' || x.kind == 'S') throw DataError(path, 0, "expected a numeric X, found strings (" + x.descr + ")");
    if (x.shape.size() != 2 && x.shape.size() != 3)
        throw DataError(path, 0, "expected X of shape (instances, features) or (instances, rows, cols), found " + shapeText(x.shape));
    const std::uint64_t m = x.shape[0], n = x.count() / std::max<std::uint64_t>(m, 1);
    if (m == 0) throw DataError(path, 0, "expected at least one instance, found shape " + shapeText(x.shape));
    if (m > INT_MAX) throw DataError(path, 0, "more than 2^31 instances");
    if (x.shape.size() == 3) {
        if (x.shape[1] > INT_MAX || x.shape[2] > INT_MAX) throw DataError(path, 0, "image sides above 2^31");
        d.imageShape = ImageShape{static_cast<int>(x.shape[1]), static_cast<int>(x.shape[2])};
    }
    checkDenseSize(path, 0, m, n);
    // Storage index of (i, j): C order i*n + j; Fortran order reverses the axes.
    const std::uint64_t rows3 = x.shape.size() == 3 ? x.shape[1] : 1, cols3 = x.shape.size() == 3 ? x.shape[2] : n;
    auto at = [&](std::uint64_t i, std::uint64_t j) {
        if (!x.fortranOrder) return i * n + j;
        return x.shape.size() == 2 ? i + j * m : i + m * (j / cols3 + rows3 * (j % cols3));
    };
    std::uint64_t nonZeros = 0;
    for (std::uint64_t k = 0; k < m * n; ++k) nonZeros += x.number(k) != 0.0;
    const bool sparse = opt.storage == Storage::Sparse ||
                        (opt.storage == Storage::Auto && static_cast<double>(nonZeros) < 0.1 * static_cast<double>(m * n));
    if (sparse) {
        if (n > kMaxFeatures) throw DataError(path, 0, "more than 2^24 features");
        SparseRowsBuilder b(static_cast<int>(n), static_cast<std::int64_t>(nonZeros));
        for (std::uint64_t i = 0; i < m; ++i) {
            for (std::uint64_t j = 0; j < n; ++j) b.add(static_cast<int>(j), featureValue(x, at(i, j), path, i, j));
            b.endRow();
        }
        d.sparse = std::move(b).finish();
    } else {
        d.X.resize(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(n));
        for (std::uint64_t i = 0; i < m; ++i)
            for (std::uint64_t j = 0; j < n; ++j)
                d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = featureValue(x, at(i, j), path, i, j);
    }
}

/// Element k of an index array (integers; integral floats too), checked to be in [0, bound).
std::uint64_t indexValue(const NpyArray& a, std::uint64_t k, const std::string& path, const char* what, std::uint64_t bound) {
    std::uint64_t v = 0;
    bool ok = false;
    std::string text;
    if (a.integral()) {
        ok = a.unsignedValue(k, v) && v < bound;
        text = a.integerText(k);
    } else {
        const double d = a.number(k);
        ok = d >= 0 && d < static_cast<double>(bound) && d == std::floor(d);
        if (ok) v = static_cast<std::uint64_t>(d);
        text = shortest(d);   // 3, not 3.000000
    }
    if (!ok)
        throw DataError(path, 0, std::string(what) + "[" + std::to_string(k) + "] = " + text + " out of range [0, " +
                                     std::to_string(bound) + ")" + (a.integral() ? "" : " or not a whole number"));
    return v;
}

/// A scipy.sparse.save_npz matrix (csr, csc or coo) into d.sparse (or d.X when opt asks dense).
void readSparseFeatures(const ZipReader& zip, const std::string& path, std::uint64_t m, const LoadOptions& opt, Dataset& d) {
    std::deque<std::string> buffers;   // the NpyArrays view into these strings
    auto array = [&](const char* name) {
        const ZipMember* mem = zip.find(std::string(name) + ".npy");
        if (!mem) throw DataError(path, 0, std::string("expected a member '") + name + ".npy' in a scipy sparse .npz, found none");
        buffers.push_back(zip.read(*mem));
        NpyArray a = parseNpy(buffers.back(), path + "[" + name + ".npy]");
        if (a.kind == 'U' || a.kind == 'S') {
            if (std::string(name) != "format") throw DataError(path, 0, std::string("expected numbers in '") + name + "', found strings");
        } else if (std::string(name) != "shape" && a.shape.size() != 1) {
            throw DataError(path, 0, std::string("expected '") + name + "' to be 1-D, found shape " + shapeText(a.shape));
        }
        return a;
    };
    const NpyArray format = array("format");
    if ((format.kind != 'U' && format.kind != 'S') || format.count() != 1)
        throw DataError(path, 0, "expected 'format' to hold one string (csr, csc or coo)");
    const std::string fmt = format.text(0);
    if (fmt != "csr" && fmt != "csc" && fmt != "coo")
        throw DataError(path, 0, "unsupported sparse format " + inQuotes(fmt) + ": expected csr, csc or coo (convert with .tocsr())");
    const NpyArray shape = array("shape");
    if (shape.count() != 2) throw DataError(path, 0, "expected 'shape' to hold 2 numbers, found " + std::to_string(shape.count()));
    const std::uint64_t rows = indexValue(shape, 0, path, "shape", std::uint64_t{1} << 62),
                        cols = indexValue(shape, 1, path, "shape", std::uint64_t{1} << 62);
    if (rows != m) throw DataError(path, 0, "expected " + std::to_string(m) + " rows (one per label), found shape (" +
                                                std::to_string(rows) + ", " + std::to_string(cols) + ")");
    if (cols == 0) throw DataError(path, 0, "expected at least one feature, found none");
    if (cols > kMaxFeatures) throw DataError(path, 0, "expected at most 2^24 features, found " + std::to_string(cols));
    const NpyArray data = array("data");
    const std::uint64_t nnz = data.count();

    // Every format becomes (row, col, value) triplets.
    std::vector<std::uint32_t> rowOf(nnz), colOf(nnz);
    if (fmt == "csr" || fmt == "csc") {
        const NpyArray indices = array("indices"), indptr = array("indptr");
        const std::uint64_t outer = fmt == "csr" ? rows : cols, inner = fmt == "csr" ? cols : rows;
        if (indices.count() != nnz) throw DataError(path, 0, "expected " + std::to_string(nnz) + " indices (one per value), found " + std::to_string(indices.count()));
        if (indptr.count() != outer + 1) throw DataError(path, 0, "expected " + std::to_string(outer + 1) + " entries in 'indptr', found " + std::to_string(indptr.count()));
        std::uint64_t prev = 0;
        for (std::uint64_t o = 0; o <= outer; ++o) {
            const std::uint64_t p = indexValue(indptr, o, path, "indptr", nnz + 1);
            if (p < prev || (o == 0 && p != 0) || (o == outer && p != nnz))
                throw DataError(path, 0, "expected 'indptr' to rise from 0 to " + std::to_string(nnz) + ", found " + std::to_string(p) + " at " + std::to_string(o));
            for (std::uint64_t k = prev; k < p; ++k) (fmt == "csr" ? rowOf : colOf)[k] = static_cast<std::uint32_t>(o - 1);
            prev = p;
        }
        for (std::uint64_t k = 0; k < nnz; ++k)
            (fmt == "csr" ? colOf : rowOf)[k] = static_cast<std::uint32_t>(indexValue(indices, k, path, "indices", inner));
    } else {
        const NpyArray row = array("row"), col = array("col");
        if (row.count() != nnz || col.count() != nnz) throw DataError(path, 0, "expected 'row', 'col' and 'data' of equal length");
        for (std::uint64_t k = 0; k < nnz; ++k) {
            rowOf[k] = static_cast<std::uint32_t>(indexValue(row, k, path, "row", rows));
            colOf[k] = static_cast<std::uint32_t>(indexValue(col, k, path, "col", cols));
        }
    }

    // Order by (row, column); scipy sums duplicate entries, so do we.
    std::vector<std::uint64_t> order(nnz);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return rowOf[a] != rowOf[b] ? rowOf[a] < rowOf[b] : colOf[a] < colOf[b]; });
    SparseRowsBuilder b(static_cast<int>(cols), static_cast<std::int64_t>(nnz));
    std::uint64_t k = 0;
    for (std::uint64_t i = 0; i < rows; ++i) {
        while (k < nnz && rowOf[order[k]] == i) {
            const std::uint32_t j = colOf[order[k]];
            double sum = 0;
            for (; k < nnz && rowOf[order[k]] == i && colOf[order[k]] == j; ++k) sum += data.number(order[k]);
            const auto f = static_cast<float>(sum);
            if (!std::isfinite(f))
                throw DataError(path, 0, "row " + std::to_string(i) + ", column " + std::to_string(j) + " (0-based): expected a finite value, found " + shortest(sum));
            b.add(static_cast<int>(j), f);
        }
        b.endRow();
    }
    // A sparse file stays sparse (Auto too); only an explicit Dense densifies.
    storeRows(d, std::move(b).finish(), static_cast<int>(opt.storage == Storage::Dense ? Storage::Dense : Storage::Sparse), path, 0);
}

std::string readLabelsFile(const std::string& xPath, const LoadOptions& opt) {
    std::string labels = opt.idxLabels.empty() ? deriveNpyLabelsPath(xPath) : opt.idxLabels;
    if (labels.empty())
        throw DataError(xPath, 0, "expected labels: a file name with an 'X' token (X.npy -> y.npy) or a labels file given explicitly (--labels)");
    if (!opt.idxLabels.empty() || std::filesystem::exists(labels)) return labels;
    throw DataError(xPath, 0, "expected the labels file " + labels + " next to it (or one given with --labels), found none");
}

void readFeatureNames(const ZipReader& zip, const std::string& path, Dataset& d) {
    const ZipMember* mem = zip.find("feature_names.npy");
    if (!mem) return;
    const std::string bytes = zip.read(*mem);
    const NpyArray names = parseNpy(bytes, path + "[feature_names.npy]");
    if ((names.kind != 'U' && names.kind != 'S') || names.shape.size() != 1 ||
        names.shape[0] != static_cast<std::uint64_t>(d.features()))
        throw DataError(path, 0, "expected 'feature_names' to hold " + std::to_string(d.features()) + " strings, found " +
                                     names.descr + " of shape " + shapeText(names.shape));
    d.featureNames.resize(names.shape[0]);
    for (std::uint64_t j = 0; j < names.shape[0]; ++j) d.featureNames[j] = names.text(j);
}

}  // namespace

}  // namespace detail

Dataset loadNpy(const std::string& path, const LoadOptions& opt) {
    using namespace detail;
    const std::string bytes = readMaybeGzipped(path);
    Dataset d;
    std::string lower = toLower(std::filesystem::path(path).filename().string());
    if (lower.ends_with(".gz")) lower.resize(lower.size() - 3);
    if (lower.ends_with(".npy") || bytes.substr(0, 6) == kMagic) {   // .npy: X here, labels beside it
        const NpyArray x = parseNpy(bytes, path);
        readDenseFeatures(x, path, opt, d);
        const std::string labelsPath = readLabelsFile(path, opt);
        const std::string ybytes = readMaybeGzipped(labelsPath);
        readLabels(parseNpy(ybytes, labelsPath), x.shape[0], labelsPath, d);
        finishDataset(d, path, ".npy");
        return d;
    }
    const ZipReader zip(bytes, path);
    const ZipMember* xm = zip.find("X.npy");
    if (!xm) xm = zip.find("x.npy");
    const ZipMember* ym = zip.find("y.npy");
    if (!xm && !ym && zip.find("arr_0.npy") && zip.find("arr_1.npy")) {   // np.savez(FILE, X, y)
        xm = zip.find("arr_0.npy");
        ym = zip.find("arr_1.npy");
    }
    const bool scipySparse = zip.find("format.npy") != nullptr;
    if (!xm && !scipySparse) {
        std::string found;
        for (const ZipMember& m : zip.members()) found += (found.empty() ? "" : ", ") + inQuotes(m.name);
        throw DataError(path, 0, "expected arrays X and y (np.savez(FILE, X=X, y=y)) or a scipy.sparse.save_npz matrix, found " +
                                     (found.empty() ? std::string("an empty archive") : found));
    }
    std::string ybytes, ypath = path + "[" + (ym ? ym->name : std::string("y.npy")) + "]";
    if (ym && opt.idxLabels.empty()) ybytes = zip.read(*ym);   // an explicit labels file wins
    else {
        ypath = readLabelsFile(path, opt);
        ybytes = readMaybeGzipped(ypath);
    }
    const NpyArray y = parseNpy(ybytes, ypath);
    if (y.shape.empty()) throw DataError(ypath, 0, "expected a 1-D labels array, found a scalar");
    if (xm) {
        const std::string xbytes = zip.read(*xm);
        const NpyArray x = parseNpy(xbytes, path + "[" + xm->name + "]");
        readDenseFeatures(x, path + "[" + xm->name + "]", opt, d);
        readLabels(y, x.shape[0], ypath, d);
    } else {
        if (y.shape[0] == 0 || y.shape[0] > INT_MAX)
            throw DataError(ypath, 0, "expected between 1 and 2^31 labels, found " + std::to_string(y.shape[0]));
        readLabels(y, y.shape[0], ypath, d);
        readSparseFeatures(zip, path, y.shape[0], opt, d);
    }
    readFeatureNames(zip, path, d);
    finishDataset(d, path, ".npz");
    return d;
}

namespace {

template <class T>
std::string_view bytesOf(const std::vector<T>& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

/// Strings as a '<U' array (UTF-32, width of the longest).
std::string unicodeNpy(const std::vector<std::string>& s) {
    std::vector<std::vector<std::uint32_t>> cps;
    std::size_t width = 1;
    for (const auto& x : s) {
        cps.push_back(detail::codePoints(x));
        width = std::max(width, cps.back().size());
    }
    std::vector<std::uint32_t> payload(width * s.size(), 0);
    for (std::size_t k = 0; k < s.size(); ++k) std::copy(cps[k].begin(), cps[k].end(), payload.begin() + static_cast<std::ptrdiff_t>(k * width));
    return detail::makeNpy("<U" + std::to_string(width), {s.size()}, bytesOf(payload));
}

/// True when s is an int64 written the way numpy prints it back ("7", "-3"; not "07", "+7"),
/// so that class names such as '1' and '01' stay two classes after a round trip.
bool isInteger(const std::string& s, std::int64_t& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && std::to_string(v) == s;
}

}  // namespace

void saveNpz(const Dataset& d, const std::string& path) {
    static_assert(std::endian::native == std::endian::little, "saveNpz writes host-order ('<') arrays");
    using detail::makeNpy;
    const auto m = static_cast<std::uint64_t>(d.rows()), n = static_cast<std::uint64_t>(d.features());
    if (d.labels.size() != m)
        throw std::invalid_argument(path + ": " + std::to_string(d.labels.size()) + " labels for " + std::to_string(m) + " instances");
    detail::ZipWriter zip;
    if (d.isSparse()) {   // scipy.sparse.save_npz's layout (csr), readable by scipy.sparse.load_npz
        const SparseRows& s = *d.sparse;
        zip.add("indices.npy", makeNpy("<i4", {s.colIndex.size()}, bytesOf(s.colIndex)), true);
        zip.add("indptr.npy", makeNpy("<i8", {s.rowStart.size()}, bytesOf(s.rowStart)), true);
        zip.add("format.npy", makeNpy("|S3", {}, "csr"), true);
        zip.add("shape.npy", makeNpy("<i8", {2}, bytesOf(std::vector<std::int64_t>{static_cast<std::int64_t>(m), static_cast<std::int64_t>(n)})), true);
        zip.add("data.npy", makeNpy("<f4", {s.values.size()}, bytesOf(s.values)), true);
    } else {
        std::vector<std::uint64_t> shape{m, n};
        if (d.imageShape && static_cast<std::uint64_t>(d.imageShape->size()) == n)
            shape = {m, static_cast<std::uint64_t>(d.imageShape->rows), static_cast<std::uint64_t>(d.imageShape->cols)};
        zip.add("X.npy", makeNpy("<f4", shape, std::string_view(reinterpret_cast<const char*>(d.X.data()), m * n * sizeof(float))), true);
    }
    // Labels: the class names themselves -- integers when every name is one, else strings.
    std::vector<std::int64_t> numeric(d.classNames.size());
    bool allInt = true;
    for (std::size_t c = 0; c < d.classNames.size(); ++c) allInt = allInt && isInteger(d.classNames[c], numeric[c]);
    std::vector<std::int64_t> yi;
    std::vector<std::string> ys;
    for (int l : d.labels) {
        if (l < 0 || l >= d.numClasses()) throw std::invalid_argument(path + ": label index " + std::to_string(l) + " out of range");
        if (allInt) yi.push_back(numeric[static_cast<std::size_t>(l)]);
        else ys.push_back(d.classNames[static_cast<std::size_t>(l)]);
    }
    zip.add("y.npy", allInt ? makeNpy("<i8", {m}, bytesOf(yi)) : unicodeNpy(ys), true);
    bool defaultNames = true;
    for (std::size_t j = 0; defaultNames && j < d.featureNames.size(); ++j) defaultNames = d.featureNames[j] == defaultFeatureName(j);
    if (!defaultNames) zip.add("feature_names.npy", unicodeNpy(d.featureNames), true);
    writeFileAtomically(path, std::move(zip).finish());
}

}  // namespace fdlab
