// Vocabulary fitting and bag-of-words vectorising (see text_corpus.h).

#include "core/text/text_corpus.h"

#include "core/text/mime_message.h"
#include "core/text/tokenizer.h"
#include "core/util/errors.h"
#include "core/util/parallel.h"
#include "core/util/param_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>
#include <utility>

namespace fdlab {

namespace {

/// The case-folded word of each token of doc, in text order.
std::vector<std::string> tokenWords(const TextDocument& doc) {
    std::vector<std::string> words;
    words.reserve(doc.tokens.size());
    for (const TextToken& t : doc.tokens) words.push_back(foldCase(doc.tokenText(t)));
    return words;
}

void requireDocuments(std::size_t n, const std::string& where) {
    if (n == 0) throw DataError(where, 0, "no documents");
}

/// One document's row before assembly: (feature, occurrences) in increasing feature, and the
/// distinct words it has outside the vocabulary.
struct DocumentRow {
    std::vector<std::pair<int, int>> counts;
    std::vector<std::string> unseen;
    std::int64_t unseenTokens = 0;
};

DocumentRow countWords(TextDocument& doc, const Vocabulary& vocabulary) {
    DocumentRow row;
    std::vector<int> features;
    const std::vector<std::string> words = tokenWords(doc);
    for (std::size_t k = 0; k < words.size(); ++k) {
        const int j = vocabulary.indexOf(words[k]);
        doc.tokens[k].vocabIndex = j;
        if (j >= 0) {
            features.push_back(j);
        } else {
            row.unseen.push_back(words[k]);
            ++row.unseenTokens;
        }
    }
    std::sort(features.begin(), features.end());
    for (std::size_t k = 0; k < features.size();) {
        std::size_t e = k;
        while (e < features.size() && features[e] == features[k]) ++e;
        row.counts.emplace_back(features[k], static_cast<int>(e - k));
        k = e;
    }
    std::sort(row.unseen.begin(), row.unseen.end());
    row.unseen.erase(std::unique(row.unseen.begin(), row.unseen.end()), row.unseen.end());
    return row;
}

}  // namespace

const char* toString(TermWeighting w) {
    switch (w) {
    case TermWeighting::Binary: return "binary";
    case TermWeighting::TermFrequency: return "tf";
    case TermWeighting::TfIdf: return "tfidf";
    }
    return "?";
}

void TextCorpusOptions::validate() const {
    if (minDocumentFrequency < 1)
        invalidParam("TextCorpusOptions", "minDocumentFrequency", "= " + std::to_string(minDocumentFrequency) + " must be >= 1");
    if (maxFeatures < 0)
        invalidParam("TextCorpusOptions", "maxFeatures", "= " + std::to_string(maxFeatures) + " must be >= 0 (0 = no limit)");
    if (weighting != TermWeighting::Binary && weighting != TermWeighting::TermFrequency && weighting != TermWeighting::TfIdf)
        invalidParam("TextCorpusOptions", "weighting", "is not Binary, TermFrequency or TfIdf");
}

TextCorpus subsetCorpus(const TextCorpus& corpus, std::span<const int> idx) {
    TextCorpus out;
    out.classNames = corpus.classNames;
    out.source = corpus.source;
    for (const int i : idx) {
        const auto k = static_cast<std::size_t>(i);
        out.documents.docs.push_back(corpus.documents.docs.at(k));
        out.labels.push_back(corpus.labels.at(k));
        out.ids.push_back(corpus.ids.at(k));
    }
    return out;
}

TextDocument makeDocument(std::string text, std::uint32_t bodyOffset) {
    TextDocument doc;
    doc.text = std::move(text);
    doc.bodyOffset = bodyOffset;
    for (const TokenSpan& s : tokenize(doc.text)) doc.tokens.push_back({s.offset, s.length, -1});
    return doc;
}

TextDocument messageDocument(std::string_view raw, bool keepSubject) {
    MessageText m = messageText(raw, keepSubject);
    return makeDocument(std::move(m.text), static_cast<std::uint32_t>(m.bodyOffset));
}

int Vocabulary::indexOf(std::string_view word) const {
    const auto it = m_index.find(std::string(word));
    return it == m_index.end() ? -1 : it->second;
}

void Vocabulary::buildIndex() {
    m_index.clear();
    m_index.reserve(words.size());
    for (std::size_t j = 0; j < words.size(); ++j) m_index.emplace(words[j], static_cast<int>(j));
}

Vocabulary fitVocabulary(const TextDocuments& train, const TextCorpusOptions& options, const std::string& where) {
    options.validate();
    requireDocuments(train.docs.size(), where);
    // Distinct words per document in parallel, then one sequential count (deterministic).
    const int n = static_cast<int>(train.docs.size());
    std::vector<std::vector<std::string>> distinct(train.docs.size());
    parallelFor(n, 0, [&](int i) {
        auto& w = distinct[static_cast<std::size_t>(i)];
        w = tokenWords(train.docs[static_cast<std::size_t>(i)]);
        std::sort(w.begin(), w.end());
        w.erase(std::unique(w.begin(), w.end()), w.end());
    });
    std::unordered_map<std::string, int> df;
    for (auto& words : distinct)
        for (auto& w : words) ++df[std::move(w)];

    std::vector<std::pair<std::string, int>> kept;
    for (auto& [w, c] : df)
        if (c >= options.minDocumentFrequency) kept.emplace_back(w, c);
    if (kept.empty())
        throw DataError(where, 0, "no word occurs in at least minDocumentFrequency = " +
                                      std::to_string(options.minDocumentFrequency) + " of the " + std::to_string(n) +
                                      " training documents: the vocabulary is empty");
    if (options.maxFeatures > 0 && static_cast<int>(kept.size()) > options.maxFeatures) {
        std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        kept.resize(static_cast<std::size_t>(options.maxFeatures));
    }
    std::sort(kept.begin(), kept.end());

    Vocabulary v;
    v.trainingDocuments = n;
    for (auto& [w, c] : kept) {
        v.words.push_back(std::move(w));
        v.documentFrequency.push_back(c);
        v.idf.push_back(std::log((1.0 + n) / (1.0 + c)) + 1.0);
    }
    v.buildIndex();
    return v;
}

std::string VectorizeReport::summary() const {
    return std::to_string(documents) + " documents, " + std::to_string(documentsWithoutTokens) + " without tokens, " +
           std::to_string(documentsWithoutKnownWords) + " all-zero; " + std::to_string(unseenTokens) + " of " +
           std::to_string(tokens) + " token occurrences (" + std::to_string(unseenWords) +
           " distinct words) not in the vocabulary, dropped";
}

TextDataset vectorize(TextCorpus corpus, const Vocabulary& vocabulary, const TextCorpusOptions& options,
                      const std::string& name) {
    options.validate();
    auto& docs = corpus.documents.docs;
    requireDocuments(docs.size(), corpus.source);
    if (corpus.labels.size() != docs.size() || corpus.ids.size() != docs.size())
        throw std::invalid_argument(corpus.source + ": " + std::to_string(docs.size()) + " documents, " +
                                    std::to_string(corpus.labels.size()) + " labels, " +
                                    std::to_string(corpus.ids.size()) + " ids");

    std::vector<DocumentRow> rows(docs.size());
    parallelFor(static_cast<int>(docs.size()), 0, [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        rows[k] = countWords(docs[k], vocabulary);
    });

    TextDataset out;
    VectorizeReport& r = out.report;
    r.documents = static_cast<int>(docs.size());
    std::int64_t nonZeros = 0;
    for (const auto& row : rows) nonZeros += static_cast<std::int64_t>(row.counts.size());
    SparseRowsBuilder b(vocabulary.size(), nonZeros);
    std::unordered_set<std::string> unseen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const DocumentRow& row = rows[i];
        std::vector<double> values;
        for (const auto& [j, c] : row.counts)
            values.push_back(options.weighting == TermWeighting::Binary        ? 1.0
                             : options.weighting == TermWeighting::TermFrequency ? c
                                                                                 : c * vocabulary.idf[static_cast<std::size_t>(j)]);
        if (options.weighting == TermWeighting::TfIdf) {
            const double norm = std::sqrt(std::inner_product(values.begin(), values.end(), values.begin(), 0.0));
            for (double& x : values) x /= norm;  // norm > 0 whenever values is non-empty
        }
        for (std::size_t k = 0; k < values.size(); ++k) b.add(row.counts[k].first, static_cast<float>(values[k]));
        b.endRow();
        r.tokens += static_cast<std::int64_t>(docs[i].tokens.size());
        r.unseenTokens += row.unseenTokens;
        r.documentsWithoutTokens += docs[i].tokens.empty();
        r.documentsWithoutKnownWords += row.counts.empty();
        unseen.insert(row.unseen.begin(), row.unseen.end());
    }
    r.unseenWords = static_cast<int>(unseen.size());

