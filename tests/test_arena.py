"""The arena: games, matches, duplicate tournaments on any executor, and faults (bad bots)."""

from __future__ import annotations

import json
import pickle
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

import goat
from goat import Move, MoveKind, PlayerView, arena, records


class InlineExecutor(Executor):
    """A stand-in for a distributed engine's executor (such as dask's ``client.get_executor()``):
    every job is pickled and unpickled, as it would be to travel to another machine, then run here."""

    def __init__(self) -> None:
        self.jobs: list[Any] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fn, args, kwargs = pickle.loads(pickle.dumps((fn, args, kwargs)))
        self.jobs.append(args[0] if args else None)
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def bots(*names: str, seed: int = 0) -> list[goat.Strategy]:
    return [goat.load_strategy(name, seed=seed + seat) for seat, name in enumerate(names)]


def test_play_game_returns_a_replayable_record() -> None:
    record = arena.play_game(bots("greedy", "random", "greedy", "random"), seed=11, names=["g", "r", "g", "r"])
    assert record.seed == 11 and record.players == ("g", "r", "g", "r") and record.faults == ()
    states = records.replay(record)
    assert states[-1].is_over and goat.score(states[-1]) == record.result
    assert records.loads(records.dumps(record)) == record


def test_play_game_is_reproducible() -> None:
    first = arena.play_game(bots("greedy", "random", "greedy", "random"), seed=3)
    again = arena.play_game(bots("greedy", "random", "greedy", "random"), seed=3)
    assert first == again


def test_play_match_plays_to_a_goat_with_the_lead_carried_over() -> None:
    played = arena.play_match(bots("greedy", "random", "greedy", "random"), seed=8)
    assert played.match.is_over and played.match.goat in (0, 1)
    assert len(played.games) == len(played.match.results)
    for before, after in zip(played.games, played.games[1:], strict=False):
        assert after.dealer == (before.result.last_trick_winner - 1) % 4  # R9, R22
    totals = (0, 0)
    for record in played.games:  # each game starts from the match's defeat-scores so far (R21, R23)
        assert record.defeat == totals
        totals = (totals[0] + record.result.defeat[0], totals[1] + record.result.defeat[1])
    assert totals == played.match.defeat


def test_bots_see_views_only_with_the_match_defeat_scores() -> None:
    seen_types: set[type] = set()
    defeats: set[tuple[int, int]] = set()

    class Spy:
        def __init__(self) -> None:
            self.rng = random.Random(0)

        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            seen_types.add(type(view))
            defeats.add(view.defeat)
            return self.rng.choice(legal)

    played = arena.play_match([Spy(), Spy(), Spy(), Spy()], seed=2)
    assert seen_types == {PlayerView}
    assert defeats >= {(0, 0)} and len(defeats) == len(played.games)


# --- faults -------------------------------------------------------------------------


class Raiser:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if len(view.history) > 3:
            raise RuntimeError("bot bug")
        return legal[0]


class Cheater:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return Move(MoveKind.LEAD, view.seat, goat.cards("AS AH AD AC"))


class Quitter:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        raise SystemExit("bot quits the process")


class Sleeper:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        time.sleep(0.3)
        return legal[0]


@pytest.mark.parametrize(
    ("bad", "kind", "reason"),
    [
        (Raiser, "exception", "RuntimeError: bot bug"),
        (Cheater, "illegal", "not one of the"),
        (Sleeper, "timeout", "budget"),
        (Quitter, "exception", "SystemExit: bot quits"),
    ],
)
def test_a_faulty_bot_forfeits_the_game(bad: type, kind: str, reason: str) -> None:
    players = [bad(), *bots("random", "random", "random", seed=1)[:3]]
    record = arena.play_game(players, seed=4, on_fault="forfeit", time_limit=0.05)
    (fault,) = record.faults
    assert fault.seat == 0 and fault.kind == kind and reason in fault.reason and fault.replacement is None
    assert record.forfeit == 0
    assert record.result.defeat == (6, 0) and record.result.winner == 1
    assert fault.move == len(record.moves) + 1  # the decision it failed
    records.replay(records.loads(records.dumps(record)))  # the forfeited record replays


