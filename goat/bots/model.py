"""A model of how players play: ``P(move | what that player saw)``, from a hand-written evaluation.

:class:`PlayerModel` scores every legal move by a one-ply estimate of the points it wins or gives away,
in card points (R4), with the rules of thumb of :mod:`goat.bots.greedy`, and turns the scores into
probabilities with a softmax at a *temperature* (in points: the lower, the more the model expects the
best-scoring move), of which a share, the *noise*, is spread evenly over the legal moves (a player who
plays by other rules).  It reads only what the deciding seat saw (R23): its own hand, the face-up cards
and its own passes, the sizes of the others' face-down passes and hands; a hidden pass counts
:data:`HIDDEN_CARD_POINTS` points a card.

The estimates, for the deciding seat's team:

- **Lead** (R10) of ``n`` cards worth ``p``: with ``b`` the chance that the opponents can cover every
  card (each card by one of the unseen cards that beat it, R5-R6, drawn without replacement), the trick
  is worth ``(1 - b) * (p + 3n) - b * p``.
- **Beat** (R11) of an opponent's top play: the cards on the table and those the seats after it add if
  it holds to the end of the trick (the opponents still to play may cover it, as above), its own points
  lost if not, and :data:`OWN_SHARE` of them; a trump spent on a side-suit trick costs
  :data:`TRUMP_COST`.  Beating the partner's top play gains nothing.
- **Pass**: loads its points onto the partner's trick when nobody after can take it (counted for the
  team), else gives them to the winner (counted against it).
- **Molodka** (R14): worth a lead of its four cards, and the opponent's top play swept off the table.
  A **wait** is worth nothing.

Every move also costs :data:`STRENGTH_COST` points per rank step of the cards it spends (trumps rank
above every side card), so that of two equal moves the cheaper is likelier.  Every legal move has a
positive probability, so no world a game could produce is ruled out.

>>> import goat
>>> from goat.bots.model import PlayerModel
>>> state = goat.new_game(seed=3)
>>> seen = goat.view(state, state.to_move)
>>> chances = PlayerModel().probabilities(seen)
>>> len(chances) == len(seen.legal_moves), round(sum(chances), 9), min(chances) > 0
(True, 1.0, True)
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from typing import Final, NamedTuple

from goat._core import BEAT, BEATERS, FULL, LEAD, MOLODKA, PASS, SUIT_MASK, SUIT_OF, WAIT, bits, mask_points
from goat.errors import finite, shown
from goat.moves import Move, MoveKind
from goat.view import PlayerView

__all__ = [
    "DEFAULT_NOISE",
    "DEFAULT_TEMPERATURE",
    "HIDDEN_CARD_POINTS",
    "OWN_SHARE",
    "RANK_STEPS",
    "STRENGTH_COST",
    "TRUMP_COST",
    "MoveModel",
    "PlayerModel",
    "TrickSoFar",
    "checked_noise",
    "checked_temperature",
    "rank_step",
    "softmax",
    "trick_so_far",
    "view_arguments",
]

#: The softmax's default temperature, in card points, and the share of probability spread evenly over the legal
#: moves (a player who plays by other rules than the model's).  Chosen with benchmarks/inference.py among
#: temperatures 1, 2, 4, 8 and shares 0, 0.1, 0.3, 0.5 on seeds 10000+: a low temperature fits greedy's games
#: best, but ismcts plays unlike the model (without an even share, its true worlds came out less likely than
#: uniform ones at 4 and below); 4 and 8 with 0.3 came out within noise of each other there (2.2 times as likely
#: as uniform), and on seeds 20000+ 8 kept the true world likelier than uniform and 4 did not.
DEFAULT_TEMPERATURE: Final = 8.0
#: The share of probability spread evenly over the legal moves by default (see :data:`DEFAULT_TEMPERATURE`).
DEFAULT_NOISE: Final = 0.3
#: Points a face-down pass is assumed to hold, per card (the deck averages 3.3 a card).
HIDDEN_CARD_POINTS: Final = 3
#: Points a move costs per rank step of the cards it spends (6 is step 0, A step 8; trumps 9 steps higher).
STRENGTH_COST: Final = 0.3
#: The share of its own cards' points a beat counts as won (greedy's quarter: an ace is worth keeping).
OWN_SHARE: Final = 0.25
#: Points a trump costs when spent to take a trick led in a side suit.
TRUMP_COST: Final = 2.0

#: A play on the table as the deciding seat saw it: (seat, kind code, cards mask, size); the mask is 0 for
#: another seat's face-down pass (R23).  Kind codes are the kernel's (``LEAD`` ... ``WAIT``).
TablePlay = tuple[int, int, int, int]
#: What :meth:`MoveModel.key_probabilities` takes (see :func:`view_arguments`).
ModelArguments = tuple[int, int, int, list[TablePlay], Sequence[int], int, list[int]]

_KIND_CODE: Final = {kind: code for code, kind in enumerate(MoveKind)}  # the kernel numbers kinds in this order


def rank_step(card: int, trump: int) -> int:
    """How useful a card (an index) is for taking later tricks: its rank step (6 is 0, A is 8), trumps 9 steps
    above every side card."""
    return card % 9 + (9 if SUIT_OF[card] == trump else 0)


#: ``RANK_STEPS[trump][card]``: :func:`rank_step` of every card, by trump suit.
RANK_STEPS: Final = tuple(tuple(rank_step(card, trump) for card in range(36)) for trump in range(4))


class TrickSoFar(NamedTuple):
    """The current trick as the deciding seat saw it (R10-R13), read by :func:`trick_so_far`."""

    stakes: float  #: the points on the table, another seat's face-down pass counted HIDDEN_CARD_POINTS a card
    top: int  #: the cards of the top play (R12) as a mask; 0 before the lead
    partner_top: bool  #: whether the top play is the partner's
    later: list[int]  #: the seats still to play after this one; none before the lead
    opponents_later: bool  #: whether an opponent is among them
    side_led: bool  #: whether the top play holds a card that is not a trump


def trick_so_far(seat: int, table: Sequence[TablePlay], trump: int) -> TrickSoFar:
    """What the models read of the current trick, for the deciding ``seat`` (``table`` and ``trump`` as
    :meth:`MoveModel.key_probabilities` takes them)."""
    stakes = 0.0
    top_seat, top = -1, 0
    for who, kind, mask, size in table:
        stakes += mask_points(mask) if mask else HIDDEN_CARD_POINTS * size
        if kind != PASS:  # the last lead, beat or molodka is on top (R12)
            top_seat, top = who, mask
    later = [(seat + i) & 3 for i in range(1, 4 - len(table))] if table else []
    # The next seat is always an opponent (R1), so one is to play after this seat whenever any seat is.
    return TrickSoFar(
        stakes, top, top_seat >= 0 and (top_seat ^ seat) & 1 == 0, later, bool(later), bool(top & ~SUIT_MASK[trump])
    )


def view_arguments(view: PlayerView, legal: Sequence[Move] | None = None) -> ModelArguments:
    """What :meth:`MoveModel.key_probabilities` takes, read from ``view`` (R23) and ``legal`` (by default
    ``view.legal_moves``): the seat, its hand and the cards it has not seen as masks, the table as ``TablePlay``
    tuples, hand sizes by seat, the trump suit's index and the moves' keys.

    Raises :class:`ValueError` when there are no moves or one is not legal in the view, and
    :class:`TypeError` when ``view`` is not a :class:`~goat.PlayerView`.
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"a model takes a PlayerView, not {type(view).__name__}")
    moves = view.legal_moves if legal is None else tuple(legal)
    if not moves:
        raise ValueError(f"seat {view.seat} has no moves to weigh in this view")
    if legal is not None:
        allowed = set(view.legal_moves)
        for move in moves:
            if move not in allowed:
                raise ValueError(f"{shown(move)} is not a legal move of seat {view.seat} in this view")
    hand = 0
    for card in view.hand:
        hand |= 1 << card.index
    seen = hand
    for trick in view.tricks:
        for play in trick.plays:
            for card in play.cards:  # face-up cards, and this seat's own passes
                seen |= 1 << card.index
    table: list[TablePlay] = []
    for play in view.table:
        mask = 0
        for card in play.cards:
            mask |= 1 << card.index
        seen |= mask
        table.append((play.seat, _KIND_CODE[play.kind], mask, play.size))
    return view.seat, hand, FULL & ~seen, table, view.hand_sizes, view.trump.index, [move.key for move in moves]