    Dataset& d = out.data;
    d.name = name;
    d.provenance = corpus.source + "; bag of words: " + std::to_string(vocabulary.size()) + " words (min df " +
                   std::to_string(options.minDocumentFrequency) + " in " +
                   std::to_string(vocabulary.trainingDocuments) + " training documents" +
                   (options.maxFeatures > 0 ? ", at most " + std::to_string(options.maxFeatures) : std::string()) +
                   "), " + toString(options.weighting) + (options.keepSubject ? ", subject kept" : ", subject dropped");
    d.sparse = std::move(b).finish();
    d.labels = std::move(corpus.labels);
    d.classNames = std::move(corpus.classNames);
    d.featureNames = vocabulary.words;
    d.sourceIds = std::make_shared<const std::vector<std::string>>(std::move(corpus.ids));
    d.documents = std::make_shared<const TextDocuments>(std::move(corpus.documents));
    d.fillDefaults();
    d.validate(corpus.source);
    return out;
}

TextSplit vectorizeSplit(TextCorpus train, TextCorpus test, const TextCorpusOptions& options, const std::string& name) {
    TextSplit s;
    s.vocabulary = fitVocabulary(train.documents, options, train.source);
    s.train = vectorize(std::move(train), s.vocabulary, options, name);
    s.test = vectorize(std::move(test), s.vocabulary, options, name + "-test");
    return s;
}

TextDataset vectorizeAll(TextCorpus corpus, const TextCorpusOptions& options, const std::string& name) {
    const Vocabulary v = fitVocabulary(corpus.documents, options, corpus.source);
    return vectorize(std::move(corpus), v, options, name);
}

}  // namespace fdlab
