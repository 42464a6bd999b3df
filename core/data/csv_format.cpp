#include "core/data/csv_format.h"

#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace fdlab {

namespace detail {

bool LineReader::next(std::string_view& line) {
    if (m_pos >= m_text.size()) return false;
    const std::size_t end = m_text.find('\n', m_pos);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    line = m_text.substr(m_pos, stop - m_pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
    ++m_line;
    return true;
}

float requireNumber(const std::string& path, long line, std::string_view s, const std::string& what) {
    float v = 0;
    switch (parseNumber(s, v)) {
    case NumberStatus::Ok: return v;
    case NumberStatus::NotANumber:
        throw DataError(path, line, what + ": expected a number, found " + (s.empty() ? "an empty cell" : inQuotes(s)));
    case NumberStatus::NonFinite:
        throw DataError(path, line, what + ": expected a finite number, found " + inQuotes(s) + " (NaN/Inf not allowed)");
    case NumberStatus::OutOfRange:
        throw DataError(path, line, what + ": expected a number within float range, found " + inQuotes(s));
    }
    return v;
}

void checkDenseSize(const std::string& path, long line, std::uint64_t m, std::uint64_t n) {
    if (n == 0) throw DataError(path, line, "expected at least one feature, found none");
    // 2^31 floats = 8 GiB: far beyond what FDLab's dense learners handle on a desktop.
    if (m > 0 && n > (std::uint64_t{1} << 31) / m)
        throw DataError(path, line,
                        "expected a dataset that fits dense storage, found " + std::to_string(m) + " x " +
                            std::to_string(n) + " values (more than 2^31)");
}

void storeRows(Dataset& d, SparseRows&& rows, int storage, const std::string& path, long line) {
    const auto m = static_cast<std::uint64_t>(rows.rows()), n = static_cast<std::uint64_t>(rows.cols);
    const bool sparse = storage == static_cast<int>(Storage::Sparse) ||
                        (storage == static_cast<int>(Storage::Auto) &&
                         static_cast<double>(rows.nonZeros()) < 0.1 * static_cast<double>(m) * static_cast<double>(n));
    if (sparse) {
        if (n == 0) throw DataError(path, line, "expected at least one feature, found none");
        d.X.resize(0, 0);
        d.sparse = std::move(rows);
        return;
    }
    checkDenseSize(path, line, m, n);
    // Dense storage of a mostly-zero file multiplies its memory (a 14-byte LIBSVM line
    // "1 16777216:1" is 64 MB dense): past the densify limit it must be asked for as sparse.
    const auto values = m * n, nonZeros = static_cast<std::uint64_t>(rows.nonZeros());
    if (values > static_cast<std::uint64_t>(Dataset::kMaxDensifyValues) && nonZeros < values / 10)
        throw DataError(path, line,
                        "expected a dataset that fits dense storage, found " + std::to_string(m) + " x " +
                            std::to_string(n) + " values of which only " + std::to_string(nonZeros) +
                            " are non-zero (more than 2^26 values when under 10% are non-zero): load it as sparse");
    d.X = Dataset::Matrix::Zero(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(n));
    for (int i = 0; i < rows.rows(); ++i)
        for (auto k = rows.rowStart[static_cast<std::size_t>(i)]; k < rows.rowStart[static_cast<std::size_t>(i) + 1]; ++k)
            d.X(i, rows.colIndex[static_cast<std::size_t>(k)]) = rows.values[static_cast<std::size_t>(k)];
}


void finishDataset(Dataset& d, const std::string& path, const std::string& format, const std::string& provenance) {
    d.name = fileStem(path);
    d.provenance = provenance.empty() ? format + " file " + path : provenance;
    d.fillDefaults();
    try {
        d.validate(path);
    } catch (const std::invalid_argument& e) {
        throw DataError(path, 0, std::string("invalid data after loading: ") + e.what());
    }
}

std::string formatFloat(float x) {
    char buf[32];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, x);
    return ec == std::errc() ? std::string(buf, p) : std::to_string(x);
}

std::string splitFields(std::string_view line, char sep, bool arff, std::vector<Field>& out) {
    out.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
    for (;;) {
        Field f;
        while (i < n && isSpace(line[i]) && line[i] != sep) ++i;
        const bool quote = i < n && (line[i] == '"' || (arff && line[i] == '\''));
        if (quote) {
            const char q = line[i++];
            bool closed = false;
            while (i < n) {
                const char c = line[i];
                if (arff && c == '\\' && i + 1 < n) {
                    f.text.push_back(line[i + 1]);
                    i += 2;
                } else if (c == q) {
                    if (!arff && i + 1 < n && line[i + 1] == q) {
                        f.text.push_back(q);
                        i += 2;
                    } else {
                        ++i;
                        closed = true;
                        break;
                    }
                } else {
                    f.text.push_back(c);
                    ++i;
                }
            }
            if (!closed) return "expected a closing quote " + std::string(1, q) + ", found end of line";
            while (i < n && isSpace(line[i]) && line[i] != sep) ++i;
            if (i < n && line[i] != sep)
                return "expected a separator after the closing quote, found " + inQuotes(line.substr(i, 10));
            f.quoted = true;
        } else {
            const std::size_t start = i;
            while (i < n && line[i] != sep) ++i;
            f.text = std::string(trim(line.substr(start, i - start)));
        }
        out.push_back(std::move(f));
        if (i >= n) break;
        ++i;  // skip the separator; a trailing separator yields a final empty field
        if (i == n) {
            out.emplace_back();
            break;
        }
    }
    return {};
}

}  // namespace detail

