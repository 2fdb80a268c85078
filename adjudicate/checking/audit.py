"""The law audit (docs/law-audit.md): every penalty, ruling and scoring law, clause by clause, against the scenarios.

For each such law of the built-in codes: its provisos (the clauses of its text that limit it, quoted on its
record: `adjudicate.lawbook.provisos`), what encodes each (or why nothing does), and the scenarios in which
each holds and each fails; the atoms of its condition no pair of scenarios shows deciding
(`adjudicate.checking.conditions`); and, for a law with no condition, the reason its record gives.
`tools/law_audit.py` writes the page; a test holds it current.

A scenario counts for a law when it shows the matter the law is about: the law's condition holds there, or
hangs on an open fact, or some atom of it that names an irregularity, a claim, an election or an act holds.
In such a scenario a proviso *holds* when one of the references that encode it holds, and *fails* when none
does and one of them plainly does not: an atom, a question answered, an option's or a ruling's `when` (where
the law applies), the condition of the law a defeat names (where this law applies), the condition of the law
that defeats this one.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Sequence

from adjudicate.checking.conditions import FAILS, HOLDS, OPEN, hand_index, label, law_values, parts, undecided, value
from adjudicate.lawbook.conditions import FactIndex
from adjudicate.lawbook.provisos import Proviso, referenced_atoms

if TYPE_CHECKING:
    from adjudicate.lawbook.rulebook import Law, Rulebook

AUDITED = ("penalty", "ruling", "scoring")
"""The kinds of law the audit covers."""
SHOWN = 4
"""Scenarios named in a cell before `and N more`."""


class _Hand:
    """One scenario's hand: its name on the page, its facts, and each law's condition value there."""

    def __init__(self, name: str, hand: FactIndex, rulebook: "Rulebook"):
        self.name = name
        self.hand = hand
        self.values = dict(law_values(rulebook.laws, hand))

    def condition(self, law_id: str) -> str | None:
        found = self.values.get(law_id)
        return found[0] if found else None


def _in_play(law: "Law", hand: _Hand) -> bool:
    if law.condition is None:
        return False
    if hand.condition(law.id) in (HOLDS, OPEN):
        return True
    return any(value(part, hand.hand) != FAILS for part in parts(law.condition)
               if getattr(part, "subject", "hand") != "hand")


def _reference(law: "Law", reference: str, hand: _Hand) -> str | None:
    """The reference's value in a scenario where the law is in play: 1, 0, ? or None (says nothing here)."""
    kind, _, target = reference.partition(":")
    applies = hand.condition(law.id) == HOLDS
    if kind in ("option", "ruling"):
        if not applies:
            return None
        whens = [option.when for remedy in law.remedies for option in remedy.options if option.kind == target] \
            if kind == "option" else [ruling.when for ruling in law.rulings if ruling.kind == target]
        found = {HOLDS if when is None else value(when, hand.hand) for when in whens}
        return HOLDS if HOLDS in found else OPEN if OPEN in found else FAILS
    if kind == "defeats":
        return hand.condition(target) if applies else None
    if kind == "defeated_by":
        return hand.condition(target)
    if reference in ("consult", "score"):
        return hand.condition(law.id)
    if reference == "question":
        from adjudicate.lawbook.provisos import questions

        assert law.condition is not None
        found = {value(question, hand.hand) for question in questions(law.condition)}
        return HOLDS if HOLDS in found else OPEN if OPEN in found else FAILS
    found = {value(atom, hand.hand) for atom in referenced_atoms(law, reference)}
    return HOLDS if HOLDS in found else OPEN if OPEN in found else FAILS if found else None


def _proviso(law: "Law", proviso: Proviso, hands: Sequence[_Hand]) -> tuple[list[str], list[str]]:
    holds: list[str] = []
    fails: list[str] = []
    for hand in hands:
        if not _in_play(law, hand):
            continue
        found = {_reference(law, reference, hand) for reference in proviso.encoded_by}
        if HOLDS in found:
            holds.append(hand.name)
        elif FAILS in found:
            fails.append(hand.name)
    return holds, fails


