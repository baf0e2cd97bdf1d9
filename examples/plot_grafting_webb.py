"""
Grafting on Webb's worked example
==================================

Section 3 of Webb (1997) grows C4.5's tree on 30 examples of three classes over two
attributes A and B, then grafts two new leaves, at ``A <= 5`` and ``B <= 3``, where evidence
from the ancestors says the tree labels a region wrongly. The built-in ``"webb example"``
dataset reconstructs those 30 examples from the counts the text gives.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from ternary import TernaryTreeClassifier, export_text
from ternary.data import load_builtin

ds = load_builtin("webb example")
X, y = ds.X.to_numpy(), np.asarray(ds.y)
plain = TernaryTreeClassifier(delta_method="none", max_depth=3, random_state=0).fit(X, y)
grafted = TernaryTreeClassifier(delta_method="none", max_depth=3, graft="all", random_state=0).fit(
    X, y
)
print(export_text(grafted, feature_names=["A", "B"]))

# %%
# The graft report: one row per graft, with the Laplace accuracies and the binomial p.
print(
    grafted.graft_report_[
        ["feature_name", "cut", "side", "class_label", "laplace_cut", "laplace_leaf", "p_value"]
    ].to_string(index=False)
)

# %%
# Where the grafts change the label
# ---------------------------------
xx, yy = np.meshgrid(np.linspace(0.5, 10.5, 301), np.linspace(0.5, 10.5, 301))
grid = np.c_[xx.ravel(), yy.ravel()]
labels = {c: i for i, c in enumerate(grafted.classes_)}
markers = {"circle": "o", "dot": ".", "star": "*"}
fig, axes = plt.subplots(1, 2, figsize=(10, 4.5), sharey=True)
for ax, model, title in [(axes[0], plain, "C4.5-style tree"), (axes[1], grafted, "+ grafting")]:
    codes = np.vectorize(labels.get)(model.predict(grid)).reshape(xx.shape)
    ax.contourf(
        xx, yy, codes, levels=[-0.5, 0.5, 1.5, 2.5], colors=["#c6dbef", "#fdd0a2", "#c7e9c0"]
    )
    for name, marker in markers.items():
        rows = y == name
        ax.scatter(X[rows, 0], X[rows, 1], marker=marker, c="k", s=60, label=name)
    ax.set_title(title)
    ax.set_xlabel("A")
axes[0].set_ylabel("B")
axes[1].legend(loc="upper right")
fig.tight_layout()
plt.show()
