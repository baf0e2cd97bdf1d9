"""The tables and text of `reproduce_paper.py`: our results set beside Smits (2026).

Pure formatting: frames of results (`ternary.experiment.run_suite` rows) and the paper's
tables in, Markdown out. The run itself (datasets, collections, timings) is in
``reproduce_paper.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ternary.experiment import summarize

BAYES = {"waveform": 0.14, "twonorm": 0.023, "ringnorm": 0.017}
# generated datasets (ours) and the OpenML files the paper loaded
BREIMAN_GENERATED = {
    "waveform (generated)": ("waveform", 5000),
    "twonorm (generated)": ("twonorm", 7400),
    "ringnorm (generated)": ("ringnorm", 7400),
}
BREIMAN_FILES = {"waveform-5000": "waveform", "twonorm": "twonorm", "ringnorm": "ringnorm"}

METHOD_NAMES = {
    "margin": "Margin",
    "node_bootstrap": "Node-Bootstrap",
    "quality_plateau": "Quality-Plateau",
    "gain_ratio": "Gain-Ratio",
    "class_overlap": "Class-Overlap",
    "none": "CART (baseline)",
}
ROUTING_NAMES = {"probabilistic": "prob.", "hard_middle": "h.m.", "cart": "ref."}


# ------------------------------------------------------------------------------ formatting
def _f(value, digits=4):
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{value:.{digits}f}"


def md_table(frame: pd.DataFrame, digits=None) -> str:
    digits = digits or {}
    cols = list(frame.columns)
    lines = [
        "| " + " | ".join(map(str, cols)) + " |",
        "|" + "|".join("---" if frame[c].dtype == object else "---:" for c in cols) + "|",
    ]
    for _, row in frame.iterrows():
        cells = []
        for c in cols:
            v = row[c]
            if isinstance(v, str):
                cells.append(v)
            else:
                cells.append(_f(v, digits.get(c, 4)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _method_label(method, routing):
    if method == "none":
        return "CART (baseline)"
    return f"{METHOD_NAMES[method]} ({ROUTING_NAMES.get(routing, routing)})"


def _per_dataset(results: pd.DataFrame) -> pd.DataFrame:
    """Fold means per (dataset, combination)."""
    keys = ["dataset", "combo", "delta_method", "routing"]
    cols = [
        "decided_accuracy",
        "uncertain_rate",
        "accuracy",
        "decided_f1",
        "chow_decided_accuracy",
        "cart_accuracy",
        "fit_seconds",
    ]
    return results.groupby(keys, sort=False)[cols].mean().reset_index()


# ------------------------------------------------------------------------------ tables
def breiman_table(results, table6):
    per = _per_dataset(results)
    lines = []
    for file_name, kind in BREIMAN_FILES.items():
        gen_name = next(k for k, v in BREIMAN_GENERATED.items() if v[0] == kind)
        paper = table6[table6["dataset"] == kind]
        rows = []
        for _, p in paper.iterrows():
            method = p["delta_method"]
            routing = "probabilistic"
            row = {
                "method": _method_label(method, p["routing"]),
                "paper dec.acc": p["decided_accuracy"],
                "paper U/B": p["ub_ratio"],
            }
            for tag, name in (("gen.", gen_name), ("OpenML file", file_name)):
                m = per[
                    (per["dataset"] == name)
                    & (per["delta_method"] == method)
                    & (per["routing"] == routing)
                ]
                if len(m):
                    m = m.iloc[0]
                    row[f"ours {tag} dec.acc"] = m["decided_accuracy"]
                    row[f"ours {tag} U/B"] = m["uncertain_rate"] / BAYES[kind]
                    row[f"ours {tag} Chow"] = m["chow_decided_accuracy"]
            rows.append(row)
        frame = pd.DataFrame(rows)
        lines.append(
            f"**{kind}** (Bayes error {BAYES[kind]}; U/B = uncertain rate / Bayes "
            "error; Chow = CART's decided accuracy when it flags as many rows by "
            "lowest confidence)\n"
        )
        lines.append(md_table(frame, {c: 2 for c in frame.columns if "U/B" in c}))
        lines.append("")
    return "\n".join(lines)


def medical_table(results, table7):
    per = _per_dataset(results)
    lines = []
    for dataset in ["credit-g", "diabetes", "heart-c", "mammography"]:
        paper = table7[table7["dataset"] == dataset]
        ours_names = ["heart-c", "heart-statlog"] if dataset == "heart-c" else [dataset]
        rows = []
        for _, p in paper.iterrows():
            method, routing = p["delta_method"], p["routing"]
            our_routing = "probabilistic" if routing == "cart" else routing
            row = {
                "method": _method_label(method, routing),
                "paper dec.acc": p["decided_accuracy"],
                "paper undec%": 100 * p["uncertain_rate"],
                "paper acc.all": p["accuracy_all"],
            }
            for name in ours_names:
                tag = "" if len(ours_names) == 1 else f" {name}"
                m = per[
                    (per["dataset"] == name)
                    & (per["delta_method"] == method)
                    & (per["routing"] == our_routing)
                ]
                if len(m):
                    m = m.iloc[0]
                    row[f"ours{tag} dec.acc"] = m["decided_accuracy"]
                    row[f"ours{tag} undec%"] = 100 * m["uncertain_rate"]
                    if len(ours_names) == 1:
                        row["ours acc.all"] = m["accuracy"]
                    row[f"ours{tag} Chow"] = m["chow_decided_accuracy"]
            rows.append(row)
        frame = pd.DataFrame(rows)
        title = (
            dataset
            if dataset != "heart-c"
            else (
                "heart-c (the paper's text: Cleveland, 303 rows; its loader: OpenML 53 = "
                "heart-statlog, 270 rows; we run both)"
            )
        )
        lines.append(f"**{title}**\n")
        lines.append(md_table(frame, {c: 1 for c in frame.columns if "undec%" in c}))
        lines.append("")
    return "\n".join(lines)


def table1(results, table1_paper, table4, names):
    """Our Table 1 over the CC18 datasets we hold, beside the paper's (72 datasets)."""
    ours = summarize(results)
    chow_view = results.assign(cart_accuracy=results["chow_decided_accuracy"])
    vs_chow = summarize(chow_view).set_index("combo")
    tie_view = results.assign(cart_accuracy=results["chow_decided_accuracy_ties_mean"])
    vs_tie = summarize(tie_view).set_index("combo")
    # the paper's own per-dataset numbers, restricted to our datasets (Table 4 has 4 columns)
    t4 = table4.drop_duplicates("dataset")
    t4 = t4[t4["dataset"].isin(names)]
    paper_subset = {
        ("margin", "probabilistic"): t4["margin_decided_accuracy"].mean(),
        ("node_bootstrap", "probabilistic"): t4["node_bootstrap_decided_accuracy"].mean(),
        ("quality_plateau", "probabilistic"): t4["quality_plateau_decided_accuracy"].mean(),
        ("none", "probabilistic"): t4["cart_accuracy"].mean(),
    }
    rows = []
    for _, o in ours.iterrows():
        method, routing = o["delta_method"], o["routing"]
        p = table1_paper[
            (table1_paper["delta_method"] == method)
            & (table1_paper["routing"] == ("cart" if method == "none" else routing))
        ]
        p = p.iloc[0] if len(p) else None
        c = vs_chow.loc[o["combo"]]
        t = vs_tie.loc[o["combo"]]
        is_cart = method == "none"
        rows.append(
            {
                "method": _method_label(method, routing),
                "paper dec.acc (72)": p["decided_accuracy"] if p is not None else np.nan,
                "paper T4 mean, our datasets": paper_subset.get((method, routing), np.nan),
                "ours dec.acc": o["decided_accuracy"],
                "ours ±std": o["decided_accuracy_std"],
                "paper undec%": p["uncertain_pct"] if p is not None else np.nan,
                "ours undec%": o["uncertain_pct"],
                "paper acc.all": p["accuracy_all"] if p is not None else np.nan,
                "ours acc.all": o["accuracy"],
                "ours η": o["efficiency"],
                "paper W/T/L": (
                    "ref."
                    if is_cart or p is None
                    else f"{int(p['wins'])}/{int(p['ties'])}/{int(p['losses'])}"
                ),
                "ours W/T/L vs CART": (
                    "ref." if is_cart else f"{o['wins']}/{o['ties']}/{o['losses']}"
                ),
                "ours p (vs CART)": np.nan if is_cart else o["wilcoxon_p"],
                "ours Chow": o["chow_decided_accuracy"],
                "ours W/T/L vs Chow": (
                    "–" if is_cart else f"{c['wins']}/{c['ties']}/{c['losses']}"
                ),
                "ours p (vs Chow)": np.nan if is_cart else c["wilcoxon_p"],
                "ours Chow, ties avg.": o["chow_decided_accuracy_ties_mean"],
                "ours W/T/L vs Chow, ties avg.": (
                    "–" if is_cart else f"{t['wins']}/{t['ties']}/{t['losses']}"
                ),
                "n": o["n_datasets"],
            }
        )
    frame = pd.DataFrame(rows)
    digits = {
        "paper undec%": 1,
        "ours undec%": 1,
        "ours ±std": 3,
        "ours η": 3,
        "ours p (vs CART)": 4,
        "ours p (vs Chow)": 4,
    }
    return md_table(frame, digits), ours, vs_chow


