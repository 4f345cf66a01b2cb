"""A visitor's own datasets (uploaded tables, drawn points) and the private keys that cache them.

Own data belongs to the browser session that made it: it lives in that session's
:class:`OwnData` registry (in the session's state, see ``core.ui.visit``), never on disk,
never in a list another visitor can read. The pages' caches are shared by every visitor and
keyed by the specs of :mod:`core.app.models`, so own rows are cached under a private key,
never under their public name:

``own-<session token>-<content digest>``

- The public name (``upload-3fa9c2d1``, ``drawn``) is what settings and links hold; it only
  means something in the registry of the session that made it. Another session parsing a
  link with it finds no such dataset and falls back to its default with a notice.
- The session token is 128 random bits made when the session first holds own data, and never
  leaves the server (no widget, URL or message shows it), so no other session can form a key
  that reaches this session's cache entries.
- The content digest (SHA-256 of the arrays and names) changes whenever the rows do (another
  target column, one more drawn point), so a cached model always matches the rows it was
  grown on.

The entries such keys make are bounded like every other: each cache has ``max_entries``, and
the oldest entries go first. A registry holds at most :data:`MAX_UPLOADS` uploads and one set
of drawn points.

The module is pure: no Streamlit, so it is unit-tested on its own.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from core.app.settings import DatasetShape
from core.data.datasets import Dataset
from core.data.source import hold

OwnKind: TypeAlias = Literal["upload", "drawn"]

#: Uploads one session keeps; a new one beyond this drops the oldest.
MAX_UPLOADS = 3
#: The public name of a session's drawn points (one set per session).
DRAWN = "drawn"
_KEY_PREFIX = "own-"


def content_digest(data: Dataset) -> str:
    """A SHA-256 digest of everything that makes ``data``'s rows (hex, 32 characters)."""
    digest = hashlib.sha256()
    for part in (
        data.task,
        repr(data.X.shape),
        repr(data.feature_names),
        data.target_name,
        repr(data.class_names),
        repr(data.categories),
    ):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    digest.update(data.X.tobytes())
    digest.update(data.y.tobytes())
    return digest.hexdigest()[:32]


def new_token() -> str:
    """A session's secret: 128 random bits, as hex."""
    return secrets.token_hex(16)


def new_upload_name() -> str:
    """A fresh public name for an upload: random, so two sessions' names never meet."""
    return f"upload-{secrets.token_hex(4)}"


def suggested_pair(data: Dataset) -> tuple[int, int]:
    """The two features a boundary starts with: the first two numeric ones, where there are.

    A one-hot column is a 0/1 axis, a poor picture; with fewer than two numeric features,
    the first two features of any kind (the only one, twice, for a one-feature table).
    """
    numeric = [
        j for j in range(data.n_features) if not data.categories or data.categories[j] is None
    ]
    others = [j for j in range(data.n_features) if j not in numeric]
    first = (numeric + others)[:2]
    return (first[0], first[1]) if len(first) == 2 else (0, 0)


@dataclass(frozen=True, eq=False)
class OwnDataset:
    """One of a session's own datasets.

    Attributes
    ----------
    name : str
        Public name, held by settings and links: ``upload-<8 hex>`` or ``drawn``.
    kind : {"upload", "drawn"}
    data : Dataset
        The rows a tree is grown on.
    key : str
        Private cache key, ``own-<session token>-<content digest>``.
    title : str
        What the picker shows (the file's name for an upload).
    source : Any
        What the rows were made from, when the page still needs it (an upload's table as
        read, to choose another target column); None for drawn points.
    """

    name: str
    kind: OwnKind
    data: Dataset
    key: str
    title: str
    source: Any = None

    @property
    def shape(self) -> DatasetShape:
        """What parsing and the specs need: cached under ``key``, never under ``name``."""
        data = self.data
        return DatasetShape(
            data.task,
            data.n_samples,
            data.n_features,
            suggested_pair(data),
            kind=self.kind,
            title=self.title,
            rows_key=self.key,
        )


@dataclass(frozen=True)
class OwnData:
    """A session's own datasets, newest last; every change returns a new registry."""

    token: str = field(default_factory=new_token)
    datasets: tuple[OwnDataset, ...] = ()

    def add(
        self, name: str, kind: OwnKind, data: Dataset, title: str, source: Any = None
    ) -> OwnData:
        """The registry with ``data`` under ``name`` (replacing one of that name), newest last.

        Beyond :data:`MAX_UPLOADS` uploads the oldest is dropped.
        """
        key = f"{_KEY_PREFIX}{self.token}-{content_digest(data)}"
        own = OwnDataset(name, kind, data, key, title, source)
        hold(key, data)  # what Source.load finds, while this registry keeps it
        kept = [d for d in self.datasets if d.name != name]
        uploads = [d for d in kept if d.kind == "upload"]
        if kind == "upload" and len(uploads) >= MAX_UPLOADS:
            dropped = {d.name for d in uploads[: len(uploads) - MAX_UPLOADS + 1]}
            kept = [d for d in kept if d.name not in dropped]
        return replace(self, datasets=(*kept, own))

    def remove(self, name: str) -> OwnData:
        return replace(self, datasets=tuple(d for d in self.datasets if d.name != name))

    def get(self, name: str) -> OwnDataset | None:
        return next((d for d in self.datasets if d.name == name), None)

    def catalogue(self) -> dict[str, DatasetShape]:
        """The session's own datasets as catalogue entries, by public name."""
        return {d.name: d.shape for d in self.datasets}


__all__ = [
    "DRAWN",
    "MAX_UPLOADS",
    "OwnData",
    "OwnDataset",
    "OwnKind",
    "content_digest",
    "new_token",
    "new_upload_name",
    "suggested_pair",
]
