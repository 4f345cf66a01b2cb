"""Every page and lesson view, as a projector shows it, passes axe-core at WCAG 2.1 AA; so does
the default page at 1920x1080 and on a 390 px phone.

axe-core (bundled by ``axe-playwright-python``) checks the rendered DOM: colour contrast as
the browser actually paints it, labels, roles, landmarks. Only the A and AA rules of WCAG 2.0
and 2.1 run, the level a school's accessibility policy asks for; best-practice rules are
advice, not a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import EVERY_VIEW, LARGE, PHONE, PROJECTOR, SINGLE_TREE, AppPage, tab

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

#: axe-core's tags for the A and AA success criteria of WCAG 2.0 and 2.1.
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


CASES: list[tuple[str, tuple[str, ...]]] = [
    *EVERY_VIEW,
    # A lesson's screen: its words, question and controls above the page.
    (
        f"{SINGLE_TREE.path}?dataset=sine&max_depth=1&lesson=how-a-tree-grows&screen=1",
        ("h1", ".st-key-lesson-bar"),
    ),
]


@pytest.fixture
def projector(browser: Any, server: LiveServer) -> Iterator[AppPage]:
    """A fresh tab at the projector's size, where a caption or a label is smallest."""
    with tab(browser, server, viewport=PROJECTOR) as page:
        yield page


def _report(violations: list[dict[str, Any]]) -> str:
    """Each failed rule with the elements it failed on, to find them in the page."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"    {', '.join(map(str, node['target']))}: {summary}")
    return "\n".join(lines)


def _violations(app: AppPage, path: str, ready: tuple[str, ...]) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A and AA violations on ``path``, opened in ``app``."""
    from axe_playwright_python.sync_playwright import Axe

    app.open(path, ready)
    app.assert_healthy()
    # Streamlit fades new elements in; a half-faded caption would be measured too pale.
    app.page.wait_for_timeout(600)
    options = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
    violations: list[dict[str, Any]] = Axe().run(app.page, options=options).response["violations"]
    return violations


@pytest.mark.parametrize(("path", "ready"), CASES, ids=[path for path, _ in CASES])
def test_page_passes_axe_at_wcag_21_aa(
    projector: AppPage, path: str, ready: tuple[str, ...]
) -> None:
    violations = _violations(projector, path, ready)
    assert violations == [], f"axe-core found on {path}:\n{_report(violations)}"


@pytest.mark.parametrize("viewport", [LARGE, PHONE], ids=["1920x1080", "390x844"])
def test_the_default_page_passes_axe_on_other_screens(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    """Another width lays the page out anew: a phone folds the sidebar and stacks the columns."""
    with tab(browser, server, viewport=viewport) as app:
        violations = _violations(app, SINGLE_TREE.path, SINGLE_TREE.ready)
    assert violations == [], f"axe-core found at {viewport}:\n{_report(violations)}"
