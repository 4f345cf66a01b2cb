"""What a browser fetches over HTTP when it opens a link, before its websocket.

A tab that opens ``/Single_tree?dataset=wine`` first asks for that HTML, then for everything
the HTML and Streamlit's frontend ask for: the script bundles, the style sheet, the fonts, the
favicon, the chunks a page's elements load lazily (Plotly's is 4.7 MB), and the frontend's own
checks (``/_stcore/health`` and ``/_stcore/host-config``, first under the page's path, where
they answer 404, then at the root). Only then does it open the websocket.

:func:`find_page_assets` learns that list once per page, as a real browser makes it: it loads
each page in headless Chromium and keeps every same-origin GET that is not the websocket, in
the order Chromium asked, with the status it got; a run's own files under ``/media/`` (the
tree's DOT download, which the frontend may fetch once drawn) belong to that session and are
left out. Without Chromium it falls back to the
``<script>`` and ``<link>`` tags of the HTML, which miss the lazy chunks and the checks, and
says so. :func:`load_page` then fetches a page's list the way a browser does: the HTML alone,
then the rest over up to six keep-alive connections (Chromium's limit per host for HTTP/1.1),
each body read to its end.

Each simulated student is one browser (:class:`Browser`): one cookie jar for all its tabs (so
a load balancer's affinity cookie sends every tab to the same replica) and one HTTP cache. A
response the cache may reuse without asking again (``Cache-Control`` with a ``max-age`` and
neither ``no-cache`` nor ``no-store``: Streamlit serves its content-hashed ``/static/`` files
``public, immutable, max-age=31536000``) is not fetched a second time; the HTML, the checks
(``no-cache``) and the 404s are fetched on every link. A student's first link thus loads the
whole bundle, and a later link only the HTML, the checks and any lazy chunk its page needs
that the student's earlier pages did not.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.request
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, urlencode, urljoin, urlsplit

from classroom_load.http_client import Answer, HttpConnection
from classroom_load.st_client import cookies_set
from tests.live_app import SETTLED_FN, VIEWPORT, chromium_path, launch_chromium

if TYPE_CHECKING:  # Playwright is imported only when Chromium looks for the list.
    from playwright.sync_api import Browser as Chromium
    from playwright.sync_api import Request

#: Connections a browser opens to one host over HTTP/1.1 (Chromium's limit).
BROWSER_CONNECTIONS = 6
#: Files of one session's run (a download button's data, an image): their names come from the
#: run's elements, so another session asking for them gets 404. Not part of a page load.
_SESSION_FILES = "/media/"
_LOADED = f"() => {{ {SETTLED_FN} return settled(['[data-testid=\"stSlider\"]']); }}"


@dataclass(frozen=True)
class Asset:
    """One request of a page load.

    Attributes
    ----------
    target : str
        The path and query asked for (``/static/js/index.DormvYxC.js``).
    status : int
        The status Chromium got; another one is an error.
    document : bool
        Whether it is the page's HTML, which a link asks for with its own query string.
    """

    target: str
    status: int = 200
    document: bool = False


@dataclass(frozen=True)
class PageAssets:
    """Every page's load, by the page's URL path, and how the list was found."""

    by_page: dict[str, tuple[Asset, ...]]
    source: str


@dataclass
class Browser:
    """What one student's browser keeps across its tabs: cookies and the HTTP cache.

    Attributes
    ----------
    cookies : dict of str to str
        Every cookie a response set (the affinity cookie of a load balancer among them).
    cached : set of str
        The targets whose response the cache may reuse without asking the server again.
    """

    cookies: dict[str, str] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class PageLoad:
    """What one page load fetched: requests, bytes as they came over the wire, seconds."""

    seconds: float
    requests: int
    bytes: int
    static_requests: int
    error: str = ""


def reusable(headers: Mapping[str, str]) -> bool:
    """Whether a browser's cache may serve this response again without asking the server.

    Parameters
    ----------
    headers : mapping of str to str
        The response's headers, names in lower case.

    Returns
    -------
    bool
        True for a positive ``max-age`` without ``no-cache`` or ``no-store``.
    """
    directives = [d.strip().lower() for d in headers.get("cache-control", "").split(",")]
    if "no-cache" in directives or "no-store" in directives:
        return False
    ages = [d.partition("=")[2] for d in directives if d.startswith("max-age=")]
    return any(age.isdigit() and int(age) > 0 for age in ages)


async def load_page(
    base_url: str,
    assets: Sequence[Asset],
    query: Mapping[str, str],
    browser: Browser,
    *,
    connections: int = BROWSER_CONNECTIONS,
    timeout: float = 60.0,
) -> PageLoad:
    """Fetch what opening a link fetches, as ``browser`` does with its cache and cookies.

    Parameters
    ----------
    base_url : str
        ``http://host:port`` of the server or the load balancer.
    assets : sequence of Asset
        The page's load (:attr:`PageAssets.by_page`); the document gets ``query``.
    query : mapping of str to str
        The link's query string.
    browser : Browser
        The student's browser: its cookies are sent and updated, its cache skips what it
        holds and keeps what may be reused.
    connections : int, default 6
        Keep-alive connections the files are fetched over, after the HTML.
    timeout : float, default 60.0
        Seconds for the whole load; then ``TimeoutError``.

    Returns
    -------
    PageLoad
        Seconds, requests and bytes fetched; ``error`` names the first request whose status
        was not the one Chromium got.
    """
    began = time.perf_counter()
    wanted = deque(asset for asset in assets if asset.target not in browser.cached)
    done: list[tuple[Asset, Answer]] = []
    errors: list[str] = []

    async def fetch(connection: HttpConnection, asset: Asset) -> None:
        target = asset.target
        if asset.document and query:
            target += "?" + urlencode(query)
        answer = await connection.get(target, browser.cookies)
        browser.cookies = cookies_set(browser.cookies, answer.set_cookie)
        if answer.status != asset.status:
            errors.append(f"HTTP {answer.status} for {asset.target} (expected {asset.status})")
        elif reusable(answer.headers):
            browser.cached.add(asset.target)
        done.append((asset, answer))

    async def worker(connection: HttpConnection) -> None:
        while wanted:
            await fetch(connection, wanted.popleft())

    async def everything() -> None:
        pool = [HttpConnection(base_url) for _ in range(max(1, connections))]
        try:
            # The HTML alone: only once it is read does the browser know what else to ask for.
            if wanted and wanted[0].document:
                await fetch(pool[0], wanted.popleft())
            async with asyncio.TaskGroup() as group:  # one failure stops the other connections
                for connection in pool[: max(1, min(len(pool), len(wanted)))]:
                    group.create_task(worker(connection))
        except ExceptionGroup as failures:
            raise failures.exceptions[0] from None
        finally:
            for connection in pool:
                await connection.close()

    await asyncio.wait_for(everything(), timeout)
    return PageLoad(
        seconds=time.perf_counter() - began,
        requests=len(done),
        bytes=sum(answer.size for _, answer in done),
        static_requests=sum(1 for asset, _ in done if asset.target.startswith("/static/")),
        error=errors[0] if errors else "",
    )


# --- finding the list ----------------------------------------------------------------------


def find_page_assets(base_url: str, paths: Sequence[str]) -> PageAssets:
    """Each page's load, recorded in headless Chromium, or read from its HTML without one.

    Parameters
    ----------
    base_url : str
        The server (or load balancer) to load the pages from.
    paths : sequence of str
        The pages' URL paths (``"Single_tree"``).

    Returns
    -------
    PageAssets
        The loads, and a sentence saying how they were found.
    """
    executable = chromium_path()
    if not Path(executable).exists():
        reason = f"no Chromium at {executable}"
    else:
        try:
            return PageAssets(record_in_chromium(base_url, paths), "Chromium")
        except ImportError:
            reason = "Playwright is not installed"
        except Exception as failure:  # Playwright's Error, or a page that never settled
            reason = f"Chromium failed: {str(failure).splitlines()[0][:120]}"
    return PageAssets(
        from_html_tags(base_url, paths),
        f"the HTML's script and link tags ({reason}: lazily loaded chunks and the frontend's "
        "health and host-config checks are missing)",
    )


def record_in_chromium(
    base_url: str, paths: Sequence[str], timeout_ms: int = 120_000
) -> dict[str, tuple[Asset, ...]]:
    """Load each page in a fresh Chromium context and keep what it asked the server for.

    A page counts as loaded once its run is over and drawn (a slider shown) and the network
    has been quiet for half a second (or 5 s have passed): the lazy chunks of the elements it
    drew are in.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, chromium_path())
        try:
            return {path: _record_page(browser, base_url, path, timeout_ms) for path in paths}
        finally:
            browser.close()


