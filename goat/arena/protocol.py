"""The goat bot protocol, version 1: messages as JSON lines, and the bot side that serves a strategy.

A bot in any language plays as a child process of the referee (:mod:`goat.arena.sealed`), reading one
JSON object per line on its standard input and answering each with exactly one line on its standard
output.  This module holds what both sides share — the JSON form of a :class:`~goat.PlayerView` and of a
:class:`~goat.GameResult`, the messages, the strict reading of a reply — and :func:`serve`, the bot side
for any installed strategy (``goat bot NAME``, ``python -m goat.arena NAME``).

The documentation's "Bot protocol" page describes every message with an example exchange; the JSON
Schemas of every message and of the view ship in ``goat/schemas/protocol/``.

>>> import goat
>>> from goat.arena import protocol
>>> seen = goat.view(goat.new_game(seed=1), 1)
>>> data = protocol.view_to_json(seen)
>>> data["seat"], data["hand"], data["trump_card"]
(1, ['QC', '7H', 'KS', '10S'], '10C')
>>> protocol.view_from_json(data) == seen
True
"""

from __future__ import annotations

import json
import operator
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, Final, TypeVar

from goat.cards import DECK, Card
from goat.errors import GoatError, InvalidDealError, InvalidMoveError, InvalidViewError, shown
from goat.moves import Move
from goat.plugins import load_strategy, parse_spec, plugin_description
from goat.records import codec
from goat.records.codec import notation
from goat.scoring import GameResult
from goat.state import check_defeat
from goat.strategy import Strategy, end_game, start_game
from goat.view import PlayerView, SeenMove, SeenTrick, check_consistent, checked_view

__all__ = [
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "SCHEMA_FILES",
    "ProtocolError",
    "decode",
    "encode",
    "main",
    "notation_list",
    "parse_move",
    "result_from_json",
    "result_to_json",
    "schema",
    "serve",
    "view_from_json",
    "view_text",
    "view_to_json",
]

#: The version of the protocol this module speaks (``"protocol"`` in both hello messages).
PROTOCOL_VERSION: Final = 1
#: The longest line either side reads, in bytes, newline included; a longer one is a flood.
MAX_LINE: Final = 1 << 20

_CARD_TEXT: Final = tuple(str(card) for card in DECK)
_CARD_BY_TEXT: Final = {str(card): card for card in DECK}


class ProtocolError(GoatError, ValueError):
    """A message that breaks the protocol: not one JSON object on one line, or a field missing or wrong."""


# --- the JSON forms ---------------------------------------------------------------------
#
# One writer and one reader of a VIEW.  view_text writes it (view_to_json is that text read back), view_from_json
# reads it.  Both run at every decision of a sealed bot, and most of a view (the history, the tricks) was written
# and read before: each keeps what it made of a part, found by the part's object (written: views share their
# seen moves, tricks and hands, see goat.view) or by its text (read).


_K = TypeVar("_K")
_V = TypeVar("_V")


def _keep(cache: dict[_K, _V], key: _K, value: _V) -> _V:
    """``cache[key] = value``, the cache emptied first once it holds 100,000 entries (bounded memory for a
    long-running referee or bot); returns ``value``."""
    if len(cache) > 100_000:
        cache.clear()
    cache[key] = value
    return value


#: Compact JSON of any value, for what a view made by hand holds in place of the usual one (``True`` as a seat,
#: a list of sizes, a play whose text needs escapes).
_json: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def _int(value: object) -> str:
    """A number (or ``None``) as JSON: an ``int`` as ``str`` writes it, anything else as JSON does (``True``)."""
    return str(value) if type(value) is int else _json(value)


def _ints(values: Iterable[object]) -> str:
    return f"[{','.join([_int(value) for value in values])}]"


def _texts(texts: Iterable[str]) -> str:
    """A JSON list of texts that need no escapes (move notation, card text)."""
    joined = '","'.join(texts)
    return f'["{joined}"]' if joined else "[]"


