"""Cross-validated experiments in the protocol of Smits (2026, section 4).

Every δ method × routing combination is scored with stratified 5-fold
cross-validation, features standardised on each training fold, trees of depth 4,
against scikit-learn's CART at the same depth. Four functions cover the work:

* `run_cv` scores a list of combinations on one dataset and returns a tidy
  table, one row per (combination, fold); `out_of_fold_answers` gives one model's
  answer for every row instead, from the fold that held the row out;
* `summarize` turns such rows (of one or many datasets) into the paper's
  tables: decided accuracy ± std, uncertain rate, efficiency η, U/B, and over
  several datasets the win/tie/loss counts and a one-sided Wilcoxon test;
* `run_suite` runs `run_cv` over many datasets and commits every finished row
  to a SQLite results database (or a CSV file), so an interrupted run resumes
  where it stopped; `read_results` and `write_results` read any results file
  and convert between the two;
* `report_main` is ``ternary report``: the paper's tables with the tests that
  matter (against CART, against Chow's rule at the same flag rate, AURC; Holm's
  correction; Friedman and the critical-difference diagram);
* `chow_curve` / `chow_curve_cv` give CART's accuracy–coverage curve, and
  `ChowReference` one fold's Chow scores and AURCs from one sort (as `run_cv` uses them).

The paper compares decided accuracy with CART's accuracy on *all* rows, which
flatters any method that flags many rows: dropping the hardest rows raises
accuracy whatever the flags mean. Each row here therefore also carries
``chow_decided_accuracy``: the decided accuracy CART itself reaches on the same
fold when it flags the same number of test rows, chosen by Chow's (1970) reject
rule (the rows with the lowest maximum class probability). A δ method only adds
something if it beats that.

Printing, progress bars and plots belong to callers; they pass a ``progress``
callback. The command line ``python -m ternary.experiment --help`` is such a
caller (see `main`).

The package holds one module per concern: ``_combos`` (the combinations and
their labels), ``_chow`` (the baseline), ``_cv`` (`run_cv`: folds and CART
references), ``_answers`` (`out_of_fold_answers`), ``_tasks`` (the fits and
scores a worker runs), ``_parallel`` (joblib or a Dask cluster), ``_summary``
(`summarize`), ``_store`` (the results database), ``_csvstore`` (the CSV results
file), ``_report`` and ``_render`` (``ternary report``), ``_suite`` (`run_suite`) and
``_cli`` (the command line that ``__main__`` runs).
"""

from ternary.experiment._answers import out_of_fold_answers
from ternary.experiment._baselines import laplace_cart_confidence, laplace_forest_confidence
from ternary.experiment._chow import ChowReference, chow_curve, chow_decided_accuracy
from ternary.experiment._cli import main
from ternary.experiment._combos import (
    COMBO_SETS,
    DEFAULT_COMBOS,
    PAPER_DELTA_METHODS,
    combo_label,
)
from ternary.experiment._csvstore import ResultsFileError, ResultsFileWarning
from ternary.experiment._cv import chow_curve_cv, classes_too_small, run_cv
from ternary.experiment._parallel import ClusterError
from ternary.experiment._report import compare_to_baselines
from ternary.experiment._report import main as report_main
from ternary.experiment._store import read_results, write_results
from ternary.experiment._suite import run_suite
from ternary.experiment._summary import summarize

__all__ = [
    "COMBO_SETS",
    "ClusterError",
    "DEFAULT_COMBOS",
    "PAPER_DELTA_METHODS",
    "ChowReference",
    "ResultsFileError",
    "ResultsFileWarning",
    "chow_curve",
    "chow_curve_cv",
    "chow_decided_accuracy",
    "classes_too_small",
    "compare_to_baselines",
    "combo_label",
    "laplace_cart_confidence",
    "laplace_forest_confidence",
    "main",
    "out_of_fold_answers",
    "read_results",
    "report_main",
    "run_cv",
    "run_suite",
    "summarize",
    "write_results",
]
