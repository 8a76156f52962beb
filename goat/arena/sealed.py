"""Sealed bots: a protocol bot in a child process, which the referee can time, limit and kill.

:class:`BotProcess` is one child process speaking the protocol of :mod:`goat.arena.protocol`: it writes
a request, reads exactly one reply line within a deadline, keeps a bounded tail of the bot's standard
error, and kills the bot's whole process group when it overruns, floods, breaks the protocol or when
the match ends.  :class:`ProcessStrategy` wraps it as a :class:`~goat.Strategy`; it is what
``goat.load_strategy("exec:COMMAND")`` returns, and what the arena plays sealed entrants with.

Every failure of the bot is a :class:`BotFault` whose ``kind`` says what happened: ``"timeout"``,
``"crash"`` (the process exited, was killed, or could not start), ``"protocol"`` (a reply that is not
one JSON object, the wrong ``type``, a missing field, output nobody asked for), ``"flood"`` (a line
over :data:`~goat.arena.protocol.MAX_LINE` bytes), ``"error"`` (the bot answered with an ``error``
message) or ``"illegal"`` (a move that does not parse or is not legal).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from goat.arena.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    ProtocolError,
    decode,
    encode,
    notation_list,
    parse_move,
    result_to_json,
    view_text,
)
from goat.errors import GoatError, InvalidMoveError, shown
from goat.moves import Move
from goat.scoring import GameResult
from goat.strategy import canonical_move, import_path_spec
from goat.view import PlayerView

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "STARTUP_LIMIT",
    "STDERR_TAIL",
    "BotFault",
    "BotProcess",
    "ProcessStrategy",
    "bot_command",
    "check_seconds",
    "import_path_env",
    "split_command",
]

#: Seconds a sealed bot has for each reply when nobody sets a limit: sealed play never waits forever.
DEFAULT_TIME_LIMIT: Final = 10.0
#: Seconds a new process has to answer ``hello`` (interpreter start-up and imports included).
STARTUP_LIMIT: Final = 10.0
#: Bytes of a bot's standard error kept for the record of a fault (the last ones).
STDERR_TAIL: Final = 4096
#: The longest time limit a bot may be given, in seconds: a day (``None`` is no limit in-process; a sealed bot
#: always has one, and the system's timers do not take much longer ones).
MAX_TIME_LIMIT: Final = 86_400.0
#: Seconds a bot has to exit after ``quit`` before its process group is killed.
QUIT_GRACE: Final = 0.5

# A small supervisor runs between the referee and the bot, for the bot's whole life.  It forks the bot
# (with the resource limits set in the child only), and on Linux makes itself the "subreaper" of
# everything the bot starts, so that a helper process cannot escape by changing its process group or
# double-forking: orphans are re-parented to the supervisor, which kills every descendant when the bot
# ends, when the referee asks (SIGTERM), and when the referee dies (PR_SET_PDEATHSIG).  Where Linux allows it,
# the bot also runs in a PID namespace of its own (below), so that not even a helper that kills the
# supervisor outlives it.  It mirrors the
# bot's exit (status or signal).  Running as a separate program also keeps the referee from running
# Python code between fork and exec, which is unsafe in a process with threads.
_SUPERVISOR: Final = """\
import os, signal, sys
referee, memory, cpu, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
linux = sys.platform.startswith("linux")
if linux:
    import ctypes
    libc = ctypes.CDLL(None)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: told when the referee dies
    libc.prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: the bot's orphans become ours
    if os.getppid() != referee:  # the referee died before that took effect
        os._exit(1)
    # A user and a PID namespace of the bot's own where the system allows them (the user namespace maps only the
    # user's own ids, root's too).  The namespace's first process, a small init, starts the bot: when the bot
    # ends, the init ends, and the kernel kills everything else in the namespace, even a helper that killed this
    # supervisor first.  Nothing inside can name a process outside, to signal it (a fake Ctrl-C); as the user
    # namespace is a child of the referee's, nothing inside may trace one or read its memory, not even as root;
    # and the init mounts a /proc of the namespace's own, so the bot does not see the other processes at all
    # (their command lines, a tournament's seed among them).  Where the user namespace is refused, a PID
    # namespace alone (root may have one); where that is refused too, the subreaper remains.
    uid, gid = os.getuid(), os.getgid()
    sealed = libc.unshare(0x10000000 | 0x20000000) == 0  # CLONE_NEWUSER | CLONE_NEWPID
    if sealed:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            try:
                with open(f"/proc/self/{name}", "w") as mapping:
                    mapping.write(text)
            except OSError:
                pass
    else:
        sealed = libc.unshare(0x20000000) == 0  # CLONE_NEWPID
    # PR_SET_DUMPABLE 0 (once the maps are written: it makes /proc/self root's): no process of the bot's may read
    # or write this one's memory
    libc.prctl(4, 0, 0, 0, 0)
