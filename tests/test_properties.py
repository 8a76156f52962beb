"""Property-based rule verification, with the public strategies of goat.testing only (R1–R23)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import DECK, Card, GameState, IllegalMoveError, MoveKind
from tests.conftest import every_card, reachable

# --- conservation and shape (R7, R13, R15, R17, R18) ------------------------------


@given(gt.game_states())
def test_every_card_is_in_exactly_one_place(state: GameState) -> None:
    assert sorted(every_card(state)) == list(DECK)


@given(gt.game_states())
def test_hands_are_equal_before_each_play_and_the_stock_a_multiple_of_4(state: GameState) -> None:
    played = {m.seat: len(m.cards) for m in state.table}
    assert len({len(h) + played.get(seat, 0) for seat, h in enumerate(state.hands)}) == 1
    assert all(len(h) <= 4 for h in state.hands)
    assert len(state.stock) % 4 == 0


@given(gt.game_states())
def test_tricks_hold_4k_cards_of_4_plays(state: GameState) -> None:
    for trick in state.tricks:
        size = len(trick.plays[0].cards)
        assert len(trick.plays) == 4 and len(trick.cards) == 4 * size
        assert goat.trick_winner(trick.plays, state.trump) == trick.winner  # R12, R13


@given(gt.finished_games())
def test_a_finished_game_has_nothing_left_and_120_points(state: GameState) -> None:
    assert state.stock == () and all(not h for h in state.hands) and state.table == ()
    assert goat.legal_moves(state) == () and state.to_move is None
    result = goat.score(state)
    assert sum(result.points) == 120
    assert sum(t.points for t in state.tricks) == 120


# --- play accepts exactly the legal moves (R10–R14) --------------------------------


@given(gt.game_states(), st.data())
def test_every_legal_move_is_accepted(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    move = data.draw(gt.legal_moves_of(state))
    after = goat.play(state, move)
    assert after.history == (*state.history, move)


@given(gt.game_states(), gt.moves())
def test_a_possible_move_is_accepted_exactly_when_it_is_legal(state: GameState, move: goat.Move) -> None:
    before = (state.hands, state.table, state.tricks, state.history, state.to_move, hash(state))
    legal = goat.legal_moves(state)
    if move in legal:
        goat.play(state, move)
    else:
        with pytest.raises(IllegalMoveError, match=re.escape(str(move))):
            goat.play(state, move)
    assert (state.hands, state.table, state.tricks, state.history, state.to_move, hash(state)) == before


@given(gt.game_states(), st.data())
def test_moves_made_of_the_deciders_own_cards_are_judged_like_legal_moves(
    state: GameState, data: st.DataObject
) -> None:
    # Moves near the legal ones: the decider's seat, cards from its hand and the table.
    if state.is_over:
        return
    seat = state.to_move
    assert seat is not None
    pool = sorted(state.hands[seat] | {c for m in state.table for c in m.cards})
    held = data.draw(st.lists(st.sampled_from(pool), max_size=4, unique=True)) if pool else []
    kind = data.draw(st.sampled_from(list(MoveKind)))
    if kind is MoveKind.WAIT and held:
        with pytest.raises(goat.InvalidMoveError, match="a wait holds no cards"):
            goat.Move(kind, seat, held)  # a move that cannot be written down is refused when made
        return
    move = goat.Move(kind, seat, held)
    legal = goat.legal_moves(state)
    try:
        goat.play(state, move)
        accepted = True
    except IllegalMoveError:
        accepted = False
    assert accepted == (move in legal)


@given(gt.game_states(molodka=True))
def test_molodka_moves_follow_r14(state: GameState) -> None:
    for move in goat.legal_moves(state):
        if move.kind is MoveKind.MOLODKA:
            assert len(move.cards) == 4 and len({c.suit for c in move.cards}) == 1
            assert not state.molodka_made
            assert state.table or move.seat != state.leader  # the leader's first play is a lead
        if move.kind is MoveKind.WAIT:
            assert state.to_move != state.to_play


# --- purity and determinism ------------------------------------------------------


@given(gt.game_states())
def test_equal_inputs_give_equal_outputs(state: GameState) -> None:
    again = goat.new_game(deck=state.deck, trump_card=state.trump_card, dealer=state.dealer, defeat=state.defeat)
    for move in state.history:
        again = goat.play(again, move)
    assert again == state and hash(again) == hash(state)
    assert goat.legal_moves(again) == goat.legal_moves(state)
    for seat in range(4):
        assert goat.view(again, seat) == goat.view(state, seat)


@given(st.integers(0, 2**64), st.integers(0, 3))
def test_the_same_seed_deals_the_same_game(seed: int, dealer: int) -> None:
    assert goat.new_game(seed=seed, dealer=dealer) == goat.new_game(seed=seed, dealer=dealer)


@given(gt.game_states(), st.data())
def test_play_never_changes_its_input(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        return
    snapshot = (state.hands, state.stock, state.table, state.tricks, state.history, state.leader, state.to_move)
    goat.play(state, data.draw(gt.legal_moves_of(state)))
    assert (state.hands, state.stock, state.table, state.tricks, state.history, state.leader, state.to_move) == snapshot


# --- scoring laws (R18–R22) ---------------------------------------------------------


@given(st.integers(0, 120), st.integers(0, 9))
def test_defeat_scores_follow_r19_r20(points: int, tricks: int) -> None:
    if tricks == 0 and points > 0:
        return  # no game gives points without a trick; defeat_scores rejects it
    expected = 0 if points >= 60 else 2 if points >= 31 else 4 if tricks else 6
    assert goat.defeat_scores(points, tricks) == expected


@given(gt.finished_games())
def test_score_agrees_with_the_piles(state: GameState) -> None:
    result = goat.score(state)
    for team in (0, 1):
        pile = [c for t in state.tricks if t.winner % 2 == team for c in t.cards]
        assert result.points[team] == sum(c.points for c in pile)
        assert result.tricks[team] == sum(1 for t in state.tricks if t.winner % 2 == team)
        assert result.defeat[team] == goat.defeat_scores(result.points[team], result.tricks[team])
    assert result.balls == (result.points == (60, 60))
    assert result.winner == (None if result.balls else max((0, 1), key=lambda t: result.points[t]))
    assert result.last_trick_winner == state.tricks[-1].winner


@given(gt.game_results())
def test_only_the_loser_gains_defeat_scores(result: goat.GameResult) -> None:
    if result.balls:
        assert result.defeat == (0, 0)
    else:
        assert result.winner is not None and result.defeat[result.winner] == 0
        assert result.defeat[1 - result.winner] in (2, 4, 6)


@given(gt.matches())
def test_a_match_ends_exactly_when_a_team_reaches_12(match: goat.Match) -> None:
    totals = [0, 0]
    for number, result in enumerate(match.results, start=1):
        assert max(totals) < 12, "no game is played after the match is over"
        totals = [totals[0] + result.defeat[0], totals[1] + result.defeat[1]]
        if number < len(match.results):
            assert max(totals) < 12
    assert match.defeat == tuple(totals)
    assert match.is_over == (max(totals) >= 12)
    assert match.goat == (None if not match.is_over else (0 if totals[0] >= 12 else 1))
    assert match.with_balls == any(r.balls for r in match.results)


@given(gt.matches(min_games=1, max_games=3))
def test_the_lead_carries_over(match: goat.Match) -> None:
    if match.is_over:
        return
    state = match.new_game(seed=0)
    last = match.results[-1].last_trick_winner
    assert state.leader == last and state.dealer == (last - 1) % 4  # R9, R22
    assert state.defeat == match.defeat


# --- information (R23) -------------------------------------------------------------


@given(gt.game_states(molodka=True), st.integers(0, 3))
def test_a_view_holds_no_card_its_seat_may_not_see(state: GameState, seat: int) -> None:
    allowed = set(state.hands[seat]) | {state.trump_card}
    for move in state.history:
        if move.kind is not MoveKind.PASS or move.seat == seat:
            allowed |= move.cards
    seen = goat.view(state, seat)
    values = list(reachable(seen))
    assert {v for v in values if isinstance(v, Card)} <= allowed
    assert not any(isinstance(v, GameState) for v in values)
    others_waits = [m for m in state.history if m.kind is MoveKind.WAIT and m.seat != seat]
    assert not any(isinstance(v, goat.SeenMove) and v.kind is MoveKind.WAIT and v.seat != seat for v in values)
    assert len(seen.history) == len(state.history) - len(others_waits)


@given(st.from_type(goat.GameState))
def test_types_are_registered_with_hypothesis(state: GameState) -> None:
    assert isinstance(state, GameState)
