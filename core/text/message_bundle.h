#pragma once
// FDLab message bundles: many raw e-mail messages with ids and labels in one (gzip'd) file,
// the form in which datasets/fetch.sh ships the SpamAssassin corpus.
//
// Format (after gunzip; the file may also be stored uncompressed):
//   FDLab message bundle 1\n
//   key: value\n ...            (free-form header lines; "messages: N" is required)
//   \n
//   then N records, each "ID GROUP LABEL BYTES\n" (single spaces, no spaces inside the fields,
//   BYTES in decimal) followed by exactly BYTES bytes of the raw message and one "\n".
// Nothing may follow the last record.

#include "core/text/text_corpus.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fdlab {

struct BundledMessage {
    std::string id;          ///< e.g. "spam-2/00012.0a5b..."
    std::string group;       ///< e.g. "spam-2"
    std::string label;       ///< class name, e.g. "spam"
    std::string_view raw;    ///< the message bytes, a view into MessageBundle::bytes
};

struct MessageBundle {
    std::string bytes;                                         ///< the decompressed file
    std::vector<std::pair<std::string, std::string>> header;   ///< "key: value" lines
    std::vector<BundledMessage> messages;

    /// The header value for key, or "" when absent.
    std::string headerValue(std::string_view key) const;
};

/// Reads and checks a bundle. Throws DataError naming the file and the (decompressed) byte
/// offset of the problem: wrong first line, missing message count, a malformed record line, a
/// record running past the end, trailing bytes, a count that does not match.
MessageBundle readMessageBundle(const std::string& path);

/// The bundle's messages parsed into documents (in parallel), labels (classes = the sorted
/// distinct labels) and ids; source = path.
TextCorpus messageBundleCorpus(const std::string& path, const TextCorpusOptions& options = {});

}  // namespace fdlab
