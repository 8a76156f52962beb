"""Scoring a game and keeping a match (R18–R22).

>>> defeat_scores(45, 3), defeat_scores(30, 1), defeat_scores(0, 0), defeat_scores(60, 4)
(2, 4, 6, 0)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from goat.cards import Card
from goat.errors import GameNotOverError
from goat.rules import new_game
from goat.seats import check_seat
from goat.state import GameState

__all__ = ["GameResult", "Match", "defeat_scores", "score"]

#: Defeat-scores that end a match (R21).
MATCH_LIMIT = 12


def _pair(value: Iterable[int]) -> tuple[int, int]:
    first, second = value
    return (first, second)


@attrs.frozen
class GameResult:
    """The outcome of one game (R18–R20), by team (team 0 = seats 0 and 2)."""

    points: tuple[int, int] = attrs.field(converter=_pair)  #: card points, summing to 120 (R18)
    tricks: tuple[int, int] = attrs.field(converter=_pair)  #: tricks won
    defeat: tuple[int, int] = attrs.field(converter=_pair)  #: defeat-scores gained (R19)
    balls: bool  #: 60 : 60 (R20)
    winner: int | None  #: the team with 61 or more points; ``None`` for balls
    last_trick_winner: int  #: the seat that won the last trick; it leads the next game (R22)

    @property
    def loser(self) -> int | None:
        """The team that lost, or ``None`` for balls."""
        return None if self.winner is None else 1 - self.winner


def defeat_scores(points: int, tricks: int) -> int:
    """Defeat-scores gained by a team with these game points and tricks (R19, R20).

    0 for 60 points or more (a win, or balls); 2 for 31–59; 4 for 30 or fewer
    with at least one trick; 6 with no trick at all.  Raises :class:`ValueError`
    for totals no game can produce (points outside 0–120, negative tricks,
    points without a trick).
    """
    if points.__class__ is not int or tricks.__class__ is not int:
        raise TypeError("defeat_scores() takes two ints: points and tricks")
    if not 0 <= points <= 120:
        raise ValueError(f"a team's points are 0–120 (R18), not {points}")
    if not 0 <= tricks <= 36:
        raise ValueError(f"a team wins 0–36 tricks, not {tricks}")
    if tricks == 0 and points:
        raise ValueError(f"{points} points need at least one trick")
    if points >= 60:
        return 0
    if points >= 31:
        return 2
    return 4 if tricks else 6


def score(state: GameState) -> GameResult:
    """Score a finished game (R18–R20).

    Raises :class:`~goat.GameNotOverError` (a :class:`ValueError`) if the game goes on.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"score() takes a GameState, not {type(state).__name__}")
    if not state.is_over:
        raise GameNotOverError(
            f"only a finished game can be scored (R17); {len(state.stock)} cards are still in the stock "
            f"and {sum(len(hand) for hand in state.hands)} in hands"
        )
    points = [0, 0]
    tricks = [0, 0]
    for trick in state.tricks:
        team = trick.winner % 2
        tricks[team] += 1
        points[team] += trick.points
    defeat = (defeat_scores(points[0], tricks[0]), defeat_scores(points[1], tricks[1]))
    balls = points[0] == points[1]
    winner = None if balls else (0 if points[0] > points[1] else 1)
    return GameResult((points[0], points[1]), (tricks[0], tricks[1]), defeat, balls, winner, state.tricks[-1].winner)


def _results(value: Iterable[GameResult]) -> tuple[GameResult, ...]:
    results = tuple(value)
    for result in results:
        if not isinstance(result, GameResult):
            raise TypeError(f"a match holds GameResult values, not {result!r}")
    return results


def _check_dealer(instance: object, attribute: object, seat: int) -> None:
    check_seat(seat, "first_dealer")


@attrs.frozen
class Match:
    """A series of games until a team has 12 defeat-scores, the goat (R21, R22).

    >>> import goat, random
    >>> rng = random.Random(0)
    >>> match = goat.Match()
    >>> while not match.is_over:
    ...     state = match.new_game(seed=rng.randrange(10**9))
    ...     while not state.is_over:
    ...         state = goat.play(state, rng.choice(goat.legal_moves(state)))
    ...     match = match.record(state)
    >>> max(match.defeat) >= 12, match.goat in (0, 1)
    (True, True)
    """

    results: tuple[GameResult, ...] = attrs.field(default=(), converter=_results)
    first_dealer: int = attrs.field(default=0, validator=_check_dealer)  #: dealer of the first game

    @property
    def defeat(self) -> tuple[int, int]:
        """Defeat-scores by team, summed over the games so far (R21)."""
        return (sum(r.defeat[0] for r in self.results), sum(r.defeat[1] for r in self.results))

    @property
    def is_over(self) -> bool:
        """Whether a team has 12 or more defeat-scores (R21)."""
        return max(self.defeat) >= MATCH_LIMIT

    @property
    def goat(self) -> int | None:
        """The team with 12 or more defeat-scores, or ``None`` while the match goes on (R21)."""
        defeat = self.defeat
        for team in (0, 1):
            if defeat[team] >= MATCH_LIMIT:
                return team
        return None

    @property
    def with_balls(self) -> bool:
        """Whether any game of this match ended in balls: the goat is then "goat with balls" (R21)."""
        return any(result.balls for result in self.results)

    @property
    def next_dealer(self) -> int:
        """Who deals the next game: the seat before the last game's last-trick winner (R9, R22)."""
        if not self.results:
            return self.first_dealer
        return (self.results[-1].last_trick_winner - 1) % 4

    def new_game(
        self,
        seed: int | None = None,
        *,
        deck: Iterable[Card] | str | None = None,
        trump_card: Card | str | None = None,
    ) -> GameState:
        """Deal the next game of this match, with the dealer and leader that R9 and R22 give.

        Takes the same ``seed``, ``deck`` and ``trump_card`` as :func:`goat.new_game`.
        Raises :class:`ValueError` if the match is over.
        """
        if self.is_over:
            raise ValueError(f"the match is over: team {self.goat} is the goat (R21)")
        return new_game(seed, deck=deck, trump_card=trump_card, dealer=self.next_dealer, defeat=self.defeat)

    def record(self, state: GameState) -> Match:
        """A new match with the finished game ``state`` added.

        Raises :class:`~goat.GameNotOverError` if the game goes on, and
        :class:`ValueError` if the match is over or the game is not the one
        this match deals next (another dealer or other match scores).
        """
        if self.is_over:
            raise ValueError(f"the match is over: team {self.goat} is the goat (R21)")
        result = score(state)
        if state.dealer != self.next_dealer or state.defeat != self.defeat:
            raise ValueError(
                f"this game is not the match's next game: it was dealt by seat {state.dealer} "
                f"with defeat-scores {state.defeat}, the match deals next from seat {self.next_dealer} "
                f"with {self.defeat} (use Match.new_game)"
            )
        return Match((*self.results, result), self.first_dealer)
