"""One game, and one match, under a fault policy: the referee's loop.

The referee is the one place that holds a :class:`~goat.GameState` and the players at once.  Each
player sits in a *seat* that the referee trusts for nothing: an in-process bot (:class:`_InProcess`)
is called under a time budget and its answer is looked up among the legal moves (its own object is
never played); a sealed bot (:class:`_Sealed`) is a child process that is killed when it overruns.
Whatever a seat does wrong becomes a :class:`~goat.records.Fault`, handled by the fault policy:

- ``on_fault="forfeit"``: its team loses the game 120 : 0 with 6 defeat-scores;
- ``on_fault="random"``: a uniformly random legal move is played instead.

A fault never ends the match or the tournament — a real Ctrl-C of the person running it does.
"""

from __future__ import annotations

import queue
import random
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

import attrs

from goat.arena.sealed import DEFAULT_TIME_LIMIT, BotFault, ProcessStrategy
from goat.moves import Move
from goat.records import Fault, GameRecord, from_state
from goat.rules import new_game, play
from goat.scoring import GameResult, Match
from goat.state import GameState
from goat.strategy import Strategy, canonical_move
from goat.view import PlayerView, view

__all__ = ["FaultPolicy", "MatchRecord", "play_game", "play_match"]

FaultPolicy = Literal["forfeit", "random"]
#: A safety stop: no real match lasts this many games (each game gives 2 or more defeat-scores, or balls).
MAX_GAMES_PER_MATCH = 200


