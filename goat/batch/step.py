"""One decision in every game at once: the position after each game's action (R10–R17).

:func:`advance` takes a position and one action per game (``-1``: this game makes no move) that the caller has
checked against ``goat.batch.legal.legal_blocks``, and returns a new position; the old one is not changed.
The games are split by what their action does — wait, declare a molodka, or play — and each group is changed
with whole-array operations; the games whose trick the play completes are then scored, drawn for and set up
for the next trick as one more group.  Arrays are read with ``take`` and written through flat indices
(``seat * n + game``): numpy's two-axis fancy indexing costs several times more.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from goat.adapters.encoding import MOLODKA_ACTION, NUM_ACTIONS, WAIT_ACTION, action_parts
from goat.batch.position import BEAT, LEAD, MOLODKA, NONE, PACKED, PASS, Position, holders_of, slots, sort4
from goat.batch.tables import (
    ABOVE2,
    ACTION_SUBSET,
    BIT2,
    DECIDER,
    EMPTY,
    LOW_BYTES,
    PAD_FROM,
    POINTS2,
    SIDE2,
    SIZE,
    SPLIT_MASK,
    SPLIT_PAD,
    SPLIT_SHIFT,
)
from goat.moves import MoveKind

__all__ = ["advance"]

# _ACTION_KIND[action]: what a lead, beat or pass puts on the table (Position.kinds); NONE for declare and wait.
_KINDS = {MoveKind.LEAD: LEAD, MoveKind.BEAT: BEAT, MoveKind.PASS: PASS}
_ACTION_KIND = np.array([_KINDS.get(action_parts(a)[0], NONE) for a in range(NUM_ACTIONS)], dtype=np.uint8)
_EMPTY4 = np.uint32(EMPTY * 0x01010101)  # four EMPTY slots
_BYTE_SHIFT = (8 * np.arange(4, dtype=np.uint32))[:, None]
_SEATS = np.arange(4, dtype=np.intp)[:, None]
_U16 = np.uint32(16)
_ROUNDS = np.arange(4, dtype=np.uint8).reshape(4, 1, 1)  # draw rounds j, by (round, seat, game)
_ROUND_STEP = 4 * np.arange(4, dtype=np.intp).reshape(4, 1, 1)
_LOW16 = np.uint32(0xFFFF)


def advance(
    position: Position,
    actions: NDArray[np.int16],
    deck: NDArray[np.uint8],
    trump: NDArray[np.uint8],
    due: NDArray[np.uint8],
    due_hand: NDArray[np.uint32],
) -> Position:
    """The position after ``actions`` (one per game, legal, or -1 for none).

    ``deck`` is the games' deck orders ``(n, 36)`` and ``trump`` their trump suits; ``due`` and ``due_hand``
    the seat due to play in each game and its hand, as ``legal_blocks`` found them.
    """
    new = position.copy()
    moving = actions >= 0
    new.decisions += moving
    waits = np.flatnonzero(actions == WAIT_ACTION)
    if waits.size:
        new.waited[waits] += 1
    plays = np.flatnonzero(moving & (actions < MOLODKA_ACTION))
    if plays.size:
        _play(new, plays, actions.take(plays), due.take(plays), due_hand.take(plays), trump)
    declared = np.flatnonzero(actions == MOLODKA_ACTION)
    if declared.size:
        _declare(new, declared, trump)
    ended = np.flatnonzero(new.played == 4)
    if ended.size:
        _end_trick(new, ended, deck)
    index = new.leader.astype(np.intp) * 256
    index += new.played.astype(np.intp) * 64
    index += new.holders.astype(np.intp) * 4
    index += new.waited
    index += (new.held == 0) * 1024
    new.to_move = DECIDER.take(index)
    return new


def _split(hand: NDArray[np.uint32], subset: NDArray[np.intp]) -> tuple[NDArray[np.uint32], NDArray[np.uint32]]:
    """A hand's cards outside ``subset`` and inside it, each moved to bytes 0, 1, … in order, packed.

    Row ``g`` of ``(hand[:, None] >> shifts) as uint8`` is the picked bytes in order, which *is* the packed
    result once the ``(m, 8)`` bytes are read as two uint32 per row.
    """
    picked = (hand[:, None] >> SPLIT_SHIFT.take(subset, axis=0)).astype(np.uint8).view(PACKED)
    picked &= SPLIT_MASK.take(subset, axis=0)
    picked |= SPLIT_PAD.take(subset, axis=0)
    return picked[:, 0], picked[:, 1]


def _top_codes(top: NDArray[np.uint32], trump: NDArray[np.uint8]) -> tuple[NDArray[np.uint32], NDArray[np.uint32]]:
    """For packed top plays, the packed ranks above each card (R3) and whether each is a side card (9, R5)."""
    low = top & _LOW16
    high = top >> _U16
    above = ABOVE2.take(low).astype(PACKED) | ABOVE2.take(high).astype(PACKED) << _U16
    offset = trump.astype(PACKED) << _U16
    side = SIDE2.take(low | offset).astype(PACKED) | SIDE2.take(high | offset).astype(PACKED) << _U16
    return above, side


def _play(
    new: Position,
    games: NDArray[np.intp],
    actions: NDArray[np.int16],
    seat: NDArray[np.uint8],
    hand: NDArray[np.uint32],
    trump: NDArray[np.uint8],
) -> None:
    """A lead, beat or pass by the seat due to play (R10, R11): its cards go from its hand to the table."""
    n = new.held.shape[0]
    kind = _ACTION_KIND.take(actions)  # LEAD, BEAT or PASS
    subset = ACTION_SUBSET.take(actions)
    kept, taken = _split(hand, subset)
    flat = seat.astype(np.intp) * n + games
    new.hands.reshape(-1)[flat] = kept
    new.table.reshape(-1)[flat] = taken
    new.kinds.reshape(-1)[flat] = kind
    leads = np.flatnonzero(kind == LEAD)
    if leads.size:
        lead_games = games.take(leads)
        lead_size = SIZE.take(subset.take(leads))
        new.size[lead_games] = lead_size
        new.holders[lead_games[lead_size == 4]] = 0  # a four-card lead is the trick's molodka (R14)
    tops = np.flatnonzero(kind != PASS)
    top_games = games.take(tops)
    top = taken.take(tops)
    new.top[top_games] = top
    new.top_above[top_games], new.top_side[top_games] = _top_codes(top, trump.take(top_games))
    new.top_seat[top_games] = seat.take(tops)
    new.played[games] += 1
    new.waited[games] = 0


def _declare(new: Position, games: NDArray[np.intp], trump: NDArray[np.uint8]) -> None:
    """A molodka declared out of turn (R14): the table goes back to its owners, the molodka is the lead."""
    m = games.shape[0]
    seat = new.to_move.take(games).astype(np.intp)
    at = np.arange(m)
    # Every hand held four cards when the trick started (the molodka's did, R15): the hand and its table
    # cards, merged.
    held = np.concatenate([slots(new.hands.take(games, axis=1)), slots(new.table.take(games, axis=1))], axis=2)
    start = np.ascontiguousarray(np.sort(held, axis=2)[:, :, :4]).view(PACKED)[:, :, 0]  # (seat, game)
    molodka = start[seat, at]
    start[seat, at] = _EMPTY4
    new.hands[:, games] = start
    table = np.full((4, m), _EMPTY4, dtype=PACKED)
    table[seat, at] = molodka
    new.table[:, games] = table
    kinds = np.zeros((4, m), dtype=np.uint8)
    kinds[seat, at] = MOLODKA
    new.kinds[:, games] = kinds
    new.leader[games] = seat
    new.played[games] = 1
    new.size[games] = 4
    new.top[games] = molodka
    new.top_above[games], new.top_side[games] = _top_codes(molodka, trump.take(games))
    new.top_seat[games] = seat
    new.holders[games] = 0
    new.waited[games] = 0
    new.molodkas[seat & 1, games] += 1


def _end_trick(new: Position, games: NDArray[np.intp], deck: NDArray[np.uint8]) -> None:
    """The fourth play: the trick to the top play's owner (R13), the draw (R15), the next lead (R16), the end (R17)."""
    n = new.held.shape[0]
    flat = _SEATS * n + games  # (seat, game)
    winner = new.top_seat.take(games)
    team_flat = (winner & 1).astype(np.intp) * n + games
    table = new.table.reshape(-1).take(flat)  # (seat, game) packed
    low, high = table & _LOW16, table >> _U16
    points = POINTS2.take(low) + POINTS2.take(high)
    new.points.reshape(-1)[team_flat] += points[0] + points[1] + points[2] + points[3]
    new.tricks.reshape(-1)[team_flat] += 1
    bits = BIT2.take(low) | BIT2.take(high)  # (seat, game)
    passes = new.kinds.reshape(-1).take(flat) == PASS
    hidden = bits * passes
    face_up = bits ^ hidden
    new.seen[games] |= face_up[0] | face_up[1] | face_up[2] | face_up[3]
    new.passed.reshape(-1)[flat] |= hidden
    # The draw: one card at a time from the top of the stock, the winner first (R15).
    drawn = new.drawn.take(games)
    left = new.held.take(games) - new.size.take(games)
    rounds = np.minimum(4 - left, (36 - drawn) >> 2).astype(np.uint8)
    hands = new.hands.reshape(-1).take(flat) & LOW_BYTES.take(left)  # (seat, game): the cards kept, then zeros
    hands |= PAD_FROM.take(left + rounds)
    if rounds.any():
        hands = _draw(hands, games, winner, drawn, left, rounds, deck)
    new.hands.reshape(-1)[flat] = hands
    new.drawn[games] = drawn + 4 * rounds
    held = left + rounds
    new.held[games] = held
    new.table.reshape(-1)[flat] = _EMPTY4
    new.kinds.reshape(-1)[flat] = 0
    # The top play is left as it was: with no lead (size 0) the legal actions never read it.
    new.size[games] = 0
    new.played[games] = 0
    new.leader[games] = winner
    new.waited[games] = 0
    new.holders[games] = holders_of(hands, held)


def _draw(
    hands: NDArray[np.uint32],
    games: NDArray[np.intp],
    winner: NDArray[np.uint8],
    drawn: NDArray[np.uint8],
    left: NDArray[np.uint8],
    rounds: NDArray[np.uint8],
    deck: NDArray[np.uint8],
) -> NDArray[np.uint32]:
    """The hands ``(seat, game)`` after ``rounds`` cards each from the stock, the winner first (R15), sorted.

    ``hands`` holds each seat's ``left`` cards, zeros in the next ``rounds`` slots and EMPTY after them.
    """
    row = games * 36
    first = row + drawn + ((_SEATS - winner) & 3)  # (seat, game): seat s draws after (s - winner) % 4 others
    where = np.minimum(first[None, :, :] + _ROUND_STEP, row + 35)  # (round, seat, game)
    cards = deck.reshape(-1).take(where).astype(np.uint32)
    cards *= rounds > _ROUNDS  # (round, 1, game)
    cards <<= (np.minimum(left + _ROUNDS, 3) * np.uint8(8)).astype(np.uint32)
    hands |= cards[0] | cards[1] | cards[2] | cards[3]
    return sort4(hands)
