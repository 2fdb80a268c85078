"""The Python reader: a YAML text's `Node` tree built from the events of PyYAML's C parser (libyaml), with every
refusal the reader makes (docs/development.md, "Reading YAML: one tree per file"). It reads each file the native
reader gives back, and every file where the native reader is not built; `yamlsource.parse_yaml` imports it only
then, since importing PyYAML costs about 90 M instructions.
"""

from __future__ import annotations

import operator
import re
from functools import lru_cache
from typing import Any

import yaml

from adjudicate.errors import InputError, Pos, quote
from adjudicate.record.yamlnode import (
    _ALLOWED_TAGS, _INT_TAG, _LEADING_ZERO, _STD, _STR_TAG, MAX_DEPTH, MAX_NODES, NULL_TAG, Node, _describe_char,
)

try:
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader


_YAML11_RESOLVE = yaml.resolver.Resolver().resolve


def _resolve(kind: type, value: str, implicit: tuple[bool, bool]) -> str:
    """YAML 1.1's tag for a value, by PyYAML's resolver, except that a plain number with leading zeros is a decimal
    number (as the native reader's `yamlsource._plain_tag` has it)."""
    tag = _YAML11_RESOLVE(kind, value, implicit)
    if tag == _STR_TAG and implicit[0] and kind is yaml.ScalarNode and _LEADING_ZERO.fullmatch(value):
        return _INT_TAG
    return tag


class _Loader(_BaseLoader):
    """PyYAML's safe loader, remembering the implicit tag of each scalar text."""

    # Path resolvers are the only thing descending and ascending the tree tracks, and none is
    # registered: C no-ops taking the same arguments stand in for two Python calls per value.
    descend_resolver = staticmethod(operator.is_)  # (parent node, index), ignored
    ascend_resolver = staticmethod(tuple)  # (), ignored
    # With no path resolvers, the safe resolver is a pure function of the node kind, the text and
    # whether it was quoted, run in Python for every scalar (a third of composing a file), while
    # `N`, `AS`, `play` recur in every file: remembered, bounded. A file's own texts (its title, its
    # notes) seldom recur and each holds about 0.3 KB here, so the bound is what the recurring texts of
    # a few thousand scenarios fill, not the count of files a long `check` reads.
    resolve = staticmethod(lru_cache(maxsize=4_096)(_resolve))


_CONTROL = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
"""Control characters: YAML refuses them written raw, but a double-quoted "\\e" escape gets them in."""
_SCALAR = yaml.ScalarNode


def _pos(path: str, mark: Any) -> Pos:
    if mark is None:
        return Pos(path, 1, 1)
    return Pos(path, mark.line + 1, mark.column + 1)


class _Limits:
    """The refusals of a value over a limit, with a tag not allowed, or holding a control character."""

    def __init__(self, path: str, escapes: bool = True):
        self.path = path
        self.count = 0
        # A control character can only reach a value through an escape (`"\e"`): the reader
        # refuses raw ones. Without a backslash in the file there is nothing to look for.
        self.escapes = escapes

    def refuse_control(self, text: str, pos: Pos) -> None:
        control = _CONTROL.search(text)
        if control:
            raise InputError.at(pos, f"the text holds the control character "
                                     f"{_describe_char(control.group())} (written as an escape); "
                                     "it could rewrite the terminal it is printed on; refused")

    def refuse(self, tag: str, pos: Pos, depth: int) -> None:
        """Raise the error for a value over a limit, or with a tag that is not allowed."""
        if self.count > MAX_NODES:
            raise InputError.at(pos, f"the file expands to more than {MAX_NODES:,} values "
                                     "(YAML aliases repeated many times?); refused")
        if depth > MAX_DEPTH:
            raise InputError.at(pos, f"the file nests lists and mappings more than {MAX_DEPTH} deep; refused")
        if tag == _STD + "merge":
            raise InputError.at(pos, "YAML merge keys (`<<: *name`) are not read: write the keys out")
        raise InputError.at(pos, f"the YAML tag {tag!r} is not allowed: input files hold plain "
                                 "text, numbers, lists and mappings only")


