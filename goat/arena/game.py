"""One game, and one match, under a fault policy: the referee's loop.

The referee is the one place that holds a :class:`~goat.GameState` and the players at once.  Each
player sits in a *seat* (:mod:`goat.arena.seats`): an in-process bot is trusted code, called directly,
whose answer is looked up among the legal moves (its own object is never played); a sealed bot is a
child process that is killed when it overruns.  Whatever a seat does wrong becomes a
:class:`~goat.records.Fault`, handled by the fault policy:

- ``on_fault="forfeit"``: its team loses the game 120 : 0 with 6 defeat-scores;
- ``on_fault="random"``: a uniformly random legal move is played instead.

A fault never ends the match or the tournament; a ``KeyboardInterrupt`` (Ctrl-C) or ``SystemExit`` does,
wherever it comes from, as anywhere in Python.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from goat.arena.sealed import check_seconds
from goat.arena.seats import SealedSeat, Seat, SeatFault, close, launch, seats_for
from goat.errors import shown
from goat.records import Fault, GameRecord, MatchRecord, from_state
from goat.records.values import MAX_SEED
from goat.rules import new_game, play
from goat.scoring import Match
from goat.state import GameState
from goat.strategy import Strategy
from goat.view import view

__all__ = ["FaultPolicy", "MatchRecord", "play_game", "play_match"]

FaultPolicy = Literal["forfeit", "random"]
#: A safety stop: no real match lasts this many games (each game gives 2 or more defeat-scores, or balls).
MAX_GAMES_PER_MATCH = 200


# --- one game -------------------------------------------------------------------------------


def _play(
    seats: Sequence[Seat],
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


def _check_seed(seed: object, what: str) -> int:
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
    seats = seats_for(bots, time_limit)
    label = _names(names)
    try:
        launch(seats)
        return _play(seats, state, seed=seed, on_fault=on_fault, names=label, rng=random.Random(seed))
    finally:
        close(seats)


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
    seats = seats_for(bots, time_limit)
    try:
        launch(seats)
        return _match(seats, seed, on_fault, _names(names))
    finally:
        close(seats)


def _names(names: Sequence[str] | None) -> tuple[str, ...] | None:
    if isinstance(names, (str, bytes)):  # "abcd" is one name, not four
        raise TypeError(f"names are four names, one per seat, not {shown(names)}")
    return None if names is None else tuple(names)


def _match(seats: Sequence[Seat], seed: int, on_fault: FaultPolicy, names: tuple[str, ...] | None) -> MatchRecord:
    seeds = random.Random(seed)
    fallback = random.Random(seed ^ 0x5EED)
    match = Match()
    games: list[GameRecord] = []
    while not match.is_over and len(games) < MAX_GAMES_PER_MATCH:
        game_seed = seeds.randrange(2**63)
        state = match.new_game(seed=game_seed)
        record = _play(seats, state, seed=game_seed, on_fault=on_fault, names=names, rng=fallback)
        games.append(record)
        assert record.result is not None
        match = Match((*match.results, record.result), match.first_dealer)
    return MatchRecord(seed, tuple(games), match, names, confinement(seats))
