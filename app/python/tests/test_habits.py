"""Python habits (issue 27, item 5), each with the call a researcher makes in a notebook, and the
two defects of saved models: the recorded scaling and the labels' dtype."""
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import fdlab

CLI = os.environ.get("FDLAB_CLI", "fdlab-cli")
README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture(scope="module")
def vote():
    X, y, info = fdlab.bundled("vote")
    return X, y, info


def test_numpy_scalars_as_parameters(vote):
    X, y, _ = vote
    for K in np.arange(0, 3):
        a = fdlab.train("fdrop", X, y, {"K": K, "C": np.float64(0.5), "useImportance": np.bool_(False)})
        b = fdlab.train("fdrop", X, y, {"K": int(K), "C": 0.5})
        np.testing.assert_array_equal(a.weights, b.weights)
    m = fdlab.train("svm", X, y)
    c = fdlab.curve(m, X, y, threat="random-deletion", levels=np.array([0, 2]), seed=np.uint64(3),
                    repetitions=np.int32(2))
    assert list(c["levels"]) == [0, 2]
    a = fdlab.attack(m, X, y, threat="worst-case-count", budget=np.int64(2))
    assert max(len(d) for d in a["deleted"]) == 2
    f = fdlab.attack(m, X, y, threat="fixed-deletion", budget=np.float32(2), features=np.array([1, 2]))
    assert all(set(d) <= {1, 2} for d in f["deleted"])
    g = fdlab.attack(m, X, y, threat="greedy-deletion", budget=2, threat_params={"stop_when_wrong": np.bool_(False)})
    assert all(len(d) == 2 for d in g["deleted"])
    with pytest.raises(TypeError, match=r"^params: a value of type object is not a number"):
        fdlab.train("svm", X, y, {"C": object()})
    with pytest.raises(ValueError, match="params: NaN"):
        fdlab.train("svm", X, y, {"C": np.nan})


BIG = np.arange(2000 * 30, dtype=np.float64).reshape(2000, 30)


@pytest.mark.parametrize("call, words", [
    (lambda m, X, y: fdlab.train(3, X, y), "name: expected a learner name (str), got int"),
    (lambda m, X, y: fdlab.train("svm", X, y, [1]), "params: expected a dict"),
    (lambda m, X, y: fdlab.train("svm", X, y, info=5), "info: expected the dict"),
    (lambda m, X, y: fdlab.train("svm", X, y, {}, None, 1), "train() takes 5 positional argument"),
    (lambda m, X, y: fdlab.train("svm", X, y, prams={}), "train(): unknown argument 'prams'"),
    (lambda m, X, y: fdlab.train("svm", X), "train(): missing argument 'y'"),
    (lambda m, X, y: fdlab.curve("model", X, y), "curve(): model: expected an fdlab.Model, got str"),
    (lambda m, X, y: fdlab.curve(m, X, y, levels="0,5"), "levels: expected a sequence of numbers, got str"),
    (lambda m, X, y: fdlab.curve(m, X, y, levels=[0], seed=1.5), "seed: expected a non-negative int, got float"),
    (lambda m, X, y: fdlab.curve(m, X, y, threat=7), "threat: expected a threat name (str), got int"),
    (lambda m, X, y: fdlab.attack(m, X, y, threat="worst-case-count", budget="3"), "budget: expected a number, got str"),
    (lambda m, X, y: fdlab.attack(m, X, y, threat="fixed-deletion", features="ab"), "features: expected a sequence of ints"),
    (lambda m, X, y: fdlab.attack(m, X, y, threat="group-corruption", regions=3), "regions: expected (rows, cols), got int"),
    (lambda m, X, y: fdlab.load(42), "path: expected a path (str, bytes or pathlib.Path), got int"),
    (lambda m, X, y: m.predict(X, X), "Model.predict() takes 1 positional argument"),
    (lambda m, X, y: m.save(3), "path: expected a path"),
    (lambda m, X, y: fdlab.run("globerson-toy", threads="2"), "threads: expected an int, got str"),
    (lambda m, X, y: fdlab.prepare(bundled="vote", seed=-1), "seed: -1 is out of range (a non-negative int from 0"),
])
def test_wrong_argument_types_give_one_line_naming_the_argument(call, words):
    y = np.arange(len(BIG)) % 2
    m = fdlab.train("svm", BIG, y)
    with pytest.raises((TypeError, ValueError)) as e:
        call(m, BIG, y)
    text = str(e.value)
    assert words in text
    assert "\n" not in text and len(text) < 300, text
    assert "Unable to cast" not in text and "incompatible function arguments" not in text


