// RFC 822 / MIME message parsing down to display text (see mime_message.h).

#include "core/text/mime_message.h"

#include "core/text/charset.h"
#include "core/text/html_text.h"

#include <cstdint>
#include <optional>

namespace fdlab {

namespace {

// Deeper nesting than this is treated as having no text (guards against crafted messages).
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

/// The line starting at `pos`, without its "\n" or "\r\n"; `next` is set past the line end.
std::string_view lineAt(std::string_view s, std::size_t pos, std::size_t& next) {
    const std::size_t nl = s.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? s.size() : nl;
    next = nl == std::string_view::npos ? s.size() : nl + 1;
    std::string_view line = s.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
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

/// The parts of a multipart body: the text between "--boundary" delimiter lines, up to the
/// closing "--boundary--" (or the end). The preamble and epilogue are dropped.
std::vector<std::string_view> multipartParts(std::string_view body, const std::string& boundary) {
    const std::string delimiter = "--" + boundary;
    std::vector<std::string_view> parts;
    std::optional<std::size_t> partStart;
    for (std::size_t pos = 0, next = 0; pos < body.size(); pos = next) {
        const std::string_view line = lineAt(body, pos, next);
        if (line.substr(0, delimiter.size()) != delimiter) continue;
        const std::string_view rest = line.substr(delimiter.size());
        const bool closing = rest.substr(0, 2) == "--";
        if (!closing && !trimmed(rest).empty()) continue;  // a longer boundary, not ours
        if (partStart) {
            // The line break before the delimiter belongs to the delimiter.
            std::size_t end = pos;
            if (end > *partStart && body[end - 1] == '\n') --end;
            if (end > *partStart && body[end - 1] == '\r') --end;
            parts.push_back(body.substr(*partStart, end - *partStart));
        }
        if (closing) return parts;
        partStart = next;
    }
    if (partStart && *partStart < body.size()) parts.push_back(body.substr(*partStart));
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
    const std::string boundary = ct.param("boundary");
    if (boundary.empty()) return decodedBody(e, ContentType{});  // broken: read it as plain text
    ContentType partDefault;
    if (ct.subtype == "digest") partDefault = parseContentType("message/rfc822");
    const auto parts = multipartParts(e.body, boundary);
    if (ct.subtype == "alternative") {
        for (const char* preferred : {"plain", "html"})
            for (const std::string_view part : parts) {
                const ContentType pct = parseContentType(splitEntity(part).headers.get("content-type"));
                if (pct.type == "text" && pct.subtype == preferred)
                    if (auto t = entityText(part, partDefault, depth + 1)) return t;
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
    if (depth > kMaxMimeDepth) return std::nullopt;
    const MimeEntity e = splitEntity(raw);
    const std::string_view ctValue = e.headers.get("content-type");
    const ContentType ct = trimmed(ctValue).empty() ? defaultType : parseContentType(ctValue);
    const std::string disposition = lowered(trimmed(e.headers.get("content-disposition")));
    if (disposition.substr(0, 10) == "attachment") return std::nullopt;
    if (ct.type == "multipart") return multipartText(e, ct, depth);
    if (ct.type == "message" && ct.subtype == "rfc822") return entityText(e.body, ContentType{}, depth + 1);
    if (ct.type != "text") return std::nullopt;
    if (ct.subtype == "plain") return decodedBody(e, ct);
    if (ct.subtype == "html") return htmlToText(decodedBody(e, ct));
    return std::nullopt;
}

/// One RFC 2047 encoded-word at s[pos] ("=?charset?Q|B?text?="): its decoded UTF-8 text and its
/// length, or nullopt.
std::optional<std::pair<std::string, std::size_t>> encodedWordAt(std::string_view s, std::size_t pos) {
    if (s.compare(pos, 2, "=?") != 0) return std::nullopt;
    const std::size_t q1 = s.find('?', pos + 2);
    if (q1 == std::string_view::npos || q1 + 3 >= s.size() || s[q1 + 2] != '?') return std::nullopt;
    const std::size_t end = s.find("?=", q1 + 3);
    if (end == std::string_view::npos) return std::nullopt;
    std::string_view charset = s.substr(pos + 2, q1 - pos - 2);
    charset = charset.substr(0, charset.find('*'));  // RFC 2231 language suffix
    const char enc = lower(s[q1 + 1]);
    const std::string_view text = s.substr(q1 + 3, end - q1 - 3);
    if (text.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
    std::string bytes;
    if (enc == 'b') {
        bytes = decodeBase64(text);
    } else if (enc == 'q') {
        for (std::size_t k = 0; k < text.size(); ++k) {
            if (text[k] == '_') {
                bytes += ' ';
            } else if (text[k] == '=' && k + 2 < text.size() && hexValue(text[k + 1]) >= 0 && hexValue(text[k + 2]) >= 0) {
                bytes += static_cast<char>(hexValue(text[k + 1]) * 16 + hexValue(text[k + 2]));
                k += 2;
            } else {
                bytes += text[k];
            }
        }
    } else {
        return std::nullopt;
    }
    return std::make_pair(toUtf8(bytes, charset), end + 2 - pos);
}

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
    std::size_t pos = 0, next = 0;
    for (; pos < raw.size(); pos = next) {
        const std::string_view line = lineAt(raw, pos, next);
        if (line.empty()) {
            e.body = raw.substr(next);
            return e;
        }
        if ((line[0] == ' ' || line[0] == '\t') && !e.headers.fields.empty()) {
            auto& value = e.headers.fields.back().second;
            value += line;  // unfold: the line break goes, the whitespace stays
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0 ||
            line.substr(0, colon).find_first_of(" \t") != std::string_view::npos)
            continue;  // not a field (e.g. the mbox "From " line)
        e.headers.fields.emplace_back(lowered(line.substr(0, colon)), std::string(line.substr(colon + 1)));
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
    while (pos != std::string_view::npos) {
        ++pos;
        const std::size_t eq = value.find('=', pos);
        if (eq == std::string_view::npos) break;
        const std::string name = lowered(trimmed(value.substr(pos, eq - pos)));
        std::size_t k = eq + 1;
        while (k < value.size() && isSpace(value[k])) ++k;
        std::string v;
        if (k < value.size() && value[k] == '"') {
            for (++k; k < value.size() && value[k] != '"'; ++k) {
                if (value[k] == '\\' && k + 1 < value.size()) ++k;
                v += value[k];
            }
            pos = value.find(';', k);
        } else {
            pos = value.find(';', k);
            v = std::string(trimmed(value.substr(k, pos == std::string_view::npos ? std::string_view::npos : pos - k)));
        }
        ct.params.emplace_back(name, std::move(v));
    }
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
    std::size_t plainStart = 0;   // start of the pending non-encoded text
    bool afterEncodedWord = false;
    for (std::size_t k = 0; k < value.size();) {
        const auto word = encodedWordAt(value, k);
        if (!word) {
            ++k;
            continue;
        }
        const std::string_view between = value.substr(plainStart, k - plainStart);
        if (!(afterEncodedWord && trimmed(between).empty())) out += toUtf8(between, "");
        out += word->first;
        k += word->second;
        plainStart = k;
        afterEncodedWord = true;
    }
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
