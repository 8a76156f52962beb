"""Thousands of seeded random games with the invariants checked after every move (R7–R18)."""

from __future__ import annotations

import itertools
import random

import goat
from goat import DECK, GameState, IllegalMoveError, Move, MoveKind
from tests.conftest import every_card, random_game

GAMES = 2000


def check_invariants(state: GameState) -> None:
    # Every card exactly once across hands, stock, table and tricks.
    assert sorted(every_card(state)) == list(DECK)
    # Hands hold equal numbers of cards before each trick (R15); the stock is a multiple of 4.
    played = {m.seat: len(m.cards) for m in state.table}
    assert len({len(h) + played.get(seat, 0) for seat, h in enumerate(state.hands)}) == 1
    assert len(state.stock) % 4 == 0
    assert all(len(t.cards) == 4 * len(t.plays[0].cards) for t in state.tricks)
    assert sum(c.points for t in state.tricks for c in t.cards) <= 120
    assert state.trump_card in state.deck[16:]  # R8: it was shown from the stock


def test_random_games_keep_every_invariant() -> None:
    rng = random.Random(20261201)
    kinds: set[MoveKind] = set()
    for seed in range(GAMES):
        state = goat.new_game(seed=seed, dealer=seed % 4)
        check_invariants(state)
        while not state.is_over:
            moves = goat.legal_moves(state)
            assert moves and len(set(moves)) == len(moves)
            assert all(m.seat == state.to_move for m in moves)
            move = rng.choice(moves)
            kinds.add(move.kind)
            before = (state.hands, state.stock, state.table, state.tricks, state.history, hash(state))
            after = goat.play(state, move)
            assert (state.hands, state.stock, state.table, state.tricks, state.history, hash(state)) == before
            assert after.history == (*state.history, move)
            state = after
            check_invariants(state)
        result = goat.score(state)
        assert sum(result.points) == 120 and sum(result.tricks) == len(state.tricks)
        assert all(not h for h in state.hands) and state.stock == () and state.table == ()
    assert kinds == set(MoveKind)  # the games reached every kind of move, waits and molodkas included


def test_play_accepts_every_legal_move_and_rejects_the_rest() -> None:
    rng = random.Random(7)
    for seed in range(300):
        state = goat.new_game(seed=seed)
        while not state.is_over:
            legal = goat.legal_moves(state)
            for move in legal:
                goat.play(state, move)  # never raises
            # Moves drawn from a broad space of possible ones: any seat, any kind, cards near the hands.
            pool = list(state.hands[rng.randrange(4)] | state.hands[state.to_move or 0]) + list(state.stock[:2])
            for _ in range(12):
                size = rng.randrange(0, min(4, len(pool)) + 1)
                kind = rng.choice(list(MoveKind))
                move = Move(kind, rng.randrange(4), [] if kind is MoveKind.WAIT else rng.sample(pool, size))
                if move in legal:
                    goat.play(state, move)
                else:
                    try:
                        goat.play(state, move)
                    except IllegalMoveError:
                        pass
                    else:
                        raise AssertionError(f"play accepted {move}, which legal_moves does not list")
            state = goat.play(state, rng.choice(legal))


def test_every_subset_of_the_deciders_hand_is_judged_like_legal_moves() -> None:
    rng = random.Random(11)
    for seed in range(60):
        state = goat.new_game(seed=seed)
        while not state.is_over:
            legal = set(goat.legal_moves(state))
            seat = state.to_move
            assert seat is not None
            held = sorted(state.hands[seat] | {c for m in state.table if m.seat == seat for c in m.cards})
            for size in range(len(held) + 1):
                for combo in itertools.combinations(held, size):
                    for kind in MoveKind:
                        if kind is MoveKind.WAIT and combo:
                            continue  # cannot be made at all (test_moves)
                        move = Move(kind, seat, combo)
                        try:
                            goat.play(state, move)
                            accepted = True
                        except IllegalMoveError:
                            accepted = False
                        assert accepted == (move in legal), move
            state = goat.play(state, rng.choice(sorted(legal, key=str)))


def test_legal_moves_is_deterministic_and_the_same_seed_gives_the_same_game() -> None:
    for seed in range(20):
        a, b = random_game(seed), random_game(seed)
        assert a == b and hash(a) == hash(b) and a.history == b.history
        assert goat.score(a) == goat.score(b)


def test_states_moves_and_views_survive_pickling() -> None:
    import pickle

    rng = random.Random(4)
    state = goat.new_game(seed=4)
    for _ in range(25):
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state and hash(copy) == hash(state)
        assert goat.legal_moves(copy) == goat.legal_moves(state)
        assert pickle.loads(pickle.dumps(goat.view(state, 2))) == goat.view(state, 2)
