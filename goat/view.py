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

import attrs

from goat.cards import _CARDS, Card, Suit, cards_of
from goat.moves import Move, MoveKind
from goat.rules import _plays, legal_moves
from goat.seats import check_seat
from goat.state import GameState

__all__ = ["PlayerView", "SeenMove", "SeenTrick", "view"]


@attrs.frozen
class SeenMove:
    """A move as one seat saw it: another seat's pass shows its size, not its cards."""

    kind: MoveKind
    seat: int
    size: int  #: number of cards played
    cards: frozenset[Card]  #: the cards, or empty when they were passed face down by another seat

    @property
    def hidden(self) -> bool:
        """Whether the cards were passed face down by another seat and stay unknown."""
        return len(self.cards) < self.size

    def __str__(self) -> str:
        if self.hidden:
            return f"{self.seat} pass {' '.join('??' for _ in range(self.size))}"
        return str(Move(self.kind, self.seat, self.cards))


@attrs.frozen
class SeenTrick:
    """A finished trick as one seat saw it."""

    plays: tuple[SeenMove, ...]
    winner: int


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
        """The cards this seat has passed face down this game (still in tricks or on the table)."""
        mine = [m.cards for m in self.history if m.seat == self.seat and m.kind is MoveKind.PASS]
        return frozenset().union(*mine)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R17)."""
        return self.to_play is None


_SEEN: dict[object, SeenMove] = {}


def _seen(move: Move, seat: int) -> SeenMove:
    # Seen moves are shared between views (they are values; building them afresh costs).  Another seat's
    # pass is keyed by what the viewer may know of it — seat and size — never by its hidden cards: whether
    # two views hold the same object must not tell a bot whether two face-down passes held the same cards.
    hidden = move.kind is MoveKind.PASS and move.seat != seat
    key: object = (move.seat, len(move.cards)) if hidden else move
    found = _SEEN.get(key)
    if found is None:
        found = SeenMove(move.kind, move.seat, len(move.cards), frozenset() if hidden else move.cards)
        if len(_SEEN) > 200_000:  # bounded memory for long simulations
            _SEEN.clear()
        _SEEN[key] = found
    return found


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (R23)."""
    if not isinstance(state, GameState):
        raise TypeError(f"view() takes a GameState, not {type(state).__name__}")
    check_seat(seat, "view()'s seat")
    # Another seat's WAIT is the one move that is dropped altogether (R14).
    history = tuple(_seen(m, seat) for m in state.history if m.kind is not MoveKind.WAIT or m.seat == seat)
    if state.to_move == seat:
        moves = legal_moves(state)
    elif state.to_play == seat:
        moves = _plays(state, seat)
    else:
        moves = ()
    hands = state._hands
    return PlayerView(
        seat=seat,
        hand=cards_of(hands[seat]),
        trump_card=_CARDS[state._trump_card],
        dealer=state.dealer,
        leader=state.leader,
        to_play=state.to_play,
        stock_size=len(state._stock),
        hand_sizes=(hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count()),
        table=tuple(_seen(m, seat) for m in state.table),
        tricks=tuple(SeenTrick(tuple(_seen(m, seat) for m in t.plays), t.winner) for t in state.tricks),
        history=history,
        defeat=state.defeat,
        legal_moves=moves,
    )
