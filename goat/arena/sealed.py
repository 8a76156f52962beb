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
import numbers
import os
import secrets
import selectors
import shlex
import shutil
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
from goat.arena.sandbox import (
    DEFAULT_MEMORY_MB,
    DEFAULT_PROCESSES,
    Confinement,
    Limits,
    Sandbox,
    SandboxReport,
    check_mode,
    confine,
    require,
)
from goat.errors import GoatError, InvalidMoveError, finite, shown
from goat.moves import Move, canonical_move
from goat.plugins import import_path_spec
from goat.scoring import GameResult
from goat.view import PlayerView

__all__ = [
    "DEFAULT_TIME_LIMIT",
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
#: Bytes of a bot's standard error kept for the record of a fault (the last ones).
STDERR_TAIL: Final = 4096
#: The longest time limit a bot may be given, in seconds: a day (``None`` is no limit in-process; a sealed bot
#: always has one, and the system's timers do not take much longer ones).
MAX_TIME_LIMIT: Final = 86_400.0
#: The shortest time limit, in seconds: no process replies faster, so a shorter one would forfeit every game.
MIN_TIME_LIMIT: Final = 0.001
#: Seconds a bot has to exit after ``quit`` before its process group is killed.
QUIT_GRACE: Final = 0.5


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
    """``value`` as a time limit: a number of seconds from ``MIN_TIME_LIMIT`` to ``MAX_TIME_LIMIT`` (NaN and
    infinity are none); :class:`TypeError` or :class:`ValueError` naming ``what`` otherwise."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{what} must be a number of seconds, not {shown(value)}")
    seconds = finite(value)
    if seconds is None or not MIN_TIME_LIMIT <= seconds <= MAX_TIME_LIMIT:
        raise ValueError(
            f"{what} must be a number of seconds from {MIN_TIME_LIMIT:g} to {MAX_TIME_LIMIT:g}, not {shown(value)}"
        )
    return seconds


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
    plugin by the import path this process found for it (:func:`goat.plugins.import_path_spec`), and
    the name it was asked for, which the bot gives in its ``hello``."""
    path = import_path_spec(spec)
    return [sys.executable, "-m", "goat.arena", path] + ([spec] if path != spec else [])


def import_path_env() -> dict[str, str]:
    """The environment a child of this interpreter needs to import what this process imports: its ``sys.path``."""
    return {"PYTHONPATH": os.pathsep.join(entry for entry in sys.path if entry)}


class BotProcess:
    """One child process speaking the bot protocol, seen from the referee.

    The child is confined as ``sandbox`` asks (:mod:`goat.arena.sandbox`) and bounded by ``limits``,
    all its processes together; it runs in a session of its own.  Nothing here blocks without a deadline.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
        sandbox: Sandbox = "auto",
        readable: Sequence[str] = (),
        hidden: Sequence[str] = (),
    ) -> None:
        if not argv or not all(isinstance(arg, str) for arg in argv):
            raise ValueError(f"a bot command is a non-empty list of words, not {shown(argv)}")
        self.argv = list(argv)
        self.limits = Limits() if limits is None else limits
        self.sandbox = check_mode(sandbox)
        self.report = require(self.sandbox)  #: what confines the bot: refused here if "required" cannot be met
        self.env = dict(env or {})
        self.readable = tuple(readable)
        self.hidden = tuple(hidden)
        self._process: subprocess.Popen[bytes] | None = None
        self.confinement: Confinement | None = None  #: how the running process is confined
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
        if shutil.which(self.argv[0], path=self.env.get("PATH", os.environ.get("PATH"))) is None:
            raise BotFault("crash", f"cannot start {shlex.join(self.argv)}: {self.argv[0]!r} is no program found")
        try:
            confined = confine(
                self.argv,
                mode=self.sandbox,
                limits=self.limits,
                env=self.env,
                python=self.argv[0] == sys.executable,
                readable=self.readable,
                hidden=self.hidden,
            )
        except OSError as error:  # a cgroup or a scratch directory that could not be made
            raise BotFault("crash", f"cannot confine {shlex.join(self.argv)}: {error}") from None
        try:
            process = subprocess.Popen(
                confined.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=os.name == "posix",
                env=confined.env,
                cwd=confined.cwd,
                pass_fds=confined.fds,
            )
        except OSError as error:
            confined.started()
            confined.close()
            raise BotFault("crash", f"cannot start {shlex.join(self.argv)}: {error.strerror or error}") from None
        confined.started()
        self.confinement = confined
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
        if self.confinement is not None and self.confinement.group is not None:
            self.confinement.group.wake()  # to read quit and leave
        try:
            assert process.stdin is not None
            os.write(process.stdin.fileno(), encode({"type": "quit"}))
        except OSError:
            pass

    def close(self) -> None:
        """Say ``quit``, give the bot ``QUIT_GRACE`` seconds to exit, then kill its process group."""
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
            # The process group first (the sandbox, whose namespace dies with it), then whatever is left in the
            # bot's cgroup; a bot without either may leave a process that changed its session.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            process.kill()
        process.wait()
        if self.confinement is not None:
            self.confinement.close()
            self.confinement = None
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
        walled = self.confinement is not None and self.confinement.walled
        if walled and code > 128:  # bubblewrap exits with 128 + the signal that killed the bot, as a shell does
            code = 128 - code
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
        group = None if self.confinement is None else self.confinement.group
        if group is not None:
            group.wake()  # its turn: it runs until it has answered
        self._write(line, deadline, kind)
        reply = self._read_line(deadline, kind, timeout)
        if self._buffer.strip():
            raise self.fail("protocol", f"replied to {shown(kind)} with more than one line")
        try:
            answer = decode(reply, each_key_once=True)
        except ProtocolError as error:
            raise self.fail("protocol", f"replied to {shown(kind)} with {error}") from None
        budget = self.limits.cpu_seconds
        if budget is not None and self.confinement is not None:
            used = self.confinement.cpu_seconds(self._process.pid)
            if used is not None and used > budget:
                raise self.fail("timeout", f"used {used:.2f} s of CPU in all, over its budget of {budget} s")
        if group is not None:
            group.idle()  # not its turn until the next request: its processes may not take the others' CPU
        return answer

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
    many games as it is given, and is started afresh after it was killed.  Any failure raises :class:`BotFault`.

    - ``seed``: what the bot is told in ``hello``; ``None`` (the arena's choice) draws one from the
      system's random source, which says nothing about any deal or any other bot's seed.
    - ``time_limit``: the seconds it has for each reply, ``hello`` included unless ``startup_limit``
      is given (default :data:`~goat.arena.sealed.DEFAULT_TIME_LIMIT`).
    - ``memory_mb``, ``cpu_seconds``, ``processes``: bounds of the bot, all its processes together
      (defaults :data:`~goat.arena.sandbox.DEFAULT_MEMORY_MB`, none,
      :data:`~goat.arena.sandbox.DEFAULT_PROCESSES`; ``None`` for none).
    - ``sandbox``: ``"auto"`` (the strongest this machine allows), ``"required"``
      (:class:`~goat.arena.sandbox.SandboxError` here if a protection is missing) or ``"none"``;
      :attr:`report` says what holds.
    - ``env``: variables to add to its allow-listed environment; ``readable``: more paths it may read;
      ``hidden``: more directories it may not (where the organiser writes records).

    Close it (or use it in a ``with`` block) to end the process; the arena closes the bots of a match
    when the match ends.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | None = None,
        time_limit: float | None = None,
        startup_limit: float | None = None,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        cpu_seconds: int | None = None,
        processes: int | None = DEFAULT_PROCESSES,
        name: str | None = None,
        env: Mapping[str, str] | None = None,
        sandbox: Sandbox = "auto",
        readable: Sequence[str] = (),
        hidden: Sequence[str] = (),
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
        self.seed = secrets.randbits(63) if seed is None else seed
        self.time_limit = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
        self.startup_limit = self.time_limit if startup_limit is None else float(startup_limit)
        self.bot_name: str | None = None  #: the name the bot gave in its ``hello``
        self._process = BotProcess(
            argv,
            limits=Limits(memory_mb, cpu_seconds, processes),
            env=env,
            sandbox=sandbox,
            readable=readable,
            hidden=hidden,
        )
        self._game = 0
        self._greeted = 0  # which start of the process answered hello (a new process must be greeted)

    @property
    def report(self) -> SandboxReport:
        """What confines this bot on this machine (see :func:`goat.arena.sandbox.probe`)."""
        return self._process.report

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
            reply = self._expect(hello, "hello", self.startup_limit)
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
