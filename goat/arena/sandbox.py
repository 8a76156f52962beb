"""How a sealed bot is confined, and the report of what holds on this machine.

A sealed bot runs under `bubblewrap <https://github.com/containers/bubblewrap>`_ (``bwrap``, the
sandbox Flatpak uses): user, PID, network, IPC, UTS and mount namespaces of its own, the system
read-only, the referee's working directory and the shared temporary directories hidden, a private
``/tmp`` that is its working directory and ``HOME``.  Its resources are bounded *per bot* — all its
processes together — by a control group (:mod:`goat.arena.cgroups`: v2 where this process may make
sub-groups or has a group delegated to it, or v1 as root): memory, number of tasks, CPU time, and at
most one CPU.  Where neither is to be had, the bot runs in a session of its own with per-process
resource limits, and :func:`probe` says which protections are missing: ``sandbox="required"`` refuses
to start then, ``"auto"`` plays and records what held, ``"none"`` asks for no sandbox at all.

>>> from goat.arena import sandbox
>>> report = sandbox.probe()
>>> [protection.name for protection in report.protections][:3]
['namespaces', 'filesystem', 'network']
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

import attrs

from goat.arena import cgroups
from goat.errors import install_command, shown

__all__ = [
    "DEFAULT_MEMORY_MB",
    "DEFAULT_PROCESSES",
    "ENVIRONMENT",
    "MAX_LIMITS",
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


#: The largest bound of each kind a bot may be given (a TiB of memory, a year of CPU, Linux's most tasks): beyond,
#: the kernel refuses the limit and every game would fail as a fault of the bot.
MAX_LIMITS: Final = {"memory_mb": 1 << 20, "cpu_seconds": 365 * 86_400, "processes": 1 << 22}


def _bound(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    most = MAX_LIMITS[attribute.name]
    if value is not None and (type(value) is not int or not 1 <= value <= most):
        raise ValueError(f"{attribute.name} must be an int from 1 to {most:,}, or None, not {shown(value)}")


@attrs.frozen
class Limits:
    """A bot's bounds, all its processes together: memory in MiB, CPU seconds in all, tasks at once
    (each ``None`` for none); each at most :data:`MAX_LIMITS`."""

    memory_mb: int | None = attrs.field(default=DEFAULT_MEMORY_MB, validator=_bound)
    cpu_seconds: int | None = attrs.field(default=None, validator=_bound)
    processes: int | None = attrs.field(default=DEFAULT_PROCESSES, validator=_bound)


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


@functools.cache
def probe(mode: Sandbox = "auto") -> SandboxReport:
    """Each protection of sealed play on this machine in ``mode``, whether it holds, and how or why not.

    ``"none"`` confines nothing but the environment (and bounds what cgroups or rlimits can).
    """
    check_mode(mode)
    bwrap, told = _bubblewrap() if mode != "none" else (None, "sandbox='none'")
    where = cgroups.hierarchy()

    def bounded(controller: str, what: str, fallback: str) -> Protection:
        place = where.place(controller)
        if place is not None and place.version == 2 and controller == "cpuacct":  # v2 counts it in every group
            return Protection(what, True, "cgroup v2: the group's cpu.stat")
        if place is not None:
            return Protection(what, True, f"cgroup v{place.version}: {controller} controller")
        return Protection(what, False, f"{fallback} ({where.why_not(controller)})")

    walled = bwrap is not None
    cpu = where.place("cpu")
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
        bounded("cpuacct", "cpu time per bot", "per process only (RLIMIT_CPU), and descendants counted at each reply"),
        bounded("pids", "processes per bot", "unbounded: RLIMIT_NPROC counts the whole user"),
        bounded("cpu", "one cpu per bot", "unbounded: its processes may take every CPU"),
        Protection(
            "idle between turns",
            cpu is not None,
            f"cgroup v{cpu.version}: 5% of a CPU until it is asked"
            if cpu is not None
            else f"it runs between its turns too ({where.why_not('cpu')})",
        ),
        Protection(
            "lifetime",
            walled,
            "its PID namespace dies with it and with the referee"
            if walled
            else "its process group and "
            + (
                "cgroup are killed when it ends, but not if the referee is killed"
                if where.place("pids") is not None
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

# A shell that joins the bot's cgroup (the pid files before "--") and sets the per-process limits that stand in for
# missing cgroup controllers, then becomes the bot: so the bot is bounded from its first instruction on.
_JOIN: Final = 'while [ "$1" != -- ]; do case $1 in -v|-t) ulimit "$1" "$2"; shift;; *) echo $$ >"$1" || exit 125;; esac; shift; done; shift; exec "$@"'  # noqa: E501


@attrs.frozen
class Confinement:
    """How to start one bot: its full command line, environment and working directory; its group, if any."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    group: cgroups.BotGroup | None
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
    where = cgroups.hierarchy()
    group = None
    if where.places:
        group = cgroups.BotGroup(where, memory_mb=limits.memory_mb, processes=limits.processes, idle_quota=_IDLE_QUOTA)
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
