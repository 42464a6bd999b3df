#!/usr/bin/env python3
"""Hand-run peer for the Dekel-Shamir LP (4): the same LP, in the form dekel_shamir_ipm.h solves
(sum of the top N, non-zero x_ij only, b free, -C <= w <= C), handed to HiGHS through SciPy
(scipy.optimize.linprog, method 'highs-ipm' = IPX, or 'highs-ds' = dual simplex), to compare
iteration counts and the optimum with FDLab's structured interior point on the same data.

    bench_dekel_shamir --spam --data spamassassin-common --every 4 --dump /tmp/ds.txt
    python3 tests/bench/ds_lp_highs.py /tmp/ds.txt [--N 20] [--gamma 0.1] [--C 1]
                                       [--method highs-ipm] [--time-limit 300]

Prints the LP value (divided by m, as FDLab reports it) and HiGHS's iteration count; with
--verbose, HiGHS's own per-iteration log. Needs SciPy >= 1.6 (not a build dependency)."""

import argparse
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog


def read_dump(path):
    with open(path) as f:
        m, n = map(int, f.readline().split())
        v = np.array(f.readline().split(), dtype=float)
        if v.size != n:
            sys.exit(f"{path}: line 2 has {v.size} word values for {n} words")
        y, rows, cols, vals = [], [], [], []
        for i in range(m):
            tok = f.readline().split()
            if not tok:
                sys.exit(f"{path}: line {i + 3}: missing message")
            y.append(float(tok[0]))
            for t in tok[1:]:
                j, x = t.split(":")
                rows.append(i)
                cols.append(int(j))
                vals.append(float(x))
    return m, n, v, np.array(y), np.array(rows, dtype=int), np.array(cols, dtype=int), np.array(vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump")
    ap.add_argument("--N", type=float, default=20.0)
    ap.add_argument("--gamma", type=float, default=0.1)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--method", default="highs-ipm")
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    m, n, v, y, rows, cols, vals = read_dump(a.dump)
    nnz = vals.size
    P = v.sum() - a.N
    # Variables: w (n), b, xi (m), lambda (m), beta (one per non-zero).
    W, B, XI, LAM, BETA = 0, n, n + 1, n + 1 + m, n + 1 + 2 * m
    nv = BETA + nnz
    k, i_m = np.arange(nnz), np.arange(m)
    # R_i:  y (b + x_i w) - N lambda_i - sum_j beta_ij + xi_i >= gamma V / P, negated to <=.
    AR = sp.csr_matrix((np.concatenate([-y[rows] * vals, -y, np.full(m, a.N), np.ones(nnz), -np.ones(m)]),
                        (np.concatenate([rows, i_m, i_m, rows, i_m]),
                         np.concatenate([W + cols, np.full(m, B), LAM + i_m, BETA + k, XI + i_m]))), shape=(m, nv))
    # R_ij: beta_ij + v_j lambda_i - y_i x_ij w_j >= -gamma v_j / P, negated to <=.
    AH = sp.csr_matrix((np.concatenate([-np.ones(nnz), -v[cols], y[rows] * vals]),
                        (np.concatenate([k, k, k]), np.concatenate([BETA + k, LAM + rows, W + cols]))), shape=(nnz, nv))
    A = sp.vstack([AR, AH]).tocsr()
    rhs = np.concatenate([np.full(m, -a.gamma * v.sum() / P), a.gamma * v[cols] / P])
    cost = np.zeros(nv)
    cost[XI:XI + m] = 1.0 / m
    bounds = [(-a.C, a.C)] * n + [(None, None)] + [(0, None)] * (2 * m + nnz)
    print(f"LP (4): {m} messages, {n} words, {nnz} non-zeros; {nv} variables, {A.shape[0]} rows", flush=True)
    t = time.time()
    r = linprog(cost, A_ub=A, b_ub=rhs, bounds=bounds, method=a.method,
                options={"disp": a.verbose, "time_limit": a.time_limit})
    print(f"{a.method}: status {r.status} ({r.message}), LP value {r.fun if r.fun is not None else float('nan'):.9f}, "
          f"{r.nit} iterations, {time.time() - t:.1f} s")
    return 0 if r.status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
