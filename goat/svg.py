"""Pictures of games as SVG: a card, a hand, a trick, the whole table, one seat's view.

Every function returns the text of a standalone SVG 1.1 document (or, with ``standalone=False``, an
``<svg>`` element to embed in HTML).  No dependency: the drawings are built as text.  Suits have their
usual colours (hearts and diamonds red, clubs and spades black); trumps carry a gold band; a face-down
card is a patterned back.  Every card drawn carries its name in a ``data-card`` attribute (``"10H"``, or
``"back"``), so that tests — and anyone — can tell exactly which cards a drawing shows: a view's drawing
never holds a card its seat may not see (R23).

>>> import goat
>>> from goat import svg
>>> picture = svg.table(goat.new_game(seed=1))
>>> picture.startswith("<?xml") and picture.count('data-card="') == 16 + 1 + 1  # hands, trump card, stock
True

In Jupyter and IPython, :class:`~goat.Card`, :class:`~goat.GameState`, :class:`~goat.PlayerView` and
:class:`~goat.Trick` show as these pictures by themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from html import escape
from typing import Final

from goat.cards import Card, Suit, cards_of, mask_of
from goat.errors import shown
from goat.moves import Move, MoveKind
from goat.seats import check_seat
from goat.state import GameState, Trick
from goat.view import PlayerView, SeenMove

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "card", "hand", "symbols", "table", "trick", "using_symbols", "view"]

#: The width of a card in a drawing, in SVG units (pixels at 100%).
CARD_WIDTH: Final = 56
#: The height of a card in a drawing, in SVG units.
CARD_HEIGHT: Final = 80
_RED: Final = "#c62828"
_BLACK: Final = "#1b1b1b"
_GOLD: Final = "#d4a017"
_FELT: Final = "#1f6b3a"
_FONT: Final = "DejaVu Sans, Segoe UI Symbol, Arial, sans-serif"
_GAP: Final = 30  # between the plays of a trick, room for "seat 3 passes" above each


def _document(body: str, width: float, height: float, *, title: str, standalone: bool) -> str:
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{_FONT}"><title>{escape(title)}</title>{body}</svg>'
    )
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + svg if standalone else svg


def _card(card: Card | None, x: float, y: float, *, trump: Suit | None = None, mark: str = "") -> str:
    """One card (``None``: its back) at (x, y): drawn in full, or as a reference to a shared symbol."""
    if _USE_SYMBOLS[0]:
        return _card_use(card, x, y, trump=trump, mark=mark)
    return _full_card(card, x, y, trump=trump, mark=mark)


def _full_card(card: Card | None, x: float, y: float, *, trump: Suit | None = None, mark: str = "") -> str:
    w, h = CARD_WIDTH, CARD_HEIGHT
    if card is None:
        return (
            f'<g class="card back" data-card="back" transform="translate({x:g},{y:g})">'
            f'<rect width="{w}" height="{h}" rx="5" fill="#2c4f8c" stroke="#10213f" stroke-width="1"/>'
            f'<rect x="5" y="5" width="{w - 10}" height="{h - 10}" rx="3" fill="none" stroke="#9fb7e6" '
            f'stroke-width="1.5" stroke-dasharray="3,2"/></g>'
        )
    colour = _RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    is_trump = trump is not None and card.suit is trump
    border, stroke = (_GOLD, 2) if is_trump else ("#555555", 1)
    band = (
        f'<rect x="0" y="{h - 10}" width="{w}" height="10" rx="0" fill="{_GOLD}" opacity="0.85"/>' if is_trump else ""
    )
    highlight = (
        f'<rect x="-3" y="-3" width="{w + 6}" height="{h + 6}" rx="7" fill="none" stroke="#ffeb3b" stroke-width="3"/>'
        if mark
        else ""
    )
    rank, symbol = str(card.rank), card.suit.symbol
    return (
        f'<g class="card{" trump" if is_trump else ""}{" " + mark if mark else ""}" data-card="{card}" '
        f'transform="translate({x:g},{y:g})">{highlight}'
        f'<rect width="{w}" height="{h}" rx="5" fill="#ffffff" stroke="{border}" stroke-width="{stroke}"/>'
        f"{band}"
        f'<text x="5" y="17" font-size="15" font-weight="bold" fill="{colour}">{rank}</text>'
        f'<text x="5" y="32" font-size="14" fill="{colour}">{symbol}</text>'
        f'<text x="{w / 2:g}" y="{h / 2 + 12:g}" font-size="30" text-anchor="middle" fill="{colour}">{symbol}</text>'
        f"<title>{card}{' (trump)' if is_trump else ''}</title></g>"
    )


# While drawing for a page that holds the cards once, as symbols (see symbols()), cards are references to them.
_USE_SYMBOLS = [False]


def _symbol_id(card: Card | None, trump: bool) -> str:
    return "goat-card-back" if card is None else f"goat-card-{card}{'-trump' if trump else ''}"


def _card_use(card: Card | None, x: float, y: float, *, trump: Suit | None, mark: str) -> str:
    is_trump = card is not None and trump is not None and card.suit is trump
    name = "back" if card is None else str(card)
    classes = " ".join(
        ["card", *(["back"] if card is None else []), *(["trump"] if is_trump else []), *([mark] if mark else [])]
    )
    ring = (
        f'<rect x="{x - 3:g}" y="{y - 3:g}" width="{CARD_WIDTH + 6}" height="{CARD_HEIGHT + 6}" rx="7" fill="none" '
        f'stroke="#ffeb3b" stroke-width="3"/>'
        if mark
        else ""
    )
    return (
        f'<g class="{classes}" data-card="{name}">{ring}'
        f'<use xlink:href="#{_symbol_id(card, is_trump)}" x="{x:g}" y="{y:g}"/></g>'
    )


def symbols() -> str:
    """An SVG document defining every card (face up, as a trump, and the back) as a symbol, once.

    A page that shows many drawings made with ``use_symbols=True`` includes this once; each card of those
    drawings is then a short reference (``<use xlink:href="#goat-card-10H">``) instead of a full drawing.
    """
    from goat.cards import DECK

    parts = []
    for card_value in [None, *DECK]:
        for is_trump in (False, True) if card_value is not None else (False,):
            trump = card_value.suit if (is_trump and card_value is not None) else None
            body = _full_card(card_value, 0, 0, trump=trump)
            parts.append(f'<symbol id="{_symbol_id(card_value, is_trump)}" overflow="visible">{body}</symbol>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="0" height="0" style="position:absolute"><defs>{"".join(parts)}</defs></svg>'
    )


def _label(text: str, x: float, y: float, *, size: int = 12, anchor: str = "middle", colour: str = "#ffffff") -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{colour}">{escape(text)}</text>'


def _check(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"{what} takes a {kind.__name__}, not {shown(value)}")


def _trump(trump: object) -> Suit | None:
    if trump is not None and not isinstance(trump, Suit):
        raise TypeError(f"trump is a Suit, such as Suit.HEARTS, or None, not {shown(trump)}")
    return trump


def card(value: Card, *, trump: Suit | None = None, standalone: bool = True) -> str:
    """One card; with ``trump``, a trump is marked."""
    _check(value, Card, "svg.card()")
    _trump(trump)
    return _document(
        _card(value, 2, 2, trump=trump), CARD_WIDTH + 4, CARD_HEIGHT + 4, title=str(value), standalone=standalone
    )


def _row(cards: Sequence[Card | None], x: float, y: float, *, trump: Suit | None, step: float = 24) -> str:
    return "".join(_card(c, x + i * step, y, trump=trump) for i, c in enumerate(cards))


def _sorted(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    return sorted(cards, key=lambda c: (c.suit is trump, c.index))


def hand(cards: Iterable[Card], *, trump: Suit | None = None, standalone: bool = True) -> str:
    """A hand, fanned, side suits first, trumps last."""
    held = _sorted(cards_of(mask_of(cards, "svg.hand()'s cards")), _trump(trump))
    width = CARD_WIDTH + 24 * max(len(held) - 1, 0) + 4
    body = _row(held, 2, 2, trump=trump)
    return _document(body, width, CARD_HEIGHT + 4, title=" ".join(map(str, held)) or "no cards", standalone=standalone)


def _top(plays: Sequence[Move | SeenMove]) -> int:
    """The index of the top play (R12): the last beat, else the lead."""
    for index in range(len(plays) - 1, -1, -1):
        if plays[index].kind is MoveKind.BEAT:
            return index
    return 0


_VERBS: Final = {
    MoveKind.LEAD: "leads",
    MoveKind.BEAT: "beats",
    MoveKind.PASS: "passes",
    MoveKind.MOLODKA: "declares",
    MoveKind.WAIT: "waits",
}
_YOUR_VERBS: Final = {
    MoveKind.LEAD: "lead",
    MoveKind.BEAT: "beat",
    MoveKind.PASS: "pass",
    MoveKind.MOLODKA: "declare",
    MoveKind.WAIT: "wait",
}


def _plays(plays: Sequence[Move | SeenMove], x: float, y: float, *, trump: Suit | None, viewer: int | None) -> str:
    """The plays of a trick in a row of groups: who played, and the cards (face-down ones as backs)."""
    parts = []
    top = _top(plays) if plays else -1
    cursor = x
    for index, play in enumerate(plays):
        hidden = play.kind is MoveKind.PASS and (isinstance(play, SeenMove) and play.hidden)
        size = play.size if isinstance(play, SeenMove) else len(play.cards)
        # A pass the viewer may not see is backs; one it may see (its own, or any on the open table) is greyed.
        shown: list[Card | None] = [None] * size if hidden else list(_sorted(play.cards, None))
        who = "you" if play.seat == viewer else f"seat {play.seat}"
        verb = (_YOUR_VERBS if play.seat == viewer else _VERBS)[play.kind]
        parts.append(_label(f"{who} {verb}", cursor + CARD_WIDTH / 2 + 12 * max(size - 1, 0), y - 6, size=11))
        group = "".join(
            _card(c, cursor + i * 24, y, trump=trump, mark="top" if index == top and c is not None else "")
            for i, c in enumerate(shown)
        )
        if play.kind is MoveKind.PASS:
            group = f'<g class="pass" opacity="{1 if hidden else 0.75}">{group}</g>'
        parts.append(group)
        cursor += CARD_WIDTH + 24 * max(size - 1, 0) + _GAP
    return "".join(parts)


def _plays_width(plays: Sequence[Move | SeenMove]) -> float:
    total = 0.0
    for play in plays:
        size = play.size if isinstance(play, SeenMove) else len(play.cards)
        total += CARD_WIDTH + 24 * max(size - 1, 0) + _GAP
    return max(total - _GAP, 0)


def trick(
    plays: Trick | Sequence[Move | SeenMove],
    trump: Suit | None = None,
    *,
    viewer: int | None = None,
    standalone: bool = True,
) -> str:
    """A trick, finished (a :class:`~goat.Trick`) or on the table: each play with its seat, the top play marked.

    Seen moves of other seats' passes (from a :class:`~goat.PlayerView`) are drawn as card backs.  With
    ``trump``, trumps are marked; a :class:`~goat.Trick` alone does not know its game's trump, so its
    picture in a notebook marks none.
    """
    moves: Sequence[Move | SeenMove] = plays.plays if isinstance(plays, Trick) else plays
    if (
        isinstance(moves, (str, bytes))
        or not isinstance(moves, Sequence)
        or not all(isinstance(move, (Move, SeenMove)) for move in moves)
    ):
        raise TypeError(f"svg.trick() takes a Trick or a sequence of moves, not {shown(plays)}")
    _trump(trump)
    if viewer is not None:
        check_seat(viewer, "svg.trick()'s viewer")
    width = _plays_width(moves) + 8
    won_by = plays.winner if isinstance(plays, Trick) else None
    winner = "" if won_by is None else f"; won by seat {won_by}"
    height = CARD_HEIGHT + (34 if won_by is None else 50)  # room under the cards for who won
    body = (
        f'<rect width="{max(width, 80):g}" height="{height}" rx="8" fill="{_FELT}"/>'
        + _plays(moves, 4, 26, trump=trump, viewer=viewer)
        + ("" if won_by is None else _label(f"won by seat {won_by}", 6, CARD_HEIGHT + 42, size=11, anchor="start"))
    )
    title = ", ".join(str(m) for m in moves) + winner
    return _document(body, max(width, 80), height, title=title or "no plays", standalone=standalone)


@contextmanager
def using_symbols() -> Iterator[None]:
    """Within this block, drawings refer to the card symbols of :func:`symbols` instead of drawing each card."""
    _USE_SYMBOLS[0] = True
    try:
        yield
    finally:
        _USE_SYMBOLS[0] = False


# The table: seat 0 at the bottom, then clockwise — left, top, right — as the seats sit (R1).
_W: Final = 760
_H: Final = 560


def _seat_box(seat: int, place: int) -> tuple[float, float, str]:
    """Where seat's hand goes on the table (x, y) and how its label is anchored, ``place`` 0 being the bottom."""
    return [
        (_W / 2 - 80, _H - CARD_HEIGHT - 14, "bottom"),
        (14, _H / 2 - 40, "left"),
        (_W / 2 - 80, 30, "top"),
        (_W - 200, _H / 2 - 40, "right"),
    ][place]


