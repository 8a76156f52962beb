"""The ismcts bot: legal, deterministic with a seed and an iteration budget, stronger than random."""

from __future__ import annotations

import random

import pytest

import goat
from goat import arena
from goat.bots.ismcts import ISMCTSBot, factory, rollout
from goat.testing import check_strategy


def test_ismcts_is_found_by_name() -> None:
    assert "ismcts" in {info.name for info in goat.available_strategies()}
    assert isinstance(goat.load_strategy("ismcts", seed=1, iterations=10), ISMCTSBot)


def test_ismcts_plays_legal_deterministic_games() -> None:
    check_strategy(goat.strategy_factory("ismcts"), games=2, iterations=15)


def test_ismcts_beats_random_in_a_short_seeded_match() -> None:
    players = [
        factory(seed=seat, iterations=40) if seat % 2 == 0 else goat.load_strategy("random", seed=seat)
        for seat in range(4)
    ]
    played = arena.play_match(players, seed=7)
    assert played.match.goat == 1  # the random team is the goat
    assert not played.faults


def test_a_time_budget_is_respected() -> None:
    bot = ISMCTSBot(seed=1, time_ms=30)
    seen = goat.view(goat.new_game(seed=2), 1)
    import time

    start = time.perf_counter()
    bot.choose(seen, seen.legal_moves)
    assert time.perf_counter() - start < 0.5
    assert bot.last_iterations >= 1


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(iterations=0)
    with pytest.raises(ValueError, match="time_ms"):
        ISMCTSBot(time_ms=-1)
    with pytest.raises(TypeError, match="depth"):
        factory(depth=3)


def test_rollouts_finish_the_game_with_all_120_points() -> None:
    rng = random.Random(1)
    for seed in range(100):
        state = goat.new_game(seed=seed)
        for _ in range(rng.randrange(30)):
            if state.is_over:
                break
            state = goat.play(state, rng.choice(goat.legal_moves(state)))
        if state.is_over:
            continue
        points, tricks = rollout(state, rng)
        assert sum(points) == 120 and sum(tricks) >= len(state.tricks) + 1