_SCALAR_EVENT, _ALIAS_EVENT = yaml.ScalarEvent, yaml.AliasEvent
_SEQUENCE_START, _MAPPING_START = yaml.SequenceStartEvent, yaml.MappingStartEvent
_SEQUENCE_END, _MAPPING_END = yaml.SequenceEndEvent, yaml.MappingEndEvent
_STREAM_END, _DOCUMENT_START = yaml.StreamEndEvent, yaml.DocumentStartEvent
_SEQ_TAG, _MAP_TAG = _STD + "seq", _STD + "map"
_OPEN = object()
"""An anchored list or mapping not closed yet (an alias to it is a recursive alias)."""


class _Builder(_Limits):
    """Builds the `Node` tree straight from libyaml's events, with no PyYAML node tree between.

    It refuses exactly what composing PyYAML's node tree and then building ours from it refused (the
    reader until issue 22), and in the same order: the composer read the whole document before a value
    was built, so libyaml's syntax errors and the composer's own (an undefined alias, a duplicate anchor,
    a second document) come first wherever they stand; then the first refusal of our own (a limit, a tag,
    a control character, a key that is not text or comes twice), in the file's order. So after a refusal
    of our own, the rest of the events are still read for those errors.
    """

    def __init__(self, path: str, escapes: bool = True):
        super().__init__(path, escapes)
        self.anchors: dict[str, object] = {}
        """Anchor -> the Node it names (`_OPEN` while that list or mapping is being read)."""
        self.root_mark: Any = None

    def build(self, loader: Any) -> Node | None:
        get = loader.get_event
        get()  # the stream's start
        if type(get()) is _STREAM_END:  # else the document's start
            return None
        try:
            root = self.document(get)
        except InputError:
            self.drain(get)
            raise
        get()  # the document's end
        self.single(get())
        return root

    def document(self, get: Any) -> Node:
        path = self.path
        anchors = self.anchors
        escapes = self.escapes
        resolve = _Loader.resolve
        allowed = _ALLOWED_TAGS
        # The lists and mappings being read, outer ones on the stack; the innermost in `items` (a list) or
        # `mapping` (a dict; the other None), with its node, its anchor and, in a mapping, the key read
        # and waiting for its value (`key`).
        stack: list[tuple[Any, ...]] = []
        items: list[Node] | None = None
        mapping: dict[str, tuple[Node, Node]] | None = None
        opened: Node | None = None
        opened_anchor: str | None = None
        key: Node | None = None
        depth = 0
        count = 0
        while True:
            event = get()
            kind = type(event)
            if kind is _SCALAR_EVENT:
                mark = event.start_mark
                pos = Pos(path, mark.line + 1, mark.column + 1)
                anchor = event.anchor
                if anchor is not None:
                    self.anchor(anchor, mark)
                value = event.value
                tag = event.tag
                if tag is None or tag == "!":
                    tag = resolve(_SCALAR, value, event.implicit)
                count += 1
                if count > MAX_NODES or depth > MAX_DEPTH or tag not in allowed:
                    self.count = count
                    self.refuse(tag, pos, depth)
                if escapes:
                    self.refuse_control(value, pos)
                node = Node("scalar", value, pos, tag)
                if anchor is not None:
                    anchors[anchor] = node
                if items is not None:
                    items.append(node)
                    continue
                if mapping is not None:
                    if key is None:  # a key: text, once in its mapping
                        if tag == NULL_TAG:
                            raise InputError.at(pos, f"a key should be plain text, not {node.describe()}")
                        if value in mapping:
                            first = mapping[value][0].pos
                            raise InputError.at(pos, f"duplicate key {quote(value)} (first at line {first.line})")
                        key = node
                    else:
                        mapping[key.value] = (key, node)  # type: ignore[index]
                        key = None
                    continue
            elif kind is _SEQUENCE_END or kind is _MAPPING_END:
                node = opened  # type: ignore[assignment]
                if opened_anchor is not None:
                    anchors[opened_anchor] = node
                items, mapping, opened, opened_anchor, key = stack.pop()
                depth -= 1
            elif kind is _MAPPING_START or kind is _SEQUENCE_START:
                mark = event.start_mark
                if not depth:
                    self.root_mark = mark
                pos = Pos(path, mark.line + 1, mark.column + 1)
                anchor = event.anchor
                if anchor is not None:
                    self.anchor(anchor, mark)
                tag = event.tag
                if tag is None or tag == "!":
                    tag = _MAP_TAG if kind is _MAPPING_START else _SEQ_TAG
                count += 1
                if count > MAX_NODES or depth > MAX_DEPTH or tag not in allowed:
                    self.count = count
                    self.refuse(tag, pos, depth)
                stack.append((items, mapping, opened, opened_anchor, key))
                depth += 1
                opened_anchor, key = anchor, None
                if kind is _MAPPING_START:
                    items, mapping = None, {}
                    opened = Node("map", mapping, pos, tag)
                else:
                    items, mapping = [], None
                    opened = Node("seq", items, pos, tag)
                continue
            else:  # an alias: a copy of the value it names, counted again
                anchor = event.anchor
                named = anchors.get(anchor)
                if named is None:
                    raise yaml.composer.ComposerError(None, None, "found undefined alias", event.start_mark)
                if named is _OPEN:  # `_scan` refuses it first
                    raise InputError.at(_pos(path, event.start_mark),
                                        f"the alias *{anchor} is used inside the value it names "
                                        "(a recursive alias); refused")
                self.count = count
                node = self.copy(named, depth)  # type: ignore[arg-type]
                count = self.count
            # A list or mapping closed, an alias, or a scalar standing alone: the value goes where it stands.
            if items is not None:
                items.append(node)
            elif mapping is not None:
                if key is None:
                    if node.kind != "scalar" or node.tag == NULL_TAG:
                        raise InputError.at(node.pos, f"a key should be plain text, not {node.describe()}")
                    name: str = node.value  # type: ignore[assignment]
                    if name in mapping:
                        first = mapping[name][0].pos
                        raise InputError.at(node.pos, f"duplicate key {quote(name)} (first at line {first.line})")
                    key = node
                else:
                    mapping[key.value] = (key, node)  # type: ignore[index]
                    key = None
            else:
                if self.root_mark is None:
                    self.root_mark = event.start_mark
                self.count = count
                return node

    def anchor(self, anchor: str, mark: Any) -> None:
        """Note an anchor (the composer refuses one used twice)."""
        if anchor in self.anchors:
            raise yaml.composer.ComposerError("found duplicate anchor; first occurrence", None,
                                              "second occurrence", mark)
        self.anchors[anchor] = _OPEN

    def copy(self, node: Node, depth: int) -> Node:
        """The value an alias names, built again where the alias stands, counted and limited again there."""
        self.count += 1
        if self.count > MAX_NODES or depth > MAX_DEPTH:
            self.refuse(node.tag, node.pos, depth)
        if node.kind == "scalar":
            return Node("scalar", node.value, node.pos, node.tag)
        if node.kind == "seq":
            return Node("seq", [self.copy(child, depth + 1) for child in node.value],  # type: ignore[attr-defined]
                        node.pos, node.tag)
        mapping = {}
        for name, (key, value) in node.value.items():  # type: ignore[attr-defined]
            copied = self.copy(key, depth + 1)
            mapping[name] = (copied, self.copy(value, depth + 1))
        return Node("map", mapping, node.pos, node.tag)

    def drain(self, get: Any) -> None:
        """Read the rest of the events after a refusal, for the errors the composer would have raised first."""
        anchors = self.anchors
        ended = False
        while True:
            event = get()
            kind = type(event)
            if kind is _STREAM_END:
                return
            if kind is _DOCUMENT_START and ended:
                self.single(event)
            if kind is yaml.DocumentEndEvent:
                ended = True
            elif kind is _ALIAS_EVENT:
                if event.anchor not in anchors:
                    raise yaml.composer.ComposerError(None, None, "found undefined alias", event.start_mark)
            elif kind is _SCALAR_EVENT or kind is _SEQUENCE_START or kind is _MAPPING_START:
                if event.anchor is not None:
                    self.anchor(event.anchor, event.start_mark)

    def single(self, event: Any) -> None:
        """Refuse a second document, as PyYAML's `get_single_node` does (`_scan` refuses it first)."""
        if type(event) is not _STREAM_END:
            raise yaml.composer.ComposerError("expected a single document in the stream", self.root_mark,
                                              "but found another document", event.start_mark)


