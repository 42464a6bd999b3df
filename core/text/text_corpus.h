#pragma once
// Bag-of-words features for a text corpus: a vocabulary fitted on training documents; the
// documents turned into a sparse (CSR) Dataset with that vocabulary are in
// core/data/text_dataset.h (text sits below data: it knows no Dataset).
//
// Vocabulary: the words (tokenizer.h, case-folded) occurring in at least minDocumentFrequency
// training documents; with maxFeatures > 0 only that many, highest document frequency first
// (ties: alphabetical); then sorted bytewise, which gives the feature order. Only the training
// documents are counted, so a word frequent only in a test set is absent.
//
// Values of feature j (word w) in document d, with c = occurrences of w in d:
//   Binary         1 if c > 0
//   TermFrequency  c
//   TfIdf          c * idf(w), idf(w) = ln((1 + N) / (1 + df(w))) + 1 (N training documents,
//                  df(w) of them containing w: scikit-learn's smoothed idf), then the row is
//                  scaled to unit L2 norm. Only TfIdf normalises rows.
// Words not in the vocabulary (unseen in training, or cut by the frequency limits) are dropped
// and counted in VectorizeReport (core/data/text_dataset.h). Documents without any vocabulary word -- empty messages,
// messages whose words are all unseen -- are kept as all-zero rows and counted there too.

#include "core/text/text_documents.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fdlab {

/// "binary", "tf", "tfidf".
const char* toString(TermWeighting w);

struct TextCorpusOptions {
    /// E-mail messages: put the decoded Subject in front of the body (so its words count).
    /// Default true.
    bool keepSubject = true;
    /// Feature values (see above). Default Binary.
    TermWeighting weighting = TermWeighting::Binary;
    /// A word enters the vocabulary when it occurs in at least this many training documents.
    /// >= 1; default 2.
    int minDocumentFrequency = 2;
    /// At most this many words (most frequent first); 0 = no limit. >= 0; default 0.
    int maxFeatures = 0;

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

/// A corpus before vectorising: documents (tokens with vocabIndex -1), labels and ids.
struct TextCorpus {
    TextDocuments documents;
    std::vector<int> labels;               ///< class index per document
    std::vector<std::string> classNames;   ///< sorted
    std::vector<std::string> ids;          ///< per document, e.g. "spam/0001.eml"
    std::string source;                    ///< file or folder, named in errors and provenance

    int size() const { return static_cast<int>(documents.docs.size()); }
};

/// Documents idx of a corpus, in that order (same classes and source).
TextCorpus subsetCorpus(const TextCorpus& corpus, std::span<const int> idx);

/// The case-folded word (tokenizer.h) of each token of doc, in text order.
std::vector<std::string> tokenWords(const TextDocument& doc);

/// A document of display text, tokenised (vocabIndex -1).
TextDocument makeDocument(std::string text, std::uint32_t bodyOffset = 0);
/// A raw e-mail message parsed (mime_message.h) and tokenised.
TextDocument messageDocument(std::string_view raw, bool keepSubject);

struct Vocabulary {
    std::vector<std::string> words;          ///< sorted bytewise; index = feature column
    std::vector<int> documentFrequency;      ///< training documents containing each word
    std::vector<double> idf;                 ///< ln((1 + N) / (1 + df)) + 1
    int trainingDocuments = 0;               ///< N

    /// The word's index, or -1.
    int indexOf(std::string_view word) const;
    int size() const { return static_cast<int>(words.size()); }

    /// Builds the lookup table of indexOf() (fitVocabulary calls it).
    void buildIndex();

private:
    std::unordered_map<std::string, int> m_index;
};

/// The vocabulary of the training documents (see above). Throws DataError naming `where` when
/// there are no documents or no word reaches minDocumentFrequency; std::invalid_argument for
/// invalid options.
Vocabulary fitVocabulary(const TextDocuments& train, const TextCorpusOptions& options, const std::string& where);

}  // namespace fdlab
