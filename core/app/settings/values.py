"""A setting's rule: its kind and limits, read from a URL, written back, held by a widget.

A :class:`Setting` is one entry of :data:`core.app.settings.table.TABLE`. It checks values
(:meth:`Setting.accepts`), reads them from a link (:meth:`Setting.read`, raising
:class:`Invalid` with the rule in words), writes them back (:meth:`Setting.write`), hands
them to a widget and takes them back (:meth:`Setting.to_widget`, :meth:`Setting.from_widget`,
:meth:`Setting.span`) and to the estimator (:meth:`Setting.argument`), so the rule is stated
once and every way in and out goes through it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from core.app.edits import edits_are_valid, edits_words, read_edits, write_edits
from core.data.datasets import Task

Kind: TypeAlias = Literal["int", "float", "choice", "bool", "features", "values"]
#: The widget that shows a setting; "custom" ones are drawn by a control of their own (their
#: options depend on the dataset or the fitted model).
Widget: TypeAlias = Literal[
    "slider", "select_slider", "selectbox", "segmented", "radio", "toggle", "number", "custom"
]
#: The models a page grows: a tree (``DecisionTree*``) or a forest (``RandomForest*``).
Model: TypeAlias = Literal["tree", "forest"]
#: Where a setting that feeds no estimator goes: a data step (which rows, their split, the
#: columns a model sees: :mod:`core.app.models`) or a view (a figure's parameter, or which
#: tree, sample, node or step a page shows: read by the page and its panels, in ``core.ui``).
Reader: TypeAlias = Literal["data", "view"]


# Longer values are not read at all: nothing valid is this long, and it bounds the work.
_MAX_VALUE_LENGTH = 64
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


class Invalid(ValueError):
    """A value that breaks its setting's rule; the message is the rule in words."""


@dataclass(frozen=True)
class Setting:
    """One setting: its rule, its defaults, how it is shown and what it feeds.

    Attributes
    ----------
    name : the URL's name, the widget's key and the attribute of :class:`Settings`
    defaults : its default on each page (form key) that shows it
    kind : ``int``, ``float`` (both from ``low`` to ``high``), ``choice`` (one of
        ``options``), ``bool``, or ``features`` (one of ``options`` or a whole number
        from ``low`` to ``high``), or ``values`` (feature values, each a number from ``low`` to
        ``high`` or missing: :mod:`core.app.edits`)
    none : when not None, None is allowed too: in a URL it is ``none``, and a control shows
        it under this label ("no limit"; "" when no control offers it)
    most : per task, the largest value that task allows (a link may ask up to ``high``)
    scale : per task, the top of the control's range (the pruning walk may go beyond it)
    labels : how the control names some of its options
    steps, format : a number chosen on a select slider: how many steps up to the top of its
        range, and the format of their labels (Python's format spec)
    estimator : the keyword argument of the estimator it feeds, if any, by scikit-learn's name;
        the model specs of :mod:`core.app.models` are built from these, so an entry naming one
        reaches the estimator with no other edit
    models : the models whose estimator it feeds (a forest's features per split are its
        trees', not those of a lone tree beside it)
    passed_as : values the estimator takes under another name ("all" features is ``None``)
    reads : where a setting that feeds no estimator goes (:data:`Reader`); every entry
        declares one or the other, so no setting changes nothing
    """

    name: str
    defaults: Mapping[str, Any]
    kind: Kind
    low: float = 0
    high: float = 0
    options: tuple[Any, ...] = ()
    none: str | None = None
    label: str = ""
    help: str = ""
    widget: Widget = "custom"
    estimator: str | None = None
    models: tuple[Model, ...] = ("tree", "forest")
    passed_as: Mapping[Any, Any] | None = None
    reads: Reader | None = None
    most: Mapping[Task, float] | None = None
    scale: Mapping[Task, float] | None = None
    labels: Mapping[Any, str] | None = None
    steps: int = 20
    format: str = ""

    @property
    def words(self) -> str:
        """The rule, in words."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.options)
        if self.kind == "values":
            return edits_words(self.high)
        span = f"{self.low:g} to {self.high:g}"
        if self.kind in ("int", "features"):
            span = f"{int(self.low)} to {int(self.high)}"
        if self.kind == "features":
            return f"{', '.join(self.options)} or a whole number from {span}"
        number = "a whole number" if self.kind == "int" else "a number"
        return f"{number} from {span}" + (", or none" if self.none is not None else "")

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (not text) is one this setting can hold."""
        if self.kind == "values":
            return edits_are_valid(value, self.high)
        if value is None:
            return self.none is not None
        if isinstance(value, bool):
            return self.kind == "bool"
        if self.kind in ("choice", "features") and isinstance(value, str):
            return value in self.options
        if self.kind in ("int", "features") and isinstance(value, int):
            return self.low <= value <= self.high
        if self.kind == "float" and isinstance(value, (int, float)):
            return math.isfinite(value) and self.low <= value <= self.high
        return False

    def read(self, raw: str) -> Any:
        """The value ``raw`` (URL text) stands for; raises :class:`Invalid` with the rule."""
        if self.kind == "values":  # a list, longer than any single value
            try:
                return read_edits(raw, self.high)
            except ValueError as error:
                raise Invalid(str(error)) from None
        text = raw.strip().lower()
        if len(raw) > _MAX_VALUE_LENGTH:
            raise Invalid(self.words)
        if self.none is not None and text in ("none", "null", ""):
            return None
        value: Any = text
        if self.kind == "bool":
            if text not in _TRUE + _FALSE:
                raise Invalid(self.words)
            value = text in _TRUE
        elif self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                raise Invalid(self.words) from None
        elif re.fullmatch(r"[+-]?\d{1,12}", text) and self.kind != "choice":
            value = int(text)
        if not self.accepts(value):
            raise Invalid(self.words)
        return round(value, 6) if self.kind == "float" else value

    def write(self, value: Any) -> str:
        """``value`` as URL text; :meth:`read` gives it back."""
        if self.kind == "values":
            return write_edits(value)
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return f"{value:.6g}"
        return str(value)

    def top(self, task: Task) -> float:
        """The top of the control's range for ``task``."""
        return self.scale[task] if self.scale else self.high

    def span(self, task: Task) -> tuple[float, float]:
        """The control's range for ``task``: from the setting's lower limit to :meth:`top`.

        Every widget that draws a range draws this one, so none offers a value the setting
        refuses (a slider from 0 under a lower limit of 0.1 would).
        """
        return self.low, self.top(task)

    def to_widget(self, value: Any) -> Any:
        """``value`` as the widget holds it: None under its label ("no limit").

        A widget cannot hold None as a choice reliably (None means "no choice" to several of
        them), so a setting that may be None shows it under its label in the table.
        """
        return self.none if value is None and self.none else value

    def from_widget(self, value: Any) -> Any:
        """The value a widget's ``value`` stands for; the inverse of :meth:`to_widget`."""
        return None if self.none and value == self.none else value

    def argument(self, value: Any) -> Any:
        """``value`` as the estimator takes it (see ``passed_as``)."""
        return (self.passed_as or {}).get(value, value)

    def show(self, value: Any) -> str:
        """How the control names ``value``."""
        if value is None:
            return self.none or "none"
        return (self.labels or {}).get(value, str(value))