def _scan(loader: yaml.Loader, path: str) -> None:
    """Walk the event stream once, before any node is built, refusing early what is too big.

    Counts values as the builder will (an alias counts the whole value it names,
    each time it is used), so an alias bomb is refused at the alias that tips it
    over, after reading a few hundred bytes; and refuses nesting deeper than
    MAX_DEPTH at the value that goes too deep, before libyaml's own limit.
    """
    count = 0
    sizes: dict[str, int] = {}
    stack: list[tuple[str | None, int]] = []
    documents = 0
    while True:
        event = loader.get_event()
        if isinstance(event, yaml.StreamEndEvent):
            return
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise InputError.at(_pos(path, event.start_mark),
                                    "a second YAML document starts here: a file holds one document "
                                    "(remove the `---` line or split the file)")
            continue
        if isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for anchor, _ in stack):
                raise InputError.at(_pos(path, event.start_mark),
                                    f"the alias *{event.anchor} is used inside the value it names "
                                    "(a recursive alias); refused")
            count += sizes.get(event.anchor or "", 1)
            if count > MAX_NODES:
                raise InputError.at(_pos(path, event.start_mark),
                                    f"the file expands to more than "
                                    f"{MAX_NODES:,} values at the alias *{event.anchor} (YAML aliases repeating one another: an alias "
                                    "bomb); refused")
            continue
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            count += 1
            if count > MAX_NODES:
                raise InputError.at(_pos(path, event.start_mark),
                                    f"the file holds more than {MAX_NODES:,} values; refused")
            if len(stack) > MAX_DEPTH:
                raise InputError.at(_pos(path, event.start_mark),
                                    f"the file nests lists and mappings more than {MAX_DEPTH} deep; refused")
            if isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            else:
                stack.append((event.anchor, count - 1))
            continue
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, before = stack.pop()
            if anchor is not None:
                sizes[anchor] = count - before


