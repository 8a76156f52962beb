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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from goat._core import number, numbered
from goat.cards import Card
from goat.errors import shown
from goat.moves import MOVES, Move, MoveKind, make_move
from goat.rules import new_game
from goat.seats import check_seat
from goat.state import GameState, Trick
from goat.view import PlayerView

if TYPE_CHECKING:  # numpy only for observation_array(), imported there
    import numpy as np

__all__ = [
    "DEFEAT_CAP",
    "HAND_SCALE",
    "ILLEGAL_REWARD",
    "MOLODKA_ACTION",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "OBS_DEFEAT",
    "OBS_FACE_DOWN",
    "OBS_HAND",
    "OBS_HAND_SIZES",
    "OBS_LEADER",
    "OBS_MOLODKA",
    "OBS_PASSED",
    "OBS_SEEN",
    "OBS_STOCK",
    "OBS_TABLE",
    "OBS_TO_PLAY",
    "OBS_TRICKS",
    "OBS_TRUMP_CARD",
    "STOCK_SCALE",
    "TRICKS_SCALE",
    "WAIT_ACTION",
    "action_in",
    "action_keys",
    "action_of",
    "action_parts",
    "actions_of",
    "deal_of",
    "decode",
    "encode",
    "legal_actions",
    "observation",
    "observation_array",
    "observation_entries",
    "observation_of",
    "subset_of",
    "table_text",
]


def deal_of(seed: int, options: dict[str, Any] | None) -> GameState:
    """The game an environment's ``reset(options=...)`` deals: ``dealer`` (a seat, default 0) and ``defeat`` (the
    match's score before it, default ``(0, 0)``, below 12: R21).  Other keys are ignored, as the frameworks'
    own checks expect (PettingZoo's ``api_test`` resets with ``options={"options": 1}``)."""
    options = options or {}
    if not isinstance(options, dict):
        raise TypeError(f"reset()'s options are a dict, not {shown(options)}")
    defeat = options.get("defeat", (0, 0))
    if isinstance(defeat, (list, tuple)):
        defeat = tuple(defeat)
    return new_game(seed=seed, dealer=options.get("dealer", 0), defeat=defeat)


#: The reward of an illegal action, which ends the game (for the acting seat): below the worst legal outcome,
#: −6 (R19), so that breaking the rules never pays.
ILLEGAL_REWARD = -7.0
#: The number of actions: 15 leads, 15 beats, 15 passes (by subset of the sorted hand), declare, wait.
NUM_ACTIONS = 47
#: The length of an observation vector (see the layout above).
OBSERVATION_SIZE = 310
_OFFSET = {MoveKind.LEAD: 0, MoveKind.BEAT: 15, MoveKind.PASS: 30}
_SUBSETS = 15  # the non-empty subsets of a hand of four
#: The action that declares a molodka (R14).
MOLODKA_ACTION = 45
#: The action that keeps a molodka for now (R14).
WAIT_ACTION = 46

# The observation's layout, as the table above gives it: where each part starts, and the scales of its counts.
#: The observer's hand (36 numbers, by card index).
OBS_HAND = 0
#: The trump card, one-hot (36).
OBS_TRUMP_CARD = 36
#: The current trick's face-up cards: 36 per relative seat (144).
OBS_TABLE = 72
#: Each relative seat's face-down cards on the table, count / HAND_SCALE (4).
OBS_FACE_DOWN = 216
#: The trick's leader, one-hot by relative seat (4).
OBS_LEADER = 220
#: The seat due to play, one-hot by relative seat (4).
OBS_TO_PLAY = 224
#: Face-up cards in finished tricks (36).
OBS_SEEN = 228
#: The observer's own passed cards in finished tricks (36).
OBS_PASSED = 264
#: Hand sizes by relative seat, count / HAND_SCALE (4).
OBS_HAND_SIZES = 300
#: The stock's size / STOCK_SCALE (1).
OBS_STOCK = 304
#: Tricks won, the observer's team first, count / TRICKS_SCALE (2).
OBS_TRICKS = 305
#: The match's defeat-scores, the observer's team first, min(score, DEFEAT_CAP) / DEFEAT_CAP (2).
OBS_DEFEAT = 307
#: Whether the trick already has its molodka (1).
OBS_MOLODKA = 309
#: The divisor of card counts in a hand or a play.
HAND_SCALE = 4
#: The divisor of the stock's size.
STOCK_SCALE = 20
#: The divisor of tricks won.
TRICKS_SCALE = 9
#: The cap and divisor of the match's defeat-scores.
DEFEAT_CAP = 12


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


