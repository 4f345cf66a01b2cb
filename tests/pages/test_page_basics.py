"""Every page with every dataset: it runs, shows its diagram and charts, and writes its URL."""

from __future__ import annotations

import inspect
import re
import textwrap
from urllib.parse import urlencode

import numpy as np
import pytest
from page_helpers import (
    GINI_VS_ENTROPY,
    HOME,
    PAGE_FILES,
    RANDOM_FOREST,
    SINGLE_TREE,
    assert_healthy,
    block,
    chart_spec,
    how_computed_code,
    open_page,
    raw_query_of,
    svg,
    values,
)

from core.app.lessons import ARTICLES, classroom_links
from core.app.pages import PAGES
from core.app.pages import SINGLE_TREE as SINGLE_TREE_PAGE
from core.app.settings import default_catalogue, parse, to_query
from core.data.catalogue import list_datasets
from core.figures.fold import PROJECTOR_COLUMN, readable, svg_size, text_px

CLASSROOM_LINKS = classroom_links(default_catalogue())
ARTICLE_LINKS = classroom_links(default_catalogue(), ARTICLES)

DATASETS = [info.name for info in list_datasets()]
CLASSIFICATION = [info.name for info in list_datasets() if info.task == "classification"]
CASES = [
    (page, name)
    for page in PAGES
    if page.settings is not None
    for name in (CLASSIFICATION if page.settings.classification_only else DATASETS)
]

# The charts each page must show, by container key; the regression view of a page has no
# second boundary, the Gini page has no regression view.
CHARTS = {
    "Single_tree": {"boundary-chart"},
    "Random_forest": {
        "forest-curve",
        "importances",
        "boundary-chart",
        "votes",
        "forest-tree-chart",
    },
    "Gini_vs_entropy": {"boundary-gini", "boundary-entropy", "impurity-curves", "depth-curves"},
    "Grow_it_step_by_step": {"step-boundary", "split-scan"},
}
DIAGRAMS = {
    "Single_tree": ("tree-diagram",),
    "Random_forest": ("tree-diagram",),
    "Gini_vs_entropy": ("tree-gini", "tree-entropy"),
    "Grow_it_step_by_step": ("tree-diagram",),
}


@pytest.mark.parametrize(("page", "dataset"), CASES, ids=[f"{p.url_path}-{d}" for p, d in CASES])
def test_page_runs_with_every_dataset(page, dataset):
    app = open_page(PAGE_FILES[page.url_path], dataset=dataset)
    assert_healthy(app)
    assert not app.warning, "a clean link must not show a notice"
    for key in CHARTS[page.url_path]:
        assert chart_spec(app, key)["data"], f"{key} is empty"
    for key in DIAGRAMS[page.url_path]:
        drawing = svg(app, key)
        assert "</svg>" in drawing
        # Its leaves name what they predict, unless a deep tree's leaves are folded away.
        assert "predict" in drawing or "more node" in drawing, "no leaf and no fold"
    # The URL now spells out every setting, so a copied link reproduces this view.
    expected, _ = parse(page.settings, {"dataset": dataset}, default_catalogue())
    assert raw_query_of(app) == to_query(expected)


@pytest.mark.parametrize("dataset", ["iris", "sine"])
def test_split_scan_is_computed_only_once_its_expander_is_open(dataset):
    app = open_page(SINGLE_TREE, dataset=dataset)
    assert not [b for b in app.container if b.proto.id.endswith("-split-scan")]
    app.session_state["why-split"] = True  # what clicking the expander open does
    app.run()
    assert_healthy(app)
    scan = chart_spec(app, "split-scan")
    assert scan["data"], "the split scan has no curves"


def test_single_tree_draws_the_regression_fit_for_the_sine():
    app = open_page(SINGLE_TREE, dataset="sine")
    traces = chart_spec(app, "boundary-chart")["data"]
    assert any(t.get("mode") == "lines" and t.get("name") == "this tree" for t in traces)
    assert app.subheader.values.count("The fit over the data") == 1


def test_random_forest_sets_a_single_tree_beside_the_forest():
    app = open_page(RANDOM_FOREST, dataset="wine", n_estimators="20")
    lone = chart_spec(app, "lone-boundary-chart")
    forest = chart_spec(app, "boundary-chart")
    assert lone["layout"]["title"]["text"] == "One tree"
    assert forest["layout"]["title"]["text"] == "Forest of 20"


def test_random_forest_draws_the_opened_tree_over_the_data_beside_its_diagram():
    # Issue 12: the tree drawn and the fit it makes, side by side, for the tree asked for.
    fits = {}
    for tree in ("3", "4"):
        app = open_page(RANDOM_FOREST, dataset="sine", n_estimators="20", tree=tree)
        assert_healthy(app)
        lines = [
            t for t in chart_spec(app, "forest-tree-chart")["data"] if t.get("mode") == "lines"
        ]
        assert [line["name"] for line in lines] == [f"Tree {tree}"]
        fits[tree] = values(lines[0]["y"])
        assert f"Tree {tree} alone over the same data" in " ".join(c.value for c in app.caption)
    assert not np.array_equal(fits["3"], fits["4"]), "two trees of a forest drew the same fit"