def _frame(
    hands: Sequence[Sequence[Card | None]],
    *,
    trump_card: Card,
    stock: int,
    plays: Sequence[Move | SeenMove],
    tricks: tuple[int, int],
    to_move: int | None,
    dealer: int,
    bottom: int,
    viewer: int | None,
    title: str,
    standalone: bool,
) -> str:
    trump = trump_card.suit
    parts = [f'<rect width="{_W}" height="{_H}" rx="14" fill="{_FELT}"/>']
    for seat in range(4):
        place = (seat - bottom) % 4
        x, y, _ = _seat_box(seat, place)
        cards = hands[seat]
        name = "you" if seat == viewer else f"seat {seat}"
        extra = " (dealer)" if seat == dealer else ""
        turn = seat == to_move
        label_y = y - 8
        colour = "#ffeb3b" if turn else "#ffffff"
        parts.append(
            _label(
                f"{name}, team {seat % 2}{extra}" + ("  ◀ to move" if turn else ""),
                x,
                label_y,
                anchor="start",
                colour=colour,
            )
        )
        parts.append(f'<g class="hand" data-seat="{seat}">' + _row(list(cards), x, y, trump=trump) + "</g>")
    # the trump card and the stock, in the top right corner
    parts.append(_label("trump card", _W - 154 + CARD_WIDTH / 2, 22, size=11))
    parts.append(_card(trump_card, _W - 154, 30, trump=trump))
    parts.append(_label(f"stock {stock}", _W - 82 + CARD_WIDTH / 2, 22, size=11))
    if stock:
        parts.append(_card(None, _W - 82, 30))
    parts.append(_label(f"tricks: team 0 {tricks[0]}, team 1 {tricks[1]}", 14, _H - 20, anchor="start"))
    centre_width = _plays_width(plays)
    parts.append(
        f'<g class="table">{_plays(plays, (_W - centre_width) / 2 - 40, _H / 2 - 40, trump=trump, viewer=viewer)}</g>'
    )
    return _document("".join(parts), _W, _H, title=title, standalone=standalone)


