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
    """What a classroom link shows: a title, the lesson, the page and its changed settings.

    ``shows`` is what the page then shows that the lesson is about, as a metric's label and
    its value (an article's headline number); the tests open the link and read it.
    """

    title: str
    lesson: str
    page: Page
    values: tuple[tuple[str, Any], ...]
    shows: tuple[str, str] | None = None


@dataclass(frozen=True)
class ClassroomLink:
    """A lesson made concrete: its page and the full settings the link carries."""

    title: str
    lesson: str
    page: Page
    settings: Settings
    shows: tuple[str, str] | None = None


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "One question sorts out setosa",
        "A single split on petal size already isolates one species of iris.",
        SINGLE_TREE,
        (("dataset", "iris"), ("max_depth", 1)),
    ),
    Lesson(
        "A deep tree overfits",
        "On breast cancer with no depth limit, training accuracy hits 100%, test accuracy "
        "does not, and the boundary breaks into islands around single patients.",
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
        "Which settings score best?",
        "The parameter map: breast cancer's test accuracy for every max_depth and "
        "min_samples_leaf; a click on a cell grows that tree.",
        SINGLE_TREE,
        (("dataset", "breast_cancer"), ("fit", "all"), ("view", "map")),
    ),
    Lesson(
        "What if a sample changed?",
        "Edit a test sample's values and watch its path, its prediction and its place on the "
        "boundary follow; the bars build the prediction question by question.",
        SINGLE_TREE,
        (("dataset", "breast_cancer"), ("max_depth", 4), ("view", "what-if")),
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
        "Does the criterion matter?",
        "Where Gini and entropy part on Wine and why each picks its question; over 50 "
        "train/test splits the trees part often, yet classify few test rows differently.",
        GINI_VS_ENTROPY,
        (("dataset", "wine"), ("max_depth", 4), ("view", "criterion-matters")),
    ),
    Lesson(
        "A forest smooths the sine",
        "One tree of depth 3 is a coarse staircase; averaging 200 of them, each grown on its "
        "own bootstrap sample, gives a much smoother curve and a better test score.",
        RANDOM_FOREST,
        (("dataset", "sine"), ("n_estimators", 200), ("max_depth", 3)),
    ),
    Lesson(
        "Why averaging beats one deep tree",
        "Twenty deep trees, each grown on its own resample of the sine, chase their own noise "
        "in twenty different staircases; their average is steady, and its error is the trees' "
        "error minus their variance.",
        RANDOM_FOREST,
        (("dataset", "sine"), ("max_depth", None), ("view", "variance")),
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


#: The source articles' own experiments, each with the number it reports. Our train/test
#: split draws other rows than scikit-learn's for the same seed, so each link names the seed
#: that gives the article's number here (the article's other settings are its own).
ARTICLES: tuple[Lesson, ...] = (
    Lesson(
        "Iris, a tree of depth 2",
        "The PyTorch tree article: all four features, 20% held out, max_depth 2, test accuracy "
        "0.967 (29 of 30). Seed 3 draws a test set where it is.",
        SINGLE_TREE,
        (("dataset", "iris"), ("max_depth", 2), ("fit", "all"), ("test_size", 0.2), ("seed", 3)),
        ("Test accuracy", "0.967"),
    ),
    Lesson(
        "Breast cancer, entropy, depth 10",
        "The step-by-step guide: information gain (entropy), max_depth 10, 20% held out, test "
        "accuracy 0.88. Seed 6 gives 0.877 here; other seeds give 0.87 to 0.99.",
        SINGLE_TREE,
        (
            ("dataset", "breast_cancer"),
            ("criterion", "entropy"),
            ("max_depth", 10),
            ("fit", "all"),
            ("test_size", 0.2),
            ("seed", 6),
        ),
        ("Test accuracy", "0.877"),
    ),
    Lesson(
        "A forest of 1 to 1000 trees",
        "The forest article: accuracy against the number of trees, 1 to 1000, on a log axis; "
        "it rises over the first dozens and flattens after a few hundred. Its 47% was on a "
        "14-class accelerometer table we do not ship; here, on Wine (whose tree it draws), one "
        "tree scores 0.889 and the forest 1.000.",
        RANDOM_FOREST,
        (
            ("dataset", "wine"),
            ("n_estimators", 1000),
            ("fit", "all"),
            ("test_size", 0.2),
            ("log_trees", True),
        ),
        ("Test accuracy", "1.000"),
    ),
)


def classroom_links(
    catalogue: Catalogue, lessons: tuple[Lesson, ...] = LESSONS
) -> tuple[ClassroomLink, ...]:
    """Every lesson with its page's full settings, on the datasets of ``catalogue``."""
    links = []
    for lesson in lessons:
        if lesson.page.settings is None:
            raise ValueError(f"lesson {lesson.title!r}: its page has no settings to set")
        values = dict(lesson.values)
        settings = with_dataset(lesson.page.settings(), values.pop("dataset"), catalogue)
        settings = settings.replace(**values)
        links.append(
            ClassroomLink(lesson.title, lesson.lesson, lesson.page, settings, lesson.shows)
        )
    return tuple(links)


__all__ = ["ARTICLES", "LESSONS", "ClassroomLink", "Lesson", "classroom_links"]
