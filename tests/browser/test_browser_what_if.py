"""The what-if view in Chromium: edits made one after another all stay, in the inputs and the link,
at 1280x720, 1920x1080 and on a 390 px phone.

In the browser each edit reruns only the page's fragment, which the page tests cannot do: there
the second edit once put every input back to the sample's values and dropped ``edit`` from the
link, so a new flower could not be typed in one value at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_helpers import LARGE, PHONE, PROJECTOR, SINGLE_TREE, AppPage, tab, url_query

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

#: The source article's tree; its test sample #0 is a setosa with values 4.7, 3.2, 1.3, 0.2.
WHAT_IF_LINK = (
    f"{SINGLE_TREE.path}?dataset=iris&max_depth=2&fit=all&seed=3&test_size=0.2&view=what-if"
)
READY = ("h1", ".st-key-what-if-contributions .main-svg")


def _field(feature: int) -> str:
    return f".st-key-what-if-0-{feature}"


def _after(app: AppPage, act: Callable[[], object]) -> None:
    """Wait for the run ``act`` asked for: every edit here moves the link."""
    before = app.page.evaluate("() => window.location.search")
    act()
    app.page.wait_for_function("(before) => window.location.search !== before", arg=before)
    app.settle(READY)


@pytest.fixture
def projector(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab at 1280x720, the size a class sees the view at."""
    with tab(browser, server, viewport=PROJECTOR) as app:
        yield app


def _shown(app: AppPage) -> list[float]:
    return [float(app.page.locator(f"{_field(i)} input").input_value()) for i in range(4)]


def _edits(app: AppPage) -> dict[int, float]:
    pairs = url_query(app).get("edit", "")
    return {int(f): float(v) for f, v in (p.split("~") for p in pairs.split("_") if p)}


def test_a_new_flower_typed_in_one_value_at_a_time_keeps_every_value(projector: AppPage) -> None:
    app = projector
    app.open(WHAT_IF_LINK, READY)
    flower = [5.9, 3.0, 5.1, 1.8]  # the article's "predict a new flower"
    for feature, value in enumerate(flower):
        field = app.page.locator(f"{_field(feature)} input")
        field.fill(str(value))
        _after(app, lambda: field.press("Enter"))  # noqa: B023 (called at once)
        app.assert_healthy()
        typed = dict(enumerate(flower[: feature + 1]))
        assert _shown(app)[: feature + 1] == flower[: feature + 1], f"after edit {feature + 1}"
        assert _edits(app) == typed, f"the link after edit {feature + 1}"
    assert url_query(app)["edit"] == "0~5.9_1~3_2~5.1_3~1.8"
    # Petal length 5.1 > 2.45 and petal width 1.8 > 1.75: the tree's right-hand leaf.
    assert "so the tree predicts virginica" in app.page.inner_text("[data-testid='stMain']")


def test_plus_buttons_on_different_inputs_keep_each_step(projector: AppPage) -> None:
    app = projector
    app.open(WHAT_IF_LINK, READY)
    start = _shown(app)
    for clicks, feature in enumerate((0, 1, 2), 1):
        plus = app.page.locator(f'{_field(feature)} [data-testid="stNumberInputStepUp"]')
        _after(app, plus.click)
        app.assert_healthy()
        shown, edits = _shown(app), _edits(app)
        for stepped in range(clicks):  # each + adds the input's step, 0.01
            assert shown[stepped] == pytest.approx(start[stepped] + 0.01), f"after {clicks} +"
            assert edits.get(stepped) == pytest.approx(start[stepped] + 0.01)
        assert sorted(edits) == list(range(clicks)), f"the link after {clicks} +"


@pytest.mark.parametrize("viewport", [LARGE, PHONE], ids=["1920x1080", "390x844"])
def test_typed_values_then_plus_buttons_all_stay_on_other_screens(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    """Both sequences of the tests above on one page: the inputs sit in other columns on a
    large screen and one under another on a phone, and every edit must stay there too."""
    with tab(browser, server, viewport=viewport) as app:
        app.open(WHAT_IF_LINK, READY)
        expected = _shown(app)
        edits: dict[int, float] = {}
        for feature, value in ((0, 5.9), (1, 3.0)):  # the article's flower, typed
            field = app.page.locator(f"{_field(feature)} input")
            field.fill(str(value))
            _after(app, lambda: field.press("Enter"))  # noqa: B023 (called at once)
            expected[feature] = edits[feature] = value
            assert _shown(app) == pytest.approx(expected), f"after typing {value}"
            assert _edits(app) == pytest.approx(edits), f"the link after typing {value}"
        for feature in (1, 2):  # then a + on a typed input and on an untouched one
            plus = app.page.locator(f'{_field(feature)} [data-testid="stNumberInputStepUp"]')
            _after(app, plus.click)
            expected[feature] = edits[feature] = expected[feature] + 0.01
            assert _shown(app) == pytest.approx(expected), f"after + on input {feature}"
            assert _edits(app) == pytest.approx(edits), f"the link after + on input {feature}"
        app.assert_healthy()
