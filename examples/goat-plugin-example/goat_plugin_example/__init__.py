"""The hoarder: a small original bot for goat-cards, shipped as a plugin.

It hoards: it never spends a trump or a card worth points unless that card
wins a trick it is sure to keep (it plays last, or nobody after it is an
opponent), and it throws its partner every point it can once the partner's
trick is safe.  It leads its lowest side-suit card.  It sees only its view.
"""

from __future__ import annotations

import random
from typing import Any

import goat
from goat import Move, MoveKind, PlayerView

__all__ = ["Hoarder", "factory"]


def _value(card: goat.Card, trump: goat.Suit) -> int:
    return card.points * 4 + int(card.rank) + (40 if card.suit is trump else 0)


class Hoarder:
    def __init__(self, seed: int | None = None, *, greed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.greed = greed  # table points it wants before it spends anything

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        trump = view.trump
        by_kind: dict[MoveKind, list[Move]] = {}
        for move in legal:
            by_kind.setdefault(move.kind, []).append(move)
        if MoveKind.MOLODKA in by_kind:
            return by_kind[MoveKind.MOLODKA][0]
        if MoveKind.WAIT in by_kind:
            return by_kind[MoveKind.WAIT][0]
        cost = lambda move: sum(_value(c, trump) for c in move.cards)  # noqa: E731
        if MoveKind.LEAD in by_kind:
            singles = [m for m in by_kind[MoveKind.LEAD] if len(m.cards) == 1]
            return min(singles, key=lambda m: (cost(m), self.rng.random()))
        later = [(view.seat + i) % 4 for i in range(1, 4 - len(view.table))]
        safe = all(seat % 2 == view.team for seat in later)
        top = view.table[0]
        for play in view.table[1:]:
            if play.kind is MoveKind.BEAT:
                top = play
        passes = by_kind.get(MoveKind.PASS, [])
        if top.seat % 2 == view.team and safe:
            return max(passes, key=lambda m: (sum(c.points for c in m.cards), -cost(m)))
        stakes = sum(c.points for play in view.table for c in play.cards)
        beats = by_kind.get(MoveKind.BEAT, [])
        if beats and safe and stakes >= self.greed:
            return min(beats, key=cost)
        return min(passes, key=cost)


def factory(*, seed: int | None = None, **options: Any) -> Hoarder:
    """Build a hoarder; option ``greed`` (int, default 0) is the table points it wants before it beats."""
    return Hoarder(seed, **options)
