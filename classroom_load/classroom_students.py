"""What a simulated student does: the links they open, the controls they move, when they leave.

A student is one browser (:class:`classroom_load.page_load.Browser`: one cookie jar and one HTTP
cache for all its tabs). They open a page from a teacher's classroom link (:mod:`core.app.lessons`)
or from a random valid URL (random settings made valid by :func:`core.app.settings.parse`), then act
``Plan.changes`` times, thinking between actions (uniform between ``Plan.think``'s bounds, 2 and 6 s
unless told). Each action is one of three kinds (:func:`kind_of`):

- ``move`` (eight actions in ten; all of them for a student who stays on one page): one
  control at a time, mostly a slider by a step or two, sometimes a jump, a new seed, another
  sample, a toggle;
- ``sidebar`` (one time in ten, ``"switch"``): the sidebar's link to another page, in the
  same tab and websocket session;
- ``link`` (one time in ten, ``"new tab"``; and the arrival, ``"open"``): another classroom
  link or random URL opened in a new tab. The tab loads the page over HTTP first
  (:func:`classroom_load.page_load.load_page`: the HTML, then what the browser's cache does not
  hold: everything on the student's first link, only the HTML and the uncacheable checks on later
  ones), then opens its own websocket and runs the page. The old tab stays open, idle, until
  the student leaves, as a browser keeps it.

Every choice comes from the student's own seeded ``random.Random``, so a run is repeatable.

A move or a sidebar link is timed from sending it to the server's ``script_finished``; a link
from its first HTTP request to its first run's ``script_finished`` (HTTP, websocket handshake
and run). It counts as an error when the run shows an exception, the server closes the
connection, no answer comes within the timeout, another page than the one asked for runs, or
a page load's request gets another status than Chromium got.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import websockets

from classroom_load.page_load import Browser, PageAssets, load_page
from classroom_load.st_client import StudentSession
from classroom_load.st_reader import ProtocolError, Run
from classroom_load.st_widgets import WIDGET_KINDS, Widget
from core.app import settings as app_settings
from core.app.lessons import classroom_links
from core.app.pages import PAGES, Page

#: Pages with settings, by the path Streamlit serves them at.
PAGE_BY_PATH: dict[str, Page] = {page.url_path: page for page in PAGES if page.settings}

# How often a student reaches for each control (controls not listed: 0.5).
_WEIGHTS = {
    "max_depth": 4.0,
    "n_estimators": 4.0,
    "step": 4.0,
    "ccp_alpha": 2.0,
    "min_samples_leaf": 2.0,
    "seed": 2.0,
    "sample": 2.0,
    "criterion": 2.0,
    "tree": 2.0,
    "node": 2.0,
    "step-next": 2.0,
    "step-back": 1.0,
}
# Never touched: the diagram's fit-to-page switch changes only what the browser draws.
_SKIP = frozenset({"tree-diagram-size"})
# Nor the class mode's buttons and forms (a student of this class does not start another one:
# ``classroom_load.classroom_class`` drives the class mode on purpose).
_SKIP_PREFIXES = ("class-", "FormSubmitter:")
SWITCH_CHANCE = 0.1
NEW_LINK_CHANCE = 0.1
JUMP_CHANCE = 0.25
#: The actions that open a link in a tab: the arrival and a later new tab.
LINK_ACTIONS = frozenset({"open", "new tab"})

Kind = Literal["move", "sidebar", "link"]
KINDS: tuple[Kind, ...] = ("move", "sidebar", "link")


def kind_of(action: str) -> Kind:
    """The kind of an interaction by its action: ``"open"`` and ``"new tab"`` are links,
    ``"switch"`` a sidebar link, anything else (a control's key) a move."""
    if action in LINK_ACTIONS:
        return "link"
    if action == "switch":
        return "sidebar"
    return "move"


@dataclass(frozen=True)
class Interaction:
    """One change a student made and what came of it.

    Attributes
    ----------
    student : int
        Who made it.
    page : str
        The page it was made on (its URL path).
    action : str
        ``"open"`` (the arrival), ``"new tab"`` (a later link), ``"switch"`` (the sidebar),
        or the key of the control changed (see :func:`kind_of`).
    started : float
        When it was sent (``time.monotonic``).
    seconds : float
        Until the run finished (or the error).
    error : str
        Empty when the run finished on the right page without an exception.
    replica : str
        The server the load balancer's affinity cookie named after it (``""`` without one).
    replica_before : str
        The server the cookie named when it was sent (another one if it reconnected).
    reconnect_s : float or None
        When the connection broke during it and the student reconnected (``Plan.reconnect``):
        seconds until the new websocket was open. ``seconds`` then counts the whole change,
        the broken attempt, the reconnect and the change made again.
    query_before, query_after : str
        The URL's query string before the change and after the run that made it.
    value : str
        The value the control was set to, as the widget shows it (``""`` for a link or a
        switch).
    http_s : float or None
        For a link whose page was loaded over HTTP: the seconds of that load, a part of
        ``seconds``.
    http_bytes : int
        The bytes that load fetched.
    """

    student: int
    page: str
    action: str
    started: float
    seconds: float
    error: str = ""
    replica: str = ""
    replica_before: str = ""
    reconnect_s: float | None = None
    query_before: str = ""
    query_after: str = ""
    value: str = ""
    http_s: float | None = None
    http_bytes: int = 0


def random_settings(page: Page, rng: random.Random, catalogue: app_settings.Catalogue) -> Any:
    """Settings a student might have in a shared link: a random dataset and a few moved values.

    The values are drawn from each setting's usual range and then read back through
    :func:`core.app.settings.parse`, so the result is valid for its dataset, as any link is.
    """
    settings_type = page.settings
    if settings_type is None:
        raise ValueError(f"page must have settings; got {page.title!r}")
    names = [name for name, shape in catalogue.items() if settings_type.shows(shape)]
    settings = app_settings.with_dataset(settings_type(), rng.choice(names), catalogue)
    draws = {
        "max_depth": lambda: rng.choice([None, *range(1, 9)]),
        "min_samples_leaf": lambda: rng.choice([1, 1, 2, 3, 5, 10]),
        "seed": lambda: rng.randrange(50),
        "criterion": lambda: rng.choice(app_settings.CRITERIA),
        "n_estimators": lambda: rng.choice([10, 20, 50, 100, 100, 200, 300]),
        "test_size": lambda: rng.choice([0.2, 0.25, 0.3]),
        "step": lambda: rng.choice([None, *range(0, 8)]),
        "ccp_alpha": lambda: rng.choice([0.0, 0.0, 0.005, 0.01, 0.02]),
    }
    names_here = set(settings.form.entries)
    changes = {name: draw() for name, draw in draws.items() if name in names_here}
    chosen = dict(rng.sample(sorted(changes.items(), key=str), k=min(3, len(changes))))
    query = app_settings.to_query(settings.replace(**chosen), catalogue)
    parsed, _ = app_settings.parse(settings_type, query, catalogue)
    return parsed


def start_link(
    rng: random.Random, catalogue: app_settings.Catalogue, lesson_share: float = 0.5
) -> tuple[str, dict[str, str]]:
    """The URL path and query a student opens first: a lesson's link or a random valid one."""
    if rng.random() < lesson_share:
        link = rng.choice(classroom_links(catalogue))
        return link.page.url_path, app_settings.to_query(link.settings, catalogue)
    page = rng.choice(list(PAGE_BY_PATH.values()))
    return page.url_path, app_settings.to_query(random_settings(page, rng, catalogue), catalogue)


def _moved_index(current: int, count: int, rng: random.Random) -> int:
    """Another index of ``count``: usually a step or two from ``current``, sometimes anywhere."""
    if count < 2:
        return current
    if rng.random() < JUMP_CHANCE:
        return rng.choice([i for i in range(count) if i != current])
    step = rng.choice([-2, -1, -1, 1, 1, 2])
    moved = min(max(current + step, 0), count - 1)
    return moved if moved != current else (current - step) % count


def new_value(widget: Widget, shown: Any, rng: random.Random) -> Any:
    """A value a student would move ``widget`` to from ``shown``, the value it shows."""
    proto = widget.proto
    if widget.kind == "slider" and len(proto.options) > 0:
        options = list(proto.options)
        current = options.index(shown) if shown in options else 0
        return options[_moved_index(current, len(options), rng)]
    if widget.kind == "slider":
        count = round((proto.max - proto.min) / proto.step) + 1
        index = round((float(shown) - proto.min) / proto.step)
        return proto.min + _moved_index(index, count, rng) * proto.step
    if widget.kind in ("selectbox", "radio", "button_group"):
        options = (
            [option.content for option in proto.options]
            if widget.kind == "button_group"
            else list(proto.options)
        )
        current = options.index(shown) if shown in options else 0
        return options[_moved_index(current, len(options), rng)]
    if widget.kind == "number_input":
        high = proto.max if proto.has_max else float(shown) + 100
        if widget.key == "seed" and rng.random() > JUMP_CHANCE:
            return min(float(shown) + 1, high)
        return float(rng.randint(int(proto.min if proto.has_min else 0), int(min(high, 999))))
    if widget.kind == "checkbox":
        return not shown
    return True  # a button: a click


def pick_change(session: StudentSession, rng: random.Random) -> tuple[str, Any] | None:
    """The control a student moves next on the page the last run showed, and its new value."""
    if session.last is None:
        return None
    widgets = [
        w
        for w in session.last.widgets().values()
        if w.kind in WIDGET_KINDS
        and w.key not in _SKIP
        and not w.key.startswith(_SKIP_PREFIXES)
        and not getattr(w.proto, "disabled", False)
    ]
    if not widgets:
        return None
    weights = [_WEIGHTS.get(w.key, 0.5) for w in widgets]
    widget = rng.choices(widgets, weights)[0]
    return widget.key, new_value(widget, session.shown(widget.key), rng)


def check(run: Run, session: StudentSession, url_path: str) -> str:
    """Why ``run`` is wrong (an exception, another page), or ``""`` when it is fine."""
    exceptions = run.exceptions()
    if exceptions:
        return "exception: " + exceptions[0][:200]
    expected = session.pages.get(url_path)
    if expected is not None and run.page_hash != expected:
        return f"wrong page: asked for {url_path!r}"
    page = PAGE_BY_PATH.get(url_path)
    if page is not None and page.title not in run.headings()[:1]:
        return f"wrong page: no {page.title!r} heading"
    return ""


@dataclass(frozen=True)
class Plan:
    """How a student behaves: how many actions, how long they think, what they do.

    Attributes
    ----------
    changes : int, default 15
        Actions after the arrival.
    think : tuple of float, default (2.0, 6.0)
        Seconds between two actions, drawn uniformly between these bounds.
    switch_chance, new_link_chance : float, default 0.1 each
        The share of actions that follow the sidebar to another page, and that open a new
        link in a new tab; the rest are moves.
    lesson_share : float, default 0.5
        The share of links that are a lesson's, the others random valid URLs.
    timeout : float, default 60.0
        Seconds an interaction may take before it counts as lost.
    reconnect : bool, default False
        When the connection breaks (the server died), reconnect as a browser does and make the
        change again, instead of ending the visit.
    affinity_cookie : str, default ""
        The name of the load balancer's affinity cookie, whose value names the server.
    """

    changes: int = 15
    think: tuple[float, float] = (2.0, 6.0)
    switch_chance: float = SWITCH_CHANCE
    new_link_chance: float = NEW_LINK_CHANCE
    lesson_share: float = 0.5
    timeout: float = 60.0
    reconnect: bool = False
    affinity_cookie: str = ""


@dataclass
class _Opening:
    """What a link told before its run: its page load over HTTP and the replica it reached."""

    http_s: float | None = None
    http_bytes: int = 0
    replica: str = ""


async def student(
    who: int,
    base_url: str,
    plan: Plan,
    rng: random.Random,
    catalogue: app_settings.Catalogue,
    log: list[Interaction],
    *,
    start: tuple[str, dict[str, str]] | None = None,
    stay: bool = False,
    assets: PageAssets | None = None,
) -> None:
    """One student's visit: open a link, then ``plan.changes`` actions with think time.

    Every interaction, failed or not, is appended to ``log``. A failure that leaves the tab
    unusable (closed connection, timeout) ends the visit; an exception in the page does not.
    ``stay`` keeps the student on the first page and tab (for measuring one page's cost).
    ``assets`` is what each page's load fetches over HTTP
    (:func:`classroom_load.page_load.find_page_assets`); without it a link is its websocket and run.
    """
    url_path, query = start or start_link(rng, catalogue, plan.lesson_share)
    browser = Browser()
    tabs: list[StudentSession] = []

    def replica_of(tab: StudentSession) -> str:
        return tab.cookies.get(plan.affinity_cookie, "") if plan.affinity_cookie else ""

    async def open_tab(
        tab: StudentSession, url_path: str, query: dict[str, str], opening: _Opening
    ) -> Run:
        """A link in a new tab: the page over HTTP, then the websocket and the first run."""
        if assets is not None:
            load = await load_page(
                base_url, assets.by_page[url_path], query, browser, timeout=plan.timeout
            )
            opening.http_s, opening.http_bytes = load.seconds, load.bytes
            if load.error:
                raise ProtocolError(load.error)
        tab.cookies = dict(browser.cookies)
        try:
            await tab.connect()
        except websockets.InvalidHandshake as failure:
            raise ProtocolError(f"cannot connect: {failure}") from None
        opening.replica = replica_of(tab)
        return await tab.open(url_path, query)

    async def act(
        action: str,
        page: str,
        tab: StudentSession,
        make: Callable[[], Awaitable[Run]],
        value: Any = "",
        *,
        retry: Callable[[], Awaitable[Run]] | None = None,
        opening: _Opening | None = None,
    ) -> bool:
        """Run the call ``make`` returns in ``tab``, log it; False when the tab cannot go on.

        After a reconnect (``plan.reconnect``) ``retry`` runs instead of ``make``: a link's
        page is loaded already, only its run is asked for again.
        """
        began = time.monotonic()
        alive = True
        query_before = tab.query
        replica_before = replica_of(tab)
        reconnect_s = None
        opening = opening or _Opening()
        try:
            try:
                run = await make()
            except (ProtocolError, OSError):
                if not plan.reconnect:
                    raise
                # The server went away under the student: as the browser does, connect again
                # (same URL, same cookies) and make the change again.
                reconnect_s = await tab.reconnect(plan.timeout)
                run = await (retry or make)()
            error = check(run, tab, page)
        except TimeoutError:  # before OSError, of which it is a kind
            error, alive = f"timeout after {plan.timeout:g} s", False
        except (ProtocolError, OSError) as failure:
            error, alive = f"{type(failure).__name__}: {failure}"[:200], False
        browser.cookies = {**browser.cookies, **tab.cookies}  # one jar for all the tabs
        log.append(
            Interaction(
                who,
                page,
                action,
                began,
                time.monotonic() - began,
                error,
                replica_of(tab),
                replica_before or opening.replica,
                reconnect_s,
                query_before,
                tab.query,
                str(value),
                opening.http_s,
                opening.http_bytes,
            )
        )
        return alive

    async def new_tab(action: str, url_path: str, query: dict[str, str]) -> StudentSession | None:
        """Open a link in a new tab (the old one stays open); None when it failed."""
        tab = StudentSession(base_url, timeout=plan.timeout)
        tabs.append(tab)
        opening = _Opening()
        opened = await act(
            action,
            url_path,
            tab,
            partial(open_tab, tab, url_path, query, opening),
            retry=partial(tab.open, url_path, query),
            opening=opening,
        )
        return tab if opened else None

    try:
        opened = await new_tab("open", url_path, query)
        if opened is None:
            return
        tab = opened
        for _ in range(plan.changes):
            await asyncio.sleep(rng.uniform(*plan.think))
            roll = rng.random()
            if not stay and roll < plan.new_link_chance:
                url_path, query = start_link(rng, catalogue, plan.lesson_share)
                opened = await new_tab("new tab", url_path, query)
                if opened is None:
                    return
                tab = opened
            elif not stay and roll < plan.new_link_chance + plan.switch_chance:
                url_path = rng.choice([path for path in PAGE_BY_PATH if path != url_path])
                if not await act("switch", url_path, tab, partial(tab.switch, url_path)):
                    return
            else:
                change = pick_change(tab, rng)
                if change is None:
                    continue
                key, value = change
                if not await act(key, url_path, tab, partial(tab.change, key, value), value):
                    return
    finally:
        for each in tabs:  # the student leaves: every tab closes
            await each.close()
