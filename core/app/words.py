"""Words: the plain-text helpers behind the pages' explanations, unit-tested without Streamlit.

- Markdown that shows as typed: :func:`md`; a description's opening: :func:`summary`.
- A tree in words: :func:`path_in_words`, :func:`differing_nodes`, :func:`score`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

# What ``score`` measures is named where the figures name it too, so a chart and a metric agree.
from core.figures import score_name as score_name
from core.figures.rules import Categories, category_of, path_step

# --- a tree in words -----------------------------------------------------------------------


def score(model: Any, X: np.ndarray, y: np.ndarray) -> float:
    """Accuracy for classifiers, R² for regressors: the model's own ``score``.

    The one scorer of the app: the figures' curves call the same ``score`` (the forest's
    ``staged_scores`` ends at it), and :func:`score_name` names what it measures.
    """
    return float(model.score(X, y))


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
        same = (
            not leaf_a
            and not leaf_b
            and ta.feature[na] == tb.feature[nb]
            and abs(float(ta.threshold[na]) - float(tb.threshold[nb])) <= atol
        )
        if not same:
            only_a.update(int(n) for n in ta.subtree(na))
            only_b.update(int(n) for n in tb.subtree(nb))
            continue
        pairs.append((int(ta.children_left[na]), int(tb.children_left[nb])))
        pairs.append((int(ta.children_right[na]), int(tb.children_right[nb])))
    return only_a, only_b
