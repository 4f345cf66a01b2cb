"""A small shared store of fitted models, where a model many visitors ask for at once is
fitted once, and the least recently used leaves first.

Streamlit's ``st.cache_resource`` does both, but a function it caches may not draw on the page
while it runs (what it draws is recorded and replayed on every later hit), so a fit there
cannot move a progress bar. Fitted forests are kept here instead
(:func:`core.ui.cached.fit_forest`). The module is pure (no Streamlit), and unit-tested.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Shelf(Generic[K, V]):
    """At most ``max_entries`` values by key; :meth:`get_or_make` makes each missing one once.

    Parameters
    ----------
    max_entries : int
        How many values are kept; the least recently used goes when one more arrives.
    """

    def __init__(self, max_entries: int) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1; got {max_entries}")
        self.max_entries = max_entries
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()  # guards _items and _making
        self._making: dict[K, threading.Lock] = {}  # one lock per key being made

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def making(self, key: K) -> bool:
        """Whether some caller is making ``key``'s value right now."""
        with self._lock:
            return key in self._making

    def _lookup(self, key: K) -> tuple[bool, V | None]:
        with self._lock:
            if key not in self._items:
                return False, None
            self._items.move_to_end(key)
            return True, self._items[key]

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()``'s, kept from now on.

        While one caller makes a key's value, others asking for the same key wait for it
        instead of making it again; callers asking for other keys do not wait. If ``make``
        raises, nothing is kept and the next caller tries again.
        """
        found, value = self._lookup(key)
        if found:
            return value  # type: ignore[return-value]
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            found, value = self._lookup(key)  # made while this caller waited
            if found:
                return value  # type: ignore[return-value]
            try:
                made = make()
            except BaseException:
                with self._lock:
                    self._making.pop(key, None)
                raise
            with self._lock:  # kept before the key's lock goes: no one makes it twice
                self._items[key] = made
                self._items.move_to_end(key)
                while len(self._items) > self.max_entries:
                    self._items.popitem(last=False)
                self._making.pop(key, None)
            return made

    def items(self) -> list[tuple[K, V]]:
        """The keys and values kept now, least recently used first; reading them uses none."""
        with self._lock:
            return list(self._items.items())

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._items.clear()
