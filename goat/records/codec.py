"""Records as JSON: :func:`dumps` writes version 2, :func:`loads` reads versions 1 and 2, strictly.

Reading is total: whatever the text, :func:`loads` returns a record that replays, or raises
:class:`~goat.records.RecordError` naming the field or the step — a wrong type, an unknown key at any
level, a players list that is not four names, a fault that does not fit the moves, a deal that is not
the one its seed gives, text too large or too deeply nested.  Writing gives UTF-8 JSON that any JSON
reader reads back exactly: seeds are written as decimal text (a JSON number above 2**53 loses digits in
JavaScript and ``jq``), and every text is one UTF-8 can hold.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Final

from goat.cards import DECK, Card
from goat.errors import GoatError, MissingExtraError, shown
from goat.moves import Move
from goat.records.values import (
    FAULT_KINDS,
    Fault,
    GameRecord,
    MatchRecord,
    RecordError,
    check_seed,
    from_match,
    replay,
)
from goat.scoring import GameResult

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = [
    "FORMAT_VERSION",
    "GAME_FORMAT",
    "MATCH_FORMAT",
    "MAX_RECORD_BYTES",
    "SCHEMA_FILES",
    "SCHEMA_URL",
    "dumps",
    "from_json",
    "loads",
    "notation",
    "result_to_json",
    "schema",
    "to_json",
    "validator",
]

GAME_FORMAT: Final = "goat-game-record"
MATCH_FORMAT: Final = "goat-match-record"
#: The version :func:`dumps` writes; :func:`loads` reads it and version 1.
FORMAT_VERSION: Final = 2
#: What the ``$id`` of each JSON Schema of version 2 starts with -- a name, not an address: the schemas ship in the
#: package (:func:`schema`), no host serves them -- and a record's ``$schema``: this and ``game.json`` or
#: ``match.json``.  (Records written before 0.1 name a documentation host there; any text is read.)
SCHEMA_URL: Final = "urn:goat-cards:records:2:"
#: The largest record :func:`loads` reads, in bytes: a game with every bot faulting at every move, each
#: fault with its stderr, stays far below it.
MAX_RECORD_BYTES: Final = 32 << 20


#: The JSON Schema files of version 2, shipped in ``goat/schemas/records/``.
SCHEMA_FILES: Final = ("game.json", "match.json")


def schema(name: str) -> dict[str, Any]:
    """One of the records' JSON Schemas (:data:`SCHEMA_FILES`), as a dict."""
    if name not in SCHEMA_FILES:
        raise RecordError(f"the records' schemas are {', '.join(SCHEMA_FILES)}, not {shown(name)}")
    from importlib import resources  # imported when asked for: it costs a sealed bot's start-up

    found: dict[str, Any] = json.loads(resources.files("goat").joinpath("schemas", "records", name).read_text("utf-8"))
    return found


def validator(name: str) -> Validator:
    """A JSON Schema (draft 2020-12) validator of one of the records' schemas, :data:`SCHEMA_FILES`.

    ``validator("match.json").validate(json.loads(text))`` raises :class:`jsonschema.ValidationError` for a
    record that breaks the schema.  Each schema file carries the definitions it refers to, so plain
    ``jsonschema.validate(record, schema(name))`` and ``check-jsonschema --schemafile match.json`` work as well.
    Needs jsonschema (``goat-cards[schemas]``); what the schemas cannot say, :func:`loads` checks.
    """
    try:
        import jsonschema
    except ImportError as error:
        raise MissingExtraError("goat.records.validator", "jsonschema", "schemas", error) from None
    found = schema(name)
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    made: Validator = jsonschema.Draft202012Validator(found, format_checker=checker)
    return made


# --- writing -------------------------------------------------------------------------------------


def result_to_json(result: GameResult) -> dict[str, Any]:
    """A result as records (and the bot protocol) write it."""
    if not isinstance(result, GameResult):
        raise TypeError(f"result_to_json() takes a GameResult, not {shown(result)}")
    return {
        "points": list(result.points),
        "tricks": list(result.tricks),
        "defeat": list(result.defeat),
        "balls": result.balls,
        "winner": result.winner,
        "last_trick_winner": result.last_trick_winner,
    }


