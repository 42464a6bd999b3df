// Format dispatch for the loaders; the formats themselves live in idx_format, csv_format,
// libsvm_format and arff_format.

#include "core/data/loaders.h"

#include "core/data/csv_format.h"
#include "core/data/idx_format.h"
#include "core/data/text_dataset.h"
#include "core/util/errors.h"

#include <filesystem>

namespace fdlab {

const char* toString(FileFormat f) {
    switch (f) {
    case FileFormat::Idx: return "IDX";
    case FileFormat::Csv: return "CSV";
    case FileFormat::Libsvm: return "LIBSVM";
    case FileFormat::Arff: return "ARFF";
    case FileFormat::Npy: return "NumPy";
    }
    return "?";
}

namespace {
bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

FileFormat guessFormat(const std::string& path) {
    // Any format may be gzip-compressed; the name before ".gz" decides.
    std::string name = detail::toLower(std::filesystem::path(path).filename().string());
    if (endsWith(name, ".gz")) name.resize(name.size() - 3);
    if (endsWith(name, "ubyte")) return FileFormat::Idx;
    const auto dot = name.rfind('.');
    const std::string ext = dot == std::string::npos || dot == 0 ? std::string() : name.substr(dot + 1);
    if (ext.rfind("idx", 0) == 0) return FileFormat::Idx;  // ".idx", ".idx3-ubyte", ".idx1"
    if (ext == "csv") return FileFormat::Csv;
    if (ext == "arff") return FileFormat::Arff;
    if (ext == "npy" || ext == "npz") return FileFormat::Npy;
    if (ext.empty() || ext == "libsvm" || ext == "svm" || ext == "svmlight" || ext == "txt") return FileFormat::Libsvm;
    throw DataError(path, 0,
                    "unknown file extension '." + ext +
                        "': expected .csv, .arff, .npy, .npz, .libsvm/.svm/.svmlight/.txt or an IDX name (*-ubyte, *.idx*)");
}

namespace {
TextCorpusOptions textOptions(const LoadOptions& opt) {
    TextCorpusOptions t;
    t.keepSubject = opt.keepSubject;
    if (opt.weighting == "binary") t.weighting = TermWeighting::Binary;
    else if (opt.weighting == "tf") t.weighting = TermWeighting::TermFrequency;
    else if (opt.weighting == "tf-idf" || opt.weighting == "tfidf") t.weighting = TermWeighting::TfIdf;
    else throw std::invalid_argument("text weighting '" + opt.weighting + "' unknown (expected binary, tf or tf-idf)");
    t.minDocumentFrequency = opt.minDocumentFrequency;
    t.validate();
    return t;
}

TextCorpus loadCorpus(const std::string& path, const LoadOptions& opt) {
    if (std::filesystem::is_directory(path)) return loadTextFolder(path, textOptions(opt));
    TextCsvOptions csv;
    csv.textColumn = opt.textColumn;
    if (!opt.labelColumn.empty()) csv.labelColumn = opt.labelColumn;
    csv.separator = opt.separator;
    return loadTextCsv(path, csv, textOptions(opt));
}
}  // namespace

TextCorpus loadTextCorpusFile(const std::string& path, const LoadOptions& opt) { return loadCorpus(path, opt); }

TextCorpusPreview previewTextCorpus(const TextCorpus& corpus, const LoadOptions& opt) {
    TextCorpusPreview p;
    p.documents = corpus.size();
    p.classNames = corpus.classNames;
    p.classCounts.assign(corpus.classNames.size(), 0);
    for (int l : corpus.labels)
        if (l >= 0 && static_cast<std::size_t>(l) < p.classCounts.size()) ++p.classCounts[static_cast<std::size_t>(l)];
    p.vocabulary = fitVocabulary(corpus.documents, textOptions(opt), corpus.source).size();
    return p;
}

bool isTextCorpus(const std::string& path, const LoadOptions& opt) {
    return std::filesystem::is_directory(path) || !opt.textColumn.empty();
}

void loadTextPair(const std::string& trainPath, const LoadOptions& trainOpt, const std::string& testPath,
                  const LoadOptions& testOpt, Dataset& train, Dataset& test, std::string* unseen) {
    TextSplit sp = vectorizeSplit(loadCorpus(trainPath, trainOpt), loadCorpus(testPath, testOpt), textOptions(trainOpt),
                                  detail::fileStem(trainPath));
    if (unseen) *unseen = sp.test.report.summary();
    train = std::move(sp.train.data);
    test = std::move(sp.test.data);
}

std::string labelsFileProblem(const std::string& path, const LoadOptions& opt) {
    if (opt.idxLabels.empty()) return "";
    const std::string why = "a separate labels file applies to IDX images and NumPy .npy/.npz data only; ";
    if (isTextCorpus(path, opt)) return why + path + " is a text corpus, whose classes are its folders or its label column";
    switch (guessFormat(path)) {
    case FileFormat::Idx:
    case FileFormat::Npy: return "";
    case FileFormat::Csv: return why + path + " is CSV, whose label is a column (choose it with --label)";
    case FileFormat::Libsvm: return why + path + " is LIBSVM, whose lines start with their labels";
    case FileFormat::Arff: return why + path + " is ARFF, whose class is an attribute (choose it with --class)";
    }
    return why + path + " is none of them";
}

Dataset loadDataFile(const std::string& path, const LoadOptions& opt) {
    if (const std::string why = labelsFileProblem(path, opt); !why.empty()) throw std::invalid_argument("labels: " + why);
    if (isTextCorpus(path, opt)) return vectorizeAll(loadCorpus(path, opt), textOptions(opt), detail::fileStem(path)).data;
    switch (guessFormat(path)) {
    case FileFormat::Csv: return loadCsv(path, opt);
    case FileFormat::Libsvm: return loadLibsvm(path, opt);
    case FileFormat::Arff: return loadArff(path, opt);
    case FileFormat::Npy: return loadNpy(path, opt);
    case FileFormat::Idx: {
        std::string labels = opt.idxLabels;
        if (labels.empty()) labels = detail::deriveIdxLabelsPath(path);
        if (labels.empty())
            throw DataError(path, 0,
                            "expected an IDX images file name containing 'images' or 'idx3' (to find its labels "
                            "file), found neither; set the labels file explicitly");
        if (labels == path)
            throw DataError(path, 0, "expected an images file, found what looks like a labels file");
        return loadIdx(path, labels);
    }
    }
    throw DataError(path, 0, "unknown file format");
}

}  // namespace fdlab
