"""Sealed bots: a hostile bot in a child process cannot stop, slow or fool the referee, and leaves no process behind.

Every attack is played by tests/protocol_bots/hostile.py, a protocol bot that plays correctly until it turns
hostile in a chosen way.  Each test checks the fault the record names, that the match still ends, and
that no process of the bot (grandchildren included, found by a marker word in their command lines)
outlives the match.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import goat
from goat import arena, records
from goat.arena import cgroups, sandbox
from goat.arena.sealed import BotFault, ProcessStrategy, bot_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to count processes")

HOSTILE = Path(__file__).resolve().parent / "protocol_bots" / "hostile.py"


# What only bubblewrap's namespaces give (docs/sealed.md): where the system refuses them, these promises are not made.
WALLED = sandbox.probe().protections[0].holds
needs_namespaces = pytest.mark.skipif(not WALLED, reason=sandbox.probe().protections[0].how)


def marked(marker: str) -> list[int]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline and int(entry) != os.getpid():
                found.append(int(entry))
    return found


def no_process_left(marker: str) -> bool:
    for _ in range(250):  # a killed process may take a moment to be reaped (an idle bot runs at 5% of a CPU)
        alive = [pid for pid in marked(marker) if not _zombie(pid)]
        if not alive:
            return True
        time.sleep(0.02)
    return False


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except OSError:
        return True


def hostile(mode: str, after: int = 0, **options: object) -> tuple[ProcessStrategy, str]:
    marker = f"goat-test-{uuid.uuid4().hex}"
    options.setdefault("startup_limit", 5.0)
    bot = ProcessStrategy([sys.executable, str(HOSTILE), mode, str(after), marker], seed=1, **options)  # type: ignore[arg-type]
    return bot, marker


def table(bot: goat.Strategy) -> list[goat.Strategy]:
    return [bot, *(goat.load_strategy("random", seed=seat) for seat in (1, 2, 3))]


@pytest.mark.parametrize(
    ("mode", "kind", "reason"),
    [
        ("crash", "crash", "exited with status 3"),
        ("segfault", "crash", "killed by SIGSEGV"),
        ("hang", "timeout", "no reply to 'choose' within 0.5 s"),
        ("slow", "timeout", "no reply to 'choose' within 0.5 s"),
        ("garbage", "protocol", "not JSON"),
        ("not-object", "protocol", "not a JSON object"),
        ("bad-utf8", "protocol", "not UTF-8"),
        ("wrong-type", "protocol", "answered 'choose' with 'ok', not 'move'"),
        ("flood", "flood", "without a line end"),
        ("long-line", "flood", "more than 1048576 bytes"),
        # bubblewrap keeps its own copy of the bot's output, so one that closes it and lives on is seen to time out
        ("close-stdout", *(("timeout", "no reply") if WALLED else ("crash", "instead of replying"))),
        ("illegal", "illegal", "not one of the"),
        ("unparseable", "illegal", "does not parse"),
        ("not-text", "illegal", "does not parse"),
        ("error", "error", "cannot decide"),
        ("twice", "protocol", "more than one line"),
        ("hook-start-hang", "timeout", "no reply to 'start_game'"),
        ("hello-old", "protocol", "expected protocol 1"),
    ],
)
def test_a_hostile_sealed_bot_is_a_recorded_fault_and_the_match_goes_on(mode: str, kind: str, reason: str) -> None:
    bot, marker = hostile(mode, after=1 if mode == "twice" else 0)
    played = arena.play_match(table(bot), seed=3, time_limit=0.5, on_fault="forfeit")
    assert played.match.is_over
    faults = [f for f in played.faults if f.seat == 0]
    assert faults and faults[0].kind == kind, played.faults
    assert re.search(reason, faults[0].reason), faults[0].reason
    for game in played.games:
        records.replay(records.loads(records.dumps(game)))  # every record, forfeits included, replays
    assert no_process_left(marker)


def test_a_reply_written_after_the_next_request_is_read_as_its_reply_and_the_bot_is_caught() -> None:
    # Replies carry no request number (docs/protocol.md): a second reply that comes after the referee's next request
    # is taken for the reply to it, and judged as that.  The bot's real reply to it is then a line nobody asked
    # for: the bot is caught, one way or the other, and the match goes on.
    bot, marker = hostile("twice-apart", after=1)
    played = arena.play_match(table(bot), seed=3, time_limit=0.5, on_fault="forfeit")
    assert played.match.is_over
    faults = [f for f in played.faults if f.seat == 0]
    assert faults and faults[0].kind in ("illegal", "protocol"), played.faults
    assert re.search("not one of the|more than one line|when nobody had asked it anything|answered", faults[0].reason)
    assert no_process_left(marker)


def test_a_crash_keeps_the_tail_of_the_bots_stderr_and_the_process_is_replaced_next_game() -> None:
    bot, marker = hostile("crash")
    pids = []
    original = bot.process.start

    def counting_start() -> None:
        original()
        pids.append(bot.process.pid)

    bot.process.start = counting_start  # type: ignore[method-assign]
    played = arena.play_match(table(bot), seed=5, time_limit=2.0, on_fault="random")
    crashes = [f for f in played.faults if f.kind == "crash"]
    assert len(crashes) == len(played.games) >= 2  # one crash a game, each in a fresh process
    assert len(set(pids)) == len(played.games)
    assert all(f.stderr and "about to crash" in f.stderr for f in crashes)
    assert all(f.replacement is not None for f in played.faults)  # random moves were played for it
    assert {f.kind for f in played.faults} <= {"crash", "disabled"}
    assert no_process_left(marker)


def test_grandchildren_die_with_the_bot() -> None:
    bot, marker = hostile("fork-and-hang")
    played = arena.play_match(table(bot), seed=3, time_limit=0.5)
    assert played.faults[0].kind == "timeout"
    assert no_process_left(marker)


def test_a_bot_that_ignores_quit_is_killed_when_the_match_ends() -> None:
    bot, marker = hostile("ignore-quit")
    played = arena.play_match(table(bot), seed=3, time_limit=2.0)
    assert not played.faults
    assert no_process_left(marker)


def test_a_hook_that_hangs_at_the_end_is_recorded_and_killed() -> None:
    bot, marker = hostile("hook-end-hang")
    record = arena.play_game(table(bot), seed=3, time_limit=0.5)
    assert record.forfeit is None and record.result == goat.score(records.replay(record)[-1])
    (fault,) = record.faults
    assert fault.kind == "timeout" and "end_game" in fault.reason
    assert no_process_left(marker)


def test_a_bot_that_never_says_hello_is_a_timeout_fault() -> None:
    bot, marker = hostile("hello-hang", startup_limit=0.5)
    record = arena.play_game(table(bot), seed=3, time_limit=0.5)
    assert record.faults[0].kind == "timeout" and "'hello'" in record.faults[0].reason
    assert record.forfeit == 0
    assert no_process_left(marker)


def test_stderr_is_drained_so_a_chatty_bot_does_not_hang() -> None:
    bot, marker = hostile("stderr-spam")
    record = arena.play_game(table(bot), seed=3, time_limit=5.0)
    assert record.faults == () and record.forfeit is None
    assert no_process_left(marker)
    assert "the last words" in bot.process.stderr_tail and len(bot.process.stderr_tail.encode()) <= 4096


def test_a_command_that_does_not_exist_is_a_crash_fault_naming_it() -> None:
    bot = ProcessStrategy("no-such-goat-bot --fast", seed=1)
    record = arena.play_game(table(bot), seed=3)
    (fault, *_) = record.faults
    assert fault.kind == "crash"
    assert "cannot start no-such-goat-bot --fast: 'no-such-goat-bot' is no program" in fault.reason


def test_without_cgroups_memory_and_cpu_are_limited_per_process_and_the_report_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cgroups, "hierarchy", lambda: cgroups.Hierarchy((), (("memory", "no cgroup here"),)))
    sandbox.probe.cache_clear()
    code = (
        "import resource, sys; "
        "print(resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_CPU)[0], file=sys.stderr)"
    )
    try:
        bot = ProcessStrategy([sys.executable, "-c", code], memory_mb=512, cpu_seconds=7, startup_limit=5.0)
        assert "memory per bot" in bot.report.summary and "cpu time per bot" in bot.report.summary
        with pytest.raises(BotFault, match="crash"):
            bot.hello(0)
        assert bot.process.stderr_tail.split() == [str(512 * 1024 * 1024), "7"]
    finally:
        sandbox.probe.cache_clear()


def test_a_sealed_tournament_of_bots_in_two_languages_records_every_fault(tmp_path: Path) -> None:
    marker = f"goat-test-{uuid.uuid4().hex}"
    python = sys.executable

    def entrant(mode: str) -> str:
        return f"exec:{python} {HOSTILE} {mode} 2 {marker}"

    spy = Path(__file__).resolve().parent / "protocol_bots" / "spy.py"
    examples = Path(__file__).resolve().parent.parent / "examples" / "bots"
    field = [
        entrant("crash"),
        entrant("hang"),
        entrant("garbage"),
        f"exec:{python} -m goat.arena greedy",
        f"exec:{python} {examples / 'python_bot.py'}",
        f"exec:{python} {spy} others x --crash-if-found {marker}",  # hostile: looks for the others' processes
    ]
    node = __import__("shutil").which("node")
    js_bot = examples / "js_bot.js"
    if node and js_bot.exists():
        field.append(f"exec:{node} {js_bot}")
    # a short budget a move, and time enough to start an interpreter on a busy machine
    result = arena.run_tournament(field, matches=2, seed=4, time_limit=0.5, startup_limit=10.0, on_fault="forfeit")
    assert result.void == () and result.matches == len(field) * (len(field) - 1)
    by_name = {e.name: e for e in result.entrants}
    for mode in ("crash", "hang", "garbage"):
        assert by_name[entrant(mode)].faults >= 1
    greedy = by_name[field[3]]
    assert greedy.faults == 0 and greedy.match_wins >= 6  # every game of a hostile bot is forfeited
    assert by_name[field[4]].faults == 0
    if WALLED:  # in a PID namespace of its own, the spy sees nobody else's process, let alone their cards
        assert by_name[field[5]].faults == 0, result.table()
    assert no_process_left(marker)


def test_a_sealed_greedy_plays_exactly_as_an_in_process_greedy() -> None:
    opponent = arena.Entrant("random", isolation="none")  # in-process both times: its seed comes from the tournament's
    sealed = arena.run_tournament(["greedy", opponent], matches=4, seed=7, isolation="process")
    inside = arena.run_tournament(["greedy", opponent], matches=4, seed=7, isolation="none")
    assert sealed.entrants == inside.entrants
    bots = [ProcessStrategy(bot_command("greedy"), seed=seat) for seat in range(4)]
    inline = [goat.load_strategy("greedy", seed=seat) for seat in range(4)]
    sealed_games, inline_games = arena.play_match(bots, seed=2).games, arena.play_match(inline, seed=2).games
    played = [[(g.moves, g.result, g.faults) for g in games] for games in (sealed_games, inline_games)]
    assert played[0] == played[1]


def test_a_sealed_plugin_is_started_by_its_import_path_and_says_its_name() -> None:
    assert bot_command("greedy[depth=1]")[-2:] == ["goat.bots.greedy:factory[depth=1]", "greedy[depth=1]"]
    assert bot_command("exec:anything")[-1:] == ["exec:anything"]
    seen = goat.view(goat.new_game(seed=1), 1)
    with ProcessStrategy(bot_command("greedy"), seed=1) as bot:
        bot.start_game(seen)
        assert bot.choose(seen, seen.legal_moves) == goat.load_strategy("greedy", seed=1).choose(seen, seen.legal_moves)
        assert bot.bot_name == "greedy"


def test_load_strategy_exec_is_a_sealed_bot_with_options() -> None:
    bot = goat.load_strategy(f"exec:{sys.executable} -m goat.arena random", seed=3, time_limit=2.0)
    assert isinstance(bot, ProcessStrategy) and bot.time_limit == 2.0 and bot.seed == 3
    seen = goat.view(goat.new_game(seed=1), 1)
    with bot:
        bot.start_game(seen)
        move = bot.choose(seen, seen.legal_moves)
        assert move in seen.legal_moves and any(move is legal for legal in seen.legal_moves)
        assert bot.bot_name == "random"
    assert not bot.process.alive


# --- found by a hostile review: each of these broke a promise before it was fixed ----------------


def test_a_bot_that_dies_between_requests_is_not_restarted_in_the_middle_of_a_game() -> None:
    bot, marker = hostile("exit-after-reply")
    played = arena.play_match(table(bot), seed=3, time_limit=2.0, on_fault="random")
    crashes = [f for f in played.faults if f.kind == "crash"]
    assert bot.process.starts == len(played.games) == len(crashes)  # started once a game; each death a crash
    assert no_process_left(marker)


def test_a_helper_in_another_process_group_dies_with_the_bot() -> None:
    bot, marker = hostile("setpgid-helper")
    arena.play_match(table(bot), seed=3, time_limit=2.0)
    assert no_process_left(marker)


@needs_namespaces
def test_a_helper_that_kills_the_supervisor_and_sends_sigint_neither_outlives_the_match_nor_stops_it() -> None:
    # Where the system allows a PID namespace (Linux, as root or through a user namespace), the bot is its first
    # process: its helpers die with it, and none can name the supervisor or the referee to signal them.
    bot, marker = hostile("kill-supervisor")
    played = arena.play_match(table(bot), seed=3, time_limit=2.0)
    assert played.match.is_over
    assert no_process_left(marker)


def test_no_bot_process_outlives_a_referee_that_is_killed(tmp_path: Path) -> None:
    marker = f"goat-test-{uuid.uuid4().hex}"
    script = tmp_path / "referee.py"
    script.write_text(
        "import os, sys, goat\n"
        "from goat.arena.sealed import ProcessStrategy\n"
        f"bot = ProcessStrategy([sys.executable, {str(HOSTILE)!r}, 'setpgid-helper', '0', {marker!r}], seed=1)\n"
        "seen = goat.view(goat.new_game(seed=1), 1)\n"
        "bot.start_game(seen)\n"
        "bot.choose(seen, seen.legal_moves)\n"
        "os._exit(9)  # the referee dies as the OOM killer would leave it: no clean-up at all\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    assert no_process_left(marker)


def test_a_sealed_bot_that_sends_sigint_to_the_referee_does_not_stop_the_tournament() -> None:
    entrant = f"exec:{sys.executable} {HOSTILE} sigint-referee 0"
    result = arena.run_tournament([entrant, "random"], matches=2, seed=1, time_limit=2.0)
    assert result.matches == 2


def test_a_bot_cannot_grow_the_referees_memory_with_padded_replies() -> None:
    from goat.arena import protocol

    bot, marker = hostile("padded")
    before = len(protocol._MOVE_CACHE)
    arena.play_game(table(bot), seed=3, time_limit=2.0)
    assert all(len(text) < 100 for text in protocol._MOVE_CACHE) and len(protocol._MOVE_CACHE) - before < 200
    assert no_process_left(marker)


def test_a_lone_surrogate_in_a_bots_error_still_gives_a_record_a_file_can_hold(tmp_path: Path) -> None:
    bot, _ = hostile("surrogate-error")
    record = arena.play_game(table(bot), seed=3, time_limit=2.0)
    assert record.faults[0].kind == "error"
    text = records.dumps(record)
    text.encode("utf-8")  # no lone surrogate left
    assert records.loads(text) == record


def test_a_hello_with_a_boolean_protocol_is_a_protocol_fault() -> None:
    bot, _ = hostile("hello-true")
    record = arena.play_game(table(bot), seed=3, time_limit=2.0)
    assert record.faults[0].kind == "protocol"


def test_a_huge_exec_command_is_refused_at_once() -> None:
    started = time.perf_counter()
    with pytest.raises(ValueError, match="at most 65536 characters"):
        arena.run_tournament(["exec:" + "x" * 3_000_000, "random"], matches=2, seed=1)
    assert time.perf_counter() - started < 1


def test_a_bot_that_leaves_between_games_is_started_afresh_without_a_fault() -> None:
    # It answers end_game and exits at once: at the next game's start its process may still be ending (its
    # supervisor not yet gone). Either way it is replaced for the next game, with no fault: it missed no request.
    bot, marker = hostile("hook-end-exit")
    played = arena.play_match(table(bot), seed=5, time_limit=2.0)
    assert len(played.games) >= 2
    assert played.faults == ()
    assert bot.process.starts == len(played.games)  # one process a game
    assert no_process_left(marker)


def test_a_launched_process_is_greeted_before_anything_else() -> None:
    bot, marker = hostile("crash", after=1000)
    try:
        bot.launch()  # started, not greeted: asked to choose, it has been told of no game
        state = goat.new_game(seed=1)
        with pytest.raises(BotFault, match="before any start_game"):
            bot.choose(goat.view(state, state.to_move), goat.legal_moves(state))
        bot.start_game(goat.view(state, 0))  # now it is greeted, then told of the game
        assert bot.bot_name == "hostile crash"
        bot.launch()  # a no-op while the process runs
        assert bot.process.starts == 1
    finally:
        bot.close()
    assert no_process_left(marker)


def test_a_fault_travels_between_processes_whole() -> None:
    import pickle

    fault = BotFault("timeout", "no reply in time", stderr="last words", killed=True)
    again = pickle.loads(pickle.dumps(fault))
    assert (again.kind, again.reason, again.stderr, again.killed, str(again)) == (
        "timeout",
        "no reply in time",
        "last words",
        True,
        "timeout: no reply in time",
    )
