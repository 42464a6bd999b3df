// RFC 822 / MIME message parsing down to display text (see mime_message.h).

#include "core/text/mime_message.h"

#include "core/text/charset.h"
#include "core/text/html_text.h"
#include "core/util/input_limits.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>

namespace fdlab {

namespace {

// Multiparts and attached messages nested deeper than this are read as plain text, not parsed:
// it bounds the recursion (and the work: each level scans its body once) on crafted messages.
constexpr int kMaxMimeDepth = 16;

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
    return s;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (lower(a[k]) != lower(b[k])) return false;
    return true;
}

/// The line starting at `pos`, without its "\n", "\r\n" or lone "\r" (a line end too, as in
/// Python's email package: else a message with CR line ends would have no headers); `next` is
/// set past the line end.
std::string_view lineAt(std::string_view s, std::size_t pos, std::size_t& next) {
    const std::size_t brk = s.find_first_of("\r\n", pos);
    if (brk == std::string_view::npos) {
        next = s.size();
        return s.substr(pos);
    }
    next = brk + (s[brk] == '\r' && brk + 1 < s.size() && s[brk + 1] == '\n' ? 2 : 1);
    return s.substr(pos, brk - pos);
}

/// "\r\n" and lone "\r" -> "\n".
std::string normalizeNewlines(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] != '\r') out += s[k];
        else if (k + 1 >= s.size() || s[k + 1] != '\n') out += '\n';
    }
    return out;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/// `escape` + two hex digits -> that byte (RFC 2047 Q "=XX", RFC 2231 "%XX"); '_' -> ' ' when
/// underscoreIsSpace (Q encoding); anything else is kept.
std::string hexUnescaped(std::string_view s, char escape, bool underscoreIsSpace = false) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == escape && k + 2 < s.size() && hexValue(s[k + 1]) >= 0 && hexValue(s[k + 2]) >= 0) {
            out += static_cast<char>(hexValue(s[k + 1]) * 16 + hexValue(s[k + 2]));
            k += 2;
        } else {
            out += (underscoreIsSpace && s[k] == '_') ? ' ' : s[k];
        }
    }
    return out;
}

/// What a body line is to a multipart with `boundary` (RFC 2046 section 5.1.1): a delimiter is
/// "--" boundary followed only by spaces/tabs (transport padding); the close delimiter is
/// "--" boundary "--" followed only by spaces/tabs; any other line, e.g. "--boundary--x" or
/// "--boundaryX", is content of the current part.
enum class BoundaryLine { Content, Delimiter, Close };

BoundaryLine boundaryLineKind(std::string_view line, std::string_view boundary) {
    if (line.size() < boundary.size() + 2 || line.substr(0, 2) != "--" || line.substr(2, boundary.size()) != boundary)
        return BoundaryLine::Content;
    std::string_view rest = line.substr(boundary.size() + 2);
    const bool close = rest.substr(0, 2) == "--";
    if (close) rest.remove_prefix(2);
    if (rest.find_first_not_of(" \t") != std::string_view::npos) return BoundaryLine::Content;
    return close ? BoundaryLine::Close : BoundaryLine::Delimiter;
}

/// True if some line of body is a delimiter or close delimiter of `boundary`.
bool hasDelimiterLine(std::string_view body, std::string_view boundary) {
    for (std::size_t pos = 0, next = 0; pos < body.size(); pos = next)
        if (boundaryLineKind(lineAt(body, pos, next), boundary) != BoundaryLine::Content) return true;
    return false;
}

