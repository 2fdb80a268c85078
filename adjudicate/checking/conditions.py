"""Condition coverage: each law's condition atom by atom, over the scenarios checked (`check --coverage`).

A law's *atoms* are the atoms (`SUBJECT: {FACT: VALUE}`) and questions of fact of its condition, in the
order written. Over one ruled hand each has a value: `1` (it certainly holds), `0` (it does not) or `?`
(it hangs on a fact the record leaves open); so has the condition as a whole. An atom is *shown deciding*
when two scenarios of the code differ in its value (`1` against `0`) and the condition holds in one and
not in the other: in the spirit of MC/DC, the weaker form (the two scenarios may differ in other atoms
too). Only `check --coverage` works this out; a plain `check` evaluates nothing more than the ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence, Union

from adjudicate.lawbook.conditions import (All, Atom, AnyOf, Condition, FactIndex, Not, Question, describe,
                                           evaluate)

if TYPE_CHECKING:
    from adjudicate.lawbook.rulebook import Law
    from adjudicate.ruling.decision import Decision

Part = Union[Atom, Question]

HOLDS, FAILS, OPEN = "1", "0", "?"


def parts(condition: Condition) -> list[Part]:
    """The atoms and questions of a condition, however deep, in the order written."""
    if isinstance(condition, (Atom, Question)):
        return [condition]
    if isinstance(condition, (All, AnyOf)):
        return [part for child in condition.parts for part in parts(child)]
    assert isinstance(condition, Not)
    return parts(condition.part)


def label(part: Part) -> str:
    """An atom as a player reads it: `claim (kind: revoke, after_cut: true)`, `question: was ...?`."""
    if isinstance(part, Question):
        return f"question: {part.text}"
    return describe(part)


def hand_index(decision: "Decision") -> FactIndex:
    """Every fact of the ruled hand a condition can name (acts of every verb), with the table's answers."""
    from adjudicate.ruling.matcher import hand_facts

    hand = FactIndex(hand_facts(decision.table, decision.facts, None))
    if decision.answered:
        hand.answered({text: answer for _, text, answer in decision.answered})
    return hand


def value(condition: Condition, hand: FactIndex) -> str:
    """`1` the condition certainly holds over the hand, `0` it does not, `?` it hangs on an open fact."""
    matches = evaluate(condition, hand)
    if any(match.certain for match in matches):
        return HOLDS
    return OPEN if matches else FAILS


def law_values(laws: Iterable["Law"], hand: FactIndex) -> tuple[tuple[str, str], ...]:
    """For each law with a condition: (its id, the condition's value then each atom's), as one string."""
    found = []
    for law in laws:
        if law.condition is not None:
            found.append((law.id, value(law.condition, hand)
                          + "".join(value(part, hand) for part in parts(law.condition))))
    return tuple(found)


def undecided(laws: Sequence["Law"], values: Iterable[dict[str, str]]) -> list[tuple["Law", Part]]:
    """Each atom of each law's condition that no two scenarios show deciding (the module's docstring).

    `values`: per scenario of the code, `law_values` as a mapping.
    """
    seen: dict[str, list[tuple[set[str], set[str]]]] = {}
    for scenario in values:
        for law_id, string in scenario.items():
            whole, atoms_values = string[0], string[1:]
            if whole == OPEN:
                continue
            pairs = seen.setdefault(law_id, [(set(), set()) for _ in atoms_values])
            if len(pairs) != len(atoms_values):
                continue  # a rulebook other than the one measured: not comparable
            for index, atom_value in enumerate(atoms_values):
                if atom_value != OPEN:
                    pairs[index][0 if whole == HOLDS else 1].add(atom_value)
    found: list[tuple[Law, Part]] = []
    for law in laws:
        if law.condition is None:
            continue
        measured = seen.get(law.id, [])
        for index, part in enumerate(parts(law.condition)):
            if index >= len(measured) or not _deciding(*measured[index]):
                found.append((law, part))
    return found


def _deciding(when_holds: set[str], when_fails: set[str]) -> bool:
    return any(a != b for a in when_holds for b in when_fails)
