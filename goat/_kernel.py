"""The kernel: the rules (R5–R23) on plain ints and tuples — dealing, legal moves, play, tricks, scoring and
what a seat sees, nothing else.  Package-internal; not part of the API.

This is goat's hot core, and the one module a compiled build compiles: the build hook
(``hatch_build.py``) compiles a copy of this very file with mypyc as ``goat._ckernel``, and
:mod:`goat._core` chooses which of the two runs.  Everything else — the public values
(:class:`~goat.Card`, :class:`~goat.Move`, :class:`~goat.GameState`), the worded errors, the
views, the bots and adapters — is built on the names in ``__all__`` below, which other modules of
goat import from :mod:`goat._core`.  So this module imports nothing of goat, makes public values
only by the functions its callers pass in (:func:`legal_moves`, :class:`Seer`), and must stay plain,
fully typed Python that mypyc compiles and that runs fast as it is.

Representation:

* a **card** is its index 0–35 in :data:`goat.DECK` (``suit * 9 + rank``), a set of cards a
  36-bit **mask** of those indices;
* a **move** is a **key** ``mask << 5 | kind << 2 | seat``, with the kind codes :data:`LEAD`,
  :data:`BEAT`, :data:`PASS`, :data:`MOLODKA`, :data:`WAIT` (in :class:`~goat.MoveKind` order);
* a **position** is a :data:`Core` tuple, which a :class:`~goat.GameState` wraps, read with the
  index names below:

=================  ==========================================================================
``HANDS``          a mask per seat
``TO_MOVE``        the seat that decides now; -1 once the game is over
``LEADER``         leads the current trick (after a molodka: its owner)
``TABLE``          keys of the current trick's plays since its lead (or molodka)
``TOP``            key of the top play (R12); 0 while the table is empty
``HOLDERS``        seats that held a molodka when the trick started, in priority order from the
                   trick's leader (R14); empty once the trick has its molodka
``WAITED``         how many of the holders to be asked before this play have waited
``STOCK``          card indices, top first
``TRICKS``         finished tricks as ``(keys, winner)`` pairs
``LOG``            every key so far, newest first, as a linked list ``(key, previous) | None``
``FIXED``          what never changes in a game: a :data:`Fixed` tuple, read with ``TRUMP``
                   (suit index), ``TRUMP_CARD``, ``DEALER``, ``ORDER`` (the deck order, card indices top first)
                   and ``DEFEAT`` (the match's defeat-scores before this game)
=================  ==========================================================================

A note on the types, for mypyc: a fixed-length tuple type is unboxed into a C struct at every call
and built again on return, so only the outer :data:`Core` is one; its parts are typed
``tuple[X, ...]`` and pass through as single objects.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Final, TypeVar

__all__ = [
    "BEAT",
    "BEATERS",
    "DEALER",
    "DEALT",
    "DEFEAT",
    "FIXED",
    "FULL",
    "HANDS",
    "HOLDERS",
    "LEAD",
    "LEADER",
    "LOG",
    "MOLODKA",
    "MOLODKAS",
    "ORDER",
    "PASS",
    "POINTS",
    "STOCK",
    "SUIT_MASK",
    "SUIT_OF",
    "TABLE",
    "TOP",
    "TO_MOVE",
    "TRICKS",
    "TRUMP",
    "TRUMP_CARD",
    "WAIT",
    "WAITED",
    "Core",
    "Fixed",
    "Loose",
    "Seer",
    "bits",
    "core_of",
    "deal",
    "decider",
    "fixed_part",
    "frozen_cards",
    "holders_of",
    "legal",
    "legal_moves",
    "mask_points",
    "number",
    "numbered",
    "plays",
    "receiver",
    "set_beats",
    "shuffled",
    "start_hand",
    "step",
    "subsets",
    "top_of",
]

#: The kernel makes no public values: its callers pass their objects in, as this type.
M = TypeVar("M")

# --- cards and sets of cards ----------------------------------------------------------

#: Kind codes of move keys, in :class:`~goat.MoveKind` order.
LEAD: Final = 0
BEAT: Final = 1
PASS: Final = 2
MOLODKA: Final = 3
WAIT: Final = 4

#: The mask of the whole deck.
FULL: Final = (1 << 36) - 1
#: ``SUIT_OF[card]``: the suit index 0–3 (C, D, H, S) of a card index.
SUIT_OF: Final[tuple[int, ...]] = tuple(card // 9 for card in range(36))
#: ``SUIT_MASK[suit]``: the mask of the nine cards of a suit.
SUIT_MASK: Final[tuple[int, ...]] = (511, 511 << 9, 511 << 18, 511 << 27)
#: ``POINTS[card]``: card points (R4); ranks 6 7 8 9 J Q K 10 A score 0 0 0 0 2 3 4 10 11.
POINTS: Final[tuple[int, ...]] = tuple((0, 0, 0, 0, 2, 3, 4, 10, 11)[card % 9] for card in range(36))


def _beaters(trump: int, card: int) -> int:
    """The mask of every card that beats ``card`` when suit ``trump`` is trump (R5)."""
    suit = SUIT_OF[card]
    higher = SUIT_MASK[suit] & ~((1 << (card + 1)) - 1)
    return higher if suit == trump else higher | SUIT_MASK[trump]


#: ``BEATERS[trump][card]``: the mask of the cards that beat ``card`` (R5).
BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(_beaters(t, c) for c in range(36)) for t in range(4))


def _chunk_points() -> tuple[int, ...]:
    points = [0] * 512
    for chunk in range(1, 512):  # a chunk's points: its lowest card's, and the rest's (a smaller chunk)
        points[chunk] = POINTS[(chunk & -chunk).bit_length() - 1] + points[chunk & (chunk - 1)]
    return tuple(points)


# The points of a 9-bit chunk of one suit's ranks, so that a mask scores in four look-ups.
_CHUNK_POINTS: Final[tuple[int, ...]] = _chunk_points()


def mask_points(mask: int) -> int:
    """Card points (R4) of the cards in ``mask``."""
    points = _CHUNK_POINTS
    return points[mask & 511] + points[mask >> 9 & 511] + points[mask >> 18 & 511] + points[mask >> 27]


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    found: list[int] = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


#: How many sets of cards :func:`frozen_cards` keeps: bounded, so that millions of games do not grow memory.
FROZEN_LIMIT: Final = 200_000


def frozen_cards(mask: int, deck: tuple[M, ...], frozen: dict[int, frozenset[M]]) -> frozenset[M]:
    """The cards of ``mask`` as a frozenset of ``deck``'s objects, kept in ``frozen`` (at most
    :data:`FROZEN_LIMIT` of them) for the next time."""
    found = frozen.get(mask)
    if found is None:
        cards: list[M] = []
        rest = mask
        while rest:
            low = rest & -rest
            cards.append(deck[low.bit_length() - 1])
            rest ^= low
        found = frozenset(cards)
        if len(frozen) > FROZEN_LIMIT:
            frozen.clear()
        frozen[mask] = found
    return found


def set_beats(new: int, top: int, trump: int) -> bool:
    """Whether the set ``new`` beats the set ``top`` (R6): the same size, and a one-to-one pairing in which
    every card of ``new`` beats its partner (R5).  A perfect matching of at most 4 + 4 cards."""
    # (mask & (mask - 1) clears the lowest card: a cheap test of "one card" in both builds, where mypyc
    # would call int.bit_count() by name.)
    table = BEATERS[trump]
    if not top & (top - 1):  # one card
        return new != 0 and not new & (new - 1) and new & table[top.bit_length() - 1] != 0
    size = top.bit_count()
    if new.bit_count() != size:
        return False
    if size == 2:
        # Hall's condition: each top card has a beater, and the two have two distinct beaters between them.
        low = top & -top
        first = new & table[low.bit_length() - 1]
        second = new & table[(top ^ low).bit_length() - 1]
        return first != 0 and second != 0 and first | second == new
    options: list[int] = []
    while top:
        low = top & -top
        covering = new & table[low.bit_length() - 1]
        if not covering:  # a top card that nothing beats: the common case, decided at once
            return False
        options.append(covering)
        top ^= low
    options.sort(key=int.bit_count)  # the most constrained top card first
    return _match(options, 0, 0)


def _match(options: list[int], i: int, used: int) -> bool:
    """Whether top cards ``i`` onwards can each take a distinct beater of ``options[i]`` not in ``used``."""
    if i == len(options):
        return True
    free = options[i] & ~used
    while free:
        low = free & -free
        if _match(options, i + 1, used | low):
            return True
        free ^= low
    return False


def subsets(hand: int, size: int) -> list[int]:
    """The ``size``-card subsets of ``hand`` (at most 4 cards), in the engine's fixed order: the order of
    :func:`itertools.combinations` over the cards lowest first."""
    singles: list[int] = []
    rest = hand
    while rest:
        low = rest & -rest
        singles.append(low)
        rest ^= low
    held = len(singles)
    if size == 1:
        return singles
    if size == held:
        return [hand]
    if size == held - 1:
        return [hand ^ single for single in reversed(singles)]
    # Two of four cards: the only case left for a hand of at most four.
    a, b, c, d = singles[0], singles[1], singles[2], singles[3]
    return [a | b, a | c, a | d, b | c, b | d, c | d]


# --- molodka holders and who decides (R14) ------------------------------------------------

#: Every molodka (R14): four cards of one suit, 4 x 126 masks.
MOLODKAS: Final[frozenset[int]] = frozenset(
    [(1 << a | 1 << b | 1 << c | 1 << d) << (9 * suit) for suit in range(4) for a, b, c, d in combinations(range(9), 4)]
)


def holders_of(hands: tuple[int, ...], leader: int) -> tuple[int, ...]:
    """Seats holding a molodka at the start of a trick, closest to the leader first (R14)."""
    m = MOLODKAS
    held: tuple[Any, ...] = hands  # (typed loosely: mypyc looks the hands up as they are, without boxing them again)
    if held[0] not in m and held[1] not in m and held[2] not in m and held[3] not in m:
        return ()  # the common case
    return tuple([seat for seat in ((leader + i) & 3 for i in range(4)) if held[seat] in m])


def decider(leader: int, played: int, holders: tuple[int, ...], waited: int) -> int:
    """Who decides now: the next holder still to be asked before this play, else the seat due to play (R14)."""
    due = (leader + played) & 3
    if holders:
        asked = [seat for seat in holders if seat != due]
        if waited < len(asked):
            return asked[waited]
    return due


# --- positions --------------------------------------------------------------------

# Indices of a Core tuple, and of its FIXED part (see the module's documentation).
HANDS: Final = 0
TO_MOVE: Final = 1
LEADER: Final = 2
TABLE: Final = 3
TOP: Final = 4
HOLDERS: Final = 5
WAITED: Final = 6
STOCK: Final = 7
TRICKS: Final = 8
LOG: Final = 9
FIXED: Final = 10
TRUMP: Final = 0
TRUMP_CARD: Final = 1
DEALER: Final = 2
ORDER: Final = 3
DEFEAT: Final = 4

#: ``(trump suit, trump card, dealer, deck, defeat)``.
Fixed = tuple[Any, ...]
#: A position typed loosely, for the kernel's hottest functions (see :func:`step`).
Loose = tuple[Any, ...]
#: A position (see the module's documentation for its parts).
Core = tuple[
    tuple[int, ...],  # HANDS
    int,  # TO_MOVE
    int,  # LEADER
    tuple[int, ...],  # TABLE
    int,  # TOP
    tuple[int, ...],  # HOLDERS
    int,  # WAITED
    tuple[int, ...],  # STOCK
    tuple[tuple[tuple[int, ...], int], ...],  # TRICKS
    Any,  # LOG
    Fixed,  # FIXED
]


def core_of(
    *,
    hands: tuple[int, ...],
    to_move: int,
    leader: int,
    table: tuple[int, ...],
    top: int,
    holders: tuple[int, ...],
    waited: int,
    stock: tuple[int, ...],
    tricks: tuple[tuple[tuple[int, ...], int], ...],
    log: Any,
    fixed: Fixed,
) -> Core:
    """A position from its parts, named (for code that builds one other than by :func:`deal` and :func:`step`)."""
    return (hands, to_move, leader, table, top, holders, waited, stock, tricks, log, fixed)


def fixed_part(trump: int, trump_card: int, dealer: int, order: tuple[int, ...], defeat: tuple[int, ...]) -> Fixed:
    """A position's :data:`Fixed` part from its parts."""
    return (trump, trump_card, dealer, order, defeat)