def test_share_box_shows_the_link_of_this_exact_view():
    app = open_page(SINGLE_TREE, dataset="wine", max_depth="5")
    code = block(app, "share-link").code[0].value
    assert code.endswith("?" + urlencode(raw_query_of(app)))
    assert "max_depth=5" in code and "dataset=wine" in code


@pytest.mark.parametrize("path", PAGE_FILES.values(), ids=PAGE_FILES.keys())
def test_every_page_explains_itself_with_real_source(path):
    app = open_page(path)
    assert "What to notice." in block(app, "what-to-notice").info[0].value
    sources = how_computed_code(app)
    assert sources, "the expander must show source code"
    assert all(source.startswith(("def ", "@")) for source in sources)


def test_how_it_is_computed_is_made_only_while_it_is_open():
    # A closed expander's code is neither made nor sent: most of a class never opens it.
    app = open_page(SINGLE_TREE)
    codes = re.compile(r"\$\$ID-[0-9a-f]+-how-computed-code")
    assert not [b for b in app.container if codes.fullmatch(b.proto.id)]
    closed = len(app.code)
    sources = how_computed_code(app)
    assert len(app.code) == closed + len(sources) and sources
    app.session_state["how-computed"] = False
    app.run()
    assert len(app.code) == closed


def test_the_shown_source_is_the_engines_own():
    from core import RandomForestClassifier
    from core.engine.grow import grow_tree
    from core.engine.scan import score_splits
    from core.engine.walk import forest_path_changes

    app = open_page(RANDOM_FOREST)
    sources = how_computed_code(app)
    for function in (RandomForestClassifier.staged_scores, forest_path_changes):
        assert textwrap.dedent(inspect.getsource(function)).strip() in sources
    # Issue 9: the single tree shows the functions doing the work, not a one-line wrapper.
    app = open_page(SINGLE_TREE)
    sources = how_computed_code(app)
    # Issue 18: the loop that grows every tree, and the scan it runs at every node.
    for function in (grow_tree, score_splits):
        assert textwrap.dedent(inspect.getsource(function)).strip() in sources


def test_home_page_shows_every_dataset_and_the_classroom_links():
    app = open_page(HOME)
    assert_healthy(app)
    for info in list_datasets():
        card = block(app, f"dataset-{info.name}")
        assert info.title in card.markdown[0].value
        assert f"{info.n_samples} rows" in card.caption[0].value
        # Issue 12: the README says to pick a card, so a card opens a page on its dataset.
        (opens,) = card.get("page_link")
        assert opens.proto.page == SINGLE_TREE_PAGE.url_path
        assert opens.proto.query_string == urlencode({"dataset": info.name})
    links = {link.proto.label: link.proto for link in app.get("page_link")}
    for link in (*CLASSROOM_LINKS, *ARTICLE_LINKS):
        shown = links[link.title]
        assert shown.page == link.page.url_path
        assert shown.query_string == urlencode(to_query(link.settings))


@pytest.mark.parametrize("link", ARTICLE_LINKS, ids=lambda link: link.title)
def test_an_article_link_shows_the_articles_number(link):
    assert link.shows is not None, "an article's link names the number it reproduces"
    app = open_page(PAGE_FILES[link.page.url_path], **to_query(link.settings))
    assert_healthy(app)
    assert not app.warning
    label, value = link.shows
    shown = {metric.label: metric.value for metric in app.metric}
    assert shown[label] == value
    assert value in link.lesson, "the card says the number the page shows"


@pytest.mark.parametrize("link", CLASSROOM_LINKS, ids=lambda link: link.title)
def test_a_classroom_link_opens_its_page_in_exactly_its_state(link):
    app = open_page(PAGE_FILES[link.page.url_path], **to_query(link.settings))
    assert_healthy(app)
    assert not app.warning
    assert raw_query_of(app) == to_query(link.settings)
    assert app.selectbox(key="dataset").value == link.settings.dataset


@pytest.mark.parametrize("link", CLASSROOM_LINKS, ids=lambda link: link.title)
def test_a_link_in_the_old_long_form_opens_the_same_view_and_shortens(link):
    """Links made before short links wrote every setting, defaults included: they still work."""
    long = to_query(link.settings, full=True)
    assert len(long) > len(to_query(link.settings))
    app = open_page(PAGE_FILES[link.page.url_path], **long)
    assert_healthy(app)
    assert not app.warning
    assert app.session_state["_arboretum"].last == link.settings
    assert raw_query_of(app) == to_query(link.settings), "the address bar shows the short form"


def test_gini_page_only_offers_classification_datasets():
    app = open_page(GINI_VS_ENTROPY)
    tables = [info for info in list_datasets() if info.noise is None]
    assert app.selectbox(key="dataset").options == [info.title for info in tables]
    app.segmented_control(key="data_kind").set_value("generated").run()
    puzzles = [info for info in list_datasets() if info.noise is not None]
    assert app.selectbox(key="dataset").options == [
        info.title for info in puzzles if info.task == "classification"
    ]
    assert "Noisy sine wave" in [info.title for info in puzzles]


