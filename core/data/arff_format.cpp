#include "core/data/arff_format.h"

#include "core/data/csv_format.h"
#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "core/util/errors.h"
#include "core/util/file_bytes.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace fdlab {

namespace {

using detail::inQuotes;
using detail::trim;

struct Attribute {
    std::string name;
    long line = 0;                         ///< its @attribute line, for later errors
    bool nominal = false;
    std::vector<std::string> values;       ///< nominal values in declared order
    std::unordered_map<std::string, int> index;
};

/// Drops a '%' comment that is outside quotes.
std::string_view stripComment(std::string_view s) {
    char q = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (q) {
            if (c == '\\') ++i;
            else if (c == q) q = 0;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '%') {
            return s.substr(0, i);
        }
    }
    return s;
}

/// Reads a name or value at s[pos]: quoted (' or ", backslash escapes) or a bare token ending at
/// whitespace or any of `stops`. Returns false on an unterminated quote.
bool readToken(std::string_view s, std::size_t& pos, std::string& out, std::string_view stops) {
    out.clear();
    if (pos < s.size() && (s[pos] == '\'' || s[pos] == '"')) {
        const char q = s[pos++];
        while (pos < s.size()) {
            if (s[pos] == '\\' && pos + 1 < s.size()) {
                out.push_back(s[pos + 1]);
                pos += 2;
            } else if (s[pos] == q) {
                ++pos;
                return true;
            } else {
                out.push_back(s[pos++]);
            }
        }
        return false;
    }
    while (pos < s.size() && s[pos] != ' ' && s[pos] != '\t' && stops.find(s[pos]) == std::string_view::npos)
        out.push_back(s[pos++]);
    return true;
}

void skipSpace(std::string_view s, std::size_t& pos) {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
}

Attribute parseAttribute(const std::string& path, long ln, std::string_view rest) {
    Attribute a;
    a.line = ln;
    std::size_t pos = 0;
    skipSpace(rest, pos);
    if (!readToken(rest, pos, a.name, "{") )
        throw DataError(path, ln, "expected a closing quote after the attribute name, found end of line");
    if (a.name.empty()) throw DataError(path, ln, "expected an attribute name after @attribute, found none");
    const std::string_view type = trim(rest.substr(pos));
    const std::string lower = detail::toLower(type);
    if (lower == "numeric" || lower == "real" || lower == "integer") return a;
    if (!type.empty() && type.front() == '{') {
        const auto close = type.rfind('}');
        if (close == std::string_view::npos)
            throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": expected '}' closing the nominal values, found end of line");
        if (!trim(type.substr(close + 1)).empty())
            throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": expected end of line after '}', found " +
                                          inQuotes(trim(type.substr(close + 1))));
        std::vector<detail::Field> fields;
        if (auto err = detail::splitFields(type.substr(1, close - 1), ',', true, fields); !err.empty())
            throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": " + err);
        a.nominal = true;
        for (auto& f : fields) {
            if (f.text.empty() && !f.quoted)
                throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": expected a nominal value, found an empty one");
            if (!a.index.emplace(f.text, static_cast<int>(a.values.size())).second)
                throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": expected distinct nominal values, found " +
                                              inQuotes(f.text) + " twice");
            a.values.push_back(f.text);
        }
        return a;
    }
    std::string first;
    std::size_t p = 0;
    readToken(type, p, first, "");
    const std::string kw = detail::toLower(first);
    if (kw == "string" || kw == "date" || kw == "relational")
        throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": unsupported attribute type " + inQuotes(type) +
                                      " (expected numeric, real, integer or a nominal {...})");
    throw DataError(path, ln, "attribute " + inQuotes(a.name) + ": unknown attribute type " +
                                  (type.empty() ? std::string("(none)") : inQuotes(type)) +
                                  " (expected numeric, real, integer or a nominal {...})");
}

}  // namespace