def action_parts(action: int) -> tuple[MoveKind, int]:
    """What action number ``action`` stands for: its kind, and the subset (1–15) of the sorted hand it plays
    (0 for ``MOLODKA``, whose cards are the trick's start, and for ``WAIT``).

    >>> from goat.adapters import encoding
    >>> encoding.action_parts(17), encoding.action_parts(encoding.WAIT_ACTION)
    ((MoveKind.BEAT, 3), (MoveKind.WAIT, 0))
    """
    if action == MOLODKA_ACTION:
        return MoveKind.MOLODKA, 0
    if action == WAIT_ACTION:
        return MoveKind.WAIT, 0
    for kind, offset in _OFFSET.items():
        if type(action) is int and offset <= action < offset + _SUBSETS:
            return kind, action - offset + 1
    raise ValueError(f"an action number is an int 0–{NUM_ACTIONS - 1}, not {shown(action)}")


def _positions(hand: Iterable[Card]) -> dict[int, int]:
    """Each card index of ``hand`` mapped to its bit in a subset number (the hand sorted in deck order)."""
    return {index: 1 << position for position, index in enumerate(sorted(card.index for card in hand))}


def _action(move: Move, positions: dict[int, int]) -> int:
    kind = move.kind
    if kind is MoveKind.MOLODKA:
        return MOLODKA_ACTION
    if kind is MoveKind.WAIT:
        return WAIT_ACTION
    subset = 0
    for card in move.cards:
        subset |= positions[card.index]
    return _OFFSET[kind] + subset - 1


def action_in(move: Move, hand: int) -> int:
    """The action number of ``move`` for a seat whose hand is the mask ``hand`` (bit ``card.index`` per card)."""
    return number(move.key, hand, *_NUMBERS)


def action_of(move: Move, hand: Iterable[Card]) -> int:
    """The action number of ``move`` for a seat holding ``hand``: :func:`encode` without a view.

    >>> import goat
    >>> from goat.adapters import encoding
    >>> state = goat.new_game(seed=1)
    >>> move = goat.legal_moves(state)[0]
    >>> encoding.action_of(move, state.hands[move.seat]) == encoding.encode(move, goat.view(state, move.seat))
    True
    """
    return _action(move, _positions(hand))


def actions_of(state: GameState) -> dict[int, Move]:
    """The legal moves of the seat that must decide (``state.to_move``), by action number, ascending.

    Read from the state alone, without building a :class:`~goat.PlayerView`: what a framework adapter that
    holds the whole state does on every step.  Empty once the game is over.

    >>> import goat
    >>> from goat.adapters import encoding
    >>> state = goat.new_game(seed=1)
    >>> list(encoding.actions_of(state)) == encoding.legal_actions(goat.view(state, state.to_move))
    True
    """
    # The kernel numbers the moves from its position (hand masks and move keys), without card sets.
    get = MOVES.get
    return {action: get(key) or make_move(key) for action, key in numbered(state.core, *_NUMBERS)}


def action_keys(state: GameState) -> dict[int, int]:
    """:func:`actions_of` with each move's kernel key (``Move.key``) for its move: what an adapter that steps
    the kernel needs, without making a move object for every action it is asked about."""
    return dict(numbered(state.core, *_NUMBERS))


