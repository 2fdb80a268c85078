"""Scenario files: what happened at the table, read and checked with positions.

A scenario names the code, the dealer, the hands as dealt (as far as known), the
turned card and the log of acts in order (docs/scenario-format.md). Loading
checks the file's shape and the words of every act; whether the acts were
regular is the replay's business, and whether they were physically possible
(a card in two places) is checked by the replay against the code's pack.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from msgspec import Struct, field

from adjudicate.record.acts import Act, parse_act
from adjudicate.record.cards import Card, Suit, parse_card
from adjudicate.errors import InputError, Pos, Problem, ScenarioError, did_you_mean, in_file_order, quote
from adjudicate.record.seats import SEAT_LETTERS, Seat, Side, seat_of_letter
from adjudicate.record.expect import Expect, _ExpectReader
from adjudicate.record.values import _Values
from adjudicate.record.yamlsource import NULL_TAG, Node, parse_yaml, read_text

TOP_KEYS = frozenset({"title", "notes", "code", "house", "dealer", "score", "games", "hands", "turned", "log", "expect"})

MAX_HAND_CARDS = 52
"""The most cards a hand may list: the largest pack (a hand of Whist is 13)."""
MAX_LOG_ENTRIES = 2_000
"""A hand of Whist is 52 plays and a few dozen other acts; more is not a hand."""

UNKNOWN_REST = "..."
_SEAT_NAMES = frozenset(SEAT_LETTERS)
"""The keys of `hands`: N, E, S, W."""



class Holding(Struct, frozen=True):
    """A hand as dealt, as far as the record knows it."""

    cards: tuple[Card, ...]
    """The cards known to have been dealt to this seat."""
    complete: bool
    """True when these are all his cards; False when the list ended with `...`."""
    positions: tuple[Pos, ...]
    """Where each card stands in the file."""
    pos: Pos


class LogEntry(Struct, frozen=True):
    """One act of the log, numbered from 1 in file order."""

    number: int
    act: Act
    pos: Pos

    def __str__(self) -> str:
        return str(self.act)


class Scenario(Struct, frozen=True):
    """A disputed hand as written down."""

    path: str
    code: str
    """A built-in code id (`euchre`) or a rulebook file's path (relative to the scenario)."""
    dealer: Seat
    log: tuple[LogEntry, ...]
    title: str | None = None
    house: str | None = None
    score: dict[Side, int] | None = None
    games: dict[Side, int] | None = None
    """The games each side has won in the rubber before the one in play (0 or 1 each), where the record gives them."""
    hands: dict[Seat, Holding] = field(default_factory=dict)
    turned: Card | None = None
    turned_pos: Pos | None = None
    expect: Expect | None = None
    positions: dict[str, Pos] = field(default_factory=dict)
    """Where the value of each top-level key stands."""
    notes: str | None = None
    """What the scenario's writer says of the hand, as written (the ruling sheet shows it)."""

    @property
    def eldest(self) -> Seat:
        """The eldest hand: the dealer's left."""
        return self.dealer.left


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and check a scenario file."""
    name = os.fspath(path)
    try:
        return parse_scenario(read_text(name), name)
    except ScenarioError:
        raise
    except InputError as error:
        raise ScenarioError(error.problems) from None


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Check a scenario given as text; `path` names it in errors."""
    try:
        root = parse_yaml(text, path)
    except InputError as error:
        raise ScenarioError(error.problems) from None
    return read_scenario(root, path)


def read_scenario(root: Node, path: str) -> Scenario:
    """Check a scenario already read into nodes (from a file, a text, or a Python mapping: `yamlsource.node_of`);
    `path` names it in errors and is where the files it names are looked for from."""
    try:
        return _Reader(path).scenario(root)
    except ScenarioError:
        raise
    except InputError as error:
        raise ScenarioError(error.problems) from None


