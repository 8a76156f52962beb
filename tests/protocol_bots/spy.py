"""A protocol bot that tries, at its hello, to learn or to pass on what it should not, and says what it found.

    python spy.py ATTACK [ARGUMENT]

It answers hello with a name that is the JSON of what the attack found (``{"ok": ..., ...}``), then plays
its first legal move.  The referee's sandbox tests read that name.  Standard library only.
"""

from __future__ import annotations

import json
import os
import select
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

ATTACK = sys.argv[1]
ARGUMENT = sys.argv[2] if len(sys.argv) > 2 else ""
if ARGUMENT.startswith("env:"):  # a path the bot guesses, not one its command line names (which it may read)
    ARGUMENT = os.environ[ARGUMENT[4:]]


def processes() -> dict[str, Any]:
    """What other processes it can see and read: the referee's command line, environment and memory above all."""
    seen, read = [], []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            seen.append(int(entry))
            for name in ("cmdline", "environ", "mem"):
                try:
                    with open(f"/proc/{entry}/{name}", "rb") as file:
                        if file.read(64):
                            read.append(f"{entry}/{name}")
                except OSError:
                    pass
    return {"ok": ARGUMENT and str(ARGUMENT) in seen, "pids": sorted(seen), "read": read}


def others() -> dict[str, Any]:
    """Whether it sees any process but itself and its sandbox's init: the referee, another seat's bot."""
    mine = {os.getpid(), 1}
    seen = [int(entry) for entry in os.listdir("/proc") if entry.isdigit() and int(entry) not in mine]
    return {"ok": bool(seen), "pids": seen[:20]}


def environment() -> dict[str, Any]:
    return {
        "ok": ARGUMENT in os.environ,
        "names": sorted(os.environ),
        "home": os.environ.get("HOME"),
        "cwd": os.getcwd(),
    }


def read_file() -> dict[str, Any]:
    """Read a file of the referee's (a game log), by absolute path."""
    try:
        with open(ARGUMENT, "rb") as file:
            return {"ok": True, "text": file.read(200).decode("utf-8", "replace")}
    except OSError as error:
        return {"ok": False, "error": str(error)}


def write_file() -> dict[str, Any]:
    try:
        with open(ARGUMENT, "a") as file:
            file.write("forged\n")
        return {"ok": True}
    except OSError as error:
        return {"ok": False, "error": str(error)}


# --- partners: the first leaves a message, the second looks for it --------------------------------------


def _retry(attempt: Callable[[], Any]) -> dict[str, Any]:
    error = ""
    for _ in range(20):
        try:
            return {"ok": True, "got": attempt()}
        except OSError as failure:
            error = str(failure)
            time.sleep(0.05)
    return {"ok": False, "error": error}


def unix_listen() -> dict[str, Any]:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("\0goat-partner-" + ARGUMENT)
    server.listen(1)
    globals()["_kept"] = server
    return {"ok": True}


def unix_connect() -> dict[str, Any]:
    def attempt() -> str:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect("\0goat-partner-" + ARGUMENT)
        return "connected"

    return _retry(attempt)


def tcp_listen() -> dict[str, Any]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind(("127.0.0.1", int(ARGUMENT)))
        server.listen(1)
    except OSError as error:
        return {"ok": False, "error": str(error)}
    globals()["_kept"] = server
    return {"ok": True}


def tcp_connect() -> dict[str, Any]:
    def attempt() -> str:
        with socket.create_connection(("127.0.0.1", int(ARGUMENT)), timeout=0.2):
            return "connected"

    return _retry(attempt)


def drop() -> dict[str, Any]:
    """Leave a message in a shared directory (/tmp, /dev/shm)."""
    try:
        with open(ARGUMENT, "w") as file:
            file.write("my hand: AS 10S")
        return {"ok": True}
    except OSError as error:
        return {"ok": False, "error": str(error)}


def pick_up() -> dict[str, Any]:
    def attempt() -> str:
        with open(ARGUMENT) as file:
            return file.read()

    return _retry(attempt)


def lock_hold() -> dict[str, Any]:
    """Hold a lock on a file every bot can read: the message is that it is held (flock, then fcntl)."""
    import fcntl

    held = []
    for how in ("flock", "lockf"):
        try:
            file = open(ARGUMENT)  # noqa: SIM115 - held open for the bot's life
            if how == "flock":
                fcntl.flock(file, fcntl.LOCK_SH)
            else:
                fcntl.lockf(file, fcntl.LOCK_SH)
            held.append(file)
        except OSError as error:
            return {"ok": False, "error": f"{how}: {error}"}
    globals()["_kept"] = held
    return {"ok": True}