def top_of(table: tuple[int, ...]) -> int:
    """The key of the top play among a trick's keys (R12): the last beat, else the lead; 0 for no plays."""
    for key in reversed(table):
        if key >> 2 & 7 == BEAT:
            return key
    return table[0] if table else 0


def start_hand(core: Core, seat: int) -> int:
    """The seat's hand at the start of the trick: its hand and its cards on the table."""
    hand = core[HANDS][seat]
    for key in core[TABLE]:
        if key & 3 == seat:
            hand |= key >> 5
    return hand


# --- dealing (R7–R9) -----------------------------------------------------------------


# The draws of random.shuffle on 36 items: (position i, a number below n = i + 1, of n.bit_length() bits).
_SHUFFLE_DRAWS: Final[tuple[tuple[int, int, int], ...]] = tuple((n - 1, n, n.bit_length()) for n in range(36, 1, -1))


def shuffled(getrandbits: Callable[[int], int]) -> tuple[tuple[int, ...], int]:
    """A deck order, and the trump card's position in the stock, drawn exactly as
    ``random.Random.shuffle(list(range(36)))`` and then ``randrange(20)`` draw them from the same
    generator (``random.Random._randbelow``, inlined), so that a seed deals the same game as ever."""
    order = list(range(36))
    for i, n, k in _SHUFFLE_DRAWS:
        j = getrandbits(k)
        while j >= n:  # a draw of n or more is thrown away
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    j = getrandbits(5)
    while j >= 20:
        j = getrandbits(5)
    return tuple(order), j