def _needs_scan(text: str) -> bool:
    """Whether a text could hold what only the event scan refuses well: aliases, more documents,
    or more nesting or values than a file of its size could reach by the builder's own checks.

    An everyday scenario (a few kilobytes, no anchors) skips the second pass over its events.
    """
    return len(text) > 4_096 or "&" in text or "---" in text or "\n..." in text or text.startswith("...")


def _yaml_problem(exc: yaml.MarkedYAMLError) -> str:
    what = exc.problem or exc.context or "invalid YAML"
    if "maximum nesting depth" in what:
        return f"the file nests lists and mappings more than {MAX_DEPTH} deep; refused"
    return f"invalid YAML: {what}"


def read(text: str, path: str) -> Node:
    """The tree of a YAML text, or the reader's refusal of it (InputError); `path` names it in errors."""
    try:
        if _needs_scan(text):
            scanner = _Loader(text)
            try:
                _scan(scanner, path)
            finally:
                scanner.dispose()
        loader = _Loader(text)
        try:
            root = _Builder(path, escapes="\\" in text).build(loader)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise InputError.at(_pos(path, mark), _yaml_problem(exc)) from None
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        raise InputError.at(Pos(path, line, column),
                            f"the character {_describe_char(exc.character)} is not allowed in YAML "
                            f"({exc.reason})") from None
    except yaml.YAMLError as exc:
        message = " ".join(str(exc).split())
        raise InputError.at(Pos(path, 1, 1), f"invalid YAML: {message}") from None
    except RecursionError:
        raise InputError.at(Pos(path, 1, 1), "the file nests too deep to read; refused") from None
    if root is None:
        if text.strip():
            raise InputError.at(Pos(path, 1, 1), "the file holds only comments: expected a YAML mapping")
        raise InputError.at(Pos(path, 1, 1), "the file is empty: expected a YAML mapping")
    return root


