#pragma once
// Reading data files into a Dataset. One file pair per format (idx_format, csv_format,
// libsvm_format, arff_format, npy_format); this header is the single entry point callers use.
//
// Every loader throws fdlab::DataError on malformed input, with a one-line message naming the
// file and the line (or byte offset for IDX) and what was expected: truncated file, wrong magic
// number, ragged rows, NaN/Inf, non-numeric cells, unknown attribute type, a missing label
// column, an empty class. Never a crash, never silently wrong data.

#include "core/data/dataset.h"
#include "core/text/text_corpus.h"

#include <string>

namespace fdlab {

enum class FileFormat { Idx, Csv, Libsvm, Arff, Npy };

const char* toString(FileFormat f);

/// Guesses the format from the file name: *.idx*, *-ubyte[.gz] -> Idx; *.csv -> Csv;
/// *.arff -> Arff; *.npy, *.npz -> Npy; *.libsvm, *.svm, *.svmlight, *.txt and names without extension -> Libsvm.
/// Throws DataError for an unknown extension.
FileFormat guessFormat(const std::string& path);

/// What to do with '?' (missing) values in ARFF files.
enum class MissingPolicy {
    Error,       ///< refuse the file (DataError at the first '?')
    DropRow,     ///< drop every instance with a missing value
    Impute       ///< numeric: mean of the column; nominal: its most frequent value (mode)
};

/// How a loaded text-format file (CSV, LIBSVM, ARFF) is stored. IDX is always dense.
enum class Storage {
    Auto,     ///< sparse (CSR) when under 10% of the values are non-zero, else dense
    Dense,
    Sparse
};

struct LoadOptions {
    /// CSV, LIBSVM, ARFF: dense or sparse storage (see Storage).
    Storage storage = Storage::Auto;
    /// CSV: name of the label column (header), or empty for the last column.
    std::string labelColumn;
    /// CSV: field separator.
    char separator = ',';
    /// ARFF: name of the class attribute, or empty for the last attribute.
    std::string classAttribute;
    /// ARFF: policy for '?' values.
    MissingPolicy missing = MissingPolicy::Impute;
    /// Text corpora (core/text/text_loaders.h): a folder with one sub-folder per class, or a
    /// CSV file whose `textColumn` holds the documents (labels in labelColumn, default "label").
    /// Non-empty textColumn makes a CSV file a text corpus.
    std::string textColumn;
    /// Text corpora: Subject kept, binary/tf/tf-idf values, minimum document frequency.
    bool keepSubject = true;
    std::string weighting = "binary";   ///< binary | tf | tf-idf
    int minDocumentFrequency = 2;
    /// IDX and .npy/.npz: the labels file; empty means "derive it": images
    /// "X-images-idx3-ubyte[.gz]" -> "X-labels-idx1-ubyte[.gz]"; X.npy -> y.npy (npy_format.h).
    /// Given, it replaces an .npz's own 'y' member. Other formats refuse it (labelsFileProblem).
    std::string idxLabels;
};

/// IDX (MNIST) pair: images (idx3, unsigned byte, m x rows x cols) and labels (idx1, unsigned
/// byte). Plain or gzip-compressed (detected from the content, not the name). Pixels scaled to
/// [0,1] by /255; imageShape set; classes "0".."9" (those present up to the largest label).
Dataset loadIdx(const std::string& imagesPath, const std::string& labelsPath);

/// CSV with a header row; all columns but the label column must be numeric. Labels are any
/// strings (class names sorted: numerically if all numeric, else lexicographically).
Dataset loadCsv(const std::string& path, const LoadOptions& opt = {});

/// LIBSVM / SVMlight: "label idx:val idx:val ...", 1-based increasing indices, '#' comments.
/// Stored as opt.storage says (Auto: sparse under 10% non-zeros). Labels are class names,
/// sorted as for CSV (so -1 -> class 0, +1 -> class 1 in a binary file).
Dataset loadLibsvm(const std::string& path, const LoadOptions& opt = {});

/// ARFF: @relation, @attribute NAME numeric|real|integer|{nominal values}, @data (dense rows,
/// or sparse "{i v, ...}"). Nominal non-class attributes become one-hot features named
/// "attr=value". The class attribute must be nominal.
Dataset loadArff(const std::string& path, const LoadOptions& opt = {});

/// numpy: X.npy with its labels .npy, or an .npz (dense X and y, or a scipy.sparse.save_npz
/// matrix with labels); see core/data/npy_format.h for how labels are found. Stored as
/// opt.storage says (Auto: sparse under 10% non-zeros); a 3-D X (m x rows x cols) sets imageShape.
Dataset loadNpy(const std::string& path, const LoadOptions& opt = {});

/// Why opt.idxLabels (the CLI's --labels) cannot apply to `path`, or "" when it can: only IDX
/// and NumPy data take a separate labels file; CSV, LIBSVM, ARFF and text corpora carry their
/// labels themselves. loadDataFile refuses such a combination with this reason.
std::string labelsFileProblem(const std::string& path, const LoadOptions& opt);

/// Dispatch on guessFormat(path); a folder, or a CSV file with opt.textColumn set, is a text
/// corpus whose vocabulary is fitted on all its documents (loadTextPair fits it on a training
/// part only).
Dataset loadDataFile(const std::string& path, const LoadOptions& opt = {});

/// True when `path` with `opt` names a text corpus (a folder, or a CSV with a text column).
bool isTextCorpus(const std::string& path, const LoadOptions& opt);

/// The documents of a text corpus (a folder, or a CSV file with opt.textColumn), read with
/// opt's keepSubject, labelColumn and separator, not vectorised. Throws as loadDataFile does.
TextCorpus loadTextCorpusFile(const std::string& path, const LoadOptions& opt);

/// What loadDataFile(path, opt) would make of a corpus, told before vectorising it (for the
/// "Open text corpus" dialog): documents per class and the number of vocabulary words (= the
/// dataset's features) under opt's minimum document frequency, fitted on every document.
struct TextCorpusPreview {
    int documents = 0;
    std::vector<std::string> classNames;
    std::vector<int> classCounts;   ///< documents per class, in classNames' order
    int vocabulary = 0;
};
/// Throws std::invalid_argument for bad text options (weighting, minimum document frequency),
/// DataError when no word is frequent enough (as loadDataFile does).
TextCorpusPreview previewTextCorpus(const TextCorpus& corpus, const LoadOptions& opt);

/// Two text corpora: the vocabulary (and idf) fitted on `trainPath`'s documents alone, the test
/// corpus vectorised with it. `unseen` receives the test report's one-line summary.
void loadTextPair(const std::string& trainPath, const LoadOptions& trainOpt, const std::string& testPath,
                  const LoadOptions& testOpt, Dataset& train, Dataset& test, std::string* unseen = nullptr);

// Writers (atomic), used for exports and round-trip tests.
void saveCsv(const Dataset& d, const std::string& path);
void saveLibsvm(const Dataset& d, const std::string& path);
/// The label saveLibsvm writes for each class: the class name when every name is a number, else
/// -1/+1 for two classes and 0, 1, ... for more (LIBSVM tools read numeric labels only).
std::vector<std::string> libsvmLabels(const Dataset& d);
/// An .npz numpy and scipy read: a dense set as X (float32; m x rows x cols for images) and y; a
/// sparse one as scipy.sparse.save_npz's csr members plus y. y holds the class names (int64 when
/// all are integers, else strings); non-default feature names go in 'feature_names'.
void saveNpz(const Dataset& d, const std::string& path);
/// Writes images + labels as IDX; gzip when the path ends with ".gz". Requires imageShape and
/// values in [0,1] (stored as round(255 x)).
void saveIdx(const Dataset& d, const std::string& imagesPath, const std::string& labelsPath);

}  // namespace fdlab
