"""Game records: everything needed to replay a game, as versioned JSON.

A :class:`GameRecord` holds the deal (seed, deck order, trump card, dealer,
the match's defeat-scores before the game), every move in order, the result
and any faults the arena recorded.  :func:`dumps` and :func:`loads` write and
read it; :func:`replay` rebuilds every state and checks the recorded result.

The JSON schema, version 1 (one object)::

    {
      "format": "goat-game-record",
      "version": 1,
      "seed": 12345 | null,              # the seed the deal came from, if any
      "deck": "6C 7C ...",               # 36 cards, top first (R7)
      "trump_card": "9S",                # R8
      "dealer": 0,                       # R7, R9
      "defeat": [0, 2],                  # the match's defeat-scores before this game (R21)
      "players": ["greedy", ...] | null, # names by seat
      "moves": ["3 wait", "0 lead 10C", ...],   # Move notation, in order (R10–R14)
      "result": {"points": [.., ..], "tricks": [.., ..], "defeat": [.., ..],
                 "balls": false, "winner": 1 | null, "last_trick_winner": 2},
      "faults": [{"seat": 1, "move": 7, "kind": "illegal", "reason": "...", "replacement": "1 pass 6C" | null}],
      "forfeit": null | 0 | 1            # the team that forfeited the game (the arena's on_fault="forfeit")
    }

Reading a malformed or tampered record raises :class:`RecordError` (a
:class:`ValueError`) that names the field or the step.

>>> import random, goat
>>> from goat import records
>>> rng = random.Random(2)
>>> state = goat.new_game(seed=2)
>>> while not state.is_over:
...     state = goat.play(state, rng.choice(goat.legal_moves(state)))
>>> record = records.from_state(state, seed=2)
>>> records.loads(records.dumps(record)) == record
True
>>> records.replay(record)[-1] == state
True
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from goat.cards import Card, cards
from goat.errors import GoatError, InvalidCardError, InvalidMoveError
from goat.moves import Move
from goat.rules import new_game, play
from goat.scoring import GameResult, score
from goat.state import GameState

__all__ = [
    "FAULT_KINDS",
    "FORMAT_VERSION",
    "Fault",
    "GameRecord",
    "RecordError",
    "dumps",
    "from_state",
    "loads",
    "replay",
    "result_to_json",
]

FORMAT = "goat-game-record"
#: The version :func:`dumps` writes and :func:`loads` reads.
FORMAT_VERSION = 1
#: The defeat-scores a forfeiting team gains (as for a game without a trick, R19).
FORFEIT_DEFEAT = 6


#: What a fault can be: an in-process bot raised (``exception``), answered a move that is not legal or
#: not a move (``illegal``), overran its budget (``timeout``) or changed objects or settings it was given, which
#: the referee put back (``tamper``); a sealed bot also replied ``error``,
#: broke the protocol (``protocol``), died (``crash``) or flooded its output (``flood``); ``disabled``
#: is a seat not asked again after an earlier fault.
FAULT_KINDS = ("exception", "illegal", "timeout", "tamper", "error", "protocol", "crash", "flood", "disabled")


class RecordError(GoatError, ValueError):
    """A record that cannot be read or does not replay; the message names the field or step."""


@attrs.frozen
class Fault:
    """A bot's failure at one decision, as the arena recorded it."""

    seat: int
    move: int  #: 1-based number of the decision in the game (0: before the first, in ``start_game``)
    kind: str  #: one of :data:`FAULT_KINDS`
    reason: str
    replacement: Move | None = None  #: the move played instead (``on_fault="random"``), or ``None``
    stderr: str | None = None  #: the tail of a sealed bot's standard error, if it wrote any


@attrs.frozen
class GameRecord:
    """One game, replayable: the deal, every move, the result and the faults."""

    deck: tuple[Card, ...]
    trump_card: Card
    dealer: int
    moves: tuple[Move, ...]
    result: GameResult
    seed: int | None = None
    defeat: tuple[int, int] = (0, 0)
    players: tuple[str, ...] | None = None
    faults: tuple[Fault, ...] = ()
    forfeit: int | None = None  #: the team that forfeited, or ``None``
    version: int = FORMAT_VERSION

    def start(self) -> GameState:
        """The dealt state this record starts from."""
        return new_game(deck=self.deck, trump_card=self.trump_card, dealer=self.dealer, defeat=self.defeat)


