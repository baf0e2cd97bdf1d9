"""OpenML: :func:`load_openml` with an offline cache, and :func:`openml_cc18_tasks`.

Cache design
------------
openml's own cache cannot serve a dataset by *name* offline (its name-to-id
lookup always queries the server), and its on-disk layout is internal and has
changed between releases. ``load_openml`` therefore puts a thin cache of its own
in front of it: after the first successful download the raw table is stored as
``<cache_dir>/ternary-frames/<id>/data.csv.gz`` plus ``meta.json`` (name, default
target, nominal levels), and every later call -- by id or by name -- reads from
there first without touching the network. openml's own cache is pointed at the
same ``cache_dir`` so its downloads land there too. openml itself is imported
only when a download is needed.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._assemble import _assemble
from ._clean import (
    _check_shape,
    _Options,
)
from ._dataset import DataError, Dataset
from ._limits import LoadLimits, _reading_options, limits_of
from ._source import _too_large

_OPENML_ENV = "TERNARY_OPENML_CACHE"
_FRAMES_DIR = "ternary-frames"
_CC18_FILE = "cc18_tasks.csv"


def _openml_root(cache_dir: str | os.PathLike | None) -> Path:
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    env = os.environ.get(_OPENML_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ternary" / "openml"


def _cached_entries(root: Path) -> list[tuple[int, str, Path]]:
    entries: list[tuple[int, str, Path]] = []
    folder = root / _FRAMES_DIR
    if not folder.is_dir():
        return entries
    for sub in folder.iterdir():
        meta_file = sub / "meta.json"
        if not (sub.is_dir() and meta_file.is_file() and (sub / "data.csv.gz").is_file()):
            continue
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            entries.append((int(meta["id"]), str(meta["name"]), sub))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a half-written or foreign folder: not usable offline
    return sorted(entries)


def _is_id(text: str) -> bool:
    # str.isdigit() is also true for "²" or "٣", which int() either rejects or reads
    # as a number nobody typed; an OpenML id is plain ASCII digits.
    return text.isascii() and text.isdigit()


def _find_cached(root: Path, key: int | str) -> Path | None:
    entries = _cached_entries(root)
    text = str(key).strip()
    if _is_id(text):
        return next((p for i, _, p in entries if i == int(text)), None)
    wanted = text.lower()
    # Several versions may share a name; like openml, prefer the oldest id.
    return next((p for _, n, p in entries if n.lower() == wanted), None)


def _describe_cache(root: Path) -> str:
    entries = _cached_entries(root)
    if not entries:
        return f"The local cache at {str(root)!r} holds no datasets yet."
    listed = ", ".join(f"{i} ({n})" for i, n, _ in entries)
    return f"Datasets available offline from the cache at {str(root)!r}: {listed}."


def _normalise_openml_frame(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Numeric columns to float64, everything else to text; keep category order."""
    levels: dict[str, list[str]] = {}
    cols: dict[str, pd.Series] = {}
    for col in frame.columns:
        s = frame[col]
        name = str(col)
        if isinstance(s.dtype, pd.CategoricalDtype):
            levels[name] = [str(c) for c in s.cat.categories]
            cols[name] = (
                s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v))
            )
        elif pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
            cols[name] = s.astype(np.float64)
        else:
            cols[name] = (
                s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v))
            )
    return pd.DataFrame(cols), levels


