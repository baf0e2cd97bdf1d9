"""
Scoring new raw rows with a pipeline
=====================================

A file's own columns (text, gaps and all) go through the `ternary.data.Preprocessor` the
loader fitted, then the tree. `ternary.make_pipeline` chains the two into a
`ternary.pipeline.TernaryPipeline`, which takes raw rows everywhere and also answers the
ternary questions (``predict_verdict``, ``predict_confidence``, ``explain_row``).
`ternary.pipeline.score` turns it into a table to write next to the rows: this is what
``ternary predict MODEL DATA`` does with a saved model.
"""

# %%
# A small file with a text column and a missing value
# ---------------------------------------------------
import io

import matplotlib.pyplot as plt
import numpy as np

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.data import load_csv, read_rows
from ternary.pipeline import score

rng = np.random.RandomState(0)
n = 300
age = rng.randint(20, 80, size=n)
smoker = rng.choice(["yes", "no"], size=n)
pressure = rng.normal(120 + 0.4 * age, 12).round(1)
risk = (pressure + 15 * (smoker == "yes") + rng.normal(0, 8, size=n) > 150).astype(int)
lines = ["age,smoker,pressure,risk"]
lines += [f"{a},{s},{p},{r}" for a, s, p, r in zip(age, smoker, pressure, risk, strict=True)]
lines[5] = lines[5].replace(",yes,", ",,").replace(",no,", ",,")  # one gap
ds = load_csv("\n".join(lines).encode(), target="risk")
print("\n".join(ds.report))

# %%
# Fit on the encoded columns, then wrap the preprocessing and the tree together
clf = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
pipe = make_pipeline(ds.preprocessor, clf)

# %%
# New rows, as raw as the file was
# --------------------------------
new = read_rows(io.BytesIO(b"age,smoker,pressure\n35,no,118\n70,yes,151.5\n52,,139\n"))
table = score(pipe, new)
print(table.to_string())

# %%
# The confidence of every training row, decided and flagged
raw = ds.raw.drop(columns=[ds.target])
confidence = pipe.predict_confidence(raw)
verdict = pipe.predict_verdict(raw)
fig, ax = plt.subplots(figsize=(7, 3.5))
bins = np.linspace(0.5, 1, 21)
ax.hist(
    [confidence[verdict == 1], confidence[verdict == 0]],
    bins=bins,
    stacked=True,
    label=["decided", "boundary-uncertain"],
)
ax.set_xlabel("predict_confidence")
ax.set_ylabel("rows")
ax.legend()
fig.tight_layout()
plt.show()
