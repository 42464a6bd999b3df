#pragma once
// Small string helpers every reader shares (tabular loaders, text loaders, message parsing):
// ASCII trimming and case folding, quoting for error messages, and the one number grammar of
// the data files. Byte-level only: nothing here knows a file format.

#include <string>
#include <string_view>

namespace fdlab::detail {

std::string_view trim(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
std::string toLower(std::string_view s);

/// A file's name without its directory, a trailing ".gz" and its last extension
/// ("data/ham.mbox.gz" -> "ham"): the default name of a dataset or class.
std::string fileStem(const std::string& path);

/// `s` in single quotes for messages, shortened to 40 characters.
std::string inQuotes(std::string_view s);

/// The deepest nesting of arrays and objects a JSON input may have. FDLab's own files nest under
/// ten levels; refusing deeper input keeps recursive walks (parse, dump, comparisons) off the
/// stack limit.
inline constexpr int kMaxJsonDepth = 64;

/// The offset of the first '[' or '{' outside strings nested deeper than `limit`, or npos: a
/// linear pre-scan before nlohmann's recursive parser (deep input overflows its stack).
std::size_t jsonTooDeepAt(std::string_view text, int limit = kMaxJsonDepth);

enum class NumberStatus { Ok, NotANumber, NonFinite, OutOfRange };
/// Parses all of `s` (no surrounding whitespace allowed) as a float.
NumberStatus parseNumber(std::string_view s, float& out);

}  // namespace fdlab::detail
