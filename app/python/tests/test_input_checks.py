"""Every entry point that takes features checks them the same way (issue 25, item 3), and
predictions come back in the labels' own type.

Before the fix decision_function/predict read a CSR matrix's column indices unchecked (an index
of 50,000,000 crashed the interpreter, -3 gave a wrong score), crashed on a non-numeric array and
returned nan (predict: the first class) for NaN features; predict returned str class names for a
model trained on integer labels.
"""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import fdlab


@pytest.fixture(scope="module")
def vote():
    X, y, info = fdlab.bundled("vote")
    ints = np.array([info["class_names"].index(v) for v in y], dtype=np.int64)
    return X, ints


@pytest.fixture(scope="module")
def model(vote):
    X, y = vote
    return fdlab.train("svm", X, y)


def csr_with(X, indices=None, indptr=None, data=None):
    """A csr_matrix of X whose arrays are then replaced (as a caller's own code might)."""
    m = sp.csr_matrix(X)
    m.has_canonical_format  # scipy caches the flag: the module must not trust it
    if indices is not None:
        m.indices = indices
    if indptr is not None:
        m.indptr = indptr
    if data is not None:
        m.data = data
    return m


def entry_points(model, X, y):
    """Every call that takes features, as (name, function of X); labels for as many rows as X has."""
    def labels(A):
        return y[: getattr(A, "shape", (len(y),))[0]]
    return [
        ("train", lambda A: fdlab.train("svm", A, labels(A))),
        ("decision_function", lambda A: model.decision_function(A)),
        ("predict", lambda A: model.predict(A)),
        ("attack", lambda A: fdlab.attack(model, A, labels(A), threat="worst-case-count", budget=1)),
        ("curve", lambda A: fdlab.curve(model, A, labels(A), threat="worst-case-count", levels=[0, 1])),
        ("curve donors_X", lambda A: fdlab.curve(model, X, y, threat="feature-corruption", levels=[1],
                                                 donors_X=A, donors_y=labels(A))),
    ]


def bad_inputs(X):
    n = X.shape[1]
    first = sp.csr_matrix(X).indices.copy()
    nan = X.astype(np.float64)
    nan[3, 5] = np.nan
    inf = X.astype(np.float64)
    inf[2, 1] = -np.inf
    huge = X.astype(np.float64)
    huge[4, 0] = 1e39   # finite as float64, inf as float32
    csr_nan_data = sp.csr_matrix(X).data.astype(np.float64)
    csr_nan_data[7] = np.nan
    indptr = sp.csr_matrix(X).indptr.copy()
    down = indptr.copy()
    down[5] = down[6] + 1
    long_end = indptr.copy()
    long_end[-1] += 1
    with_none = np.array(X, dtype=object)
    with_none[1, 2] = None
    return [
        # (what, X, exception, words of the message)
        ("CSR index 50,000,000", csr_with(X, indices=np.where(np.arange(first.size) == 3, 50_000_000, first).astype(np.int32)),
         ValueError, "column index 50000000"),
        ("CSR index -3", csr_with(X, indices=np.where(np.arange(first.size) == 3, -3, first).astype(np.int32)),
         ValueError, "column index -3"),
        ("CSR int64 index 2**32 + 1 (wraps to 1 as int32)",
         csr_with(X, indices=np.where(np.arange(first.size) == 3, 2**32 + 1, first).astype(np.int64)),
         ValueError, "column index 4294967297"),
        ("CSR index n", csr_with(X, indices=np.where(np.arange(first.size) == 0, n, first).astype(np.int32)),
         ValueError, f"outside [0, {n})"),
        ("CSR indptr decreasing", csr_with(X, indptr=down), ValueError, "indptr decreases"),
        ("CSR indptr past the data", csr_with(X, indptr=long_end), ValueError, "indptr ends at"),
        ("CSR indptr too short", csr_with(X, indptr=indptr[:-1]), ValueError, "indptr has"),
        ("CSR float indices", csr_with(X, indices=first.astype(np.float64)), TypeError, "indices has dtype float64"),
        ("CSR NaN value", csr_with(X, data=csr_nan_data), ValueError, "is nan"),
        ("CSR str values", csr_with(X, data=sp.csr_matrix(X).data.astype(str)), TypeError, "data has dtype"),
        ("str array", X.astype(str), TypeError, "expected numbers"),
        ("object array of numeric str", np.array(X.astype(str), dtype=object), TypeError, "X[0, 0] is a str"),
        ("object array with None", with_none, TypeError, "X[1, 2] is a NoneType"),
        ("complex array", X.astype(np.complex128), TypeError, "complex128"),
        ("NaN", nan, ValueError, "X[3, 5] is nan"),
        ("-inf", inf, ValueError, "X[2, 1] is inf"),
        ("1e39 (inf as float32)", huge, ValueError, "X[4, 0] is inf"),
        ("1-D array", X[0], ValueError, "reshape(1, -1)"),
        ("3-D array", X[None], ValueError, "3 dimensions"),
        ("not an array", {"a": 1}, ValueError, "dimensions"),
    ]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")   # 1e39 -> float32, on purpose
