"""Figures and their data built once beside the fitted models they show, shared by every
visitor: :func:`built_once`.

Pure Python (no Streamlit): the models come from :mod:`core.ui.cached`'s caches, and what is
kept here goes with them.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: How many built values one model keeps (a few samples, pairs, nodes clicked in turn).
BUILT_PER_MODEL = 12

_BUILT: weakref.WeakKeyDictionary[Any, dict[Hashable, Any]] = weakref.WeakKeyDictionary()
_BUILT_LOCK = threading.Lock()  # guards _BUILT and _MAKING

#: A lock for each value being built, by the first model's ``id`` (alive: its builder holds it)
#: and key; reentrant, so a build that asks for its own value builds it rather than wait on
#: itself.
_MAKING: dict[tuple[int, Hashable], threading.RLock] = {}


def _kept(first: Any, full_key: Hashable) -> tuple[bool, Any]:
    """The value kept for ``full_key`` beside ``first``, now the most recently used (the lock
    held)."""
    kept = _BUILT.get(first)
    if kept is None or full_key not in kept:
        return False, None
    found = kept.pop(full_key)
    kept[full_key] = found
    return True, found


def built_once(models: Sequence[Any], key: Hashable, build: Callable[[], T]) -> T:
    """What ``build()`` makes from ``models`` (a figure, its data), built once per ``key``.

    A memo kept beside the fitted models: the first call with these models and ``key`` runs
    ``build`` and keeps its value; later calls return that same value without building.
    Most reruns leave the models as they were: a click on a test sample rebuilds the vote but
    not the boundary of a model next to it, a new tree index leaves every chart. Building a
    figure costs milliseconds of CPU each time.

    A call that finds the same value being built by another visitor waits for it rather than
    build it too: a class's followers all run the teacher's new view at once, and each built
    every figure of it (a thousand trees' curve and votes, a tenth of a second each) before
    any of them had kept one. If that build fails, the waiting call builds it itself. (The
    same rule as :meth:`core.app.shelf.Shelf.get_or_make`: a lock per value being made, and a
    second look once it is held.)

    The first model holds the values weakly, so they go when it leaves the model caches
    (:func:`fit_tree`, :func:`fit_forest`) and is collected: identity is the key, never a
    recycled ``id``, and the other models count by weak reference (a dead one never matches a
    new one). At most :data:`BUILT_PER_MODEL` per model, the least recently used dropped first
    (a page's scores, asked for on every rerun, outlive a run of samples clicked in turn).

    What is returned is shared by every visitor who builds the same: show it, never change
    it (``st.plotly_chart`` copies a figure before sending it). It must not hold the models
    themselves: a value that did would keep its model alive, and the model's values with it.
    """
    first, others = models[0], tuple(weakref.ref(model) for model in models[1:])
    full_key = (others, key)
    slot = (id(first), full_key)
    with _BUILT_LOCK:
        found, value = _kept(first, full_key)
        if found:
            kept_value: T = value
            return kept_value
        making = _MAKING.setdefault(slot, threading.RLock())
    with making:  # the same value being built by another visitor: wait for it
        with _BUILT_LOCK:
            found, value = _kept(first, full_key)  # built while this call waited
        if found:
            built: T = value
            return built
        try:
            made = build()
        except BaseException:
            with _BUILT_LOCK:
                _MAKING.pop(slot, None)
            raise
        with _BUILT_LOCK:  # kept before the lock goes: no one waiting builds it again
            kept = _BUILT.setdefault(first, {})
            kept[full_key] = made
            while len(kept) > BUILT_PER_MODEL:
                del kept[next(iter(kept))]  # dicts keep insertion order: the least recently used
            _MAKING.pop(slot, None)
        return made