def table4_compare(results, table4, names):
    per = _per_dataset(results)
    rows, stats = [], []
    for k, (_, p) in enumerate(table4.iterrows()):
        name = p["dataset"]
        stem = names.get(name)
        if stem is None:
            continue
        dup = (table4["dataset"] == name).sum() > 1
        label = name + (
            f" (paper row {1 + int((table4['dataset'].iloc[:k] == name).sum())})" if dup else ""
        )
        d = per[per["dataset"] == stem]

        def ours(method, col, d=d):
            m = d[(d["delta_method"] == method) & (d["routing"] == "probabilistic")]
            return m[col].iloc[0] if len(m) else np.nan

        row = {
            "dataset": label,
            "CART paper": p["cart_accuracy"],
            "CART ours": ours("none", "decided_accuracy"),
        }
        for method, short in (("margin", "M"), ("node_bootstrap", "NB"), ("quality_plateau", "QP")):
            row[f"{short} dec paper"] = p[f"{method}_decided_accuracy"]
            row[f"{short} dec ours"] = ours(method, "decided_accuracy")
            row[f"{short} undec paper"] = p[f"{method}_uncertain_rate"]
            row[f"{short} undec ours"] = ours(method, "uncertain_rate")
        rows.append(row)
        stats.append({"dataset": name, **row})
    frame = pd.DataFrame(rows)
    digits = {c: 3 for c in frame.columns if "undec" in c}
    return md_table(frame, digits), pd.DataFrame(stats)


