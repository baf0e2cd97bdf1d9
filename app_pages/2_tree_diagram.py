"""Tree diagram: every split with θ and δ, and an inspector for one node."""

import streamlit as st

from appkit import (
    context,
    cost,
    datasets,
    export,
    links,
    model,
    present,
    regions,
    rules,
    tree,
    vocabulary,
    why,
)
from appkit.guard import capped, inert_table, page_guard, plain, python_text
from ternary import export_text

#: presenting, the explanation folds into the title's "?" and the diagram fills the screen
name_dataset = present.page_head(
    "Tree diagram",
    "Each split reads feature ≤ θ with its zone half-width δ (red) and the blend range "
    "[θ−δ, θ+δ]; leaves show their class, its share and n. The model settings in the "
    "sidebar are the same as on the Decision regions page.",
)
#: what stands above the diagram when presenting, in px (header band and title, measured)
ABOVE_PX = 190


def take_away(ds, spec, clf, base, names) -> None:
    """The rules as text, the model as a skops file, and a script that rebuilds it.

    For a forest the rules are the shown member's, the downloads the whole forest's.
    """
    st.subheader("The rules, as text")
    st.caption(
        "Each split as CART routes it, followed by its uncertainty zone: a row inside the "
        "zone still gets a class but is flagged boundary-uncertain (`ternary.export_text`)."
    )
    st.code(export_text(clf, feature_names=names), language="text")
    if spec.forest:
        clf = model.fit(model.split_data(ds, spec), spec)  # the downloads hold the forest
    st.subheader("Take the model away")
    user = ds is st.session_state.get("user_dataset")
    script = export.rebuild_script(
        ds,
        spec,
        generator_kwargs=None if user else datasets.builtin_kwargs(ds.name),
        upload=st.session_state.get("upload_source") if user else None,
        member=int(st.session_state.get("member", 0)),
    )
    c1, c2 = st.columns(2)
    c1.download_button(
        "Download the model (skops)",
        export.model_bytes(export.downloadable(ds, spec, clf), spec.key),
        file_name=f"{base}.skops",
        mime="application/octet-stream",
        help="The fitted tree in the skops format, which loads without running code from "
        "the file (unlike pickle). How to load it is shown below.",
    )
    c2.download_button(
        "Download a script that rebuilds it",
        script.encode(),
        file_name=f"rebuild_{base}.py",
        mime="text/x-python",
        help="Loads the data, splits it as the app did and fits the same tree.",
    )
    st.caption("Load the downloaded model in Python:")
    st.code(export.LOAD_SNIPPET.format(file=python_text(f"{base}.skops")), language="python")
    with st.expander("The rebuild script"):
        st.code(script, language="python")


def member_tree(forest, sp, spec):
    """The forest's member tree the reader picks, with the training rows it was grown on."""
    n = len(forest.estimators_)
    s = st.session_state
    s["member"] = regions.member_index(forest)
    st.sidebar.number_input(
        "Member tree #",
        0,
        n - 1,
        step=1,
        key="member",
        help=f"The model is a forest of {n} trees (chosen on the Decision regions page); "
        "this page draws one of them, with its own bootstrap sample and splits.",
    )
    k = int(s["member"])
    st.info(
        f"Showing member tree #{k} of the forest's {n}. The forest averages all {n} trees' "
        "probabilities and decides a row when at least half of them do.",
        icon="🌲",
    )
    rows = tree.member_rows(forest, k, len(sp.y_train))
    X = sp.X_train.iloc[rows].reset_index(drop=True)
    return (
        forest.estimators_[k],
        X.to_numpy(dtype="float32"),
        sp.y_train[rows],
        (spec.key, "member", k),
    )


def clicked_path(ds, key, clf, names):
    """The path, through ``clf``, of the row last clicked on the Decision regions page."""
    clicked = st.session_state.get("clicked_row")
    if not clicked or clicked.get("data_key") != key or clicked.get("index") not in ds.X.index:
        return None, None
    x = ds.X.loc[clicked["index"], names].to_numpy(dtype=float)
    story = why.row_story(clf, x, names)
    verdict = "flagged" if story.flagged else "decided"
    note = (
        f"Thick edges: the way of row {clicked['index']} (clicked on the Decision regions "
        f"page; this tree {verdict} it) through this tree; a zone it falls in forks it in orange."
    )
    return story.path, note


def diagram_depth(depth: int) -> int | None:
    """How deep the diagram is drawn: whole up to `tree.DIAGRAM_DEPTH`, deeper trees
    collapsed below the depth the reader picks (a depth-8 tree drew 1,291 px wide and
    thousands tall, its right side out of sight), never shrunk."""
    if depth <= tree.DIAGRAM_DEPTH:
        return None
    s = st.session_state
    if not 1 <= s.get("diagram_depth", 0) <= depth:  # new, or kept from a deeper tree
        s["diagram_depth"] = tree.DIAGRAM_DEPTH
    return int(
        st.number_input(
            "Draw the diagram down to depth",
            1,
            depth,
            key="diagram_depth",
            help=f"The tree has depth {depth}. Deeper subtrees are drawn as (…) so the diagram "
            "keeps readable text; raise this to draw more (the diagram then scrolls sideways). "
            "The downloads always hold the whole tree.",
        )
    )


