"""
Why one row is flagged
=======================

`ternary.explain.explain_row` follows one row down the tree: at every split it reaches it
says where the value lies against θ−δ, θ and θ+δ, its distance in units of δ, the blend
weights, and what each subtree predicts. Its probabilities equal ``predict_proba`` and its
flag equals ``predict_verdict``.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from ternary import TernaryTreeClassifier
from ternary.data import load_breast_cancer
from ternary.explain import explain_row

ds = load_breast_cancer()
clf = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0)
clf.fit(ds.X, ds.y)
verdict = clf.predict_verdict(ds.X)
row = int(np.flatnonzero(verdict == 0)[0])  # the first flagged row
explanation = explain_row(clf, ds.X.iloc[row].to_numpy(), feature_names=list(ds.X.columns))
print(explanation.sentence)
print(explanation.to_frame().to_string(index=False))

# %%
# The row against the zones on its path
# -------------------------------------
# Each bar is one split's zone, drawn in units of δ around θ (the zone is −1 to +1);
# the dot is the row's value there.
steps = explanation.steps
fig, ax = plt.subplots(figsize=(7, 0.6 + 0.6 * len(steps)))
for i, step in enumerate(steps):
    ax.barh(i, 2, left=-1, color="#fdd0a2", height=0.5)
    half_width = step.high - step.threshold
    signed = (step.x - step.threshold) / half_width if half_width > 0 else np.inf
    ax.plot(np.clip(signed, -3, 3), i, "ko")
ax.set_yticks(range(len(steps)), [f"{s.feature_name} ≤ {s.threshold:.3g}" for s in steps])
ax.axvline(0, color="0.5", lw=0.8)
ax.set_xlim(-3.2, 3.2)
ax.set_xlabel("(x − θ) / δ")
ax.invert_yaxis()
fig.tight_layout()
plt.show()
