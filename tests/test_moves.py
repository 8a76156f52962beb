"""Moves and their notation (R10–R14)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import DECK, Card, InvalidMoveError, Move, MoveKind, cards


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


def read_slowly(text: str) -> Move:
    """Move notation read the general way, word by word, as Move.from_str's documentation describes it."""
    words = text.split()
    held = cards(" ".join(words[2:]))
    if len(set(held)) != len(held):
        raise InvalidMoveError("a card appears twice")
    return Move(MoveKind(words[1].lower()), int(words[0]), held)


@given(
    st.sampled_from("0123"),
    st.sampled_from([kind.value for kind in MoveKind] + ["LEAD", "Wait"]),
    st.lists(st.sampled_from([str(card) for card in DECK] + ["th", "q♥", "10h", "QH,"]), max_size=5),
    st.sampled_from([" ", "  ", "\t"]),
)
def test_from_str_reads_written_notation_as_the_general_reading_does(
    seat: str, kind: str, words: list[str], gap: str
) -> None:
    # Notation as str() writes it is read from the card bits and the move found by its key; anything else
    # (other spellings, repeated cards, cards in a wait) takes the general reading.  Both must agree.
    text = gap.join([seat, kind, *words])
    try:
        expected: Move | type[Exception] = read_slowly(text)
    except ValueError:
        expected = InvalidMoveError
    if expected is InvalidMoveError:
        with pytest.raises(InvalidMoveError, match="not a move") as raised:
            Move.from_str(text)
        assert repr(text) in str(raised.value)
        return
    found = Move.from_str(text)
    assert found == expected
    assert found.__class__ is Move and found.mask == sum(1 << card.index for card in found.cards)


def test_reading_notation_keeps_no_move_of_more_cards_than_a_hand_holds() -> None:
    # Text from anywhere (a hostile bot's replies, a record file) must not fill the engine's table of moves:
    # a move of more than four cards is no legal move, so reading one interns nothing.
    from goat.moves import MOVES

    text = "0 lead " + " ".join(str(card) for card in DECK[:30])
    before = len(MOVES)
    move = Move.from_str(text)
    assert len(move.cards) == 30 and move.key not in MOVES and len(MOVES) == before


def test_a_subclass_reads_notation_as_its_own_class() -> None:
    class Marked(Move):
        pass

    assert Marked.from_str("1 lead QH").__class__ is Marked


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


@given(gt.game_states(min_moves=0, max_moves=30), st.data())
def test_play_takes_a_moves_text_as_move_from_str_reads_it(state: goat.GameState, data: st.DataObject) -> None:
    # As python-chess's push_san: goat.play(state, "1 lead QH") plays the move that text stands for.
    if state.is_over:
        return
    move = data.draw(st.sampled_from(goat.legal_moves(state)))
    for text in (str(move), str(move).lower()):
        assert goat.play(state, text) == goat.play(state, move)


def test_play_refuses_text_that_is_no_move_or_no_legal_one() -> None:
    state = goat.new_game(seed=3)
    with pytest.raises(InvalidMoveError, match="not a move: 'lead QH'"):
        goat.play(state, "lead QH")
    with pytest.raises(goat.IllegalMoveError, match="it is seat 1's turn, not seat 2's"):
        goat.play(state, "2 lead 6C")
    with pytest.raises(TypeError, match="a Move \\(or a move's text\\)"):
        goat.play(state, b"1 lead 7C")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        goat.play("1 lead 7C", "1 lead 7C")  # type: ignore[arg-type]
