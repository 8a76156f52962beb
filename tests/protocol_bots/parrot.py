"""A protocol bot that answers one kind of request with a line it is given, word for word, and the rest correctly.

    python parrot.py REQUEST LINE

answers every REQUEST (hello, start_game, choose or end_game) with LINE, and other requests as a well-behaved
bot does (its first legal move to choose).  The schema tests ask the referee what it makes of each LINE.
Standard library only.
"""

from __future__ import annotations

import json
import sys

REQUEST, LINE = sys.argv[1], sys.argv[2]
for text in sys.stdin:
    message = json.loads(text)
    kind = message["type"]
    if kind == "quit":
        break
    if kind == REQUEST:
        reply = LINE
    elif kind == "hello":
        reply = json.dumps({"type": "hello", "protocol": 1, "name": "parrot"})
    elif kind == "choose":
        reply = json.dumps({"type": "move", "move": message["legal"][0]})
    else:
        reply = json.dumps({"type": "ok"})
    sys.stdout.write(reply + "\n")
    sys.stdout.flush()
