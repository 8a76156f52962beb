"""A learned model of how players play: ``P(move | what that seat saw)``, trained on the library's own games.

:class:`LearnedModel` is a *conditional logit*: every legal move gets a score, a weighted sum of the
features :func:`move_features` computes from what the deciding seat saw (R23), and the probabilities are
the softmax of the scores over the legal moves, of which a share, the *noise*, is spread evenly (so every
legal move keeps a positive probability and no world a game could produce is ruled out).  The features:
the hand-written :class:`~goat.bots.model.PlayerModel`'s estimate of the move, its kind (R10-R14), the
points, trumps and rank steps of its cards, how many of the cards the seat has not seen beat them (R5-R6),
the seat's place in the trick, whether its partner's play is on top, and the points on the table.

The weights ship inside the package (``goat/bots/learned.json``, read with :mod:`importlib.resources`) and
inference is plain Python: no extra is needed to play with it.  ``python -m goat.bots.training`` (the
``train`` extra: numpy) trained them on the decisions of ``ismcts`` in games it played against itself; see
docs/bots.md for the command, the data and the loss curve.

The ``learned`` strategy (:class:`LearnedBot`) plays the move the model finds likeliest: ismcts imitated
without a search, in about 0.05 ms a decision.

>>> import goat
>>> from goat.bots.learned import LearnedModel
>>> state = goat.new_game(seed=3)
>>> seen = goat.view(state, state.to_move)
>>> chances = LearnedModel().probabilities(seen)
>>> len(chances) == len(seen.legal_moves), round(sum(chances), 9), min(chances) > 0
(True, 1.0, True)
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Final

from goat._core import BEAT, BEATERS, LEAD, MOLODKA, PASS, SUIT_OF, WAIT, bits, mask_points
from goat.bots.model import (
    MoveModel,
    PlayerModel,
    TablePlay,
    checked_noise,
    rank_step,
    softmax,
    trick_so_far,
)
from goat.errors import finite, shown
from goat.moves import Move
from goat.view import PlayerView

__all__ = ["FEATURES", "WEIGHTS_FILE", "LearnedBot", "LearnedModel", "factory", "move_features"]

#: The shipped weights' file name, in the ``goat.bots`` package.
WEIGHTS_FILE: Final = "learned.json"

#: The features' names, in the order :func:`move_features` lists them (the weights file names them too).
FEATURES: Final = (
    "lead",
    "beat",
    "pass",
    "molodka",
    "wait",
    "estimate lead",
    "estimate beat",
    "estimate pass",
    "estimate molodka",
    "lead cards",
    "lead points",
    "lead trumps",
    "lead mean rank",
    "lead top rank",
    "lead beaters",
    "lead unbeatable share",
    "lead points x hand size",
    "beat points",
    "beat trumps",
    "beat mean rank",
    "beat beaters x opponents after",
    "beat unbeatable x opponents after",
    "beat partner's trick",
    "beat table points",
    "beat last",
    "beat second",
    "beat trumps x side suit led",
    "pass points",
    "pass points x partner on top",
    "pass points x partner on top, safe",
    "pass trumps",
    "pass mean rank",
    "pass top rank",
    "pass x partner on top",
    "pass points x hand size",
    "molodka table points",
    "molodka points",
    "wait table points",
)

_KIND_FEATURE: Final = {LEAD: 0, BEAT: 1, PASS: 2, MOLODKA: 3, WAIT: 4}  # the first five features

# The hand-written model whose estimate is a feature (its temperature and noise do not enter its scores).
_ESTIMATE: Final = PlayerModel()


def move_features(
    seat: int,
    hand: int,
    unknown: int,
    table: Sequence[TablePlay],
    sizes: Sequence[int],
    trump: int,
    keys: Sequence[int],
) -> list[list[float]]:
    """Each move's features, named by :data:`FEATURES`, from what the deciding seat saw (arguments as
    :meth:`goat.bots.model.MoveModel.key_probabilities`; :func:`goat.bots.model.view_arguments` reads them
    from a view).  Each is scaled to about 0 to 1: points by 10, rank steps by 17, card counts by 4."""
    estimates = _ESTIMATE.scores(seat, hand, unknown, table, sizes, trump, keys)
    beaters = BEATERS[trump]
    trick = trick_so_far(seat, table, trump)
    stakes = trick.stakes / 10
    partner_top = float(trick.partner_top)
    opponents_after = float(trick.opponents_later)
    side_led = float(trick.side_led)
    unbeaten_top = all(not beaters[card] & unknown for card in bits(trick.top))
    safe = partner_top * (1.0 if not opponents_after or unbeaten_top else 0.0)
    held = hand.bit_count() / 9
    place = len(table)
    rows = []
    for key, estimate in zip(keys, estimates, strict=True):
        kind = key >> 2 & 7
        cards = bits(key >> 5)
        row = [0.0] * len(FEATURES)
        row[_KIND_FEATURE[kind]] = 1.0
        if kind == WAIT:
            row[37] = stakes
            rows.append(row)
            continue
        count = len(cards)
        points = mask_points(key >> 5) / 10
        trumps = sum(1 for card in cards if SUIT_OF[card] == trump) / 4
        ranks = [rank_step(card, trump) / 17 for card in cards]
        rank = sum(ranks) / count
        beating = [(beaters[card] & unknown).bit_count() / 9 for card in cards]
        unbeatable = sum(1 for b in beating if b == 0) / count
        estimate /= 10
        if kind == LEAD:
            row[5] = estimate
            row[9:17] = [count / 4, points, trumps, rank, max(ranks), sum(beating) / count, unbeatable, points * held]
        elif kind == BEAT:
            row[6] = estimate
            row[17:27] = [
                points,
                trumps,
                rank,
                opponents_after * sum(beating) / count,
                opponents_after * (1.0 if unbeatable == 1 else 0.0),
                partner_top,
                stakes,
                1.0 if place == 3 else 0.0,
                1.0 if place == 2 else 0.0,
                trumps * side_led,
            ]
        elif kind == PASS:
            row[7] = estimate
            row[27:34] = [points, points * partner_top, points * safe, trumps, rank, max(ranks), partner_top]
            row[34] = points * held
        elif kind == MOLODKA:
            row[8] = estimate
            row[35:37] = [stakes, points]
        rows.append(row)
    return rows


def _checked(data: Mapping[str, Any]) -> tuple[tuple[float, ...], float]:
    """The weights and the noise of a weights file's contents, checked."""
    if not isinstance(data, Mapping) or data.get("features") != list(FEATURES):
        raise ValueError("a LearnedModel's weights must name goat.bots.learned.FEATURES, in order, as 'features'")
    weights = data.get("weights")
    if not (
        isinstance(weights, list) and len(weights) == len(FEATURES) and all(finite(w) is not None for w in weights)
    ):
        raise ValueError(f"a LearnedModel's 'weights' must be {len(FEATURES)} finite numbers, not {shown(weights)}")
    try:
        noise = checked_noise(data.get("noise"))
    except ValueError as error:
        raise ValueError(f"a LearnedModel's {error}") from None
    return tuple(float(w) for w in weights), noise


