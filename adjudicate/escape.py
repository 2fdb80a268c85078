"""Text from files, shown safely: control characters, bidi controls and undecodable bytes as visible escapes.

A scenario's values and the names of the files in a folder come from whoever wrote them (in
CI, a stranger's pull request). Printed raw, a newline in a file name forges a report line
(`x\\nerror: forged.yaml`), a carriage return overwrites one (`title: "East\\rSPOOF"`), an
ESC or OSC sequence drives the terminal, a right-to-left override (U+202E) makes a line read
backwards, and a byte that is not UTF-8 (a file name, kept by Python as a lone surrogate)
stops the output or makes it invalid UTF-8. Every command passes such text through one of
these functions where it is printed:

- `visible(text)`: for one value on one line (a file name, a message): every control
  character, newlines and tabs too, becomes a visible escape: `\\n`, `\\r`, `\\t`, `\\x1b`,
  `\\x7f`, `\\x85` (C1 controls), `\\u202e` (bidi controls, U+2028/U+2029), `\\u200b` (characters that print
  as nothing: zero-width spaces and joiners, U+2060, the BOM U+FEFF, fillers and variation selectors, so that
  two different file names never look the same); an undecodable
  byte of a file name becomes `\\xNN`, the byte itself; any other lone surrogate `\\udXXX`.
- `visible_lines(text)`: for whole lines of output (a ruling, a table): the same, except
  that newlines and tabs stay, so the lines still break where the report breaks them.
- `json_text(text)`: for the text `json.dumps(..., ensure_ascii=False)` made: the characters
  JSON leaves raw that a terminal or a strict UTF-8 reader would trip on are written as JSON
  escapes (`\\u202e`; the data is unchanged), and undecodable bytes as the visible text `\\xNN`
  (JSON has no way to hold a byte that is not a character).

Backslashes are not doubled: the escapes make text safe to print, not reversible.

Each first asks a precompiled regex whether there is anything to escape: text with nothing to
escape (nearly all of it) costs one search and is returned as it is.
"""

from __future__ import annotations

import re

_INVISIBLE = (  # what prints as nothing: zero-width spaces and joiners, fillers,
    # variation selectors, the BOM
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb")
_UNSAFE = (
    "\x00-\x08\x0b-\x1f"  # C0 controls but tab and newline (\r, ESC, BEL, form feed, ...)
    "\x7f-\x9f"  # DEL and the C1 controls (CSI, OSC, NEL as single characters)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides and isolates
    "\u2028\u2029"  # line and paragraph separators: line breaks to some viewers
    "\ud800-\udfff"  # lone surrogates: bytes of a file name that were not UTF-8 (surrogateescape)
    + _INVISIBLE
)
_LINES = re.compile(f"[{_UNSAFE}]")
"""The one pattern compiled at import (each costs a few tenths of a millisecond of every start);
the others are compiled when first needed: `visible` tests for newlines and tabs with `in`."""
_ONE_LINE_SOURCE = f"[\t\n{_UNSAFE}]"
_JSON_SOURCE = f"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff{_INVISIBLE}]"
_NOT_ASCII_SOURCE = "[^\x00-\x7f]"

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_char(char: str) -> str:
    """The visible escape of one character: `\\n`, `\\x1b`, `\\u202e`; an undecodable byte as `\\xNN`."""
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte code - 0xDC00 of a name that was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def _escape(match: re.Match[str]) -> str:
    return escape_char(match.group())


def visible(text: str) -> str:
    """`text` for one line: every control character (newline and tab too), bidi control and
    undecodable byte written as a visible escape."""
    if "\n" not in text and "\t" not in text and _LINES.search(text) is None:
        return text
    return re.sub(_ONE_LINE_SOURCE, _escape, text)


def visible_lines(text: str) -> str:
    """`text` for printing as lines: as `visible`, but newlines and tabs are kept."""
    if _LINES.search(text) is None:
        return text
    return _LINES.sub(_escape, text)


_COMMAND = None


def inert_lines(text: str) -> str:
    """`text` with no line a CI runner would take for a workflow command.

    GitHub's runner reads every line of a job's output: one that starts, after white space (any Unicode
    white space: it trims as .NET's `String.Trim` does), with `::` is a command (`::error ...::`,
    `::add-mask::`, `::stop-commands::`), and so is any line holding `##[` (the older form, found anywhere in
    the line). Where text from a file could make one (a file named `::error file=x::forged.yaml` at the start
    of check's line, a law's word wrapped to the start of an indented line), the first `:` of such a line is
    written `\\x3a` and the `[` of `##[` is written `\\x5b`: the line reads the same to a person and is no
    command. Text with neither (nearly all of it) costs two searches and is returned as it is.
    """
    if "::" not in text:
        return old_commands_inert(text)
    global _COMMAND
    if _COMMAND is None:
        _COMMAND = re.compile(r"^([^\S\n]*):(?=:)", re.MULTILINE)
    return old_commands_inert(_COMMAND.sub(lambda match: match.group(1) + "\\x3a", text))


def old_commands_inert(text: str) -> str:
    """`text` with no `##[`, the runner's older command form, which it finds anywhere in a line (also inside the
    text of an annotation `check --format github` writes)."""
    return text.replace("##[", "##\\x5b") if "##[" in text else text


def has_unsafe(text: str) -> bool:
    """Whether `visible` would change `text`."""
    return "\n" in text or "\t" in text or _LINES.search(text) is not None


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:
        # Not a character: no UTF-8 encodes it, and a JSON `\\udcXX` escape is refused by strict
        # parsers. Written as visible text instead (the JSON string holds a backslash).
        return "\\" + escape_char(match.group())
    return f"\\u{code:04x}"


def json_text(text: str, ascii_only: bool = False) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) made safe to print: see the module's doc.

    With `ascii_only`, every character beyond ASCII is written as a JSON escape too (a surrogate
    pair beyond U+FFFF), for an output whose encoding cannot hold them.
    """
    text = re.sub(_JSON_SOURCE, _json_escape, text)
    if ascii_only:
        text = re.sub(_NOT_ASCII_SOURCE, _json_ascii, text)
    return text


def _json_ascii(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
