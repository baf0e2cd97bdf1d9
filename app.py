"""Entry point of the ternary app: ``streamlit run app.py``.

Declares the pages once with ``st.navigation``, draws the dataset picker every
page shares, and holds the Home page.

Started by ``streamlit run app.py``, the file plays two parts: imported, it is
the server (``st.App``, whose start-up hook runs `appkit.warmup` before the
first visitor arrives); run as ``__main__``, it is the page script. Only
Streamlit is imported before the navigation and the Home page's opening text
are drawn.
"""

import streamlit as st

#: every visit: tree diagrams at their natural size (scrolling sideways when wider than the
#: page, never shrunk), and metric and navigation labels that wrap instead of ending in "…"
BASE_CSS = """
<style>
[data-testid="stGraphVizChart"] { overflow-x: auto; padding-bottom: 2px; }
/* a scrollbar that shows before one scrolls (overlay scrollbars hide until used), so a wide
   tree's cut-off right side reads as "scroll sideways" on a projector */
[data-testid="stGraphVizChart"]::-webkit-scrollbar { height: 14px; }
[data-testid="stGraphVizChart"]::-webkit-scrollbar-track { background: #e6e6e6; }
[data-testid="stGraphVizChart"]::-webkit-scrollbar-thumb {
  background: #8a8a8a; border-radius: 7px; border: 3px solid #e6e6e6; }
[data-testid="stGraphVizChart"] > svg { max-width: none !important; }
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] *,
[data-testid="stSidebarNav"] a .stMarkdownEllipsis, [data-testid="stSidebarNav"] a p {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
</style>
"""

#: presentation mode: everything larger, for the back row of a lecture hall. Plotly's text is
#: enlarged in the figures themselves (`viz.presentation_figure`), where plotly can lay it
#: out; CSS that enlarged it after layout made legends overlap and clipped their entries
PRESENTATION_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] { font-size: 1.15rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 2.2rem !important; }
h2, h3 { font-size: 1.6rem !important; }
[data-testid="stSidebarNav"] p { font-size: 1rem !important; line-height: 1.3; }
/* no plotly toolbar over the figures' titles while projecting (nobody zooms from the back) */
.js-plotly-plot .modebar-container { display: none !important; }
/* the first screen is the figure's: a lower header band and title, the title's explanation
   behind its "?" (appkit.present.page_head) */
[data-testid="stMainBlockContainer"] { padding: 3.6rem 2.5rem 2rem 2.5rem !important; }
h1 { font-size: 2rem !important; padding: 0 0 0.1rem 0 !important; }
/* a metric card in one line: its label, then its value */
[data-testid="stMetric"] > div { display: flex; align-items: baseline; column-gap: 0.4rem;
  flex-wrap: wrap; }
