"""``greedy``: a rule-of-thumb player that sees only its :class:`~goat.PlayerView`.

The rules it follows, in order of the decisions it meets:

- **Molodka** (R14): declare whenever it is likely to win the trick, that is
  unless the opponents could plausibly hold four cards that beat it; a
  declaration also sweeps an opponent's winning trick back off the table.
- **Lead** (R10): lead its molodka if it has one; otherwise weigh every
  legal lead by how likely the unseen cards are to beat it (more cards are
  harder to beat, masters of a suit and trumps are safe) against the points it
  risks, and lead to the team's strength; with nothing safe, lead a single
  worthless card of a side suit.
- **Partner winning**: load points (tens and aces first, never trumps) onto
  the trick when nobody after it can take it; otherwise pass worthless cards.
- **Opponent winning**: beat as cheaply as possible when points are at stake
  (cheap means low cards, side suits before trumps); keep trumps for tricks
  worth at least a ten; when not beating, pass the least valuable cards.

It is deterministic — of equally good moves it plays the first in the engine's order, whatever its
seed — so greedy played sealed and in-process gives the same games; and fast: no search.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb
from typing import Any

from goat.cards import DECK, Card, Suit, beats
from goat.moves import Move, MoveKind
from goat.rules import top_play
from goat.view import PlayerView

__all__ = ["GreedyBot", "factory"]

#: Table points at which greedy spends a trump to take a trick (a ten or an ace).
TRUMP_STAKE = 10
#: Points a hidden pass is assumed to hold, per card (the deck averages 3.3 per card).
HIDDEN_CARD_POINTS = 3


def _strength(card: Card, trump: Suit) -> int:
    """How useful a card is for taking later tricks: its rank, and trumps above every side card."""
    return int(card.rank) + (9 if card.suit is trump else 0)


class _Knowledge:
    """What greedy infers from a view: the cards still live and unknown to it."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.trump = view.trump
        gone: set[Card] = set()
        for trick in view.tricks:
            for play in trick.plays:
                gone |= play.cards  # face-up cards, and this seat's own passes
        on_table = {card for play in view.table for card in play.cards}
        self.unknown = [c for c in DECK if c not in view.hand and c not in gone and c not in on_table]
        self.opponent_cards = sum(view.hand_sizes[s] for s in range(4) if s % 2 != view.team)

    def beaten_chance(self, card: Card) -> float:
        """Chance that some opponent holds a card that beats ``card`` (R5), from the unknown cards."""
        if not self.unknown:
            return 0.0
        beaters = sum(1 for c in self.unknown if beats(c, card, self.trump))
        drawn = min(self.opponent_cards, len(self.unknown))
        # Chance that none of the opponents' cards is among the beaters (drawing without replacement).
        none = comb(len(self.unknown) - beaters, drawn) / comb(len(self.unknown), drawn)
        return 1.0 - none

    def set_beaten_chance(self, cards: Iterable[Card]) -> float:
        """A rough chance that one opponent beats the whole set: every card must be covered."""
        chance = 1.0
        for card in cards:
            chance *= self.beaten_chance(card)
        return chance


def _points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