#: How many cards are dealt (R7): four to each seat; the rest is the stock.
DEALT: Final = 16


def receiver(dealer: int, position: int) -> int:
    """The seat that receives the card at ``position`` (< :data:`DEALT`) of the deck: one card at a time,
    clockwise from the dealer's left (R7)."""
    return (dealer + 1 + position) & 3


def deal(deck: tuple[int, ...], trump_card: int, dealer: int, defeat: tuple[int, ...]) -> Core:
    """The first position of a game dealt from ``deck`` (card indices, top first) by ``dealer`` (R7–R9)."""
    # One card at a time, clockwise from the dealer's left (R7): the i-th seat from there
    # receives deck[i], deck[i + 4], deck[i + 8] and deck[i + 12].
    d = deck
    first = (
        1 << d[0] | 1 << d[4] | 1 << d[8] | 1 << d[12],
        1 << d[1] | 1 << d[5] | 1 << d[9] | 1 << d[13],
        1 << d[2] | 1 << d[6] | 1 << d[10] | 1 << d[14],
        1 << d[3] | 1 << d[7] | 1 << d[11] | 1 << d[15],
    )
    leader = (dealer + 1) & 3  # R9: the first to receive a card leads
    hands = first[4 - leader :] + first[: 4 - leader]  # seat s holds first[(s - leader) % 4]
    holders = holders_of(hands, leader)
    to_move = decider(leader, 0, holders, 0) if holders else leader
    fixed = (SUIT_OF[trump_card], trump_card, dealer, deck, defeat)
    return (hands, to_move, leader, (), 0, holders, 0, deck[16:], (), None, fixed)


