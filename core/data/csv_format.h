#pragma once
// CSV (RFC 4180 subset) reading and writing, plus the small text toolkit the three text loaders
// (CSV, LIBSVM, ARFF) share: a line reader that counts lines, number parsing with one-line
// errors, class-name ordering, and the final bookkeeping every loader does.
//
// CSV accepted: a header row of column names; one row per instance; fields separated by
// LoadOptions::separator; a field may be quoted with '"' (so it can hold the separator; a quote
// inside is written ""); whitespace around unquoted fields is trimmed; empty lines are skipped;
// CRLF line ends are fine. A quoted field cannot span lines. The text file may be gzip-compressed.
//
// Numbers are parsed with std::from_chars<float> (correctly rounded, locale-independent); a
// leading '+' is accepted. NaN and Inf are refused: every loader reports them with the line.
//
// Internal helpers; the public API is core/data/loaders.h.

#include "core/data/dataset.h"
#include "core/util/label_collector.h"
#include "core/util/strings.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fdlab::detail {

/// Iterates the lines of a text buffer without copying; strips a trailing '\r'. lineNo() is the
/// 1-based number of the line last returned (0 before the first).
class LineReader {
public:
    /// Skips a UTF-8 byte order mark (spreadsheet exports often start with one).
    explicit LineReader(std::string_view text) : m_text(text) {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF") m_pos = 3;
    }
    bool next(std::string_view& line);
    long lineNo() const { return m_line; }
    /// Line number to report for "found end of file" errors: the last line, at least 1.
    long endLine() const { return m_line > 0 ? m_line : 1; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    long m_line = 0;
};

/// parseNumber, throwing DataError(path, line, "<what>: expected a number, found '<s>'") etc.
float requireNumber(const std::string& path, long line, std::string_view s, const std::string& what);

/// Throws DataError if an m x n dense float matrix is unreasonably large (or empty features).
void checkDenseSize(const std::string& path, long line, std::uint64_t m, std::uint64_t n);

/// Stores the rows in d as `storage` asks (Auto: sparse under 10% non-zeros); a dense result
/// goes through checkDenseSize.
void storeRows(Dataset& d, SparseRows&& rows, int storage, const std::string& path, long line);


/// Sets name (file stem), provenance, defaults (importance 1, ...), then validates; any invariant
/// failure becomes a DataError naming the file.
void finishDataset(Dataset& d, const std::string& path, const std::string& format,
                   const std::string& provenance = {});

/// Shortest decimal text that reads back as exactly `x`.
std::string formatFloat(float x);

struct Field {
    std::string text;    ///< trimmed if unquoted, verbatim content if quoted
    bool quoted = false;
};

/// Splits one line into fields at `sep` outside quotes. CSV style: quote '"' doubled inside.
/// ARFF style (arff = true): quotes ' or ", backslash escapes. Returns an error message, or ""
/// on success.
std::string splitFields(std::string_view line, char sep, bool arff, std::vector<Field>& out);

}  // namespace fdlab::detail
