"""The step page's settings: every Single tree setting, plus the step and the node asked."""

from __future__ import annotations

import pytest

from core.app.lessons import classroom_links
from core.app.pages import GROW_STEP_BY_STEP
from core.app.settings import (
    DatasetShape,
    GrowStepSettings,
    SingleTreeSettings,
    default_catalogue,
    fit_growth,
    parse,
    to_query,
    with_dataset,
)

CATALOGUE = {
    "iris": DatasetShape("classification", 150, 4, (2, 3)),
    "wine": DatasetShape("classification", 178, 13, (6, 12)),
    "sine": DatasetShape("regression", 200, 1, (0, 0)),
}


def test_the_step_page_has_every_single_tree_setting() -> None:
    single = set(SingleTreeSettings.entries)
    step = set(GrowStepSettings.entries)
    assert step - single == {"step", "node"}
    assert GROW_STEP_BY_STEP.settings is GrowStepSettings


def test_an_empty_link_opens_wine_at_the_first_split() -> None:
    settings, notices = parse(GrowStepSettings, {}, CATALOGUE)
    assert notices == []
    assert (settings.dataset, settings.x, settings.y) == ("wine", 6, 12)  # wine's own pair
    assert (settings.step, settings.node, settings.max_depth) == (1, 0, 4)
    # Other pages keep the catalogue's first dataset.
    assert parse(SingleTreeSettings, {}, CATALOGUE)[0].dataset == "iris"


def test_a_step_and_a_node_are_read_and_written() -> None:
    settings, notices = parse(GrowStepSettings, {"step": "5", "node": "7"}, CATALOGUE)
    assert (settings.step, settings.node, notices) == (5, 7, [])
    assert to_query(settings, full=True)["step"] == "5"
    assert to_query(GrowStepSettings(), full=True)["step"] == "1"
    assert to_query(GrowStepSettings(step=None), full=True)["step"] == "none"
    assert parse(GrowStepSettings, {"step": "none"}, CATALOGUE)[0].step is None


@pytest.mark.parametrize("raw", ["-1", "abc", "1e9", "<b>", "99999999"])
def test_a_hostile_step_falls_back_to_the_first_split_with_a_notice(raw: str) -> None:
    settings, notices = parse(GrowStepSettings, {"step": raw}, CATALOGUE)
    assert settings.step == 1
    (notice,) = notices
    assert notice.startswith("step: ") and notice.endswith("using 1.")
    assert "<" not in notice


def test_fit_growth_shows_the_whole_tree_beyond_the_last_step() -> None:
    assert fit_growth(GrowStepSettings(step=5), 10, 21) == (GrowStepSettings(step=5), [])
    assert fit_growth(GrowStepSettings(step=10), 10, 21) == (GrowStepSettings(step=None), [])
    fitted, notices = fit_growth(GrowStepSettings(step=12), 10, 21)
    assert fitted.step is None
    assert notices == [
        "step: this tree is grown in 10 splits, fewer than 12; showing the whole tree."
    ]


def test_fit_growth_shows_the_root_for_a_node_the_tree_lacks() -> None:
    fitted, notices = fit_growth(GrowStepSettings(node=21), 10, 21)
    assert fitted.node == 0
    assert notices == ["node must be below 21, the nodes of this tree; showing node 0."]
    assert fit_growth(GrowStepSettings(node=20), 10, 21) == (GrowStepSettings(node=20), [])
    assert fit_growth(SingleTreeSettings(), 0, 1) == (SingleTreeSettings(), [])


def test_another_dataset_asks_about_its_root() -> None:
    moved = with_dataset(GrowStepSettings(node=9, step=4), "iris", CATALOGUE)
    assert (moved.dataset, moved.node, moved.step) == ("iris", 0, 4)


def test_the_wine_lesson_opens_the_step_page_at_step_3() -> None:
    links = classroom_links(default_catalogue())
    (link,) = [link for link in links if link.page is GROW_STEP_BY_STEP]
    assert link.title == "Watch a Wine tree grow"
    assert link.settings == GrowStepSettings(dataset="wine", x=6, y=12, step=3)
