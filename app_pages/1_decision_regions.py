"""Decision regions: where the tree is unsure, next to CART."""

import numpy as np
import streamlit as st

from appkit import context, cost, lecture, links, model, paint, paper, present, regions, why
from appkit.guard import inert_table, page_guard, plain
from ternary.data import to_csv

FOREST = st.session_state.get("model") == "forest"
#: the page's explanation; presenting, it folds into the title's "?". The forest's clause
#: only when the model is a forest
name_dataset = present.page_head(
    "Decision regions",
    "Background colour = the predicted class (paler where the "
    + ("forest" if FOREST else "tree")
    + " is less sure); hatching = the boundary-uncertain zones, where a row still gets a "
    "class but is flagged. "
    + (
        "Left: the same forest without zones; right: the ternary forest, hatched where fewer "
        "than half its trees decide. "
        if FOREST
        else "Left: plain CART of the same depth; right: the ternary tree. "
    )
    + "The points are the rows the cards measure: the held-out test rows (with test fraction "
    "0, every row)."
    + (
        " Under the regions: the setting's point among the other δ methods' on the same "
        "rows (★), and the tree with its zones; the sliders above move all three."
        if present.on()
        else ""
    ),
)


def why_panel(res, event, data_key) -> None:
    """The clicked test row's way through the tree, one plain sentence first."""
    st.subheader("Why is this row flagged?")
    row = regions.selected_row(event)
    if row is None or row >= len(res.split.y_test):
        st.caption(
            "Click a test point in either panel: its path through the ternary tree appears "
            "here, split by split."
        )
        return
    values = res.split.X_test.iloc[row]
    # the tree page draws the same row's path in its diagram
    st.session_state["clicked_row"] = {"data_key": data_key, "index": values.name}
    names = list(res.split.X_test.columns)
    tree = res.model
    if model.is_forest(res.model):
        tree, note = regions.member_for_story(res.model, values.to_numpy())
        st.markdown(plain(note))
    story = why.row_story(tree, values.to_numpy(), names)
    truth = res.split.y_test[row]
    verdict = "flagged boundary-uncertain" if res.scores.verdict[row] == 0 else "decided"
    st.markdown(f"**Test row {plain(values.name)}** (true class {plain(truth)}, {verdict}).")
    st.markdown(plain(story.sentence))
    why.path_views(tree, names, story, res.split, values.to_numpy(), res.model.classes_)
    st.table(inert_table(present.readable(story.steps.round(4)).set_index("node")))
    st.caption(
        "One line per split the row reaches (with probabilistic routing a row in a zone goes "
        "down both sides): its value x against the zone θ − δ … θ + δ, its distance to θ in "
        "units of δ, the blend weights w_L / w_R = (θ+δ−x)/2δ and 1 − w_L, what each subtree "
        "predicts for the row, and the blended result the node passes up."
    )


@st.fragment
def regions_view(res, data_key, narrow=False, spec=None) -> None:
    """The figure and the clicked row's story: a click reruns this part alone, not the fits.
    ``narrow``: beside the paint canvas (`paint.beside_regions`). With ``spec`` (presenting),
    the lecture view: the regions beside the setting's accuracy–coverage point, the tree
    under them, on one screen (`appkit.lecture.view`)."""

    def chart():
        fig = present.figure(paint.beside_regions(res.figure) if narrow else res.figure)
        return st.plotly_chart(
            fig
            if spec is None
            else lecture.regions_figure(fig, res.metrics, model.is_forest(res.model)),
            width="stretch",
            height="stretch" if spec is not None else "content",
            key="regions_chart",
            on_select="rerun",
            selection_mode="points",
        )

    event = chart() if spec is None else lecture.view(res, spec, chart)
    why_panel(res, event, data_key)


