"""Moves and their notation (R10–R14)."""

from __future__ import annotations

import pytest

from goat import Card, InvalidMoveError, Move, MoveKind, cards


def test_str_is_short_readable_notation_in_deck_order() -> None:
    assert str(Move(MoveKind.LEAD, 1, cards("QH 10H"))) == "1 lead QH 10H"
    assert str(Move(MoveKind.LEAD, 1, cards("10H QH"))) == "1 lead QH 10H"
    assert str(Move(MoveKind.WAIT, 3, ())) == "3 wait"
    assert str(MoveKind.MOLODKA) == "molodka"


@pytest.mark.parametrize("text", ["1 lead QH 10H", "0 beat 9D JS", "2 pass 6C", "3 molodka 6H 7H 8H 9H", "3 wait"])
def test_from_str_and_str_are_a_matched_pair(text: str) -> None:
    move = Move.from_str(text)
    assert str(move) == text
    assert Move.from_str(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


def test_from_str_is_lenient_about_case_and_spelling() -> None:
    assert Move.from_str("1 LEAD th q♥") == Move(MoveKind.LEAD, 1, cards("10H QH"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "expected"),
        ("lead 10H", "expected"),
        ("4 lead 10H", "expected"),
        ("1 jump 10H", "kind must be one of"),
        ("1 lead 11H", "not a card"),
        ("1 lead 10H 10H", "twice"),
    ],
)
def test_from_str_rejects_bad_text_quoting_it(text: str, why: str) -> None:
    with pytest.raises(InvalidMoveError, match=why) as raised:
        Move.from_str(text)
    assert repr(text) in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_moves_are_values() -> None:
    a = Move(MoveKind.PASS, 2, cards("6C 7C"))
    b = Move(MoveKind.PASS, 2, [Card.from_str("7C"), Card.from_str("6C")])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Move(MoveKind.BEAT, 2, cards("6C 7C"))
    assert a != Move(MoveKind.PASS, 1, cards("6C 7C"))
    assert isinstance(a.cards, frozenset)
    assert Move(MoveKind.LEAD, 0, "6C 7C") == Move(MoveKind.LEAD, 0, cards("6C 7C"))


def test_constructor_checks_types_and_seat() -> None:
    with pytest.raises(ValueError, match="seat"):
        Move(MoveKind.LEAD, 4, cards("6C"))
    with pytest.raises(ValueError, match="seat"):
        Move(MoveKind.LEAD, True, cards("6C"))
    with pytest.raises(TypeError):
        Move("lead", 0, cards("6C"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Move(MoveKind.LEAD, 0, [1, 2])  # type: ignore[list-item]


def test_a_moves_cards_must_be_a_collection_named_in_the_error() -> None:
    with pytest.raises(TypeError, match="a move's cards are Card objects or card text"):
        Move(MoveKind.LEAD, 1, None)  # type: ignore[arg-type]