def encoding_table(cc18_rows, onehot_rows, table4, names):
    if len(onehot_rows) == 0:
        return "(no nominal datasets in this run)"
    per_o = _per_dataset(cc18_rows)
    per_h = _per_dataset(onehot_rows)
    stem_to_paper = {stem: name for name, stem in names.items()}
    t4 = table4.drop_duplicates("dataset").set_index("dataset")
    rows = []
    for name in dict.fromkeys(onehot_rows["dataset"]):
        stem = name.replace(" (one-hot)", "")
        paper = t4.loc[stem_to_paper[stem]]

        def get(per, dataset, combo, col):
            m = per[(per["dataset"] == dataset) & (per["combo"] == combo)]
            return m[col].iloc[0] if len(m) else np.nan

        rows.append(
            {
                "dataset": stem,
                "CART paper": paper["cart_accuracy"],
                "CART ordinal": get(per_o, stem, "CART", "decided_accuracy"),
                "CART one-hot": get(per_h, name, "CART", "decided_accuracy"),
                "M undec paper": paper["margin_uncertain_rate"],
                "M undec ordinal": get(per_o, stem, "margin / probabilistic", "uncertain_rate"),
                "M undec one-hot": get(per_h, name, "margin / probabilistic", "uncertain_rate"),
                "M dec paper": paper["margin_decided_accuracy"],
                "M dec ordinal": get(per_o, stem, "margin / probabilistic", "decided_accuracy"),
                "M dec one-hot": get(per_h, name, "margin / probabilistic", "decided_accuracy"),
            }
        )
    frame = pd.DataFrame(rows)
    return md_table(frame, {c: 3 for c in frame.columns if "undec" in c})


