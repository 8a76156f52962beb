"""The exceptions of :mod:`goat`.

Every rule or parse error is a :class:`GoatError` and a :class:`ValueError`, so
``except ValueError`` works as users of the standard library expect (the same
convention as python-chess).  An argument of the wrong type (``None`` for a
state, a number for a deck) is a :class:`TypeError` whose message names the
argument, as in the standard library.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any, Final

__all__ = [
    "GameNotOverError",
    "GoatError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidSeatError",
    "InvalidTrickError",
    "InvalidViewError",
    "MissingExtraError",
    "ScoringError",
]


def shown(value: object, size: int = 80) -> str:
    """``repr(value)`` for an error's message, at most ``size`` characters, in bounded work whatever it was given:
    a megabyte of text, a million-item list or nesting a thousand deep is cut short as it is written
    (:mod:`reprlib`), an int too long for ``repr`` (over 4,300 digits) is told by its size, a ``repr`` that fails
    (a caller's own object's) by the type."""
    if type(value) is int and value.bit_length() > 256:
        return f"an int of {value.bit_length()} bits"
    try:
        text = _repr().repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= size else f"{text[: size - 1]}…"


def finite(value: object) -> float | None:
    """``value`` as a float if it is a finite real number (an int, a float, numpy's numbers; not a bool, nor an int
    beyond any float), else ``None``.

    >>> finite(3), finite(True), finite(float("nan")), finite(10**400), finite("3")
    (3.0, None, None, None, None)
    """
    kind = value.__class__  # float and int first: the common cases, without the slower check of the numbers ABC
    if kind is bool or not (kind is float or kind is int or isinstance(value, numbers.Real)):
        return None
    try:
        number = float(value)  # type: ignore[arg-type]  # a real number: float() takes it
    except OverflowError:  # an int beyond any float
        return None
    return number if math.isfinite(number) else None


_REPR: list[Any] = []


def _repr() -> Any:
    """The :class:`reprlib.Repr` of :func:`shown`, made on first use: only an error needs it, not ``import goat``."""
    if not _REPR:
        import reprlib

        bounded = reprlib.Repr()
        bounded.maxlevel, bounded.maxstring, bounded.maxother, bounded.maxlong = 3, 200, 200, 200
        _REPR.append(bounded)
    return _REPR[0]


class GoatError(Exception):
    """Base class of every exception raised by :mod:`goat`."""


class InvalidCardError(GoatError, ValueError):
    """Text that does not name a card (R2), e.g. ``Card.from_str("11H")``, or cards given as a set that hold
    the same card twice, e.g. ``beats_set(cards("AS AS"), ...)``."""


class InvalidSeatError(GoatError, ValueError):
    """A seat number outside 0–3 (R1), e.g. ``goat.view(state, 4)``."""


class InvalidMoveError(GoatError, ValueError):
    """Text that does not parse as a move, e.g. ``Move.from_str("1 jump 6C")``, or a move no notation can
    express, e.g. a ``WAIT`` holding cards."""


class IllegalMoveError(GoatError, ValueError):
    """A well-formed move that the rules forbid in the given state.

    The message says why: not this seat's turn, a card not in hand, the wrong
    number of cards, a mixed-suit lead, a set that does not beat the top play,
    no molodka to declare, and so on.
    """


class InvalidTrickError(GoatError, ValueError):
    """Plays given to :func:`goat.trick_winner` that do not form a finished trick (R10–R13)."""


class InvalidDealError(GoatError, ValueError):
    """Arguments of :func:`goat.new_game` that cannot start a game (R7–R9), or a :class:`goat.GameState` made by
    hand whose position is not one its own deal and moves give."""


class InvalidViewError(GoatError, ValueError):
    """A :class:`goat.PlayerView` made by hand with fields no seat's view of a game has (R23)."""


class GameNotOverError(GoatError, ValueError):
    """A finished game was needed (for scoring or a match) but the game goes on."""


class ScoringError(GoatError, ValueError):
    """Scores or results that no game can produce (R18–R21), or a game that a match cannot record."""


class MissingExtraError(GoatError, ImportError):
    """An optional part of goat-cards was imported without the extra that installs what it needs.

    Raised ``from None``: the message names the extra to install, in one line, instead of a chained
    traceback that ends in it.
    """

    def __init__(self, feature: str, needs: str, extra: str, cause: ImportError) -> None:
        super().__init__(f"{feature} needs {needs}: {install_command(extra)} ({cause})", name=cause.name)


def install_command(extra: str) -> str:
    """A pip command that installs goat-cards' ``extra`` (``"cli"``, or several: ``"batch,gymnasium"``).

    It names the extra's requirements, read from goat-cards' installed metadata, so that it works however goat-cards
    was installed (from a checkout, a wheel file or an index) -- ``pip install 'goat-cards[cli]'`` needs goat-cards
    on an index.  Without metadata (goat imported from a source tree), the extra's own form.
    """
    from importlib import metadata

    extras = set(extra.split(","))
    try:
        declared = metadata.requires("goat-cards") or []
    except metadata.PackageNotFoundError:
        declared = []
    # hatchling writes each requirement of an extra as "name>=x; extra == 'cli'", nested extras flattened
    requirements = [
        found.group(1)
        for line in declared
        if (found := re.fullmatch(r"""([^;]+?)\s*;\s*extra\s*==\s*["']([^"']+)["']""", line))
        and found.group(2) in extras
    ]
    if not requirements:
        return f"pip install 'goat-cards[{extra}]'"
    listed = " ".join(f"'{requirement}'" for requirement in dict.fromkeys(requirements))
    return f"pip install {listed} (goat-cards[{extra}])"


#: The longest reason a fault (or a strategy's failure) keeps, in characters.
MAX_REASON: Final = 500


def clean_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters and made writable as UTF-8 (a lone surrogate becomes ``\\udXXX``)."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def printable(text: str) -> str:
    """``text`` as a terminal may show it, every character that is not printable written as its escape (``\\x1b``).

    The one place where text from outside — a sealed bot's name, replies and standard error, a record's names,
    reasons and comments — is made safe to print: escape sequences (ESC, CSI), ``\\r``, ``\\b``, other C0 and C1
    controls, bidirectional overrides (U+202E), line separators and lone surrogates cannot clear the screen, move
    the cursor, set the title or turn a line around; they show as escapes.  Rich markup is the printer's to leave
    alone (a console with ``markup=False``, or :class:`rich.text.Text`).
    """
    if text.isprintable():  # the common case, in one pass in C
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def describe_error(error: BaseException) -> str:
    """``"TypeName: message"`` of an error a bot raised, bounded, even if its ``__str__`` raises or lies."""
    try:
        name = type(error).__name__
        if not isinstance(name, str):
            name = "an exception"
    except BaseException:
        name = "an exception"
    try:
        message = str(error)  # a bot's code: it may raise, or return something huge
        if not isinstance(message, str):
            raise TypeError
    except BaseException:
        return f"{name} (whose message cannot be shown)"
    return clean_text(f"{name}: {message}" if message else name, MAX_REASON)