# --- legal moves (R10, R11, R14) ------------------------------------------------------------


def legal(core: Core) -> list[int]:
    """The keys of every legal move, in the engine's fixed order; empty once the game is over."""
    seat = core[TO_MOVE]
    if seat < 0:
        return []
    if seat != (core[LEADER] + len(core[TABLE])) & 3:  # a holder asked before another seat's play (R14)
        return [start_hand(core, seat) << 5 | MOLODKA << 2 | seat, WAIT << 2 | seat]
    return plays(core, seat)


def number(key: int, hand: int, lead: int, beat: int, pass_: int, molodka: int, wait: int) -> int:
    """The action of the move ``key`` for a seat holding the mask ``hand``, as :func:`numbered` numbers it."""
    kind = key >> 2 & 7
    if kind == MOLODKA:
        return molodka
    if kind == WAIT:
        return wait
    cards = key >> 5
    subset = 0
    bit = 1
    while hand:
        low = hand & -hand
        if cards & low:
            subset |= bit
        bit <<= 1
        hand ^= low
    return (lead if kind == LEAD else beat if kind == BEAT else pass_) + subset - 1


def numbered(core: Loose, lead: int, beat: int, pass_: int, molodka: int, wait: int) -> list[tuple[int, int]]:
    """Every legal move as ``(action, key)``, ascending by action, in a framework adapter's action space
    (goat.adapters.encoding, which passes its numbers in): a lead, beat or pass of the hand's cards
    ``subset`` (a bit per card of the hand in deck order) is ``offset + subset - 1``; a molodka and a wait
    are one number each."""
    seat: int = core[TO_MOVE]
    if seat < 0:
        return []
    hand: int = core[HANDS][seat]
    # the hand's card indices in deck order, padded to four with 36, a bit no mask has
    order = [36, 36, 36, 36]
    i = 0
    while hand:
        low = hand & -hand
        order[i] = low.bit_length() - 1
        hand ^= low
        i += 1
    a, b, c, d = order[0], order[1], order[2], order[3]
    found: list[tuple[int, int]] = []
    for key in legal(core):
        kind = key >> 2 & 7
        if kind == MOLODKA:
            action = molodka
        elif kind == WAIT:
            action = wait
        else:
            m = key >> 5
            subset = (m >> a & 1) | (m >> b & 1) << 1 | (m >> c & 1) << 2 | (m >> d & 1) << 3
            action = (lead if kind == LEAD else beat if kind == BEAT else pass_) + subset - 1
        found.append((action, key))
    found.sort()  # by action: no two moves share one
    return found


def plays(core: Core, seat: int) -> list[int]:
    """The keys of the moves of ``seat`` as the seat due to play, whoever else may be asked first.

    A lead: every non-empty set of cards of one suit, suit by suit (R10).  An answer: every beat (R6,
    R11), then every pass (any cards of the lead's size, R11), in :func:`subsets` order; then the
    seat's molodka if it held one when the trick started and the trick has none yet (R14).
    """
    hand = core[HANDS][seat]
    keys: list[int] = []
    if not core[TABLE]:
        code = LEAD << 2 | seat
        for suit_mask in SUIT_MASK:
            of_suit = hand & suit_mask
            subset = of_suit
            while subset:
                keys.append(subset << 5 | code)
                subset = (subset - 1) & of_suit
        return keys
    top = core[TOP] >> 5
    beat = BEAT << 2 | seat
    pass_ = PASS << 2 | seat
    table = BEATERS[core[FIXED][TRUMP]]
    if not top & (top - 1):  # one card
        rest = hand & table[top.bit_length() - 1]
        while rest:
            low = rest & -rest
            keys.append(low << 5 | beat)
            rest ^= low
        rest = hand
        while rest:
            low = rest & -rest
            keys.append(low << 5 | pass_)
            rest ^= low
    else:
        covers: list[int] = []  # for each top card, the cards of the hand that beat it
        rest = top
        while rest:
            low = rest & -rest
            covers.append(hand & table[low.bit_length() - 1])
            rest ^= low
        options = subsets(hand, len(covers))
        if all(covers):  # else a top card that nothing in the hand beats: no beat at all
            if len(covers) == 2:
                first, second = covers[0], covers[1]
                for subset in options:
                    low = subset & -subset
                    high = subset ^ low
                    if (low & first and high & second) or (low & second and high & first):
                        keys.append(subset << 5 | beat)
            else:
                covers.sort(key=int.bit_count)  # the most constrained top card first
                for subset in options:
                    if _match([cover & subset for cover in covers], 0, 0):
                        keys.append(subset << 5 | beat)
        for subset in options:
            keys.append(subset << 5 | pass_)
    if seat in core[HOLDERS]:
        keys.append(hand << 5 | MOLODKA << 2 | seat)
    return keys


# Runs of moves on one suit's cards, for legal_moves(): ``(code << 2 | suit) << 9 | chunk`` -> the
# moves of kind-and-seat ``code`` (``kind << 2 | seat``) on the 9-bit ``chunk`` of that suit, in the
# order of plays(): every non-empty subset, highest first, for LEAD; each card, lowest first, for
# BEAT and PASS; None until first needed.  A list rather than a dict: indexing it boxes no int.
_RUNS: Final[list[tuple[Any, ...] | None]] = [None] * (((PASS << 2 | 3) << 11 | 2047) + 1)


