"""The seats of the referee: how it calls a bot without trusting it.

An in-process bot (:class:`InProcessSeat`) runs in the referee's own process, so the referee guards
every call: the lookup of the bot's method and the call itself run under the time budget; whatever
the bot raises is described within that budget, safely, in bounded text; the objects the bot was given
(its legal moves, the cards, the plays of its view) and the process-wide settings a bot can reach (the
recursion limit, signal handlers, the interval timer, the standard streams) are checked after the call
and put back if it changed them; the bot's answer is looked up by value among the legal moves, and a
move rebuilt from the referee's own record is played.  A sealed bot (:class:`SealedSeat`) is a child
process (:mod:`goat.arena.sealed`).  Either way, what a bot does wrong becomes a :class:`SeatFault`.

What in-process play cannot prevent is written on the documentation's "Sealed play" page.
"""

from __future__ import annotations

import contextlib
import gc
import operator
import os
import queue
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import Any, Final

import attrs

from goat.arena.sealed import DEFAULT_TIME_LIMIT, BotFault, ProcessStrategy
from goat.cards import DECK, Card
from goat.errors import MAX_REASON, GoatError, clean_text, describe_error
from goat.moves import Move, MoveKind
from goat.scoring import GameResult
from goat.strategy import Strategy, move_key
from goat.view import PlayerView, SeenMove, SeenTrick

__all__ = ["InProcessSeat", "SealedSeat", "SeatFault", "clean_text", "describe_error", "watching_interrupts"]


