#pragma once
// The documents behind a text Dataset (Dataset::documents), for views that show a message with
// its words tinted by weight and the adversary's deletions struck out.
//
// Each document is its display text -- valid UTF-8, exactly what a reader sees: the decoded
// Subject (when kept), a blank line, then the decoded plain-text body (core/text/mime_message.h)
// -- and every token the tokenizer kept (core/text/tokenizer.h), in text order, as a byte range
// of the display text plus the token's feature index. The vocabulary word of a token is
// foldCase(text.substr(offset, length)); the range itself keeps the original case.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab {

/// One token occurrence in a document's display text.
struct TextToken {
    std::uint32_t offset = 0;    ///< byte offset in TextDocument::text
    std::uint32_t length = 0;    ///< bytes (2..40, see tokenizer.h)
    std::int32_t vocabIndex = -1; ///< vocabulary index = feature column, -1 if not in the vocabulary

    bool operator==(const TextToken&) const = default;
};

/// One document: what a reader sees and where its tokens are.
struct TextDocument {
    std::string text;                 ///< display text, valid UTF-8
    std::uint32_t bodyOffset = 0;     ///< where the body starts in text (0 without a Subject)
    std::vector<TextToken> tokens;    ///< in increasing offset

    /// The token's bytes as they appear in the text (original case).
    std::string_view tokenText(const TextToken& t) const { return std::string_view(text).substr(t.offset, t.length); }
};

/// Feature values of a word occurring c times in a document (text_corpus.h).
enum class TermWeighting { Binary, TermFrequency, TfIdf };

/// All documents of a corpus, indexed like the Dataset's source rows, and how their rows were
/// computed, so that a new document (a message a student types) gets a row the same way.
struct TextDocuments {
    std::vector<TextDocument> docs;
    TermWeighting weighting = TermWeighting::Binary;
    std::vector<double> idf;   ///< per vocabulary word (= feature), for TfIdf
};

}  // namespace fdlab