def test_every_entry_point_refuses_bad_features(vote, model):
    X, y = vote
    for what, bad, error, words in bad_inputs(X):
        for name, call in entry_points(model, X, y):
            with pytest.raises(error) as e:
                call(bad)
                pytest.fail(f"{name} accepted {what}")
            assert words in str(e.value), (what, name, str(e.value))


def test_other_array_arguments_are_checked(vote, model):
    X, y = vote
    with pytest.raises(TypeError, match="importance: expected a sequence of numbers"):
        fdlab.curve(model, X, y, levels=[0], importance=["a"] * X.shape[1])
    with pytest.raises(ValueError, match="importance of feature f1 is nan"):
        fdlab.curve(model, X, y, levels=[0], importance=[np.nan] * X.shape[1])
    with pytest.raises(TypeError, match="feature_names: expected a sequence of str"):
        fdlab.train("svm", X, y, feature_names=[1] * X.shape[1])
    with pytest.raises(ValueError, match="1000000 is not in"):
        fdlab.curve(model, X, y, threat="fixed-deletion", levels=[1], features=[10**6])


def test_model_entry_points_refuse_another_feature_count(vote, model):
    X, y = vote
    for A in (X[:, :-1], sp.csr_matrix(X[:, :-1]), np.hstack([X, X[:, :1]])):
        for name, call in entry_points(model, X, y)[1:]:
            with pytest.raises(ValueError, match=f"features; the model expects {X.shape[1]}"):
                call(A)


def test_non_canonical_csr_scores_as_scipy_means_it(vote, model):
    """Unsorted and repeated column indices mean what scipy makes of them (sorted, summed)."""
    X, y = vote
    dense = X[:20].astype(np.float64)
    rows, cols, vals = [], [], []
    for i in range(20):
        for j in reversed(range(X.shape[1])):   # every row's columns in decreasing order,
            if dense[i, j] != 0:        # each value split into two entries of one column
                rows += [i, i]
                cols += [j, j]
                vals += [dense[i, j] * 0.25, dense[i, j] * 0.75]
    rows, cols, vals = np.array(rows), np.array(cols), np.array(vals)
    indptr = np.searchsorted(rows, np.arange(21))
    unsorted = sp.csr_matrix((vals, cols, indptr), shape=(20, X.shape[1]))
    order = np.lexsort((cols, rows))
    repeated = sp.csr_matrix((vals[order], cols[order], indptr), shape=(20, X.shape[1]))
    assert not unsorted.has_canonical_format and not repeated.has_canonical_format
    expected = model.decision_function(dense)
    for A in (unsorted, repeated):
        np.testing.assert_allclose(model.decision_function(A), expected, rtol=0, atol=1e-6)
        assert list(model.predict(A)) == list(model.predict(dense))
        a = fdlab.attack(model, A, y[:20], threat="worst-case-count", budget=2)
        b = fdlab.attack(model, dense, y[:20], threat="worst-case-count", budget=2)
        assert [list(d) for d in a["deleted"]] == [list(d) for d in b["deleted"]]
    # The stale-flag case: canonical when scipy looked, then reversed in place.
    stale = sp.csr_matrix(dense)
    assert stale.has_canonical_format
    for i in range(20):
        s, e = stale.indptr[i], stale.indptr[i + 1]
        stale.indices[s:e] = stale.indices[s:e][::-1].copy()
        stale.data[s:e] = stale.data[s:e][::-1].copy()
    np.testing.assert_allclose(model.decision_function(stale), expected, rtol=0, atol=1e-6)


def test_good_inputs_still_work(vote, model):
    X, y = vote
    base = model.decision_function(X)
    assert np.array_equal(X, np.rint(X))   # whole numbers: the integer dtypes hold them exactly
    for A in (X.astype(np.int8), X.astype(np.int64), np.asfortranarray(X), X.astype(np.float64), np.array(X, dtype=object),
              X.tolist(), sp.csr_matrix(X), sp.csc_matrix(X), sp.coo_matrix(X), sp.csr_matrix(X).astype(np.float64),
              sp.csr_matrix(X.astype(np.float64), dtype=np.float64).astype(np.float32)):
        np.testing.assert_allclose(model.decision_function(A), base, rtol=0, atol=1e-6)
    assert model.decision_function(X != 0).shape == (X.shape[0],)
    assert model.decision_function(X[:0]).shape == (0,) and model.predict(X[:0]).shape == (0,)
    assert model.predict(sp.csr_matrix(X[:0])).shape == (0,)


