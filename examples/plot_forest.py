"""
A forest of ternary trees
==========================

`ternary.TernaryForestClassifier` averages its members' blended probabilities and lets them
vote on whether a row is decided: ``decided_fraction`` is the share of trees that decide a
row, and ``predict_verdict`` is 1 where it reaches ``min_decided_fraction`` (0.5).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from ternary import TernaryForestClassifier
from ternary.data import make_moons_dataset
from ternary.selective import aurc

ds = make_moons_dataset(n_samples=600, noise=0.35, random_state=1)
X, y = ds.X.to_numpy(), ds.y
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
forest = TernaryForestClassifier(n_estimators=25, max_depth=5, random_state=0)
forest.fit(X_train, y_train)
rf = RandomForestClassifier(n_estimators=25, max_depth=5, random_state=0).fit(X_train, y_train)
print(
    f"accuracy: ternary forest {forest.score(X_test, y_test):.3f}, "
    f"random forest {rf.score(X_test, y_test):.3f}"
)

# %%
# Where the trees agree
# ---------------------
xx, yy = np.meshgrid(np.linspace(-2, 3, 200), np.linspace(-1.6, 2.1, 200))
grid = np.c_[xx.ravel(), yy.ravel()]
share = forest.decided_fraction(grid).reshape(xx.shape)
fig, ax = plt.subplots(figsize=(7, 4.5))
image = ax.contourf(xx, yy, share, levels=np.linspace(0, 1, 11), cmap="Greys_r")
ax.contour(xx, yy, share, levels=[forest.min_decided_fraction], colors="#e6550d")
ax.scatter(X_test[:, 0], X_test[:, 1], c=np.where(y_test == 0, "#3182bd", "#de2d26"), s=8)
fig.colorbar(image, label="share of trees that decide the row")
ax.set_title("orange: the verdict's threshold (half the trees)")
fig.tight_layout()
plt.show()

# %%
# As a ranking
# ------------
# To abstain, rank by ``predict_confidence`` and compare areas under the risk–coverage
# curve with the random forest's maximum probability (Chow's rule on the forest).
pred = forest.predict(X_test)
print(f"AURC ternary forest: {aurc(y_test, pred, forest.predict_confidence(X_test)):.4f}")
rf_pred = rf.predict(X_test)
print(f"AURC random forest, Chow: {aurc(y_test, rf_pred, rf.predict_proba(X_test).max(1)):.4f}")