/// The parts of a multipart body: the text between delimiter lines, up to the close delimiter
/// (or the end). The preamble and epilogue are dropped, and so are the parts after the first
/// kMaxMimeParts.
std::vector<std::string_view> multipartParts(std::string_view body, std::string_view boundary) {
    std::vector<std::string_view> parts;
    std::optional<std::size_t> partStart;
    for (std::size_t pos = 0, next = 0; pos < body.size() && parts.size() < kMaxMimeParts; pos = next) {
        const BoundaryLine kind = boundaryLineKind(lineAt(body, pos, next), boundary);
        if (kind == BoundaryLine::Content) continue;
        if (partStart) {
            // The line break before the delimiter belongs to the delimiter.
            std::size_t end = pos;
            if (end > *partStart && body[end - 1] == '\n') --end;
            if (end > *partStart && body[end - 1] == '\r') --end;
            parts.push_back(body.substr(*partStart, end - *partStart));
        }
        if (kind == BoundaryLine::Close) return parts;
        partStart = next;
    }
    if (partStart && *partStart < body.size() && parts.size() < kMaxMimeParts) parts.push_back(body.substr(*partStart));
    return parts;
}

/// The decoded text of an entity, or nullopt when it contributes nothing.
std::optional<std::string> entityText(std::string_view raw, const ContentType& defaultType, int depth);

/// Body bytes after Content-Transfer-Encoding, as UTF-8 text of the entity's charset, without
/// trailing whitespace.
std::string decodedBody(const MimeEntity& e, const ContentType& ct) {
    const std::string cte = lowered(trimmed(e.headers.get("content-transfer-encoding")));
    std::string bytes = cte == "quoted-printable" ? decodeQuotedPrintable(e.body)
                        : cte == "base64"         ? decodeBase64(e.body)
                                                  : std::string(e.body);
    std::string text = normalizeNewlines(toUtf8(bytes, ct.param("charset")));
    while (!text.empty() && isSpace(text.back())) text.pop_back();
    return text;
}

std::optional<std::string> multipartText(const MimeEntity& e, const ContentType& ct, int depth) {
    // RFC 2046's boundary never ends in a space (bcharsnospace); a declared one that does is
    // read without its trailing spaces, as Python's email package and mail readers do.
    std::string boundary = ct.param("boundary");
    while (!boundary.empty() && (boundary.back() == ' ' || boundary.back() == '\t')) boundary.pop_back();
    if (boundary.empty()) return decodedBody(e, ContentType{});  // broken: read it as plain text
    ContentType partDefault;
    if (ct.subtype == "digest") partDefault = parseContentType("message/rfc822");
    const auto parts = multipartParts(e.body, boundary);
    // A boundary that never occurs hides nothing either: the body is read as plain text, as
    // for a missing boundary (a mail reader shows it; `email` keeps it as one text payload).
    if (parts.empty() && !hasDelimiterLine(e.body, boundary)) return decodedBody(e, ContentType{});
    if (ct.subtype == "alternative") {
        for (const char* preferred : {"plain", "html"})
            for (const std::string_view part : parts) {
                const ContentType pct = parseContentType(splitEntity(part).headers.get("content-type"));
                // A part without text (e.g. a whitespace-only text/plain) must not hide the next.
                if (pct.type == "text" && pct.subtype == preferred)
                    if (auto t = entityText(part, partDefault, depth + 1); t && !t->empty()) return t;
            }
        for (const std::string_view part : parts)
            if (auto t = entityText(part, partDefault, depth + 1); t && !t->empty()) return t;
        return std::nullopt;
    }
    std::optional<std::string> joined;
    for (const std::string_view part : parts) {
        auto t = entityText(part, partDefault, depth + 1);
        if (!t || t->empty()) continue;
        if (!joined) {
            joined = std::move(*t);
        } else {
            *joined += "\n\n";
            *joined += *t;
        }
    }
    return joined;
}

std::optional<std::string> entityText(std::string_view raw, const ContentType& defaultType, int depth) {
    const MimeEntity e = splitEntity(raw);
    const std::string_view ctValue = e.headers.get("content-type");
    const ContentType ct = trimmed(ctValue).empty() ? defaultType : parseContentType(ctValue);
    const std::string disposition = lowered(trimmed(e.headers.get("content-disposition")));
    if (disposition.substr(0, 10) == "attachment") return std::nullopt;
    const bool message = ct.type == "message" && ct.subtype == "rfc822";
    // Too deep to descend (the recursion stays bounded): the raw text, so no words hide below.
    if ((ct.type == "multipart" || message) && depth >= kMaxMimeDepth) return decodedBody(e, ContentType{});
    if (ct.type == "multipart") return multipartText(e, ct, depth);
    if (message) return entityText(e.body, ContentType{}, depth + 1);
    if (ct.type != "text") return std::nullopt;
    if (ct.subtype == "plain") return decodedBody(e, ct);
    if (ct.subtype == "html") return htmlToText(decodedBody(e, ct));
    return std::nullopt;
}

