"""Work that many requests ask for at once, done once: the first request starts it, the others
that arrive while it runs wait for the same result.

A class opens its pages together: sixty students ask for the same class version
(``class_check``) and the same frontend files (``frontend_files``) within milliseconds, before
the first answer is back and kept. Without this each of them would read the store, or read
and compress the file, again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


async def joined(
    running: dict[K, asyncio.Future[T]], key: K, start: Callable[[], Awaitable[T]]
) -> T:
    """The result of ``start()`` for ``key``, shared with every call for ``key`` meanwhile.

    Parameters
    ----------
    running : dict
        The work under way, by key; an entry lasts while its work runs (so the dict holds no
        more than the requests in progress).
    key : hashable
        What the work is for (a class code, a file name).
    start : callable
        Starts the work: called only when nothing for ``key`` runs.

    Returns
    -------
    The work's result (or its exception), for every caller alike. A caller that is cancelled
    (its client left) stops waiting, never the work the others wait for.
    """
    work = running.get(key)
    if work is None:
        work = running[key] = asyncio.ensure_future(start())
        work.add_done_callback(lambda _: running.pop(key, None))
    return await asyncio.shield(work)
