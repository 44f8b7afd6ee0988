"""Typed outcomes shared by every layer: how a plan ended, and what kind of error it was.

Code branches on these enums, never on message text; messages stay for people. Both enums are
``StrEnum``s, so they compare equal to (and serialise as) the plain strings the worker
protocol carries: ``Status.FOUND == "found"``.
"""

from __future__ import annotations

import numbers
from enum import StrEnum


class Status(StrEnum):
    """How a search or a plan ended (``RUNNING`` while it has not)."""

    RUNNING = "running"
    FOUND = "found"
    NO_PATH = "no_path"
    UNREACHABLE = "unreachable"
    BUDGET_EXHAUSTED = "budget_exhausted"
    CANCELLED = "cancelled"
    NOT_LEGAL = "not_legal"


class ErrorKind(StrEnum):
    """What went wrong with a request: the caller's input, or arcstar itself."""

    BAD_INPUT = "bad_input"
    INTERNAL = "internal"


class BadInput(ValueError):
    """Malformed or hostile input, with the field it concerns (dotted, e.g. ``options.weight``;
    empty when the input as a whole is wrong). A ``ValueError``, so ``except ValueError`` works."""

    kind = ErrorKind.BAD_INPUT

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def field_of(error: BaseException) -> str:
    """The field a ``ValueError`` names (``""`` for a plain ``ValueError``)."""
    return getattr(error, "field", "")


def shown(value: object, limit: int = 40) -> str:
    """A short, safe description of a value for a message about hostile input: numbers,
    strings and short lists of them cut to ``limit`` characters, anything else by its type (a
    10 MB list must not become a 10 MB error message, and a 5,000-digit integer has no ``repr``)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and abs(int(value)) >= 10**30:
        return "a very large integer"
    if isinstance(value, (list, tuple)) and len(value) <= 8 and all(_small(v) for v in value):
        text = repr(value)
    elif _small(value):
        text = repr(value[:limit]) if isinstance(value, str) else repr(value)
    else:
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _small(value: object) -> bool:
    """None, a bool, a string, or a number of fewer than 30 digits."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return abs(int(value)) < 10**30
    return value is None or isinstance(value, (bool, numbers.Real, str))
