"""The arena: games, matches, duplicate tournaments on any executor, and faults (bad bots)."""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import goat
from goat import Move, MoveKind, PlayerView, arena, records
from goat.testing import StrategyCheckError, check_strategy


class InlineExecutor(Executor):
    """A stand-in for a distributed engine's executor (such as dask's ``client.get_executor()``):
    every job is pickled and unpickled, as it would be to travel to another machine, then run here."""

    def __init__(self) -> None:
        self.jobs: list[Any] = []  # the matches (not the check that the entrants build where they run)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fn, args, kwargs = pickle.loads(pickle.dumps((fn, args, kwargs)))
        if args and hasattr(args[0], "seed"):
            self.jobs.append(args[0])
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


def raiser(*, seed: int | None = None) -> Raiser:
    return Raiser()


def cheater(*, seed: int | None = None) -> Cheater:
    return Cheater()


def test_a_tournament_with_faulty_bots_finishes_and_counts_their_faults() -> None:
    goat.register_strategy("raiser-test", raiser)
    goat.register_strategy("cheater-test", cheater)
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


def test_a_registered_strategy_that_cannot_reach_the_workers_is_refused_before_the_start() -> None:
    goat.register_strategy("lambda-test", lambda *, seed=None: Raiser())
    try:
        for executor in (InlineExecutor(), None):  # pickles its jobs; the default process pool
            with pytest.raises(ValueError, match=r"'lambda-test' is registered in this process .* cannot be sent"):
                arena.run_tournament(["lambda-test", "random"], matches=2, seed=1, executor=executor)
        with pytest.raises(ValueError, match="a sealed bot cannot import"):
            arena.run_tournament(["lambda-test", "random"], matches=2, seed=1, isolation="process")
        with ThreadPoolExecutor(max_workers=1) as threads:  # one process: it works
            result = arena.run_tournament(["lambda-test", "random"], matches=2, seed=1, executor=threads)
        assert result["lambda-test"].faults > 0
    finally:
        goat.unregister_strategy("lambda-test")


def test_a_registered_module_level_factory_works_in_a_spawned_pool() -> None:
    goat.register_strategy("cheater-spawn", cheater)
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as spawned:
            result = arena.run_tournament(["cheater-spawn", "random"], matches=2, seed=1, executor=spawned)
    finally:
        goat.unregister_strategy("cheater-spawn")
    assert result["cheater-spawn"].faults > 0 and result["random"].match_wins == 2


# --- tournaments ------------------------------------------------------------------


def test_duplicate_format_plays_each_board_with_the_teams_swapped() -> None:
    executor = InlineExecutor()
    result = arena.run_tournament(["greedy", "random"], matches=4, seed=9, executor=executor)
    jobs = executor.jobs
    assert len(jobs) == result.matches == 4
    boards: dict[int, list[tuple[str, str]]] = {}
    for job in jobs:
        boards.setdefault(job.seed, []).append((job.team0.entrant.name, job.team1.entrant.name))
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


# --- a hostile in-process bot -----------------------------------------------------------


class LyingMove(Move):
    """A Move subclass that claims to equal anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LyingBot:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return LyingMove(MoveKind.LEAD, view.seat, goat.cards("AS"))


class LookAlike:
    """Not a Move at all, but its __class__ says it is one."""

    def __init__(self, move: Move) -> None:
        self.kind, self.seat, self.cards, self.mask, self._key = move.kind, move.seat, move.cards, move.mask, 0

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return Move


class LookAlikeBot:
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return LookAlike(legal[0])  # type: ignore[return-value]


def raising(error: BaseException) -> type:
    class Bot:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            raise error

    return Bot


@pytest.mark.parametrize(
    ("bad", "kind", "reason"),
    [
        (LyingBot, "illegal", "returned a LyingMove, which is not one of the"),
        (LookAlikeBot, "illegal", "returned a LookAlike, which is not one of the"),
        (raising(KeyboardInterrupt()), "exception", "KeyboardInterrupt"),
        (raising(GeneratorExit()), "exception", "GeneratorExit"),
        (raising(SystemExit(3)), "exception", "SystemExit"),
        (raising(TimeoutError("my own timeout")), "exception", "TimeoutError: my own timeout"),
    ],
)
def test_a_hostile_in_process_bot_is_its_own_teams_fault(bad: type, kind: str, reason: str) -> None:
    players = [bad(), *bots("random", "random", "random", seed=1)]
    for time_limit in (None, 1.0):  # called directly, and in a thread under a budget
        played = arena.play_match(players, seed=4, time_limit=time_limit)
        assert played.match.is_over and played.match.goat == 0  # the cheat cannot make the others forfeit
        assert {f.seat for f in played.faults} == {0}
        assert played.faults[0].kind == kind and reason in played.faults[0].reason
        for game in played.games:
            assert game.forfeit == 0 and game.result.points == (0, 120)


class EqualToAll:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


_CTRL_C = """
import contextlib, os, signal, subprocess, sys, threading, time
import goat
from goat import arena

