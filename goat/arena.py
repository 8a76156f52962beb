"""Where bots meet: games, matches and duplicate round-robin tournaments.

The arena is the one place that holds a :class:`~goat.GameState` and bots at
once.  A bot is shown only its :class:`~goat.PlayerView` (which carries the
match's defeat-scores, R23) and the legal moves; every move it returns is
checked by :func:`goat.play` before it counts, so a bad bot cannot corrupt a
game.  A bot that raises, returns an illegal move or overruns its time budget
is handled by the fault policy:

- ``on_fault="forfeit"``: its team loses the game 120 : 0 with 6 defeat-scores;
- ``on_fault="random"``: a uniformly random legal move is played instead.

Either way the fault is recorded (seat, move number, reason) in the
:class:`~goat.records.GameRecord`, and a tournament always finishes.

>>> import goat
>>> from goat import arena
>>> bots = [goat.load_strategy(name, seed=seat) for seat, name in enumerate(["greedy", "random"] * 2)]
>>> record = arena.play_game(bots, seed=1)
>>> sum(record.result.points), record.faults
(120, ())

Tournaments run each match as a job on a :class:`concurrent.futures.Executor`:
by default a process pool over the local cores; any executor with the same
interface works, e.g. ``dask.distributed.Client(...).get_executor()`` to spread
a tournament over a cluster with no code change.
"""

from __future__ import annotations

import json
import math
import os
import queue
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, Literal

import attrs

from goat.moves import Move
from goat.records import Fault, GameRecord, from_state
from goat.rules import legal_moves, new_game, play
from goat.scoring import Match, score
from goat.state import GameState
from goat.strategy import Strategy, end_game, load_strategy, start_game
from goat.view import view

__all__ = [
    "Entrant",
    "EntrantResult",
    "MatchRecord",
    "TournamentResult",
    "play_game",
    "play_match",
    "run_tournament",
    "wilson_interval",
]

FaultPolicy = Literal["forfeit", "random"]
#: A safety stop: no real match lasts this many games (each game gives 2 or more defeat-scores, or balls).
MAX_GAMES_PER_MATCH = 200


class _DisabledError(Exception):
    """A seat whose bot overran its time budget is not called again this game."""


def _call_with_budget(bot: Strategy, seen: Any, legal: tuple[Move, ...], budget: float | None) -> Any:
    """``bot.choose(seen, legal)``; with a budget, in a daemon thread that is abandoned if it overruns.

    A thread cannot be killed: an abandoned bot runs on in the background, which is why the
    arena does not ask that seat again in the same game.
    """
    if budget is None:
        return bot.choose(seen, legal)
    answers: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

    def run() -> None:
        try:
            answers.put((True, bot.choose(seen, legal)))
        except BaseException as error:  # handed back to the arena's thread
            answers.put((False, error))

    threading.Thread(target=run, daemon=True, name="goat-bot").start()
    try:
        ok, value = answers.get(timeout=budget)
    except queue.Empty:
        raise TimeoutError(f"no move within the budget of {budget:g} s") from None
    if not ok:
        raise value
    return value


def _play(
    bots: Sequence[Strategy],
    state: GameState,
    *,
    seed: int | None,
    on_fault: FaultPolicy,
    time_limit: float | None,
    names: tuple[str, ...] | None,
    rng: random.Random,
) -> GameRecord:
    faults: list[Fault] = []
    disabled: set[int] = set()
    for seat, bot in enumerate(bots):
        try:
            start_game(bot, view(state, seat))
        except (Exception, SystemExit) as error:  # a bot calling sys.exit() is a fault too
            faults.append(Fault(seat, 0, "exception", f"start_game() raised {type(error).__name__}: {error}"))
            if on_fault == "forfeit":
                return from_state(state, seed=seed, players=names, faults=tuple(faults), forfeit_by=seat)
    number = 0
    while not state.is_over:
        number += 1
        decider = state.to_move
        assert decider is not None
        seat = decider
        seen = view(state, seat)
        legal = seen.legal_moves
        try:
            if seat in disabled:
                raise _DisabledError
            move = _call_with_budget(bots[seat], seen, legal, time_limit)
            if not isinstance(move, Move) or move not in legal:
                raise _IllegalMoveError(move, legal_moves(state))
        except (Exception, SystemExit) as error:
            kind, reason = _describe(error)
            if kind == "timeout":
                disabled.add(seat)
            if on_fault == "forfeit":
                faults.append(Fault(seat, number, kind, reason))
                return from_state(state, seed=seed, players=names, faults=tuple(faults), forfeit_by=seat)
            move = rng.choice(legal)
            faults.append(Fault(seat, number, kind, reason, move))
        state = play(state, move)
    result = score(state)
    for seat, bot in enumerate(bots):
        try:
            end_game(bot, view(state, seat), result)
        except (Exception, SystemExit) as error:  # the game is decided; the fault is only recorded
            faults.append(Fault(seat, number, "exception", f"end_game() raised {type(error).__name__}: {error}"))
    return from_state(state, seed=seed, players=names, faults=tuple(faults))


