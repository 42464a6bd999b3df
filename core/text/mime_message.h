#pragma once
// A raw RFC 822 / MIME e-mail message -> its display text: the decoded Subject (optional) and
// the plain-text body a reader would see.
//
// - Headers end at the first empty line, or (as in Python's email package) at the first line
//   that is not a header line, which then starts the body; "\r\n", "\n" and a lone "\r" are all
//   line ends (as in Python's email package). A header line is "name:" with a name of printable ASCII without spaces, a
//   continuation (starting with a space or tab: unfolded, the line break removed and the
//   whitespace kept), or an mbox "From " line (skipped). Names are case-insensitive.
// - The Subject: RFC 2047 encoded-words =?charset?Q?...?= / =?charset?B?...?= (no whitespace
//   inside) decoded; whitespace between two adjacent encoded-words dropped, and the bytes of
//   adjacent words in the same charset joined before conversion (RFC 2047 section 6.2, so a
//   UTF-8 character split across two words survives); the rest read as an unknown charset
//   (charset.h); whitespace runs collapsed to one space, trimmed. Linear time in the value.
// - The body: Content-Type (default text/plain; message/rfc822 inside multipart/digest) and
//   Content-Transfer-Encoding (quoted-printable, base64; anything else is taken as is). text/plain
//   is decoded from its charset to UTF-8 (charset.h); text/html also, then htmlToText()
//   (html_text.h). Multipart bodies are split as RFC 2046 section 5.1.1 says: a delimiter line
//   is "--boundary" followed only by spaces/tabs, the close delimiter "--boundary--" followed
//   only by spaces/tabs; any other line (e.g. "--boundary--x") is part content.
//   A multipart without a boundary parameter, or whose boundary never occurs on a
//   delimiter line, is read as plain text. multipart/alternative takes its first text/plain part with text (a part
//   of only whitespace does not count, so it cannot hide the HTML), else its first text/html
//   part with text, else the first part that yields text; other multiparts join the text of all
//   their parts (recursively) with a blank line. message/rfc822 parts contribute their body.
//   Multiparts and messages nested more than 16 deep are read as plain text (their raw lines).
//   Of a multipart body only the first 1000 parts are read (core/util/input_limits.h).
//   Other types, other text subtypes and parts with "Content-Disposition: attachment"
//   contribute nothing. Line ends become "\n"; trailing whitespace of each text part is dropped.
// - A message with no body, or none of the above, has an empty body (not an error here).
// Parsing takes time linear in the message size (times the nesting depth, at most 16).
// The result is always valid UTF-8.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fdlab {

/// Header fields in message order: name lower-cased, value unfolded (raw bytes, trimmed).
struct MimeHeaders {
    std::vector<std::pair<std::string, std::string>> fields;

    /// The value of the first field called `name` (any case), or "" when absent.
    std::string_view get(std::string_view name) const;
};

/// An entity (a message or a MIME part) split into its header fields and body.
struct MimeEntity {
    MimeHeaders headers;
    std::string_view body;   ///< the bytes after the header section (empty when there are none)
};

/// Splits raw into its header section and body (see above). The body views `raw`.
MimeEntity splitEntity(std::string_view raw);

/// A Content-Type value: type and subtype lower-cased ("text", "plain" when the value is empty or
/// unparsable), parameters with lower-cased names and unquoted values. A parameter without '='
/// is skipped. RFC 2231 sections (name*0=, name*1=, ...; name*= / name*0*= percent-encoded with
/// a charset'language' prefix) are joined in section order into one parameter "name" whose
/// value is the decoded bytes (the declared charset is not applied); it comes after the plain
/// parameters, so a plain parameter of the same name wins.
struct ContentType {
    std::string type = "text";
    std::string subtype = "plain";
    std::vector<std::pair<std::string, std::string>> params;

    /// The parameter's value, or "" when absent.
    std::string param(std::string_view name) const;
};

ContentType parseContentType(std::string_view value);

/// Quoted-printable: "=XX" (either case) -> the byte, "=" at a line end (optionally after
/// spaces/tabs) -> nothing (soft line break); any other "=" is kept.
std::string decodeQuotedPrintable(std::string_view s);

/// Base64: characters outside the alphabet (line breaks, spaces) are skipped; decoding stops
/// at the first "="; a trailing group of 2 or 3 characters gives 1 or 2 bytes.
std::string decodeBase64(std::string_view s);

/// An unfolded header value with RFC 2047 encoded-words, as UTF-8 (see above).
std::string decodeHeaderText(std::string_view value);

/// The display text of a message (see TextDocument in text_documents.h).
struct MessageText {
    std::string text;            ///< subject + "\n\n" + body, or just the body
    std::size_t bodyOffset = 0;  ///< where the body starts in text
    std::string subject;         ///< the decoded Subject (also when not kept)
};

/// Parses raw (any bytes) into its display text; keepSubject puts the Subject in front of the
/// body when it is non-empty.
MessageText messageText(std::string_view raw, bool keepSubject);

}  // namespace fdlab