how = sys.argv[1]
# As in a terminal, whatever the test run inherited; or as in a process started in the background, which
# ignores SIGINT (then so must play: a Ctrl-C the process ignores stops nothing).
signal.signal(signal.SIGINT, signal.SIG_IGN if how == "ignoring" else signal.default_int_handler)


class EqualToAll:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class Interrupted:
    def choose(self, view, legal):
        me = os.getpid()
        if how == "sending":  # the bot's own SIGINT: its business, not the operator's
            os.kill(me, signal.SIGINT)
            time.sleep(0.05)
            return legal[0]
        if how == "thread-directed":  # pending in the referee's thread, to be taken when the match unblocks it
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            return legal[0]
        if how == "raising":  # pending in the thread that runs the bot
            signal.raise_signal(signal.SIGINT)
            return legal[0]
        if how in ("unblock-kill", "unblock-raise"):  # let through where the referee had blocked it
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            os.kill(me, signal.SIGINT) if how == "unblock-kill" else signal.raise_signal(signal.SIGINT)
            time.sleep(0.05)
            return legal[0]
        if how == "ignoring":  # the operator's, to a process that ignores SIGINT: once, on the first move
            if not view.history:
                subprocess.run(["sh", "-c", f"(sleep 0.1; kill -INT {me}) >/dev/null 2>&1 &"], check=True)
                time.sleep(0.3)
            return legal[0]
        if how == "hiding":
            os.getpid = EqualToAll
            os.SI_USER = 0x80
        # As if the person sent Ctrl-C while this bot thinks: from a process that is not the referee's own
        # (the shell exits at once, so the background job's parent is no longer a descendant of ours).
        subprocess.run(["sh", "-c", f"(sleep 0.2; kill -INT {me}) >/dev/null 2>&1 &"], check=True)
        if how == "swallowing":
            with contextlib.suppress(BaseException):
                time.sleep(3)
        else:
            time.sleep(3)
        return legal[0]


started = time.perf_counter()
time_limit = float(sys.argv[2]) if len(sys.argv) > 2 else None
try:
    arena.play_match(
        [Interrupted()] + [goat.load_strategy("random", seed=s) for s in (1, 2, 3)], seed=1, time_limit=time_limit
    )
    print("played on")
except KeyboardInterrupt:
    print("stopped", round(time.perf_counter() - started, 1))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tells the sender of a signal on Linux only")
@pytest.mark.parametrize("how", ["plainly", "hiding", "swallowing"])
def test_a_real_ctrl_c_still_stops_the_match(how: str) -> None:
    # Found by hostile reviews: hiding, with os.getpid replaced by an object equal to every pid, every SIGINT looked
    # like one of the bots' own; swallowing, with no time limit the bot runs in the referee's thread, where it
    # can catch the KeyboardInterrupt, and the referee counted the Ctrl-C but went on.  Either way the person's
    # Ctrl-C was lost.  Played in a process of its own: in this one, threads that other libraries started (as
    # OpenSpiel's tests do) may take the signal before the watcher (docs/sealed.md).
    done = subprocess.run([sys.executable, "-c", _CTRL_C, how], capture_output=True, text=True, timeout=60)
    words = done.stdout.split()
    assert words[:1] == ["stopped"], done.stdout + done.stderr
    assert float(words[1]) < 2.5, done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tells the sender of a signal on Linux only")
