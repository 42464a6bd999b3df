"""Tests of the fdlab Python module (issue 17), run by ctest `python_fdlab`.

The CLI is at $FDLAB_CLI (set by ctest); the numbers Python computes must equal what
fdlab-cli prints for the same data, model and attack.
"""
import json
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import fdlab

CLI = os.environ.get("FDLAB_CLI", "fdlab-cli")
TEST_DATA = os.environ.get("FDLAB_TEST_DATA", os.path.join(os.path.dirname(__file__), "../../../tests/data"))
DATA = ["--bundled", "mnist", "--positive", "3", "--negative", "5"]


def cli(*args, ok=True):
    r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def mnist35():
    """MNIST 3 vs 5 split exactly as the CLI's DATA-OPTIONS split it (test fraction 0.3, seed 1)."""
    return fdlab.prepare(bundled="mnist", positive="3", negative="5")


def test_docstrings_everywhere():
    for name in ["load", "bundled", "prepare", "train", "load_model", "attack", "curve", "run", "last_copy_info",
                 "learners", "datasets", "presets"]:
        assert len(getattr(fdlab, name).__doc__) > 80, name
    for name in ["decision_function", "predict", "save", "weights", "bias", "fit_info"]:
        assert getattr(fdlab.Model, name).__doc__, name


def test_bundled_dense_and_info():
    X, y, info = fdlab.bundled("mnist")
    assert X.dtype == np.float32 and X.flags["C_CONTIGUOUS"] and X.shape == (10000, 784)
    assert info["image_shape"] == (28, 28)
    assert info["class_names"] == [str(d) for d in range(10)]
    assert len(info["feature_names"]) == 784 and y.shape == (10000,)
    assert list(np.asarray(info["class_names"])[info["labels"][:20]]) == list(y[:20])


def test_numpy_and_sparse_inputs_give_the_same_model():
    X, y, info = fdlab.bundled("vote")
    dense = fdlab.train("fdrop", X, y, {"K": 2})
    for Xs in [sp.csr_matrix(X), sp.csr_matrix(X.astype(np.float64))]:
        sparse = fdlab.train("fdrop", Xs, y, {"K": 2})
        assert "CSR" in fdlab.last_copy_info()["what"]
        np.testing.assert_allclose(sparse.weights, dense.weights, rtol=0, atol=1e-9)
        assert abs(sparse.bias - dense.bias) <= 1e-9
    # float64 and Fortran order are converted first, with the same result
    fortran = fdlab.train("fdrop", np.asfortranarray(X.astype(np.float64)), y, {"K": 2})
    assert fdlab.last_copy_info()["copied"] and "converted" in fdlab.last_copy_info()["what"]
    np.testing.assert_allclose(fortran.weights, dense.weights, rtol=0, atol=1e-9)
    # scores from sparse and dense input agree
    np.testing.assert_allclose(dense.decision_function(sp.csr_matrix(X)), dense.decision_function(X), atol=1e-9)


def test_copy_report_for_c_contiguous_float32():
    X, y, _ = fdlab.bundled("vote")
    m = fdlab.train("svm", X, y)
    m.decision_function(np.ascontiguousarray(X, dtype=np.float32))
    assert fdlab.last_copy_info()["copied"] is False
    m.decision_function(X.astype(np.float64))
    assert fdlab.last_copy_info()["copied"] is True
    m.decision_function(sp.csr_matrix(X))
    assert fdlab.last_copy_info()["copied"] is False
    fdlab.train("svm", X, y)   # training always copies into the Dataset (it owns its storage)
    assert fdlab.last_copy_info()["copied"] is True


