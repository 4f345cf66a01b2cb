"""The class over the in-process store: codes, the teacher's secret, polls, seats, expiry, and a
session's membership, with a clock the tests move by hand."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from core.classroom import (
    ALPHABET,
    CLASS_TTL,
    CODE_LENGTH,
    JOIN_TRIES,
    JOIN_WINDOW,
    MOST_OPTIONS,
    OPTION_CHARACTERS,
    QUESTION_CHARACTERS,
    SEAT_ALIVE,
    ChoiceAnswer,
    Classroom,
    ClassState,
    Membership,
    NoClass,
    NotTeacher,
    Poll,
    Shown,
    SplitAnswer,
    Teacher,
    choice_poll,
    clean_code,
    may_try_joining,
    read_answer,
    recalled,
    remembered,
    seat_token,
)
from core.classroom.store import MemoryStore

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "3"})
DEEPER = Shown("pages/1_Single_tree.py", {"dataset": "iris", "max_depth": "4"})
STEP = Shown("pages/3_Grow_it_step_by_step.py", {"dataset": "iris", "step": "2"})


class Clock:
    """Seconds that move only when a test moves them (one clock for the store and the class)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> MemoryStore:
    return MemoryStore(clock=clock)


@pytest.fixture
def room(store: MemoryStore, clock: Clock) -> Classroom:
    return Classroom(store, clock=clock)


def keys_of(code: str, polls: int = 0) -> list[str]:
    """Every key a class writes (the module's docstring lists them)."""
    base = f"arb:class:{code}"
    return [base, f"{base}:v", f"{base}:seats"] + [f"{base}:poll:{n}" for n in range(1, polls + 1)]


def split_poll() -> Poll:
    return Poll(0, "split", "Where will the tree split this node?", shown=STEP, node=0)


# --- codes -----------------------------------------------------------------------------------


def test_the_alphabet_has_no_look_alikes() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET)
    assert not set("0OQD1IL2Z5S6G8BUV") & set(ALPHABET)


def test_codes_use_only_the_alphabet_and_the_length(room: Classroom) -> None:
    codes = [room.start().code for _ in range(200)]
    assert len(set(codes)) == 200
    for code in codes:
        assert len(code) == CODE_LENGTH
        assert set(code) <= set(ALPHABET)
        assert clean_code(code) == code


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("KX39P", "KX39P"),
        (" kx-3 9p ", "KX39P"),
        ("k x 3 9 p", "KX39P"),
        ("KX-39-P", "KX39P"),
        ("\tkx39p\n", "KX39P"),
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
        "KX39",  # too short
        "KX39PA",  # too long
        "KO39P",  # O is not in the alphabet (0)
        "K039P",  # 0
        "KX19P",  # 1
        "KXS9P",  # S (5)
        "KXB9P",  # B (8)
        "ＫＸ３９Ｐ",  # full-width letters are letters, but not the alphabet's
    ],
)
def test_clean_code_rejects_look_alikes_and_wrong_lengths(typed: str) -> None:
    assert clean_code(typed) is None


# --- the teacher -----------------------------------------------------------------------------


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


# --- answers ---------------------------------------------------------------------------------


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


# --- seats -----------------------------------------------------------------------------------


def test_students_are_the_seats_seen_lately(room: Classroom, clock: Clock) -> None:
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


# --- the end ---------------------------------------------------------------------------------


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


def test_a_class_left_alone_expires(room: Classroom, clock: Clock) -> None:
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


# --- a session's membership ------------------------------------------------------------------


def test_a_follower_reads_the_state_only_when_the_version_moved() -> None:
    member = Membership("KX39P", "seat")
    assert member.following and not member.teaching
    assert member.needs(None)  # the class is gone: the next read says so
    assert not member.needs(0)
    assert member.needs(3)
    read = member.opening(ClassState("KX39P", 3, TREE, None), here=STEP)
    assert (read.seen, read.pending) == (3, TREE)
    assert not read.needs(3) and read.needs(4)
    # Already on the teacher's view: nothing to open.
    assert read.opening(ClassState("KX39P", 4, TREE, None), here=TREE).pending is None
    assert read.opening(ClassState("KX39P", 4, None, None), here=STEP).pending is None


def test_the_teachers_view_opens_on_its_own_page() -> None:
    member = Membership("KX39P", "seat", landed={"old": "1"})
    member = member.opening(ClassState("KX39P", 2, TREE, None), here=STEP)
    assert member.opened(STEP.page) is None
    assert member.opened(TREE.page) == TREE


def test_a_run_stopped_before_it_wrote_the_teachers_view_leaves_it_for_the_next() -> None:
    """Under load the browser asks again, and the newer run stops the one that was opening
    the teacher's view: the newer run must open it too, or it keeps the browser's settings."""
    member = Membership("KX39P", "seat").opening(ClassState("KX39P", 2, TREE, None), here=STEP)
    assert member.opened(TREE.page) == TREE  # the first run reads it, then is stopped
    assert member.opened(TREE.page) == TREE  # the next run opens it again
    left, landed = member.wrote(TREE.page, TREE.query)  # a run of the page wrote its settings
    assert not left and landed.pending is None and landed.landed == TREE.query
    assert landed.opened(TREE.page) is None