Dataset loadCsv(const std::string& path, const LoadOptions& opt) {
    using namespace detail;
    const std::string text = readMaybeGzipped(path);
    requireTextBytes(text, path);
    LineReader lr(text);
    std::string_view line;
    bool haveHeader = false;
    while (lr.next(line))
        if (!trim(line).empty()) {
            haveHeader = true;
            break;
        }
    if (!haveHeader) throw DataError(path, lr.endLine(), "expected a header row with column names, found an empty file");
    const long headerLine = lr.lineNo();
    std::vector<Field> fields;
    if (auto err = splitFields(line, opt.separator, false, fields); !err.empty())
        throw DataError(path, headerLine, "header: " + err);
    const std::size_t ncols = fields.size();
    std::vector<std::string> columns;
    for (auto& f : fields) columns.push_back(f.text);
    {
        std::vector<std::string> sorted = columns;
        std::sort(sorted.begin(), sorted.end());
        if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
            throw DataError(path, headerLine, "header: column name " + inQuotes(*dup) + " appears twice");
        float unused = 0;
        if (std::all_of(columns.begin(), columns.end(), [&](const std::string& c) { return parseNumber(trim(c), unused) == NumberStatus::Ok; }))
            throw DataError(path, headerLine,
                            "expected a header row of column names, found only numbers (a file without a header would lose "
                            "its first row): add a header line");
    }
    if (ncols < 2)
        throw DataError(path, headerLine,
                        "expected at least 2 columns (features and a label), found " + std::to_string(ncols) +
                            " (is the separator '" + std::string(1, opt.separator) + "' right?)");
    std::size_t labelCol = ncols - 1;
    if (!opt.labelColumn.empty()) {
        const auto it = std::find(columns.begin(), columns.end(), opt.labelColumn);
        if (it == columns.end()) {
            std::string list;
            for (std::size_t c = 0; c < ncols && c < 12; ++c) list += (c ? ", " : "") + columns[c];
            if (ncols > 12) list += ", ...";
            throw DataError(path, headerLine,
                            "expected a label column named " + inQuotes(opt.labelColumn) + ", found columns " + list);
        }
        labelCol = static_cast<std::size_t>(it - columns.begin());
    }

    Dataset d;
    for (std::size_t c = 0; c < ncols; ++c)
        if (c != labelCol) d.featureNames.push_back(columns[c]);
    const std::size_t n = ncols - 1;
    std::vector<float> values;
    values.reserve(text.size() / 4);
    LabelCollector classes;
    std::vector<int> labels;
    while (lr.next(line)) {
        if (trim(line).empty()) continue;
        const long ln = lr.lineNo();
        if (auto err = splitFields(line, opt.separator, false, fields); !err.empty()) throw DataError(path, ln, err);
        if (fields.size() != ncols)
            throw DataError(path, ln,
                            "expected " + std::to_string(ncols) + " fields as in the header, found " +
                                std::to_string(fields.size()));
        for (std::size_t c = 0; c < ncols; ++c) {
            const std::string& cell = fields[c].text;
            if (c == labelCol) {
                if (cell.empty())
                    throw DataError(path, ln, "column " + inQuotes(columns[c]) + ": expected a class label, found an empty cell");
                labels.push_back(classes.add(cell));
            } else {
                values.push_back(requireNumber(path, ln, trim(cell), "column " + inQuotes(columns[c])));
            }
        }
    }
    if (labels.empty())
        throw DataError(path, lr.endLine(), "expected at least one data row after the header, found none");
    if (opt.storage == Storage::Dense) {
        checkDenseSize(path, headerLine, labels.size(), n);
        d.X = Eigen::Map<const Dataset::Matrix>(values.data(), static_cast<Eigen::Index>(labels.size()),
                                                 static_cast<Eigen::Index>(n));
    } else {
        SparseRowsBuilder b(static_cast<int>(n));
        for (std::size_t k = 0; k < values.size(); ++k) {
            b.add(static_cast<int>(k % n), values[k]);
            if ((k + 1) % n == 0) b.endRow();
        }
        storeRows(d, std::move(b).finish(), static_cast<int>(opt.storage), path, headerLine);
    }
    classes.finish(labels, d.classNames);
    d.labels = std::move(labels);
    finishDataset(d, path, "CSV");
    return d;
}

