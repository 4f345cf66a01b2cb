"""A class's answers summed up: a number question's spread, and a lesson's summary per screen.

A number question ("what test accuracy do you expect at depth 8?") gets a few dozen numbers;
the class sees how many answered, the middle one and the range, and a histogram of them. At the
end of a lesson, the teacher downloads one row per question asked: its screen, the question, how
many answered, and what they answered in brief. No row names a student: the store keeps none.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.classroom.model import Answer, NumberAnswer, Poll, choice_counts

#: Most bars of a number question's histogram.
NUMBER_BINS = 10
#: The summary's columns, in order.
SUMMARY_COLUMNS = ("screen", "question", "kind", "answered", "answers")


@dataclass(frozen=True)
class NumberSummary:
    """A number question's answers, summed up.

    Attributes
    ----------
    n : int
        How many answered.
    low, median, high : float or None
        The smallest, middle and largest answers (None with no answer).
    edges : ndarray of shape (n_bins + 1,)
        The histogram's bin edges, from ``low`` to ``high`` (a unit-wide bin around a single
        value).
    counts : ndarray of shape (n_bins,)
        Answers per bin; the last bin holds its right edge.
    """

    n: int
    low: float | None
    median: float | None
    high: float | None
    edges: NDArray[np.float64]
    counts: NDArray[np.intp]

    def spread(self) -> str:
        """The middle answer and the range: "middle 0.8, from 0.6 to 0.95" ("" with none)."""
        if self.n == 0 or self.median is None:
            return ""
        return f"middle {self.median:g}, from {self.low:g} to {self.high:g}"

    def text(self) -> str:
        """One line: "12 answers: middle 0.8, from 0.6 to 0.95"."""
        if self.n == 0:
            return "No answers yet."
        word = "answer" if self.n == 1 else "answers"
        return f"{self.n} {word}: {self.spread()}"


def number_summary(values: Iterable[float], n_bins: int = NUMBER_BINS) -> NumberSummary:
    """Sum up a number question's answers (non-finite ones, which the store never keeps, are
    left out all the same).

    Parameters
    ----------
    values : iterable of float
    n_bins : int, default 10
        Bars between the smallest and the largest answer, so two answers far apart stand
        apart; one bar when every answer is the same.

    Raises
    ------
    ValueError
        When ``n_bins`` < 1.
    """
    if n_bins < 1:
        raise ValueError(f"n_bins must be >= 1, got {n_bins}")
    kept = np.array([v for v in values if math.isfinite(v)], dtype=np.float64)
    if kept.size == 0:
        return NumberSummary(0, None, None, None, np.zeros(0), np.zeros(0, dtype=np.intp))
    low, high = float(kept.min()), float(kept.max())
    bins = 1 if high <= low else n_bins
    left, right = (low - 0.5, high + 0.5) if high <= low else (low, high)
    counts, edges = np.histogram(kept, bins=bins, range=(left, right))
    return NumberSummary(
        int(kept.size), low, float(np.median(kept)), high, edges, counts.astype(np.intp)
    )


def numbers(answers: Iterable[Answer]) -> list[float]:
    """The number answers among ``answers``."""
    return [answer.value for answer in answers if isinstance(answer, NumberAnswer)]


def brief(poll: Poll, answers: Sequence[Answer]) -> str:
    """What the class answered to ``poll``, in one line beside how many answered: the counts
    per option, or a number question's middle answer and range."""
    if poll.kind == "choice":
        counts = choice_counts(poll, answers)
        return "; ".join(f"{option}: {n}" for option, n in zip(poll.options, counts, strict=True))
    if poll.kind == "number":
        return number_summary(numbers(answers)).spread()
    return f"{len(answers)} splits (scored on the step page)"


def summary_rows(
    polls: Sequence[Poll], answers: Mapping[int, Sequence[Answer]]
) -> list[dict[str, str | int]]:
    """One row per poll a lesson's screen asked (``answers`` by poll number), in order."""
    rows: list[dict[str, str | int]] = []
    for poll in polls:
        if poll.screen is None:
            continue
        given = answers.get(poll.number, ())
        rows.append(
            {
                "screen": poll.screen,
                "question": poll.question,
                "kind": poll.kind,
                "answered": len(given),
                "answers": brief(poll, given),
            }
        )
    return rows


def summary_csv(rows: Sequence[Mapping[str, str | int]]) -> str:
    """The rows as CSV, with a header. A cell a spreadsheet would run as a formula (``=``,
    ``+``, ``-``, ``@`` first) is written with a leading quote mark."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SUMMARY_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(row.get(name, "")) for name in SUMMARY_COLUMNS})
    return out.getvalue()


def _cell(value: str | int) -> str | int:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


__all__ = [
    "NUMBER_BINS",
    "SUMMARY_COLUMNS",
    "NumberSummary",
    "brief",
    "number_summary",
    "numbers",
    "summary_csv",
    "summary_rows",
]