# Each seen move's notation is kept, by the object (an entry holds the object, so that its id cannot be reused
# meanwhile), and so is each finished trick's text and each hand's.
_PLAY_TEXT: dict[int, tuple[SeenMove, str]] = {}
_TRICK_TEXT: dict[int, tuple[SeenTrick, str]] = {}
_HAND_TEXT: dict[int, tuple[frozenset[Card], str]] = {}


def _play(move: SeenMove) -> str:
    """A play as JSON text: a seen move's notation, which needs no escapes, remembered; what another object says
    it is (a view made by hand) as JSON writes it."""
    entry = _PLAY_TEXT.get(id(move))
    if entry is not None and entry[0] is move:
        return entry[1]
    if type(move) is not SeenMove:  # made by hand: its text may change, and is not kept
        return _json(str(move))
    return _keep(_PLAY_TEXT, id(move), (move, f'"{move}"'))[1]


def _plays_text(moves: Iterable[SeenMove]) -> str:
    return f"[{','.join([_play(move) for move in moves])}]"


def _trick_text(trick: SeenTrick) -> str:
    entry = _TRICK_TEXT.get(id(trick))
    if entry is not None and entry[0] is trick:
        return entry[1]
    text = f'{{"plays":{_plays_text(trick.plays)},"winner":{_int(trick.winner)}}}'
    if type(trick) is SeenTrick and type(trick.plays) is tuple:  # not made by hand: it cannot change
        _keep(_TRICK_TEXT, id(trick), (trick, text))
    return text


def _hand_text(hand: frozenset[Card]) -> str:
    """A hand's cards in deck order (so that equal hands give equal JSON)."""
    entry = _HAND_TEXT.get(id(hand))
    if entry is not None and entry[0] is hand:
        return entry[1]
    text = _texts([_CARD_TEXT[i] for i in sorted(card.index for card in hand)])
    if type(hand) is frozenset:  # not made by hand: it cannot change
        _keep(_HAND_TEXT, id(hand), (hand, text))
    return text


# Each view of a game repeats the history and the tricks of the one before and adds a play or a trick: the last
# of each written for each seat is kept with its text, and one that begins with the same objects (views share
# them, see goat.view) writes only what comes after.  Only a tuple, which cannot change after it was kept.
_LAST_HISTORY: dict[int, tuple[tuple[Any, ...], str]] = {}
_LAST_TRICKS: dict[int, tuple[tuple[Any, ...], str]] = {}
_is = operator.is_


def _list_text(last_written: dict[int, tuple[tuple[Any, ...], str]], seat: int, items: Any, text_of: Any) -> str:
    """The JSON list of ``items`` (each written by ``text_of``), continuing the one last written for ``seat``."""
    kept = type(items) is tuple and type(seat) is int  # not a view made by hand (a list, a bad seat)
    last = last_written.get(seat) if kept else None
    if last is not None and last[0] is items:
        return last[1]
    if last is not None and len(last[0]) <= len(items) and all(map(_is, last[0], items)):
        before, text = last
        added = [text_of(item) for item in items[len(before) :]]
        if added:
            text = f"{text[:-1]},{','.join(added)}]" if before else f"[{','.join(added)}]"
    else:
        text = f"[{','.join([text_of(item) for item in items])}]"
    if kept:
        last_written[seat] = (items, text)
    return text


# The referee writes a decision's legal moves twice, in the view and beside it: the same tuple, written once.
_LAST_LEGAL: list[tuple[tuple[Move, ...], str]] = [((), "[]")]


def notation_list(moves: Iterable[Move]) -> str:
    """Moves as a JSON list of their notation: ``json.dumps([str(move) for move in moves])``, compact, faster."""
    last = _LAST_LEGAL[0]
    if moves is last[0]:
        return last[1]
    text = _texts([notation(move) for move in moves])
    if type(moves) is tuple:  # a tuple cannot change after it was kept
        _LAST_LEGAL[0] = (moves, text)
    return text