def _game_json(record: GameRecord, *, top: bool) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if top:
        data.update({"$schema": SCHEMA_URL + "game.json", "format": GAME_FORMAT, "version": FORMAT_VERSION})
    data.update(
        {
            "headers": dict(record.headers),
            "seed": None if record.seed is None else str(record.seed),
            "deck": " ".join([_CARD_TEXT[card.index] for card in record.deck]),
            "trump_card": _CARD_TEXT[record.trump_card.index],
            "dealer": record.dealer,
            "defeat": list(record.defeat),
            "players": None if record.players is None else list(record.players),
            "moves": [notation(move) for move in record.moves],
            "comments": {str(number): text for number, text in record.comments},
            "result": None if record.result is None else result_to_json(record.result),
            "faults": [_fault_json(fault) for fault in record.faults],
            "forfeit": record.forfeit,
        }
    )
    return data


_CARD_TEXT: Final = tuple(str(card) for card in DECK)
_NOTATION: dict[int, str] = {}


def notation(move: Move) -> str:
    """``str(move)``, remembered: records and the bot protocol write the same moves again and again."""
    text = _NOTATION.get(move.key)
    if text is None:
        text = str(move)
        if len(_NOTATION) > 100_000:
            _NOTATION.clear()
        _NOTATION[move.key] = text
    return text


def _fault_json(fault: Fault) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": fault.seat, "move": fault.move, "kind": fault.kind, "reason": fault.reason}
    data["replacement"] = None if fault.replacement is None else str(fault.replacement)
    if fault.stderr is not None:
        data["stderr"] = fault.stderr
    return data


def to_json(record: GameRecord | MatchRecord) -> dict[str, Any]:
    """A record as the JSON object :func:`dumps` writes (version 2)."""
    if isinstance(record, GameRecord):
        return _game_json(record, top=True)
    if isinstance(record, MatchRecord):
        return {
            "$schema": SCHEMA_URL + "match.json",
            "format": MATCH_FORMAT,
            "version": FORMAT_VERSION,
            "headers": dict(record.headers),
            "seed": None if record.seed is None else str(record.seed),
            "players": None if record.players is None else list(record.players),
            "first_dealer": record.match.first_dealer,
            "games": [_game_json(game, top=False) for game in record.games],
            "defeat": list(record.match.defeat),
            "goat": record.match.goat,
            "with_balls": record.match.with_balls,
        }
    raise TypeError(f"to_json() takes a GameRecord or a MatchRecord, not {shown(record, 60)}")


def dumps(record: GameRecord | MatchRecord, *, indent: int | None = None) -> str:
    """The record as JSON text (version 2): one line unless ``indent`` (spaces, 0-16) is given."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 16):
        raise ValueError(f"indent must be None or an int from 0 to 16, not {shown(indent)}")
    return json.dumps(to_json(record), indent=indent, ensure_ascii=False)


# --- reading -------------------------------------------------------------------------------------


def loads(text: str | bytes, *, verify: bool = True) -> GameRecord | MatchRecord:
    """Read a record written by :func:`dumps` (version 2) or by goat-cards before it (version 1).

    With ``verify`` (the default) every game is replayed, so a record whose moves, faults or result do
    not follow the rules, or whose deal is not the one its seed gives, is refused.  Raises
    :class:`~goat.records.RecordError` naming the field or the step.
    """
    return from_json(parse_json(text), verify=verify)


def parse_json(text: str | bytes) -> object:
    """The JSON of a record: UTF-8 (bytes are decoded as nothing else, and a byte order mark is refused, as
    JSON text exchanged between systems has none: RFC 8259), every key of an object once."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"loads() takes JSON text, not {type(text).__name__}")
    size = len(text)
    if isinstance(text, str) and size > MAX_RECORD_BYTES // 4:  # its bytes in UTF-8 may be up to four a character
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"not a game record: {size} bytes, more than the {MAX_RECORD_BYTES} a record may have")
    if not isinstance(text, str):
        try:  # decoded here: json.loads would also take UTF-16 and UTF-32, and drop a byte order mark
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not a game record: not UTF-8 ({error.reason} at byte {error.start})") from None
    if text.startswith("\ufeff"):
        raise RecordError("not a game record: it starts with a byte order mark, which JSON text does not have")
    try:
        return json.loads(text, object_pairs_hook=_object)
    except RecordError:
        raise
    except (ValueError, RecursionError) as error:  # a JSON error, a number too long for int(), too deep nesting
        said = str(error)
        raise RecordError(
            f"not a game record: not valid JSON ({said if len(said) <= 160 else said[:160] + '…'})"
        ) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: readers disagree on which of two equal keys counts."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise RecordError(f"not a game record: the key {shown(twice, 60)} appears twice in one object")
    return found


