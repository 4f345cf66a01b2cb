"""``bench.follow_cpu --lesson``: a lesson's screen changes, each student's run checked against
the teacher's screen, labelled by the screen it opens."""

from __future__ import annotations

from bench.follow_cpu import LESSON_NAMES, _lesson_moves, teach
from core.classroom.shipped import shipped_plans


def test_a_lesson_goes_next_to_its_last_screen_and_previous_back_to_its_first() -> None:
    count = len(shipped_plans()["how-a-tree-grows"].screens)
    labels = [label for label, _ in _lesson_moves("how-a-tree-grows")]
    assert labels == [f"screen {n}" for n in range(2, count + 1)] + [
        f"back to screen {n}" for n in range(count - 1, 0, -1)
    ]


def test_every_student_run_shows_the_screen_the_teacher_moved_to() -> None:
    plan = shipped_plans()["how-a-tree-grows"]
    result = teach(followers=1, rounds=1, lesson="how-a-tree-grows")
    pages = [page for page, _, _ in result.runs]
    # One run per change; each ran the page of the screen it names (teach raises on a student
    # whose page or settings differ from the teacher's).
    expected = [
        f"{plan.screens[n - 1].page.url_path}, {label}"
        for label, n in [(f"screen {n}", n) for n in range(2, len(plan.screens) + 1)]
        + [(f"back to screen {n}", n) for n in range(len(plan.screens) - 1, 0, -1)]
    ]
    assert pages == expected
    assert all(seconds > 0 for _, _, seconds in result.runs)
    assert "screen" in LESSON_NAMES
