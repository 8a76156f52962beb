"""A protocol bot that plays its first legal move until it turns hostile: the referee's test adversary.

    python hostile.py MODE [AFTER] [MARKER]

plays correctly for AFTER choose requests (default 0), then does MODE at the next one (or, for the
modes named hook-*, hello-* and quit-*, at that point).  MARKER is an extra word that the test finds in
the process list, to check that no process of this bot outlives the match.  Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

MODE = sys.argv[1]
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 0
MARKER = sys.argv[3] if len(sys.argv) > 3 else ""
out = sys.stdout.buffer


def send(message: object) -> None:
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def forever() -> None:
    while True:
        time.sleep(3600)


def parent(pid: int | str) -> int:
    """The parent of ``pid`` as /proc shows it (in a PID namespace, /proc shows the host's numbers)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(") ", 1)[1].split()[1])
    except (OSError, ValueError):
        return 0


def try_kill(pid: int, signum: int) -> None:
    """Signal ``pid`` by its number and, where the system has them, by a pidfd of its /proc entry."""
    if pid <= 1:
        return
    with contextlib.suppress(OSError):
        os.kill(pid, signum)
    if pid and hasattr(signal, "pidfd_send_signal"):
        try:
            fd = os.open(f"/proc/{pid}", os.O_RDONLY)
            try:
                signal.pidfd_send_signal(fd, signum)
            finally:
                os.close(fd)
        except OSError:
            pass


def turn_hostile(message: dict) -> None:
    legal = message["legal"]
    if MODE == "crash":
        sys.stderr.write("about to crash: something went wrong\n")
        sys.stderr.flush()
        os._exit(3)
    if MODE == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    if MODE == "hang":
        forever()
    if MODE == "garbage":
        out.write(b"hello, referee! my move is the ace\n")
        out.flush()
        return
    if MODE == "flood":
        out.write(b"x" * (3 << 20))  # no line end at all
        out.flush()
        forever()
    if MODE == "long-line":
        out.write(json.dumps({"type": "move", "move": legal[0], "pad": "x" * (2 << 20)}).encode() + b"\n")
        out.flush()
        return
    if MODE == "twice":  # two replies in one write: the referee reads them together
        line = json.dumps({"type": "move", "move": legal[0]}).encode() + b"\n"
        out.write(line + line)
        out.flush()
        return
    if MODE == "twice-apart":  # a second reply later, when the referee has asked its next question
        send({"type": "move", "move": legal[0]})
        time.sleep(0.05)
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "wrong-type":
        send({"type": "ok"})
        return
    if MODE == "illegal":
        seat = message["view"]["seat"]
        send({"type": "move", "move": f"{seat} lead AS AH AD AC"})
        return
    if MODE == "unparseable":
        send({"type": "move", "move": "my best move"})
        return
    if MODE == "not-text":
        send({"type": "move", "move": 42})
        return
    if MODE == "error":
        send({"type": "error", "message": "cannot decide"})
        return
    if MODE == "bad-utf8":
        out.write(b'{"type": "move", "move": "\xff\xfe"}\n')
        out.flush()
        return
    if MODE == "not-object":
        send([1, 2, 3])
        return
    if MODE == "close-stdout":
        out.close()
        os.close(1)
        forever()
    if MODE == "fork-and-hang":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", MARKER])
        forever()
    if MODE == "stderr-spam":
        for _ in range(2000):  # 10 MB: more than any pipe holds, so a referee that does not read it would hang
            sys.stderr.write("noise " * 850 + "\n")
        sys.stderr.write("the last words\n")
        sys.stderr.flush()
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "exit-after-reply":
        send({"type": "move", "move": legal[0]})
        os._exit(3)
    if MODE == "setpgid-helper":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", MARKER], process_group=0)
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "sigint-referee":
        supervisor = parent("self")  # our parent is the supervisor; its parent, the referee
        for target in (parent(supervisor), supervisor, os.getppid()):
            try_kill(target, signal.SIGINT)
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "peek":  # what the bot can see of other processes: written to the file MARKER names
        referee = os.environ.get("GOAT_TEST_REFEREE", "0")
        found: dict[str, object] = {}
        if sys.platform.startswith("linux"):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            found["umount"] = libc.umount2(b"/proc", 2)  # MNT_DETACH: to uncover the host's /proc beneath
            opened = []
            try:
                for fd in os.listdir("/proc/1/fd"):  # the init's status pipe among them
                    try:
                        os.close(os.open(f"/proc/1/fd/{fd}", os.O_WRONLY))
                        opened.append(fd)
                    except OSError:
                        pass
            except OSError:
                pass
            found["init_fds_opened"] = opened
        found["pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        for what in ("cmdline", "environ", "mem"):
            try:
                with open(f"/proc/{referee}/{what}", "rb") as seen:
                    found[what] = len(seen.read(64))
            except OSError as error:
                found[what] = error.strerror
        with open(MARKER, "w") as report:
            json.dump(found, report)
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "kill-supervisor":
        # A helper leaves the bot's session, kills the supervisor (which would have cleaned up after it), sends
        # the referee a SIGINT as if it were the operator's Ctrl-C, and lives on.
        supervisor = parent("self")
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                try_kill(parent(supervisor), signal.SIGINT)
                for target in (supervisor, os.getppid()):
                    try_kill(target, signal.SIGKILL)
                time.sleep(3600)
            os._exit(0)
        os.wait()
        send({"type": "move", "move": legal[0]})
        return
    if MODE == "surrogate-error":
        out.write(b'{"type": "error", "message": "\\ud800 cannot decide"}\n')
        out.flush()
        return
    if MODE == "padded":
        send({"type": "move", "move": legal[0] + " " * 100_000})
        return
    if MODE == "slow":
        time.sleep(1.5)
        send({"type": "move", "move": legal[0]})
        return
    raise SystemExit(f"unknown mode {MODE}")


def main() -> None:
    chosen = 0
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message["type"]
        if kind == "quit":
            if MODE == "ignore-quit":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                forever()
            return
        if kind == "hello":
            if MODE == "hello-hang":
                forever()
            if MODE == "hello-old":
                send({"type": "hello", "protocol": 0, "name": "old"})
                continue
            if MODE == "hello-true":
                send({"type": "hello", "protocol": True, "name": "boolean"})
                continue
            send({"type": "hello", "protocol": 1, "name": f"hostile {MODE}"})
        elif kind == "start_game":
            if MODE == "hook-start-hang":
                forever()
            send({"type": "ok"})
        elif kind == "end_game":
            if MODE == "hook-end-hang":
                forever()
            send({"type": "ok"})
            if MODE == "hook-end-exit":  # leaves between games, uninvited: after the next game's start is sent
                time.sleep(0.05)
                os._exit(0)
        elif kind == "choose":
            chosen += 1
            if chosen > AFTER and not MODE.startswith(("hook-", "hello-", "ignore-")):
                turn_hostile(message)
            else:
                send({"type": "move", "move": message["legal"][0]})


main()
