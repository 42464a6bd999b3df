// Charset decoding to UTF-8 (see charset.h).

#include "core/text/charset.h"

#include <array>
#include <cstdint>

namespace fdlab {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

/// Length of the valid UTF-8 sequence starting at s[i] (its code point in cp), or 0.
std::size_t utf8SequenceAt(std::string_view s, std::size_t i, char32_t& cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t n = 0;
    char32_t min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) { n = 2; cp = b0 & 0x1F; min = 0x80; }
    else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 3; cp = b0 & 0x0F; min = 0x800; }
    else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 4; cp = b0 & 0x07; min = 0x10000; }
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

/// cp1252 bytes 0x80-0x9F (0 = undefined).
constexpr std::array<char16_t, 32> kCp1252High = {
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178};

enum class Charset { Utf8, Latin1, Windows1252, Latin9, Utf16, Utf16LE, Utf16BE, Unknown, Undecodable };

std::string normalizedLabel(std::string_view label) {
    std::string out;
    for (char c : label) {
        if (c == '"' || c == '\'' || c == ' ' || c == '\t') continue;
        out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
}

Charset charsetOf(std::string_view label) {
    const std::string l = normalizedLabel(label);
    const auto is = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (l == n) return true;
        return false;
    };
    if (is({"utf-8", "utf8", "unicode-1-1-utf-8"})) return Charset::Utf8;
    if (is({"iso-8859-1", "iso8859-1", "iso_8859-1", "iso-8859-1:1987", "latin1", "latin-1", "l1", "cp819",
            "ibm819", "iso-ir-100"}))
        return Charset::Latin1;
    if (is({"windows-1252", "cp1252", "x-cp1252"})) return Charset::Windows1252;
    if (is({"iso-8859-15", "iso8859-15", "iso_8859-15", "latin-9", "latin9", "l9"})) return Charset::Latin9;
    // us-ascii and no label: 8-bit bytes there are mostly latin-1 (see the header).
    if (l.empty() || is({"us-ascii", "ascii", "us", "ansi_x3.4-1968", "iso646-us", "default", "unknown-8bit", "x-unknown"}))
        return Charset::Unknown;
    if (is({"utf-16", "utf16", "ucs-2"})) return Charset::Utf16;
    if (is({"utf-16le", "utf16le", "ucs-2le"})) return Charset::Utf16LE;
    if (is({"utf-16be", "utf16be", "ucs-2be"})) return Charset::Utf16BE;
    return Charset::Undecodable;  // gb2312, big5, koi8-r, iso-2022-jp, ...: not decoded here
}

char32_t latin9(unsigned char b) {
    switch (b) {
    case 0xA4: return 0x20AC;
    case 0xA6: return 0x0160;
    case 0xA8: return 0x0161;
    case 0xB4: return 0x017D;
    case 0xB8: return 0x017E;
    case 0xBC: return 0x0152;
    case 0xBD: return 0x0153;
    case 0xBE: return 0x0178;
    default: return b;
    }
}

/// UTF-16 bytes -> UTF-8: pairs of bytes in the given order, surrogate pairs joined; an unpaired
/// surrogate or an odd last byte -> U+FFFD.
std::string utf16ToUtf8(std::string_view s, bool bigEndian) {
    std::string out;
    out.reserve(s.size());
    auto unit = [&](std::size_t i) {
        const auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]);
        return static_cast<char32_t>(bigEndian ? (a << 8) | b : (b << 8) | a);
    };
    std::size_t i = 0;
    for (; i + 1 < s.size(); i += 2) {
        char32_t cp = unit(i);
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 3 < s.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
            i += 2;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = kReplacement;
        }
        appendUtf8(out, cp);
    }
    if (i < s.size()) appendUtf8(out, kReplacement);
    return out;
}

}  // namespace

bool isValidUtf8(std::string_view s) {
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8SequenceAt(s, i, cp);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string toUtf8(std::string_view s, std::string_view charset) {
    Charset cs = charsetOf(charset);
    if (cs == Charset::Utf16) {
        // A byte-order mark says the order and is dropped; without one, big-endian (RFC 2781).
        const bool le = s.substr(0, 2) == "\xFF\xFE";
        if (le || s.substr(0, 2) == "\xFE\xFF") s.remove_prefix(2);
        return utf16ToUtf8(s, !le);
    }
    if (cs == Charset::Utf16LE || cs == Charset::Utf16BE) return utf16ToUtf8(s, cs == Charset::Utf16BE);
    if (cs == Charset::Unknown) cs = isValidUtf8(s) ? Charset::Utf8 : Charset::Latin1;
    if (cs == Charset::Undecodable && isValidUtf8(s)) cs = Charset::Utf8;
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {  // ASCII is the same in every supported charset
            out += static_cast<char>(b);
            ++i;
            continue;
        }
        char32_t cp = b;
        std::size_t n = 1;
        switch (cs) {
        case Charset::Utf8:
            n = utf8SequenceAt(s, i, cp);
            if (n == 0) {
                cp = kReplacement;
                n = 1;
            }
            break;
        case Charset::Windows1252:
            if (b < 0xA0) cp = kCp1252High[b - 0x80] ? kCp1252High[b - 0x80] : kReplacement;
            break;
        case Charset::Latin9: cp = latin9(b); break;
        case Charset::Undecodable: cp = kReplacement; break;   // no invented latin-1 words
        case Charset::Latin1:
        case Charset::Unknown:
        case Charset::Utf16:
        case Charset::Utf16LE:
        case Charset::Utf16BE: break;
        }
        appendUtf8(out, cp);
        i += n;
    }
    return out;
}

}  // namespace fdlab