def from_json(data: object, *, verify: bool = True) -> GameRecord | MatchRecord:
    """A record from its JSON object (as :func:`json.loads` gives it); see :func:`loads`."""
    if type(verify) is not bool:  # "no" or 0 would be read as a wish, the wrong way round for "no"
        raise TypeError(f"verify is True or False, not {shown(verify)}")
    if not isinstance(data, dict):
        raise RecordError(f'not a game record: expected a JSON object with "format": "{GAME_FORMAT}"')
    kind = data.get("format")
    if kind not in (GAME_FORMAT, MATCH_FORMAT):
        raise RecordError(f'not a game record: the JSON has no "format": "{GAME_FORMAT}" (or "{MATCH_FORMAT}")')
    if "version" not in data:
        raise RecordError(
            f'not a game record: a {kind} has a "version" field (1 or {FORMAT_VERSION}), and this has none'
        )
    version = data.get("version")
    if type(version) is not int or version not in (1, FORMAT_VERSION) or (kind == MATCH_FORMAT and version == 1):
        raise RecordError(
            f"unknown {kind} version {shown(version, 40)}; this goat-cards reads versions 1 and {FORMAT_VERSION}"
        )
    reader = _Reader(version)
    if kind == GAME_FORMAT:
        return reader.game(data, "", top=True, verify=verify)
    return reader.match(data, verify=verify)


_COMMON_KEYS: Final = {
    "seed",
    "deck",
    "trump_card",
    "dealer",
    "defeat",
    "players",
    "moves",
    "result",
    "faults",
    "forfeit",
}
_GAME_KEYS: Final = {1: _COMMON_KEYS | {"format", "version"}, 2: _COMMON_KEYS | {"headers", "comments"}}
_TOP_KEYS: Final = {"$schema", "format", "version"}
_MATCH_KEYS: Final = _TOP_KEYS | {"headers", "seed", "players", "first_dealer", "games", "defeat", "goat", "with_balls"}
_FAULT_KEYS: Final = {"seat", "move", "kind", "reason", "replacement", "stderr"}
_RESULT_KEYS: Final = {"points", "tricks", "defeat", "balls", "winner", "last_trick_winner"}


_MOVES: dict[str, Move] = {}
_CARDS: Final = {str(card): card for card in DECK}


