"""A Hypothesis state machine that plays games move by move, molodkas and waits included (R7–R23)."""

from __future__ import annotations

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import goat
import goat.testing as gt
from goat import DECK, GameState, IllegalMoveError, Move, MoveKind
from tests.conftest import every_card


class GoatGame(RuleBasedStateMachine):
    state: GameState

    @initialize(state=gt.deals(molodka=True))
    def deal(self, state: GameState) -> None:
        self.state = state
        self.declared = 0
        self.waited = 0

    def being_asked(self) -> bool:
        return not self.state.is_over and self.state.to_move != self.state.to_play

    def advance(self, move: Move) -> None:
        before = self.state
        snapshot = (before.hands, before.table, before.history, hash(before))
        after = goat.play(before, move)
        assert (before.hands, before.table, before.history, hash(before)) == snapshot  # play is pure
        self.state = after

    @precondition(lambda self: not self.state.is_over and not self.being_asked())
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        self.advance(data.draw(gt.legal_moves_of(self.state)))

    @precondition(lambda self: self.being_asked())
    @rule()
    def declare(self) -> None:
        (molodka,) = [m for m in goat.legal_moves(self.state) if m.kind is MoveKind.MOLODKA]
        owner_hand = len(self.state.hands[molodka.seat]) + sum(
            len(m.cards) for m in self.state.table if m.seat == molodka.seat
        )
        assert owner_hand == 4
        self.advance(molodka)
        self.declared += 1
        assert self.state.leader == molodka.seat and self.state.table == (molodka,)  # R14
        assert self.state.molodka_made and self.state.to_move == (molodka.seat + 1) % 4

    @precondition(lambda self: self.being_asked())
    @rule()
    def wait(self) -> None:
        asked = self.state.to_move
        assert asked is not None
        others = [s for s in range(4) if s != asked]
        before = {s: goat.view(self.state, s) for s in others}
        self.advance(Move(MoveKind.WAIT, asked, ()))
        self.waited += 1
        # A wait is private (R14, R23): no other view changes, except that the next holder to be
        # asked now has its own choice to make, exactly as if the waiting seat had held no molodka.
        for seat in others:
            after = goat.view(self.state, seat)
            if seat == self.state.to_move and seat != self.state.to_play:
                assert [m.kind for m in after.legal_moves] == [MoveKind.MOLODKA, MoveKind.WAIT]
                after = attrs.evolve(after, legal_moves=before[seat].legal_moves)
            assert after == before[seat]

    @precondition(lambda self: not self.state.is_over)
    @rule(move=gt.moves())
    def a_possible_move_is_judged_like_legal_moves(self, move: Move) -> None:
        legal = goat.legal_moves(self.state)
        try:
            goat.play(self.state, move)
        except IllegalMoveError:
            assert move not in legal
        else:
            assert move in legal

    @precondition(lambda self: self.state.is_over)
    @rule(state=gt.deals())
    def deal_again(self, state: GameState) -> None:
        result = goat.score(self.state)
        assert sum(result.points) == 120
        self.state = state

    @invariant()
    def every_card_once(self) -> None:
        assert sorted(every_card(self.state)) == list(DECK)

    @invariant()
    def equal_hands_and_stock_multiple_of_4(self) -> None:
        played = {m.seat: len(m.cards) for m in self.state.table}
        assert len({len(h) + played.get(s, 0) for s, h in enumerate(self.state.hands)}) == 1
        assert len(self.state.stock) % 4 == 0

    @invariant()
    def someone_decides_until_the_end(self) -> None:
        assert self.state.is_over == (self.state.to_move is None) == (goat.legal_moves(self.state) == ())


TestGoatGame = GoatGame.TestCase