def test_train_and_eval_equal_the_cli(tmp_path, mnist35):
    Xtr, ytr, itr = mnist35["train"]
    Xte, yte, _ = mnist35["test"]
    cli_model = tmp_path / "cli.json"
    cli("train", *DATA, "--learner", "svm", "--params", '{"C": 1}', "--output", str(cli_model))
    m = fdlab.train("svm", Xtr, ytr, {"C": 1}, info=itr)
    loaded = fdlab.load_model(str(cli_model))
    assert loaded.class_names == m.class_names
    np.testing.assert_allclose(m.weights, loaded.weights, rtol=0, atol=1e-12)
    levels = [0, 5, 10, 20]
    out = json.loads(cli("eval", "--model", str(cli_model), *DATA, "--threat", "worst-case-count", "--levels",
                         ",".join(map(str, levels)), "--format", "json").stdout)
    for model in (m, loaded):
        c = fdlab.curve(model, Xte, yte, threat="worst-case-count", levels=levels)
        assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)
        assert [p["auc"] for p in out["levels"]] == pytest.approx(list(c["auc"]), abs=1e-12)
    # random deletion draws from the same seeded streams as the CLI's --attack-seed
    out = json.loads(cli("eval", "--model", str(cli_model), *DATA, "--threat", "random-deletion", "--levels", "0,50,100",
                         "--attack-seed", "7", "--format", "json").stdout)
    c = fdlab.curve(m, Xte, yte, threat="random-deletion", levels=[0, 50, 100], seed=7)
    assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)


def test_attack_equals_the_cli(tmp_path, mnist35):
    Xtr, ytr, itr = mnist35["train"]
    Xte, yte, _ = mnist35["test"]
    path = tmp_path / "m.json"
    m = fdlab.train("svm", Xtr, ytr, {"C": 1}, info=itr)
    m.save(str(path))
    a = fdlab.attack(m, Xte, yte, threat="worst-case-count", budget=10)
    rows = json.loads(cli("attack", "--model", str(path), *DATA, "--threat", "worst-case-count", "--budget", "10",
                          "--format", "json").stdout)["instances"]
    assert len(rows) == Xte.shape[0]
    for i, r in enumerate(rows):
        assert list(a["deleted"][i]) == r["deleted"]
        assert a["margins_before"][i] == pytest.approx(r["margin_before"], abs=1e-9)
        assert a["margins_after"][i] == pytest.approx(r["margin_after"], abs=1e-9)
    assert all(len(d) <= 10 for d in a["deleted"])
    att = a["attacked"]
    assert att.shape == Xte.shape
    for i in range(20):
        assert np.all(att[i, a["deleted"][i]] == 0)
    assert np.all(a["margins_after"] <= a["margins_before"] + 1e-12)


def test_model_round_trip_python_file_cli(tmp_path, mnist35):
    Xtr, ytr, itr = mnist35["train"]
    Xte, yte, _ = mnist35["test"]
    m = fdlab.train("fdrop", sp.csr_matrix(Xtr[:300]), ytr[:300], {"K": 5}, info=itr)
    assert m.fit_info["status"] in ("converged", "max-iterations") and m.fit_info["iterations"] > 0
    p1 = tmp_path / "py.json"
    m.save(str(p1))
    out = json.loads(cli("eval", "--model", str(p1), *DATA, "--threat", "worst-case-count", "--levels", "0,10",
                         "--format", "json").stdout)
    c = fdlab.curve(m, Xte, yte, threat="worst-case-count", levels=[0, 10])
    assert [p["error"] for p in out["levels"]] == pytest.approx(list(c["error"]), abs=1e-12)
    back = fdlab.load_model(str(p1))
    assert np.array_equal(back.weights, m.weights) and back.bias == m.bias and back.learner == "fdrop"
    p2 = tmp_path / "again.json"
    back.save(str(p2))
    assert np.array_equal(fdlab.load_model(str(p2)).decision_function(Xte), m.decision_function(Xte))


def test_nonlinear_model_round_trip(tmp_path):
    X, y, _ = fdlab.bundled("vote")
    m = fdlab.train("tree", X, y)
    assert m.weights is None and m.bias is None and not m.linear
    path = tmp_path / "tree.json"
    m.save(str(path))
    back = fdlab.load_model(str(path))
    assert np.array_equal(back.decision_function(X), m.decision_function(X))
    assert list(back.predict(X)) == list(m.predict(X))


