"""From a table to a :class:`~core.data.datasets.Dataset`: the one path every table takes.

A student's upload (read by :func:`core.data.tables.read_table`) and a teacher's built-in CSV
(listed in ``datasets/manifest.json``) both go through :func:`prepare_table`, so they meet the
same checks and the same encoding:

1. rows whose target is missing (or infinite) are dropped, with a notice;
2. the task is the one asked for, else inferred (:func:`infer_task`); a classification target
   needs 2 to :data:`MAX_CLASSES` classes, a regression target numbers;
3. above :data:`MAX_ROWS` rows, a seeded sample (stratified by class) keeps exactly
   :data:`MAX_ROWS`, with a notice;
4. every other column becomes features or is left out, with a reason
   (:func:`core.data.columns.encode_column`: numbers stay numbers with NaN for gaps, text is
   one-hot encoded, ids, constants, dates and empty columns are left out).

Every problem is a :class:`~core.data.tables.TableError` with a message for a student.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from core.data.columns import counts_rows, encode_column, is_text, missing_mask
from core.data.datasets import Dataset, Task
from core.data.tables import TableError

__all__ = [
    "MAX_CLASSES",
    "MAX_INFERRED_CLASSES",
    "MAX_ROWS",
    "TARGET_WORDS",
    "ColumnReport",
    "Prepared",
    "infer_task",
    "prepare_table",
    "suggest_target",
]

#: Most rows a dataset keeps: bigger tables are sampled down (a tree learns the same shape from
#: 20,000 rows, and every page stays quick on a classroom laptop).
MAX_ROWS = 20_000
#: Most classes a classification target may have: the palette's distinct colours
#: (``core.figures.palette.CLASS_COLORS``; a test checks that the two agree).
MAX_CLASSES = 20
#: An integer target with at most this many distinct values is read as classes.
MAX_INFERRED_CLASSES = 10
#: Column names that suggest the target, in this order of preference (case-insensitive).
TARGET_WORDS = ("target", "class", "label", "species", "y")

Role = Literal["feature", "one-hot", "target", "dropped"]


@dataclass(frozen=True)
class ColumnReport:
    """What became of one column of the table: its ``role`` and the ``reason`` in words."""

    name: str
    role: Role
    reason: str


@dataclass(frozen=True, eq=False)
class Prepared:
    """A table made ready: the dataset, what a student should know, and each column's fate.

    Attributes
    ----------
    dataset : Dataset
    notices : tuple of str
        Plain sentences: rows dropped, the sample taken, values made missing, levels joined,
        columns left out.
    columns : tuple of ColumnReport
        One per column of the table, in the table's order.
    """

    dataset: Dataset
    notices: tuple[str, ...]
    columns: tuple[ColumnReport, ...]


def _rows(n: int) -> str:
    return f"{n:,} row" if n == 1 else f"{n:,} rows"


def _label(value: Any) -> str:
    # 1.0 and 1 name the same class: a CSV column of integers with a gap is read as floats.
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def _label_order(label: str) -> tuple[int, float, str]:
    # Numeric labels sort as numbers ("2" before "10"), then text labels alphabetically.
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _names(frame: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    names = [str(column) for column in frame.columns]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise TableError(
            f"Every column needs its own name; these appear more than once: {repeated}."
        )
    if not names:
        raise TableError("The table has no columns.")
    return frame.set_axis(names, axis=1)


def _target_column(frame: pd.DataFrame, target: str) -> pd.Series:
    if target not in frame.columns:
        raise TableError(
            f"There is no column named {target!r}; the columns are {list(frame.columns)}."
        )
    return frame[target]


def suggest_target(frame: pd.DataFrame) -> str:
    """A sensible target column: one named like :data:`TARGET_WORDS`, else the last one.

    Names are compared without case and surrounding spaces; the earlier word in
    :data:`TARGET_WORDS` wins (a table with both ``label`` and ``y`` suggests ``label``).
    """
    names = list(_names(frame).columns)
    plain = [name.strip().lower() for name in names]
    for word in TARGET_WORDS:
        if word in plain:
            return names[plain.index(word)]
    return names[-1]


def _is_number_column(column: pd.Series) -> bool:
    return not is_text(column)


def infer_task(frame: pd.DataFrame, target: str) -> Task:
    """Guess the task from the target column's filled values.

    Text (or booleans), or whole numbers with at most :data:`MAX_INFERRED_CLASSES` distinct
    values, mean classification; any other numbers mean regression.
    """
    column = _target_column(_names(frame), target)
    if not _is_number_column(column):
        return "classification"
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    values = values[np.isfinite(values)]
    whole = bool(np.all(values == np.round(values)))
    few = np.unique(values).size <= MAX_INFERRED_CLASSES
    return "classification" if whole and few else "regression"


def _sample(codes: np.ndarray | None, n_rows: int, rng: np.random.Generator) -> np.ndarray:
    """Sorted row ids of a sample of exactly :data:`MAX_ROWS` rows out of ``n_rows``.

    With class codes, each class gets its share (largest remainder first) and at least one row.
    """
    if codes is None:
        return np.sort(rng.choice(n_rows, size=MAX_ROWS, replace=False))
    counts = np.bincount(codes)
    ideal = counts * (MAX_ROWS / n_rows)
    share = np.minimum(np.maximum(np.floor(ideal).astype(np.int64), 1), counts)
    while share.sum() > MAX_ROWS:  # only when many tiny classes were lifted to one row
        share[np.argmax(np.where(share > 1, share - ideal, -np.inf))] -= 1
    while share.sum() < MAX_ROWS:
        share[np.argmax(np.where(share < counts, ideal - share, -np.inf))] += 1
    picked = [rng.permutation(np.flatnonzero(codes == k))[:s] for k, s in enumerate(share)]
    return np.sort(np.concatenate(picked))


def _classes(
    target: str, column: pd.Series, class_names: Sequence[str] | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    codes, uniques = pd.factorize(column)
    labels = np.array([_label(value) for value in uniques], dtype=object)[codes]
    present = set(labels)
    if class_names is None:
        names = tuple(sorted(present, key=_label_order))
    else:
        names = tuple(str(name) for name in class_names)
        unknown, unseen = sorted(present - set(names)), sorted(set(names) - present)
        if unknown or unseen or len(set(names)) != len(names):
            raise TableError(
                f"class_names must list each label of {target!r} once, got {list(names)}; "
                f"labels not listed: {unknown}, listed but never seen: {unseen}"
            )
    if len(names) < 2:
        raise TableError(
            f"{target!r} holds only one class ({names[0]!r}): there is nothing to tell apart. "
            "Pick another column to predict."
        )
    if len(names) > MAX_CLASSES:
        advice = (
            "It holds numbers: predict it as a regression instead."
            if _is_number_column(column)
            else "Pick a column with fewer values, or merge rare classes in your spreadsheet."
        )
        raise TableError(
            f"{target!r} has {len(names)} different classes, but the colours can tell at most "
            f"{MAX_CLASSES} apart. {advice}"
        )
    codes = pd.Categorical(labels, categories=list(names)).codes.astype(np.int64)
    return codes, names


def _unique_name(name: str, taken: set[str]) -> str:
    # A one-hot name such as "sex = female" could already be a column's own name.
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name} ({n})", n + 1
    taken.add(candidate)
    return candidate


def _rows_with_target(frame: pd.DataFrame, target: str) -> tuple[pd.DataFrame, list[str]]:
    """The rows whose target is present (and finite), with a notice of those left out.

    A row without a target teaches nothing; fewer than 2 rows left is an error.
    """
    notices: list[str] = []
    column = frame[target]
    missing = missing_mask(column)
    if _is_number_column(column):
        missing = missing | ~np.isfinite(column.to_numpy(dtype=np.float64, na_value=np.nan))
    if missing.any():
        notices.append(f"Left out {_rows(int(missing.sum()))} with no value for {target!r}.")
        frame = frame.loc[~missing].reset_index(drop=True)
    if len(frame) < 2:
        raise TableError(
            f"Only {_rows(len(frame))} {'has' if len(frame) == 1 else 'have'} a value for "
            f"{target!r}; a tree needs at least 2 (better dozens)."
        )
    return frame, notices


def _target_values(
    column: pd.Series, target: str, task: Task, class_names: Sequence[str] | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``y`` for the task: numbers for regression (text refused), class codes and their names
    for classification (:func:`_classes`)."""
    if task == "classification":
        return _classes(target, column, class_names)
    if not _is_number_column(column):
        example = str(column.iloc[0])
        raise TableError(
            f"{target!r} holds words (such as {example!r}), so it cannot be predicted as a "
            "number: choose classification."
        )
    return column.to_numpy(dtype=np.float64), ()