def test_ctrl_c_interrupts_train_within_a_second():
    code = ("import fdlab, time, sys\n"
            "d = fdlab.prepare(bundled='mnist', positive='3', negative='5')\n"
            "X, y, info = d['train']\n"
            "print('training', flush=True)\n"
            "t = time.time()\n"
            "try:\n"
            "    fdlab.train('fdrop', X, y, {'K': 25, 'epsilon': 1e-12, 'maxIterations': 10000000}, info=info)\n"
            "    print('finished', time.time() - t)\n"
            "except KeyboardInterrupt as e:\n"
            "    print('cancelled', e, flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "training"
    time.sleep(1.0)   # inside the fit
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    elapsed = time.monotonic() - start
    assert out.startswith("cancelled fdlab.train cancelled"), out + err
    assert elapsed < 1.0, elapsed


def test_pathlib_paths_everywhere(tmp_path, vote):
    X, y, _ = vote
    data = pathlib.Path(os.environ["FDLAB_TEST_DATA"]) / "tiny.libsvm"
    Xa, ya, _ = fdlab.load(data)
    Xb, yb, _ = fdlab.load(str(data))
    assert (Xa != Xb).nnz == 0 if hasattr(Xa, "nnz") else np.array_equal(Xa, Xb)
    assert fdlab.prepare(data=data, test_fraction=0.5)["train"][0].shape[0] > 0
    m = fdlab.train("svm", X, y)
    m.save(tmp_path / "m.json")
    assert fdlab.load_model(tmp_path / "m.json").n_features == X.shape[1]
    preset = pathlib.Path(next(p["path"] for p in fdlab.presets() if p["name"] == "dekel-shamir-label-copy"))
    assert fdlab.run(preset, threads=1)["status"] == "converged"


def test_missing_paths_raise_oserror(tmp_path, vote):
    X, y, _ = vote
    m = fdlab.train("svm", X, y)
    with pytest.raises(FileNotFoundError, match="No such directory"):
        m.save(tmp_path / "no" / "such" / "m.json")
    with pytest.raises(FileNotFoundError):
        fdlab.load(tmp_path / "no" / "x.csv")
    with pytest.raises(FileNotFoundError):
        fdlab.load_model(str(tmp_path / "nothing.json"))
    with pytest.raises(OSError):
        fdlab.prepare(data=tmp_path / "missing-dir" / "d.csv")


def test_help_of_run_lists_the_keys_run_returns():
    r = fdlab.run("dekel-shamir-label-copy", threads=1)
    doc = fdlab.run.__doc__
    listed = set(re.search(r"Its keys: ([^.]+)\.", doc).group(1).split(", "))
    assert listed == set(r), (listed, set(r))
    assert "summary" not in listed and "timings" not in listed


def test_learners_say_what_each_accepts():
    X, y, _ = fdlab.bundled("mnist")
    X, y = X[:300], y[:300]
    info = {e["name"]: e for e in fdlab.learners()}
    assert info["svm"]["multiclass"] == "one-vs-rest" and not info["svm"]["binary_only"]
    m = fdlab.train("svm", X, y)
    assert m.weights.shape == (784, 10)
    assert info["kernel-svm"]["multiclass"] == "refused" and info["kernel-svm"]["binary_only"]
    with pytest.raises(ValueError, match="binary data only"):
        fdlab.train("kernel-svm", X, y)
    assert info["tree"]["multiclass"] == "native" and info["tree"]["sparse"] == "densified"
    assert info["fdrop"]["sparse"] == "native"
    assert len(set(fdlab.train("tree", X, y).predict(X))) > 2


def test_x_with_no_columns_is_refused(vote):
    _, y, _ = vote
    empty = np.zeros((len(y), 0))
    for call in (lambda: fdlab.train("svm", empty, y), lambda: fdlab.Model.linear(np.zeros(0), 0.0)):
        with pytest.raises(ValueError, match="no (columns|rows)"):
            call()


def test_indices_in_messages_are_0_based(vote):
    X, y, _ = vote
    bad = np.array(y, dtype=object)
    bad[0] = 1.5
    with pytest.raises(ValueError, match=r"y\[0\]"):
        fdlab.train("svm", X, np.where(np.arange(len(y)) == 0, 1.5, 1.0))
    Xn = X.astype(np.float64)
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"X\[0, 0\]"):
        fdlab.train("svm", Xn, y)
    m = fdlab.train("svm", X, y)
    with pytest.raises(ValueError, match=r"y\[0\]"):
        fdlab.curve(m, X, np.array(["maybe"] + list(y[1:])))


def test_readme_documents_every_public_function():
    text = README.read_text()
    section = text[text.index("## Python"):]
    names = [n for n in fdlab.__all__ if not n.startswith("_") and n not in ("DataError", "Model")]
    names += ["Model.linear", "Model.decision_function", "Model.predict", "Model.save", "fdlab.sklearn",
              "make_robust_scorer"]
    for name in names:
        assert name in section, name


