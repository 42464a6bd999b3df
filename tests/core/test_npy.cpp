// numpy .npy / .npz loading and writing (core/data/npy_format.h): files written by numpy and
// scipy themselves (/usr/bin/python3, run by the test) in every accepted dtype, byte order and
// memory order load to the hand-known matrix; saveNpz's files read back in numpy and scipy with
// the same values; every malformed file is a one-line DataError naming the file.

#include "core/data/loaders.h"
#include "core/data/npy_format.h"
#include "core/data/zip_archive.h"
#include "core/util/errors.h"
#include "file_helpers.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

using namespace fdlab;
using namespace fdlab::test;

namespace {

const char* kPython = "/usr/bin/python3";

// The reference matrix every generated file holds (3 x 4; small integers so every dtype, bool
// aside, represents it exactly) and its labels.
const float kX[3][4] = {{0, 1, 2, 0}, {3, 0, 0, 4}, {5, 6, 7, 0}};
const int kY[3] = {1, 0, 1};

/// Runs a Python script (numpy, scipy) in `dir`; "" on success, else its stderr.
std::string runPython(const QString& dir, const std::string& script) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(kPython, {"-c", QString::fromStdString(script)});
    if (!p.waitForFinished(120000)) return "python did not finish";
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return p.readAllStandardError().toStdString() + p.readAllStandardOutput().toStdString();
    return "";
}

bool havePython() {
    QProcess p;
    p.start(kPython, {"-c", "import numpy, scipy.sparse"});
    return p.waitForFinished(60000) && p.exitCode() == 0;
}

/// A vector's bytes (host order, little-endian here) as an .npy payload.
template <class T>
std::string_view bytes(const std::vector<T>& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

/// The DataError message of loading `path` ("" when it loads).
std::string loadError(const std::string& path) {
    try {
        loadNpy(path);
    } catch (const DataError& e) {
        return e.what();
    }
    return "";
}

void checkReference(const Dataset& d, const std::string& what) {
    QVERIFY2(d.rows() == 3 && d.features() == 4, what.c_str());
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            QVERIFY2(d.value(i, j) == kX[i][j], (what + " at (" + std::to_string(i) + "," + std::to_string(j) + ") = " +
                                                 std::to_string(d.value(i, j)))
                                                    .c_str());
    QCOMPARE(d.classNames, (std::vector<std::string>{"0", "1"}));
    for (int i = 0; i < 3; ++i) QCOMPARE(d.labels[static_cast<std::size_t>(i)], kY[i]);
}

}  // namespace

class TestNpy : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string path(const std::string& name) const { return (std::filesystem::path(m_dir.path().toStdString()) / name).string(); }

