"""fdlab.export_curves (issue 27): the pgfplots figure, the booktabs table and the CSV a run's
results give, with the provenance header, equal to what fdlab-cli run --tex/--table/--csv writes
from the same results file; NumPy data written by numpy loads with fdlab.load."""
import os
import subprocess

import numpy as np

import fdlab

CLI = os.environ.get("FDLAB_CLI", "fdlab-cli")


def test_export_curves_matches_the_cli(tmp_path):
    r = fdlab.run("globerson-toy", threads=1, repetitions=1)
    fdlab.export_curves(r, tmp_path / "fig.tex")
    fdlab.export_curves(r, str(tmp_path / "table.tex"), table=True)
    fdlab.export_curves(r, tmp_path / "curves.csv")
    fig = (tmp_path / "fig.tex").read_text()
    table = (tmp_path / "table.tex").read_text()
    assert fig.startswith("% fdlab: ")
    assert "% data_fingerprint: " in fig and "% cpu: " in fig and '% spec: {"' in fig
    assert "\\begin{axis}" in fig and fig.count("\\addplot") >= 1
    assert "\\toprule" in table and "\\pm" in table
    # Each summary mean appears in the table, rounded to 3 places.
    for c in r["curves"]:
        if c["mean_error"] is not None:
            assert f"${c['mean_error']:.3f}" in table
    # From the results file the CLI writes: the same figure as the CLI's --tex of that run.
    subprocess.run([CLI, "run", "globerson-toy", "--repetitions", "1", "--threads", "1", "--quiet",
                    "--output", str(tmp_path / "r.json"), "--tex", str(tmp_path / "cli.tex")],
                   check=True, capture_output=True, timeout=300)
    fdlab.export_curves(tmp_path / "r.json", tmp_path / "from_file.tex")
    assert (tmp_path / "from_file.tex").read_text() == (tmp_path / "cli.tex").read_text()
    lines = (tmp_path / "curves.csv").read_text().splitlines()
    assert lines[0].startswith("# fdlab: ")
    assert next(l for l in lines if not l.startswith("#")).startswith("learner,level,repetitions")


def test_load_npy_and_npz(tmp_path):
    X = np.array([[0.0, 1.5], [2.0, 0.0], [0.0, 3.0]])
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", np.array([1, 0, 1]))
    np.savez(tmp_path / "d.npz", X=X, y=np.array(["b", "a", "b"]))
    for name in ["X.npy", "d.npz"]:
        Xl, y, info = fdlab.load(str(tmp_path / name))
        Xd = Xl.toarray() if hasattr(Xl, "toarray") else np.asarray(Xl)
        assert np.array_equal(Xd, X.astype(np.float32))
        assert list(np.unique(y, return_inverse=True)[1]) == [1, 0, 1]   # the labels as load() returns them (names or values)
