"""Grafting: CART against CART with Webb's (1997) grafts."""

import streamlit as st

from appkit import cost, datasets, grafting, model, present, tree
from appkit.guard import page_guard
from appkit.state import BOUNDS
from appkit.vocabulary import GRAFT_CHOICES
from ternary.data import to_csv

st.title("Decision tree grafting")
st.caption(
    "Grafting (Webb 1997, C4.5+) revisits a grown tree and adds new leaves inside existing "
    "ones where the training rows of an ancestor node give significant evidence (a binomial "
    "test at level α) that part of a leaf's region belongs to another class. It can only "
    "add structure, so it trades a larger tree for fewer errors near the boundaries."
)

with page_guard("grafting the tree"):
    ds, key = datasets.current_dataset()
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
    st.caption(
        f"Test accuracy on {res.n_test} {held}; CV accuracy = mean of a "
        "stratified 5-fold cross-validation on the whole dataset with the same settings."
    )

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
        st.dataframe(res.changed, hide_index=True, width="stretch")

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
            "binomial test's p-value. The CSV keeps the library's column names."
        )
        st.dataframe(present.headers(report), hide_index=True, width="stretch")
        st.download_button(
            "Download graft report (CSV)",
            to_csv(report).encode(),
            file_name=f"grafts_{ds.name.replace(' ', '_')}.csv",
            mime="text/csv",
            help="The graft report as a CSV file.",
        )

    st.subheader("The grafted tree")
    st.caption("Grafted nodes are drawn in purple.")
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
