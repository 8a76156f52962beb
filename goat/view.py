"""What one player may see (R23).

:func:`view` is the only door through which a bot sees a game.  A
:class:`PlayerView` holds the seat's own hand, the trump card, sizes of the
stock and hands, the public history (face-up cards with who played them, the
size but not the cards of other seats' passes, trick winners), the seat's own
passes, tricks per team, the match's defeat-scores, and the seat's legal moves.
It never holds another hand, the stock order, another seat's passed cards, or
any sign that another seat was asked about a molodka and waited.

>>> import goat
>>> state = goat.new_game(seed=3)
>>> seen = goat.view(state, 2)
>>> len(seen.hand), seen.stock_size, seen.hand_sizes
(4, 20, (4, 4, 4, 4))
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

import attrs

from goat._core import (
    LEADER,
    TABLE,
    TO_MOVE,
    Seer,
    plays,
)
from goat.cards import DECK, Card, Suit, describe, frozen_by_mask
from goat.errors import InvalidDealError, InvalidMoveError, InvalidViewError, shown
from goat.moves import Move, MoveKind, move_by_key
from goat.rules import legal_moves
from goat.seats import check_seat
from goat.state import GameState, check_defeat, check_trick

__all__ = ["PlayerView", "SeenMove", "SeenTrick", "view"]


@attrs.frozen
class SeenMove:
    """A move as one seat saw it: another seat's pass shows its size, not its cards."""

    kind: MoveKind
    seat: int
    size: int  #: number of cards played
    cards: frozenset[Card]  #: the cards, or empty when they were passed face down by another seat

    def __attrs_post_init__(self) -> None:  # made by hand, or read from a bot's message (the engine sets slots)
        if type(self.kind) is not MoveKind:
            raise TypeError(f"a seen move's kind is a MoveKind, such as MoveKind.LEAD, not {shown(self.kind)}")
        check_seat(self.seat, "a seen move's seat", InvalidMoveError)
        cards = self.cards
        if type(cards) is not frozenset or not all(type(card) is Card for card in cards):
            raise TypeError(f"a seen move's cards are a frozenset of Card objects, not {shown(cards)}")
        size = self.size
        if type(size) is not int or not 0 <= size <= 4 or (size == 0) != (self.kind is MoveKind.WAIT):
            raise InvalidMoveError(f"a seen move of kind {self.kind} holds 1-4 cards (a wait none), not {shown(size)}")
        if len(cards) != size and (cards or self.kind is not MoveKind.PASS):
            raise InvalidMoveError(f"a seen move shows all its {size} cards, or none of a pass, not {len(cards)}")

    @property
    def hidden(self) -> bool:
        """Whether the cards were passed face down by another seat and stay unknown."""
        return len(self.cards) < self.size

    def __str__(self) -> str:
        if self.hidden:
            return f"{self.seat} pass {' '.join('??' for _ in range(self.size))}"
        return str(Move(self.kind, self.seat, self.cards))

    @classmethod
    def from_str(cls, text: str) -> SeenMove:
        """Parse a seen move's notation: a move's (:meth:`Move.from_str`), or ``??`` for each card of a
        face-down pass.  ``SeenMove.from_str(str(seen)) == seen``.

        >>> SeenMove.from_str("2 pass ?? ??")
        SeenMove(kind=MoveKind.PASS, seat=2, size=2, cards=frozenset())
        >>> str(SeenMove.from_str("1 beat 10h qh"))  # cards in rank order (R3): the queen is below the ten
        '1 beat QH 10H'

        Raises :class:`~goat.InvalidMoveError` (a :class:`ValueError`) quoting the text.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"not a seen move: {shown(text)} (expected text such as '1 lead 10H' or '2 pass ??')"
            )
        words = text.split()
        if "??" in words:
            # A face-down pass shows how many cards, never which: every card is "??" (R11, R23).
            if len(words) < 3 or len(words) > 6 or words[0] not in ("0", "1", "2", "3") or words[1].lower() != "pass":
                raise InvalidMoveError(f"not a seen move: {shown(text)} (only a pass of 1-4 cards is written '?? ...')")
            if any(word != "??" for word in words[2:]):
                raise InvalidMoveError(f"not a seen move: {shown(text)} (a face-down pass shows no card, only '??')")
            return cls(MoveKind.PASS, int(words[0]), len(words) - 2, frozenset())
        move = Move.from_str(text)
        if len(move.cards) > 4:
            raise InvalidMoveError(f"not a seen move: {shown(text)} (a play holds at most four cards: R7, R15)")
        return cls(move.kind, move.seat, len(move.cards), move.cards)


@attrs.frozen
class SeenTrick:
    """A finished trick as one seat saw it."""

    plays: tuple[SeenMove, ...]
    winner: int

    def __attrs_post_init__(self) -> None:
        check_trick(self.plays, SeenMove, self.winner, "a seen trick")


@attrs.frozen
class PlayerView:
    """Everything seat :attr:`seat` may know about the game (R23), and nothing more."""

    seat: int
    hand: frozenset[Card]
    trump_card: Card
    dealer: int
    leader: int  #: leads the current trick (after a molodka, its owner)
    to_play: int | None  #: the seat due to make the next play; ``None`` once the game is over
    stock_size: int
    hand_sizes: tuple[int, int, int, int]
    table: tuple[SeenMove, ...]  #: plays of the current trick since its lead
    tricks: tuple[SeenTrick, ...]  #: finished tricks of this game
    history: tuple[SeenMove, ...]  #: every move of the game this seat saw, withdrawn plays included
    defeat: tuple[int, int]  #: the match's defeat-scores by team before this game
    #: This seat's moves: when it must decide, or when it is due to play (R14:
    #: whether holders are being asked first is not for this seat to know).
    legal_moves: tuple[Move, ...]

    def __attrs_post_init__(self) -> None:
        # Only a view made by hand runs this (PlayerView(...), attrs.evolve, a protocol bot reading one): the
        # engine makes its views past __init__.  A field of the wrong kind would fail deep inside what read it next.
        _check_view(self)

    @property
    def trump(self) -> Suit:
        """The trump suit (R8)."""
        return self.trump_card.suit

    @property
    def team(self) -> int:
        """This seat's team: seat % 2 (R1)."""
        return self.seat % 2

    @property
    def partner(self) -> int:
        """The seat opposite (R1)."""
        return (self.seat + 2) % 4

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks won by each team so far."""
        won = [0, 0]
        for trick in self.tricks:
            won[trick.winner % 2] += 1
        return (won[0], won[1])

    @property
    def passed(self) -> frozenset[Card]:
        """The cards this seat has passed face down this game (still in tricks or on the table).

        Read from the tricks and the table, not the history: a pass that a molodka gave back (R14) is in
        the history but no longer passed; its cards are in the hand again.
        """
        me, pass_ = self.seat, MoveKind.PASS
        standing = [*(play for trick in self.tricks for play in trick.plays), *self.table]
        return frozenset().union(*[m.cards for m in standing if m.seat == me and m.kind is pass_])

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R17)."""
        return self.to_play is None

    def __str__(self) -> str:
        """What the seat sees, at a glance (as ``str`` of a :class:`~goat.GameState`; ``repr`` is the view in
        full, as Python that makes it again).

        >>> import goat
        >>> print(goat.view(goat.play(goat.new_game(seed=3), "1 lead 7C"), 2))
        seat 2 sees: trick 1, seat 2 to play; trump card 9S; dealer 0, leader 1; hand 7D 8D AH 8S;
        hand sizes 4 3 4 4; stock 20; table 1 lead 7C; tricks won 0 : 0; defeat 0 : 0;
        legal moves 2 beat 8S, 2 pass 7D, 2 pass 8D, 2 pass AH, 2 pass 8S
        >>> goat.view(goat.new_game(seed=3), 0) == eval(repr(goat.view(goat.new_game(seed=3), 0)), vars(goat))
        True
        """
        where = "game over" if self.to_play is None else f"trick {len(self.tricks) + 1}, seat {self.to_play} to play"
        hand = describe(sum(1 << card.index for card in self.hand)) or "-"
        won, defeat = self.tricks_won, self.defeat
        return (
            f"seat {self.seat} sees: {where}; trump card {self.trump_card}; "
            f"dealer {self.dealer}, leader {self.leader}; hand {hand}; "
            f"hand sizes {' '.join(map(str, self.hand_sizes))}; stock {self.stock_size}; "
            f"table {', '.join(map(str, self.table)) or '-'}; tricks won {won[0]} : {won[1]}; "
            f"defeat {defeat[0]} : {defeat[1]}; legal moves {', '.join(map(str, self.legal_moves)) or '-'}"
        )

    def _repr_svg_(self) -> str:
        """What this seat sees, as a picture (other hands as backs): how Jupyter and IPython-based tools
        show a view (see :func:`goat.svg.view`)."""
        from goat import svg  # imported when drawn: goat.svg builds on this module

        return svg.view(self)


