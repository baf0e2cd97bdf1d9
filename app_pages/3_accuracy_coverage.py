"""Accuracy vs. coverage: every δ method cross-validated, as in Fig. 2 of the paper."""

import streamlit as st

from appkit import context, coverage, links, model, paper, present, vocabulary
from appkit.guard import inert_table, page_guard, plain
from appkit.model import CVSpec, FitSpec
from appkit.state import DEFAULTS
from ternary.data import to_csv

#: presenting, each view's explanation folds into the title's "?" and its figure fills the
#: window's height left under the title and the tabs (`present.screen_box`)
name_dataset = present.page_head(
    "Accuracy vs. coverage",
    "Each marker is one (δ method, routing) combination, cross-validated on the dataset "
    "shown (or, in the paper's view, the means of its Table 5): how many test rows it flags "
    "boundary-uncertain (x) against its accuracy on the rows it decides (y).",
)
#: what stands above the figure when presenting, in px (header band, title, tabs; measured)
ABOVE_PX = 250


def dataset_caption() -> None:
    """What this dataset's figure draws (the paper view has its own caption)."""
    (st.expander("What the figure shows") if present.on() else st.container()).caption(
        "Each marker is one (δ method, routing) combination, averaged over the "
        "cross-validation folds: how many test rows it flags boundary-uncertain (x) against "
        "its accuracy on the rows it decides (y); circles = probabilistic routing, diamonds = "
        "hard middle. The dashed line is CART; the dotted lines are efficiencies η (accuracy "
        "gained per unit flagged). The solid curve is CART flagging its own least confident "
        "rows (Chow's reject rule): a δ method adds something only above it."
    )


def progress_bar(label: str):
    """A progress bar and the ``(done, total, message)`` callback that moves it."""
    bar = st.progress(0.0, text=label)

    def update(done, total, message=""):
        bar.progress(min(done / max(total, 1), 1.0), text=f"{label} {done}/{total} {message}")

    return bar, update


def use_operating_point(setting) -> None:
    """Make a clicked sweep point the model setting of the other pages."""
    if setting is None:
        st.caption("Click a point of the sweep to use its setting on the other pages.")
        return
    s = st.session_state
    if s.get("_applied_point") != setting:
        s["_applied_point"] = setting
        s.update(setting)
    shown = ", ".join(f"{k} = {v}" for k, v in setting.items())
    st.success(f"The Decision regions and Tree diagram pages now use {shown}.")


def use_curve_point(ds, spec, point) -> None:
    """Make a clicked risk–coverage point the δ scale of the other pages."""
    if point is None:
        st.caption(
            "Click a point on a δ method's curve to use that flagged share on the other pages."
        )
        return
    method, share = point
    found = coverage.curve_point_setting(ds, spec, method, share)
    if found is None:
        st.info(
            "That curve ranks rows by class probability and has no zone to widen; click a "
            "point on a δ method's curve to set a δ scale.",
            icon="ℹ️",
        )
        return
    setting, flagged = found
    s = st.session_state
    if s.get("_applied_curve_point") != setting:
        s["_applied_curve_point"] = setting
        s.update(setting)
    st.success(
        f"Set for the other pages: {vocabulary.METHOD_LABELS.get(method, method)}, "
        f"probabilistic routing, δ scale = {setting['delta_scale']:g}. On this page's tree (all "
        f"features, depth {spec.params['max_depth']}) that scale flags {flagged:.1%} of the "
        f"held-out rows (you clicked {share:.1%}); the zones now flag the rows nearest to a "
        "split, which can differ from the rows this curve ranks least confident. The Decision "
        "regions page fits on its two plotted features, so its share differs too."
        + (
            " The Model choice stays forest: its trees take the new δ scale too."
            if s.get("model") == "forest"
            else ""
        )
    )


