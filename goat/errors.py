"""The exceptions of :mod:`goat`.

Every error that bad input can cause is a :class:`GoatError`, and every rule or
parse error is also a :class:`ValueError`, so ``except ValueError`` works as
users of the standard library expect (the same convention as python-chess).
"""

from __future__ import annotations

__all__ = [
    "GameNotOverError",
    "GoatError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidTrickError",
]


class GoatError(Exception):
    """Base class of every exception raised by :mod:`goat`."""


class InvalidCardError(GoatError, ValueError):
    """Text that does not name a card (R2), e.g. ``Card.from_str("11H")``."""


class InvalidMoveError(GoatError, ValueError):
    """Text that does not parse as a move, e.g. ``Move.from_str("1 jump 6C")``."""


class IllegalMoveError(GoatError, ValueError):
    """A well-formed move that the rules forbid in the given state.

    The message says why: not this seat's turn, a card not in hand, the wrong
    number of cards, a mixed-suit lead, a set that does not beat the top play,
    no molodka to declare, and so on.
    """


class InvalidTrickError(GoatError, ValueError):
    """Plays given to :func:`goat.trick_winner` that do not form a finished trick (R10–R13)."""


class InvalidDealError(GoatError, ValueError):
    """Arguments of :func:`goat.new_game` that cannot start a game (R7–R9)."""


class GameNotOverError(GoatError, ValueError):
    """A finished game was needed (for scoring or a match) but the game goes on."""
