"""Scoring a game and keeping a match (R18–R22).

>>> defeat_scores(45, 3), defeat_scores(30, 1), defeat_scores(0, 0), defeat_scores(60, 4)
(2, 4, 6, 0)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from goat.cards import Card
from goat.errors import GameNotOverError, ScoringError, shown
from goat.rules import new_game
from goat.seats import check_seat
from goat.state import MATCH_LIMIT, GameState

__all__ = ["MATCH_LIMIT", "MAX_TRICKS", "GameResult", "Match", "defeat_scores", "score"]


#: The most tricks a game can have: 36 cards, at least four to a trick (R10, R11).
MAX_TRICKS = 9


def _to_pair(value: object, name: str) -> tuple[int, int]:
    """A pair of ints by team, with errors that name the field."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"GameResult: {name} must be a pair of ints by team, not {shown(value)}")
    if len(value) != 2:
        raise ScoringError(f"GameResult: {name} must be two numbers, one per team, not {shown(value)}")
    first, second = value
    if type(first) is not int or type(second) is not int:
        raise TypeError(f"GameResult: {name} must be a pair of ints by team, not {shown(value)}")
    return (first, second)


def _points(value: object) -> tuple[int, int]:
    return _to_pair(value, "points")


def _tricks(value: object) -> tuple[int, int]:
    return _to_pair(value, "tricks")


def _defeat(value: object) -> tuple[int, int]:
    return _to_pair(value, "defeat")


def _check_result(result: GameResult) -> None:
    """The facts every game's result obeys (R18–R20), forfeits included."""
    points, tricks, defeat = result.points, result.tricks, result.defeat
    if type(result.balls) is not bool:
        raise TypeError(f"GameResult: balls must be True or False, not {shown(result.balls)}")
    if result.winner is not None and (type(result.winner) is not int or result.winner not in (0, 1)):
        raise ScoringError(f"GameResult: winner must be a team 0 or 1, or None for balls, not {shown(result.winner)}")
    check_seat(result.last_trick_winner, "GameResult: last_trick_winner", ScoringError)
    if min(points) < 0 or sum(points) != 120:
        raise ScoringError(f"GameResult: the teams' points are 0–120 and add up to 120 (R18), not {shown(points)}")
    if min(tricks) < 0 or sum(tricks) > MAX_TRICKS:
        raise ScoringError(f"GameResult: a game has at most {MAX_TRICKS} tricks, not {shown(tricks)}")
    if any(d not in (0, 2, 4, 6) for d in defeat):
        raise ScoringError(f"GameResult: defeat-scores gained are 0, 2, 4 or 6 (R19), not {defeat}")
    if result.balls != (points == (60, 60)) or result.balls != (result.winner is None):
        raise ScoringError(
            f"GameResult: balls is a 60 : 60 game, which has no winner (R20); "
            f"not points {points} with balls={result.balls} and winner={result.winner}"
        )
    if result.winner is None:
        if defeat != (0, 0):
            raise ScoringError(f"GameResult: balls give no defeat-scores (R20), not {defeat}")
        _check_played(points, tricks)
        return
    loser = 1 - result.winner
    if points[result.winner] <= points[loser] or defeat[result.winner] or not defeat[loser]:
        raise ScoringError(
            f"GameResult: the winner has more points and the loser gains the defeat-scores (R19); "
            f"not winner {result.winner} with points {points} and defeat-scores {defeat}"
        )
    # A forfeit (goat.records.forfeit_result): the loser 0 : 120 with 6 defeat-scores, in a game that was not
    # over, so with at most 8 tricks taken (9 tricks are all 36 cards, one at a time).  Any other result is a
    # game played to its end, whose defeat-scores follow from the loser's points and tricks (R19).
    if points[loser] == 0 and defeat[loser] == FORFEIT_DEFEAT and sum(tricks) < MAX_TRICKS:
        return
    _check_played(points, tricks)
    if defeat[loser] != defeat_scores(points[loser], tricks[loser]):
        raise ScoringError(
            f"GameResult: a team with {points[loser]} points and {tricks[loser]} tricks gains "
            f"{defeat_scores(points[loser], tricks[loser])} defeat-scores (R19), not {defeat[loser]}"
        )


#: What a team that forfeits a game gains: as for a game without a trick (R19); goat.records.FORFEIT_DEFEAT.
FORFEIT_DEFEAT = 6
#: The fewest tricks a game played to its end has: 36 cards, at most four cards a play, four plays a trick.
_MIN_TRICKS = 3


def _check_played(points: tuple[int, int], tricks: tuple[int, int]) -> None:
    """The facts of a game played to its end: 3–9 tricks, and points only for a team that took a trick."""
    if not _MIN_TRICKS <= sum(tricks) <= MAX_TRICKS:
        raise ScoringError(
            f"GameResult: a game played to its end has {_MIN_TRICKS}–{MAX_TRICKS} tricks (R10, R11), "
            f"not {shown(tricks)}"
        )
    for team in (0, 1):
        if points[team] and not tricks[team]:
            raise ScoringError(f"GameResult: team {team} has {points[team]} points without a trick")