else:
    sealed = False

def start_bot():
    bot = os.fork()
    if bot:
        return bot
    if linux:
        libc.prctl(1, signal.SIGKILL)  # the bot dies with its parent
        if sealed:
            # No power of its own inside its namespaces, even as root there: every capability out of the bounding
            # set (PR_CAPBSET_DROP) and the ambient one (PR_CAP_AMBIENT_CLEAR_ALL), and no new privileges from a
            # set-user-ID program (PR_SET_NO_NEW_PRIVS).  So it cannot unmount its /proc to see the host's, trace
            # the init or the supervisor, or change its mounts.
            try:
                with open("/proc/sys/kernel/cap_last_cap") as last:
                    capabilities = int(last.read()) + 1
            except (OSError, ValueError):
                capabilities = 64
            for capability in range(capabilities):
                libc.prctl(24, capability, 0, 0, 0)
            libc.prctl(47, 4, 0, 0, 0)
            libc.prctl(38, 1, 0, 0, 0)
    if memory != "-" or cpu != "-":
        import resource
        if memory != "-":
            resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
        if cpu != "-":
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
    try:
        os.execvp(argv[0], argv)
    except OSError as error:
        print(f"cannot start {argv[0]!r}: {error.strerror}", file=sys.stderr)
        os._exit(127)

if sealed:
    told, tell = os.pipe()  # the bot's wait status, from the init to this supervisor
    bot = os.fork()
    if bot == 0:  # the init: process 1 of the namespace
        os.close(told)
        libc.prctl(1, signal.SIGKILL)  # it dies with the supervisor, and the whole namespace with it
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: the bot may not read its memory or its files (the pipe)
        os.setsid()  # out of the supervisor's process group: kill(0, ...) inside reaches nothing outside
        # CLONE_NEWNS, then MS_REC | MS_PRIVATE: mounts of its own, which reach nothing outside (only then is a
        # /proc mounted: on a mount shared with the host's it would reach the host's /proc)
        if libc.unshare(0x00020000) == 0 and libc.mount(b"none", b"/", None, 0x4000 | 0x40000, None) == 0:
            libc.mount(b"proc", b"/proc", b"proc", 0x2 | 0x4 | 0x8, None)  # MS_NOSUID | MS_NODEV | MS_NOEXEC
        child = start_bot()
        os.close(0)
        os.close(1)
        while True:  # reaps every orphan of the namespace, as its init must, until the bot ends
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                os._exit(1)
            if pid == child:
                os.write(tell, str(status).encode())
                os._exit(0)
    os.close(tell)
else:
    bot = start_bot()
os.close(0)
os.close(1)  # the pipes are the bot's alone: the referee sees their end when the bot's end comes
me = os.getpid()