def view_text(view: PlayerView) -> str:
    """The VIEW of ``view`` as compact JSON text, as the referee sends it: exactly what
    :class:`~goat.PlayerView` holds (R23).

    Every play (in ``table``, ``tricks`` and ``history``) is written in move notation, as the moves in
    ``legal_moves`` are, and another seat's face-down pass shows ``??`` for each card: ``"2 pass ?? ??"``
    (:meth:`goat.SeenMove.from_str` reads it back).  The cards of the hand are in deck order.
    """
    seat = view.seat
    trump_card = view.trump_card
    return (
        f'{{"seat":{_int(seat)},"hand":{_hand_text(view.hand)},"trump_card":"{_CARD_TEXT[trump_card.index]}",'
        f'"trump":"{trump_card.suit.value}","dealer":{_int(view.dealer)},"leader":{_int(view.leader)},'
        f'"to_play":{_int(view.to_play)},"stock_size":{_int(view.stock_size)},"hand_sizes":{_ints(view.hand_sizes)},'
        f'"table":{_plays_text(view.table)},"tricks":{_list_text(_LAST_TRICKS, seat, view.tricks, _trick_text)},'
        f'"history":{_list_text(_LAST_HISTORY, seat, view.history, _play)},"defeat":{_ints(view.defeat)},'
        f'"legal_moves":{notation_list(view.legal_moves)}}}'
    )


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """The JSON form of a view (the protocol's VIEW) as a dict: :func:`view_text`, read back."""
    found: dict[str, Any] = json.loads(view_text(view))
    return found


def result_to_json(result: GameResult, *, forfeit: int | None = None) -> dict[str, Any]:
    """The JSON form of a game's result (the protocol's RESULT); ``forfeit`` is the team that forfeited."""
    return {**codec.result_to_json(result), "forfeit": forfeit}


# --- reading -------------------------------------------------------------------------------