def _won(tricks: Iterable[int]) -> tuple[int, int]:
    counts = [0, 0]
    for winner in tricks:
        counts[winner % 2] += 1
    return (counts[0], counts[1])


def table(state: GameState, *, bottom: int = 0, standalone: bool = True) -> str:
    """The whole table of a state, every card face up: four hands, the trick on the table, the trump card,
    the stock's size, tricks per team, whose turn.  ``bottom`` is the seat drawn at the bottom."""
    _check(state, GameState, "svg.table()")
    check_seat(bottom, "svg.table()'s bottom")
    hands = [_sorted(h, state.trump) for h in state.hands]
    where = "game over" if state.is_over else f"seat {state.to_move} to move"
    return _frame(
        hands,
        trump_card=state.trump_card,
        stock=len(state.stock),
        plays=state.table,
        tricks=_won(t.winner for t in state.tricks),
        to_move=state.to_move,
        dealer=state.dealer,
        bottom=bottom,
        viewer=None,
        title=f"Goat: trick {len(state.tricks) + 1}, {where}",
        standalone=standalone,
    )


def view(seen: PlayerView, *, standalone: bool = True) -> str:
    """What one seat sees (R23): its own hand face up at the bottom, the others' as backs, passes face down."""
    _check(seen, PlayerView, "svg.view()")
    hands: list[list[Card | None]] = [
        list(_sorted(seen.hand, seen.trump)) if seat == seen.seat else [None] * seen.hand_sizes[seat]
        for seat in range(4)
    ]
    return _frame(
        hands,
        trump_card=seen.trump_card,
        stock=seen.stock_size,
        plays=seen.table,
        tricks=seen.tricks_won,
        to_move=seen.to_play,
        dealer=seen.dealer,
        bottom=seen.seat,
        viewer=seen.seat,
        title=f"Goat: what seat {seen.seat} sees",
        standalone=standalone,
    )
