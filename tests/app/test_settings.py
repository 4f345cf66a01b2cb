"""core/app/settings: settings read from a URL, and written back, never raise on user input."""

from __future__ import annotations

import pytest

from core.app.lessons import classroom_links
from core.app.pages import PAGES
from core.app.settings import (
    SETTINGS,
    DatasetShape,
    GiniEntropySettings,
    RandomForestSettings,
    SingleTreeSettings,
    default_catalogue,
    field_is_valid,
    fit_sample,
    merge,
    parse,
    to_query,
    with_dataset,
)

CATALOGUE = {
    "iris": DatasetShape("classification", 150, 4, (2, 3)),
    "wine": DatasetShape("classification", 178, 13, (6, 12)),
    "sine": DatasetShape("regression", 200, 1, (0, 0), noise=2.5),
}


def test_empty_query_gives_the_defaults_and_no_notice():
    settings, notices = parse(SingleTreeSettings, {}, CATALOGUE)
    assert settings == SingleTreeSettings(x=2, y=3)  # iris's suggested pair, from its manifest
    assert notices == []


@pytest.mark.parametrize("settings_type", SETTINGS)
def test_defaults_round_trip(settings_type):
    settings = settings_type()
    assert parse(settings_type, to_query(settings), CATALOGUE) == (settings, [])


def test_every_field_is_read():
    query = {
        "dataset": "wine",
        "criterion": "entropy",
        "max_depth": "none",
        "min_samples_leaf": "5",
        "ccp_alpha": "0.015",
        "fit": "all",
        "x": "0",
        "y": "12",
        "seed": "42",
        "sample": "7",
        "test_on_tree": "true",
        "min_samples_split": "12",
        "min_impurity_decrease": "0.025",
        "max_features": "5",
        "test_size": "0.4",
        "noise": "6",
        "n_samples": "300",
        "data_seed": "7",
        "view": "map",
        "map_cv": "true",
        "edit": "0~5.1_12~missing",
    }
    settings, notices = parse(SingleTreeSettings, query, CATALOGUE)
    assert notices == []
    assert settings == SingleTreeSettings(
        dataset="wine",
        criterion="entropy",
        max_depth=None,
        min_samples_leaf=5,
        ccp_alpha=0.015,
        fit="all",
        x=0,
        y=12,
        seed=42,
        sample=7,
        test_on_tree=True,
        min_samples_split=12,
        min_impurity_decrease=0.025,
        max_features=5,
        test_size=0.4,
        noise=6.0,
        n_samples=300,
        data_seed=7,
        view="map",
        map_cv=True,
        edit=((0, 5.1), (12, None)),
    )
    assert to_query(settings, full=True) == query


def test_a_link_holds_the_dataset_and_what_differs_from_the_defaults():
    shown, _ = parse(RandomForestSettings, {}, CATALOGUE)
    settings = shown.replace(n_estimators=250, bootstrap=False, max_depth=3)
    query = to_query(settings, CATALOGUE)
    assert query == {
        "dataset": "iris",
        "n_estimators": "250",
        "bootstrap": "false",
        "max_depth": "3",
    }
    assert parse(RandomForestSettings, query, CATALOGUE) == (settings, [])
    assert to_query(shown, CATALOGUE) == {"dataset": "iris"}, "a link is never empty"
    no_limit = parse(SingleTreeSettings, {"max_depth": "none"}, CATALOGUE)[0]
    assert to_query(no_limit, CATALOGUE)["max_depth"] == "none"


def test_full_query_writes_every_setting_as_text():
    query = to_query(RandomForestSettings(max_depth=None), full=True)
    assert query["max_depth"] == "none"
    assert query["bootstrap"] == "true"
    assert set(query) == set(RandomForestSettings.entries)


def test_repeated_names_use_the_last_value_like_st_query_params():
    settings, notices = parse(RandomForestSettings, {"n_estimators": ["10", "20"]}, CATALOGUE)
    assert settings.n_estimators == 20
    assert notices == []


def test_a_missing_pair_uses_the_datasets_suggested_pair():
    settings, _ = parse(SingleTreeSettings, {"dataset": "wine"}, CATALOGUE)
    assert (settings.x, settings.y) == (6, 12)


