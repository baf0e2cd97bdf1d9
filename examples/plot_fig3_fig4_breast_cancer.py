"""
The paper's Figs. 3 and 4: one data set, two routings
======================================================

Smits (2026), Figs. 3 and 4: the margin δ on all 569 rows of scikit-learn's breast cancer
data, unscaled, depth 2. With ``routing="hard_middle"`` (Fig. 3) every split has a third,
middle child trained on the rows inside its zone; with ``routing="probabilistic"`` (Fig. 4)
the tree is CART's and the zone is a blend applied at prediction time. Both figures show
the root "worst radius ≤ 16.795" with δ = 0.1750. The paper's zone is closed at its upper
end, θ−δ < x ≤ θ+δ, and the hard-middle tree grows its middle child on the rows inside it,
so the figures use ``zone_edges="closed"`` (the library's default flags only two-sided
blends, θ−δ < x < θ+δ).
"""

# %%
# Fit the two trees
# -----------------
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer

from ternary import TernaryTreeClassifier

data = load_breast_cancer()
names, classes = list(data.feature_names), list(data.target_names)
trees = {
    routing: TernaryTreeClassifier(
        delta_method="margin", routing=routing, max_depth=2, zone_edges="closed", random_state=42
    ).fit(data.data, data.target)
    for routing in ("hard_middle", "probabilistic")
}
root = trees["probabilistic"].tree_
print(f"root: {names[root.feature[0]]} <= {root.threshold[0]:.3f}, delta = {root.delta[0]:.4f}")


# %%
# A small drawing of a fitted tree
# --------------------------------
# ``tree_`` holds scikit-learn's flat per-node arrays plus ``delta`` and, for the
# hard-middle routing, ``children_middle``; leaves are laid out left to right.
def draw(tree, ax, title):
    t = tree.tree_
    kids = [t.children_left, t.children_middle, t.children_right]
    through_middle = t.reached_through_middle()
    xs, order = {}, []

    def place(node, depth):
        children = [k[node] for k in kids if k[node] >= 0]
        for child in children:
            place(child, depth + 1)
        xs[node] = sum(xs[c] for c in children) / len(children) if children else float(len(order))
        if not children:
            order.append(node)
        ys[node] = -depth

    ys = {}
    place(0, 0)
    for node in xs:
        for k, style in zip(kids, ["-", "--", "-"], strict=True):
            child = k[node]
            if child >= 0:
                colour = "#e6550d" if k is t.children_middle else "0.4"
                ax.plot([xs[node], xs[child]], [ys[node], ys[child]], style, c=colour, zorder=1)
        n = int(t.n_node_samples[node])
        if t.children_left[node] >= 0:
            f, th, d = names[t.feature[node]], t.threshold[node], t.delta[node]
            text = f"{f}\nθ = {th:.3f}, δ = {d:.4f}\n[{th - d:.3f}, {th + d:.3f}]\nn = {n}"
            face = "white"
        else:
            p = t.value[node].ravel() / t.value[node].sum()
            text = f"{classes[p.argmax()]}\nconf = {p.max():.2f}\nn = {n}"
            face = "#fdd0a2" if through_middle[node] else "#deebf7"
        ax.text(
            xs[node],
            ys[node],
            text,
            ha="center",
            va="center",
            fontsize=7,
            bbox={"boxstyle": "round", "fc": face, "ec": "0.5"},
            zorder=2,
        )
    ax.set_title(title)
    ax.set_xlim(-0.7, len(order) - 0.3)
    ax.set_ylim(min(ys.values()) - 0.5, 0.5)
    ax.axis("off")


# %%
# Fig. 3: hard-middle routing
# ---------------------------
# Dashed orange edges go to the middle subtrees; their leaves are shaded orange.
fig, ax = plt.subplots(figsize=(12, 4.5))
draw(trees["hard_middle"], ax, "hard-middle routing, margin δ, depth 2")
plt.show()

# %%
# Fig. 4: probabilistic routing
# -----------------------------
# The same root and zone, but two children per split: a row inside a zone is blended,
# :math:`\hat p = w_L \hat p_L + w_R \hat p_R` with :math:`w_L = (\theta+\delta-x)/(2\delta)`.
fig, ax = plt.subplots(figsize=(9, 4))
draw(trees["probabilistic"], ax, "probabilistic routing, margin δ, depth 2")
plt.show()

# %%
# Beside the paper
# ----------------
# Both trees agree with the paper's figures node for node. Fig. 3: leaves of 326, 7 and 41
# rows on the left, 8, 6 and 171 on the right, and the middle subtree, grown on the 10 rows
# inside the root's zone, splitting on mean texture <= 17.720 with delta 2.8050 into leaves
# of 2, 4 and 4 rows. Fig. 4: worst concave points <= 0.136 (delta 0.0021, 379 rows) on the
# left, mean texture <= 16.110 (delta 0.1700, 190 rows) on the right.
#
# The middle split is a tie: on those 10 rows (4 malignant, 6 benign) five features cut
# equally well (Gini decrease 0.32): mean texture, texture error, worst radius, worst
# texture and worst perimeter. An exact tie goes to the lowest feature index, as in the
# paper's reference code, hence mean texture; a tree that breaks ties in a random feature
# order (as scikit-learn's does) may show worst texture <= 24.585 there, with its own δ
# (4.6850).
for routing, tree in trees.items():
    t = tree.tree_
    splits = [i for i in range(t.node_count) if t.children_left[i] >= 0]
    print(routing)
    for i in splits:
        print(
            f"  {names[t.feature[i]]:>22} <= {t.threshold[i]:8.3f}  delta {t.delta[i]:.4f}"
            f"  n = {t.n_node_samples[i]}"
        )
