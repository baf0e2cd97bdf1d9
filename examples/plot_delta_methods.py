"""
The five δ methods side by side
================================

The same depth-3 CART structure on two moons, with the zone half-width δ computed by each
of the five methods of Smits (2026, §3.3). The hatched region is boundary-uncertain; the
title gives the share of rows flagged and the decided accuracy on held-out rows.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split

from ternary import TernaryTreeClassifier, rezone
from ternary.data import make_moons_dataset
from ternary.metrics import decided_accuracy, uncertain_rate

ds = make_moons_dataset(n_samples=400, noise=0.3, random_state=0)
X, y = ds.X.to_numpy(), ds.y
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)

methods = ["margin", "quality_plateau", "class_overlap", "gain_ratio", "node_bootstrap"]
xx, yy = np.meshgrid(
    np.linspace(X[:, 0].min() - 0.3, X[:, 0].max() + 0.3, 200),
    np.linspace(X[:, 1].min() - 0.3, X[:, 1].max() + 0.3, 200),
)
grid = np.c_[xx.ravel(), yy.ravel()]

fig, axes = plt.subplots(1, 5, figsize=(17, 3.8), sharey=True)
for ax, method in zip(axes, methods, strict=True):
    clf = TernaryTreeClassifier(delta_method=method, max_depth=3, random_state=0)
    clf.fit(X_train, y_train)
    ax.contourf(
        xx,
        yy,
        clf.predict(grid).reshape(xx.shape),
        levels=[-0.5, 0.5, 1.5],
        colors=["#9ecae1", "#fcbba1"],
    )
    undecided = (clf.predict_verdict(grid) == 0).reshape(xx.shape).astype(float)
    ax.contourf(xx, yy, undecided, levels=[0.5, 1.5], colors="none", hatches=["///"])
    ax.scatter(X_test[:, 0], X_test[:, 1], c=np.where(y_test == 0, "#3182bd", "#de2d26"), s=6, lw=0)
    verdict = clf.predict_verdict(X_test)
    accuracy = decided_accuracy(y_test, clf.predict(X_test), verdict)
    ax.set_title(
        f"{method}\n{uncertain_rate(verdict):.0%} flagged, dec. acc. {accuracy:.3f}", fontsize=9
    )
fig.tight_layout()
plt.show()

# %%
# The δ at each split
# -------------------
# ``tree_.delta`` holds every node's half-width (0 at the leaves). The methods share the
# tree: only δ differs, so `ternary.rezone` can recompute the zones of one fitted tree.
base = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0)
base.fit(X_train, y_train)
splits = base.tree_.children_left >= 0
for method in methods:
    zoned = rezone(base, X_train, y_train, delta_method=method)
    print(f"{method:>16}: {np.round(zoned.tree_.delta[splits], 3)}")
