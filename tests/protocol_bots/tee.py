"""``goat bot SPEC`` with a transcript: serves SPEC and appends every line both ways to LOG, marked > (from the
referee) and < (to the referee).  The documentation's example exchange is such a transcript.

    python tee.py LOG SPEC
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import IO

import goat
from goat.arena import protocol

log_path, spec = sys.argv[1], sys.argv[2]


class In:
    def __init__(self, source: IO[bytes], log: IO[bytes]) -> None:
        self.source, self.log = source, log

    def __iter__(self) -> Iterator[bytes]:
        for line in self.source:
            self.log.write(b"> " + line)
            self.log.flush()
            yield line


class Out:
    def __init__(self, sink: IO[bytes], log: IO[bytes]) -> None:
        self.sink, self.log = sink, log

    def write(self, data: bytes) -> int:
        self.log.write(b"< " + data)
        self.log.flush()
        return self.sink.write(data)

    def flush(self) -> None:
        self.sink.flush()


with open(log_path, "ab") as log:
    status = protocol.serve(
        lambda seed: goat.load_strategy(spec, seed=seed),
        name=spec,
        stdin=In(sys.stdin.buffer, log),  # type: ignore[arg-type]
        stdout=Out(sys.stdout.buffer, log),  # type: ignore[arg-type]
    )
raise SystemExit(status)
