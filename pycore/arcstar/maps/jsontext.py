"""JSON text read safely: nesting is measured before parsing, because a parser that recurses
per level can be made to overflow the stack by a small file (in Pyodide that is not a Python
``RecursionError`` but a fatal error of the whole runtime). Every reader of JSON text in arcstar,
from a map file to a worker message, goes through here."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from ..outcomes import BadInput, shown

# A JSON string, unrolled so the regex engine runs without backtracking per character.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_OPEN_CLOSE = np.zeros(256, dtype=np.int8)
_OPEN_CLOSE[[ord("["), ord("{")]] = 1
_OPEN_CLOSE[[ord("]"), ord("}")]] = -1


def nesting_depth(text: str, limit: int) -> int:
    """How deep JSON text nests arrays and objects, brackets inside strings not counted (when it
    has at most ``limit`` opening brackets in all, their count: an upper bound). C-speed counting,
    a regex and numpy, no Python loop: cheap for a 17 MB map text."""
    opening = text.count("[") + text.count("{")
    if opening <= limit:
        return opening
    bare = _JSON_STRING.sub("", text).encode("utf-8", "replace")
    steps = _OPEN_CLOSE[np.frombuffer(bare, dtype=np.uint8)].astype(np.int32)
    return int(np.cumsum(steps).max(initial=0))


def as_text(text: object, what: str, max_chars: int | None = None, field: str = "") -> str:
    """``text`` as a str (bytes decoded as UTF-8) of at most ``max_chars`` characters, checked
    before anything reads it; ``BadInput`` naming ``what`` otherwise."""
    if isinstance(text, (bytes, bytearray)):
        if max_chars is not None and len(text) > max_chars:
            raise BadInput(f"{what} of {len(text)} bytes is over the limit of {max_chars}", field)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(f"{what} is not UTF-8 text: {e}", field) from None
    if not isinstance(text, str):
        raise BadInput(f"{what} must be text, got {shown(text)}", field)
    if max_chars is not None and len(text) > max_chars:
        raise BadInput(f"{what} of {len(text)} characters is over the limit of {max_chars}", field)
    return text


def load_json(text: str | bytes | bytearray, what: str, max_depth: int, field: str = "",
              max_chars: int | None = None, **loads_options: Any) -> Any:
    """Parse ``text`` (``what`` names it in messages), refusing text over ``max_chars`` and
    nesting deeper than ``max_depth`` before the parser sees it; bad JSON becomes ``BadInput``
    naming ``field``."""
    text = as_text(text, what, max_chars, field)
    if nesting_depth(text, max_depth) > max_depth:
        raise BadInput(f"{what} nests deeper than {max_depth} levels", field)
    try:
        return json.loads(text, **loads_options)
    except BadInput:
        raise
    except RecursionError:  # cannot happen after the depth check; kept as a safe answer
        raise BadInput(f"{what} nests deeper than {max_depth} levels", field) from None
    except ValueError as e:  # JSONDecodeError, over-long integers
        raise BadInput(f"{what} is not valid JSON: {str(e)[:200]}", field) from None