def fold_note(app):
    return [c.value for c in app.caption if "grey stacked boxes hold the rest" in c.value]


def test_random_forest_says_levels_are_folded_only_when_they_are():
    iris = open_page(RANDOM_FOREST, dataset="iris", max_depth="1")  # one split: nothing folds
    assert_healthy(iris)
    assert "more node" not in svg(iris)
    assert not fold_note(iris)
    cancer = open_page(RANDOM_FOREST, dataset="breast_cancer")  # two overlapping features
    assert_healthy(cancer)
    assert "more node" in svg(cancer)  # a collapsed marker: "+ 5 more nodes"
    assert len(fold_note(cancer)) == 1


@pytest.mark.parametrize(
    ("path", "key"),
    [
        (SINGLE_TREE, "tree-diagram"),
        (RANDOM_FOREST, "tree-diagram"),
        (GINI_VS_ENTROPY, "tree-gini"),
    ],
)
def test_every_page_folds_a_deep_tree_to_readable_text_and_shows_it_whole_on_request(path, key):
    # Issue 24: at "Fit to the page" node text was 2-5 px on a 1280x720 projector for any tree
    # deeper than about three levels. The readable view draws as many levels as keep 10 px text
    # in a column beside the boundary (426 x 504 px) and folds the rest.
    # Two overlapping features of breast cancer: every page's trees grow deep on them.
    app = open_page(path, dataset="breast_cancer", max_depth="none")
    assert_healthy(app)
    fitted = svg(app, key)
    assert "more node" in fitted
    assert readable(svg_size(fitted)), f"text {text_px(svg_size(fitted), PROJECTOR_COLUMN):.1f} px"
    notes = fold_note(app)
    assert notes

    app.segmented_control(key=f"{key}-size").set_value("whole").run()
    assert_healthy(app)
    whole = svg(app, key)
    assert "more node" not in whole
    assert len(fold_note(app)) == len(notes) - 1  # only this diagram changed
    assert whole.count('class="node"') > fitted.count('class="node"')
    # Fitted into a box 70% of the window tall, where the visitor zooms in on any part.
    assert 'class="arboretum-svg" style="height:70vh"' in whole
    assert "width:100%;height:100%" in whole


def test_sidebar_divider_only_where_page_controls_follow():
    assert not open_page(HOME).sidebar.get("divider")  # nothing follows the page list there
    for path in PAGE_FILES.values():
        assert open_page(path).sidebar.get("divider"), path.name


def test_gini_page_keys_each_sides_metrics():
    app = open_page(GINI_VS_ENTROPY, dataset="iris")
    for criterion in ("gini", "entropy"):
        shown = {m.label: m.value for m in block(app, f"side-{criterion}").metric}
        assert set(shown) == {"Train accuracy", "Test accuracy", "Leaves"}


def test_gini_page_says_when_its_area_agreement_is_of_trees_on_two_features():
    # Issue 24: on breast cancer with all features the page said "agree on the plotted area
    # 100 %" beside "agree on test samples 94.4 %": the first was a slice of the trees. Issue
    # 39: the plot now shows the trees grown on the two plotted features, and says so.
    pair = block(open_page(GINI_VS_ENTROPY, dataset="breast_cancer"), "agreement").metric
    assert [m.label for m in pair][:2] == ["Agree on test samples", "Agree on the plot"]
    on_all = open_page(GINI_VS_ENTROPY, dataset="breast_cancer", fit="all")
    assert_healthy(on_all)
    metrics = block(on_all, "agreement").metric
    assert [m.label for m in metrics][:2] == [
        "Agree on test samples",
        "Agree on the 2-feature plot",
    ]
    assert "not the trees on all features" in metrics[1].proto.help


def test_the_default_single_tree_page_shows_sklearns_test_accuracy():
    # One test flower has petal width 1.7, on the threshold printed "≤ 1.7" (1.69999999, the
    # midpoint of float32 values): it goes right, as in scikit-learn, whose tree on the same
    # split scores 0.947 (tests/app/test_models.py computes it).
    app = open_page(SINGLE_TREE)
    assert_healthy(app)
    shown = {metric.label: metric.value for metric in app.metric}
    assert shown["Test accuracy"] == "0.947"


def test_why_this_split_says_when_another_question_splits_the_rows_equally_well():
    # The default iris tree's root: petal length ≤ 2.45 and petal width ≤ 0.8 both part
    # setosa off alone, and scikit-learn may ask either; the node says so.
    app = open_page(SINGLE_TREE)
    app.session_state["why-split"] = True  # what clicking the expander open does
    app.run()
    assert_healthy(app)
    captions = [c.value.replace("\\", "") for c in block(app, "split-candidates").caption]
    assert any(
        "petal length (cm) ≤ 2.45 and petal width (cm) ≤ 0.8 separate these rows equally well"
        in caption
        for caption in captions
    ), captions