def test_predict_returns_the_labels_type(vote, tmp_path):
    X, y = vote
    for labels in (y, y.astype(np.int32), y.astype(np.uint8), y.astype(np.float64), y == 1, np.where(y == 1, "yes", "no"),
                   [int(v) for v in y]):
        m = fdlab.train("svm", X, labels)
        given = np.asarray(labels)
        p = m.predict(X)
        assert p.dtype == given.dtype, (given.dtype, p.dtype)
        assert m.classes.dtype == given.dtype
        assert sorted(set(p.tolist())) == sorted(set(given.tolist()))
        assert np.mean(p == given) > 0.9   # the training accuracy, not 0
    # The same scores whatever the labels' type.
    a = fdlab.train("svm", X, y)
    b = fdlab.train("svm", X, np.where(y == 1, "yes", "no"))
    assert list(a.classes) == [0, 1] and list(b.classes) == ["no", "yes"]
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    # A model file keeps class names as text and, since issue 27, the labels' dtype: loaded back
    # it predicts the same values in the same type.
    path = tmp_path / "ints.json"
    a.save(str(path))
    back = fdlab.load_model(str(path))
    assert back.class_names == ["0", "1"] and back.classes.dtype == a.classes.dtype
    np.testing.assert_array_equal(back.predict(X), a.predict(X))
    np.testing.assert_array_equal(back.decision_function(X), a.decision_function(X))
    # An explicit class order (binary: [negative, positive]) orders the label values too.
    c = fdlab.train("svm", X, y, classes=["1", "0"])
    assert list(c.classes) == [1, 0] and c.classes.dtype == y.dtype
    np.testing.assert_array_equal(c.predict(X), a.predict(X))


def test_sklearn_accuracy_of_integer_labels(vote):
    metrics = pytest.importorskip("sklearn.metrics")
    X, y = vote
    m = fdlab.train("svm", X, y)
    accuracy = metrics.accuracy_score(y, m.predict(X))
    assert accuracy == pytest.approx(np.mean(m.predict(X) == y)) and accuracy > 0.9
    multi = fdlab.train("svm", X, y + 2 * (X[:, 0] > 0))   # four integer classes 0..3
    assert metrics.accuracy_score(y + 2 * (X[:, 0] > 0), multi.predict(X)) > 0.5


def test_curve_refuses_unsorted_or_repeated_levels(vote, model):
    """curve(levels=...) refuses what experiment files and `fdlab-cli eval --levels` refuse: a level
    given twice or out of increasing order (before, both were evaluated as given: a curve with two
    points at one x, or one that doubles back)."""
    X, y = vote
    with pytest.raises(ValueError, match="levels: levels must be increasing, got 2 after 4"):
        fdlab.curve(model, X, y, threat="worst-case-count", levels=[0, 4, 2])
    with pytest.raises(ValueError, match="levels: the level 2 is given twice"):
        fdlab.curve(model, X, y, threat="worst-case-count", levels=[0, 2, 2])
    c = fdlab.curve(model, X, y, threat="worst-case-count", levels=[0, 2, 4])
    assert list(c["levels"]) == [0, 2, 4]


def test_labels_that_would_merge_are_refused():
    """Distinct labels that read alike were one class: 1e19 and 2e19 both cast to -2^63, the int
    1 and the str '1' both '1'; uint64 labels of 2^63 or more read negative."""
    X = np.random.RandomState(0).randn(90, 3)
    k = np.argmax(X, 1)
    with pytest.raises(ValueError, match="too large to name a class exactly"):
        fdlab.train("logreg", X, np.array([0.0, 1e19, 2e19])[k])
    with pytest.raises(ValueError, match=r"labels ('1'|1) \(y\[\d+\]\) and ('1'|1) \(y\[\d+\]\) differ but both read '1'"):
        fdlab.train("logreg", X, np.array([0, 1, "1"], dtype=object)[k])
    with pytest.raises(ValueError, match=r"label y\[\d+\] is NaN"):
        fdlab.train("logreg", X, np.array([float("nan"), "a", "b"], dtype=object)[k])
    m = fdlab.train("logreg", X, np.array([1, 2**63, 2**64 - 1], dtype=np.uint64)[k])
    assert m.class_names == ["1", "9223372036854775808", "18446744073709551615"]


