"""Words: the plain-text helpers behind the pages' explanations, unit-tested without Streamlit.

- Markdown that shows as typed: :func:`md`; a description's opening: :func:`summary`.
- A tree in words: :func:`path_in_words`, :func:`differing_nodes`, :func:`score`.
- A node in words: :func:`why_leaf_sentence`, :func:`tie_sentence` and
  :func:`comparison_sentence` say what the engine's :func:`~core.engine.node_splits.why_leaf`,
  :func:`~core.engine.node_splits.split_candidates` and
  :func:`~core.engine.splits.compare_with_best` found, which are only codes and numbers.
- Numbers on screen in words: :func:`averaging_numbers` and :func:`averaging_sentence` for
  "why averaging works", so its sentence says what its metrics show.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from core.engine.node_splits import SplitCandidates, StopReason
from core.engine.splits import SplitComparison

# What ``score`` measures is named where the figures name it too, so a chart and a metric agree.
from core.figures import score as model_score
from core.figures import score_name as score_name
from core.figures.criterion import same_question
from core.figures.node_label import format_alike
from core.figures.rules import Categories, category_of, path_step, rule_text
from core.figures.variance import Spread

# --- a tree in words -----------------------------------------------------------------------


def score(model: Any, X: np.ndarray, y: np.ndarray) -> float:
    """Accuracy for classifiers, R² for regressors: the number the model's own ``score`` gives.

    The one scorer of the app: the figures' curves compute the same (the forest's
    ``staged_scores`` ends at it), and :func:`score_name` names what it measures. It is
    :func:`core.figures.score`, the formula without scikit-learn's checks of its inputs.
    """
    return model_score(model, X, y)


def summary(description: str, sentences: int = 2) -> str:
    """The first ``sentences`` sentences of a description."""
    parts = re.split(r"(?<=[.!?])\s+", description.strip())
    return " ".join(parts[:sentences])


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>()#+-.!|$~:"})


def md(text: str) -> str:
    """``text`` with Markdown's special characters escaped, so it shows as typed."""
    return text.translate(_MARKDOWN_SPECIAL)


def path_in_words(
    model: Any,
    row: np.ndarray,
    feature_names: Sequence[str],
    class_names: Sequence[str],
    categories: Categories | None = None,
) -> tuple[list[str], str]:
    """The questions ``row`` answers on its way down ``model``, and the leaf's answer.

    Returns Markdown: one line per split (``petal width is 1.8, more than 1.75: go right``,
    ``sex is female: go right``, ``age is missing: missing values go left here``; the words
    of :func:`core.figures.rules.path_step`) and the prediction, with the share of training
    samples of that class at the leaf.
    """
    tree = model.tree_
    missing_left = np.asarray(tree.missing_go_to_left, dtype=bool)
    node, steps = 0, []
    while tree.children_left[node] != tree.children_right[node]:
        f = int(tree.feature[node])
        category = category_of(categories, f)
        # Names escaped for Markdown; the subject (the feature, or a one-hot column's text
        # column) in bold.
        subject = md(feature_names[f] if category is None else category[0])
        shown = None if category is None else (f"**{subject}**", md(category[1]))
        text, goes_left = path_step(
            f"**{subject}**",
            float(row[f]),
            float(tree.threshold[node]),
            bool(missing_left[node]),
            shown,
        )
        steps.append(text)
        node = int(tree.children_left[node] if goes_left else tree.children_right[node])
    leaf = np.asarray(tree.value[node][0], dtype=float)
    samples = int(tree.n_node_samples[node])
    if class_names:
        k = int(np.argmax(leaf))
        share = leaf[k] / leaf.sum() if leaf.sum() > 0 else 0.0
        answer = (
            f"so the tree predicts **{md(class_names[k])}**: {share:.0%} of the {samples} "
            f"training samples in this leaf are {md(class_names[k])}."
        )
    else:
        answer = (
            f"so the tree predicts **{leaf[0]:.4g}**, the mean of the {samples} training "
            "samples in this leaf."
        )
    return steps, answer


