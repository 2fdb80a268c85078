"""Open questions: the facts a ruling hangs on that the record leaves open, each with an id the table answers by.

A question comes from a rulebook's `question: "..."` (its id: the code, the first law that asks it,
and the question's words, `euchre-22-pack-shuffled-below-table`) or from an irregularity the record
cannot settle (`E-held-spade-trick-1`, `NS-at-the-point-of-eight`). Every question is a yes-or-no
question. What each answer does is worked out by ruling the hand again as if the record had said
so (`branches`); a question whose two answers give the same ruling does not change it, and `--ask`
does not ask it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

from msgspec import Struct

from adjudicate.lawbook.provisos import whens
from adjudicate.lawbook.conditions import All, AnyOf, Condition, Not, Question

if TYPE_CHECKING:
    from adjudicate.play.facts import Facts
    from adjudicate.lawbook.rulebook import Law, Rulebook


_LEADING = frozenset({"was", "were", "did", "does", "do", "had", "has", "have", "would", "is", "are", "could"})
_SMALL = frozenset({"the", "a", "an", "of", "in", "on", "to", "their", "his", "her", "it", "its", "or", "and",
                    "by", "that", "so", "be", "been", "with", "for", "at", "as"})
_ENOUGH = 4
_WORDS = 6


def slug(text: str) -> str:
    """A question's words, as an id's tail: without the asking verb and the small words, up to the end of the
    clause that brings the fourth word (or the sixth word)."""
    words: list[str] = []
    for clause in re.split(r"[,?(;:]", text.lower().replace("'", "")):
        found = re.findall(r"[a-z0-9]+", clause)
        while not words and found and found[0] in _LEADING:
            found.pop(0)
        words.extend(word for word in found if word not in _SMALL)
        if len(words) >= _ENOUGH:
            break
    return "-".join(words[:_WORDS]) or "question"


def atomic(question: str) -> tuple[str, bool]:
    """A match's question ("not (q)", "q") as the question asked and the answer that makes the match hold."""
    holds = True
    while question.startswith("not (") and question.endswith(")"):
        question, holds = question[len("not ("):-1], not holds
    return question, holds


def _questions(condition: Condition) -> Iterable[str]:
    if isinstance(condition, Question):
        yield condition.text
    elif isinstance(condition, (All, AnyOf)):
        for part in condition.parts:
            yield from _questions(part)
    elif isinstance(condition, Not):
        yield from _questions(condition.part)


_IDS: dict[int, tuple["Rulebook", dict[str, str]]] = {}


def rulebook_ids(rulebook: "Rulebook") -> dict[str, str]:
    """Each `question:` of the rulebook's laws (by its text) and its id: the code, the first law asking it (in
    the rulebook's order), and its words; a second question of one law with the same words gets `-2`."""
    entry = _IDS.get(id(rulebook))
    if entry is None or entry[0] is not rulebook:
        ids: dict[str, str] = {}
        taken: set[str] = set()
        for law in rulebook.laws:
            for condition in whens(law):
                for text in _questions(condition):
                    if text in ids:
                        continue
                    base = f"{rulebook.code}-{law.id}-{slug(text)}"
                    made, number = base, 1
                    while made in taken:
                        number += 1
                        made = f"{base}-{number}"
                    ids[text] = made
                    taken.add(made)
        entry = _IDS[id(rulebook)] = (rulebook, ids)
    return entry[1]


def question_texts(rulebook: "Rulebook", facts: "Facts") -> dict[str, str]:
    """Every question this hand can be asked, by id: the rulebook's and its irregularities' own."""
    texts = {qid: text for text, qid in rulebook_ids(rulebook).items()}
    for irregularity in facts.irregularities:
        if irregularity.unknown and irregularity.unknown_id:
            texts[irregularity.unknown_id] = irregularity.unknown
    return texts


class Asked(Struct, frozen=True):
    """One open question of a ruling, with what each answer does: `unknown[]`."""

    id: str
    question: str
    if_so: tuple["Law", ...]
    """The laws that decide the dispute if the answer is yes, which do not now."""
    otherwise: tuple["Law", ...]
    """The same for no."""
    if_so_not: tuple["Law", ...] = ()
    """Laws that decide it now, but not if the answer is yes."""
    otherwise_not: tuple["Law", ...] = ()
    together: tuple[str, ...] = ()
    """The ids of the other questions some law hangs on together with this one."""
    changes: bool = True
    """Yes and no give different rulings (a question that does not is not asked)."""
    weight: int = 0
    """How much its answer settles: the laws and remedies it decides, and the questions it makes moot."""
    if_so_score: Any = None
    """The score (a `decision.Score`, not imported here: decision imports this module) if the answer is yes,
    where the two answers give different final scores (else None)."""
    otherwise_score: Any = None
    """The same for no."""
    if_so_ruling: Any = None
    """The whole ruling (a `decision.Decision`) if the answer is yes, worked out with the others, so that what a yes
    would rule is said without deciding again while rendering."""
    otherwise_ruling: Any = None
    """The same for no."""