def agreement(stats: pd.DataFrame) -> pd.DataFrame:
    """How close are we to Table 4, per column pair (first mfeat-zernike row only)."""
    s = stats.drop_duplicates("dataset")
    rows = []
    for label, a, b in (
        ("CART accuracy", "CART paper", "CART ours"),
        ("Margin decided acc.", "M dec paper", "M dec ours"),
        ("Margin uncertain rate", "M undec paper", "M undec ours"),
        ("Node-Bootstrap decided acc.", "NB dec paper", "NB dec ours"),
        ("Node-Bootstrap uncertain rate", "NB undec paper", "NB undec ours"),
        ("Quality-Plateau decided acc.", "QP dec paper", "QP dec ours"),
        ("Quality-Plateau uncertain rate", "QP undec paper", "QP undec ours"),
    ):
        pair = s[[a, b]].dropna()
        diff = (pair[b] - pair[a]).to_numpy()
        rows.append(
            {
                "quantity": label,
                "n": len(pair),
                "median |ours−paper|": float(np.median(np.abs(diff))),
                "mean ours−paper": float(np.mean(diff)),
                "within 0.01": int(np.sum(np.abs(diff) <= 0.01)),
                "Spearman ρ": float(pair[a].rank().corr(pair[b].rank())),
            }
        )
    return pd.DataFrame(rows)


def headline_numbers(breiman, medical, cc18, ours_t1, vs_chow, t4_stats, table1_paper) -> str:
    """A few sentences of figures computed from this run."""
    lines = []
    s = t4_stats.drop_duplicates("dataset")
    cart_diff = (s["CART ours"] - s["CART paper"]).abs()
    lines.append(
        f"- CART baseline: on the {len(s)} CC18 datasets we share with Table 4 our "
        f"accuracy is within 0.5 points of the paper's on {int((cart_diff <= 0.005).sum())}"
        f" and within 2 points on {int((cart_diff <= 0.02).sum())} (median gap "
        f"{cart_diff.median():.4f})."
    )
    per = _per_dataset(medical)
    d = per[per["dataset"] == "diabetes"].set_index("combo")
    if len(d):
        lines.append(
            f"- diabetes (Table 7): CART {d.loc['CART', 'decided_accuracy']:.4f} (paper 0.7382); "
            f"gain-ratio/prob. {d.loc['gain_ratio / probabilistic', 'decided_accuracy']:.4f} at "
            f"{100 * d.loc['gain_ratio / probabilistic', 'uncertain_rate']:.1f} % flagged (paper "
            f"0.8909 at 79.7 %), margin/prob. "
            f"{d.loc['margin / probabilistic', 'decided_accuracy']:.4f}"
            f" at {100 * d.loc['margin / probabilistic', 'uncertain_rate']:.1f} % (paper 0.7418 at "
            f"9.5 %)."
        )
    o = ours_t1.set_index("combo")
    prob = [c for c in o.index if c.endswith("/ probabilistic")]
    wins = {c: f"{o.loc[c, 'wins']}/{o.loc[c, 'ties']}/{o.loc[c, 'losses']}" for c in prob}
    lines.append(
        "- CC18, probabilistic routing, W/T/L vs CART over our datasets: "
        + "; ".join(
            f"{c.split(' /')[0]} {w} (p = {o.loc[c, 'wilcoxon_p']:.2g})" for c, w in wins.items()
        )
        + "."
    )
    beats_chow = [
        c
        for c in o.index
        if c != "CART" and vs_chow.loc[c, "decided_accuracy"] > vs_chow.loc[c, "cart_accuracy"]
    ]
    lines.append(
        "- Against the Chow baseline (CART flagging the same number of its least "
        "confident rows) the mean decided-accuracy gap is "
        + ", ".join(
            f"{c.split(' /')[0]}{' (h.m.)' if 'hard' in c else ''} {o.loc[c, 'gain_vs_chow']:+.4f}"
            for c in o.index
            if c != "CART"
        )
        + f"; {len(beats_chow)} of {len(o) - 1} combinations beat Chow on average."
    )
    from scipy.stats import wilcoxon

    per = _per_dataset(cc18)
    reverse = []
    for combo in (
        "margin / probabilistic",
        "node_bootstrap / probabilistic",
        "quality_plateau / probabilistic",
    ):
        part = per[per["combo"] == combo]
        diff = (part["decided_accuracy"] - part["chow_decided_accuracy"]).round(12)
        diff = diff[diff != 0].dropna()
        reverse.append(
            f"{combo.split(' /')[0]} p = {wilcoxon(diff, alternative='less').pvalue:.1g}"
        )
    lines.append(
        "- One-sided Wilcoxon the other way (Chow better than the method), per-dataset "
        "means: " + ", ".join(reverse) + "."
    )
    tie_gap = (cc18["chow_decided_accuracy"] - cc18["chow_decided_accuracy_ties_mean"]).abs()
    lines.append(
        f"- Breaking Chow's ties at random (in expectation) instead of by file order "
        f"moves a fold's Chow accuracy by {tie_gap.median():.4f} in the median and by "
        f"more than 0.02 in {100 * np.mean(tie_gap > 0.02):.1f} % of the CC18 rows; "
        "the conclusions below hold with either rule (Table 1)."
    )
    b = _per_dataset(breiman)
    ub = []
    for name, kind in (("twonorm (generated)", "twonorm"), ("twonorm", "twonorm")):
        m = b[(b["dataset"] == name) & (b["combo"] == "margin / probabilistic")]
        if len(m):
            ub.append(f"{name} {m['uncertain_rate'].iloc[0] / BAYES[kind]:.2f}")
    if ub:
        lines.append("- Margin U/B on twonorm (paper 0.42): " + ", ".join(ub) + ".")
    return "\n".join(lines)