/// The first hit of a search at or after positions that never decrease, in O(total length):
/// the last hit is remembered and a new search starts only when it lies before the position.
template <class Search>
class ForwardSearch {
public:
    explicit ForwardSearch(Search search) : m_search(std::move(search)) {}

    std::size_t from(std::size_t pos) {
        if (!m_searched || m_hit < pos) {
            m_hit = m_search(pos);
            m_searched = true;
        }
        return m_hit;
    }

private:
    Search m_search;
    std::size_t m_hit = 0;
    bool m_searched = false;
};

/// An RFC 2047 encoded-word "=?charset?Q|B?text?=" as raw bytes: charsets are applied later,
/// so that adjacent words in one charset are converted together (section 6.2).
struct EncodedWord {
    std::string_view charset;  ///< without an RFC 2231 "*language" suffix
    std::string bytes;
    std::size_t end = 0;       ///< past the closing "?="
};

/// Finds the encoded-words of one header value left to right. Each candidate "=?" costs O(1)
/// beyond the bytes of a word it accepts, so a value full of "=?" without "?=" stays linear.
class EncodedWordScanner {
public:
    explicit EncodedWordScanner(std::string_view s)
        : m_s(s),
          m_question([s](std::size_t p) { return s.find('?', p); }),
          m_close([s](std::size_t p) { return s.find("?=", p); }),
          m_blank([s](std::size_t p) { return s.find_first_of(" \t", p); }) {}

    /// The word starting at pos (a "=?"), or nullopt. pos must grow from call to call.
    std::optional<EncodedWord> at(std::size_t pos) {
        const std::size_t q1 = m_question.from(pos + 2);  // ends the charset
        if (q1 == std::string_view::npos || q1 + 2 >= m_s.size() || m_s[q1 + 2] != '?') return std::nullopt;
        const char enc = lower(m_s[q1 + 1]);
        if (enc != 'b' && enc != 'q') return std::nullopt;
        const std::size_t close = m_close.from(q1 + 3);
        // RFC 2047 section 2: no whitespace anywhere in an encoded-word.
        if (close == std::string_view::npos || m_blank.from(pos + 2) < close) return std::nullopt;
        EncodedWord w;
        w.charset = m_s.substr(pos + 2, q1 - pos - 2);
        w.charset = w.charset.substr(0, w.charset.find('*'));
        w.end = close + 2;
        const std::string_view text = m_s.substr(q1 + 3, close - q1 - 3);
        w.bytes = enc == 'b' ? decodeBase64(text) : hexUnescaped(text, '=', true);
        return w;
    }

private:
    using Search = std::function<std::size_t(std::size_t)>;
    std::string_view m_s;
    ForwardSearch<Search> m_question, m_close, m_blank;
};

