"""The seats of the referee: how it calls a bot, in its own process or in a child process.

An in-process bot (:class:`InProcessSeat`) is trusted code — goat's own bots, the user's own strategies — and
is called directly: nothing in-process can stop a bot's code from reading or changing the referee's whole
process, so nothing here tries.  What the seat does is keep a trusted bot's *bug* from corrupting the
results: its answer is looked up by value among the legal moves and the referee's own object is played; an
``Exception`` it raises is its fault (``exception``); a call that returns after the ``time_limit`` is a
``timeout``.  ``KeyboardInterrupt`` and ``SystemExit`` go on up, as anywhere in Python.  A bot that is not
trusted plays sealed (:class:`SealedSeat`): a child process (:mod:`goat.arena.sealed`).  Either way, what a
bot does wrong becomes a :class:`SeatFault`.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import Any

from goat.arena.sealed import DEFAULT_TIME_LIMIT, BotFault, ProcessStrategy
from goat.errors import MAX_REASON, GoatError, clean_text, describe_error
from goat.moves import Move
from goat.scoring import GameResult
from goat.strategy import Strategy, canonical_move
from goat.strategy import end_game as call_end_game
from goat.strategy import start_game as call_start_game
from goat.view import PlayerView

__all__ = ["InProcessSeat", "SealedSeat", "SeatFault", "build_bot", "clean_text", "describe_error"]


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
