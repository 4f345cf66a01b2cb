"""A class's plain values: codes that cannot be misread, polls a teacher types, and what the
store gives back, garbage included."""

from __future__ import annotations

import pytest

from core.classroom import (
    ALPHABET,
    MOST_OPTIONS,
    OPTION_CHARACTERS,
    QUESTION_CHARACTERS,
    ChoiceAnswer,
    Poll,
    Shown,
    SplitAnswer,
    choice_counts,
    choice_poll,
    clean_code,
    number_poll,
    read_answer,
)

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})
STEP = Shown("pages/3_Grow_it_step_by_step.py", {"dataset": "iris", "step": "2"})


def split_poll() -> Poll:
    return Poll(0, "split", "Where will the tree split this node?", shown=STEP, node=0)


def test_the_alphabet_has_no_look_alikes() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET)
    assert not set("0OQD1IL2Z5S6G8BUV") & set(ALPHABET)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("KX39PA", "KX39PA"),
        (" kx-3 9pa ", "KX39PA"),
        ("k x 3 9 p a", "KX39PA"),
        ("KX-39-PA", "KX39PA"),
        ("\tkx39pa\n", "KX39PA"),
    ],
)
def test_clean_code_reads_what_a_student_types(typed: str, code: str) -> None:
    assert clean_code(typed) == code


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "   ",
        "---",
        "KX39P",  # too short
        "KX39PAC",  # too long
        "KO39PA",  # O is not in the alphabet (0)
        "K039PA",  # 0
        "KX19PA",  # 1
        "KXS9PA",  # S (5)
        "KXB9PA",  # B (8)
        "ＫＸ３９ＰＡ",  # full-width letters are letters, but not the alphabet's
    ],
)
def test_clean_code_rejects_look_alikes_and_wrong_lengths(typed: str) -> None:
    assert clean_code(typed) is None


def test_choice_poll_trims_what_the_teacher_typed() -> None:
    poll = choice_poll(3, "  Will test\n accuracy   rise? ", [" yes ", "", "  ", "no\tway"])
    assert poll == Poll(3, "choice", "Will test accuracy rise?", ("yes", "no way"))
    long = choice_poll(1, "q" * 500, ["a" * 200] + [f"option {k}" for k in range(10)])
    assert len(long.question) == QUESTION_CHARACTERS
    assert len(long.options) == MOST_OPTIONS
    assert long.options[0] == "a" * OPTION_CHARACTERS
    assert long.options[1:] == tuple(f"option {k}" for k in range(MOST_OPTIONS - 1))
    kept_html = choice_poll(1, "<b>bold?</b>", ["<i>yes</i>", "no"])
    assert kept_html.question == "<b>bold?</b>"  # kept as typed: escaped where it is shown


@pytest.mark.parametrize(
    ("question", "options", "message"),
    [
        ("", ["yes", "no"], "Type a question first."),
        (" \n\t ", ["yes", "no"], "Type a question first."),
        ("Deeper?", ["yes"], "Give at least two answers to choose from, one per line."),
        ("Deeper?", ["yes", " ", ""], "Give at least two answers to choose from, one per line."),
        ("Deeper?", [], "Give at least two answers to choose from, one per line."),
    ],
)
def test_choice_poll_says_what_is_missing(question: str, options: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$".replace("?", r"\?")):
        choice_poll(1, question, options)


def test_polls_and_views_survive_the_store() -> None:
    poll = Poll(2, "split", "Where?", shown=STEP, node=4, revealed=True)
    assert Poll.from_dict(poll.as_dict()) == poll
    choice = choice_poll(1, "Deeper?", ["yes", "no"])
    assert Poll.from_dict(choice.as_dict()) == choice
    assert Shown.from_dict(TREE.as_dict()) == TREE
    assert Shown.from_dict({"page": "app.py"}) == Shown("app.py")


@pytest.mark.parametrize(
    "held",
    [
        None,
        "poll",
        3,
        [],
        {},
        {"kind": "essay", "number": 1, "question": "q"},
        {"kind": "split"},
        {"kind": "split", "question": "q"},
        {"kind": "split", "number": "one", "question": "q"},
        {"kind": "split", "number": None, "question": "q"},
        {"kind": "split", "number": 1, "question": "q", "node": "root"},
        {"kind": "choice", "number": 1, "question": "q", "options": 5},
    ],
)
def test_a_poll_from_garbage_is_none(held: object) -> None:
    assert Poll.from_dict(held) is None


@pytest.mark.parametrize(
    "held",
    [None, "app.py", [], {}, {"page": 3}, {"page": "app.py", "query": ["a"]}],
)
def test_a_view_from_garbage_is_none(held: object) -> None:
    assert Shown.from_dict(held) is None


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[]", '"x"', "{}", '{"feature": "a", "threshold": 1}', '{"feature": 1}'],
)
def test_an_answer_from_garbage_is_none(text: str) -> None:
    assert read_answer(text, split_poll()) is None
    assert read_answer(text, choice_poll(1, "q", ["a", "b"])) is None


@pytest.mark.parametrize(
    "text", ['{"feature": 1e999, "threshold": 1.0}', '{"option": 1e999, "threshold": 1.0}']
)
def test_an_answer_with_an_infinite_number_is_none(text: str) -> None:
    assert read_answer(text, split_poll()) is None
    assert read_answer(text, choice_poll(1, "q", ["a", "b"])) is None


def test_choice_counts_count_each_option_and_nothing_else() -> None:
    poll = choice_poll(1, "Deeper?", ["yes", "no", "it depends"])
    answers = [ChoiceAnswer(0), ChoiceAnswer(2), ChoiceAnswer(2), SplitAnswer(0, 1.0)]
    assert choice_counts(poll, answers) == [1, 0, 2]
    assert choice_counts(poll, [ChoiceAnswer(3), ChoiceAnswer(-1)]) == [0, 0, 0]  # none fits
    assert choice_counts(poll, []) == [0, 0, 0]


def test_a_number_question_carries_its_unit_in_its_words() -> None:
    poll = number_poll("  What test accuracy\n at depth 8? ", unit=" % ")
    assert (poll.kind, poll.question, poll.options) == (
        "number",
        "What test accuracy at depth 8? (in %)",
        (),
    )
    assert number_poll("How many leaves?").question == "How many leaves?"
    long = number_poll("x" * 500, unit="u" * 500)
    assert len(long.question) == QUESTION_CHARACTERS
    assert long.question.endswith(" (in " + "u" * 20 + ")")
    with pytest.raises(ValueError, match="Type a question first"):
        number_poll("   ", unit="%")
