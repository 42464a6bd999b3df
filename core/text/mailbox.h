#pragma once
// Mail as mail clients keep it: mbox files and Maildir folders.
//
// mbox (RFC 4155; the mboxo and mboxrd variants): messages one after the other, each starting
// with a separator line "From SENDER DATE" at the start of a line. Inside a message a line that
// began with "From " was escaped by the writer with '>': mboxrd escapes ">*From " by one more
// '>', mboxo only "From ". Removing one '>' from every line matching ">+From " undoes both (the
// mboxo ambiguity -- a body line that really began with ">From " -- cannot be undone by any
// reader). The blank line a writer puts before the next separator is not part of the message.
// CRLF files are fine. Text before the first separator is an error (not an mbox file).
//
// Maildir (D. J. Bernstein, cr.yp.to/proto/maildir.html): a folder with sub-folders cur/, new/
// and tmp/; every file in cur/ and new/ is one message (tmp/ holds messages being delivered and
// is skipped, as are names starting with '.').

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab {

/// One message of an mbox file: its raw bytes (">From " unescaped) and the 1-based line of
/// its "From " separator.
struct MboxMessage {
    std::string raw;
    long line = 0;
};

/// Splits an mbox file's bytes into messages. Throws DataError(path, line, ...) when the file
/// does not start with a "From " line (blank lines aside) or holds no message.
std::vector<MboxMessage> splitMbox(std::string_view bytes, const std::string& path);

/// True when `dir` has a cur/ or new/ sub-folder.
bool isMaildir(const std::filesystem::path& dir);

/// The message files of a Maildir: cur/ then new/, each sorted by name.
std::vector<std::filesystem::path> maildirMessages(const std::filesystem::path& dir);

/// True for a file named "*.mbox" or "*.mbx" (any case, optionally + ".gz"), or called "mbox".
bool isMboxFile(const std::filesystem::path& file);

}  // namespace fdlab
