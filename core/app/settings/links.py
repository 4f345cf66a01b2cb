"""A page's settings read from and written to the URL.

``parse`` turns a query string (as ``st.query_params`` or ``AppTest.query_params`` hands it
over: ``str`` or ``list[str]`` per key) into settings plus a list of short notices for
whatever had to fall back to its default; ``to_query`` is the inverse, and leaves out what
equals the page's default, so links stay short. Parsing never raises on user input: a stale
or hostile URL gives the defaults and a notice, and a notice never echoes markup from the URL.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from core.app.settings.forms import (
    Catalogue,
    Form,
    Settings,
    dataset_defaults,
    default_catalogue,
)
from core.app.settings.resets import fit_to
from core.app.settings.values import Invalid

Query: TypeAlias = Mapping[str, str | list[str]]
#: How a session's own datasets are named in settings and links (``upload-3fa9c2d1``,
#: ``drawn``). A link naming one cannot be followed anywhere else; parsing says so.
OWN_DATA_NAMES = re.compile(r"upload-[0-9a-f]{1,32}|drawn")


def _shown(raw: str) -> str:
    """A received value, safe to put in a Markdown notice: plain words only, or nothing."""
    if re.fullmatch(r"[A-Za-z0-9.+-]{1,24}", raw):
        return f'"{raw}"'
    return "the value given"


def parse(
    form: Form, query: Query, catalogue: Catalogue | None = None
) -> tuple[Settings, list[str]]:
    """Read a page's settings from a query string, falling back to defaults value by value.

    Parameters
    ----------
    form : one of :data:`SETTINGS`
    query : mapping of name to ``str`` or ``list[str]`` (the last of a repeated name wins,
        as in ``st.query_params``). Names the page does not use are ignored.
    catalogue : the datasets, by name; :func:`default_catalogue` when omitted.

    Returns
    -------
    settings : always valid for its dataset
    notices : one short sentence per value that was ignored, safe to show as Markdown
    """
    catalogue = default_catalogue() if catalogue is None else catalogue
    names = [name for name in catalogue if form.shows(catalogue[name])]
    default_name = form.entries["dataset"].defaults[form.key]
    first = default_name if default_name in names else names[0]
    values: dict[str, Any] = {}
    notices: list[str] = []
    raw_name = _last(query.get("dataset"))
    if raw_name is not None:
        name = raw_name.strip().lower()
        if name in names:
            values["dataset"] = name
        elif name in catalogue:
            notices.append(
                f"{name} is a regression dataset and this page compares classifiers; using {first}."
            )
        elif OWN_DATA_NAMES.fullmatch(name):
            notices.append(
                "This link was made on an uploaded table or on points drawn by hand. They "
                "stay in the browser session that made them, so a link cannot carry them; "
                f"showing {catalogue[first].title or first} instead."
            )
        else:
            notices.append(
                f"dataset: {_shown(raw_name)} is not one of {', '.join(names)}; using {first}."
            )
    shape = catalogue[values.setdefault("dataset", first)]
    defaults = dataset_defaults(shape)
    for name, entry in form.entries.items():
        raw = _last(query.get(name)) if name != "dataset" else None
        if raw is None:
            if name in defaults:
                values[name] = defaults[name]
            continue
        try:
            values[name] = entry.read(raw)
        except Invalid:
            default = defaults.get(name, entry.defaults[form.key])
            notices.append(
                f"{name}: {_shown(raw)} is not {entry.words}; using "
                f"{entry.write(default) or 'none'}."
            )
            if name in defaults:
                values[name] = default
    settings = form(**values)
    resets, more = fit_to(settings, shape)
    return settings.replace(**resets), notices + more


def _last(value: str | list[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value[-1] if value else None


def to_query(
    settings: Settings, catalogue: Catalogue | None = None, *, full: bool = False
) -> dict[str, str]:
    """The settings as URL text, leaving out each value that equals its default.

    The dataset is always written, so a link is never empty. The defaults of the pair, the
    noise and the number of points are the dataset's own (from ``catalogue``, by default
    :func:`default_catalogue`); for a dataset it lacks, every value of those is written.
    ``full`` writes every value.
    """
    form = settings.form
    if full:
        return {name: form.entries[name].write(value) for name, value in settings.items}
    catalogue = default_catalogue() if catalogue is None else catalogue
    shape = catalogue.get(settings.dataset)
    defaults = {name: entry.defaults[form.key] for name, entry in form.entries.items()}
    if shape is None:
        for name in ("x", "y", "noise", "n_samples"):
            defaults.pop(name)
    else:
        defaults.update(dataset_defaults(shape))
    entries = form.entries
    return {
        name: entries[name].write(value)
        for name, value in settings.items
        if name not in defaults or value != defaults[name] or name == "dataset"
    }


def link_meaning(form: Form, query: Query, catalogue: Catalogue | None = None) -> dict[str, str]:
    """What a short link says about each setting: its own text, else the default's.

    The defaults of the pair, the noise and the number of points are the dataset's own, when
    ``catalogue`` (by default :func:`default_catalogue`) has the dataset. Nothing is checked:
    this is the inverse of :func:`to_query`'s shortening, not :func:`parse`.
    """
    catalogue = default_catalogue() if catalogue is None else catalogue
    raw = {name: _last(value) or "" for name, value in query.items()}
    defaults = {name: entry.defaults[form.key] for name, entry in form.entries.items()}
    shape = catalogue.get(raw.get("dataset", defaults["dataset"]))
    if shape is not None:
        defaults.update(dataset_defaults(shape))
    return {
        **{name: form.entries[name].write(value) for name, value in defaults.items()},
        **raw,
    }


# --- the pruning path in a link -------------------------------------------------------------


def alpha_at_least(alpha: float) -> float:
    """The smallest ``ccp_alpha`` a link can hold that is not below ``alpha``.

    Links keep 6 decimals and 6 significant digits. An effective alpha rounded down would
    stop just short of its cut and keep the bigger tree, so it is rounded up instead.
    """
    if alpha <= 0.0:
        return 0.0
    decimals = min(6, 5 - math.floor(math.log10(alpha)))
    held = round(alpha, decimals)
    if held < alpha:
        held = round(held + 10.0**-decimals, decimals)
    return held


def pruning_stops(
    ccp_alphas: Sequence[float], n_leaves: Sequence[int], most: float
) -> tuple[tuple[float, int], ...]:
    """The steps of a pruning path a link can hold: ``(ccp_alpha, leaves kept)`` pairs.

    Parameters
    ----------
    ccp_alphas : non-decreasing effective alphas, 0 first (a pruning path's)
    n_leaves : leaves of the tree kept at each of them
    most : the largest ``ccp_alpha`` allowed (:data:`CCP_ALPHA_MAX` of the task)

    Returns
    -------
    One pair per distinct :func:`alpha_at_least` of an effective alpha up to ``most``, in
    order; its leaves are those of the tree pruning at that value keeps (the last step
    whose effective alpha it reaches, when two cuts round to the same value).
    """
    stops: dict[float, int] = {}
    for alpha, leaves in zip(ccp_alphas, n_leaves, strict=True):
        held = alpha_at_least(float(alpha))
        if held <= most:
            stops[held] = int(leaves)  # a later step rounding to the same value wins
    return tuple(stops.items())