def differing_nodes(a: Any, b: Any, *, atol: float = 1e-9) -> tuple[set[int], set[int]]:
    """Nodes of fitted trees ``a`` and ``b`` with no identical counterpart in the other.

    Both trees are walked together from the root. Two nodes match when their parents matched
    and they ask the same question (same feature, same threshold), or are both leaves; once
    a node differs, its whole subtree differs, since it receives different samples.
    """
    ta, tb = a.tree_, b.tree_
    only_a: set[int] = set()
    only_b: set[int] = set()
    pairs = [(0, 0)]
    while pairs:
        na, nb = pairs.pop()
        leaf_a, leaf_b = ta.children_left[na] == -1, tb.children_left[nb] == -1
        if leaf_a and leaf_b:
            continue
        if not same_question(ta, na, tb, nb, atol=atol):
            only_a.update(int(n) for n in ta.subtree(na))
            only_b.update(int(n) for n in tb.subtree(nb))
            continue
        pairs.append((int(ta.children_left[na]), int(tb.children_left[nb])))
        pairs.append((int(ta.children_right[na]), int(tb.children_right[nb])))
    return only_a, only_b


# --- a node in words -----------------------------------------------------------------------


def _fmt(value: float) -> str:
    """A number as a student reads it: three significant digits."""
    return f"{value:.3g}"


def why_leaf_sentence(
    reason: StopReason,
    feature_names: Sequence[str] | None = None,
    classes: Sequence[object] | None = None,
) -> str:
    """Why a leaf stopped, in one sentence: ``"Node 4 is at depth 2, the limit set by
    max_depth=2."``

    One sentence per rule of :func:`core.engine.node_splits.why_leaf`, in its order.

    Parameters
    ----------
    reason : StopReason
        What ``why_leaf`` returned.
    feature_names : sequence of str, optional
        Names the best split's feature (``min_impurity_decrease``); by default ``x[0]``,
        ``x[1]``...
    classes : sequence, optional
        The model's ``classes_``, to name a pure leaf's class; by default its index, which is
        its label when the labels are ``0..k-1``.

    Returns
    -------
    str
        Plain text, not Markdown: escape it (:func:`md`) to show it as typed.
    """
    n, limit = reason.n_samples, reason.limit
    if reason.code == "pure":
        samples = "its only sample" if n == 1 else f"all its {n} samples"
        if reason.pure_class is None:  # a regressor's leaf
            what = "has one target value" if n == 1 else "have the same target value"
        else:
            label = reason.pure_class if classes is None else classes[reason.pure_class]
            what = f"{'is' if n == 1 else 'are'} of class {label}"
        text = f"is pure: {samples} {what}; there is nothing to separate."
    elif reason.code == "max_depth":
        text = f"is at depth {reason.depth}, the limit set by max_depth={limit}."
    elif reason.code == "min_samples_leaf" and reason.rule == 3:  # too few for two leaves
        text = f"holds {n} samples: too few for two children of min_samples_leaf={limit} each."
    elif reason.code == "min_samples_split":
        text = f"holds {n} samples, fewer than min_samples_split={limit}."
    elif reason.code == "constant":
        text = f"has {n} samples with the same value on every feature: no threshold separates them."
    elif reason.code == "min_samples_leaf":  # rule 6: no threshold leaves both sides enough
        text = (
            "cannot split: every threshold leaves a side with fewer than "
            f"min_samples_leaf={limit} samples."
        )
    elif reason.code == "min_impurity_decrease":
        feature, decrease = reason.best_feature, reason.decrease
        if feature is None or decrease is None:
            raise ValueError(
                "a min_impurity_decrease reason must carry its best split; got best_feature="
                f"{feature} and decrease={decrease}"
            )
        name = feature_names[feature] if feature_names else f"x[{feature}]"
        text = (
            f"stops: its best split, on {name}, decreases the weighted impurity by "
            f"{_fmt(decrease)}, less than min_impurity_decrease={limit:g}."
        )
    elif reason.code == "ccp_alpha":
        text = (
            f"was split in the full tree, but cost-complexity pruning (ccp_alpha={limit:g}) "
            "cut the branch below it: it lowered the impurity too little for the leaves it "
            "added."
        )
    else:  # features_drawn
        text = (
            "could split, but not well enough on the features drawn at random here "
            "(max_features): others would have."
        )
    return f"Node {reason.node} {text}"