def test_a_run_the_check_asked_for_opens_the_teachers_view_even_if_written_already() -> None:
    """The browser asked again before it showed the view an earlier run wrote: this run
    carries the old widget values, so it must open the teacher's view once more."""
    member = Membership("KX39P", "seat", seen=2, landed=dict(TREE.query))
    state = ClassState("KX39P", 2, TREE, None)
    assert not member.needs(2) and member.opening(state, here=TREE).pending is None
    asked = member.rechecked()
    assert asked.needs(2)
    opened = asked.opening(state, here=TREE)
    assert opened.pending == TREE and not opened.recheck
    alone = replace(asked, following=False).opening(state, here=STEP)
    assert alone.pending is None and not alone.recheck  # exploring alone: nothing opens


def test_a_follower_who_moves_a_control_stops_following() -> None:
    member = Membership("KX39P", "seat").opening(ClassState("KX39P", 2, TREE, None), here=STEP)
    assert member.opened(TREE.page) == TREE
    left, member = member.wrote(TREE.page, TREE.query)  # the run that opened the view lands
    assert not left and member.landed == TREE.query
    left, again = member.wrote(TREE.page, dict(TREE.query))  # a rerun with the same settings
    assert not left and again == member
    left, member = member.wrote(TREE.page, DEEPER.query)  # the student moved max_depth
    assert left and not member.following and member.landed is None
    assert member.needs(7)  # explores alone, but still reads a change (a poll may open)...
    assert member.opening(ClassState("KX39P", 7, TREE, None), here=STEP).pending is None
    assert member.needs(None)  # ...and hears that the class ended
    left, alone = member.wrote(TREE.page, TREE.query)
    assert not left and alone == member


def test_following_again_jumps_back_to_the_teacher() -> None:
    member = Membership("KX39P", "seat", following=False, seen=5, landed={"a": "1"})
    back = member.follow(True)
    assert back.following and back.seen == 0 and back.landed is None
    assert back.needs(5)  # reads the class at once, even though nothing moved
    away = back.follow(False)
    assert not away.following and away.pending is None


def test_a_student_who_stops_following_is_not_moved_by_a_view_read_before() -> None:
    member = Membership("KX39P", "seat").opening(ClassState("KX39P", 2, TREE, None), here=STEP)
    alone = member.follow(False)
    assert alone.opened(TREE.page) is None


def test_the_teacher_never_stops_following_itself() -> None:
    teacher = Membership("KX39P", "seat", secret="s3cret")
    assert teacher.teaching and teacher.teacher == Teacher("KX39P", "s3cret")
    for query in (TREE.query, DEEPER.query, STEP.query):
        left, teacher = teacher.wrote(TREE.page, query)
        assert not left
    assert teacher.following and teacher.landed is None
    with pytest.raises(NotTeacher):
        _ = Membership("KX39P", "seat").teacher
    assert teacher.published(TREE).shown == TREE
    assert teacher.checked(12.0).checked_in == 12.0


def test_joining_is_limited_to_five_tries_a_minute() -> None:
    now = 1000.0
    assert may_try_joining((), now)
    four = tuple(now - k for k in range(JOIN_TRIES - 1))
    assert may_try_joining(four, now)
    five = tuple(now - k for k in range(JOIN_TRIES))
    assert not may_try_joining(five, now)
    assert not may_try_joining(five, now + JOIN_WINDOW - JOIN_TRIES)
    assert may_try_joining(five, now + JOIN_WINDOW)  # the oldest try is a minute old
    old = tuple(now - JOIN_WINDOW - k for k in range(20))
    assert may_try_joining(old, now)


def test_seat_tokens_are_fresh_and_unguessable() -> None:
    seats = {seat_token() for _ in range(100)}
    assert len(seats) == 100 and all(len(seat) >= 16 for seat in seats)


# --- what the teacher types ------------------------------------------------------------------


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


# --- what the store holds --------------------------------------------------------------------


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


def test_a_remembered_seat_is_recalled_and_garbage_is_not() -> None:
    room = Classroom(MemoryStore())
    teacher = room.start()
    mine = Membership(teacher.code, seat_token(), secret=teacher.secret)
    back = recalled(remembered(mine))
    assert back is not None and back.teaching and back.secret == teacher.secret
    assert room.owns(back.teacher)
    assert not room.owns(Teacher(teacher.code, "a-guessed-secret"))
    student = Membership(teacher.code, seat_token())
    again = recalled(remembered(student))
    assert again == Membership(teacher.code, student.seat)  # following, from the start
    alone = recalled(remembered(student.follow(False)))
    assert alone == Membership(teacher.code, student.seat, following=False)  # as it was left
    for garbage in (
        "",
        "x",
        "t.KX39P",
        "t.kx39p.abcdefghij",
        "s.KX39P.short",
        "q.KX39P.abcdefghij",
        "s.KX39P.abc def ghij",
        "s.KX39P." + "a" * 65,
        "t.KX39P.<script>alert(1)",
    ):
        assert recalled(garbage) is None, garbage
    room.end(teacher)
    assert not room.owns(back.teacher)


def test_a_page_run_that_never_finished_is_overdue_after_a_while() -> None:
    seat = Membership("KX39P", "seat").opening(ClassState("KX39P", 4, TREE, None), here=STEP)
    began = replace(seat, asked=100.0)
    assert not began.overdue(101.0, after=3.0)  # its run may still be going
    assert began.overdue(104.0, after=3.0)  # it was lost: ask again
    assert not replace(began, drawn=4).overdue(200.0, after=3.0)  # it finished
