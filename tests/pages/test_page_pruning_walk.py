"""Single tree: the pruning walk shows scikit-learn's path and prunes the page's tree."""

from __future__ import annotations

import numpy as np
import pytest
from page_helpers import (
    SINGLE_TREE,
    assert_healthy,
    chart_spec,
    open_page,
    query_of,
    values,
)
from sklearn.tree import DecisionTreeClassifier as SklearnTree

from core.data.catalogue import load_dataset
from core.data.datasets import train_test_split

WALK = "pruning-walk-step"


def open_walk(**query: str):
    app = open_page(SINGLE_TREE, **query)
    assert not [b for b in app.container if b.proto.id.endswith("-pruning-walk")]
    app.session_state["pruning"] = True  # what clicking the expander open does
    app.run()
    assert_healthy(app)
    return app


def leaves_metric(app) -> int:
    return int(app.metric[3].value)


def leaves_trace(app) -> dict:
    return next(t for t in chart_spec(app, "pruning-walk")["data"] if t.get("name") == "leaves")


def walk_leaves(app) -> list[int]:
    """The leaves panel of the walk's figure, one value per step (the last is drawn twice)."""
    return [int(v) for v in values(leaves_trace(app)["y"])[:-1]]


def walk_alphas(app) -> np.ndarray:
    return values(leaves_trace(app)["x"]).astype(float)[:-1]


@pytest.mark.parametrize(
    ("query", "columns"),
    [
        ({"dataset": "breast_cancer", "max_depth": "none", "fit": "all"}, slice(None)),
        ({"dataset": "wine", "max_depth": "6", "criterion": "entropy"}, [6, 12]),
    ],
)
def test_the_walk_is_scikit_learns_pruning_path(query, columns):
    app = open_walk(**query)
    rows = train_test_split(load_dataset(query["dataset"]), test_size=0.25, random_state=0)
    X = rows.X_train[:, columns]
    depth = None if query["max_depth"] == "none" else int(query["max_depth"])
    criterion = query.get("criterion", "gini")
    reference = SklearnTree(criterion=criterion, max_depth=depth, random_state=0)
    path = reference.cost_complexity_pruning_path(X, rows.y_train)
    expected = [
        SklearnTree(criterion=criterion, max_depth=depth, random_state=0, ccp_alpha=a)
        .fit(X, rows.y_train)
        .get_n_leaves()
        for a in path.ccp_alphas
    ]
    assert len(expected) > 3
    assert walk_leaves(app) == expected
    np.testing.assert_allclose(walk_alphas(app), path.ccp_alphas, rtol=1e-9, atol=1e-12)


def test_choosing_a_step_prunes_the_pages_tree_and_moves_the_url():
    app = open_walk(dataset="breast_cancer", max_depth="none")
    full = leaves_metric(app)
    slider = app.select_slider(key=WALK)
    assert slider.value == 0.0
    stops = list(slider.options)
    assert len(stops) > 4
    chosen_label = stops[len(stops) // 2]  # "α = 0.00123: 7 leaves"
    alpha = float(chosen_label.split("=")[1].split(":")[0])
    leaves = int(chosen_label.split(": ")[1].split(" ")[0])  # more than one: "leaves"

    slider.set_value(alpha).run()

    assert_healthy(app)
    assert leaves_metric(app) == leaves < full
    assert float(query_of(app)["ccp_alpha"]) == alpha
    assert app.select_slider(key="ccp_alpha").value == alpha
    assert app.select_slider(key=WALK).value == alpha
    # The figure marks the new alpha with the tree it keeps.
    marks = [t for t in chart_spec(app, "pruning-walk")["data"] if t.get("showlegend") is False]
    assert list(values(marks[0]["x"])) == [alpha]
    assert list(values(marks[0]["y"])) == [leaves]


def test_the_sidebars_alpha_moves_the_walk():
    app = open_walk(dataset="breast_cancer", max_depth="none")
    app.select_slider(key="ccp_alpha").set_value(0.02).run()
    assert_healthy(app)
    walk = app.select_slider(key=WALK)
    kept = max(a for a in walk_alphas(app) if a <= 0.02)
    assert float(walk.value) == pytest.approx(kept, abs=1e-6)
    assert walk.format_func(walk.value).endswith(f": {leaves_metric(app)} leaves")


def test_the_last_steps_reach_beyond_the_sidebars_scale():
    # Iris's last cuts have effective alphas of 0.29 and 0.33, past the slider's 0.1.
    app = open_walk(dataset="iris")
    last = float(app.select_slider(key=WALK).options[-1].split("=")[1].split(":")[0])
    assert last > 0.1
    app.select_slider(key=WALK).set_value(last).run()
    assert_healthy(app)
    assert leaves_metric(app) == 1
    assert app.select_slider(key=WALK).format_func(last).endswith(": 1 leaf")
    assert app.select_slider(key="ccp_alpha").value == last
    assert query_of(app)["ccp_alpha"] == f"{last:.6g}"


def test_a_tree_with_no_split_has_nothing_to_walk():
    # Ash and alcalinity split wine's classes too little for a 0.1 gain with 50-row leaves.
    app = open_walk(
        dataset="wine", x="2", y="3", min_impurity_decrease="0.1", min_samples_leaf="50"
    )
    assert app.metric[3].value == "1"
    assert any("no split to prune" in i.value for i in app.info)