class _IllegalMoveError(Exception):
    def __init__(self, move: object, legal: tuple[Move, ...]) -> None:
        self.move = move
        shown = str(move) if isinstance(move, Move) else repr(move)
        super().__init__(f"returned {shown}, which is not one of the {len(legal)} legal moves")


def _describe(error: BaseException) -> tuple[str, str]:
    if isinstance(error, _DisabledError):
        return "disabled", "not asked again this game after overrunning its time budget"
    if isinstance(error, TimeoutError):
        return "timeout", str(error)
    if isinstance(error, _IllegalMoveError):
        return "illegal", str(error)
    return "exception", f"choose() raised {type(error).__name__}: {error}"


def _check_bots(strategies: Sequence[Strategy]) -> list[Strategy]:
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Iterable):
        raise TypeError(f"strategies must be four Strategy objects, one per seat, not {strategies!r}")
    bots = list(strategies)
    if len(bots) != 4:
        raise ValueError(f"a game needs four strategies, one per seat, not {len(bots)}")
    for seat, bot in enumerate(bots):
        if not isinstance(bot, Strategy):
            raise TypeError(f"the strategy for seat {seat} has no choose(view, legal) method: {bot!r}")
    return bots


def _check_policy(on_fault: str, time_limit: float | None) -> None:
    if on_fault not in ("forfeit", "random"):
        raise ValueError(f"on_fault must be 'forfeit' or 'random', not {on_fault!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")


def play_game(
    strategies: Sequence[Strategy],
    *,
    seed: int,
    dealer: int = 0,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
    names: Sequence[str] | None = None,
) -> GameRecord:
    """Play one game with ``strategies[seat]`` in each seat; the deal comes from ``seed``.

    ``time_limit`` is each decision's budget in seconds (``None``: unlimited).
    Returns the :class:`~goat.records.GameRecord`, faults included.
    """
    bots = _check_bots(strategies)
    _check_policy(on_fault, time_limit)
    state = new_game(seed=seed, dealer=dealer)
    return _play(
        bots,
        state,
        seed=seed,
        on_fault=on_fault,
        time_limit=time_limit,
        names=None if names is None else tuple(names),
        rng=random.Random(seed),
    )


@attrs.frozen
class MatchRecord:
    """A whole match: every game's record and the final :class:`~goat.Match`."""

    seed: int
    games: tuple[GameRecord, ...]
    match: Match
    players: tuple[str, ...] | None = None

    @property
    def faults(self) -> tuple[Fault, ...]:
        return tuple(fault for game in self.games for fault in game.faults)


def play_match(
    strategies: Sequence[Strategy],
    *,
    seed: int,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
    names: Sequence[str] | None = None,
) -> MatchRecord:
    """Play games until a team is the goat (R21), the lead carried over (R22).

    Game ``i`` is dealt from a seed drawn from ``seed``, so two matches with the
    same seed see the same sequence of decks (the duplicate format relies on it).
    """
    bots = _check_bots(strategies)
    _check_policy(on_fault, time_limit)
    if seed.__class__ is not int:
        raise TypeError(f"play_match(): seed must be an int, not {seed!r}")
    seeds = random.Random(seed)
    fallback = random.Random(seed ^ 0x5EED)
    match = Match()
    games: list[GameRecord] = []
    label = None if names is None else tuple(names)
    while not match.is_over and len(games) < MAX_GAMES_PER_MATCH:
        game_seed = seeds.randrange(2**63)
        state = match.new_game(seed=game_seed)
        record = _play(bots, state, seed=game_seed, on_fault=on_fault, time_limit=time_limit, names=label, rng=fallback)
        games.append(record)
        match = Match((*match.results, record.result), match.first_dealer)
    return MatchRecord(seed, tuple(games), match, label)