def _field(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name) if type(data) is dict else None
    if type(value) is kind:  # the usual case: JSON's own type
        return value
    if type(data) is not dict and not isinstance(data, Mapping):
        raise ProtocolError(f"{where}: expected a JSON object, not {shown(data)}")
    if name not in data:
        raise ProtocolError(f"{where}: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"{where}: field {name!r} has the wrong type: {shown(value)}")
    return value


def _number(data: Mapping[str, Any], name: str, where: str, most: int, what: str) -> int:
    """The integer field ``name``, from 0 to ``most`` (``what`` says which in an error)."""
    value = data.get(name)
    if type(value) is int and 0 <= value <= most:
        return value
    if name not in data:
        raise ProtocolError(f"{where}: missing field {name!r}")
    raise ProtocolError(f"{where}: field {name!r} must be {what}, not {shown(value)}")


def _seat(data: Mapping[str, Any], name: str, where: str) -> int:
    return _number(data, name, where, 3, "a seat 0–3")


def _pair(data: Mapping[str, Any], name: str, where: str) -> tuple[int, int]:
    value = _field(data, name, list, where)
    if len(value) != 2 or any(type(v) is not int for v in value):
        raise ProtocolError(f"{where}: field {name!r} must be two integers, not {shown(value)}")
    return (value[0], value[1])


def _card_list(value: object, where: str) -> frozenset[Card]:
    if type(value) is not list:
        raise ProtocolError(f"{where}: expected a list of cards, not {shown(value)}")
    try:
        cards = frozenset(map(_CARD_BY_TEXT.__getitem__, value))
    except (KeyError, TypeError):  # not a card's text: name the first such
        text = next(text for text in value if type(text) is not str or text not in _CARD_BY_TEXT)
        raise ProtocolError(f"{where}: not a card: {shown(text, 40)} (cards are written like '10H')") from None
    if len(cards) != len(value):
        raise ProtocolError(f"{where}: a card appears twice")
    return cards


_SEEN_CACHE: dict[str, SeenMove] = {}


def _seen_from_json(data: object, where: str) -> SeenMove:
    """A play of a VIEW: a seen move's notation.  Every view of a game repeats its history, so a play
    already read is found by its text."""
    found = _SEEN_CACHE.get(data) if type(data) is str else None
    if found is not None:
        return found
    if not isinstance(data, str):
        raise ProtocolError(f"{where}: a play is text in move notation such as '1 beat 10H QH', not {shown(data)}")
    try:
        found = SeenMove.from_str(data)
    except ValueError as error:
        raise ProtocolError(f"{where}: {error}") from None
    # Kept only as plain text of a usual length: padded text is not worth its memory, and a str subclass (from
    # a caller in this process) could compare equal to other text.
    if type(data) is str and len(data) <= _LONGEST_MOVE:
        _keep(_SEEN_CACHE, data, found)
    return found


_MOVE_CACHE: dict[str, Move] = {}


def parse_move(text: object, where: str = "move") -> Move:
    """A move from its notation; :class:`ProtocolError` if it is not text, :class:`~goat.InvalidMoveError` if it
    does not parse."""
    if not isinstance(text, str):
        raise ProtocolError(f"{where}: a move is text such as '1 lead 10H', not {shown(text)}")
    found = _MOVE_CACHE.get(text)
    if found is None:
        found = Move.from_str(text)
        if found.mask.bit_count() > 4:  # no hand holds more (R7, R15): no such move is ever legal, or seen
            raise InvalidMoveError(f"not a move: {shown(text)} (a play holds at most four cards)")
        if type(text) is str and len(text) <= _LONGEST_MOVE:  # see _seen_from_json
            _keep(_MOVE_CACHE, text, found)
    return found


# "3 molodka 10S 10H 10D 10C" and the like: no move written the usual way is longer.
_LONGEST_MOVE: Final = 32


def _moves(value: object, where: str) -> tuple[Move, ...]:
    if type(value) is not list:
        raise ProtocolError(f"{where}: expected a list of moves, not {shown(value)}")
    cache = _MOVE_CACHE
    try:
        # The usual case: moves read before are found by their text, and only new ones are parsed.
        return tuple([cache.get(text) or parse_move(text, where) for text in value])
    except TypeError:  # a move that is not even hashable: not text
        for text in value:
            parse_move(text, where)
        raise
    except InvalidMoveError as error:
        raise ProtocolError(f"{where}: {error}") from None


_TRICK_CACHE: dict[tuple[str | int, ...], SeenTrick] = {}


def _trick_from_json(data: object, where: str) -> SeenTrick:
    raw = _field(data, "plays", list, where)  # type: ignore[arg-type]
    plays = tuple([_seen_from_json(p, where) for p in raw])
    if len(plays) != 4:
        raise ProtocolError(f"{where}: a finished trick has four plays, not {len(plays)}")
    winner = _seat(data, "winner", where)  # type: ignore[arg-type]
    # Like its plays, a finished trick comes again in every later view of the game; it is found by its
    # plays' text (already hashed when they were looked up), not by hashing the plays themselves.
    key = (*raw, winner)
    found = _TRICK_CACHE.get(key)
    if found is None:
        found = SeenTrick(plays, winner)
        if all(type(text) is str and len(text) <= _LONGEST_MOVE for text in raw):  # as _seen_from_json keeps
            _keep(_TRICK_CACHE, key, found)
    return found


def _trick(data: object, where: str) -> SeenTrick:
    if type(data) is dict:  # a finished trick read before, found by its plays' text and winner
        plays, winner = data.get("plays"), data.get("winner")
        if type(plays) is list and type(winner) is int:
            try:
                found = _TRICK_CACHE.get((*plays, winner))
            except TypeError:
                found = None
            if found is not None:
                return found
    return _trick_from_json(data, where)


def _tricks(value: list[Any], where: str) -> tuple[SeenTrick, ...]:
    if len(value) > 9:  # R7: 36 cards, at least four a trick
        raise ProtocolError(f"{where}: field 'tricks' holds at most the nine tricks of a game, not {len(value)}")
    try:
        return tuple([_trick(item, "view: trick") for item in value])
    except ProtocolError:  # read them again, numbered, so that the error names the one that is wrong
        for number, item in enumerate(value, start=1):
            _trick(item, f"view: trick {number}")
        raise


def _plays(data: Mapping[str, Any], name: str, where: str, most: int, what: str = "") -> tuple[SeenMove, ...]:
    """The plays of field ``name``, at most ``most`` of them (``what`` says how many in an error)."""
    raw = _field(data, name, list, where)
    if len(raw) > most:
        raise ProtocolError(f"{where}: field {name!r} holds at most {what or most}, not {len(raw)} plays")
    cache = _SEEN_CACHE
    try:
        # The usual case: plays read before (in the last view) are found by their text at C speed, and
        # only the new ones are parsed.  A play that is not text fails the lookup or the parse below.
        return tuple([cache.get(text) or _seen_from_json(text, f"view: {name}") for text in raw])
    except (ProtocolError, TypeError):  # read them again, numbered, so that the error names the one that is wrong
        for number, item in enumerate(raw, start=1):
            _seen_from_json(item, f"view: {name} {number}")
        raise


_FOUR_INTS: Final = (int, int, int, int)
#: The most plays a view's history holds, as :class:`~goat.PlayerView`'s own check allows: the reader makes the
#: views it has checked past that check, which would repeat the reader's.
_MOST_HISTORY: Final = 1000


def view_from_json(data: object) -> PlayerView:
    """The :class:`~goat.PlayerView` a VIEW stands for; :class:`ProtocolError` naming the field if it is wrong.

    ``view_from_json(view_to_json(view)) == view`` for every view.  It reads exact JSON types only (``true``
    is no seat), and refuses a view that contradicts itself (a hand of another size than ``hand_sizes`` says,
    a legal move of another seat, a table that is not the end of its history: what :class:`~goat.PlayerView`
    refuses).
    """
    where = "view"
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, not {shown(data)}")
    seat = _seat(data, "seat", where)
    trump_card = _CARD_BY_TEXT.get(_field(data, "trump_card", str, where))
    if trump_card is None:
        raise ProtocolError(f"{where}: field 'trump_card' is not a card: {shown(data['trump_card'], 40)}")
    if "trump" in data and data["trump"] != trump_card.suit.value:
        raise ProtocolError(
            f"{where}: field 'trump' is not the suit of the trump card {trump_card}: {shown(data['trump'])}"
        )
    sizes = data.get("hand_sizes")
    if not (type(sizes) is list and tuple(map(type, sizes)) == _FOUR_INTS and min(sizes) >= 0 and max(sizes) <= 4):
        _field(data, "hand_sizes", list, where)
        raise ProtocolError(f"{where}: field 'hand_sizes' must be four sizes 0–4, not {shown(sizes)}")
    hand = _card_list(_field(data, "hand", list, where), "view: hand")
    if len(hand) != sizes[seat]:
        raise ProtocolError(
            f"{where}: the hand holds {len(hand)} cards, where hand_sizes gives seat {seat} {sizes[seat]}"
        )
    defeat = _pair(data, "defeat", where)
    try:
        check_defeat(defeat)  # what a game can be dealt at (R19, R21)
    except InvalidDealError as error:
        raise ProtocolError(f"{where}: field 'defeat': {error}") from None
    legal = _moves(_field(data, "legal_moves", list, where), "view: legal_moves")
    if len({move.key for move in legal if move.seat == seat}) != len(legal):  # (equal moves have equal keys)
        raise ProtocolError(
            f"{where}: the legal moves are the seat's own, each once, not {shown(list(map(str, legal)))}"
        )
    to_play = data.get("to_play", 0)
    seen = checked_view(  # its fields checked here: past the constructor's own check, which would repeat it
        seat,
        hand,
        trump_card,
        _seat(data, "dealer", where),
        _seat(data, "leader", where),
        None if to_play is None else _seat(data, "to_play", where),
        _number(data, "stock_size", where, 20, "0–20"),
        (sizes[0], sizes[1], sizes[2], sizes[3]),
        _plays(data, "table", where, 4, "the four plays of a trick"),
        _tricks(_field(data, "tricks", list, where), where),
        _plays(data, "history", where, _MOST_HISTORY),
        defeat,
        legal,
    )
    try:
        check_consistent(seen)  # the rest of the constructor's check: parts that no game shows together
    except InvalidViewError as error:
        raise ProtocolError(f"{where}: {error}") from None
    return seen


def result_from_json(data: object) -> tuple[GameResult, int | None]:
    """The :class:`~goat.GameResult` a RESULT stands for, and the team that forfeited (or ``None``)."""
    where = "result"
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, not {shown(data)}")
    forfeit = data.get("forfeit")
    if forfeit is not None and (type(forfeit) is not int or forfeit not in (0, 1)):
        raise ProtocolError(f"{where}: field 'forfeit' must be a team 0 or 1, or null, not {shown(forfeit, 40)}")
    winner = data.get("winner")
    try:
        result = GameResult(
            _pair(data, "points", where),
            _pair(data, "tricks", where),
            _pair(data, "defeat", where),
            _field(data, "balls", bool, where),
            winner,
            _seat(data, "last_trick_winner", where),
        )
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"{where}: {error}") from None
    return result, forfeit


