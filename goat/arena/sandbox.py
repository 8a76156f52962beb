"""How a sealed bot is confined, and the report of what holds on this machine.

A sealed bot runs under `bubblewrap <https://github.com/containers/bubblewrap>`_ (``bwrap``, the
sandbox Flatpak uses): user, PID, network, IPC, UTS and mount namespaces of its own, the system
read-only, the referee's working directory and the shared temporary directories hidden, a private
``/tmp`` that is its working directory and ``HOME``.  Its resources are bounded *per bot* — all its
processes together — by a control group (cgroup v2 where this process may create sub-groups, or
cgroup v1 as root): memory, number of tasks, CPU time, and at most one CPU.  Where neither is to be
had, the bot runs in a session of its own with per-process resource limits, and :func:`probe` says
which protections are missing: ``sandbox="required"`` refuses to start then, ``"auto"`` plays and
records what held, ``"none"`` asks for no sandbox at all.

>>> from goat.arena import sandbox
>>> report = sandbox.probe()
>>> [protection.name for protection in report.protections][:3]
['namespaces', 'filesystem', 'network']
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

import attrs

from goat.errors import install_command, shown

__all__ = [
    "DEFAULT_MEMORY_MB",
    "DEFAULT_PROCESSES",
    "ENVIRONMENT",
    "SANDBOXES",
    "Confinement",
    "Limits",
    "Protection",
    "Sandbox",
    "SandboxError",
    "SandboxReport",
    "confine",
    "probe",
]

#: How sealed bots are confined: ``"required"`` refuses to start one where a protection is missing, ``"auto"``
#: plays with what the machine has (saying what is missing), ``"none"`` asks for no sandbox at all.
Sandbox = Literal["auto", "required", "none"]
#: The values of :data:`Sandbox`.
SANDBOXES: Final = ("auto", "required", "none")

#: Memory of a bot, all its processes together, when nobody sets ``memory_mb``.
DEFAULT_MEMORY_MB: Final = 2048
#: Tasks (processes and threads) a bot may have at once when nobody sets ``processes``: Node.js alone runs a dozen.
DEFAULT_PROCESSES: Final = 128
#: The variables a bot's environment takes from the referee's; everything else it gets is named by the organiser.
ENVIRONMENT: Final = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "PYENV_ROOT", "PYENV_VERSION")
#: The scheduler's period, in microseconds: the bot's quota per period is one period, so one CPU.
_CPU_PERIOD: Final = 100_000
#: A waiting bot's quota per period: 5% of a CPU, all its processes together (enough to die promptly when killed).
_IDLE_QUOTA: Final = 5_000
#: Where a bot's private scratch directory is, inside its sandbox.
_SCRATCH: Final = "/tmp"
#: Directories every process on the machine may write, hidden behind empty private ones.
_SHARED: Final = ("/tmp", "/var/tmp", "/dev/shm", "/run")
#: Of those, the bot's own writable ones (their size counts as its memory).
_PRIVATE: Final = ("/tmp", "/dev/shm")


class SandboxError(RuntimeError):
    """``sandbox="required"`` and a protection does not hold on this machine; the message names each."""


@attrs.frozen
class Protection:
    """One protection of sealed play: ``name``, whether it ``holds`` here, and ``how`` (or why not)."""

    name: str
    holds: bool
    how: str


@attrs.frozen
class SandboxReport:
    """What sealed play does on this machine in one mode: each :class:`Protection`, and a one-line summary."""

    mode: str
    protections: tuple[Protection, ...]

    def missing(self) -> tuple[Protection, ...]:
        """The protections that do not hold."""
        return tuple(protection for protection in self.protections if not protection.holds)

    @property
    def summary(self) -> str:
        """One line for a record or a table: what confines the bots, and what is missing."""
        missing = [protection.name for protection in self.missing()]
        if self.mode == "none":
            return "none (sandbox='none')"
        named = {protection.name: protection for protection in self.protections}
        held = "bubblewrap" if named["namespaces"].holds else "no namespaces"
        cgroup = named["memory per bot"].how.split(":")[0] if named["memory per bot"].holds else "no cgroup"
        tail = f"; missing: {', '.join(missing)}" if missing else ""
        return f"{held}; {cgroup}{tail}"


@attrs.frozen
class Limits:
    """A bot's bounds, all its processes together: memory in MiB, CPU seconds in all, tasks at once."""

    memory_mb: int | None = DEFAULT_MEMORY_MB
    cpu_seconds: int | None = None
    processes: int | None = DEFAULT_PROCESSES


