"""
The paper's Fig. 1: CART against a ternary tree on two moons
=============================================================

Smits (2026), Fig. 1: 250 rows of scikit-learn's two moons (noise 0.28, seed 42),
standardised, a depth-3 tree with the quality-plateau δ (ε = 0.15), fitted on all rows and
scored on them. Every point of the plane gets a class; the hatched region is where the
prediction is blended from both subtrees and flagged boundary-uncertain. The paper reports
46.4 % of the rows flagged and a decided accuracy of 0.948, with its zone closed at the upper
end (``zone_edges="closed"``, θ−δ < x ≤ θ+δ; the library's default flags only two-sided
blends).
"""

# %%
# Fit both trees
# --------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from ternary import TernaryTreeClassifier
from ternary.metrics import decided_accuracy, uncertain_rate

X, y = make_moons(n_samples=250, noise=0.28, random_state=42)
X = StandardScaler().fit_transform(X)
cart = DecisionTreeClassifier(max_depth=3, random_state=42).fit(X, y)
tree = TernaryTreeClassifier(
    delta_method="quality_plateau", epsilon=0.15, max_depth=3, zone_edges="closed", random_state=42
).fit(X, y)

verdict = tree.predict_verdict(X)
print(f"flagged: {uncertain_rate(verdict):.1%}")
print(f"decided accuracy: {decided_accuracy(y, tree.predict(X), verdict):.3f}")
print(f"CART accuracy on all rows: {cart.score(X, y):.3f}")

# %%
# Draw the regions
# ----------------
# The background colour is the predicted class, everywhere; the hatching marks the
# boundary-uncertain zone (verdict 0).
xx, yy = np.meshgrid(np.linspace(-2.6, 2.6, 300), np.linspace(-2.6, 2.6, 300))
grid = np.c_[xx.ravel(), yy.ravel()]

fig, axes = plt.subplots(1, 2, figsize=(11, 5), sharey=True)
for ax, model, title in [(axes[0], cart, "(a) standard CART"), (axes[1], tree, "(b) ternary")]:
    zz = model.predict(grid).reshape(xx.shape)
    ax.contourf(xx, yy, zz, levels=[-0.5, 0.5, 1.5], colors=["#9ecae1", "#fcbba1"])
    if model is tree:
        undecided = (tree.predict_verdict(grid) == 0).reshape(xx.shape).astype(float)
        ax.contourf(xx, yy, undecided, levels=[0.5, 1.5], colors="none", hatches=["///"])
        title += f" (quality-plateau): {uncertain_rate(verdict):.1%} flagged"
    ax.scatter(X[:, 0], X[:, 1], c=np.where(y == 0, "#3182bd", "#de2d26"), s=12, lw=0)
    ax.set_title(title)
    ax.set_xlabel("feature 1")
axes[0].set_ylabel("feature 2")
fig.tight_layout()
plt.show()
