"""Grafting: Webb's (1997) algorithm step by step, and CART against CART with its grafts."""

import streamlit as st

from appkit import cost, grafting, links, model, present, tree
from appkit.guard import inert_table, page_guard, plain
from appkit.state import BOUNDS
from appkit.vocabulary import GRAFT_CHOICES
from ternary.data import to_csv

#: presenting, the caption folds into the title's "?"
name_dataset = present.page_head(
    "Decision tree grafting",
    "Grafting (Webb 1997, C4.5+) revisits a grown tree and adds new leaves inside existing "
    "ones where the training rows of an ancestor node give significant evidence (a binomial "
    "test at level α) that part of a leaf's region belongs to another class. It can only "
    "add structure, so it trades a larger tree for fewer errors near the boundaries. The "
    "stepper walks through the algorithm one candidate cut at a time.",
)
#: what the page draws above the stepper's box when presenting (header band, title, the
#: step's controls and its one-line summary), in px at presentation size
ABOVE_PX = 250


def _move(by: int, n_steps: int) -> None:
    s = st.session_state
    s["graft_step"] = min(max(int(s.get("graft_step", 1)) + by, 1), n_steps)


def stepper(steps) -> None:
    """A slider and previous/next through the steps; the tree and regions after each."""
    n = steps.n_steps
    if n == 0:
        st.info("The tree is a single leaf: it has no ancestor to draw evidence from.")
        return
    s = st.session_state
    s["graft_step"] = min(max(int(s.get("graft_step", 1)), 1), n)
    back, mid, ahead = st.columns([1, 6, 1], vertical_alignment="bottom")
    back.button("◀ Back", on_click=_move, args=(-1, n), key="graft_prev", width="stretch")
    ahead.button("Next ▶", on_click=_move, args=(1, n), key="graft_next", width="stretch")
    if n > 1:
        mid.slider(
            "Step",
            1,
            n,
            key="graft_step",
            help="One candidate cut per step.",
            label_visibility="collapsed" if present.on() else "visible",
        )
    step = int(s["graft_step"]) - 1
    row = steps.trace.steps.iloc[step]
    verdict = "graft" if row["decision"] == "graft" else "no graft"
    made = int(row["grafts_made"])
    st.markdown(
        f"**Step {step + 1} of {n}** ({made} graft{'' if made == 1 else 's'} made). "
        f"{plain(grafting.step_headline(steps, step))} → **{verdict}**"
    )
    after = grafting.step_model(steps, step)
    presenting = present.on()
    dot = tree.tree_dot(
        after,
        (steps.key, "graft_step", int(row["grafts_made"]), int(row["leaf"]), step),
        int(row["leaf"]),
        None,
        grafting.step_path(after, row),
        "none",
        1.0,
        True,
        None,
        grafting.box_orientation(after) if presenting else "auto",
        presenting,
    )
    fig = present.figure(grafting.step_figure(steps, step))
    if presenting:  # the regions beside the tree, as tall as the window leaves
        st.html(grafting.STEPPER_CSS)
        with present.screen_box("graft_box", ABOVE_PX, horizontal=True):
            with st.container(key="graft_step_regions", height="stretch"):
                st.plotly_chart(
                    grafting.boxed(fig), width="stretch", height="stretch", key="graft_step_chart"
                )
            with st.container(key="graft_step_tree", height="stretch"):
                st.graphviz_chart(dot, width="stretch", height="stretch")
        step_numbers(steps, step, row)
    else:  # the regions beside the numbers; the tree under them at its natural size
        c1, c2 = st.columns([3, 2])
        c1.plotly_chart(fig, width="stretch", key="graft_step_chart")
        with c2:
            step_numbers(steps, step, row)
        st.graphviz_chart(dot, width="content")
    if row["ancestor"] >= 0:
        with st.expander("The climb: what each ancestor offered this leaf"):
            st.caption(
                f"The best {plain(row['feature_name'])} {'≤' if row['side'] == '<=' else '>'} "
                f"cut each ancestor of leaf {row['leaf']} offers; the step's candidate is the "
                "best of them (ties: more rows, then the ancestor nearer the leaf)."
            )
            st.table(inert_table(grafting.step_climb(steps, step)))
    st.caption(
        "Red outline: the leaf considered (in the tree too). Shaded: the candidate region, the "
        "rows of the evidence ancestor the cut would relabel (dashed when rejected). Thick path "
        "in the tree: from that ancestor down to the leaf. Black outlines on the regions: "
        "cells relabelled by the grafts made so far."
    )