with page_guard("drawing the tree"):
    ds, key = links.page_dataset()  # painted points too, while they are every page's
    name_dataset(ds)
    model.model_sidebar()
    with st.sidebar:
        if st.session_state.get("model") == "forest":
            st.caption(
                "Model: a forest of ternary trees (set on the Decision regions page). "
                "Routing must be probabilistic or deferred."
            )
        st.radio(
            "Fit the tree on",
            ("all features", "the two plotted features"),
            key="tree_features",
            help="'the two plotted features' gives the tree behind the Decision regions "
            "picture; 'all features' the tree a practitioner would use.",
        )
        st.toggle(
            "Class bars in the nodes",
            key="class_bars",
            help="Under each node's text, a bar split by its training rows' classes, in the "
            "classes' colours (as dtreeviz draws them): how pure each node is at a glance.",
        )
    features = None
    if st.session_state["tree_features"] != "all features" and ds.n_features > 2:
        features = model.feature_pickers(ds)
    problem = model.forest_problem()
    if problem:
        st.info(problem, icon="ℹ️")
        st.stop()
    spec = model.current_spec(key, features)
    s = st.session_state
    sp = model.split_data(ds, spec)
    # above the on-arrival budget: the estimate and a button; a rerun or a closed tab stops it
    clf = fitted = cost.bounded(
        cost.tree_seconds(spec, ds.n_samples, ds.n_features),
        spec.key,
        lambda: model.fit(sp, spec),
        what="fit this " + ("forest" if spec.forest else "tree"),
        label="Fit",
    )
    names = list(sp.X_train.columns.astype(str))
    X_rows, y_rows, tree_key = sp.X_train, sp.y_train, spec.key
    if model.is_forest(clf):
        clf, X_rows, y_rows, tree_key = member_tree(clf, sp, spec)
    nodes = tree.internal_nodes(clf)
    path, path_note = clicked_path(ds, key, clf, names)
    context.fit_alert(clf, X_rows, y_rows)  # issue 37: a single leaf etc. said in one line

    # the diagram goes on top but is drawn last, once the inspected node is known; the rules
    # follow it. The diagram has the page's whole width: beside the rules, a depth-4 tree's
    # text was shrunk below 6 px
    diagram, rules_side = st.container(), st.container()
    st.subheader("Node inspector")
    if not nodes:
        st.info("The tree is a single leaf: there is no split to inspect.")
        node = None
    else:
        if s.get("inspect_node") not in nodes:
            s["inspect_node"] = nodes[0]
        pick, view = st.columns([1, 2])
        with pick:
            node = st.selectbox(
                "Node",
                nodes,
                key="inspect_node",
                format_func=lambda n: capped(tree.node_caption(clf, n, names)),
                help="A split node of the tree. Its training rows, θ and zone are shown here; "
                "it is outlined in red in the diagram.",
            )
            own = spec.params["delta_method"]
            method = st.selectbox(
                "What would this δ method say here?",
                vocabulary.ZONE_METHODS,
                index=vocabulary.ZONE_METHODS.index(own) if own in vocabulary.ZONE_METHODS else 0,
                format_func=vocabulary.METHOD_LABELS.get,
                key="inspect_method",
                help="Compute δ at this node with another method, on the same rows, "
                "to compare the zones the five methods would draw.",
            )
        with view:
            fig = tree.node_figure(clf, X_rows, y_rows, tree_key, int(node), method)
            st.plotly_chart(present.figure(fig), width="stretch", key="node_chart")
        # under both, at the page's width: in the narrow column its last columns were cut
        explanation = tree.node_explanation(clf, X_rows, y_rows, tree_key, int(node))
        st.caption(
            "δ at this node by each method: raw, then clamped to the cap and "
            "scaled; 'model method' marks the tree's own."
        )
        st.table(inert_table(present.readable(explanation.delta_table()).set_index("delta method")))

    with diagram:
        dot = tree.tree_dot(clf, tree_key, node, tuple(names), path)  # downloads: legend inside
        # at its natural size (14 px text), scrolling sideways when wider than the page; the
        # legend under it, so the tree has the whole width (larger text when presenting)
        scale = 1.3 if s.get("present") else 1.0
        drawn_depth = diagram_depth(clf.get_depth())
        for legend in ("none", "only"):
            shown = tree.tree_dot(
                clf,
                tree_key,
                node,
                tuple(names),
                path,
                legend,
                scale,
                True,
                drawn_depth,
                class_bars=bool(s.get("class_bars")),
            )
            if legend == "none" and s.get("present"):
                # the window's height left under the title; the drawing fitted into it
                with present.screen_box("tree_screen", ABOVE_PX):
                    st.graphviz_chart(shown, width="stretch", height="stretch")
            else:
                st.graphviz_chart(shown, width="content")
        if path_note:
            st.caption(plain(path_note))
        st.caption(
            f"{clf.tree_.node_count} nodes, {clf.tree_.n_leaves} leaves, depth "
            f"{clf.get_depth()}, fitted on {len(y_rows)} training rows"
            + (" (a bootstrap sample, repeats counted)." if tree_key != spec.key else ".")
        )
        st.caption(context.majority_note(y_rows, y_rows, f"the {len(y_rows)} training rows"))
        c1, c2 = st.columns(2)
        base = f"tree_{ds.name.replace(' ', '_')}"
        c1.download_button(
            "Download DOT",
            dot.encode(),
            file_name=f"{base}.dot",
            mime="text/vnd.graphviz",
            help="Graphviz source of the diagram; render it with `dot -Tpdf`. The SVG "
            "download appears beside it where Graphviz's `dot` program is installed "
            "(`apt-get install graphviz`).",
        )
        svg = tree.tree_svg(dot)
        if svg is not None:
            c2.download_button(
                "Download SVG",
                svg,
                file_name=f"{base}.svg",
                mime="image/svg+xml",
                help="The diagram as a vector image for slides and papers.",
            )

    with rules_side, page_guard("listing the rules"):
        rules.rules_panel(clf, X_rows, y_rows, tree_key, names, fitted, base)

    with page_guard("preparing the exports"):
        take_away(ds, spec, clf, base, names)