@attrs.frozen
class GameResult:
    """The outcome of one game (R18–R20), by team (team 0 = seats 0 and 2).

    Raises :class:`~goat.ScoringError` for a result no game can have (points
    not adding up to 120, more than nine tricks, a winner without more points…).
    """

    points: tuple[int, int] = attrs.field(converter=_points)  #: card points, summing to 120 (R18)
    tricks: tuple[int, int] = attrs.field(converter=_tricks)  #: tricks won
    defeat: tuple[int, int] = attrs.field(converter=_defeat)  #: defeat-scores gained (R19)
    balls: bool  #: 60 : 60 (R20)
    winner: int | None  #: the team with 61 or more points; ``None`` for balls
    last_trick_winner: int  #: the seat that won the last trick; it leads the next game (R22)

    def __attrs_post_init__(self) -> None:
        _check_result(self)

    @property
    def loser(self) -> int | None:
        """The team that lost, or ``None`` for balls."""
        return None if self.winner is None else 1 - self.winner


def defeat_scores(points: int, tricks: int) -> int:
    """Defeat-scores gained by a team with these game points and tricks (R19, R20).

    0 for 60 points or more (a win, or balls); 2 for 31–59; 4 for 30 or fewer
    with at least one trick; 6 with no trick at all.  Raises
    :class:`~goat.ScoringError` (a :class:`ValueError`) for totals no game can
    produce (points outside 0–120, tricks outside 0–9, points without a trick).
    """
    if type(points) is not int or type(tricks) is not int:
        raise TypeError(f"defeat_scores() takes two ints, points and tricks, not {shown(points)} and {shown(tricks)}")
    if not 0 <= points <= 120:
        raise ScoringError(f"a team's points are 0–120 (R18), not {shown(points)}")
    if not 0 <= tricks <= MAX_TRICKS:
        raise ScoringError(f"a team wins 0–{MAX_TRICKS} tricks (a game has at most {MAX_TRICKS}), not {shown(tricks)}")
    if tricks == 0 and points:
        raise ScoringError(f"{shown(points)} points need at least one trick")
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
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"Match: results must be a sequence of GameResult values, not {shown(value)}")
    results = tuple(value)
    defeat = [0, 0]
    for number, result in enumerate(results, start=1):
        if not isinstance(result, GameResult):
            raise TypeError(f"Match: results holds GameResult values, not {shown(result)}")
        if max(defeat) >= MATCH_LIMIT:
            raise ScoringError(
                f"Match: game {number} follows the end of the match: after {number - 1} games the defeat-scores "
                f"are {tuple(defeat)}, and a match ends at {MATCH_LIMIT} (R21)"
            )
        defeat[0] += result.defeat[0]
        defeat[1] += result.defeat[1]
    return results


def _check_dealer(instance: object, attribute: object, seat: int) -> None:
    check_seat(seat, "Match: first_dealer", ScoringError)


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
    # The games recorded with record(), so that one game cannot count twice (a 60 : 60 game changes
    # neither the score nor, when its leader took the last trick, the next dealer).  Not part of the value.
    _games: tuple[GameState, ...] = attrs.field(default=(), init=False, eq=False, repr=False)

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
        Raises :class:`~goat.ScoringError` (a :class:`ValueError`) if the match is over.
        """
        if self.is_over:
            raise ScoringError(f"the match is over: team {self.goat} is the goat (R21)")
        return new_game(seed, deck=deck, trump_card=trump_card, dealer=self.next_dealer, defeat=self.defeat)

    def record(self, state: GameState) -> Match:
        """A new match with the finished game ``state`` added.

        Raises :class:`~goat.GameNotOverError` if the game goes on, and
        :class:`~goat.ScoringError` (a :class:`ValueError`) if the match is
        over, the game was recorded already, or it is not the one this match
        deals next (another dealer or other match scores).
        """
        if self.is_over:
            raise ScoringError(f"the match is over: team {self.goat} is the goat (R21)")
        result = score(state)
        if state in self._games:
            raise ScoringError("this game is already recorded in the match: a game counts once (R21)")
        if state.dealer != self.next_dealer or state.defeat != self.defeat:
            raise ScoringError(
                f"this game is not the match's next game: it was dealt by seat {state.dealer} "
                f"with defeat-scores {state.defeat}, the match deals next from seat {self.next_dealer} "
                f"with {self.defeat} (use Match.new_game)"
            )
        match = Match((*self.results, result), self.first_dealer)
        object.__setattr__(match, "_games", (*self._games, state))
        return match
