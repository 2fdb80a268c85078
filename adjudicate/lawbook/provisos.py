"""Provisos: each clause of a law's text that limits it, quoted, with what in the law's record encodes it.

    provisos:
      - phrase: "unless he has had no reasonable time to decide"   # verbatim from the law's text
        encoded_by: [question]
      - phrase: "cannot be claimed after the cards are cut"
        encoded_by: [claim.after_cut, "defeats:63"]
      - phrase: "for once"
        not_encoded: the record cannot show how often a player has been warned

A reference in `encoded_by` names something on the law's record (docs/rulebook-format.md, provisos):

- `SUBJECT.FACT`: a test of that fact in an atom of that subject, in the condition or in the `when` of a
  remedy, an option, a ruling or a defeat (`claim.after_cut`);
- `SUBJECT`: an atom of that subject there (`hand`, `revoke`);
- `question`: a question of fact in the condition;
- `option:KIND`, `ruling:KIND`: a remedy option, a ruling, of that kind;
- `consult`: a remedy that says whether partners may consult;
- `score`: the score section's count of the hand (a scoring law's tricks and points: ruling/scoring.py);
- `defeats:ID`: a defeat on this law's record naming law ID;
- `defeated_by:ID`: a defeat on law ID's record naming this law (checked once every law is read).

Each is checked when the rulebook loads: a reference to nothing on the record is an error at its file:line.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, Protocol

from msgspec import Struct

from adjudicate.errors import InputError, Pos, Problem, did_you_mean
from adjudicate.lawbook.conditions import Atom, Condition, Question, atoms
from adjudicate.lawbook.defeats import Defeat
from adjudicate.lawbook.remedies import Declaration, Remedy
from adjudicate.record.yamlsource import Node

KEYS = frozenset({"phrase", "encoded_by", "not_encoded"})
_REFERENCE = re.compile(r"(?:(defeats|defeated_by):([0-9]+|[A-Z][0-9]+)|(option|ruling):([a-z][a-z0-9_]*)"
                        r"|question|consult|score|([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?)")


class Proviso(Struct, frozen=True):
    """A quoted clause of a law's text that limits it, and what encodes it (or why nothing does)."""

    phrase: str
    """Verbatim from the law's text (line breaks aside)."""
    encoded_by: tuple[str, ...]
    """References to what on the record encodes it (the module's docstring); empty when not encoded."""
    not_encoded: str | None
    """Why nothing encodes it, when nothing does."""
    pos: Pos
    refs_pos: tuple[Pos, ...] = ()
    """Where each reference of `encoded_by` stands."""


class Law(Protocol):
    """What these checks read of a law's record (`adjudicate.lawbook.rulebook.Law`, which holds the provisos)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def pos(self) -> Pos: ...
    @property
    def condition(self) -> Condition | None: ...
    @property
    def remedies(self) -> tuple[Remedy, ...]: ...
    @property
    def rulings(self) -> tuple[Declaration, ...]: ...
    @property
    def defeats(self) -> tuple[Defeat, ...]: ...
    @property
    def provisos(self) -> tuple[Proviso, ...]: ...
    @property
    def no_condition(self) -> str | None: ...


def parse_provisos(node: Node, law: str) -> tuple[Proviso, ...]:
    """Read a law's `provisos:` list: each a phrase with `encoded_by` references or a `not_encoded` reason."""
    if not node.is_seq():
        raise node.error(f"the provisos of law {law} should be a list, not {node.describe()}")
    problems: list[Problem] = []
    found: list[Proviso] = []
    for item in node.elements():
        what = f"a proviso of law {law}"
        try:
            if not item.is_map():
                raise item.error(f"{what} should be a mapping with `phrase` and `encoded_by` or `not_encoded`")
            item.check_keys(what, KEYS, required=("phrase",))
            found.append(_proviso(item, what))
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    return tuple(found)


def _proviso(item: Node, what: str) -> Proviso:
    phrase_node = item.get("phrase")
    assert phrase_node is not None
    phrase = " ".join(phrase_node.text(f"the phrase of {what}").split())
    if not phrase:
        raise phrase_node.error(f"the phrase of {what} is empty: quote the law's words")
    encoded, reason = item.get("encoded_by"), item.get("not_encoded")
    if (encoded is None) == (reason is None):
        raise item.error(f"{what} ({phrase!r}) needs exactly one of `encoded_by` (what encodes it) and "
                         "`not_encoded` (why nothing does)")
    if reason is not None:
        text = " ".join(reason.text(f"the not_encoded of {what}").split())
        if not text:
            raise reason.error(f"the not_encoded of {what} is empty: say why nothing encodes it")
        return Proviso(phrase, (), text, item.pos)
    assert encoded is not None
    elements = encoded.elements() if encoded.is_seq() else [encoded]
    if not elements:
        raise encoded.error(f"the encoded_by of {what} ({phrase!r}) is empty: name what encodes it, or say why "
                            "nothing does with `not_encoded`")
    refs: list[str] = []
    positions: list[Pos] = []
    problems: list[Problem] = []
    for element in elements:
        value = element.text(f"a reference in the encoded_by of {what}").strip()
        if not _REFERENCE.fullmatch(value):
            problems.append(Problem(element.pos, f"{value!r} is not a reference: expected SUBJECT.FACT "
                                                 "(claim.after_cut), SUBJECT, question, option:KIND, ruling:KIND, "
                                                 "consult, score, defeats:ID or defeated_by:ID"))
            continue
        refs.append(value)
        positions.append(element.pos)
    if problems:
        raise InputError(problems)
    return Proviso(phrase, tuple(refs), None, item.pos, tuple(positions))


