"""What each column of a table becomes: a numeric feature, one-hot 0/1 features, or left out.

:func:`encode_column` looks at one feature column and returns a :class:`ColumnPlan`: the
feature columns it adds (with names and one-hot categories), why it was left out otherwise,
and the notices a student should read. :mod:`core.data.prepare` runs it on every column.

Rules, in the order they are tried:

1. every value missing: left out;
2. numbers: ``inf``/``-inf`` and numbers beyond float32's range (about ±3.4e38) become missing
   values, with a notice. scikit-learn's trees compare thresholds in float32 and refuse such
   numbers; missing is what they mean in practice (an overflow, a sentinel), and the engine
   routes missing values, so nothing else in the row is lost. Then a constant column, or a row
   number (exactly 0, 1, 2, ... or 1, 2, 3, ... in file order, which only says where a row sits
   in the file) is left out; anything else is a feature as it is;
3. text (and booleans, read as the words ``True``/``False``): dates and ids (every value
   different) and constants are left out; the rest is one-hot encoded: one 0/1 column per level,
   levels by frequency (ties alphabetically), at most :data:`MAX_LEVELS`, the rarer ones joined
   as one level ``"other"``. A missing text value is NaN in all of that column's 0/1 columns.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

__all__ = [
    "FLOAT32_MAX",
    "MAX_LEVELS",
    "OTHER_LEVEL",
    "ColumnPlan",
    "counts_rows",
    "encode_column",
    "is_text",
    "missing_mask",
]

#: Most levels of one text column that get their own 0/1 column; the rest are joined as one.
MAX_LEVELS = 30
#: The level that stands for all levels past the :data:`MAX_LEVELS` most frequent.
OTHER_LEVEL = "other"
#: Largest float32; scikit-learn's trees (and their thresholds) work in float32.
FLOAT32_MAX = float(np.finfo(np.float32).max)

# Dates as spreadsheets and scripts write them: 2021-03-04 (with a time), 4/3/2021, 04.03.21,
# 2021/03/04, 4 March 2021, Mar 4, 2021.
_DATE = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}(?: \d{1,2}:\d{2}(?::\d{2})?)?"
    r"|\d{4}/\d{1,2}/\d{1,2}"
    r"|\d{1,2} [A-Za-z]{3,9}\.? \d{4}"
    r"|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}"
)


@dataclass(frozen=True)
class ColumnPlan:
    """What one table column becomes.

    Attributes
    ----------
    values : tuple of ndarray, each of shape (n_samples,), float64
        The feature columns it adds, NaN where missing; empty when it is left out.
    names : tuple of str
        One name per added column: the column's own name, or ``"column = level"`` (one-hot).
    categories : tuple
        One entry per added column: None for a number, ``(column, level)`` for a 0/1 column.
    reason : str
        What it became, or why it was left out, in words for a student.
    notices : tuple of str
        What a student should know about it (values made missing, levels joined).
    """

    values: tuple[np.ndarray, ...]
    names: tuple[str, ...]
    categories: tuple[tuple[str, str] | None, ...]
    reason: str
    notices: tuple[str, ...] = ()

    @property
    def kept(self) -> bool:
        return bool(self.values)


def is_text(column: pd.Series) -> bool:
    """True for a column of words (anything but numbers; booleans count as words)."""
    return pd.api.types.is_bool_dtype(column) or not pd.api.types.is_numeric_dtype(column)


def _words(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each cell as text without surrounding spaces, and where it is missing.

    Works on the distinct values (``pd.factorize``), so a long column costs one pass in C.

    Returns
    -------
    words : ndarray of shape (n_samples,), object
        The cell's text; "" where missing.
    missing : ndarray of shape (n_samples,), bool
        True for NaN, None and text of only spaces.
    """
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    cleaned = np.array([str(value).strip() for value in uniques] + [""], dtype=object)
    words = cleaned[codes]  # code -1 (missing) picks the "" appended last
    return words, words == ""


def missing_mask(column: pd.Series) -> np.ndarray:
    """Boolean array: True where a cell is missing (NaN, None, or text of only spaces)."""
    if is_text(column):
        return _words(column)[1]
    return column.isna().to_numpy()


def _count(n: int, thing: str) -> str:
    return f"{n:,} {thing}" if n == 1 else f"{n:,} {thing}s"


def _dropped(reason: str) -> ColumnPlan:
    return ColumnPlan((), (), (), reason)


def counts_rows(column: pd.Series) -> bool:
    """True when the column is exactly 0, 1, 2, ... or 1, 2, 3, ... in row order (an index)."""
    if not pd.api.types.is_integer_dtype(column) or pd.api.types.is_bool_dtype(column):
        return False
    values = column.to_numpy()
    return values.size > 2 and values[0] in (0, 1) and bool(np.all(np.diff(values) == 1))


def _looks_like_dates(words: pd.Series) -> bool:
    """True when every distinct value is written like a date and pandas reads it as one."""
    distinct = pd.Series(words.unique())
    if not distinct.str.fullmatch(_DATE).all():
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas warns about guessed formats; we only ask "a date?"
        parsed = pd.to_datetime(distinct.head(50), errors="coerce", format="mixed")
    return bool(parsed.notna().all())