# Seen moves and tricks are shared between views: they are values, and building them afresh costs.  The
# kernel's Seer makes the views and the seen values, keeps them, and chooses each by what its viewer may
# know (see there).

#: Stands for a move a viewer does not see at all; never in a view.
_DROPPED: Final = object.__new__(SeenMove)  # a marker no real play is: seat -1, made without the checks
for _name, _value in (("kind", MoveKind.WAIT), ("seat", -1), ("size", 0), ("cards", frozenset())):
    object.__setattr__(_DROPPED, _name, _value)
_LIMIT = 200_000  # entries per table of seen moves: bounded memory for long simulations
_PARTS_LIMIT = 4096  # seen tricks, and the seats' histories and runs of tricks: a few dozen games at a time
_new = object.__new__


def _setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The slots' own setters of ``cls``'s fields, in the order the kernel's Seer sets them by position: a
    field added, removed or moved is an error here, at import, not a view with its values in the wrong
    fields."""
    fields = tuple(field.name for field in attrs.fields(cls))
    if fields != names:  # a change to a class without a change to the Seer
        raise RuntimeError(f"the Seer sets {cls.__name__}'s fields as {names}, but they are {fields}")
    return tuple(cls.__dict__[name].__set__ for name in names)


def _check_view(seen: PlayerView) -> None:
    """Refuse a view with fields of the wrong kind, or sizes that disagree (:class:`~goat.InvalidViewError`)."""
    seat = check_seat(seen.seat, "a view's seat", InvalidViewError)
    for what in ("dealer", "leader"):
        check_seat(getattr(seen, what), f"a view's {what}", InvalidViewError)
    if seen.to_play is not None:
        check_seat(seen.to_play, "a view's to_play (or None)", InvalidViewError)
    hand, sizes, defeat = seen.hand, seen.hand_sizes, seen.defeat
    if type(hand) is not frozenset or not all(type(card) is Card for card in hand):
        raise InvalidViewError(f"a view's hand is a frozenset of Card objects, not {shown(hand)}")
    if type(seen.trump_card) is not Card:
        raise InvalidViewError(f"a view's trump_card is a Card, not {shown(seen.trump_card)}")
    if type(sizes) is not tuple or len(sizes) != 4 or not all(type(s) is int and 0 <= s <= 4 for s in sizes):
        raise InvalidViewError(f"a view's hand_sizes are four ints 0-4 (R7), not {shown(sizes)}")
    if sizes[seat] != len(hand):
        raise InvalidViewError(f"a view's hand holds {len(hand)} cards, but its hand_sizes say {sizes[seat]}")
    if type(seen.stock_size) is not int or not 0 <= seen.stock_size <= 20:
        raise InvalidViewError(f"a view's stock_size is an int 0-20 (R7), not {shown(seen.stock_size)}")
    try:
        check_defeat(defeat)  # what a game can be dealt at (R19, R21)
    except InvalidDealError as error:
        raise InvalidViewError(f"a view's defeat: {error}") from None
    for what, kind, most in (("table", SeenMove, 4), ("tricks", SeenTrick, 9), ("history", SeenMove, 1000)):
        items = getattr(seen, what)
        if type(items) is not tuple or len(items) > most or not all(type(item) is kind for item in items):
            raise InvalidViewError(f"a view's {what} are a tuple of {kind.__name__} objects, not {shown(items)}")
    legal = seen.legal_moves
    if type(legal) is not tuple or not all(type(move) is Move and move.seat == seat for move in legal):
        raise InvalidViewError(f"a view's legal_moves are a tuple of seat {seat}'s Move objects, not {shown(legal)}")
    check_consistent(seen)


def check_consistent(seen: PlayerView) -> None:
    """Refuse a view whose fields, each of the right kind, no game could show together
    (:class:`~goat.InvalidViewError`).

    The history's plays must make up the finished tricks and the table (R10-R14), the draws after them the
    stock and the hand sizes (R7, R15); the leader and the seat to play follow from them (R14, R16); the game is
    over exactly when the stock and the hands are empty (R17); a seat due to play has legal moves, and one that
    is not only a molodka's answer (R14).  The history shows no other seat's wait and no other seat's passed
    cards (R23), and no card is in two places.  Whether the trick winners and the legal moves are the rules'
    own is left to what reads the view (:func:`goat.sample_world` draws only worlds whose view is this one).
    """
    me, tricks, table = seen.seat, seen.tricks, seen.table
    wait, pass_, molodka_kind, lead_kind = MoveKind.WAIT, MoveKind.PASS, MoveKind.MOLODKA, MoveKind.LEAD
    sizes = [4, 4, 4, 4]  # R7
    stock, done, winner = 20, 0, -1
    trick: list[SeenMove] = []
    lead: SeenMove | None = None  # the trick's lead (or molodka)
    molodka = False  # whether the trick has its molodka (R14: one at most; a four-card lead is one)
    for move in seen.history:
        kind, owner, size = move.kind, move.seat, move.size
        if kind is wait:
            if owner != me:
                raise InvalidViewError(f"a view's history shows seat {owner}'s wait, which only that seat sees (R14)")
            continue
        if kind is pass_ and (owner == me) != bool(move.cards):
            raise InvalidViewError(f"a view shows its own passes' cards and no other seat's (R23), not {move}")
        if kind is molodka_kind:
            if molodka or size != 4:
                raise InvalidViewError(f"a trick has one molodka at most, of four cards (R14): {move}")
            for earlier in trick:  # the cards on the table go back to their owners
                sizes[earlier.seat] += earlier.size
            trick, lead = [], move
        elif lead is None:
            if kind is not lead_kind or (done and owner != winner):
                raise InvalidViewError(f"a trick begins with its leader's lead, the last winner's (R16), not {move}")
            lead = move
        elif kind is lead_kind or owner != (lead.seat + len(trick)) & 3 or size != lead.size:
            raise InvalidViewError(f"a trick's answers come in turn, as many cards as the lead (R11), not {move}")
        if sizes[owner] < size:
            raise InvalidViewError(f"a view's history has seat {owner} play more cards than it holds: {move}")
        sizes[owner] -= size
        molodka = molodka or size == 4
        trick.append(move)
        if len(trick) == 4:
            if done == len(tricks) or tricks[done].plays != tuple(trick):
                raise InvalidViewError(f"a view's tricks are not those its history played: trick {done + 1}")
            winner = tricks[done].winner
            rounds = min(lead.size, stock >> 2)  # R15: until each holds four again or the stock is empty
            if rounds:
                stock -= 4 * rounds
                sizes = [held + rounds for held in sizes]
            done += 1
            trick, lead, molodka = [], None, False
    if done != len(tricks) or tuple(trick) != table:
        raise InvalidViewError("a view's tricks and table are not the plays of its history (R13, R14)")
    if stock != seen.stock_size or tuple(sizes) != seen.hand_sizes:
        raise InvalidViewError(
            f"a view's history leaves {stock} cards in the stock and hands of {tuple(sizes)} (R7, R15), "
            f"not {seen.stock_size} and {seen.hand_sizes}"
        )
    leader = table[0].seat if table else winner
    if leader >= 0 and seen.leader != leader:
        raise InvalidViewError(
            f"a view's leader is {leader}, who leads its table or won its last trick, not {seen.leader}"
        )
    over = not stock and not any(sizes)
    due = None if over else (seen.leader + len(table)) & 3
    if seen.to_play != due:
        raise InvalidViewError(f"a view's to_play is {due} (R11, R17), not {seen.to_play}")
    legal = seen.legal_moves
    answers = all(move.kind is molodka_kind or move.kind is wait for move in legal)
    if (due == me and (not legal or answers)) or (due != me and not answers) or (over and legal):
        raise InvalidViewError(f"a view's legal_moves do not fit its seat {me} with seat {due} due to play")
    shown_cards = [seen.hand, *(play.cards for trick in tricks for play in trick.plays), *(p.cards for p in table)]
    if len(frozenset().union(*shown_cards)) != sum(map(len, shown_cards)):
        raise InvalidViewError("a view shows a card in two places: its hand, its tricks and its table hold it twice")


# The fields in the order the Seer sets them (see goat._kernel.Seer.view).
_VIEW_FIELDS: Final = (
    *("seat", "hand", "trump_card", "dealer", "leader", "to_play", "stock_size", "hand_sizes"),
    *("table", "tricks", "history", "defeat", "legal_moves"),
)
# The seer makes views, seen moves and seen tricks without attrs' __init__ (which would be a third of the
# cost of a view), by the slots' own setters.
_VIEW_SETTERS: Final = _setters(PlayerView, _VIEW_FIELDS)


def checked_view(*fields: Any) -> PlayerView:
    """A view of ``fields`` (in :data:`_VIEW_FIELDS` order) that its maker has checked already — the bot
    protocol's reader checks more than the constructor does — made past the constructor's check."""
    seen: PlayerView = _new(PlayerView)
    for setter, value in zip(_VIEW_SETTERS, fields, strict=True):
        setter(seen, value)
    return seen


_SEER: Final = Seer(
    partial(_new, PlayerView),
    _VIEW_SETTERS,
    DECK,
    frozen_by_mask,
    partial(_new, SeenMove),
    _setters(SeenMove, ("kind", "seat", "size", "cards")),
    tuple(MoveKind),  # by kind code (goat._kernel: LEAD, BEAT, PASS, MOLODKA, WAIT)
    partial(_new, SeenTrick),
    _setters(SeenTrick, ("plays", "winner")),
    _DROPPED,
    _LIMIT,
    _PARTS_LIMIT,
)


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (R23)."""
    if not isinstance(state, GameState):
        raise TypeError(f"view() takes a GameState, not {type(state).__name__}")
    if type(seat) is not int or not 0 <= seat <= 3:
        check_seat(seat, "view()'s seat")
    core = state.core
    to_move = core[TO_MOVE]
    if to_move == seat:
        moves = legal_moves(state)
    elif to_move >= 0 and (core[LEADER] + len(core[TABLE])) & 3 == seat:
        # due to play while another seat is asked about its molodka (R14)
        moves = tuple(map(move_by_key, plays(core, seat)))
    else:
        moves = ()
    return _SEER.view(core, seat, moves)  # type: ignore[no-any-return]
