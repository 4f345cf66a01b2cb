"""Every page names its views as data: the lessons a link opens are views its page offers, each
with its notice and the code behind it, and a page imports no engine or figure function."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

from core.app import pages
from core.app.lessons import ARTICLES, LESSONS
from core.app.settings import VIEWS as VIEW_SETTING
from core.ui import views
from core.ui.views import View

ROOT = Path(__file__).resolve().parents[2]
PAGES = [page for page in pages.PAGES if page.settings is not None]


def page_views(page: pages.Page) -> tuple[View, ...]:
    """The views a page script names in its ``VIEWS`` (empty if it names none), read from its
    source: running it would need Streamlit's runtime."""
    tree = ast.parse((ROOT / page.path).read_text(encoding="utf-8"))
    modules = {
        alias.asname or alias.name: importlib.import_module(f"{node.module}.{alias.name}")
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == "core.ui.views"
        for alias in node.names
    }
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "VIEWS":
            assert isinstance(node.value, ast.Tuple)
            named: list[Any] = []
            for element in node.value.elts:  # module.NAME
                assert isinstance(element, ast.Attribute) and isinstance(element.value, ast.Name)
                named.append(getattr(modules[element.value.id], element.attr))
            return tuple(named)
    return ()


def imported_modules(page: pages.Page) -> set[str]:
    tree = ast.parse((ROOT / page.path).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_a_page_imports_no_engine_or_figure_function(page: pages.Page) -> None:
    reaching = {m for m in imported_modules(page) if m.startswith(("core.engine", "core.figures"))}
    assert not reaching, f"{page.path} imports {reaching}: its views list what they use"


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_a_page_stays_a_thin_script(page: pages.Page) -> None:
    lines = (ROOT / page.path).read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120, f"{page.path} has {len(lines)} lines"


def test_every_lesson_link_opens_a_view_its_page_offers() -> None:
    for lesson in (*LESSONS, *ARTICLES):
        name = dict(lesson.values).get("view")
        if name is not None:
            offered = views.offered(page_views(lesson.page))
            assert name in offered, f"{lesson.title!r}: {lesson.page.title} offers {offered}"


def test_every_offered_view_is_a_value_of_the_view_setting() -> None:
    for page in PAGES:
        shown = page_views(page)
        assert len(shown) == 0 or shown[0].name is None, "the page's own view comes first"
        for name in views.offered(shown):
            assert name in VIEW_SETTING, f"{page.title}'s view {name!r} cannot be in a link"


def test_each_view_explains_itself() -> None:
    for page in PAGES:
        for view in page_views(page):
            assert view.title and view.computed_by is not None, view
            if view.computed:
                assert view.computed_by, f"{view.title}: words without code"


#: The expanders each page's own view declares, by widget key (the tests find them so).
SECTION_KEYS = {
    pages.SINGLE_TREE.url_path: ("why-split", "leaves", "pruning", "depth-overlay"),
    pages.RANDOM_FOREST.url_path: ("glance",),
    pages.GINI_VS_ENTROPY.url_path: (),
    pages.GROW_STEP_BY_STEP.url_path: (),
}


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_each_expander_is_a_section_with_its_own_code(page: pages.Page) -> None:
    shown = page_views(page) or (page_view(page),)
    sections = [section for view in shown for section in view.sections]
    assert tuple(s.key for s in sections) == SECTION_KEYS[page.url_path]
    for section in sections:
        assert section.title and section.icon and section.computed, section.key
        assert section.label.format(title=section.title, trees=12).startswith(section.title)
        assert section.computed_by, f"{section.key}: no code"
        for function in section.computed_by:
            assert callable(function) and not inspect.isclass(function), function
            # a real function's source (a numba-compiled one shows its Python loop)
            assert inspect.getsource(function).lstrip().startswith(("def ", "@")), function
            name = function.__name__
            assert f"`{name}`" in section.computed, f"{section.key}: its words skip `{name}`"
        assert callable(section.show) and not inspect.isclass(section.show)


def page_view(page: pages.Page) -> View:
    """The own view of a page that names no ``VIEWS``: the one its script shows and explains."""
    tree = ast.parse((ROOT / page.path).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "views.explain":
            shown = node.args[0]
            assert isinstance(shown, ast.Attribute) and isinstance(shown.value, ast.Name)
            module = next(
                importlib.import_module(f"{imported.module}.{alias.name}")
                for imported in tree.body
                if isinstance(imported, ast.ImportFrom) and imported.module == "core.ui.views"
                for alias in imported.names
                if (alias.asname or alias.name) == shown.value.id
            )
            view: View = getattr(module, shown.attr)
            return view
    raise AssertionError(f"{page.path} explains no view")


def test_offered_and_chosen() -> None:
    shown = page_views(pages.SINGLE_TREE)
    assert views.offered(shown) == {
        "map": "Parameter map",
        "what-if": "What if this sample changed?",
    }
    assert views.chosen(shown, "map") is shown[1]
    assert views.chosen(shown, None) is None
    assert views.chosen(shown, "variance") is None  # another page's view: none of these


def test_a_notice_to_classify_and_one_to_regress() -> None:
    tree = page_views(pages.SINGLE_TREE)[0]
    assert tree.notice_for(True).startswith("Each split is one yes/no question")
    assert tree.notice_for(False).startswith("A regression tree predicts one number per leaf")
    assert page_views(pages.GINI_VS_ENTROPY)[2].notice_for(True) == ""