def selective_section(ds, key, request) -> None:
    """Risk–coverage curves of every method's own confidence ranking, with AURC / E-AURC."""
    st.subheader("Accuracy on the rows kept, as the flagged share grows")
    s = st.session_state
    spec = FitSpec(
        key,
        None,
        DEFAULTS["test_size"],
        request.seed,
        {"delta_method": "none", "max_depth": request.max_depth, "random_state": request.seed},
    )
    forest = None
    if s.get("model") == "forest":
        forest = coverage.forest_spec(spec, model.model_params())
    view = coverage.selective_view(ds, spec, forest)
    result = view.result
    st.caption(
        "A fixed δ is one point above. Ranking the held-out rows by each method's "
        "`predict_confidence` and flagging the least confident first traces its whole curve: "
        "the accuracy on the rows kept (y) as the flagged share grows (x). CART's dashed curve "
        "ranks by its largest class probability (Chow's rule); the grey one by its "
        "Laplace-smoothed leaf, (n_c+1)/(n+K), the row's distance to the nearest threshold "
        "breaking ties: the strongest zone-free ranking measured, the one to beat. "
        f"{result.n_test} held-out rows "
        f"({DEFAULTS['test_size']:.0%} of the data, seed {request.seed}), depth "
        f"{request.max_depth}, probabilistic routing. The star is the margin tree with "
        '`delta_scale="bayes"`: its zones scaled so that the share it flags matches the '
        "Bayes error it estimates from the training rows."
        + (
            f" The brown curve is the {coverage.forest_label(forest)} ranking by its "
            "`predict_confidence`; its star is where its own verdict puts it."
            if forest is not None
            else ""
        )
    )
    # the table under the figure, at the page's width: in a column beside it (2/5 of the
    # page) its last column was cut off at 1400 px (issue 37)
    event = st.plotly_chart(
        present.figure(view.figure),
        width="stretch",
        key="risk_chart",
        on_select="rerun",
        selection_mode="points",
    )
    use_curve_point(ds, spec, coverage.selected_curve_point(event))
    st.dataframe(view.table, hide_index=True, width="stretch")
    st.caption(
        "AURC: the mean error rate on the kept rows over all coverages (lower is better). "
        "E-AURC: AURC minus the best a perfect ranking could reach at the same error rate, "
        "so only the ranking counts (Geifman et al. 2019)."
    )


def paper_view() -> None:
    """The paper's Fig. 2 redrawn from its Table 5, beside the same means from our run."""
    (st.expander("What the figure shows") if present.on() else st.container()).caption(
        "Filled markers: the paper's Table 5, means over 71 OpenML-CC18 datasets (5-fold CV, "
        "depth 4), one per (δ method, routing): circles = probabilistic routing, diamonds = "
        "hard middle, the cross = CART, whose accuracy is the dashed line. Hollow markers: the "
        "same means from our stored reproduction run (`benchmarks/reproduce_paper.py`) over "
        "the 50 CC18 datasets we hold. The dotted lines are efficiencies η (accuracy gained "
        "per unit flagged). Both are published numbers carried in `appkit/paper.py`; nothing "
        "is computed here, and no Chow curve is drawn (it needs the rows). Switch **Show** in "
        "the sidebar to cross-validate the chosen dataset."
    )
    with present.screen_box("coverage_screen", ABOVE_PX - 60):  # no tabs above it
        st.plotly_chart(
            present.figure(paper.fig2_figure(present.label_scale())),
            width="stretch",
            height="stretch" if present.on() else "content",
            key="fig2_chart",
        )
    st.table(inert_table(paper.fig2_table().rename(columns=lambda c: c.replace("_", " "))))
    st.caption(paper.ETA_NOTE)


