#!/usr/bin/env python3
"""Benchmark (run by hand): the Python module's calling overhead against fdlab-cli, same run.

1. fdlab.curve on all 10,000 bundled MNIST digits (ten-class linear SVM, random deletion at 7 levels)
   against the compute time `fdlab-cli eval --format json` reports for the same model, data and curve
   (its "seconds": evaluateAtLevels alone). Python's time is the whole call: copying X into FDLab's
   storage, the curve, and the numpy results. Issue target: within 1.2x.
2. FDROP (K = 25) on MNIST 3 vs 5 from Python against the fit time `fdlab-cli train` reports for the
   same learner, data and split. Target: within 1.2x.
Best of 3 for each. Usage (from the repository root, after the build):
    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_python.py [build/app/fdlab-cli]
"""
import json
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import fdlab

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/app/fdlab-cli"
LEVELS = [0, 25, 50, 75, 100, 125, 150]


def cli(*args):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout


def best(f, n=3):
    return min(f() for _ in range(n))


def main():
    tmp = tempfile.mkdtemp()
    # 1. curve on 10,000 digits
    model = f"{tmp}/svm10.json"
    cli("train", "--bundled", "mnist", "--learner", "svm", "--output", model)
    X, y, _info = fdlab.bundled("mnist")
    m = fdlab.load_model(model)
    levels = ",".join(map(str, LEVELS))

    def cli_curve():
        out = json.loads(cli("eval", "--model", model, "--bundled", "mnist", "--test-data", "mnist", "--threat",
                             "random-deletion", "--levels", levels, "--format", "json"))
        assert out["instances"] == 10000
        cli_curve.errors = [p["error"] for p in out["levels"]]
        return out["seconds"]

    def py_curve():
        t0 = time.perf_counter()
        c = fdlab.curve(m, X, y, threat="random-deletion", levels=LEVELS, seed=1)
        py_curve.errors = list(c["error"])
        return time.perf_counter() - t0

    tc, tp = best(cli_curve), best(py_curve)
    assert np.allclose(cli_curve.errors, py_curve.errors, atol=1e-12), (cli_curve.errors, py_curve.errors)
    print(f"curve, 10,000 digits x {len(LEVELS)} levels: fdlab-cli eval compute {tc:.3f} s, fdlab.curve {tp:.3f} s: "
          f"{tp / tc:.2f}x (same errors)")

    # 2. FDROP K = 25 on MNIST 3 vs 5, same split as the CLI's
    data = ["--bundled", "mnist", "--positive", "3", "--negative", "5"]

    def cli_fdrop():
        out = cli("train", *data, "--learner", "fdrop", "--params", '{"K": 25}', "--output", f"{tmp}/fd.json")
        return float(re.search(r"objective [^,]+, (?:\d+ iterations, )?([0-9.]+) s", out).group(1))

    Xtr, ytr, itr = fdlab.prepare(bundled="mnist", positive="3", negative="5")["train"]

    def py_fdrop():
        t0 = time.perf_counter()
        fdlab.train("fdrop", Xtr, ytr, {"K": 25}, info=itr)
        return time.perf_counter() - t0

    tc, tp = best(cli_fdrop), best(py_fdrop)
    print(f"FDROP K=25, MNIST 3 vs 5 training part: fdlab-cli train fit {tc:.3f} s, fdlab.train {tp:.3f} s: {tp / tc:.2f}x")


if __name__ == "__main__":
    main()
