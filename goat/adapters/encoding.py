"""The fixed action and observation encoding the framework adapters share (pure Python, no numpy).

**Actions** (``NUM_ACTIONS = 47``) are relative to the hand of the seat that acts, its cards sorted in
:data:`goat.DECK` order and numbered 0–3.  A non-empty subset of those positions is a number ``s`` from 1
to 15 (bit ``i`` set when card ``i`` is in it):

========  =====================================================
0–14      ``LEAD`` the subset ``s = action + 1``
15–29     ``BEAT`` with the subset ``s = action - 14``
30–44     ``PASS`` the subset ``s = action - 29``
45        ``MOLODKA``: declare (its cards are the four of the trick's start)
46        ``WAIT``: keep the molodka for now (R14)
========  =====================================================

>>> import goat
>>> from goat.adapters import encoding
>>> seen = goat.view(goat.new_game(seed=1), 1)
>>> actions = encoding.legal_actions(seen)
>>> [encoding.decode(a, seen) for a in actions] == sorted(seen.legal_moves, key=lambda m: encoding.encode(m, seen))
True

**Observations** (``OBSERVATION_SIZE = 310`` numbers in [0, 1]) encode a :class:`~goat.PlayerView`, seats
relative to the observer (0 = itself, 1 = the next seat, 2 = the partner, 3 = the seat before):

=========  =====  ===========================================================
offset     size   meaning
=========  =====  ===========================================================
0          36     the observer's hand
36         36     the trump card (one-hot)
72         144    the current trick's face-up cards, 36 per relative seat
216        4      each relative seat's face-down cards on the table (count / 4)
220        4      the trick's leader (one-hot, relative)
224        4      the seat due to play (one-hot, relative; all zero when the game is over)
228        36     face-up cards in finished tricks (public history)
264        36     the observer's own passed cards in finished tricks
300        4      hand sizes (count / 4, relative)
304        1      stock size / 20
305        2      tricks won: the observer's team, the other (count / 9)
307        2      the match's defeat-scores: the observer's team, the other (min(score, 12) / 12)
309        1      whether the trick already has its molodka
=========  =====  ===========================================================
"""

from __future__ import annotations

from goat.cards import Card
from goat.moves import Move, MoveKind
from goat.view import PlayerView

__all__ = ["NUM_ACTIONS", "OBSERVATION_SIZE", "decode", "encode", "legal_actions", "observation", "subset_of"]

#: The number of actions: 15 leads, 15 beats, 15 passes (by subset of the sorted hand), declare, wait.
NUM_ACTIONS = 47
#: The length of an observation vector (see the layout above).
OBSERVATION_SIZE = 310
_OFFSET = {MoveKind.LEAD: 0, MoveKind.BEAT: 15, MoveKind.PASS: 30}
MOLODKA_ACTION = 45
WAIT_ACTION = 46


def _hand(view: PlayerView) -> list[Card]:
    return sorted(view.hand)


def subset_of(cards: frozenset[Card], hand: list[Card]) -> int:
    """The subset number (1–15) of ``cards`` among the sorted ``hand``."""
    subset = 0
    for position, card in enumerate(hand):
        if card in cards:
            subset |= 1 << position
    return subset


def encode(move: Move, view: PlayerView) -> int:
    """The action number of ``move`` for the seat whose view this is."""
    if move.kind is MoveKind.MOLODKA:
        return MOLODKA_ACTION
    if move.kind is MoveKind.WAIT:
        return WAIT_ACTION
    return _OFFSET[move.kind] + subset_of(move.cards, _hand(view)) - 1


def decode(action: int, view: PlayerView) -> Move:
    """The legal move with action number ``action``; :class:`ValueError` if there is none."""
    for move in view.legal_moves:
        if encode(move, view) == action:
            return move
    raise ValueError(f"action {action!r} is not legal for seat {view.seat} now")


def legal_actions(view: PlayerView) -> list[int]:
    """The action numbers of the legal moves, ascending."""
    return sorted(encode(move, view) for move in view.legal_moves)


def observation(view: PlayerView) -> list[float]:
    """The view as ``OBSERVATION_SIZE`` numbers (see the module documentation)."""
    me = view.seat
    out = [0.0] * OBSERVATION_SIZE
    for card in view.hand:
        out[card.index] = 1.0
    out[36 + view.trump_card.index] = 1.0
    for play in view.table:
        relative = (play.seat - me) % 4
        for card in play.cards:
            out[72 + 36 * relative + card.index] = 1.0
        if play.hidden:
            out[216 + relative] += play.size / 4
    if view.table or view.to_play is not None:
        out[220 + (view.leader - me) % 4] = 1.0
    if view.to_play is not None:
        out[224 + (view.to_play - me) % 4] = 1.0
    for trick in view.tricks:
        for play in trick.plays:
            base = 264 if (play.kind is MoveKind.PASS and play.seat == me) else 228
            for card in play.cards:
                out[base + card.index] = 1.0
    for seat in range(4):
        out[300 + (seat - me) % 4] = view.hand_sizes[seat] / 4
    out[304] = view.stock_size / 20
    won = view.tricks_won
    out[305] = won[view.team] / 9
    out[306] = won[1 - view.team] / 9
    out[307] = min(view.defeat[view.team], 12) / 12
    out[308] = min(view.defeat[1 - view.team], 12) / 12
    out[309] = 1.0 if view.table and view.table[0].size == 4 else 0.0
    return out
