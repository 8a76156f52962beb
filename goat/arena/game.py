"""One game, and one match, under a fault policy: the referee's loop.

The referee is the one place that holds a :class:`~goat.GameState` and the players at once.  Each
player sits in a *seat*: an in-process bot (:class:`InProcessSeat`) is trusted code — goat's own bots,
the user's own strategies — called directly, since nothing in-process could stop its code from reading or
changing the referee's whole process; the seat keeps a trusted bot's *bug* from corrupting the results (its
answer is looked up among the legal moves and the referee's own object is played; an ``Exception`` is its
fault, a call that returns after ``time_limit`` a ``timeout``).  A bot that is not trusted plays sealed
(:class:`SealedSeat`): a child process (:mod:`goat.arena.sealed`), killed when it overruns.  Whatever a
seat does wrong becomes a :class:`~goat.records.Fault`, handled by the fault policy:

- ``on_fault="forfeit"``: its team loses the game 120 : 0 with 6 defeat-scores;
- ``on_fault="random"``: a uniformly random legal move is played instead.

A fault never ends the match or the tournament; a ``KeyboardInterrupt`` (Ctrl-C) or ``SystemExit`` does,
wherever it comes from, as anywhere in Python.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from time import perf_counter
from typing import Any, Literal

import attrs

from goat.arena.sealed import DEFAULT_TIME_LIMIT, BotFault, ProcessStrategy, check_seconds
from goat.errors import MAX_REASON, GoatError, clean_text, describe_error, shown
from goat.moves import Move, canonical_move
from goat.records import Fault, GameRecord, MatchRecord, from_state
from goat.records.values import MAX_SEED
from goat.rules import new_game, play
from goat.scoring import GameResult, Match
from goat.state import GameState
from goat.strategy import Strategy
from goat.strategy import end_game as call_end_game
from goat.strategy import start_game as call_start_game
from goat.view import PlayerView, view

__all__ = ["FaultPolicy", "MatchRecord", "play_game", "play_match"]

FaultPolicy = Literal["forfeit", "random"]
#: A safety stop: no real match lasts this many games (each game gives 2 or more defeat-scores, or balls).
MAX_GAMES_PER_MATCH = 200


# --- the seats ----------------------------------------------------------------------------------


class SeatFault(Exception):  # noqa: N818 - "fault" is the arena's word (records.Fault)
    """What a seat did wrong, as the record will say it."""

    def __init__(self, kind: str, reason: str, stderr: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = clean_text(reason, MAX_REASON)
        self.stderr = clean_text(stderr, 1 << 16) if stderr else None

    def __reduce__(self) -> tuple[Any, ...]:  # it travels back from a worker process (a tournament's probe)
        return (SeatFault, (self.kind, self.reason, self.stderr))


class InProcessSeat:
    """A trusted bot in the referee's process, called directly (see the module documentation).

    A call cannot be interrupted in-process (no thread: a thread could not be stopped either), so a call that
    overruns ``time_limit`` is a ``timeout`` when it returns, measured on :func:`time.perf_counter`.
    """

    __slots__ = ("bot", "time_limit")

    def __init__(self, bot: Strategy, time_limit: float | None) -> None:
        self.bot = bot
        self.time_limit = time_limit

    def new_game(self) -> None:
        pass

    def start_game(self, seen: PlayerView) -> None:
        self._hook("start_game", call_start_game, self.bot, seen)

    def choose(self, seen: PlayerView, legal: tuple[Move, ...]) -> Move:
        # The hot path of every in-process game: one call, timed only when there is a budget.
        limit = self.time_limit
        started = perf_counter() if limit is not None else 0.0
        try:
            answer = self.bot.choose(seen, legal)  # the lookup too: a property that raises is the bot's fault
        except Exception as error:
            raise SeatFault("exception", f"choose() raised {describe_error(error)}") from None
        if limit is not None and perf_counter() - started > limit:
            raise SeatFault("timeout", f"choose() answered after the budget of {limit:g} s")
        # By value, and the referee's own object is played: a stale, copied or look-alike move cannot pass.
        move = canonical_move(answer, legal)
        if move is None:
            raise SeatFault("illegal", f"returned {_called(answer)}, which is not one of the {len(legal)} legal moves")
        return move

    def end_game(self, seen: PlayerView, result: GameResult, forfeit: int | None) -> None:
        self._hook("end_game", call_end_game, self.bot, seen, result)

    def _hook(self, what: str, call: Callable[..., None], *args: Any) -> None:
        """``call(*args)``: the bot's optional hook, through goat.strategy's helper that calls it if it has one."""
        limit = self.time_limit
        started = perf_counter() if limit is not None else 0.0
        try:
            call(*args)
        except Exception as error:
            raise SeatFault("exception", f"{what}() raised {describe_error(error)}") from None
        if limit is not None and perf_counter() - started > limit:
            raise SeatFault("timeout", f"{what}() answered after the budget of {limit:g} s")

    def close(self) -> None:
        pass


def _called(answer: object) -> str:
    """What to call a bot's answer that is not a legal move: the move itself, or its type."""
    if type(answer) is Move:
        try:
            return str(answer)
        except Exception:  # a move made by hand with fields that are no card or seat
            return "a move that cannot be written down"
    return f"a {type(answer).__name__}"