@pytest.mark.parametrize("bad", [Raiser, Cheater, Sleeper, Quitter])
def test_a_faulty_bot_is_replaced_by_random_moves(bad: type) -> None:
    players = [*bots("random", seed=1), bad(), *bots("random", "random", seed=3)]
    record = arena.play_game(players, seed=4, on_fault="random", time_limit=0.05)
    assert record.forfeit is None and record.faults
    assert all(f.seat == 1 and f.replacement is not None for f in record.faults)
    states = records.replay(record)
    assert states[-1].is_over  # the game was played to its end, every move legal
    for fault in record.faults:
        assert record.moves[fault.move - 1] == fault.replacement
    if bad is Sleeper:
        assert record.faults[0].kind == "timeout" and {f.kind for f in record.faults[1:]} <= {"disabled"}


def test_a_tournament_with_faulty_bots_finishes_and_counts_their_faults() -> None:
    goat.register_strategy("raiser-test", lambda *, seed=None: Raiser())
    goat.register_strategy("cheater-test", lambda *, seed=None: Cheater())
    try:
        result = arena.run_tournament(
            ["raiser-test", "cheater-test", "random"], matches=2, seed=1, executor=InlineExecutor()
        )
    finally:
        goat.unregister_strategy("raiser-test")
        goat.unregister_strategy("cheater-test")
    assert result.matches == 6
    assert result["raiser-test"].faults > 0 and result["cheater-test"].faults > 0
    assert result["random"].faults == 0
    assert result["random"].match_wins == 4


# --- tournaments ------------------------------------------------------------------


def test_duplicate_format_plays_each_board_with_the_teams_swapped() -> None:
    executor = InlineExecutor()
    result = arena.run_tournament(["greedy", "random"], matches=4, seed=9, executor=executor)
    jobs = executor.jobs
    assert len(jobs) == result.matches == 4
    boards: dict[int, list[tuple[str, str]]] = {}
    for job in jobs:
        boards.setdefault(job.seed, []).append((job.team0.name, job.team1.name))
    assert len(boards) == 2
    assert all(sorted(sides) == [("greedy", "random"), ("random", "greedy")] for sides in boards.values())
    assert result["greedy"].matches == result["random"].matches == 4


def test_round_robin_pairs_every_entrant() -> None:
    executor = InlineExecutor()
    arena.run_tournament(
        ["greedy", "random", arena.Entrant("random", label="random-2")], matches=2, seed=1, executor=executor
    )
    pairs = {frozenset((j.team0.title, j.team1.title)) for j in executor.jobs}
    assert pairs == {frozenset(p) for p in [("greedy", "random"), ("greedy", "random-2"), ("random", "random-2")]}


def test_tournaments_are_reproducible_whatever_the_executor() -> None:
    inline = arena.run_tournament(["greedy", "random"], matches=4, seed=21, executor=InlineExecutor())
    pooled = arena.run_tournament(["greedy", "random"], matches=4, seed=21)  # the default process pool
    assert inline == pooled


def test_progress_and_results_as_data_and_json() -> None:
    calls: list[tuple[int, int]] = []
    result = arena.run_tournament(
        ["greedy", "random"],
        matches=2,
        seed=3,
        executor=InlineExecutor(),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 2), (2, 2)]
    data = json.loads(result.to_json())
    assert [e["name"] for e in data["entrants"]] == [e.name for e in result.entrants]
    first = data["entrants"][0]
    assert first["matches"] == 2 and 0 <= first["match_win_interval"][0] <= first["match_win_rate"]
    table = result.table()
    assert "greedy" in table and "95% interval" in table and str(result) == table
    greedy = result["greedy"]
    assert greedy.games > 0 and greedy.mean_defeat == greedy.defeat / greedy.games


def test_tournament_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="two or more distinct"):
        arena.run_tournament(["greedy"], matches=2, seed=1)
    with pytest.raises(ValueError, match="matches"):
        arena.run_tournament(["greedy", "random"], matches=0, seed=1)
    with pytest.raises(goat.StrategyLoadError, match="no strategy named 'nobody'"):
        arena.run_tournament(["greedy", "nobody"], matches=2, seed=1)
    with pytest.raises(ValueError, match="on_fault"):
        arena.run_tournament(["greedy", "random"], matches=2, seed=1, on_fault="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="four strategies"):
        arena.play_game(bots("random", "random"), seed=1)


def test_wilson_interval() -> None:
    assert arena.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = arena.wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = arena.wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