@pytest.mark.parametrize("params", [{"KK": 1}, {"K": -1}])
def test_bad_params_raise_value_error_with_the_cli_message(tmp_path, params):
    X, y, _ = fdlab.bundled("vote")
    r = cli("train", "--bundled", "vote", "--learner", "fdrop", "--params", json.dumps(params), "--output",
            str(tmp_path / "x.json"), ok=False)
    assert r.returncode == 3
    message = r.stderr.strip().removeprefix("fdlab-cli: ")
    with pytest.raises(ValueError) as e:
        fdlab.train("fdrop", X, y, params)
    assert str(e.value) == message


def test_unknown_learner_and_threat_raise_value_error():
    X, y, _ = fdlab.bundled("vote")
    with pytest.raises(ValueError, match="no-such"):
        fdlab.train("no-such", X, y)
    m = fdlab.train("svm", X, y)
    with pytest.raises(ValueError):
        fdlab.curve(m, X, y, threat="no-such-threat", levels=[0])
    with pytest.raises(ValueError):
        fdlab.attack(m, X[:, :3], y, threat="none")


@pytest.mark.parametrize("name", ["csv_ragged_row.csv", "csv_nan.csv", "libsvm_bad_token.libsvm",
                                  "arff_unknown_type.arff", "idx_wrong_magic-images-idx3-ubyte"])
def test_malformed_files_raise_data_error(name):
    path = os.path.join(TEST_DATA, "malformed", name)
    r = cli("info", path, ok=False)
    assert r.returncode == 3
    with pytest.raises(fdlab.DataError) as e:
        fdlab.load(path)
    assert str(e.value).startswith(path)
    assert e.value.file == path
    assert str(e.value) in r.stderr