def test_loaded_model_fit_info_is_none_where_unknown(tmp_path, vote):
    X, y, _ = vote
    m = fdlab.train("fdrop", X, y, {"K": 2})
    assert m.fit_info["status"] == "converged" and m.fit_info["iterations"] > 0
    m.save(tmp_path / "m.json")
    back = fdlab.load_model(tmp_path / "m.json")
    assert back.fit_info == {k: None for k in ("status", "objective", "gap", "iterations", "elapsed", "message")}


def test_loaded_model_applies_the_recorded_scaling_as_the_cli_does(tmp_path):
    """Defect: load_model ignored the model file's scaling; fdlab-cli applies it."""
    path = tmp_path / "scaled.json"
    r = subprocess.run([CLI, "train", "--bundled", "spambase", "--scale", "zero-one", "--learner", "svm", "--output",
                        str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    raw = fdlab.prepare(bundled="spambase")["test"]                    # unscaled test part
    scaled = fdlab.prepare(bundled="spambase", scale="zero-one")["test"]
    m = fdlab.load_model(path)
    assert m.scaling == "zero-one"
    out = json.loads(subprocess.run([CLI, "eval", "--model", str(path), "--bundled", "spambase", "--threat",
                                     "worst-case-count", "--levels", "0,3", "--format", "json"],
                                    capture_output=True, text=True, timeout=300).stdout)
    c = fdlab.curve(m, raw[0], raw[1], threat="worst-case-count", levels=[0, 3])
    assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)
    # the scores are those of the weights on the scaled data
    w, b = m.weights, m.bias
    np.testing.assert_allclose(m.decision_function(raw[0]), scaled[0].astype(np.float64) @ w + b, rtol=1e-5, atol=1e-5)
    assert "scaled by the model's recorded zero-one" in fdlab.last_copy_info()["what"]


def test_model_trained_on_prepared_scaled_data_tells_the_cli_its_scaling(tmp_path):
    """Defect: a model trained on prepare(scale='zero-one') data was saved as trained on raw data;
    fdlab-cli eval then scored raw spambase with it (error 0.56 against 0.09 in Python)."""
    import pickle
    d = fdlab.prepare(bundled="spambase", scale="zero-one")
    (Xtr, ytr, itr), (Xte, yte, _) = d["train"], d["test"]
    assert itr["preprocessing"]["scaling"] == "zero-one"
    m = fdlab.train("svm", Xtr, ytr, info=itr)
    assert m.scaling == "zero-one" and not m.scales_input
    err = float(np.mean(m.predict(Xte) != yte))
    assert 0.05 < err < 0.15
    path = tmp_path / "m.json"
    m.save(path)
    assert json.loads(path.read_text())["input_scaled"] is True
    # Python: the same numbers on prepare()'s scaled X after save / load and pickling
    for again in (fdlab.load_model(path), pickle.loads(pickle.dumps(m))):
        assert again.scaling == "zero-one" and not again.scales_input
        np.testing.assert_array_equal(again.decision_function(Xte), m.decision_function(Xte))
    # the CLI reads the raw file and scales it with the recorded scaling: the same test error
    out = json.loads(subprocess.run([CLI, "eval", "--model", str(path), "--bundled", "spambase", "--format", "json"],
                                    capture_output=True, text=True, timeout=300).stdout)
    assert out["levels"][0]["error"] == pytest.approx(err, abs=1e-12)
    # unscaled data records nothing
    raw = fdlab.prepare(bundled="spambase")["train"]
    assert "preprocessing" not in raw[2]
    plain = fdlab.train("svm", raw[0], raw[1], info=raw[2])
    plain.save(tmp_path / "p.json")
    assert "input_scaled" not in json.loads((tmp_path / "p.json").read_text())
    # a factor beyond float's range became inf: the saved file could not be loaded again
    big = dict(itr, preprocessing=dict(itr["preprocessing"], factor=[1e39] + itr["preprocessing"]["factor"][1:]))
    with pytest.raises(Exception, match=r"info\['preprocessing'\].*factor\[0\].*beyond the range of a float"):
        fdlab.train("svm", Xtr, ytr, info=big)
    # a preprocessing of the wrong size is refused, naming where it came from
    bad = dict(itr, preprocessing=dict(itr["preprocessing"], offset=[0.0]))
    with pytest.raises(Exception, match=r"info\['preprocessing'\]"):
        fdlab.train("svm", Xtr, ytr, info=bad)


def test_saved_model_predicts_the_label_dtype_again(tmp_path, vote):
    """Defect: a saved model reloaded in Python predicted strings where the original predicted
    the labels' dtype."""
    X, y, _ = vote
    for labels in (np.where(y == "democrat", 3, 7), np.where(y == "democrat", True, False),
                   np.where(y == "democrat", 3.0, 7.0), np.where(y == "democrat", -1, 1).astype(np.int8)):
        for learner in ("svm", "tree"):
            m = fdlab.train(learner, X, labels)
            m.save(tmp_path / "m.json")
            back = fdlab.load_model(tmp_path / "m.json")
            assert back.predict(X).dtype == m.predict(X).dtype == labels.dtype
            np.testing.assert_array_equal(back.predict(X), m.predict(X))
            back.save(tmp_path / "again.json")   # and survives a second save
            assert fdlab.load_model(tmp_path / "again.json").predict(X).dtype == labels.dtype
    m = fdlab.train("svm", X, y)   # strings stay strings
    m.save(tmp_path / "s.json")
    assert fdlab.load_model(tmp_path / "s.json").predict(X).dtype.kind == "U"
    # Object labels that are real numbers (a pandas column of 0.5 / 1.25, numpy float32 among
    # them) loaded as the str '0.5': the reloaded model's accuracy against the same y was 0.
    for a, b in ((0.5, 1.25), (np.float32(0.1), 2), (1, 2.5)):
        labels = np.array([a if t == "democrat" else b for t in y], dtype=object)
        m = fdlab.train("svm", X, labels)
        m.save(tmp_path / "o.json")
        assert json.loads((tmp_path / "o.json").read_text())["label_dtype"] == "<f8"
        back = fdlab.load_model(tmp_path / "o.json")
        assert np.mean(back.predict(X) == labels) == np.mean(m.predict(X) == labels) > 0.9
    # infinities are real numbers too (int(inf) raised, and they loaded as the str 'inf')
    labels = np.array([np.inf if t == "democrat" else 0.5 for t in y], dtype=object)
    m = fdlab.train("svm", X, labels)
    m.save(tmp_path / "inf.json")
    back = fdlab.load_model(tmp_path / "inf.json")
    assert np.mean(back.predict(X) == labels) == np.mean(m.predict(X) == labels) > 0.9
    # the reloaded model predicts float64: its predictions are labels it takes back (a float
    # y of 0.5 was refused as "not whole"), while training on such a float array still is
    p = back.predict(X)
    assert p.dtype == np.float64
    assert (fdlab.attack(back, X, p, threat="worst-case-count", budget=0)["margins_before"] >= 0).all()
    assert fdlab.curve(back, X, p, threat="worst-case-count", levels=[0])["error"][0] == 0.0
    with pytest.raises(ValueError, match="whole numbers"):
        fdlab.train("svm", X, p)
    with pytest.raises(ValueError, match="whole numbers"):   # also with the classes named
        fdlab.train("svm", X, p, classes="0.5,inf")
    # classes named by value: 0.5 names the class of the label 0.5 (it was refused as "y: ...")
    labels = np.array([0.5 if t == "democrat" else 1.5 for t in y], dtype=object)
    assert fdlab.train("svm", X, labels, classes=[1.5, 0.5]).class_names == ["1.5", "0.5"]
    with pytest.raises(ValueError, match="^classes: NaN names no class$"):
        fdlab.train("svm", X, labels, classes=[0.5, float("nan")])
    with pytest.raises(ValueError, match="^classes: NaN names no class$"):   # numpy's float32 NaN too
        fdlab.train("svm", X, labels, classes=[0.5, np.float32("nan")])
    with pytest.raises(ValueError, match="^classes: class '1' is given twice$"):   # 1 and 1.0 name one class
        fdlab.train("svm", X, np.where(y == "democrat", 1, 2), classes=[1, 1.0])
    # a mix of numbers and strings stays str
    labels = np.array([0.5 if t == "democrat" else "x" for t in y], dtype=object)
    fdlab.train("svm", X, labels).save(tmp_path / "mix.json")
    assert "label_dtype" not in json.loads((tmp_path / "mix.json").read_text())


def test_export_curves_argument_errors_name_the_argument(tmp_path):
    """export_curves(5) read "5" as a file name (DataError); a malformed results dict showed
    nlohmann's "[json.exception.out_of_range.403] ..." tag."""
    out = tmp_path / "c.tex"
    with pytest.raises(TypeError, match=r"^results: expected the dict run\(\) returns or a results JSON file's path, got int$"):
        fdlab.export_curves(5, out)
    with pytest.raises(TypeError, match=r"^path: expected a path"):
        fdlab.export_curves({}, 7)
    for bad in ({"points": "x"}, {"spec": {"dataset": {"bundled": "heart_scale"}, "learners": [{"id": "A", "learner": "svm"}],
                                           "levels": [0]}, "points": [{"learner": "A", "learner_index": "zero"}]}):
        with pytest.raises(ValueError) as e:
            fdlab.export_curves(bad, out)
        assert "json.exception" not in str(e.value)
        assert str(e.value).startswith("results file: ")
    with pytest.raises(ValueError, match=r"^results file: points\[0\]: "):
        fdlab.export_curves(bad, out)
