// Loaders and writers of core/data/loaders.h: hand-checked tiny fixtures of every format
// (tests/data/), save -> load round trips, the malformed corpus (tests/data/malformed/: every
// file must fail with a DataError naming the file and the right line or byte), and load speed.

#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "core/data/summary.h"
#include "core/util/errors.h"
#include "core/util/rng.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string>

using namespace fdlab;

namespace {

const std::string kData = FDLAB_TEST_DATA;

std::string data(const std::string& name) { return kData + "/" + name; }

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string& path, const std::string& s) {
    std::ofstream out(path, std::ios::binary);
    out << s;
}

/// Runs f, which must throw DataError; returns its message ("" if it did not throw).
template <class F>
std::string dataErrorOf(F&& f) {
    try {
        f();
    } catch (const DataError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("WRONG EXCEPTION TYPE: ") + e.what();
    }
    return "";
}

void compareMatrix(const Dataset& a, const Dataset& b) {
    QCOMPARE(a.rows(), b.rows());
    QCOMPARE(a.features(), b.features());
    for (int i = 0; i < a.rows(); ++i)
        for (int j = 0; j < a.features(); ++j)
            if (a.X(i, j) != b.X(i, j))
                QFAIL(qPrintable(QString("X(%1,%2): %3 != %4").arg(i).arg(j).arg(a.X(i, j), 0, 'g', 9).arg(b.X(i, j), 0, 'g', 9)));
}

enum class Kind { Text, IdxImages, IdxLabels };

struct Case {
    const char* file;
    long position;      ///< text: expected line; IDX: expected byte offset (-1: not checked)
    Kind kind;
    const char* mustContain;
    const char* labelColumn = "";
};

// Expected line (or byte) of every file of the malformed corpus, found by reading the files.
const Case kCorpus[] = {
    {"csv_ragged_row.csv", 3, Kind::Text, "expected 3 fields"},
    {"csv_non_numeric.csv", 4, Kind::Text, "'abc'"},
    {"csv_nan.csv", 2, Kind::Text, "NaN/Inf"},
    {"csv_inf.csv", 3, Kind::Text, "NaN/Inf"},
    {"csv_missing_label_column.csv", 1, Kind::Text, "label column named 'class'", "class"},
    {"csv_empty_label.csv", 3, Kind::Text, "empty cell"},
    {"csv_empty.csv", 1, Kind::Text, "empty file"},
    {"csv_header_only.csv", 1, Kind::Text, "at least one data row"},
    {"csv_unterminated_quote.csv", 2, Kind::Text, "closing quote"},
    {"csv_overflow.csv", 4, Kind::Text, "float range"},
    {"libsvm_bad_token.libsvm", 3, Kind::Text, "'foo'"},
    {"libsvm_decreasing_index.libsvm", 2, Kind::Text, "increasing"},
    {"libsvm_duplicate_index.libsvm", 3, Kind::Text, "twice"},
    {"libsvm_index_zero.libsvm", 2, Kind::Text, "index 0"},
    // An index of 2^31 used to pass the bound check and end in vector::_M_default_append.
    {"libsvm_index_2pow31.libsvm", 3, Kind::Text, "at most 16777216 (2^24, the largest feature count FDLab loads), found 2147483648"},
    {"libsvm_index_too_large.libsvm", 2, Kind::Text, "found 16777217"},
    {"libsvm_nan.libsvm", 3, Kind::Text, "NaN/Inf"},
    {"libsvm_inf.libsvm", 1, Kind::Text, "NaN/Inf"},
    {"libsvm_label_missing.libsvm", 2, Kind::Text, "class label"},
    {"libsvm_text_label.libsvm", 2, Kind::Text, "numeric class label (e.g. +1, -1, 3), found 'abc'"},
    {"csv_duplicate_header.csv", 1, Kind::Text, "column name 'a' appears twice"},
    {"csv_numeric_header.csv", 1, Kind::Text, "found only numbers"},
    {"libsvm_no_instances.libsvm", 2, Kind::Text, "found none"},
    {"arff_unknown_type.arff", 3, Kind::Text, "unknown attribute type"},
    {"arff_string_type.arff", 3, Kind::Text, "unsupported attribute type"},
    {"arff_date_type.arff", 2, Kind::Text, "unsupported attribute type"},
    {"arff_wrong_value_count.arff", 6, Kind::Text, "expected 2 values"},
    {"arff_undeclared_nominal.arff", 6, Kind::Text, "'purple'"},
    {"arff_missing_data.arff", 4, Kind::Text, "@data"},
    {"arff_missing_data_eof.arff", 3, Kind::Text, "expected an @data line, found end of file"},
    {"arff_non_numeric.arff", 8, Kind::Text, "'abc'"},
    {"arff_nan.arff", 6, Kind::Text, "NaN/Inf"},
    {"arff_class_numeric.arff", 4, Kind::Text, "nominal"},
    {"arff_empty_class.arff", 3, Kind::Text, "class 'c'"},
    {"arff_bad_sparse_index.arff", 6, Kind::Text, "INDEX in [0, 1], found '5 1'"},
    // IDX: header 4 + 4*3 = 16 bytes, tiny images 3 x 2 x 3 = 18 data bytes (34 in all).
    {"idx_truncated-images-idx3-ubyte", 26, Kind::IdxImages, "truncated data: expected 18"},
    {"idx_truncated_header-images-idx3-ubyte", 10, Kind::IdxImages, "truncated header"},
    {"idx_wrong_magic-images-idx3-ubyte", 0, Kind::IdxImages, "not an IDX file"},
    {"idx_wrong_dtype-images-idx3-ubyte", 2, Kind::IdxImages, "(unsigned byte), found 0x0D"},
    {"idx_wrong_ndim-images-idx3-ubyte", 3, Kind::IdxImages, "0x00000803"},
    {"idx_extra_bytes-images-idx3-ubyte", 34, Kind::IdxImages, "2 extra bytes"},
    {"idx_count_mismatch-labels-idx1-ubyte", 4, Kind::IdxLabels, "expected 3 labels"},
    {"idx_gz_corrupt-images-idx3-ubyte.gz", -1, Kind::IdxImages, "corrupt gzip data"},
    {"idx_gz_truncated-images-idx3-ubyte.gz", 23, Kind::IdxImages, "truncated gzip stream"},
};