class _Reader:
    """Reads the JSON of one version strictly: every field checked, its errors named."""

    def __init__(self, version: int) -> None:
        self.version = version

    # fields

    def keys(self, data: dict[str, Any], allowed: set[str], where: str, *, optional: set[str] = set()) -> None:  # noqa: B006
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise RecordError(f"{where}unknown field {shown(unknown[0], 60)}")
        missing = sorted(allowed - set(data) - optional)
        if missing:
            raise RecordError(f"{where}missing field {missing[0]!r}")

    def field(self, data: dict[str, Any], name: str, kind: type, where: str) -> Any:
        value = data[name]
        if not isinstance(value, kind) or (kind is int and type(value) is bool):
            raise RecordError(f"{where}field {name!r} has the wrong type: {shown(value, 60)}")
        return value

    def number(
        self, data: dict[str, Any], name: str, where: str, low: int, high: int, *, optional: bool = False
    ) -> int | None:
        value = data[name]
        if optional and value is None:
            return None
        if type(value) is not int or not low <= value <= high:
            raise RecordError(f"{where}field {name!r} must be an integer {low}–{high}, not {shown(value, 60)}")
        return int(value)

    def pair(self, data: dict[str, Any], name: str, where: str) -> tuple[int, int]:
        value = data[name]
        if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int or v < 0 for v in value):
            raise RecordError(f"{where}field {name!r} must be two integers 0 or more, not {shown(value, 60)}")
        return (value[0], value[1])

    def seed(self, data: dict[str, Any], where: str) -> int | None:
        value = data["seed"]
        if value is None:
            return None
        if self.version == 1:
            if type(value) is not int:
                raise RecordError(f"{where}field 'seed' must be an integer or null, not {shown(value, 60)}")
            return int(value)
        if not isinstance(value, str) or _SEED_TEXT.fullmatch(value) is None:
            raise RecordError(
                f"{where}field 'seed' must be null or an integer of 1-79 decimal digits as records write it"
                f" (no leading zeros, no -0), not {shown(value, 60)}"
            )
        return int(value)

    def texts(self, data: dict[str, Any], name: str, where: str) -> dict[str, str]:
        value = data[name]
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise RecordError(f"{where}field {name!r} must be an object of texts, not {shown(value, 60)}")
        return value

    def move(self, text: object, where: str) -> Move:
        if not isinstance(text, str):
            raise RecordError(f"{where}: a move is text, not {shown(text, 60)}")
        found = _MOVES.get(text)  # the same moves recur from game to game: read each once
        if found is None:
            if _MOVE_TEXT.fullmatch(text) is None:  # as records write it, and the schema says (game.json)
                raise RecordError(
                    f"{where}: not a move as records write it: {shown(text, 60)} (expected e.g. '1 lead 10H QH', "
                    "one space between words, the kind in lower case, cards such as 10H or QS)"
                )
            try:
                found = Move.from_str(text)
            except (GoatError, ValueError, TypeError) as error:
                raise RecordError(f"{where}: {error}") from None
            if len(text) <= 32:
                if len(_MOVES) > 100_000:
                    _MOVES.clear()
                _MOVES[text] = found
        return found

    # objects

    def result(self, raw: object, where: str) -> GameResult | None:
        if raw is None and self.version == 2:
            return None
        if not isinstance(raw, dict):
            raise RecordError(f"{where}field 'result' must be an object{' or null' if self.version == 2 else ''}")
        inner = f"{where}result: "
        self.keys(raw, _RESULT_KEYS, inner)
        winner = raw["winner"]
        if winner is not None and (type(winner) is not int or winner not in (0, 1)):
            raise RecordError(f"{inner}field 'winner' must be 0, 1 or null, not {shown(winner, 40)}")
        try:
            return GameResult(
                self.pair(raw, "points", inner),
                self.pair(raw, "tricks", inner),
                self.pair(raw, "defeat", inner),
                self.field(raw, "balls", bool, inner),
                winner,
                self.number(raw, "last_trick_winner", inner, 0, 3) or 0,
            )
        except (TypeError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(f"{where}field 'result': {error}") from None

    def fault(self, raw: object, number: int, where: str) -> Fault:
        inner = f"{where}fault {number}: "
        if not isinstance(raw, dict):
            raise RecordError(f"{inner}must be an object, not {shown(raw, 60)}")
        self.keys(raw, _FAULT_KEYS, inner, optional={"stderr", "replacement"} if self.version == 1 else {"stderr"})
        kind = self.field(raw, "kind", str, inner)
        if kind not in FAULT_KINDS:
            raise RecordError(f"{inner}field 'kind' is one of {', '.join(FAULT_KINDS)}, not {shown(kind, 40)}")
        replacement = raw.get("replacement")
        stderr = raw.get("stderr")
        if stderr is not None and not isinstance(stderr, str):
            raise RecordError(f"{inner}field 'stderr' must be text, not {shown(stderr, 40)}")
        return Fault(
            self.number(raw, "seat", inner, 0, 3) or 0,
            self.number(raw, "move", inner, 0, 10_000) or 0,
            kind,
            self.field(raw, "reason", str, inner),
            None if replacement is None else self.move(replacement, f"{inner.rstrip(': ')}: replacement"),
            stderr,
        )

    def schema_url(self, data: dict[str, Any], where: str) -> None:
        if "$schema" in data and not isinstance(data["$schema"], str):
            raise RecordError(f"{where}field '$schema' has the wrong type: {shown(data['$schema'], 60)}")

    def game(self, data: dict[str, Any], where: str, *, top: bool, verify: bool) -> GameRecord:
        allowed = _GAME_KEYS[self.version] | (_TOP_KEYS if top and self.version == 2 else set())
        self.keys(data, allowed, where, optional={"$schema"})
        self.schema_url(data, where)
        try:
            deck = tuple(_card(text) for text in self.field(data, "deck", str, where).split(" "))
            trump_card = _card(self.field(data, "trump_card", str, where))
        except RecordError as error:
            raise RecordError(f"{where}field 'deck' or 'trump_card': {error}") from None
        players = data["players"]
        if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise RecordError(f"{where}field 'players' must be a list of four names or null, not {shown(players, 60)}")
        moves = tuple(self.move(m, f"{where}step {i}") for i, m in enumerate(self.field(data, "moves", list, where), 1))
        faults = tuple(self.fault(item, i, where) for i, item in enumerate(self.field(data, "faults", list, where), 1))
        comments: dict[int, str] = {}
        if self.version == 2:
            for key, text in self.texts(data, "comments", where).items():
                if _COMMENT_KEY.fullmatch(key) is None:  # "01" and "1" would be one comment, one of them lost
                    raise RecordError(
                        f"{where}field 'comments': a comment's key is a move number without leading zeros, "
                        f"not {shown(key, 40)}"
                    )
                comments[int(key)] = text
        seed = self.seed(data, where)
        try:
            record = GameRecord(
                deck=deck,
                trump_card=trump_card,
                dealer=self.number(data, "dealer", where, 0, 3) or 0,
                moves=moves,
                result=self.result(data["result"], where),
                seed=seed,
                defeat=self.pair(data, "defeat", where),
                players=None if players is None else tuple(players),
                faults=faults,
                forfeit=self.number(data, "forfeit", where, 0, 1, optional=True),
                headers=self.texts(data, "headers", where) if self.version == 2 else (),
                comments=comments,
            )
        except RecordError as error:
            raise RecordError(f"{where}{error}") from None
        if verify:
            try:
                replay(record)
            except RecordError as error:
                raise RecordError(f"{where}{error}") from None
            check_seed(record, where)
        return record

    def match(self, data: dict[str, Any], *, verify: bool) -> MatchRecord:
        self.keys(data, _MATCH_KEYS, "", optional={"$schema"})
        self.schema_url(data, "")
        games = [
            self.game(game, f"game {number}: ", top=False, verify=verify)
            if isinstance(game, dict)
            else _not_object(number)
            for number, game in enumerate(self.field(data, "games", list, ""), start=1)
        ]
        players = data["players"]
        if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise RecordError(f"field 'players' must be a list of four names or null, not {shown(players, 60)}")
        record = from_match(
            games,
            seed=self.seed(data, ""),
            players=None if players is None else tuple(players),
            first_dealer=self.number(data, "first_dealer", "", 0, 3) or 0,
            headers=self.texts(data, "headers", ""),
        )
        if self.pair(data, "defeat", "") != record.match.defeat:
            raise RecordError(f"field 'defeat' {data['defeat']} is not the games' sum {list(record.match.defeat)}")
        if data["goat"] != record.match.goat or data["goat"].__class__ not in (int, type(None)):
            raise RecordError(f"field 'goat' {shown(data['goat'], 20)} is not the games' goat {record.match.goat}")
        if self.field(data, "with_balls", bool, "") != record.match.with_balls:
            raise RecordError("field 'with_balls' does not follow from the games")
        return record


def _not_object(number: int) -> GameRecord:
    raise RecordError(f"game {number}: must be an object")


def _card(text: str) -> Card:
    """A card as records write it (``10H``, ``QS``): what :meth:`Card.from_str` reads besides (``th``, ``q♠``)
    is no record's."""
    card = _CARDS.get(text)
    if card is None:
        raise RecordError(f"not a card as records write it: {shown(text, 20)} (expected e.g. '10H', 'QS', 'AC')")
    return card


# What the records' JSON Schemas allow (goat/schemas/records/game.json), read the same way.
_CARD_PATTERN: Final = "(?:6|7|8|9|10|J|Q|K|A)[CDHS]"
_MOVE_TEXT: Final = re.compile(f"[0-3] (?:lead|beat|pass|molodka|wait)(?: {_CARD_PATTERN}){{0,4}}")
_SEED_TEXT: Final = re.compile("0|-?[1-9][0-9]{0,78}")  # as str(seed) writes it: no "-0", no leading zeros
_COMMENT_KEY: Final = re.compile("0|[1-9][0-9]{0,5}")
