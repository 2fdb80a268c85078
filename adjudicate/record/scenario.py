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

from msgspec import Struct, field

from adjudicate.record.acts import Act, parse_act
from adjudicate.record.cards import Card, Suit, parse_card
from adjudicate.errors import InputError, Pos, Problem, ScenarioError, did_you_mean, in_file_order, quote
from adjudicate.record.seats import Seat, Side
from adjudicate.record.vocabulary import KINDS, OPTIONS
from adjudicate.record.yamlsource import NULL_TAG, Node, parse_yaml, read_text

TOP_KEYS = frozenset({"title", "notes", "code", "house", "dealer", "score", "hands", "turned", "log", "expect"})
EXPECT_KEYS = frozenset({"laws", "include", "not", "unknown", "trump", "winners", "irregularities", "remedies",
                         "score", "not_applied"})
EXPECTED_SCORE_KEYS = frozenset({"hand", "after", "meaning", "outcomes"})
EXPECTED_OUTCOME_KEYS = frozenset({"after", "meaning", "choices"})
EXPECTED_DEFEAT_KEYS = frozenset({"law", "by"})
EXPECTED_IRREGULARITY_KEYS = frozenset({"kind", "seat", "trick", "established"})
EXPECTED_REMEDY_KEYS = frozenset({"law", "chooser", "options", "for", "made", "mandatory"})
"""The keys of an entry of `expect.remedies`; `options` lists option kinds (score, deduct, ...)."""
KIND_SYNONYMS = {"renege": "revoke", "renig": "revoke"}
"""Words the table uses for an irregularity kind under another name (a renege is a revoke), for a did-you-mean."""
MAX_HAND_CARDS = 52
"""The most cards a hand may list: the largest pack (a hand of Whist is 13)."""
LAW_ID = re.compile(r"[0-9]+|[A-Z]+[0-9]+")
"""A law's id as `expect` names it: its number ("63"), or a house's added law ("H1")."""
QUESTION_ID = r"[A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+"
"""An open question's id as `expect.unknown` may name it: `E-held-spade-trick-1`, `euchre-22-pack-shuffled-below-table`."""
MAX_LOG_ENTRIES = 2_000
"""A hand of Whist is 52 plays and a few dozen other acts; more is not a hand."""

UNKNOWN_REST = "..."


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


class ExpectedIrregularity(Struct, frozen=True):
    kind: str
    seat: Seat | None
    trick: int | None
    established: bool | None
    pos: Pos


class ExpectedOutcome(Struct, frozen=True):
    """One final score the ruling must give, for the choices named (`63 score`), if named."""

    after: dict[Side, int] | None
    """None (`after: null`): the record lacks what this outcome's score needs (tricks of a hand not played out)."""
    choices: tuple[tuple[str, str], ...] | None
    """(law, option kind) of every choice behind it, when the file says."""
    meaning: str | None
    pos: Pos


class ExpectedScore(Struct, frozen=True):
    """`expect.score`: the hand's own points and the final score (or scores, one for each open choice)."""

    pos: Pos
    hand: dict[Side, int] | None = None
    hand_given: bool = False
    """`hand:` is given (as null when the hand was not played out)."""
    outcomes: tuple[ExpectedOutcome, ...] | None = None
    """Exactly these final scores (`after:` gives the one)."""


class Expect(Struct, frozen=True):
    """What the file says its ruling should be (for `adjudicate check`)."""

    pos: Pos
    laws: tuple[str, ...] | None = None
    """Exactly these laws apply."""
    include: tuple[str, ...] = ()
    """At least these laws apply."""
    exclude: tuple[str, ...] = ()
    """None of these apply (`not:` in the file)."""
    trump: str | None = None
    winners: tuple[Seat, ...] | None = None
    irregularities: tuple[ExpectedIrregularity, ...] | None = None
    remedies: Node | None = None
    """Kept as written, for the matcher to compare."""
    unknown: tuple[str, ...] | None = None
    """Exactly these laws apply only if an open question of fact is so (None: not said, or only questions named)."""
    questions: tuple[str, ...] | None = None
    """Exactly these open questions are asked, by id (`expect.unknown` naming question ids)."""
    positions: dict[str, Pos] = field(default_factory=dict)
    """Where each expectation key stands, for reporting a mismatch on its line."""
    score: ExpectedScore | None = None
    not_applied: tuple[tuple[str, str | None], ...] | None = None
    """Exactly these (law, defeating law) are not applied; the defeating law may be left open (None)."""


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