DISCUSSION = """\
Figures quoted here are from the full run (all seeds fixed, so they are deterministic up to
the library versions above); the tables are regenerated on every run.

**The protocol is the paper's.** On the OpenML files the paper used for Table 6, CART,
class-overlap and gain-ratio reproduce the paper to the printed digit on all three
datasets (e.g. waveform-5000: CART 0.7350, class-overlap 0.8578 at U/B 6.87, gain-ratio
0.8492 at 5.95; twonorm: gain-ratio 0.9233 at 37.46), quality-plateau to within 0.0006
(waveform 0.7705 vs 0.7711 at U/B 2.54; ringnorm 0.7879 at 10.69 vs 10.68) and margin to
within 0.001 (U/B 0.09 / 0.44 / 0.39 vs 0.09 / 0.42 / 0.39). Node-bootstrap lands within 0.4 points
(its resamples depend on the random stream). On CC18, CART matches Table 4 within 0.5
points on 46 of the 51 rows we can compare (median gap 0), and on diabetes gain-ratio
(prob.) gives 0.8909 at 79.7 % flagged exactly as Table 7. So the folds, the per-fold
scaling, the trees and the δ definitions agree with the paper's code.

**Which data the paper ran on.** (a) The paper's text gives waveform d = 21, but its
numbers are those of the 40-attribute OpenML file (21 signals + 19 noise); our 21-attribute
generator gives a different, easier problem (CART 0.7504 vs 0.7350), and fresh twonorm /
ringnorm samples move decided accuracies by up to 4.6 points (ringnorm class-overlap
0.7971 vs 0.8431) while U/B stays close. (b) The paper's "heart-c" rows are heart-statlog
(OpenML 53): CART 0.7370 and gain-ratio's 31.1 % flagged match heart-statlog exactly;
on the real Cleveland file class-overlap flags 50.2 % instead of 74.4 %. (c) Nominal
attributes were evidently fed as OpenML's category codes: with ordinal codes CART matches
the paper on car (0.8507) and tic-tac-toe (0.7474); with one-hot columns it does not
(0.8131, 0.8111), and margin then flags nothing on them (a 0/1 column has no row strictly
inside a zone clamped to a quarter of its range). The encoding table shows the effect:
margin's flagged share on credit-g is 50 % with codes and 14 % one-hot.

**Where we still differ.** CART: segment (0.6887 vs 0.7563; scikit-learn's own tree on
the raw file gives 0.689 too, so it is the data version, not our code), cylinder-bands
(0.7278 vs 0.6778; many missing values, imputed inside each fold from its training rows),
climate-model-simulation-crashes (0.9111 vs 0.9241; our copy is OpenML 1467, CC18 uses
40994) and mfeat-zernike (0.5045; the paper prints two different mfeat-zernike rows,
0.4975 and 0.5150). credit-g deviates most among the medical sets (node-bootstrap 0.8302
at 57.7 % vs 0.7677 at 71.0 %; class-overlap 0.8131 vs 0.6993), which with CART within
0.2 points points again at the encoding of its 13 nominal attributes. Margin's flagged
share differs most on discrete features (cnae-9 17 % vs 61 %, balance-scale 62 % vs 45 %,
splice 43 % vs 25 %, tic-tac-toe 86 % vs 78 %): there δ is a distance between two data
values, so θ ± δ lands exactly on training values and, with the zone (θ−δ, θ+δ], every
row at θ+δ is flagged and every row at θ−δ is not; whether θ+δ rounds onto the value or a
hair below it decides whole groups of rows. Node-bootstrap's per-dataset numbers scatter
most (decided accuracy within 1 point on 24 of 49 rows) because they are random.

**Table 1 holds in shape.** Over our 50 CC18 datasets all five probabilistic methods beat
CART on decided accuracy with one-sided Wilcoxon p ≤ 0.0011, as the paper reports; the
order is the paper's at the top (gain-ratio and class-overlap first, by flagging 59 % and
72 % of rows) and at the bottom (gain-ratio and class-overlap with hard-middle routing below
CART). Our means are higher than the paper's 72-dataset means because our subset is
easier: the paper's own Table 4 averaged over our datasets gives CART 0.7344 (ours 0.7339),
margin 0.7552 (0.7492), node-bootstrap 0.7460 (0.7565), quality-plateau 0.7476 (0.7478).
Two claims do not carry over: hard-middle routing is not uniformly worse here (η > 0 for
node-bootstrap, quality-plateau and margin h.m.; the paper says η < 0 for all), and margin
is not the most efficient method (η: quality-plateau 0.092, margin 0.086, node-bootstrap
0.078; the paper's margin η = 0.104).

**The fair baseline changes the conclusion.** The paper compares decided accuracy with
CART's accuracy on all rows, so any method that withholds hard rows "wins". Letting CART
withhold the same number of rows by its own confidence (Chow's rule) beats every
combination on average: margin 0.7492 vs Chow 0.7807 (W/T/L 2/10/38), quality-plateau
0.7478 vs 0.7742 (4/13/33), node-bootstrap 0.7565 vs 0.7873 (4/8/36), gain-ratio 0.7729
vs 0.8113 (16/13/21), class-overlap 0.7700 vs 0.8903 (9/9/32); the one-sided tests for
"method better than Chow" all give p ≈ 1, and the reverse tests are significant. So the
uncertainty zones do pick out harder-than-average rows, but CART's leaf class
probabilities pick out the errors better at every flag rate we saw. The exceptions are
the smooth synthetic problems: on twonorm class-overlap and gain-ratio beat Chow by 3 to
6 points, and on the waveform file class-overlap beats it by 4.8. Chow's rule has its own
weakness at high flag rates: the most confident leaves are often small pure leaves whose
probability 1.0 is over-confident (on pc1, where node-bootstrap flags 65 %, Chow keeps
CART's most confident 35 % and scores 0.8980, below CART's 0.9287 on all rows). The tie rule
hardly matters for these means (row order vs random ties: at most
0.004 on any Table 1 mean).

**Timing.** The whole reproduction (6 Breiman sets, 5 medical, 50 CC18 with all 11
combinations, 13 nominal sets re-encoded: 3,485 distinct (combination, fold) fits) runs in a few
minutes on two shared cores; one dataset like diabetes takes one to three seconds for all
55 fits. Parallel workers pay off only on the larger datasets: the first parallel call
spends seconds starting joblib's worker processes, and on small data each task lasts a
few milliseconds. Relative to scikit-learn's own fit (table above), probabilistic trees
cost a small multiple (CART's build plus our δ pass over the nodes), while hard-middle
trees, grown node by node (a compiled split search over rows sorted once at the root), and
node-bootstrap, which refits every node B times, cost most on small data where per-node
overhead dominates; on this shared machine these ratios move by a factor of two to three
between runs. Rows resumed from an earlier run keep that run's fit times, while the
scikit-learn reference is timed anew, so only the rows computed now compare like for like.
"""
