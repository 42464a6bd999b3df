#!/usr/bin/env python3
"""MNIST deletion heatmap from Python: which pixels the worst-case adversary deletes.

Trains a linear SVM and FDROP (K = 25) on MNIST 3 vs 5 (the CLI's split: test fraction 0.3,
seed 1), deletes the K = 25 most damaging pixels of every test digit, and draws
(a) how often each pixel was deleted over the test set and (b) a few digits with their deleted
pixels in red -- the GUI's Heatmaps tab and `fdlab-cli attack --png` as a matplotlib figure.

    PYTHONPATH=build/python python3 app/python/examples/mnist_heatmap.py [out.png]

Without matplotlib it prints the numbers and exits normally.
"""
import sys

import numpy as np

import fdlab

K = 25
data = fdlab.prepare(bundled="mnist", positive="3", negative="5")
Xtr, ytr, itr = data["train"]
Xte, yte, ite = data["test"]
rows, cols = itr["image_shape"]

results = {}
for name, params in [("svm", {"C": 1}), ("fdrop", {"K": K})]:
    model = fdlab.train(name, Xtr, ytr, params, info=itr)
    a = fdlab.attack(model, Xte, yte, threat="worst-case-count", budget=K)
    counts = np.zeros(rows * cols)
    for d in a["deleted"]:
        counts[d] += 1
    err = fdlab.curve(model, Xte, yte, threat="worst-case-count", levels=[0, K])["error"]
    print(f"{name}: clean error {err[0]:.4f}, error after {K} deletions {err[1]:.4f} "
          f"({model.fit_info['elapsed']:.2f} s to train)")
    results[name] = (model, a, counts / len(a["deleted"]))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no figure (apt-get install python3-matplotlib)")
    sys.exit(0)

show = 5
fig, axes = plt.subplots(len(results), show + 1, figsize=(2 * (show + 1), 2.2 * len(results)))
for r, (name, (model, a, share)) in enumerate(results.items()):
    im = axes[r, 0].imshow(share.reshape(rows, cols), cmap="hot")
    axes[r, 0].set_title(f"{name}: share deleted")
    fig.colorbar(im, ax=axes[r, 0], fraction=0.046)
    for i in range(show):
        rgb = np.repeat(Xte[i].reshape(rows, cols, 1), 3, axis=2)
        for j in a["deleted"][i]:
            rgb[j // cols, j % cols] = (1, 0, 0)
        axes[r, i + 1].imshow(rgb)
        axes[r, i + 1].set_title(f"{yte[i]}: {a['margins_before'][i]:.2f} -> {a['margins_after'][i]:.2f}", fontsize=8)
for ax in axes.flat:
    ax.axis("off")
out = sys.argv[1] if len(sys.argv) > 1 else "mnist_heatmap.png"
fig.tight_layout()
fig.savefig(out, dpi=100)
print("wrote", out)