def phrase_in(phrase: str, text: str) -> bool:
    """Whether the phrase stands in the text, line breaks and runs of spaces aside."""
    return phrase in " ".join(text.split())


def whens(law: "Law") -> Iterator[Condition]:
    """The law's condition and every `when` on its record: remedies, options, rulings, defeats."""
    if law.condition is not None:
        yield law.condition
    for remedy in law.remedies:
        if remedy.when is not None:
            yield remedy.when
        for option in remedy.options:
            if option.when is not None:
                yield option.when
    for ruling in law.rulings:
        if ruling.when is not None:
            yield ruling.when
    for defeat in law.defeats:
        if defeat.when is not None:
            yield defeat.when


def questions(condition: Condition) -> Iterator[Question]:
    """Every question of fact in a condition, however deep."""
    if isinstance(condition, Question):
        yield condition
    for part in getattr(condition, "parts", ()):
        yield from questions(part)
    part = getattr(condition, "part", None)
    if part is not None:
        yield from questions(part)


def referenced_atoms(law: "Law", reference: str) -> list[Atom]:
    """The atoms of the law's condition and `when`s that a `SUBJECT` or `SUBJECT.FACT` reference names."""
    subject, _, fact = reference.partition(".")
    return [atom for condition in whens(law) for atom in atoms(condition)
            if atom.subject == subject and (not fact or any(test.fact == fact for test in atom.tests))]


def _known(law: "Law") -> list[str]:
    """What the law's record offers to be referred to, for the error's hint."""
    names: list[str] = []
    for condition in whens(law):
        for atom in atoms(condition):
            names.append(atom.subject)
            names.extend(f"{atom.subject}.{test.fact}" for test in atom.tests)
    if law.condition is not None and any(True for _ in questions(law.condition)):
        names.append("question")
    names += [f"option:{o.kind}" for r in law.remedies for o in r.options]
    names += [f"ruling:{r.kind}" for r in law.rulings]
    names += [f"defeats:{d.law}" for d in law.defeats]
    return list(dict.fromkeys(names))


def proviso_problems(laws: Iterable["Law"]) -> list[Problem]:
    """Every proviso whose phrase is not in its law's text, or whose reference names nothing on the record."""
    every = list(laws)
    defeated_by: dict[str, set[str]] = {}
    for law in every:
        for defeat in law.defeats:
            defeated_by.setdefault(defeat.law, set()).add(law.id)
    problems: list[Problem] = []
    for law in every:
        if law.no_condition is not None and law.condition is not None:
            problems.append(Problem(law.pos, f"law {law.id} has a condition and a `no_condition` reason: "
                                             "drop the reason"))
        for proviso in law.provisos:
            if not phrase_in(proviso.phrase, law.text):
                problems.append(Problem(proviso.pos, f"the proviso {proviso.phrase!r} is not in the text of law "
                                                     f"{law.id}: quote the law's own words"))
            for reference, pos in zip(proviso.encoded_by, proviso.refs_pos):
                if not _names_something(law, reference, defeated_by.get(law.id, set())):
                    known = _known(law)
                    hint = did_you_mean(reference, known) or (
                        f" (its record has: {', '.join(known)})" if known else " (its record has no condition, "
                                                                                "remedy, ruling or defeat)")
                    problems.append(Problem(pos, f"law {law.id}'s proviso {proviso.phrase!r} names {reference!r}, "
                                                 f"which is not on the law's record{hint}"))
    return problems


def _names_something(law: "Law", reference: str, attackers: set[str]) -> bool:
    kind, _, value = reference.partition(":")
    if kind == "defeats":
        return any(defeat.law == value for defeat in law.defeats)
    if kind == "defeated_by":
        return value in attackers
    if kind == "option":
        return any(option.kind == value for remedy in law.remedies for option in remedy.options)
    if kind == "ruling":
        return any(ruling.kind == value for ruling in law.rulings)
    if reference == "consult":
        return any(remedy.consult is not None for remedy in law.remedies)
    if reference == "at_end":
        return any(remedy.at_end for remedy in law.remedies)
    if reference == "score":
        # A scoring law with no condition, applied by the score itself (Euchre 7, Short Whist 8-10), is said so.
        return law.kind == "scoring" and (law.condition is not None or law.no_condition is not None)
    if reference == "question":
        return law.condition is not None and any(True for _ in questions(law.condition))
    return bool(referenced_atoms(law, reference))
