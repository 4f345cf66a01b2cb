"""The lessons Arboretum ships, each a plain file in ``lesson_files/`` named as its link
names it (``?lesson=how-a-tree-grows``), in the order Home lists them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from core.classroom.plans import LessonPlan, read_plan

FOLDER = Path(__file__).with_name("lesson_files")
#: Home's order: a tree, then a forest, then the criterion.
ORDER = ("how-a-tree-grows", "why-a-forest-beats-a-tree", "does-the-criterion-matter")


@cache
def shipped_plans() -> dict[str, LessonPlan]:
    """Every shipped lesson by name. A shipped file that does not read whole is a bug, so it
    raises here (the tests read them all) rather than open with screens missing."""
    plans: dict[str, LessonPlan] = {}
    for name in ORDER:
        plan, problems = read_plan((FOLDER / f"{name}.toml").read_bytes())
        if plan is None or problems:
            raise ValueError(f"shipped lesson {name}: {problems}")
        plans[name] = plan
    return plans


__all__ = ["FOLDER", "ORDER", "shipped_plans"]
