"""Reading YAML safely, keeping where every value stood.

Every input file (scenario, rulebook, house rules) is read here: libyaml gives the file's events, text and tags
that construct nothing, so no tag can run code; we build our tree of `Node`s from them, each with its position,
and refuse what a hand-written file should never hold: duplicate keys, tags that construct objects, alias bombs,
absurd nesting or size. The native reader (`_yamltree`) reads an everyday file; any other, and every refusal, is
the Python reader's (`pyyaml_reader`, over PyYAML's C parser), imported only for such a file. Both build the tree
of `yamlnode.Node`s, named here too.
"""

from __future__ import annotations

import gc
import os
import re
import stat
from functools import cache
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, Mapping

from adjudicate.errors import STDIN, InputError, KeyPos, Pos, quote
from adjudicate.record.yamlnode import MAX_DEPTH as MAX_DEPTH
from adjudicate.record.yamlnode import MAX_NODES as MAX_NODES
from adjudicate.record.yamlnode import NULL_TAG as NULL_TAG
from adjudicate.record.yamlnode import Node as Node
from adjudicate.record.yamlnode import _ALLOWED_TAGS, _INT_TAG, _LEADING_ZERO, _STD, _STR_TAG, _describe_char

_native: ModuleType | None
try:
    from adjudicate.record import _yamltree as _native
except ImportError:  # built without a C compiler or libyaml's headers: the Python reader reads every file
    _native = None

# YAML 1.1's implicit tags of a plain value, by its first character, in the order they are tried: PyYAML's
# resolver's table (yaml/resolver.py), its patterns as written there. Held here so that the native reader
# resolves a value without importing PyYAML, whose import costs 90 M instructions (mostly compiling its reader's
# pattern of printable characters), 8% of a cold `check` of 201 files; compiling these costs 10 M. The Python
# reader resolves through PyYAML's own table, so the tests that hold the two readers together hold this one to it.
_IMPLICIT = (
    ("bool", r'''^(?:yes|Yes|YES|no|No|NO
                    |true|True|TRUE|false|False|FALSE
                    |on|On|ON|off|Off|OFF)$''', "yYnNtTfFoO"),
    ("float", r'''^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$''', "-+0123456789."),
    ("int", r'''^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+
                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$''', "-+0123456789"),
    ("merge", r'^(?:<<)$', "<"),
    ("null", r'''^(?: ~
                    |null|Null|NULL
                    | )$''', ("~", "n", "N", "")),
    ("timestamp", r'''^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
                    |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
                     (?:[Tt]|[ \t]+)[0-9][0-9]?
                     :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
                     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$''', "0123456789"),
    ("value", r'^(?:=)$', "="),
    ("yaml", r'^(?:!|&|\*)$', "!&*"),
)
_RESOLVERS: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _name, _pattern, _firsts in _IMPLICIT:
    _compiled = re.compile(_pattern, re.X)
    for _first in _firsts:
        _RESOLVERS.setdefault(_first, []).append((_STD + _name, _compiled))


def _plain_tag(value: str) -> str:
    """The tag of a plain value written with no tag, for the native reader (which remembers it): YAML 1.1's,
    except that a plain number with leading zeros is a decimal number.

    YAML 1.1 reads `010` as octal and `08` as text; a scorer writing `NS: 08` means eight, as YAML 1.2
    reads it. (`Node.integer` then accepts decimal digits only: `0x0A`, `0b11`, `1_0` are refused.)
    """
    for tag, pattern in _RESOLVERS.get(value[:1], ()):
        if pattern.match(value):
            return tag
    return _INT_TAG if _LEADING_ZERO.fullmatch(value) else _STR_TAG

MAX_FILE_BYTES = 5 * 1024 * 1024
"""The largest input file read (a rulebook is ~100 KB; a scenario ~1 KB)."""
_CHUNK = 64 * 1024
"""How much of a pipe or device is read at a time."""
if _native is not None:
    _native.configure(Node, Pos, _plain_tag, "".join(first for first in _RESOLVERS if first), False,
                      ("scalar", "seq", "map"), (_STR_TAG, _STD + "seq", _STD + "map", NULL_TAG),
                      frozenset(_ALLOWED_TAGS), MAX_NODES, MAX_DEPTH, 4_096)