class GreedyBot:
    """The ``greedy`` strategy; see the module documentation for its rules."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  #: taken as every strategy's is, and not used: the bot is deterministic

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        kinds = {move.kind for move in legal}
        knowledge = _Knowledge(view)
        molodka = next((m for m in legal if m.kind is MoveKind.MOLODKA), None)
        if molodka is not None and self._molodka_wins(molodka, knowledge):
            return molodka
        if MoveKind.WAIT in kinds:
            return next(m for m in legal if m.kind is MoveKind.WAIT)
        if MoveKind.LEAD in kinds:
            return self._lead(legal, knowledge)
        return self._answer(view, legal, knowledge)

    def _best(self, moves: list[Move], score: Any) -> Move:
        """The highest-scoring move; of equal ones, the first (max keeps the first of a tie)."""
        return max(moves, key=score)

    @staticmethod
    def _molodka_wins(molodka: Move, knowledge: _Knowledge) -> bool:
        if next(iter(molodka.cards)).suit is knowledge.trump:
            return True
        # An opponent needs four cards that each beat one of ours; with few such cards unknown, that is unlikely.
        candidates = sum(1 for c in knowledge.unknown if any(beats(c, m, knowledge.trump) for m in molodka.cards))
        if candidates < 4 or len(knowledge.unknown) < 4:
            return True
        one_hand = comb(candidates, 4) / comb(len(knowledge.unknown), 4)
        return 2 * one_hand < 0.3

    def _lead(self, legal: tuple[Move, ...], knowledge: _Knowledge) -> Move:
        leads = [m for m in legal if m.kind is MoveKind.LEAD]
        four = [m for m in leads if len(m.cards) == 4]  # a four-card lead of one suit is a molodka (R14)
        if four:
            return four[0]
        trump = knowledge.trump

        def value(move: Move) -> float:
            cards = move.cards
            size = len(cards)
            beaten = knowledge.set_beaten_chance(cards)
            at_stake = _points(cards) + HIDDEN_CARD_POINTS * size  # ours, and what the others add
            spent = sum(_strength(c, trump) for c in cards) / 10  # strong cards are worth keeping
            return (1 - beaten) * at_stake - beaten * _points(cards) - spent

        return self._best(leads, value)

    def _answer(self, view: PlayerView, legal: tuple[Move, ...], knowledge: _Knowledge) -> Move:
        trump = knowledge.trump
        table = view.table
        top = top_play(table)
        later = [(view.seat + i) % 4 for i in range(1, 4 - len(table))]  # seats still to play after this one
        opponents_later = [s for s in later if s % 2 != view.team]
        passes = [m for m in legal if m.kind is MoveKind.PASS]
        beats = [m for m in legal if m.kind is MoveKind.BEAT]

        def give(move: Move) -> float:  # cost of handing these cards to the trick's winner
            return sum(3 * c.points + _strength(c, trump) for c in move.cards)

        if top.seat % 2 == view.team:  # the partner holds the top play
            safe = not opponents_later or knowledge.set_beaten_chance(top.cards) < 0.25
            if safe:
                # Load points onto the partner's trick, sparing trumps and strong cards.
                return self._best(passes, lambda m: sum(3 * c.points - _strength(c, trump) for c in m.cards))
            return self._best(passes, lambda m: -give(m))
        stakes = sum(_points(p.cards) + (HIDDEN_CARD_POINTS * p.size if p.hidden else 0) for p in table)
        affordable = []
        for move in beats:
            uses_trump = (
                any(c.suit is trump for c in move.cards) and top.cards and not all(c.suit is trump for c in top.cards)
            )
            if uses_trump and stakes + _points(move.cards) < TRUMP_STAKE:
                continue  # keep trumps for tricks worth them
            if opponents_later and knowledge.set_beaten_chance(move.cards) > 0.6 and stakes < TRUMP_STAKE:
                continue  # likely to be overtaken, and little to win
            affordable.append(move)
        if affordable and (stakes > 0 or not opponents_later or len(top.cards) > 1):
            return self._best(affordable, lambda m: -sum(_strength(c, trump) for c in m.cards) + _points(m.cards) / 4)
        if affordable and not any(c.suit is trump for m in affordable for c in m.cards):
            return self._best(affordable, lambda m: -sum(_strength(c, trump) for c in m.cards))
        return self._best(passes, lambda m: -give(m))


def factory(*, seed: int | None = None, **options: Any) -> GreedyBot:
    """The ``greedy`` strategy's factory; it takes no options."""
    if options:
        raise TypeError(f"the greedy strategy takes no options, got {', '.join(sorted(options))}")
    return GreedyBot(seed)