# --- tournaments ------------------------------------------------------------------


@attrs.frozen
class Entrant:
    """A tournament entrant: a strategy name (as :func:`goat.load_strategy` knows it) and its options."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    label: str | None = None  #: how the entrant is shown; defaults to the name

    @property
    def title(self) -> str:
        return self.label or self.name

    def build(self, seed: int) -> Strategy:
        return load_strategy(self.name, seed=seed, **dict(self.options))


def _entrant(value: str | Entrant) -> Entrant:
    if isinstance(value, Entrant):
        return value
    if isinstance(value, str):
        return Entrant(value)
    raise TypeError(f"an entrant is a strategy name or an Entrant, not {value!r}")


@attrs.frozen
class _Job:
    """One match of a tournament, small and picklable so that any executor can run it."""

    team0: Entrant
    team1: Entrant
    seed: int
    on_fault: FaultPolicy
    time_limit: float | None


@attrs.frozen
class _Outcome:
    job: _Job
    goat: int | None
    games: int
    game_wins: tuple[int, int]
    defeat: tuple[int, int]
    faults: tuple[int, int]  #: by team


def _run_job(job: _Job) -> _Outcome:
    base = random.Random(job.seed).randrange(2**32)
    bots = [(job.team0 if seat % 2 == 0 else job.team1).build(base + seat) for seat in range(4)]
    names = tuple((job.team0 if seat % 2 == 0 else job.team1).title for seat in range(4))
    record = play_match(bots, seed=job.seed, on_fault=job.on_fault, time_limit=job.time_limit, names=names)
    wins = [0, 0]
    for game in record.games:
        if game.result.winner is not None:
            wins[game.result.winner] += 1
    faults = [0, 0]
    for fault in record.faults:
        faults[fault.seat % 2] += 1
    return _Outcome(
        job, record.match.goat, len(record.games), (wins[0], wins[1]), record.match.defeat, (faults[0], faults[1])
    )


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> low, high = wilson_interval(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class EntrantResult:
    """One entrant's totals over a tournament."""

    name: str
    matches: int
    match_wins: int
    games: int
    game_wins: int
    defeat: int  #: defeat-scores its teams gained, in all
    faults: int  #: faults of its bots

    @property
    def match_win_rate(self) -> float:
        return self.match_wins / self.matches if self.matches else 0.0

    @property
    def match_win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the match win rate."""
        return wilson_interval(self.match_wins, self.matches)

    @property
    def game_win_rate(self) -> float:
        return self.game_wins / self.games if self.games else 0.0

    @property
    def game_win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the game win rate."""
        return wilson_interval(self.game_wins, self.games)

    @property
    def mean_defeat(self) -> float:
        """Mean defeat-scores gained per game."""
        return self.defeat / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "matches": self.matches,
            "match_wins": self.match_wins,
            "match_win_rate": self.match_win_rate,
            "match_win_interval": list(self.match_win_interval),
            "games": self.games,
            "game_wins": self.game_wins,
            "game_win_rate": self.game_win_rate,
            "game_win_interval": list(self.game_win_interval),
            "mean_defeat_per_game": self.mean_defeat,
            "faults": self.faults,
        }


