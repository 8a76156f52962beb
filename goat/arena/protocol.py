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
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import IO, Any, Final, TypeVar

from goat import records
from goat.cards import DECK, Card
from goat.errors import GoatError, InvalidMoveError
from goat.moves import Move, MoveKind
from goat.records.codec import notation
from goat.scoring import GameResult
from goat.seats import is_seat
from goat.strategy import Strategy, end_game, load_strategy, start_game
from goat.view import PlayerView, SeenMove, SeenTrick

__all__ = [
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "SCHEMA_FILES",
    "ProtocolError",
    "decode",
    "encode",
    "main",
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
_KIND_BY_TEXT: Final = {kind.value: kind for kind in MoveKind}


class ProtocolError(GoatError, ValueError):
    """A message that breaks the protocol: not one JSON object on one line, or a field missing or wrong."""


# --- the JSON forms ---------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    """Cards as text, in deck order (so that equal sets give equal JSON)."""
    return [_CARD_TEXT[i] for i in sorted(card.index for card in cards)]


def _play(move: SeenMove) -> dict[str, Any]:
    return {
        "seat": move.seat,
        "kind": move.kind.value,
        "size": move.size,
        "cards": _cards(move.cards),
        "hidden": move.hidden,
    }


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """The JSON form of a view (the protocol's VIEW): exactly what :class:`~goat.PlayerView` holds (R23).

    Another seat's face-down pass is ``{"kind": "pass", "size": 2, "cards": [], "hidden": true, ...}``.
    """
    return {
        "seat": view.seat,
        "hand": _cards(view.hand),
        "trump_card": _CARD_TEXT[view.trump_card.index],
        "trump": view.trump_card.suit.value,
        "dealer": view.dealer,
        "leader": view.leader,
        "to_play": view.to_play,
        "stock_size": view.stock_size,
        "hand_sizes": list(view.hand_sizes),
        "table": [_play(move) for move in view.table],
        "tricks": [{"plays": [_play(move) for move in trick.plays], "winner": trick.winner} for trick in view.tricks],
        "history": [_play(move) for move in view.history],
        "defeat": list(view.defeat),
        "legal_moves": [notation(move) for move in view.legal_moves],
    }


# The referee encodes a view at every decision, and most of it (the history) was encoded before: each
# seen move's JSON text is kept, keyed by the object (seen moves are shared values; see goat.view).
_PLAY_TEXT: dict[int, tuple[SeenMove, str]] = {}
_COMPACT: Final = {"separators": (",", ":"), "ensure_ascii": False}


def _play_text(move: SeenMove) -> str:
    entry = _PLAY_TEXT.get(id(move))
    if entry is not None and entry[0] is move:
        return entry[1]
    text = json.dumps(_play(move), **_COMPACT)  # type: ignore[arg-type]
    if len(_PLAY_TEXT) > 100_000:
        _PLAY_TEXT.clear()
    _PLAY_TEXT[id(move)] = (move, text)  # the entry holds the object, so its id cannot be reused meanwhile
    return text


def _plays_text(moves: Iterable[SeenMove]) -> str:
    return "[" + ",".join([_play_text(move) for move in moves]) + "]"


def view_text(view: PlayerView) -> str:
    """The VIEW as compact JSON text: ``json.dumps(view_to_json(view))`` with compact separators, built faster."""

    def dumps(value: object) -> str:
        return json.dumps(value, **_COMPACT)  # type: ignore[arg-type]

    tricks = ",".join([f'{{"plays":{_plays_text(t.plays)},"winner":{t.winner}}}' for t in view.tricks])
    to_play = "null" if view.to_play is None else view.to_play
    return (
        f'{{"seat":{view.seat},"hand":{dumps(_cards(view.hand))},"trump_card":"{_CARD_TEXT[view.trump_card.index]}",'
        f'"trump":"{view.trump_card.suit.value}","dealer":{view.dealer},"leader":{view.leader},"to_play":{to_play},'
        f'"stock_size":{view.stock_size},"hand_sizes":[{",".join(map(str, view.hand_sizes))}],'
        f'"table":{_plays_text(view.table)},"tricks":[{tricks}],"history":{_plays_text(view.history)},'
        f'"defeat":[{view.defeat[0]},{view.defeat[1]}],"legal_moves":{dumps([notation(m) for m in view.legal_moves])}}}'
    )


def result_to_json(result: GameResult, *, forfeit: int | None = None) -> dict[str, Any]:
    """The JSON form of a game's result (the protocol's RESULT); ``forfeit`` is the team that forfeited."""
    return {**records.result_to_json(result), "forfeit": forfeit}


def _field(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise ProtocolError(f"{where}: expected a JSON object, not {data!r:.80}")
    if name not in data:
        raise ProtocolError(f"{where}: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"{where}: field {name!r} has the wrong type: {value!r:.80}")
    return value


def _seat(data: Mapping[str, Any], name: str, where: str) -> int:
    value = _field(data, name, int, where)
    if not is_seat(value):
        raise ProtocolError(f"{where}: field {name!r} must be a seat 0–3, not {value!r:.80}")
    return value


def _optional_seat(data: Mapping[str, Any], name: str, where: str) -> int | None:
    if name in data and data[name] is None:
        return None
    return _seat(data, name, where)


def _card_list(value: object, where: str) -> frozenset[Card]:
    if not isinstance(value, list):
        raise ProtocolError(f"{where}: expected a list of cards, not {value!r:.80}")
    found = []
    for text in value:
        card = _CARD_BY_TEXT.get(text) if isinstance(text, str) else None
        if card is None:
            raise ProtocolError(f"{where}: not a card: {text!r:.40} (cards are written like '10H')")
        found.append(card)
    cards = frozenset(found)
    if len(cards) != len(found):
        raise ProtocolError(f"{where}: a card appears twice")
    return cards


def _pair(data: Mapping[str, Any], name: str, where: str) -> tuple[int, int]:
    value = _field(data, name, list, where)
    if len(value) != 2 or any(v.__class__ is not int for v in value):
        raise ProtocolError(f"{where}: field {name!r} must be two integers, not {value!r:.80}")
    return (value[0], value[1])


_SEEN_CACHE: dict[tuple[Any, ...], SeenMove] = {}


def _seen_from_json(data: object, where: str) -> SeenMove:
    # A game's every view repeats its history: a play already read is found by its fields (of the right
    # types only, so that ``true`` cannot pass for seat 1).
    if type(data) is dict:
        seat, size, hidden, cards = data.get("seat"), data.get("size"), data.get("hidden"), data.get("cards")
        if type(seat) is int and type(size) is int and type(hidden) is bool and type(cards) is list:
            key = (seat, data.get("kind"), size, hidden, *cards)
            try:
                found = _SEEN_CACHE.get(key)
            except TypeError:  # unhashable contents: not a play; the checks below say why
                found = None
            if found is not None:
                return found
            found = _read_seen(data, where)
            if len(_SEEN_CACHE) > 100_000:
                _SEEN_CACHE.clear()
            _SEEN_CACHE[key] = found
            return found
    return _read_seen(data, where)


def _read_seen(data: object, where: str) -> SeenMove:
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: a play is a JSON object, not {data!r:.80}")
    seat = _seat(data, "seat", where)
    kind = _KIND_BY_TEXT.get(_field(data, "kind", str, where))
    if kind is None:
        raise ProtocolError(f"{where}: unknown kind {data['kind']!r:.40}")
    size = _field(data, "size", int, where)
    cards = _card_list(_field(data, "cards", list, where), where)
    hidden = _field(data, "hidden", bool, where)
    if not 0 <= size <= 4 or len(cards) != (0 if hidden else size) or (hidden and kind is not MoveKind.PASS):
        raise ProtocolError(f"{where}: size, cards and hidden do not agree: {data!r:.120}")
    return SeenMove(kind, seat, size, cards)


_MOVE_CACHE: dict[str, Move] = {}


def parse_move(text: object, where: str = "move") -> Move:
    """A move from its notation; :class:`ProtocolError` if it is not text, :class:`~goat.InvalidMoveError` if it
    does not parse."""
    if not isinstance(text, str):
        raise ProtocolError(f"{where}: a move is text such as '1 lead 10H', not {text!r:.80}")
    found = _MOVE_CACHE.get(text)
    if found is None:
        found = Move.from_str(text)
        if len(text) <= _LONGEST_MOVE:  # a bot's padded text is not worth keeping (nor its memory)
            if len(_MOVE_CACHE) > 100_000:
                _MOVE_CACHE.clear()
            _MOVE_CACHE[text] = found
    return found


# "3 molodka 10S 10H 10D 10C" and the like: no move written the usual way is longer.
_LONGEST_MOVE: Final = 32


def _moves(value: object, where: str) -> tuple[Move, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{where}: expected a list of moves, not {value!r:.80}")
    try:
        return tuple(parse_move(text, where) for text in value)
    except InvalidMoveError as error:
        raise ProtocolError(f"{where}: {error}") from None


def _trick_from_json(data: object, where: str) -> SeenTrick:
    plays = tuple(_seen_from_json(p, where) for p in _field(data, "plays", list, where))  # type: ignore[arg-type]
    if len(plays) != 4:
        raise ProtocolError(f"{where}: a finished trick has four plays, not {len(plays)}")
    return SeenTrick(plays, _seat(data, "winner", where))  # type: ignore[arg-type]


_T = TypeVar("_T")


def _read_list(raw: list[Any], read: Callable[[object, str], _T], where: str) -> tuple[_T, ...]:
    try:
        return tuple([read(item, where) for item in raw])
    except ProtocolError:  # read them again, numbered, so that the error names the one that is wrong
        for number, item in enumerate(raw, start=1):
            read(item, f"{where} {number}")
        raise


def view_from_json(data: object) -> PlayerView:
    """The :class:`~goat.PlayerView` a VIEW stands for; :class:`ProtocolError` naming the field if it is wrong.

    ``view_from_json(view_to_json(view)) == view`` for every view.
    """
    where = "view"
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, not {data!r:.80}")
    trump_card = _CARD_BY_TEXT.get(_field(data, "trump_card", str, where))
    if trump_card is None:
        raise ProtocolError(f"{where}: field 'trump_card' is not a card: {data['trump_card']!r:.40}")
    sizes = _field(data, "hand_sizes", list, where)
    if len(sizes) != 4 or any(s.__class__ is not int or not 0 <= s <= 4 for s in sizes):
        raise ProtocolError(f"{where}: field 'hand_sizes' must be four sizes 0–4, not {sizes!r:.80}")
    stock_size = _field(data, "stock_size", int, where)
    if not 0 <= stock_size <= 20:
        raise ProtocolError(f"{where}: field 'stock_size' must be 0–20, not {stock_size!r}")
    return PlayerView(
        seat=_seat(data, "seat", where),
        hand=_card_list(_field(data, "hand", list, where), "view: hand"),
        trump_card=trump_card,
        dealer=_seat(data, "dealer", where),
        leader=_seat(data, "leader", where),
        to_play=_optional_seat(data, "to_play", where),
        stock_size=stock_size,
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        table=_read_list(
            _field(data, "table", list, where),
            _seen_from_json,
            "view: table",
        ),
        tricks=_read_list(
            _field(data, "tricks", list, where),
            _trick_from_json,
            "view: trick",
        ),
        history=_read_list(
            _field(data, "history", list, where),
            _seen_from_json,
            "view: history",
        ),
        defeat=_pair(data, "defeat", where),
        legal_moves=_moves(_field(data, "legal_moves", list, where), "view: legal_moves"),
    )


def result_from_json(data: object) -> tuple[GameResult, int | None]:
    """The :class:`~goat.GameResult` a RESULT stands for, and the team that forfeited (or ``None``)."""
    where = "result"
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: expected a JSON object, not {data!r:.80}")
    forfeit = data.get("forfeit")
    if forfeit is not None and (forfeit.__class__ is not int or forfeit not in (0, 1)):
        raise ProtocolError(f"{where}: field 'forfeit' must be a team 0 or 1, or null, not {forfeit!r:.40}")
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
#: reply of a bot, the view and the result (draft 2020-12; they refer to each other by relative ``$ref``).
SCHEMA_FILES: Final = ("referee.json", "bot.json", "view.json", "result.json")


def schema(name: str) -> dict[str, Any]:
    """One of the protocol's JSON Schemas (:data:`SCHEMA_FILES`), as a dict."""
    if name not in SCHEMA_FILES:
        raise ValueError(f"the protocol's schemas are {', '.join(SCHEMA_FILES)}, not {name!r}")
    text = resources.files("goat").joinpath("schemas", "protocol", name).read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


# --- lines --------------------------------------------------------------------------------


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line: compact JSON, UTF-8, ``\\n`` at the end."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """One line as a message: a JSON object with a text ``"type"``; :class:`ProtocolError` otherwise."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line of {len(line)} bytes, more than the {MAX_LINE} a message may have")
    try:
        message = json.loads(line.decode("utf-8"))
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
                    strategy = build(seed if seed.__class__ is int else None)
                    reply: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
                elif strategy is None:
                    reply = {"type": "error", "message": f"a {kind!r} before 'hello'"}
                elif kind == "start_game":
                    start_game(strategy, view_from_json(message.get("view")))
                    reply = {"type": "ok"}
                elif kind == "choose":
                    seen = view_from_json(message.get("view"))
                    legal = _moves(message.get("legal"), "legal")
                    reply = {"type": "move", "move": str(strategy.choose(seen, legal))}
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
    """``python -m goat.arena NAME``: serve the strategy NAME (a name or spec) as a protocol bot."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(
            "usage: python -m goat.arena.protocol NAME   (a strategy name or spec: 'ismcts[time_ms=50]')",
            file=sys.stderr,
        )
        return 2
    spec = args[0]
    try:
        load_strategy(spec, seed=0)  # fail at once, before any message, on a name that cannot be loaded
    except GoatError as error:
        print(f"goat bot: {error}", file=sys.stderr)
        return 2
    return serve(lambda seed: load_strategy(spec, seed=seed), name=spec)
