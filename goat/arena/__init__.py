"""Where bots meet: games, matches and duplicate round-robin tournaments, refereed.

The arena is the one place that holds a :class:`~goat.GameState` and bots at once.  A bot is shown
only its :class:`~goat.PlayerView` (which carries the match's defeat-scores, R23) and the legal moves;
the move it answers is looked up among the legal ones, and only the referee's own object is played.
In-process bots are trusted code, called directly; untrusted ones play sealed, in child processes.
A bot that raises an ``Exception``, answers something that is not a legal move, overruns its
``time_limit`` (its hooks included) or — sealed — crashes, hangs, floods or breaks the protocol is
handled by the fault policy:

- ``on_fault="forfeit"``: its team loses the game 120 : 0 with 6 defeat-scores;
- ``on_fault="random"``: a uniformly random legal move is played instead.

Either way the fault is recorded (seat, move number, kind, reason, the tail of a sealed bot's
standard error) in the :class:`~goat.records.GameRecord`, and a tournament always finishes.

>>> import goat
>>> from goat import arena
>>> bots = [goat.load_strategy(name, seed=seat) for seat, name in enumerate(["greedy", "random"] * 2)]
>>> record = arena.play_game(bots, seed=1)
>>> sum(record.result.points), record.faults
(120, ())

The package holds one concern per module: ``goat.arena.game`` (one game and one match under a
fault policy), :mod:`goat.arena.protocol` (the bot protocol's messages, and the bot side),
:mod:`goat.arena.sealed` (bots in child processes), ``goat.arena.tournament`` (tournaments on
any :class:`concurrent.futures.Executor`) and ``goat.arena.stats`` (the results); their names are all here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat._lazy import lazy

if TYPE_CHECKING:
    from goat.arena.game import FaultPolicy, MatchRecord, play_game, play_match
    from goat.arena.sealed import BotFault, ProcessStrategy
    from goat.arena.stats import EntrantResult, MatchOutcome, TournamentResult, wilson_interval
    from goat.arena.tournament import Entrant, Isolation, run_tournament

__all__ = [
    "BotFault",
    "Entrant",
    "EntrantResult",
    "FaultPolicy",
    "Isolation",
    "MatchOutcome",
    "MatchRecord",
    "ProcessStrategy",
    "TournamentResult",
    "play_game",
    "play_match",
    "run_tournament",
    "wilson_interval",
]

# Imported on first use: a sealed bot's own process (``python -m goat.arena NAME``) imports this package
# for goat.arena.protocol alone, and should not pay at every start for the referee's tournaments and
# executors (about a fifth of its start-up).
_LAZY = {
    **dict.fromkeys(("FaultPolicy", "MatchRecord", "play_game", "play_match"), "goat.arena.game"),
    **dict.fromkeys(("BotFault", "ProcessStrategy"), "goat.arena.sealed"),
    **dict.fromkeys(("EntrantResult", "MatchOutcome", "TournamentResult", "wilson_interval"), "goat.arena.stats"),
    **dict.fromkeys(("Entrant", "Isolation", "run_tournament"), "goat.arena.tournament"),
}


__getattr__, __dir__ = lazy(
    __name__, _LAZY, globals(), submodules=("game", "protocol", "sandbox", "sealed", "stats", "tournament")
)
