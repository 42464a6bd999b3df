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

void requireDocuments(std::size_t n, const std::string& where) {
    if (n == 0) throw DataError(where, 0, "no documents");
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

std::vector<std::string> tokenWords(const TextDocument& doc) {
    std::vector<std::string> words;
    words.reserve(doc.tokens.size());
    for (const TextToken& t : doc.tokens) words.push_back(foldCase(doc.tokenText(t)));
    return words;
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

}  // namespace fdlab