// The tiny IDX fixture (tests/data/tiny-*-idx*-ubyte): 3 images of 2 x 3 pixels.
const int kTinyPixels[3][6] = {{0, 255, 51, 102, 153, 204}, {17, 34, 0, 0, 0, 1}, {255, 254, 128, 64, 32, 16}};
const int kTinyLabels[3] = {1, 0, 2};

}  // namespace

class TestLoaders : public QObject {
    Q_OBJECT

private slots:
    void guessFormatFromNames() {
        QCOMPARE(guessFormat("a/b.csv"), FileFormat::Csv);
        QCOMPARE(guessFormat("X.CSV"), FileFormat::Csv);
        QCOMPARE(guessFormat("x.csv.gz"), FileFormat::Csv);
        QCOMPARE(guessFormat("d.arff"), FileFormat::Arff);
        QCOMPARE(guessFormat("d.libsvm"), FileFormat::Libsvm);
        QCOMPARE(guessFormat("d.svm"), FileFormat::Libsvm);
        QCOMPARE(guessFormat("d.svmlight"), FileFormat::Libsvm);
        QCOMPARE(guessFormat("d.txt"), FileFormat::Libsvm);
        QCOMPARE(guessFormat("dir.x/a9a"), FileFormat::Libsvm);
        QCOMPARE(guessFormat("train-images-idx3-ubyte"), FileFormat::Idx);
        QCOMPARE(guessFormat("t10k-images.idx3-ubyte"), FileFormat::Idx);
        QCOMPARE(guessFormat("t10k-images-idx3-ubyte.gz"), FileFormat::Idx);
        QCOMPARE(guessFormat("digits.idx"), FileFormat::Idx);
        const std::string msg = dataErrorOf([] { guessFormat("sheet.xlsx"); });
        QVERIFY2(msg.find("sheet.xlsx") != std::string::npos && msg.find("'.xlsx'") != std::string::npos, msg.c_str());
        QCOMPARE(std::string(toString(FileFormat::Idx)), std::string("IDX"));
        QCOMPARE(std::string(toString(FileFormat::Csv)), std::string("CSV"));
        QCOMPARE(std::string(toString(FileFormat::Libsvm)), std::string("LIBSVM"));
        QCOMPARE(std::string(toString(FileFormat::Arff)), std::string("ARFF"));
    }

