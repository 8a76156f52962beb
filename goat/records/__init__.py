"""Game and match records: versioned JSON that replays move by move, one record or files of many.

A :class:`GameRecord` holds a game's deal, every move, free-form headers and comments, and how it
ended (result, faults, forfeit) — or nothing yet, for an unfinished game saved to be taken up again.
A :class:`MatchRecord` holds a match's games in order.  :func:`dumps` and :func:`loads` write and read
one record (version 2; version 1 records still load), strictly: anything malformed, inconsistent or
hostile raises :class:`RecordError` naming the field or the step.  :func:`write` and :func:`read`
handle files of many records, JSON Lines, one record at a time.  :func:`replay` rebuilds every state.
The JSON Schemas ship in ``goat/schemas/records/`` (:func:`schema`, :func:`validator`); the documentation's "Game
records" page describes the format.

>>> import random, goat
>>> from goat import records
>>> rng = random.Random(2)
>>> state = goat.new_game(seed=2)
>>> while not state.is_over:
...     state = goat.play(state, rng.choice(goat.legal_moves(state)))
>>> record = records.from_state(state, seed=2, headers={"event": "doctest"})
>>> records.loads(records.dumps(record)) == record
True
>>> records.replay(record)[-1] == state
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goat._lazy import lazy
from goat.records.codec import (
    FORMAT_VERSION,
    GAME_FORMAT,
    MATCH_FORMAT,
    MAX_RECORD_BYTES,
    SCHEMA_FILES,
    SCHEMA_URL,
    dumps,
    from_json,
    loads,
    result_to_json,
    schema,
    to_json,
    validator,
)
from goat.records.values import (
    FAULT_KINDS,
    FORFEIT_DEFEAT,
    Fault,
    GameRecord,
    MatchRecord,
    RecordError,
    forfeit_result,
    from_match,
    from_state,
    replay,
)

if TYPE_CHECKING:
    from goat.records.html import to_html
    from goat.records.stream import read, read_headers, write

__all__ = [
    "FAULT_KINDS",
    "FORFEIT_DEFEAT",
    "FORMAT_VERSION",
    "GAME_FORMAT",
    "MATCH_FORMAT",
    "MAX_RECORD_BYTES",
    "SCHEMA_FILES",
    "SCHEMA_URL",
    "Fault",
    "GameRecord",
    "MatchRecord",
    "RecordError",
    "dumps",
    "forfeit_result",
    "from_json",
    "from_match",
    "from_state",
    "loads",
    "read",
    "read_headers",
    "replay",
    "result_to_json",
    "schema",
    "to_html",
    "to_json",
    "validator",
    "write",
]

# Imported on first use: the bot protocol reads and writes results with the codec, and a sealed bot's process
# should not pay at every start for the pictures and files of records.
__getattr__, __dir__ = lazy(
    __name__,
    {"to_html": "goat.records.html", **dict.fromkeys(("read", "read_headers", "write"), "goat.records.stream")},
    globals(),
    submodules=("codec", "html", "stream", "values"),
)