#: The action space as the kernel's numbered() takes it: the first action number of LEAD, BEAT and PASS, then
#: the molodka's and the wait's one number each.
_NUMBERS = (_OFFSET[MoveKind.LEAD], _OFFSET[MoveKind.BEAT], _OFFSET[MoveKind.PASS], MOLODKA_ACTION, WAIT_ACTION)


def observation(view: PlayerView) -> list[float]:
    """The view as ``OBSERVATION_SIZE`` numbers (see the module documentation)."""
    me = view.seat
    out = [0.0] * OBSERVATION_SIZE
    for card in view.hand:
        out[OBS_HAND + card.index] = 1.0
    out[OBS_TRUMP_CARD + view.trump_card.index] = 1.0
    for play in view.table:
        relative = (play.seat - me) % 4
        for card in play.cards:
            out[OBS_TABLE + 36 * relative + card.index] = 1.0
        if play.hidden:
            out[OBS_FACE_DOWN + relative] += play.size / HAND_SCALE
    if view.table or view.to_play is not None:
        out[OBS_LEADER + (view.leader - me) % 4] = 1.0
    if view.to_play is not None:
        out[OBS_TO_PLAY + (view.to_play - me) % 4] = 1.0
    for trick in view.tricks:
        for play in trick.plays:
            base = OBS_PASSED if (play.kind is MoveKind.PASS and play.seat == me) else OBS_SEEN
            for card in play.cards:
                out[base + card.index] = 1.0
    for seat in range(4):
        out[OBS_HAND_SIZES + (seat - me) % 4] = view.hand_sizes[seat] / HAND_SCALE
    out[OBS_STOCK] = view.stock_size / STOCK_SCALE
    won = view.tricks_won
    out[OBS_TRICKS] = won[view.team] / TRICKS_SCALE
    out[OBS_TRICKS + 1] = won[1 - view.team] / TRICKS_SCALE
    out[OBS_DEFEAT] = min(view.defeat[view.team], DEFEAT_CAP) / DEFEAT_CAP
    out[OBS_DEFEAT + 1] = min(view.defeat[1 - view.team], DEFEAT_CAP) / DEFEAT_CAP
    out[OBS_MOLODKA] = 1.0 if view.table and view.table[0].size == 4 else 0.0
    return out


def observation_of(state: GameState, seat: int) -> list[float]:
    """``observation(goat.view(state, seat))``, read from the state without building the view.

    The same numbers (the tests check it on random states), for adapters that hold the whole state: what
    another seat passed face down is counted, never read (R23).

    >>> import goat
    >>> from goat.adapters import encoding
    >>> state = goat.new_game(seed=2)
    >>> encoding.observation_of(state, 3) == encoding.observation(goat.view(state, 3))
    True
    """
    ones, values = observation_entries(state, seat)
    out = [0.0] * OBSERVATION_SIZE
    for index in ones:
        out[index] = 1.0
    for index, value in values.items():
        out[index] = value
    return out


def observation_array(state: GameState, seat: int) -> np.ndarray[Any, Any]:
    """:func:`observation_of` as a numpy float32 array of ``OBSERVATION_SIZE``, filled sparsely (no view is
    built): the observation the numpy-based adapters (PettingZoo, Gymnasium) hand out.  Needs numpy."""
    import numpy as np  # only the numpy-based adapters call this; the encoding itself does not need numpy

    ones, values = observation_entries(state, seat)
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[ones] = 1.0
    if values:
        out[list(values)] = list(values.values())
    return out