    void csvQuotesWhitespaceCrlfAndLabelColumn() {
        // tiny.csv: CRLF, a quoted header with a comma, spaces, an empty line, "+7", 1e2.
        LoadOptions opt;
        opt.labelColumn = "class";
        const Dataset d = loadCsv(data("tiny.csv"), opt);
        QCOMPARE(d.rows(), 3);
        QCOMPARE(d.features(), 3);
        const float expect[3][3] = {{1.5f, 2.0f, -3.0f}, {4.0f, 0.5f, 7.0f}, {0.0f, 0.0f, 100.0f}};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) QCOMPARE(d.X(i, j), expect[i][j]);
        QCOMPARE(d.featureNames, (std::vector<std::string>{"width, cm", "height", "weight"}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(d.labels, (std::vector<int>{1, 0, 1}));
        QCOMPARE(d.name, std::string("tiny"));
        QVERIFY(d.provenance.find("tiny.csv") != std::string::npos && d.provenance.find("CSV") != std::string::npos);
        QCOMPARE(d.importance, (std::vector<double>{1.0, 1.0, 1.0}));
        QVERIFY(!d.imageShape);

        // Default label column = the last one ("weight"): then "class" is a feature, and "b" on
        // line 2 is not a number.
        const std::string msg = dataErrorOf([] { loadCsv(data("tiny.csv")); });
        QVERIFY2(msg.find("tiny.csv:2:") != std::string::npos && msg.find("'class'") != std::string::npos &&
                     msg.find("'b'") != std::string::npos, msg.c_str());
    }

    void csvClassOrder() {
        // Numeric labels sort numerically (lexicographic would give -1, 10, 2).
        const Dataset d = loadCsv(data("tiny_numeric_labels.csv"));
        QCOMPARE(d.classNames, (std::vector<std::string>{"-1", "2", "10"}));
        QCOMPARE(d.labels, (std::vector<int>{2, 1, 0, 1}));
        QCOMPARE(d.featureNames, (std::vector<std::string>{"x"}));

        // Mixed labels sort lexicographically (byte order: '+' < '-' < '1' < 'a').
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string p = dir.filePath("mixed.csv").toStdString();
        writeAll(p, "v;c\n1;a\n2;-3\n3;+7\n4;1e2\n");
        LoadOptions opt;
        opt.separator = ';';
        const Dataset m = loadCsv(p, opt);
        QCOMPARE(m.classNames, (std::vector<std::string>{"+7", "-3", "1e2", "a"}));
        QCOMPARE(m.labels, (std::vector<int>{3, 1, 0, 2}));
        // ...and the same labels without "a" sort by value: -3 < +7 < 1e2.
        writeAll(p, "v;c\n2;-3\n3;+7\n4;1e2\n");
        QCOMPARE(loadCsv(p, opt).classNames, (std::vector<std::string>{"-3", "+7", "1e2"}));

        // A UTF-8 byte order mark (spreadsheet export) does not stick to the first column name.
        writeAll(p, "\xEF\xBB\xBF" "cls,v\r\nb,1\r\na,2\r\n");
        LoadOptions first;
        first.labelColumn = "cls";
        const Dataset b = loadCsv(p, first);
        QCOMPARE(b.featureNames, (std::vector<std::string>{"v"}));
        QCOMPARE(b.labels, (std::vector<int>{1, 0}));
        QCOMPARE(b.X(1, 0), 2.0f);
    }

    void libsvmCommentsQidAndSignedLabels() {
        const Dataset d = loadLibsvm(data("tiny.libsvm"));
        QCOMPARE(d.rows(), 4);
        QCOMPARE(d.features(), 4);  // the largest index seen
        QCOMPARE(d.classNames, (std::vector<std::string>{"-1", "+1"}));
        QCOMPARE(d.labels, (std::vector<int>{1, 0, 1, 0}));
        QCOMPARE(d.y(0), 1);
        QCOMPARE(d.y(1), -1);
        const float expect[4][4] = {{0.5f, 0, -2.0f, 0}, {0, 1.25f, 0, 0}, {0, 0, 0, 0.1f}, {0, 0, 0, 0}};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) QCOMPARE(d.X(i, j), expect[i][j]);
        QVERIFY(d.featureNames.empty());   // LIBSVM names no features: the defaults, not stored
        QCOMPARE(d.featureNameList(), (std::vector<std::string>{"f1", "f2", "f3", "f4"}));
        QCOMPARE(d.featureName(3), std::string("f4"));
        // The defaults hash as if spelled out (model files written before keep their fingerprint).
        Dataset spelled = d;
        spelled.featureNames = {"f1", "f2", "f3", "f4"};
        QCOMPARE(spelled.fingerprint(), d.fingerprint());
        spelled.featureNames[3] = "f5";
        QVERIFY(spelled.fingerprint() != d.fingerprint());
        QCOMPARE(d.name, std::string("tiny"));
        QVERIFY(d.provenance.find("LIBSVM") != std::string::npos);
        QCOMPARE(loadDataFile(data("tiny.libsvm")).fingerprint(), d.fingerprint());
    }

