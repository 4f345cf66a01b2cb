"""What a simulated student does: the link they open, the controls they move, when they leave.

A student opens a page from a teacher's classroom link (:mod:`core.app.lessons`) or from a
random valid URL (random settings made valid by :func:`core.app.settings.parse`), then, after
some thinking, moves one control at a time (mostly a slider by a step or two, sometimes a jump,
a new seed, another sample, a toggle) and now and then follows the sidebar to another page.
Every choice comes from the student's own seeded ``random.Random``, so a run is repeatable.

Each change is timed from sending it to the server's ``script_finished``; it counts as an error
when the run shows an exception, the server closes the connection, no answer comes within the
timeout, or another page than the one asked for runs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bench.st_client import WIDGET_KINDS, ProtocolError, Run, StudentSession, Widget
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
# ``bench.classroom_class`` drives the class mode on purpose).
_SKIP_PREFIXES = ("class-", "FormSubmitter:")
SWITCH_CHANCE = 0.1
JUMP_CHANCE = 0.25


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
        ``"open"``, ``"switch"``, or the key of the control changed.
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
        The value the control was set to, as the widget shows it (``""`` for an open or a
        switch).
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
    """How a student behaves: how many changes, how long they think, how often they switch."""

    changes: int = 15
    think: float = 2.0
    min_think: float = 0.3
    switch_chance: float = SWITCH_CHANCE
    lesson_share: float = 0.5
    timeout: float = 60.0
    #: When the connection breaks (the server died), reconnect as a browser does and make the
    #: change again, instead of ending the visit.
    reconnect: bool = False
    #: The name of the load balancer's affinity cookie, whose value names the server.
    affinity_cookie: str = ""


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
) -> None:
    """One student's visit: open a link, then ``plan.changes`` changes with think time.

    Every interaction, failed or not, is appended to ``log``. A failure that leaves the session
    unusable (closed connection, timeout) ends the visit; an exception in the page does not.
    ``stay`` keeps the student on the first page (for measuring one page's cost).
    """
    url_path, query = start or start_link(rng, catalogue, plan.lesson_share)
    session = StudentSession(base_url, timeout=plan.timeout)

    def replica_of(session: StudentSession) -> str:
        return session.cookies.get(plan.affinity_cookie, "") if plan.affinity_cookie else ""

    async def act(
        action: str, page: str, make: Callable[[], Awaitable[Run]], value: Any = ""
    ) -> bool:
        """Run the call ``make`` returns, log it; False when the session cannot go on."""
        began = time.monotonic()
        alive = True
        query_before = session.query
        replica_before = replica_of(session)
        reconnect_s = None
        try:
            try:
                run = await make()
            except (ProtocolError, OSError):
                if not plan.reconnect:
                    raise
                # The server went away under the student: as the browser does, connect again
                # (same URL, same cookies) and make the change again.
                reconnect_s = await session.reconnect(plan.timeout)
                run = await make()
            error = check(run, session, page)
        except TimeoutError:  # before OSError, of which it is a kind
            error, alive = f"timeout after {plan.timeout:g} s", False
        except (ProtocolError, OSError) as failure:
            error, alive = f"{type(failure).__name__}: {failure}"[:200], False
        log.append(
            Interaction(
                who,
                page,
                action,
                began,
                time.monotonic() - began,
                error,
                replica_of(session),
                replica_before,
                reconnect_s,
                query_before,
                session.query,
                str(value),
            )
        )
        return alive

    try:
        try:
            await session.connect()
        except (OSError, ProtocolError) as failure:  # TimeoutError is an OSError
            error = f"cannot connect: {type(failure).__name__} {failure}"[:200]
            log.append(Interaction(who, url_path, "open", time.monotonic(), 0.0, error))
            return
        if not await act("open", url_path, partial(session.open, url_path, query)):
            return
        for _ in range(plan.changes):
            await asyncio.sleep(max(plan.min_think, rng.expovariate(1 / plan.think)))
            others = [path for path in PAGE_BY_PATH if path != url_path]
            if not stay and rng.random() < plan.switch_chance:
                url_path = rng.choice(others)
                alive = await act("switch", url_path, partial(session.switch, url_path))
            else:
                change = pick_change(session, rng)
                if change is None:
                    continue
                key, value = change
                alive = await act(key, url_path, partial(session.change, key, value), value)
            if not alive:
                return
    finally:
        await session.close()
