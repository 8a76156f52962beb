"""The terminal table: how the ``goat`` command shows cards, plays and results, and reads a person's moves.

Rendering goes through :mod:`rich` (colour where the terminal has it, plain
text where it does not); nothing here knows about click.  Every screen shows
only what the person's seat may see (R23): other seats' passes are card backs,
other seats' waits are never shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from goat.cards import Card, Suit, cards
from goat.errors import InvalidCardError
from goat.moves import Move, MoveKind
from goat.records import GameRecord
from goat.scoring import GameResult, Match
from goat.view import PlayerView, SeenMove

__all__ = [
    "BACK",
    "InputError",
    "card_text",
    "cards_text",
    "describe_play",
    "parse_input",
    "render_view",
    "typed",
    "with_symbols",
]

#: How a face-down card looks.
BACK = "▒▒"
_RED = {Suit.HEARTS, Suit.DIAMONDS}

HELP = """\
Type the cards you play, e.g. '10h qh' or 'TH Q♥': rank (6 7 8 9 10/T J Q K A)
then suit (C D H S).  Leading, the cards you lead (one suit); answering, the
cards you beat with.
  pass 7c 8c    pass those cards face down
  molodka, m    declare your four cards of one suit
  wait, w       keep your molodka for now
  help, h, ?    this text and your legal moves
  quit, exit    leave the match (asks first)"""


class InputError(ValueError):
    """What a person typed cannot be a move; the message says why in one line."""


_CARD_TEXT = re.compile(r"\b(10|[6-9TJQKA])([CDHS])\b")


def with_symbols(text: str) -> str:
    """Card notation in a message (``not in hand: 9H``) written as the table shows cards: ``9♥``."""
    return _CARD_TEXT.sub(lambda m: f"{m[1]}{Suit.from_str(m[2]).symbol}", text)


def card_text(card: Card, trump: Suit) -> Text:
    """A card with its suit symbol, red for hearts and diamonds, trumps bold on yellow."""
    style = "red" if card.suit in _RED else "default"
    if card.suit is trump:
        style += " bold on yellow"
    return Text(card.symbol, style=style)


def cards_text(held: Iterable[Card], trump: Suit) -> Text:
    text = Text()
    for i, card in enumerate(sorted(held, key=lambda c: (c.suit is trump, c.index))):
        if i:
            text.append(" ")
        text.append_text(card_text(card, trump))
    return text


def seat_name(seat: int, me: int | None, names: dict[int, str] | None = None) -> str:
    """``you``, ``partner`` or ``seat N (name)``, as the person at ``me`` would call each seat."""
    if seat == me:
        return "you"
    label = f"seat {seat}"
    if me is not None and seat == (me + 2) % 4:
        label = f"partner (seat {seat})"
    if names and seat in names:
        label += f" [{names[seat]}]"
    return label


_VERBS = {
    MoveKind.LEAD: "leads",
    MoveKind.BEAT: "beats with",
    MoveKind.PASS: "passes",
    MoveKind.MOLODKA: "declares a molodka:",
    MoveKind.WAIT: "waits",
}
_MY_VERBS = {  # what the person at the table did, in the second person
    MoveKind.LEAD: "lead",
    MoveKind.BEAT: "beat with",
    MoveKind.PASS: "pass",
    MoveKind.MOLODKA: "declare a molodka:",
    MoveKind.WAIT: "wait",
}


def describe_play(
    play: SeenMove | Move, trump: Suit, me: int | None = None, names: dict[int, str] | None = None
) -> Text:
    """One play in words: ``seat 2 beats with 10♥``; a hidden pass shows card backs."""
    verbs = _MY_VERBS if play.seat == me else _VERBS
    text = Text(f"{seat_name(play.seat, me, names)} {verbs[play.kind]}")
    if play.kind is MoveKind.WAIT:
        return text
    text.append(" ")
    if isinstance(play, SeenMove) and play.hidden:
        text.append(" ".join([BACK] * play.size), style="dim")
    else:
        text.append_text(cards_text(play.cards, trump))
    return text


def render_view(view: PlayerView, *, game: int, names: dict[int, str] | None = None) -> list[Text]:
    """The lines of the screen a person at ``view.seat`` sees before deciding."""
    trump = view.trump
    me = view.seat
    us, them = view.team, 1 - view.team
    won = view.tricks_won
    lines = [
        Text.assemble(
            (f"Game {game}, trick {len(view.tricks) + 1}", "bold"),
            "   trump card ",
            card_text(view.trump_card, trump),
            f" ({trump.name.lower()} are trumps)",
            f"   stock {view.stock_size}",
        ),
        Text(
            f"Defeat-scores: your team {view.defeat[us]}, theirs {view.defeat[them]}"
            f"   Tricks this game: your team {won[us]}, theirs {won[them]}"
        ),
    ]
    if view.tricks:
        last = view.tricks[-1]
        line = Text(f"Last trick, won by {seat_name(last.winner, me, names)}: ")
        for i, play in enumerate(last.plays):
            if i:
                line.append(", ")
            line.append_text(describe_play(play, trump, me, names))
        lines.append(line)
    if view.table:
        lines.append(Text("On the table:"))
        for play in view.table:
            lines.append(Text("  ").append_text(describe_play(play, trump, me, names)))
    else:
        lines.append(Text("The table is empty."))
    side = [card for card in view.hand if card.suit is not trump]
    trumps = [card for card in view.hand if card.suit is trump]
    hand = Text(f"Your hand (seat {me}): ").append_text(cards_text(side, trump))
    if trumps:
        hand.append("  trumps: " if side else "trumps: ").append_text(cards_text(trumps, trump))
    lines.append(hand)
    return lines


def prompt_text(view: PlayerView) -> str:
    """What the person is asked for, including when a molodka is possible (R14)."""
    kinds = {move.kind for move in view.legal_moves}
    if MoveKind.WAIT in kinds:
        return "You hold a molodka: 'molodka' to declare it now, 'wait' to keep it> "
    extra = " (molodka possible)" if MoveKind.MOLODKA in kinds else ""
    if MoveKind.LEAD in kinds:
        return f"Your lead{extra}> "
    size = view.table[0].size
    return f"Beat or pass {size} card{'s' if size > 1 else ''}{extra}> "


def parse_input(text: str, view: PlayerView) -> Move | str:
    """A typed line: a :class:`Move` of ``view.seat``, or ``"help"`` / ``"quit"``.

    Plain cards lead when leading and beat when answering; ``pass …``,
    ``molodka`` and ``wait`` say so.  Whether the move is legal is
    :func:`goat.play`'s to judge.  Raises :class:`InputError` for text that
    cannot be a move.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("type your cards, or 'help'")
    first = words[0].lower()
    if first in ("help", "?", "h"):
        return "help"
    if first in ("quit", "exit"):  # not "q": that is the queen's letter ("q h" is a card)
        return "quit"
    legal = view.legal_moves
    if first in ("molodka", "m"):
        for move in legal:
            if move.kind is MoveKind.MOLODKA:
                return move
        raise InputError(
            "you cannot declare a molodka now (R14: four cards of one suit at the trick's start, one molodka per trick)"
        )
    if first in ("wait", "w"):
        for move in legal:
            if move.kind is MoveKind.WAIT:
                return move
        raise InputError("nobody is asking you about a molodka now")
    kind = None
    if first in ("pass", "beat", "lead"):
        kind = MoveKind(first)
        words = words[1:]
    if not words:
        raise InputError(f"'{first}' needs the cards, e.g. '{first} 7c'")
    try:
        held = cards(" ".join(words))
    except InvalidCardError as error:
        raise InputError(str(error)) from None
    if len(set(held)) != len(held):
        raise InputError("a card appears twice")
    if kind is None:
        kind = MoveKind.LEAD if any(m.kind is MoveKind.LEAD for m in legal) else MoveKind.BEAT
    return Move(kind, view.seat, held)