/// Runs of whitespace -> one space, trimmed.
std::string collapseSpaces(std::string_view s) {
    std::string out;
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (!isSpace(s[k])) out += s[k];
        else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

/// One "name*N*=value" piece of an RFC 2231 parameter.
struct ParamSection {
    std::string name;          ///< without the "*N*" suffix
    std::uint64_t number = 0;  ///< N (0 when the name has no number)
    bool encoded = false;      ///< ends in '*': percent-encoded, the first section led by charset'language'
    std::string value;
};

/// Splits an RFC 2231 parameter name "base*", "base*N" or "base*N*"; false for a plain name.
bool parseSectionName(const std::string& name, ParamSection& out) {
    const std::size_t star = name.find('*');
    if (star == std::string::npos || star == 0) return false;
    std::string_view rest = std::string_view(name).substr(star + 1);
    out.name = name.substr(0, star);
    out.number = 0;
    out.encoded = true;
    if (rest.empty()) return true;  // "base*": one encoded section
    out.encoded = rest.back() == '*';
    if (out.encoded) rest.remove_suffix(1);
    if (rest.empty()) return false;  // "base**"
    for (const char c : rest) {
        if (c < '0' || c > '9') return false;
        out.number = std::min<std::uint64_t>(out.number * 10 + static_cast<std::uint64_t>(c - '0'), 1'000'000'000'000ULL);
    }
    return true;
}

/// Joins RFC 2231 sections into one value per name, in section order. The charset'language'
/// prefix of an encoded first section is dropped: the values are the percent-decoded bytes
/// (FDLab reads only boundary and charset, which are ASCII).
std::vector<std::pair<std::string, std::string>> joinedSections(std::vector<ParamSection> sections) {
    std::stable_sort(sections.begin(), sections.end(), [](const ParamSection& a, const ParamSection& b) {
        return a.name != b.name ? a.name < b.name : a.number < b.number;
    });
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t k = 0; k < sections.size(); ++k) {
        std::string_view v = sections[k].value;
        const bool first = k == 0 || sections[k].name != sections[k - 1].name;
        if (first) out.emplace_back(sections[k].name, std::string());
        if (sections[k].encoded && first) {
            const std::size_t tick1 = v.find('\'');
            const std::size_t tick2 = tick1 == std::string_view::npos ? tick1 : v.find('\'', tick1 + 1);
            if (tick2 != std::string_view::npos) v.remove_prefix(tick2 + 1);
        }
        out.back().second += sections[k].encoded ? hexUnescaped(v, '%') : std::string(v);
    }
    return out;
}

}  // namespace

std::string_view MimeHeaders::get(std::string_view name) const {
    for (const auto& [n, v] : fields)
        if (equalsNoCase(n, name)) return v;
    return {};
}

std::string ContentType::param(std::string_view name) const {
    for (const auto& [n, v] : params)
        if (equalsNoCase(n, name)) return v;
    return {};
}

MimeEntity splitEntity(std::string_view raw) {
    MimeEntity e;
    for (std::size_t pos = 0, next = 0; pos < raw.size(); pos = next) {
        const std::string_view line = lineAt(raw, pos, next);
        if (line.empty()) {
            e.body = raw.substr(next);
            return e;
        }
        if (line[0] == ' ' || line[0] == '\t') {
            // Unfold: the line break goes, the whitespace stays. A continuation with no field
            // before it is dropped, as Python's email parser does.
            if (!e.headers.fields.empty()) e.headers.fields.back().second += line;
            continue;
        }
        if (line.substr(0, 5) == "From ") continue;  // the mbox envelope line
        std::size_t colon = 0;
        while (colon < line.size() && line[colon] > ' ' && line[colon] < 0x7F && line[colon] != ':') ++colon;
        if (colon == line.size() || line[colon] != ':') {
            e.body = raw.substr(pos);  // not a header line: the body starts here
            return e;
        }
        if (colon > 0) e.headers.fields.emplace_back(lowered(line.substr(0, colon)), std::string(line.substr(colon + 1)));
    }
    return e;  // headers only, no body
}

