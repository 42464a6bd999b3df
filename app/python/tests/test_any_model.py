"""Anyone's model under attack (issue 27, item 2): fdlab.Model.linear and fdlab.from_sklearn give
models whose curves and attacks equal the CLI's on a model file with the same weights."""
import json
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression, RidgeClassifier, SGDClassifier
from sklearn.svm import LinearSVC

import fdlab

CLI = os.environ.get("FDLAB_CLI", "fdlab-cli")
SPAM = ["--bundled", "spamassassin", "--test-data", "spamassassin-test"]


def cli(*args):
    r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def spam():
    X, y, info = fdlab.bundled("spamassassin")
    Xte, yte, _ = fdlab.bundled("spamassassin-test")
    return X, y, info, Xte, yte


@pytest.fixture(scope="module")
def mnist():
    X, y, info = fdlab.bundled("mnist")
    return X[:2000], y[:2000].astype(np.int64), info


CLASSIFIERS = [lambda: LinearSVC(C=0.1, dual=True, max_iter=20000), lambda: LogisticRegression(C=0.1, max_iter=500),
               lambda: SGDClassifier(random_state=0), lambda: RidgeClassifier(alpha=10.0)]


@pytest.mark.parametrize("make", CLASSIFIERS)
def test_from_sklearn_scores_and_predicts_as_sklearn(make, mnist):
    X, y, _ = mnist
    for labels in (y, np.where(y == 3, "three", "other")):   # multi-class ints, binary strings
        clf = make().fit(X, labels)
        m = fdlab.from_sklearn(clf)
        # independently, in float64 (RidgeClassifier's own decision_function stays in float32)
        ref = X.astype(np.float64) @ clf.coef_.T + clf.intercept_
        ref = ref[:, 0] if ref.shape[1] == 1 else ref
        np.testing.assert_allclose(m.decision_function(X), ref, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(m.decision_function(X), clf.decision_function(X), rtol=1e-4, atol=1e-5)
        expected = clf.classes_[(ref > 0).astype(int) if ref.ndim == 1 else np.argmax(ref, axis=1)]
        np.testing.assert_array_equal(m.predict(X), expected)
        assert np.mean(m.predict(X) == clf.predict(X)) > 0.999
        assert m.predict(X).dtype == clf.predict(X).dtype
        assert m.learner == "sklearn." + type(clf).__name__ and m.linear
        assert m.fit_info == {k: None for k in ("status", "objective", "gap", "iterations", "elapsed", "message")}


def test_model_linear_shapes_and_errors():
    w = np.array([1.0, -2.0, 0.5])
    m = fdlab.Model.linear(w, 0.25, class_names=["neg", "pos"])
    X = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=np.float32)
    np.testing.assert_array_equal(m.decision_function(X), [1.25, -1.75, 0.25])
    assert list(m.predict(X)) == ["pos", "neg", "pos"] and m.n_features == 3
    # two columns are the binary model of their difference (same decisions)
    two = fdlab.Model.linear(np.stack([-w, w], axis=1), [0.0, 0.5], class_names=[0, 1])
    np.testing.assert_allclose(two.decision_function(X), 2 * X @ w + 0.5)
    k3 = fdlab.Model.linear(np.eye(3), np.zeros(3))
    assert list(k3.predict(X)) == [0, 1, 0]
    with pytest.raises(ValueError, match="b: 2 values for the 3 column"):
        fdlab.Model.linear(np.eye(3), np.zeros(2))
    with pytest.raises(ValueError, match="class_names: 3 names for a model of 2 classes"):
        fdlab.Model.linear(w, 0.0, class_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="w: has NaN"):
        fdlab.Model.linear(np.array([np.nan, 1.0]), 0.0)
    with pytest.raises(ValueError, match="feature_names: 2 names for 3 features"):
        fdlab.Model.linear(w, 0.0, feature_names=["a", "b"])


@pytest.mark.parametrize("make", [CLASSIFIERS[0], CLASSIFIERS[1]])
def test_from_sklearn_curve_and_attack_equal_the_cli_on_the_spam_pair(tmp_path, spam, make):
    """A LinearSVC / LogisticRegression fitted on the spam training file, written through the
    module as a model file: fdlab-cli eval and attack on that file give Python's numbers."""
    X, y, info, Xte, yte = spam
    clf = make().fit(X, y)
    m = fdlab.from_sklearn(clf, feature_names=info["feature_names"])
    path = tmp_path / "sk.json"
    m.save(path)
    levels = [0, 2, 5, 10]
    out = json.loads(cli("eval", "--model", str(path), *SPAM, "--threat", "worst-case-count", "--levels",
                         ",".join(map(str, levels)), "--attack-class", "spam", "--format", "json").stdout)
    c = fdlab.curve(m, Xte, yte, threat="worst-case-count", levels=levels, attacked_classes=["spam"])
    assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)
    assert [p["auc"] for p in out["levels"]] == pytest.approx(list(c["auc"]), abs=1e-12)
    assert c["error"][-1] > c["error"][0]   # the attack does something
    # the errors are sklearn's own on the clean test file
    assert c["error"][0] == pytest.approx(np.mean(clf.predict(Xte) != yte), abs=1e-12)
    rows = json.loads(cli("attack", "--model", str(path), *SPAM, "--threat", "worst-case-count", "--budget", "5",
                          "--format", "json").stdout)["instances"]
    a = fdlab.attack(m, Xte, yte, threat="worst-case-count", budget=5)
    assert len(rows) == Xte.shape[0]
    for i in range(0, len(rows), 37):
        assert list(a["deleted"][i]) == rows[i]["deleted"]
        assert a["margins_after"][i] == pytest.approx(rows[i]["margin_after"], abs=1e-9)


def test_model_linear_multiclass_file_equals_the_cli(tmp_path, mnist):
    X, y, info = mnist
    clf = LogisticRegression(C=0.01, max_iter=300).fit(X, y)
    m = fdlab.from_sklearn(clf, feature_names=info["feature_names"])
    path = tmp_path / "lr10.json"
    m.save(str(path))
    data = fdlab.prepare(bundled="mnist")
    Xte, yte, _ = data["test"]
    out = json.loads(cli("eval", "--model", str(path), "--bundled", "mnist", "--threat", "random-deletion", "--levels",
                         "0,100,300", "--attack-seed", "3", "--format", "json").stdout)
    c = fdlab.curve(m, Xte, yte.astype(np.int64), threat="random-deletion", levels=[0, 100, 300], seed=3)
    assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)
    back = fdlab.load_model(path)
    assert back.predict(Xte[:50]).dtype == np.int64   # the label dtype survives the file
    np.testing.assert_array_equal(back.predict(Xte), clf.predict(Xte))