def _names(names: Sequence[str]) -> str:
    if not names:
        return "none"
    shown = ", ".join(f"`{name}`" for name in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


class _Counts:
    def __init__(self) -> None:
        self.laws = self.provisos = self.encoded = self.not_encoded = 0
        self.never_holds = self.never_fails = self.atoms = self.undecided = 0
        self.not_encoded_list: list[str] = []
        self.no_condition: list[str] = []


def hands_of(folder: str) -> dict[str, list[_Hand]]:
    """Every scenario under `folder` ruled under its built-in code (not a house variant), by code, each named
    by its path under `folder` without `.yaml`."""
    from adjudicate.checking.batch import collect
    from adjudicate.record.scenario import load_scenario
    from adjudicate.ruling.pipeline import rule_loaded

    by_code: dict[str, list[_Hand]] = {}
    for path in collect([folder]).files:
        decision = rule_loaded(load_scenario(path), questions=False)
        if decision.house is not None:
            continue
        name = os.path.splitext(os.path.relpath(path, folder))[0].replace(os.sep, "/")
        by_code.setdefault(decision.rulebook.code, []).append(_Hand(name, hand_index(decision), decision.rulebook))
    return by_code


def audit_page(folder: str) -> str:
    """The page docs/law-audit.md: the built-in codes' penalty, ruling and scoring laws against the scenarios
    under `folder`."""
    from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook

    by_code = hands_of(folder)
    sections: list[str] = []
    counts: dict[str, _Counts] = {}
    for code in builtin_codes():
        rulebook = builtin_rulebook(code)
        hands = by_code.get(code, [])
        tally = counts[code] = _Counts()
        never = {(law.id, part.pos.line) for law, part in undecided(rulebook.laws, (h.values for h in hands))}
        lines = [f"## {rulebook.title}", "", f"{len(hands)} scenarios ruled under this code.", ""]
        for law in rulebook.laws:
            if law.kind not in AUDITED:
                continue
            tally.laws += 1
            lines += _law(law, hands, never, tally)
        sections.append("\n".join(lines))
    head = ["# The law audit", "",
            "Every penalty, ruling and scoring law of the three codes, clause by clause: each proviso of its text "
            "(quoted on the law's record, `provisos:`), what in the record encodes it (an atom of the condition, "
            "a question of fact, a remedy's option, a ruling, a defeat) or why nothing does, and the shipped "
            "scenarios in which it holds and in which it fails; then the atoms of the law's condition that no "
            "pair of scenarios shows deciding (as `check --coverage` reports them). A proviso *holds* in a "
            "scenario where what encodes it holds as the record writes it, and *fails* where it does not (an "
            "\"unless\" encoded by `established: false` holds where the exception does not come in). Scenarios "
            "are named by their path under `scenarios/`. Generated from the "
            "rulebooks and `scenarios/` by `python tools/law_audit.py`; `tests/test_docs.py` holds it current. "
            "The reading of each column: [rulebook format](rulebook-format.md#provisos). "
            "Back to the [README](../README.md).", "",
            "| code | laws | provisos | encoded | not encoded | encoded, never shown holding | encoded, never "
            "shown failing | atoms | atoms never shown deciding |",
            "|---|---|---|---|---|---|---|---|---|"]
    for code, tally in counts.items():
        head.append(f"| {code} | {tally.laws} | {tally.provisos} | {tally.encoded} | {tally.not_encoded} | "
                    f"{tally.never_holds} | {tally.never_fails} | {tally.atoms} | {tally.undecided} |")
    head.append("")
    for code, tally in counts.items():
        if tally.no_condition:
            head.append(f"Laws of {code} with no condition: {', '.join(tally.no_condition)}.")
    head.append("")
    return "\n".join(head) + "\n" + "\n\n".join(sections) + "\n"


def _law(law: "Law", hands: Sequence[_Hand], never: set[tuple[str, int]], tally: _Counts) -> list[str]:
    lines = [f"### {law.id}. {law.title} ({law.kind})", ""]
    if law.condition is None:
        reason = law.no_condition or "none given yet"
        tally.no_condition.append(f"{law.id} ({reason})")
        lines += [f"No condition: {reason}.", ""]
    if law.provisos:
        lines += ["| proviso | encoded by | holds in | fails in |", "|---|---|---|---|"]
    for proviso in law.provisos:
        tally.provisos += 1
        if proviso.not_encoded is not None:
            tally.not_encoded += 1
            tally.not_encoded_list.append(f"{law.id}: {proviso.phrase}")
            lines.append(f"| \"{_cell(proviso.phrase)}\" | not encoded: {_cell(proviso.not_encoded)} | | |")
            continue
        tally.encoded += 1
        holds, fails = _proviso(law, proviso, hands)
        tally.never_holds += not holds
        tally.never_fails += not fails
        encoded = ", ".join(f"`{reference}`" for reference in proviso.encoded_by)
        lines.append(f"| \"{_cell(proviso.phrase)}\" | {encoded} | {_names(holds)} | {_names(fails)} |")
    if law.provisos:
        lines.append("")
    if law.condition is not None:
        atoms = parts(law.condition)
        tally.atoms += len(atoms)
        missing = [part for part in atoms if (law.id, part.pos.line) in never]
        tally.undecided += len(missing)
        if missing:
            lines += ["Atoms never shown deciding: " + "; ".join(f"`{_cell(label(part))}`" for part in missing)
                      + ".", ""]
    return lines


def not_encoded(laws: Iterable["Law"]) -> list[tuple[str, str, str]]:
    """(law id, phrase, reason) of every proviso nothing encodes, for the summary."""
    return [(law.id, proviso.phrase, proviso.not_encoded) for law in laws for proviso in law.provisos
            if proviso.not_encoded is not None]
