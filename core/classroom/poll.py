"""The class poll "Where will the tree split this node?", in numbers: every answer scored
as the step page scores a student's split, then counted.

Each student answered a feature and a threshold (:class:`core.classroom.SplitAnswer`): rows
whose value is ≤ the threshold go left. An answer's gain is the engine's own evaluation of
that split on the node's rows (:func:`core.engine.splits.evaluate_split`), the very
function behind the step page's "your split against the tree's", which also shows a student
their answer after the reveal:

    gain = I(node) - (n_L I(L) + n_R I(R)) / n

So the teacher's count, a student's reveal and the step page give one split one score.
Whether the tree would consider the split at all comes from the node's split scan
(:func:`core.figures.impurity_curves.compute_split_scan`): it has one threshold per gap
between two consecutive values of the node, and a split it has no point for (a side smaller
than ``min_samples_leaf``) is one the tree never tries. Finding an answer's gap needs the
node's values (:func:`node_rows`): between the values 2 and 3 the scan holds 2.5, and an
answer of 2.2 lies below 2.5 yet makes the same split as it.

- :func:`compute_poll_results`: every answer's gain, the counts per feature, the share that
  chose the tree's feature and the tree's split, the best and median gain, and a histogram of
  the thresholds of each feature (drawn by :func:`core.figures.poll.poll_figure`).
- :func:`score_answer`: one student's answer.
- :func:`answer_counts_text`: the answers per feature, as one line for a caption.

The module is pure: no Streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from core.classroom.model import SplitAnswer
from core.classroom.node import NodeRows, node_rows
from core.engine.arrays import float32_values, threshold_as_written
from core.engine.splits import evaluate_split
from core.figures.impurity_curves import SplitScanData
from core.figures.poll import AnswerHistogram, PollPanel

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

__all__ = [
    "N_BINS",
    "NodeRows",
    "PollResults",
    "ScoredAnswer",
    "Verdict",
    "answer_counts_text",
    "compute_poll_results",
    "node_rows",
    "score_answer",
]

#: What became of one answer:
#:
#: - ``"scored"``: a split the tree considers; ``gain`` is its gain.
#: - ``"one_side"``: below every value of the node or above them all: every row goes one way,
#:   nothing is split, the gain is 0.
#: - ``"not_allowed"``: a split the tree never scores (a side would hold fewer rows than
#:   ``min_samples_leaf``; or, with missing values, every present row left and only the missing
#:   ones right, a split the curve has no place for): no gain.
#: - ``"no_feature"``: the feature is not a column of the table: no gain.
Verdict = Literal["scored", "one_side", "not_allowed", "no_feature"]

_NOTES: dict[Verdict, str] = {
    "scored": "",
    "one_side": "every row goes the same way: nothing is split (gain 0)",
    "not_allowed": "the tree never tries this split (a side would be too small)",
    "no_feature": "no such feature in this table",
}

#: Bars of the thresholds' histogram, per feature.
N_BINS = 20


@dataclass(frozen=True)
class ScoredAnswer:
    """One student's split, scored as the tree scores it.

    Attributes
    ----------
    feature : int
    threshold : float
    verdict : {"scored", "one_side", "not_allowed", "no_feature"}
        See :data:`Verdict`.
    n_left : int
        The node's rows with a value ≤ ``threshold`` (rows without a value not counted);
        0 when ``verdict`` is ``"no_feature"``.
    child_impurity : float or None
        ``(n_L I(L) + n_R I(R)) / n``; the node's impurity for ``"one_side"``; None when
        there is no gain.
    gain : float or None
        The node's impurity less ``child_impurity``.
    same_as_tree : bool
        The answer's split sends exactly the rows left that the tree's split sends left.
    note : str
        Why the gain is 0 or missing, in words ("" when scored).
    """

    feature: int
    threshold: float
    verdict: Verdict
    n_left: int
    child_impurity: float | None
    gain: float | None
    same_as_tree: bool
    note: str


@dataclass(frozen=True)
class PollResults:
    """A split poll's answers at one node, scored, with the tree's own split.

    Attributes
    ----------
    scan : SplitScanData
        The node's split scan: each feature's curve, the node's impurity, the tree's split.
    answers : tuple of ScoredAnswer
        In the order given.
    counts : ndarray of shape (n_features,)
        Answers per feature.
    n_answers : int
        Every answer, those naming no feature too.
    histograms : tuple of AnswerHistogram
        One per feature.
    tree_gain : float or None
        The gain of the tree's split (None at a leaf).
    share_on_tree_feature, share_on_tree_split : float or None
        Of all answers, the share on the tree's feature, and the share making the tree's very
        split (same rows left). None with no answers, or at a leaf.
    best_gain, median_gain : float or None
        Over the answers that have a gain; None when none has.
    """

    scan: SplitScanData
    answers: tuple[ScoredAnswer, ...]
    counts: IntArray
    n_answers: int
    histograms: tuple[AnswerHistogram, ...]
    tree_gain: float | None
    share_on_tree_feature: float | None
    share_on_tree_split: float | None
    best_gain: float | None
    median_gain: float | None

    @property
    def most_answered(self) -> int:
        """The feature most answers chose (the lowest index of a tie; 0 with no answers)."""
        return int(np.argmax(self.counts)) if self.counts.size else 0

    def panel(self, feature: int | None = None) -> PollPanel:
        """One feature's answers, as :func:`core.figures.poll.poll_figure` draws them.

        Parameters
        ----------
        feature : int, optional
            Default the one most answers chose.

        Raises
        ------
        ValueError
            When ``feature`` is not a feature of the scan.
        """
        f = self.most_answered if feature is None else feature
        if not 0 <= f < len(self.scan.scans):
            raise ValueError(f"feature must be in [0, {len(self.scan.scans) - 1}], got {feature}")
        return PollPanel(self.scan, f, self.histograms[f], self.n_answers)


@dataclass(frozen=True)
class _Gaps:
    """One feature at the node: its values, and the scanned threshold of each gap."""

    present: FloatArray  # the node's values of the feature, NaN left out, sorted
    values: FloatArray  # the distinct ones
    has_missing: bool
    # scanned[k]: the index in the scan's thresholds of the split "the k lowest values left"
    scanned: dict[int, int]


def _gaps(scan: SplitScanData, X_node: FloatArray) -> tuple[_Gaps, ...]:
    gaps = []
    for feature_scan, column in zip(scan.scans, X_node.T, strict=True):
        present = np.sort(column[~np.isnan(column)])
        values = np.unique(present)
        # A scanned threshold t lies in [low, high) of its gap (core.engine.scan.midpoint):
        # the values <= t are the values below the gap, so t is "the k lowest values left".
        below = np.searchsorted(values, feature_scan.thresholds, side="right")
        scanned = {int(k): i for i, k in enumerate(below)}
        gaps.append(_Gaps(present, values, present.size < column.size, scanned))
    return tuple(gaps)


def _score(
    scan: SplitScanData,
    node: NodeRows,
    gaps: Sequence[_Gaps],
    answer: SplitAnswer,
    tree_left: int | None,
) -> ScoredAnswer:
    feature, threshold = int(answer.feature), float(answer.threshold)
    if not 0 <= feature < len(scan.scans):
        return ScoredAnswer(
            feature, threshold, "no_feature", 0, None, None, False, _NOTES["no_feature"]
        )
    gap = gaps[feature]
    # NaN compares false with every value: no row goes left. The number is read as written:
    # "≤ 1.7" keeps the rows of 1.7 (1.70000005 as the tree reads them) left.
    at = -math.inf if math.isnan(threshold) else threshold_as_written(threshold)
    k = int(np.searchsorted(gap.values, at, side="right"))
    n_left = int(np.searchsorted(gap.present, at, side="right"))
    verdict: Verdict
    child = gain = None
    if k in gap.scanned:  # a split the tree tries: the engine's own score of it
        verdict = "scored"
        split = evaluate_split(node.X, node.y, feature, at, node.criterion, node.n_classes)
        child, gain = split.child_impurity, split.gain
    elif k == 0 or (k == gap.values.size and not gap.has_missing):
        verdict, child, gain = "one_side", scan.parent_impurity, 0.0
    else:
        verdict = "not_allowed"
    same = feature == scan.chosen_feature and n_left == tree_left
    return ScoredAnswer(feature, threshold, verdict, n_left, child, gain, same, _NOTES[verdict])


def _histogram(gap: _Gaps, thresholds: Sequence[float], n_bins: int) -> AnswerHistogram:
    if gap.values.size:
        low, high = float(gap.values[0]), float(gap.values[-1])
    else:
        low = high = 0.0
    if high <= low:  # one value: a bin a unit wide around it
        low, high = low - 0.5, high + 0.5
    edges = np.linspace(low, high, n_bins + 1)
    at = np.asarray(thresholds, dtype=np.float64)
    at[np.isnan(at)] = -np.inf  # sends no row left, as a threshold below every value
    outside = int(np.count_nonzero((at < low) | (at > high)))
    counts, _ = np.histogram(np.clip(at, low, high), bins=edges)
    return AnswerHistogram(edges, counts.astype(np.intp), outside)


def compute_poll_results(
    scan: SplitScanData,
    answers: Sequence[SplitAnswer],
    node: NodeRows,
    *,
    n_bins: int = N_BINS,
) -> PollResults:
    """Score every answer of a split poll as the step page scores a split, and sum them up.

    An answer "rows with ``feature`` ≤ ``threshold`` go left" that the tree would try (the
    scan has a threshold between the same two consecutive values of the node) is scored by
    :func:`core.engine.splits.evaluate_split` on the node's rows (with missing values, the
    better side for them, as the tree picks it):

        gain = I(node) - (n_L I(L) + n_R I(R)) / n

    An answer below every value of the node, or above them all, splits nothing: gain 0.

    Parameters
    ----------
    scan : SplitScanData
        The node's split scan (:func:`~core.figures.impurity_curves.compute_split_scan`).
    answers : sequence of SplitAnswer
        The students' answers (any order; one per student).
    node : NodeRows
        The node's training rows and targets (:func:`node_rows`): they place each answer
        between two values, and score it.
    n_bins : int, default 20
        Bars of each feature's histogram of thresholds.

    Returns
    -------
    PollResults

    Raises
    ------
    ValueError
        When the node's rows do not have the scan's shape, or ``n_bins`` < 1.
    """
    if n_bins < 1:
        raise ValueError(f"n_bins must be >= 1, got {n_bins}")
    rows = node.X
    if rows.shape != (scan.n_samples, len(scan.scans)) or len(node.y) != scan.n_samples:
        raise ValueError(
            f"X_node must hold the node's {scan.n_samples} rows of {len(scan.scans)} features, "
            f"got shape {rows.shape}"
        )
    gaps = _gaps(scan, float32_values(rows))  # the values as the tree compares them
    tree_left = None
    tree_gain = None
    if scan.chosen_feature is not None and scan.chosen_threshold is not None:
        present = gaps[scan.chosen_feature].present
        tree_left = int(np.searchsorted(present, scan.chosen_threshold, side="right"))
    if scan.chosen_impurity is not None:
        tree_gain = scan.parent_impurity - scan.chosen_impurity
    scored = tuple(_score(scan, node, gaps, answer, tree_left) for answer in answers)
    n_features = len(scan.scans)
    counts = np.zeros(n_features, dtype=np.intp)
    for one in scored:
        if one.verdict != "no_feature":
            counts[one.feature] += 1
    histograms = tuple(
        _histogram(gaps[f], [a.threshold for a in scored if a.feature == f], n_bins)
        for f in range(n_features)
    )
    gains = [a.gain for a in scored if a.gain is not None]
    n = len(scored)
    on_feature = on_split = None
    if n and scan.chosen_feature is not None:
        on_feature = sum(a.feature == scan.chosen_feature for a in scored) / n
        on_split = sum(a.same_as_tree for a in scored) / n
    return PollResults(
        scan=scan,
        answers=scored,
        counts=counts,
        n_answers=n,
        histograms=histograms,
        tree_gain=tree_gain,
        share_on_tree_feature=on_feature,
        share_on_tree_split=on_split,
        best_gain=max(gains) if gains else None,
        median_gain=float(np.median(gains)) if gains else None,
    )


def score_answer(scan: SplitScanData, node: NodeRows, answer: SplitAnswer) -> ScoredAnswer:
    """One answer scored as :func:`compute_poll_results` scores it (a student's own gain).

    Parameters
    ----------
    scan : SplitScanData
        The node's split scan.
    node : NodeRows
        The node's rows and targets (:func:`node_rows`).
    answer : SplitAnswer

    Returns
    -------
    ScoredAnswer
    """
    return compute_poll_results(scan, [answer], node).answers[0]


def answer_counts_text(results: PollResults) -> str:
    """How many answered on each feature, most first, as one plain line for a caption.

    >>> "30 answers: petal length (cm) 18 · petal width (cm) 12"  # doctest: +SKIP

    Feature names are as the table has them (not escaped: the caller escapes for Markdown).
    """
    if results.n_answers == 0:
        return "No answers yet."
    order = sorted(range(len(results.counts)), key=lambda f: (-results.counts[f], f))
    parts = [
        f"{results.scan.scans[f].name} {results.counts[f]}" for f in order if results.counts[f]
    ]
    elsewhere = results.n_answers - int(results.counts.sum())
    if elsewhere:
        parts.append(f"no such feature {elsewhere}")
    word = "answer" if results.n_answers == 1 else "answers"
    return f"{results.n_answers} {word}: " + " · ".join(parts)