class SeatFault(Exception):  # noqa: N818 - "fault" is the arena's word (records.Fault)
    """What a seat did wrong, as the record will say it."""

    def __init__(self, kind: str, reason: str, stderr: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = clean_text(reason, MAX_REASON)
        self.stderr = clean_text(stderr, 1 << 16) if stderr else None

    def __reduce__(self) -> tuple[Any, ...]:  # it travels back from a worker process (a tournament's probe)
        return (SeatFault, (self.kind, self.reason, self.stderr))


# --- a real Ctrl-C, told apart from a bot's KeyboardInterrupt or SIGINT ---------------------------

_INTERRUPTS = [0]  # real SIGINTs received while a match was being played


def interrupts_seen() -> int:
    """How many real SIGINTs :func:`watching_interrupts` has counted so far."""
    return _INTERRUPTS[0]


def is_real_interrupt(error: BaseException, before: int) -> bool:
    """Whether ``error`` is a real Ctrl-C (one counted since ``before``), not a bot's own ``KeyboardInterrupt``."""
    return isinstance(error, KeyboardInterrupt) and _INTERRUPTS[0] > before


def _from_a_bot(pid: int) -> bool:
    """Whether the process ``pid`` is this one or one of its descendants: a bot, in-process or sealed."""
    me = _getpid()
    for _ in range(64):
        if pid == me:
            return True
        if pid <= 1:
            return False
        try:
            with _open(f"/proc/{pid}/stat", "rb") as stat:
                pid = int(stat.read().rsplit(b") ", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
    return False


# The functions of sys, signal and threading that the guard and the watcher call, bound at import: a bot's code
# can replace a module's attribute (``sys.getrecursionlimit = lambda: liar``), never these names.
_sig: Final = types.SimpleNamespace(**vars(signal))  # every constant and function of signal, as it was
_getpid: Final = os.getpid
_getpgrp: Final = getattr(os, "getpgrp", lambda: 0)
_get_ident: Final = threading.get_ident
_stack_size: Final = threading.stack_size
_SI_USER: Final = getattr(os, "SI_USER", 0)
_SI_TKILL: Final = -6  # Linux's si_code of a signal sent to one thread (tgkill: raise, pthread_kill)
_open: Final = open
_Thread: Final = threading.Thread
_getrecursionlimit: Final = sys.getrecursionlimit
_setrecursionlimit: Final = sys.setrecursionlimit
_getswitchinterval: Final = sys.getswitchinterval
_setswitchinterval: Final = sys.setswitchinterval
_clock: Final = time.perf_counter
_current_thread: Final = threading.current_thread
_main_thread: Final = threading.main_thread


@contextmanager
def watching_interrupts() -> Iterator[None]:
    """Count the real SIGINTs while bots play, so that one a bot raises or sends is its own business.

    Where the system tells who sent a signal (Linux), SIGINT is taken by a watching thread: one from
    the terminal or from another program stops the run; one from this process or its descendants (a
    bot calling ``os.kill``) is ignored.  Elsewhere every SIGINT counts as real.  Only the main thread
    receives signals; in other threads any ``KeyboardInterrupt`` comes from a bot.
    """
    if _current_thread() is not _main_thread():
        yield
        return
    previous = _sig.getsignal(_sig.SIGINT)

    def handler(signum: int, frame: Any) -> None:  # a SIGINT that reached Python without the watcher
        if previous == _sig.SIG_IGN:  # the process ignores SIGINT (started in the background, say): so does play
            return
        if watched and (_UNBLOCKED[0] or _unblocked_threads() - unblocked):
            # While the watcher runs, SIGINT is blocked in every thread it made or bots made: one that reached a
            # handler came through a thread where a bot unblocked it (and raised it there, signal.raise_signal):
            # the bot's, as one it sends with os.kill is.
            _SIGNALLED[0] += 1
            _UNBLOCKED[0] = False
            return
        _INTERRUPTS[0] += 1
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    _sig.signal(_sig.SIGINT, handler)
    watched = sys.platform.startswith("linux") and previous != _sig.SIG_IGN and _WATCHING[0] == 0
    unblocked: set[int] = set()
    if watched:
        previous_usr2 = _sig.signal(_sig.SIGUSR2, _wake)
        blocked = _sig.pthread_sigmask(_sig.SIG_BLOCK, {_sig.SIGINT})
        _ensure_watcher()
        unblocked = _unblocked_threads()  # the program's own threads that take SIGINT (the watcher's among them)
        _WATCHING[0] += 1
    real = False
    try:
        yield
    finally:
        if watched:
            _WATCHING[0] -= 1
            real = _drain_sigint()
            _sig.pthread_sigmask(_sig.SIG_SETMASK, blocked)
            _sig.signal(_sig.SIGUSR2, previous_usr2)
        _sig.signal(_sig.SIGINT, previous)
    if real:
        _INTERRUPTS[0] += 1
        raise KeyboardInterrupt


def _unblocked_threads() -> set[int]:
    """The threads of this process (their ids in /proc) in which SIGINT is not blocked."""
    found: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with _open(f"/proc/self/task/{task}/status", "rb") as status:
                for line in status:
                    if line.startswith(b"SigBlk:"):
                        if not int(line.split()[1], 16) & 1 << (_sig.SIGINT - 1):
                            found.add(int(task))
                        break
        except (OSError, ValueError):
            continue
    return found


def _drain_sigint() -> bool:
    """Take the SIGINTs still pending in the main thread before it unblocks SIGINT again; whether one was real.

    A real one goes to the watcher as soon as it comes; one pending here was sent to this thread alone
    (``signal.raise_signal``, ``pthread_kill``) by a bot, and would pass for the operator's once unblocked."""
    real = False
    while True:
        try:
            info = _sig.sigtimedwait({_sig.SIGINT}, 0)
        except (OSError, ValueError):
            return real
        if info is None:
            return real
        if not (info.si_code in (_SI_USER, _SI_TKILL) and _from_a_bot(info.si_pid)):
            real = True


# The watching thread lives as long as the process, waiting for SIGINT (blocked in the main thread while a
# match is watched, and in the watcher itself).  A real one is handed to the main thread as SIGUSR2, whose
# handler raises KeyboardInterrupt: a signal, unlike _thread.interrupt_main, also wakes a thread that sleeps
# or waits for a bot.  Outside a watched match it passes every SIGINT on to the main thread unchanged.
_WATCHING = [0]
_REAL = [False]
_WATCHER: list[threading.Thread] = []
_WATCHER_IDENTS: set[int | None] = set()  # the watcher's thread: its own pthread_kill is no bot's


def _wake(signum: int, frame: Any) -> None:
    if _REAL[0]:
        _REAL[0] = False
        raise KeyboardInterrupt


def _ensure_watcher() -> None:
    if _WATCHER and _WATCHER[0].is_alive():
        return
    main = _main_thread().ident
    assert main is not None

    def watch() -> None:
        while True:
            try:
                info = _sig.sigwaitinfo({_sig.SIGINT})
            except BaseException:  # pragma: no cover - it only fails on a bad argument
                continue
            try:
                if _WATCHING[0] == 0:
                    _sig.pthread_kill(main, _sig.SIGINT)  # as if it had gone to the main thread
                    continue
                if info.si_code == _SI_USER and _from_a_bot(info.si_pid):
                    continue  # a bot's own SIGINT
            except BaseException:  # could not tell whose it is: the person's, so that Ctrl-C always works
                pass
            _INTERRUPTS[0] += 1
            _REAL[0] = True
            with contextlib.suppress(BaseException):  # the watcher must live on, whatever happened here
                _sig.pthread_kill(main, _sig.SIGUSR2)

    thread = _Thread(target=watch, name="goat-sigint", daemon=True)
    thread.start()  # started while SIGINT is blocked in this thread: the watcher inherits the block
    _WATCHER[:] = [thread]
    _WATCHER_IDENTS.add(thread.ident)


# --- audit hooks: none added while a bot's code runs -----------------------------------------------------
#
# An audit hook (sys.addaudithook) can never be removed, and runs in every thread at every audited event: in the
# referee's own check (gc.get_referents) and in the Ctrl-C watcher (open), where a bot's hook would run its code
# outside its call, or make the check blame another seat.  So while a bot's code runs — in a guarded call, and
# in the thread of a call that overran and runs on — the referee's own hook refuses the event that would add
# one (a RuntimeError from a hook makes sys.addaudithook add nothing), and counts the attempt as tampering.
# The hook is added once, on the first guarded call; outside bots' calls it lets everything through.

_CALLS = [0]  # bots' calls running, in any thread (one that overran counts until it ends)
_REFUSED = [0]  # audit hooks refused so far
_SIGNALLED = [0]  # signals to the referee's own process refused, and SIGINTs a bot raised or let through
_UNBLOCKED = [False]  # a bot's call ended with SIGINT unblocked in its thread: the next SIGINT handled is its own


def _refuse_hooks(event: str, args: tuple[Any, ...]) -> None:
    if not _CALLS[0]:
        return
    if event == "sys.addaudithook":
        _REFUSED[0] += 1
        raise RuntimeError("goat's referee: a bot may not add an audit hook")
    if event in _SIGNALLING and _signals_the_referee(event, args) and _get_ident() not in _WATCHER_IDENTS:
        # A bot's signal to its own process — a SIGINT above all, which would pass for the operator's Ctrl-C once
        # the match unblocks it — is refused, and counted as tampering.
        _SIGNALLED[0] += 1
        raise RuntimeError("goat's referee: a bot may not send signals to the referee's process")
    if event in _PROCESS_EVENTS and (_BEFORE[0] is None or _BEFORE_AT[0] < _GUARDS[0]):
        # as it was: the event is audited before the change is made (a reading older than the newest guard, left
        # by a call that overran and ran on, is read again: the guard checking now would drop it)
        _BEFORE[0] = _process_state()
        _BEFORE_AT[0] = _GUARDS[0]


# The audited events by which a bot's code would signal the referee's process: os.kill(pid, sig),
# os.killpg(pgid, sig), signal.pthread_kill(thread, sig) (a thread of this process, always).
_SIGNALLING: Final = frozenset({"os.kill", "os.killpg", "signal.pthread_kill"})


def _signals_the_referee(event: str, args: tuple[Any, ...]) -> bool:
    if args[1] == 0:  # signal 0 delivers nothing: a check that the process lives (psutil.pid_exists)
        return False
    if event == "signal.pthread_kill":
        return True
    target = args[0]
    if type(target) is not int:
        return False  # os.kill refuses it itself
    if event == "os.killpg":
        return target in (0, _getpgrp())
    if target in (0, _getpid(), -_getpgrp()):
        return True
    # On Linux a thread's id is a pid too, and kill() of it signals the whole process
    return target > 0 and os.path.exists(f"/proc/self/task/{target}")


# The process's state that audited events change — its working directory (os.chdir), its environment
# (os.putenv, os.unsetenv, which os.environ calls) and its resource limits (resource.setrlimit, prlimit) — read
# at the first such event in a bot's call, before the change: nothing is read at calls that change none of it.
_PROCESS_EVENTS: Final = frozenset(
    {"os.chdir", "os.fchdir", "os.putenv", "os.unsetenv", "resource.setrlimit", "resource.prlimit"}
)
_BEFORE: list[dict[str, Any] | None] = [None]
_GUARDS = [0]  # guards made so far: a guard puts back only what was read since it was made
_BEFORE_AT = [0]  # the number of guards made when _BEFORE was read


def _new_reading() -> int:
    """Start a guard's watch of the process's state; its number, for :func:`_put_process_state`."""
    _GUARDS[0] += 1
    return _GUARDS[0]


_ENVIRON: Final = os.environ._data  # type: ignore[attr-defined]  # what os.environ holds, as the system's bytes
try:
    import resource as _resource

    _LIMITS: tuple[int, ...] = tuple(
        getattr(_resource, name)
        for name in dir(_resource)
        if name.startswith("RLIMIT_") and isinstance(getattr(_resource, name), int)
    )
except ImportError:  # pragma: no cover - not POSIX
    _resource = None  # type: ignore[assignment]
    _LIMITS = ()


def _process_state() -> dict[str, Any]:
    limits = {}
    for number in _LIMITS:
        with contextlib.suppress(OSError, ValueError):
            limits[number] = _resource.getrlimit(number)
    try:
        where = os.getcwd()
    except OSError:  # the directory was removed under us
        where = None
    return {"cwd": where, "environ": dict(_ENVIRON), "limits": limits}


def _put_process_state(made: int) -> list[str]:
    """Put back what a bot changed of :func:`_process_state` since its first audited event; say what it was.

    ``made``: the number of guards made when the checking guard was.  What was read before it (by a call that
    overran and ran on, after its own guard) is dropped: it may be older than changes made since outside bots."""
    before = _BEFORE[0]
    if before is None:
        return []
    if _BEFORE_AT[0] < made:
        _BEFORE[0] = None
        return []
    now = _process_state()
    changed = []
    if now["cwd"] != before["cwd"] and before["cwd"] is not None:
        changed.append("working directory")
        with contextlib.suppress(OSError):
            os.chdir(before["cwd"])
    if now["environ"] != before["environ"]:
        changed.append("environment")
        for key in now["environ"].keys() - before["environ"].keys():
            with contextlib.suppress(OSError, ValueError):
                os.unsetenv(key)
            _ENVIRON.pop(key, None)
        for key, value in before["environ"].items():
            if now["environ"].get(key) != value:
                with contextlib.suppress(OSError, ValueError):
                    os.putenv(key, value)
                _ENVIRON[key] = value
    if now["limits"] != before["limits"]:
        changed.append("resource limits")
        for number, limit in before["limits"].items():
            if now["limits"].get(number) != limit:
                with contextlib.suppress(OSError, ValueError):  # a hard limit lowered cannot be raised again
                    _resource.setrlimit(number, limit)
    _BEFORE[0] = None  # after putting it back: the referee's own chdir and putenv above are not a bot's
    return changed


class running_a_bot:  # noqa: N801 - used as a function: ``with running_a_bot(): ...``
    """While it is entered, a bot's code runs: no audit hook is added meanwhile, in any thread (see above).

    A class rather than a generator: it is entered at every call of every in-process bot."""

    __slots__ = ()
    _added = False

    def __enter__(self) -> None:
        if not running_a_bot._added:
            running_a_bot._added = True
            sys.addaudithook(_refuse_hooks)
        _CALLS[0] += 1

    def __exit__(self, *exc: object) -> None:
        _CALLS[0] -= 1


# --- what a bot can change: checked after every call, put back ------------------------------------


# The fields of goat's values a bot is shown, by class: read and put back through each class's own slot
# descriptors (in C), so that no code of a bot's — a property of a subclass it swapped in — runs in the check.
_FIELDS: Final[dict[type, tuple[str, ...]]] = {
    Card: ("index", "rank", "suit"),
    Move: ("_key", "cards", "kind", "mask", "seat"),
    SeenMove: ("cards", "kind", "seat", "size"),
    SeenTrick: ("plays", "winner"),
}
_WHAT: Final = {Card: "a card", Move: "a legal move", SeenMove: "a play of its view", SeenTrick: "a trick of its view"}
_SLOTS: Final = {cls: tuple(cls.__dict__[name] for name in names) for cls, names in _FIELDS.items()}
_SET_CLASS: Final = object.__dict__["__class__"].__set__  # object's own: not a __class__ property of a subclass
_MISSING: Final = object()  # a field already deleted when the guard was made: nothing to put back


class _Guard:
    """The objects and settings an in-process bot could change, as they were before its call.

    The objects are the legal moves (those it is asked to choose from, and those in its view), the plays and
    tricks of its view — shared with the other seats' views — and the 36 cards.  Checked by identity, in C
    (``operator.is_``), never through a value's own ``__eq__``, which a bot's replacement object could have:
    all in one call to :func:`gc.get_referents` (see :data:`_BY_REFERENTS`), or field by field through the classes'
    own slots where that does not hold.
    """

    def __init__(self, seen: PlayerView, legal: tuple[Move, ...]) -> None:
        moves = legal if legal is seen.legal_moves else (*legal, *seen.legal_moves)
        tricks = seen.tricks
        # (a play shared by the history and a trick is checked twice: cheaper than finding the shared ones)
        plays = (*seen.table, *seen.history, *chain.from_iterable(map(_plays_of, tricks)))
        objects = (*moves, *plays, *tricks)
        expected = (Move,) * len(moves) + (SeenMove,) * len(plays) + (SeenTrick,) * len(tricks)
        self.objects, self.expected = objects, expected
        self.values: list[Any] | None = None
        self.saved: list[tuple[object, type, tuple[Any, ...]]] | None = None
        if _BY_REFERENTS and all(map(operator.is_, map(type, objects), expected)):
            values = _referents(*objects)
            size = len(moves) * _SIZES[Move] + len(plays) * _SIZES[SeenMove] + len(tricks) * _SIZES[SeenTrick]
            if len(values) == size:  # no field missing
                self.values = values
        if self.values is None:  # an object not as goat made it already (changed outside any guarded call)
            self.saved = [(target, cls, _fields_of(target, cls)) for target, cls in zip(objects, expected, strict=True)]
        self.main = _current_thread() is _main_thread()
        self.settings = _settings(self.main)
        # Whether SIGINT is blocked in the referee's thread (while a match is watched): a bot's code may unblock it
        # there — the standard library's own multiprocessing.resource_tracker blocks it and then unblocks it — and
        # it is blocked again after the call, without a fault (a SIGINT let through meanwhile is the bot's: see
        # watching_interrupts).
        self.sigint_blocked = bool(self.main and _MASKS and _sig.SIGINT in _pthread_sigmask(_sig.SIG_BLOCK, ()))
        self.made = _new_reading()
        _UNBLOCKED[0] = False  # a SIGINT the last call let through has been handled by now: a new one is real

    def restore(self) -> list[str]:
        """Put back whatever changed; say what it was."""
        cards_intact = _BY_REFERENTS and _intact(DECK, _DECK_VALUES)
        changed = [] if cards_intact else _put_back(_CARDS_AS_MADE)
        if self.saved is not None:
            changed += _put_back(self.saved)
        elif self.values is not None and not _intact(self.objects, self.values):
            changed += _put_back(self._read())
        if self.sigint_blocked and _sig.SIGINT not in _pthread_sigmask(_sig.SIG_BLOCK, ()):
            _pthread_sigmask(_sig.SIG_BLOCK, (_sig.SIGINT,))
        moved = _moved(self.settings, _settings(self.main), self.main) + _put_process_state(self.made)
        if moved:
            changed.append(f"the process's {', '.join(moved)}")
            _put_settings(self.settings, self.main)
            if _getpgrp() != self.settings[5]:  # out of the referee's session (os.setsid): no way back
                changed.append("the process group could not be put back: a Ctrl-C may no longer reach the referee")
        return changed

    def _read(self) -> list[tuple[object, type, tuple[Any, ...]]]:
        """The objects' fields as get_referents read them before the call: its fields, then its class, each."""
        assert self.values is not None
        found: list[tuple[object, type, tuple[Any, ...]]] = []
        start = 0
        for target, cls in zip(self.objects, self.expected, strict=True):
            size = _SIZES[cls]
            found.append((target, cls, tuple(self.values[start : start + size - 1])))
            start += size
        return found


# A trick's plays, read through SeenTrick's own slot (in C): never a property of a subclass a bot swapped in.
_plays_of: Final = SeenTrick.__dict__["plays"].__get__


def _fields_of(target: object, cls: type) -> tuple[Any, ...]:
    """``target``'s fields, read through ``cls``'s own slots (in :data:`_FIELDS` order)."""
    values = []
    for slot in _SLOTS[cls]:
        try:
            values.append(slot.__get__(target, cls))
        except (AttributeError, TypeError):  # deleted, or not an instance of cls at all
            values.append(_MISSING)
    return tuple(values)


def _intact(objects: tuple[object, ...], values: list[Any]) -> bool:
    now = _referents(*objects)
    return len(now) == len(values) and all(map(operator.is_, now, values))


def _put_back(saved: Sequence[tuple[object, type, tuple[Any, ...]]]) -> list[str]:
    """Restore each of ``saved`` (object, its class, its fields) that changed; say what each was."""
    changed = []
    for target, cls, values in saved:
        if type(target) is cls and all(map(operator.is_, _fields_of(target, cls), values)):
            continue
        with contextlib.suppress(TypeError):  # a class of another layout: cannot be, the bot could not set it
            _SET_CLASS(target, cls)
        for slot, value in zip(_SLOTS[cls], values, strict=True):
            if value is not _MISSING:
                with contextlib.suppress(TypeError):
                    slot.__set__(target, value)
        changed.append(_WHAT[cls])
    return changed


def _same(a: object, b: object) -> bool:
    # By identity, or as plain numbers: never through a bot's own __eq__ (a replaced sys.stdout may have one).
    return a is b or (type(a) is type(b) and type(a) in (int, bool, float) and a == b)


# gc.get_referents of an object with __slots__ (and no __dict__), as goat's values are, lists the values of its
# fields in the order CPython keeps them (their names sorted), then its class: one call in C reads every field
# of all the objects a bot is shown, and any change a bot makes to one — a field, a deleted field, its class —
# changes that list.  _BY_REFERENTS says whether that holds for every class (with the fields in _FIELDS in that
# order), checked at import; where it does not, all objects are read field by field.
_referents = gc.get_referents


def _referents_hold() -> bool:
    """Whether get_referents reads goat's values as described above: checked on a real object of each class."""
    cards = frozenset({DECK[0]})
    play = SeenMove(MoveKind.LEAD, 0, 1, cards)
    trick = SeenTrick((play, *(SeenMove(MoveKind.PASS, seat, 1, frozenset({DECK[seat]})) for seat in (1, 2, 3))), 0)
    for sample in (DECK[0], Move(MoveKind.LEAD, 0, cards), play, trick):
        cls = type(sample)
        expected = [*_fields_of(sample, cls), cls]
        got = _referents(sample)
        in_order = list(_FIELDS[cls]) == sorted(_FIELDS[cls]) and len(got) == len(expected)
        if not (in_order and all(map(operator.is_, got, expected))):
            return False  # for one class: read them all field by field
    return True


_BY_REFERENTS: Final = _referents_hold()
#: What get_referents lists for an object of each class: its fields, then its class.
_SIZES: Final = {cls: len(names) + 1 for cls, names in _FIELDS.items()}

# The 36 cards as goat made them, once: what every check of the cards compares with.
_CARDS_AS_MADE: Final = [(card, Card, _fields_of(card, Card)) for card in DECK]
_DECK_VALUES: Final = _referents(*DECK) if _BY_REFERENTS else []


_ALARMS: Final = hasattr(signal, "SIGALRM")
try:  # signal.getsignal's own C function: the same handler objects, without turning numbers into enum members
    from _signal import getsignal as _getsignal  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - CPython has it
    _getsignal = signal.getsignal
# The signals whose handlers a bot could change (every standard one a handler can be set for: the timers' own,
# SIGTERM, SIGINT and SIGUSR2, which the watcher of Ctrl-C uses, ...), and the three interval timers, each of
# which would end the referee with its signal.
_HANDLED: Final = (
    tuple(
        number
        for number in sorted(signal.valid_signals())
        if number < 32 and number not in (_sig.SIGKILL, _sig.SIGSTOP) and _getsignal(number) is not None
    )
    if _ALARMS
    else ()
)
_TIMERS: Final = (_sig.ITIMER_REAL, _sig.ITIMER_VIRTUAL, _sig.ITIMER_PROF) if _ALARMS else ()
# The modules' own dicts, taken at import: their entries are read and put back there, in C, so that no code of a
# bot's runs in the check (a bot can give ``sys`` a class of its own, whose ``stdout`` is a property).
_SYS: Final = sys.__dict__
_THREADING: Final = threading.__dict__
_GC_CALLBACKS: Final = gc.callbacks  # the list the collector calls, whatever name gc.callbacks is given later
# The hooks through which a bot's code would run later, outside its call and its budget: in the referee's thread,
# by its name in sys (a trace or profile function, an except-, unraisable-, display- or breakpoint hook) or in
# threading (the trace, profile and except hooks of the threads to come).  Trace and profile functions are
# read as the thread sees them (``sys.gettrace``), the others from the modules' dicts.
_SYS_HOOKS: Final = ("stdout", "stderr", "stdin", "excepthook", "unraisablehook", "displayhook", "breakpointhook")
_THREADING_HOOKS: Final = tuple(
    name for name in ("_trace_hook", "_profile_hook", "excepthook") if name in threading.__dict__
)
# The process-wide settings a bot could change, read before and after each call: by name, for the fault's reason.
# The first _BY_VALUE are numbers, compared by value; then objects, by identity; last, the collector's callbacks.
try:  # the C function, whose set holds plain ints (signal's own makes enum members of them, at a cost)
    from _signal import pthread_sigmask as _pthread_sigmask
except ImportError:  # pragma: no cover - not POSIX
    _pthread_sigmask = None
_MASKS: Final = int(_pthread_sigmask is not None and _ALARMS)
_SETTINGS: Final = (
    "recursion limit",
    "thread switch interval",
    "number of the collector's callbacks",
    "audit hooks (it tried to add one)",
    "signals to itself (it tried to send one)",
    "process group",
    "threads' stack size",
    "class of the sys module",
    "trace function",
    "profile function",
    *(f"sys.{name}" for name in _SYS_HOOKS),
    *(f"threading.{name.strip('_')}" for name in _THREADING_HOOKS),
    *(f"{signal.Signals(number).name} handler" for number in _HANDLED),
    *("interval timer", "virtual interval timer", "profiling interval timer")[: len(_TIMERS)],
)
_NO_TIMER: Final = (0.0, 0.0)
_MISSINGS: Final = (_MISSING,) * max(len(_SYS_HOOKS), len(_THREADING_HOOKS))
_BY_VALUE: Final = 7
# Where in the settings the class of sys, the trace and profile functions, the hooks and the handlers are.
_CLASS_AT: Final = _BY_VALUE
_HOOKS_AT: Final = _CLASS_AT + 3
_SIGNALS_AT: Final = _HOOKS_AT + len(_SYS_HOOKS) + len(_THREADING_HOOKS)
_gettrace: Final = sys.gettrace
_getprofile: Final = sys.getprofile
_settrace: Final = sys.settrace
_setprofile: Final = sys.setprofile
_type: Final = type


def _settings(main: bool) -> tuple[Any, ...]:
    """The values of :data:`_SETTINGS`; the signal handlers and the timers only in the main thread; the collector's
    callbacks, as many as there are, at the end."""
    found = (
        _getrecursionlimit(),
        _getswitchinterval(),
        len(_GC_CALLBACKS),
        _REFUSED[0],
        _SIGNALLED[0],
        _getpgrp(),
        _stack_size(),
        _type(sys),
        _gettrace(),
        _getprofile(),
        *map(_SYS.get, _SYS_HOOKS, _MISSINGS),
        *map(_THREADING.get, _THREADING_HOOKS, _MISSINGS),
    )
    if main and _ALARMS:
        found = (*found, *map(_getsignal, _HANDLED), *(_sig.getitimer(timer) != _NO_TIMER for timer in _TIMERS))
    return (*found, *_GC_CALLBACKS)


def _moved(before: tuple[Any, ...], now: tuple[Any, ...], main: bool) -> list[str]:
    """The names of the settings that changed: the numbers by value (fresh ones each time, from the modules' own
    functions), the rest by identity."""
    if (
        len(now) == len(before)
        and now[:_BY_VALUE] == before[:_BY_VALUE]
        and all(map(operator.is_, now[_BY_VALUE:], before[_BY_VALUE:]))
    ):
        return []
    fixed = _SIGNALS_AT + (len(_HANDLED) + len(_TIMERS) if main and _ALARMS else 0)
    names = [name for name, a, b in zip(_SETTINGS[:fixed], before[:fixed], now[:fixed], strict=True) if not _same(a, b)]
    if len(now) != len(before) or not all(map(operator.is_, now[fixed:], before[fixed:])):
        names.append("the collector's callbacks")
    return names


def _put_settings(settings: tuple[Any, ...], main: bool) -> None:
    _setrecursionlimit(settings[0])
    _setswitchinterval(settings[1])
    if _getpgrp() != settings[5]:  # a bot that left the referee's process group takes it out of reach of Ctrl-C
        with contextlib.suppress(OSError):
            os.setpgid(0, settings[5])
    if _stack_size() != settings[6]:  # a huge stack size would make every later thread fail to start
        with contextlib.suppress(ValueError, RuntimeError):
            _stack_size(settings[6])
    sys_class, trace, profile = settings[_CLASS_AT:_HOOKS_AT]
    if _type(sys) is not sys_class:
        _SET_CLASS(sys, sys_class)
    if _gettrace() is not trace:
        _settrace(trace)
    if _getprofile() is not profile:
        _setprofile(profile)
    at = _HOOKS_AT
    for names, space in ((_SYS_HOOKS, _SYS), (_THREADING_HOOKS, _THREADING)):
        for name, value in zip(names, settings[at : at + len(names)], strict=True):
            if value is not _MISSING:
                space[name] = value
            else:
                space.pop(name, None)
        at += len(names)
    handled = len(_HANDLED) + len(_TIMERS) if main and _ALARMS else 0
    if handled:
        handlers = settings[_SIGNALS_AT : _SIGNALS_AT + len(_HANDLED)]
        timers = settings[_SIGNALS_AT + len(_HANDLED) : _SIGNALS_AT + handled]
        for timer, was_set in zip(_TIMERS, timers, strict=True):
            if not was_set:
                _sig.setitimer(timer, 0)
        for number, handler in zip(_HANDLED, handlers, strict=True):
            if _getsignal(number) is not handler and handler is not None:
                _sig.signal(number, handler)
    _GC_CALLBACKS[:] = settings[_SIGNALS_AT + handled :]


# --- the seats ----------------------------------------------------------------------------------


class InProcessSeat:
    """A bot in the referee's process, guarded (see the module documentation).

    A call that overruns cannot be stopped (a thread cannot be killed): the bot is abandoned and not
    called again for the rest of the match, so it is never called while its last call still runs.
    """

    def __init__(self, bot: Strategy, time_limit: float | None) -> None:
        self.bot = bot
        self.time_limit = time_limit
        self.abandoned: str | None = None

    def new_game(self) -> None:
        pass

    def _call(
        self,
        what: str,
        seen: PlayerView,
        legal: tuple[Move, ...],
        args: list[Any],
        read: Callable[[object], Any] | None = None,
    ) -> Any:
        """``bot.<what>(*args)``: the method looked up and called under the budget, guarded; ``read`` of its answer.

        ``args`` is emptied in the call: with the answer and any error, every object the bot could have handed
        back (or hidden in a copy it was given) is let go there, so that a finaliser (``__del__``) of the bot's
        runs under the budget and before the guard's check, not in the referee after it.
        """
        if self.abandoned is not None:
            raise SeatFault("disabled", f"not asked again this match: {self.abandoned}")
        before = interrupts_seen()
        try:
            guard = _Guard(seen, legal)
        except BaseException as error:  # what the check reads was broken beforehand (goat's own internals too)
            if is_real_interrupt(error, before):
                raise
            raise SeatFault("tamper", f"the referee could not check {what}() ({describe_error(error)})") from None
        bot = self.bot

        limit = _getrecursionlimit()
        moved: list[str] = []

        def call() -> tuple[bool, Any]:
            # Everything that runs the bot's code — its error's __str__ and its objects' finalisers included — runs
            # here, marked as a bot's (no audit hook is added meanwhile: see running_a_bot).
            with running_a_bot():
                try:
                    method = getattr(bot, what, None)
                    if method is None:
                        return (True, None)
                    answer = method(*args)
                    value = None if read is None else read(answer)
                    del answer
                    return (True, value)
                except BaseException as error:  # SystemExit, GeneratorExit, a bot's KeyboardInterrupt …
                    if _getrecursionlimit() != limit:  # before anything else: a bot may have left too little room
                        _setrecursionlimit(limit)
                        moved.append("the process's recursion limit")
                    if is_real_interrupt(error, before):
                        raise
                    return (False, describe_error(error))
                finally:
                    args.clear()
                    if _getrecursionlimit() != limit:
                        _setrecursionlimit(limit)
                        moved.append("the process's recursion limit")

        started = _clock()
        try:
            if self.time_limit is None:
                ok, value = call()
            else:
                ok, value = self._in_thread(call, what)
        finally:
            try:
                changed = moved + guard.restore()
            except BaseException as error:  # the bot broke what the check itself reads: its fault, whatever it was
                if is_real_interrupt(error, before):
                    raise
                changed = [*moved, f"what the referee checks ({describe_error(error)})"[:200]]
        if interrupts_seen() > before:  # a real Ctrl-C came during the call, and the bot swallowed it
            raise KeyboardInterrupt
        # An answer that came late is late, though nothing could interrupt the call (a bot that held the
        # interpreter's lock, in one long call into C or by raising the switch interval, starves the timer).
        overran = self.time_limit is not None and _clock() - started > self.time_limit
        if overran:
            self.abandoned = f"its {what}() overran the budget of {self.time_limit:g} s"
        if changed:
            raise SeatFault(
                "tamper", f"{what}() changed what it was given, which was put back: {', '.join(changed[:5])}"
            )
        if overran:
            raise SeatFault("timeout", f"{what}() answered after the budget of {self.time_limit:g} s")
        if not ok:
            raise SeatFault("exception", f"{what}() raised {value}")
        return value

    def _in_thread(self, call: Callable[[], tuple[bool, Any]], what: str) -> tuple[bool, Any]:
        assert self.time_limit is not None
        answered = in_a_thread(call, self.time_limit, what)
        if answered is None:
            self.abandoned = f"its {what}() overran the budget of {self.time_limit:g} s"
            raise SeatFault("timeout", f"{what}() gave no answer within the budget of {self.time_limit:g} s")
        return answered

    def start_game(self, seen: PlayerView) -> None:
        self._call("start_game", seen, (), [seen])

    def choose(self, seen: PlayerView, legal: tuple[Move, ...]) -> Move:
        keys = [move._key for move in legal]  # the referee's own record, before the bot sees anything
        key, called = self._call("choose", seen, legal, [seen, legal], _answer)
        if key is None or key not in keys:
            raise SeatFault("illegal", f"returned {called}, which is not one of the {len(legal)} legal moves")
        return legal[keys.index(key)]  # put back by the guard if the bot had changed it

    def end_game(self, seen: PlayerView, result: GameResult, forfeit: int | None) -> None:
        if self.abandoned is None:
            # The bot gets a copy: what it does to it cannot touch the record.
            self._call("end_game", seen, (), [seen, attrs.evolve(result)])

    def close(self) -> None:
        pass


def _answer(answer: object) -> tuple[int | None, str]:
    """The key of a bot's answer (see :func:`~goat.strategy.move_key`), and what to call it if it is not legal."""
    key = move_key(answer)
    return key, "a move" if key is not None else f"a {_type_name(answer)}"


def _type_name(value: object) -> str:
    try:
        name = type(value).__name__
        return name if isinstance(name, str) else "object"
    except BaseException:
        return "object"


class SealedSeat:
    """A protocol bot in a child process: killed when it overruns, started afresh for the next game."""

    def __init__(self, bot: ProcessStrategy, time_limit: float | None) -> None:
        self.bot = bot
        self.time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        self.dead: str | None = None  # why the process died this game, if it did

    def new_game(self) -> None:
        self.dead = None

    def _call(self, what: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.dead is not None:
            raise SeatFault("disabled", f"not asked again this game: {self.dead}")
        try:
            return function(*args, timeout=self.time_limit, **kwargs)
        except BotFault as fault:
            if fault.killed or not self.bot.process.alive:
                self.dead = f"its process was stopped at its {what} ({fault.kind})"
            raise SeatFault(fault.kind, fault.reason, fault.stderr) from None

    def start_game(self, seen: PlayerView) -> None:
        self._call("start_game", self.bot.start_game, seen)

    def choose(self, seen: PlayerView, legal: tuple[Move, ...]) -> Move:
        move: Move = self._call("choose", self.bot.choose, seen, legal)
        return move

    def end_game(self, seen: PlayerView, result: GameResult, forfeit: int | None) -> None:
        if self.dead is None:
            self._call("end_game", self.bot.end_game, seen, result, forfeit=forfeit)

    def close(self) -> None:
        self.bot.close()


Seat = InProcessSeat | SealedSeat


def in_a_thread(call: Callable[[], tuple[bool, Any]], seconds: float, what: str) -> tuple[bool, Any] | None:
    """``call()`` in a thread of its own, with SIGINT blocked there (the operator's Ctrl-C is the main thread's,
    never a bot's); what it returned, or ``None`` if it did not return within ``seconds`` (the thread is left to
    run on: nothing in-process can stop it).  A thread that cannot be started is a fault of the call."""
    answers: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

    def run() -> None:
        if hasattr(_sig, "pthread_sigmask"):
            _sig.pthread_sigmask(_sig.SIG_BLOCK, {_sig.SIGINT})
        try:
            answered = call()
        except BaseException:  # only a real interrupt gets here, and it is the main thread's to handle
            answered = (False, "KeyboardInterrupt")
        if _MASKS and _sig.SIGINT not in _pthread_sigmask(_sig.SIG_BLOCK, ()):
            # Unblocked by the bot's code (multiprocessing's resource tracker does it, honestly): blocked again, and
            # a SIGINT it let through, which the main thread handles only now, is the bot's (see watching_interrupts)
            _pthread_sigmask(_sig.SIG_BLOCK, (_sig.SIGINT,))
            _UNBLOCKED[0] = True
        answers.put(answered)

    try:
        _Thread(target=run, daemon=True, name="goat-bot").start()
    except RuntimeError as error:  # no thread to be had: too many left running by bots, a stack size too large
        raise SeatFault("crash", f"the referee could not start a thread for its {what}(): {error}") from None
    try:
        return answers.get(timeout=seconds)
    except queue.Empty:
        return None


def build_within(build: Callable[[], Strategy], seconds: float | None, what: str) -> Strategy:
    """``build()`` — a bot's factory, which is a bot's code too — as a bot's call: within ``seconds`` if given, in a
    thread of its own; :class:`SeatFault` if it raises (``BaseException`` too, but a real Ctrl-C) or overruns."""
    before = interrupts_seen()

    def call() -> tuple[bool, Any]:
        with running_a_bot():
            try:
                made = _new_reading()  # what the factory changes of the process (see _put_process_state) is its own
                bot = build()
                changed = _put_process_state(made)
                if changed:  # put back; the bot is not to be trusted with a match
                    return (False, ("tamper", f"changed the process's {', '.join(changed)}, which was put back", None))
                return (True, bot)
            except BaseException as error:
                if is_real_interrupt(error, before):
                    raise
                # goat's own errors (load_strategy's: the name, the options) are kept for the caller; a bot's
                # are let go here, so that nothing of theirs (a finaliser) runs later, outside the call
                return (
                    False,
                    ("exception", f"raised {describe_error(error)}", error if isinstance(error, GoatError) else None),
                )

    answered = call() if seconds is None else in_a_thread(call, seconds, what)
    if answered is None:
        raise SeatFault("timeout", f"{what} gave no bot within the budget of {seconds:g} s")
    ok, value = answered
    if not ok:
        kind, described, error = value
        raise SeatFault(kind, f"{what} {described}") from error
    return value  # type: ignore[no-any-return]


def launch(seats: list[Seat]) -> None:
    """Start the sealed bots' processes side by side (each is greeted at its first request)."""
    for seat in seats:
        if isinstance(seat, SealedSeat):
            seat.bot.launch()


def close(seats: list[Seat]) -> None:
    """Close every seat: the sealed bots are all told to quit first, so that they exit side by side."""
    for seat in seats:
        if isinstance(seat, SealedSeat):
            seat.bot.process.say_quit()
    for seat in seats:
        seat.close()


def seats_for(strategies: list[Strategy], time_limit: float | None) -> list[Seat]:
    """A seat for each bot: sealed for a :class:`~goat.arena.sealed.ProcessStrategy`, in-process otherwise."""
    return [
        SealedSeat(bot, time_limit) if isinstance(bot, ProcessStrategy) else InProcessSeat(bot, time_limit)
        for bot in strategies
    ]