# --- schemas -------------------------------------------------------------------------------

#: The JSON Schema files shipped in ``goat/schemas/protocol/``: each message from the referee, each
#: reply of a bot, the view and the result (draft 2020-12; each ``$id`` is a ``urn:goat-cards:protocol:1:`` name, and a
#: schema that refers to another carries a copy of it in its ``$defs``, so that each works alone).
SCHEMA_FILES: Final = ("referee.json", "bot.json", "view.json", "result.json")


def schema(name: str) -> dict[str, Any]:
    """One of the protocol's JSON Schemas (:data:`SCHEMA_FILES`), as a dict."""
    if name not in SCHEMA_FILES:
        raise ProtocolError(f"the protocol's schemas are {', '.join(SCHEMA_FILES)}, not {name!r:.80}")
    from importlib import resources  # imported when asked for: it costs a sealed bot's start-up

    text = resources.files("goat").joinpath("schemas", "protocol", name).read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


# --- lines --------------------------------------------------------------------------------


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line: compact JSON, UTF-8, ``\\n`` at the end (never NaN or Infinity: no JSON)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


def _no_constant(name: str) -> None:
    raise ProtocolError(f"not JSON: {name} is no JSON number")


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ProtocolError("not one JSON object: a key appears twice in it (readers disagree on which counts)")
    return found


