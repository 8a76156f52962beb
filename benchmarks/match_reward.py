"""An experiment, not a strategy: ``ismcts`` valuing a game by the chance of winning the match after it.

``ismcts`` values a finished game by its defeat-scores and points (:func:`goat.bots.ismcts.game_rewards`), whatever
the match's score.  A match ends when a team reaches 12 defeat-scores (R21), so near its end a game lost by 2 and one
lost by 6 are alike.  This bot's reward is ``0.7 * P(the team wins the match after this game) + 0.3 * points / 120``,
with ``P`` from :func:`match_chance`.  Played by ``benchmarks/strength.py`` through an import path (docs/bots.md,
"How strong"):

    PYTHONPATH=benchmarks python benchmarks/strength.py 'match_reward:factory[iterations=1000]' \\
        'ismcts[iterations=1000]' --workers 2
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from goat import PlayerView
from goat.bots.ismcts import ISMCTSBot
from goat.scoring import defeat_scores

#: How often a team loses a game by 2, 4 and 6 defeat-scores (R19) in games of ``ismcts[iterations=1000]`` against
#: itself (1,982 games; balls, 1.3% of them, left out).
LOSS_CHANCES = {2: 0.334, 4: 0.141, 6: 0.026}
#: The reward's weight on the match; the rest is on the game's points.
MATCH_WEIGHT = 0.7


@functools.cache
def match_chance(mine: int, theirs: int) -> float:
    """The chance that a team with ``mine`` defeat-scores wins the match against one with ``theirs`` (R21: the
    first to 12 is the goat), if each loses each later game by 2, 4 or 6 as often as :data:`LOSS_CHANCES` says.

    >>> match_chance(0, 0), round(match_chance(10, 0), 3), match_chance(12, 0)
    (0.5, 0.05, 0.0)
    """
    if mine >= 12:
        return 0.0
    if theirs >= 12:
        return 1.0
    total = sum(p * (match_chance(mine + d, theirs) + match_chance(mine, theirs + d)) for d, p in LOSS_CHANCES.items())
    return total / (2 * sum(LOSS_CHANCES.values()))


class MatchRewardBot(ISMCTSBot):
    """ISMCTS whose reward is mostly the chance of winning the match after the game."""

    def rewards(self, view: PlayerView) -> Callable[[tuple[int, int, int, int]], tuple[float, float]]:
        defeat0, defeat1 = view.defeat
        known: dict[int, tuple[float, float]] = {}

        def rewards(outcome: tuple[int, int, int, int]) -> tuple[float, float]:
            points0, points1, tricks0, tricks1 = outcome
            code = points0 << 8 | tricks0 << 4 | tricks1
            found = known.get(code)
            if found is None:
                after0 = defeat0 + defeat_scores(points0, tricks0)
                after1 = defeat1 + defeat_scores(points1, tricks1)
                found = known[code] = (
                    MATCH_WEIGHT * match_chance(after0, after1) + (1 - MATCH_WEIGHT) * points0 / 120,
                    MATCH_WEIGHT * match_chance(after1, after0) + (1 - MATCH_WEIGHT) * points1 / 120,
                )
            return found

        return rewards


def factory(*, seed: int | None = None, **options: Any) -> MatchRewardBot:
    """``ismcts`` with the match's reward; the options are ismcts's."""
    return MatchRewardBot(seed, **options)