@dataclass(frozen=True)
class _Features:
    """The feature columns made from a table, and what became of every column."""

    values: list[np.ndarray]
    names: list[str]
    categories: list[tuple[str, str] | None]
    reports: list[ColumnReport]
    notices: list[str]
    left_out: list[str]  # "'column': reason", one per column left out


def _features(
    frame: pd.DataFrame, target: str, target_reason: str, row_numbers: set[str]
) -> _Features:
    """Every column but the target encoded (:func:`core.data.columns.encode_column`), in the
    table's order, so each column's report and features stay where the column stood."""
    found = _Features([], [], [], [], [], [])
    taken = set(frame.columns)
    for column_name in frame.columns:
        if column_name == target:
            found.reports.append(ColumnReport(column_name, "target", target_reason))
            continue
        plan = encode_column(column_name, frame[column_name], row_number=column_name in row_numbers)
        found.notices.extend(plan.notices)
        if not plan.kept:
            found.reports.append(ColumnReport(column_name, "dropped", plan.reason))
            found.left_out.append(f"{column_name!r}: {plan.reason}")
            continue
        one_hot = plan.categories[0] is not None
        role: Role = "one-hot" if one_hot else "feature"
        found.reports.append(ColumnReport(column_name, role, plan.reason))
        found.values.extend(plan.values)
        found.categories.extend(plan.categories)
        found.names.extend(_unique_name(n, taken) if one_hot else n for n in plan.names)
    return found


