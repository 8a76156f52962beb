"""The search's hot loops, compiled with the kernel: playouts, worlds for search, the ISMCTS tree.

Package-internal, used by :mod:`goat.bots.ismcts` and :mod:`goat.bots.worlds` through :data:`goat._core.search`,
which is this module or its compiled build (``goat._csearch``, made by ``hatch_build.py`` together with the
kernel's, so that calls into the kernel stay native).  Like the kernel, it works on the kernel's representation
(card indices, masks, move keys, position tuples) and imports nothing of goat but the kernel.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from goat._kernel import (
    BEATERS,
    FIXED,
    HANDS,
    LEADER,
    MOLODKA,
    POINTS,
    STOCK,
    SUIT_MASK,
    SUIT_OF,
    TABLE,
    TO_MOVE,
    TOP,
    TRICKS,
    TRUMP,
    Core,
    Fixed,
    Loose,
    decider,
    holders_of,
    legal,
    mask_points,
    set_beats,
    step,
    subsets,
    top_of,
)

__all__ = [
    "KEEP",
    "Plan",
    "SearchNode",
    "Shape",
    "back_up",
    "cheapest",
    "descend",
    "playout",
    "rollout_answer",
    "search_world",
    "shuffle",
    "world_of",
]


# --- playouts ----------------------------------------------------------------------------------
# A search finishes thousands of games per decision from sampled worlds: its rollout plays on the masks alone
# (no position is built); every move it makes is legal (tests/test_ismcts.py replays them).

#: ``KEEP[trump][card]``: how much a card is worth keeping, lowest passed first: points, then
#: rank, trumps last.
KEEP: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(POINTS[c] * 3 + c % 9 + (30 if SUIT_OF[c] == t else 0) for c in range(36)) for t in range(4)
)


def _keep_value(mask: int, keep: tuple[int, ...]) -> int:
    value = 0
    while mask:
        low = mask & -mask
        value += keep[low.bit_length() - 1]
        mask ^= low
    return value


def cheapest(hand: int, size: int, keep: tuple[int, ...]) -> int:
    """The ``size`` cards of ``hand`` least worth keeping (ties: the lower card)."""
    if size == 1:  # the common case, without sorting
        best = 0
        best_value = 1 << 30
        while hand:
            low = hand & -hand
            value = keep[low.bit_length() - 1]
            if value < best_value:
                best = low
                best_value = value
            hand ^= low
        return best
    cards: list[int] = []
    while hand:
        low = hand & -hand
        cards.append(low)
        hand ^= low
    cards.sort(key=lambda bit: keep[bit.bit_length() - 1])
    chosen = 0
    for bit in cards[:size]:
        chosen |= bit
    return chosen


def rollout_answer(hand: int, size: int, top: int, trump: int, keep: tuple[int, ...]) -> int:
    """The cheapest beat of ``top`` in ``hand`` (side suits before trumps for one card), or 0 if none."""
    if size == 1:
        options = hand & BEATERS[trump][top.bit_length() - 1]
        if not options:
            return 0
        side = options & ~SUIT_MASK[trump]
        pool = side if side else options
        return pool & -pool
    best = 0
    best_value = 1 << 30
    for subset in subsets(hand, size):
        if set_beats(subset, top, trump):
            value = _keep_value(subset, keep)
            if value < best_value:
                best = subset
                best_value = value
    return best


def playout(core: Loose, random: Callable[[], float]) -> tuple[int, int, int, int]:
    """Finish the game from ``core`` with the search's fast policy; return points and tricks by team.

    Every lead is one random card (``random()`` picks it); an answer to an opponent's top play beats
    it as cheaply as it can (:func:`rollout_answer`), else passes the cards least worth keeping
    (:func:`cheapest`); molodka holders wait.  All of these are legal moves (R10–R15).
    """
    hands: list[int] = list(core[HANDS])
    stock: tuple[int, ...] = core[STOCK]
    drawn = 0
    trump: int = core[FIXED][TRUMP]
    keep = KEEP[trump]
    points0 = points1 = tricks0 = tricks1 = 0
    for trick in core[TRICKS]:
        pile = 0
        for key in trick[0]:
            pile |= key >> 5
        winner: int = trick[1]
        if winner & 1:
            points1 += mask_points(pile)
            tricks1 += 1
        else:
            points0 += mask_points(pile)
            tricks0 += 1
    leader: int = core[LEADER]
    table: tuple[int, ...] = core[TABLE]
    size = 0
    top_mask = 0
    top_seat = 0
    pile = 0
    played = len(table)
    if table:
        first: int = table[0]
        size = (first >> 5).bit_count()
        top: int = core[TOP]
        top_mask = top >> 5
        top_seat = top & 3
        for key in table:
            pile |= key >> 5
    while True:
        if played == 0:
            hand = hands[leader]
            if not hand:
                break
            pick = int(random() * hand.bit_count())
            while pick:  # the pick-th card of the hand, lowest first
                hand &= hand - 1
                pick -= 1
            top_mask = hand & -hand
            top_seat = leader
            size = 1
            pile = top_mask
            played = 1
            hands[leader] ^= top_mask
        while played < 4:
            seat = (leader + played) & 3
            hand = hands[seat]
            chosen = 0
            if (top_seat ^ seat) & 1:  # an opponent holds the top: beat it as cheaply as possible
                chosen = rollout_answer(hand, size, top_mask, trump, keep)
                if chosen:
                    top_mask = chosen
                    top_seat = seat
            if not chosen:
                chosen = cheapest(hand, size, keep)
            hands[seat] = hand ^ chosen
            pile |= chosen
            played += 1
        if top_seat & 1:
            points1 += mask_points(pile)
            tricks1 += 1
        else:
            points0 += mask_points(pile)
            tricks0 += 1
        rounds = min(size, (len(stock) - drawn) >> 2)
        for position in range(4 * rounds):
            hands[(top_seat + position) & 3] |= 1 << stock[drawn + position]
        drawn += 4 * rounds
        leader = top_seat
        played = 0
    return (points0, points1, tricks0, tricks1)


# --- worlds for search ---------------------------------------------------------------------
# goat.bots.worlds draws thousands of worlds per search decision; these are its loops over cards.


def shuffle(cards: list[int], getrandbits: Callable[[int], int]) -> list[int]:
    """``cards`` in a uniformly random order (Fisher–Yates from the end, each draw exact by rejection
    from ``getrandbits``); the list is shuffled in place and returned."""
    i = len(cards) - 1
    while i > 0:
        n = i + 1
        width = n.bit_length()
        j = getrandbits(width)
        while j >= n:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1
    return cards


def masks_of(groups: list[list[int]]) -> list[int]:
    """The mask of each list of card indices."""
    masks: list[int] = []
    for group in groups:
        mask = 0
        for card in group:
            mask |= 1 << card
        masks.append(mask)
    return masks


class Shape:
    """What every world for search of one view shares (:func:`world_of` adds the placement of the unseen cards),
    as :class:`goat.bots.worlds.WorldSampler` makes it."""

    def __init__(
        self,
        seat: int,
        hand: int,
        hand_place: list[tuple[int, int]],
        rest: list[tuple[int, int]],
        prefix: list[int],
        trick_plan: list[tuple[tuple[tuple[int, ...], int] | None, int]],
        done: int,
        leader: int,
        playing: bool,
        deciding: bool,
        fixed: Fixed,
    ) -> None:
        self.seat = seat  #: the viewing seat
        self.hand = hand  #: its hand
        self.hand_place = hand_place  #: (seat, place) of each other hand
        self.rest = rest  #: (key, place) of the standing plays from the first other seat's pass (place -1: face up)
        self.prefix = prefix  #: the keys before that pass, the same in every world
        self.trick_plan = trick_plan  #: each finished trick: (keys, winner) if known whole, else None; its winner
        self.done = done  #: how many plays the finished tricks hold
        self.leader = leader
        self.playing = playing  #: whether the game goes on
        self.deciding = deciding  #: whether the viewing seat decides
        self.fixed = fixed


class Plan:
    """A view's worlds for search where no placement is ever refused (at most one card of unknown place, no
    molodka holder's decision to draw): :func:`search_world` draws them whole."""

    def __init__(
        self,
        unknown: list[int],
        rooms: list[int],
        direct: tuple[list[int], list[tuple[int, int]]] | None,
        special: int,
        shape: Shape,
    ) -> None:
        self.unknown = unknown  #: the never-seen cards
        self.rooms = rooms  #: how many of them each place holds (the stock's first)
        self.direct = direct  #: the special card's slots: cumulative weights and (place, weight) of each
        self.special = special  #: the one card of unknown place, or -1
        self.shape = shape


