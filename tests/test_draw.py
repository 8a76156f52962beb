"""Drawing from the stock, the next lead and the end of the game (R15–R17)."""

from __future__ import annotations

import pytest

import goat
from goat import GameState, IllegalMoveError, Move, MoveKind
from tests.conftest import game, run

HANDS = ["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"]


def test_r15_one_card_each_from_the_top_winner_first() -> None:
    state = game(HANDS, trump_card="AD")
    stock = state.stock
    state = run(state, "0 lead 9H", "1 beat 10H", "2 beat AH", "3 pass 7H")
    assert state.tricks[0].winner == 2
    # Seat 2 takes the top card, then seats 3, 0, 1.
    for offset, card in enumerate(stock[:4]):
        assert card in state.hands[(2 + offset) % 4]
    assert state.stock == stock[4:]
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]


def test_r15_a_two_card_trick_is_refilled_round_by_round() -> None:
    state = game(HANDS, trump_card="AD")
    stock = state.stock
    state = run(state, "0 lead QS 7S", "1 beat 9D JS", "2 pass KH AH", "3 pass 7H KC")
    assert state.tricks[0].winner == 1
    # Round one: seats 1, 2, 3, 0 take stock[0..3]; round two: stock[4..7], in the same order.
    for position, card in enumerate(stock[:8]):
        assert card in state.hands[(1 + position) % 4], (position, card)
    assert state.stock == stock[8:]


def holders_wait(state: GameState) -> GameState:
    """Every molodka holder asked before the next play waits (R14)."""
    while state.to_move != state.to_play:
        state = goat.play(state, Move(MoveKind.WAIT, state.to_move, ()))  # type: ignore[arg-type]
    return state


def everyone_passes(state: GameState) -> GameState:
    """The three answers of a trick are each the answerer's first pass."""
    for _ in range(3):
        state = holders_wait(state)
        state = goat.play(state, next(m for m in goat.legal_moves(state) if m.kind is MoveKind.PASS))
    return state


def first_single_card_trick(state: GameState) -> GameState:
    """Lead the leader's first card and let everyone pass their first card."""
    state = holders_wait(state)
    lead = next(m for m in goat.legal_moves(state) if len(m.cards) == 1)
    return everyone_passes(goat.play(state, lead))


def test_r15_when_the_stock_runs_out_hands_stay_equal() -> None:
    for seed in range(100):
        state = goat.new_game(seed=seed)
        for _ in range(4):
            state = first_single_card_trick(state)
        assert len(state.stock) == 4 and all(len(h) == 4 for h in state.hands)
        state = holders_wait(state)
        two = [m for m in goat.legal_moves(state) if len(m.cards) == 2]
        if two:
            break
    else:
        pytest.fail("no seed gave a two-card lead with four cards left in the stock")
    last_four = state.stock
    state = everyone_passes(goat.play(state, two[0]))
    winner = state.tricks[-1].winner
    # Only one round could be drawn: every hand now holds 3 cards and the stock is empty.
    assert state.stock == ()
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    for offset, card in enumerate(last_four):
        assert card in state.hands[(winner + offset) % 4]


def test_r16_r17_the_game_ends_when_stock_and_hands_are_empty() -> None:
    state = goat.new_game(seed=3)
    while not state.is_over:
        assert state.to_move is not None and goat.legal_moves(state)
        state = first_single_card_trick(state)
        if not state.is_over:
            assert state.leader == state.tricks[-1].winner  # R16
    assert state.stock == () and all(not h for h in state.hands)
    assert state.to_move is None and state.to_play is None
    assert goat.legal_moves(state) == ()
    assert len(state.tricks) == 9
    with pytest.raises(IllegalMoveError, match="the game is over"):
        goat.play(state, Move.from_str("0 lead 6C"))
