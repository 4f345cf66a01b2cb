"""One split, one score: a student's split gains as much in the teacher's count of the class's
answers (the histogram's results), in the student's own score, and in the step page's "your
split against the tree's", which is also what a student sees of their answer after the reveal
(``core.ui.classroom.split`` shows ``split_against_best``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from core import DecisionTreeClassifier, DecisionTreeRegressor
from core.app.models import ModelView
from core.classroom import SplitAnswer
from core.classroom.poll import compute_poll_results, node_rows, score_answer
from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split
from core.engine.splits import compare_with_best
from core.figures.impurity_curves import compute_split_scan
from core.ui.growth_panels import node_targets


@pytest.mark.parametrize(
    ("name", "estimator"),
    [
        ("iris", DecisionTreeClassifier),
        ("penguins", DecisionTreeClassifier),  # missing values: the better side for them
        ("sine", DecisionTreeRegressor),
    ],
)
def test_the_class_count_the_students_score_and_the_step_page_agree(
    name: str, estimator: Any
) -> None:
    data = load_dataset(name)
    view = ModelView(data, train_test_split(data), tuple(range(data.n_features)))
    model = estimator(max_depth=3, min_samples_leaf=2, random_state=0)
    model.fit(view.X_train, view.y_train)
    for node in (0, int(model.tree_.children_left[0])):
        scan = compute_split_scan(model, view.X_train, view.y_train, node)
        rows = node_rows(model, view.X_train, view.y_train, node)
        quantiles = [0.05, 0.3, 0.5, 0.7, 0.95]
        answers = [
            SplitAnswer(f, float(t))
            for f in range(rows.X.shape[1])
            for t in np.nanquantile(rows.X[:, f], quantiles)
        ]
        counted = compute_poll_results(scan, answers, rows).answers  # the teacher's count
        # What the step page's split_against_best reads, and how it scores "your split".
        X_node, targets, n_classes = node_targets(model, view, node)
        n_scored = 0
        for answer, in_count in zip(answers, counted, strict=True):
            assert score_answer(scan, rows, answer) == in_count  # the student's own
            page = compare_with_best(
                X_node,
                targets,
                answer.feature,
                answer.threshold,
                str(model.criterion),
                n_classes,
                min_samples_leaf=int(model.min_samples_leaf),
            ).yours
            if in_count.verdict == "scored":
                n_scored += 1
                assert in_count.gain == page.gain, answer
                assert in_count.child_impurity == page.child_impurity, answer
            elif in_count.verdict == "one_side":
                assert in_count.gain == 0.0 and not page.splits
        assert n_scored > len(answers) // 2
