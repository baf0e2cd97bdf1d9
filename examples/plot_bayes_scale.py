"""
Scaling δ to the Bayes error
=============================

The paper's U/B ratio (uncertain rate / Bayes error) is far from 1 for every fixed δ method.
``delta_scale="bayes"`` estimates the Bayes error with the Cover–Hart bound on a
cross-validated 1-nearest-neighbour error and scales every δ so that the tree flags about
that share. Breiman's twonorm has a known Bayes error of 2.3 %.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split

from ternary import TernaryTreeClassifier
from ternary.data import make_twonorm
from ternary.metrics import ub_ratio, uncertain_rate

ds = make_twonorm(n_samples=2000, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(
    ds.X.to_numpy(), ds.y, test_size=0.5, random_state=0
)
scaled = TernaryTreeClassifier(
    delta_method="quality_plateau", delta_scale="bayes", max_depth=4, random_state=0
).fit(X_train, y_train)
print(
    f"known Bayes error {ds.bayes_error:.3f}, estimate {scaled.bayes_error_estimate_:.3f}, "
    f"chosen scale {scaled.delta_scale_:.3f}"
)

# %%
# The flag rate as the scale grows, with the Bayes error for reference.
scales = np.linspace(0, 2, 21)
rates = [
    uncertain_rate(
        TernaryTreeClassifier(
            delta_method="quality_plateau", delta_scale=s, max_depth=4, random_state=0
        )
        .fit(X_train, y_train)
        .predict_verdict(X_test)
    )
    for s in scales
]
rate = uncertain_rate(scaled.predict_verdict(X_test))
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(scales, rates, "o-", label="fixed delta_scale")
ax.axhline(ds.bayes_error, color="k", ls="--", label="Bayes error (2.3 %)")
ax.plot(
    scaled.delta_scale_,
    rate,
    "r*",
    ms=14,
    label=f'delta_scale="bayes": U/B = {ub_ratio(rate, ds.bayes_error):.2f}',
)
ax.set_xlabel("delta_scale")
ax.set_ylabel("share of test rows flagged")
ax.legend()
fig.tight_layout()
plt.show()