def _run(index: int, interned: dict[int, M], make: Callable[[int], M]) -> tuple[M, ...]:
    code = index >> 11
    shift = (index >> 9 & 3) * 9
    chunk = index & 511
    moves: list[M] = []
    if code >> 2 == LEAD:
        subset = chunk
        while subset:
            key = subset << shift << 5 | code
            moves.append(interned.get(key) or make(key))
            subset = (subset - 1) & chunk
    else:
        while chunk:
            low = chunk & -chunk
            key = low << shift << 5 | code
            moves.append(interned.get(key) or make(key))
            chunk ^= low
    run = tuple(moves)
    _RUNS[index] = run
    return run


def legal_moves(core: Loose, interned: dict[int, M], make: Callable[[int], M]) -> tuple[M, ...]:
    """:func:`legal` as move objects: ``interned`` maps a key to its object, ``make(key)`` makes a missing one.

    The kernel makes no public values: :mod:`goat.moves` passes its table and factory in.  The
    commonest positions, a lead and a one-card answer, are put together from cached runs of one
    suit's moves (the same order as :func:`plays`); two-card answers are decided by Hall's condition.
    """
    seat: int = core[TO_MOVE]
    table: tuple[int, ...] = core[TABLE]
    leader: int = core[LEADER]
    if seat < 0 or seat != (leader + len(table)) & 3:
        return tuple([interned.get(key) or make(key) for key in legal(core)])
    hand: int = core[HANDS][seat]
    holders: tuple[int, ...] = core[HOLDERS]
    runs = _RUNS
    moves: tuple[M, ...] = ()
    if not table:
        base = seat << 11  # LEAD is 0
    else:
        top_key: int = core[TOP]
        top = top_key >> 5
        trump: int = core[FIXED][TRUMP]
        if top & (top - 1) or seat in holders:  # more than one card, or a molodka to offer
            if top.bit_count() == 2 and seat not in holders:
                return _pairs(hand, top, seat, trump, interned, make)
            return tuple([interned.get(key) or make(key) for key in plays(core, seat)])
        card = top.bit_length() - 1
        beating = hand & BEATERS[trump][card]
        if beating:  # higher cards of the led suit and trumps (unless trumps were led), lowest first
            base = (BEAT << 2 | seat) << 11
            led = SUIT_OF[card]
            low, high = (led, trump) if led < trump else (trump, led)
            chunk = beating >> (9 * low) & 511
            if chunk:
                index = base | low << 9 | chunk
                moves = runs[index] or _run(index, interned, make)
            if high != low:
                chunk = beating >> (9 * high) & 511
                if chunk:
                    index = base | high << 9 | chunk
                    moves += runs[index] or _run(index, interned, make)
        base = (PASS << 2 | seat) << 11
    chunk = hand & 511
    if chunk:
        index = base | chunk
        moves += runs[index] or _run(index, interned, make)
    chunk = hand >> 9 & 511
    if chunk:
        index = base | 512 | chunk
        moves += runs[index] or _run(index, interned, make)
    chunk = hand >> 18 & 511
    if chunk:
        index = base | 1024 | chunk
        moves += runs[index] or _run(index, interned, make)
    chunk = hand >> 27
    if chunk:
        index = base | 1536 | chunk
        moves += runs[index] or _run(index, interned, make)
    return moves


def _pairs(
    hand: int, top: int, seat: int, trump: int, interned: dict[int, M], make: Callable[[int], M]
) -> tuple[M, ...]:
    """The moves of a two-card answer by a seat without a molodka: the beats, then the passes, each in
    :func:`subsets` order (the pairs of the hand's cards, lowest first)."""
    table = BEATERS[trump]
    low = top & -top
    first = hand & table[low.bit_length() - 1]  # the hand's cards that beat the lower top card
    second = hand & table[(top ^ low).bit_length() - 1]  # and the higher
    can_beat = first != 0 and second != 0
    singles: list[int] = []
    rest = hand
    while rest:
        low = rest & -rest
        singles.append(low)
        rest ^= low
    beat = BEAT << 2 | seat
    pass_ = PASS << 2 | seat
    beats: list[M] = []
    passes: list[M] = []
    count = len(singles)
    for i in range(count - 1):
        x = singles[i]
        for j in range(i + 1, count):
            y = singles[j]
            pair = (x | y) << 5
            # Hall's condition for two cards: one beats the lower top card and the other the higher.
            if can_beat and ((x & first and y & second) or (x & second and y & first)):
                key = pair | beat
                beats.append(interned.get(key) or make(key))
            key = pair | pass_
            passes.append(interned.get(key) or make(key))
    return (*beats, *passes)


# --- playing a move (R10–R17) ------------------------------------------------------------------