class _Reader(_Values):
    def __init__(self, path: str):
        self.path = path

    def scenario(self, root: Node) -> Scenario:
        if not root.is_map():
            raise root.error(f"a scenario should be a mapping with keys {', '.join(sorted(TOP_KEYS))}; "
                             f"found {root.shape()}")
        if root.value and TOP_KEYS.isdisjoint(root.value):  # type: ignore[arg-type]
            # Some other YAML file (a CI workflow, a config): its keys are its content, not quoted.
            raise root.error(f"not a scenario: none of the {len(root.value):,} keys of this mapping is a "  # type: ignore[arg-type]
                             f"scenario's ({', '.join(sorted(TOP_KEYS))})")
        read, problems = self.read_keys(root, "the scenario", TOP_KEYS, _TOP_READERS,
                                        required=("code", "dealer", "log"))
        pairs: dict[str, tuple[Node, Node]] = root.value  # type: ignore[assignment]
        if problems:
            raise ScenarioError(in_file_order(problems))
        turned = pairs.get("turned")
        return Scenario(
            path=self.path, code=read["code"], dealer=read["dealer"], log=read["log"], title=read.get("title"),
            house=read.get("house"), score=read.get("score"), games=read.get("games"), hands=read.get("hands") or {},
            turned=read.get("turned"), turned_pos=turned[1].pos if turned else None, expect=read.get("expect"),
            positions={key: vnode.pos for key, (_, vnode) in pairs.items()}, notes=read.get("notes"),
        )

    def hands(self, node: Node) -> dict[Seat, Holding]:
        node.expect_map("`hands`")
        node.check_keys("`hands`", _SEAT_NAMES)
        hands: dict[Seat, Holding] = {}
        for key, (_, value) in node.value.items():  # type: ignore[attr-defined]
            hands[SEAT_LETTERS[key]] = self.holding(value, key)
        return hands

    def holding(self, node: Node, seat: str) -> Holding:
        if node.kind == "seq":
            # Read straight from the nodes: the checking calls (with their messages) only where a card is not text.
            elements: list[Node] = node.value  # type: ignore[assignment]
            words: list[str] = [
                element.value if element.kind == "scalar" and element.tag != NULL_TAG  # type: ignore[misc]
                else element.text(f"a card in the hand of {seat}") for element in elements]
            positions = [element.pos for element in elements]
        elif node.is_scalar() and not node.is_null():
            # `E: QS 9H JD AC 8C` is allowed as well as a list.
            words = node.text(f"the hand of {seat}").replace(",", " ").split()
            positions = [node.pos] * len(words)
        else:
            raise node.error(f"the hand of {seat} should be a list of cards, not {node.describe()}")
        if len(words) > MAX_HAND_CARDS + 1:
            raise node.error(f"the hand of {seat} lists {len(words):,} cards; no pack has more than {MAX_HAND_CARDS}")
        complete = True
        if words and words[-1].strip() == UNKNOWN_REST:
            complete = False
            del words[-1], positions[-1]
        try:
            cards = tuple(map(parse_card, words))
        except ValueError:  # the first word that is not a card, said with its place
            for word, pos in zip(words, positions):
                self.card_in_hand(word, pos, seat)
            raise
        return Holding(cards, complete, tuple(positions), node.pos)

    @staticmethod
    def card_in_hand(word: str, pos: Pos, seat: str) -> Card:
        try:
            return parse_card(word)
        except ValueError as error:
            if word.strip() == UNKNOWN_REST:
                raise InputError.at(pos, f"`...` may only end the hand of {seat}, meaning the rest is unknown")
            raise InputError.at(pos, f"in the hand of {seat}: {error}") from None

    def log(self, node: Node) -> tuple[LogEntry, ...]:
        node.expect_seq("`log`")
        elements = node.elements()
        if len(elements) > MAX_LOG_ENTRIES:
            raise elements[MAX_LOG_ENTRIES].error(
                f"the log has {len(elements):,} entries; a hand has far fewer (the most read is {MAX_LOG_ENTRIES:,})")
        entries: list[LogEntry] = []
        problems: list[Problem] = []
        for number, element in enumerate(elements, start=1):
            # The everyday entry, `- E: AS` (a seat's letter and the act's words), read straight from its nodes;
            # any other, or one whose words are not an act, through `act`, with its checks and messages.
            if element.kind == "map" and len(pairs := element.value) == 1:  # type: ignore[arg-type]
                ((key, (_, value)),) = pairs.items()  # type: ignore[attr-defined]
                seat = seat_of_letter(key)
                if seat is not None and value.kind == "scalar" and value.tag != NULL_TAG:
                    try:
                        entries.append(LogEntry(number, parse_act(value.value, seat), element.pos))
                        continue
                    except ValueError:
                        pass
            try:
                entries.append(LogEntry(number, self.act(element), element.pos))
            except InputError as error:
                problems.extend(error.problems)
        if problems:
            raise InputError(problems)
        return tuple(entries)

    def act(self, node: Node) -> Act:
        kind = node.kind
        if kind == "map":
            pairs = node.value
            if len(pairs) != 1:  # type: ignore[arg-type]
                raise node.error("a log entry is one act, {SEAT: ACT}, such as `- W: order up`; "
                                 f"this one has {len(pairs)} keys")  # type: ignore[arg-type]
            knode, value = next(iter(pairs.values()))  # type: ignore[attr-defined]
            seat = self.seat(knode, "the seat of a log entry")
            if value.kind == "scalar" and value.tag != NULL_TAG:
                words = value.value
            elif value.is_seq():
                raise value.error("an act is written as words, such as `expose KH QS`, not as a list")
            else:
                words = value.text(f"the act of {seat}")
            try:
                return parse_act(words, seat)
            except ValueError as error:
                raise value.error(str(error)) from None
        if kind == "scalar" and node.tag != NULL_TAG:
            try:
                return parse_act(node.value, None)
            except ValueError as error:
                raise node.error(str(error)) from None
        raise node.error("a log entry should be an act {SEAT: ACT} (like `- W: AS`) or a table event "
                         f"(like `- quit`), not {node.describe()}")


_TOP_READERS: tuple[tuple[str, Callable[[_Reader, Node], Any]], ...] = (
    ("code", lambda reader, node: reader.nonempty(node, "`code`")),
    ("house", lambda reader, node: reader.nonempty(node, "`house`")),
    ("title", lambda reader, node: node.text("`title`")),
    ("notes", lambda reader, node: node.text("`notes`")),
    ("dealer", lambda reader, node: reader.seat(node, "`dealer`")),
    ("score", _Reader.score),
    ("games", _Reader.games),
    ("hands", _Reader.hands),
    ("turned", lambda reader, node: reader.card(node, "`turned`")),
    ("log", _Reader.log),
    ("expect", lambda reader, node: _ExpectReader().expect(node)),
)
"""How the value of each top-level key is read, in the order they are read."""