def build_bot(build: Callable[[], Strategy], time_limit: float | None, what: str) -> Strategy:
    """``build()`` — a bot's factory, called directly — or a :class:`SeatFault`: ``exception`` if it raises an
    ``Exception`` (goat's own, such as load_strategy's about a name or its options, kept as the cause for the
    caller), ``timeout`` if it returns after ``time_limit`` seconds.  ``what`` names it in the reason."""
    started = perf_counter()
    try:
        bot = build()
    except Exception as error:
        cause = error if isinstance(error, GoatError) else None
        raise SeatFault("exception", f"{what} raised {describe_error(error)}") from cause
    if time_limit is not None and perf_counter() - started > time_limit:
        raise SeatFault("timeout", f"{what} gave its bot after the budget of {time_limit:g} s")
    return bot


class SealedSeat:
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


Seat = InProcessSeat | SealedSeat


def launch(seats: list[Seat]) -> None:
    """Start the sealed bots' processes side by side (each is greeted at its first request)."""
    for seat in seats:
        if isinstance(seat, SealedSeat):
            seat.bot.launch()


def close(seats: list[Seat]) -> None:
    """Close every seat: the sealed bots are all told to quit first, so that they exit side by side."""
    for seat in seats:
        if isinstance(seat, SealedSeat):
            seat.bot.process.say_quit()
    for seat in seats:
        seat.close()


def seats_for(strategies: list[Strategy], time_limit: float | None) -> list[Seat]:
    """A seat for each bot: sealed for a :class:`~goat.arena.sealed.ProcessStrategy`, in-process otherwise."""
    return [
        SealedSeat(bot, time_limit) if isinstance(bot, ProcessStrategy) else InProcessSeat(bot, time_limit)
        for bot in strategies
    ]


# --- one game -------------------------------------------------------------------------------


def play_seats(
    seats: Sequence[Seat],
    state: GameState,
    *,
    seed: int | None,
    on_fault: FaultPolicy,
    names: tuple[str, ...] | None,
    rng: random.Random,
    watch: Callable[[GameState], None] | None = None,
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
        if watch is not None:
            watch(state)
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
    headers = confinement(seats)
    if forfeit_by is None:
        record = from_state(state, seed=seed, players=names, faults=tuple(faults), headers=headers)
    else:
        record = from_state(
            state, seed=seed, players=names, faults=tuple(faults), forfeit_by=forfeit_by, headers=headers
        )
    assert record.result is not None  # the arena plays every game to its end, or to a forfeit
    late: list[Fault] = []
    for position, seat in enumerate(seats):
        try:
            seat.end_game(view(state, position), record.result, record.forfeit)
        except SeatFault as fault:  # the game is decided; the fault is only recorded
            late.append(Fault(position, number, fault.kind, f"end_game: {fault.reason}", None, fault.stderr))
    # (a record is checked as it is made: made again only when there is something to add)
    return attrs.evolve(record, faults=(*faults, *late)) if late else record


def confinement(seats: Sequence[Seat]) -> tuple[tuple[str, str], ...]:
    """A record's header saying what confined its sealed bots (none if every seat played in-process)."""
    said = sorted({seat.bot.report.summary for seat in seats if isinstance(seat, SealedSeat)})
    return (("sandbox", " | ".join(said)),) if said else ()


def _check_bots(strategies: Iterable[Strategy]) -> list[Strategy]:
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Iterable):
        raise TypeError(f"strategies must be four Strategy objects, one per seat, not {shown(strategies)}")
    bots = list(strategies)
    if len(bots) != 4:
        raise ValueError(f"a game needs four strategies, one per seat, not {len(bots)}")
    for seat, bot in enumerate(bots):
        # what isinstance(bot, Strategy) checks, without typing's protocol machinery (tens of µs a game)
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(f"the strategy for seat {seat} has no choose(view, legal) method: {shown(bot)}")
    return bots