@functools.cache
def _shipped() -> tuple[tuple[float, ...], float]:
    return _checked(json.loads(resources.files("goat.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")))


class LearnedModel(MoveModel):
    """``P(move | what the deciding seat saw)``: a softmax over learned linear scores of :func:`move_features`.

    ``weights`` is the contents of a weights file (a mapping with ``features``, ``weights`` and ``noise``, as
    ``python -m goat.bots.training`` writes); by default the weights shipped with goat-cards.
    """

    def __init__(self, weights: Mapping[str, Any] | None = None) -> None:
        self.weights, self.noise = _shipped() if weights is None else _checked(weights)

    def __repr__(self) -> str:
        return "LearnedModel()" if (self.weights, self.noise) == _shipped() else "LearnedModel(<weights>)"

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
        weights = self.weights
        scores = [
            sum(map(operator.mul, weights, row))
            for row in move_features(seat, hand, unknown, table, sizes, trump, keys)
        ]
        return softmax(scores, 1.0, self.noise)


class LearnedBot:
    """The ``learned`` strategy: the move :class:`LearnedModel` finds likeliest for the seat (ismcts imitated,
    no search: fast).  Deterministic, whatever its seed; of equally likely moves, the first in the engine's order.

    >>> import goat
    >>> seen = goat.view(goat.new_game(seed=1), 1)
    >>> LearnedBot().choose(seen, seen.legal_moves) in seen.legal_moves
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.model = LearnedModel()

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if len(legal) == 1:
            return legal[0]
        chances = self.model.probabilities(view, legal)
        return legal[max(range(len(legal)), key=chances.__getitem__)]


def factory(*, seed: int | None = None, **options: Any) -> LearnedBot:
    """The ``learned`` strategy's factory; it takes no options."""
    if options:
        raise TypeError(f"the learned strategy takes no options, got {', '.join(sorted(options))}")
    return LearnedBot(seed)