def test_equal_labels_are_one_class():
    """1, 1.0 and True in one object array are equal (numpy.unique and scikit-learn see one
    class) but were two or three classes, '1', '1.0' and 'True'. A whole float in an object
    array reads as in a float array, so a model trained on [0, 1] also knows the label 1.0."""
    X = np.random.RandomState(0).randn(90, 3)
    k = (X[:, 0] > 0).astype(int)
    mixed = np.array([0, 1.0], dtype=object)[k]
    mixed[np.flatnonzero(k)[::2]] = 1
    mixed[np.flatnonzero(k)[1::3]] = True
    m = fdlab.train("logreg", X, mixed)
    assert m.class_names == ["0", "1"]
    plain = fdlab.train("logreg", X, k)
    assert np.array_equal(m.predict(X), plain.predict(X))
    # Test labels of another type but equal value are that class, not an unknown one.
    err = fdlab.curve(plain, X, np.array([0.0, 1.0], dtype=object)[k], threat="worst-case-count", levels=[0, 1])["error"]
    assert list(err) == list(fdlab.curve(plain, X, k, threat="worst-case-count", levels=[0, 1])["error"])
    # The names do not depend on which equal label comes first, and match numeric arrays.
    from decimal import Decimal
    first_true = np.array([0, True], dtype=object)[k]
    assert fdlab.train("logreg", X, first_true).class_names == ["0", "1"]
    assert fdlab.train("logreg", X, np.array([False, True], dtype=object)[k]).class_names == \
        fdlab.train("logreg", X, k.astype(bool)).class_names == ["0", "1"]
    m3 = fdlab.train("logreg", X, first_true)
    assert list(fdlab.curve(m3, X, np.array([Decimal(0), Decimal("1.0")], dtype=object)[k],
                            threat="worst-case-count", levels=[0])["error"]) == \
        list(fdlab.curve(m3, X, k, threat="worst-case-count", levels=[0])["error"])
    # Non-whole floats and strings keep their own names; '1' against 1 is still refused.
    m2 = fdlab.train("logreg", X, np.array([0.5, "b"], dtype=object)[k])
    assert m2.class_names == ["0.5", "b"]
    with pytest.raises(ValueError, match="differ but both read '1'"):
        fdlab.train("logreg", X, np.array([1.0, "1"], dtype=object)[k])


def test_object_and_uint64_labels_survive_a_model_file(tmp_path):
    """A pandas-style object column of ints was saved without its dtype: the loaded model
    predicted the str '1' (accuracy against the same y fell from 0.95 to 0). uint64 labels of
    2^63 or more came back as str too."""
    X = np.random.default_rng(0).normal(size=(60, 4))
    k = (X[:, 0] + X[:, 1] > 0).astype(int)
    cases = [k.astype(object), k.astype(bool).astype(object), (k * 1.0).astype(object),
             np.array([2**64 - 1, 3], dtype=np.uint64)[k], np.array([2**64 - 1, 3], dtype=object)[k],
             np.array(list(k.astype(np.int64)), dtype=object), np.array(list(k.astype(np.bool_)), dtype=object),
             np.array(list(k.astype(np.float32)), dtype=object), np.array([0.0, 1], dtype=object)[k],
             np.array([0, True], dtype=object)[k]]
    for y in cases:
        m = fdlab.train("svm", X, y)
        m.save(str(tmp_path / "m.json"))
        back = fdlab.load_model(str(tmp_path / "m.json"))
        assert (back.predict(X) == y).mean() == (m.predict(X) == y).mean() > 0.9, (y.dtype, back.predict(X)[:3])
        assert list(back.classes) == list(m.classes)


def test_non_utf8_bytes_in_a_model_file_give_a_data_error(tmp_path):
    """The byte 0xff in a feature name raised UnicodeDecodeError (the DataError's message quotes
    the file) instead of the DataError naming the file."""
    X = np.random.default_rng(0).normal(size=(30, 3))
    m = fdlab.train("svm", X, (X[:, 0] > 0).astype(int), feature_names=["a", "b", "c"])
    m.save(str(tmp_path / "m.json"))
    t = (tmp_path / "m.json").read_bytes()
    i = t.index(b'"b"')
    (tmp_path / "bad.json").write_bytes(t[:i + 1] + b"\xff" + t[i + 2:])
    with pytest.raises(fdlab.DataError, match=r"bad\.json.*\\xff") as e:
        fdlab.load_model(str(tmp_path / "bad.json"))
    assert e.value.file.endswith("bad.json")


def test_out_of_range_ints_say_so():
    """An int that does not fit said 'expected an int, got int'."""
    X = np.random.RandomState(0).randn(30, 4)
    y = (X[:, 0] > 0).astype(int)
    M = fdlab.Model.linear(np.ones(4), 0.0)
    with pytest.raises(ValueError, match=r"repetitions: 1099511627776 is out of range"):
        fdlab.curve(M, X, y, threat="random-deletion", levels=[1], repetitions=2**40)
    with pytest.raises(ValueError, match=r"seed: -1 is out of range"):
        fdlab.curve(M, X, y, threat="random-deletion", levels=[1], seed=-1)
    with pytest.raises(ValueError, match=r"^class_names: expected a 1-D array"):
        fdlab.Model.linear(np.ones(4), 0.0, class_names="ab")
    with pytest.raises(ValueError, match=r"^class_names: float labels must be whole"):
        fdlab.Model.linear(np.ones(4), 0.0, class_names=[np.nan, 1.0])
    with pytest.raises(ValueError, match=r"pass coef_\.T"):
        fdlab.Model.linear(np.ones((3, 4)), np.zeros(3))


