"""A test sample's edited values, as one setting: ``Single_tree?view=what-if&edit=2~5.1_3~missing``.

The what-if view lets a student change the traced sample's feature values. The changes are a
short list of ``(feature, value)`` pairs in increasing feature order: ``feature`` is the
dataset's column number (so a change survives another plotted pair), ``value`` a number or
None for a missing value. Features not listed keep the sample's own values; no pairs is the
sample as it is, and a link then says nothing.

In a link, pairs are joined by ``_`` and each feature and value by ``~``, a missing value is
``missing``: ``2~5.1_3~missing``. Digits, ``.``, ``-``, ``_`` and ``~`` are the characters a
URL never escapes, so the link reads the same in the address bar and in the share box (``:``
and ``,`` would show as ``%3A`` and ``%2C``). Numbers are written in Python's shortest form
that reads back to the same float, so a link reproduces the edited sample exactly.

The module is pure: no Streamlit. :mod:`core.app.settings` reads and checks the setting here.
"""

from __future__ import annotations

import math
import re
from typing import TypeAlias

import numpy as np

#: Feature number, then its value (None: missing).
Edits: TypeAlias = tuple[tuple[int, float | None], ...]
NO_EDITS: Edits = ()
#: Values a link may hold, either side of 0: larger ones are no sample's, and would only push
#: the star off every chart.
VALUE_LIMIT = 1e9
#: Feature numbers a link may name (a dataset's own width is checked against its shape).
FEATURE_LIMIT = 9999
#: Longer text is not read at all: it bounds the work a hostile link can ask for.
MAX_TEXT = 4000
MISSING = "missing"
_MISSING_WORDS = (MISSING, "nan", "none", "")
_PAIR = re.compile(r"(\d{1,4})~([0-9a-z.+-]*)")


def edits_words(limit: float = VALUE_LIMIT) -> str:
    """The rule, in words."""
    return (
        f"feature~value pairs joined by _ (as in `2~5.1_3~{MISSING}`), one per feature, each value "
        f"a number from -{limit:,.0f} to {limit:,.0f} or {MISSING}"
    )


def read_edits(raw: str, limit: float = VALUE_LIMIT) -> Edits:
    """The edits ``raw`` (link text) stands for, sorted by feature.

    Empty text (or ``none``) is no edits. Raises ``ValueError`` with the rule in words on
    anything else that is not a list of pairs: a broken pair, a feature named twice, a number
    that is not finite or beyond ``limit``. The whole value is refused, not the broken pair
    alone: a link that is garbled in one place may be garbled in others.
    """
    text = raw.strip().lower()
    if len(text) > MAX_TEXT:
        raise ValueError(edits_words(limit))
    if text in ("", "none"):
        return NO_EDITS
    edits: dict[int, float | None] = {}
    for part in text.split("_"):
        match = _PAIR.fullmatch(part)
        if match is None or int(match[1]) in edits:
            raise ValueError(edits_words(limit))
        value: float | None = None
        if match[2] not in _MISSING_WORDS:
            try:
                value = float(match[2])
            except ValueError:
                raise ValueError(edits_words(limit)) from None
            if not (math.isfinite(value) and abs(value) <= limit):
                raise ValueError(edits_words(limit))
        edits[int(match[1])] = value
    return tuple(sorted(edits.items()))


def write_edits(edits: Edits) -> str:
    """``edits`` as link text; :func:`read_edits` gives them back exactly."""
    return "_".join(f"{feature}~{_number(value)}" for feature, value in edits)


def _number(value: float | None) -> str:
    if value is None:
        return MISSING
    if value.is_integer():
        return str(int(value))  # "5", not "5.0"
    return repr(value)  # the shortest text that reads back to the same float


def edits_are_valid(value: object, limit: float = VALUE_LIMIT) -> bool:
    """Whether ``value`` is edits: pairs of a feature number and a finite number (or None)
    within ``limit``, in strictly increasing feature order."""
    if not isinstance(value, tuple):
        return False
    last = -1
    for pair in value:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return False
        feature, number = pair
        if isinstance(feature, bool) or not isinstance(feature, int):
            return False
        if not last < feature <= FEATURE_LIMIT:
            return False
        if number is not None and (
            isinstance(number, bool)
            or not isinstance(number, (int, float))
            or not (math.isfinite(number) and abs(number) <= limit)
        ):
            return False
        last = feature
    return True


def apply_edits(row: np.ndarray, columns: tuple[int, ...], edits: Edits) -> np.ndarray:
    """A copy of ``row`` (one value per model column) with ``edits`` applied.

    ``columns`` are the dataset's column numbers of the row's values; edits of other columns
    are not in this model, and change nothing. A missing value is NaN.
    """
    edited = np.array(row, dtype=float)
    changed = dict(edits)
    for position, column in enumerate(columns):
        if column in changed:
            value = changed[column]
            edited[position] = np.nan if value is None else value
    return edited


def edits_between(original: np.ndarray, row: np.ndarray, columns: tuple[int, ...]) -> Edits:
    """The edits that turn ``original`` into ``row`` (both one value per model column).

    A value counts as changed when it differs; NaN equals NaN (both missing).
    """
    edits = []
    for position, column in enumerate(columns):
        before, after = float(original[position]), float(row[position])
        if (math.isnan(before) and math.isnan(after)) or before == after:
            continue
        edits.append((int(column), None if math.isnan(after) else after))
    return tuple(sorted(edits))
