"""Seats only the server gives (core/classroom/seats.py): signed per class, checked without the
store, and the key shared by every replica through the store or the environment."""

from __future__ import annotations

import pytest

from core.classroom import Classroom, Shown
from core.classroom.seats import KEY, REREAD_EVERY, SECRET_VARIABLE, Seats
from core.classroom.store import MemoryStore

TREE = Shown("pages/1_Single_tree.py", {"dataset": "iris"})


def test_a_seat_is_valid_in_its_class_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)
    seats = Seats(MemoryStore())
    seat = seats.new("KX39PA")
    assert seats.valid("KX39PA", seat)
    assert not seats.valid("KX39AC", seat)
    assert seats.new("KX39PA") != seat


@pytest.mark.parametrize(
    "made_up", ["", "AbCdEfGhIjKlMnOp", "a" * 28, "seat-a", "<script>alert(1)</script>" * 2]
)
def test_a_made_up_seat_is_no_seat(made_up: str) -> None:
    assert not Seats(MemoryStore(), secret="s" * 32).valid("KX39PA", made_up)


def test_a_changed_character_breaks_the_signature() -> None:
    seats = Seats(MemoryStore(), secret="s" * 32)
    seat = seats.new("KX39PA")
    for position in (0, len(seat) - 1):
        other = "A" if seat[position] != "A" else "B"
        assert not seats.valid("KX39PA", seat[:position] + other + seat[position + 1 :])


def test_replicas_share_the_stores_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)
    store = MemoryStore()
    first, second = Seats(store), Seats(store)
    seat = first.new("KX39PA")
    assert second.valid("KX39PA", seat)
    assert store.get(KEY)  # kept in the store, for every replica


def test_a_secret_from_the_environment_signs_without_the_store(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_VARIABLE, "a shared secret of thirty-two characters")
    seat = Seats(MemoryStore()).new("KX39PA")
    elsewhere = MemoryStore()
    assert Seats(elsewhere).valid("KX39PA", seat)  # another store, the same secret
    assert elsewhere.get(KEY) is None
    assert Seats(elsewhere).fresh()


def test_a_new_key_in_the_store_is_read_again_but_not_for_every_made_up_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)
    now = [0.0]
    store = MemoryStore()
    old = Seats(store, clock=lambda: now[0])
    old.new("KX39PA")  # reads the key
    store.drop(KEY)  # the store lost it; another replica writes a new one
    seat = Seats(store).new("KX39PA")
    now[0] = 1.0
    assert old.valid("KX39PA", seat)  # read again at the first seat it did not sign
    reads = []
    original = store.get
    monkeypatch.setattr(store, "get", lambda key: reads.append(key) or original(key))
    for _ in range(40):
        assert not old.valid("KX39PA", "x" * 28)
    assert len(reads) <= 1
    now[0] += REREAD_EVERY
    old.valid("KX39PA", "x" * 28)
    assert len(reads) <= 2


def test_the_classroom_gives_and_checks_seats() -> None:
    room = Classroom(MemoryStore())
    teacher = room.start(TREE)
    seat = room.new_seat(teacher.code)
    assert room.seated(teacher.code, seat)
    assert not room.seated(teacher.code, "AbCdEfGhIjKlMnOpQrStUvWxYz01")