class SeatFault(Exception):  # noqa: N818 - "fault" is the arena's word (records.Fault)
    """What a seat did wrong, as the record will say it."""

    def __init__(self, kind: str, reason: str, stderr: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.stderr = stderr or None


# --- a real Ctrl-C, told apart from a bot's KeyboardInterrupt ----------------------------------

_INTERRUPTS = [0]  # SIGINTs received while a match was being played


@contextmanager
def watching_interrupts() -> Iterator[None]:
    """Count real SIGINTs, so that a ``KeyboardInterrupt`` a bot raises is its fault, not the end of the run.

    Only the main thread can install a handler; elsewhere no SIGINT arrives, so any
    ``KeyboardInterrupt`` there comes from a bot.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: Any) -> None:
        _INTERRUPTS[0] += 1
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupts_seen() -> int:
    """How many real SIGINTs :func:`watching_interrupts` has counted so far."""
    return _INTERRUPTS[0]


def is_real_interrupt(error: BaseException, before: int) -> bool:
    """Whether ``error`` is a real Ctrl-C (one counted since ``before``), not a bot's own ``KeyboardInterrupt``."""
    return isinstance(error, KeyboardInterrupt) and _INTERRUPTS[0] > before


# --- seats ----------------------------------------------------------------------------------


class _InProcess:
    """A bot in the referee's process: called under a budget, its answer looked up among the legal moves.

    A call that overruns cannot be stopped (a thread cannot be killed): the bot is abandoned and not
    called again for the rest of the match, so it is never called while its last call still runs.
    """

    def __init__(self, bot: Strategy, time_limit: float | None) -> None:
        self.bot = bot
        self.time_limit = time_limit
        self.abandoned: str | None = None

    def new_game(self) -> None:
        pass

    def _call(self, what: str, function: Callable[..., Any], *args: Any) -> Any:
        if self.abandoned is not None:
            raise SeatFault("disabled", f"not asked again this match: {self.abandoned}")
        before = _INTERRUPTS[0]
        if self.time_limit is None:
            try:
                return function(*args)
            except BaseException as error:  # SystemExit, GeneratorExit, a bot's KeyboardInterrupt …
                if is_real_interrupt(error, before):
                    raise
                raise SeatFault("exception", f"{what}() raised {type(error).__name__}: {error}") from None
        answers: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

        def run() -> None:
            try:
                answers.put((True, function(*args)))
            except BaseException as error:  # handed back to the referee's thread
                answers.put((False, error))

        threading.Thread(target=run, daemon=True, name="goat-bot").start()
        try:
            ok, value = answers.get(timeout=self.time_limit)
        except queue.Empty:
            self.abandoned = f"its {what}() overran the budget of {self.time_limit:g} s"
            raise SeatFault("timeout", f"{what}() gave no answer within the budget of {self.time_limit:g} s") from None
        if not ok:
            raise SeatFault("exception", f"{what}() raised {type(value).__name__}: {value}")
        return value

    def start_game(self, seen: PlayerView) -> None:
        hook = getattr(self.bot, "start_game", None)
        if hook is not None:
            self._call("start_game", hook, seen)

    def choose(self, seen: PlayerView, legal: tuple[Move, ...]) -> Move:
        answer = self._call("choose", self.bot.choose, seen, legal)
        move = canonical_move(answer, legal)
        if move is None:
            shown = str(answer) if type(answer) is Move else f"a {type(answer).__name__}"
            raise SeatFault("illegal", f"returned {shown}, which is not one of the {len(legal)} legal moves")
        return move

    def end_game(self, seen: PlayerView, result: GameResult, forfeit: int | None) -> None:
        hook = getattr(self.bot, "end_game", None)
        if hook is not None and self.abandoned is None:
            self._call("end_game", hook, seen, result)

    def close(self) -> None:
        pass


class _Sealed:
    """A protocol bot in a child process: killed when it overruns, started afresh for the next game."""

    def __init__(self, bot: ProcessStrategy, time_limit: float | None) -> None:
        self.bot = bot
        self.time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        self.dead: str | None = None  # why the process died this game, if it did

    def new_game(self) -> None:
        self.dead = None

    def _call(self, what: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.dead is not None:
            raise SeatFault("disabled", f"not asked again this game: {self.dead}")
        try:
            return function(*args, timeout=self.time_limit, **kwargs)
        except BotFault as fault:
            if fault.killed or not self.bot.process.alive:
                self.dead = f"its process was stopped at its {what} ({fault.kind})"
            raise SeatFault(fault.kind, fault.reason, fault.stderr) from None

    def start_game(self, seen: PlayerView) -> None:
        self._call("start_game", self.bot.start_game, seen)

    def choose(self, seen: PlayerView, legal: tuple[Move, ...]) -> Move:
        move: Move = self._call("choose", self.bot.choose, seen, legal)
        return move

    def end_game(self, seen: PlayerView, result: GameResult, forfeit: int | None) -> None:
        if self.dead is None:
            self._call("end_game", self.bot.end_game, seen, result, forfeit=forfeit)

    def close(self) -> None:
        self.bot.close()


def _seats(strategies: Sequence[Strategy], time_limit: float | None) -> list[_InProcess | _Sealed]:
    return [
        _Sealed(bot, time_limit) if isinstance(bot, ProcessStrategy) else _InProcess(bot, time_limit)
        for bot in strategies
    ]


# --- one game -------------------------------------------------------------------------------


def _play(
    seats: Sequence[_InProcess | _Sealed],
    state: GameState,
    *,
    seed: int | None,
    on_fault: FaultPolicy,
    names: tuple[str, ...] | None,
    rng: random.Random,
) -> GameRecord:
    faults: list[Fault] = []
    forfeit_by: int | None = None
    for seat in seats:
        seat.new_game()
    for number, seat in enumerate(seats):
        try:
            seat.start_game(view(state, number))
        except SeatFault as fault:
            faults.append(Fault(number, 0, fault.kind, f"start_game: {fault.reason}", None, fault.stderr))
            if on_fault == "forfeit" and forfeit_by is None:
                forfeit_by = number
    number = 0
    while forfeit_by is None and not state.is_over:
        number += 1
        decider = state.to_move
        assert decider is not None
        seen = view(state, decider)
        legal = seen.legal_moves
        try:
            move = seats[decider].choose(seen, legal)
        except SeatFault as fault:
            if on_fault == "forfeit":
                faults.append(Fault(decider, number, fault.kind, fault.reason, None, fault.stderr))
                forfeit_by = decider
                break
            move = rng.choice(legal)
            faults.append(Fault(decider, number, fault.kind, fault.reason, move, fault.stderr))
        state = play(state, move)
    if forfeit_by is None:
        record = from_state(state, seed=seed, players=names, faults=tuple(faults))
    else:
        record = from_state(state, seed=seed, players=names, faults=tuple(faults), forfeit_by=forfeit_by)
    for position, seat in enumerate(seats):
        try:
            seat.end_game(view(state, position), record.result, record.forfeit)
        except SeatFault as fault:  # the game is decided; the fault is only recorded
            faults.append(Fault(position, number, fault.kind, f"end_game: {fault.reason}", None, fault.stderr))
    return attrs.evolve(record, faults=tuple(faults))


def _check_bots(strategies: Iterable[Strategy]) -> list[Strategy]:
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Iterable):
        raise TypeError(f"strategies must be four Strategy objects, one per seat, not {strategies!r}")
    bots = list(strategies)
    if len(bots) != 4:
        raise ValueError(f"a game needs four strategies, one per seat, not {len(bots)}")
    for seat, bot in enumerate(bots):
        if not isinstance(bot, Strategy):
            raise TypeError(f"the strategy for seat {seat} has no choose(view, legal) method: {bot!r}")
    return bots


def check_policy(on_fault: object, time_limit: object) -> None:
    if on_fault not in ("forfeit", "random"):
        raise ValueError(f"on_fault must be 'forfeit' or 'random', not {on_fault!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")


def _check_seed(seed: object, what: str) -> int:
    if seed.__class__ is not int:
        raise TypeError(f"{what}: seed must be an int, not {seed!r}")
    return seed


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

    ``time_limit`` is each decision's budget in seconds, hooks included (``None``: unlimited for
    in-process bots, :data:`~goat.arena.sealed.DEFAULT_TIME_LIMIT` for sealed ones).  Sealed bots
    (:class:`~goat.arena.sealed.ProcessStrategy`, such as ``load_strategy("exec:...")``) are closed
    when the game ends.  Returns the :class:`~goat.records.GameRecord`, faults included.
    """
    bots = _check_bots(strategies)
    check_policy(on_fault, time_limit)
    _check_seed(seed, "play_game()")
    state = new_game(seed=seed, dealer=dealer)
    seats = _seats(bots, time_limit)
    label = None if names is None else tuple(names)
    try:
        with watching_interrupts():
            return _play(seats, state, seed=seed, on_fault=on_fault, names=label, rng=random.Random(seed))
    finally:
        for seat in seats:
            seat.close()


@attrs.frozen
class MatchRecord:
    """A whole match: every game's record and the final :class:`~goat.Match`."""

    seed: int
    games: tuple[GameRecord, ...]
    match: Match
    players: tuple[str, ...] | None = None

    @property
    def faults(self) -> tuple[Fault, ...]:
        """Every fault of every game, in order."""
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

    Game ``i`` is dealt from a seed drawn from ``seed``, so two matches with the same seed see the
    same sequence of decks (the duplicate format relies on it).  Faults follow ``on_fault``; sealed
    bots are closed when the match ends, whatever happens, so no child process outlives it.
    """
    bots = _check_bots(strategies)
    check_policy(on_fault, time_limit)
    _check_seed(seed, "play_match()")
    seats = _seats(bots, time_limit)
    try:
        with watching_interrupts():
            return _match(seats, seed, on_fault, None if names is None else tuple(names))
    finally:
        for seat in seats:
            seat.close()


def _match(
    seats: Sequence[_InProcess | _Sealed], seed: int, on_fault: FaultPolicy, names: tuple[str, ...] | None
) -> MatchRecord:
    seeds = random.Random(seed)
    fallback = random.Random(seed ^ 0x5EED)
    match = Match()
    games: list[GameRecord] = []
    while not match.is_over and len(games) < MAX_GAMES_PER_MATCH:
        game_seed = seeds.randrange(2**63)
        state = match.new_game(seed=game_seed)
        record = _play(seats, state, seed=game_seed, on_fault=on_fault, names=names, rng=fallback)
        games.append(record)
        match = Match((*match.results, record.result), match.first_dealer)
    return MatchRecord(seed, tuple(games), match, names)