private slots:
    void initTestCase() {
        if (!havePython()) QSKIP("/usr/bin/python3 with numpy and scipy is needed to write the reference files");
        QVERIFY(m_dir.isValid());
    }

    void everyDtypeOrderAndEndianness() {
        // numpy writes X in each dtype, both byte orders and both memory orders.
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np
X = np.array([[0,1,2,0],[3,0,0,4],[5,6,7,0]])
np.save('y.npy', np.array([1,0,1]))
for t in ['f4','f8','i1','i2','i4','i8','u1','u2','u4','u8']:
    for e in '<>':
        for order in 'CF':
            a = np.asarray(X, dtype=np.dtype(e + t), order=order)
            assert a.flags.f_contiguous == (order == 'F')
            np.save(f'{t}_{e == "<" and "le" or "be"}_{order}_X.npy', a)
)");
        QVERIFY2(err.empty(), err.c_str());
        for (const char* t : {"f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"})
            for (const char* e : {"le", "be"})
                for (const char* o : {"C", "F"}) {
                    const std::string name = std::string(t) + "_" + e + "_" + o + "_X.npy";
                    // The labels are found by the X -> y rule: "f4_le_C_X.npy" -> "f4_le_C_y.npy" does
                    // not exist, so name them explicitly.
                    LoadOptions opt;
                    opt.idxLabels = path("y.npy");
                    checkReference(loadNpy(path(name), opt), name);
                }
    }

    void boolFeaturesAndLabelKinds() {
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np
np.save('b_X.npy', np.array([[True, False], [False, False], [True, True]]))
np.save('b_y.npy', np.array([True, False, True]))
np.save('s_X.npy', np.eye(3, dtype=np.float32))
np.save('s_y.npy', np.array(['spam', 'ham', 'naïve']))
np.save('f_X.npy', np.eye(3))
np.save('f_y.npy', np.array([[2.0], [-1.0], [2.0]]))
np.save('bytes_X.npy', np.eye(2))
np.save('bytes_y.npy', np.array([b'no', b'yes']))
)");
        QVERIFY2(err.empty(), err.c_str());
        const Dataset b = loadNpy(path("b_X.npy"));   // labels found by the X -> y rule
        QCOMPARE(b.value(0, 0), 1.0f);
        QCOMPARE(b.value(0, 1), 0.0f);
        QCOMPARE(b.value(2, 1), 1.0f);
        QCOMPARE(b.classNames, (std::vector<std::string>{"False", "True"}));
        QCOMPARE(b.labels, (std::vector<int>{1, 0, 1}));
        const Dataset s = loadNpy(path("s_X.npy"));
        QCOMPARE(s.classNames, (std::vector<std::string>{"ham", "na\xC3\xAFve", "spam"}));
        QCOMPARE(s.labels, (std::vector<int>{2, 0, 1}));
        const Dataset f = loadNpy(path("f_X.npy"));   // a column vector of integral floats
        QCOMPARE(f.classNames, (std::vector<std::string>{"-1", "2"}));
        QCOMPARE(f.labels, (std::vector<int>{1, 0, 1}));
        QCOMPARE(loadNpy(path("bytes_X.npy")).classNames, (std::vector<std::string>{"no", "yes"}));
    }

    void labelsPathRule() {
        QCOMPARE(detail::deriveNpyLabelsPath("/d/X.npy"), std::string("/d/y.npy"));
        QCOMPARE(detail::deriveNpyLabelsPath("X_train.npy"), std::string("y_train.npy"));
        QCOMPARE(detail::deriveNpyLabelsPath("mnist-x.npz"), std::string("mnist-y.npy"));
        QCOMPARE(detail::deriveNpyLabelsPath("a.X.test.npy"), std::string("a.y.test.npy"));
        QCOMPARE(detail::deriveNpyLabelsPath("matrix.npy"), std::string());
        QCOMPARE(detail::deriveNpyLabelsPath("Xa.npy"), std::string());
    }

    void imagesAndDenseNpz() {
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np
X = np.array([[0,1,2,0],[3,0,0,4],[5,6,7,0]])
np.savez('plain.npz', X=X.astype(np.float64), y=np.array([1,0,1]))
np.savez_compressed('packed.npz', X=np.asfortranarray(X.astype(np.float32)), y=np.array([1,0,1], dtype=np.int8))
np.savez('positional.npz', X.astype(np.int32), np.array([1,0,1]))
np.savez('xonly_X.npz', X=X)
np.save('xonly_y.npy', np.array([1,0,1]))
# images: 3 of 2 x 2, Fortran order
np.savez('img.npz', X=np.asfortranarray(X.reshape(3, 2, 2)), y=np.array([1,0,1]))
)");
        QVERIFY2(err.empty(), err.c_str());
        for (const char* f : {"plain.npz", "packed.npz", "positional.npz", "xonly_X.npz"}) checkReference(loadNpy(path(f)), f);
        const Dataset img = loadNpy(path("img.npz"));
        QVERIFY(img.imageShape.has_value());
        QCOMPARE(img.imageShape->rows, 2);
        QCOMPARE(img.imageShape->cols, 2);
        checkReference(img, "img.npz");
        // Auto storage: 7 of 12 non-zero stays dense; asked for sparse it is sparse with the same values.
        QVERIFY(!loadNpy(path("plain.npz")).isSparse());
        LoadOptions sparse;
        sparse.storage = Storage::Sparse;
        const Dataset s = loadNpy(path("plain.npz"), sparse);
        QVERIFY(s.isSparse());
        QCOMPARE(s.sparse->nonZeros(), std::int64_t{7});
        checkReference(s, "plain.npz as sparse");
    }

    void scipySparseStaysSparse() {
        // csr with unsorted indices and a duplicate (scipy sums duplicates), csc, coo; labels beside.
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np, scipy.sparse as sp
X = np.array([[0,1,2,0],[3,0,0,4],[5,6,7,0]], dtype=np.float64)
sp.save_npz('csr_X.npz', sp.csr_matrix(X))
sp.save_npz('csc_X.npz', sp.csc_matrix(X), compressed=False)
sp.save_npz('coo_X.npz', sp.coo_matrix(X))
# row 0: columns 2, 1 (unsorted), row 1: (0, 1.0) + (0, 2.0) duplicate = 3, (3, 4)
m = sp.csr_matrix((np.array([2., 1., 1., 2., 4., 5., 6., 7.]), np.array([2, 1, 0, 0, 3, 0, 1, 2]), np.array([0, 2, 5, 8])), shape=(3, 4))
assert not m.has_canonical_format
sp.save_npz('dup_X.npz', m)
for n in ['csr', 'csc', 'coo', 'dup']:
    np.save(n + '_y.npy', np.array([1, 0, 1]))
sp.save_npz('dia_X.npz', sp.dia_matrix(X))
np.save('dia_y.npy', np.array([1, 0, 1]))
)");
        QVERIFY2(err.empty(), err.c_str());
        for (const char* f : {"csr_X.npz", "csc_X.npz", "coo_X.npz", "dup_X.npz"}) {
            const Dataset d = loadNpy(path(f));
            QVERIFY2(d.isSparse() || std::string(f) != "", f);
            checkReference(d, f);
        }
        LoadOptions sparse;
        sparse.storage = Storage::Sparse;
        const Dataset d = loadNpy(path("dup_X.npz"), sparse);
        QVERIFY(d.isSparse());
        QCOMPARE(d.sparse->colIndex, (std::vector<std::int32_t>{1, 2, 0, 3, 0, 1, 2}));
        const std::string dia = dataErrorOf([&] { loadNpy(path("dia_X.npz")); });
        QVERIFY2(dia.find("unsupported sparse format 'dia'") != std::string::npos, dia.c_str());
    }

    void saveNpzReadsInNumpyAndScipy() {
        // Dense with images and string classes; sparse with word feature names.
        Dataset dense;
        dense.X = Dataset::Matrix(2, 4);
        dense.X << 0.25f, 0, 1e-7f, 3, -1, 2, 0, 0.5f;
        dense.labels = {1, 0};
        dense.classNames = {"ham", "spam"};
        dense.imageShape = ImageShape{2, 2};
        dense.fillDefaults();
        saveNpz(dense, path("dense_out.npz"));
        const Dataset denseBack = loadNpy(path("dense_out.npz"));
        QCOMPARE(denseBack.X, dense.X);
        QCOMPARE(denseBack.labels, dense.labels);
        QCOMPARE(denseBack.classNames, dense.classNames);
        QCOMPARE(denseBack.featureNames, dense.featureNames);
        QVERIFY(denseBack.imageShape == dense.imageShape);

        Dataset sparse;
        SparseRowsBuilder b(3);
        b.add(1, 2.5f);
        b.endRow();
        b.endRow();
        b.add(0, -1);
        b.add(2, 4);
        b.endRow();
        sparse.sparse = std::move(b).finish();
        sparse.labels = {0, 2, 1};
        sparse.classNames = {"-1", "3", "7"};
        sparse.featureNames = {"caf\xC3\xA9", "free", "win"};
        sparse.fillDefaults();
        saveNpz(sparse, path("sparse_out.npz"));
        LoadOptions keep;
        keep.storage = Storage::Sparse;
        const Dataset sparseBack = loadNpy(path("sparse_out.npz"), keep);
        QVERIFY(sparseBack.isSparse());
        QCOMPARE(*sparseBack.sparse, *sparse.sparse);
        QCOMPARE(sparseBack.labels, sparse.labels);
        QCOMPARE(sparseBack.classNames, sparse.classNames);
        QCOMPARE(sparseBack.featureNames, sparse.featureNames);

        const std::string err = runPython(m_dir.path(), R"(
import numpy as np, scipy.sparse as sp
d = np.load('dense_out.npz', allow_pickle=False)
assert d['X'].shape == (2, 2, 2) and d['X'].dtype == np.float32, d['X'].shape
assert np.array_equal(d['X'].reshape(2, 4), np.array([[0.25, 0, 1e-7, 3], [-1, 2, 0, 0.5]], dtype=np.float32))
assert list(d['y']) == ['spam', 'ham'], d['y']
m = sp.load_npz('sparse_out.npz')
assert m.format == 'csr' and m.shape == (3, 3)
assert np.array_equal(m.toarray(), np.array([[0, 2.5, 0], [0, 0, 0], [-1, 0, 4]], dtype=np.float32))
z = np.load('sparse_out.npz', allow_pickle=False)
assert list(z['y']) == [-1, 7, 3], z['y']
assert list(z['feature_names']) == ['café', 'free', 'win']
)");
        QVERIFY2(err.empty(), err.c_str());
    }

    void malformedFiles() {
        // numpy writes the good ones, the test damages them; each must be a one-line DataError naming the file.
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np, scipy.sparse as sp, zipfile, io
X = np.array([[0,1,2,0],[3,0,0,4],[5,6,7,0]], dtype=np.float64)
np.save('good_X.npy', X); np.save('good_y.npy', np.array([1,0,1]))
raw = open('good_X.npy', 'rb').read()
def put(name, data): open(name, 'wb').write(data)
put('trunc_X.npy', raw[:-5])
put('trailing_X.npy', raw + b'xyz')
put('magic_X.npy', b'\x93NUMPX' + raw[6:])
put('version_X.npy', raw[:6] + b'\x07' + raw[7:])
put('hdrlen_X.npy', raw[:8] + b'\xff\xff' + raw[10:])
put('garbage_X.npy', raw.replace(b"'descr'", b"'dxscr'"))
put('shape_X.npy', raw.replace(b'(3, 4)', b'(9, 9)'))
put('huge_X.npy', raw.replace(b'(3, 4), }', b'(99999999999999,99999)}'))
put('cplx_X.npy', raw.replace(b"'<f8'", b"'<c8'"))
np.save('obj_X.npy', np.array([[1, 'a']], dtype=object), allow_pickle=True)
np.save('struct_X.npy', np.zeros(3, dtype=[('a', '<f4'), ('b', '<i4')]))
np.save('nan_X.npy', np.array([[1.0, np.nan], [0, 1], [1, 1]]))
np.save('big_X.npy', np.array([[1e300, 0], [0, 1], [1, 1]]))
np.save('vec_X.npy', np.array([1.0, 2.0, 3.0]))
np.save('str_X.npy', np.array([['a', 'b']] * 3))
np.save('nolabels_X.npy', X)
for n in ['trunc','trailing','magic','version','hdrlen','garbage','shape','huge','cplx','obj','struct','nan','big','vec','str']:
    np.save(n + '_y.npy', np.array([1,0,1]))
np.save('short_X.npy', X); np.save('short_y.npy', np.array([1, 0]))
np.save('nany_X.npy', X); np.save('nany_y.npy', np.array([1.0, np.nan, 0]))
np.save('y2d_X.npy', X); np.save('y2d_y.npy', np.ones((3, 2)))
np.savez('good.npz', X=X, y=np.array([1,0,1]))
z = open('good.npz', 'rb').read()
put('trunc.npz', z[:len(z)//2])
put('notzip.npz', b'this is not a zip file at all, just text')
# flip one byte of X.npy's payload: stored member, CRC no longer matches
i = z.find(b'\x93NUMPY') + 128 + 3
put('crc.npz', z[:i] + bytes([z[i] ^ 0xff]) + z[i+1:])
np.savez('other.npz', a=X)
np.savez_compressed('deflated.npz', X=X, y=np.array([1,0,1]))
d = open('deflated.npz', 'rb').read()
zf = zipfile.ZipFile(io.BytesIO(d)); info = zf.getinfo('X.npy')
h = info.header_offset  # the local header's own name and extra lengths (the central directory's extra may differ)
off = h + 30 + int.from_bytes(d[h+26:h+28], 'little') + int.from_bytes(d[h+28:h+30], 'little')
put('badinflate.npz', d[:off] + b'\xff' * 8 + d[off+8:])
m = sp.csr_matrix(X)
sp.save_npz('idx_X.npz', m); np.save('idx_y.npy', np.array([1,0,1]))
b = io.BytesIO()
np.savez(b, format=np.array(b'csr'), shape=np.array([3, 4]), data=m.data, indices=np.array([0, 9, 0, 0, 0, 0, 0]), indptr=m.indptr)
put('badindex_X.npz', b.getvalue()); np.save('badindex_y.npy', np.array([1,0,1]))
b = io.BytesIO()
np.savez(b, format=np.array(b'csr'), shape=np.array([3, 4]), data=m.data, indices=m.indices, indptr=np.array([0, 5, 2, 7]))
put('badptr_X.npz', b.getvalue()); np.save('badptr_y.npy', np.array([1,0,1]))
np.save('rows_y.npy', np.array([1, 0]))
sp.save_npz('rows_X.npz', m)
)");
        QVERIFY2(err.empty(), err.c_str());
        struct Bad {
            const char* file;
            const char* mustContain;
        };
        const Bad cases[] = {
            {"trunc_X.npy", "truncated array: shape (3, 4) of <f8 needs 96 bytes, found 91"},
            {"trailing_X.npy", "3 trailing bytes"},
            {"magic_X.npy", "expected a .npy file"},
            {"version_X.npy", "format version 1, 2 or 3, found 7"},
            {"hdrlen_X.npy", "truncated .npy header"},
            {"garbage_X.npy", "unexpected key 'dxscr'"},
            {"shape_X.npy", "needs 648 bytes, found 96"},
            {"huge_X.npy", "needs over 2^64 bytes, found 110"},
            {"cplx_X.npy", "unsupported dtype '<c8'"},
            {"obj_X.npy", "unsupported dtype '|O'"},
            {"struct_X.npy", "structured dtypes"},
            {"nan_X.npy", "row 0, column 1 (0-based): expected a finite value, found nan"},
            {"big_X.npy", "within float32's range"},
            {"vec_X.npy", "expected X of shape (instances, features)"},
            {"str_X.npy", "expected a numeric X"},
            {"nolabels_X.npy", "nolabels_y.npy next to it"},
            {"short_X.npy", "expected 3 labels (one per row of X), found 2"},
            {"nany_X.npy", "label 1 (0-based) is NaN"},
            {"y2d_X.npy", "expected labels of shape (3,)"},
            {"trunc.npz", "end-of-central-directory"},
            {"notzip.npz", "expected a zip archive"},
            {"crc.npz", "CRC-32 mismatch"},
            {"other.npz", "expected arrays X and y"},
            {"badinflate.npz", "deflate"},
            {"badindex_X.npz", "indices[1] = 9 out of range [0, 4)"},
            {"badptr_X.npz", "expected 'indptr' to rise"},
            {"rows_X.npz", "expected 2 rows (one per label)"},
        };
        for (const Bad& c : cases) {
            const std::string msg = dataErrorOf([&] { loadDataFile(path(c.file)); });
            const std::string stem = std::string(c.file).substr(0, std::string(c.file).find('_'));
            QVERIFY2(msg.find(c.mustContain) != std::string::npos, (std::string(c.file) + ": " + msg).c_str());
            QVERIFY2(msg.find(stem) != std::string::npos, (std::string(c.file) + " not named: " + msg).c_str());
            QVERIFY2(msg.find('\n') == std::string::npos, msg.c_str());
        }
        checkReference(loadDataFile(path("good_X.npy")), "good_X.npy");
        checkReference(loadDataFile(path("good.npz")), "good.npz");
    }

    void zipDeclaredSizesAreBounded() {
        // A stored member claiming 4 GiB in a 200-byte archive: refused before any allocation.
        detail::ZipWriter w;
        w.add("X.npy", "hello", false);
        std::string z = std::move(w).finish();
        const auto cd = z.find("PK\x01\x02");
        QVERIFY(cd != std::string::npos);
        z.replace(cd + 24, 4, "\xff\xff\xff\x7f");   // uncompressed size: 2^31 - 1
        writeAll(path("claims.npz"), z);
        const detail::ZipReader r(z, "claims.npz");
        const std::string msg = dataErrorOf([&] { r.read(r.members().front()); });
        QVERIFY2(msg.find("stored member declares 2147483647 bytes but holds 5") != std::string::npos, msg.c_str());
        // Round trip of the writer through the reader, stored and deflated.
        detail::ZipWriter w2;
        const std::string big(100000, 'a');
        w2.add("a", big, true);
        w2.add("b", "xyz", false);
        const std::string z2 = std::move(w2).finish();
        QVERIFY(z2.size() < 2000);
        const detail::ZipReader r2(z2, "z2");
        QCOMPARE(r2.members().size(), std::size_t{2});
        QCOMPARE(r2.read(*r2.find("a")), big);
        QCOMPARE(r2.read(*r2.find("b")), std::string("xyz"));
    }

    void zip64ArchivesLoad() {
        // np.savez's archive rewritten with every size and offset in zip64 form: central directory
        // entries at 0xFFFFFFFF with a zip64 extra field, a zip64 end record and its locator.
        // numpy (Python's zipfile) reads the result, which proves it is a valid zip64 archive.
        const std::string err = runPython(m_dir.path(), R"(
import numpy as np, struct
np.savez('plain64.npz', X=np.array([[0,1,2,0],[3,0,0,4],[5,6,7,0]], dtype=np.float32), y=np.array([1,0,1]))
z = open('plain64.npz', 'rb').read()
end = z.rfind(b'PK\x05\x06')
count, cd_size, cd_off = struct.unpack('<HII', z[end+10:end+20])
cd = z[cd_off:cd_off+cd_size]
out, at = b'', 0
for _ in range(count):
    fixed = bytearray(cd[at:at+46])
    n, e, c = struct.unpack('<HHH', fixed[28:34])
    csize, usize = struct.unpack('<II', fixed[20:28]); off, = struct.unpack('<I', fixed[42:46])
    name = cd[at+46:at+46+n]
    extra = struct.pack('<HHQQQ', 1, 24, usize, csize, off)
    fixed[20:28] = b'\xff' * 8; fixed[42:46] = b'\xff' * 4; fixed[30:32] = struct.pack('<H', len(extra))
    out += bytes(fixed) + name + extra
    at += 46 + n + e + c
body = z[:cd_off] + out
z64_off = len(body)
rec = struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0, count, count, len(out), cd_off)
loc = struct.pack('<IIQI', 0x07064b50, 0, z64_off, 1)
eocd = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 0xffff, 0xffff, 0xffffffff, 0xffffffff, 0)
open('z64.npz', 'wb').write(body + rec + loc + eocd)
assert np.load('z64.npz')['X'].shape == (3, 4)
)");
        QVERIFY2(err.empty(), err.c_str());
        checkReference(loadNpy(path("z64.npz")), "z64.npz");
    }

    // ---- review defects (issue 27) ----------------------------------------------------------

    void stringClassNamesSurviveNpzRoundTrip() {
        // '1' and '01' are two classes; saveNpz once wrote both as the int64 1, merging them.
        Dataset d;
        d.X = Eigen::MatrixXf::Zero(3, 2);
        d.X(0, 0) = 1;
        d.X(1, 1) = 2;
        d.X(2, 0) = 3;
        d.classNames = {"01", "1"};
        d.labels = {0, 1, 0};
        d.featureNames = {"f1", "f2"};
        saveNpz(d, path("strings.npz"));
        const Dataset back = loadNpy(path("strings.npz"));
        QCOMPARE(back.classNames, (std::vector<std::string>{"01", "1"}));
        QCOMPARE(back.labels, (std::vector<int>{0, 1, 0}));
        // Integers written the way numpy prints them still go as int64.
        d.classNames = {"-3", "7"};
        saveNpz(d, path("ints.npz"));
        const Dataset ints = loadNpy(path("ints.npz"));
        QCOMPARE(ints.classNames, (std::vector<std::string>{"-3", "7"}));
        const std::string bytes = readAll(path("ints.npz"));
        const detail::ZipReader zip(bytes, path("ints.npz"));
        const std::string y = zip.read(*zip.find("y.npy"));
        QCOMPARE(detail::parseNpy(y, "y.npy").descr, std::string("<i8"));
    }

    void int64LabelsAreReadExactly() {
        // 2^53 and 2^53 + 1 are one double: read through a double they were one class.
        const std::vector<float> x = {0, 1, 2};
        const std::vector<std::int64_t> y = {std::int64_t{1} << 53, (std::int64_t{1} << 53) + 1, -(std::int64_t{1} << 62)};
        const std::vector<std::uint64_t> yu = {~std::uint64_t{0}, 5, 5};
        detail::ZipWriter z;
        z.add("X.npy", detail::makeNpy("<f4", {3, 1}, bytes(x)), false);
        z.add("y.npy", detail::makeNpy("<i8", {3}, bytes(y)), false);
        writeAll(path("big_labels.npz"), std::move(z).finish());
        const Dataset d = loadNpy(path("big_labels.npz"));
        QCOMPARE(d.classNames, (std::vector<std::string>{"-4611686018427387904", "9007199254740992", "9007199254740993"}));
        QCOMPARE(d.labels, (std::vector<int>{1, 2, 0}));
        detail::ZipWriter u;
        u.add("X.npy", detail::makeNpy("<f4", {3, 1}, bytes(x)), false);
        u.add("y.npy", detail::makeNpy("<u8", {3}, bytes(yu)), false);
        writeAll(path("u64_labels.npz"), std::move(u).finish());
        QCOMPARE(loadNpy(path("u64_labels.npz")).classNames, (std::vector<std::string>{"5", "18446744073709551615"}));
    }

    void duplicateMemberIsRefused() {
        // numpy (zipfile) reads the last of two same-named members; FDLab read the first.
        const std::vector<float> a = {1, 2}, b = {3, 4};
        const std::vector<std::int64_t> y = {0, 1};
        detail::ZipWriter z;
        z.add("X.npy", detail::makeNpy("<f4", {2, 1}, bytes(a)), false);
        z.add("y.npy", detail::makeNpy("<i8", {2}, bytes(y)), false);
        z.add("X.npy", detail::makeNpy("<f4", {2, 1}, bytes(b)), true);
        writeAll(path("dup.npz"), std::move(z).finish());
        const std::string what = loadError(path("dup.npz"));
        QVERIFY2(what.find(path("dup.npz")) != std::string::npos, what.c_str());
        QVERIFY2(what.find("two members named 'X.npy'") != std::string::npos, what.c_str());
    }

    void explicitLabelsReplaceTheNpzMember() {
        const std::vector<float> x = {1, 2, 3};
        const std::vector<std::int64_t> own = {0, 0, 1}, given = {1, 0, 0};
        detail::ZipWriter z;
        z.add("X.npy", detail::makeNpy("<f4", {3, 1}, bytes(x)), false);
        z.add("y.npy", detail::makeNpy("<i8", {3}, bytes(own)), false);
        writeAll(path("own_y.npz"), std::move(z).finish());
        writeAll(path("given.npy"), detail::makeNpy("<i8", {3}, bytes(given)));
        LoadOptions opt;
        QCOMPARE(loadNpy(path("own_y.npz"), opt).labels, (std::vector<int>{0, 0, 1}));
        opt.idxLabels = path("given.npy");
        QCOMPARE(loadNpy(path("own_y.npz"), opt).labels, (std::vector<int>{1, 0, 0}));
        QVERIFY(labelsFileProblem(path("own_y.npz"), opt).empty());
        // Formats with their own labels refuse a labels file instead of ignoring it.
        QVERIFY(labelsFileProblem(FDLAB_TEST_DATA "/tiny.libsvm", opt).find("LIBSVM") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, loadDataFile(FDLAB_TEST_DATA "/tiny.libsvm", opt));
    }

    void sparseIndexErrorsPrintIntegers() {
        // csr with a column index 7 in a 2-column matrix; indices as int32 and as float64.
        const std::vector<std::int32_t> indices = {0, 7};
        const std::vector<double> findices = {0, 7};
        const std::vector<std::int64_t> indptr = {0, 1, 2}, shape = {2, 2}, y = {0, 1};
        const std::vector<float> data = {1, 2};
        for (bool asFloat : {false, true}) {
            detail::ZipWriter z;
            z.add("format.npy", detail::makeNpy("|S3", {}, "csr"), false);
            z.add("shape.npy", detail::makeNpy("<i8", {2}, bytes(shape)), false);
            z.add("data.npy", detail::makeNpy("<f4", {2}, bytes(data)), false);
            z.add("indices.npy", asFloat ? detail::makeNpy("<f8", {2}, bytes(findices)) : detail::makeNpy("<i4", {2}, bytes(indices)), false);
            z.add("indptr.npy", detail::makeNpy("<i8", {3}, bytes(indptr)), false);
            z.add("y.npy", detail::makeNpy("<i8", {2}, bytes(y)), false);
            writeAll(path("bad_index.npz"), std::move(z).finish());
            const std::string what = loadError(path("bad_index.npz"));
            QVERIFY2(what.find("indices[1] = 7 out of range [0, 2)") != std::string::npos, what.c_str());
            QVERIFY2(what.find("7.0") == std::string::npos, what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestNpy)
#include "test_npy.moc"