def from_state(
    state: GameState,
    *,
    seed: int | None = None,
    players: tuple[str, ...] | None = None,
    faults: tuple[Fault, ...] = (),
    forfeit_by: int | None = None,
) -> GameRecord:
    """The record of a finished game, or of one that seat ``forfeit_by``'s team forfeits at ``state``."""
    if state.__class__ is not GameState:
        raise TypeError(f"from_state() takes a GameState, not {state!r}")
    return GameRecord(
        deck=state.deck,
        trump_card=state.trump_card,
        dealer=state.dealer,
        moves=state.history,
        result=score(state) if forfeit_by is None else forfeit_result(state, forfeit_by),
        seed=seed,
        defeat=state.defeat,
        players=players,
        faults=faults,
        forfeit=None if forfeit_by is None else forfeit_by % 2,
    )


def forfeit_result(state: GameState, seat: int) -> GameResult:
    """The result of a game that ``seat``'s team forfeits: it loses 120 : 0 with 6 defeat-scores.

    Tricks count as taken so far; the seat after the faulty one counts as the
    last trick's winner, so an opponent leads the next game (R22).
    """
    team = seat % 2
    tricks = [0, 0]
    for trick in state.tricks:
        tricks[trick.winner % 2] += 1
    points = (0, 120) if team == 0 else (120, 0)
    defeat = (FORFEIT_DEFEAT, 0) if team == 0 else (0, FORFEIT_DEFEAT)
    return GameResult(points, (tricks[0], tricks[1]), defeat, False, 1 - team, (seat + 1) % 4)


def replay(record: GameRecord) -> tuple[GameState, ...]:
    """Every state of the game, from the deal to the last move; checks the recorded result.

    Raises :class:`RecordError` naming the step whose move is not legal, or
    saying how the recorded result differs from the replayed one.
    """
    _check_record(record, "replay()")
    try:
        state = record.start()
    except ValueError as error:
        raise RecordError(f"the record's deal is not valid: {error}") from None
    states = [state]
    for step, move in enumerate(record.moves, start=1):
        try:
            state = play(state, move)
        except ValueError as error:
            raise RecordError(f"step {step}: {error}") from None
        states.append(state)
    if record.forfeit is not None:
        faulty = [f.seat for f in record.faults if f.replacement is None and f.seat % 2 == record.forfeit]
        if not faulty:
            raise RecordError(f"team {record.forfeit} forfeited, but no fault of theirs is recorded")
        if record.result != forfeit_result(state, faulty[0]):  # the first fault is the one that forfeited
            raise RecordError(f"the recorded result {record.result} is not that of team {record.forfeit}'s forfeit")
        return tuple(states)
    if not state.is_over:
        raise RecordError(f"the game is not over after its {len(record.moves)} moves, and nobody forfeited")
    replayed = score(state)
    if replayed != record.result:
        raise RecordError(f"the recorded result {record.result} differs from the replayed one {replayed}")
    return tuple(states)


def _check_record(record: object, what: str) -> None:
    if not isinstance(record, GameRecord):
        raise TypeError(f"{what} takes a GameRecord, not {record!r}")


# --- JSON ------------------------------------------------------------------------


def result_to_json(result: GameResult) -> dict[str, Any]:
    """A result as the JSON object records (and the bot protocol) write."""
    return {
        "points": list(result.points),
        "tricks": list(result.tricks),
        "defeat": list(result.defeat),
        "balls": result.balls,
        "winner": result.winner,
        "last_trick_winner": result.last_trick_winner,
    }


