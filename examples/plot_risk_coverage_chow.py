"""
Risk–coverage: the ternary ranking against Chow's rule
=======================================================

A fixed zone is one operating point. Ranking rows by ``predict_confidence`` (the blended
maximum probability, with the distance to the zones breaking ties) gives every operating
point at once: the risk–coverage curve. Chow's (1970) reject rule ranks by a plain CART's
maximum ``predict_proba``. The area under the curve (AURC) is lower for the better ranking.
"""

# %%
import matplotlib.pyplot as plt
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from ternary import TernaryTreeClassifier
from ternary.data import make_twonorm
from ternary.metrics import uncertain_rate
from ternary.selective import aurc, risk_coverage_curve

ds = make_twonorm(n_samples=2000, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(
    ds.X.to_numpy(), ds.y, test_size=0.5, stratify=ds.y, random_state=0
)
cart = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_train, y_train)
tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(X_train, y_train)

rankings = {
    "CART, Chow's rule": (cart.predict(X_test), cart.predict_proba(X_test).max(axis=1)),
    "ternary tree, predict_confidence": (tree.predict(X_test), tree.predict_confidence(X_test)),
}
fig, ax = plt.subplots(figsize=(7, 4.5))
for label, (pred, confidence) in rankings.items():
    coverage, risk = risk_coverage_curve(y_test, pred, confidence)
    ax.plot(coverage, risk, label=f"{label} (AURC {aurc(y_test, pred, confidence):.4f})")

# %%
# The fixed zone is one point on the ternary curve: the decided rows.
verdict = tree.predict_verdict(X_test)
pred = tree.predict(X_test)
decided = verdict == 1
ax.plot(
    1 - uncertain_rate(verdict),
    (pred[decided] != y_test[decided]).mean(),
    "k*",
    ms=12,
    label="the tree's own verdict (decided rows)",
)
ax.set_xlabel("coverage (share of rows answered)")
ax.set_ylabel("selective risk (error rate among them)")
ax.legend()
fig.tight_layout()
plt.show()
