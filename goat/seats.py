"""Seats and teams (R1): four seats 0–3 clockwise; seats 0 and 2 are team 0, 1 and 3 team 1."""

from __future__ import annotations

from typing import TypeGuard

from goat.errors import InvalidSeatError, shown

__all__ = ["check_seat", "is_seat"]


def is_seat(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a seat number: an int 0–3 (``True`` is not a seat)."""
    return type(value) is int and 0 <= value <= 3


def check_seat(value: object, what: str = "a seat", error: type[Exception] = InvalidSeatError) -> int:
    """``value`` if it is a seat, else ``error`` saying what was wrong."""
    if not is_seat(value):
        raise error(f"{what} must be a seat 0, 1, 2 or 3, not {shown(value)}")
    return value
