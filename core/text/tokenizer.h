#pragma once
// Splits UTF-8 text into word tokens for the bag-of-words features.
//
// The rule, exactly:
// - A word character is an ASCII letter or digit [A-Za-z0-9], or a non-ASCII code point in
//   U+00C0-U+1FFF except U+00D7 (multiplication sign) and U+00F7 (division sign) -- Latin-1
//   and extended Latin letters, combining marks, Greek, Cyrillic, Hebrew, Arabic, ... -- or in
//   U+3040-U+D7FF (kana, CJK, Hangul). Everything else separates tokens: ASCII punctuation
//   (apostrophes and hyphens too: "don't" -> "don" + "t"), whitespace, U+0080-U+00BF (C1
//   controls, no-break space, Latin-1 symbols), general punctuation and symbols U+2000-U+2FFF
//   (curly quotes, dashes, euro sign), U+3000-U+303F, private use, U+FFFD, ...
// - A token is a maximal run of word characters. It is kept when it is 2..40 bytes long and is
//   not made of ASCII digits only (pure numbers are dropped; "mp3" and "2u" are kept). Longer
//   runs are dropped, not cut.
// - Its vocabulary word is foldCase(token): ASCII A-Z and Latin-1 U+00C0-U+00DE (except U+00D7)
//   to lower case; nothing else changes (same byte length). Token ranges are bytes of the input,
//   so text.substr(offset, length) is the token as written.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab {

/// Shortest and longest kept token, in bytes.
inline constexpr std::uint32_t kMinTokenBytes = 2;
inline constexpr std::uint32_t kMaxTokenBytes = 40;

/// A kept token: bytes [offset, offset + length) of the input.
struct TokenSpan {
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    bool operator==(const TokenSpan&) const = default;
};

/// The kept tokens of valid UTF-8 text, in order (invalid bytes separate tokens). Text longer
/// than 4 GiB is cut at 4 GiB.
std::vector<TokenSpan> tokenize(std::string_view text);

/// The vocabulary word of a token (see above).
std::string foldCase(std::string_view token);

}  // namespace fdlab
