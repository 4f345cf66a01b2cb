"""Settings fitted to what parsing cannot check alone: the dataset, the test set, the tree.

A value can be valid for its setting and still not fit: a feature number beyond this
dataset's, a test sample beyond this test set, a step beyond this tree's last. These
functions reset such values, each with a short notice saying so, and merge a run's widget
values into the last good settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.app.edits import NO_EDITS, Edits
from core.app.settings.forms import (
    Catalogue,
    DatasetShape,
    Form,
    Settings,
    dataset_defaults,
    n_tree_columns,
)
from core.app.settings.table import N_ESTIMATORS_LIMIT


def fit_to(settings: Settings, shape: DatasetShape) -> tuple[dict[str, Any], list[str]]:
    """Values to reset because they do not fit ``shape``, with one notice each."""
    resets: dict[str, Any] = {}
    notices: list[str] = []
    task, values = shape.task, settings.values()
    if shape.noise is not None and shape.noise_max is not None and settings.noise > shape.noise_max:
        resets["noise"] = shape.noise
        notices.append(
            f"noise: {settings.noise:g} is more than {shape.noise_max:g}, the most for this "
            f"dataset; using {shape.noise:g}."
        )
    n = shape.n_features
    if task == "regression":
        # A regression dataset is drawn as a fit over its one feature; no pair to choose.
        resets.update(x=shape.pair[0], y=shape.pair[1])
    elif not (settings.x < n and settings.y < n and settings.x != settings.y):
        resets.update(x=shape.pair[0], y=shape.pair[1])
        notices.append(
            f"x and y must be two different feature numbers below {n} for this dataset; "
            "using its suggested pair."
        )
    for name, entry in settings.form.entries.items():
        if entry.most is not None and values[name] > entry.most[task]:
            resets[name] = float(entry.low)
            notices.append(
                f"{name}: {values[name]:g} is more than {entry.most[task]:g}, the most for a "
                f"{task} dataset; using {entry.low:g}."
            )
    n_columns = n_tree_columns(settings, shape)
    features = values.get("max_features")
    if isinstance(features, int) and features > n_columns:
        resets["max_features"] = "all"
        notices.append(
            f"max_features: {features} is more than the {n_columns} features the tree is "
            "grown on; using all."
        )
    edits = values.get("edit", NO_EDITS)
    kept = tuple((feature, value) for feature, value in edits if feature < shape.n_features)
    if kept != edits:
        resets["edit"] = kept
        notices.append(
            f"edit: this dataset's features are numbered 0 to {shape.n_features - 1}; the "
            "edits of any other are left out."
        )
    if values.get("tree", 0) >= values.get("n_estimators", N_ESTIMATORS_LIMIT):
        resets["tree"] = 0
        notices.append(
            f"tree must be below n_estimators ({settings.n_estimators}); showing tree 0."
        )
    return resets, notices


def with_dataset(settings: Settings, name: str, catalogue: Catalogue) -> Settings:
    """``settings`` moved to another dataset: its suggested pair, and the first test sample.

    A generated dataset starts from its own noise and number of points (a puzzle's noise
    scale is not the sine's); a table keeps them, unused, as they were. Values the new
    dataset's task does not allow go back to their lower limit (0 for all of them).
    """
    shape = catalogue[name]
    values = settings.values()
    changes: dict[str, Any] = {"dataset": name, **dataset_defaults(shape)}
    if values.get("sample") is not None:
        changes["sample"] = 0
    if values.get("node"):  # another dataset's node number means nothing here
        changes["node"] = 0
    if values.get("edit"):  # edits belong to a sample of the old dataset
        changes["edit"] = NO_EDITS
    for key, entry in settings.form.entries.items():
        if entry.scale is not None and values[key] > entry.scale[shape.task]:
            changes[key] = float(entry.low)
    moved = settings.replace(**changes)
    features = values.get("max_features")
    if isinstance(features, int) and features > n_tree_columns(moved, shape):
        moved = moved.replace(max_features="all")
    return moved


def fit_sample(settings: Settings, n_test: int) -> tuple[Settings, list[str]]:
    """Check ``settings.sample`` against the test set, which parsing cannot see."""
    sample = getattr(settings, "sample", None)
    if sample is None or sample < n_test:
        return settings, []
    notice = f"sample must be below {n_test}, the size of this test set; showing sample 0."
    return settings.replace(sample=0), [notice]


#: The settings that pick the traced test sample's row: another value of any is another sample.
SAMPLE_SETTINGS = ("dataset", "n_samples", "noise", "data_seed", "seed", "test_size", "sample")


def edits_to_keep(last: Settings, now: Settings) -> Edits:
    """The edits a run of the what-if view starts from: ``last``'s while ``now`` traces the
    same test sample, none once another one is traced.

    Edits belong to the sample they were made on: another sample, dataset, seed or test size
    starts again from that sample's own values.
    """
    before, after = last.values(), now.values()
    if all(before.get(name) == after.get(name) for name in SAMPLE_SETTINGS):
        return tuple(before.get("edit", NO_EDITS))
    return NO_EDITS


def fit_growth(settings: Settings, n_steps: int, n_nodes: int) -> tuple[Settings, list[str]]:
    """Check ``step`` and ``node`` against the fitted tree, which parsing cannot see.

    The last step and any beyond it show the whole tree (None), the latter with a notice; a
    node the tree does not have shows the root. Settings without these come back unchanged.
    """
    changes: dict[str, Any] = {}
    notices: list[str] = []
    step = getattr(settings, "step", None)
    if step is not None and step >= n_steps:
        changes["step"] = None
    if step is not None and step > n_steps:
        notices.append(
            f"step: this tree is grown in {n_steps} splits, fewer than {step}; showing the "
            "whole tree."
        )
    node = getattr(settings, "node", None)
    if node is not None and node >= n_nodes:
        changes["node"] = 0
        notices.append(f"node must be below {n_nodes}, the nodes of this tree; showing node 0.")
    return settings.replace(**changes), notices


def field_is_valid(form: Form, name: str, value: object) -> bool:
    """True when ``value`` is one ``form`` accepts for ``name``.

    A widget can hand back a value of the wrong kind (a stale browser tab sends an old label
    where a number belongs, a segmented control arrives empty): such a value must never reach
    a model. The dataset is checked against the catalogue by :func:`merge`.
    """
    if name == "dataset":
        return isinstance(value, str)
    entry = form.entries.get(name)
    if entry is None:
        return False
    if entry.kind == "float" and isinstance(value, float):
        value = round(value, 6)
    return entry.accepts(value)


def merge(
    form: Form, last: Settings, values: Mapping[str, object], catalogue: Catalogue
) -> tuple[Settings, list[str]]:
    """Settings from the controls' ``values``, falling back to ``last`` value by value.

    A value its entry does not accept (see :func:`field_is_valid`), or a dataset this page
    cannot show, keeps its value from ``last``; the others apply. The result is then fitted
    to its dataset, as :func:`parse` does.

    Returns
    -------
    settings : of ``form``
    rejected : names of the settings that kept their last value
    """
    merged: dict[str, Any] = {}
    rejected: list[str] = []
    for name, held in last.items:
        value = values.get(name, held)
        valid = field_is_valid(form, name, value)
        if name == "dataset":
            shape = catalogue.get(str(value))
            valid = valid and shape is not None and form.shows(shape)
        if valid:
            merged[name] = value
        else:
            merged[name] = held
            rejected.append(name)
    settings = form(**merged)
    resets, _ = fit_to(settings, catalogue[settings.dataset])
    return (settings.replace(**resets) if resets else settings), rejected
