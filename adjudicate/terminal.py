"""The terminal a ruling is printed on: how wide it is, and whether it takes colour (presentation, as
escape.py is: the renderers and the CLI both use it).

Colour as ruff and pytest have it: on a terminal only, never when `NO_COLOR` is set (no-color.org) or the
output is piped, and forced either way by `--color always|never`.
"""

from __future__ import annotations

import os
import re
import shutil
from typing import Callable, TextIO

MAX_WIDTH = 100
"""No line of a ruling is longer, however wide the terminal."""
MIN_WIDTH = 40

BOLD = "\x1b[1m"
HIGHLIGHT = "\x1b[1;32m"
RESET = "\x1b[0m"
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def width() -> int:
    """The terminal's width (`COLUMNS` first, as `shutil.get_terminal_size` reads it), at most MAX_WIDTH."""
    columns = shutil.get_terminal_size(fallback=(MAX_WIDTH, 24)).columns
    return max(MIN_WIDTH, min(MAX_WIDTH, columns))


def use_colour(choice: str, stream: TextIO) -> bool:
    """`auto`: colour on a terminal, unless NO_COLOR is set to anything not empty; `always`, `never`."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def plain(text: str) -> str:
    """The text without its colour."""
    return _ESCAPE.sub("", text)


def keep_colour(text: str, escape: "Callable[[str], str]") -> str:
    """`text` with `escape` applied to all but its colour codes (the renderer's own, which go through)."""
    parts, last = [], 0
    for found in _ESCAPE.finditer(text):
        parts.append(escape(text[last:found.start()]))
        parts.append(found.group())
        last = found.end()
    parts.append(escape(text[last:]))
    return "".join(parts)