Dataset loadArff(const std::string& path, const LoadOptions& opt) {
    using namespace detail;
    const std::string text = readMaybeGzipped(path);
    requireTextBytes(text, path);
    LineReader lr(text);
    std::string_view line;
    std::vector<Attribute> attrs;
    bool inData = false;
    long dataLine = 0;

    // Header.
    while (lr.next(line)) {
        const long ln = lr.lineNo();
        line = trim(stripComment(line));
        if (line.empty()) continue;
        std::size_t pos = 0;
        while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') ++pos;
        const std::string kw = toLower(line.substr(0, pos));
        if (kw == "@relation") continue;
        if (kw == "@attribute") {
            attrs.push_back(parseAttribute(path, ln, line.substr(pos)));
            for (std::size_t k = 0; k + 1 < attrs.size(); ++k)
                if (attrs[k].name == attrs.back().name)
                    throw DataError(path, ln, "expected distinct attribute names, found " + inQuotes(attrs.back().name) +
                                                  " again (first at line " + std::to_string(attrs[k].line) + ")");
            continue;
        }
        if (kw == "@data") {
            inData = true;
            dataLine = ln;
            if (!trim(line.substr(pos)).empty())
                throw DataError(path, ln, "expected end of line after @data, found " + inQuotes(trim(line.substr(pos))));
            break;
        }
        throw DataError(path, ln, "expected @relation, @attribute or @data, found " + inQuotes(line));
    }
    if (!inData) throw DataError(path, lr.endLine(), "expected an @data line, found end of file");
    if (attrs.empty()) throw DataError(path, dataLine, "expected @attribute declarations before @data, found none");

    // Class attribute.
    std::size_t cls = attrs.size() - 1;
    if (!opt.classAttribute.empty()) {
        std::size_t k = 0;
        while (k < attrs.size() && attrs[k].name != opt.classAttribute) ++k;
        if (k == attrs.size())
            throw DataError(path, dataLine, "expected a class attribute named " + inQuotes(opt.classAttribute) +
                                                ", found no such @attribute");
        cls = k;
    }
    const Attribute& classAttr = attrs[cls];
    if (!classAttr.nominal)
        throw DataError(path, classAttr.line, "class attribute " + inQuotes(classAttr.name) +
                                                  ": expected a nominal type {...}, found numeric");
    if (attrs.size() < 2) throw DataError(path, dataLine, "expected at least one attribute besides the class, found none");

    // Data: raw values (numbers, or nominal indices), NaN marks '?' (parsed NaN is refused).
    const std::size_t A = attrs.size();
    const double missing = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> raw;
    std::vector<long> rowLine;
    std::vector<Field> fields;
    std::string token;
    while (lr.next(line)) {
        const long ln = lr.lineNo();
        line = trim(stripComment(line));
        if (line.empty()) continue;
        const std::size_t base = raw.size();
        raw.resize(base + A, 0.0);
        rowLine.push_back(ln);
        auto setValue = [&](std::size_t a, std::string_view v, bool wasQuoted) {
            const Attribute& at = attrs[a];
            if (v == "?" && !wasQuoted) {
                if (opt.missing == MissingPolicy::Error)
                    throw DataError(path, ln, "attribute " + inQuotes(at.name) +
                                                  ": expected a value, found '?' (missing values refused by MissingPolicy::Error)");
                raw[base + a] = missing;
                return;
            }
            if (at.nominal) {
                const auto it = at.index.find(std::string(v));
                if (it == at.index.end()) {
                    std::string list;
                    for (std::size_t k = 0; k < at.values.size() && k < 10; ++k) list += (k ? ", " : "") + at.values[k];
                    if (at.values.size() > 10) list += ", ...";
                    throw DataError(path, ln, "attribute " + inQuotes(at.name) + ": expected one of {" + list +
                                                  "}, found undeclared value " + inQuotes(v));
                }
                raw[base + a] = it->second;
            } else {
                raw[base + a] = requireNumber(path, ln, v, "attribute " + inQuotes(at.name));
            }
        };
        if (line.front() == '{') {
            // Sparse row: "{index value, ...}", absent attributes are 0 (first nominal value).
            if (line.back() != '}')
                throw DataError(path, ln, "expected '}' closing the sparse row, found " + inQuotes(line.substr(line.size() - 1)));
            const std::string_view inner = line.substr(1, line.size() - 2);
            std::size_t pos = 0;
            long prev = -1;
            skipSpace(inner, pos);
            while (pos < inner.size()) {
                std::size_t start = pos;
                while (pos < inner.size() && inner[pos] >= '0' && inner[pos] <= '9') ++pos;
                long idx = -1;
                std::from_chars(inner.data() + start, inner.data() + pos, idx);
                if (pos == start || idx < 0 || static_cast<std::size_t>(idx) >= A)
                    throw DataError(path, ln, "expected a sparse entry 'INDEX VALUE' with INDEX in [0, " +
                                                  std::to_string(A - 1) + "], found " +
                                                  inQuotes(trim(inner.substr(start, inner.find(',', start) - start))));
                if (idx <= prev)
                    throw DataError(path, ln, "expected increasing sparse indices (> " + std::to_string(prev) +
                                                  "), found " + std::to_string(idx));
                prev = idx;
                skipSpace(inner, pos);
                const bool q = pos < inner.size() && (inner[pos] == '\'' || inner[pos] == '"');
                if (!readToken(inner, pos, token, ","))
                    throw DataError(path, ln, "expected a closing quote, found end of line");
                if (token.empty() && !q)
                    throw DataError(path, ln, "expected a value after sparse index " + std::to_string(idx) + ", found none");
                setValue(static_cast<std::size_t>(idx), token, q);
                skipSpace(inner, pos);
                if (pos < inner.size()) {
                    if (inner[pos] != ',')
                        throw DataError(path, ln, "expected ',' between sparse entries, found " + inQuotes(inner.substr(pos, 10)));
                    ++pos;
                    skipSpace(inner, pos);
                }
            }
        } else {
            if (auto err = splitFields(line, ',', true, fields); !err.empty()) throw DataError(path, ln, err);
            if (fields.size() != A)
                throw DataError(path, ln, "expected " + std::to_string(A) + " values (one per @attribute), found " +
                                              std::to_string(fields.size()));
            for (std::size_t a = 0; a < A; ++a) setValue(a, fields[a].text, fields[a].quoted);
        }
    }

    // Rows kept: a missing class always drops the row; DropRow drops any missing value.
    const std::size_t total = rowLine.size();
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < total; ++r) {
        const double* v = &raw[r * A];
        bool drop = std::isnan(v[cls]);
        if (opt.missing == MissingPolicy::DropRow)
            for (std::size_t a = 0; a < A && !drop; ++a) drop = std::isnan(v[a]);
        if (!drop) kept.push_back(r);
    }
    if (kept.empty())
        throw DataError(path, lr.endLine(),
                        "expected at least one instance after @data, found " +
                            (total == 0 ? std::string("none") :
                                          "none left after dropping " + std::to_string(total) + " with missing values"));

    // Imputed value per attribute (computed over kept rows, non-missing values).
    std::vector<double> fill(A, 0.0);
    for (std::size_t a = 0; a < A; ++a) {
        if (a == cls) continue;
        const Attribute& at = attrs[a];
        std::vector<std::size_t> counts(at.values.size(), 0);
        double sum = 0;
        std::size_t present = 0, absent = 0;
        for (std::size_t r : kept) {
            const double v = raw[r * A + a];
            if (std::isnan(v)) {
                ++absent;
                continue;
            }
            ++present;
            if (at.nominal) ++counts[static_cast<std::size_t>(v)];
            else sum += v;
        }
        if (absent == 0) continue;
        if (present == 0)
            throw DataError(path, at.line, "attribute " + inQuotes(at.name) +
                                               ": expected some known value to impute '?' from, found only missing values");
        if (at.nominal) {
            std::size_t best = 0;
            for (std::size_t k = 1; k < counts.size(); ++k)
                if (counts[k] > counts[best]) best = k;
            fill[a] = static_cast<double>(best);
        } else {
            fill[a] = sum / static_cast<double>(present);
        }
    }

    // Features: numeric -> 1 column, nominal -> one 0/1 column per declared value.
    Dataset d;
    std::vector<std::size_t> firstCol(A, 0);
    for (std::size_t a = 0; a < A; ++a) {
        if (a == cls) continue;
        firstCol[a] = d.featureNames.size();
        if (attrs[a].nominal)
            for (const auto& v : attrs[a].values) d.featureNames.push_back(attrs[a].name + "=" + v);
        else
            d.featureNames.push_back(attrs[a].name);
    }
    // Rows in increasing column order (attributes in order, one-hot blocks inside), stored as
    // opt.storage says: sparse ARFF data with few non-zeros becomes CSR.
    SparseRowsBuilder rows(static_cast<int>(d.featureNames.size()));
    d.labels.resize(kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k) {
        const double* v = &raw[kept[k] * A];
        for (std::size_t a = 0; a < A; ++a) {
            const double x = std::isnan(v[a]) ? fill[a] : v[a];
            if (a == cls) {
                d.labels[k] = static_cast<int>(x);
            } else if (attrs[a].nominal) {
                rows.add(static_cast<int>(firstCol[a] + static_cast<std::size_t>(x)), 1.0f);
            } else {
                rows.add(static_cast<int>(firstCol[a]), static_cast<float>(x));
            }
        }
        rows.endRow();
    }
    storeRows(d, std::move(rows).finish(), static_cast<int>(opt.storage), path, dataLine);
    d.classNames = classAttr.values;
    const auto counts = d.classCounts();
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c] == 0)
            throw DataError(path, classAttr.line, "class " + inQuotes(classAttr.values[c]) + " of class attribute " +
                                                      inQuotes(classAttr.name) +
                                                      ": expected at least one instance, found none (empty class)");
    finishDataset(d, path, "ARFF");
    return d;
}

}  // namespace fdlab
