"""server.frontend_files: Streamlit's ``/static/`` files answered from memory, byte for byte and
header for header as Streamlit's own handler answers them, and everything else left to it.

Driven through the ASGI interface, as uvicorn drives it, in front of Streamlit's real static
handler (``create_streamlit_static_handler`` over its installed frontend)."""

from __future__ import annotations

import asyncio
import gzip
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asgi_request import Answer, ask, request
from starlette.middleware.exceptions import ExceptionMiddleware
from streamlit import file_util
from streamlit.web.server.starlette.starlette_static_routes import (
    create_streamlit_static_handler,
)

from server import frontend_files
from server.frontend_files import IMMUTABLE, FrontendFiles, accepts_gzip

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = file_util.get_static_dir()
HASHED = Path(FRONTEND, "static")


def _first(pattern: str) -> str:
    """A real file of the installed frontend, as a URL path."""
    found = sorted(HASHED.glob(pattern))
    assert found, f"Streamlit's frontend has a {pattern}"
    return "/static/" + found[0].relative_to(HASHED).as_posix()


SCRIPT = _first("js/index.*.js")
FONT = _first("media/*.woff2")
STYLE = _first("css/*.css")
#: What Chromium asks for.
BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}


class Behind:
    """Streamlit's static handler, its refusals made answers as its server makes them,
    counting the requests that reach it."""

    def __init__(self) -> None:
        self.handler = ExceptionMiddleware(create_streamlit_static_handler(FRONTEND, None))
        self.paths: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.paths.append(scope["path"])
        await self.handler(scope, receive, send)


@pytest.fixture
def behind() -> Behind:
    return Behind()


@pytest.fixture
def front(behind: Behind) -> FrontendFiles:
    return FrontendFiles(behind, str(HASHED))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names the middleware reads from disk, in order (each read still happens)."""
    names: list[str] = []
    real_read = frontend_files.read

    def counted(folder: str, name: str) -> frontend_files.Kept | None:
        names.append(name)
        return real_read(folder, name)

    monkeypatch.setattr(frontend_files, "read", counted)
    return names


def on_disk(path: str) -> bytes:
    return (HASHED / path.removeprefix("/static/")).read_bytes()


@pytest.mark.parametrize(("path", "text"), [(SCRIPT, True), (FONT, False), (STYLE, True)])
def test_a_file_is_answered_as_streamlit_answers_it(
    front: FrontendFiles, behind: Behind, path: str, text: bool
) -> None:
    """Asked without gzip: Streamlit's status, headers and bytes; a text file also says that
    it has a compressed form (``Vary``)."""
    answer = request(front, path)
    assert behind.paths == [], "answered in front, Streamlit never asked"
    its = request(behind, path)
    assert (answer.status, answer.body) == (its.status, its.body)
    assert answer.headers == {**its.headers, **({"vary": "Accept-Encoding"} if text else {})}
    assert answer.body == on_disk(path)
    assert answer.headers["cache-control"] == IMMUTABLE
    assert answer.headers["content-length"] == str(len(answer.body))


@pytest.mark.parametrize("path", [SCRIPT, STYLE])
def test_a_browser_gets_a_text_file_compressed(
    front: FrontendFiles, behind: Behind, path: str
) -> None:
    answer = request(front, path, headers=BROWSER)
    assert behind.paths == []
    assert answer.status == 200
    assert gzip.decompress(answer.body) == on_disk(path)
    assert len(answer.body) < 0.5 * len(on_disk(path))
    its = request(behind, path).headers
    assert answer.headers == {
        **its,
        "content-length": str(len(answer.body)),
        "content-encoding": "gzip",
        "etag": "W/" + its["etag"],
        "vary": "Accept-Encoding",
    }
    assert request(front, path, headers=BROWSER) == answer


def test_a_font_is_sent_as_it_is_even_to_a_browser(front: FrontendFiles, behind: Behind) -> None:
    """WOFF2 is compressed already: no second copy, Streamlit's answer unchanged."""
    assert request(front, FONT, headers=BROWSER) == request(behind, FONT)
    assert front.kept[FONT.removeprefix("/static/")].gzipped is None


def test_the_compressed_form_is_revalidated_by_streamlit(front: FrontendFiles) -> None:
    """A browser that asks again with the compressed form's (weak) ETag gets Streamlit's 304."""
    etag = request(front, SCRIPT, headers=BROWSER).headers["etag"]
    again = request(front, SCRIPT, headers={**BROWSER, "If-None-Match": etag})
    assert (again.status, again.body) == (304, b"")


@pytest.mark.parametrize(
    ("accept", "takes"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("x-gzip", True),
        ("*", True),
        ("GZIP", True),
        ("gzip;q=0", False),
        ("gzip; q=0.0", False),
        ("gzip;q=nonsense", False),
        ("br, zstd", False),
        ("identity", False),
        ("", False),
    ],
)
def test_which_requests_take_gzip(accept: str, takes: bool) -> None:
    assert accepts_gzip({"headers": [(b"accept-encoding", accept.encode())]}) is takes
    assert accepts_gzip({"headers": []}) is False