def checked_temperature(temperature: object) -> float:
    """``temperature`` as a float; a :class:`ValueError` unless it is a finite number above 0."""
    value = finite(temperature)
    if value is None or value <= 0:
        raise ValueError(f"temperature must be a finite number above 0, not {shown(temperature)}")
    return value


def checked_noise(noise: object) -> float:
    """``noise`` as a float; a :class:`ValueError` unless it is a number above 0 and at most 1 (with no noise, a
    move far below the best would get probability 0, and the worlds it was played in would be ruled out)."""
    value = finite(noise)
    if value is None or not 0 < value <= 1:
        raise ValueError(f"noise must be a number above 0 and at most 1, not {shown(noise)}")
    return value


def softmax(scores: Sequence[float], temperature: float, noise: float) -> tuple[float, ...]:
    """The probabilities a model gives moves of these ``scores``: a softmax at ``temperature``, with the share
    ``noise`` spread evenly over the moves (so that none is impossible).

    >>> [round(p, 3) for p in softmax([0.0, 1.0], 1.0, 0.2)]
    [0.315, 0.685]

    Raises :class:`ValueError` for no scores, scores that are not all finite, a temperature that is not a finite
    number above 0 or a noise not above 0 and at most 1.
    """
    if not scores:
        raise ValueError("softmax() needs at least one score")
    temperature = checked_temperature(temperature)
    noise = checked_noise(noise)
    try:
        total = sum(map(float, scores))  # float first: ints beyond any float fail here, not below
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):  # a NaN or an infinity (or scores too large to add) among them
        raise ValueError(f"softmax() needs finite scores, not {shown(list(scores))}")
    top = max(scores)
    weights = [math.exp((score - top) / temperature) for score in scores]
    share = (1 - noise) / sum(weights)
    even = noise / len(weights)
    return tuple(weight * share + even for weight in weights)


