"""core/app/settings/values.py: what a widget holds for a setting, and the range it draws."""

from __future__ import annotations

import pytest

from core.app.settings import TABLE, Setting, from_widget, to_widget


def _id(entry: Setting) -> str:
    return f"{entry.name}@{'+'.join(entry.defaults)}"


@pytest.mark.parametrize("entry", [e for e in TABLE if e.none], ids=_id)
def test_none_is_shown_under_its_label_and_comes_back_as_none(entry):
    assert entry.to_widget(None) == entry.none
    assert entry.from_widget(entry.none) is None
    for value in (entry.low, entry.high):
        assert entry.from_widget(entry.to_widget(value)) == value


@pytest.mark.parametrize("entry", [e for e in TABLE if not e.none], ids=_id)
def test_a_setting_without_a_none_label_hands_values_over_as_they_are(entry):
    for value in (None, entry.low, *entry.options):
        assert entry.to_widget(value) == value and entry.from_widget(value) == value


def test_the_converters_by_name_are_the_entrys():
    assert to_widget("max_depth", None) == "no limit"
    assert from_widget("max_depth", "no limit") is None
    assert to_widget("step", None) == "the whole tree"
    assert from_widget("step", 3) == 3
    assert to_widget("sample", None) is None  # its label is "": no control offers None
    assert to_widget("not_a_setting", None) is None


@pytest.mark.parametrize("entry", TABLE, ids=_id)
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_every_widgets_range_is_within_the_settings_limits(entry, task):
    low, top = entry.span(task)
    assert low == entry.low
    assert low <= top <= entry.high