def prepare_table(
    frame: pd.DataFrame,
    *,
    target: str,
    task: Task | None = None,
    name: str = "upload",
    title: str = "Your table",
    random_state: int = 0,
    description: str = "",
    provenance: str = "",
    class_names: Sequence[str] | None = None,
) -> Prepared:
    """Turn a table into a dataset a tree can learn from, saying what was done and why.

    Parameters
    ----------
    frame : DataFrame of shape (n_rows, n_columns)
        Numbers (NaN where missing) and text (NaN, None or blank where missing), as
        :func:`core.data.tables.read_table` returns them; it is not modified.
    target : str
        The column to predict; every other column may become features.
    task : {"classification", "regression"} or None, default None
        None infers it (:func:`infer_task`).
    name, title, description, provenance : str
        The dataset's key and words (see :class:`~core.data.datasets.Dataset`).
    random_state : int, default 0
        Seed of the sample taken when the table has more than :data:`MAX_ROWS` rows.
    class_names : sequence of str or None, default None
        Classification only: the classes in code order, exactly the labels present; None
        sorts them (numbers as numbers, then text).

    Returns
    -------
    Prepared

    Raises
    ------
    TableError
        With a message for students: no such target column, repeated column names, fewer than
        2 rows with a target, a text target for regression, one class or more than
        :data:`MAX_CLASSES`, no column left to learn from.
    """
    frame = _names(frame)
    _target_column(frame, target)
    if task is not None and task not in get_args(Task):
        raise ValueError(f"task must be 'classification', 'regression' or None, got {task!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, int | np.integer):
        raise TypeError(f"random_state must be an integer, got {random_state!r}")
    # Read on the whole table: a column of row numbers stays one whatever rows are dropped.
    row_numbers = {name for name in frame.columns if name != target and counts_rows(frame[name])}
    frame, notices = _rows_with_target(frame, target)
    task = infer_task(frame, target) if task is None else task
    y, classes = _target_values(frame[target], target, task, class_names)
    if len(frame) > MAX_ROWS:
        rng = np.random.default_rng(random_state)
        rows = _sample(y if task == "classification" else None, len(frame), rng)
        notices.append(
            f"The table has {len(frame):,} rows; a random sample of {MAX_ROWS:,} is used"
            + (", with each class in its share." if task == "classification" else ".")
        )
        frame, y = frame.iloc[rows].reset_index(drop=True), y[rows]
    kind = f"{len(classes)} classes" if classes else "numbers"
    features = _features(frame, target, f"to predict ({task}, {kind})", row_numbers)
    notices.extend(features.notices)
    notices.extend(f"Left out {reason}." for reason in features.left_out)
    if not features.values:
        raise TableError(
            f"No column is left to learn from besides {target!r}."
            + "".join(f" Left out {reason}." for reason in features.left_out)
        )
    dataset = Dataset(
        name=name,
        title=title,
        task=task,
        X=np.column_stack(features.values),
        y=y,
        feature_names=tuple(features.names),
        target_name=target,
        class_names=classes,
        description=description,
        provenance=provenance,
        categories=(
            tuple(features.categories) if any(c is not None for c in features.categories) else ()
        ),
    )
    return Prepared(dataset, tuple(notices), tuple(features.reports))
