"""The dataset catalogue: reading ``manifest.json`` and the files it lists, with caching.

The catalogue is the ``datasets/`` folder next to ``core/``: CSV files plus ``manifest.json``,
which lists them in display order. A new table is one CSV and one manifest entry, no code.
Every table is read by :func:`core.data.tables.read_table` and made a dataset by
:func:`core.data.prepare.prepare_table`, so a teacher's file and a student's upload meet the
same checks and the same encoding (text columns one-hot, gaps kept as missing values).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from core.data import puzzles
from core.data.datasets import Dataset, DatasetInfo, make_sine
from core.data.prepare import prepare_table
from core.data.tables import read_table

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "datasets"

# Manifest entries: "name", "title", "target" required; "file" xor "generator" (+ "parameters").
_GENERATORS: dict[str, Callable[..., Dataset]] = {
    "sine": make_sine,
    "moons": puzzles.make_moons,
    "circles": puzzles.make_circles,
    "xor": puzzles.make_xor,
    "spirals": puzzles.make_spirals,
    "blobs": puzzles.make_blobs,
}
_REQUIRED = {"name", "title", "target"}
_KEYS = _REQUIRED | {"file", "task", "feature_names", "class_names", "description"}
_KEYS |= {"provenance", "n_samples", "generator", "parameters", "suggested_pair"}


def _stamp(path: Path) -> tuple[int, int]:
    # Part of the cache keys below, so that a file edited on disk is read again.
    status = path.stat()
    return status.st_mtime_ns, status.st_size


@lru_cache(maxsize=16)
def _read_manifest(path: Path, stamp: tuple[int, int]) -> tuple[dict[str, Any], ...]:
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError(f"{path}: the manifest must be a JSON list of objects")
    names = [entry.get("name") for entry in entries]
    for index, entry in enumerate(entries):
        missing, unknown = sorted(_REQUIRED - entry.keys()), sorted(entry.keys() - _KEYS)
        if missing or unknown:
            raise ValueError(f"{path}, entry {index}: missing keys {missing}, unknown {unknown}")
        if (entry.get("file") is None) == (entry.get("generator") is None):
            raise ValueError(f"{path}, entry {index}: give exactly one of 'file' and 'generator'")
        if entry.get("generator") not in (None, *_GENERATORS):
            raise ValueError(f"{path}, entry {index}: generator must be one of {list(_GENERATORS)}")
        if names.count(entry["name"]) > 1:
            raise ValueError(f"{path}: the name {entry['name']!r} is used more than once")
    return tuple(entries)


def _manifest(catalogue_dir: str | Path | None) -> tuple[Path, tuple[dict[str, Any], ...]]:
    directory = CATALOGUE_DIR if catalogue_dir is None else Path(catalogue_dir).resolve()
    path = directory / "manifest.json"
    if not path.is_file():
        raise ValueError(f"catalogue_dir must hold a manifest.json; not found: {path}")
    return directory, _read_manifest(path, _stamp(path))


@lru_cache(maxsize=32)
def _read_csv(path: Path, stamp: tuple[int, int]) -> pd.DataFrame:
    # Read as an upload is (same sniffing, missing words, checks); shared between calls:
    # prepare_table never modifies the frame it is given.
    return read_table(path.read_bytes(), path.name)


def list_datasets(*, catalogue_dir: str | Path | None = None) -> tuple[DatasetInfo, ...]:
    """Summarise the catalogue in manifest order, for the home page cards and pickers.

    A generated set's counts come from the manifest (``parameters.n_samples``,
    ``feature_names``, ``class_names``) when it gives them. A table is loaded to count them,
    because one text column may become several features. ``catalogue_dir`` (default: the
    bundled ``datasets/``) holds ``manifest.json`` and the CSVs.
    """
    directory, entries = _manifest(catalogue_dir)
    infos = []
    for entry in entries:
        n_samples = entry.get("parameters", {}).get("n_samples")
        generated = entry.get("generator") is not None
        if generated and n_samples and {"task", "feature_names", "class_names"} <= entry.keys():
            features, classes = entry["feature_names"], entry["class_names"]
            counts = (entry["task"], int(n_samples), len(features), len(classes))
            names = list(features)
        else:
            full = load_dataset(entry["name"], catalogue_dir=directory)
            counts = (full.task, full.n_samples, full.n_features, full.n_classes)
            names = list(full.feature_names)
        pair = _suggested_pair(entry, names)
        noise = entry.get("parameters", {}).get("noise") if generated else None
        description = entry.get("description", "")
        infos.append(DatasetInfo(entry["name"], entry["title"], *counts, description, pair, noise))
    return tuple(infos)


def _suggested_pair(entry: dict[str, Any], feature_names: list[str]) -> tuple[int, int]:
    """The two features the boundary starts with: the manifest's ``suggested_pair``, by name.

    Without one, the first two features (the only one, twice, for a one-feature table).
    """
    suggested = entry.get("suggested_pair")
    if suggested is None:
        return (0, 1 if len(feature_names) > 1 else 0)
    unknown = [name for name in suggested if name not in feature_names]
    if len(suggested) != 2 or suggested[0] == suggested[1] or unknown:
        raise ValueError(
            f"dataset {entry['name']!r}: suggested_pair must name two different features of "
            f"the table; got {suggested!r}"
        )
    return (feature_names.index(suggested[0]), feature_names.index(suggested[1]))


def load_dataset(
    name: str,
    *,
    noise: float | None = None,
    n_samples: int | None = None,
    random_state: int = 0,
    catalogue_dir: str | Path | None = None,
) -> Dataset:
    """Load a catalogue entry by its manifest name, e.g. ``"iris"`` or ``"sine"``.

    Parameters
    ----------
    name : str
    noise : float or None, default None
        Generated sets only: replaces the manifest's noise. Ignored for CSV tables.
    n_samples : int or None, default None
        Generated sets only: replaces the manifest's number of points. Ignored for CSV tables.
    random_state : int, default 0
        Generated sets only: the seed. Ignored for CSV tables.
    catalogue_dir : str or Path or None, default None
        Folder holding ``manifest.json`` and the CSVs; None means the bundled ``datasets/``.

    Returns
    -------
    Dataset
        CSV files are parsed once per version on disk and cached.
    """
    directory, entries = _manifest(catalogue_dir)
    entry = next((entry for entry in entries if entry["name"] == name), None)
    if entry is None:
        raise ValueError(f"name must be one of {[e['name'] for e in entries]}, got {name!r}")
    words = {key: entry.get(key, "") for key in ("name", "title", "description", "provenance")}
    if entry.get("generator") is not None:
        parameters = dict(entry.get("parameters", {}))
        if noise is not None:
            parameters["noise"] = noise
        if n_samples is not None:
            parameters["n_samples"] = n_samples
        generated = _GENERATORS[entry["generator"]](**parameters, random_state=random_state)
        return replace(generated, **words)
    path = directory / entry["file"]
    if not path.is_file():
        raise ValueError(f"dataset {name!r}: its file {entry['file']!r} is not in {directory}")
    table = _read_csv(path, _stamp(path))
    if "feature_names" in entry:  # lets a CSV carry extra columns, such as a row id
        wanted = [*entry["feature_names"], entry["target"]]
        lost = [column for column in wanted if column not in table.columns]
        if lost:
            raise ValueError(f"dataset {name!r}: manifest columns {lost} are not in {path.name}")
        table = table[wanted]
    prepared = prepare_table(
        table,
        target=entry["target"],
        task=entry.get("task"),
        class_names=entry.get("class_names") or None,
        **words,
    )
    dropped = {
        report.name: report.reason
        for report in prepared.columns
        if report.role == "dropped" and report.name in entry.get("feature_names", ())
    }
    if dropped:
        raise ValueError(f"dataset {name!r}: manifest feature_names left out: {dropped}")
    dataset = prepared.dataset
    if entry.get("n_samples", dataset.n_samples) != dataset.n_samples:
        raise ValueError(
            f"dataset {name!r}: the manifest says n_samples={entry['n_samples']}, "
            f"but {path.name} has {dataset.n_samples} rows"
        )
    return dataset