def _numeric(name: str, column: pd.Series, row_number: bool) -> ColumnPlan:
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    infinite = np.isinf(values)
    huge = np.isfinite(values) & (np.abs(values) > FLOAT32_MAX)
    notices = []
    if infinite.any():
        notices.append(
            f"{name!r}: {_count(int(infinite.sum()), 'infinite value')} (inf) treated as missing."
        )
    if huge.any():
        notices.append(
            f"{name!r}: {_count(int(huge.sum()), 'number')} beyond ±3.4e38 treated as missing "
            "(too large for the trees, which compare numbers in float32 as scikit-learn does)."
        )
    values = np.where(infinite | huge, np.nan, values)
    present = values[~np.isnan(values)]
    if present.size == 0:
        return _dropped("every value is missing" + (" or unusable" if notices else ""))
    if present.size == values.size and np.all(present == present[0]):
        return _dropped(f"the same value ({present[0]:g}) in every row")
    if row_number:
        return _dropped("it counts the rows (0, 1, 2, … or 1, 2, 3, …), like an id")
    gaps = values.size - present.size
    reason = "a number" + (f" ({_count(gaps, 'missing value')})" if gaps else "")
    return ColumnPlan((values,), (name,), (None,), reason, tuple(notices))


def _one_hot(name: str, words: np.ndarray, missing: np.ndarray) -> ColumnPlan:
    counts = pd.Series(words[~missing]).value_counts()
    levels = sorted(counts.index, key=lambda level: (-counts[level], level))
    kept, rest = levels[:MAX_LEVELS], levels[MAX_LEVELS:]
    other = OTHER_LEVEL if OTHER_LEVEL not in kept else f"{OTHER_LEVEL} (rest)"
    notices = []
    if rest:
        notices.append(
            f"{name!r} has {len(levels):,} different values: the {MAX_LEVELS} most common each "
            f"get a 0/1 column, the other {len(rest):,} are joined as {other!r}."
        )
    # Each row's column: the index of its level, the rest sharing the last one.
    position = {level: min(index, MAX_LEVELS) for index, level in enumerate(levels)}
    row_column = pd.Series(words).map(position).to_numpy(dtype=np.float64, na_value=np.nan)
    values, names, categories = [], [], []
    for index, level in enumerate([*kept, other] if rest else kept):
        column = (row_column == index).astype(np.float64)
        column[missing] = np.nan
        values.append(column)
        names.append(f"{name} = {level}")
        categories.append((name, level))
    gaps = int(missing.sum())
    reason = f"text with {_count(len(levels), 'value')}: one 0/1 column per value"
    if rest:
        reason += f" (the {MAX_LEVELS} most common, the rest as {other!r})"
    if gaps:
        reason += f"; {_count(gaps, 'missing value')}"
    return ColumnPlan(tuple(values), tuple(names), tuple(categories), reason, tuple(notices))


def _mostly_numbers(name: str, present: pd.Series) -> str | None:
    """A hint when at least half the filled cells are numbers and the rest are not."""
    counts = present.value_counts()
    as_numbers = pd.to_numeric(pd.Series(counts.index, dtype=object), errors="coerce")
    numeric = as_numbers.notna().to_numpy()
    if counts.to_numpy()[numeric].sum() < 0.5 * present.size:
        return None
    odd = counts.index[~numeric][0]
    return (
        f"{name!r} is mostly numbers, but some values are not (such as {odd!r}), so it is "
        "read as text; empty those cells to use it as numbers."
    )


def _text(name: str, column: pd.Series) -> ColumnPlan:
    words, missing = _words(column)
    present = pd.Series(words[~missing])
    if present.empty:
        return _dropped("every value is missing")
    n_levels = present.nunique()
    if n_levels == 1 and not missing.any():
        return _dropped(f"the same value ({present.iloc[0]!r}) in every row")
    if _looks_like_dates(present):
        return _dropped(
            f"dates (such as {present.iloc[0]!r}), which a tree cannot split on as they are; "
            "a column of numbers such as the year or the month can be"
        )
    if n_levels == present.size and n_levels > 1:
        return _dropped("every value is different, like a name or an id")
    plan = _one_hot(name, words, missing)
    hint = _mostly_numbers(name, present)
    return replace(plan, notices=(*plan.notices, hint)) if hint else plan


def encode_column(name: str, column: pd.Series, *, row_number: bool = False) -> ColumnPlan:
    """Decide what one feature column becomes (see the module docstring for the rules).

    Parameters
    ----------
    name : str
        The column's name, as the table's header gives it.
    column : Series of shape (n_samples,)
        Its cells: numbers (NaN where missing) or text (NaN, None or blank where missing).
    row_number : bool, default False
        Whether the column, in the full table before any row was dropped, counted the rows;
        the caller knows, because dropping rows breaks the count.

    Returns
    -------
    ColumnPlan
    """
    if is_text(column):
        return _text(name, column)
    return _numeric(name, column, row_number)