    // The summary's value range equals the per-feature ranges' extremes (Dataset::columnRange),
    // zeros counting only where a value is zero: sparse, dense with zeros, dense without.
    void summaryValueRange() {
        Dataset full;
        full.X = Dataset::Matrix{{1.5f, 2.0f}, {3.0f, 4.0f}};
        full.labels = {0, 1};
        full.fillDefaults();
        Dataset withZero = full;
        withZero.X(1, 0) = 0.0f;
        for (const Dataset& d : {loadLibsvm(data("tiny.libsvm")), loadLibsvm(data("tiny.libsvm")).toDense(), full, withZero}) {
            std::vector<float> lo, hi;
            d.columnRange(lo, hi);
            const DatasetSummary s = summarize(d, "test");
            QCOMPARE(s.minValue, static_cast<double>(*std::min_element(lo.begin(), lo.end())));
            QCOMPARE(s.maxValue, static_cast<double>(*std::max_element(hi.begin(), hi.end())));
        }
        QCOMPARE(summarize(full, "test").minValue, 1.5);
        QCOMPARE(summarize(withZero, "test").minValue, 0.0);
        QCOMPARE(summarize(loadLibsvm(data("tiny.libsvm")), "test").minValue, -2.0);
    }

    void arffImputeOneHotSparse() {
        // tiny.arff (hand computation): temp known 85, 70, 72, 69 -> mean 74; humid known
        // 85, 90, 95, 70 -> mean 85; windy no, yes, ?, yes (sparse default = first value), no
        // -> tie 2:2 -> first declared value "yes".
        const Dataset d = loadArff(data("tiny.arff"));
        QCOMPARE(d.featureNames, (std::vector<std::string>{"out look=sunny", "out look=overcast", "out look=rainy day",
                                                           "temp", "humid", "windy=yes", "windy=no"}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"no", "yes"}));
        QCOMPARE(d.labels, (std::vector<int>{0, 1, 1, 0, 1}));
        const float expect[5][7] = {{1, 0, 0, 85, 85, 0, 1},
                                    {0, 1, 0, 74, 90, 1, 0},
                                    {0, 0, 1, 70, 85, 1, 0},
                                    {1, 0, 0, 72, 95, 1, 0},
                                    {1, 0, 0, 69, 70, 0, 1}};
        QCOMPARE(d.rows(), 5);
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 7; ++j) QCOMPARE(d.X(i, j), expect[i][j]);
        QCOMPARE(d.name, std::string("tiny"));
        QCOMPARE(static_cast<int>(d.importance.size()), 7);

        // DropRow keeps rows 1, 4, 5 of the data.
        LoadOptions drop;
        drop.missing = MissingPolicy::DropRow;
        const Dataset dd = loadArff(data("tiny.arff"), drop);
        QCOMPARE(dd.rows(), 3);
        QCOMPARE(dd.labels, (std::vector<int>{0, 0, 1}));
        for (int j = 0; j < 7; ++j) {
            QCOMPARE(dd.X(0, j), expect[0][j]);
            QCOMPARE(dd.X(1, j), expect[3][j]);
            QCOMPARE(dd.X(2, j), expect[4][j]);
        }

        // Error refuses the first '?', on line 12.
        LoadOptions strict;
        strict.missing = MissingPolicy::Error;
        const std::string msg = dataErrorOf([&] { loadArff(data("tiny.arff"), strict); });
        QVERIFY2(msg.find("tiny.arff:12:") != std::string::npos && msg.find("'temp'") != std::string::npos, msg.c_str());

        // Another class attribute: "windy" (row 3 has it missing: dropped, never imputed); "play"
        // becomes one-hot; temp's mean is over the kept rows: (85 + 72 + 69) / 3.
        LoadOptions windy;
        windy.classAttribute = "windy";
        const Dataset w = loadArff(data("tiny.arff"), windy);
        QCOMPARE(w.classNames, (std::vector<std::string>{"yes", "no"}));
        QCOMPARE(w.labels, (std::vector<int>{1, 0, 0, 1}));
        QCOMPARE(w.featureNames[5], std::string("play=no"));
        QCOMPARE(w.featureNames[6], std::string("play=yes"));
        QVERIFY(std::abs(w.X(1, 3) - 226.0 / 3.0) < 1e-5);
        QCOMPARE(w.X(1, 6), 1.0f);

        // Unknown class attribute name.
        LoadOptions bad;
        bad.classAttribute = "nope";
        const std::string m2 = dataErrorOf([&] { loadArff(data("tiny.arff"), bad); });
        QVERIFY2(m2.find("tiny.arff:10:") != std::string::npos && m2.find("'nope'") != std::string::npos, m2.c_str());
    }

    void arffSingleClassLoads() {
        const Dataset d = loadDataFile(data("single_class.arff"));
        QCOMPARE(d.numClasses(), 1);
        QCOMPARE(d.classNames[0], std::string("only"));
        QCOMPARE(d.rows(), 2);
        QCOMPARE(d.X(1, 0), 3.0f);
        QCOMPARE(d.X(1, 1), 4.0f);
    }

    // Issue 29: a gzip bomb (1.3 MB inflating to 1.25 GiB) used to grow the output buffer until
    // memory ran out. gunzip stops at its limit (kMaxDecompressedBytes by default) with a
    // DataError, and its buffer never exceeds the limit + 1 byte; output of exactly the limit is kept.
    void gunzipStopsAtItsLimit() {
        const std::size_t limit = 1 << 20;
        const std::string exact = detail::gzipCompress(std::string(limit, 'a'));
        QCOMPARE(detail::gunzip(exact, "exact.gz", limit).size(), limit);
        const std::string over = detail::gzipCompress(std::string(limit + 1, 'a'));
        const std::string bomb = detail::gzipCompress(std::string(64 * limit, '\0'));
        for (const std::string* in : {&over, &bomb}) {
            try {
                detail::gunzip(*in, "bomb.gz", limit);
                QFAIL("output past the limit accepted");
            } catch (const DataError& e) {
                const std::string msg = e.what();
                QVERIFY2(msg.starts_with("bomb.gz: byte ") &&
                             msg.ends_with(": gzip data decompresses to more than 1048576 bytes (FDLab's limit)"),
                         msg.c_str());
            }
        }
        QCOMPARE(kMaxDecompressedBytes, std::uint64_t{1} << 30);
    }

    // Issue 29: dense storage of a mostly-zero LIBSVM file: 8 lines of 14 bytes asked 2^27 floats
    // (512 MB; 128 lines reach 8 GiB). Past 2^26 values with under 10% non-zeros it is refused
    // with a message saying to load it as sparse; sparse storage reads it.
    void denseStorageOfSparseFileIsBounded() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("wide.libsvm").toStdString();
        {
            std::ofstream out(file);
            for (int i = 0; i < 8; ++i) out << (i % 2 ? "-1 1:1\n" : "1 16777216:1\n");
        }
        LoadOptions dense;
        dense.storage = Storage::Dense;
        try {
            loadLibsvm(file, dense);
            QFAIL("2^27 dense values from 8 non-zeros accepted");
        } catch (const DataError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.starts_with(file + ":") &&
                         msg.ends_with(": expected a dataset that fits dense storage, found 8 x 16777216 values of which "
                                       "only 8 are non-zero (more than 2^26 values when under 10% are non-zero): load it "
                                       "as sparse"),
                     msg.c_str());
        }
        const Dataset d = loadLibsvm(file);
        QVERIFY(d.isSparse());
        QCOMPARE(d.features(), 16777216);
        QCOMPARE(d.storedValues(), std::int64_t(8));
    }

    // Issue 29 (fuzz_libsvm, 25 s and 885 MB under ASan): the 20-byte file "1 1:1\n-1 16777216:1"
    // at the feature-index limit made 16.7 million default names "f1".."f16777216" (32 bytes
    // each, 512 MB) for every load. The defaults are not stored; a name is spelled out on demand,
    // also in messages, and a model's feature check compares them one by one.
    void libsvmAtFeatureLimitStoresNoNames() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("limit.libsvm").toStdString();
        std::ofstream(file) << "1 1:1\n-1 16777216:1";
        for (const Storage s : {Storage::Auto, Storage::Dense}) {
            LoadOptions opt;
            opt.storage = s;
            const Dataset d = loadLibsvm(file, opt);
            QCOMPARE(d.isSparse(), s == Storage::Auto);
            QCOMPARE(d.features(), 16777216);
            QVERIFY(d.featureNames.empty());
            QCOMPARE(d.featureName(0), std::string("f1"));
            QCOMPARE(d.featureName(16777215), std::string("f16777216"));
            QCOMPARE(d.importance.size(), std::size_t{16777216});
            QCOMPARE(d.value(1, 16777215), 1.0f);
        }
        // `fdlab-cli info`'s summary: the value range without per-feature vectors.
        const DatasetSummary sum = summarize(loadLibsvm(file), "LIBSVM");
        QCOMPARE(sum.minValue, 0.0);
        QCOMPARE(sum.maxValue, 1.0);
        // A non-finite value names its feature the same way.
        Dataset bad = loadLibsvm(file);
        bad.sparse->values[1] = std::numeric_limits<float>::quiet_NaN();
        try {
            bad.validate("limit");
            QFAIL("NaN accepted");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string("limit: non-finite value at instance 2, feature f16777216"));
        }
    }

    void idxPlainAndGzip() {
        const Dataset d = loadIdx(data("tiny-images-idx3-ubyte"), data("tiny-labels-idx1-ubyte"));
        QCOMPARE(d.rows(), 3);
        QCOMPARE(d.features(), 6);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(d.labels[static_cast<std::size_t>(i)], kTinyLabels[i]);
            for (int j = 0; j < 6; ++j) QCOMPARE(d.X(i, j), static_cast<float>(kTinyPixels[i][j]) / 255.0f);
        }
        QCOMPARE(d.X(0, 1), 1.0f);
        QVERIFY(d.imageShape.has_value());
        QCOMPARE(d.imageShape->rows, 2);
        QCOMPARE(d.imageShape->cols, 3);
        QCOMPARE(d.featureNames, (std::vector<std::string>{"r0c0", "r0c1", "r0c2", "r1c0", "r1c1", "r1c2"}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"0", "1", "2"}));
        QCOMPARE(d.name, std::string("tiny-images-idx3-ubyte"));
        QVERIFY(d.provenance.find("IDX") != std::string::npos);

        // Compressed copies, and the dispatcher deriving "labels" from "images" (and keeping .gz).
        const Dataset g = loadDataFile(data("tiny-images-idx3-ubyte.gz"));
        compareMatrix(d, g);
        QCOMPARE(g.labels, d.labels);
        QVERIFY(g.provenance.find("tiny-labels-idx1-ubyte.gz") != std::string::npos);
        QCOMPARE(loadDataFile(data("tiny-images-idx3-ubyte")).fingerprint(), d.fingerprint());

        // gzip is detected from the content, not the name.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string gzNoExt = dir.filePath("a-images-idx3-ubyte").toStdString();
        const std::string plainGz = dir.filePath("a-labels-idx1-ubyte.gz").toStdString();
        writeAll(gzNoExt, readAll(data("tiny-images-idx3-ubyte.gz")));
        writeAll(plainGz, readAll(data("tiny-labels-idx1-ubyte")));
        const Dataset r = loadIdx(gzNoExt, plainGz);
        compareMatrix(d, r);
        QCOMPARE(r.labels, d.labels);
        // Dispatch: a derived labels file that does not exist is reported as such.
        writeAll(dir.filePath("b-images-idx3-ubyte").toStdString(), readAll(data("tiny-images-idx3-ubyte")));
        const std::string msg = dataErrorOf([&] { loadDataFile(dir.filePath("b-images-idx3-ubyte").toStdString()); });
        QVERIFY2(msg.find("b-labels-idx1-ubyte") != std::string::npos && msg.find("cannot open") != std::string::npos,
                 msg.c_str());
    }

    void roundTripCsv() {
        Rng rng(7);
        Dataset d;
        const int m = 20, n = 5;
        d.X.resize(m, n);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j)
                d.X(i, j) = rng.bernoulli(0.2) ? 0.0f : static_cast<float>(rng.normal() * std::pow(10.0, rng.below(9) - 4.0));
        d.X(0, 0) = 1e-40f;  // a subnormal float must survive too
        d.classNames = {"a", "b b", "c,d"};
        for (int i = 0; i < m; ++i) d.labels.push_back(i % 3);
        d.featureNames = {"x,1", "q\"uote", " spaced ", "plain", "label"};
        d.fillDefaults();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string p = dir.filePath("rt.csv").toStdString();
        saveCsv(d, p);
        const Dataset r = loadCsv(p);
        compareMatrix(d, r);
        QCOMPARE(r.labels, d.labels);
        QCOMPARE(r.classNames, d.classNames);
        QCOMPARE(r.featureNames, d.featureNames);
        QCOMPARE(r.name, std::string("rt"));
    }

    void roundTripLibsvm() {
        Rng rng(11);
        Dataset d;
        const int m = 15, n = 6;
        d.X.resize(m, n);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) d.X(i, j) = rng.bernoulli(0.5) ? 0.0f : static_cast<float>(rng.normal() * 3.0);
        d.X(0, n - 1) = 0.75f;  // the largest index must appear for the count to survive
        d.classNames = {"-1", "+1"};
        for (int i = 0; i < m; ++i) d.labels.push_back(static_cast<int>(rng.below(2)));
        d.labels[0] = 0;
        d.labels[1] = 1;
        d.fillDefaults();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string p = dir.filePath("rt.svm").toStdString();
        saveLibsvm(d, p);
        const Dataset r = loadDataFile(p);
        compareMatrix(d, r);
        QCOMPARE(r.labels, d.labels);
        QCOMPARE(r.classNames, d.classNames);
        QCOMPARE(r.featureNames, d.featureNames);
    }

    void roundTripIdx_data() {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("plain") << "";
        QTest::newRow("gzip") << ".gz";
    }
    void roundTripIdx() {
        QFETCH(QString, suffix);
        Rng rng(3);
        Dataset d;
        const int m = 12;
        d.imageShape = ImageShape{3, 4};
        d.X.resize(m, 12);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < 12; ++j) d.X(i, j) = static_cast<float>(rng.below(256)) / 255.0f;
        d.X(0, 0) = 0.0f;
        d.X(0, 1) = 1.0f;
        for (int i = 0; i < m; ++i) d.labels.push_back(i % 5);
        d.classNames = {"0", "1", "2", "3", "4"};
        d.fillDefaults();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string img = dir.filePath("rt-images-idx3-ubyte" + suffix).toStdString();
        const std::string lab = dir.filePath("rt-labels-idx1-ubyte" + suffix).toStdString();
        saveIdx(d, img, lab);
        const std::string bytes = readAll(img);
        const bool gz = bytes.size() > 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                        static_cast<unsigned char>(bytes[1]) == 0x8b;
        QCOMPARE(gz, !suffix.isEmpty());
        if (!gz) QCOMPARE(static_cast<int>(bytes.size()), 16 + m * 12);
        const Dataset r = loadDataFile(img);
        compareMatrix(d, r);
        QCOMPARE(r.labels, d.labels);
        QCOMPARE(r.classNames, d.classNames);
        QCOMPARE(r.imageShape, d.imageShape);
        QCOMPARE(r.featureNames[5], std::string("r1c1"));

        Dataset bad = d;
        bad.X(2, 3) = 1.5f;
        bool threw = false;
        try {
            saveIdx(bad, img, lab);
        } catch (const std::invalid_argument&) {
            threw = true;
        }
        QVERIFY(threw);
        compareMatrix(d, loadIdx(img, lab));  // the failed save left the files intact
    }

    void malformedCorpus() {
        const QDir dir(QString::fromStdString(data("malformed")));
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        std::map<std::string, const Case*> table;
        for (const Case& c : kCorpus) table[c.file] = &c;
        QVERIFY(files.size() >= 30);
        std::set<std::string> seen;
        for (const QString& f : files) {
            const std::string name = f.toStdString();
            const auto it = table.find(name);
            QVERIFY2(it != table.end(), qPrintable("no expected line in kCorpus for malformed/" + f));
            const Case& c = *it->second;
            seen.insert(name);
            const std::string path = data("malformed/" + name);
            LoadOptions opt;
            opt.labelColumn = c.labelColumn;
            std::string msg;
            switch (c.kind) {
            case Kind::Text: msg = dataErrorOf([&] { loadDataFile(path, opt); }); break;
            case Kind::IdxImages: msg = dataErrorOf([&] { loadIdx(path, data("tiny-labels-idx1-ubyte")); }); break;
            case Kind::IdxLabels: msg = dataErrorOf([&] { loadIdx(data("tiny-images-idx3-ubyte"), path); }); break;
            }
            const std::string where = "malformed/" + name + " -> " + msg;
            QVERIFY2(!msg.empty(), qPrintable(QString::fromStdString("no DataError for " + where)));
            QVERIFY2(msg.find("WRONG EXCEPTION") == std::string::npos, where.c_str());
            QVERIFY2(msg.find(name) != std::string::npos, where.c_str());
            QVERIFY2(msg.find(c.mustContain) != std::string::npos, where.c_str());
            QVERIFY2(msg.find('\n') == std::string::npos, where.c_str());
            if (c.kind == Kind::Text) {
                QVERIFY2(msg.find(name + ":" + std::to_string(c.position) + ": ") != std::string::npos, where.c_str());
            } else if (c.position >= 0) {
                QVERIFY2(msg.find(": byte " + std::to_string(c.position) + ": ") != std::string::npos, where.c_str());
            } else {
                QVERIFY2(msg.find(": byte ") != std::string::npos, where.c_str());
            }
        }
        for (const Case& c : kCorpus)
            QVERIFY2(seen.count(c.file), qPrintable(QString("kCorpus lists a missing file: ") + c.file));
    }

    void loadSpeed() {
        // MNIST-sized: 10,000 digits of 28 x 28, drawn as random strokes (compresses like MNIST),
        // written as .gz; and a Spambase-sized CSV (4601 x 57).
        Rng rng(5);
        Dataset d;
        d.imageShape = ImageShape{28, 28};
        d.X = Dataset::Matrix::Zero(10000, 784);
        for (int i = 0; i < 10000; ++i) {
            int r = 4 + static_cast<int>(rng.below(20)), c = 4 + static_cast<int>(rng.below(20));
            for (int s = 0; s < 120; ++s) {
                d.X(i, r * 28 + c) = static_cast<float>(rng.below(256)) / 255.0f;
                r = std::clamp(r + static_cast<int>(rng.below(3)) - 1, 0, 27);
                c = std::clamp(c + static_cast<int>(rng.below(3)) - 1, 0, 27);
            }
            d.labels.push_back(i % 10);
        }
        d.fillDefaults();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string img = dir.filePath("speed-images-idx3-ubyte.gz").toStdString();
        const std::string lab = dir.filePath("speed-labels-idx1-ubyte.gz").toStdString();
        saveIdx(d, img, lab);
        QElapsedTimer t;
        t.start();
        const Dataset r = loadIdx(img, lab);
        const qint64 idxMs = t.elapsed();
        QCOMPARE(r.rows(), 10000);
        QCOMPARE(r.X(9999, 783), d.X(9999, 783));
        QCOMPARE(r.fingerprint(), [&] { Dataset e = d; e.featureNames = r.featureNames; return e.fingerprint(); }());

        Dataset s;
        s.X.resize(4601, 57);
        for (int i = 0; i < 4601; ++i)
            for (int j = 0; j < 57; ++j) s.X(i, j) = static_cast<float>(rng.uniform(0.0, 100.0));
        for (int i = 0; i < 4601; ++i) s.labels.push_back(static_cast<int>(rng.below(2)));
        s.classNames = {"0", "1"};
        s.fillDefaults();
        const std::string csv = dir.filePath("spam.csv").toStdString();
        saveCsv(s, csv);
        t.restart();
        const Dataset sc = loadCsv(csv);
        const qint64 csvMs = t.elapsed();
        compareMatrix(s, sc);
        qInfo("load times: MNIST-sized idx.gz %lld ms, 4601x57 CSV %lld ms", static_cast<long long>(idxMs),
              static_cast<long long>(csvMs));
        QVERIFY2(idxMs < 1000, qPrintable(QString("idx.gz load took %1 ms").arg(idxMs)));
        QVERIFY2(csvMs < 1000, qPrintable(QString("CSV load took %1 ms").arg(csvMs)));
    }
};

QTEST_APPLESS_MAIN(TestLoaders)
#include "test_loaders.moc"
