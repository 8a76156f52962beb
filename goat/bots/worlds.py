"""Sampling a full game state consistent with what one seat has seen (R23): determinization.

:func:`sample_world` is the heart of information-set search: a bot draws
possible worlds, plays them out, and learns which of its moves does well
across them.

**What is drawn.**  A *world* is a full game state: the deck order, the trump
card, and the whole history, other seats' face-down passes included (also
those a molodka took back, R14) and the private waits of molodka holders.  Its
worlds for a view are those whose view from the view's seat *is* that view;
:func:`sample_world` draws one of them, each with the same probability.  That
is the posterior over deals under the real deal (a shuffled deck, R7, and a
trump card drawn from the stock, R8), with every hidden choice of the other
seats counted once: it is not weighted by any model of how they play.  When
the seat has legal moves, its worlds are those in which it is to move (the
holders asked before it have waited: it samples worlds to decide in).  When it
has none, which seat is deciding now is part of the world too: a molodka
holder being asked (its waits are private, R14) or the seat due to play, each
counted once, but never the seat itself unless it was asked.

**How.**  The cards the seat has not located lie in *places*: the stock (in
order), every other seat's hand, and every face-down pass of another seat that
still stands.  A seat receives public deck positions (four at the deal, R7,
and one per draw round, R15), so a world is a placement of the unknown cards
together with, for each seat, a one-to-one map of the cards it has ever held
to the positions it received, such that each card came before it was used (a
play or a pass: its index in the history; a hand's cards have no deadline),
the trump card came from the stock (position 16 or later, R8), and a card that
a molodka gave back to another seat (R14) came before the play that it was in
(a face-down pass that was taken back may hold any cards of its hand then:
the same number of choices in every world).  The number of worlds of a
placement is the product over seats of the number of such maps, so:

1. A placement is proposed uniformly among those that put each *special*
   card, whose place is unknown and whose position is constrained (the trump
   card, unless seen; a card given back by a molodka and not seen since), in a
   place allowed to it: each special card takes a uniformly random slot of its
   allowed places, a clash draws again, and the never-seen cards fill the rest
   in a uniformly random order.
2. For each seat whose places may hold a special card, the proposal is kept
   with probability ``maps(placement) / bound`` (``bound`` is the most maps any
   placement gives that seat; the others' counts do not depend on the
   placement).  Deadlines are prefixes of a seat's positions in the order it
   received them, and the trump card asks for a drawn position, so the maps
   are counted exactly, and a uniformly random one drawn, by one pass over the
   cards in deadline order that tracks how many dealt positions are taken.
   With a single special card (most often the unseen trump card), steps 1-2
   are one draw: its slot is chosen in proportion to those counts.  When the
   seat does not decide, a placement is also kept in proportion to how many
   seats may be deciding in it, and one of them is drawn.
3. :func:`sample_world` then draws each seat's map uniformly (the seat's own
   too: how many it has does not depend on the placement, and one that would
   have it asked about a molodka otherwise than it was is drawn again), which
   gives the deck order, and replays the public history on it through the
   rules' kernel, choosing a taken-back pass uniformly from its hand and
   inserting the private waits that the world's molodka holders owe.

Every world consistent with the view is equally likely, up to the generator
(the tests compare the draws with exact counts of small positions).
``WorldSampler`` draws many worlds of one view; its ``fast`` method
builds a world's position directly (for search), from the same placements.

>>> import random, goat
>>> state = goat.new_game(seed=4)
>>> for _ in range(9):
...     state = goat.play(state, goat.legal_moves(state)[0])
>>> seen = goat.view(state, state.to_move)
>>> world = goat.sample_world(seen, random.Random(1))
>>> goat.view(world, seen.seat) == seen
True
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from typing import Any

from goat._core import (
    LEADER,
    MOLODKAS,
    PASS,
    SUIT_OF,
    TABLE,
    TO_MOVE,
    WAIT,
    deal,
    fixed_part,
    search,
    step,
)
from goat.moves import Move, MoveKind
from goat.state import GameState, state_of
from goat.view import PlayerView
from goat.view import view as view_of

__all__ = ["WorldSamplingError", "sample_world"]

#: Proposals (placements, and the seat's own maps) tried before giving up.  A view that a game produced
#: accepts one in a few tries; only a view that no game could have produced exhausts them.
ATTEMPTS = 2000

_NEVER = 1 << 30  # the deadline of a card in a hand: it has not been used yet


class WorldSamplingError(RuntimeError):
    """No consistent world was found (a view that no game could have produced)."""


# An item of a seat's map: (how many of its positions may hold the card, whether only a drawn one may,
# label).  A label is a card index, or -1 - p for an unnamed card of place p.
_Item = tuple[int, bool, int]


def _table(items: list[_Item]) -> list[list[int]]:
    """``ways[i][u]``: the maps of items ``i...`` onto the seat's positions still free, ``u`` dealt ones taken.

    ``items`` are sorted by their first number, ``a``: the item may take any of the seat's first ``a``
    positions (in the order received: the four dealt ones first), or only the drawn ones among them.  At
    item ``i``, the ``i`` items before it hold ``u`` dealt positions and ``i - u`` drawn ones, all among its
    first ``a``; so ``4 - u`` dealt and ``a - 4 - (i - u)`` drawn positions are free for it.
    """
    n = len(items)
    ways = [[1] * 5 for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        a, drawn_only, _ = items[i]
        after = ways[i + 1]
        row = ways[i]
        for u in range(5):
            drawn = a - 4 - (i - u)
            count = drawn * after[u] if drawn > 0 else 0
            if not drawn_only and u < 4:
                count += (4 - u) * after[u + 1]
            row[u] = count
    return ways


def _draw_map(items: list[_Item], ways: list[list[int]], rng: random.Random) -> list[int]:
    """A uniformly random map: for each item, the index of its position among the seat's (order received)."""
    dealt = [0, 1, 2, 3]
    drawn = list(range(4, len(items)))
    taken = []
    u = 0
    randrange = rng.randrange
    for i, (a, _, _) in enumerate(items):
        after = ways[i + 1]
        r = randrange(ways[i][u])
        free = a - 4 - (i - u)
        by_drawn = free * after[u] if free > 0 else 0
        if r < by_drawn:  # one of the first `free` drawn positions still free (all taken ones are below `a`)
            taken.append(drawn.pop(r // after[u]))
        else:
            taken.append(dealt.pop((r - by_drawn) // after[u + 1]))
            u += 1
    return taken


class _Place:
    __slots__ = ("deadline", "event", "owner", "room")

    def __init__(self, owner: int, room: int, event: int) -> None:
        self.owner = owner  # -1: the stock
        self.room = room
        self.event = event  # a face-down pass: its index in the history; -1 for a hand or the stock
        self.deadline = event if event >= 0 else _NEVER


class _Special:
    """A card whose place is unknown and whose deck position is constrained (see the module docs)."""

    __slots__ = ("allowed", "card", "deadline", "owner", "total")

    def __init__(self, card: int, owner: int, deadline: int, allowed: list[tuple[int, int]]) -> None:
        self.card = card
        self.owner = owner  # the seat it went back to; -1 for the trump card
        self.deadline = deadline  # the play a molodka took it back from; _NEVER for the trump card
        self.allowed = allowed  # (place, room)
        self.total = sum(room for _, room in allowed)


class _Seat:
    """One seat's deck positions and the cards it has held, for counting and drawing its maps."""

    __slots__ = ("bound", "counts", "fixed", "maps", "places", "positions", "seat", "specials", "times")

    def __init__(self, seat: int, positions: list[tuple[int, int]]) -> None:
        self.seat = seat
        self.positions = [position for position, _ in positions]  # deck positions, in the order received
        self.times = [time for _, time in positions]  # the history index after which each was received
        self.fixed: list[_Item] = []  # the located cards it held
        self.places: list[tuple[int, int, int]] = []  # (place, items' first number, room) of its places
        self.specials: list[int] = []  # indices of the special cards that may be in its places
        self.counts: dict[tuple[int, ...], int] = {}
        self.maps: dict[tuple[int, ...], tuple[list[_Item], list[list[int]]] | None] = {}
        self.bound = 0

    def before(self, deadline: int) -> int:
        """How many of its positions it had received before the history index ``deadline``."""
        return bisect_left(self.times, deadline)

    def items(self, sampler: WorldSampler, key: tuple[int, ...]) -> list[_Item] | None:
        """Its items when its special cards are in the places ``key`` (-1: not its); ``None`` if they do not fit."""
        items = list(self.fixed)
        taken: dict[int, int] = {}
        for s, place in zip(self.specials, key, strict=True):
            if place < 0:
                continue
            special = sampler.specials[s]
            taken[place] = taken.get(place, 0) + 1
            deadline = min(special.deadline, sampler.places[place].deadline)
            items.append((self.before(deadline), special.card == sampler.trump, special.card))
        for place, a, room in self.places:
            unnamed = room - taken.get(place, 0)
            if unnamed < 0:
                return None
            items.extend([(a, False, -1 - place)] * unnamed)
        if len(items) != len(self.positions):
            return None
        items.sort(key=lambda item: item[0])
        return items

    def count(self, sampler: WorldSampler, key: tuple[int, ...]) -> int:
        """How many maps it has when its special cards are in the places ``key``."""
        found = self.counts.get(key)
        if found is None:
            drawn = self.map_of(sampler, key)
            found = self.counts[key] = 0 if drawn is None else drawn[1][0][0]
        return found

    def map_of(self, sampler: WorldSampler, key: tuple[int, ...]) -> tuple[list[_Item], list[list[int]]] | None:
        if key not in self.maps:
            items = self.items(sampler, key)
            self.maps[key] = None if items is None else (items, _table(items))
        return self.maps[key]


def _allowed_keys(sampler: WorldSampler, seat: _Seat) -> list[tuple[int, ...]]:
    """Every placement of the seat's special cards with the trump card (if special) elsewhere."""
    keys: list[tuple[int, ...]] = [()]
    for s in seat.specials:
        special = sampler.specials[s]
        options = [-1] if special.owner < 0 else [place for place, _ in special.allowed]
        keys = [(*key, place) for key in keys for place in options]
    return keys


class WorldSampler:
    """Samples many worlds from one view, analysing the view once (what a search does per decision).

    Shared with :mod:`goat.bots.ismcts`, which draws its worlds with :meth:`fast`; not part of the API.
    """

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self._shown_by_a_world = False  # whether a world drawn has shown this very view (see _verified)
        me = view.seat
        history = view.history
        trump = self.trump = view.trump_card.index
        # --- one pass over the history: deadlines, draws, molodkas ---
        received: list[list[tuple[int, int]]] = [[] for _ in range(4)]
        for position in range(16):  # R7: one card at a time from the dealer's left
            received[(view.dealer + 1 + position) % 4].append((position, -1))
        next_draw = 16
        stock = 20
        withdrawn: set[int] = set()
        first_use: dict[int, int] = {}  # card index -> the first history index it was played (or passed, by me)
        given_back: dict[int, list[int]] = {}  # card -> [owner, index of the last molodka that gave it back]
        trick: list[int] = []
        trick_start = 0
        finished = 0
        my_waits: list[int] = []  # history indices of the starts of the tricks in which I was asked
        for index, move in enumerate(history):
            kind = move.kind
            if kind is MoveKind.WAIT:
                if not my_waits or my_waits[-1] != trick_start:
                    my_waits.append(trick_start)
                continue
            if kind is MoveKind.MOLODKA:
                for earlier in trick:
                    withdrawn.add(earlier)
                    seen = history[earlier]
                    if seen.seat != me:
                        for card in seen.cards:
                            given_back[card.index] = [seen.seat, index]
                trick = []
            trick.append(index)
            for card in move.cards:
                first_use.setdefault(card.index, index)
            if len(trick) == 4:
                rounds = min(history[trick[0]].size, stock // 4)
                winner = view.tricks[finished].winner
                for _ in range(rounds):  # R15: one card each, the winner first
                    for i in range(4):
                        received[(winner + i) % 4].append((next_draw, index))
                        next_draw += 1
                stock -= 4 * rounds
                finished += 1
                trick = []
                trick_start = index + 1
        standing = [i for i, m in enumerate(history) if m.kind is not MoveKind.WAIT and i not in withdrawn]
        self._standing = standing
        self._next_draw = next_draw
        # --- the places of unknown cards, and the seats' located cards ---
        places = [_Place(-1, view.stock_size, -1)]
        for seat in range(4):
            if seat != me:
                places.append(_Place(seat, view.hand_sizes[seat], -1))
        for i in standing:
            if history[i].hidden:
                places.append(_Place(history[i].seat, history[i].size, i))
        self.places = places
        seats = [_Seat(seat, received[seat]) for seat in range(4)]
        self._seats = seats
        located: set[int] = set()
        for i in standing:
            move = history[i]
            for card in move.cards:
                located.add(card.index)
                seats[move.seat].fixed.append(
                    (seats[move.seat].before(first_use[card.index]), card.index == trump, card.index)
                )
        for card in view.hand:
            located.add(card.index)
            deadline = first_use.get(card.index, _NEVER)
            seats[me].fixed.append((seats[me].before(deadline), card.index == trump, card.index))
        for p, place in enumerate(places):
            if place.owner >= 0:
                holder = seats[place.owner]
                holder.places.append((p, holder.before(place.deadline), place.room))
        # --- the special cards ---
        specials: list[_Special] = []
        for back, (owner, last) in given_back.items():
            if back in located:
                continue
            allowed = [
                (p, place.room) for p, place in enumerate(places) if place.owner == owner and place.deadline > last
            ]
            specials.append(_Special(back, owner, first_use[back], allowed))
            seats[owner].specials.append(len(specials) - 1)
            located.add(back)
        if trump not in located:
            allowed = [(0, places[0].room)]
            for p, place in enumerate(places):
                # R8: the trump card lay in the stock, so a seat holds it only if it drew before the deadline.
                if place.owner >= 0 and seats[place.owner].before(place.deadline) > 4:
                    allowed.append((p, place.room))
            specials.append(_Special(trump, -1, _NEVER, allowed))
            for owner in {places[p].owner for p, _ in allowed if places[p].owner >= 0}:
                seats[owner].specials.append(len(specials) - 1)
            located.add(trump)
        self.specials = specials
        self._owner = [place.owner for place in places]
        self._others = [other for other in seats if other.seat != me]
        self._unknown = [c for c in range(36) if c not in located]
        # The draws of a Fisher-Yates shuffle of the unknown cards: (position, below what, bits).
        self._rooms = [place.room for place in places]
        # A seat whose places may hold a special card keeps a placement with probability count / bound.
        self._checked: list[_Seat] = []
        for held in seats:
            if held.specials:
                held.bound = max([held.count(self, key) for key in _allowed_keys(self, held)], default=0)
                self._checked.append(held)
        # With one special card, the chance of each of its slots is known outright: the room of its place times
        # the maps each checked seat has with it there (what the proposal and the keeping above give together).
        self._direct: tuple[list[int], list[tuple[int, int]]] | None = None
        if len(specials) == 1:
            ends: list[int] = []
            where: list[tuple[int, int]] = []
            for at, room in specials[0].allowed:
                weight = 1
                for held in self._checked:
                    weight *= held.count(self, self._key(held, [at]))
                if room and weight:
                    ends.append((ends[-1] if ends else 0) + room * weight)
                    where.append((at, weight))
            if ends:
                self._direct = (ends, where)
        self._possible = all(special.total > 0 for special in specials) and len(self._unknown) + len(specials) == sum(
            place.room for place in places
        )
        # A seat with no map at all for its cards (a view changed by hand: the trump card in a dealt hand, say).
        self._possible = self._possible and all(
            (held.bound if held.specials else held.count(self, ())) for held in seats
        )
        # --- my own map: how many I have does not depend on the placement ---
        mine = seats[me]
        mine_map = mine.map_of(self, ())
        self._my_map = mine_map
        # For each trick in which I was asked about a molodka: what I held at its start is one (R14).
        self._my_tricks: list[tuple[int, int]] = []
        for start in my_waits:
            used = 0
            for i in standing:
                if i >= start:
                    break
                if history[i].seat == me:
                    for card in history[i].cards:
                        used |= 1 << card.index
            self._my_tricks.append((mine.before(start), used))
        # --- for the replay: each move's key, or how to fill it ---
        program: list[tuple[int, int, int]] = []  # (seat, kernel key or 0, place of a hidden pass or -(size))
        place_of = {place.event: p for p, place in enumerate(places) if place.event >= 0}
        for index, move in enumerate(history):
            if move.kind is MoveKind.WAIT:
                program.append((move.seat, WAIT << 2 | move.seat, 0))
            elif move.hidden:
                program.append((move.seat, 0, place_of.get(index, -move.size)))
            else:
                program.append((move.seat, Move(move.kind, move.seat, move.cards).key, 0))
        self._program = program
        self._round = self._asking(view, history, standing, place_of)
        self._fast_parts(view)

    def _asking(
        self, view: PlayerView, history: tuple[Any, ...], standing: list[int], place_of: dict[int, int]
    ) -> tuple[list[tuple[int, int, int]], int, int] | None:
        """Who may be deciding now in a world, when I neither decide nor am due to play (R14).

        A molodka holder being asked before the next play, or the seat due once they have all waited: each a
        world of its own, as the waits are private; never me unless I was asked.  So a placement has as many
        worlds as seats that may be deciding: if I waited since the last play, the holders after me and the seat
        due; if I hold a molodka and have not been asked, the holders ahead of me; else every holder and the seat
        due.  Returns ``None`` when that is one seat in every world; else, for the other seats not due in
        priority order, (cards on the table, place of the hand, place of a pass on the table or -1); which of the
        three cases (0, 1, 2); and the most deciders any placement allows.
        """
        if view.legal_moves or view.to_play is None:
            return None
        table = view.table
        if table and (table[0].kind is MoveKind.MOLODKA or table[0].size == 4):
            return None  # R14: one molodka a trick, and nobody is asked after it
        me, due = view.seat, view.to_play
        trick = standing[len(standing) - len(table) :]
        mine = 0
        for card in view.hand:
            mine |= 1 << card.index
        for i in trick:
            if history[i].seat == me:
                for card in history[i].cards:
                    mine |= 1 << card.index
        if mine.bit_count() != 4:
            return None  # hands are of one size at the start of a trick: nobody holds four cards now
        last = max((i for i, m in enumerate(history) if m.kind is not MoveKind.WAIT), default=-1)
        waited = any(m.kind is MoveKind.WAIT for m in history[last + 1 :])
        priority = [(view.leader + offset) % 4 for offset in range(4)]
        hand_place = {place.owner: p for p, place in enumerate(self.places) if place.owner >= 0 and place.event < 0}
        others = []
        for seat in priority:
            if seat in (me, due) or (waited and priority.index(seat) < priority.index(me)):
                continue
            if not waited and mine in MOLODKAS and priority.index(seat) > priority.index(me):
                continue
            up, passed = 0, -1
            for i in trick:
                if history[i].seat == seat:
                    passed = place_of.get(i, -1)
                    for card in history[i].cards:
                        up |= 1 << card.index
            others.append((up, hand_place[seat], passed))
        case = 0 if waited else 1 if mine in MOLODKAS else 2
        most = len(others) + (case != 1)
        if not most:
            self._possible = False  # I hold a molodka and was not asked, with nobody ahead of me: no game is so
        if most == 1 and case != 1:
            return None
        return others, case, most

    def _key(self, seat: _Seat, chosen: list[int]) -> tuple[int, ...]:
        """The places of the seat's special cards (-1 where a special card is not the seat's)."""
        owner = self._owner
        return tuple([chosen[s] if owner[chosen[s]] == seat.seat else -1 for s in seat.specials])

    # --- placements ---------------------------------------------------------------------------------------

    def _placement(self, rng: random.Random) -> tuple[list[list[int]], list[list[int]], list[int], int] | None:
        """A placement (steps 1-2 of the module docs), or ``None`` if the proposal was not kept.

        Returns the cards of each place (the stock in order), the never-seen ones among them, and the
        place of each special card.
        """
        randrange = rng.randrange
        chosen: list[int] = []
        slots: list[tuple[int, int]] = []
        direct = self._direct
        if direct:  # one special card: straight to its place, in proportion to the worlds there
            ends, where = direct
            r = randrange(ends[-1])
            k = bisect_right(ends, r)
            place, unit = where[k]
            slots.append((place, (r - (ends[k - 1] if k else 0)) // unit))
            chosen.append(place)
        for special in self.specials if not direct else ():
            r = randrange(special.total)
            place = -1
            for place, room in special.allowed:  # noqa: B007 - the place the loop stops at
                if r < room:
                    break
                r -= room
            if (place, r) in slots:
                return None  # two special cards in one slot
            slots.append((place, r))
            chosen.append(place)
        for seat in self._checked if not direct else ():
            count = seat.count(self, self._key(seat, chosen))
            if count < seat.bound and randrange(seat.bound) >= count:
                return None
        # The never-seen cards in a uniformly random order (Fisher-Yates with exact draws).
        cards = search.shuffle(list(self._unknown), rng.getrandbits)
        rooms = self._rooms
        if chosen:  # leave room for the special cards
            rooms = list(rooms)
            for place in chosen:
                rooms[place] -= 1
        generic: list[list[int]] = []
        start = 0
        for room in rooms:
            generic.append(cards[start : start + room])
            start += room
        contents = generic
        if slots:
            # The rooms above were left for the special cards: put them in, each at its slot.
            contents = [list(held) for held in generic]
            for s, (place, slot) in sorted(enumerate(slots), key=lambda item: item[1]):
                contents[place].insert(slot, self.specials[s].card)
        waited = -1
        if self._round is not None:
            others, case, most = self._round
            holders = 0
            for up, hand, passed in others:
                start = up
                for card in contents[hand]:
                    start |= 1 << card
                if passed >= 0:
                    for card in contents[passed]:
                        start |= 1 << card
                holders += start in MOLODKAS
            r = randrange(most)
            if r >= holders + (case != 1):
                return None  # fewer seats may be deciding in this placement than in the likeliest
            waited = r  # how many of the seats that may be deciding come before the one that is
        return contents, generic, chosen, waited

    # --- sample ---------------------------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> GameState:
        """A world drawn uniformly from those consistent with the view (see the module docs)."""
        if not isinstance(rng, random.Random):
            raise TypeError(
                f"rng must be a random.Random, such as random.Random(7), not {type(rng).__name__} "
                "(a numpy Generator draws differently: seed a random.Random from it)"
            )
        me = self.view.seat
        mine = self._seats[me]
        tries = 0
        while self._possible and tries < ATTEMPTS:
            tries += 1
            drawn = self._placement(rng)
            if drawn is None:
                continue
            contents, generic, chosen, extra = drawn
            deck = [-1] * 36
            start = self._next_draw
            for offset, card in enumerate(contents[0]):
                deck[start + offset] = card
            for seat in self._others:
                found = seat.map_of(self, self._key(seat, chosen))
                if found is None:  # pragma: no cover - a kept placement has maps
                    break
                self._fill(deck, seat, found, generic, rng)
            else:
                # My own map, drawn again alone while this world would have me asked about molodkas otherwise
                # than I was (how many maps fit does not depend on the placement: the worlds stay uniform).
                while self._my_map is not None and tries < ATTEMPTS:
                    if self._fill(deck, mine, self._my_map, generic, rng):
                        world = self._replay(deck, contents, extra, rng)
                        if world is not None:
                            return self._verified(world)
                    tries += 1
        raise WorldSamplingError(f"no world consistent with the view of seat {me} was found in {ATTEMPTS} attempts")

    def _verified(self, world: GameState) -> GameState:
        """``world``, whose view is the sampler's view; else :class:`WorldSamplingError`.

        A view that a game made always passes: its worlds are drawn to show it.  One changed by hand may pass
        :class:`~goat.PlayerView`'s checks and still be one no game shows (a trick won by a seat that did not
        win it, legal moves that are not the rules'); its worlds would show another view.
        """
        seen = self.view
        if self._shown_by_a_world:
            return world
        # The first world alone is compared: every world drawn replays the view's history on the seat's hand, and
        # what a view holds is a function of what its seat knows (R23), so all its worlds show one view.
        if view_of(world, seen.seat) != seen:
            raise WorldSamplingError(f"no game shows this view of seat {seen.seat}: its worlds show another view")
        self._shown_by_a_world = True
        return world

    def _fill(
        self,
        deck: list[int],
        seat: _Seat,
        found: tuple[list[_Item], list[list[int]]],
        generic: list[list[int]],
        rng: random.Random,
    ) -> bool:
        """Puts a uniformly random map of the seat's cards into ``deck``; for my own seat, whether what I held
        at the start of each trick in which I was asked about a molodka was one (R14)."""
        items, ways = found
        taken = _draw_map(items, ways, rng)
        unnamed = [0] * len(generic)
        positions = seat.positions
        held = [0] * len(positions)
        for (_, _, label), index in zip(items, taken, strict=True):
            if label < 0:
                place = -1 - label
                card = generic[place][unnamed[place]]
                unnamed[place] += 1
            else:
                card = label
            deck[positions[index]] = card
            held[index] = card
        for before, used in self._my_tricks if seat is self._seats[self.view.seat] else ():
            hand = 0
            for card in held[:before]:
                hand |= 1 << card
            if hand & ~used not in MOLODKAS:
                return False
        return True

    def _replay(self, deck: list[int], contents: list[list[int]], extra: int, rng: random.Random) -> GameState | None:
        """The world: the history replayed on ``deck`` through the kernel, with the waits it needs, and then
        ``extra`` more (when I do not decide: the holders being asked now who have waited, see :meth:`_asking`).

        ``None`` if this deck would have me asked about a molodka otherwise than I was.
        """
        view = self.view
        me = view.seat
        core: Any = deal(tuple(deck), self.trump, view.dealer, view.defeat)
        for seat, key, fill in self._program:
            if not key:
                mask = 0
                if fill >= 0:
                    for card in contents[fill]:
                        mask |= 1 << card
                else:  # a pass that a molodka took back: any cards of that hand then, uniformly
                    hand = core[0][seat]
                    for card in rng.sample([card for card in range(36) if hand >> card & 1], -fill):
                        mask |= 1 << card
                key = mask << 5 | PASS << 2 | seat
            core = _waits(core, seat, me)
            if core is None:
                return None
            core = step(core, key)
            if core is None:
                return None
        if view.legal_moves:
            core = _waits(core, me, me)
            if core is None:
                return None
        for _ in range(max(extra, 0)):
            core = step(core, WAIT << 2 | core[TO_MOVE])
        return state_of(core)

    # --- fast -----------------------------------------------------------------------------------------------

    def _fast_parts(self, view: PlayerView) -> None:
        history = view.history
        pass_place = {place.event: p for p, place in enumerate(self.places) if place.event >= 0}
        # Each play that stands as (key, place): the kernel's key of a face-up play (or of my own pass) and -1;
        # for another seat's pass, its key without the cards and the place that holds them.
        codes = [
            (PASS << 2 | history[i].seat, pass_place[i])
            if history[i].hidden
            else (Move(history[i].kind, history[i].seat, history[i].cards).key, -1)
            for i in self._standing
        ]
        # The plays before the first pass of another seat are the same in every world: so is that much of the log
        # (a linked list of keys, newest first), and so are the tricks that end before it.
        first = next((n for n, (_, place) in enumerate(codes) if place >= 0), len(codes))
        log: Any = None
        for key, _ in codes[:first]:
            log = (key, log)
        self._log_base = log
        self._prefix = [key for key, _ in codes[:first]]
        self._rest = codes[first:]
        self._trick_plan: list[tuple[tuple[tuple[int, ...], int] | None, int]] = []
        for n, trick in enumerate(view.tricks):
            fixed = (tuple(self._prefix[4 * n : 4 * n + 4]), trick.winner) if 4 * n + 4 <= first else None
            self._trick_plan.append((fixed, trick.winner))
        self._done = 4 * len(view.tricks)
        self._hand_place = [
            (place.owner, p) for p, place in enumerate(self.places) if place.owner >= 0 and place.event < 0
        ]
        my_hand = 0
        for card in view.hand:
            my_hand |= 1 << card.index
        self._my_hand = my_hand
        self._fixed_part = fixed_part(SUIT_OF[self.trump], self.trump, view.dealer, tuple(range(36)), view.defeat)
        # What the kernel's world_of needs besides the placement: the shape of every world of this view.
        self._shape = search.Shape(
            view.seat,
            my_hand,
            self._hand_place,
            self._rest,
            self._prefix,
            self._trick_plan,
            self._done,
            view.leader,
            view.to_play is not None,
            bool(view.legal_moves),
            self._fixed_part,
        )
        # Where no placement is ever refused (at most one card of unknown place, no molodka holder's decision
        # drawn), the search builds its worlds whole (search_world), drawing exactly what position does.
        self._plan: search.Plan | None = None
        if self._possible and self._round is None and (self._direct is not None or not self.specials):
            self._plan = search.Plan(
                self._unknown,  # search_world shuffles a copy
                self._rooms,
                self._direct,
                self.specials[0].card if self._direct is not None else -1,
                self._shape,
            )

    def fast(self, rng: random.Random) -> GameState:
        """A world for search, built directly rather than replayed.

        Its placement of cards is drawn exactly as :meth:`sample` draws it; but no deck order is
        drawn, the history holds no waits, and :attr:`GameState.deck` is meaningless.  Play from it
        follows the rules.
        """
        return state_of(self.position(rng))

    def position(self, rng: random.Random, *, history: bool = True) -> Any:
        """:meth:`fast`'s world as the kernel's position; with ``history=False`` without its log (a search
        that never reads the history it plays saves building it)."""
        if self._plan is not None and not history:
            return search.search_world(self._plan, rng.randrange, rng.getrandbits)
        view = self.view
        for _ in range(ATTEMPTS if self._possible else 0):
            drawn = self._placement(rng)
            if drawn is not None:
                contents, extra = drawn[0], drawn[3]
                break
        else:
            raise WorldSamplingError(f"no placement of cards fits the view of seat {view.seat}")
        # Of a view whose seat does not decide, the drawn decider is counted after the seat itself when the
        # molodka round has reached it (see _asking).
        after_me = bool(self._round and not self._round[1])
        return search.world_of(self._shape, contents, self._log_base, bool(history), extra, after_me)


def _waits(core: Any, seat: int, me: int) -> Any:
    """Let other molodka holders being asked wait until ``seat`` decides (their waits are private, R14);
    ``None`` if this world would have me asked about a molodka I was not asked about."""
    while True:
        to_move = core[TO_MOVE]
        if to_move == seat or to_move < 0 or to_move == (core[LEADER] + len(core[TABLE])) & 3:
            return core
        if to_move == me:
            return None
        core = step(core, WAIT << 2 | to_move)


# sample_world's sampler for the last few views it was given, by identity (a view is analysed once).
_RECENT: list[tuple[PlayerView, WorldSampler]] = []
_RECENT_SIZE = 4


def sample_world(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state drawn uniformly from those consistent with ``view`` (R23); see the module docs.

    ``view(result, view.seat) == view`` always holds.  Raises
    :class:`WorldSamplingError` if no consistent world is found: a view that no game shows, changed by hand
    in a way :class:`~goat.PlayerView` itself cannot refuse (a trick won by the wrong seat).  Calls with the
    same view object analyse it once.
    """
    for seen, sampler in _RECENT:
        if seen is view:
            return sampler.sample(rng)
    if not isinstance(view, PlayerView):
        raise TypeError(f"sample_world() takes a PlayerView, not {type(view).__name__}")
    sampler = WorldSampler(view)
    _RECENT.insert(0, (view, sampler))
    del _RECENT[_RECENT_SIZE:]
    return sampler.sample(rng)