class MoveModel(abc.ABC):
    """A model of how players play: ``P(move | what the deciding seat saw)`` over the legal moves (R23).

    :class:`PlayerModel` (hand-written) and :class:`goat.bots.learned.LearnedModel` (trained on games the library
    plays itself) are its kinds; :func:`goat.bots.inference.weighted_worlds` takes either.  A kind defines
    :meth:`key_probabilities`, on the engine's representation; :meth:`probabilities` reads a view into it.
    """

    def probabilities(self, view: PlayerView, legal: Sequence[Move] | None = None) -> tuple[float, ...]:
        """The probability of each of ``legal`` (by default ``view.legal_moves``), in their order.

        Raises :class:`ValueError` when there are no moves or one is not legal in the view, and
        :class:`TypeError` when ``view`` is not a :class:`~goat.PlayerView`.
        """
        return self.key_probabilities(*view_arguments(view, legal))

    @abc.abstractmethod
    def key_probabilities(
        self,
        seat: int,
        hand: int,
        unknown: int,
        table: Sequence[TablePlay],
        sizes: Sequence[int],
        trump: int,
        keys: Sequence[int],
    ) -> tuple[float, ...]:
        """:meth:`~goat.bots.model.MoveModel.probabilities` on the engine's representation (see
        docs/architecture.md): the seat's hand and the cards it has not seen as masks, the table as ``TablePlay``
        tuples, hand sizes by seat, the trump suit's index and the legal moves' keys.  Every probability is above 0
        and they add up to 1."""