def _record_page(
    chromium: Chromium, base_url: str, path: str, timeout_ms: int
) -> tuple[Asset, ...]:
    """One page's load in a context of its own (an empty cache)."""
    from playwright.sync_api import Error as PlaywrightError

    context = chromium.new_context(viewport=VIEWPORT)
    asked: list[Request] = []
    try:
        page = context.new_page()
        # A function of our own: Playwright cannot take a builtin method as a handler.
        page.on("request", lambda request: asked.append(request))
        page.goto(f"{base_url}/{path}", timeout=timeout_ms)
        page.wait_for_function(_LOADED, timeout=timeout_ms)
        with contextlib.suppress(PlaywrightError):
            page.wait_for_load_state("networkidle", timeout=5_000)
        origin = urlsplit(base_url)
        assets = []
        for request in asked:
            url = urlsplit(request.url)
            response = request.response()
            if (
                (url.scheme, url.netloc) == (origin.scheme, origin.netloc)
                and request.method == "GET"
                and request.resource_type != "websocket"
                and not url.path.startswith(_SESSION_FILES)
                and response is not None
            ):
                document = request.resource_type == "document"
                assets.append(Asset(_target(url), response.status, document))
        return tuple(assets)
    finally:
        context.close()


def _target(url: SplitResult) -> str:
    """The path and query of ``url``, as a request line names them."""
    return url.path + (f"?{url.query}" if url.query else "")