@pytest.mark.parametrize("n", [2**24 + 1, 2**31 - 1])
def test_a_feature_count_beyond_what_fdlab_loads_is_refused(n):
    """A scipy matrix of shape (2, 2^31 - 1) with two stored values made train() allocate per-feature
    vectors until the kernel killed the interpreter (24 GB); fdlab-cli refuses such a LIBSVM file at
    2^24 features, and so does the module now, before allocating anything."""
    X = sp.csr_matrix((np.ones(2, dtype=np.float32), (np.array([0, 1]), np.array([0, 5]))), shape=(2, n))
    y = np.array([0, 1])
    with pytest.raises(ValueError, match=r"more than 2\^24 = 16777216 columns"):
        fdlab.train("svm", X, y)
    M = fdlab.Model.linear(np.ones(4), 0.0)
    with pytest.raises(ValueError, match=r"more than 2\^24"):
        M.decision_function(X)


def test_bytes_labels_survive_a_model_file(tmp_path):
    """Bytes labels (dtype S) came back as str after save()/load_model(): accuracy 0 against the
    y the model was trained on (the pickled copy kept them)."""
    rng = np.random.RandomState(0)
    X = rng.randn(60, 3)
    y = np.where(X[:, 0] > 0, b"spam", b"ham")
    m = fdlab.train("svm", X, y)
    path = str(tmp_path / "bytes.json")
    m.save(path)
    back = fdlab.load_model(path)
    assert back.classes.dtype.kind == "S"
    np.testing.assert_array_equal(back.predict(X), m.predict(X))
    assert np.mean(back.predict(X) == y) > 0.9
    # bytes beyond ASCII too (numpy's astype("S") would encode str as ASCII and fail)
    y2 = np.where(X[:, 0] > 0, "spam é".encode(), "ham ü".encode())
    m2 = fdlab.train("svm", X, y2)
    m2.save(path)
    np.testing.assert_array_equal(fdlab.load_model(path).predict(X), m2.predict(X))


@pytest.mark.parametrize("shape", [(2**30 + 1, 4), (-1, -4), (4, 2**30 + 1)])
def test_an_image_shape_that_wraps_around_is_refused(shape):
    """rows * cols was an int: (2^30 + 1) x 4 wrapped to 4 and passed as the shape of 4 features
    (a group-corruption curve then asked for 4.3e9 pixels), (-1) x (-4) was 4 too (the model
    pickled but never unpickled)."""
    X = np.random.RandomState(0).randn(20, 4)
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match="image shape"):
        fdlab.train("svm", X, y, image_shape=shape)


@pytest.mark.parametrize("part,bad", [("row", 10**6), ("row", -5), ("col", 10**6), ("col", -5)])
def test_coo_indices_outside_the_shape_are_refused(vote, model, part, bad):
    """COO has no check_format, and scipy's tocsr() wrote where a bad row index pointed: the
    interpreter crashed (SIGSEGV) in decision_function, train, attack and curve."""
    X, y = vote
    A = sp.coo_matrix(X)
    getattr(A, part)[3] = bad
    with pytest.raises(ValueError, match=f"COO matrix has a {part} index {bad}, outside"):
        model.decision_function(A)
    with pytest.raises(ValueError, match="COO matrix"):
        fdlab.train("svm", A, y)


def test_messages_name_the_argument_at_fault():
    """donors_X without donors_y said 'y: expected a 1-D array, got 0 dimensions'; MCF with a
    class that has no instance said 'NewtonParams.epsilon must be finite and > 0'."""
    X = np.random.RandomState(0).randn(40, 4)
    y = (X[:, 0] > 0).astype(int)
    M = fdlab.Model.linear(np.ones(4), 0.0)
    with pytest.raises(ValueError, match="donors_X is given without donors_y"):
        fdlab.curve(M, X, y, threat="feature-corruption", levels=[1], donors_X=X)
    with pytest.raises(ValueError, match="donors_y is given without donors_X"):
        fdlab.curve(M, X, y, threat="feature-corruption", levels=[1], donors_y=y)
    for learner in ("mcf", "svm"):
        with pytest.raises(ValueError, match="class '2' has no instance"):
            fdlab.train(learner, X, y.astype(str), classes=["0", "1", "2"])


def test_bytes_in_an_object_array_survive_a_model_file_and_non_utf8_bytes_are_refused(tmp_path):
    """Bytes labels in an object array came back as str after save()/load_model() (accuracy 0);
    bytes that are not UTF-8 trained, then could be neither saved nor pickled."""
    rng = np.random.RandomState(1)
    X = rng.randn(60, 3)
    y = np.where(X[:, 0] > 0, b"spam", b"ham").astype(object)
    m = fdlab.train("svm", X, y)
    path = str(tmp_path / "obj.json")
    m.save(path)
    back = fdlab.load_model(path)
    assert np.mean(back.predict(X) == y) == np.mean(m.predict(X) == y) > 0.9
    bad = np.where(X[:, 0] > 0, b"\xff\xfe", b"ok")
    for labels in (bad, bad.astype(object)):
        with pytest.raises(ValueError, match=r"not UTF-8 text"):
            fdlab.train("svm", X, labels)