def step(core: Loose, key: int) -> Loose | None:
    """The position after the move ``key``, or ``None`` if the rules forbid it here.

    Legal exactly when ``key in legal(core)``; the property tests check that the two agree.  (A
    :data:`Loose` position in and out: see the module's note on types.)
    """
    seat = key & 3
    to_move: int = core[TO_MOVE]
    if seat != to_move:  # also once the game is over (-1)
        return None
    kind = key >> 2 & 7
    mask = key >> 5
    hands: tuple[Any, ...] = core[HANDS]
    leader: int = core[LEADER]
    table: tuple[int, ...] = core[TABLE]
    holders: tuple[int, ...] = core[HOLDERS]
    played = len(table)
    boxed: Any = key  # (the key as one object, for the tuples below: mypyc would box it for each)
    log = (boxed, core[LOG])
    if seat != (leader + played) & 3:  # a holder asked before another seat's play (R14)
        if kind == WAIT and not mask:
            waited: int = core[WAITED] + 1
            return (
                hands,
                decider(leader, played, holders, waited),
                core[LEADER],
                table,
                core[TOP],
                holders,
                waited,
                core[STOCK],
                core[TRICKS],
                log,
                core[FIXED],
            )
        if kind == MOLODKA and mask == start_hand(core, seat):
            return _molodka(core, key, seat, mask, log)
        return None
    hand: int = hands[seat]
    if not mask or mask & ~hand:
        return None
    top: Any
    if not table:
        if kind != LEAD or mask & SUIT_MASK[SUIT_OF[(mask & -mask).bit_length() - 1]] != mask:
            return None  # a lead is cards of one suit (R10)
        top = boxed
        three = mask & (mask - 1)
        three &= three - 1
        # Four cards (a hand holds at most four): the trick's molodka (R14), and no other can be declared.
        if three & (three - 1):
            holders = ()
    else:
        top = core[TOP]
        led: int = top
        led >>= 5  # the top play's cards
        if kind == PASS:
            if mask & (mask - 1) if not led & (led - 1) else mask.bit_count() != led.bit_count():
                return None  # not as many cards as the lead (R11)
        elif kind == BEAT:
            if not set_beats(mask, led, core[FIXED][TRUMP]):
                return None
            top = boxed
        elif kind == MOLODKA and seat in holders and mask == hand:
            return _molodka(core, key, seat, mask, log)
        else:
            return None
    hand ^= mask
    if seat == 0:
        hands = (hand, hands[1], hands[2], hands[3])
    elif seat == 1:
        hands = (hands[0], hand, hands[2], hands[3])
    elif seat == 2:
        hands = (hands[0], hands[1], hand, hands[3])
    else:
        hands = (hands[0], hands[1], hands[2], hand)
    if played < 3:
        return (
            hands,
            decider(leader, played + 1, holders, 0) if holders else (seat + 1) & 3,
            core[LEADER],
            table + (boxed,),  # noqa: RUF005 - mypyc builds (*table, boxed) through a list
            top,
            holders,
            0,
            core[STOCK],
            core[TRICKS],
            log,
            core[FIXED],
        )
    winner: int = top
    return _end_trick(core, table + (boxed,), hands, winner & 3, log)  # noqa: RUF005 - as above


def _molodka(core: Core, key: int, seat: int, mask: int, log: Any) -> Core:
    """A molodka declared: the cards on the table go back to their owners, and its owner leads the trick (R14)."""
    hands = core[HANDS]
    h = [hands[0], hands[1], hands[2], hands[3]]
    for earlier in core[TABLE]:
        h[earlier & 3] |= earlier >> 5
    h[seat] &= ~mask
    return (
        (h[0], h[1], h[2], h[3]),
        (seat + 1) & 3,
        seat,
        (key,),
        key,
        (),
        0,
        core[STOCK],
        core[TRICKS],
        log,
        core[FIXED],
    )


def _end_trick(core: Loose, table: tuple[int, ...], hands: tuple[int, ...], winner: int, log: Any) -> Loose:
    """The fourth play ends the trick (R13); then the draw (R15), and the winner leads (R16) unless the game is over."""
    tricks = core[TRICKS] + ((table, winner),)
    stock: tuple[int, ...] = core[STOCK]
    if not stock:
        if not hands[0]:  # R17: stock and hands are empty (hands always hold equal numbers of cards)
            return (hands, -1, winner, (), 0, (), 0, stock, tricks, log, core[FIXED])
    else:
        # One card at a time, the winner first (R15), a round for each card played while the stock lasts:
        # the i-th seat from the winner draws stock[i], stock[i + 4], ...
        end = 4 * min(4 - hands[0].bit_count(), len(stock) >> 2)
        d0 = d1 = d2 = d3 = 0
        for i in range(0, end, 4):
            d0 |= 1 << stock[i]
            d1 |= 1 << stock[i + 1]
            d2 |= 1 << stock[i + 2]
            d3 |= 1 << stock[i + 3]
        stock = stock[end:]
        h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
        if winner == 0:
            hands = (h0 | d0, h1 | d1, h2 | d2, h3 | d3)
        elif winner == 1:
            hands = (h0 | d3, h1 | d0, h2 | d1, h3 | d2)
        elif winner == 2:
            hands = (h0 | d2, h1 | d3, h2 | d0, h3 | d1)
        else:
            hands = (h0 | d1, h1 | d2, h2 | d3, h3 | d0)
    holders = holders_of(hands, winner)
    to_move = decider(winner, 0, holders, 0) if holders else winner
    return (hands, to_move, winner, (), 0, holders, 0, stock, tricks, log, core[FIXED])