def typed(move: Move) -> str:
    """A move as a person types it at the prompt: ``10h qh``, ``pass 7c``, ``molodka``, ``wait``."""
    held = " ".join(str(card).lower() for card in sorted(move.cards))
    return {
        MoveKind.LEAD: held,
        MoveKind.BEAT: held,
        MoveKind.PASS: f"pass {held}",
        MoveKind.MOLODKA: "molodka",
        MoveKind.WAIT: "wait",
    }[move.kind]


def legal_moves_text(view: PlayerView) -> str:
    """The person's legal moves, as they would type them."""
    kinds = list(MoveKind)
    ordered = sorted(view.legal_moves, key=lambda m: (kinds.index(m.kind), len(m.cards), sorted(m.cards)))
    return "Legal now: " + " | ".join(typed(move) for move in ordered)


def result_lines(result: GameResult, me: int, match: Match) -> list[str]:
    """The end of a game, from the person's side: points, defeat-scores gained, balls."""
    us, them = me % 2, 1 - me % 2
    lines = [f"Game over. Points: your team {result.points[us]}, theirs {result.points[them]}."]
    if result.balls:
        lines.append("Balls! 60 : 60 — nobody gains defeat-scores (R20).")
    elif result.winner == us:
        lines.append(f"Your team wins; they gain {result.defeat[them]} defeat-scores.")
    else:
        lines.append(f"They win; your team gains {result.defeat[us]} defeat-scores.")
    lines.append(f"Match: your team {match.defeat[us]}, theirs {match.defeat[them]} defeat-scores.")
    return lines


def goat_line(match: Match, me: int | None = None) -> str:
    """Who is the goat (with balls, if so) at the end of a match (R21)."""
    title = "the goat with balls" if match.with_balls else "the goat"
    if me is None:
        return f"Team {match.goat} (seats {match.goat}, {(match.goat or 0) + 2}) is {title}."
    return f"Your team is {title}." if match.goat == me % 2 else f"The other team is {title}. Well played!"


def game_line(number: int, record: GameRecord, match: Match) -> str:
    """One line per game of a match, for ``goat match``."""
    r = record.result
    if r is None:
        return f"game {number:>2}: dealer {record.dealer}  unfinished after {len(record.moves)} moves"
    outcome = "balls" if r.balls else f"team {r.winner} wins"
    faults = f"  faults: {len(record.faults)}" if record.faults else ""
    return (
        f"game {number:>2}: dealer {record.dealer}  points {r.points[0]:>3} : {r.points[1]:<3}  {outcome:<12}"
        f"  defeat-scores {match.defeat[0]:>2} : {match.defeat[1]:<2}{faults}"
    )


def print_lines(console: Console, lines: Iterable[Text | str]) -> None:
    for line in lines:
        console.print(line, highlight=False)