def lock_test() -> dict[str, Any]:
    """Whether another process holds a lock on that file: what the partner wanted to say."""
    import fcntl

    try:
        with open(ARGUMENT) as file:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return {"ok": False, "free": True}
    except BlockingIOError:
        return {"ok": True}  # held: the message got through
    except OSError as error:
        return {"ok": False, "error": str(error)}


def watch() -> dict[str, Any]:
    """Watch a file every bot can read (inotify): another bot's open of it would be a message."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init()
    return {"ok": fd >= 0, "errno": ctypes.get_errno()}


def cgroups() -> dict[str, Any]:
    """What the control groups' file system shows: the other bots' groups, their memory and CPU counts."""
    seen = []
    for root, dirs, _ in os.walk("/sys/fs/cgroup"):
        seen += [os.path.join(root, name) for name in dirs if "goat" in name]
    return {"ok": bool(seen), "seen": seen[:10]}


def spin_turn() -> dict[str, Any]:
    """Spinning processes that go on after its answer, and ARGUMENT seconds of its turn spent with them."""
    for _ in range(4):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    time.sleep(float(ARGUMENT))
    return {"ok": True}


# --- resources --------------------------------------------------------------------------------------------


def spin() -> dict[str, Any]:
    """Processes that spin in sessions of their own, to take the CPU from the other seats."""
    for _ in range(int(ARGUMENT or 6)):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    return {"ok": True}


def memory() -> dict[str, Any]:
    """Four processes that each hold ARGUMENT MiB: the bot's bound is for all of them together.

    Each child says when its block is filled; the attack waits until every child has said so or died (a fixed
    wait would count a child still filling on a loaded machine as one that fits)."""
    held = []
    ready, told = os.pipe()
    for _ in range(4):
        child = os.fork()
        if child == 0:
            os.close(ready)
            block = bytearray(int(ARGUMENT) << 20)
            for at in range(0, len(block), 4096):
                block[at] = 1
            os.write(told, b"1")
            time.sleep(3600)
        held.append(child)
    os.close(told)
    filled, dead = 0, set()
    deadline = time.monotonic() + 8.0
    while filled + len(dead) < 4 and time.monotonic() < deadline:
        if select.select([ready], [], [], 0.05)[0]:
            filled += len(os.read(ready, 4))
        for child in held:
            if child not in dead and os.waitpid(child, os.WNOHANG)[0] == child:
                dead.add(child)
    return {"ok": filled == 4, "filled": filled, "killed": len(dead)}


def hog() -> dict[str, Any]:
    """Hold ARGUMENT MiB in this one process."""
    block = bytearray(int(ARGUMENT) << 20)
    for at in range(0, len(block), 4096):
        block[at] = 1
    globals()["_kept"] = block
    return {"ok": True}


def fork_bomb() -> dict[str, Any]:
    made = 0
    for _ in range(int(ARGUMENT or 1000)):
        try:
            child = os.fork()
        except OSError:
            break
        if child == 0:
            time.sleep(3600)
        made += 1
    return {"ok": made >= int(ARGUMENT or 1000), "made": made}


def burn() -> dict[str, Any]:
    """Three processes that burn CPU for ARGUMENT seconds of wall time, then the answer."""
    children = []
    for _ in range(3):
        child = os.fork()
        if child == 0:
            end = time.monotonic() + float(ARGUMENT)
            while time.monotonic() < end:
                pass
            os._exit(0)
        children.append(child)
    for child in children:
        os.waitpid(child, 0)
    return {"ok": True}


ATTACKS: dict[str, Callable[[], dict[str, Any]]] = {
    "processes": processes,
    "lock-hold": lock_hold,
    "lock-test": lock_test,
    "watch": watch,
    "cgroups": cgroups,
    "spin-turn": spin_turn,
    "others": others,
    "environment": environment,
    "read-file": read_file,
    "write-file": write_file,
    "unix-listen": unix_listen,
    "unix-connect": unix_connect,
    "tcp-listen": tcp_listen,
    "tcp-connect": tcp_connect,
    "drop": drop,
    "pick-up": pick_up,
    "spin": spin,
    "memory": memory,
    "fork-bomb": fork_bomb,
    "hog": hog,
    "burn": burn,
}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            try:
                found = ATTACKS[ATTACK]()
            except Exception as error:  # the attack's own failure is a finding too
                found = {"ok": False, "error": repr(error)}
            found["seed"] = message.get("seed")
            if "--crash-if-found" in sys.argv and found["ok"]:  # in a tournament, a fault tells the test
                sys.stderr.write(f"found: {found}\n")
                sys.exit(3)
            reply: dict[str, Any] = {"type": "hello", "protocol": 1, "name": json.dumps(found)}
        elif kind == "choose":
            reply = {"type": "move", "move": message["legal"][0]}
        elif kind == "quit":
            return
        else:
            reply = {"type": "ok"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