def parse_yaml(text: str, path: str) -> Node:
    """Parse one YAML document from text; `path` is used in error positions."""
    # The tree holds no cycles: pausing the garbage collector while it is built
    # makes a file at MAX_NODES parse about three times faster.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, path)
    finally:
        if collecting:
            gc.enable()


def _parse(text: str, path: str) -> Node:
    # The native reader builds the tree of an everyday file and leaves every other file, and every refusal,
    # to the Python reader (docs/development.md, "The native reader").
    if _native is not None:
        root = _native.build(text, path)
        if root is not None:
            return root
    from adjudicate.record import pyyaml_reader

    return pyyaml_reader.read(text, path)


if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        """The Python reader's loader, by the name it had here (importing it imports PyYAML)."""
        if name == "_Loader":
            from adjudicate.record.pyyaml_reader import _Loader

            return _Loader
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_UTF16_32 = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
             (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
_UTF16_32_BOMS = tuple(bom for bom, _ in _UTF16_32)
_UTF8_BOM = b"\xef\xbb\xbf"


_NOT_REGULAR = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words: "a named pipe (FIFO)", "a device", ..."""
    return next((words for test, words in _NOT_REGULAR if test(mode)), "a special file")


_READ = os.O_RDONLY | getattr(os, "O_BINARY", 0)
_NOT_WAITING = getattr(os, "O_NONBLOCK", 0)
"""The flags a file is opened with (looked up once: `getattr` of a name `os` lacks formats an AttributeError)."""


def read_text(path: str | os.PathLike[str], *, regular_only: bool = False) -> str:
    """Read a file as UTF-8 text, refusing folders, binaries and huge files.

    With `regular_only` (a file named inside another file: a scenario's `code:` or `house:`), anything
    but a regular file is refused, before a byte is read: the file is opened without blocking, so a
    named pipe no one writes to cannot hang the command.
    """
    return read_source(path, regular_only=regular_only)[1]


def read_source(path: str | os.PathLike[str], *, regular_only: bool = False) -> tuple[bytes, str]:
    """A file's bytes as read, and its text, as `read_text` reads it (the bytes: for the ruling record's digests)."""
    name = os.fspath(path)
    flags = _READ | _NOT_WAITING if regular_only else _READ
    try:
        # os-level calls, not open(): a scenario is read in one read, and check reads thousands.
        handle = os.open(name, flags)
        try:
            status = os.fstat(handle)
            size = status.st_size
            regular = stat.S_ISREG(status.st_mode)
            if regular_only and not regular:
                if stat.S_ISDIR(status.st_mode):
                    raise InputError.at(_whole(name), "is a folder, not a file")
                raise InputError.at(_whole(name), f"is {file_kind(status.st_mode)}, not a regular file; refused")
            if size > MAX_FILE_BYTES:
                raise InputError.at(_whole(name), _too_big(f"{size:,}") + f" (the most read is {MAX_FILE_BYTES:,})")
            # A regular file is read in one call, asking for the size fstat gives and a byte more (asking
            # for the whole limit has the OS map and unmap megabytes for each kilobyte scenario). A pipe or
            # a device, whose size fstat does not know, and a file that holds more than its size says (a
            # /proc file says 0) or less (it shrank), are read on in chunks to their end or the limit.
            data = os.read(handle, min(size, MAX_FILE_BYTES) + 1)
            if len(data) != size or not regular:
                chunks, got = [data], len(data)
                while got <= MAX_FILE_BYTES and (more := os.read(handle, min(_CHUNK, MAX_FILE_BYTES + 1 - got))):
                    chunks.append(more)
                    got += len(more)
                data = b"".join(chunks)
        finally:
            os.close(handle)
    except FileNotFoundError:
        raise InputError.at(_whole(name), "no such file") from None
    except OSError as exc:
        if os.path.isdir(name):
            raise InputError.at(_whole(name), "is a folder, not a file") from None
        raise InputError.at(_whole(name), f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:  # not a regular file, or one that grew while read
        raise InputError.at(_whole(name), _too_big(f"more than {MAX_FILE_BYTES:,}"))
    return data, _decoded(data, name)


def _whole(name: str) -> Pos:
    """The file as a whole: printed as the path alone."""
    return Pos(name, 0, 0)


def _too_big(size: str) -> str:
    return f"the file is {size} bytes, far more than any scenario or rulebook; refused"


def read_stream(stream: IO[bytes], name: str = STDIN) -> str:
    """A scenario's text read from a binary stream: `read_stream_source`'s text."""
    return read_stream_source(stream, name)[1]


def read_stream_source(stream: IO[bytes], name: str = STDIN) -> tuple[bytes, str]:
    """Read a scenario from a binary stream (standard input) to its end, as `read_text` reads a file: at most
    MAX_FILE_BYTES (an endless stream, `yes | adjudicate rule -`, is refused at the limit, not read for
    ever), UTF-8 text only, no NUL byte; errors name it `name`, with line and column.

    A stream that never ends and never writes (a terminal nobody types on) is waited on, as `cat` waits:
    Ctrl-C (exit 130) or SIGTERM (143) ends the wait.
    """
    import io

    whole = Pos(name, 0, 0)
    chunks: list[bytes] = []
    got = 0
    # A buffered stream's read(n) reads on to n bytes or the end: a short read is the end (on a terminal,
    # Ctrl-D, which a second read would wait past). A raw stream's may be short before the end.
    buffered = isinstance(stream, (io.BufferedIOBase, io.TextIOBase))
    try:
        while got <= MAX_FILE_BYTES:
            asked = MAX_FILE_BYTES + 1 - got
            more = stream.read(asked)
            if not more:
                break
            if not isinstance(more, bytes):  # a text stream: its characters as UTF-8
                more = str(more).encode("utf-8", "surrogateescape")
            chunks.append(more)
            got += len(more)
            if buffered and len(more) < asked:
                break
    except OSError as exc:
        raise InputError.at(whole, f"cannot read standard input: {exc.strerror or exc}") from None
    except ValueError:  # closed
        raise InputError.at(whole, "standard input is closed: nothing to read") from None
    if got > MAX_FILE_BYTES:
        raise InputError.at(whole, f"standard input holds more than {MAX_FILE_BYTES:,} bytes, far more than any "
                                   "scenario; refused")
    data = b"".join(chunks)
    return data, _decoded(data, name, stream=True)


def decode_source(data: bytes, name: str) -> str:
    """A file's text from its bytes, exactly as `read_source` decodes what it read (InputError where it refuses)."""
    return _decoded(data, name)


def _decoded(data: bytes, name: str, stream: bool = False) -> str:
    """The text of a file's (or a stream's) bytes: UTF-8, a byte order mark dropped; UTF-16 and -32, NUL bytes
    and bytes that are not UTF-8 refused at their line and column."""
    what = "the input" if stream else "the file"
    if data.startswith(_UTF16_32_BOMS):
        encoding = next(encoding for bom, encoding in _UTF16_32 if data.startswith(bom))
        raise InputError.at(Pos(name, 1, 1), f"{what} is {encoding} text; give it as UTF-8" if stream
                            else f"the file is {encoding} text; save it as UTF-8")
    if b"\x00" in data:
        raise InputError.at(Pos(name, 1, 1), "the input is binary (it holds a NUL byte), not YAML text" if stream
                            else "is a binary file, not YAML text")
    try:
        # Without a byte order mark the two read alike; "utf-8" is decoded in C, "utf-8-sig" through the codec's
        # Python function (1.8 M instructions on 201 files).
        return data.decode("utf-8-sig" if data.startswith(_UTF8_BOM) else "utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise InputError.at(Pos(name, line, column),
                            f"{what} is not UTF-8 text: byte 0x{data[exc.start]:02X} cannot stand here "
                            + ("(give it as UTF-8)" if stream else "(save the file as UTF-8)")) from None


# --- a scenario given as Python values ------------------------------------------

@cache
def _unprintable() -> re.Pattern[str]:
    """What YAML refuses in a file's text (the C0 and C1 controls, lone surrogates, U+FFFE, U+FFFF): refused in the
    text of a mapping as well, so that a mapping can hold nothing its YAML file could not. Compiled where a mapping
    is first read: its ranges, to U+10FFFF, cost 57 M instructions to compile."""
    return re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _key_path(parent: str, key: object) -> str:
    """`log[3]`, `hands.E`, `expect['not']`... as a Python reader of the mapping would find the value."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    text = str(key)
    if _IDENTIFIER.fullmatch(text):
        return f"{parent}.{text}" if parent else text
    return f"{parent}[{text!r}]"


def _text_of(value: str) -> str:
    """A `str` (or a subclass, such as a `str` enum's member) as its characters, whatever its `__str__` says."""
    return str.__str__(value)


class _ValueBuilder:
    """Turns a mapping of plain Python values into `Node`s, each placed at its key path (`KeyPos`).

    The values are what a YAML file would give: `str` (text), `int`, `float`, `bool`, None, a mapping
    with text keys, a `list` or `tuple`. Each keeps the tag its YAML would have: the number 2 is a
    whole number, the text "2" is text, as `"2"` quoted in a file is. The limits of files hold:
    MAX_NODES values, MAX_DEPTH levels (a list holding itself is refused at that depth).
    """

    def __init__(self, name: str):
        self.name = name
        self.count = 0

    def pos(self, key: str) -> KeyPos:
        return KeyPos(self.name, 0, 0, key)

    def build(self, value: object, key: str, depth: int) -> Node:
        pos = self.pos(key)
        self.count += 1
        if self.count > MAX_NODES:
            raise InputError.at(pos, f"the mapping holds more than {MAX_NODES:,} values; refused")
        if depth > MAX_DEPTH:
            raise InputError.at(pos, f"the mapping nests lists and mappings more than {MAX_DEPTH} deep; refused")
        if value is None:
            return Node("scalar", "", pos, NULL_TAG)
        if isinstance(value, bool):
            return Node("scalar", "true" if value else "false", pos, _STD + "bool")
        if isinstance(value, int):
            return Node("scalar", str(int(value)), pos, _INT_TAG)
        if isinstance(value, float):
            return Node("scalar", repr(float(value)), pos, _STD + "float")
        if isinstance(value, str):
            text = _text_of(value)
            bad = _unprintable().search(text)
            if bad:
                raise InputError.at(pos, f"the text holds the character {_describe_char(bad.group())}, which a "
                                         "scenario cannot hold (it could rewrite the terminal it is printed on); "
                                         "refused")
            return Node("scalar", text, pos, _STR_TAG)
        if isinstance(value, Mapping):
            mapping: dict[str, tuple[Node, Node]] = {}
            for name, item in value.items():
                if isinstance(name, str):
                    text = _text_of(name)
                elif isinstance(name, int) and not isinstance(name, bool):
                    text = str(int(name))
                else:
                    raise InputError.at(pos, f"a key should be text, not {type(name).__name__} {quote(name)}")
                child = _key_path(key, text)
                knode = self.build(text, child, depth + 1)
                if text in mapping:  # 1 and "1": one key once written out
                    raise InputError.at(knode.pos, f"duplicate key {quote(text)}")
                mapping[text] = (knode, self.build(item, child, depth + 1))
            return Node("map", mapping, pos, _STD + "map")
        if isinstance(value, (list, tuple)):
            return Node("seq", [self.build(item, _key_path(key, index), depth + 1) for index, item in enumerate(value)],
                        pos, _STD + "seq")
        raise InputError.at(pos, f"a scenario holds text, numbers, true or false, None, lists and mappings; "
                                 f"not {type(value).__name__} {quote(value)}")


def node_of(value: Mapping[str, Any], name: str = "<mapping>") -> Node:
    """The node tree of a scenario given as a Python mapping (what `yaml.safe_load` of its file would give),
    each value placed at its key path (`<mapping>:log[3]`): a mapping has no lines."""
    collecting = gc.isenabled()
    gc.disable()  # as parse_yaml: the tree holds no cycles
    try:
        return _ValueBuilder(name).build(value, "", 0)
    finally:
        if collecting:
            gc.enable()


def read_yaml(path: str | os.PathLike[str], *, regular_only: bool = False) -> Node:
    """Read and parse a YAML file with every limit applied (`regular_only`: see `read_text`)."""
    return parse_yaml(read_text(path, regular_only=regular_only), os.fspath(path))


def read_yaml_source(path: str | os.PathLike[str], *, regular_only: bool = False) -> tuple[bytes, Node]:
    """As `read_yaml`, with the file's bytes as read."""
    data, text = read_source(path, regular_only=regular_only)
    return data, parse_yaml(text, os.fspath(path))
