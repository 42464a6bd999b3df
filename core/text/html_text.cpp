// HTML tag stripping and entity decoding (see html_text.h).

#include "core/text/html_text.h"

#include "core/text/charset.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

namespace fdlab {

namespace {

bool isAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

const std::unordered_map<std::string, char32_t>& namedEntities() {
    static const std::unordered_map<std::string, char32_t> table = [] {
        std::unordered_map<std::string, char32_t> t = {
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", ' '},
            {"copy", 0xA9}, {"reg", 0xAE}, {"trade", 0x2122}, {"hellip", 0x2026}, {"mdash", 0x2014},
            {"ndash", 0x2013}, {"laquo", 0xAB}, {"raquo", 0xBB}, {"lsquo", 0x2018}, {"rsquo", 0x2019},
            {"ldquo", 0x201C}, {"rdquo", 0x201D}, {"bull", 0x2022}, {"middot", 0xB7}, {"euro", 0x20AC},
            {"pound", 0xA3}, {"yen", 0xA5}, {"cent", 0xA2}, {"sect", 0xA7}, {"deg", 0xB0}, {"plusmn", 0xB1},
            {"times", 0xD7}, {"divide", 0xF7}, {"iexcl", 0xA1}, {"iquest", 0xBF}, {"szlig", 0xDF},
            {"yuml", 0xFF}, {"aelig", 0xE6}, {"AElig", 0xC6}};
        // Latin-1 letters whose upper case is 0x20 below and spelled with a capital first letter.
        const std::pair<const char*, char32_t> letters[] = {
            {"agrave", 0xE0}, {"aacute", 0xE1}, {"acirc", 0xE2}, {"atilde", 0xE3}, {"auml", 0xE4},
            {"aring", 0xE5}, {"ccedil", 0xE7}, {"egrave", 0xE8}, {"eacute", 0xE9}, {"ecirc", 0xEA},
            {"euml", 0xEB}, {"igrave", 0xEC}, {"iacute", 0xED}, {"icirc", 0xEE}, {"iuml", 0xEF},
            {"ntilde", 0xF1}, {"ograve", 0xF2}, {"oacute", 0xF3}, {"ocirc", 0xF4}, {"otilde", 0xF5},
            {"ouml", 0xF6}, {"oslash", 0xF8}, {"ugrave", 0xF9}, {"uacute", 0xFA}, {"ucirc", 0xFB},
            {"uuml", 0xFC}, {"yacute", 0xFD}};
        for (const auto& [name, cp] : letters) {
            std::string upper = name;
            upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
            t.emplace(name, cp);
            t.emplace(upper, cp - 0x20);
        }
        return t;
    }();
    return table;
}

enum class TagKind { Inline, Block, Other };

TagKind tagKind(const std::string& name) {
    static const char* const inlineTags[] = {"a", "abbr", "b", "big", "code", "em", "font", "i", "s",
                                             "small", "span", "strike", "strong", "sub", "sup", "tt", "u"};
    static const char* const blockTags[] = {"address", "blockquote", "br", "center", "div", "dl", "dt", "dd",
                                            "form", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p",
                                            "pre", "table", "tr", "ul"};
    const auto in = [&](const auto& list) {
        return std::any_of(std::begin(list), std::end(list), [&](const char* t) { return name == t; });
    };
    if (in(inlineTags)) return TagKind::Inline;
    if (in(blockTags)) return TagKind::Block;
    return TagKind::Other;
}

/// Position after the `>` closing the tag that starts at html[i] == '<' (quotes respected), or
/// npos when the tag is never closed.
std::size_t tagEnd(std::string_view html, std::size_t i) {
    char quote = 0;
    for (std::size_t k = i + 1; k < html.size(); ++k) {
        const char c = html[k];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            // Only a quote that opens an attribute value (after '=') counts; a stray apostrophe
            // in broken markup must not swallow the rest of the message.
            std::size_t p = k;
            while (p > i && (html[p - 1] == ' ' || html[p - 1] == '\t')) --p;
            if (p > i && html[p - 1] == '=') quote = c;
        } else if (c == '>') {
            return k + 1;
        }
    }
    return std::string_view::npos;
}

/// Case-insensitive search for `needle` (lower case) in html from `from`.
std::size_t findNoCase(std::string_view html, std::string_view needle, std::size_t from) {
    const auto it = std::search(html.begin() + static_cast<std::ptrdiff_t>(std::min(from, html.size())), html.end(),
                                needle.begin(), needle.end(), [](char a, char b) { return lower(a) == b; });
    return it == html.end() ? std::string_view::npos : static_cast<std::size_t>(it - html.begin());
}

/// Longest entity, "&" to ";" inclusive; the ';' is looked for only this far, so that a text
/// full of '&' without ';' is read in linear time.
constexpr std::size_t kMaxEntityBytes = 13;

/// Decodes the entity at html[i] == '&' into out; returns the bytes consumed (0: not an entity).
std::size_t decodeEntity(std::string_view html, std::size_t i, std::string& out) {
    // Leading zeros of a numeric entity do not count against the limit ("&#0000000000105;" is
    // 'i' in a browser); they belong to this '&' alone, so the scan stays linear.
    std::size_t zeros = 0;
    if (html.substr(i + 1, 1) == "#") {
        std::size_t k = i + 2;
        if (k < html.size() && (html[k] == 'x' || html[k] == 'X')) ++k;
        while (k + zeros < html.size() && html[k + zeros] == '0') ++zeros;
    }
    const std::size_t semi = html.substr(0, i + kMaxEntityBytes + zeros).find(';', i + 1);
    if (semi == std::string_view::npos || semi == i + 1) return 0;
    const std::string_view body = html.substr(i + 1, semi - i - 1);
    char32_t cp = 0;
    if (body[0] == '#') {
        const bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
        const std::string_view digits = body.substr(hex ? 2 : 1);
        if (digits.empty()) return 0;
        unsigned long v = 0;
        for (char c : digits) {
            const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                          : (hex && std::isxdigit(static_cast<unsigned char>(c))) ? lower(c) - 'a' + 10
                                                                                  : -1;
            if (d < 0) return 0;
            v = std::min<unsigned long>(v * (hex ? 16 : 10) + static_cast<unsigned long>(d), 0x110000);
        }
        cp = (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) ? 0xFFFD : static_cast<char32_t>(v);
    } else {
        const auto it = namedEntities().find(std::string(body));
        if (it == namedEntities().end()) return 0;
        cp = it->second;
    }
    appendUtf8(out, cp);
    return semi + 1 - i;
}

/// Runs of whitespace -> " ", "\n" or "\n\n" (by the number of line breaks in the run); trimmed.
std::string collapseWhitespace(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (s[i] != ' ' && s[i] != '\n') {
            out += s[i++];
            continue;
        }
        int breaks = 0;
        for (; i < s.size() && (s[i] == ' ' || s[i] == '\n'); ++i) breaks += s[i] == '\n';
        if (out.empty() || i == s.size()) continue;  // trim
        out += breaks == 0 ? " " : breaks == 1 ? "\n" : "\n\n";
    }
    return out;
}

}  // namespace

