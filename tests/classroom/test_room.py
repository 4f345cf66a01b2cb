"""The class over the in-process store: the teacher's secret, polls and answers, seats and
expiry, with a clock the tests move by hand."""

from __future__ import annotations

import threading

import pytest

from core.classroom import (
    ALPHABET,
    CLASS_TTL,
    CODE_LENGTH,
    SEAT_ALIVE,
    ChoiceAnswer,
    Classroom,
    ClassState,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    SplitAnswer,
    Teacher,
    choice_poll,
    clean_code,
    seat_token,
)
from core.classroom.store import MemoryStore
from tests.hand_clock import HandClock

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})
DEEPER = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "4"})
STEP = Shown("pages/3_Grow_it_step_by_step.py", {"dataset": "iris", "step": "2"})


@pytest.fixture
def clock() -> HandClock:
    return HandClock()


@pytest.fixture
def store(clock: HandClock) -> MemoryStore:
    return MemoryStore(clock=clock)


@pytest.fixture
def room(store: MemoryStore, clock: HandClock) -> Classroom:
    return Classroom(store, clock=clock)


def keys_of(code: str, polls: int = 0) -> list[str]:
    """Every key a class writes (the module's docstring lists them)."""
    base = f"arb:class:{code}"
    return [base, f"{base}:v", f"{base}:seats"] + [f"{base}:poll:{n}" for n in range(1, polls + 1)]


def split_poll() -> Poll:
    return Poll(0, "split", "Where will the tree split this node?", shown=STEP, node=0)


def test_codes_use_only_the_alphabet_and_the_length(room: Classroom) -> None:
    codes = [room.start().code for _ in range(200)]
    assert len(set(codes)) == 200
    for code in codes:
        assert len(code) == CODE_LENGTH
        assert set(code) <= set(ALPHABET)
        assert clean_code(code) == code


def test_a_started_class_exists_with_a_version(room: Classroom) -> None:
    teacher = room.start(TREE)
    assert room.exists(teacher.code)
    version = room.version(teacher.code)
    assert version is not None and version >= 1
    state = room.state(teacher.code)
    assert state == ClassState(teacher.code, version, TREE, None)
    assert not room.exists("AAAAA") and room.version("AAAAA") is None
    with pytest.raises(NoClass):
        room.state("AAAAA")


def test_show_bumps_the_version_only_when_the_view_changes(room: Classroom) -> None:
    teacher = room.start()
    first = room.version(teacher.code) or 0
    shown = room.show(teacher, TREE)
    assert shown == room.version(teacher.code) and shown > first
    # The same view again (a query dict equal to the stored one): no change, no bump.
    assert room.show(teacher, Shown(TREE.page, dict(TREE.query))) == shown
    assert room.version(teacher.code) == shown
    deeper = room.show(teacher, DEEPER)
    assert deeper > shown
    assert room.state(teacher.code).shown == DEEPER


def test_a_wrong_secret_changes_nothing(room: Classroom, store: MemoryStore) -> None:
    teacher = room.start(TREE)
    room.ask(teacher, split_poll())
    version = room.version(teacher.code)
    guess = Teacher(teacher.code, "guess")
    changes = [
        lambda: room.show(guess, DEEPER),
        lambda: room.ask(guess, split_poll()),
        lambda: room.reveal(guess),
        lambda: room.close_poll(guess),
        lambda: room.end(guess),
    ]
    for change in changes:
        with pytest.raises(NotTeacher):
            change()
    assert room.version(teacher.code) == version
    state = room.state(teacher.code)
    assert state.shown == TREE and state.poll is not None and not state.poll.revealed
    # Even the right secret of another class does not open this one.
    other = room.start()
    with pytest.raises(NotTeacher):
        room.show(Teacher(teacher.code, other.secret), DEEPER)


def test_the_store_never_holds_the_secret_in_clear(room: Classroom, store: MemoryStore) -> None:
    teacher = room.start(TREE)
    room.show(teacher, DEEPER)
    poll = room.ask(teacher, split_poll())
    room.check_in(teacher.code, "seat-a")
    room.answer(teacher.code, poll, "seat-a", SplitAnswer(2, 2.45))
    room.reveal(teacher)
    held = [store.get(key) or "" for key in keys_of(teacher.code, polls=1)]
    held += [repr(store.fields(key)) for key in keys_of(teacher.code, polls=1)]
    assert held[0]  # the record is there...
    assert all(teacher.secret not in text for text in held)  # ...without the secret
    assert teacher.secret[:8] not in "".join(held)