# --- what this machine allows -----------------------------------------------------------------


def _bubblewrap_flags() -> list[str]:
    return [
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
    ]


@functools.cache
def _bubblewrap() -> tuple[str | None, str]:
    """The path of a working ``bwrap`` and how it was found, or ``None`` and why it cannot be used."""
    if not sys.platform.startswith("linux"):
        return None, f"bubblewrap is Linux's; on {sys.platform} sealed play is process isolation only"
    found = shutil.which("bwrap")
    if found is None:
        return None, "bwrap not found (install the bubblewrap package)"
    argv = [found, *_bubblewrap_flags(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true"]
    try:
        tried = subprocess.run(argv, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"{found} cannot run: {error}"
    if tried.returncode != 0:
        said = tried.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, f"{found} is refused here: {said[-1] if said else f'exit status {tried.returncode}'}"
    return found, found


#: System calls a sealed bot may not make: they would let two bots that see the same read-only files talk through
#: them (file locks, inotify and fanotify watches), or through what the kernel keeps per user or per machine
#: (key rings, system-wide counters, performance counters).  Each fails with EPERM.
_REFUSED_CALLS: Final = (
    "flock",
    "inotify_init",
    "inotify_init1",
    "fanotify_init",
    "add_key",
    "request_key",
    "keyctl",
    "sysinfo",
    "perf_event_open",
    "userfaultfd",
    "bpf",
)
#: fcntl's commands that take, test or lease locks: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK,
#: F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY (directory change notices).
_REFUSED_FCNTL: Final = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)


@functools.cache
def _syscall_filter() -> tuple[bytes | None, str]:
    """The seccomp program (BPF) that refuses :data:`_REFUSED_CALLS`, made with libseccomp; or why there is none."""
    try:
        import pyseccomp as seccomp  # type: ignore[import-untyped]
    except (ImportError, OSError) as error:  # the binding, or the system's libseccomp, is missing
        return None, f"no libseccomp binding ({error}): {install_command('sandbox')}"
    import errno

    try:
        refused = seccomp.ERRNO(errno.EPERM)
        program = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        for name in _REFUSED_CALLS:
            program.add_rule(refused, name)
        for command in _REFUSED_FCNTL:
            program.add_rule(refused, "fcntl", seccomp.Arg(1, seccomp.EQ, command))
        with tempfile.TemporaryFile() as file:
            program.export_bpf(file)
            file.seek(0)
            return file.read(), "seccomp (libseccomp): no file locks, file watches, key rings, system counters"
    except Exception as error:  # libseccomp refused the rules (an architecture it does not know)
        return None, f"libseccomp could not make the filter: {error}"


@attrs.frozen
class _Hierarchy:
    """Where this process's cgroup is, for a set of controllers: v2 (one tree) or v1 (one tree per controller)."""

    version: int
    paths: tuple[tuple[str, str], ...]  #: (controller, directory of this process's group)


_CONTROLLERS: Final = ("memory", "pids", "cpu", "cpuacct")


def _mounts() -> list[tuple[str, str, set[str]]]:
    """The cgroup file systems mounted: (type, mount point, options)."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        before, _, after = line.partition(" - ")
        kind, _, options = after.split(" ", 2) if after.count(" ") >= 2 else (after, "", "")
        if kind in ("cgroup", "cgroup2"):
            found.append((kind, before.split(" ")[4], set(options.split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: controllers (``""`` for v2) to path."""
    groups: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return groups
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    return groups


def _writable(directory: str) -> bool:
    """Whether this process may make a sub-group of ``directory`` (tried: permissions alone do not tell)."""
    trial = os.path.join(directory, f"goat-probe-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        os.mkdir(trial)
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.rmdir(trial)
    return True


@functools.cache
def _hierarchy() -> tuple[_Hierarchy | None, str]:
    """The cgroups goat may create bots' groups in, and how; or ``None`` and why not."""
    if not sys.platform.startswith("linux"):
        return None, f"no cgroups on {sys.platform}"
    groups = _own_groups()
    mounts = _mounts()
    for kind, point, _ in mounts:  # v2 first: delegated to this process (systemd's Delegate=, a container's own)
        if kind == "cgroup2" and "" in groups:
            directory = os.path.join(point, groups[""].lstrip("/"))
            try:
                enabled = set(Path(directory, "cgroup.subtree_control").read_text().split())
            except OSError:
                continue
            if {"memory", "pids", "cpu"} <= enabled and _writable(directory):
                return _Hierarchy(2, tuple((name, directory) for name in _CONTROLLERS)), "cgroup v2"
    paths = []
    for controller in _CONTROLLERS:
        for kind, point, options in mounts:
            if kind == "cgroup" and controller in options and controller in groups:
                directory = os.path.join(point, groups[controller].lstrip("/"))
                if _writable(directory):
                    paths.append((controller, directory))
                break
    if paths:
        return _Hierarchy(1, tuple(paths)), "cgroup v1"
    return None, "no cgroup this process may create groups in (cgroup v2 not delegated, v1 not writable)"


@functools.cache
def probe(mode: Sandbox = "auto") -> SandboxReport:
    """Each protection of sealed play on this machine in ``mode``, whether it holds, and how or why not.

    ``"none"`` confines nothing but the environment (and bounds what cgroups or rlimits can).
    """
    check_mode(mode)
    bwrap, told = _bubblewrap() if mode != "none" else (None, "sandbox='none'")
    hierarchy, where = _hierarchy()
    controllers = {name for name, _ in hierarchy.paths} if hierarchy else set()

    def bounded(controller: str, what: str, fallback: str) -> Protection:
        if controller in controllers:
            return Protection(what, True, f"{where}: {controller} controller")
        return Protection(what, False, f"{fallback} ({where})")

    walled = bwrap is not None
    program, filtered = _syscall_filter()
    protections = (
        Protection("namespaces", walled, "bubblewrap: own user, PID, network, IPC, UTS, mount" if walled else told),
        Protection(
            "filesystem",
            walled,
            "read-only system; the referee's directory, homes, /tmp, /dev/shm hidden; its own /tmp" if walled else told,
        ),
        Protection("network", walled, "none: a network namespace of its own" if walled else told),
        Protection("syscall filter", walled and program is not None, filtered if walled else told),
        bounded("memory", "memory per bot", "per process only (RLIMIT_AS)"),
        bounded(
            "cpuacct" if hierarchy is not None and hierarchy.version == 1 else "cpu",
            "cpu time per bot",
            "per process only (RLIMIT_CPU), and descendants counted at each reply",
        ),
        bounded("pids", "processes per bot", "unbounded: RLIMIT_NPROC counts the whole user"),
        bounded("cpu", "one cpu per bot", "unbounded: its processes may take every CPU"),
        Protection(
            "idle between turns",
            "cpu" in controllers,
            f"{where}: 5% of a CPU until it is asked"
            if "cpu" in controllers
            else f"it runs between its turns too ({where})",
        ),
        Protection(
            "lifetime",
            walled,
            "its PID namespace dies with it and with the referee"
            if walled
            else "its process group and "
            + (
                "cgroup are killed when it ends, but not if the referee is killed"
                if "pids" in controllers
                else "no more: a process that left its group may live on"
            ),
        ),
        Protection("environment", True, f"an allow-list ({', '.join(ENVIRONMENT[:3])}, …) and the organiser's own"),
    )
    return SandboxReport(mode, protections)


def check_mode(mode: object) -> Sandbox:
    """``mode`` as a sandbox mode, or :class:`ValueError` naming the choices."""
    if mode not in SANDBOXES:
        raise ValueError(f"sandbox is one of {', '.join(repr(name) for name in SANDBOXES)}, not {shown(mode)}")
    return mode


def require(mode: Sandbox) -> SandboxReport:
    """The report for ``mode``; :class:`SandboxError` naming what is missing if ``mode`` is ``"required"``."""
    report = probe("auto" if mode == "required" else mode)
    missing = report.missing()
    if mode == "required" and missing:
        raise SandboxError(
            "sandbox='required', and on this machine "
            + "; ".join(f"{protection.name} does not hold: {protection.how}" for protection in missing)
        )
    return report


# --- one bot's confinement ----------------------------------------------------------------------

_COUNTER = itertools.count()


class BotGroup:
    """One bot's control group: made with its limits before the bot starts, emptied and removed after."""

    def __init__(self, hierarchy: _Hierarchy, limits: Limits) -> None:
        _sweep(hierarchy)
        self.version = hierarchy.version
        self.idling = False
        self._quota_fd: int | None = None  # kept open: opening a cgroup's file costs more than a message
        name = f"goat-bot-{os.getpid()}-{next(_COUNTER)}-{secrets.token_hex(3)}"
        self.directories: dict[str, str] = {}
        made: list[str] = []
        try:
            for controller, parent in hierarchy.paths:
                directory = os.path.join(parent, name)
                if directory not in made:
                    os.mkdir(directory)
                    made.append(directory)
                self.directories[controller] = directory
            self._limit(limits)
            if "cpu" in self.directories:
                quota = "cpu.max" if self.version == 2 else "cpu.cfs_quota_us"
                self._quota_fd = os.open(os.path.join(self.directories["cpu"], quota), os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            self.directories = {}
            for directory in made:
                with contextlib.suppress(OSError):
                    os.rmdir(directory)
            raise

    def _write(self, controller: str, name: str, value: str) -> None:
        directory = self.directories.get(controller)
        if directory is not None:
            Path(directory, name).write_text(value)

    def _limit(self, limits: Limits) -> None:
        memory = None if limits.memory_mb is None else str(limits.memory_mb << 20)
        if self.version == 2:
            if memory is not None:
                self._write("memory", "memory.max", memory)
                with contextlib.suppress(OSError):  # no swap configured: nothing to bound
                    self._write("memory", "memory.swap.max", "0")
            if limits.processes is not None:
                self._write("pids", "pids.max", str(limits.processes))
            self._write("cpu", "cpu.max", f"{_CPU_PERIOD} {_CPU_PERIOD}")
            return
        if memory is not None:
            self._write("memory", "memory.limit_in_bytes", memory)
            with contextlib.suppress(OSError):  # swap accounting off: the limit above is the whole bound
                self._write("memory", "memory.memsw.limit_in_bytes", memory)
        if limits.processes is not None:
            self._write("pids", "pids.max", str(limits.processes))
        self._write("cpu", "cpu.cfs_period_us", str(_CPU_PERIOD))
        self._write("cpu", "cpu.cfs_quota_us", str(_CPU_PERIOD))

    def idle(self) -> None:
        """Not its turn: all the bot's processes together get at most :data:`_IDLE_QUOTA` of a CPU until
        :meth:`wake`, so that what it leaves running cannot take the CPU from the seat that thinks.

        A CPU quota rather than stopping the processes: it costs one write, where stopping and waking every
        process at every message doubled a message's round trip."""
        if not self.idling:
            self._quota(_IDLE_QUOTA)
            self.idling = True

    def wake(self) -> None:
        """Its turn: one CPU again."""
        if self.idling:
            self._quota(_CPU_PERIOD)
            self.idling = False

    def _quota(self, microseconds: int) -> None:
        if self._quota_fd is not None:
            value = f"{microseconds} {_CPU_PERIOD}" if self.version == 2 else str(microseconds)
            with contextlib.suppress(OSError):  # the group is gone: the bot has ended
                os.pwrite(self._quota_fd, value.encode(), 0)

    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to join the group in every hierarchy."""
        return [os.path.join(directory, "cgroup.procs") for directory in dict.fromkeys(self.directories.values())]

    def cpu_seconds(self) -> float | None:
        """CPU time used by all the bot's processes so far, or ``None`` if it cannot be read."""
        try:
            if self.version == 2:
                for line in Path(self.directories["cpu"], "cpu.stat").read_text().splitlines():
                    if line.startswith("usage_usec "):
                        return int(line.split()[1]) / 1e6
                return None
            return int(Path(self.directories["cpuacct"], "cpuacct.usage").read_text()) / 1e9
        except (OSError, KeyError, ValueError):
            return None

    def pids(self) -> set[int]:
        """The bot's processes (every hierarchy holds the same ones)."""
        for procs in self.procs_files()[:1]:
            with contextlib.suppress(OSError, ValueError):
                return {int(pid) for pid in Path(procs).read_text().split()}
        return set()

    def close(self) -> None:
        """Kill every process left in the group and remove it."""
        if self._quota_fd is not None:
            os.close(self._quota_fd)
            self._quota_fd = None
        if not self.directories:
            return
        kill = os.path.join(next(iter(self.directories.values())), "cgroup.kill")
        for _ in range(50):
            pids = self.pids()
            if not pids:
                break
            if self.version == 2 and os.path.exists(kill):
                with contextlib.suppress(OSError):
                    Path(kill).write_text("1")
            else:
                for pid in pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)
        for directory in dict.fromkeys(self.directories.values()):
            _remove(directory)
        self.directories = {}


def _remove(directory: str) -> None:
    """Remove an emptied group, waiting up to a second for its last tasks to leave (a later sweep takes what is
    left)."""
    for _ in range(200):
        try:
            os.rmdir(directory)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.005)


@functools.cache
def _sweep(hierarchy: _Hierarchy) -> None:
    """Once per process: remove the groups that referees which died without cleaning up left (``goat-bot-PID-*``
    of a PID no longer running), killing whatever still runs in them."""
    for _, parent in hierarchy.paths:
        try:
            names = [name for name in os.listdir(parent) if name.startswith("goat-bot-")]
        except OSError:
            continue
        for name in names:
            try:
                os.kill(int(name.split("-")[2]), 0)
                continue  # its referee lives
            except (ValueError, IndexError, ProcessLookupError):
                pass
            except PermissionError:
                continue
            directory = os.path.join(parent, name)
            with contextlib.suppress(OSError, ValueError):
                for pid in Path(directory, "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)
            _remove(directory)


# A shell that joins the bot's cgroup (the pid files before "--") and sets the per-process limits that stand in for
# missing cgroup controllers, then becomes the bot: so the bot is bounded from its first instruction on.
_JOIN: Final = 'while [ "$1" != -- ]; do case $1 in -v|-t) ulimit "$1" "$2"; shift;; *) echo $$ >"$1" || exit 125;; esac; shift; done; shift; exec "$@"'  # noqa: E501


@attrs.frozen
class Confinement:
    """How to start one bot: its full command line, environment and working directory; its group, if any."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    group: BotGroup | None
    scratch: str | None  #: a directory of the referee's to remove when the bot ends (without bubblewrap)
    report: SandboxReport
    fds: tuple[int, ...] = ()  #: descriptors the child inherits (the syscall filter), closed once it has started

    def started(self) -> None:
        """The child has its copies of :attr:`fds`: the referee's are closed."""
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    @property
    def walled(self) -> bool:
        """Whether the bot runs in bubblewrap's namespaces."""
        return self.report.protections[0].holds

    def cpu_seconds(self, pid: int | None) -> float | None:
        """CPU time the bot has used, all its processes together: its group's count, or else the sum over the
        processes that descend from ``pid`` now (with the children they have waited for)."""
        if self.group is not None:
            return self.group.cpu_seconds()
        return None if pid is None else _tree_cpu_seconds(pid)

    def close(self) -> None:
        """Kill what is left of the bot and remove its group and scratch directory."""
        if self.group is not None:
            self.group.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _tree_cpu_seconds(root: int) -> float | None:
    """utime + stime of ``root`` and its descendants, with their waited-for children's (Linux's /proc)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, int] = {}
    spent: dict[int, int] = {}
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return None
    for entry in entries:
        try:
            fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry)] = int(fields[1])
        spent[int(entry)] = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    found, frontier = {root}, {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= frontier
    return sum(spent.get(pid, 0) for pid in found) / ticks


def _bound_paths(argv: Sequence[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """What of the referee's files a bot's command needs: the program's installation, and the files it names.

    Returns the absolute paths to show read-only where they are, and (path, relative name) pairs of the words
    that name a file relative to the referee's directory, to show at that name in the bot's own directory.
    """
    absolute: list[str] = []
    relative: list[tuple[str, str]] = []
    program = shutil.which(argv[0]) if os.sep not in argv[0] else argv[0]
    if program is not None:
        for path in (os.path.abspath(program), os.path.realpath(program)):
            parent = os.path.dirname(path)
            # a program in X/bin (an interpreter, a virtual environment) or X/shims (pyenv) needs all of X
            absolute.append(os.path.dirname(parent) if os.path.basename(parent) in ("bin", "shims") else path)
    for word in argv[1:]:
        if word.startswith("-") or not os.path.exists(word):
            continue
        if os.path.isabs(word):
            absolute.append(os.path.normpath(word))
        elif not word.startswith(".."):
            relative.append((os.path.abspath(word), os.path.normpath(word)))
    return absolute, relative


def _showable(path: str, walls: Sequence[str]) -> bool:
    """Whether ``path`` may be shown again behind the walls: it holds no wall, and it does not reach into a wall
    through a symbolic link (bubblewrap follows links: a bot's ``data -> /home/organiser`` would show that)."""
    real = os.path.realpath(path)
    if any(_inside(wall, real) or _inside(wall, path) for wall in walls):
        return False
    return real == os.path.abspath(path) or not any(_inside(real, wall) for wall in walls)


def _goat_directory() -> str:
    """goat's own package (public code), which any bot may import: ``goat bot NAME`` serves a strategy with it."""
    return str(Path(__file__).resolve().parent.parent)


def _python_paths() -> list[str]:
    """What a bot served by this interpreter (``python -m goat.arena``) imports from: its prefixes and sys.path."""
    paths = [sys.prefix, sys.base_prefix, _goat_directory()]
    return paths + [os.path.abspath(entry) for entry in sys.path if entry and os.path.exists(entry)]


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def confine(
    argv: Sequence[str],
    *,
    mode: Sandbox,
    limits: Limits,
    env: Mapping[str, str] | None = None,
    python: bool = False,
    readable: Iterable[str] = (),
    hidden: Iterable[str] = (),
) -> Confinement:
    """How to start the bot ``argv``: sandboxed as ``mode`` allows, bounded by ``limits``.

    ``env`` adds to the allow-listed environment; ``python``: the bot is served by this interpreter (its
    prefixes and import path are shown to it); ``readable``: more of the referee's paths the bot may read;
    ``hidden``: more directories it may not (where the referee writes its records).
    """
    report = require(mode)
    environment = {name: os.environ[name] for name in ENVIRONMENT if name in os.environ}
    environment |= {"PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", **(env or {})}
    hierarchy, _ = _hierarchy()
    group = BotGroup(hierarchy, limits) if hierarchy is not None else None
    held = {protection.name for protection in report.protections if protection.holds}
    prefix: list[str] = []
    if os.name == "posix":
        prefix = ["/bin/sh", "-c", _JOIN, "goat-join"]
        if "memory per bot" not in held and limits.memory_mb is not None:
            prefix += ["-v", str(limits.memory_mb << 10)]
        if "cpu time per bot" not in held and limits.cpu_seconds is not None:
            prefix += ["-t", str(limits.cpu_seconds)]
        prefix += [*(group.procs_files() if group is not None else []), "--"]
    bwrap, _ = _bubblewrap() if mode != "none" else (None, "")
    walls = _walls(hidden)
    absolute, relative = _bound_paths(argv)
    absolute += _python_paths() if python else [_goat_directory()]
    absolute += [os.path.abspath(path) for path in readable]
    relative = [(target, name) for target, name in relative if _showable(target, walls)]
    absolute = [path for path in dict.fromkeys(absolute) if os.path.exists(path) and _showable(path, walls)]
    if bwrap is None:
        # No namespaces: a directory of its own all the same, where the files it names relatively are found
        scratch = tempfile.mkdtemp(prefix="goat-bot-")
        for target, name in relative:
            link = os.path.join(scratch, name)
            os.makedirs(os.path.dirname(link), exist_ok=True)
            with contextlib.suppress(OSError):
                os.symlink(target, link)
        environment |= {"HOME": scratch, "TMPDIR": scratch}
        return Confinement([*prefix, *argv], environment, scratch, group, scratch, report)
    environment |= {"HOME": _SCRATCH, "TMPDIR": _SCRATCH}
    room = str((limits.memory_mb or DEFAULT_MEMORY_MB) << 20)  # what it may write counts as memory
    command = [bwrap, *_bubblewrap_flags(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
    for wall in walls:
        writable = wall in _PRIVATE
        command += ["--size", room if writable else str(1 << 20), "--tmpfs", wall]
    for path in absolute:  # shown again where a wall hid it, once: not inside another path shown again
        if any(_inside(path, wall) for wall in walls) and not any(
            other != path and _inside(path, other) for other in absolute
        ):
            command += ["--ro-bind", path, path]
    for target, name in relative:
        command += ["--ro-bind", target, os.path.join(_SCRATCH, name)]
    for wall in walls:  # nothing written where the referee's files were: only in its own /tmp and /dev/shm
        if wall not in _PRIVATE:
            command += ["--remount-ro", wall]
    program, _ = _syscall_filter()
    filtered = None
    if program is not None:
        filtered = os.memfd_create("goat-seccomp", 0) if hasattr(os, "memfd_create") else None
        if filtered is not None:
            os.write(filtered, program)
            os.lseek(filtered, 0, os.SEEK_SET)
            command += ["--seccomp", str(filtered)]
    command += ["--chdir", _SCRATCH, "--clearenv"]
    for name, value in environment.items():
        command += ["--setenv", name, value]
    fds = () if filtered is None else (filtered,)
    return Confinement([*prefix, *command, "--", *argv], {}, "/", group, None, report, fds)


def _walls(hidden: Iterable[str]) -> list[str]:
    """The directories a sealed bot does not see (an empty one in their place): the shared temporary ones, the
    referee's working directory, the homes, the control groups' file system, and ``hidden``; as the system names
    them (no symbolic link in their path), outermost first, none inside another."""
    named = [*_SHARED, os.getcwd(), os.path.expanduser("~"), "/root", "/home", "/sys/fs/cgroup", *hidden]
    found = sorted({os.path.realpath(path) for path in named if os.path.isdir(path)} - {"/"}, key=len)
    walls: list[str] = []
    for wall in found:
        if not any(_inside(wall, outer) for outer in walls) or wall in _PRIVATE:
            walls.append(wall)
    return walls
