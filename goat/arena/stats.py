"""Statistics of a tournament: each entrant's totals, with Wilson intervals, as data, JSON and a table."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

import attrs

from goat.errors import finite, printable, shown

__all__ = ["EntrantResult", "MatchOutcome", "TournamentResult", "totals", "wilson_interval"]


@attrs.frozen
class MatchOutcome:
    """How one match of a tournament ended, by team (team 0 sat in seats 0 and 2)."""

    teams: tuple[str, str]  #: the entrants' titles
    seed: int
    goat: int | None  #: the team that is the goat (``None`` for a void match)
    games: int
    game_wins: tuple[int, int]
    defeat: tuple[int, int]
    faults: tuple[int, int]
    #: Why the match was not played out: the worker process playing it died (twice); ``None`` if it was.
    void: str | None = None


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> low, high = wilson_interval(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    for what, value in (("successes", successes), ("trials", trials)):
        if type(value) is not int:
            raise TypeError(f"wilson_interval(): {what} is an int, not {shown(value)}")
    if not 0 <= successes <= trials <= 2**53:  # (beyond, not a count of matches a float can hold)
        raise ValueError(f"wilson_interval(): 0 <= successes <= trials, not {shown(successes)} of {shown(trials)}")
    deviations = finite(z)
    if deviations is None or not 0 < deviations < 100:
        raise ValueError(f"wilson_interval(): z is a number of standard deviations above 0, not {shown(z)}")
    z = deviations  # a plain float, whatever kind of number was given
    if trials == 0:
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
    void: int = 0  #: its matches that could not be played out (not counted in ``matches``)

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
            "void_matches": self.void,
        }


@attrs.frozen
class TournamentResult:
    """A tournament's outcome: totals per entrant, best first, and the settings it ran with."""

    entrants: tuple[EntrantResult, ...]
    matches: int  #: matches played in all
    seed: int
    seconds: float = attrs.field(eq=False)
    void: tuple[MatchOutcome, ...] = ()  #: matches that could not be played out, with the reason
    #: what confined the sealed entrants (:attr:`goat.arena.sandbox.SandboxReport.summary`); ``None``: none was sealed
    sandbox: str | None = None

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
                "sandbox": self.sandbox,
                "entrants": [e.to_dict() for e in self.entrants],
                "void": [{"teams": list(v.teams), "seed": str(v.seed), "reason": v.void} for v in self.void],
            },
            indent=indent,
        )

    def table(self, width: int | None = None) -> str:
        """A plain-text table, one row per entrant, with 95% Wilson intervals (:meth:`entrant_table`), then a
        line per void match and what confined the sealed bots."""
        rows = [self.entrant_table(width)]
        rows += [f"void: {' vs '.join(v.teams)} (seed {v.seed}): {v.void}" for v in self.void]
        if self.sandbox is not None:
            rows.append(f"sealed bots: {self.sandbox}")
        return "\n".join(rows)

    def entrant_table(self, width: int | None = None) -> str:
        """The entrants' rows, best first: matches and games won, each with its win rate and 95% interval
        ("95% CI", in percent), the mean defeat-scores gained per game, and the faults.

        Without ``width`` nothing is cut, whatever the names.  With ``width`` (a terminal's columns) the table
        fits it: the interval columns are left out first (a last line says so), then names are shortened
        with "…"; a number is never cut.
        """
        entrants = self.entrants
        columns: list[tuple[str, list[str]]] = [
            ("matches", [f"{e.match_wins}/{e.matches}" for e in entrants]),
            ("won", [f"{e.match_win_rate:.1%}" for e in entrants]),
            ("95% CI", [_percents(e.match_win_interval) for e in entrants]),
            ("games", [f"{e.game_wins}/{e.games}" for e in entrants]),
            ("won", [f"{e.game_win_rate:.1%}" for e in entrants]),
            ("95% CI", [_percents(e.game_win_interval) for e in entrants]),
            ("defeat", [f"{e.mean_defeat:.2f}" for e in entrants]),
            ("faults", [str(e.faults) for e in entrants]),
        ]
        names = [printable(e.name) for e in entrants]  # a name is the organiser's text: no control reaches a terminal
        widths = [max([len(head), *map(len, cells)]) for head, cells in columns]
        name_width = max([len("entrant"), *map(len, names)])
        left_out = False
        if width is not None:
            # The intervals go first (the games' before the matches'), while the names would need shortening.
            for optional in (5, 2):
                if name_width + sum(widths) + 2 * len(widths) <= width:
                    break
                left_out = True
                del columns[optional], widths[optional]
            room = width - sum(widths) - 2 * len(widths)
            if name_width > room:
                name_width = max(room, len("entrant"))
                names = [name if len(name) <= name_width else name[: name_width - 1] + "…" for name in names]
        heads = [f"{head:>{w}}" for (head, _), w in zip(columns, widths, strict=True)]
        lines = [
            "  ".join([f"{'entrant':<{name_width}}", *heads]),
            "  ".join(["-" * name_width, *("-" * w for w in widths)]),
        ]
        for row, name in enumerate(names):
            cells = [f"{cells[row]:>{w}}" for (_, cells), w in zip(columns, widths, strict=True)]
            lines.append("  ".join([f"{name:<{name_width}}", *cells]))
        if left_out:
            lines.append(f"(95% CI left out to fit {width} columns)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _percents(interval: tuple[float, float]) -> str:
    """An interval in whole percent: ``72–100%``."""
    low, high = interval
    return f"{low * 100:.0f}–{high:.0%}"


def totals(titles: Iterable[str], outcomes: Iterable[MatchOutcome]) -> tuple[EntrantResult, ...]:
    """Each entrant's totals over the outcomes, best first (match win rate, then game win rate, then name)."""
    stats = {title: [0, 0, 0, 0, 0, 0, 0] for title in titles}  # matches, wins, games, wins, defeat, faults, void
    for outcome in outcomes:
        for team, title in enumerate(outcome.teams):
            row = stats[title]
            if outcome.void is not None:
                row[6] += 1
                continue
            row[0] += 1
            row[1] += outcome.goat == 1 - team
            row[2] += outcome.games
            row[3] += outcome.game_wins[team]
            row[4] += outcome.defeat[team]
            row[5] += outcome.faults[team]
    results = [EntrantResult(title, *row) for title, row in stats.items()]
    return tuple(sorted(results, key=lambda r: (-r.match_win_rate, -r.game_win_rate, r.name)))