namespace {
std::string csvField(const std::string& s, char sep) {
    const bool needs = s.empty() || s.find(sep) != std::string::npos || s.find('"') != std::string::npos ||
                       s.find('\n') != std::string::npos || s.find('\r') != std::string::npos ||
                       detail::trim(s).size() != s.size();
    if (!needs) return s;
    std::string r = "\"";
    for (char c : s) {
        if (c == '\n' || c == '\r')
            throw std::invalid_argument("writing CSV: names cannot contain line breaks: " + detail::inQuotes(s));
        if (c == '"') r += '"';
        r += c;
    }
    r += '"';
    return r;
}
}  // namespace

void saveCsv(const Dataset& d, const std::string& path) {
    using namespace detail;
    if (static_cast<int>(d.labels.size()) != d.rows())
        throw std::invalid_argument("writing CSV: " + std::to_string(d.labels.size()) + " labels for " +
                                    std::to_string(d.rows()) + " instances");
    const auto n = static_cast<std::size_t>(d.features());
    // The label goes last, so that loadCsv's default (last column) finds it; its header name must
    // not collide with a feature name.
    std::string labelName = "label";
    const std::vector<std::string> names = d.featureNameList();
    while (std::find(names.begin(), names.end(), labelName) != names.end()) labelName += "_";
    std::string out;
    out.reserve(static_cast<std::size_t>(d.rows()) * (n + 1) * 8 + 64);
    for (std::size_t j = 0; j < n; ++j) {
        out += csvField(names[j], ',');
        out += ',';
    }
    out += labelName;
    out += '\n';
    for (int i = 0; i < d.rows(); ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            const float x = d.value(i, static_cast<int>(j));
            if (!std::isfinite(x))
                throw std::invalid_argument("writing CSV: non-finite value at instance " + std::to_string(i + 1));
            out += formatFloat(x);
            out += ',';
        }
        const int l = d.labels[static_cast<std::size_t>(i)];
        if (l < 0 || l >= d.numClasses())
            throw std::invalid_argument("writing CSV: label index " + std::to_string(l) + " out of range");
        out += csvField(d.classNames[static_cast<std::size_t>(l)], ',');
        out += '\n';
    }
    writeFileAtomically(path, out);
}

}  // namespace fdlab
