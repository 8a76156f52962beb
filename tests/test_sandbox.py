"""Sealed play's sandbox, tried as a hostile bot author would: each attack is a bot (protocol_bots/spy.py).

Where bubblewrap or cgroups cannot run these tests are skipped, naming why — unless GOAT_EXPECT_SANDBOX=1
(CI sets it), which makes a sandbox that cannot start a failure instead.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import goat
from goat.arena import cgroups, sandbox
from goat.arena.sealed import BotFault, ProcessStrategy

SPY = Path(__file__).parent / "protocol_bots" / "spy.py"
EXPECTED = os.environ.get("GOAT_EXPECT_SANDBOX") == "1"


def _require(*names: str) -> None:
    missing = [p for p in sandbox.probe().protections if p.name in names and not p.holds]
    if missing:
        why = "; ".join(f"{p.name}: {p.how}" for p in missing)
        if EXPECTED:
            pytest.fail(f"GOAT_EXPECT_SANDBOX=1 and {why}")
        pytest.skip(why)


walled = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux's")


def spy(attack: str, argument: object = "", **options: Any) -> ProcessStrategy:
    options.setdefault("time_limit", 10.0)
    return ProcessStrategy([sys.executable, str(SPY), attack, str(argument)], **options)


def found(bot: ProcessStrategy, seat: int = 0) -> dict[str, Any]:
    """Greet the bot; what its attack found."""
    bot.hello(seat)
    assert bot.bot_name is not None
    return json.loads(bot.bot_name)  # type: ignore[no-any-return]


@pytest.fixture
def bots() -> Iterator[list[ProcessStrategy]]:
    made: list[ProcessStrategy] = []
    yield made
    for bot in made:
        bot.close()


def test_the_report_names_every_protection_and_says_how_each_holds() -> None:
    report = sandbox.probe()
    assert [p.name for p in report.protections] == [
        "namespaces",
        "filesystem",
        "network",
        "syscall filter",
        "memory per bot",
        "cpu time per bot",
        "processes per bot",
        "one cpu per bot",
        "idle between turns",
        "lifetime",
        "environment",
    ]
    assert all(p.how for p in report.protections)
    assert sandbox.probe("none").protections[0].holds is False


def test_required_refuses_to_start_naming_each_missing_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_bubblewrap", lambda: (None, "bwrap not found (install the bubblewrap package)"))
    sandbox.probe.cache_clear()
    try:
        with pytest.raises(sandbox.SandboxError, match="namespaces does not hold: bwrap not found") as refused:
            ProcessStrategy([sys.executable, str(SPY), "environment"], sandbox="required")
        assert "network does not hold" in str(refused.value)
        # auto plays on, and says what is missing
        bot = ProcessStrategy([sys.executable, str(SPY), "environment"], sandbox="auto")
        assert "missing: namespaces, filesystem, network" in bot.report.summary
    finally:
        sandbox.probe.cache_clear()


def test_a_mode_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="sandbox is one of 'auto', 'required', 'none'"):
        ProcessStrategy(["true"], sandbox="strict")  # type: ignore[arg-type]


@walled
def test_a_bot_sees_no_other_process_and_reads_nothing_of_the_referees(bots: list[ProcessStrategy]) -> None:
    _require("namespaces")
    bots.append(spy("processes", os.getpid()))
    seen = found(bots[0])
    assert seen["ok"] is False
    assert max(seen["pids"]) < 10  # its own PID namespace: a handful of its own processes, numbered from 1
    assert not any(entry.endswith("/mem") for entry in seen["read"])


@walled
def test_a_bot_gets_only_the_allow_listed_environment_and_a_home_of_its_own(
    bots: list[ProcessStrategy], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOAT_ORGANISER_TOKEN", "secret")
    bots.append(spy("environment", "GOAT_ORGANISER_TOKEN", env={"MY_BOT_OPTION": "1"}))
    seen = found(bots[0])
    assert seen["ok"] is False
    assert "MY_BOT_OPTION" in seen["names"]
    assert set(seen["names"]) <= {
        *sandbox.ENVIRONMENT,
        "MY_BOT_OPTION",
        "HOME",
        "TMPDIR",
        "PYTHONUNBUFFERED",
        "PYTHONIOENCODING",
        "PWD",
    }
    assert seen["cwd"] == seen["home"] != os.getcwd()


@walled
def test_a_bot_cannot_read_or_overwrite_the_referees_game_log(
    bots: list[ProcessStrategy], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _require("filesystem")
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "games.jsonl"
    log.write_text('{"hands": "everything"}\n')
    bots.append(spy("read-file", "env:LOG", env={"LOG": str(log)}))
    bots.append(spy("write-file", "env:LOG", env={"LOG": str(log)}))
    assert found(bots[0])["ok"] is False
    assert found(bots[1])["ok"] is False
    assert log.read_text() == '{"hands": "everything"}\n'


@walled
@pytest.mark.parametrize(
    ("leave", "look"),
    [
        ("unix-listen", "unix-connect"),
        ("tcp-listen", "tcp-connect"),
        ("drop", "pick-up"),
    ],
)
def test_partners_cannot_pass_each_other_their_hands(bots: list[ProcessStrategy], leave: str, look: str) -> None:
    _require("namespaces", "network", "filesystem")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    argument = {"unix-listen": uuid.uuid4().hex, "tcp-listen": port, "drop": f"/tmp/goat-{uuid.uuid4().hex}"}[leave]
    bots.append(spy(leave, argument))
    assert found(bots[0])["ok"] is True  # the first one could leave its message...
    bots.append(spy(look, argument))
    assert found(bots[1], seat=2)["ok"] is False  # ...and its partner cannot find it


@walled
def test_partners_cannot_pass_hands_through_shared_memory(bots: list[ProcessStrategy]) -> None:
    _require("filesystem")
    name = f"/dev/shm/goat-{uuid.uuid4().hex}"
    bots.append(spy("drop", name))
    assert found(bots[0])["ok"] is True
    bots.append(spy("pick-up", name))
    assert found(bots[1], seat=2)["ok"] is False
    assert not os.path.exists(name)


def _cpu(bot: ProcessStrategy) -> float:
    confinement = bot.process.confinement
    assert confinement is not None
    used = confinement.cpu_seconds(bot.process.pid)
    assert used is not None
    return used


@walled
def test_spinning_processes_get_one_cpu_in_its_turn_and_next_to_none_after(bots: list[ProcessStrategy]) -> None:
    _require("one cpu per bot", "cpu time per bot", "idle between turns")
    bots.append(spy("spin-turn", 1.0))
    began = time.monotonic()
    found(bots[0])  # four spinners in sessions of their own, a second of its turn with them
    turn = time.monotonic() - began
    used = _cpu(bots[0])
    assert used < 1.15 * turn  # not more than one CPU between them while it thinks
    time.sleep(1.0)
    assert _cpu(bots[0]) - used < 0.1  # and 5% of one while the others think, not one CPU or more
    bots[0].close()


@walled
@pytest.mark.parametrize(("hold", "test"), [("lock-hold", "lock-test")])
def test_partners_cannot_signal_through_locks_on_files_they_both_can_read(
    bots: list[ProcessStrategy], hold: str, test: str
) -> None:
    _require("syscall filter")
    shared = "/etc/hostname" if os.path.exists("/etc/hostname") else sys.executable
    bots.append(spy(hold, shared))
    assert found(bots[0])["ok"] is False  # it cannot take the lock at all
    bots.append(spy(test, shared))
    assert found(bots[1], seat=2)["ok"] is False


@walled
def test_a_bot_cannot_watch_files_or_see_the_control_groups(bots: list[ProcessStrategy]) -> None:
    _require("syscall filter", "filesystem")
    bots.append(spy("watch"))
    assert found(bots[0])["ok"] is False  # no inotify: another bot's reading of a file is no message
    bots.append(spy("cgroups"))
    assert found(bots[1])["ok"] is False  # no other bot's group, memory or CPU count to read


@walled
def test_memory_is_bounded_for_the_bot_not_for_each_process(bots: list[ProcessStrategy]) -> None:
    _require("memory per bot")
    bots.append(spy("memory", 100, memory_mb=200))
    assert found(bots[0])["ok"] is False  # four processes of 100 MiB do not fit in the bot's 200


@walled
def test_the_number_of_processes_is_bounded(bots: list[ProcessStrategy]) -> None:
    _require("processes per bot")
    bots.append(spy("fork-bomb", 200, processes=20))
    seen = found(bots[0])
    assert seen["ok"] is False and seen["made"] < 20


@walled
@pytest.mark.parametrize("grouped", [True, False])
def test_cpu_time_is_counted_for_all_the_bots_processes(
    bots: list[ProcessStrategy], monkeypatch: pytest.MonkeyPatch, grouped: bool
) -> None:
    if grouped:
        _require("cpu time per bot")
    else:  # the referee's own count of the bot's processes stands in for the cgroup's
        monkeypatch.setattr(cgroups, "hierarchy", lambda: cgroups.Hierarchy((), (("memory", "no cgroup here"),)))
        sandbox.probe.cache_clear()
    try:
        # three processes burning for 3 s of wall time: more than 1 s of CPU even at half a CPU on a busy machine
        bots.append(spy("burn", 3.0, cpu_seconds=1))
        with pytest.raises(BotFault, match="of CPU in all, over its budget of 1 s") as fault:
            found(bots[0])
        assert fault.value.kind == "timeout"
    finally:
        sandbox.probe.cache_clear()


def _running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                pass
    return found


@walled
def test_no_process_of_a_bot_outlives_it() -> None:
    _require("lifetime")
    marker = f"goat-test-{uuid.uuid4().hex}"
    bot = ProcessStrategy([sys.executable, str(SPY), "spin", "3", marker])
    found(bot)
    assert len(_running(marker)) >= 4  # the bot and its three spinners, each in a session of its own
    confinement = bot.process.confinement
    assert confinement is not None
    bot.close()
    deadline = time.monotonic() + 5
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running(marker) == []
    if confinement.group is not None:
        assert confinement.group.directories == {}  # its cgroup is removed


def test_sealed_bots_seeds_are_drawn_afresh_and_say_nothing_of_the_deals(bots: list[ProcessStrategy]) -> None:
    bots.extend(spy("environment") for _ in range(2))
    seeds = [found(bot)["seed"] for bot in bots]
    assert seeds[0] != seeds[1]
    assert all(type(seed) is int and 0 <= seed < 2**63 for seed in seeds)
    # a seed given by the organiser is told as given
    bots.append(spy("environment", seed=7))
    assert found(bots[2])["seed"] == 7


@walled
def test_a_hello_waits_no_longer_than_the_time_limit() -> None:
    bot = ProcessStrategy([sys.executable, "-c", "import time; time.sleep(30)"], time_limit=0.5)
    started = time.monotonic()
    with pytest.raises(BotFault, match=r"within 0\.5 s"):
        bot.hello(0)
    assert time.monotonic() - started < 3.0
    bot.close()


def test_the_example_bots_play_sealed() -> None:
    examples = Path(__file__).parent.parent / "examples" / "bots"
    state = goat.new_game(seed=5)
    for command in ([sys.executable, str(examples / "python_bot.py")], ["node", str(examples / "js_bot.js")]):
        if command[0] == "node" and not any(
            os.access(os.path.join(d, "node"), os.X_OK) for d in os.environ.get("PATH", "").split(os.pathsep)
        ):
            continue
        with ProcessStrategy(command) as bot:
            bot.start_game(goat.view(state, 1))
            move = bot.choose(goat.view(state, 1), goat.legal_moves(state))
            assert move in goat.legal_moves(state)


def _group_parents() -> set[str]:
    """The directories the bots' cgroups are made in (a bot is started to find them); skipped without cgroups."""
    with spy("environment") as probe:
        found(probe)
        assert probe.process.confinement is not None
        group = probe.process.confinement.group
        if group is None:
            pytest.skip("no cgroups here")
        return {os.path.dirname(path) for path in group.directories.values()}