@pytest.mark.parametrize(
    ("name", "raw", "fallback"),
    [
        ("dataset", "mnist", "iris"),
        ("max_depth", "abc", "3"),
        ("max_depth", "0", "3"),
        ("max_depth", "21", "3"),
        ("min_samples_leaf", "-1", "1"),
        ("ccp_alpha", "nan", "0"),
        ("ccp_alpha", "inf", "0"),
        ("ccp_alpha", "1e9", "0"),
        ("ccp_alpha", "2.5", "0"),
        ("criterion", "log_loss", "gini"),
        ("test_on_tree", "maybe", "false"),
        ("seed", "1.5", "0"),
        ("sample", "9" * 40, "0"),
        ("test_size", "0.05", "0.25"),
        ("test_size", "0.9", "0.25"),
        ("test_size", "nan", "0.25"),
        ("noise", "-1", "2.5"),
        ("noise", "11", "2.5"),
    ],
)
def test_a_bad_value_falls_back_to_its_default_with_a_notice(name, raw, fallback):
    settings, notices = parse(SingleTreeSettings, {"dataset": "iris", name: raw}, CATALOGUE)
    assert to_query(settings, full=True)[name] == fallback
    assert len(notices) == 1
    assert notices[0].startswith(f"{name}:")
    assert notices[0].endswith(f"using {fallback}.")


def test_one_bad_value_keeps_the_good_ones():
    query = {"max_depth": "abc", "criterion": "entropy", "seed": "9"}
    settings, notices = parse(SingleTreeSettings, query, CATALOGUE)
    assert (settings.max_depth, settings.criterion, settings.seed) == (3, "entropy", 9)
    assert len(notices) == 1


def test_a_billion_trees_is_refused():
    settings, notices = parse(RandomForestSettings, {"n_estimators": "1000000000"}, CATALOGUE)
    assert settings.n_estimators == 100
    assert notices == [
        'n_estimators: "1000000000" is not a whole number from 1 to 1000; using 100.'
    ]


@pytest.mark.parametrize(
    "raw",
    [
        "<script>alert(1)</script>",
        "[click](http://evil.example)",
        "![x](http://evil.example/x.png)",
        ":red[big] **bold**",
        "$\\frac{1}{0}$",
        "a" * 10_000,
    ],
)
def test_a_notice_never_echoes_markup(raw):
    _, notices = parse(SingleTreeSettings, {"dataset": raw}, CATALOGUE)
    assert notices == ["dataset: the value given is not one of iris, wine, sine; using iris."]


def test_a_notice_quotes_a_plain_value():
    _, notices = parse(SingleTreeSettings, {"dataset": "mnist"}, CATALOGUE)
    assert notices == ['dataset: "mnist" is not one of iris, wine, sine; using iris.']


def test_unknown_names_are_ignored():
    settings, notices = parse(GiniEntropySettings, {"utm_source": "x", "embed": "true"}, CATALOGUE)
    assert settings == GiniEntropySettings(x=2, y=3)
    assert notices == []


@pytest.mark.parametrize("query", [{"x": "4"}, {"x": "2", "y": "2"}, {"y": "99"}])
def test_an_impossible_pair_falls_back_to_the_suggested_pair(query):
    settings, notices = parse(SingleTreeSettings, {"dataset": "iris", **query}, CATALOGUE)
    assert (settings.x, settings.y) == (2, 3)
    assert len(notices) == 1
    assert "below 4" in notices[0]


def test_a_regression_dataset_has_no_pair_to_choose():
    settings, notices = parse(
        SingleTreeSettings, {"dataset": "sine", "x": "0", "y": "3"}, CATALOGUE
    )
    assert (settings.x, settings.y) == (0, 0)
    assert notices == []


def test_gini_vs_entropy_refuses_a_regression_dataset():
    settings, notices = parse(GiniEntropySettings, {"dataset": "sine"}, CATALOGUE)
    assert settings.dataset == "iris"
    assert notices == [
        "sine is a regression dataset and this page compares classifiers; using iris."
    ]


def test_the_opened_tree_must_exist_in_the_forest():
    settings, notices = parse(RandomForestSettings, {"n_estimators": "5", "tree": "7"}, CATALOGUE)
    assert (settings.n_estimators, settings.tree) == (5, 0)
    assert notices == ["tree must be below n_estimators (5); showing tree 0."]


def test_settings_refuse_invalid_values_when_built_in_code():
    with pytest.raises(ValueError, match=r"max_depth must be a whole number from 1 to 20.*got 0"):
        SingleTreeSettings(max_depth=0)
    with pytest.raises(ValueError, match=r"criterion must be one of gini, entropy"):
        RandomForestSettings(criterion="log_loss")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n_estimators must be .* got 1001"):
        RandomForestSettings(n_estimators=1001)


def test_settings_are_hashable_and_compare_by_value():
    assert hash(SingleTreeSettings(seed=1)) == hash(SingleTreeSettings(seed=1))
    assert len({SingleTreeSettings(), SingleTreeSettings(), SingleTreeSettings(seed=2)}) == 2


def test_slider_float_noise_is_rounded_away():
    assert SingleTreeSettings(ccp_alpha=0.007000000000000001).ccp_alpha == 0.007


def test_with_dataset_moves_to_the_new_datasets_pair_and_first_sample():
    moved = with_dataset(SingleTreeSettings(sample=40), "wine", CATALOGUE)
    assert (moved.dataset, moved.x, moved.y, moved.sample) == ("wine", 6, 12, 0)


