# An independent re-implementation of the dekel-shamir-mnist-1-7 protocol, for checking FDLab's
# numbers (not a ctest: it needs scipy >= 1.6 for HiGHS and scikit-learn, and takes ~9 minutes on
# two cores). LP (4) of Dekel & Shamir with the zero pixels folded into one term per digit (spec
# ALGORITHMS.md, "Measured"), solved by scipy's HiGHS dual simplex (a vertex, as the paper's GLPK
# simplex gives); the SVM is scikit-learn's LinearSVC (hinge loss, regularised intercept, as
# liblinear -s 3 -B 1). 50 training + 100 validation digits per class from the 60,000, every test
# 1 and 7, N non-zero pixels deleted at random, N/gamma (LP) and C (SVM) chosen per level on the
# validation digits deleted the same way. Random draws are numpy's, not FDLab's.
# usage: /usr/bin/python3 dekel_shamir_mnist_highs.py ['{"reps": 5, "verbose": 1}']
import gzip, json, os, sys, time
import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix
from sklearn.svm import LinearSVC

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'datasets', 'mnist-full') + '/'
def idx(path, img):
    with gzip.open(D + path) as f: b = f.read()
    if img: return np.frombuffer(b, np.uint8, offset=16).reshape(-1, 784).astype(float) / 255.0
    return np.frombuffer(b, np.uint8, offset=8).astype(int)
Xtr, ytr = idx('train-images-idx3-ubyte.gz', 1), idx('train-labels-idx1-ubyte.gz', 0)
Xte, yte = idx('t10k-images-idx3-ubyte.gz', 1), idx('t10k-labels-idx1-ubyte.gz', 0)
pos, neg = 1, 7
sel = (yte == pos) | (yte == neg); XT, YT = Xte[sel], np.where(yte[sel] == pos, 1, -1)

def lp4(X, y, N, gamma, C=1.0, method='highs-ds', boxbias=False):
    m, n = X.shape; V = float(n); P = V - N
    nzs = [np.nonzero(X[i])[0] for i in range(m)]
    na = sum(len(z) for z in nzs)
    # vars: w(n), b, xi(m), lam(m), alpha(na)
    nv = n + 1 + 2 * m + na
    c = np.zeros(nv); c[n + 1:n + 1 + m] = 1.0 / m
    rows, cols, vals, rhs = [], [], [], []
    r = 0; a0 = n + 1 + 2 * m; a = a0
    for i in range(m):
        Z = n - len(nzs[i])
        # -( (P-Z) lam - sum alpha + y b + xi ) <= -gamma Z/P
        rows += [r, r, r]; cols += [n + 1 + m + i, n, n + 1 + i]; vals += [-(P - Z), -y[i], -1.0]
        for k, j in enumerate(nzs[i]): rows.append(r); cols.append(a + k); vals.append(1.0)
        rhs.append(-gamma * Z / P); r += 1
        for k, j in enumerate(nzs[i]):
            # y x w - lam + alpha >= gamma/P  ->  -y x w + lam - alpha <= -gamma/P
            rows += [r, r, r]; cols += [j, n + 1 + m + i, a + k]; vals += [-y[i] * X[i, j], 1.0, -1.0]
            rhs.append(-gamma / P); r += 1
        a += len(nzs[i])
    A = coo_matrix((vals, (rows, cols)), shape=(r, nv)).tocsr()
    bounds = [(-C, C)] * n + [((-C, C) if boxbias else (None, None))] + [(0, None)] * (2 * m + na)
    res = linprog(c, A_ub=A, b_ub=np.array(rhs), bounds=bounds, method=method)
    assert res.status == 0, res.message
    return res.x[:n], res.x[n], res.fun

def delete(X, K, rng):
    X = X.copy()
    for i in range(X.shape[0]):
        nz = np.nonzero(X[i])[0]
        if K > 0: X[i, rng.permutation(nz)[:K]] = 0.0
    return X

def err(w, b, X, Y, ties):   # ties: 'error' (margin<=0 wrong) or 'neg' (f==0 -> negative class)
    f = X @ w + b
    if ties == 'error': return float(np.mean(Y * f <= 0))
    return float(np.mean(np.where(f > 0, 1, -1) != Y))

if __name__ == '__main__':
    cfg = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    reps = cfg.get('reps', 5); levels = cfg.get('levels', [0, 75, 100, 150])
    method = cfg.get('method', 'highs-ds'); ties = cfg.get('ties', 'error')
    Ngrid = cfg.get('N', [0, 10, 25, 50, 75, 100, 150]); ggrid = cfg.get('gamma', [0.1, 1, 10, 100])
    Cgrid = cfg.get('svmC', [0.001, 0.01, 0.1, 1, 10]); scale = cfg.get('scale', 1.0)
    out = {k: {l: [] for l in levels} for k in ['SVM', 'SVM-clean-tuned', 'SVM-0..255', 'LP', 'LP0']}
    t0 = time.time()
    for rep in range(reps):
        rng = np.random.default_rng(100 + rep)
        ip = rng.permutation(np.nonzero(ytr == pos)[0])[:150]; ineg = rng.permutation(np.nonzero(ytr == neg)[0])[:150]
        tr = np.r_[ip[:50], ineg[:50]]; va = np.r_[ip[50:], ineg[50:]]
        X, Y = Xtr[tr] * scale, np.where(ytr[tr] == pos, 1, -1)
        XV, YV = Xtr[va] * scale, np.where(ytr[va] == pos, 1, -1)
        XTs = XT * scale
        vdel = {l: delete(XV, l, np.random.default_rng(7 + rep)) for l in levels}
        tdel = {l: delete(XTs, l, np.random.default_rng(9 + rep)) for l in levels}
        models = {'SVM': [], 'SVM-0..255': [], 'LP': [], 'LP0': []}
        for C in Cgrid:
            s = LinearSVC(C=C, loss='hinge', max_iter=100000).fit(X, Y)
            models['SVM'].append((s.coef_[0], s.intercept_[0], {'C': C}))
            s = LinearSVC(C=C, loss='hinge', max_iter=100000).fit(X * 255, Y)   # raw 0..255 pixels
            models['SVM-0..255'].append((s.coef_[0] * 255, s.intercept_[0], {'C': C}))
        # C chosen once, on the clean validation digits, then used at every level
        c0 = int(np.argmin([err(w, b, XV, YV, ties) for w, b, _ in models['SVM']]))
        for l in levels: out['SVM-clean-tuned'][l].append(err(*models['SVM'][c0][:2], tdel[l], YT, ties))
        for N in Ngrid:
            for g in ggrid:
                w, b, f = lp4(X, Y, N, g, method=method)
                models['LP'].append((w, b, {'N': N, 'gamma': g, 'obj': round(f, 4)}))
                if N == 0: models['LP0'].append(models['LP'][-1])
        for k, ms in models.items():
            for l in levels:
                ve = [err(w, b, vdel[l], YV, ties) for w, b, _ in ms]
                c = int(np.argmin(ve)); w, b, p = ms[c]
                out[k][l].append(err(w, b, tdel[l], YT, ties))
                if cfg.get('verbose'): print(rep, k, l, p, 'val', ve[c], 'test', out[k][l][-1], 'b', round(b, 3), 'max|w|', round(np.abs(w).max(), 3), flush=True)
    for k in out: print(k, ' '.join(f'{l}:{np.mean(v):.3f}' for l, v in out[k].items()))
    print('seconds', round(time.time() - t0, 1))