def tie_sentence(
    candidates: SplitCandidates,
    feature_names: Sequence[str],
    categories: Categories | None = None,
) -> str | None:
    """Where other features split a node exactly as well as the tree's question, say so.

    ``petal length (cm) ≤ 2.45 and petal width (cm) ≤ 0.8 separate these rows equally well``:
    a teacher comparing with scikit-learn then sees why its tree may ask the other question.
    None when the tree's split has no equal (or the node is a leaf).
    """
    if candidates.chosen is None or not candidates.tied:
        return None
    splits = [candidates.rows[candidates.chosen], *(candidates.rows[k] for k in candidates.tied)]
    rules = [
        rule_text(feature_names[s.feature], s.threshold, category_of(categories, s.feature))
        for s in splits
    ]
    listed = ", ".join(rules[:-1]) + " and " + rules[-1]
    return (
        f"{listed} separate these rows equally well. This tree asks the first of them; "
        "scikit-learn, which tries the features in a random order, may ask another."
    )


def comparison_sentence(comparison: SplitComparison) -> str:
    """``"Your split gains 0.08; the tree's best gains 0.213."`` and a verdict: a best split,
    or how much better the tree's is.

    Parameters
    ----------
    comparison : SplitComparison
        What :func:`core.engine.splits.compare_with_best` returned.

    Returns
    -------
    str
        Plain text, not Markdown.
    """
    if not comparison.yours.splits:
        mine = "Your split sends every sample to one side, so it gains nothing"
    else:
        mine = f"Your split gains {_fmt(comparison.yours.gain)}"
    best, difference = comparison.best, comparison.gain_difference
    if best is None or difference is None:
        return f"{mine}; no split can separate these samples."
    text = f"{mine}; the tree's best gains {_fmt(best.gain)}."
    if comparison.found_best:
        return text + " You found a best split."
    return text + f" The tree's split is better by {_fmt(difference)}."


# --- numbers on screen in words ------------------------------------------------------------


def averaging_numbers(spread: Spread) -> tuple[str, str]:
    """One tree's test score (the mean over the trees) and their average's, as shown.

    Accuracy to three decimals; mean squared errors with one number of decimals for both
    (:func:`~core.figures.node_label.format_alike`), as they are read against each other.
    """
    if spread.parts is not None:
        one, average = format_alike([spread.parts.trees_error, spread.parts.average_error])
        return one, average
    return f"{1 - spread.tree_error:.3f}", f"{1 - spread.error_by_k[-1]:.3f}"


def averaging_sentence(spread: Spread) -> str:
    """What the two numbers of :func:`averaging_numbers` show, compared as they are shown.

    The lesson says that an average of trees usually scores better than a typical one of
    them; on a small test set it may not, and a caption must not claim what the numbers
    beside it contradict. So: "does score better" only when the shown numbers say so, and
    otherwise why one split's score cannot show it.
    """
    one, average = averaging_numbers(spread)
    n = len(spread.test_y)
    if spread.parts is not None:
        variance = format_alike([spread.parts.trees_error, spread.parts.variance])[1]
        if float(average) < float(one):
            return (
                f"Here their average does score better: its test MSE is {average}, one "
                f"tree's {one} on average, lower by the trees' variance, {variance}."
            )
        return (
            f"Here their average scores the same as one tree, test MSE {average}: the trees "
            f"hardly differ (variance {variance}), so there is little to average away."
        )
    if float(average) > float(one):
        return (
            f"Here their average does score better: {average} on the {n} test rows, against "
            f"{one} for one tree on average."
        )
    rows = round(abs(float(one) - float(average)) * n, 1)
    apart = "less than one test row" if rows < 1 else f"{rows:g} test rows"
    how = "scores the same as" if float(average) == float(one) else "does not score better than"
    agree = "" if spread.agreement is None else f", and two trees agree on {spread.agreement:.1%}"
    return (
        f"Here their average {how} one tree: {average} against one tree's {one} on average, "
        f"{apart} apart. With {n} test rows one row is {1 / n:.3f} of accuracy{agree} of "
        "them: the trees already do well here, and one small test set cannot show the gain. "
        "What averaging always does shows in the picture: where the trees disagree, their "
        "average draws one steady boundary."
    )
