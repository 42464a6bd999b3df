#pragma once
// Bytes in a declared charset -> valid UTF-8, for e-mail bodies and headers.
//
// Supported: utf-8 (each byte that does not start a valid sequence -> U+FFFD), us-ascii, iso-8859-1 / latin-1 (byte b -> U+00bb), windows-1252
// (as latin-1, except 0x80-0x9F -> the cp1252 characters: 0x80 -> U+20AC euro, 0x92 -> U+2019,
// ...; the five undefined bytes 0x81 0x8D 0x8F 0x90 0x9D -> U+FFFD), iso-8859-15 (latin-1 with
// the eight differences: 0xA4 -> U+20AC, 0xA6 -> U+0160, ...). Labels are matched
// case-insensitively with the usual aliases (utf8, latin1, iso8859-1, iso_8859-1, cp1252, ...).
// utf-16 (the byte-order mark gives the order and is dropped; none: big-endian, RFC 2781),
// utf-16le and utf-16be (surrogate pairs joined; unpaired surrogates and an odd last byte ->
// U+FFFD). iso-8859-1 is strict: 0x80-0x9F become the C1 controls U+0080-U+009F (not cp1252's quotes).
// An empty label, or us-ascii text with 8-bit bytes (common in spam), is kept as UTF-8 when it is
// valid UTF-8, else read as latin-1. Any other label (gb2312, big5, euc-kr, koi8-r, iso-2022-jp,
// windows-1251, ...) is a charset FDLab does not decode: valid UTF-8 is kept, otherwise every
// 8-bit byte becomes U+FFFD (a word separator), so such text adds its ASCII words only instead
// of latin-1 garbage words such as "íáá".

#include <string>
#include <string_view>

namespace fdlab {

/// True if s is valid UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

/// Appends code point cp (<= U+10FFFF) to out as UTF-8.
void appendUtf8(std::string& out, char32_t cp);

/// s decoded as charset `charset` (see above), always valid UTF-8.
std::string toUtf8(std::string_view s, std::string_view charset);

}  // namespace fdlab