def observation_entries(state: GameState, seat: int) -> tuple[list[int], dict[int, float]]:
    """The non-zero numbers of :func:`observation_of` sparsely: the indices that are 1, and the others.

    For an adapter that fills an array (``array[ones] = 1``, then the others): cheaper than converting the
    310-number list.  Raises :class:`~goat.InvalidSeatError` for a seat that is not 0-3, :class:`TypeError` for a
    state that is not a :class:`~goat.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"an observation is of a GameState, not {type(state).__name__}")
    me = check_seat(seat, "the observing seat")
    hands = state.hands
    ones = [OBS_HAND + card.index for card in hands[me]]
    ones.append(OBS_TRUMP_CARD + state.trump_card.index)
    values: dict[int, float] = {}
    table = state.table
    for play in table:
        relative = (play.seat - me) % 4
        if play.kind is _PASS and play.seat != me:
            values[OBS_FACE_DOWN + relative] = values.get(OBS_FACE_DOWN + relative, 0.0) + len(play.cards) / HAND_SCALE
        else:
            base = OBS_TABLE + 36 * relative
            ones.extend(base + card.index for card in play.cards)
    to_play = state.to_play
    if table or to_play is not None:
        ones.append(OBS_LEADER + (state.leader - me) % 4)
    if to_play is not None:
        ones.append(OBS_TO_PLAY + (to_play - me) % 4)
    won = [0, 0]
    for trick in state.tricks:
        won[trick.winner % 2] += 1
        ones.extend(_seen_in(trick, me))
    for other in range(4):
        size = len(hands[other])
        if size:
            values[OBS_HAND_SIZES + (other - me) % 4] = size / HAND_SCALE
    stock = len(state.stock)
    if stock:
        values[OBS_STOCK] = stock / STOCK_SCALE
    team = me % 2
    defeat = state.defeat
    for index, value in (
        (OBS_TRICKS, won[team] / TRICKS_SCALE),
        (OBS_TRICKS + 1, won[1 - team] / TRICKS_SCALE),
        (OBS_DEFEAT, min(defeat[team], DEFEAT_CAP) / DEFEAT_CAP),
        (OBS_DEFEAT + 1, min(defeat[1 - team], DEFEAT_CAP) / DEFEAT_CAP),
    ):
        if value:
            values[index] = value
    if table and len(table[0].cards) == 4:
        ones.append(OBS_MOLODKA)
    return ones, values


_PASS = MoveKind.PASS
# By id() of a finished trick (tricks are values the engine shares between states): the trick, kept so that
# its id stays its own, and for each seat the observation indices its cards set.
_SEEN_IN: dict[int, tuple[object, tuple[tuple[int, ...], ...]]] = {}


def _seen_in(trick: Trick, seat: int) -> tuple[int, ...]:
    """The observation indices that a finished trick sets for ``seat`` (at OBS_SEEN and OBS_PASSED)."""
    found = _SEEN_IN.get(id(trick))
    if found is None or found[0] is not trick:
        per_seat = []
        for me in range(4):
            indices: list[int] = []
            for play in trick.plays:
                if play.kind is _PASS:
                    if play.seat != me:
                        continue  # another seat's face-down cards: not seen
                    base = OBS_PASSED
                else:
                    base = OBS_SEEN
                indices.extend(base + card.index for card in play.cards)
            per_seat.append(tuple(indices))
        if len(_SEEN_IN) > 100_000:  # bounded memory for long runs
            _SEEN_IN.clear()
        found = _SEEN_IN[id(trick)] = (trick, tuple(per_seat))
    return found[1][seat]


def table_text(state: GameState) -> str:
    """The whole table as text, every hand included: what the adapters' ``render()`` shows.

    >>> import goat
    >>> from goat.adapters import encoding
    >>> print(encoding.table_text(goat.new_game(seed=1)).splitlines()[0])
    trump card 10♣  stock 20  dealer 0  leader 1  to move 1
    """
    lines = [
        f"trump card {state.trump_card.symbol}  stock {len(state.stock)}  dealer {state.dealer}  "
        f"leader {state.leader}  to move {state.to_move}"
    ]
    for seat, hand in enumerate(state.hands):
        lines.append(f"seat {seat}: " + " ".join(card.symbol for card in sorted(hand)))
    lines.append("table: " + (", ".join(str(play) for play in state.table) or "-"))
    won = [sum(1 for trick in state.tricks if trick.winner % 2 == team) for team in (0, 1)]
    lines.append(f"tricks: team 0 {won[0]}, team 1 {won[1]}")
    return "\n".join(lines)
