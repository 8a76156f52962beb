"""Control groups for sealed bots: where this process may make them, and one bot's group.

A bot's group bounds all its processes together: memory, tasks, CPU time, one CPU while it thinks and
next to none while it waits.  Each controller is taken where this process may use it:

- **cgroup v2**, in this process's own group if it has the controllers on for its children (the root
  group, as root on a machine without systemd); else, as root, in the nearest group above with them on (a
  systemd slice); else in its own group, turning them on: a v2 group with controllers on for its children may
  hold no process itself (the root group aside), so its processes move first to a leaf of it,
  ``goat-referee``, as systemd asks of the programs it delegates a group to (``Delegate=yes``; a container's
  own namespace); a user tries that first, in the group delegated to it, and a group above it after;
- **cgroup v1**, in this process's own group of the controller's hierarchy, where it may write (as root).

Where neither holds, :attr:`Hierarchy.missing` says why for each controller, and how to get it:
``systemd-run --user --scope -p Delegate=yes goat …`` runs goat in a scope delegated to it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import secrets
import signal
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import attrs

__all__ = [
    "CONTROLLERS",
    "CPU_PERIOD",
    "LEAF",
    "SCOPE_HINT",
    "BotGroup",
    "Hierarchy",
    "Place",
    "find",
    "hierarchy",
    "sweep",
]

#: The controllers a bot's group is bounded by: memory, tasks, CPU, and where its CPU time is read (v1's
#: ``cpuacct``; on v2, the ``cpu.stat`` of the bot's group, which every v2 group has).
CONTROLLERS: Final = ("memory", "pids", "cpu", "cpuacct")
#: The scheduler's period, in microseconds: the bot's quota per period is one period, so one CPU.
CPU_PERIOD: Final = 100_000
#: The leaf this process moves to in a group delegated to it, so that the group may turn controllers on.
LEAF: Final = "goat-referee"
#: How to run goat where the machine has cgroup v2 and systemd but nothing delegated to it.
SCOPE_HINT: Final = "run goat as `systemd-run --user --scope -p Delegate=yes goat …` to get them"
#: Bots' groups are named ``goat-bot-PID-N-RANDOM``, PID the referee's: a sweep finds those of dead referees.
_PREFIX: Final = "goat-bot-"


@attrs.frozen
class Place:
    """Where bots' groups of one controller are made: ``parent``, a directory of a cgroup ``version`` (1 or 2)."""

    controller: str
    version: int
    parent: str


@attrs.frozen
class Hierarchy:
    """Where each controller's groups are made on this machine, and why the missing ones are missing."""

    places: tuple[Place, ...] = ()
    missing: tuple[tuple[str, str], ...] = ()  #: (controller, why it is not to be had)

    def place(self, controller: str) -> Place | None:
        """Where ``controller``'s groups are made, or ``None``."""
        return next((place for place in self.places if place.controller == controller), None)

    def why_not(self, controller: str) -> str:
        """Why ``controller`` is not to be had here."""
        return dict(self.missing).get(controller, "not asked for")


# --- where: reading this machine ----------------------------------------------------------------


def _mounts() -> list[tuple[str, str, frozenset[str]]]:
    """The cgroup file systems mounted here: (type, mount point, options)."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        before, _, after = line.partition(" - ")
        kind, _, options = after.split(" ", 2) if after.count(" ") >= 2 else (after, "", "")
        if kind in ("cgroup", "cgroup2"):
            found.append((kind, before.split(" ")[4], frozenset(options.split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: controller (``""`` for v2) to path."""
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


def _words(directory: str, name: str) -> set[str]:
    try:
        return set(Path(directory, name).read_text().split())
    except OSError:
        return set()


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


def _turn_on(directory: str, wanted: set[str], top: bool) -> str:
    """Turn ``wanted`` controllers on for the children of ``directory``, a group this process may write; ``""``,
    or why not.  A v2 group may not while it holds processes, unless it is the ``top`` of the hierarchy: they
    move first to its leaf :data:`LEAF` (in a scope delegated to goat, its own processes: its launcher's too)."""
    turn_on = " ".join(f"+{name}" for name in sorted(wanted))
    if top:
        with contextlib.suppress(OSError):  # the root group holds processes and controllers both
            Path(directory, "cgroup.subtree_control").write_text(turn_on)
            return ""
    leaf = os.path.join(directory, LEAF)
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(leaf)
        for pid in _words(directory, "cgroup.procs"):
            with contextlib.suppress(ProcessLookupError):  # it has ended meanwhile
                Path(leaf, "cgroup.procs").write_text(pid)
        Path(directory, "cgroup.subtree_control").write_text(turn_on)
    except OSError as error:
        return f"cgroup v2: {directory} refused its controllers ({error.strerror}); {SCOPE_HINT}"
    return ""