def test_polls_are_numbered_one_two_three(room: Classroom) -> None:
    teacher = room.start()
    asked = [room.ask(teacher, split_poll()) for _ in range(3)]
    assert [poll.number for poll in asked] == [1, 2, 3]
    # A poll asked as revealed opens unrevealed; the open one is the one the class sees.
    fourth = room.ask(teacher, Poll(99, "choice", "Deeper?", ("yes", "no"), revealed=True))
    assert (fourth.number, fourth.revealed) == (4, False)
    assert room.state(teacher.code).poll == fourth


def test_reveal_and_close_bump_the_version_once(room: Classroom) -> None:
    teacher = room.start()
    room.ask(teacher, split_poll())
    before = room.version(teacher.code) or 0
    room.reveal(teacher)
    revealed = room.state(teacher.code)
    assert revealed.version == before + 1
    assert revealed.poll is not None and revealed.poll.revealed
    room.reveal(teacher)  # already revealed: nothing to tell the class
    assert room.version(teacher.code) == before + 1
    room.close_poll(teacher)
    assert room.state(teacher.code).poll is None
    room.close_poll(teacher)
    assert room.version(teacher.code) == before + 2


def test_one_answer_per_seat_and_a_second_replaces_the_first(room: Classroom) -> None:
    teacher = room.start(STEP)
    poll = room.ask(teacher, split_poll())
    room.answer(teacher.code, poll, "seat-a", SplitAnswer(2, 2.0))
    room.answer(teacher.code, poll, "seat-b", SplitAnswer(3, 0.8))
    room.answer(teacher.code, poll, "seat-a", SplitAnswer(2, 2.45))
    assert room.answers(teacher.code, poll) == {
        "seat-a": SplitAnswer(2, 2.45),
        "seat-b": SplitAnswer(3, 0.8),
    }


def test_answers_to_a_closed_revealed_or_other_poll_are_refused(room: Classroom) -> None:
    teacher = room.start(STEP)
    first = room.ask(teacher, split_poll())
    second = room.ask(teacher, split_poll())
    with pytest.raises(ValueError, match="This question is closed"):
        room.answer(teacher.code, first, "seat-a", SplitAnswer(0, 1.0))
    room.reveal(teacher)
    with pytest.raises(ValueError, match="This question is closed"):
        room.answer(teacher.code, second, "seat-a", SplitAnswer(0, 1.0))
    third = room.ask(teacher, split_poll())
    room.close_poll(teacher)
    with pytest.raises(ValueError, match="This question is closed"):
        room.answer(teacher.code, third, "seat-a", SplitAnswer(0, 1.0))
    assert all(not room.answers(teacher.code, p) for p in (first, second, third))


@pytest.mark.parametrize("option", [-1, 2, 3])
def test_a_choice_out_of_range_is_refused(room: Classroom, option: int) -> None:
    teacher = room.start()
    poll = room.ask(teacher, choice_poll(0, "Deeper?", ["yes", "no"]))
    with pytest.raises(ValueError, match="does not fit the question"):
        room.answer(teacher.code, poll, "seat-a", ChoiceAnswer(option))
    room.answer(teacher.code, poll, "seat-a", ChoiceAnswer(1))
    assert room.answers(teacher.code, poll) == {"seat-a": ChoiceAnswer(1)}


@pytest.mark.parametrize("threshold", [float("nan"), float("inf"), float("-inf")])
def test_a_split_without_a_finite_threshold_is_refused(room: Classroom, threshold: float) -> None:
    teacher = room.start()
    poll = room.ask(teacher, split_poll())
    with pytest.raises(ValueError, match="does not fit the question"):
        room.answer(teacher.code, poll, "seat-a", SplitAnswer(0, threshold))
    assert room.answers(teacher.code, poll) == {}