def search_world(plan: Plan, randrange: Callable[[int], int], getrandbits: Callable[[int], int]) -> Core:
    """A world for search, without its log: ``goat.bots.worlds.WorldSampler.position(rng, history=False)``,
    drawing exactly what it draws, for a view with a :class:`Plan`."""
    # The placement: the one special card's slot in proportion to the worlds there, then the never-seen
    # cards in a uniformly random order, place by place.
    place = -1
    slot = 0
    direct = plan.direct
    if direct is not None:
        ends: list[int] = direct[0]
        r = randrange(ends[-1])
        k = 0
        while ends[k] <= r:  # bisect_right(ends, r): the first end above r
            k += 1
        at: tuple[int, int] = direct[1][k]
        place = at[0]
        slot = (r - (ends[k - 1] if k else 0)) // at[1]
    cards = shuffle(list(plan.unknown), getrandbits)
    contents: list[list[int]] = []
    start = 0
    for p, room in enumerate(plan.rooms):
        if p == place:
            room -= 1
        contents.append(cards[start : start + room])
        start += room
    if place >= 0:
        contents[place].insert(slot, plan.special)
    return world_of(plan.shape, contents, None, False, -1, False)


def world_of(shape: Shape, contents: list[list[int]], log: Any, history: bool, extra: int, after_me: bool) -> Core:
    """The position of a world for search, from the cards of each place (the stock's first): the hands, the
    standing plays with the cards of other seats' passes, the tricks, and who decides.

    With ``history``, the world's log is ``log``, the log of the keys before the first other seat's pass,
    continued; without, it has none.  Where the seat does not decide, ``extra`` is the drawn molodka holder
    who decides (-1: the seat due to play), counted after the seat itself when ``after_me``.
    """
    me = shape.seat
    leader = shape.leader
    masks = masks_of(contents)
    hands = [0, 0, 0, 0]
    hands[me] = shape.hand
    for seat, where in shape.hand_place:
        hands[seat] = masks[where]
    keys: list[int] = list(shape.prefix)
    for key, where in shape.rest:
        key = key if where < 0 else masks[where] << 5 | key
        keys.append(key)
        if history:
            log = (key, log)
    tricks = tuple(
        [
            known if known is not None else (tuple(keys[4 * n : 4 * n + 4]), winner)
            for n, (known, winner) in enumerate(shape.trick_plan)
        ]
    )
    table = tuple(keys[shape.done :])
    waited = 0
    holders: tuple[int, ...] = ()
    to_move = -1
    if shape.playing:
        if not table or ((table[0] >> 5).bit_count() != 4 and table[0] >> 2 & 7 != MOLODKA):
            held = [hands[0], hands[1], hands[2], hands[3]]
            for key in table:
                held[key & 3] |= key >> 5
            holders = holders_of((held[0], held[1], held[2], held[3]), leader)
        due = (leader + len(table)) & 3
        asked = [seat for seat in holders if seat != due]
        if shape.deciding:  # holders ahead of me have waited (privately): I decide
            waited = asked.index(me) if me in asked else len(asked)
        elif extra < 0:  # the seat due decides, in every world
            waited = len(asked)
        else:  # the drawn one of the seats that may be deciding
            waited = extra + (asked.index(me) + 1 if after_me else 0)
        to_move = decider(leader, len(table), holders, waited)
    return (
        (hands[0], hands[1], hands[2], hands[3]),
        to_move,
        leader,
        table,
        top_of(table),
        holders,
        waited,
        tuple(contents[0]),
        tricks,
        log if history else None,
        shape.fixed,
    )