@attrs.frozen
class TournamentResult:
    """A tournament's outcome: totals per entrant, best first, and the settings it ran with."""

    entrants: tuple[EntrantResult, ...]
    matches: int  #: matches played in all
    seed: int
    seconds: float = attrs.field(eq=False)

    def __getitem__(self, name: str) -> EntrantResult:
        for entrant in self.entrants:
            if entrant.name == name:
                return entrant
        raise KeyError(name)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The result as JSON: settings, then one object per entrant."""
        return json.dumps(
            {
                "matches": self.matches,
                "seed": self.seed,
                "seconds": round(self.seconds, 3),
                "entrants": [e.to_dict() for e in self.entrants],
            },
            indent=indent,
        )

    def table(self) -> str:
        """A plain-text table, one row per entrant, with 95% Wilson intervals."""
        width = max([len("entrant")] + [len(e.name) for e in self.entrants])
        head = (
            f"{'entrant':<{width}}  {'matches won':>17}  {'95% interval':>13}  {'games won':>15}  "
            f"{'95% interval':>13}  {'defeat/game':>11}  {'faults':>6}"
        )
        rows = [head, "-" * len(head)]
        for e in self.entrants:
            ml, mh = e.match_win_interval
            gl, gh = e.game_win_interval
            rows.append(
                f"{e.name:<{width}}  {e.match_wins:>5}/{e.matches:<5} {e.match_win_rate:>5.1%}  "
                f"{ml:>5.1%}–{mh:<6.1%}  {e.game_wins:>5}/{e.games:<5} {e.game_win_rate:>3.0%}  "
                f"{gl:>5.1%}–{gh:<6.1%}  {e.mean_defeat:>11.2f}  {e.faults:>6}"
            )
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.table()


def _jobs(
    entrants: list[Entrant], boards: int, seed: int, on_fault: FaultPolicy, time_limit: float | None
) -> list[_Job]:
    """Every pairing, every board played twice with the teams swapped (duplicate format)."""
    seeds = random.Random(seed)
    jobs = []
    for i, first in enumerate(entrants):
        for second in entrants[i + 1 :]:
            for _ in range(boards):
                board = seeds.randrange(2**63)
                jobs.append(_Job(first, second, board, on_fault, time_limit))
                jobs.append(_Job(second, first, board, on_fault, time_limit))
    return jobs


def run_tournament(
    entrants: Iterable[str | Entrant],
    *,
    matches: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
) -> TournamentResult:
    """A duplicate round-robin: every pairing plays ``matches`` matches, half with each team side.

    Matches come in pairs that share a seed: the same sequence of deals is
    played once with each entrant as team 0, to cut the luck of the deal (as in
    duplicate bridge), so ``matches`` is even.  Each match is a job
    on ``executor`` (default: a process pool over the local cores; pass any
    :class:`concurrent.futures.Executor`, such as a ``dask.distributed``
    client's ``get_executor()``); ``progress(done, total)`` is called as
    matches finish.  Bots are built in the worker with
    :func:`goat.load_strategy`, each with its own seed derived from ``seed``,
    so a tournament is reproducible whatever runs it.
    """
    field = [_entrant(e) for e in entrants]
    titles = [e.title for e in field]
    if len(field) < 2 or len(set(titles)) != len(titles):
        raise ValueError(f"a tournament needs two or more distinct entrants, not {titles}")
    if matches.__class__ is not int or matches < 2 or matches % 2:
        raise ValueError(
            f"matches must be a positive even int (each deal is played twice, teams swapped), not {matches!r}"
        )
    _check_policy(on_fault, time_limit)
    for entrant in field:  # fail early, in this process, on a name that cannot be loaded
        entrant.build(0)
    jobs = _jobs(field, matches // 2, seed, on_fault, time_limit)
    started = time.perf_counter()
    own = executor is None
    pool: Executor = ProcessPoolExecutor(max_workers=os.cpu_count() or 1) if executor is None else executor
    outcomes: list[_Outcome] = []
    try:
        futures: list[Future[_Outcome]] = [pool.submit(_run_job, job) for job in jobs]
        for future in as_completed(futures):
            outcomes.append(future.result())
            if progress is not None:
                progress(len(outcomes), len(jobs))
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return TournamentResult(_totals(titles, outcomes), len(jobs), seed, time.perf_counter() - started)


def _totals(titles: list[str], outcomes: list[_Outcome]) -> tuple[EntrantResult, ...]:
    stats = {t: [0, 0, 0, 0, 0, 0] for t in titles}  # matches, match wins, games, game wins, defeat, faults
    for outcome in outcomes:
        for team, entrant in ((0, outcome.job.team0), (1, outcome.job.team1)):
            row = stats[entrant.title]
            row[0] += 1
            row[1] += outcome.goat == 1 - team
            row[2] += outcome.games
            row[3] += outcome.game_wins[team]
            row[4] += outcome.defeat[team]
            row[5] += outcome.faults[team]
    results = [EntrantResult(t, *stats[t]) for t in titles]
    return tuple(sorted(results, key=lambda r: (-r.match_win_rate, -r.game_win_rate, r.name)))