class _Reader:
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
        problems: list[Problem] = []
        try:
            root.check_keys("the scenario", TOP_KEYS, required=("code", "dealer", "log"))
        except InputError as error:
            problems.extend(error.problems)

        def attempt(read, node: Node | None):
            if node is None:
                return None
            try:
                return read(node)
            except InputError as error:
                problems.extend(error.problems)
                return None

        positions = {key: vnode.pos for key, _, vnode in root.items()}
        code = attempt(lambda n: self.nonempty(n, "`code`"), root.get("code"))
        house = attempt(lambda n: self.nonempty(n, "`house`"), root.get("house"))
        title = attempt(lambda n: n.text("`title`"), root.get("title"))
        notes = attempt(lambda n: n.text("`notes`"), root.get("notes"))
        dealer = attempt(lambda n: self.seat(n, "`dealer`"), root.get("dealer"))
        score = attempt(self.score, root.get("score"))
        hands = attempt(self.hands, root.get("hands")) or {}
        turned_node = root.get("turned")
        turned = attempt(lambda n: self.card(n, "`turned`"), turned_node)
        log = attempt(self.log, root.get("log"))
        expect = attempt(self.expect, root.get("expect"))
        if problems:
            raise ScenarioError(in_file_order(problems))
        assert code is not None and dealer is not None and log is not None
        return Scenario(
            path=self.path, code=code, dealer=dealer, log=log, title=title, house=house, score=score,
            hands=hands, turned=turned, turned_pos=turned_node.pos if turned_node else None,
            expect=expect, positions=positions, notes=notes,
        )

    # --- pieces ---------------------------------------------------------
    @staticmethod
    def nonempty(node: Node, what: str) -> str:
        value = node.text(what).strip()
        if not value:
            raise node.error(f"{what} should not be empty")
        return value

    @staticmethod
    def seat(node: Node, what: str) -> Seat:
        text = node.text(what)
        try:
            return Seat.parse(text)
        except ValueError:
            raise node.error(f"{what}: {quote(text)} is not a seat; expected N, E, S or W"
                             f"{did_you_mean(text.upper(), ['N', 'E', 'S', 'W'])}") from None

    @staticmethod
    def card(node: Node, what: str) -> Card:
        text = node.text(what)
        try:
            return Card.parse(text)
        except ValueError as error:
            raise node.error(f"{what}: {error}") from None

    def score(self, node: Node) -> dict[Side, int]:
        node.expect_map("`score`")
        node.check_keys("`score`", frozenset({"NS", "EW"}))
        score = {Side.NS: 0, Side.EW: 0}
        for key, _, value in node.items():
            points = value.integer(f"the score of {key}")
            if not 0 <= points <= 99:
                raise value.error(f"the score of {key} should be between 0 and 99, not {points}")
            score[Side(key)] = points
        return score

    def hands(self, node: Node) -> dict[Seat, Holding]:
        node.expect_map("`hands`")
        node.check_keys("`hands`", frozenset({"N", "E", "S", "W"}))
        hands: dict[Seat, Holding] = {}
        for key, _, value in node.items():
            hands[Seat.parse(key)] = self.holding(value, key)
        return hands

    def holding(self, node: Node, seat: str) -> Holding:
        if node.kind == "seq":
            # Read straight from the nodes: the checking calls (with their messages) only where a card is not text.
            items: list[tuple[str, Pos]] = [
                (element.value if element.kind == "scalar" and element.tag != NULL_TAG  # type: ignore[misc]
                 else element.text(f"a card in the hand of {seat}"), element.pos) for element in node.elements()]
        elif node.is_scalar() and not node.is_null():
            # `E: QS 9H JD AC 8C` is allowed as well as a list.
            words = node.text(f"the hand of {seat}").replace(",", " ").split()
            items = [(word, node.pos) for word in words]
        else:
            raise node.error(f"the hand of {seat} should be a list of cards, not {node.describe()}")
        if len(items) > MAX_HAND_CARDS + 1:
            raise node.error(f"the hand of {seat} lists {len(items):,} cards; no pack has more than {MAX_HAND_CARDS}")
        complete = True
        if items and items[-1][0].strip() == UNKNOWN_REST:
            complete = False
            items = items[:-1]
        cards: list[Card] = []
        for word, pos in items:
            try:
                cards.append(parse_card(word))
            except ValueError as error:
                if word.strip() == UNKNOWN_REST:
                    raise InputError.at(pos, f"`...` may only end the hand of {seat}, meaning the rest is unknown")
                raise InputError.at(pos, f"in the hand of {seat}: {error}") from None
        return Holding(tuple(cards), complete, tuple(pos for _, pos in items), node.pos)

    def log(self, node: Node) -> tuple[LogEntry, ...]:
        node.expect_seq("`log`")
        elements = node.elements()
        if len(elements) > MAX_LOG_ENTRIES:
            raise elements[MAX_LOG_ENTRIES].error(
                f"the log has {len(elements):,} entries; a hand has far fewer (the most read is {MAX_LOG_ENTRIES:,})")
        entries: list[LogEntry] = []
        problems: list[Problem] = []
        for number, element in enumerate(elements, start=1):
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

    def expect(self, node: Node) -> Expect:
        node.expect_map("`expect`")
        problems: list[Problem] = []
        try:
            node.check_keys("`expect`", EXPECT_KEYS)
        except InputError as error:
            problems.extend(error.problems)
        positions = {key: knode.pos for key, knode, _ in node.items()}

        def attempt(key: str, read):
            value = node.get(key)
            if value is None:
                return None
            try:
                return read(value)
            except InputError as error:
                problems.extend(error.problems)
                return None

        def ids(key: str):
            def read(value: Node) -> tuple[str, ...]:
                value.expect_seq(f"`expect.{key}`")
                return tuple(self.law_id(item, f"`expect.{key}`") for item in value.elements())
            return lambda: attempt(key, read)

        laws = ids("laws")()
        include = ids("include")() or ()
        exclude = ids("not")() or ()
        unknown_given = attempt("unknown", self.expected_unknown)
        unknown, questions = unknown_given if unknown_given is not None else (None, None)
        trump = attempt("trump", self.expected_trump)
        winners = attempt("winners", lambda w: tuple(self.seat(item, "a trick's winner")
                                                      for item in w.expect_seq("`expect.winners`").elements()))
        irregularities = attempt("irregularities", self.expected_irregularities)
        remedies = attempt("remedies", self.expected_remedies)
        score = attempt("score", self.expected_score)
        defeated = attempt("not_applied", self.expected_defeats)
        if problems:
            raise InputError(problems)
        return Expect(node.pos, laws, include, exclude, trump, winners, irregularities, remedies, unknown, questions,
                      positions, score, defeated)

    def expected_unknown(self, value: Node) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
        """`expect.unknown`: law ids (the laws that hang on open questions), question ids (the questions asked), or
        both; each kind given is compared exactly."""
        value.expect_seq("`expect.unknown`")
        laws, questions = [], []
        for item in value.elements():
            text = item.text("a law id or a question id in `expect.unknown`").strip() if item.is_scalar() else ""
            if "-" in text and re.fullmatch(QUESTION_ID, text):  # compiled only for a file that names one
                questions.append(text)
            else:
                laws.append(self.law_id(item, "`expect.unknown` (a law id, or a question id such as "
                                              "E-held-spade-trick-1)"))
        if not laws and not questions:
            return (), None
        return (tuple(laws) if laws else None), (tuple(questions) if questions else None)

    @staticmethod
    def law_id(node: Node, what: str) -> str:
        text = node.text(f"a law id in {what}").strip()
        if not LAW_ID.fullmatch(text):
            raise node.error(f"{quote(text)} in {what} is not a law id: expected a law's number, like \"63\", "
                             "or a house's added law, like \"H1\"")
        return text

    @staticmethod
    def expected_trump(tnode: Node) -> str:
        trump = tnode.text("`expect.trump`").strip()
        if trump.lower() in ("none", "no trump"):
            return trump
        try:
            return Suit.parse(trump).letter
        except ValueError as error:
            raise tnode.error(f"`expect.trump`: {error}") from None

    def expected_irregularities(self, inode: Node) -> tuple[ExpectedIrregularity, ...]:
        inode.expect_seq("`expect.irregularities`")
        return tuple(self.expected_irregularity(item) for item in inode.elements())

    def expected_score(self, node: Node) -> ExpectedScore:
        node.expect_map("`expect.score`")
        node.check_keys("`expect.score`", EXPECTED_SCORE_KEYS)
        hand, given = None, False
        if (hnode := node.get("hand")) is not None:
            given = True
            hand = None if hnode.is_null() else self.score(hnode)
        after, outcomes = node.get("after"), node.get("outcomes")
        if after is not None and outcomes is not None:
            raise outcomes.error("`expect.score` gives `after:` (the one final score) or `outcomes:` "
                                 "(one for each choice), not both")
        found: tuple[ExpectedOutcome, ...] | None = None
        if after is not None:
            found = (ExpectedOutcome(self.score(after), None, self.meaning(node), after.pos),)
        elif node.get("meaning") is not None:
            raise node.get("meaning").error("`meaning:` goes with `after:`")  # type: ignore[union-attr]
        if outcomes is not None:
            outcomes.expect_seq("`expect.score.outcomes`")
            found = tuple(self.expected_outcome(item) for item in outcomes.elements())
        return ExpectedScore(node.pos, hand, given, found)

    def meaning(self, node: Node) -> str | None:
        child = node.get("meaning")
        return " ".join(child.text("`meaning`").split()) if child is not None else None

    def expected_outcome(self, node: Node) -> ExpectedOutcome:
        node.expect_map("an expected outcome")
        node.check_keys("an expected outcome", EXPECTED_OUTCOME_KEYS, required=("after",))
        choices = None
        if (cnode := node.get("choices")) is not None:
            cnode.expect_seq("`choices`")
            parsed = []
            for item in cnode.elements():
                words = item.text("a choice").split()
                if len(words) != 2:
                    raise item.error(f"a choice is a law and an option, like \"63 score\", not {' '.join(words)!r}")
                if words[1] not in OPTIONS:
                    raise item.error(f"unknown option {words[1]!r}{did_you_mean(words[1], OPTIONS)}")
                parsed.append((words[0], words[1]))
            choices = tuple(parsed)
        after = node.get("after")
        assert after is not None
        return ExpectedOutcome(None if after.is_null() else self.score(after), choices, self.meaning(node), node.pos)

    def expected_defeats(self, node: Node) -> tuple[tuple[str, str | None], ...]:
        node.expect_seq("`expect.not_applied`")
        found = []
        for item in node.elements():
            if item.is_map():
                item.check_keys("an expected law not applied", EXPECTED_DEFEAT_KEYS, required=("law",))
                law = self.law_id(item.get("law"), "`expect.not_applied`")  # type: ignore[arg-type]
                by = self.law_id(b, "`expect.not_applied`") if (b := item.get("by")) is not None else None
                found.append((law, by))
            else:
                found.append((self.law_id(item, "`expect.not_applied`"), None))
        return tuple(found)

    def expected_irregularity(self, node: Node) -> ExpectedIrregularity:
        node.expect_map("an expected irregularity")
        node.check_keys("an expected irregularity", EXPECTED_IRREGULARITY_KEYS, required=("kind",))
        knode = node.get("kind")
        assert knode is not None
        kind = knode.text("`kind`").strip()
        if kind not in KINDS:
            hint = f' (did you mean "{KIND_SYNONYMS[kind]}"?)' if kind in KIND_SYNONYMS else did_you_mean(kind, KINDS)
            raise knode.error(f"unknown irregularity kind {quote(kind)}{hint}; expected one of: "
                              f"{', '.join(sorted(KINDS))}")
        seat = self.seat(s, "`seat`") if (s := node.get("seat")) is not None else None
        trick = None
        if (t := node.get("trick")) is not None:
            trick = t.integer("`trick`")
            if trick < 1:
                raise t.error(f"`trick` counts the tricks from 1, so it cannot be {trick}")
        established = e.boolean("`established`") if (e := node.get("established")) is not None else None
        return ExpectedIrregularity(kind, seat, trick, established, node.pos)

    def expected_remedies(self, node: Node) -> Node:
        """Check `expect.remedies` (a list of {law, chooser, options, ...}); kept as the node, for comparing."""
        node.expect_seq("`expect.remedies`")
        problems: list[Problem] = []
        for item in node.elements():
            try:
                item.expect_map("an expected remedy")
                item.check_keys("an expected remedy", EXPECTED_REMEDY_KEYS)
                if not item.value:
                    raise item.error("an expected remedy checks nothing: give at least one of "
                                     f"{', '.join(sorted(EXPECTED_REMEDY_KEYS))}")
                if (law := item.get("law")) is not None:
                    self.law_id(law, "an expected remedy")
                if (chooser := item.get("chooser")) is not None:
                    self.nonempty(chooser, "the chooser of an expected remedy")
                if (options := item.get("options")) is not None:
                    options.expect_seq("the options of an expected remedy")
                    for option in options.elements():
                        kind = option.text("an option of an expected remedy (a kind, like score)").strip()
                        if kind not in OPTIONS:
                            problems.append(Problem(option.pos, f"unknown option {quote(kind)}"
                                                                f"{did_you_mean(kind, OPTIONS)}; expected one of: "
                                                                f"{', '.join(OPTIONS)}"))
            except InputError as error:
                problems.extend(error.problems)
        if problems:
            raise InputError(problems)
        return node