def test_bytes_labels_with_a_trailing_nul_survive_a_model_file(tmp_path):
    """An S array drops a trailing NUL: labels b'a\\x00' and b'a' in an object array came back as
    one str class 'a' (accuracy 0). They are restored as an object array of bytes."""
    rng = np.random.RandomState(2)
    X = rng.randn(60, 3)
    y = np.array([b"a\x00" if v > 0 else b"a" for v in X[:, 0]], dtype=object)
    m = fdlab.train("svm", X, y)
    path = str(tmp_path / "nul.json")
    m.save(path)
    back = fdlab.load_model(path)
    assert set(back.classes.tolist()) == {b"a", b"a\x00"}
    assert np.mean(back.predict(X) == y) == np.mean(m.predict(X) == y) > 0.9


def test_save_to_a_file_works_with_a_closed_stdout(tmp_path, monkeypatch):
    """save() flushed sys.stdout before every write: with a closed (or broken) stdout the model
    was not saved at all. Only a path that is this process's stdout needs the flush."""
    import io
    X = np.random.RandomState(0).randn(30, 3)
    m = fdlab.train("svm", X, (X[:, 0] > 0).astype(int))
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr("sys.stdout", closed)
    path = tmp_path / "m.json"
    m.save(str(path))
    assert fdlab.load_model(str(path)).n_features == 3


def test_numpy_object_dtype_in_a_model_file_still_means_str_labels(tmp_path):
    """Object arrays of bytes are recorded as 'object-bytes'; numpy's own '|O' (written by hand or
    another tool) keeps loading str class names as str."""
    import json
    X = np.random.RandomState(0).randn(40, 3)
    y = np.where(X[:, 0] > 0, "dog", "cat").astype(object)
    m = fdlab.train("svm", X, y)
    path = tmp_path / "m.json"
    m.save(str(path))
    doc = json.loads(path.read_text())
    doc["label_dtype"] = "|O"
    path.write_text(json.dumps(doc))
    back = fdlab.load_model(str(path))
    assert np.mean(back.predict(X) == y) > 0.9


def test_an_empty_output_path_is_named(tmp_path):
    """save("") said ": cannot replace file: No such file or directory", naming nothing."""
    X = np.random.RandomState(0).randn(20, 3)
    m = fdlab.train("svm", X, (X[:, 0] > 0).astype(int))
    with pytest.raises(ValueError, match=r"^path: empty output path"):
        m.save("")
    with pytest.raises(ValueError, match=r"^path: empty output path"):
        fdlab.export_curves(str(tmp_path / "results.json"), "")
    with pytest.raises(ValueError, match=r"^path: the output path ' ' is only blanks"):
        m.save(" ")   # wrote a file named ' ' (fdlab-cli refuses it too)