@pytest.mark.parametrize("how", ["sending", "ignoring", "thread-directed", "raising", "unblock-kill", "unblock-raise"])
@pytest.mark.parametrize("time_limit", [None, 5.0])  # the bot called in the referee's thread, or in one of its own
def test_a_sigint_a_bot_sends_or_the_process_ignores_does_not_stop_the_match(
    how: str, time_limit: float | None
) -> None:
    # Ignoring, found by CI (which starts the tests in the background): a SIGINT the process ignored was counted
    # as the operator's once the call returned, and stopped the match.  The others found by a hostile review: a
    # SIGINT sent to one thread (pthread_kill, raise_signal) waited, blocked, until the match ended, and was then
    # taken for the operator's; one let through by a bot that unblocked SIGINT in its thread reached the
    # referee's handler as if it were the operator's.
    limit = [] if time_limit is None else [str(time_limit)]
    done = subprocess.run([sys.executable, "-c", _CTRL_C, how, *limit], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["played", "on"], done.stdout + done.stderr


class HookHanger:
    def __init__(self, where: str) -> None:
        self.where = where

    def start_game(self, view: PlayerView) -> None:
        if self.where == "start":
            time.sleep(0.5)

    def end_game(self, view: PlayerView, result: goat.GameResult) -> None:
        if self.where == "end":
            time.sleep(0.5)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return legal[0]


@pytest.mark.parametrize("where", ["start", "end"])
def test_the_time_limit_covers_the_hooks(where: str) -> None:
    started = time.perf_counter()
    record = arena.play_game([HookHanger(where), *bots("random", "random", "random")], seed=1, time_limit=0.05)
    assert time.perf_counter() - started < 0.4
    (fault,) = record.faults
    assert fault.kind == "timeout" and f"{where}_game" in fault.reason
    assert (record.forfeit == 0) == (where == "start")  # a late end_game only gets recorded


def test_an_overrunning_bot_is_not_called_again_in_the_match() -> None:
    calls = []

    class Slow:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            calls.append(time.perf_counter())
            time.sleep(0.3)
            return legal[0]

    started = time.perf_counter()
    played = arena.play_match([Slow(), *bots("random", "random", "random")], seed=2, time_limit=0.02)
    assert len(calls) == 1  # the abandoned call ran on; the bot was never called beside it
    assert played.faults[0].kind == "timeout" and {f.kind for f in played.faults[1:]} == {"disabled"}
    assert time.perf_counter() - started < 0.3 * len(played.games)


def test_a_bot_that_holds_the_interpreters_lock_past_its_budget_is_a_timeout_and_not_called_again() -> None:
    # Found by a hostile review: one long call into C holds the lock, the timer cannot run, and the late answer
    # was played as if it had come in time.
    calls = []

    class Hog:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            calls.append(1)
            sum(range(6 * 10**7))  # one call into C of a second or more, never releasing the lock
            return legal[0]

    # A budget ample for the other seats' bots, on a loaded machine and the pure core too (a budget of 5 ms made
    # one of them time out first in CI), and far short of the call.
    played = arena.play_match([Hog(), *bots("random", "random", "random")], seed=2, time_limit=0.2)
    # (Which of the two timeouts says so is a race: the main thread may wake before or after the answer is queued.)
    assert played.faults[0].seat == 0
    assert played.faults[0].kind == "timeout" and "budget" in played.faults[0].reason
    assert len(calls) == 1 and {f.kind for f in played.faults[1:]} == {"disabled"}


def test_a_bot_that_raises_the_switch_interval_is_caught_and_it_is_put_back() -> None:
    interval = sys.getswitchinterval()

    class Starver:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            sys.setswitchinterval(1000)
            return legal[0]

    record = arena.play_game([Starver(), *bots("random", "random", "random")], seed=1, time_limit=5.0)
    assert sys.getswitchinterval() == interval
    assert record.faults[0].kind == "tamper" and "switch interval" in record.faults[0].reason


def test_a_bot_cannot_add_an_audit_hook() -> None:
    # Found by a hostile review: an audit hook, which can never be removed, ran the bot's code in the Ctrl-C
    # watcher (killing it: Ctrl-C stopped nothing) and in the referee's check of other seats (blaming them).
    # Played in a child process: a hook that got through would stay in this one for good.
    script = """
import os, sys, goat
from goat import arena
seen = []
class Hooker:
    def choose(self, view, legal):
        sys.addaudithook(lambda event, args: seen.append(event))
        return legal[0]
played = arena.play_game([Hooker()] + [goat.load_strategy("random", seed=s) for s in (1, 2, 3)], seed=1)
open(os.devnull).close()
print(played.faults[0].kind, "audit hooks" in played.faults[0].reason, len(seen))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["tamper", "True", "0"], done.stdout + done.stderr


def test_a_bot_that_breaks_goats_own_guard_is_a_fault_and_the_match_goes_on() -> None:
    # Found by a third hostile review: a bot turned the audit-hook veto off through goat's own counter, added a
    # hook, and the hook raised in the referee's check of the next call, where no fault was made: the match ended.
    # (In-process play cannot stop a bot that changes goat's own internals; it can keep the match going.)
    script = """
import sys, goat
from goat import arena
from goat.arena import seats
def hook(event, args):
    if event == "gc.get_referents":
        raise RuntimeError("hook")
class Breaker:
    def choose(self, view, legal):
        seats._CALLS[0] -= 1
        sys.addaudithook(hook)
        return legal[0]
played = arena.play_game([Breaker()] + [goat.load_strategy("random", seed=s) for s in (1, 2, 3)], seed=1)
print(played.faults[0].seat, played.faults[0].kind)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["0", "tamper"], done.stdout + done.stderr


class _NoisyModule(types.ModuleType):
    @property
    def stdout(self) -> Any:
        raise SystemExit("a bot's property, run in the referee's check")


@pytest.mark.parametrize("how", ["sys-class", "settrace", "threading-settrace", "gc-callback", "excepthook"])
def test_a_bot_that_leaves_its_code_where_the_referee_would_run_it_is_caught_and_it_is_put_back(how: str) -> None:
    # Found by a hostile review: a class of its own for sys (whose stdout is a property) ran the bot's code in the
    # referee's check, and a trace function for the threads to come ran it in the other seats' calls.
    before = (type(sys), sys.gettrace(), threading._trace_hook, list(gc.callbacks), sys.excepthook)  # type: ignore[attr-defined]

    class Leaver:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            if how == "sys-class":
                sys.__class__ = _NoisyModule
            elif how == "settrace":
                sys.settrace(lambda *args: None)
            elif how == "threading-settrace":
                threading.settrace(lambda *args: None)
            elif how == "gc-callback":
                gc.callbacks.append(lambda *args: None)
            else:
                sys.excepthook = lambda *args: None
            return legal[0]

    try:
        record = arena.play_game([Leaver(), *bots("random", "random", "random")], seed=1)  # in the referee's thread
        after = (type(sys), sys.gettrace(), threading._trace_hook, list(gc.callbacks), sys.excepthook)  # type: ignore[attr-defined]
    finally:
        sys.__class__ = before[0]
    assert after[0] is before[0] and after[1] is before[1] and after[2] is before[2] and after[4] is before[4]
    assert after[3] == before[3]
    assert record.faults and record.faults[0].kind == "tamper" and record.faults[0].seat == 0


@pytest.mark.parametrize("where", ["answer", "result"])
def test_a_finaliser_a_bot_hands_back_runs_under_its_budget_and_guard(where: str) -> None:
    # Found by a hostile review: an answer whose __del__ slept and lowered the recursion limit ran in the referee
    # after the budget and the check.  Now it runs in the call: the overrun and the change are the bot's faults.
    limit = sys.getrecursionlimit()

    class Bomb:
        def __del__(self) -> None:
            time.sleep(0.3)
            sys.setrecursionlimit(limit - 1)

    class Bomber:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            return Bomb() if where == "answer" else legal[0]  # type: ignore[return-value]

        def end_game(self, view: PlayerView, result: goat.GameResult) -> None:
            if where == "result":  # hidden in its copy of the result, which the referee lets go of
                object.__setattr__(result, "balls", Bomb())

    record = arena.play_game([Bomber(), *bots("random", "random", "random")], seed=1, time_limit=0.1)
    assert sys.getrecursionlimit() == limit
    assert record.faults and record.faults[0].kind in ("timeout", "tamper")


def exiting(*, seed: int | None = None) -> goat.Strategy:
    class Exiting:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            os._exit(7)  # as a segfault or the OOM killer would end the worker

    return Exiting()


def test_a_worker_killed_by_a_bot_costs_only_its_matches() -> None:
    goat.register_strategy("exiting-test", exiting)
    try:
        result = arena.run_tournament(["exiting-test", "greedy", "random"], matches=2, seed=1, isolation="none")
    finally:
        goat.unregister_strategy("exiting-test")
    assert result.matches == 2 and result["greedy"].matches == result["random"].matches == 2
    assert len(result.void) == 4 and all("died, twice" in (v.void or "") for v in result.void)
    assert result["exiting-test"].void == 4 and result["exiting-test"].matches == 0
    assert "void: exiting-test vs" in result.table() and '"void"' in result.to_json()


# --- found by a hostile review: each of these broke a promise before it was fixed ----------------


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("my __str__ raises in the referee")


class SlowToPrintError(Exception):
    def __str__(self) -> str:
        time.sleep(1.0)
        return "slow"


class HugeToPrintError(Exception):
    def __str__(self) -> str:
        return "x" * 10_000_000


@pytest.mark.parametrize(
    ("error", "time_limit", "reason"),
    [
        (UnprintableError(), None, "UnprintableError (whose message cannot be shown)"),
        (UnprintableError(), 1.0, "UnprintableError (whose message cannot be shown)"),
        (HugeToPrintError(), None, "HugeToPrintError: xxx"),
    ],
)
def test_a_bots_error_is_described_safely_and_briefly(
    error: BaseException, time_limit: float | None, reason: str
) -> None:
    record = arena.play_game([raising(error)(), *bots("random", "random", "random")], seed=4, time_limit=time_limit)
    (fault,) = record.faults
    assert fault.kind == "exception" and reason in fault.reason and len(fault.reason) <= 520


def test_describing_a_bots_error_is_inside_its_budget() -> None:
    started = time.perf_counter()
    players = [raising(SlowToPrintError())(), *bots("random", "random", "random")]
    record = arena.play_game(players, seed=4, time_limit=0.1)
    assert time.perf_counter() - started < 0.8 and record.faults[0].kind == "timeout"


class BadKey(int):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("my __eq__ raises in the referee")

    __hash__ = int.__hash__


class LookAlikeMove(Move):
    __slots__ = ()

    def __str__(self) -> str:
        return "nothing to see"


class StickyMove(Move):
    """Its __class__ is a property that lies and cannot be set: a plain __class__ assignment cannot undo it."""

    __slots__ = ()

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return Move

    @__class__.setter
    def __class__(self, value: type) -> None:
        pass

    @property  # type: ignore[misc]
    def mask(self) -> int:  # reading the field the usual way runs this
        raise RuntimeError("boom: the referee read my field")


class Tamperer:
    def __init__(self, how: str) -> None:
        self.how = how

    def start_game(self, view: PlayerView) -> None:
        if self.how == "hook-moves" and view.legal_moves:  # the engine's own moves, in the view of the first leader
            object.__setattr__(view.legal_moves[0], "mask", 0)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if self.how == "key":  # a move of its own (not the engine's interned one), with a key that lies
            mine = Move(legal[0].kind, legal[0].seat, legal[0].cards)
            object.__setattr__(mine, "_key", BadKey(1))
            return mine
        if self.how == "interned":  # the referee's own move now says it is another seat's
            object.__setattr__(legal[0], "_key", (legal[0]._key & ~3) | ((legal[0].seat + 1) % 4))
            return legal[0]
        if self.how == "mask":  # the referee's own move now holds other cards
            object.__setattr__(legal[0], "mask", (1 << 36) - 1)
            return legal[0]
        if self.how == "card":
            object.__setattr__(goat.DECK[0], "rank", goat.Rank.ACE)
            return legal[0]
        if self.how == "deleted":  # a card's field taken away altogether
            object.__delattr__(goat.DECK[1], "suit")
            return legal[0]
        if self.how == "play" and view.history:  # a play of its view, shared with the other seats' views
            object.__setattr__(view.history[0], "seat", (view.history[0].seat + 1) % 4)
            return legal[0]
        if self.how == "class":  # the referee's own move now of another class (one of the same layout)
            object.__setattr__(legal[-1], "__class__", LookAlikeMove)
            return legal[0]
        if self.how == "sticky":
            object.__setattr__(legal[-1], "__class__", StickyMove)
            return legal[0]
        if self.how == "trick" and view.tricks:  # a finished trick, shared with the other seats' views
            object.__setattr__(view.tricks[0], "winner", (view.tricks[0].winner + 1) % 4)
            return legal[0]
        if self.how in ("play", "trick", "hook-moves"):
            return legal[0]
        if self.how == "recursion":
            sys.setrecursionlimit(50)
            return legal[0]
        if self.how == "alarm":
            signal.signal(signal.SIGALRM, lambda *_: 1 / 0)
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
            return legal[0]
        if self.how == "hidden-recursion":  # and the check's own functions replaced, to hide it
            sys.setrecursionlimit(60)
            sys.getrecursionlimit = lambda: Liar()  # type: ignore[assignment]
            return legal[0]
        if self.how == "hidden-alarm":
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            signal.getitimer = lambda which: (0.0, 0.0)
            signal.getsignal = lambda signum: signal.SIG_DFL
            return legal[0]
        if self.how == "renamed-signals":  # the constants the check reads pointed elsewhere
            signal.signal(signal.SIGALRM, lambda *_: 1 / 0)
            signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
            signal.SIGALRM = signal.SIGUSR1
            signal.ITIMER_REAL = signal.ITIMER_PROF
            return legal[0]
        if self.how == "deleted-settings":
            del sys.stdout
            del signal.SIGALRM
            return legal[0]
        raise AssertionError(self.how)


class Liar:
    """Equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize(
    ("how", "kind"),
    [
        ("key", "illegal"),
        ("interned", "tamper"),
        ("mask", "tamper"),
        ("card", "tamper"),
        ("deleted", "tamper"),
        ("play", "tamper"),
        ("class", "tamper"),
        ("sticky", "tamper"),
        ("trick", "tamper"),
        ("hook-moves", "tamper"),
        ("recursion", "tamper"),
        ("alarm", "tamper"),
        ("hidden-recursion", "tamper"),
        ("hidden-alarm", "tamper"),
        ("renamed-signals", "tamper"),
        ("deleted-settings", "tamper"),
    ],
)
def test_a_bot_that_changes_shared_objects_or_settings_is_caught_and_they_are_put_back(
    how: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the functions a hiding bot replaces are put back after the test: the guard reads the settings through its
    # own references to them, and does not watch the modules' attributes)
    for module, name in (
        (sys, "getrecursionlimit"),
        (signal, "getitimer"),
        (signal, "getsignal"),
        (signal, "SIGALRM"),
        (signal, "ITIMER_REAL"),
    ):
        monkeypatch.setattr(module, name, getattr(module, name))
    handlers = {number: signal.getsignal(number) for number in (signal.SIGALRM, signal.SIGUSR1)}
    limit = sys.getrecursionlimit()
    state = goat.new_game(seed=4)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    keys = [(m._key, m.mask, m.cards) for m in goat.legal_moves(state)]
    played = arena.play_match([Tamperer(how), *bots("random", "random", "random")], seed=4)
    assert played.faults[0].seat == 0 and played.faults[0].kind == kind
    assert [(m._key, m.mask, m.cards) for m in goat.legal_moves(state)] == keys  # the engine's moves are intact
    assert [str(c) for c in goat.DECK][:2] == ["6C", "7C"]
    assert all(type(m) is Move for m in goat.legal_moves(state))
    assert all(object.__getattribute__(m, "__class__") is Move for m in goat.legal_moves(state))
    monkeypatch.undo()
    assert sys.getrecursionlimit() == limit and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert {number: signal.getsignal(number) for number in handlers} == handlers
    for game in played.games:
        assert records.loads(records.dumps(game)) == game  # every record replays
    assert seen.legal_moves[0] in goat.legal_moves(state)


def test_a_bot_cannot_rewrite_the_result_in_end_game() -> None:
    class Rewriter:
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            return legal[0]

        def end_game(self, view: PlayerView, result: goat.GameResult) -> None:
            object.__setattr__(result, "points", (120, 0))
            object.__setattr__(result, "winner", 0)

    played = arena.play_match([Rewriter(), *bots("random", "random", "random")], seed=2)
    for game in played.games:
        assert records.loads(records.dumps(game)) == game and game.result == goat.score(records.replay(game)[-1])


def test_looking_up_a_bots_methods_is_inside_its_guarded_call() -> None:
    class Tricky:
        calls = 0

        @property
        def choose(self) -> Any:
            Tricky.calls += 1
            if Tricky.calls > 1:
                raise KeyboardInterrupt("from a property")
            return lambda view, legal: legal[0]

    played = arena.play_match([Tricky(), *bots("random", "random", "random")], seed=2)
    assert played.match.is_over and played.faults[0].kind == "exception"

    class SlowLookup:
        def __getattr__(self, name: str) -> Any:
            if name == "start_game":
                time.sleep(1)
            raise AttributeError(name)

        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            return legal[0]

    started = time.perf_counter()
    record = arena.play_game([SlowLookup(), *bots("random", "random", "random")], seed=2, time_limit=0.1)
    assert time.perf_counter() - started < 0.8 and record.faults[0].kind == "timeout"


def keyboard_factory(*, seed: int | None = None) -> goat.Strategy:
    if multiprocessing.parent_process() is not None:  # only where the matches run
        raise KeyboardInterrupt("from a factory in a worker")
    return goat.load_strategy("random", seed=seed)


def sore_loser(*, seed: int | None = None) -> goat.Strategy:
    return raising(UnprintableError())()


def test_a_factory_that_raises_in_the_workers_forfeits_its_matches() -> None:
    goat.register_strategy("keyboard-test", keyboard_factory)
    goat.register_strategy("sore-test", sore_loser)
    try:
        with pytest.raises(
            goat.StrategyLoadError,
            match="cannot be built where the matches run: the factory of 'keyboard-test' raised KeyboardInterrupt",
        ):
            arena.run_tournament(["keyboard-test", "random"], matches=2, seed=1, isolation="none")
        result = arena.run_tournament(["sore-test", "random"], matches=2, seed=1, isolation="none")
    finally:
        goat.unregister_strategy("keyboard-test")
        goat.unregister_strategy("sore-test")
    assert result.void == () and result["sore-test"].faults > 0 and result["random"].match_wins == 2


def test_a_guard_made_over_objects_already_changed_puts_them_back_without_failing() -> None:
    # A bot's thread may change shared objects between two guarded calls: the next guard finds them changed
    # already. It must not fail (nor run the changed class's code); it puts them back as goat made them.
    from goat.arena.seats import _Guard

    state = goat.new_game(seed=4)
    legal = goat.legal_moves(state)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    mask = legal[0].mask
    object.__setattr__(legal[0], "__class__", StickyMove)
    try:
        changed = _Guard(seen, legal).restore()
    finally:
        object.__dict__["__class__"].__set__(legal[0], Move)
    assert changed == ["a legal move"]
    assert type(legal[0]) is Move and legal[0].mask == mask


def _change_process(how: str, tmp: str) -> None:
    import resource

    if how == "environ":
        os.environ["PYTHONHOME"] = "/nonexistent"  # would break every sealed bot started after it
    elif how == "unsetenv":
        del os.environ["PATH"]
    elif how == "cwd":
        os.chdir(tmp)
    elif how == "nofile":
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, hard))
    elif how == "stack-size":
        threading.stack_size(1 << 40)  # every thread started later fails to start
    elif how == "process-group":
        os.setpgid(0, 0)  # out of the terminal's job: Ctrl-C would no longer reach the referee
    else:
        raise AssertionError(how)


@pytest.mark.skipif(os.name != "posix", reason="resource limits and process groups are POSIX's")
@pytest.mark.parametrize("how", ["environ", "unsetenv", "cwd", "nofile", "stack-size", "process-group"])
@pytest.mark.parametrize("time_limit", [None, 5.0])
def test_a_bot_that_changes_the_process_is_caught_and_it_is_put_back(
    how: str, time_limit: float | None, tmp_path: Path
) -> None:
    # Found by a hostile review: none of these was checked, and each made bots of later matches fail (sealed
    # ones could not start: a crash, their team's forfeit) or the referee's next thread fail to start.  Played in
    # a process of its own: the process group, the environment and the limits are the test run's too.
    script = f"""
import os, resource, sys, threading
sys.path.insert(0, {str(Path(__file__).parent)!r})
import goat
from goat import arena
from test_arena import _change_process

before = (dict(os.environ), os.getcwd(), resource.getrlimit(resource.RLIMIT_NOFILE), threading.stack_size(),
          os.getpgrp())

class Changer:
    def choose(self, view, legal):
        if not view.history:
            _change_process({how!r}, {str(tmp_path)!r})
        return legal[0]

played = arena.play_match([Changer()] + [goat.load_strategy("random", seed=s) for s in (1, 2, 3)], seed=4,
                          time_limit={time_limit!r})
after = (dict(os.environ), os.getcwd(), resource.getrlimit(resource.RLIMIT_NOFILE), threading.stack_size(),
         os.getpgrp())
print(played.faults[0].seat, played.faults[0].kind, after == before)
print(played.faults[0].reason)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[0] == "0 tamper True", done.stdout + done.stderr


def sleeper_factory(*, seed: int | None = None) -> goat.Strategy:
    if seed != 0:  # quick for the referee's checks, which build every entrant with seed 0: endless in the matches
        time.sleep(3600)
    return goat.load_strategy("random", seed=seed)


def test_a_factory_that_never_returns_forfeits_its_matches_within_the_budget() -> None:
    # Found by a hostile review: bots were built with no budget, so a factory that hung where the matches run hung
    # the tournament, whatever its time_limit said.
    goat.register_strategy("sleeper-test", sleeper_factory)
    try:
        result = arena.run_tournament(
            ["sleeper-test", "random"],
            matches=2,
            seed=1,
            isolation="none",
            time_limit=0.2,
            executor=ThreadPoolExecutor(2),
        )
    finally:
        goat.unregister_strategy("sleeper-test")
    assert result.void == () and result["random"].match_wins == 2 and result["sleeper-test"].faults == 2


class Saboteur:
    """Changes the engine's shared moves of the next seat behind the guard's back: it gets them from Move.from_str,
    not from its view or its legal moves."""

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        seat = (view.seat + 1) % 4
        for card in goat.DECK:
            for kind in ("lead", "beat", "pass"):
                move = Move.from_str(f"{seat} {kind} {card}")
                object.__setattr__(move, "_key", Move.from_str(f"{seat} {kind} {goat.DECK[0]}")._key)
        return legal[0]


def test_changed_shared_moves_fail_the_match_saying_so_and_are_made_afresh() -> None:
    # Found by a hostile review: the next seat's move failed in the referee's own play (an IllegalMoveError that
    # named nobody), the next match in the process failed too, and check_strategy raised IllegalMoveError.
    # In-process play cannot tell which bot did it (docs/sealed.md): the match fails saying what happened, the
    # moves are made afresh, and the next match is sound.
    with pytest.raises(arena.EngineTamperedError, match="an in-process bot tampered with them"):
        arena.play_match([Saboteur(), *bots("random", "random", "random")], seed=4)
    honest = arena.play_match(bots("random", "random", "random", "random"), seed=4)
    assert honest.faults == () and all(records.loads(records.dumps(g)) == g for g in honest.games)
    # the texts of moves, as the protocol writes them, are made afresh too (a cache of them outlived the moves)
    assert all(goat.records.codec.notation(m) == str(m) for m in (Move.from_str(f"1 pass {c}") for c in goat.DECK))
    with pytest.raises(StrategyCheckError, match=r"the bot changed .* of the engine's shared moves"):
        check_strategy(lambda *, seed=None: Saboteur(), games=1)
    assert goat.moves.repair_moves() == 0


def test_repair_moves_sees_fields_replaced_by_look_alikes() -> None:
    # Found by a review: a field replaced by an int or frozenset subclass whose __eq__ lies passed the check, and
    # the changed move stayed in the engine's table.
    class Liar(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    move = Move.from_str("1 lead 10H")
    object.__setattr__(move, "seat", Liar(3))
    assert goat.moves.repair_moves() == 1
    assert str(Move.from_str("1 lead 10H")) == "1 lead 10H"


class SharedMemoryUser:
    """An honest bot that makes a shared memory block: the standard library's resource tracker blocks SIGINT, then
    unblocks it, in the calling thread."""

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if not view.history:
            from multiprocessing import shared_memory

            block = shared_memory.SharedMemory(create=True, size=64)
            block.close()
            block.unlink()
        os.kill(os.getpid(), 0)  # and checks that its process lives: signal 0 delivers nothing
        return legal[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee watches SIGINT on Linux")
@pytest.mark.parametrize("time_limit", [None, 5.0])
def test_an_honest_bot_that_unblocks_sigint_through_the_standard_library_is_no_cheat(time_limit: float | None) -> None:
    # Found by a review: the referee took the resource tracker's unblocking of SIGINT, and a signal 0 to its own
    # process, for tampering, and the honest bot forfeited.  Played in a process of its own, where SIGINT is handled.
    script = f"""
import signal, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
signal.signal(signal.SIGINT, signal.default_int_handler)
import goat
from goat import arena
from test_arena import SharedMemoryUser
played = arena.play_match([SharedMemoryUser()] + [goat.load_strategy("random", seed=s) for s in (1, 2, 3)], seed=4,
                          time_limit={time_limit!r})
print([(f.seat, f.kind, f.reason) for f in played.faults])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def env_changing_factory(*, seed: int | None = None) -> goat.Strategy:
    os.environ["GOAT_TEST_FACTORY_WAS_HERE"] = "1"
    return goat.load_strategy("random", seed=seed)


def test_a_factory_that_changes_the_process_forfeits_and_it_is_put_back() -> None:
    # Found by a review: what a factory changed was read as the first call's starting point, so the bot's first
    # call could change the environment unseen.
    from goat.arena.seats import SeatFault, build_within

    with pytest.raises(SeatFault, match="changed the process's environment, which was put back"):
        build_within(partial(env_changing_factory, seed=1), None, "the factory")
    assert "GOAT_TEST_FACTORY_WAS_HERE" not in os.environ


class _Stop(BaseException):
    pass


def test_a_tournament_that_stops_withdraws_its_queued_matches_from_the_callers_executor() -> None:
    # Found by a review: after a Ctrl-C, run_tournament raised at once, but an executor the caller passed in went
    # on playing every queued match (and kept the interpreter from exiting).
    submitted: list[Future[Any]] = []

    class Recording(ThreadPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:  # type: ignore[override]
            future = super().submit(*args, **kwargs)
            submitted.append(future)
            return future

    def stop(done: int, total: int) -> None:
        raise _Stop  # as a Ctrl-C would, at the first match finished

    with Recording(1) as pool:
        with pytest.raises(_Stop):
            arena.run_tournament(
                ["random", "greedy"], matches=20, seed=1, executor=pool, progress=stop, isolation="none"
            )
        matches = submitted[1:]  # the first job is the entrants' probe
        assert sum(f.cancelled() for f in matches) >= len(matches) - 2  # all but those already running or done


def test_a_sealed_bot_that_refuses_hello_is_out_for_the_game_with_one_fault() -> None:
    # Found by a review: a bot that answered hello with an error got about 46 'crash' faults a game, asked again
    # and again as a bot never greeted, though its process never crashed.
    code = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'quit': break\n"
        "    print(json.dumps({'type': 'error', 'message': 'no'}), flush=True)\n"
    )
    bot = arena.ProcessStrategy([sys.executable, "-c", code])
    played = arena.play_match([bot, *bots("greedy", "greedy", "greedy")], seed=1, time_limit=2.0)
    assert [f.kind for f in played.faults] == ["error"] * len(played.games)
