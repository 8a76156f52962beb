"""Leading, beating, passing and winning a trick, and the reasons illegal moves give (R10–R13, R16)."""

from __future__ import annotations

import pytest

import goat
from goat import IllegalMoveError, InvalidTrickError, Move, MoveKind, Suit, cards
from tests.conftest import game, hand, run

# Dealer 3, so seat 0 leads (R9).  Diamonds are trump.  Nobody holds a molodka.
HANDS = ["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"]


@pytest.fixture
def start() -> goat.GameState:
    return game(HANDS, trump_card="AD")


def texts(moves: tuple[Move, ...]) -> set[str]:
    return {str(m) for m in moves}


def test_r10_leads_are_every_nonempty_set_of_one_suit(start: goat.GameState) -> None:
    assert texts(goat.legal_moves(start)) == {
        "0 lead 9H",
        "0 lead 10C",
        "0 lead 7S",
        "0 lead QS",
        "0 lead 7S QS",
    }
    assert all(m.kind is MoveKind.LEAD for m in goat.legal_moves(start))


def test_r10_a_lead_of_mixed_suits_is_illegal(start: goat.GameState) -> None:
    with pytest.raises(IllegalMoveError, match="a lead is cards of one suit"):
        run(start, "0 lead 9H 10C")


def test_r11_answers_to_a_two_card_lead(start: goat.GameState) -> None:
    state = run(start, "0 lead QS 7S")
    assert state.to_move == 1
    pairs = ["10H 9D", "10H JS", "10H 6C", "9D JS", "9D 6C", "JS 6C"]
    # R6: only 9D + JS covers both QS (9D, a trump) and 7S (JS).
    expected = {"1 beat 9D JS"} | {f"1 pass {' '.join(str(c) for c in sorted(cards(p)))}" for p in pairs}
    assert texts(goat.legal_moves(state)) == expected


def test_r6_r11_a_mixed_suit_beat_takes_the_top(start: goat.GameState) -> None:
    state = run(start, "0 lead QS 7S", "1 beat 9D JS")
    assert [str(m) for m in state.table] == ["0 lead 7S QS", "1 beat 9D JS"]
    assert hand(state, 1) == "6C 10H"


def test_r12_the_next_seat_must_beat_the_top_play_not_the_lead(start: goat.GameState) -> None:
    state = run(start, "0 lead QS 7S", "1 beat 9D JS")
    # 6D + 8S would beat the lead QS 7S, but not the top play 9D JS.
    assert goat.beats_set(cards("6D 8S"), cards("QS 7S"), Suit.DIAMONDS)
    with pytest.raises(IllegalMoveError, match="does not beat the top play 9D JS of seat 1"):
        run(state, "2 beat 6D 8S")
    assert all(m.kind is MoveKind.PASS for m in goat.legal_moves(state))


def test_r12_r13_a_beat_of_a_beat_wins() -> None:
    state = game(["9H 10C QS 7S", "10H 9D JS 6C", "AH KH 8S 6D", "7H 8D KC AC"], trump_card="AS")
    state = run(state, "0 lead 9H", "1 beat 10H", "2 beat AH")
    with pytest.raises(IllegalMoveError, match="does not beat the top play AH"):
        run(state, "3 beat 7H")
    state = run(state, "3 pass 7H")
    assert state.tricks[-1].winner == 2
    assert state.leader == state.to_move == 2  # R16


def test_r11_passing_cards_that_could_beat_is_allowed_and_leaves_the_top(start: goat.GameState) -> None:
    state = run(start, "0 lead 9H")
    assert Move.from_str("1 beat 10H") in goat.legal_moves(state)
    state = run(state, "1 pass 10H", "2 pass 6D", "3 pass 7H")
    assert state.tricks[0].winner == 0  # nobody beat: the lead is still the top play
    assert state.tricks[0].cards == frozenset(cards("9H 10H 6D 7H"))


def test_r13_winner_takes_all_4k_cards_and_r16_leads_next(start: goat.GameState) -> None:
    state = run(start, "0 lead QS 7S", "1 beat 9D JS", "2 pass KH AH", "3 pass 7H KC")
    (trick,) = state.tricks
    assert trick.winner == 1
    assert trick.cards == frozenset(cards("QS 7S 9D JS KH AH 7H KC"))
    assert trick.points == 3 + 2 + 4 + 11 + 4
    assert [str(p) for p in trick.plays] == ["0 lead 7S QS", "1 beat 9D JS", "2 pass KH AH", "3 pass KC 7H"]
    assert state.table == ()
    assert state.leader == state.to_move == 1


