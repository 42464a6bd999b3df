#pragma once
// A text corpus (core/text/text_corpus.h) as a Dataset: the bag-of-words rows over a fitted
// vocabulary (values and normalisation as described in text_corpus.h), and the one-call loaders
// that parse, fit and vectorise. This is where text meets Dataset: core/text knows no Dataset.
//
// The SpamAssassin test part is vectorised with the training vocabulary, so words unseen in
// training are dropped and counted in its VectorizeReport.

#include "core/data/dataset.h"
#include "core/text/text_corpus.h"
#include "core/text/text_loaders.h"

#include <cstdint>
#include <string>

namespace fdlab {

/// What vectorize() dropped or could not represent.
struct VectorizeReport {
    int documents = 0;
    int documentsWithoutTokens = 0;       ///< empty text or no kept token: all-zero rows
    int documentsWithoutKnownWords = 0;   ///< all-zero rows in all (includes the above)
    std::int64_t tokens = 0;              ///< token occurrences
    std::int64_t unseenTokens = 0;        ///< occurrences of words not in the vocabulary (dropped)
    int unseenWords = 0;                  ///< distinct such words

    /// One line, e.g. "1814 documents, 3 without tokens, 5 all-zero; 41200 of 512345 token
    /// occurrences (9876 distinct words) not in the vocabulary, dropped".
    std::string summary() const;
};

/// A vectorised corpus.
struct TextDataset {
    Dataset data;
    VectorizeReport report;
};

/// The corpus as a CSR Dataset over `vocabulary` (features = vocabulary words, values as
/// options.weighting). The documents move into data.documents, each token's vocabIndex set;
/// ids into data.sourceIds. Throws DataError naming corpus.source for an empty corpus.
TextDataset vectorize(TextCorpus corpus, const Vocabulary& vocabulary, const TextCorpusOptions& options,
                      const std::string& name);

/// A message typed by a user, as a row of a vectorised text corpus.
struct TypedDocument {
    TextDocument document;           ///< tokens with their vocabulary indices
    std::vector<std::int32_t> columns;   ///< the row's non-zero features, increasing
    std::vector<float> values;       ///< their values
    int unseenWords = 0;             ///< distinct words outside the vocabulary (dropped)

    RowView row(int features) const {
        return {values.data(), columns.data(), static_cast<int>(values.size()), features, true};
    }
};

/// `text` (plain text, tokenised as the corpus was; no MIME parsing) as a row of the text
/// corpus `d`: its vocabulary and weighting (words outside the vocabulary are dropped, as in a
/// test part). Throws std::invalid_argument when d is not a text corpus.
TypedDocument typedDocumentRow(const Dataset& d, std::string text);
/// `d` with the typed document as one more row, of class `label` and instance id `id`; its
/// document and id join copies of d's. Throws std::invalid_argument when d is not a text corpus
/// or label is out of range.
Dataset withTypedDocument(const Dataset& d, TypedDocument typed, int label, const std::string& id);

/// A training corpus and a test corpus vectorised with the training vocabulary.
struct TextSplit {
    TextDataset train;
    TextDataset test;
    Vocabulary vocabulary;
};

/// fitVocabulary(train) + vectorize both. Names the datasets name and name + "-test".
TextSplit vectorizeSplit(TextCorpus train, TextCorpus test, const TextCorpusOptions& options, const std::string& name);

/// fitVocabulary + vectorize on one corpus (every document is training data).
TextDataset vectorizeAll(TextCorpus corpus, const TextCorpusOptions& options, const std::string& name);

/// A folder or a CSV file (by what `path` is), every document used to fit the vocabulary, then
/// vectorised: the one-call form for a corpus without a separate test part.
TextDataset loadTextDataset(const std::string& path, const TextCsvOptions& csv = {},
                            const TextCorpusOptions& options = {});

/// Both parts, vectorised with the vocabulary of the training part: datasets "spamassassin"
/// (train) and "spamassassin-test" (test), reports, and the vocabulary. Parses each file once.
TextSplit loadSpamAssassin(const std::string& datasetsDir, const TextCorpusOptions& options = {});

/// The training part alone (fit + vectorise on it; the same Dataset as loadSpamAssassin().train).
TextDataset loadSpamAssassinTrain(const std::string& datasetsDir, const TextCorpusOptions& options = {});

}  // namespace fdlab