def test_an_answer_of_the_other_kind_is_refused(room: Classroom) -> None:
    teacher = room.start()
    split = room.ask(teacher, split_poll())
    with pytest.raises(ValueError, match="does not fit"):
        room.answer(teacher.code, split, "seat-a", ChoiceAnswer(0))
    choice = room.ask(teacher, choice_poll(0, "Deeper?", ["yes", "no"]))
    with pytest.raises(ValueError, match="does not fit"):
        room.answer(teacher.code, choice, "seat-a", SplitAnswer(0, 1.0))


def test_an_answer_to_an_ended_class_raises_no_class(room: Classroom) -> None:
    teacher = room.start()
    poll = room.ask(teacher, split_poll())
    room.end(teacher)
    with pytest.raises(NoClass):
        room.answer(teacher.code, poll, "seat-a", SplitAnswer(0, 1.0))


def test_thirty_seats_answering_at_once_are_thirty_answers(room: Classroom) -> None:
    teacher = room.start(STEP)
    poll = room.ask(teacher, split_poll())
    seats = [seat_token() for _ in range(30)]
    start = threading.Barrier(30)
    errors: list[BaseException] = []

    def answer(k: int) -> None:
        try:
            start.wait()
            room.check_in(teacher.code, seats[k])
            room.answer(teacher.code, poll, seats[k], SplitAnswer(k % 4, float(k)))
        except BaseException as error:  # a thread's failure, reported in the test below
            errors.append(error)

    threads = [threading.Thread(target=answer, args=(k,)) for k in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    answers = room.answers(teacher.code, poll)
    assert len(answers) == 30
    assert answers == {seats[k]: SplitAnswer(k % 4, float(k)) for k in range(30)}
    assert room.students(teacher.code) == 30


def test_stored_answers_that_do_not_fit_are_left_out(room: Classroom, store: MemoryStore) -> None:
    teacher = room.start()
    poll = room.ask(teacher, choice_poll(0, "Deeper?", ["yes", "no"]))
    room.answer(teacher.code, poll, "seat-a", ChoiceAnswer(0))
    store.put_field(f"arb:class:{teacher.code}:poll:1", "seat-b", "not json", CLASS_TTL)
    store.put_field(f"arb:class:{teacher.code}:poll:1", "seat-c", '{"option": 7}', CLASS_TTL)
    assert room.answers(teacher.code, poll) == {"seat-a": ChoiceAnswer(0)}


def test_students_are_the_seats_seen_lately(room: Classroom, clock: HandClock) -> None:
    teacher = room.start()
    code = teacher.code
    assert room.students(code) == 0
    for seat in ("a", "b", "c"):
        room.check_in(code, seat)
    assert room.students(code) == 3
    clock.advance(SEAT_ALIVE / 2)
    room.check_in(code, "a")
    clock.advance(SEAT_ALIVE / 2 + 1)  # b and c last seen SEAT_ALIVE + 1 s ago
    assert room.students(code) == 1
    room.check_in(code, "b")
    assert room.students(code) == 2
    room.leave(code, "a")
    assert room.students(code) == 1
    room.leave(code, "b")
    assert room.students(code) == 0


def test_end_removes_every_key(room: Classroom, store: MemoryStore) -> None:
    teacher = room.start(TREE)
    for _ in range(2):
        poll = room.ask(teacher, split_poll())
        room.answer(teacher.code, poll, "seat-a", SplitAnswer(0, 1.0))
    room.check_in(teacher.code, "seat-a")
    other = room.start(TREE)
    room.end(teacher)
    for key in keys_of(teacher.code, polls=2):
        assert store.get(key) is None and store.fields(key) == {}
    assert room.version(teacher.code) is None and not room.exists(teacher.code)
    with pytest.raises(NoClass):
        room.state(teacher.code)
    with pytest.raises(NoClass):
        room.show(teacher, DEEPER)
    assert room.exists(other.code)  # another class goes on


def test_a_class_left_alone_expires(room: Classroom, clock: HandClock) -> None:
    teacher = room.start(TREE)
    clock.advance(CLASS_TTL / 2)
    room.show(teacher, DEEPER)  # the teacher's change keeps it for another CLASS_TTL
    clock.advance(CLASS_TTL - 1)
    assert room.exists(teacher.code)
    room.check_in(teacher.code, "seat-a")  # a student's check-in does not keep it
    clock.advance(2)
    assert not room.exists(teacher.code)
    assert room.version(teacher.code) is None
    with pytest.raises(NoClass):
        room.state(teacher.code)