def check_policy(on_fault: object, time_limit: object) -> None:
    if on_fault not in ("forfeit", "random"):
        raise ValueError(f"on_fault must be 'forfeit' or 'random', not {shown(on_fault)}")
    if time_limit is not None:
        check_seconds(time_limit, "time_limit")


def check_seed(seed: object, what: str) -> int:
    """``seed`` if it can seed a game, match or tournament: an ``int`` of at most 79 digits, as a record holds it
    (:class:`TypeError` or :class:`ValueError` naming ``what`` otherwise)."""
    if type(seed) is not int:
        raise TypeError(f"{what}: seed must be an int, not {shown(seed)}")
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise ValueError(f"{what}: seed must have at most 79 digits, as a record holds it, not {shown(seed)}")
    return seed


def play_game(
    strategies: Sequence[Strategy],
    *,
    seed: int,
    dealer: int = 0,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
    names: Sequence[str] | None = None,
    watch: Callable[[GameState], None] | None = None,
) -> GameRecord:
    """Play one game with ``strategies[seat]`` in each seat; the deal comes from ``seed``.

    ``time_limit`` is each decision's budget in seconds, hooks included (``None``: unlimited for
    in-process bots, :data:`~goat.arena.sealed.DEFAULT_TIME_LIMIT` for sealed ones).  Sealed bots
    (:class:`~goat.arena.sealed.ProcessStrategy`, such as ``load_strategy("exec:...")``) are closed
    when the game ends.  ``watch``, if given, is called as in :func:`play_match`.  Returns the
    :class:`~goat.records.GameRecord`, faults included.
    """
    bots = _check_bots(strategies)
    check_policy(on_fault, time_limit)
    _check_watch(watch)
    check_seed(seed, "play_game()")
    state = new_game(seed=seed, dealer=dealer)
    seats = seats_for(bots, time_limit)
    label = _names(names)
    try:
        launch(seats)
        return play_seats(seats, state, seed=seed, on_fault=on_fault, names=label, rng=random.Random(seed), watch=watch)
    finally:
        close(seats)


def play_match(
    strategies: Sequence[Strategy],
    *,
    seed: int,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
    names: Sequence[str] | None = None,
    watch: Callable[[GameState], None] | None = None,
) -> MatchRecord:
    """Play games until a team is the goat (R21), the lead carried over (R22).

    Game ``i`` is dealt from a seed drawn from ``seed``, so two matches with the same seed see the
    same sequence of decks (the duplicate format relies on it).  Faults follow ``on_fault``; sealed
    bots are closed when the match ends, whatever happens, so no child process outlives it.

    ``watch``, if given, is called with the referee's own :class:`~goat.GameState` before each decision, in
    the referee's process: for spectators and research tools (a live display of all hands; the
    research-only cheat of ``benchmarks/strength.py``, which searches the true state).  Handing that
    state to a player is cheating; what ``watch`` raises ends the match.
    """
    bots = _check_bots(strategies)
    check_policy(on_fault, time_limit)
    _check_watch(watch)
    check_seed(seed, "play_match()")
    seats = seats_for(bots, time_limit)
    try:
        launch(seats)
        return _match(seats, seed, on_fault, _names(names), watch)
    finally:
        close(seats)


def _check_watch(watch: object) -> None:
    if watch is not None and not callable(watch):
        raise TypeError(f"watch must be a function of the game state, or None, not {shown(watch)}")


def _names(names: Sequence[str] | None) -> tuple[str, ...] | None:
    if isinstance(names, (str, bytes)):  # "abcd" is one name, not four
        raise TypeError(f"names are four names, one per seat, not {shown(names)}")
    return None if names is None else tuple(names)


def _match(
    seats: Sequence[Seat],
    seed: int,
    on_fault: FaultPolicy,
    names: tuple[str, ...] | None,
    watch: Callable[[GameState], None] | None = None,
) -> MatchRecord:
    seeds = random.Random(seed)
    fallback = random.Random(seed ^ 0x5EED)
    match = Match()
    games: list[GameRecord] = []
    while not match.is_over and len(games) < MAX_GAMES_PER_MATCH:
        game_seed = seeds.randrange(2**63)
        state = match.new_game(seed=game_seed)
        record = play_seats(seats, state, seed=game_seed, on_fault=on_fault, names=names, rng=fallback, watch=watch)
        games.append(record)
        assert record.result is not None
        match = Match((*match.results, record.result), match.first_dealer)
    return MatchRecord(seed, tuple(games), match, names, confinement(seats))
