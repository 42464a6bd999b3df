#!/usr/bin/env python3
"""scikit-learn's LinearSVC and FDLab's FDROP under FDLab's exact worst-case attack, on the spam pair.

Fits sklearn.svm.LinearSVC and fdlab.sklearn.FDROPClassifier (K = 10) on the bundled SpamAssassin
training file (4,232 messages x 24,677 words, sparse), puts both under the exact worst-case
adversary that deletes up to K words of each spam message (fdlab.curve, attacked_classes=["spam"]),
and draws both error curves on the 1,814 test messages with matplotlib: the LinearSVC is
fdlab.from_sklearn(svc), the same weights as a model file fdlab-cli eval reads (fdlab.curve also
takes the estimators themselves, as for FDROP here).

    PYTHONPATH=build/python python3 app/python/examples/spam_curves.py [out.png]

Without matplotlib it prints the numbers and exits normally.
"""
import sys

from sklearn.svm import LinearSVC

import fdlab
from fdlab.sklearn import FDROPClassifier

LEVELS = [0, 1, 2, 3, 5, 7, 10, 15, 20]
out = sys.argv[1] if len(sys.argv) > 1 else "spam_curves.png"

X, y, info = fdlab.bundled("spamassassin")
Xte, yte, _ = fdlab.bundled("spamassassin-test")

svc = LinearSVC(C=1.0, dual=True, max_iter=20000).fit(X, y)
fdrop = FDROPClassifier(K=10, C=1.0).fit(X, y)
curves = {
    "scikit-learn LinearSVC (C = 1)": fdlab.curve(fdlab.from_sklearn(svc), Xte, yte, threat="worst-case-count",
                                                  levels=LEVELS, attacked_classes=["spam"]),
    "FDLab FDROP (K = 10, C = 1)": fdlab.curve(fdrop, Xte, yte, threat="worst-case-count", levels=LEVELS,
                                               attacked_classes=["spam"]),
}
for name, c in curves.items():
    print(f"{name}: error on spam " + " ".join(f"{e:.3f}" for e in c["error_attacked"]) +
          " | overall " + " ".join(f"{e:.3f}" for e in c["error"]))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    print("matplotlib is not installed: no figure")
    sys.exit(0)

fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
for (name, c), marker in zip(curves.items(), ["o", "s"]):
    ax.plot(c["levels"], c["error_attacked"], marker=marker, label=name)
ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
ax.set_xlabel("words deleted per spam message by the worst-case adversary (K)")
ax.set_ylabel("error on spam (test file, 569 messages)")
ax.set_title("SpamAssassin: exact worst-case word deletion")
ax.set_ylim(0, 1)
ax.grid(alpha=0.3)
ax.legend(loc="upper left")
fig.tight_layout()
fig.savefig(out)
print("wrote", out)
