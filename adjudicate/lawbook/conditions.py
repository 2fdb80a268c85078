"""Conditions: when a law applies, written in YAML a card player can read.

A condition names facts of the hand, from the vocabulary (`vocabulary.py`):

    condition:
      revoke: {established: true}          # there is an established revoke

    condition:
      all:
        - lead_out_of_turn: {all_followed: false}
        - not: {hand: {lone: true}}

    condition:
      any:
        - exposed_card: {}                 # any exposed card
        - detached_card: {}

An atom is `SUBJECT: {FACT: VALUE, ...}`: SUBJECT is an irregularity kind,
`claim`, `election` or `hand`; each FACT must hold. A VALUE is a plain value
(true, 3, E, spades) or a comparison: `{at_least: 2}`, `{at_most: 1}`,
`{one_of: [N, S]}`. `all:`, `any:` and `not:` combine conditions, and
`question: "..."` names a fact the record cannot show (a question of fact for
the players or a bystander): a law that needs one applies only "if" it is so.

Nothing here is code: a condition is data, checked against the vocabulary when
its rulebook loads, and evaluated by nested functions built from that data the
first time it is evaluated.
"""

from __future__ import annotations

from itertools import filterfalse
from operator import attrgetter
from typing import Callable, Iterable, Union

from msgspec import Struct

from adjudicate.record import vocabulary
from adjudicate.errors import InputError, Pos, Problem, did_you_mean
from adjudicate.record.yamlsource import Node

COMPARISONS = ("at_least", "at_most", "one_of")
COMBINERS = ("all", "any", "not", "question")


Scalar = Union[str, int, bool, None]
Value = Union[Scalar, tuple[Scalar, ...]]
"""What a test compares a fact with: text, a number, true or false, null, or (for `one_of`) a tuple of them.
Named exactly, not `object`, so a cached rulebook decodes to the same values (a tuple stays a tuple)."""


class Test(Struct, frozen=True):
    """One fact and what it must be."""

    fact: str
    op: str
    """"is", "at_least", "at_most" or "one_of"."""
    value: Value
    pos: Pos

    def holds(self, actual: object) -> bool:
        if self.op == "is":
            return actual == self.value
        if actual is None:
            return False
        if self.op == "at_least":
            return isinstance(actual, int) and actual >= self.value  # type: ignore[operator]
        if self.op == "at_most":
            return isinstance(actual, int) and actual <= self.value  # type: ignore[operator]
        return actual in self.value  # type: ignore[operator]

    def describe(self) -> str:
        if self.op == "is":
            return f"{self.fact}: {_show(self.value)}"
        if self.op == "one_of":
            return f"{self.fact} one of {', '.join(_show(v) for v in self.value)}"  # type: ignore[union-attr]
        return f"{self.fact} {self.op.replace('_', ' ')} {self.value}"


class Atom(Struct, frozen=True, dict=True, tag=True):
    """`SUBJECT: {FACT: VALUE}`: some irregularity, claim or election of that subject with those facts."""

    subject: str
    tests: tuple[Test, ...]
    pos: Pos

    @property
    def key(self) -> str:
        """The index key its facts are found under (`act:shuffle`; see `_narrowed`)."""
        return _narrowed(self)


class All(Struct, frozen=True, tag=True):
    parts: tuple[Condition, ...]
    pos: Pos


class AnyOf(Struct, frozen=True, tag=True):
    parts: tuple[Condition, ...]
    pos: Pos


class Not(Struct, frozen=True, tag=True):
    part: Condition
    pos: Pos


class Question(Struct, frozen=True, tag=True):
    """A fact the record cannot show: the law applies only if it is so."""

    text: str
    pos: Pos


Condition = Union[Atom, All, AnyOf, Not, Question]