def descendants():
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(b") ", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, frontier = set(), {me}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= frontier
    return found

def clean_up():
    for _ in range(20):
        others = descendants() if linux else set()
        if not others:
            break
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass

def stop(signum, frame):
    try:
        os.kill(bot, signal.SIGKILL)
    except OSError:
        pass
    clean_up()
    os._exit(1)

signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    try:
        pid, status = os.waitpid(-1, 0)
    except ChildProcessError:
        os._exit(1)
    if pid == bot:
        if sealed:  # the init's status stands for the bot's, which it told
            try:
                status = int(os.read(told, 32))
            except ValueError:
                status = 1 << 8
        clean_up()
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(me, os.WTERMSIG(status))
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
"""


class BotFault(GoatError):  # noqa: N818 - "fault" is the arena's word (records.Fault)
    """A sealed bot failed: ``kind`` says how (see the module documentation), ``reason`` in words.

    ``stderr`` is the tail of the bot's standard error, ``killed`` whether the process was killed
    (it is then started afresh for the next game).
    """

    def __init__(self, kind: str, reason: str, *, stderr: str = "", killed: bool = False) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason
        self.stderr = stderr
        self.killed = killed

    def __reduce__(self) -> tuple[Any, ...]:
        # An exception pickles as its class and args by default, and these args are not __init__'s: a fault
        # must travel from a worker process whole (spawn pools, dask).
        return (_fault, (self.kind, self.reason, self.stderr, self.killed))


def check_seconds(value: object, what: str) -> float:
    """``value`` as a time limit: a number of seconds above 0, at most :data:`MAX_TIME_LIMIT` (NaN and infinity
    are none); :class:`TypeError` or :class:`ValueError` naming ``what`` otherwise."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"{what} must be a number of seconds, not {shown(value)}")
    if not 0 < value <= MAX_TIME_LIMIT:
        raise ValueError(
            f"{what} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, not {shown(value)}"
        )
    return float(value)


def _fault(kind: str, reason: str, stderr: str, killed: bool) -> BotFault:
    return BotFault(kind, reason, stderr=stderr, killed=killed)


#: The longest ``exec:`` command read, in characters (splitting words as a shell does takes time).
MAX_COMMAND: Final = 1 << 16


def split_command(command: str) -> list[str]:
    """A bot's command line as words, split as a POSIX shell splits them; :class:`ValueError` if it cannot be."""
    if len(command) > MAX_COMMAND:
        raise ValueError(f"a bot's command is at most {MAX_COMMAND} characters, not {len(command)}")
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise ValueError(f"cannot split the bot's command {command[:80]!r} into words: {error}") from None
    if not words:
        raise ValueError(f"a bot's command names a program to run, not {shown(command)}")
    return words


def bot_command(spec: str) -> list[str]:
    """The command that serves the installed strategy ``spec`` as a sealed bot, with this interpreter: a
    plugin by the import path this process found for it (:func:`goat.strategy.import_path_spec`), and
    the name it was asked for, which the bot gives in its ``hello``."""
    path = import_path_spec(spec)
    return [sys.executable, "-m", "goat.arena", path] + ([spec] if path != spec else [])


def import_path_env() -> dict[str, str]:
    """The environment a child of this interpreter needs to import what this process imports: its ``sys.path``."""
    return {"PYTHONPATH": os.pathsep.join(entry for entry in sys.path if entry)}


class BotProcess:
    """One child process speaking the bot protocol, seen from the referee.

    The child runs in a session (process group) of its own, so that killing it kills whatever it
    started too.  Nothing here blocks without a deadline.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        memory_mb: int | None = None,
        cpu_seconds: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not argv or not all(isinstance(arg, str) for arg in argv):
            raise ValueError(f"a bot command is a non-empty list of words, not {shown(argv)}")
        if (memory_mb is not None or cpu_seconds is not None) and os.name != "posix":
            raise ValueError("memory and CPU limits for sealed bots need a POSIX system")
        self.argv = list(argv)
        self.memory_mb = memory_mb
        self.cpu_seconds = cpu_seconds
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", **(env or {})}
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._selector: selectors.BaseSelector | None = None
        self.starts = 0  #: processes started so far (each new one is greeted again)

    # --- life ---------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` bytes the bot wrote to its standard error, as text."""
        return self._stderr[-STDERR_TAIL:].decode("utf-8", "replace")

    def start(self) -> None:
        """Start the process; :class:`BotFault` (``"crash"``) if the command cannot be run."""
        self.close()
        argv = self.argv
        if os.name == "posix":
            memory = "-" if self.memory_mb is None else str(self.memory_mb * 1024 * 1024)
            cpu = "-" if self.cpu_seconds is None else str(self.cpu_seconds)
            argv = [sys.executable, "-I", "-S", "-c", _SUPERVISOR, str(os.getpid()), memory, cpu, *argv]
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=os.name == "posix",
                env=self.env,
            )
        except OSError as error:
            raise BotFault("crash", f"cannot start {shlex.join(self.argv)}: {error.strerror or error}") from None
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        for stream in (process.stdin, process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
        self._process = process
        self.starts += 1
        self._stdout_closed = False
        self._quit_said = False
        self._buffer.clear()
        self._stderr.clear()
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stdout, selectors.EVENT_READ)
        self._selector.register(process.stderr, selectors.EVENT_READ)

    def leaving(self) -> bool:
        """Whether the bot has closed its standard output (it is exiting, or may as well be): a bot that
        left between games is started afresh, as one whose process has already ended is."""
        if self._process is None or self._selector is None:
            return False
        if not self._stdout_closed:
            self._pump(0.0)
        return self._stdout_closed

    def say_quit(self) -> None:
        """Send ``quit`` (once) without waiting: a match tells all its bots first, then waits for them all."""
        process = self._process
        if process is None or self._quit_said or process.poll() is not None:
            return
        self._quit_said = True
        try:
            assert process.stdin is not None
            os.write(process.stdin.fileno(), encode({"type": "quit"}))
        except OSError:
            pass

    def close(self) -> None:
        """Say ``quit``, give the bot :data:`QUIT_GRACE` seconds to exit, then kill its process group."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            self.say_quit()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=QUIT_GRACE)
        self._kill()

    def _kill(self) -> None:
        """Kill the process and everything in its group, reap it, and close the pipes."""
        process = self._process
        if process is None:
            return
        self._process = None
        if os.name == "posix":
            # First the supervisor, which kills the bot and all it started, wherever they went; then the
            # process group, for whatever is left (the group outlives its leader).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            process.kill()
        process.wait()
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        # Drain nothing more: the tail read so far is what the record keeps.

    def fail(self, kind: str, reason: str, *, kill: bool = True) -> BotFault:
        """A :class:`BotFault` of this bot, with its stderr tail; the process is killed first unless ``kill=False``."""
        if kill:
            self._kill()
        return BotFault(kind, reason, stderr=self.stderr_tail, killed=kill)

    def exit_reason(self) -> str:
        """How the process ended, in words (``exited with status 3``, ``was killed by SIGSEGV``)."""
        process = self._process
        if process is None:
            return "was stopped"
        try:
            code = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its standard output"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with status {code}"

    # --- talking ------------------------------------------------------------------------

    def request(self, message: Mapping[str, Any], *, timeout: float) -> dict[str, Any]:
        """Send ``message`` and read its one reply within ``timeout`` seconds; :class:`BotFault` otherwise."""
        return self.request_line(encode(message), str(message.get("type")), timeout=timeout)

    def request_line(self, line: bytes, kind: str, *, timeout: float) -> dict[str, Any]:
        """:meth:`request` for a message already encoded as one line (of type ``kind``)."""
        if self._process is None:
            raise BotFault("crash", "the process is not running")
        deadline = time.monotonic() + timeout
        self._check_quiet()
        self._write(line, deadline, kind)
        reply = self._read_line(deadline, kind, timeout)
        if self._buffer.strip():
            raise self.fail("protocol", f"replied to {shown(kind)} with more than one line")
        try:
            return decode(reply, each_key_once=True)
        except ProtocolError as error:
            raise self.fail("protocol", f"replied to {shown(kind)} with {error}") from None

    def _check_quiet(self) -> None:
        """The bot speaks only when spoken to: output waiting before a request breaks the protocol."""
        self._pump(0.0)
        if self._buffer:
            unasked = bytes(self._buffer[:80]).decode("utf-8", "replace")
            raise self.fail("protocol", f"wrote {unasked!r} when nobody had asked it anything")
        if self._stdout_closed:
            raise self.fail("crash", f"the process {self.exit_reason()}")

    def _write(self, data: bytes, deadline: float, what: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        fd = process.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                written = os.write(fd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self.fail("crash", f"the process {self.exit_reason()} before reading {shown(what)}") from None
            view = view[written:]
            if view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self.fail(
                        "timeout", f"did not read the {shown(what)} request in time; the process was killed"
                    )
                with selectors.DefaultSelector() as writable:
                    writable.register(fd, selectors.EVENT_WRITE)
                    writable.select(remaining)

    _stdout_closed = False
    _quit_said = False

    def _pump(self, timeout: float) -> None:
        """Read whatever stdout and stderr have, waiting at most ``timeout`` seconds for something."""
        selector = self._selector
        assert selector is not None and self._process is not None
        for key, _ in selector.select(timeout):
            stream = key.fileobj
            try:
                data = os.read(stream.fileno(), 65536)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            if stream is self._process.stderr:
                if not data:
                    selector.unregister(stream)
                else:
                    self._stderr += data
                    del self._stderr[:-STDERR_TAIL]
            elif not data:
                selector.unregister(stream)
                self._stdout_closed = True
            else:
                self._buffer += data

    def _read_line(self, deadline: float, what: str, timeout: float) -> bytes:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                if len(line) > MAX_LINE:
                    raise self.fail("flood", f"replied to {shown(what)} with a line of {len(line)} bytes")
                return line
            if len(self._buffer) > MAX_LINE:
                raise self.fail("flood", f"wrote more than {MAX_LINE} bytes without a line end")
            if self._stdout_closed:
                raise self.fail("crash", f"the process {self.exit_reason()} instead of replying to {shown(what)}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self.fail("timeout", f"no reply to {shown(what)} within {timeout:g} s; the process was killed")
            self._pump(remaining)


class ProcessStrategy:
    """A protocol bot in a child process, used as a :class:`~goat.Strategy`.

    ``goat.load_strategy("exec:python3 my_bot.py")`` makes one.  The process starts at the first
    ``start_game`` (or ``choose``), is told its seat and ``seed`` in ``hello``, serves one seat for as
    many games as it is given, and is started afresh after it was killed.  ``time_limit`` is the
    seconds it has for each reply (default :data:`DEFAULT_TIME_LIMIT`); ``memory_mb`` and
    ``cpu_seconds`` limit the process on POSIX systems; ``env`` adds to its environment.  Any
    failure raises :class:`BotFault`.
    Close it (or use it in a ``with`` block) to end the process; the arena closes the bots of a match
    when the match ends.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | None = None,
        time_limit: float | None = None,
        startup_limit: float = STARTUP_LIMIT,
        memory_mb: int | None = None,
        cpu_seconds: int | None = None,
        name: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        argv = split_command(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError(f"a bot command names a program to run, not {shown(command)}")
        if seed is not None and type(seed) is not int:
            raise TypeError(f"seed must be an int or None, not {shown(seed)}")
        for what, value in (("time_limit", time_limit), ("startup_limit", startup_limit)):
            if value is not None:
                check_seconds(value, what)
        self.name = name or shlex.join(argv)
        self.seed = seed
        self.time_limit = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
        self.startup_limit = float(startup_limit)
        self.bot_name: str | None = None  #: the name the bot gave in its ``hello``
        self._process = BotProcess(argv, memory_mb=memory_mb, cpu_seconds=cpu_seconds, env=env)
        self._game = 0
        self._greeted = 0  # which start of the process answered hello (a new process must be greeted)

    def __repr__(self) -> str:
        return f"ProcessStrategy({self.name!r}, seed={self.seed!r})"

    @property
    def process(self) -> BotProcess:
        return self._process

    def hello(self, seat: int) -> None:
        """Start the process (if it is not running) and greet it: the bot learns its seat and seed."""
        self._ensure(seat)

    def launch(self) -> None:
        """Start the process if it is not running, without waiting for it: a match launches its bots
        together, so that their interpreters start side by side, and greets each at its first request.
        A process that cannot start is left for that request to report (a ``crash``)."""
        if not self._process.alive:
            with contextlib.suppress(BotFault):
                self._process.start()

    def _ensure(self, seat: int) -> bool:
        """Start the process if it is not running (or is leaving), and greet it if it was not; whether a new
        process was greeted."""
        process = self._process
        if process.alive and not process.leaving():
            if self._greeted == process.starts:
                return False
        else:
            process.start()
        hello = {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "seat": seat,
            "seed": self.seed,
            "time_limit": self.time_limit,
        }
        try:
            reply = self._expect(hello, "hello", max(self.startup_limit, self.time_limit))
        except BotFault as fault:
            if fault.killed:
                raise
            # A bot that answers hello with an error cannot play: stopped, so that its seat is out for the game
            # (one fault), not asked again and again as a bot that was never greeted.
            raise self._process.fail(fault.kind, fault.reason) from None
        protocol, name = reply.get("protocol"), reply.get("name")
        if type(protocol) is not int or protocol != PROTOCOL_VERSION or not isinstance(name, str):
            raise self._process.fail(
                "protocol", f"answered hello with {shown(reply, 200)}; expected protocol {PROTOCOL_VERSION} and a name"
            )
        self.bot_name = reply["name"]
        self._greeted = process.starts
        return True

    def _expect(self, message: dict[str, Any] | tuple[str, str], kind: str, timeout: float) -> dict[str, Any]:
        """Send a message (a dict, or its type and JSON text) and read its reply, which must be of type ``kind``."""
        if isinstance(message, tuple):
            sent, text = message
            reply = self._process.request_line(text.encode("utf-8") + b"\n", sent, timeout=timeout)
            message = {"type": sent}
        else:
            reply = self._process.request(message, timeout=timeout)
        if reply["type"] == "error":
            said = reply.get("message")
            if not isinstance(said, str):
                said = repr(reply)
            raise self._process.fail("error", f"answered {message['type']!r} with an error: {said:.500}", kill=False)
        if reply["type"] != kind:
            raise self._process.fail(
                "protocol", f"answered {message['type']!r} with {shown(reply['type'], 40)}, not {kind!r}"
            )
        return reply

    def start_game(self, view: PlayerView, *, timeout: float | None = None) -> None:
        """Tell the bot a game starts (starting its process first if it is not running)."""
        fresh = self._ensure(view.seat)
        self._game += 1
        text = f'{{"type":"start_game","game":{self._game},"view":{view_text(view)}}}'
        try:
            self._expect(("start_game", text), "ok", timeout or self.time_limit)
        except BotFault as fault:
            if fresh or fault.kind != "crash":
                raise
            # A process of an earlier game that ended between games (it may have left right after its last
            # end_game, too late for _ensure to see it go) missed no request: it is replaced, as one seen gone
            # already is.  A new process that crashes at start_game is the bot's fault.
            self._ensure(view.seat)
            self._expect(("start_game", text), "ok", timeout or self.time_limit)

    def _running(self, what: str) -> None:
        """Between ``start_game`` and ``end_game`` the process must stay up: one that died is not restarted
        in the middle of a game (it would miss the game's start), it is a crash."""
        process = self._process
        if process.alive and self._greeted == process.starts:
            return
        if self._game == 0:
            raise BotFault("crash", f"asked to {what} before any start_game")
        if process.alive:  # started again (launch) since this game's start_game: it knows nothing of the game
            raise process.fail("crash", f"a new process, not told of this game, was asked to {what}")
        raise process.fail("crash", f"the process {process.exit_reason()} before the {shown(what)} request")

    def choose(self, view: PlayerView, legal: tuple[Move, ...], *, timeout: float | None = None) -> Move:
        """The bot's move: one of ``legal`` (the referee's own object), or :class:`BotFault`."""
        self._running("choose")
        moves = notation_list(legal)
        text = f'{{"type":"choose","game":{self._game},"view":{view_text(view)},"legal":{moves}}}'
        reply = self._expect(("choose", text), "move", timeout or self.time_limit)
        try:
            move = parse_move(reply.get("move"), "move")
        except (ProtocolError, InvalidMoveError) as error:
            raise self._process.fail(
                "illegal", f"replied with a move that does not parse: {error}", kill=False
            ) from None
        found = canonical_move(move, legal)
        if found is None:
            raise self._process.fail(
                "illegal", f"replied {move}, which is not one of the {len(legal)} legal moves", kill=False
            )
        return found

    def end_game(
        self, view: PlayerView, result: GameResult, *, timeout: float | None = None, forfeit: int | None = None
    ) -> None:
        """Tell the bot the game is over, with its result (``forfeit``: the team that forfeited)."""
        self._running("end_game")
        outcome = json.dumps(result_to_json(result, forfeit=forfeit), separators=(",", ":"))
        text = f'{{"type":"end_game","game":{self._game},"view":{view_text(view)},"result":{outcome}}}'
        self._expect(("end_game", text), "ok", timeout or self.time_limit)

    def close(self) -> None:
        """End the bot's process (``quit``, then a kill if it lingers)."""
        self._process.close()

    def __enter__(self) -> ProcessStrategy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown, modules may be gone
            self.close()
