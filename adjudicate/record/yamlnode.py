"""One YAML value with its position (`Node`): the tree every input file is read into, by either reader
(`yamlsource`'s native one, `pyyaml_reader`), with the tags a value may carry and the limits of a file."""

from __future__ import annotations

import re
from typing import Iterator

from msgspec import Struct, field

from adjudicate.errors import InputError, Pos, Problem, did_you_mean, quote

_STD = "tag:yaml.org,2002:"
_STR_TAG, _INT_TAG = _STD + "str", _STD + "int"
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")

MAX_NODES = 50_000
"""The most values a file may hold or expand to, aliases counted each time they are used
(a built-in rulebook holds about 2,000; a scenario a few hundred)."""
MAX_DEPTH = 100
"""The deepest nesting of lists and mappings."""

_DECIMAL = re.compile(r"[-+]?[0-9]+")
"""A whole number as a scenario or rulebook writes one: decimal digits, a sign at most (ASCII digits only)."""
NULL_TAG = _STD + "null"
"""The tag of an empty value (`key:` with nothing after it, `~`, `null`)."""
_ALLOWED_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}


class Node(Struct, eq=False, gc=False):
    """One YAML value with its position.

    `value` is a `str` for scalars (the text as written, whatever its implicit
    type), a `list[Node]` for sequences, and a `dict[str, tuple[Node, Node]]`
    (key -> (key node, value node)) for mappings.

    Nodes form a tree, never a cycle (an alias is read as a copy of the value it names), so the
    garbage collector need not track them (`gc=False`).
    """

    kind: str
    """"scalar", "seq" or "map"."""
    value: object
    pos: Pos
    """Where the value starts."""
    tag: str = field(default=_STD + "str")

    # --- shape checks -------------------------------------------------
    def is_scalar(self) -> bool:
        return self.kind == "scalar"

    def is_seq(self) -> bool:
        return self.kind == "seq"

    def is_map(self) -> bool:
        return self.kind == "map"

    def describe(self) -> str:
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.tag == NULL_TAG:
            return "nothing (null)"
        return quote(self.value)

    def shape(self) -> str:
        """What the value is, without quoting it: for a file that may not be what it is read as (a key)."""
        if self.kind == "scalar" and self.tag != NULL_TAG:
            return "a single value"
        return self.describe()

    def error(self, message: str) -> InputError:
        return InputError.at(self.pos, message)

    def items(self) -> Iterator[tuple[str, Node, Node]]:
        """(key, key node, value node) of a mapping, in file order."""
        assert self.kind == "map"
        for key, (knode, vnode) in self.value.items():  # type: ignore[attr-defined]
            yield key, knode, vnode

    def get(self, key: str) -> "Node | None":
        assert self.kind == "map"
        pair = self.value.get(key)  # type: ignore[attr-defined]
        return pair[1] if pair else None

    # --- typed access ---------------------------------------------------
    def expect_map(self, what: str) -> "Node":
        if self.kind != "map":
            raise self.error(f"{what} should be a mapping of keys to values, not {self.describe()}")
        return self

    def expect_seq(self, what: str) -> "Node":
        if self.kind != "seq":
            raise self.error(f"{what} should be a list, not {self.describe()}")
        return self

    def elements(self) -> list["Node"]:
        assert self.kind == "seq"
        return self.value  # type: ignore[return-value]

    def text(self, what: str) -> str:
        """A scalar as the text written (so `title: yes` is "yes", not True)."""
        if self.kind != "scalar" or self.tag == NULL_TAG:
            raise self.error(f"{what} should be text, not {self.describe()}")
        return self.value  # type: ignore[return-value]

    def integer(self, what: str) -> int:
        """A whole number written in decimal digits (`10`, `-1`, `010` as ten); YAML 1.1's other ways of
        writing one (`0x0A`, `0b11`, `0o12`, `1_000`, `1:30`) are refused, since no scorer means them."""
        if self.kind != "scalar" or self.tag != _INT_TAG:
            raise self.error(f"{what} should be a whole number, not {self.describe()}")
        text: str = self.value  # type: ignore[assignment]
        if not _DECIMAL.fullmatch(text):
            raise self.error(f"{what} should be a whole number written in decimal digits, like 10, "
                             f"not {self.describe()}")
        return int(text, 10)

    def boolean(self, what: str) -> bool:
        if self.kind != "scalar" or self.tag != _STD + "bool":
            raise self.error(f"{what} should be true or false, not {self.describe()}")
        return str(self.value).lower() in ("true", "yes", "on")

    def is_null(self) -> bool:
        return self.kind == "scalar" and self.tag == NULL_TAG

    def check_keys(self, what: str, allowed: set[str] | frozenset[str], required: tuple[str, ...] = ()) -> None:
        """Refuse unknown keys (with a "did you mean") and missing required ones."""
        present: dict[str, tuple[Node, Node]] = self.value  # type: ignore[assignment]
        if allowed.issuperset(present) and all(map(present.__contains__, required)):
            return
        problems = []
        for key, knode, _ in self.items():
            if key not in allowed:
                problems.append(
                    Problem(knode.pos, f"unknown key {quote(key)} in {what}{did_you_mean(key, allowed)}; "
                                       f"expected one of: {', '.join(sorted(allowed))}")
                )
        for key in required:
            if key not in self.value:  # type: ignore[operator]
                problems.append(Problem(self.pos, f"{what} is missing the required key {key!r}"))
        if problems:
            raise InputError(problems)


def _describe_char(character: object) -> str:
    """A character as U+XXXX with its repr: the C reader gives a code point, the Python one a str."""
    code = character if isinstance(character, int) else ord(str(character)[:1] or "\0")
    return f"U+{code:04X} {chr(code)!r}"
