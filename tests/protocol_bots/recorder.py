"""A protocol bot that plays its first legal move and appends every line it receives to the file named by argv[1]."""

from __future__ import annotations

import json
import sys

with open(sys.argv[1], "ab") as log:
    for line in sys.stdin.buffer:
        log.write(line)
        log.flush()
        message = json.loads(line)
        kind = message["type"]
        if kind == "quit":
            break
        if kind == "hello":
            reply: dict[str, object] = {"type": "hello", "protocol": 1, "name": "recorder"}
        elif kind == "choose":
            reply = {"type": "move", "move": message["legal"][0]}
        else:
            reply = {"type": "ok"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
