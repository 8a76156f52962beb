"""A protocol bot that tries to take over the organiser's terminal: every text it controls carries escape sequences.

    python screen.py MODE

MODE ``hello-error`` answers hello with an error; ``play`` gives a hostile name in hello and plays its first legal
move, but answers its third choose with an error.  Whatever it says (its name, its error messages) and all it writes
to its standard error hold PAYLOAD: clear the screen, go home, print a fake result, turn the line around.
Standard library only.
"""

from __future__ import annotations

import json
import sys

PAYLOAD = "\x1b[2J\x1b[Hgreedy wins\r\b\u202e\x9b31m[bold red]fake[/bold red]"
MODE = sys.argv[1]


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


sys.stderr.write(PAYLOAD + "\n")
sys.stderr.flush()
chosen = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "quit":
        break
    if kind == "hello":
        if MODE == "hello-error":
            send({"type": "error", "message": PAYLOAD})
        else:
            send({"type": "hello", "protocol": 1, "name": PAYLOAD})
    elif kind == "choose":
        chosen += 1
        if chosen == 3:
            sys.stderr.write(PAYLOAD + "\n")
            sys.stderr.flush()
            send({"type": "error", "message": PAYLOAD})
        else:
            send({"type": "move", "move": message["legal"][0]})
    else:
        send({"type": "ok"})
