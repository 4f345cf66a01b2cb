"""core/data/source.py: one source type for every dataset, its content key and load()."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from core.data.catalogue import load_dataset
from core.data.datasets import Dataset
from core.data.source import RowsGone, Source, hold


def _points(n: int) -> Dataset:
    X = np.column_stack([np.arange(n, dtype=float), np.arange(n, dtype=float) % 3])
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


def test_a_table_loads_the_catalogues_rows():
    iris = Source.table("iris").load()
    assert (iris.name, iris.n_samples) == ("iris", 150)
    np.testing.assert_array_equal(iris.X, load_dataset("iris").X)


def test_a_generated_source_is_generated_as_its_fields_say():
    moons = Source.generated("moons", 0.35, 120, 7)
    rows = moons.load()
    expected = load_dataset("moons", noise=0.35, n_samples=120, random_state=7)
    assert rows.n_samples == 120
    np.testing.assert_array_equal(rows.X, expected.X)
    np.testing.assert_array_equal(rows.y, expected.y)
    # The fields are the content key: another seed is another source, with other rows.
    other = Source.generated("moons", 0.35, 120, 8)
    assert other != moons and hash(other) != hash(moons)
    assert not np.array_equal(other.load().X, rows.X)


def test_equal_sources_are_one_key_whatever_the_number_types():
    assert Source.generated("sine", 2, 200, 0) == Source.generated("sine", 2.0, 200, 0)
    assert Source.table("wine") == Source("table", "wine")
    assert Source.table("wine") != Source.generated("wine", 0.1, 200, 0)


def test_own_rows_load_while_held_and_are_gone_after():
    rows = _points(5)
    source = Source("drawn", "own-test-0123")
    assert source.own and not Source.table("iris").own
    hold(source.key, rows)
    assert source.load() is rows
    del rows
    gc.collect()
    with pytest.raises(RowsGone, match="no longer in this browser session"):
        source.load()


def test_an_unknown_name_is_a_clear_error():
    with pytest.raises(ValueError, match="name must be one of"):
        Source.table("no-such-table").load()