def dumps(record: GameRecord, *, indent: int | None = None) -> str:
    """The record as JSON text (schema version 1, see the module documentation)."""
    _check_record(record, "dumps()")
    data = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "seed": record.seed,
        "deck": " ".join(map(str, record.deck)),
        "trump_card": str(record.trump_card),
        "dealer": record.dealer,
        "defeat": list(record.defeat),
        "players": None if record.players is None else list(record.players),
        "moves": [str(m) for m in record.moves],
        "result": result_to_json(record.result),
        "faults": [
            {
                "seat": f.seat,
                "move": f.move,
                "kind": f.kind,
                "reason": f.reason,
                "replacement": None if f.replacement is None else str(f.replacement),
                **({} if f.stderr is None else {"stderr": f.stderr}),
            }
            for f in record.faults
        ],
        "forfeit": record.forfeit,
    }
    return json.dumps(data, indent=indent, ensure_ascii=False)


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if name not in data:
        raise RecordError(f"{where}missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}field {name!r} has the wrong type: {value!r}")
    return value


def _pair(data: dict[str, Any], name: str, where: str = "") -> tuple[int, int]:
    value = _field(data, name, list, where)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RecordError(f"{where}field {name!r} must be two integers, not {value!r}")
    return (value[0], value[1])


def _optional_int(data: dict[str, Any], name: str, where: str = "") -> int | None:
    value = data.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(f"{where}field {name!r} must be an integer or null, not {value!r}")
    return value


def _optional_text(data: dict[str, Any], name: str, where: str = "") -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise RecordError(f"{where}field {name!r} must be text or absent, not {value!r}")
    return value


def _move(text: object, where: str) -> Move:
    if not isinstance(text, str):
        raise RecordError(f"{where}: a move is text, not {text!r}")
    try:
        return Move.from_str(text)
    except (InvalidMoveError, ValueError) as error:
        raise RecordError(f"{where}: {error}") from None


def loads(text: str | bytes, *, verify: bool = True) -> GameRecord:
    """Read a record written by :func:`dumps`.

    With ``verify`` (the default) the game is replayed, so a tampered record
    (an illegal move, a result that does not follow) is refused.  Raises
    :class:`RecordError` naming the field or step that is wrong.
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"not a game record: not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a game record: the JSON has no "format": "{FORMAT}"')
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise RecordError(f"unknown game record version {version!r}; this goat-cards reads version {FORMAT_VERSION}")
    try:
        deck = cards(_field(data, "deck", str))
        trump_card = Card.from_str(_field(data, "trump_card", str))
    except InvalidCardError as error:
        raise RecordError(f"field 'deck' or 'trump_card': {error}") from None
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
        raise RecordError(f"field 'players' must be a list of names or null, not {players!r}")
    raw_moves = _field(data, "moves", list)
    moves = tuple(_move(m, f"step {i}") for i, m in enumerate(raw_moves, start=1))
    raw = _field(data, "result", dict)
    winner = _optional_int(raw, "winner", "result: ")
    try:
        result = GameResult(
            _pair(raw, "points", "result: "),
            _pair(raw, "tricks", "result: "),
            _pair(raw, "defeat", "result: "),
            _field(raw, "balls", bool, "result: "),
            winner,
            _field(raw, "last_trick_winner", int, "result: "),
        )
    except (TypeError, ValueError) as error:
        raise RecordError(f"field 'result': {error}") from None
    faults = []
    for i, item in enumerate(_field(data, "faults", list), start=1):
        where = f"fault {i}: "
        if not isinstance(item, dict):
            raise RecordError(f"{where}must be an object, not {item!r}")
        replacement = item.get("replacement")
        faults.append(
            Fault(
                _field(item, "seat", int, where),
                _field(item, "move", int, where),
                _field(item, "kind", str, where),
                _field(item, "reason", str, where),
                None if replacement is None else _move(replacement, f"fault {i}"),
                _optional_text(item, "stderr", where),
            )
        )
    record = GameRecord(
        deck=deck,
        trump_card=trump_card,
        dealer=_field(data, "dealer", int),
        moves=moves,
        result=result,
        seed=_optional_int(data, "seed"),
        defeat=_pair(data, "defeat"),
        players=None if players is None else tuple(players),
        faults=tuple(faults),
        forfeit=_optional_int(data, "forfeit"),
    )
    if verify:
        replay(record)
    return record