# --- what one seat sees (R23), for goat.view ----------------------------------------------------


def _seen_code(key: int, seat: int) -> int:
    """What ``seat`` may know of the move ``key`` (see :class:`Seer`): the key of a move seen face up; for
    another seat's face-down pass (R11), ``-1 - (size << 2 | that seat)``."""
    if key >> 2 & 7 != PASS or key & 3 == seat:
        return key
    return -1 - ((key >> 5).bit_count() << 2 | key & 3)


class Seer:
    """What each seat sees of positions (R23): the views of :func:`goat.view`, made of the values it passes in.

    A referee asks for a view at every decision, and almost all of what it holds was seen before, so a
    seer keeps the seen values it made and looks them up at the kernel's speed.  Each is chosen by what
    its viewer may know, never by a hidden card: whether two views hold the same object must not tell a
    bot whether two face-down passes held the same cards.  What a viewer may know of a move is its
    *code*: a face-up move's key, or for another seat's face-down pass (R11) a negative number made of
    that seat and the pass's size alone; another seat's WAIT leaves no trace (R14).

    ``new_view()`` makes an empty view and ``setters`` are its slots' own, in field order: a view is
    made without its ``__init__``, every value as ``__init__`` would store it; so are seen moves
    (``new_move``, ``move_setters``, with ``kinds`` the move kinds by code) and seen tricks
    (``new_trick``, ``trick_setters``).  ``deck`` and ``frozen`` make sets of cards as
    :func:`frozen_cards` does, and ``dropped`` stands for a move not seen at all.  goat.view checks
    at import that the setters are the fields' own, in the order used here.
    The tables of seen moves are emptied once they hold more than ``limit`` entries; those of seen
    tricks (mostly new), of the seats' histories and runs of tricks and of the tricks as all four see
    them (which keep their game's log alive) once they hold more than ``parts_limit``.
    """

    def __init__(
        self,
        new_view: Callable[[], Any],
        setters: tuple[Any, ...],
        deck: tuple[Any, ...],
        frozen: dict[int, Any],
        new_move: Callable[[], Any],
        move_setters: tuple[Any, ...],
        kinds: tuple[Any, ...],
        new_trick: Callable[[], Any],
        trick_setters: tuple[Any, ...],
        dropped: Any,
        limit: int,
        parts_limit: int,
    ) -> None:
        self.new_view = new_view
        self.setters = setters
        self.deck = deck
        self.frozen = frozen
        self.new_move = new_move
        self.move_setters = move_setters
        self.kinds = kinds
        self.new_trick = new_trick
        self.trick_setters = trick_setters
        self.dropped = dropped
        self.limit = limit
        self.parts_limit = parts_limit
        self.moves: dict[int, Any] = {}  # code -> seen move
        self.by_viewer: dict[int, Any] = {}  # key << 2 | viewer -> seen move, or dropped
        self.tricks: dict[tuple[int, ...], Any] = {}  # the plays' codes and the winner -> seen trick
        # A seat's history and tricks at a position, for its next view of a later one: by ``id(part) << 2 |
        # seat`` of the log node, or of the last trick entry, with that part (or the position's tuple of
        # tricks), which keeps the id from being reused while the entry lives.
        self.histories: dict[int, tuple[Any, ...]] = {}
        self.runs: dict[int, tuple[Any, ...]] = {}
        self.every: dict[int, tuple[Any, ...]] = {}  # id(trick entry) -> (entry, the four seats' seen tricks)

    def clear(self) -> None:
        """Forget every seen value made (they are made again, equal, when next asked for); the sets of cards
        are ``frozen``'s, shared with the rest of goat, and stay."""
        for table in (self.moves, self.by_viewer, self.histories, self.runs, self.every):
            table.clear()
        self.tricks.clear()

    def view(self, core: Loose, seat: int, moves: tuple[Any, ...]) -> Any:
        """What ``seat`` sees of ``core``, with its legal ``moves``."""
        setters = self.setters
        hands: tuple[int, ...] = core[HANDS]
        fixed: Fixed = core[FIXED]
        table: tuple[int, ...] = core[TABLE]
        to_move: int = core[TO_MOVE]
        leader: int = core[LEADER]
        view = self.new_view()
        setters[0](view, seat)
        setters[1](view, frozen_cards(hands[seat], self.deck, self.frozen))
        setters[2](view, self.deck[fixed[TRUMP_CARD]])
        setters[3](view, fixed[DEALER])
        setters[4](view, leader)
        setters[5](view, None if to_move < 0 else (leader + len(table)) & 3)
        setters[6](view, len(core[STOCK]))
        setters[7](view, (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count()))
        by_viewer = self.by_viewer
        setters[8](view, tuple([by_viewer.get(key << 2 | seat) or self.move(key, seat) for key in table]))
        setters[9](view, self.tricks_seen(core[TRICKS], seat))
        setters[10](view, self.history(core[LOG], seat))
        setters[11](view, fixed[DEFEAT])
        setters[12](view, moves)
        return view

    def move(self, key: int, seat: int) -> Any:
        """What ``seat`` sees of the move ``key``: ``dropped`` for another seat's WAIT (R14)."""
        found = self.by_viewer.get(key << 2 | seat)
        if found is None:
            hidden = key >> 2 & 7 == WAIT and key & 3 != seat  # another seat's WAIT (R14)
            found = self.dropped if hidden else self.made(_seen_code(key, seat))
            if len(self.by_viewer) > self.limit:
                self.by_viewer.clear()
            self.by_viewer[key << 2 | seat] = found
        return found

    def made(self, code: int) -> Any:
        """The seen move of a code."""
        found = self.moves.get(code)
        if found is None:
            setters = self.move_setters
            found = self.new_move()
            if code < 0:  # another seat's face-down pass: its seat and size
                setters[0](found, self.kinds[PASS])
                setters[1](found, ~code & 3)
                setters[2](found, ~code >> 2)
                # An empty set of its own: shared with the moves that hold no card (WAIT), how many refer to
                # it would tell an in-process bot how often other seats were asked about a molodka (R14).
                setters[3](found, frozenset())
            else:
                mask = code >> 5
                setters[0](found, self.kinds[code >> 2 & 7])
                setters[1](found, code & 3)
                setters[2](found, mask.bit_count())
                setters[3](found, frozen_cards(mask, self.deck, self.frozen))
            if len(self.moves) > self.limit:
                self.moves.clear()
            self.moves[code] = found
        return found

    def trick(self, trick: tuple[Any, ...], seat: int) -> Any:
        """What ``seat`` sees of a finished trick, a :data:`TRICKS` entry ``(keys, winner)``."""
        keys: tuple[int, ...] = trick[0]
        winner: int = trick[1]
        codes = [_seen_code(key, seat) for key in keys]
        codes.append(winner)
        known = tuple(codes)
        found = self.tricks.get(known)
        if found is None:
            found = self.new_trick()
            self.trick_setters[0](found, tuple([self.made(code) for code in codes[:-1]]))
            self.trick_setters[1](found, winner)
            if len(self.tricks) > self.parts_limit:  # most tricks are new: a big table would mostly hold garbage
                self.tricks.clear()
            self.tricks[known] = found
        return found

    def every_seat(self, trick: tuple[Any, ...]) -> tuple[Any, ...]:
        """A finished trick as seats 0-3 see it, made when the first of them is asked about it."""
        for key in trick[0]:
            if key >> 2 & 7 == PASS:  # each seat sees its own pass, and the others' as sizes
                return (self.trick(trick, 0), self.trick(trick, 1), self.trick(trick, 2), self.trick(trick, 3))
        one = self.trick(trick, 0)  # every seat sees the same trick
        return (one, one, one, one)

    def history(self, log: Any, seat: int) -> tuple[Any, ...]:
        """What ``seat`` sees of a :data:`LOG`, oldest first, continued from the longest part it saw before."""
        history: tuple[Any, ...] = ()
        known = self.histories
        by_viewer = self.by_viewer
        dropped = self.dropped
        end = log
        new: list[Any] = []
        while log is not None:
            found = known.get(id(log) << 2 | seat)
            if found is not None and found[0] is log:
                history = found[1]
                break
            key: int = log[0]
            log = log[1]
            move = by_viewer.get(key << 2 | seat) or self.move(key, seat)
            if move is not dropped:
                new.append(move)
        if not new:
            return history
        new.reverse()
        history += tuple(new)
        if len(known) > self.parts_limit:
            known.clear()
        known[id(end) << 2 | seat] = (end, history)
        return history

    def tricks_seen(self, tricks: tuple[Any, ...], seat: int) -> tuple[Any, ...]:
        """What ``seat`` sees of a position's :data:`TRICKS`, continued from the longest run of them it saw before.

        While a trick runs, a position's tuple of tricks is the same object: one look-up finds it.  A
        referee asks each seat about once a trick, so the usual miss is a seat whose last view was one
        trick ago.
        """
        count = len(tricks)
        if not count:
            return ()
        runs = self.runs
        found = runs.get(id(tricks[-1]) << 2 | seat)
        if found is not None and found[0] is tricks:
            return found[1]  # type: ignore[no-any-return]
        seen: tuple[Any, ...] = ()
        for end in range(count - 1, 0, -1):  # the latest earlier run of tricks this seat saw
            found = runs.get(id(tricks[end - 1]) << 2 | seat)
            if found is not None and len(found[0]) == end:
                # The same entries, by identity, not equality: sharing follows the game, so that another
                # game's equal run (the same face-down cards too) gets a tuple of its own, as a run with
                # other face-down cards would (R23).
                earlier: tuple[Any, ...] = found[0]
                same = 0
                while same < end and earlier[same] is tricks[same]:
                    same += 1
                if same == end:
                    seen = found[1]
                    break
        every = self.every
        new: list[Any] = []
        for i in range(len(seen), count):
            trick = tricks[i]
            four = every.get(id(trick))
            if four is None or four[0] is not trick:
                four = (trick, self.every_seat(trick))
                if len(every) > self.parts_limit:
                    every.clear()
                every[id(trick)] = four
            new.append(four[1][seat])
        seen += tuple(new)
        if len(runs) > self.parts_limit:
            runs.clear()
        runs[id(tricks[-1]) << 2 | seat] = (tricks, seen)
        return seen
