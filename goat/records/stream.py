"""Files of many records: JSON Lines, one record per line, written and read one record at a time.

>>> import io, goat
>>> from goat import arena, records
>>> bots = [goat.load_strategy("greedy" if seat % 2 == 0 else "random", seed=seat) for seat in range(4)]
>>> played = arena.play_match(bots, seed=7)
>>> file = io.StringIO()
>>> records.write(file, played.games)
3
>>> _ = file.seek(0)
>>> [record.result.winner for record in records.read(file)]
[0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

from goat.errors import shown
from goat.records.codec import GAME_FORMAT, MATCH_FORMAT, MAX_RECORD_BYTES, dumps, loads, parse_json
from goat.records.values import GameRecord, MatchRecord, RecordError

__all__ = ["read", "read_headers", "write"]


def write(fp: IO[str], records: Iterable[GameRecord | MatchRecord]) -> int:
    """Write each record as one line of JSON to the text file ``fp``; return how many were written.

    Records are written one at a time, as they come: ``records`` may be a generator over a long run.
    """
    _check_file(fp, "write", "write()")
    if isinstance(records, (str, bytes, GameRecord, MatchRecord)) or not isinstance(records, Iterable):
        raise TypeError(f"write() takes an iterable of records, not {shown(records)}")
    count = 0
    for record in records:
        fp.write(dumps(record) + "\n")
        count += 1
    return count


def _check_file(fp: object, method: str, what: str) -> None:
    if isinstance(fp, (str, bytes)) or not callable(getattr(fp, method, None)):
        hint = " (open the file first: with open(path) as fp: ...)" if isinstance(fp, (str, bytes)) else ""
        raise TypeError(f"{what} takes an open file, not {shown(fp)}{hint}")


def _lines(fp: IO[str] | IO[bytes]) -> Iterator[tuple[int, str | bytes]]:
    """The non-blank lines of ``fp`` with their numbers; a line longer than a record may be is refused unread."""
    _check_file(fp, "readline", "reading records")
    number = 0
    while True:
        line = fp.readline(MAX_RECORD_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_RECORD_BYTES:
            raise RecordError(f"line {number}: longer than the {MAX_RECORD_BYTES} bytes a record may have")
        if line.strip():
            yield number, line


def read(fp: IO[str] | IO[bytes], *, verify: bool = True) -> Iterator[GameRecord | MatchRecord]:
    """The records of a JSON Lines file, one at a time (the file is never read whole).

    Raises :class:`~goat.records.RecordError` for a line that is not a record, naming the line; with
    ``verify`` (the default) each game is replayed as it is read, as :func:`~goat.records.loads` does.
    """
    for number, line in _lines(fp):
        try:
            yield loads(line, verify=verify)
        except RecordError as error:
            raise RecordError(f"line {number}: {error}") from None


def read_headers(fp: IO[str] | IO[bytes]) -> Iterator[dict[str, str]]:
    """The headers of each record of a JSON Lines file, without reading the games: to find a game fast.

    Each is the record's ``headers`` (empty for version 1 records); a line that is not JSON, or whose
    headers are not texts, raises :class:`~goat.records.RecordError` naming the line.
    """
    for number, line in _lines(fp):
        try:
            data: Any = parse_json(line)  # as loads reads it: UTF-8, each key once
        except RecordError as error:
            raise RecordError(f"line {number}: {error}") from None
        if not isinstance(data, dict) or data.get("format") not in (GAME_FORMAT, MATCH_FORMAT):
            raise RecordError(f'line {number}: not a game record: no "format": "{GAME_FORMAT}" (or "{MATCH_FORMAT}")')
        headers = data.get("headers", {})
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise RecordError(f"line {number}: not a record with headers")
        yield headers
