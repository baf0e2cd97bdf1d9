"""Datasets for ternary trees: built-in generators and tolerant file loaders.

Everything here returns a :class:`Dataset`: a float64 feature frame, a 1-D label
array that keeps the original label values, and a ``report`` of what loading did
(rows dropped, values imputed, columns encoded or dropped), so the app can show a
person exactly how their file was turned into a classification problem.

Loaders never let a raw pandas, csv, arff or openml exception escape: every
problem is re-raised as :class:`DataError` whose message says what is wrong *and*
what to do about it. Loaders never modify the bytes or the file object they are
given.

Three families of data are provided:

* built-in generators that need no network (two moons, circles, xor, blobs and
  Breiman's twonorm, ringnorm and waveform, each with its published Bayes error)
  and scikit-learn's bundled datasets (iris, wine, breast cancer, digits);
* ``load_csv`` / ``load_arff`` / ``load_file`` for user files and uploads, and
  ``read_header`` for a file's column names as its loader will name them
  (``read_csv_header`` / ``read_arff_header`` when the format is known; ``read_header``
  picks one by file name like ``load_file``, and by content for bare bytes);
* ``load_openml`` with an offline cache, and ``openml_cc18_tasks``.

One writer goes the other way: ``to_csv`` writes every CSV the project hands out (the
app's downloads, ``ternary predict --out``, ``ternary report --format csv``) with cells
and headers that a spreadsheet would read as a formula escaped.

Every load has a bounded cost. A path must be a regular file (a named pipe or a
device is refused without being opened for reading); at most ``MAX_FILE_BYTES``
(200 MB) are read; a line may be at most 1 MB long; a text file may hold at most
200,000 data rows, 2,000 columns and 10 million values (rows × columns; each a
field of `LoadLimits`, which every loader takes as ``limits=``, or one by one as the
keywords ``max_rows``, ``max_columns``, ``max_values``), and an
ARFF file that only the pure-Python parsers can read at most 500,000 values. All of
these are checked before the data rows are parsed, with lines counted where the
parser ends them (LF, CRLF or a lone CR; the scans are public in ``ternary.data.scan``),
and OpenML downloads are held to the same row, column and byte limits.

One private module per concern sits behind this namespace: ``_dataset`` (the
container and the error), ``_builtin``, ``_source`` (bytes and decoding),
``_clean`` (options, limits, the target, a column's conversion), ``_columns`` (the
reading rules: gap markers, spellings, identifiers), ``_dates``, ``_encode`` (a
column's encoded outputs), ``_preprocess`` (the fitted `Preprocessor`), ``_assemble``
(a parsed table to a Dataset), ``_lines`` (the file line of each row), ``_limits``
(`LoadLimits`), ``_csv``,
``_arff``, ``_files``, ``_openml``, ``_rows`` and ``_csvout`` (the writer). Imports
among them go one way, in that order of use.
"""

from ._arff import load_arff, read_arff_header
from ._builtin import (
    BUILTIN_DATASETS,
    DEFAULT_DATASET,
    load_breast_cancer,
    load_builtin,
    load_digits,
    load_iris,
    load_wine,
    make_blobs_dataset,
    make_circles_dataset,
    make_moons_dataset,
    make_ringnorm,
    make_twonorm,
    make_waveform,
    make_xor_dataset,
)
from ._csv import load_csv, read_csv_header
from ._csvout import to_csv
from ._dataset import DataError, Dataset
from ._files import list_local_arff, load_file, read_header
from ._limits import LoadLimits
from ._openml import load_openml, openml_cc18_tasks
from ._preprocess import Preprocessor, TransformReport
from ._rows import read_rows
from ._source import MAX_FILE_BYTES

__all__ = [
    "BUILTIN_DATASETS",
    "DEFAULT_DATASET",
    "MAX_FILE_BYTES",
    "Preprocessor",
    "TransformReport",
    "DataError",
    "Dataset",
    "LoadLimits",
    "list_local_arff",
    "load_arff",
    "load_breast_cancer",
    "load_builtin",
    "load_csv",
    "load_digits",
    "load_file",
    "load_iris",
    "load_openml",
    "load_wine",
    "make_blobs_dataset",
    "make_circles_dataset",
    "make_moons_dataset",
    "make_ringnorm",
    "make_twonorm",
    "make_waveform",
    "make_xor_dataset",
    "openml_cc18_tasks",
    "read_arff_header",
    "read_csv_header",
    "read_header",
    "read_rows",
    "to_csv",
]