def step_numbers(steps, step: int, row) -> None:
    """The decision and why, then the step's numbers."""
    (st.success if row["decision"] == "graft" else st.info)(plain(row["why"]))
    st.table(inert_table(grafting.step_table(steps, step)))


with page_guard("grafting the tree"):
    ds, key = links.page_dataset()  # the sidebar's dataset, or the points painted
    name_dataset(ds)
    with st.sidebar:
        st.subheader("Grafting")
        st.radio(
            "Graft",
            GRAFT_CHOICES,
            key="graft_mode",
            horizontal=True,
            help="'all': every supported graft is added; 'one': at most the single best "
            "graft per leaf (Webb's C4.5A variant).",
        )
        st.slider(
            "Graft significance α",
            *BOUNDS["graft_alpha"],
            step=0.001,
            format="%.3f",
            key="graft_alpha",
            help="Level of the binomial test that accepts a graft. Smaller α, fewer "
            "and safer grafts.",
        )
        st.slider(
            "Pruning (ccp_alpha)",
            *BOUNDS["ccp_alpha"],
            step=0.001,
            format="%.3f",
            key="ccp_alpha",
            help="CART cost-complexity pruning before grafting; 0 = no pruning. Webb "
            "grafted both pruned and unpruned trees.",
        )
        st.slider(
            "Max depth",
            *BOUNDS["graft_max_depth"],
            key="graft_max_depth",
            help="Depth of the CART tree before grafting (grafts may go deeper).",
        )
        st.radio(
            "Fit on",
            ("the two plotted features", "all features"),
            key="graft_features",
            help="Two features: the regions can be drawn. All features: the tree a "
            "practitioner would use (no region plot).",
        )
    two = st.session_state["graft_features"] != "all features" or ds.n_features == 2
    features = model.feature_pickers(ds) if two else None
    cart_spec, graft_spec = grafting.graft_specs(
        key,
        features,
        mode=st.session_state["graft_mode"],
        graft_alpha=float(st.session_state["graft_alpha"]),
        ccp_alpha=float(st.session_state["ccp_alpha"]),
        max_depth=int(st.session_state["graft_max_depth"]),
        test_size=float(st.session_state["test_size"]),
        seed=int(st.session_state["seed"]),
    )
    # above the on-arrival budget: the estimate and a button; a rerun or a closed tab stops it
    res = cost.bounded(
        cost.grafting_seconds(cart_spec, graft_spec, ds.n_samples, ds.n_features),
        graft_spec.key,
        lambda: grafting.graft_comparison(ds, cart_spec, graft_spec),
        what="fit, graft and cross-validate both trees",
        label="Fit and graft",
    )

    if features is not None:  # two features: the regions can be drawn, step by step
        if not present.on():
            st.subheader("Step by step")
        stepper(grafting.graft_steps(ds, cart_spec, graft_spec))
        if ds.name == "webb example":
            st.caption(
                "Webb's text (§3) grafts the cut B ≤ 3 under the leaf A ≤ 2 too, though its "
                "binomial test gives (5/6)^9 = 0.194, above 0.05; the library applies the test "
                "as the paper states it, so that step is rejected until α exceeds 0.194. Every "
                "Laplace value on the way is the paper's: 0.833, 0.909 (and 0.625 for B ≤ 5 "
                "among the root's cuts), 0.714, 0.917."
            )
    else:
        st.caption(
            "The step-by-step view draws the regions, so it needs two features: choose "
            "'the two plotted features' under Fit on."
        )

    st.subheader("Before and after")
    st.dataframe(
        res.table,
        hide_index=True,
        width="stretch",
        column_config={
            c: st.column_config.NumberColumn(format="%.3f")
            for c in ("test accuracy", "CV accuracy")
        },
    )
    # test fraction 0 (Webb's example, fitted on all 30 rows as in the paper): nothing is
    # held out, and the rows scored are the training rows
    held = "held-out rows" if float(st.session_state["test_size"]) > 0 else "training rows"
    cv_said = (
        f"CV accuracy = mean of a stratified {res.cv_folds}-fold cross-validation on the "
        "whole dataset with the same settings"
        + ("" if res.cv_folds == 5 else " (5 folds need 5 rows of every class)")
        + "."
        if res.cv_folds
        else res.cv_note
    )
    st.caption(f"Test accuracy on {res.n_test} {held}; {cv_said}")

    if res.figures is not None:
        if res.n_test < grafting.DRAW_ALL_BELOW:
            st.caption(
                f"With only {res.n_test} {held}, the panels draw every row, training "
                f"rows included; the accuracies in their titles are still the {held}'."
            )
        c1, c2 = st.columns(2)
        c1.plotly_chart(present.figure(res.figures[0]), width="stretch", key="cart_regions")
        c2.plotly_chart(present.figure(res.figures[1]), width="stretch", key="graft_regions")

    st.subheader("What the grafts changed")
    if res.figures is not None:
        st.caption(
            "Right panel: the black outlines enclose the regions whose label the grafts changed."
        )
    if res.changed.empty:
        st.info("No held-out row changes its prediction with these grafts.")
    else:
        right = int(res.changed["grafting right?"].sum())
        st.caption(
            f"{len(res.changed)} of the {res.n_test} {held} change their prediction: "
            f"{right} to the true class, {len(res.changed) - right} away from it."
        )
        st.dataframe(grafting.rounded(res.changed), hide_index=True, width="stretch")
        note = grafting.accuracy_change_note(res, held)
        if note:
            st.markdown(plain(note))

    st.subheader("Graft report")
    report = res.report
    if report is None or report.empty:
        st.info(
            "No graft passed the test with these settings: the grafted tree is CART. Try "
            "a larger α, a deeper tree or a noisier dataset."
        )
    else:
        st.caption(
            "One row per graft: the leaf it was added under, the ancestor whose region gave "
            "the evidence, the cut, the class it predicts, both Laplace accuracies and the "
            "binomial test's p-value; T rows of the evidence region, P of them of the new "
            "class. The CSV has every column, with the library's names."
        )
        shown = present.headers(report[list(grafting.REPORT_SHOWN)])
        st.dataframe(
            grafting.rounded(shown),
            hide_index=True,
            width="stretch",
            column_config=grafting.report_columns(shown.columns),
        )
        st.download_button(
            "Download graft report (CSV)",
            to_csv(report).encode(),
            file_name=f"grafts_{ds.name.replace(' ', '_')}.csv",
            mime="text/csv",
            help="The graft report as a CSV file.",
        )

    st.subheader("The grafted tree")
    st.caption("Grafted nodes are drawn in purple.")
    for note in grafting.empty_leaf_notes(res.grafted, res.report):
        st.caption(plain(note))
    # as on the tree page: at its natural size (scrolling sideways when wider than the page),
    # the legend under it, larger text when presenting; stretched to the width, presentation
    # mode's wider page pushed the node text out of its boxes
    scale = 1.3 if st.session_state.get("present") else 1.0
    for legend in ("none", "only"):
        shown = tree.tree_dot(res.grafted, graft_spec.key, None, None, None, legend, scale, True)
        st.graphviz_chart(shown, width="content")
    st.download_button(
        "Download DOT",
        res.dot.encode(),
        file_name=f"grafted_tree_{ds.name.replace(' ', '_')}.dot",
        mime="text/vnd.graphviz",
        help="Graphviz source of the grafted tree.",
    )
