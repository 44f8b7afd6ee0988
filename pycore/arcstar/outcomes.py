"""Typed outcomes shared by every layer: how a plan ended, and what kind of error it was.

Code branches on these enums, never on message text; messages stay for people. Both enums are
``StrEnum``s, so they compare equal to (and serialise as) the plain strings the worker
protocol carries: ``Status.FOUND == "found"``.
"""

from __future__ import annotations

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


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about hostile input (a 10 MB
    list must not become a 10 MB error message)."""
    if isinstance(value, (list, tuple, dict, set, str, bytes)) and len(value) > limit:
        return f"<{type(value).__name__} of {len(value)} items>"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