class _Tags(HTMLParser):
    """The URLs a browser fetches from an HTML's ``<script src>`` and ``<link href>``."""

    FETCHED_RELS = frozenset({"stylesheet", "modulepreload", "preload", "icon"})

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        rels = set((values.get("rel") or "").lower().split())
        if tag == "script" and values.get("src"):
            self.urls.append(values["src"] or "")
        elif tag == "link" and values.get("href") and rels & self.FETCHED_RELS:
            self.urls.append(values["href"] or "")


def from_html_tags(base_url: str, paths: Sequence[str]) -> dict[str, tuple[Asset, ...]]:
    """Each page's HTML and the same-origin files its tags name (the fallback)."""
    found: dict[str, tuple[Asset, ...]] = {}
    for path in paths:
        page_url = f"{base_url}/{path}"
        with urllib.request.urlopen(page_url, timeout=60) as answer:
            html = answer.read().decode("utf-8", errors="replace")
        parser = _Tags()
        parser.feed(html)
        assets = [Asset(f"/{path}", document=True)]
        for url in parser.urls:
            absolute = urlsplit(urljoin(page_url, url))
            if absolute.netloc == urlsplit(base_url).netloc:
                assets.append(Asset(_target(absolute)))
        found[path] = tuple(assets)
    return found


async def load_every_page(base_url: str, assets: PageAssets) -> dict[str, PageLoad]:
    """Each page loaded by a fresh browser, one after the other.

    What a student's first link to each page fetches; through a proxy that caches the static
    files, it also fills that cache, as the teacher's own visit before the class would.
    """
    return {
        path: await load_page(base_url, load, {}, Browser(), timeout=300)
        for path, load in assets.by_page.items()
    }