def _own(point: str, directory: str, wanted: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The controllers of ``wanted`` this process may turn on in its own group ``directory``, and why not."""
    if not _writable(directory):
        return {}, dict.fromkeys(wanted, f"cgroup v2: {directory} is not delegated to this user; {SCOPE_HINT}")
    available = wanted & _words(directory, "cgroup.controllers")
    why = {name: f"cgroup v2: the {name} controller is not available in {directory}" for name in wanted - available}
    off = available - _words(directory, "cgroup.subtree_control")
    refused = _turn_on(directory, off, directory == point) if off else ""
    if refused:
        return {}, why | dict.fromkeys(available, refused)
    return dict.fromkeys(available, directory), why


def _above(point: str, directory: str, wanted: set[str]) -> dict[str, str]:
    """The controllers of ``wanted`` on in the nearest group above ``directory`` where this process may make
    groups (as root: a systemd slice), in one directory: a process is in one v2 group only."""
    while directory != point:
        directory = os.path.dirname(directory)
        usable = wanted & _words(directory, "cgroup.subtree_control")
        if usable and _writable(directory):
            return dict.fromkeys(usable, directory)
    return {}


def _v2(point: str, own: str, wanted: set[str], root: bool) -> tuple[dict[str, str], dict[str, str]]:
    """The v2 groups under which bots' groups of each of ``wanted`` may be made, and why not for the others.

    Root takes a group above before it turns controllers on in its own (which moves processes); a user, whose
    own group is the one delegated to it, the other way round."""
    point = os.path.normpath(point)
    directory = os.path.normpath(os.path.join(point, own.lstrip("/")))
    if wanted <= _words(directory, "cgroup.subtree_control") and _writable(directory):
        return dict.fromkeys(wanted, directory), {}
    found = _above(point, directory, wanted) if root else {}
    why: dict[str, str] = {}
    if not found:
        found, why = _own(point, directory, wanted)
    if not found and not root:
        found = _above(point, directory, wanted)
    return found, {name: reason for name, reason in why.items() if name not in found}


def find(mounts: Iterable[tuple[str, str, frozenset[str]]], groups: Mapping[str, str], *, root: bool) -> Hierarchy:
    """Where a process in ``groups`` (as ``/proc/PID/cgroup`` says) of the file systems ``mounts`` (type, mount
    point, options), as ``root`` or not, may make bots' groups: v2 for each controller where it may, else v1."""
    mounts = list(mounts)
    found: dict[str, Place] = {}
    why: dict[str, str] = {}
    for kind, point, _ in mounts:
        if kind == "cgroup2" and "" in groups:
            usable, why = _v2(point, groups[""], {"memory", "pids", "cpu"}, root)
            found = {name: Place(name, 2, directory) for name, directory in usable.items()}
            break
    if found:  # its time is in every v2 group's cpu.stat
        found["cpuacct"] = Place("cpuacct", 2, next(iter(found.values())).parent)
    for controller in CONTROLLERS:
        for kind, point, options in mounts:
            if controller not in found and kind == "cgroup" and controller in options and controller in groups:
                directory = os.path.join(point, groups[controller].lstrip("/"))
                if _writable(directory):
                    found[controller] = Place(controller, 1, directory)
                else:
                    why[controller] = f"cgroup v1: {directory} is not writable (only root may)"
        why.setdefault(controller, "no cgroup hierarchy has this controller")
    places = tuple(found[name] for name in CONTROLLERS if name in found)
    return Hierarchy(places, tuple((name, why[name]) for name in CONTROLLERS if name not in found))


@functools.cache
def hierarchy() -> Hierarchy:
    """Where this process makes bots' groups (found once: it may move this process to a leaf, see above)."""
    if not sys.platform.startswith("linux"):
        return Hierarchy((), tuple((name, f"no cgroups on {sys.platform}") for name in CONTROLLERS))
    return find(_mounts(), _own_groups(), root=os.geteuid() == 0)


# --- one bot's group ------------------------------------------------------------------------------

_COUNTER = itertools.count()


class BotGroup:
    """One bot's control group (one directory per hierarchy): made with its limits before the bot starts,
    emptied and removed after."""

    def __init__(self, where: Hierarchy, *, memory_mb: int | None, processes: int | None, idle_quota: int) -> None:
        sweep(where)
        self.idle_quota = idle_quota
        self.idling = False
        self.directories: dict[str, str] = {}  #: controller to this bot's directory
        self._versions = {place.controller: place.version for place in where.places}
        self._quota_fd: int | None = None  # kept open: opening a cgroup's file costs more than a message
        name = f"{_PREFIX}{os.getpid()}-{next(_COUNTER)}-{secrets.token_hex(3)}"
        made: list[str] = []
        try:
            for place in where.places:
                directory = os.path.join(place.parent, name)
                if directory not in made:
                    os.mkdir(directory)
                    made.append(directory)
                self.directories[place.controller] = directory
            self._limit(memory_mb, processes)
            if "cpu" in self.directories:
                quota = "cpu.max" if self._versions["cpu"] == 2 else "cpu.cfs_quota_us"
                self._quota_fd = os.open(os.path.join(self.directories["cpu"], quota), os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            self.directories = {}
            for directory in made:
                with contextlib.suppress(OSError):
                    os.rmdir(directory)
            raise
        self._cpu_time = where.place("cpuacct")

    def _write(self, controller: str, name: str, value: str) -> None:
        directory = self.directories.get(controller)
        if directory is not None:
            Path(directory, name).write_text(value)

    def _limit(self, memory_mb: int | None, processes: int | None) -> None:
        if processes is not None:
            self._write("pids", "pids.max", str(processes))
        memory = None if memory_mb is None else str(memory_mb << 20)
        if self._versions.get("memory") == 2 and memory is not None:
            self._write("memory", "memory.max", memory)
            with contextlib.suppress(OSError):  # no swap configured: nothing to bound
                self._write("memory", "memory.swap.max", "0")
        elif memory is not None:
            self._write("memory", "memory.limit_in_bytes", memory)
            with contextlib.suppress(OSError):  # swap accounting off: the limit above is the whole bound
                self._write("memory", "memory.memsw.limit_in_bytes", memory)
        if self._versions.get("cpu") == 2:
            self._write("cpu", "cpu.max", f"{CPU_PERIOD} {CPU_PERIOD}")
        else:
            self._write("cpu", "cpu.cfs_period_us", str(CPU_PERIOD))
            self._write("cpu", "cpu.cfs_quota_us", str(CPU_PERIOD))

    def idle(self) -> None:
        """Not its turn: all the bot's processes together get at most ``idle_quota`` microseconds of a CPU per
        period until :meth:`wake`, so that what it leaves running cannot take the CPU from the seat that thinks.

        A CPU quota rather than stopping the processes: it costs one write, where stopping and waking every
        process at every message doubled a message's round trip."""
        if not self.idling:
            self._quota(self.idle_quota)
            self.idling = True

    def wake(self) -> None:
        """Its turn: one CPU again."""
        if self.idling:
            self._quota(CPU_PERIOD)
            self.idling = False

    def _quota(self, microseconds: int) -> None:
        if self._quota_fd is not None:
            value = f"{microseconds} {CPU_PERIOD}" if self._versions["cpu"] == 2 else str(microseconds)
            with contextlib.suppress(OSError):  # the group is gone: the bot has ended
                os.pwrite(self._quota_fd, value.encode(), 0)

    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to join the group in every hierarchy."""
        return [os.path.join(directory, "cgroup.procs") for directory in dict.fromkeys(self.directories.values())]

    def cpu_seconds(self) -> float | None:
        """CPU time used by all the bot's processes so far, or ``None`` if it cannot be read."""
        place = self._cpu_time
        try:
            if place is None:
                return None
            directory = self.directories[place.controller]
            if place.version == 2:
                for line in Path(directory, "cpu.stat").read_text().splitlines():
                    if line.startswith("usage_usec "):
                        return int(line.split()[1]) / 1e6
                return None
            return int(Path(directory, "cpuacct.usage").read_text()) / 1e9
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
        kill = next(
            (
                os.path.join(self.directories[name], "cgroup.kill")
                for name, version in self._versions.items()
                if version == 2 and name in self.directories
            ),
            None,
        )
        for _ in range(50):
            pids = self.pids()
            if not pids:
                break
            if kill is not None and os.path.exists(kill):
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
def sweep(where: Hierarchy) -> None:
    """Once per process: remove the groups that referees which died without cleaning up left (``goat-bot-PID-*``
    of a PID no longer running), killing whatever still runs in them."""
    for parent in dict.fromkeys(place.parent for place in where.places):
        try:
            names = [name for name in os.listdir(parent) if name.startswith(_PREFIX)]
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
