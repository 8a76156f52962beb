"""Overhead of sealed play: a decision round trip to a bot in a child process against the same bot in-process.

    python benchmarks/sealed.py [--games N] [--runs R] [--command 'node examples/bots/js_bot.js'] [--sandbox MODE]

Plays N games (default 200) of the ``random`` bot in all four seats twice, side by side in one process:
in-process, and sealed (each seat a child process speaking the bot protocol, served by this interpreter).
The bot's own work is the same both ways, so the difference per decision is what sealing costs: the view
encoded as JSON, the pipe both ways, the view read back in the child, the reply checked.  Reports medians
of 5 runs, per decision, and the per-match cost of starting four processes.  ``--sandbox`` confines the sealed
bots as ``ProcessStrategy(sandbox=...)`` does (default ``auto``: bubblewrap and a cgroup each, where the machine
has them); the last line times one bot's start and greeting under each mode, side by side.

It also measures this machine's floor: the round trip of one line to a child process that does nothing but
answer it (Python, ``os.read``/``os.write``), with the two placed where the scheduler puts them, and, on Linux,
both pinned to one CPU.  On a virtual machine, waking a process on another CPU can cost tens of microseconds
each way, more than all the work of a message; the floor says how much of the round trip is that.

Where the kernel reports it (Linux's ``/proc/PID/schedstat``), it also splits a message's cost into CPU time
(this process's and the bots', over the in-process run's) and the time the bots spent runnable but waiting
for a core: what is neither is the operating system waking processes and moving data between them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import goat
from goat.arena.game import InProcessSeat, SealedSeat, Seat, close, launch
from goat.arena.game import play_seats as play
from goat.arena.sandbox import Sandbox
from goat.arena.sealed import ProcessStrategy, bot_command, import_path_env, split_command

# Each game also sends every seat a start_game and an end_game: 8 round trips besides the decisions.
HOOKS_PER_GAME = 8


#: The sealed bots' command: goat's own ``random`` served over the protocol (the same bot as in-process), or with
#: ``--command`` any protocol bot, e.g. examples/bots/js_bot.js, to see what the referee's side and the pipes cost
#: with a bot whose own reading of a message is cheaper than a Python interpreter's.
COMMAND: list[str] = []
SANDBOX: list[Sandbox] = ["auto"]


def sealed(seat: int, sandbox: Sandbox | None = None) -> ProcessStrategy:
    command = COMMAND or bot_command("random")
    return ProcessStrategy(command, seed=seat, env=import_path_env(), sandbox=sandbox or SANDBOX[0])


def schedstat(pid: int | None) -> tuple[float, float]:
    """Seconds a sealed bot has run on a core, and has waited runnable for one (0, 0 where not reported).

    ``pid`` is the process the referee started (bubblewrap, which waits for the bot): the bot is its child, or,
    in a PID namespace of its own, the child of the namespace's small init.  Each of them has one child: the bot
    is the last of the line."""
    try:
        bot = pid
        while children := Path(f"/proc/{bot}/task/{bot}/children").read_text().split():
            (bot,) = map(int, children)
        if bot == pid:
            return 0.0, 0.0
        ran, waited, _ = Path(f"/proc/{bot}/schedstat").read_text().split()
    except (OSError, ValueError):
        return 0.0, 0.0
    return int(ran) / 1e9, int(waited) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--command", help="the sealed bots' command (default: goat's random, served by goat)")
    parser.add_argument("--sandbox", choices=("auto", "none"), default="auto", help="how the sealed bots are confined")
    args = parser.parse_args()
    SANDBOX[0] = args.sandbox
    if args.command:
        COMMAND[:] = split_command(args.command)
    inside, outside, starts, stops, per_message, cpu, waits = [], [], [], [], [], [], []
    for run_number in range(args.runs):
        seed = 1000 * run_number
        in_process: list[Seat] = [InProcessSeat(goat.load_strategy("random", seed=s), None) for s in range(4)]
        cpu_before = time.process_time()
        seconds, decisions = games_of(in_process, args.games, seed)
        in_process_cpu = time.process_time() - cpu_before
        inside.append(seconds / decisions)
        bots = [sealed(s) for s in range(4)]
        seats: list[Seat] = [SealedSeat(bot, None) for bot in bots]
        started = time.perf_counter()
        launch(seats)  # as a match starts its bots: side by side, then each greeted
        for seat, bot in enumerate(bots):
            bot.hello(seat)
        starts.append(time.perf_counter() - started)
        # a match keeps its bots' processes from game to game: so do these games
        before = [schedstat(bot.process.pid) for bot in bots]
        cpu_before = time.process_time()
        sealed_seconds, decisions = games_of(seats, args.games, seed)
        referee_cpu = time.process_time() - cpu_before
        after = [schedstat(bot.process.pid) for bot in bots]
        messages = decisions + HOOKS_PER_GAME * args.games
        bots_cpu = sum(a[0] - b[0] for a, b in zip(after, before, strict=True))
        cpu.append((referee_cpu - in_process_cpu, bots_cpu, messages))
        waits.append(sum(a[1] - b[1] for a, b in zip(after, before, strict=True)) / messages)
        started = time.perf_counter()
        close(seats)  # as a match ends: all told to quit, then waited for
        stops.append(time.perf_counter() - started)
        outside.append(sealed_seconds / decisions)
        per_message.append((sealed_seconds - inside[-1] * decisions) / messages)
    alone = [one_bot(seed) for seed in range(args.runs)]
    a, b = statistics.median(inside), statistics.median(outside)
    print(
        f"python {sys.version.split()[0]}, goat {goat.__version__}, {args.games} games x {args.runs} runs,"
        f" sealed bots: {args.command or 'random (served by goat)'}; sandbox {args.sandbox}:"
        f" {sealed(0).report.summary}"
    )
    print(f"in-process      {a * 1e6:8.1f} us per decision")
    print(f"sealed          {b * 1e6:8.1f} us per decision")
    print(f"overhead        {(b - a) * 1e6:8.1f} us per decision, hooks included ({b / a:.1f}x)")
    print(f"round trip      {statistics.median(per_message) * 1e6:8.1f} us per message answered (decisions and hooks)")

    if any(bots_cpu for _, bots_cpu, _ in cpu):
        referee = statistics.median(extra / messages for extra, _, messages in cpu)
        child = statistics.median(bots_cpu / messages for _, bots_cpu, messages in cpu)
        print(
            f"  of which CPU  {(referee + child) * 1e6:8.1f} us per message (referee {referee * 1e6:.1f} over"
            f" in-process, bot {child * 1e6:.1f}); bots waiting for a core {statistics.median(waits) * 1e6:.1f}"
        )
    print(f"one bot alone   {statistics.median(alone) * 1e6:8.1f} us per choose (one game's positions, in a loop)")
    floors = [pipe_floor(pinned=False) for _ in range(args.runs)]
    print(f"pipe floor      {statistics.median(floors) * 1e6:8.1f} us per line answered by a child that only echoes")
    if hasattr(os, "sched_setaffinity"):
        pinned = [pipe_floor(pinned=True) for _ in range(args.runs)]
        print(f"  on one CPU    {statistics.median(pinned) * 1e6:8.1f} us (the child and this process on one CPU)")
    print(f"start 4 bots    {statistics.median(starts) * 1e3:8.1f} ms per match (processes started and greeted)")
    print(f"stop 4 bots     {statistics.median(stops) * 1e3:8.1f} ms per match (quit, exit, reaped)")
    started_as: dict[str, list[float]] = {"auto": [], "none": []}
    for _ in range(args.runs * 4):
        for mode in started_as:
            with sealed(0, mode) as bot:  # type: ignore[arg-type]
                began = time.perf_counter()
                bot.hello(0)
                started_as[mode].append(time.perf_counter() - began)
    auto, none = (statistics.median(started_as[mode]) for mode in ("auto", "none"))
    print(
        f"start 1 bot     {auto * 1e3:8.1f} ms sandboxed (auto), {none * 1e3:.1f} ms with sandbox='none'"
        f" (+{(auto - none) * 1e3:.1f})"
    )


def one_bot(seed: int) -> float:
    """Seconds per ``choose`` round trip with one sealed bot asked about one game's positions 20 times over: the
    cost without other processes taking turns on the cores (the bot's own work, a random choice, included)."""
    rng = random.Random(seed)
    state = goat.new_game(seed=seed)
    asked = []
    while not state.is_over:
        legal = goat.legal_moves(state)
        asked.append((goat.view(state, state.to_move), legal))
        state = goat.play(state, rng.choice(legal))
    with sealed(0) as bot:
        bot.start_game(asked[0][0])
        started = time.perf_counter()
        for _ in range(20):
            for seen, legal in asked:
                bot.choose(seen, legal)
        return (time.perf_counter() - started) / (20 * len(asked))


#: The echoing child of :func:`pipe_floor`: one fixed reply line per line read (a message fits one read).
ECHO = """
import os
while (line := os.read(0, 65536)):
    os.write(1, b'{"type":"ok"}\\n')
"""


def pipe_floor(*, pinned: bool, lines: int = 5000) -> float:
    """Seconds per round trip of a view-sized line to a child process that only answers it."""
    line = b'{"type":"choose","view":' + b"0" * 780 + b"}\n"
    cpus = os.sched_getaffinity(0) if pinned else None
    child = subprocess.Popen([sys.executable, "-S", "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    into, out = child.stdin.fileno(), child.stdout.fileno()
    try:
        if cpus is not None:
            one = {min(cpus)}
            os.sched_setaffinity(0, one)
            os.sched_setaffinity(child.pid, one)
        for _ in range(200):  # the child's interpreter started, its caches warm
            os.write(into, line)
            os.read(out, 100)
        started = time.perf_counter()
        for _ in range(lines):
            os.write(into, line)
            os.read(out, 100)
        return (time.perf_counter() - started) / lines
    finally:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        child.stdin.close()
        child.wait()
        child.stdout.close()


def games_of(seats: list[Seat], games: int, seed: int) -> tuple[float, int]:
    """Seconds and decisions for ``games`` games between the same four seats, as a match plays them."""
    decisions = 0
    started = time.perf_counter()
    for number in range(games):
        state = goat.new_game(seed=seed + number)
        record = play(seats, state, seed=seed + number, on_fault="forfeit", names=None, rng=random.Random(0))
        decisions += len(record.moves)
    return time.perf_counter() - started, decisions


if __name__ == "__main__":
    main()
