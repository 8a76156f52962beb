"""The ismcts bot: legal, deterministic with a seed and an iteration budget, stronger than random."""

from __future__ import annotations

import math
import random
from typing import Any

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


def _keep(card: goat.Card, trump: goat.Suit) -> int:
    """How much the rollout policy values keeping a card: points, then rank, trumps last."""
    return card.points * 3 + card.index % 9 + (30 if card.suit is trump else 0)


def _reference_rollout(state: goat.GameState, draw: random.Random) -> tuple[tuple[int, int], tuple[int, int]]:
    """The rollout policy of the module docs, played through the public API: every move must be legal."""
    from itertools import combinations

    from goat.rules import top_play

    trump = state.trump
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = goat.legal_moves(state)
        if seat != state.to_play:  # a molodka holder being asked: the policy waits (R14)
            move = goat.Move(goat.MoveKind.WAIT, seat, ())
        elif not state.table:  # a lead: one random card
            hand = sorted(state.hands[seat])
            move = goat.Move(goat.MoveKind.LEAD, seat, [hand[int(draw.random() * len(hand))]])
        else:
            hand = sorted(state.hands[seat])
            size = len(state.table[0].cards)
            top = top_play(state.table)
            chosen: list[goat.Card] = []
            if top.seat % 2 != seat % 2:
                beats = [list(c) for c in combinations(hand, size) if goat.beats_set(c, top.cards, trump)]
                if size == 1:
                    beats.sort(key=lambda c: c[0].suit is trump)  # side suits first, then the lowest
                    chosen = beats[0] if beats else []
                elif beats:
                    chosen = min(beats, key=lambda c: sum(_keep(x, trump) for x in c))
            kind = goat.MoveKind.BEAT if chosen else goat.MoveKind.PASS
            if not chosen:
                chosen = sorted(hand, key=lambda x: _keep(x, trump))[:size]
            move = goat.Move(kind, seat, chosen)
        assert move in legal, (str(state), str(move))
        state = goat.play(state, move)
    result = goat.score(state)
    return result.points, result.tricks


@pytest.mark.parametrize("seed", range(60))
def test_the_kernels_rollout_plays_legal_moves_by_its_policy(seed: int) -> None:
    """The compiled rollout's outcome equals the same policy played move by move through goat.play (R10-R17)."""
    rng = random.Random(seed)
    state = goat.new_game(seed=seed)
    for _ in range(rng.randrange(25)):
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    assert rollout(state, random.Random(seed)) == _reference_rollout(state, random.Random(seed))


# --- worlds=weighted: policy-based inference (goat.bots.inference) ---------------------------------------------


def test_weighted_ismcts_is_asked_for_by_name_and_checks_its_options() -> None:
    bot = goat.load_strategy("ismcts[worlds=weighted,model=hand,pool=8,temperature=2,iterations=10]", seed=1)
    assert isinstance(bot, ISMCTSBot) and (bot.worlds, bot.pool, bot.model.temperature) == ("weighted", 8, 2.0)
    assert goat.load_strategy("ismcts", seed=1).worlds == "uniform"
    with pytest.raises(ValueError, match="worlds must be"):
        factory(worlds="magic")
    for pool in (0, 2.5, "8", 10**9):
        with pytest.raises(ValueError, match="pool must be"):
            factory(worlds="weighted", pool=pool)
    with pytest.raises(ValueError, match="temperature"):
        factory(worlds="weighted", model="hand", temperature=0)
    with pytest.raises(ValueError, match="noise"):
        factory(worlds="weighted", model="hand", noise=2)
    with pytest.raises(ValueError, match="noise"):
        factory(worlds="weighted", model="hand", temperature=0.01, noise=0)  # no move may become impossible
    for options in ({"pool": 8}, {"model": "hand", "temperature": 4}, {"model": "learned"}, {"noise": 0.1}):
        with pytest.raises(ValueError, match="need worlds=weighted"):  # they would change nothing
            factory(**options)
    for exploration in (10**400, math.inf, -1, True):
        with pytest.raises(ValueError, match="exploration"):
            factory(exploration=exploration)


def test_uniform_ismcts_needs_no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    import goat.bots.learned

    def missing() -> None:
        raise FileNotFoundError("learned.json")

    monkeypatch.setattr(goat.bots.learned, "_shipped", missing)
    bot = goat.load_strategy("ismcts[iterations=5]", seed=1)
    seen = goat.view(goat.new_game(seed=1), 1)
    assert bot.choose(seen, seen.legal_moves) in seen.legal_moves


def test_weighted_ismcts_plays_legal_deterministic_games() -> None:
    check_strategy(goat.strategy_factory("ismcts"), games=2, iterations=15, worlds="weighted", pool=6, model="hand")


def test_weighted_ismcts_plays_legal_deterministic_games_sealed() -> None:
    # The same bot in its own process (exec: runs python -m goat.arena SPEC), seeded through the protocol.
    import sys

    made: list[Any] = []
    sealed = goat.strategy_factory(f"exec:{sys.executable} -m goat.arena ismcts[worlds=weighted,pool=6,iterations=15]")

    def sealed_factory(*, seed: int | None = None) -> Any:
        made.append(sealed(seed=seed))
        return made[-1]

    check_strategy(sealed_factory, games=1)
    assert not any(bot.process.alive for bot in made)


def test_weighted_ismcts_keeps_its_time_budget() -> None:
    import time

    bot = ISMCTSBot(seed=1, time_ms=40, worlds="weighted", pool=10_000)
    state = goat.new_game(seed=4)
    for _ in range(12):
        state = goat.play(state, goat.legal_moves(state)[0])
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    start = time.perf_counter()
    bot.choose(seen, seen.legal_moves)
    assert time.perf_counter() - start < 0.5
    assert bot.last_iterations >= 1


def test_the_reward_is_chosen_in_one_overridable_place() -> None:
    from goat.bots.ismcts import game_rewards

    asked = []

    class Inverted(ISMCTSBot):
        def rewards(self, view: goat.PlayerView) -> Any:
            asked.append(view)
            return lambda outcome: tuple(1 - r for r in game_rewards(outcome))

    state = goat.new_game(seed=2)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    assert ISMCTSBot(seed=1).rewards(seen) is game_rewards
    assert game_rewards((0, 120, 0, 9)) == (0.0, 1.0)
    playing_to_lose = Inverted(seed=1, iterations=400)
    moves = [playing_to_lose.choose(seen, seen.legal_moves) for _ in range(3)]
    assert asked == [seen] * 3
    # Searching to lose, it does not play what the same search plays to win.
    assert moves != [ISMCTSBot(seed=1, iterations=400).choose(seen, seen.legal_moves) for _ in range(3)]