def decode(line: bytes, *, each_key_once: bool = False) -> dict[str, Any]:
    """One line as a message: a JSON object with a text ``"type"``; :class:`ProtocolError` otherwise.

    NaN and Infinity are refused (they are no JSON); with ``each_key_once`` (the referee reading a bot's reply,
    a short line), so is an object with a key twice."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line of {len(line)} bytes, more than the {MAX_LINE} a message may have")
    try:
        message = json.loads(
            line.decode("utf-8"), parse_constant=_no_constant, object_pairs_hook=_once if each_key_once else None
        )
    except ProtocolError:
        raise
    except UnicodeDecodeError as error:
        raise ProtocolError(f"not UTF-8: {error}") from None
    except (ValueError, RecursionError) as error:
        raise ProtocolError(f"not JSON: {str(error)[:100]}: {_shown(line)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"not a JSON object: {_shown(line)}")
    if not isinstance(message.get("type"), str):
        raise ProtocolError(f'a message has a text "type": {_shown(line)}')
    return message


def _shown(line: bytes) -> str:
    """A line as it may appear in a fault's reason: short and printable."""
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text[:120] + ("…" if len(text) > 120 else ""))


# --- the bot side ---------------------------------------------------------------------------


def serve(
    build: Callable[[int | None], Strategy],
    *,
    name: str,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
) -> int:
    """Play as a protocol bot on ``stdin``/``stdout`` until ``quit`` or the end of input; return an exit status.

    ``build(seed)`` makes the strategy once the referee's ``hello`` gives the seed.  While the strategy
    runs, ``sys.stdout`` is the standard error, so that a stray ``print`` in a bot cannot break the
    protocol.  A strategy that raises is answered with an ``error`` message (the referee records it as
    this bot's fault) and the bot goes on.
    """
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout.buffer
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    strategy: Strategy | None = None
    try:
        for line in source:
            try:
                message = decode(line)
                kind = message["type"]
                if kind == "quit":
                    return 0
                if kind == "hello":
                    seed = message.get("seed")
                    strategy = build(seed if type(seed) is int else None)
                    reply: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
                elif strategy is None:
                    reply = {"type": "error", "message": f"a {kind!r} before 'hello'"}
                elif kind == "start_game":
                    start_game(strategy, view_from_json(message.get("view")))
                    reply = {"type": "ok"}
                elif kind == "choose":
                    seen = view_from_json(message.get("view"))
                    raw = message.get("legal")
                    # the view's legal_moves are the same list when the seat decides: read them once
                    legal = seen.legal_moves if raw == message["view"]["legal_moves"] else _moves(raw, "legal")
                    chosen = strategy.choose(seen, legal)
                    if type(chosen) is Move:  # the usual reply, written directly (notation needs no escapes)
                        sink.write(b'{"type":"move","move":"%s"}\n' % notation(chosen).encode())
                        sink.flush()
                        continue
                    reply = {"type": "move", "move": str(chosen)}
                elif kind == "end_game":
                    result, _ = result_from_json(message.get("result"))
                    end_game(strategy, view_from_json(message.get("view")), result)
                    reply = {"type": "ok"}
                else:
                    reply = {"type": "error", "message": f"unknown message type {kind!r}"}
            except Exception as error:  # the bot's own failure, reported to the referee as its fault
                reply = {"type": "error", "message": f"{type(error).__name__}: {error}"[:2000]}
            sink.write(encode(reply))
            sink.flush()
        return 0
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    finally:
        sys.stdout = real_stdout