with page_guard("drawing the decision regions"):
    ds, key = links.page_dataset()  # the sidebar's, or the points painted on this page
    presenting = present.on()
    if presenting:  # the sliders a lecture moves, above the figures they move
        lecture.controls()
    top, cards_row, main = st.container(), st.container(), st.container()
    # presenting, what the figures do not need goes under them, off the first screen
    after = st.container() if presenting else main
    # the lecture view when presenting; while painting, the canvas and the regions beside it
    # on the first screen instead (the canvas under the lecture view was off the screen)
    lecture_on = presenting and not links.painting()
    # named before the canvas, which stops the page while too few points are painted: the
    # line then keeps its place, and the canvas does not move under a teacher's clicks
    name_dataset(ds)
    # the painted points, when drawing, and the column beside the canvas for the regions
    with after if lecture_on else top:
        ds, key, beside = paint.paint_section(ds, key)
    name_dataset(ds)  # the painted points, once they can be fitted
    features = model.feature_pickers(ds)
    model.model_sidebar(forest=True)
    problem = model.forest_problem()
    if problem:
        st.info(problem, icon="ℹ️")
        st.stop()
    spec = model.current_spec(key, features)
    # above the on-arrival budget: the estimate and a button; a rerun or a closed tab stops it
    res = cost.bounded(
        cost.regions_seconds(spec, ds.n_samples, ds.n_features),
        spec.key,
        lambda: regions.regions_result(ds, spec),
        what="fit and draw these regions",
        label="Fit and draw",
    )
    forest = model.is_forest(res.model)
    who = "forest" if forest else "tree"
    # short card labels: a projected row of five cards has room for about 20 characters
    base = "No-zone forest" if forest else "CART"

    m = res.metrics

    def pct(x):
        return "—" if np.isnan(x) else f"{100 * x:.1f}%"

    # presenting, each card is one line (label, value): shorter labels, their help says all
    cols = cards_row.columns([5, 5, 4, 4, 4] if presenting else 5)
    cols[0].metric(
        "Decided accuracy",
        pct(m["decided_accuracy"]),
        help=f"Accuracy on the test rows the {who} decided (verdict 1)."
        + (" A forest decides a row when at least half of its trees do." if forest else ""),
    )
    cols[1].metric(
        "Boundary-uncertain",
        pct(m["uncertain_rate"]),
        help=f"Share of the {m['n_test']} test rows that fell inside a zone "
        f"({m['n_flagged']} rows). They still get a class.",
    )
    cols[2].metric(
        "Accuracy, all" if presenting else "Accuracy, all test rows",
        pct(m["accuracy"]),
        help="Accuracy on every test row, decided or not.",
    )
    cols[3].metric(
        base if presenting else f"{base} accuracy",
        pct(m["cart_accuracy"]),
        help="The same forest with δ = 0 (same seeds, samples and splits), on the same test rows."
        if forest
        else "Plain CART with the same depth and seed, on the same test rows.",
    )
    eta = m["efficiency"]
    cols[4].metric(
        "η" if presenting else "η (vs no zones)" if forest else "η (efficiency vs CART)",
        "—" if np.isnan(eta) else f"{eta:+.3f}",
        help="η = (decided accuracy − CART accuracy) / uncertain rate: accuracy "
        "gained per unit of flagging (Smits 2026). The paper's margin method "
        f"averages {paper.MARGIN_EFFICIENCY} on OpenML-CC18. Undefined when nothing is flagged.",
    )

    on_training = float(st.session_state.get("test_size", 0.3)) <= 0
    rows = (
        f"all {m['n_test']} rows, the same rows the {who} was fitted on (test fraction 0, as in "
        "the paper's figures)"
        if on_training
        else f"the {m['n_test']} held-out test rows"
    )
    flagged = pct(m["uncertain_rate"]).replace("%", "\u00a0%")  # the paper's "46.4 %"
    after.caption(
        f"Measured on {rows}. In the paper's notation: boundary-uncertain zone "
        f"({flagged}) | Decided accuracy: "
        + ("—" if np.isnan(m["decided_accuracy"]) else f"{m['decided_accuracy']:.3f}")
    )

    with after:
        context.fit_notes(res.model, res.split, f"the {m['n_test']} rows measured")  # issue 37
        if res.note:  # more than two features: the picture's model is a two-feature one
            st.info(plain(res.note), icon="ℹ️")
    if lecture_on:  # the lecture view, under the cards (the paint switch is drawn below it)
        with main:
            regions_view(res, key, spec=spec)
    else:
        with beside or main:
            regions_view(res, key, narrow=beside is not None)

    st.subheader("Flagged test rows")
    st.caption(
        "The held-out rows the tree could not decide (verdict 0): their blended "
        "class probabilities, the class it predicts anyway, and the truth."
    )
    if res.flagged.empty:
        st.info("No test row falls inside an uncertainty zone with these settings.")
    else:
        st.dataframe(context.rounded(res.flagged), hide_index=True, width="stretch")
        st.download_button(
            "Download flagged rows (CSV)",
            to_csv(res.flagged).encode(),
            file_name=f"flagged_{ds.name.replace(' ', '_')}.csv",
            mime="text/csv",
            help="The table above as a CSV file.",
        )
