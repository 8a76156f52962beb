"""Sampling a full game state consistent with what one seat has seen (R23): determinization.

:func:`sample_world` is the heart of information-set search: a bot draws
possible worlds, plays them out, and learns which of its moves does well
across them.  A world is drawn as follows.

1. The **places** that hold cards the seat has not located: the stock, every
   other seat's hand, and every face-down pass of another seat still in a
   trick or on the table.  Their sizes are public.
2. Cards whose identity is known but whose place is not are put first, each
   in a place allowed to it, with probability in proportion to the place's
   free room: a card that went back to its owner when a molodka was declared
   (R14) is in that owner's hand or in a face-down pass they made later; the
   trump card, unless seen, is in the stock or with a seat that has drawn
   since the deal, in its hand or in a pass made after its first draw (R8).
3. The never-seen cards fill the rest of the room in random order.
4. A deck order that deals and draws that world is built, and the public
   history is replayed through :func:`goat.play` (with the private waits of
   other molodka holders inserted where the world needs them), so every
   sampled state is reachable by the rules.  The rare placement that no deck
   can produce is drawn again.

Steps 2–3 give every assignment of cards to places that respects the
constraints the same probability: uniform over the information set's card
placements, conditioned only on the rules, not on how the others chose to
play.

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
from typing import Any

import attrs

from goat._core import MOLODKA, PASS, SUIT_OF, core_of, decider, fixed_part, holders_of, top_of
from goat.cards import DECK, Card, mask_of
from goat.moves import Move, MoveKind
from goat.rules import new_game, play, top_play
from goat.state import GameState, state_of
from goat.view import PlayerView, SeenMove

__all__ = ["WorldSamplingError", "sample_world"]

#: Placements tried before giving up; in practice the first nearly always works.
ATTEMPTS = 200


class WorldSamplingError(RuntimeError):
    """No consistent world was found (a view that no game could have produced)."""


@attrs.frozen
class _Place:
    owner: int | None  # None: the stock
    room: int
    event: int = -1  # for a face-down pass: its index in the history; -1 for a hand or the stock


@attrs.frozen
class _Plan:
    """What a view says about where cards are, worked out once per view."""

    view: PlayerView
    history: tuple[SeenMove, ...]
    withdrawn: frozenset[int]  # history indices of plays taken back by a molodka
    draws: tuple[tuple[int, tuple[int, ...]], ...]  # (history index of the trick's last play, seats in draw order)
    places: tuple[_Place, ...]
    constrained: tuple[tuple[Card, tuple[int, ...]], ...]  # a card and the indices of the places it may be in
    unknown: tuple[Card, ...]


def _analyse(view: PlayerView) -> _Plan:
    me = view.seat
    history = view.history
    withdrawn: set[int] = set()
    draws: list[tuple[int, tuple[int, ...]]] = []
    trick: list[int] = []  # history indices of the current trick's plays
    stock = 20
    hand_size = 4
    first_draw: dict[int, int] = {}
    returned: dict[Card, tuple[int, int]] = {}  # card -> (owner, index of the molodka that returned it)
    located: set[Card] = set(view.hand)
    for index, move in enumerate(history):
        if move.kind is MoveKind.WAIT:
            continue
        if move.kind is MoveKind.MOLODKA:
            for earlier in trick:
                withdrawn.add(earlier)
                for card in history[earlier].cards:
                    if history[earlier].seat != me:
                        returned[card] = (history[earlier].seat, index)
            trick = []
        if move.kind is MoveKind.LEAD:
            trick = []
        trick.append(index)
        for card in move.cards:
            returned.pop(card, None)  # seen again face up: located
        if len(trick) == 4:
            size = history[trick[0]].size
            rounds = min(size, stock // 4) if hand_size - size < 4 else 0
            winner = top_play([history[i] for i in trick]).seat
            order = tuple((winner + i) % 4 for i in range(4)) * rounds
            if order:
                draws.append((index, order))
                for seat in range(4):
                    first_draw.setdefault(seat, index)
            stock -= 4 * rounds
            trick = []
    standing = [i for i in range(len(history)) if i not in withdrawn]
    for i in standing:
        move = history[i]
        if move.kind is not MoveKind.WAIT and not move.hidden:
            located |= move.cards
    places = [_Place(None, view.stock_size)]
    for seat in range(4):
        if seat != me:
            places.append(_Place(seat, view.hand_sizes[seat]))
    for i in standing:
        move = history[i]
        if move.hidden:
            places.append(_Place(move.seat, move.size, i))
    constrained = []
    for card, (owner, since) in returned.items():
        if card in located:
            continue
        allowed = tuple(
            p for p, place in enumerate(places) if place.owner == owner and (place.event < 0 or place.event > since)
        )
        constrained.append((card, allowed))
        located.add(card)
    trump = view.trump_card
    if trump not in located:
        allowed = tuple(
            p
            for p, place in enumerate(places)
            if place.owner is None
            or (place.owner in first_draw and (place.event < 0 or place.event > first_draw[place.owner]))
        )
        constrained.append((trump, allowed))
        located.add(trump)
    unknown = tuple(card for card in DECK if card not in located)
    return _Plan(view, history, frozenset(withdrawn), tuple(draws), tuple(places), tuple(constrained), unknown)


def _place_cards(plan: _Plan, rng: random.Random) -> list[list[Card]] | None:
    """The cards of each place (indexed like ``plan.places``), or ``None`` if the constraints leave no room."""
    places = plan.places
    contents: list[list[Card]] = [[] for _ in places]
    for card, allowed in plan.constrained:
        rooms = [places[p].room - len(contents[p]) for p in allowed]
        if sum(rooms) <= 0:
            return None
        contents[rng.choices(allowed, weights=rooms)[0]].append(card)
    # A uniform shuffle by sorting on independent uniform keys: the same distribution as
    # random.shuffle, and several times faster for the thirty-odd cards of a search's every world.
    draw = rng.random
    rest = sorted(plan.unknown, key=lambda _: draw())
    mix_stock = bool(contents[0])  # the trump card went into the stock first: its place there must be random
    position = 0
    for place, held in zip(places, contents, strict=True):
        need = place.room - len(held)
        if need < 0:
            return None
        held.extend(rest[position : position + need])
        position += need
    if position != len(rest):
        return None
    if mix_stock:
        contents[0].sort(key=lambda _: draw())
    return contents


def _hand_of(plan: _Plan, contents: list[list[Card]], seat: int) -> list[Card]:
    return next(contents[p] for p, place in enumerate(plan.places) if place.owner == seat and place.event < 0)


def _passes(plan: _Plan, contents: list[list[Card]]) -> dict[int, list[Card]]:
    return {place.event: contents[p] for p, place in enumerate(plan.places) if place.event >= 0}


def _deck(plan: _Plan, contents: list[list[Card]], rng: random.Random) -> list[Card] | None:
    """A deck order that deals and draws the world, or ``None`` if this placement has none."""
    view = plan.view
    trump = view.trump_card
    deck: list[Card | None] = [None] * 36
    held: dict[int, list[int]] = {seat: [] for seat in range(4)}  # deck positions each seat holds now
    for position in range(16):
        held[(view.dealer + 1 + position) % 4].append(position)
    bound: dict[Card, int] = {}
    passes = _passes(plan, contents)
    draws = dict(plan.draws)
    next_draw = 16

    def bind(seat: int, card: Card) -> bool:
        if card in bound:
            return bound[card] in held[seat]
        free = [p for p in held[seat] if deck[p] is None and (card != trump or p >= 16)]
        if not free:
            return False
        # Which dealt or drawn position a card came from is private: any free one will do, and a
        # random one lets a rejected attempt try another (the seat's own molodka asks constrain it).
        position = rng.choice(free)
        deck[position] = card
        bound[card] = position
        return True

    for index, move in enumerate(plan.history):
        if move.kind is not MoveKind.WAIT and index not in plan.withdrawn:
            played = passes[index] if move.hidden else sorted(move.cards)
            for card in played:
                if not bind(move.seat, card):
                    return None
                held[move.seat].remove(bound[card])
        elif move.kind is not MoveKind.WAIT and not move.hidden:
            for card in move.cards:  # a withdrawn face-up play: the card was in that hand then
                if not bind(move.seat, card):
                    return None
        for seat in draws.get(index, ()):
            held[seat].append(next_draw)
            next_draw += 1
    for seat in range(4):
        hand = view.hand if seat == view.seat else _hand_of(plan, contents, seat)
        for card in sorted(hand):
            if not bind(seat, card):
                return None
    stock = contents[0]
    free = list(range(next_draw, 36))
    if len(free) != len(stock):
        return None
    for position, card in zip(free, stock, strict=True):
        deck[position] = card
    if any(card is None for card in deck) or len(set(deck)) != 36:  # pragma: no cover - a bug, not bad luck
        return None
    return deck  # type: ignore[return-value]


def _replay(plan: _Plan, contents: list[list[Card]], deck: list[Card], rng: random.Random) -> GameState:
    view = plan.view
    state = new_game(deck=deck, trump_card=view.trump_card, dealer=view.dealer, defeat=view.defeat)
    passes = _passes(plan, contents)
    for index, seen in enumerate(plan.history):
        state = _wait_until(state, seen.seat, view.seat)
        if seen.kind is MoveKind.WAIT:
            move = Move(MoveKind.WAIT, seen.seat, ())
        elif seen.hidden:
            cards = passes.get(index)
            if cards is None:  # a pass taken back by a molodka: any cards of that hand will do
                cards = rng.sample(sorted(state.hands[seen.seat]), seen.size)
            move = Move(MoveKind.PASS, seen.seat, cards)
        else:
            move = Move(seen.kind, seen.seat, seen.cards)
        state = play(state, move)
    if view.legal_moves:
        state = _wait_until(state, view.seat, view.seat)
    return state


def _wait_until(state: GameState, seat: int, observer: int) -> GameState:
    """Let other molodka holders being asked wait until ``seat`` is to move (their waits are private).

    The observer's own waits are in its history: a world that would ask it again is not its world.
    """
    while state.to_move is not None and state.to_move != seat and state.to_move != state.to_play:
        if state.to_move == observer:
            raise ValueError("this world would ask the observer about a molodka it was never asked about")
        state = play(state, Move(MoveKind.WAIT, state.to_move, ()))
    return state


def sample_world(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state drawn uniformly from those consistent with ``view`` (R23); see the module docs.

    ``view(result, view.seat) == view`` always holds.  Raises
    :class:`WorldSamplingError` if no consistent world is found.
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"sample_world() takes a PlayerView, not {type(view).__name__}")
    return WorldSampler(view).sample(rng)


class WorldSampler:
    """Samples many worlds from one view, analysing the view once (what a search does per decision).

    Shared with :mod:`goat.bots.ismcts`, which draws its worlds with :meth:`fast`; not part of the API.
    """

    def __init__(self, view: PlayerView) -> None:
        self.plan = plan = _analyse(view)
        self._my_hand = mask_of(view.hand)
        # For fast(): the plays that stand (not withdrawn, not waits), grouped into tricks and the table.
        standing = [i for i, m in enumerate(plan.history) if m.kind is not MoveKind.WAIT and i not in plan.withdrawn]
        self._standing = standing
        # The kernel's keys of the face-up plays (and of this seat's own passes).
        self._fixed = {
            i: Move(plan.history[i].kind, plan.history[i].seat, plan.history[i].cards)._key
            for i in standing
            if not plan.history[i].hidden
        }
        done = 4 * len(view.tricks)
        self._tricks = [standing[t : t + 4] for t in range(0, done, 4)]
        self._table = standing[done:]
        # Tricks without another seat's face-down pass are the same in every world: build them once.
        self._fixed_tricks = {
            n: (tuple(self._fixed[i] for i in trick), view.tricks[n].winner)
            for n, trick in enumerate(self._tricks)
            if all(i in self._fixed for i in trick)
        }
        trump = view.trump_card.index
        self._fixed_part = fixed_part(SUIT_OF[trump], trump, view.dealer, tuple(range(36)), view.defeat)

    def sample(self, rng: random.Random) -> GameState:
        last: Exception | None = None
        for _ in range(ATTEMPTS):
            contents = _place_cards(self.plan, rng)
            if contents is None:
                continue
            deck = _deck(self.plan, contents, rng)
            if deck is None:
                continue
            try:
                return _replay(self.plan, contents, deck, rng)
            except ValueError as error:  # a placement the history cannot follow: draw again
                last = error
        raise WorldSamplingError(
            f"no world consistent with the view of seat {self.plan.view.seat} "
            f"was found in {ATTEMPTS} attempts" + (f" (last: {last})" if last else "")
        )

    def fast(self, rng: random.Random) -> GameState:
        """A world for search, built directly rather than replayed: about five times faster.

        The same placement of cards as :meth:`sample`; but no deck order is sought, so the
        rare placement that no deal could produce is not redrawn, the history holds no
        waits, and :attr:`GameState.deck` is meaningless.  Play from it follows the rules.
        """
        plan = self.plan
        view = plan.view
        for _ in range(ATTEMPTS):
            contents = _place_cards(plan, rng)
            if contents is not None:
                break
        else:
            raise WorldSamplingError(f"no placement of cards fits the view of seat {view.seat}")
        hidden: dict[int, int] = {}
        hands = [0, 0, 0, 0]
        hands[view.seat] = self._my_hand
        for place, held in zip(plan.places, contents, strict=True):
            mask = 0
            for card in held:
                mask |= 1 << card.index
            if place.event >= 0:
                hidden[place.event] = mask
            elif place.owner is not None:
                hands[place.owner] = mask
        history = plan.history

        def filled(i: int) -> int:  # the kernel's key of play i
            fixed = self._fixed.get(i)
            return fixed if fixed is not None else hidden[i] << 5 | PASS << 2 | history[i].seat

        tricks = tuple(
            self._fixed_tricks.get(n) or (tuple(filled(i) for i in trick), view.tricks[n].winner)
            for n, trick in enumerate(self._tricks)
        )
        table = tuple(filled(i) for i in self._table)
        log: Any = None  # the kernel's log: a linked list of keys, newest first
        for keys, _ in tricks:
            for key in keys:
                log = (key, log)
        for key in table:
            log = (key, log)
        leader = view.leader
        waited = 0
        if view.to_play is None:
            holders: tuple[int, ...] = ()
            to_move = -1
        else:
            if table and ((table[0] >> 5).bit_count() == 4 or table[0] >> 2 & 7 == MOLODKA):
                holders = ()
            else:
                start = list(hands)
                for key in table:
                    start[key & 3] |= key >> 5
                holders = holders_of((start[0], start[1], start[2], start[3]), leader)
            due = (leader + len(table)) % 4
            asked = [seat for seat in holders if seat != due]
            # Holders ahead of this seat have waited (privately); if it decides now, it is its turn.
            waited = asked.index(view.seat) if view.seat in asked and view.legal_moves else len(asked)
            to_move = decider(leader, len(table), holders, waited)
        return state_of(
            core_of(
                hands=(hands[0], hands[1], hands[2], hands[3]),
                to_move=to_move,
                leader=leader,
                table=table,
                top=top_of(table),
                holders=holders,
                waited=waited,
                stock=tuple(card.index for card in contents[0]),
                tricks=tricks,
                log=log,
                fixed=self._fixed_part,
            )
        )