def main(argv: list[str] | None = None) -> int:
    """``python -m goat.arena SPEC [NAME]``: serve the strategy SPEC (a name or spec) as a protocol bot, which
    gives NAME (by default SPEC) as its name in ``hello``.  The arena starts a plugin by its import path, with
    the name it was asked for (:func:`goat.arena.sealed.bot_command`)."""
    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2 or args[0] in ("-h", "--help"):
        print(
            "usage: python -m goat.arena SPEC [NAME]   (a strategy name or spec: 'ismcts[time_ms=50]';"
            " NAME: the name the bot gives, by default SPEC)",
            file=sys.stderr,
        )
        return 2
    spec, name = args[0], args[-1]
    try:
        _load(spec, name, 0)  # fail at once, before any message, on a name that cannot be loaded
    except GoatError as error:
        print(f"goat bot: {error}", file=sys.stderr)
        return 2
    return serve(lambda seed: _load(spec, name, seed), name=name)


def _load(spec: str, name: str, seed: int | None) -> Strategy:
    """The strategy of ``spec``; if it fails and the bot was asked for by another ``name`` (a plugin started by
    its import path), the error says what failed by that name and the plugin's distribution, as loading it by
    its name would (without loading it again: a plugin's code runs once)."""
    try:
        return load_strategy(spec, seed=seed)
    except GoatError as error:
        if name == spec:
            raise
        try:
            path, plugin = parse_spec(spec)[0], parse_spec(name)[0]
            described = plugin_description(plugin)
        except GoatError:
            raise error from None
        if described is None:
            raise
        told = (
            str(error).replace(f"the factory {path!r}", described).replace(f"strategy {path!r}", f"strategy {plugin!r}")
        )
        raise error.__class__(told) from error.__cause__
