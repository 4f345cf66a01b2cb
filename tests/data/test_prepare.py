"""Tests for ``prepare_table``: from a table to a dataset, with the reasons and notices a student
reads. Tables are built here; the last tests read CSV bytes through ``read_table`` first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from core.data.columns import FLOAT32_MAX, MAX_LEVELS
from core.data.prepare import (
    MAX_CLASSES,
    MAX_ROWS,
    ColumnReport,
    infer_task,
    prepare_table,
    suggest_target,
)
from core.data.tables import TableError, read_table
from core.figures.palette import CLASS_COLORS


def toy(**columns: Any) -> pd.DataFrame:
    base: dict[str, Any] = {"a": [1.0, 2.0, 3.0, 4.0], "b": [0, 1, 0, 1], "t": ["x", "y", "x", "y"]}
    base.update(columns)
    return pd.DataFrame(base)


def report(prepared: Any, name: str) -> ColumnReport:
    return next(column for column in prepared.columns if column.name == name)


# ------------------------------------------------------------------------ target and task


def test_text_target_is_classification_with_sorted_labels() -> None:
    prepared = prepare_table(toy(t=["dog", "cat", "dog", "ant"]), target="t", name="pets")
    dataset = prepared.dataset
    assert dataset.task == "classification" and dataset.class_names == ("ant", "cat", "dog")
    np.testing.assert_array_equal(dataset.y, [2, 1, 2, 0])
    assert dataset.feature_names == ("a", "b") and dataset.categories == ()
    assert (dataset.name, dataset.title) == ("pets", "Your table") and prepared.notices == ()
    assert report(prepared, "t") == ColumnReport(
        "t", "target", "to predict (classification, 3 classes)"
    )


def test_numeric_labels_sort_as_numbers_and_floats_name_whole_classes() -> None:
    dataset = prepare_table(toy(t=[10, 2, 2, 10]), target="t").dataset
    assert dataset.class_names == ("2", "10")
    np.testing.assert_array_equal(dataset.y, [1, 0, 0, 1])
    gappy = prepare_table(toy(t=[1.0, np.nan, 3.0, 1.0, 3.0][:4]), target="t").dataset
    assert gappy.class_names == ("1", "3") and gappy.n_samples == 3


def test_regression_from_fractions_or_many_whole_numbers() -> None:
    assert prepare_table(toy(t=[0.5, 1.0, 1.5, 2.0]), target="t").dataset.task == "regression"
    many = pd.DataFrame({"f": np.arange(20.0), "t": np.arange(20) * 3})
    dataset = prepare_table(many, target="t").dataset
    assert dataset.task == "regression" and dataset.y.dtype == np.float64
    assert dataset.class_names == () and dataset.n_classes == 0


def test_given_task_and_class_order_are_respected() -> None:
    dataset = prepare_table(
        toy(t=["no", "yes", "no", "yes"]), target="t", class_names=["yes", "no"]
    ).dataset
    np.testing.assert_array_equal(dataset.y, [1, 0, 1, 0])
    as_classes = prepare_table(toy(t=[0.0, 1.0, 1.0, 0.0]), target="t", task="classification")
    assert as_classes.dataset.class_names == ("0", "1")
    as_numbers = prepare_table(toy(t=[0, 1, 1, 0]), target="t", task="regression")
    np.testing.assert_array_equal(as_numbers.dataset.y, [0.0, 1.0, 1.0, 0.0])


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        (["a", "Species", "b"], "Species"),
        (["y", "x", " LABEL "], " LABEL "),  # label comes before y in the preference order
        (["Class", "target"], "target"),
        (["height", "weight", "outcome"], "outcome"),  # no telling name: the last column
        (["my label", "x"], "x"),  # whole names only
    ],
)
def test_suggest_target(columns: list[str], expected: str) -> None:
    frame = pd.DataFrame([range(len(columns))] * 2, columns=columns)
    assert suggest_target(frame) == expected


@pytest.mark.parametrize(
    ("values", "task"),
    [
        (["a", "b", "a"], "classification"),
        ([True, False, True], "classification"),
        ([1, 2, 3, np.nan], "classification"),
        (list(range(11)), "regression"),  # 11 whole numbers are more than MAX_INFERRED_CLASSES
        ([0.5, 1.0, 2.0], "regression"),
        ([1.0, np.inf, 2.0], "classification"),  # the infinite target is dropped anyway
    ],
)
def test_infer_task(values: list[Any], task: str) -> None:
    frame = pd.DataFrame({"f": np.arange(len(values)), "t": values})
    assert infer_task(frame, "t") == task


def test_rows_without_target_are_dropped_with_a_notice() -> None:
    frame = toy(t=["x", None, "  ", "y"], a=[1.0, 2.0, 3.0, 4.0])
    prepared = prepare_table(frame, target="t")
    assert prepared.dataset.n_samples == 2
    np.testing.assert_array_equal(prepared.dataset.X[:, 0], [1.0, 4.0])
    assert prepared.notices == ("Left out 2 rows with no value for 't'.",)
    regression = prepare_table(toy(t=[0.5, np.inf, np.nan, 2.5]), target="t")
    assert regression.notices[0] == "Left out 2 rows with no value for 't'."
    np.testing.assert_array_equal(regression.dataset.y, [0.5, 2.5])


def test_the_palette_and_the_class_limit_agree() -> None:
    assert len(CLASS_COLORS) == MAX_CLASSES


@pytest.mark.parametrize(
    ("frame", "kwargs", "pattern"),
    [
        (toy(), {"target": "label"}, r"^There is no column named 'label'; the columns are"),
        (toy(t=["x"] * 4), {"target": "t"}, r"'t' holds only one class \('x'\)"),
        (
            pd.DataFrame({"f": np.arange(21.0), "t": list("abcdefghijklmnopqrstu")}),
            {"target": "t"},
            rf"'t' has 21 different classes, .* at most {MAX_CLASSES} apart\. Pick a column",
        ),
        (
            pd.DataFrame({"f": np.arange(42.0), "t": np.arange(42) % 21}),
            {"target": "t", "task": "classification"},
            r"has 21 different classes.*It holds numbers: predict it as a regression instead",
        ),
        (
            toy(),
            {"target": "t", "task": "regression"},
            r"'t' holds words \(such as 'x'\).*classification",
        ),
        (toy(t=["x", None, None, None]), {"target": "t"}, r"Only 1 row has a value for 't'"),
        (toy(t=["x", "y", "x", "y"]).iloc[:1], {"target": "t"}, r"Only 1 row has"),
        (toy()[["t"]], {"target": "t"}, r"^No column is left to learn from besides 't'\.$"),
        (
            toy(a=[5.0] * 4, b=[np.nan] * 4),
            {"target": "t"},
            r"No column is left .* Left out 'a': the same value \(5\) in every row\. "
            r"Left out 'b': every value is missing\.",
        ),
        (toy(), {"target": "t", "class_names": ["x", "y", "z"]}, r"listed but never seen: \['z'\]"),
        (
            pd.DataFrame([[1.0, 2.0, "x"], [3.0, 4.0, "y"]], columns=["a", "a", "t"]),
            {"target": "t"},
            r"these appear more than once: \['a'\]",
        ),
    ],
)
def test_table_errors_name_the_problem(
    frame: pd.DataFrame, kwargs: dict[str, Any], pattern: str
) -> None:
    with pytest.raises(TableError, match=pattern):
        prepare_table(frame, **kwargs)


def test_programming_mistakes_are_not_table_errors() -> None:
    with pytest.raises(TypeError, match="frame must be a pandas DataFrame, got ndarray"):
        prepare_table(np.zeros((3, 2)), target="t")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"task must be .*got 'clustering'"):
        prepare_table(toy(), target="t", task="clustering")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="random_state must be an integer"):
        prepare_table(toy(), target="t", random_state=1.5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- columns


def test_text_features_become_one_hot_columns_in_the_tables_words() -> None:
    frame = pd.DataFrame(
        {
            "sex": ["female", "male", None, "female", "female", "male"],
            "age": [30.0, np.nan, 41.0, 25.0, 52.0, 33.0],
            "island": ["Dream", "Biscoe", "Dream", "Torgersen", "Biscoe", "Dream"],
            "species": ["a", "b", "a", "b", "a", "b"],
        }
    )
    prepared = prepare_table(frame, target="species")
    dataset = prepared.dataset
    assert dataset.feature_names == (
        "sex = female",
        "sex = male",
        "age",
        "island = Dream",  # 3 rows
        "island = Biscoe",  # 2 rows
        "island = Torgersen",  # 1 row
    )
    assert dataset.categories == (
        ("sex", "female"),
        ("sex", "male"),
        None,
        ("island", "Dream"),
        ("island", "Biscoe"),
        ("island", "Torgersen"),
    )
    np.testing.assert_array_equal(dataset.X[:, 0], [1, 0, np.nan, 1, 1, 0])
    np.testing.assert_array_equal(dataset.X[:, 1], [0, 1, np.nan, 0, 0, 1])
    np.testing.assert_array_equal(dataset.X[:, 2], frame["age"])  # the gap stays a gap
    np.testing.assert_array_equal(dataset.X[:, 3:].sum(axis=1), np.ones(6))
    assert [c.role for c in prepared.columns] == ["one-hot", "feature", "one-hot", "target"]
    assert report(prepared, "sex").reason == (
        "text with 2 values: one 0/1 column per value; 1 missing value"
    )
    assert report(prepared, "age").reason == "a number (1 missing value)"


def test_levels_past_the_limit_are_joined_as_other() -> None:
    levels = [f"city {i:02d}" for i in range(MAX_LEVELS + 5)]
    # city 00 appears 40 times, city 01 39 times, ...: frequency decides the order.
    cities = [level for i, level in enumerate(levels) for _ in range(40 - i)]
    frame = pd.DataFrame({"city": cities, "t": np.arange(len(cities)) % 2})
    prepared = prepare_table(frame, target="t")
    names = prepared.dataset.feature_names
    assert len(names) == MAX_LEVELS + 1 and names[0] == "city = city 00"
    assert names[MAX_LEVELS - 1] == f"city = city {MAX_LEVELS - 1}"
    assert names[-1] == "city = other" and prepared.dataset.categories[-1] == ("city", "other")
    rest = np.isin(cities, levels[MAX_LEVELS:])
    np.testing.assert_array_equal(prepared.dataset.X[:, -1], rest.astype(float))
    assert prepared.notices == (
        f"'city' has {MAX_LEVELS + 5} different values: the {MAX_LEVELS} most common each get "
        "a 0/1 column, the other 5 are joined as 'other'.",
    )


def test_a_level_named_other_is_not_merged_with_the_rest() -> None:
    cities = ["other"] * 50 + [f"c{i:02d}" for i in range(40) for _ in range(2)]
    frame = pd.DataFrame({"city": cities, "t": np.arange(len(cities)) % 2})
    dataset = prepare_table(frame, target="t").dataset
    assert dataset.feature_names[0] == "city = other"
    assert dataset.feature_names[-1] == "city = other (rest)"
    assert dataset.X[:50, -1].sum() == 0 and dataset.X[:50, 0].sum() == 50


def test_booleans_and_boolean_words_are_one_hot() -> None:
    frame = toy(b=[True, False, True, True], a=["yes", "no", "no", "no"])
    dataset = prepare_table(frame, target="t").dataset
    assert dataset.feature_names == ("a = no", "a = yes", "b = True", "b = False")


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        (["u1", "u2", "u3", "u4"], "every value is different, like a name or an id"),
        (["same"] * 4, "the same value ('same') in every row"),
        ([7, 7, 7, 7], "the same value (7) in every row"),
        ([np.nan] * 4, "every value is missing"),
        ([None, " ", "", None], "every value is missing"),
        ([np.inf, -np.inf, np.nan, np.inf], "every value is missing or unusable"),
        (["2021-03-04", "2021-03-05", None, "2021-03-04"], "dates (such as '2021-03-04')"),
        (["4/3/2021", "5/3/2021", "4/3/2021", "1/12/2020"], "dates (such as '4/3/2021')"),
        (["2021-03-04 10:15", "2021-03-04 11:00", "2021-03-04 10:15", ""], "dates"),
        (["4 March 2021", "Mar 5, 2021", "4 March 2021", "4 March 2021"], "dates"),
        ([0, 1, 2, 3], "it counts the rows (0, 1, 2, … or 1, 2, 3, …), like an id"),
        ([1, 2, 3, 4], "it counts the rows"),
    ],
)
def test_left_out_columns_say_why(values: list[Any], reason: str) -> None:
    prepared = prepare_table(toy(extra=values), target="t")
    column = report(prepared, "extra")
    assert column.role == "dropped" and column.reason.startswith(reason)
    assert prepared.dataset.feature_names == ("a", "b")
    assert any(notice.startswith(f"Left out 'extra': {reason}") for notice in prepared.notices)


@pytest.mark.parametrize(
    "values",
    [
        ["u1", "u2", "u1", "u4"],  # one repeat: not an id
        ["2021-03-04", "soon", "2021-03-04", "later"],  # not all dates
        [1, 2, 3, 5],  # not a row count
        [2, 3, 4, 5],  # counts, but from 2
        [7, 7, 7, np.nan],  # one value, but missing or not is a split
    ],
)
def test_near_misses_are_kept(values: list[Any]) -> None:
    prepared = prepare_table(toy(extra=values), target="t")
    assert report(prepared, "extra").role in ("feature", "one-hot")


def test_row_numbers_are_judged_before_rows_are_dropped() -> None:
    frame = toy(index=[0, 1, 2, 3], t=["x", None, "x", "y"])
    prepared = prepare_table(frame, target="t")
    assert report(prepared, "index").role == "dropped"


def test_infinities_and_numbers_past_float32_become_missing_with_notices() -> None:
    frame = toy(a=[1.0, np.inf, -np.inf, 4.0], b=[1e39, -5e38, 2.0, FLOAT32_MAX])
    prepared = prepare_table(frame, target="t")
    np.testing.assert_array_equal(prepared.dataset.X[:, 0], [1.0, np.nan, np.nan, 4.0])
    np.testing.assert_array_equal(prepared.dataset.X[:, 1], [np.nan, np.nan, 2.0, FLOAT32_MAX])
    assert prepared.notices == (
        "'a': 2 infinite values (inf) treated as missing.",
        "'b': 2 numbers beyond ±3.4e38 treated as missing (too large for the trees, which "
        "compare numbers in float32 as scikit-learn does).",
    )


def test_mostly_numbers_read_as_text_get_a_hint() -> None:
    prepared = prepare_table(toy(b=["1", "2", "n.a.", "2"]), target="t")
    assert prepared.notices[-1] == (
        "'b' is mostly numbers, but some values are not (such as 'n.a.'), so it is read as "
        "text; empty those cells to use it as numbers."
    )


def test_one_hot_names_never_clash_with_a_column() -> None:
    frame = toy(**{"b": ["p", "q", "p", "q"], "b = p": [1.0, 2.0, 3.0, 5.0]})
    names = prepare_table(frame, target="t").dataset.feature_names
    assert names == ("a", "b = p (2)", "b = q", "b = p")


def test_unicode_and_html_names_pass_through_unchanged() -> None:
    frame = pd.DataFrame(
        {"<b>Größe</b>": ["<i>groß</i>", "klein 🌱", "klein 🌱"], "t": ["ja", "nein", "ja"]}
    )
    dataset = prepare_table(frame, target="t").dataset
    assert dataset.feature_names == ("<b>Größe</b> = klein 🌱", "<b>Größe</b> = <i>groß</i>")
    assert dataset.categories[1] == ("<b>Größe</b>", "<i>groß</i>")


def test_the_frame_is_not_modified() -> None:
    frame = toy(c=["p", None, "q", "p"], a=[1.0, np.inf, 3.0, 4.0])
    before = frame.copy()
    prepare_table(frame, target="t")
    pd.testing.assert_frame_equal(frame, before)


# --------------------------------------------------------------------------------- sampling


def big(n_rows: int, weights: tuple[float, ...], seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = rng.choice(len(weights), size=n_rows, p=np.asarray(weights) / sum(weights))
    return pd.DataFrame({"f": rng.normal(size=n_rows), "t": np.array(list("abc"))[labels]})


def test_big_tables_are_sampled_to_exactly_the_limit_stratified() -> None:
    frame = big(50_000, (0.7, 0.2999, 0.0001), seed=1)
    frame.loc[frame.index[-3:], "t"] = "c"  # a rare class that must survive the sample
    prepared = prepare_table(frame, target="t", random_state=3)
    dataset = prepared.dataset
    assert dataset.n_samples == MAX_ROWS
    full = frame["t"].value_counts()
    sample = pd.Series(np.asarray(dataset.class_names)[dataset.y]).value_counts()
    for label in ("a", "b"):
        assert abs(sample[label] - full[label] * MAX_ROWS / len(frame)) <= 1
    assert sample["c"] >= 1 and dataset.n_classes == 3
    sampled = "The table has 50,000 rows; a random sample of 20,000 is used, with each class in"
    assert f"{sampled} its share." in prepared.notices
    rows = frame["f"].to_numpy()
    picked = np.flatnonzero(np.isin(rows, dataset.X[:, 0]))
    assert picked.size == MAX_ROWS  # real rows, in file order
    np.testing.assert_array_equal(rows[picked], dataset.X[:, 0])


def test_sampling_is_seeded() -> None:
    frame = big(25_000, (0.5, 0.5))
    first = prepare_table(frame, target="t", random_state=0).dataset
    again = prepare_table(frame, target="t", random_state=0).dataset
    other = prepare_table(frame, target="t", random_state=1).dataset
    np.testing.assert_array_equal(first.X, again.X)
    assert not np.array_equal(first.X, other.X)


def test_regression_tables_are_sampled_too() -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"f": rng.normal(size=MAX_ROWS + 1), "y": rng.normal(size=MAX_ROWS + 1)})
    prepared = prepare_table(frame, target="y")
    assert prepared.dataset.n_samples == MAX_ROWS
    assert prepared.notices == (
        f"The table has {MAX_ROWS + 1:,} rows; a random sample of {MAX_ROWS:,} is used.",
    )
    exact = prepare_table(frame.iloc[:MAX_ROWS], target="y")
    assert exact.dataset.n_samples == MAX_ROWS and exact.notices == ()


# ------------------------------------------------------------------ from bytes to a dataset


def test_an_uploaded_csv_becomes_a_dataset_with_words_and_gaps() -> None:
    data = (
        "id;island;bill (mm);sex;seen on;species\r\n"
        "p1;Biscoe;39,1;male;2007-11-11;Adelie\r\n"
        "p2;Torgersen;;female;2007-11-11;Adelie\r\n"
        "p3;Biscoe;46,5;NA;2007-11-16;Gentoo\r\n"
        "p4;Torgersen;45,2;female;2008-11-09;\r\n"
        "p5;Dream;48,7;male;2008-11-09;Chinstrap\r\n"
    ).encode("cp1252")
    table = read_table(data, "penguins.csv")
    target = suggest_target(table)
    prepared = prepare_table(table, target=target, task=infer_task(table, target))
    dataset = prepared.dataset
    assert dataset.class_names == ("Adelie", "Chinstrap", "Gentoo") and dataset.n_samples == 4
    assert dataset.feature_names == (
        "island = Biscoe",
        "island = Dream",
        "island = Torgersen",
        "bill (mm)",
        "sex = male",
        "sex = female",
    )
    np.testing.assert_array_equal(dataset.X[:, 3], [39.1, np.nan, 46.5, 48.7])
    np.testing.assert_array_equal(dataset.X[:, 4], [1.0, 0.0, np.nan, 1.0])
    roles = {column.name: column.role for column in prepared.columns}
    assert roles == {
        "id": "dropped",
        "island": "one-hot",
        "bill (mm)": "feature",
        "sex": "one-hot",
        "seen on": "dropped",
        "species": "target",
    }
    assert prepared.notices[0] == "Left out 1 row with no value for 'species'."


def test_a_20000_row_20_column_upload_with_text_and_gaps() -> None:
    # The size the issue asks to time: `pytest --durations=1 -k 20000_row` reports it.
    rng = np.random.default_rng(0)
    n_rows = MAX_ROWS
    columns: dict[str, Any] = {f"x{j}": rng.normal(size=n_rows).round(4) for j in range(16)}
    for j, n_levels in enumerate((3, 12, 60)):
        columns[f"text{j}"] = rng.choice([f"level {i}" for i in range(n_levels)], size=n_rows)
    columns["label"] = rng.choice(["a", "b", "c"], size=n_rows)
    frame = pd.DataFrame(columns)
    gaps = rng.random((n_rows, 19)) < 0.05
    for j, name in enumerate(frame.columns[:-1]):
        frame.loc[gaps[:, j], name] = np.nan
    data = frame.to_csv(index=False).encode()
    table = read_table(data, "big.csv")
    prepared = prepare_table(table, target=suggest_target(table))
    dataset = prepared.dataset
    assert dataset.X.shape == (n_rows, 16 + 3 + 12 + MAX_LEVELS + 1)
    np.testing.assert_array_equal(np.isnan(dataset.X[:, :16]), gaps[:, :16])
    np.testing.assert_allclose(dataset.X[:, :16], table.iloc[:, :16].to_numpy(), equal_nan=True)
    assert np.isnan(dataset.X[:, 16:19]).any(axis=1).sum() == gaps[:, 16].sum()
    assert prepared.notices == (
        f"'text2' has 60 different values: the {MAX_LEVELS} most common each get a 0/1 column, "
        "the other 30 are joined as 'other'.",
    )
