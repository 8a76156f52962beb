"""sample_world: every sampled world is a legal state that agrees with the view, drawn uniformly (R23)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import GameState, MoveKind
from goat.bots.worlds import WorldSampler
from tests.conftest import every_card


def replayed(world: GameState) -> GameState:
    """The world rebuilt from its own deck and history: it is reachable by the rules."""
    state = goat.new_game(deck=world.deck, trump_card=world.trump_card, dealer=world.dealer, defeat=world.defeat)
    for move in world.history:
        state = goat.play(state, move)
    return state


@given(gt.game_states(molodka=True), st.integers(0, 3), st.randoms(use_true_random=False))
def test_a_sampled_world_is_legal_and_agrees_with_the_view(state: GameState, seat: int, rng: random.Random) -> None:
    if state.is_over:
        return
    seen = goat.view(state, seat)
    world = goat.sample_world(seen, rng)
    assert goat.view(world, seat) == seen
    assert replayed(world) == world
    # Conservation holds in the world as in any state.
    assert sorted(every_card(world)) == list(goat.DECK)


@given(gt.game_states(molodka=True), st.randoms(use_true_random=False))
def test_the_deciders_world_puts_it_to_move(state: GameState, rng: random.Random) -> None:
    if state.is_over:
        return
    seat = state.to_move
    assert seat is not None
    seen = goat.view(state, seat)
    for world in (goat.sample_world(seen, rng), WorldSampler(seen).fast(rng)):
        assert world.to_move == seat
        assert goat.legal_moves(world) == seen.legal_moves


@given(gt.game_states(molodka=True), st.integers(0, 3), st.randoms(use_true_random=False))
def test_fast_worlds_agree_with_the_view_and_play_on_legally(state: GameState, seat: int, rng: random.Random) -> None:
    if state.is_over:
        return
    seen = goat.view(state, seat)
    world = WorldSampler(seen).fast(rng)
    again = goat.view(world, seat)
    assert (again.hand, again.table, again.tricks, again.hand_sizes, again.stock_size, again.to_play) == (
        seen.hand,
        seen.table,
        seen.tricks,
        seen.hand_sizes,
        seen.stock_size,
        seen.to_play,
    )
    while not world.is_over:  # the game goes on by the rules to its end
        world = goat.play(world, rng.choice(goat.legal_moves(world)))
    assert sum(goat.score(world).points) == 120


def test_unknown_cards_are_placed_in_proportion_to_room() -> None:
    # Seat 1's first decision: 32 unknown cards, the trump card among them, known to be in the stock (R8).
    state = goat.new_game(seed=12)
    seen = goat.view(state, 1)
    rng = random.Random(0)
    samples = 3000
    places: Counter[str] = Counter()
    card = next(c for c in goat.DECK if c not in seen.hand and c != seen.trump_card)
    for _ in range(samples):
        world = goat.sample_world(seen, rng)
        assert world.trump_card in world.stock
        where = "stock" if card in world.stock else f"seat {next(s for s in range(4) if card in world.hands[s])}"
        places[where] += 1
    # 31 other unknown cards share 19 stock places and 4 in each of three hands.
    expected = {"stock": 19 / 31, "seat 0": 4 / 31, "seat 2": 4 / 31, "seat 3": 4 / 31}
    for where, share in expected.items():
        assert abs(places[where] / samples - share) < 0.03, (where, places)


def test_a_face_down_pass_holds_each_unknown_card_in_proportion() -> None:
    rng = random.Random(3)
    state = goat.new_game(seed=5)
    while not any(m.kind is MoveKind.PASS for m in state.table):
        state = goat.new_game(seed=rng.randrange(1000))
        if state.to_move != state.to_play:
            continue
        lead = next(m for m in goat.legal_moves(state) if len(m.cards) == 1)
        state = goat.play(state, lead)
        if state.to_move == state.to_play:
            state = goat.play(state, next(m for m in goat.legal_moves(state) if m.kind is MoveKind.PASS))
    passer = next(m.seat for m in state.table if m.kind is MoveKind.PASS)
    observer = next(s for s in range(4) if s != passer and s != state.table[0].seat)
    seen = goat.view(state, observer)
    unknown = [
        c
        for c in goat.DECK
        if c not in seen.hand and c != seen.trump_card and all(c not in m.cards for m in seen.table)
    ]
    counts: Counter[goat.Card] = Counter()
    samples = 2000
    for _ in range(samples):
        world = goat.sample_world(seen, rng)
        (passed,) = [m for m in world.table if m.kind is MoveKind.PASS and m.seat == passer]
        counts.update(passed.cards)
    # One card passed, drawn from the unknown cards other than the trump card (which is in the stock).
    for card in unknown:
        assert abs(counts[card] / samples - 1 / len(unknown)) < 0.02


def test_sample_world_checks_its_argument() -> None:
    import pytest

    with pytest.raises(TypeError, match="PlayerView"):
        goat.sample_world(goat.new_game(seed=1), random.Random(1))  # type: ignore[arg-type]
