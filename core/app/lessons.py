"""Ready-made classroom links: a page in an exact state, and what students should look at.

Each lesson names its page and the settings it differs in; the rest are the page's defaults,
with the dataset's suggested feature pair (from the manifest), so a lesson is data, not code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.app.pages import GINI_VS_ENTROPY, GROW_STEP_BY_STEP, RANDOM_FOREST, SINGLE_TREE, Page
from core.app.settings import Catalogue, Settings, with_dataset


@dataclass(frozen=True)
class Lesson:
    """What a classroom link shows: a title, the lesson, the page and its changed settings."""

    title: str
    lesson: str
    page: Page
    values: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class ClassroomLink:
    """A lesson made concrete: its page and the full settings the link carries."""

    title: str
    lesson: str
    page: Page
    settings: Settings


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "One question sorts out setosa",
        "A single split on petal size already isolates one species of iris.",
        SINGLE_TREE,
        (("dataset", "iris"), ("max_depth", 1)),
    ),
    Lesson(
        "A deep tree overfits breast cancer",
        "With no depth limit training accuracy hits 100%, test accuracy does not, and the "
        "boundary breaks into islands around single patients.",
        SINGLE_TREE,
        (("dataset", "breast_cancer"), ("max_depth", None)),
    ),
    Lesson(
        "Pruning tames the deep tree",
        "The same unlimited tree with cost-complexity pruning: fewer leaves, a calmer boundary, "
        "and test accuracy at least as good.",
        SINGLE_TREE,
        (("dataset", "breast_cancer"), ("max_depth", None), ("ccp_alpha", 0.01)),
    ),
    Lesson(
        "A single tree fits the sine in steps",
        "A regression tree predicts one constant per leaf, so its fit is a staircase.",
        SINGLE_TREE,
        (("dataset", "sine"), ("max_depth", 4)),
    ),
    Lesson(
        "Gini vs entropy on Wine",
        "Same data, same seed: Gini asks about proline first, entropy about flavanoids, yet "
        "the two trees agree on most wines and score alike.",
        GINI_VS_ENTROPY,
        (("dataset", "wine"), ("max_depth", 4)),
    ),
    Lesson(
        "A forest smooths the sine",
        "One tree of depth 3 is a coarse staircase; averaging 200 of them, each grown on its "
        "own bootstrap sample, gives a much smoother curve and a better test score.",
        RANDOM_FOREST,
        (("dataset", "sine"), ("n_estimators", 200), ("max_depth", 3)),
    ),
    Lesson(
        "Out-of-bag tracks test accuracy",
        "Each tree is scored on the rows its bootstrap sample left out: a free estimate of "
        "test accuracy, without touching the test set.",
        RANDOM_FOREST,
        (("dataset", "breast_cancer"), ("n_estimators", 300), ("fit", "all")),
    ),
    Lesson(
        "Watch a Wine tree grow",
        "One split at a time, the most useful first: after three splits the tree already "
        "sorts nine wines in ten; the seven splits after them only tidy up small groups, and "
        "test accuracy does not improve.",
        GROW_STEP_BY_STEP,
        (("dataset", "wine"), ("step", 3)),
    ),
)


def classroom_links(catalogue: Catalogue) -> tuple[ClassroomLink, ...]:
    """Every lesson with its page's full settings, on the datasets of ``catalogue``."""
    links = []
    for lesson in LESSONS:
        if lesson.page.settings is None:
            raise ValueError(f"lesson {lesson.title!r}: its page has no settings to set")
        values = dict(lesson.values)
        settings = with_dataset(lesson.page.settings(), values.pop("dataset"), catalogue)
        links.append(
            ClassroomLink(lesson.title, lesson.lesson, lesson.page, settings.replace(**values))
        )
    return tuple(links)


__all__ = ["LESSONS", "ClassroomLink", "Lesson", "classroom_links"]