def test_a_model_made_by_new_raises_instead_of_crashing(vote):
    """Model.__new__(Model) (what pickle does before __setstate__) made an object whose every
    method and property crashed the interpreter (pybind11 handed the bindings uninitialised
    memory). Each use is a TypeError now; __setstate__ still fills such an object in. Run in a
    child process, so that a crash fails this test instead of ending the test run."""
    import subprocess
    import sys
    import textwrap
    code = textwrap.dedent("""
        import pickle
        import numpy as np
        import fdlab
        X = np.random.RandomState(0).randn(20, 3)
        y = (X[:, 0] > 0).astype(int)
        empty = fdlab.Model.__new__(fdlab.Model)
        uses = {name: (lambda name=name: getattr(empty, name)) for name in dir(fdlab.Model) if not name.startswith("_")}
        uses.update({"predict": lambda: empty.predict(X), "decision_function": lambda: empty.decision_function(X),
                     "save": lambda: empty.save("never.json"), "repr": lambda: repr(empty),
                     "pickle": lambda: pickle.dumps(empty),
                     "attack": lambda: fdlab.attack(empty, X, y, threat="random-deletion", budget=1),
                     "curve": lambda: fdlab.curve(empty, X, y, threat="random-deletion", levels=[0])})
        for name, use in sorted(uses.items()):
            try:
                use()
            except TypeError as e:
                assert "fdlab.Model was not initialised" in str(e), (name, str(e))
            else:
                raise AssertionError(name + " raised nothing")
        real = fdlab.train("svm", X, y)
        filled = fdlab.Model.__new__(fdlab.Model)
        filled.__setstate__(real.__getstate__())
        back = pickle.loads(pickle.dumps(real))
        assert (filled.predict(X) == real.predict(X)).all() and (back.predict(X) == real.predict(X)).all()
        print("checked", len(uses), "uses")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert r.stdout.startswith("checked ")


def test_linear_refuses_more_weights_than_any_x_has_features():
    """Model.linear took 2^24 + 1 weights (b is separate), a model no X could meet: X of more
    than 2^24 columns is refused."""
    with pytest.raises(ValueError, match=r"^w: has 16777217 rows \(one per feature\), more than 2\^24 = 16777216"):
        fdlab.Model.linear(np.zeros(2**24 + 1), 0.0)


@pytest.mark.parametrize("empty_folder", [False, True])
def test_presets_without_a_presets_folder_name_it(tmp_path, monkeypatch, empty_folder):
    """presets() returned [] when the folder was missing or empty, while fdlab-cli presets exits 3
    naming it."""
    folder = tmp_path / "presets"
    if empty_folder:
        folder.mkdir()
    monkeypatch.setenv("FDLAB_PRESETS_DIR", str(folder))
    with pytest.raises(FileNotFoundError, match="no presets in .*FDLAB_PRESETS_DIR") as e:
        fdlab.presets()
    assert e.value.filename == str(folder)


def test_coo_indices_of_other_types_are_checked(vote, model):
    """uint64 COO indices of 2^63 or more, and float indices, raised a bare RuntimeError ('Unable
    to cast Python instance to C++ type')."""
    X, y = vote
    for part in ("row", "col"):
        A = sp.coo_matrix(X)
        setattr(A, part, getattr(A, part).astype(np.uint64))
        getattr(A, part)[3] = 2**63 + 5
        with pytest.raises(ValueError, match=f"COO matrix has a {part} index 9223372036854775813, outside"):
            model.decision_function(A)
        A = sp.coo_matrix(X)
        setattr(A, part, getattr(A, part).astype(np.float64))
        with pytest.raises(TypeError, match=f"COO matrix's {part} indices have dtype float64, expected integers"):
            model.decision_function(A)
    A = sp.coo_matrix(X)
    A.row = A.row.astype(np.uint64)   # in range: read as before
    np.testing.assert_array_equal(model.decision_function(A), model.decision_function(X))


def test_names_that_are_not_text_are_refused_naming_the_argument(tmp_path):
    """Feature names of non-UTF-8 bytes trained, then save() said 'invalid UTF-8 byte at index 0';
    such bytes given as classes= were blamed on y; a str label with a lone surrogate (os.fsdecode
    of such bytes) was a bare RuntimeError."""
    X = np.random.RandomState(0).randn(30, 3)
    y = np.where(X[:, 0] > 0, b"ok", b"no")
    with pytest.raises(ValueError, match=r"^classes: the label b'\\xff' is bytes that are not UTF-8 text"):
        fdlab.train("svm", X, y, classes=[b"\xff", b"ok", b"no"])
    with pytest.raises(ValueError, match=r"^feature_names\[1\]: b'\\xfe' is bytes that are not UTF-8 text"):
        fdlab.train("svm", X, y, feature_names=["a", b"\xfe", "c"])
    with pytest.raises(ValueError, match=r"^feature_names\[0\]: b'\\xff' is bytes that are not UTF-8 text"):
        fdlab.Model.linear(np.ones(3), 0.0, feature_names=[b"\xff", "b", "c"])
    surrogate = "caf\udce9"
    with pytest.raises(ValueError, match=r"^y: the label 'caf\\udce9' is a str that UTF-8 cannot encode"):
        fdlab.train("svm", X, np.where(X[:, 0] > 0, surrogate, "ok"))
    with pytest.raises(ValueError, match=r"^class_names: the label 'caf\\udce9' is a str that UTF-8 cannot encode"):
        fdlab.Model.linear(np.ones(3), 0.0, class_names=[surrogate, "ok"])
    # UTF-8 bytes stay good names
    m = fdlab.train("svm", X, y, feature_names=[b"a", "b", "caf\u00e9".encode()])
    m.save(str(tmp_path / "m.json"))
    assert fdlab.load_model(str(tmp_path / "m.json")).feature_names == ["a", "b", "caf\u00e9"]


def test_csr_index_arrays_beyond_int64_are_named_as_they_are(vote, model):
    """uint64 CSR indices of 2^63 or more were wrapped: 'column index -9223372036854775807', an
    indptr 'starting at' a negative number, or one ending beyond int64 'decreasing at row 3'."""
    X, _ = vote
    A = csr_with(X, indices=sp.csr_matrix(X).indices.astype(np.uint64))
    A.indices[1] = 2**63 + 1
    with pytest.raises(ValueError, match=r"^X: the sparse matrix's indices holds 9223372036854775809, beyond any index"):
        model.decision_function(A)
    A = csr_with(X, indptr=sp.csr_matrix(X).indptr.astype(np.uint64))
    A.indptr[-1] = 2**63 + 4
    with pytest.raises(ValueError, match=r"^X: the sparse matrix's indptr holds 9223372036854775812, beyond any index"):
        model.decision_function(A)
    A = csr_with(X, indices=sp.csr_matrix(X).indices.astype(np.uint64))   # in range: read as before
    np.testing.assert_array_equal(model.decision_function(A), model.decision_function(X))


def test_paths_are_the_file_systems_own_names(tmp_path, model):
    """A directory as the file to write raised a bare RuntimeError('.: is a directory'); a file
    name with undecodable bytes (as os.listdir returns it) raised 'Unable to cast Python instance
    to C++ type' in save() and load_model()."""
    with pytest.raises(IsADirectoryError):
        model.save(str(tmp_path))
    with pytest.raises(IsADirectoryError):
        model.save(str(tmp_path) + "/")
    raw = bytes(tmp_path) + b"/m\xfe.json"
    name = os.fsdecode(raw)   # 'm\udcfe.json'
    model.save(name)
    assert os.path.isfile(raw)
    again = fdlab.load_model(name)
    X = np.eye(again.n_features)[:2]
    np.testing.assert_array_equal(fdlab.load_model(raw).decision_function(X), model.decision_function(X))
    np.testing.assert_array_equal(again.decision_function(X), model.decision_function(X))
    with pytest.raises(FileNotFoundError) as e:
        fdlab.load_model(os.fsdecode(bytes(tmp_path) + b"/none\xff.json"))
    assert e.value.filename == os.fsdecode(bytes(tmp_path) + b"/none\xff.json")


def test_a_name_with_a_lone_surrogate_is_not_called_a_non_str():
    """train('svm\\udcff', ...) said 'name: expected a learner name (str), got str'."""
    X = np.random.RandomState(0).randn(20, 3)
    with pytest.raises(ValueError, match=r"not UTF-8 text \(it holds a lone surrogate\)"):
        fdlab.train("svm\udcff", X, (X[:, 0] > 0).astype(int))


def test_classes_as_one_bytes_string_are_names():
    """classes=b"no,ok" was iterated as the integers 110, 111, 44, ... and refused every label."""
    X = np.random.RandomState(0).randn(30, 3)
    y = np.where(X[:, 0] > 0, b"ok", b"no")
    a = fdlab.train("svm", X, y, classes=b"no,ok")
    b = fdlab.train("svm", X, y, classes="no,ok")
    assert list(a.classes) == list(b.classes)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_a_nul_in_a_path_is_refused_not_cut(tmp_path, model):
    """save('victim.json\\0.bak') replaced victim.json: the C library stops at the NUL."""
    victim = tmp_path / "victim.json"
    victim.write_text("precious")
    with pytest.raises(ValueError, match=r"^path: embedded null byte in the path"):
        model.save(str(victim) + "\0.bak")
    assert victim.read_text() == "precious"
    with pytest.raises(ValueError, match=r"embedded null byte"):
        fdlab.run(str(victim) + "\0x")


def test_files_with_undecodable_names_load_and_their_info_names_them(tmp_path):
    """load(b'tiny\\xff.libsvm') raised UnicodeDecodeError (the info dict's name); run() and
    prepare(importance=...) with such a str name said 'Unable to cast'; a link to a directory
    was a bare RuntimeError; classes=bytearray was iterated as integers."""
    raw = bytes(tmp_path) + b"/tiny\xff.libsvm"
    with open(raw, "w") as f:
        f.write("+1 1:1 2:0.5\n-1 1:-1 3:2\n+1 2:1\n-1 3:1\n")
    for path in (raw, os.fsdecode(raw)):
        X, y, info = fdlab.load(path)
        assert X.shape == (4, 3)
        assert os.fsencode(info["name"]) == b"tiny\xff"
        assert os.fsencode(info["provenance"]) == b"LIBSVM file " + raw
    bad = bytes(tmp_path) + b"/bad\xfe.libsvm"
    with open(bad, "w") as f:
        f.write("+1 1:1\nnot a line\n")
    with pytest.raises(fdlab.DataError) as e:
        fdlab.load(bad)
    assert os.fsencode(e.value.file) == bad   # the file's own name, to open again
    link = tmp_path / "dirlink"
    link.symlink_to(tmp_path)
    X = np.random.RandomState(0).randn(20, 3)
    m = fdlab.train("svm", X, (X[:, 0] > 0).astype(int))
    with pytest.raises(IsADirectoryError):
        m.save(str(link))
    y = np.where(X[:, 0] > 0, b"ok", b"no")
    a = fdlab.train("svm", X, y, classes=bytearray(b"no,ok"))
    assert list(a.classes) == list(fdlab.train("svm", X, y, classes="no,ok").classes)


def test_class_names_from_undecodable_file_names_load(tmp_path):
    """A corpus whose mailbox (class) name is not UTF-8 raised UnicodeDecodeError in load()."""
    base = bytes(tmp_path) + b"/corpus"
    os.mkdir(base)
    for name, words in ((b"ham\xfe.mbox", ["meeting lunch", "project notes", "lunch today"]),
                        (b"spam.mbox", ["cheap pills", "win money", "cheap money"])):
        with open(base + b"/" + name, "w") as f:
            for i, w in enumerate(words):
                f.write(f"From sender{i}@x Mon Jan  1 00:00:00 2024\nSubject: m{i}\n\n{w} common text\n\n")
    X, y, info = fdlab.load(base, min_df=1)
    assert X.shape[0] == 6
    assert [os.fsencode(c) for c in info["class_names"]] == [b"ham\xfe", b"spam"]
    assert sorted(os.fsencode(v) for v in set(y)) == [b"ham\xfe", b"spam"]