# --- the search tree of ISMCTS (goat.bots.ismcts) ------------------------------------------------


class SearchNode:
    """A node of an information-set search tree: the move that leads here (a key; -1 at the root), the
    team that made it, and the statistics of UCB with availability counts."""

    def __init__(self, move: int, team: int) -> None:
        self.move = move
        self.team = team
        self.children: dict[int, SearchNode] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def descend(root: SearchNode, core: Loose, draw: Callable[[], float], c: float) -> tuple[list[SearchNode], Loose]:
    """One walk down the tree in the world ``core``: by UCB among the children whose moves are legal
    here (counting each as available), until a move not yet tried, which is added (chosen by ``draw()``)
    and played, or the game's end.  Returns the path from the root and the position reached."""
    node = root
    path = [root]
    while core[TO_MOVE] >= 0:
        untried: list[int] = []
        best: SearchNode | None = None
        best_score = -1.0
        children = node.children
        for key in legal(core):
            child = children.get(key)
            if child is None:
                untried.append(key)
            else:
                child.avail += 1
                visits = child.visits
                score = child.reward / visits + c * math.sqrt(math.log(child.avail) / visits)
                if score > best_score:
                    best = child
                    best_score = score
        if untried:
            key = untried[int(draw() * len(untried))]
            seat: int = core[TO_MOVE]
            added = SearchNode(key, seat & 1)
            added.avail = 1
            children[key] = added
            path.append(added)
            return path, _legal_step(core, key)
        if best is None:  # pragma: no cover - a position that is not over has a legal move
            raise RuntimeError("no legal move in a position that is not over")
        node = best
        path.append(node)
        core = _legal_step(core, node.move)
    return path, core


def _legal_step(core: Loose, key: int) -> Loose:
    moved = step(core, key)
    if moved is None:  # pragma: no cover - the key is one of legal(core)
        raise RuntimeError(f"the kernel refused its own legal move {key}")
    return moved


def back_up(path: list[SearchNode], reward0: float, reward1: float) -> None:
    """Add one visit and its reward (for the team that made each node's move) along ``path``."""
    for node in path:
        node.visits += 1
        node.reward += reward1 if node.team else reward0
