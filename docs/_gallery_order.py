"""The gallery's order: the paper's figures first, the pipeline last (sphinx-gallery key)."""

ORDER = [
    "plot_fig1_two_moons.py",
    "plot_fig3_fig4_breast_cancer.py",
    "plot_delta_methods.py",
    "plot_risk_coverage_chow.py",
    "plot_bayes_scale.py",
    "plot_explain_row.py",
    "plot_grafting_webb.py",
    "plot_forest.py",
    "plot_pipeline_new_rows.py",
]


class ExampleOrder:
    """Sort key of sphinx-gallery's ``within_subsection_order``: ORDER, then by name."""

    def __init__(self, src_dir: str):
        self.src_dir = src_dir

    def __call__(self, filename: str) -> tuple[int, str]:
        rank = ORDER.index(filename) if filename in ORDER else len(ORDER)
        return rank, filename

    def __repr__(self) -> str:
        return "ExampleOrder"