def test_malformed_model_file_raises_data_error(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"format": "fdlab-linear-model", ')
    with pytest.raises(fdlab.DataError) as e:
        fdlab.load_model(str(p))
    assert str(p) in str(e.value)


def test_string_labels():
    X, y, info = fdlab.bundled("vote")
    ints = np.array([info["class_names"].index(v) for v in y])
    names = np.where(ints == 1, "yes", "no")
    a = fdlab.train("svm", X, names)
    b = fdlab.train("svm", X, ints)
    assert a.class_names == ["no", "yes"] and b.class_names == ["0", "1"]
    np.testing.assert_array_equal(a.weights, b.weights)
    assert set(a.predict(X)) <= {"no", "yes"}
    # object arrays and numeric class names sort numerically, as the loaders do
    m = fdlab.train("svm", X, np.array([["10", "9"][i] for i in ints], dtype=object))
    assert m.class_names == ["9", "10"]
    with pytest.raises(ValueError, match="not one of the classes"):
        fdlab.curve(a, X, np.where(ints == 1, "yes", "maybe"), levels=[0])


def test_load_options_and_sparse_output():
    X, y, info = fdlab.load(os.path.join(TEST_DATA, "tiny.libsvm"), storage="sparse")
    assert sp.isspmatrix_csr(X) and info["sparse"]
    Xd, yd, _ = fdlab.load(os.path.join(TEST_DATA, "tiny.libsvm"), storage="dense")
    np.testing.assert_array_equal(X.toarray(), Xd)
    assert list(y) == list(yd)
    with pytest.raises(ValueError, match="unknown option"):
        fdlab.load(os.path.join(TEST_DATA, "tiny.libsvm"), no_such_option=1)


def test_run_preset_returns_the_results_json():
    seen = []
    r = fdlab.run("dekel-shamir-label-copy", threads=2, on_point=seen.append)
    assert r["status"] == "converged"
    assert len(seen) > 0 and len(r["points"]) == len(seen)
    assert {"learner", "level", "error"} <= set(seen[0])


def test_ctrl_c_cancels_run():
    import signal
    import sys
    import time
    code = ("import fdlab\ntry:\n    fdlab.run('globerson-toy', threads=1)\n    print('finished')\n"
            "except KeyboardInterrupt as e:\n    print('cancelled', e)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    start = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert out.startswith("cancelled"), out + err
    assert time.time() - start < 10


def test_curve_repetitions_average_seeded_draws(mnist35):
    Xtr, ytr, itr = mnist35["train"]
    Xte, yte, _ = mnist35["test"]
    m = fdlab.train("svm", Xtr, ytr, {"C": 1}, info=itr)
    levels = [0, 50, 100]
    c = fdlab.curve(m, Xte, yte, threat="random-deletion", levels=levels, seed=7, repetitions=3)
    singles = [fdlab.curve(m, Xte, yte, threat="random-deletion", levels=levels, seed=s)["error"] for s in (7, 8, 9)]
    np.testing.assert_allclose(c["error_runs"], np.array(singles), rtol=0, atol=1e-15)
    np.testing.assert_allclose(c["error"], np.mean(singles, axis=0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(c["error_se"], np.std(singles, axis=0, ddof=1) / np.sqrt(3), rtol=1e-12, atol=1e-15)
    assert c["error_se"][0] == 0 and c["error_se"][2] > 0   # nothing deleted at level 0
    # a deterministic threat gives the same curve every time
    w = fdlab.curve(m, Xte, yte, threat="worst-case-count", levels=[0, 10], repetitions=2)
    assert list(w["error_se"]) == [0.0, 0.0]
    with pytest.raises(ValueError, match="repetitions must be >= 1"):
        fdlab.curve(m, Xte, yte, levels=[0], repetitions=0)


def test_run_returns_numpy_curves():
    r = fdlab.run("dekel-shamir-label-copy", threads=2)
    for learner in ("SVM", "LP (N=20)"):
        c = r["arrays"][learner]
        assert isinstance(c["error"], np.ndarray) and list(c["levels"]) == [0, 1, 2]
        mine = [s for s in r["curves"] if s["learner"] == learner]
        assert list(c["error"]) == pytest.approx([s["mean_error"] for s in mine], abs=1e-15)
        assert list(c["error_se"]) == pytest.approx([s["se_error"] for s in mine], abs=1e-15)


def test_threat_params_reach_every_threat_parameter(mnist35):
    Xtr, ytr, itr = mnist35["train"]
    Xte, yte, _ = mnist35["test"]
    threats = {t["name"]: t for t in fdlab.threats()}
    assert threats["greedy-deletion"]["params"]["stop_when_wrong"]["default"] is True
    assert set(threats["group-corruption"]["params"]) == {"groups", "regions"}
    assert threats["worst-case-count"]["exact"] and threats["worst-case-count"]["needs_linear_model"]
    m = fdlab.train("svm", Xtr, ytr, {"C": 1}, info=itr)
    X, y = Xte[:40], yte[:40]
    # threat_params is the same as the shorthand keyword
    a = fdlab.curve(m, X, y, threat="fixed-deletion", levels=[0, 1, 2], features=[300, 400])
    b = fdlab.curve(m, X, y, threat="fixed-deletion", levels=[0, 1, 2], threat_params={"features": [300, 400]})
    assert list(a["error"]) == list(b["error"])
    # a parameter with no keyword of its own: the greedy adversary that does not stop when wrong
    # deletes exactly K features of every row; the default one stops at the first misclassification
    full = fdlab.attack(m, X, y, threat="greedy-deletion", budget=6, threat_params={"stop_when_wrong": False})
    stop = fdlab.attack(m, X, y, threat="greedy-deletion", budget=6)
    assert all(len(d) == 6 for d in full["deleted"])
    assert sum(len(d) for d in stop["deleted"]) < 6 * len(X)
    for i in range(len(X)):   # the stopping adversary's picks are the first of the other's
        assert set(stop["deleted"][i]) <= set(full["deleted"][i])
    with pytest.raises(ValueError, match="stop_when_wrong"):
        fdlab.attack(m, X, y, threat="greedy-deletion", budget=2, threat_params={"stop_when_wrnog": False})
    with pytest.raises(ValueError, match="both as a keyword and in threat_params"):
        fdlab.curve(m, X, y, threat="fixed-deletion", features=[1], threat_params={"features": [2]})