std::string htmlToText(std::string_view html) {
    std::string raw;  // visible text, source whitespace as ' ', block breaks as '\n'
    raw.reserve(html.size() / 2);
    for (std::size_t i = 0; i < html.size();) {
        const char c = html[i];
        if (c == '&') {
            if (const std::size_t n = decodeEntity(html, i, raw)) {
                i += n;
                continue;
            }
        }
        const bool startsTag = c == '<' && i + 1 < html.size() &&
                               (isAsciiAlpha(html[i + 1]) || html[i + 1] == '/' || html[i + 1] == '!' || html[i + 1] == '?');
        if (!startsTag) {
            raw += (c == '\n' || c == '\r' || c == '\t' || c == '\f') ? ' ' : c;
            ++i;
            continue;
        }
        if (html.compare(i, 4, "<!--") == 0) {
            const std::size_t e = html.find("-->", i + 4);
            // A comment vanishes as in a browser: "A<!-- x -->ccept" reads "Accept".
            i = e == std::string_view::npos ? html.size() : e + 3;
            continue;
        }
        const std::size_t end = tagEnd(html, i);
        if (end == std::string_view::npos) {  // unterminated tag: drop the rest
            break;
        }
        const bool closing = html[i + 1] == '/';
        std::string name;
        for (std::size_t k = i + 1 + (closing ? 1 : 0); k < end && (isAsciiAlpha(html[k]) || std::isdigit(static_cast<unsigned char>(html[k]))); ++k)
            name += lower(html[k]);
        i = end;
        if (!closing && (name == "script" || name == "style" || name == "title")) {
            const std::size_t close = findNoCase(html, "</" + name, end);
            const std::size_t after = close == std::string_view::npos ? std::string_view::npos : tagEnd(html, close);
            i = after == std::string_view::npos ? html.size() : after;
            raw += ' ';
            continue;
        }
        switch (tagKind(name)) {
        case TagKind::Inline: break;
        case TagKind::Block: raw += '\n'; break;
        case TagKind::Other: raw += ' '; break;
        }
    }
    return collapseWhitespace(raw);
}

}  // namespace fdlab