def _write_frame_cache(
    root: Path,
    did: int,
    name: str,
    default_target: str | None,
    frame: pd.DataFrame,
    levels: dict[str, list[str]],
) -> Path:
    folder = root / _FRAMES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / str(did)
    # Write into a temporary folder and rename it, so a crash never leaves a
    # half-written entry that a later offline load would trust.
    tmp = Path(tempfile.mkdtemp(prefix=f".{did}-", dir=folder))
    try:
        with gzip.open(tmp / "data.csv.gz", "wt", encoding="utf-8", newline="") as fh:
            frame.to_csv(fh, index=False, na_rep="")
        meta = {
            "id": did,
            "name": name,
            "default_target": default_target,
            "columns": [str(c) for c in frame.columns],
            "numeric": [
                str(c) for c in frame.columns if pd.api.types.is_float_dtype(frame[c].dtype)
            ],
            "nominal_levels": levels,
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        tmp.rename(final)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _read_frame_cache(folder: Path) -> tuple[dict[str, Any], pd.DataFrame]:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    numeric = set(meta["numeric"])
    dtypes = {c: (np.float64 if c in numeric else object) for c in meta["columns"]}
    with gzip.open(folder / "data.csv.gz", "rt", encoding="utf-8", newline="") as fh:
        # Only the empty string means missing, so text such as "NA" survives.
        frame = pd.read_csv(fh, dtype=dtypes, keep_default_na=False, na_values=[""])
    frame.columns = [str(c) for c in frame.columns]
    return meta, frame


def _is_network_error(exc: BaseException | None) -> bool:
    import socket

    kinds: list[type] = [ConnectionError, TimeoutError, socket.gaierror, socket.timeout]
    try:
        import requests

        kinds.append(requests.exceptions.RequestException)
    except ImportError:  # pragma: no cover - requests ships with openml
        pass
    try:
        import urllib3

        kinds.append(urllib3.exceptions.HTTPError)
    except ImportError:  # pragma: no cover
        pass
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, tuple(kinds)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


class _OpenMLSettings:
    """Point openml at our cache and cap its retries, restoring both afterwards."""

    def __init__(self, openml: Any, root: Path) -> None:
        self.config = openml.config
        self.root = root

    def __enter__(self) -> None:
        self.saved_root = getattr(self.config, "_root_cache_directory", None)
        self.saved_retries = getattr(self.config, "connection_n_retries", None)
        self.config.set_root_cache_directory(str(self.root))
        # openml sleeps between retries; offline that only delays the answer.
        if self.saved_retries is not None:
            self.config.connection_n_retries = min(int(self.saved_retries), 2)

    def __exit__(self, *exc: object) -> None:
        if self.saved_root is not None:
            self.config.set_root_cache_directory(self.saved_root)
        if self.saved_retries is not None:
            self.config.connection_n_retries = self.saved_retries


def _import_openml() -> Any:
    try:
        import openml
    except ImportError as exc:
        raise DataError(
            "The 'openml' package is not installed. Install it with "
            "pip install 'ternary[openml]' (or pip install openml) to load OpenML datasets."
        ) from exc
    return openml


def _default_target(meta: dict[str, Any], columns: list[str]) -> str:
    default = meta.get("default_target")
    if default and "," not in default and default in columns:
        return default
    return columns[-1]


def load_openml(
    data_id_or_name: int | str,
    *,
    cache_dir: str | os.PathLike | None = None,
    target: str | None = None,
    missing: str = "impute",
    limits: LoadLimits | None = None,
    **options: Any,
) -> Dataset:
    """Load an OpenML dataset by id or name, from the local cache when possible.

    A dataset downloaded once is stored under ``cache_dir`` (see the module
    docstring) and later loads without any network access, by id or by name.

    Parameters
    ----------
    data_id_or_name : int or str
        OpenML dataset id (e.g. 61) or name (e.g. "iris").
    cache_dir : str or path-like, optional
        Cache folder. Default: the ``TERNARY_OPENML_CACHE`` environment
        variable, else ``~/.cache/ternary/openml`` (honouring XDG_CACHE_HOME).
    target : str, optional
        Label column; default the dataset's default target attribute (or the
        last column when it has none).
    missing : {"impute", "drop", "keep"}, default="impute"
        How rows with missing feature values are treated, as for
        :func:`~ternary.data.load_csv`.
    limits : LoadLimits, optional
        As for :func:`~ternary.data.load_csv` (default ``LoadLimits()``). The row and
        column limits are checked against OpenML's description before the download
        when OpenML states the size, and against the table after it; ``max_bytes``
        bounds the downloaded file.
    **options
        Fields of `LoadLimits` one by one (``max_rows=...``), overriding ``limits``'s.

    Returns
    -------
    Dataset
        ``source`` is "openml".

    Raises
    ------
    DataError
        When the dataset is not cached and OpenML cannot be reached (the message
        lists the datasets available offline), when OpenML has no such dataset,
        or when the data cannot be turned into a classification problem.
    """
    opts = _reading_options(missing, limits_of(limits, options, "load_openml"))
    root = _openml_root(cache_dir)
    cached = _find_cached(root, data_id_or_name)
    if cached is not None:
        return _load_cached(cached, target, opts)
    remote, raw = _download(data_id_or_name, root, opts)
    frame, levels = _normalise_openml_frame(raw)
    did = int(remote.dataset_id)
    ds_name = str(remote.name)
    default = getattr(remote, "default_target_attribute", None)
    report = [f"Downloaded OpenML dataset {did} ({ds_name})."]
    try:
        folder = _write_frame_cache(root, did, ds_name, default, frame, levels)
        report.append(f"Saved a copy in {str(folder)!r} for offline use.")
    except OSError as exc:
        report.append(
            f"Could not save an offline copy ({exc}); it will be downloaded again next time."
        )
    meta = {"default_target": default}
    chosen = target if target is not None else _default_target(meta, list(frame.columns))
    return _assemble(
        frame,
        chosen,
        opts=opts,
        name=ds_name,
        source="openml",
        report=report,
        nominal_levels=levels,
    )


def _check_qualities(qualities: Any, opts: _Options) -> None:
    if not isinstance(qualities, dict):
        return
    try:
        rows = int(qualities.get("NumberOfInstances") or 0)
        columns = int(qualities.get("NumberOfFeatures") or 0)
    except (TypeError, ValueError, OverflowError):
        return  # no usable size stated: the table is checked after the download
    _check_shape(rows, columns, opts)


def _check_downloaded(remote: Any, raw: Any, opts: _Options) -> None:
    if not isinstance(raw, pd.DataFrame):
        raise DataError(
            "This OpenML dataset is stored as a sparse matrix, which is not supported. "
            "Pick a dense dataset."
        )
    _check_shape(len(raw), raw.shape[1], opts)
    for attr in ("parquet_file", "data_file"):
        path = getattr(remote, attr, None)
        if isinstance(path, (str, os.PathLike)) and os.path.isfile(path):
            size = os.path.getsize(path)
            if size > opts.max_bytes:
                raise _too_large(size, opts.max_bytes, "downloaded file")
            break


def _load_cached(cached: Path, target: str | None, opts: _Options) -> Dataset:
    try:
        meta, frame = _read_frame_cache(cached)
    except (OSError, ValueError, KeyError, EOFError) as exc:
        raise DataError(
            f"The cached copy in {str(cached)!r} is damaged ({exc}). Delete "
            "that folder and load the dataset again while online."
        ) from exc
    _check_shape(len(frame), frame.shape[1], opts)
    report = [
        f"Loaded OpenML dataset {meta['id']} ({meta['name']}) from the local "
        f"cache {str(cached)!r}; no network needed."
    ]
    chosen = target if target is not None else _default_target(meta, list(frame.columns))
    return _assemble(
        frame,
        chosen,
        opts=opts,
        name=str(meta["name"]),
        source="openml",
        report=report,
        nominal_levels=meta.get("nominal_levels") or {},
    )


def _download(data_id_or_name: int | str, root: Path, opts: _Options) -> tuple[Any, pd.DataFrame]:
    """Fetch a dataset from OpenML within the loaders' limits; failures become DataErrors."""
    openml = _import_openml()
    key: int | str = data_id_or_name
    if isinstance(key, str) and _is_id(key.strip()):
        key = int(key.strip())
    try:
        with _OpenMLSettings(openml, root):
            # The description and its qualities first (small), so a dataset beyond the
            # limits is refused before its data is downloaded; get_data fetches the rest.
            remote = openml.datasets.get_dataset(
                key,
                download_data=False,
                download_qualities=True,
                download_features_meta_data=False,
            )
            _check_qualities(getattr(remote, "qualities", None), opts)
            raw, _, _, _ = remote.get_data(target=None)
        _check_downloaded(remote, raw, opts)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - openml raises many unrelated types
        if _is_network_error(exc):
            raise DataError(
                f"Cannot load OpenML dataset {data_id_or_name!r}: the network is "
                f"unreachable ({type(exc).__name__}). {_describe_cache(root)} Connect to "
                "the internet, or pick one of the cached datasets or a built-in one."
            ) from exc
        message = str(exc)
        if "Unknown dataset" in message or "No active datasets" in message:
            raise DataError(
                f"OpenML has no dataset {data_id_or_name!r}. Check the id or name on openml.org."
            ) from exc
        raise DataError(
            f"OpenML could not provide dataset {data_id_or_name!r}: "
            f"{type(exc).__name__}: {message}. Try again later or pick "
            "another dataset."
        ) from exc
    return remote, raw


def openml_cc18_tasks(cache_dir: str | os.PathLike | None = None) -> pd.DataFrame:
    """List the tasks of the OpenML-CC18 benchmark suite (suite 99).

    Parameters
    ----------
    cache_dir : str or path-like, optional
        As for :func:`load_openml`. A successful listing is saved there and is
        returned (with ``attrs["from_cache"] = True``) when OpenML is unreachable.

    Returns
    -------
    pandas.DataFrame
        One row per task, as returned by ``openml.tasks.list_tasks`` (task id
        ``tid``, dataset id ``did``, ``name`` and dataset qualities).

    Raises
    ------
    DataError
        When OpenML cannot be reached and no listing was saved before.
    """
    root = _openml_root(cache_dir)
    saved = root / _CC18_FILE
    openml = _import_openml()
    try:
        with _OpenMLSettings(openml, root):
            suite = openml.study.get_suite(99)
            tasks = openml.tasks.list_tasks(output_format="dataframe", task_id=list(suite.tasks))
    except Exception as exc:  # noqa: BLE001 - openml raises many unrelated types
        if saved.is_file():
            try:
                table = pd.read_csv(saved)
            except (OSError, ValueError) as read_exc:
                raise DataError(
                    f"OpenML is unreachable and the saved CC18 list at "
                    f"{str(saved)!r} is damaged ({read_exc}). Delete it and "
                    "retry online."
                ) from exc
            table.attrs["from_cache"] = True
            return table
        reason = (
            "the network is unreachable"
            if _is_network_error(exc)
            else f"{type(exc).__name__}: {exc}"
        )
        raise DataError(
            f"Cannot list the OpenML-CC18 tasks: {reason}. Connect to the "
            "internet and try again; no saved copy exists yet."
        ) from exc
    table = pd.DataFrame(tasks).reset_index(drop=True)
    try:
        root.mkdir(parents=True, exist_ok=True)
        table.to_csv(saved, index=False)
    except OSError:
        pass  # the listing is still returned; only the offline copy is missing
    table.attrs["from_cache"] = False
    return table