def test_many_bots_start_side_by_side_without_leaving_groups_behind() -> None:
    parents = _group_parents()
    mine = f"goat-bot-{os.getpid()}-"  # other test runs may make groups beside ours meanwhile

    def ours() -> dict[str, set[str]]:
        return {path: {name for name in os.listdir(path) if name.startswith(mine)} for path in parents}

    before = ours()
    threads = [threading.Thread(target=lambda: found(spy("environment")) and None) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    import gc

    gc.collect()  # the bots above are closed when collected
    after = ours()
    assert after == before


def test_trust_comes_from_where_the_code_lives_not_from_a_distributions_name(fake_distribution: Any) -> None:
    from goat.arena.tournament import Entrant

    fake_distribution(
        "goat-cards",  # it only claims to be goat
        {"impostor": "impostor_bot:factory", "greedy-again": "goat.bots.greedy:factory"},
        code={"impostor_bot.py": "from goat.bots.greedy import factory\n"},
    )
    impostor = Entrant("impostor").player(1)
    try:
        assert isinstance(impostor, ProcessStrategy)  # sealed: its code is not goat's
    finally:
        if isinstance(impostor, ProcessStrategy):
            impostor.close()
    assert not isinstance(Entrant("greedy-again").player(1), ProcessStrategy)  # goat's own code, in-process


def test_every_record_of_a_sealed_match_says_what_confined_its_bots() -> None:
    from goat import arena, records

    bot = spy("environment")
    played = arena.play_match([bot, *(goat.load_strategy("random", seed=s) for s in (1, 2, 3))], seed=5)
    summary = sandbox.probe().summary
    assert played.headers == (("sandbox", summary),)
    assert all(game.headers == (("sandbox", summary),) for game in played.games)
    assert records.loads(records.dumps(played)).headers == played.headers  # kept in the file
    inside = arena.play_game([goat.load_strategy("random", seed=s) for s in range(4)], seed=5)
    assert inside.headers == ()


@walled
def test_a_tournaments_first_hello_runs_under_the_limits_of_its_matches() -> None:
    from goat import StrategyLoadError, arena

    _require("memory per bot")
    hog = f"exec:{sys.executable} {SPY} hog 400"
    with pytest.raises(StrategyLoadError, match="does not start"):
        arena.run_tournament([hog, "random"], matches=2, seed=1, memory_mb=200, time_limit=5.0)


def test_a_tournaments_sealed_bots_are_not_seeded_from_its_seed() -> None:
    from goat.arena import Entrant

    bots = [Entrant(f"exec:{sys.executable} {SPY} environment").player(seed) for seed in (7, 7)]
    assert isinstance(bots[0], ProcessStrategy) and isinstance(bots[1], ProcessStrategy)
    assert bots[0].seed != 7 and bots[0].seed != bots[1].seed
    assert not isinstance(Entrant("random").player(7), ProcessStrategy)


def test_a_plugin_that_puts_its_module_inside_goats_package_is_still_sealed(fake_distribution: Any) -> None:
    from goat.arena.tournament import Entrant

    # a wheel may install files under goat/: the module name, not the place, says what is goat's own
    fake_distribution("evil-goat-bot", {"evil": "goat.bots.contrib_evil:factory"})
    bot = Entrant("evil").player(1)
    assert isinstance(bot, ProcessStrategy)
    bot.close()


def test_goats_own_entry_points_are_its_trusted_modules() -> None:
    import tomllib

    from goat.bots import OWN_MODULES

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    targets = project["project"]["entry-points"]["goat.strategies"].values()
    assert {target.split(":")[0] for target in targets} == OWN_MODULES


@walled
def test_a_path_a_bot_names_through_a_symbolic_link_does_not_show_a_hidden_directory(
    bots: list[ProcessStrategy], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _require("filesystem")
    referee = tmp_path / "referee"
    referee.mkdir()
    (referee / "games.jsonl").write_text('{"hands": "everything"}\n')
    monkeypatch.chdir(referee)
    submitted = tmp_path / "submitted"
    submitted.mkdir()
    (submitted / "data").symlink_to(referee)  # the bot's folder, as its author sent it
    bots.append(spy("read-file", submitted / "data" / "games.jsonl"))
    assert found(bots[0])["ok"] is False


def test_groups_left_by_a_referee_that_died_are_swept_away() -> None:
    parents = _group_parents()
    dead = 2**22 + 12345  # above the kernel's largest PID
    stale = [os.path.join(parent, f"goat-bot-{dead}-0-test") for parent in parents]
    for path in stale:
        os.mkdir(path)
    cgroups.sweep.cache_clear()  # it sweeps once a process
    with spy("environment") as bot:
        found(bot)
    assert not any(os.path.exists(path) for path in stale)