@pytest.mark.parametrize(
    ("moves", "bad", "why"),
    [
        ((), "1 lead 10H", "it is seat 0's turn, not seat 1's"),
        ((), "0 lead AH", "not in hand: AH"),
        ((), "0 lead", "at least one card"),
        ((), "0 beat 9H", "no lead yet"),
        ((), "0 pass 9H", "no lead yet"),
        ((), "0 wait", "this seat must play"),
        ((), "0 molodka 9H 10C QS 7S", "leader has no separate molodka"),
        (("0 lead QS 7S",), "1 lead 10H 9D", "already led"),
        (("0 lead QS 7S",), "1 beat 9D", "as many cards as the lead .R11.: 2, not 1"),
        (("0 lead QS 7S",), "1 pass 10H 9D JS", "2, not 3"),
        (("0 lead QS 7S",), "1 beat 10H JS", "does not beat the top play"),
        (("0 lead QS 7S",), "1 pass 10H AS", "not in hand: AS"),
        (("0 lead QS 7S",), "1 molodka 10H 9D JS 6C", "held no molodka"),
        (("0 lead QS 7S",), "1 wait", "this seat must play"),
    ],
)
def test_illegal_moves_say_why_and_leave_the_state_alone(
    start: goat.GameState, moves: tuple[str, ...], bad: str, why: str
) -> None:
    state = run(start, *moves)
    before = (state.hands, state.table, state.to_move, state.history)
    with pytest.raises(IllegalMoveError, match=why) as raised:
        goat.play(state, Move.from_str(bad))
    assert isinstance(raised.value, ValueError)
    assert str(Move.from_str(bad)) in str(raised.value)
    assert (state.hands, state.table, state.to_move, state.history) == before
    assert Move.from_str(bad) not in goat.legal_moves(state)


def test_play_takes_only_moves_or_their_text() -> None:
    for other in (b"1 lead 6C", 7, None, ["1 lead 6C"]):
        with pytest.raises(TypeError, match="Move"):
            goat.play(goat.new_game(seed=1), other)  # type: ignore[arg-type]


def test_trick_winner_last_beat_wins() -> None:
    plays = [Move.from_str(t) for t in ("0 lead 9H", "1 beat 10H", "2 pass 6C", "3 beat 6S")]
    assert goat.trick_winner(plays, Suit.SPADES) == 3
    plays = [Move.from_str(t) for t in ("2 lead QS 7S", "3 beat 9D JS", "0 beat 10D KS", "1 pass 6C 7C")]
    assert goat.trick_winner(plays, Suit.DIAMONDS) == 0


def test_trick_winner_without_beats_is_the_leader() -> None:
    plays = [Move.from_str(t) for t in ("1 lead AH", "2 pass 6C", "3 pass 7C", "0 pass 8C")]
    assert goat.trick_winner(plays, Suit.SPADES) == 1
    plays = [
        Move.from_str(t)
        for t in ("3 molodka 6H 7H 8H 9H", "0 pass 6C 7C 8C 9C", "1 pass 6D 7D 8D 9D", "2 pass 6S 7S 8S 9S")
    ]
    assert goat.trick_winner(plays, Suit.SPADES) == 3


@pytest.mark.parametrize(
    ("plays", "why"),
    [
        (("0 lead 9H", "1 beat 10H", "2 pass 6C"), "four moves"),
        (("0 beat 9H", "1 beat 10H", "2 pass 6C", "3 pass 7C"), "starts with a lead"),
        (("0 lead 9H 9C", "1 pass 10H 6D", "2 pass 6C 7D", "3 pass 7C 8D"), "one suit"),
        (("0 lead 9H", "2 beat 10H", "3 pass 6C", "1 pass 7C"), "must be by seat 1"),
        (("0 lead 9H", "1 lead 10H", "2 pass 6C", "3 pass 7C"), "beats and passes"),
        (("0 lead 9H", "1 beat 10H JH", "2 pass 6C", "3 pass 7C"), "1 card"),
        (("0 lead 9H", "1 beat 8H", "2 pass 6C", "3 pass 7C"), "does not beat"),
        (("0 lead 9H", "1 pass 9H", "2 pass 6C", "3 pass 7C"), "played twice"),
        (("0 molodka 9H 10H", "1 pass 6D 7D", "2 pass 6C 7C", "3 pass 8C 9C"), "four cards"),
        (  # R10, R15: a lead is at most a whole hand of four cards
            (
                "0 lead 6H 7H 8H 9H JH",
                "1 pass 6D 7D 8D 9D JD",
                "2 pass 6C 7C 8C 9C JC",
                "3 pass 6S 7S 8S 9S JS",
            ),
            "at most 4 cards",
        ),
    ],
)
def test_trick_winner_rejects_plays_that_are_no_finished_trick(plays: tuple[str, ...], why: str) -> None:
    with pytest.raises(InvalidTrickError, match=why):
        goat.trick_winner([Move.from_str(t) for t in plays], Suit.SPADES)


def test_legal_moves_and_play_take_only_states() -> None:
    with pytest.raises(TypeError, match="GameState"):
        goat.legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState"):
        goat.play(None, Move.from_str("1 lead 6C"))  # type: ignore[arg-type]


def test_trick_winner_names_plays_that_are_not_a_sequence() -> None:
    with pytest.raises(TypeError, match="plays must be a sequence of four Move objects, not None"):
        goat.trick_winner(None, Suit.SPADES)  # type: ignore[arg-type]
