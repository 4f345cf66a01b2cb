"""Keyboard reach: on every page, Tab alone reaches every control, and each shows where the
focus is.

Every visible control of the page and its sidebar (sliders, select boxes, buttons, toggles,
text and number inputs, links, the tree's zoom and full-screen buttons; a group of options
counts once, as Tab reaches its chosen option) is numbered first;
then the test presses Tab until the focus comes round again, noting each control it lands on
and whether the page looks different with the focus there than without it (an outline, a
ring, a colour: a sighted keyboard user must see where they are). Every page at the test
window's size; the default page at 1920x1080 and on a phone too, its sidebar opened.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    EVERY_PAGE,
    LARGE,
    PHONE,
    PROJECTOR,
    SINGLE_TREE,
    AppPage,
    PageCase,
    show_sidebar,
    tab,
)

from deploy.process import LiveServer

pytestmark = pytest.mark.browser

#: Tab presses at most: more than any page's controls.
MOST_TABS = 400

# Number every visible, enabled control of the main column and the sidebar.
NUMBER = """() => {
  const controls = 'input:not([type="hidden"]), button, select, textarea, a[href], '
    + '[role="slider"], [role="switch"], [role="checkbox"], [role="combobox"], [role="tab"]';
  const areas = ['[data-testid="stMain"]', '[data-testid="stSidebar"]'];
  const found = [];
  for (const area of areas) {
    const root = document.querySelector(area);
    if (!root) continue;
    for (const element of root.querySelectorAll(controls)) {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      const shown = box.width > 0 && box.height > 0 && style.visibility !== "hidden"
        && element.closest('[aria-hidden="true"], [inert]') === null;
      // A control made visible only for a screen reader (Streamlit's native inputs under a
      // styled twin) is reached through that twin: count the one that takes the focus.
      if (!shown || element.disabled || element.tabIndex < 0) continue;
      const keyed = element.closest("[class*='st-key-']");
      const key = keyed ? (keyed.className.match(/st-key-[\\w-]+/) || [""])[0] : "";
      // A group of options (a segmented control) is one stop: Tab reaches its chosen option,
      // and the arrow keys move between the options, as in a group of radio buttons.
      const group = element.closest('[data-testid="stButtonGroup"]');
      if (group) {
        if (group.dataset.kb === undefined) {
          group.dataset.kb = String(found.length);
          found.push(`${key} group of options`);
        }
        element.dataset.kb = group.dataset.kb;
        continue;
      }
      element.dataset.kb = String(found.length);
      const name = element.getAttribute("aria-label") || element.innerText
        || element.getAttribute("title") || element.getAttribute("type") || "";
      found.push(`${key} ${element.tagName.toLowerCase()} ${name.trim().slice(0, 40)}`);
    }
  }
  return found;
}"""

# Where the focus is, and whether the page looks different with it there than without it.
FOCUS = """async () => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const look = () => {
    const parts = [];
    let node = element;
    // The focus may show on the control or on any box of its widget (a select box's border).
    const widget = element.closest('[data-testid="stElementContainer"]') || element.parentElement;
    for (; node && node !== widget.parentElement; node = node.parentElement) {
      const s = getComputedStyle(node);
      parts.push([s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor,
        s.backgroundColor, s.color].join("|"));
    }
    const after = getComputedStyle(element, "::after");
    const before = getComputedStyle(element, "::before");
    parts.push(after.boxShadow + after.outlineStyle + before.boxShadow + before.outlineStyle);
    return parts.join("/");
  };
  // A widget may draw its focus from its own state (React), a frame after the event.
  const settle = () => new Promise((done) => setTimeout(done, 60));
  await settle();
  const focused = look();
  element.blur();
  await settle();
  const blurred = look();
  element.focus({ focusVisible: true });
  await settle();
  return { kb: element.dataset.kb === undefined ? null : Number(element.dataset.kb),
           seen: focused !== blurred };
}"""


@pytest.mark.parametrize("case", EVERY_PAGE, ids=[case.name for case in EVERY_PAGE])
def test_tab_reaches_every_control_and_shows_the_focus(
    browser: Any, server: LiveServer, case: PageCase
) -> None:
    with tab(browser, server, viewport=PROJECTOR) as app:
        app.open(case.path, case.ready)
        _check_tab_reaches_every_control(app, case)


@pytest.mark.parametrize("viewport", [LARGE, PHONE], ids=["1920x1080", "390x844"])
def test_tab_reaches_every_control_on_other_screens(
    browser: Any, server: LiveServer, viewport: dict[str, int]
) -> None:
    """A phone folds the sidebar away: once its button opens it, Tab reaches every control."""
    with tab(browser, server, viewport=viewport) as app:
        app.open(SINGLE_TREE.path, SINGLE_TREE.ready)
        show_sidebar(app)
        _check_tab_reaches_every_control(app, SINGLE_TREE)


def _check_tab_reaches_every_control(app: AppPage, case: PageCase) -> None:
    app.assert_healthy()
    # A focus ring fades in and out: without the fade, the look is measured as it ends.
    app.page.add_style_tag(content="* { transition: none !important; }")
    controls: list[str] = app.page.evaluate(NUMBER)
    assert controls, f"no control found on {case.path}"
    reached: set[int] = set()
    unseen: set[int] = set()
    app.page.locator("body").focus()
    for _ in range(MOST_TABS):
        app.page.keyboard.press("Tab")
        where = app.page.evaluate(FOCUS)
        if where is None or where["kb"] is None:
            continue
        if where["kb"] in reached and len(reached) == len(controls):
            break
        reached.add(where["kb"])
        if not where["seen"]:
            unseen.add(where["kb"])
    missed = [controls[i] for i in range(len(controls)) if i not in reached]
    assert missed == [], f"Tab never reaches on {case.path}: {missed}"
    hidden = [controls[i] for i in sorted(unseen)]
    assert hidden == [], f"no visible focus on {case.path}: {hidden}"
    app.assert_healthy()
