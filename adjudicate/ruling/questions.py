"""Open questions: the facts a ruling hangs on that the record leaves open, each with an id the table answers by.

A question comes from a rulebook's `question: "..."` (its id: the code, the first law that asks it,
and the question's words, `euchre-22-pack-shuffled-below-table`) or from an irregularity the record
cannot settle (`E-held-spade-trick-1`, `NS-at-the-point-of-eight`). Every question is a yes-or-no
question. What each answer does is worked out by ruling the hand again as if the record had said
so (`decision.decide` with `answers`); a question whose two answers give the same ruling does not
change it, and `--ask` does not ask it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from msgspec import Struct

from adjudicate.lawbook.conditions import All, AnyOf, Condition, Not, Question

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision
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


def _conditions(law: "Law") -> Iterable[Condition]:
    if law.condition is not None:
        yield law.condition
    for ruling in law.rulings:
        if ruling.when is not None:
            yield ruling.when
    for defeat in law.defeats:
        if defeat.when is not None:
            yield defeat.when
    for remedy in law.remedies:
        for when in (remedy.when, *(option.when for option in remedy.options)):
            if when is not None:
                yield when


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
            for condition in _conditions(law):
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


def _ids_of(decision: "Decision") -> dict[str, str]:
    """Text -> id for every question this decision could raise (`question_texts` turned round)."""
    return {text: qid for qid, text in question_texts(decision.rulebook, decision.facts).items()}


def _open_parts(decision: "Decision") -> list[list[tuple[str, str, bool]]]:
    """Each open question's parts as (id, text, the answer that makes it hold), in the ruling's order."""
    ids = _ids_of(decision)
    result = []
    for item in decision.unknown:
        parts = item.parts or (item.question,)
        found = []
        for part in parts:
            text, holds = atomic(part)
            found.append((ids.get(text) or slug(text), text, holds))
        result.append(found)
    return result


def open_ids(decision: "Decision") -> list[str]:
    """The ids of the questions the ruling leaves open, in its order."""
    return list(dict.fromkeys(qid for parts in _open_parts(decision) for qid, _, _ in parts))


def signature(decision: "Decision") -> Any:
    """What a ruling rules, for comparing two: what happened, the laws that decide, the choices, the rulings and
    the score; not the laws defeated or only describing a lawful act (a law defeated whatever the answer rules
    nothing), nor its open questions and the answers that led to it."""
    from adjudicate.render.text import ruling_record

    record = ruling_record(decision, questions=False)
    for key in ("not_applied", "context", "unknown", "answered", "record"):
        record.pop(key, None)
    return record


def redecide(decision: "Decision", answers: Mapping[str, bool]) -> "Decision":
    """The ruling again, with these answers added to those it was given."""
    from adjudicate.ruling.decision import decide

    facts = decision.unsettled or decision.facts
    return decide(decision.rulebook, decision.table, facts, decision.house, {**decision.answers, **answers})


def _remedy_key(remedy: Any) -> tuple[str, str]:
    """A remedy as the same in two rulings of one hand: its law, and what it is for (as the JSON names it)."""
    from adjudicate.render.text import target_record

    return remedy.law.id, repr(target_record(remedy.target))


def open_questions(decision: "Decision") -> tuple[Asked, ...]:
    """The ruling's open questions, each with what yes and no would rule (worked out once a decision)."""
    cached = decision.__dict__.get("_asked")
    if cached is not None:
        return cached
    parts_of = _open_parts(decision)
    order = open_ids(decision)
    texts: dict[str, str] = {qid: text for parts in parts_of for qid, text, _ in parts}
    now_laws = {law.id: law for law in (item.law for item in decision.laws)}
    now_open = set(order)
    now_remedies = {_remedy_key(item) for item in decision.remedies}
    asked = []
    for qid in order:
        branches = {}
        together: dict[str, None] = {}
        for answer in (True, False):
            # With the questions it hangs together with answered as the law needs them (q1 and q2: yes and yes).
            given = {qid: answer}
            for parts in parts_of:
                if (qid, texts[qid], answer) in parts:
                    for other, _, holds in parts:
                        if other != qid:
                            given.setdefault(other, holds)
                            together[other] = None
            branches[answer] = redecide(decision, given)
        yes, no = branches[True], branches[False]
        gained = {answer: tuple(item.law for item in branch.laws if item.law.id not in now_laws)
                  for answer, branch in branches.items()}
        lost = {answer: tuple(law for law_id, law in now_laws.items() if law_id not in branch.law_ids)
                for answer, branch in branches.items()}
        changes = signature(yes) != signature(no)
        moot = {other for branch in (yes, no) for other in now_open - set(open_ids(branch)) if other != qid}
        remedies = {key for branch in (yes, no) for key in {_remedy_key(item) for item in branch.remedies} ^ now_remedies}
        laws = {law.id for answer in (True, False) for law in (*gained[answer], *lost[answer])}
        weight = len(laws) + len(remedies) + len(moot) if changes else 0
        asked.append(Asked(qid, texts[qid], gained[True], gained[False], lost[True], lost[False],
                           tuple(together), changes, weight))
    result = tuple(asked)
    decision.__dict__["_asked"] = result
    return result


def next_question(decision: "Decision") -> Asked | None:
    """The question to ask first: of those whose answer changes the ruling, the one that settles the most."""
    candidates = [item for item in open_questions(decision) if item.changes]
    if not candidates:
        return None
    return max(candidates, key=lambda item: item.weight)  # max keeps the first of equals: the ruling's order


def asked_ids(decision: "Decision", given: Mapping[str, bool]) -> set[str]:
    """The ids the ruling asks, once the answers given that it asks are applied (an answer can open a question),
    and those it was answered already (an answer given again replaces the first)."""
    asked = set(open_ids(decision)) | set(decision.answers)
    while True:
        applying = {qid: answer for qid, answer in given.items() if qid in asked}
        settled = redecide(decision, applying) if applying else decision
        more = set(open_ids(settled)) - asked
        if not more & set(given):
            return asked | more
        asked |= more
