"""Does the criterion matter? (``Gini_vs_entropy?view=criterion-matters``)

Where the page's two trees part and why, how often it happens over many train/test splits,
and one two-class split counted by hand. :mod:`core.figures.criterion` computes and draws;
this module lays the three out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from core.app.models import ModelView, TreeSpec
from core.app.settings import Settings
from core.app.words import md
from core.figures.criterion import Parting, first_parting, split_lab
from core.figures.criterion_plot import lab_figure, parting_figure, seed_figure
from core.figures.wire import wire_form
from core.ui.built import built_once
from core.ui.cached_curves import STUDY_SEEDS, criterion_study
from core.ui.display import chart


def _question(view: ModelView, feature: int, threshold: float) -> str:
    return f"**{md(view.names[feature])} ≤ {threshold:.4g}**"


def parting_words(parting: Parting, view: ModelView) -> str:
    """Where the trees part and what each criterion asks there, with its numbers."""
    where = (
        "at the root"
        if not parting.path
        else (
            "below "
            + ", then ".join(
                f"{md(view.names[f])} {'≤' if left else '>'} {t:.4g}" for f, t, left in parting.path
            )
        )
    )
    lines = [f"The two trees first part {where}, on {parting.n_samples} training rows."]
    names = {"gini": "Gini", "entropy": "Entropy"}
    for criterion, other in (("gini", "entropy"), ("entropy", "gini")):
        choice = parting.choices[criterion]
        if choice is None:
            lines.append(f"{names[criterion]} stops there: a leaf.")
            continue
        lines.append(
            f"{names[criterion]} asks {_question(view, choice.feature, choice.threshold)}, "
            f"which removes {choice.decrease:.1%} of the node's {criterion}; the "
            f"{other} tree's question would remove {choice.decrease_of_other:.1%} of it."
        )
    lines.append(
        "Each criterion takes the question that lowers its own measure most. Entropy's "
        "logarithm rewards a side that is almost pure more than Gini's squares do, so entropy "
        "tends to carve out a small, nearly pure group, and Gini to split off the largest class; "
        "when two questions are nearly as good, that tilt decides."
    )
    return " ".join(lines)


def criterion_view(
    settings: Settings, view: ModelView, trees: dict[str, Any], spec: TreeSpec, lab: Any
) -> None:
    """The three parts of the view; ``lab`` is the container holding the lab's sliders."""
    st.markdown("#### Where the two trees part")

    def part() -> tuple[Parting | None, dict[str, Any] | None]:
        parting = first_parting(
            trees["gini"],
            trees["entropy"],
            view.X_train,
            view.y_train,
            min_samples_leaf=settings.min_samples_leaf,
        )
        return parting, None if parting is None else wire_form(parting_figure(parting, view.names))

    # Built once beside the two trees: a class's followers each searched for the parting node
    # and drew its candidates again.
    parting, figure = built_once([trees["gini"], trees["entropy"]], "parting", part)
    if parting is None or figure is None:
        st.success(
            "These two trees ask the same questions everywhere: on these rows and settings "
            "the criterion changes nothing.",
            icon=":material/check:",
        )
    else:
        words, picture = st.columns([2, 3], gap="large")
        words.markdown(parting_words(parting, view))
        with picture:
            chart(figure, key="parting-curves")
            st.caption(
                "Share of the node's impurity each candidate question removes, by criterion "
                "(stars: the two picks), against how many rows it sends left. Each is a share "
                "of its own measure, so the two can be laid over each other."
            )
    over_many_splits(spec)
    with lab:
        split_by_hand(settings)


def over_many_splits(spec: TreeSpec) -> None:
    """How often the two trees part over :data:`STUDY_SEEDS` train/test splits, and what it
    changes: the numbers beside their histogram."""
    st.markdown(f"#### Over {STUDY_SEEDS} train/test splits")
    with st.spinner(f"Growing both trees on {STUDY_SEEDS} splits…", show_time=True):
        study = criterion_study(spec)
    numbers, histogram = st.columns([2, 3], gap="large")
    with numbers:
        st.metric("Splits where the roots differ", f"{study.root_differs.mean():.0%}")
        st.metric("Splits where the trees differ anywhere", f"{study.trees_differ.mean():.0%}")
        st.metric(
            "Test rows classified differently",
            f"{study.predictions_differ.mean():.1%}",
            help="Averaged over the splits: the share of a split's test rows the two trees "
            "put in different classes.",
        )
        st.metric(
            "Test accuracy, entropy − Gini",
            f"{100 * study.accuracy_gap.mean():+.1f} points",
            help=f"Mean over the splits; the largest gap either way is "
            f"{100 * np.abs(study.accuracy_gap).max():.1f} points.",
        )
    with histogram:
        chart(seed_figure(study), key="criterion-seeds")
        st.caption(
            f"Each split: seed 0-{STUDY_SEEDS - 1} draws the test rows and the trees' random "
            "choices; the page's other settings stay."
        )


def split_by_hand(settings: Settings) -> None:
    """The lab: a two-class split with the counts of its four sliders, both criteria's
    impurities and gains, in a table beside their bars."""
    left, right = (settings.left_a, settings.left_b), (settings.right_a, settings.right_b)
    sides, gains = split_lab(left, right)
    table, bars = st.columns([2, 3], gap="large")
    with table:
        st.dataframe(
            {
                "": [side.name for side in sides],
                "class A": [side.counts[0] for side in sides],
                "class B": [side.counts[1] for side in sides],
                "Gini": [round(side.gini, 3) for side in sides],
                "entropy": [round(side.entropy, 3) for side in sides],
            },
            hide_index=True,
        )
        st.markdown(
            f"Gain: Gini **{gains['gini']:.3f}** ({gains['gini share']:.0%} of the "
            f"node's), entropy **{gains['entropy']:.3f}** bits ({gains['entropy share']:.0%}"
            " of the node's)."
        )
    with bars:
        chart(lab_figure(sides), key="criterion-lab")
