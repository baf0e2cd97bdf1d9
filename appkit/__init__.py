"""The Streamlit app's layer between the pages and `ternary` / `viz`.

The pages stay thin: they read widgets, call the functions here (which call
`ternary` and `viz`) and render what comes back. One module per concern:

- `appkit.state`: defaults and the session keys the pages share;
- `appkit.vocabulary`: labels and help texts of the library's names;
- `appkit.paper`: the numbers quoted from the paper, in one place;
- `appkit.guard`: `page_guard`, problems as readable messages;
- `appkit.datasets`: the sidebar dataset picker, uploads and OpenML;
- `appkit.specs`: `FitSpec` / `CVSpec`, whose ``.key`` every cache uses, and the
  model settings read from the library's parameter table (no Streamlit);
- `appkit.model`: the model sidebar (the widgets over `appkit.specs`) and the cached fit;
- `appkit.answers`: the one place that asks a fitted model what a figure draws
  (grid probabilities and verdicts, scores, the `viz.ShadowTree`); `viz` only draws;
- `appkit.links`: the whole setting in the address (``st.query_params``),
  ``hide=`` for a lecture, presets;
- one module of helpers per page: `appkit.regions` (with `appkit.why`, the
  clicked row's path), `appkit.tree` (with `appkit.export`, skops and a rebuild
  script), `appkit.coverage` (with the risk–coverage curves), `appkit.grafting`;
- `appkit.warmup`: one-off costs of a fresh server, paid in the background.

Everything that costs time is cached: datasets and result tables with
``st.cache_data`` (callers get copies), fitted models and figures with
``st.cache_resource`` (shared; pages never modify them).
"""