def test_requests_that_arrive_together_share_one_read(behind: Behind, reads: list[str]) -> None:
    """A class arriving together asks for the same files at once: read (and compressed) once."""
    front = FrontendFiles(behind, str(HASHED))

    async def together() -> list[Answer]:
        return await asyncio.gather(*(ask(front, SCRIPT, headers=BROWSER) for _ in range(8)))

    answers = asyncio.run(together())
    assert reads == [SCRIPT.removeprefix("/static/")]
    assert all(answer == answers[0] for answer in answers)
    assert front.reading == {}


def test_a_file_is_read_from_disk_once(
    front: FrontendFiles, behind: Behind, reads: list[str]
) -> None:
    answers = [request(front, SCRIPT) for _ in range(3)]
    assert reads == [SCRIPT.removeprefix("/static/")]
    assert answers[0] == answers[1] == answers[2]
    assert behind.paths == []


@pytest.mark.parametrize(
    ("method", "headers"),
    [
        ("HEAD", {}),
        ("POST", {}),
        ("GET", {"Range": "bytes=0-99"}),
        ("GET", {"If-None-Match": '"anything"'}),
        ("GET", {"If-Modified-Since": "Sat, 28 Nov 2026 06:50:05 GMT"}),
        ("GET", {"If-Range": '"anything"'}),
    ],
)
def test_other_requests_for_a_file_go_on_to_streamlit(
    front: FrontendFiles, behind: Behind, method: str, headers: dict[str, str]
) -> None:
    answer = request(front, SCRIPT, method, headers)
    assert behind.paths == [SCRIPT]
    assert answer == request(behind, SCRIPT, method, headers)
    assert front.kept == {}


def test_a_range_gets_part_of_the_file_from_streamlit(front: FrontendFiles) -> None:
    answer = request(front, SCRIPT, headers={"Range": "bytes=0-99"})
    assert (answer.status, len(answer.body)) == (206, 100)


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/",  # a folder: Streamlit's index page
        "/static/js/no-such-file.js",  # Streamlit's index page
        "/static/../index.html",
        "/static/js/../../index.html",
        "/static//etc/passwd",
        "/static/js\\index.js",
        "/static/.hidden",
        "/static/",
        "/index.html",
        "/favicon.png",
        "/_stcore/health",
    ],
)
def test_anything_else_goes_on_to_streamlit(
    front: FrontendFiles, behind: Behind, path: str
) -> None:
    answer = request(front, path)
    assert behind.paths == [path]
    assert answer == request(behind, path)
    assert front.kept == {}


def test_a_link_out_of_the_folder_is_left_to_streamlit(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "kept.js").write_text("kept")
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", folder / "out.js")
    assert frontend_files.read(str(folder), "kept.js") is not None
    assert frontend_files.read(str(folder), "out.js") is None
    assert frontend_files.read(str(folder), "missing.js") is None


def test_a_websocket_goes_on_untouched(front: FrontendFiles, behind: Behind) -> None:
    seen: list[str] = []

    async def websocket_app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    front_of_it = FrontendFiles(websocket_app, str(HASHED))
    asyncio.run(front_of_it({"type": "websocket", "path": SCRIPT}, None, None))
    assert seen == ["websocket"]


def test_below_a_base_url_path(behind: Behind) -> None:
    front = FrontendFiles(behind, str(HASHED), base_url="/course/")
    answer = request(front, "/course" + SCRIPT)
    assert behind.paths == []
    assert (answer.status, answer.headers["cache-control"]) == (200, IMMUTABLE)
    assert answer.body == on_disk(SCRIPT)
    request(front, SCRIPT)  # not below the base URL: Streamlit's to answer
    assert behind.paths == [SCRIPT]


def test_serve_reads_the_folder_and_base_url_path_from_streamlit() -> None:
    """``serve.py`` hands the middleware Streamlit's own folder and ``server.baseUrlPath``."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from streamlit import config; config.set_option('server.baseUrlPath', 'course'); "
            "import serve; m = serve.frontend_files(); print(m.kwargs['folder']); "
            "print(m.kwargs['base_url'])",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    folder, base_url = result.stdout.split()
    assert Path(folder).resolve() == HASHED.resolve()
    assert base_url == "course"


def test_serve_puts_it_in_front_of_streamlit() -> None:
    """``serve.py`` (what ``make run``, the replicas, Docker and Kubernetes start) answers the
    frontend's files from memory, ahead of the class check, the class cookie and Streamlit.
    Read in a process of its own: importing ``serve`` also changes how asyncio accepts
    connections."""
    names = subprocess.run(
        [
            sys.executable,
            "-c",
            "import serve; print(*(m.cls.__name__ for m in serve.app._user_middleware))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert names == ["FrontendFiles", "ClassCheck", "ClassCookie"]
