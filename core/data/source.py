"""Where a dataset's rows come from: one type for a table, a generated set, an upload, a drawing.

A :class:`Source` is small and hashable: its fields are everything that decides its rows
and nothing else, so it is the rows' content key. Two equal sources load equal rows, and
the caches of every model grown on them are keyed by it (through ``core.app.models``).

- A **table** of the catalogue is its name (``Source.table("iris")``).
- A **generated** set is its name and what it was generated with: noise, number of points
  and seed (``Source.generated("moons", 0.3, 300, 0)``).
- A visitor's **own** data, an upload or drawn points, is a private key,
  ``own-<session token>-<content digest>`` (see :mod:`core.app.own_data`): the rows live
  in that session, and the key is never shown, so no other session can name them.

``source.load()`` makes the rows. A table or a generated set is read from the catalogue; own
rows are the ones the session :func:`hold` s, found by their key while the session keeps
them (the registry holds them weakly: a session that ends takes its rows with it).

The module is pure: no Streamlit.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Literal, TypeAlias

from core.data.catalogue import load_dataset
from core.data.datasets import Dataset

SourceKind: TypeAlias = Literal["table", "generated", "upload", "drawn"]

#: The kinds whose rows belong to one browser session.
OWN_KINDS: tuple[SourceKind, ...] = ("upload", "drawn")

_HELD: weakref.WeakValueDictionary[str, Dataset] = weakref.WeakValueDictionary()
_HELD_LOCK = threading.Lock()


class RowsGone(LookupError):
    """Own rows asked for after their session let them go: a friendly message."""


@dataclass(frozen=True)
class Source:
    """Which rows a dataset is, as a hashable content key; :meth:`load` makes them.

    Attributes
    ----------
    kind : {"table", "generated", "upload", "drawn"}
    key : str
        A catalogue name (``"iris"``, ``"moons"``), or an own dataset's private key.
    noise, n_samples, data_seed : float, int, int or None
        A generated set's noise, number of points and seed; None for every other kind.
    """

    kind: SourceKind
    key: str
    noise: float | None = None
    n_samples: int | None = None
    data_seed: int | None = None

    @classmethod
    def table(cls, name: str) -> Source:
        """A table of the catalogue, by name."""
        return cls("table", name)

    @classmethod
    def generated(cls, name: str, noise: float, n_samples: int, data_seed: int) -> Source:
        """A generated set of the catalogue: its name and what it is generated with."""
        return cls("generated", name, float(noise), int(n_samples), int(data_seed))

    @property
    def own(self) -> bool:
        """Whether the rows are a visitor's own (an upload or drawn points)."""
        return self.kind in OWN_KINDS

    def load(self) -> Dataset:
        """The rows this source names.

        Raises
        ------
        RowsGone
            For own rows no session holds any more.
        ValueError
            For a name the catalogue does not have.
        """
        if self.own:
            with _HELD_LOCK:
                rows = _HELD.get(self.key)
            if rows is None:
                raise RowsGone(
                    "This table or these points are no longer in this browser session; "
                    "choose another dataset."
                )
            return rows
        if self.kind == "generated":
            return load_dataset(
                self.key,
                noise=self.noise,
                n_samples=self.n_samples,
                random_state=self.data_seed or 0,
            )
        return load_dataset(self.key)


def hold(key: str, rows: Dataset) -> None:
    """Let :meth:`Source.load` find ``rows`` by their private ``key`` while anything keeps them.

    The session that made the rows keeps them (its registry of own data); once it lets them
    go, so does this registry.
    """
    with _HELD_LOCK:
        _HELD[key] = rows


__all__ = ["OWN_KINDS", "RowsGone", "Source", "SourceKind", "hold"]