def _show(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


# --- reading -------------------------------------------------------------------

def parse_condition(node: Node, what: str = "the condition") -> Condition:
    """Read a condition, checking every subject and fact against the vocabulary."""
    problems: list[Problem] = []
    condition = _Reader(problems).condition(node, what)
    if problems:
        raise InputError(problems)
    assert condition is not None
    return condition


class _Reader:
    def __init__(self, problems: list[Problem]):
        self.problems = problems

    def fail(self, node: Node, message: str) -> None:
        self.problems.append(Problem(node.pos, message))

    def condition(self, node: Node, what: str) -> Condition | None:
        if not node.is_map():
            self.fail(node, f"{what} should be a mapping such as `revoke: {{established: true}}`, "
                            f"not {node.describe()}")
            return None
        items = list(node.items())
        if len(items) != 1:
            keys = ", ".join(key for key, _, _ in items)
            self.fail(node, f"{what} should have one key (a fact's subject, or all/any/not/question); "
                            f"found {len(items)}: {keys}. Use `all:` to require several")
            return None
        key, knode, value = items[0]
        if key in ("all", "any"):
            if not value.is_seq() or not value.elements():
                self.fail(value, f"`{key}:` takes a list of conditions")
                return None
            parts = [self.condition(child, f"a condition under `{key}`") for child in value.elements()]
            if any(part is None for part in parts):
                return None
            return (All if key == "all" else AnyOf)(tuple(parts), knode.pos)  # type: ignore[arg-type]
        if key == "not":
            part = self.condition(value, "a condition under `not`")
            return Not(part, knode.pos) if part is not None else None
        if key == "question":
            if not value.is_scalar() or value.is_null() or not str(value.value).strip():
                self.fail(value, "`question:` takes the question of fact, as text")
                return None
            return Question(str(value.value).strip(), knode.pos)
        if key not in vocabulary.SUBJECTS:
            choices = [*vocabulary.SUBJECTS, *COMBINERS]
            self.fail(knode, f"unknown fact subject {key!r}{did_you_mean(key, choices)}; expected an irregularity "
                             f"kind (revoke, lead_out_of_turn, ...), claim, election, act, hand, or all/any/not/question")
            return None
        return self.atom(key, knode, value)

    def atom(self, subject: str, knode: Node, value: Node) -> Atom | None:
        fields = vocabulary.SUBJECTS[subject]
        if value.is_null() or (value.is_scalar() and str(value.value).lower() in ("true", "yes", "any")):
            return Atom(subject, (), knode.pos)
        if not value.is_map():
            self.fail(value, f"the facts of `{subject}` should be a mapping such as "
                             f"`{{{next(iter(fields), 'fact')}: ...}}` (or `{{}}` for any), not {value.describe()}")
            return None
        tests: list[Test] = []
        for fact, fnode, fvalue in value.items():
            if fact not in fields:
                self.fail(fnode, f"`{subject}` has no fact {fact!r}{did_you_mean(fact, fields)}; its facts are: "
                                 f"{', '.join(sorted(fields))}")
                continue
            test = self.test(fact, fields[fact], fvalue)
            if test is not None:
                tests.append(test)
        return Atom(subject, tuple(tests), knode.pos)

    def test(self, fact: str, kind: str, node: Node) -> Test | None:
        if node.is_map():
            items = list(node.items())
            if len(items) != 1 or items[0][0] not in COMPARISONS:
                self.fail(node, f"a comparison is one of {', '.join(COMPARISONS)}, as `{{at_least: 2}}`")
                return None
            op, _, operand = items[0]
            if op in ("at_least", "at_most"):
                if kind != vocabulary.INT:
                    self.fail(node, f"`{op}` compares numbers, and {fact} is not a number")
                    return None
                number = self.value(fact, kind, operand)
                return Test(fact, op, number, node.pos) if number is not None else None
            if not operand.is_seq():
                self.fail(operand, "`one_of` takes a list of values")
                return None
            values = [self.value(fact, kind, element) for element in operand.elements()]
            if any(v is None for v in values):
                return None
            return Test(fact, "one_of", tuple(values), node.pos)
        value = self.value(fact, kind, node)
        if value is None and not node.is_null():
            return None
        return Test(fact, "is", value, node.pos)

    def value(self, fact: str, kind: str, node: Node) -> Scalar:
        from adjudicate.record.cards import Card, Suit
        from adjudicate.record.seats import Seat, Side

        try:
            if node.is_null():
                return None
            if kind == vocabulary.BOOL:
                return node.boolean(fact)
            if kind == vocabulary.INT:
                return node.integer(fact)
            text = node.text(fact).strip()
            if kind == vocabulary.SEAT:
                return str(Seat.parse(text))
            if kind == vocabulary.SIDE:
                return str(Side.parse(text))
            if kind == vocabulary.SUIT:
                return str(Suit.parse(text))
            if kind == vocabulary.CARD:
                return str(Card.parse(text))
            return text
        except InputError as error:
            self.problems.extend(error.problems)
        except ValueError as error:
            self.fail(node, f"{fact}: {error}")
        return None


# --- evaluating -----------------------------------------------------------------

class Fact(Struct, frozen=True):
    """One thing a condition can be about: an irregularity, a claim, an election, or the hand."""

    subject: str
    values: dict[str, object]
    source: object
    """The Irregularity or Claim it comes from (None for the hand)."""
    unknown: str | None = None
    """The open question it depends on, if any."""


class Match(Struct, frozen=True):
    """One way a condition holds: what it is bound to, and what must be so for it to hold."""

    binding: object | None
    """The irregularity or claim the condition is about (the first one it names)."""
    questions: tuple[str, ...] = ()
    """Open facts it depends on; none when it certainly holds."""

    @property
    def certain(self) -> bool:
        return not self.questions


class FactIndex:
    """A hand's facts grouped by subject, built once and evaluated against every law."""

    def __init__(self, facts: Iterable[Fact]):
        self.by_subject: dict[str, list[Fact]] = {}
        for fact in facts:
            self.by_subject.setdefault(fact.subject, []).append(fact)
            # Acts by verb, claims and elections by kind: most conditions name one.
            key = _NARROWING.get(fact.subject)
            if key is not None:
                self.by_subject.setdefault(f"{fact.subject}:{fact.values.get(key)}", []).append(fact)

    def __iter__(self):
        for subject, facts in self.by_subject.items():
            if subject != ANSWERS:
                yield from facts

    def answered(self, answers: dict[str, bool]) -> None:
        """Settle the `question:`s of the conditions: each question's text, and whether it is so."""
        if answers:
            self.by_subject[ANSWERS] = [Fact(ANSWERS, dict(answers), None)]


_Evaluator = Callable[[dict[str, list[Fact]]], list[Match]]
_COMPILED: dict[int, tuple[Condition, frozenset[str], _Evaluator]] = {}
"""Each condition evaluated so far, by identity (hashing one walks it), with its required subjects and
the functions that evaluate it: `check` evaluates the same few hundred conditions for every hand."""


def evaluate(condition: Condition, facts: "Iterable[Fact] | FactIndex",
             required: frozenset[str] | None = None) -> list[Match]:
    """Every way the condition holds over these facts (empty when it does not).

    `required` (the condition's `required_subjects`, worked out once by the caller) lets a
    condition whose subjects are not in the hand at all be passed over without walking it.
    """
    by_subject = (facts if isinstance(facts, FactIndex) else FactIndex(facts)).by_subject
    entry = _COMPILED.get(id(condition))
    if entry is None or entry[0] is not condition:
        entry = _compiled(condition, required)
    if by_subject.keys() >= (entry[1] if required is None else required):
        return entry[2](by_subject)
    return []


def _compiled(condition: Condition, required: frozenset[str] | None) -> tuple[Condition, frozenset[str], _Evaluator]:
    required = required_subjects(condition) if required is None else required
    entry = _COMPILED[id(condition)] = (condition, required, _compile(condition))
    return entry


_NARROWING = {"act": "verb", "claim": "kind", "election": "kind"}
"""Facts indexed a second time by one of their values, as `act:shuffle`, `claim:revoke`."""


def _narrowed(atom: Atom) -> str:
    """The most specific index key an atom can use: `act:shuffle` for `act: {verb: shuffle}`."""
    key = _NARROWING.get(atom.subject)
    if key is not None:
        for test in atom.tests:
            if test.fact == key and test.op == "is":
                return f"{atom.subject}:{test.value}"
    return atom.subject


def atoms(condition: Condition, *, denied: bool = True) -> Iterable[Atom]:
    """Every atom of a condition, however deep; with `denied=False`, only those it asks to be so (not those under
    a `not`)."""
    if isinstance(condition, Atom):
        yield condition
    elif isinstance(condition, (All, AnyOf)):
        for part in condition.parts:
            yield from atoms(part, denied=denied)
    elif isinstance(condition, Not) and denied:
        yield from atoms(condition.part)


def affirmed_atoms(condition: Condition) -> Iterable[Atom]:
    """The atoms a condition asks to be so: every atom but those under a `not` (what it denies)."""
    return atoms(condition, denied=False)


def required_subjects(condition: Condition) -> frozenset[str]:
    """Subjects (index keys) that must be present for the condition to hold."""
    if isinstance(condition, Atom):
        return frozenset({_narrowed(condition)})
    if isinstance(condition, All):
        return frozenset().union(*map(required_subjects, condition.parts))
    if isinstance(condition, AnyOf):
        parts = list(map(required_subjects, condition.parts))
        return frozenset.intersection(*parts) if parts else frozenset()
    return frozenset()


def alternative_subjects(condition: Condition) -> tuple[frozenset[str], ...]:
    """Sets of subjects (index keys) one of which must be wholly present for the condition to hold: each part of an
    `any:` brings its own; an empty set among them means it can hold in any hand (a `not:`, a `question:`)."""
    if isinstance(condition, AnyOf) and condition.parts:
        return tuple(needed for part in condition.parts for needed in alternative_subjects(part))
    return (required_subjects(condition),)


def _compile(condition: Condition) -> _Evaluator:
    if isinstance(condition, Atom):
        return _compile_atom(condition)
    if isinstance(condition, Question):
        return _compile_question(condition.text)
    if isinstance(condition, AnyOf):
        return _compile_any(tuple(map(_compile, condition.parts)))
    if isinstance(condition, All):
        return _compile_all(tuple(map(_compile, condition.parts)))
    assert isinstance(condition, Not)
    return _compile_not(_compile(condition.part))


ANSWERS = "?answers"
"""The index key under which a hand's answered questions sit (`FactIndex.answered`): one fact whose values
map each question's text to the answer given. No subject is spelt so."""


def _compile_question(text: str) -> _Evaluator:
    open_question = [Match(None, (text,))]

    def question_holds(facts: dict[str, list[Fact]]) -> list[Match]:
        answered = facts.get(ANSWERS)
        if answered:
            answer = answered[0].values.get(text)
            if answer is not None:
                return [Match(None)] if answer else []
        return list(open_question)

    return question_holds


def _compile_atom(atom: Atom) -> _Evaluator:
    key = _narrowed(atom)
    names: list[str] = []
    wanted: list[Value] = []
    compared: list[Test] = []
    for test in atom.tests:
        if test.op == "is":
            names.append(test.fact)
            wanted.append(test.value)
        else:
            compared.append(test)
    of_hand = atom.subject == "hand"
    if not compared and len(names) == 1:
        # Most atoms test one plain `FACT: VALUE` (or a narrowed one and one more): looked up directly, without the
        # tuple below (with the function chosen for each shape here, 5 M instructions less on 201 benchmark files).
        name, value = names[0], wanted[0]

        def atom_holds(facts: dict[str, list[Fact]]) -> list[Match]:
            found = []
            for fact in facts.get(key, ()):
                if fact.values.get(name) == value:
                    found.append(Match(None if of_hand else fact.source, (fact.unknown,) if fact.unknown else ()))
            return found

        return atom_holds
    # Plain `FACT: VALUE` tests compare all at once, as a tuple of the fact's values.
    plain, values_wanted = tuple(names), tuple(wanted)
    if not compared:

        def plain_atom_holds(facts: dict[str, list[Fact]]) -> list[Match]:
            found = []
            for fact in facts.get(key, ()):
                if not plain or tuple(map(fact.values.get, plain)) == values_wanted:
                    found.append(Match(None if of_hand else fact.source, (fact.unknown,) if fact.unknown else ()))
            return found

        return plain_atom_holds
    tests = tuple(compared)

    def compared_atom_holds(facts: dict[str, list[Fact]]) -> list[Match]:
        found = []
        for fact in facts.get(key, ()):
            values = fact.values
            if plain and tuple(map(values.get, plain)) != values_wanted:
                continue
            if not all(test.holds(values.get(test.fact)) for test in tests):
                continue
            found.append(Match(None if of_hand else fact.source, (fact.unknown,) if fact.unknown else ()))
        return found

    return compared_atom_holds


def _compile_any(parts: tuple[_Evaluator, ...]) -> _Evaluator:
    def any_holds(facts: dict[str, list[Fact]]) -> list[Match]:
        matches: list[Match] = []
        for part in parts:
            matches += part(facts)
        if len(matches) <= 1:
            return matches
        seen: dict[tuple[int, tuple[str, ...]], Match] = {}
        for match in matches:
            seen.setdefault((id(match.binding), match.questions), match)
        return _prefer_certain(list(seen.values()))

    return any_holds


def _compile_all(parts: tuple[_Evaluator, ...]) -> _Evaluator:
    def all_hold(facts: dict[str, list[Fact]]) -> list[Match]:
        results = []
        for part in parts:
            result = part(facts)
            if not result:
                return []
            results.append(result)
        # Bound to the first part that names an irregularity, claim or act; the other parts'
        # open questions (if none of their matches is certain) are added to each of its matches.
        lead = results[0]
        for result in results:
            if any(map(_BINDING, result)):  # what a match is bound to is a thing of the record: never false
                lead = result
                break
        extra: list[str] = []
        for result in results:
            if result is not lead and all(map(_QUESTIONS, result)):
                extra.extend(result[0].questions)
        if not extra and not any(map(_QUESTIONS, lead)):
            return lead
        return [Match(match.binding, tuple(dict.fromkeys(match.questions + tuple(extra)))) for match in lead]

    return all_hold


def _compile_not(part: _Evaluator) -> _Evaluator:
    def not_holds(facts: dict[str, list[Fact]]) -> list[Match]:
        result = part(facts)
        if not result:
            return [Match(None)]
        if any_certain(result):
            return []
        return [Match(None, tuple(f"not ({q})" for match in result for q in match.questions))]

    return not_holds


_BINDING = attrgetter("binding")
_QUESTIONS = attrgetter("questions")
# The combinators above and `any_certain` test matches through these rather than generators: a generator is made
# and run for each test, and the combinators run for every law of every hand (4 M instructions less on 201
# benchmark files).


def any_certain(matches: Iterable[Match]) -> bool:
    """Some match holds for certain (it hangs on no open question)."""
    return not all(map(_QUESTIONS, matches))


def certain(matches: Iterable[Match]) -> tuple[Match, ...]:
    """The matches that hold for certain."""
    return tuple(filterfalse(_QUESTIONS, matches))


def _prefer_certain(matches: list[Match]) -> list[Match]:
    certain_bindings = {id(m.binding) for m in matches if m.certain}
    if not certain_bindings:
        return matches
    return [m for m in matches if m.certain or id(m.binding) not in certain_bindings]


def describe(condition: Condition, indent: str = "") -> str:
    """The condition as a player reads it, one atom a line."""
    if isinstance(condition, Atom):
        facts = ", ".join(test.describe() for test in condition.tests)
        return f"{indent}{condition.subject}" + (f" ({facts})" if facts else "")
    if isinstance(condition, Question):
        return f"{indent}if so: {condition.text}"
    if isinstance(condition, Not):
        return f"{indent}not:\n{describe(condition.part, indent + '  ')}"
    word = "all of" if isinstance(condition, All) else "any of"
    return f"{indent}{word}:\n" + "\n".join(describe(part, indent + "  ") for part in condition.parts)