ContentType parseContentType(std::string_view value) {
    ContentType ct;
    std::size_t pos = value.find(';');
    const std::string_view mediaType = trimmed(value.substr(0, pos));
    const std::size_t slash = mediaType.find('/');
    if (slash != std::string_view::npos && slash > 0 && slash + 1 < mediaType.size()) {
        ct.type = lowered(trimmed(mediaType.substr(0, slash)));
        ct.subtype = lowered(trimmed(mediaType.substr(slash + 1)));
    }
    std::vector<ParamSection> sections;
    // Each pass reads one "; name=value" from pos (at a ';') and leaves pos at the next ';'.
    while (pos < value.size()) {
        std::size_t k = pos + 1;
        while (k < value.size() && value[k] != '=' && value[k] != ';') ++k;
        if (k == value.size() || value[k] == ';') {  // a parameter without '=' (broken): skipped
            pos = k;
            continue;
        }
        const std::string name = lowered(trimmed(value.substr(pos + 1, k - pos - 1)));
        for (++k; k < value.size() && isSpace(value[k]);) ++k;
        std::string v;
        if (k < value.size() && value[k] == '"') {
            for (++k; k < value.size() && value[k] != '"'; ++k) {
                if (value[k] == '\\' && k + 1 < value.size()) ++k;
                v += value[k];
            }
            pos = std::min(value.find(';', k), value.size());
        } else {
            pos = std::min(value.find(';', k), value.size());
            v = std::string(trimmed(value.substr(k, pos - k)));
        }
        ParamSection section;
        if (parseSectionName(name, section)) {
            section.value = std::move(v);
            sections.push_back(std::move(section));
        } else {
            ct.params.emplace_back(name, std::move(v));
        }
    }
    // After the plain parameters, so that a plain "boundary" wins over "boundary*0" (as in
    // Python's email package).
    for (auto& p : joinedSections(std::move(sections))) ct.params.push_back(std::move(p));
    return ct;
}

std::string decodeQuotedPrintable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] != '=') {
            out += s[k];
            continue;
        }
        if (k + 2 < s.size() && hexValue(s[k + 1]) >= 0 && hexValue(s[k + 2]) >= 0) {
            out += static_cast<char>(hexValue(s[k + 1]) * 16 + hexValue(s[k + 2]));
            k += 2;
            continue;
        }
        std::size_t e = k + 1;  // soft line break: "=" [spaces] ("\r\n" | "\n" | end)
        while (e < s.size() && (s[e] == ' ' || s[e] == '\t')) ++e;
        if (e < s.size() && s[e] == '\r') ++e;
        if (e >= s.size() || s[e] == '\n') {
            k = e;
            continue;
        }
        out += '=';
    }
    return out;
}

std::string decodeBase64(std::string_view s) {
    std::string out;
    out.reserve(s.size() * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char c : s) {
        if (c == '=') break;
        int v = -1;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        if (v < 0) continue;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return out;
}

std::string decodeHeaderText(std::string_view value) {
    std::string out;
    std::string pending;              // bytes of the last encoded-words, all in pendingCharset
    std::string_view pendingCharset;
    bool afterEncodedWord = false;
    const auto flush = [&] {
        out += toUtf8(pending, pendingCharset);
        pending.clear();
    };
    EncodedWordScanner scanner(value);
    std::size_t plainStart = 0;  // start of the text after the last encoded-word
    for (std::size_t k = value.find("=?"); k != std::string_view::npos; k = value.find("=?", k)) {
        auto word = scanner.at(k);
        if (!word) {
            ++k;
            continue;
        }
        const std::string_view between = value.substr(plainStart, k - plainStart);
        const bool adjacent = afterEncodedWord && trimmed(between).empty();  // the whitespace goes
        if (!(adjacent && equalsNoCase(word->charset, pendingCharset))) {
            flush();
            if (!adjacent) out += toUtf8(between, "");
            pendingCharset = word->charset;
        }
        pending += word->bytes;
        k = plainStart = word->end;
        afterEncodedWord = true;
    }
    flush();
    out += toUtf8(value.substr(plainStart), "");
    return collapseSpaces(out);
}

MessageText messageText(std::string_view raw, bool keepSubject) {
    MessageText m;
    const MimeEntity top = splitEntity(raw);
    m.subject = decodeHeaderText(top.headers.get("subject"));
    const std::string body = entityText(raw, ContentType{}, 0).value_or(std::string());
    if (keepSubject && !m.subject.empty()) {
        m.text = m.subject + "\n\n";
        m.bodyOffset = m.text.size();
    }
    m.text += body;
    return m;
}

}  // namespace fdlab
