"""The latency benchmark's server: the app (or a floor's page) served with its fits counted.

:class:`Server` starts ``python -m bench.latency_server SCRIPT --port P --fit-log F``, which
serves ``SCRIPT`` as ``streamlit run`` does after making every outermost ``fit`` of the engine's
estimators write a line to ``F`` (:func:`count_fits`): the benchmark then knows whether a change
fitted a model or was served from Streamlit's caches.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deploy.process import LiveServer
from tests.live_app import free_port, streamlit_flags

__all__ = ["Server", "count_fits", "serve"]


def count_fits(log: Path) -> None:
    """Make every outermost ``fit`` of the engine's estimators append a line to ``log``.

    Runs inside the benchmark's server process only. ``functools.wraps`` keeps ``__wrapped__``,
    so the pages' "How this is computed" still shows the real source.
    """
    from core import (
        DecisionTreeClassifier,
        DecisionTreeRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )

    nesting = threading.local()

    def counted(fit: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fit)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            depth = getattr(nesting, "depth", 0)
            nesting.depth = depth + 1
            try:
                return fit(self, *args, **kwargs)
            finally:
                nesting.depth = depth
                if depth == 0:
                    with log.open("a") as out:
                        out.write(f"{type(self).__name__}\n")

        return wrapper

    estimators = (
        DecisionTreeClassifier,
        DecisionTreeRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    owners = {next(c for c in estimator.__mro__ if "fit" in vars(c)) for estimator in estimators}
    for owner in owners:
        owner.fit = counted(vars(owner)["fit"])


def serve(script: str, port: int, fit_log: Path) -> None:
    """``streamlit run script`` in this process, after :func:`count_fits`."""
    count_fits(fit_log)
    from streamlit.web import cli

    cli.main(args=["run", script, *streamlit_flags(port)], prog_name="streamlit")


@dataclass(frozen=True)
class Server:
    """A live benchmark server, and the file its :func:`count_fits` writes to."""

    live: LiveServer
    fit_log: Path

    @classmethod
    def start(cls, script: Path, workdir: Path) -> Server:
        """Serve ``script`` in a process of its own (so fits are counted), logging into
        ``workdir``."""
        port = free_port()
        log, fit_log = workdir / f"server-{port}.log", workdir / f"fits-{port}.log"
        command = [sys.executable, "-m", "bench.latency_server", str(script)]
        command += ["--port", str(port), "--fit-log", str(fit_log)]
        return cls(LiveServer.start(command, port, log), fit_log)

    @property
    def url(self) -> str:
        return self.live.url

    def fits(self) -> int:
        """Outermost ``fit`` calls the server has made so far."""
        if not self.fit_log.exists():
            return 0
        return len(self.fit_log.read_text().splitlines())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", help="the Streamlit script to serve")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--fit-log", type=Path, required=True, help="where fits are counted")
    args = parser.parse_args(argv)
    serve(args.script, args.port, args.fit_log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
