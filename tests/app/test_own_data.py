"""core/app/own_data.py: a session's own datasets and the private keys that cache them."""

from __future__ import annotations

import numpy as np

from core.app.models import data_spec, tree_spec
from core.app.own_data import (
    DRAWN,
    MAX_UPLOADS,
    OwnData,
    content_digest,
    new_upload_name,
    suggested_pair,
)
from core.app.settings import OWN_DATA_NAMES, SingleTreeSettings
from core.data.datasets import Dataset
from core.data.source import Source


def _points(n: int, shift: float = 0.0) -> Dataset:
    X = np.column_stack([np.arange(n, dtype=float) + shift, np.arange(n, dtype=float) % 3])
    return Dataset(
        name="drawn",
        title="Your points",
        task="classification",
        X=X,
        y=np.arange(n) % 2,
        feature_names=("x1", "x2"),
        target_name="class",
        class_names=("A", "B"),
        description="",
        provenance="",
    )


def test_the_same_rows_in_two_sessions_get_two_private_keys():
    first, second = OwnData().add(DRAWN, "drawn", _points(6), "Your points"), OwnData()
    second = second.add(DRAWN, "drawn", _points(6), "Your points")
    key_a, key_b = first.get(DRAWN).key, second.get(DRAWN).key
    assert key_a != key_b
    assert key_a.startswith("own-") and key_b.startswith("own-")
    assert first.get(DRAWN).key == key_a and second.get(DRAWN).key == key_b


def test_the_key_follows_the_rows_and_the_name_stays():
    own = OwnData().add(DRAWN, "drawn", _points(6), "Your points")
    before = own.get(DRAWN).key
    own = own.add(DRAWN, "drawn", _points(7), "Your points")
    assert [d.name for d in own.datasets] == [DRAWN]
    assert own.get(DRAWN).key != before


def test_the_digest_sees_every_value():
    assert content_digest(_points(6)) == content_digest(_points(6))
    assert content_digest(_points(6)) != content_digest(_points(6, shift=1e-9))


def test_a_session_keeps_its_newest_uploads_only():
    own = OwnData()
    names = [new_upload_name() for _ in range(MAX_UPLOADS + 2)]
    for i, name in enumerate(names):
        own = own.add(name, "upload", _points(5 + i), f"table {i}.csv")
    assert [d.name for d in own.datasets] == names[-MAX_UPLOADS:]
    assert all(OWN_DATA_NAMES.fullmatch(name) for name in names)


def test_own_shapes_and_specs_carry_the_private_key_never_the_name():
    own = OwnData().add("upload-0a1b2c3d", "upload", _points(8), "pets.csv")
    shape = own.catalogue()["upload-0a1b2c3d"]
    assert (shape.kind, shape.n_samples, shape.n_features, shape.title) == (
        "upload",
        8,
        2,
        "pets.csv",
    )
    settings = SingleTreeSettings(dataset="upload-0a1b2c3d", x=0, y=1)
    key = own.get("upload-0a1b2c3d").key
    assert data_spec(settings, shape).source == Source("upload", key)
    assert tree_spec(settings, shape).source == Source("upload", shape.rows_key)
    assert tree_spec(settings, shape).source.load() is own.get("upload-0a1b2c3d").data


def test_an_upload_starts_its_boundary_on_numeric_features():
    base = _points(6)
    one_hot = Dataset(
        name="upload",
        title="t",
        task="classification",
        X=np.column_stack([base.X[:, 0] % 2, base.X, (base.X[:, 0] + 1) % 2]),
        y=base.y,
        feature_names=("sex is f", "a", "b", "sex is m"),
        target_name="class",
        class_names=("A", "B"),
        description="",
        provenance="",
        categories=(("sex", "f"), None, None, ("sex", "m")),
    )
    assert suggested_pair(one_hot) == (1, 2)
    assert suggested_pair(base) == (0, 1)