with page_guard("running the cross-validation"):
    ds, key = links.page_dataset()  # painted points too, while they are every page's
    s = st.session_state
    with st.sidebar:
        st.radio(
            "Show",
            links.COVERAGE_VIEWS,
            key="coverage_view",
            format_func={
                "dataset": "this dataset, cross-validated here",
                "paper": "the paper's Fig. 2 (CC18 means)",
            }.get,
            help="The paper's figure is drawn from its published means (and ours from the "
            "reproduction run); this dataset's is computed live.",
        )
    if s["coverage_view"] == "paper":
        paper_view()
        st.stop()
    name_dataset(ds)  # the paper's view shows no dataset of ours
    if not present.on():
        dataset_caption()
    with st.sidebar:
        st.subheader("Cross-validation")
        st.slider(
            "Folds",
            2,
            10,
            key="cv_folds",
            help="Stratified k-fold cross-validation; the paper uses 5. Every class "
            "needs at least this many rows.",
        )
        st.slider(
            "Max depth", 1, 12, key="cv_max_depth", help="Depth of every tree; the paper uses 4."
        )
        st.number_input(
            "Seed",
            0,
            10_000,
            step=1,
            key="cv_seed",
            help="Seeds the folds and the trees; same seed, same table.",
        )
        st.subheader("Model")
        model.forest_controls()
        st.checkbox(
            "Overlay the paper's CC18 means",
            key="show_paper",
            help="Hollow markers: the means over 71 OpenML-CC18 datasets from Table 5 "
            "of Smits (2026), for orientation (they are not this dataset's).",
        )
    settings = CVSpec(key, s["cv_folds"], s["cv_max_depth"], s["cv_seed"])
    paper_means = paper.paper_cc18_means() if s["show_paper"] else None

    problem = coverage.cv_problem(ds, int(s["cv_folds"]))
    if problem:
        st.error(plain(problem), icon="⚠️")
        st.stop()
    tab_all, tab_sweep = st.tabs(["All 11 combinations", "Parameter sweep"])
    with tab_all:
        n_trees = int(s["n_estimators"]) if s.get("model") == "forest" else 0
        estimate = coverage.estimate_seconds(
            ds.n_samples, ds.n_features, settings.cv, n_trees=n_trees
        )
        if estimate <= coverage.AUTO_RUN_SECONDS or coverage.is_cached(settings):
            # quick enough to draw on arrival, and again whenever a setting changes
            s["cv_request"] = settings
        elif st.button(
            f"Run cross-validation (about {estimate:.0f} s)",
            type="primary",
            key="run_cv",
            help="Fit the 11 combinations of the paper (5 δ methods × 2 routings, "
            "plus CART) on every fold. Results are cached: the same settings "
            "come back at once. The time is a rough estimate for this machine.",
        ):
            s["cv_request"] = settings
        request = s.get("cv_request")
        if request is None or request.data_key != key:
            st.info(
                f"{plain(ds.name)} has {ds.n_samples:,} rows × {ds.n_features} features: the 11 "
                f"combinations × {settings.cv} folds take about {estimate:.0f} s here. Press "
                "**Run cross-validation** to start."
            )
        else:
            if request != settings:
                st.caption(
                    f"Showing the last run ({request.cv} folds, depth {request.max_depth}, "
                    f"seed {request.seed}); press Run to use the new settings."
                )
            # a bar only while a run is under way: a class reruns a cached page at once
            bar = update = None
            if not coverage.is_cached(request):
                bar, update = progress_bar("Cross-validating…")
            results = coverage.cv_results(ds, request, progress=update)
            # derived once per CV setting and shared: a class reruns this page at once
            view = coverage.coverage_view(
                ds, request, results, bool(s["show_paper"]), present.label_scale()
            )
            if bar is not None:
                bar.empty()
            with present.screen_box("coverage_screen", ABOVE_PX):
                st.plotly_chart(
                    present.figure(view.figure),
                    width="stretch",
                    height="stretch" if present.on() else "content",
                    key="coverage_chart",
                )
            if present.on():
                dataset_caption()
            st.caption(context.cv_majority_note(ds.y))  # issue 37: the floor beside accuracy
            st.subheader("Summary")
            st.caption(
                "Means over the folds (± std of decided accuracy). η = (decided accuracy "
                "− CART accuracy) / uncertain share; gain vs Chow = decided accuracy "
                "minus CART's when it flags as many rows by its own confidence."
            )
            st.dataframe(
                view.summary_shown,
                column_config=view.summary_columns,
                hide_index=True,
                width="stretch",
            )
            st.subheader("Wins, ties and losses over the folds")
            st.caption(
                "Per combination: folds where its decided accuracy beats the reference by more "
                "than 0.5 points (win), stays within them (tie) or falls short (loss). CART: "
                "on all rows (the paper's comparison, which flatters any method that flags "
                "rows). Chow and Laplace: CART flagging as many rows, its least confident by "
                "the largest class probability (Chow's rule) or by Laplace-smoothed leaves "
                "(the stronger ranking)."
            )
            st.dataframe(view.win_tie_loss, hide_index=True, width="stretch")
            st.caption(coverage.weak_test_note(int(request.cv)))
            c1, c2 = st.columns(2)
            stem = ds.name.replace(" ", "_")
            c1.download_button(
                "Download summary (CSV)",
                view.summary_csv,
                file_name=f"summary_{stem}.csv",
                mime="text/csv",
                help="The table above.",
            )
            c2.download_button(
                "Download per-fold results (CSV)",
                view.results_csv,
                file_name=f"cv_results_{stem}.csv",
                mime="text/csv",
                help="One row per combination and fold.",
            )
            selective_section(ds, key, request)

    with tab_sweep:
        st.caption(
            "Move one parameter over a range for one δ method and routing, and follow "
            "its operating point across the plot."
        )
        c1, c2, c3 = st.columns(3)
        method = c1.selectbox(
            "δ method",
            vocabulary.ZONE_METHODS,
            key="sweep_method",
            format_func=vocabulary.METHOD_LABELS.get,
            help=vocabulary.METHOD_HELP,
        )
        routing = c2.selectbox(
            "Routing",
            vocabulary.ROUTINGS,
            key="sweep_routing",
            format_func=vocabulary.ROUTING_LABELS.get,
            help=vocabulary.ROUTING_HELP,
        )
        param = c3.selectbox(
            "Parameter",
            coverage.sweep_choices(method),
            key="sweep_param",
            format_func=lambda p: vocabulary.SWEEP_PARAMS[p][0],
            help="The method's own parameter, or the global δ scale.",
        )
        label, bounds, default = vocabulary.SWEEP_PARAMS[param]
        c1, c2 = st.columns([3, 1])
        low, high = c1.slider(
            f"Range of {label}",
            *bounds,
            value=default,
            step=0.01,
            key=f"sweep_range_{param}",
            help="The smallest and largest value to try.",
        )
        steps = c2.number_input(
            "Values",
            2,
            12,
            value=5,
            key="sweep_steps",
            help="How many evenly spaced values to try.",
        )
        values = coverage.sweep_values(low, high, steps)
        sweep_settings = coverage.sweep_spec(settings, method, routing, param, values)
        if st.button(
            "Run sweep",
            type="primary",
            key="run_sweep",
            help=f"{len(values)} values × {int(s['cv_folds'])} folds; cached.",
        ):
            s["sweep_request"] = sweep_settings
        request = s.get("sweep_request")
        if request is None or request.data_key != key:
            st.info("Press **Run sweep** to cross-validate each value.")
        else:
            swept = request.combos[0]
            r_method, r_routing = swept["delta_method"], swept["routing"]
            r_param = next(k for k in swept if k not in ("delta_method", "routing"))
            if request != sweep_settings:
                r_values = ", ".join(f"{c[r_param]:g}" for c in request.combos)
                st.caption(
                    f"Showing the last sweep ({r_method} / {r_routing}, {r_param} = "
                    f"{r_values}); press Run sweep to update."
                )
            bar, update = progress_bar("Sweeping…")
            rows = coverage.cv_results(ds, request, progress=update)
            bar.empty()
            sweep_summary = coverage.with_notes(coverage.summarize(rows, ds.bayes_error), rows)
            trace = coverage.sweep_trace(sweep_summary, r_param)
            baseline = float(rows["cart_accuracy"].mean())
            folds = CVSpec(key, request.cv, request.max_depth, request.seed)
            if s.get("cv_request") == folds:
                base = coverage.summarize(coverage.cv_results(ds, folds), ds.bayes_error)
            else:
                base = coverage.cart_only_summary(rows)
            chow = coverage.chow_curve(ds, folds)
            event = st.plotly_chart(
                present.figure(
                    coverage.coverage_figure(
                        base,
                        baseline,
                        chow,
                        paper_means,
                        sweep=trace,
                        label_scale=present.label_scale(),
                    )
                ),
                width="stretch",
                key="sweep_chart",
                on_select="rerun",
                selection_mode="points",
            )
            use_operating_point(coverage.selected_setting(event))
            # in the order of the swept value, as the sweep was asked for
            order = [r_param] if r_param in sweep_summary else []
            shown, columns = coverage.shown_numbers(
                sweep_summary.sort_values(order) if order else sweep_summary
            )
            st.dataframe(shown, column_config=columns, hide_index=True, width="stretch")
            st.download_button(
                "Download sweep (CSV)",
                to_csv(sweep_summary).encode(),
                file_name=f"sweep_{r_method}_{r_param}.csv",
                mime="text/csv",
                help="One row per swept value.",
            )
