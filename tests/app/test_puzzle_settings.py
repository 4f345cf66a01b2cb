"""A generated dataset's points in the URL: number, noise on its own scale, data seed."""

from __future__ import annotations

import pytest

from core.app.models import data_spec, tree_spec
from core.app.settings import (
    DatasetShape,
    GiniEntropySettings,
    SingleTreeSettings,
    parse,
    to_query,
    with_dataset,
)
from core.data.puzzles import noise_scale
from core.data.source import Source

CATALOGUE = {
    "iris": DatasetShape("classification", 150, 4, (2, 3), title="Iris flowers"),
    "sine": DatasetShape("regression", 200, 1, (0, 0), 2.5, 10.0, "generated", "Sine"),
    "moons": DatasetShape("classification", 300, 2, (0, 1), 0.2, 0.5, "generated", "Moons"),
}


def test_a_puzzle_link_round_trips_every_point_setting():
    query = {"dataset": "moons", "n_samples": "450", "noise": "0.35", "data_seed": "12"}
    settings, notices = parse(SingleTreeSettings, query, CATALOGUE)
    assert notices == []
    assert (settings.n_samples, settings.noise, settings.data_seed) == (450, 0.35, 12)
    assert parse(SingleTreeSettings, to_query(settings), CATALOGUE) == (settings, [])
    assert data_spec(settings, CATALOGUE["moons"]).source == Source.generated(
        "moons", 0.35, 450, 12
    )


def test_a_puzzle_link_without_point_settings_uses_the_puzzles_own():
    settings, notices = parse(SingleTreeSettings, {"dataset": "moons"}, CATALOGUE)
    assert notices == []
    assert (settings.n_samples, settings.noise, settings.data_seed) == (300, 0.2, 0)


def test_noise_beyond_a_puzzles_scale_falls_back_with_a_notice():
    settings, notices = parse(SingleTreeSettings, {"dataset": "moons", "noise": "4"}, CATALOGUE)
    assert settings.noise == 0.2
    assert notices == ["noise: 4 is more than 0.5, the most for this dataset; using 0.2."]
    # The same noise is fine for the sine, whose scale is y's.
    settings, notices = parse(SingleTreeSettings, {"dataset": "sine", "noise": "4"}, CATALOGUE)
    assert (settings.noise, notices) == (4.0, [])


@pytest.mark.parametrize(
    ("name", "raw", "words"),
    [
        ("n_samples", "5", "a whole number from 20 to 2000"),
        ("n_samples", "1e9", "a whole number from 20 to 2000"),
        ("data_seed", "-1", "a whole number from 0 to 2147483647"),
        ("data_seed", "<b>x</b>", "a whole number from 0 to 2147483647"),
        ("noise", "nan", "a number from 0 to 10"),
    ],
)
def test_absurd_point_settings_get_the_friendly_notice(name, raw, words):
    settings, notices = parse(SingleTreeSettings, {"dataset": "moons", name: raw}, CATALOGUE)
    assert len(notices) == 1
    assert f"is not {words}; using" in notices[0]
    assert "<b>" not in notices[0]
    assert settings == parse(SingleTreeSettings, {"dataset": "moons"}, CATALOGUE)[0]


def test_moving_to_a_puzzle_starts_from_its_own_points_and_a_table_keeps_them():
    sine = SingleTreeSettings(dataset="sine", noise=7.5, n_samples=500, data_seed=3)
    moons = with_dataset(sine, "moons", CATALOGUE)
    assert (moons.noise, moons.n_samples, moons.data_seed) == (0.2, 300, 3)
    iris = with_dataset(moons, "iris", CATALOGUE)
    assert (iris.noise, iris.n_samples) == (0.2, 300)
    assert tree_spec(iris, CATALOGUE["iris"]).source == Source.table("iris")


def test_the_data_seed_and_the_page_seed_are_apart():
    settings = SingleTreeSettings(dataset="moons", noise=0.2, n_samples=300, seed=5, data_seed=1)
    spec = tree_spec(settings, CATALOGUE["moons"])
    assert (spec.seed, spec.source.data_seed) == (5, 1)
    assert spec.data.seed == 5 and spec.data.source.data_seed == 1


@pytest.mark.parametrize("raw", ["upload-3fa9c2d1", "drawn", "UPLOAD-ab"])
def test_a_link_to_own_data_falls_back_to_the_default_and_says_why(raw):
    settings, notices = parse(GiniEntropySettings, {"dataset": raw}, CATALOGUE)
    assert settings.dataset == "iris"
    assert len(notices) == 1
    assert "stay in the browser session that made them" in notices[0]
    assert "showing Iris flowers instead" in notices[0]


def test_a_link_to_own_data_is_followed_in_the_session_that_has_it():
    own = {**CATALOGUE, "drawn": DatasetShape("classification", 9, 2, kind="drawn")}
    settings, notices = parse(SingleTreeSettings, {"dataset": "drawn"}, own)
    assert (settings.dataset, notices) == ("drawn", [])


def test_noise_scales():
    assert noise_scale("sine", 2.5) == 10.0
    assert noise_scale("moons", 0.1) == 0.5
    assert noise_scale("blobs", 1.0) == 2.0
