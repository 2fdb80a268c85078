"""A scenario's `expect` block: the ruling its author expects, read and checked at load (docs/scenario-format.md);
`check` holds the ruling to it (`checking.expectations`)."""

from __future__ import annotations

import re
from typing import Any, Callable

from msgspec import Struct, field

from adjudicate.errors import InputError, Pos, Problem, did_you_mean, quote
from adjudicate.record.cards import Suit
from adjudicate.record.seats import Seat, Side
from adjudicate.record.values import _Values
from adjudicate.record.vocabulary import KINDS, OPTIONS
from adjudicate.record.yamlsource import Node


EXPECT_KEYS = frozenset({"laws", "include", "not", "unknown", "trump", "winners", "irregularities", "remedies",
                         "score", "not_applied"})
EXPECTED_SCORE_KEYS = frozenset({"hand", "after", "meaning", "outcomes"})
EXPECTED_OUTCOME_KEYS = frozenset({"after", "meaning", "choices"})
EXPECTED_DEFEAT_KEYS = frozenset({"law", "by"})
EXPECTED_IRREGULARITY_KEYS = frozenset({"kind", "seat", "trick", "established"})
EXPECTED_REMEDY_KEYS = frozenset({"law", "chooser", "options", "for", "made", "mandatory"})
"""The keys of an entry of `expect.remedies`; `options` lists option kinds (score, deduct, ...)."""
EXPECTED_TARGET_KEYS = frozenset({"kind", "seat", "trick", "entry", "claim", "against", "act"})
"""The keys of an expected remedy's `for`: those of the ruling's `for` (docs/ruling-record.md)."""
KIND_SYNONYMS = {"renege": "revoke", "renig": "revoke"}
"""Words the table uses for an irregularity kind under another name (a renege is a revoke), for a did-you-mean."""
QUESTION_ID = r"[A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+"
"""An open question's id as `expect.unknown` may name it: `E-held-spade-trick-1`, `euchre-22-pack-shuffled-below-table`."""


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


class _ExpectReader(_Values):
    def expect(self, node: Node) -> Expect:
        node.expect_map("`expect`")
        read, problems = self.read_keys(node, "`expect`", EXPECT_KEYS, _EXPECT_READERS)
        pairs: dict[str, tuple[Node, Node]] = node.value  # type: ignore[assignment]
        if problems:
            raise InputError(problems)
        unknown, questions = read.get("unknown", (None, None))
        return Expect(node.pos, read.get("laws"), read.get("include", ()), read.get("not", ()), read.get("trump"),
                      read.get("winners"), read.get("irregularities"), read.get("remedies"), unknown, questions,
                      {key: knode.pos for key, (knode, _) in pairs.items()}, read.get("score"),
                      read.get("not_applied"))

    def law_ids(self, node: Node, what: str) -> tuple[str, ...]:
        node.expect_seq(what)
        return tuple([self.law_id(item, what) for item in node.value])  # type: ignore[attr-defined]

    def winners(self, node: Node) -> tuple[Seat, ...]:
        node.expect_seq("`expect.winners`")
        return tuple([self.seat(item, "a trick's winner") for item in node.value])  # type: ignore[attr-defined]

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
                if (target := item.get("for")) is not None:
                    target.expect_map("what an expected remedy is for ({kind, seat, trick}, like "
                                      "{kind: revoke, seat: E, trick: 1})")
                    target.check_keys("what an expected remedy is for", EXPECTED_TARGET_KEYS)
                    for _, _, value in target.items():
                        value.text("a value of what an expected remedy is for")
                if (made := item.get("made")) is not None:
                    made.text("the option an expected remedy made (a kind, like score)")
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


_EXPECT_READERS: tuple[tuple[str, Callable[[_ExpectReader, Node], Any]], ...] = (
    ("laws", lambda reader, node: reader.law_ids(node, "`expect.laws`")),
    ("include", lambda reader, node: reader.law_ids(node, "`expect.include`")),
    ("not", lambda reader, node: reader.law_ids(node, "`expect.not`")),
    ("unknown", _ExpectReader.expected_unknown),
    ("trump", lambda reader, node: _ExpectReader.expected_trump(node)),
    ("winners", _ExpectReader.winners),
    ("irregularities", _ExpectReader.expected_irregularities),
    ("remedies", _ExpectReader.expected_remedies),
    ("score", _ExpectReader.expected_score),
    ("not_applied", _ExpectReader.expected_defeats),
)
"""How the value of each `expect` key is read, in the order they are read."""