def test_with_dataset_drops_a_pruning_strength_too_strong_for_classes():
    moved = with_dataset(SingleTreeSettings(dataset="sine", ccp_alpha=5.0), "iris", CATALOGUE)
    assert moved.ccp_alpha == 0.0
    kept = with_dataset(SingleTreeSettings(ccp_alpha=0.05), "sine", CATALOGUE)
    assert kept.ccp_alpha == 0.05


def test_regression_allows_a_stronger_pruning():
    settings, notices = parse(SingleTreeSettings, {"dataset": "sine", "ccp_alpha": "5"}, CATALOGUE)
    assert (settings.ccp_alpha, notices) == (5.0, [])


def test_fit_sample_checks_the_test_set_size():
    settings = SingleTreeSettings(sample=50)
    assert fit_sample(settings, 51) == (settings, [])
    fitted, notices = fit_sample(settings, 38)
    assert fitted.sample == 0
    assert notices == ["sample must be below 38, the size of this test set; showing sample 0."]


def test_the_real_catalogue_suggests_the_intended_features():
    from core.data.catalogue import load_dataset

    catalogue = default_catalogue()
    assert set(catalogue) >= {"iris", "wine", "breast_cancer", "sine"}

    def names(dataset):
        x, y = catalogue[dataset].pair
        return load_dataset(dataset).feature_names[x], load_dataset(dataset).feature_names[y]

    assert names("iris") == ("petal length (cm)", "petal width (cm)")
    assert names("wine") == ("flavanoids", "proline")
    assert names("breast_cancer") == ("mean radius", "mean texture")
    assert catalogue["sine"].pair == (0, 0)


@pytest.mark.parametrize("link", classroom_links(default_catalogue()), ids=lambda link: link.title)
def test_every_classroom_link_opens_exactly_its_settings(link):
    settings_type = link.settings.form
    query = to_query(link.settings)
    assert parse(settings_type, query, default_catalogue()) == (link.settings, [])
    assert query != to_query(settings_type()), "a classroom link should show something special"


# --- controls that hand back a broken value (issue 12) -------------------------------------


def test_a_stale_label_or_an_empty_choice_is_not_a_valid_value():
    assert not field_is_valid(SingleTreeSettings, "sample", "#0 (row 73, versicolor)")
    assert not field_is_valid(SingleTreeSettings, "criterion", None)
    assert not field_is_valid(RandomForestSettings, "max_features", None)
    assert not field_is_valid(SingleTreeSettings, "seed", True)
    assert field_is_valid(SingleTreeSettings, "max_depth", None)
    assert field_is_valid(SingleTreeSettings, "sample", 3)


def test_merge_falls_back_field_by_field():
    last = RandomForestSettings(dataset="iris", x=2, y=3, n_estimators=100)
    values = {"max_features": None, "n_estimators": 120, "sample": "#1 (row 4, setosa)"}
    merged, rejected = merge(RandomForestSettings, last, values, CATALOGUE)
    assert merged == last.replace(n_estimators=120)
    assert sorted(rejected) == ["max_features", "sample"]


def test_merge_refuses_a_dataset_the_page_cannot_show():
    last = GiniEntropySettings(dataset="iris", x=2, y=3)
    merged, rejected = merge(GiniEntropySettings, last, {"dataset": "sine"}, CATALOGUE)
    assert (merged, rejected) == (last, ["dataset"])


def test_every_page_with_settings_is_in_the_registry_once():
    assert sorted(p.settings.key for p in PAGES if p.settings) == sorted(s.key for s in SETTINGS)
    assert [p.url_path for p in PAGES] == [
        "",
        "Single_tree",
        "Random_forest",
        "Gini_vs_entropy",
        "Grow_it_step_by_step",
    ]


def test_a_link_without_test_size_or_noise_means_the_view_it_always_meant():
    settings, notices = parse(SingleTreeSettings, {"dataset": "sine", "seed": "3"}, CATALOGUE)
    assert notices == []
    assert (settings.test_size, settings.noise) == (0.25, 2.5)


def test_test_size_and_noise_keep_what_a_link_asks_and_survive_a_dataset_change():
    query = {"dataset": "sine", "test_size": "0.35", "noise": "7.5"}
    settings, notices = parse(RandomForestSettings, query, CATALOGUE)
    assert notices == []
    assert (settings.test_size, settings.noise) == (0.35, 7.5)
    moved = with_dataset(settings, "iris", CATALOGUE)
    assert (moved.test_size, moved.noise) == (0.35, 7.5)
    assert to_query(moved, full=True)["test_size"] == "0.35"


def test_slider_float_test_size_is_rounded_away():
    assert SingleTreeSettings(test_size=0.1 + 0.05).test_size == 0.15
    assert to_query(SingleTreeSettings(test_size=0.1 + 0.05), full=True)["test_size"] == "0.15"