class PlayerModel(MoveModel):
    """``P(move | what the deciding seat saw)``: a softmax over hand-written move scores (see the module docs).

    ``temperature`` is in card points, above 0.
    """

    def __init__(self, temperature: float = DEFAULT_TEMPERATURE, noise: float = DEFAULT_NOISE) -> None:
        self.temperature = checked_temperature(temperature)
        self.noise = checked_noise(noise)

    def __repr__(self) -> str:
        return f"PlayerModel(temperature={self.temperature:g}, noise={self.noise:g})"

    def key_probabilities(
        self,
        seat: int,
        hand: int,
        unknown: int,
        table: Sequence[TablePlay],
        sizes: Sequence[int],
        trump: int,
        keys: Sequence[int],
    ) -> tuple[float, ...]:
        """The softmax of :meth:`scores` at the temperature, with the noise spread evenly (arguments as
        :meth:`~goat.bots.model.MoveModel.key_probabilities`)."""
        return softmax(self.scores(seat, hand, unknown, table, sizes, trump, keys), self.temperature, self.noise)

    def scores(
        self,
        seat: int,
        hand: int,
        unknown: int,
        table: Sequence[TablePlay],
        sizes: Sequence[int],
        trump: int,
        keys: Sequence[int],
    ) -> list[float]:
        """Each move's score in card points, as the module docs say (arguments as :meth:`key_probabilities`)."""
        team = seat & 1
        opponents = sum(sizes[s] for s in range(4) if s & 1 != team)
        known = bin(unknown).count("1")
        drawn = min(opponents, known)
        beaters = BEATERS[trump]
        steps = RANK_STEPS[trump]
        chance: dict[int, float] = {}

        def beaten(card: int) -> float:
            """Chance that the opponents hold a card that beats ``card`` (hypergeometric, none drawn)."""
            if card not in chance:
                count = bin(beaters[card] & unknown).count("1")
                chance[card] = 1.0 - math.comb(known - count, drawn) / math.comb(known, drawn) if known else 0.0
            return chance[card]

        def covered(mask: int) -> float:
            result = 1.0
            for card in bits(mask):
                result *= beaten(card)
            return result

        def spent(mask: int) -> float:
            return STRENGTH_COST * sum(map(steps.__getitem__, bits(mask)))

        def lead(mask: int) -> float:
            points = mask_points(mask)
            risk = covered(mask)
            return (1 - risk) * (points + HIDDEN_CARD_POINTS * bin(mask).count("1")) - risk * points

        stakes, top_mask, partner_top, later, opponents_later, side_led = trick_so_far(seat, table, trump)
        safe = not opponents_later or covered(top_mask) < 0.25

        scores = []
        for key in keys:
            kind = key >> 2 & 7
            mask = key >> 5
            if kind == WAIT:
                scores.append(0.0)
                continue
            points = mask_points(mask)
            if kind == MOLODKA:
                score = lead(mask) + (stakes if table and not partner_top else 0.0)
            elif kind == LEAD:
                score = lead(mask)
            elif kind == BEAT:
                if partner_top:
                    score = 0.0
                else:
                    holds = 1 - covered(mask) if opponents_later else 1.0
                    coming = HIDDEN_CARD_POINTS * bin(mask).count("1") * len(later)  # what the others add
                    score = holds * (stakes + coming) - (1 - holds) * points + OWN_SHARE * points
                    if side_led:
                        score -= TRUMP_COST * sum(1 for card in bits(mask) if SUIT_OF[card] == trump)
            else:  # a pass: onto the partner's safe trick, or to the opponents
                score = points if partner_top and safe else -points
            scores.append(score - spent(mask))
        return scores
