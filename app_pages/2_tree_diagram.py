"""Tree diagram: every split with θ and δ, and an inspector for one node."""

import streamlit as st

from appkit import datasets, export, model, tree, vocabulary
from appkit.guard import page_guard
from ternary import export_text

st.title("Tree diagram")
st.caption(
    "Each split reads feature ≤ θ with its zone half-width δ (red) and the blend range "
    "[θ−δ, θ+δ]; leaves show their class, its share and n. The model settings in the "
    "sidebar are the same as on the Decision regions page."
)


def take_away(ds, spec, clf, base) -> None:
    """The rules as text, the model as a skops file, and a script that rebuilds it."""
    st.subheader("The rules, as text")
    st.caption(
        "Each split as CART routes it, followed by its uncertainty zone: a row inside the "
        "zone still gets a class but is flagged boundary-uncertain (`ternary.export_text`)."
    )
    st.code(export_text(clf), language="text")
    st.subheader("Take the model away")
    user = ds is st.session_state.get("user_dataset")
    script = export.rebuild_script(
        ds,
        spec,
        generator_kwargs=None if user else datasets.builtin_kwargs(ds.name),
        upload=st.session_state.get("upload_source") if user else None,
    )
    c1, c2 = st.columns(2)
    c1.download_button(
        "Download the model (skops)",
        export.model_bytes(clf, spec.key),
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
    st.code(export.LOAD_SNIPPET.format(file=f"{base}.skops"), language="python")
    with st.expander("The rebuild script"):
        st.code(script, language="python")


with page_guard("drawing the tree"):
    ds, key = datasets.current_dataset()
    model.model_sidebar()
    with st.sidebar:
        st.radio(
            "Fit the tree on",
            ("all features", "the two plotted features"),
            key="tree_features",
            help="'the two plotted features' gives the tree behind the Decision regions "
            "picture; 'all features' the tree a practitioner would use.",
        )
    features = None
    if st.session_state["tree_features"] != "all features" and ds.n_features > 2:
        features = model.feature_pickers(ds)
    spec = model.current_spec(key, features)
    s = st.session_state
    sp = model.split_data(ds, spec)
    clf = model.fit(sp, spec)
    names = list(sp.X_train.columns.astype(str))
    nodes = tree.internal_nodes(clf)

    # the diagram goes on top but is drawn last, once the inspected node is known
    diagram = st.container()
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
                format_func=lambda n: tree.node_caption(clf, n, names),
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
            explanation = tree.node_explanation(clf, sp.X_train, sp.y_train, spec.key, int(node))
            st.caption(
                "δ at this node by each method: raw, then clamped to the cap and "
                "scaled; model_method marks the tree's own."
            )
            st.dataframe(explanation.delta_table(), hide_index=True, width="stretch")
        with view:
            fig = tree.node_figure(clf, sp.X_train, sp.y_train, spec.key, int(node), method)
            st.plotly_chart(fig, width="stretch", key="node_chart")

    with diagram:
        dot = tree.tree_dot(clf, spec.key, node)
        st.graphviz_chart(dot, width="stretch")
        st.caption(
            f"{clf.tree_.node_count} nodes, {clf.tree_.n_leaves} leaves, depth "
            f"{clf.get_depth()}, fitted on {len(sp.y_train)} training rows."
        )
        c1, c2 = st.columns(2)
        base = f"tree_{ds.name.replace(' ', '_')}"
        c1.download_button(
            "Download DOT",
            dot.encode(),
            file_name=f"{base}.dot",
            mime="text/vnd.graphviz",
            help="Graphviz source of the diagram; render it with `dot -Tpdf`.",
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
        else:
            c2.info(
                "SVG export needs the Graphviz `dot` program, which is not installed here "
                "(`apt-get install graphviz`). The DOT file is still available."
            )

    with page_guard("preparing the exports"):
        take_away(ds, spec, clf, base)