[data-testid="stMetricLabel"] p { font-size: 0.85rem !important; white-space: nowrap !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * {
  font-size: 1.3rem !important; line-height: 1.2 !important; }
/* the lecture view (appkit.lecture): the regions over the accuracy-coverage point on the
   left, 11 : 9 to the tree on the right; the tree's drawing fitted to its box */
div:has(> .st-key-lecture_left) { flex: 11 1 0 !important; min-width: 0; }
div:has(> .st-key-lecture_tree) { flex: 9 1 0 !important; min-width: 0; }
div:has(> .st-key-lecture_regions) { flex: 11 1 0 !important; min-height: 0; }
div:has(> .st-key-lecture_coverage) { flex: 9 1 0 !important; min-height: 0; }
.st-key-lecture_tree [data-testid="stGraphVizChart"] svg,
.st-key-tree_screen [data-testid="stGraphVizChart"] svg {
  width: 100% !important; height: 100% !important; max-width: none !important; }
.st-key-lecture_tree [data-testid="stGraphVizChart"],
.st-key-tree_screen [data-testid="stGraphVizChart"] { overflow: hidden !important; }
/* last, to win over the rules above: below 1200 px (a 1024 px projector) smaller cards,
   without their "?", still in one line */
@media (max-width: 1200px) {
  [data-testid="stMetricLabel"] p { font-size: 0.65rem !important; }
  [data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 1rem !important; }
  [data-testid="stMetric"] [data-testid="stTooltipIcon"] { display: none; }
  :root { --above-lecture: 290px; }
}
</style>
"""


def intro() -> None:
    st.title("Ternary decision trees")
    st.markdown(
        "A ternary decision tree is a CART tree whose every split *x ≤ θ* carries an "
        "**uncertainty zone** θ − δ < x ≤ θ + δ, with a half-width δ computed from the training "
        "rows that reach that node. A row that lands inside a zone still gets a class, blended "
        "from both sides of the split, but it is flagged **boundary-uncertain**; every other row "
        "is **decided**. The tree thus says *where* it is unsure, and its accuracy on the decided "
        "rows is typically higher than plain CART's (Smits 2026); grafting (Webb 1997) can "
        "further repair regions a tree labels wrongly."
    )


def home() -> None:
    from appkit import datasets, links
    from appkit.guard import page_guard, plain

    with page_guard("loading the dataset"):
        ds, _ = links.page_dataset()  # painted points too, while they are every page's
        st.subheader(f"Dataset: {plain(ds.name)}")
        cols = st.columns(4)
        helps = {
            "Rows": "Number of examples.",
            "Features": "Number of numeric feature columns (after encoding).",
            "Classes": "Number of distinct labels.",
            "Bayes error": "The lowest error any classifier can reach on this distribution; "
            "known for the synthetic sets only. A well-calibrated zone would "
            "flag about this share of the rows.",
        }
        for col, (label, value) in zip(cols, datasets.dataset_summary(ds).items(), strict=True):
            col.metric(label, value, help=helps[label])
        counts = datasets.class_counts(ds)
        st.caption("Rows per class: " + ", ".join(f"{plain(k)}: {v}" for k, v in counts.items()))
        if ds.report:
            with st.expander("How this dataset was built"):
                st.markdown("\n".join(f"- {plain(line)}" for line in ds.report))
        with st.expander("First rows"):
            st.dataframe(datasets.preview(ds, 10), hide_index=True)
    st.subheader("Where to go")
    st.page_link(
        PAGES["regions"],
        icon=":material/map:",
        label="Decision regions — see where the tree is unsure, and how often it is "
        "right where it is sure",
    )
    st.page_link(
        PAGES["tree"],
        icon=":material/account_tree:",
        label="Tree diagram — every split with its θ and δ; inspect one node",
    )
    st.page_link(
        PAGES["coverage"],
        icon=":material/scatter_plot:",
        label="Accuracy vs. coverage — all δ methods cross-validated, as in Fig. 2 of the paper",
    )
    st.page_link(
        PAGES["grafting"],
        icon=":material/call_split:",
        label="Grafting — CART against CART with Webb's grafts",
    )
    st.page_link(
        PAGES["data"],
        icon=":material/upload_file:",
        label="Your data — upload a CSV or ARFF file, or fetch one from OpenML",
    )
    st.caption("Pick the dataset in the sidebar; every page uses it.")
    presets()


def presets() -> None:
    from appkit import links

    st.subheader("Start from a scenario")
    st.caption(
        "Each link opens its page with the paper's setting; the address then holds every "
        "setting you change, so copying it shares exactly what you see. Add "
        "`&hide=model` (or a comma list of controls such as `delta_method,routing`) to hide "
        "controls, and `&present=1` for presentation mode."
    )
    for label, page, params in links.PRESETS:
        st.page_link(PAGES[page], label=label, icon=":material/bookmark:", query_params=params)
        st.caption(links.PRESET_SOURCES[label])


def copy_link(slot) -> None:
    """The current address (settings, ``present`` and ``hide`` included), with a copy button."""
    from urllib.parse import urlencode

    base = str(getattr(st.context, "url", "") or "").split("?")[0]
    query = urlencode({k: st.query_params[k] for k in st.query_params})
    with slot.container():
        st.caption("Link to this view (the copy button is at its right):")
        st.code(base + ("?" + query if query else ""), language=None, wrap_lines=True)


def painted_note() -> None:
    """In the sidebar, while painted points are every page's dataset: say so, and how to
    leave them (the picker above still names the dataset they were painted over)."""
    from appkit import links, paint
    from appkit.guard import capped

    points = st.session_state.get("paint_points") or []
    if links.painting() and paint.problem(points) is None:
        st.sidebar.info(
            f"Every page shows the {len(points)} painted points (Decision regions, Paint "
            "your points). Pick another dataset above to leave them, or:",
            icon=":material/brush:",
        )
        st.sidebar.button(
            f"Back to {capped(st.session_state.get('dataset', ''))}",
            key="paint_leave",
            on_click=st.session_state.update,
            kwargs={"paint_on": False},
            help="Stop using the painted points on every page; they stay on the canvas.",
        )


#: the pages by name, declared by `main` on every run (`st.Page` wants a running script)
PAGES: dict = {}


def declare_pages() -> dict:
    """Every page of the app by short name, Home first."""
    return {
        "home": st.Page(home, title="Home", icon=":material/home:", default=True),
        "regions": st.Page(
            "app_pages/1_decision_regions.py", title="Decision regions", icon=":material/map:"
        ),
        "tree": st.Page(
            "app_pages/2_tree_diagram.py", title="Tree diagram", icon=":material/account_tree:"
        ),
        "coverage": st.Page(
            "app_pages/3_accuracy_coverage.py",
            title="Accuracy vs. coverage",
            icon=":material/scatter_plot:",
        ),
        "grafting": st.Page(
            "app_pages/4_grafting.py", title="Grafting", icon=":material/call_split:"
        ),
        "data": st.Page(
            "app_pages/5_your_data.py", title="Your data", icon=":material/upload_file:"
        ),
    }


def main() -> None:
    st.set_page_config(
        page_title="ternary — decision trees that say where they are unsure",
        page_icon=":material/account_tree:",
        layout="wide",
        # a projected lecture starts with the whole width for the figure
        initial_sidebar_state="collapsed" if st.query_params.get("present") else "auto",
    )
    PAGES.update(declare_pages())
    page = st.navigation(list(PAGES.values()))
    if page.title == PAGES["home"].title:
        intro()
    from appkit import datasets, links, state, warmup
    from appkit.guard import page_guard, plain

    state.init_state()
    state.clear_on_page()
    for message in links.restore():
        # the values come from whoever wrote the link: shown as plain text
        st.toast(plain(f"Ignored from the link: {message}"), icon="⚠️")
    state.keep_state()
    with page_guard("drawing the dataset picker"):
        datasets.dataset_sidebar()
        links.end_paint_on_new_pick()  # another dataset picked: the painted points step back
        painted_note()
    if state.shown("present"):
        st.sidebar.toggle(
            "Presentation mode",
            key="present",
            help="Larger text for projecting; the link then opens with the sidebar closed.",
        )
    st.html(BASE_CSS)
    if st.session_state.get("present"):
        st.html(PRESENTATION_CSS)
    link_slot = st.sidebar.empty()
    starting = st.empty()
    waiting_for = warmup.status()
    if waiting_for:  # a fresh server still compiling: say what the page waits for
        starting.info(waiting_for, icon=":material/hourglass_top:")
    try:
        page.run()
    finally:  # a page that stops early (st.stop) still leaves its setting in the address
        starting.empty()
        links.sync()
        copy_link(link_slot)


if __name__ == "__main__":  # Streamlit runs this file as its script, once per page run
    main()
else:
    # `streamlit run app.py` first imports this file, finds this st.App and serves it: its
    # start-up hook pays the imports, the compile and the default figures before any visitor
    from appkit import warmup as _warmup

    app = st.App(__file__, lifespan=_warmup.lifespan)
