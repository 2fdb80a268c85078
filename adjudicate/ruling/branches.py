"""What each answer to a ruling's open questions would rule: the hand ruled again as if the record had said
so (`decision.decide` with `answers`). A question whose two answers give the same ruling does not change it,
and `--ask` does not ask it; of those that do, the one that settles the most is asked first.
"""

from __future__ import annotations

from typing import Any, Mapping

from msgspec.structs import replace

from adjudicate.ruling.decision import Decision, decide
from adjudicate.ruling.questions import Asked, atomic, question_texts, slug
from adjudicate.ruling.records import ruling_record, target_record


def with_questions(decision: Decision) -> Decision:
    """The decision with its open questions worked out, each with what yes and no would rule."""
    return replace(decision, questions=open_questions(decision)) if decision.unknown else replace(decision, questions=())


def _ids_of(decision: Decision) -> dict[str, str]:
    """Text -> id for every question this decision could raise (`question_texts` turned round)."""
    return {text: qid for qid, text in question_texts(decision.rulebook, decision.facts).items()}


def _open_parts(decision: Decision) -> list[list[tuple[str, str, bool]]]:
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


def open_ids(decision: Decision) -> list[str]:
    """The ids of the questions the ruling leaves open, in its order."""
    return list(dict.fromkeys(qid for parts in _open_parts(decision) for qid, _, _ in parts))


def signature(decision: Decision) -> Any:
    """What a ruling rules, for comparing two: what happened, the laws that decide, the choices, the rulings and
    the score; not the laws defeated or only describing a lawful act (a law defeated whatever the answer rules
    nothing), nor its open questions and the answers that led to it."""
    record = ruling_record(decision, questions=False)
    for key in ("not_applied", "context", "unknown", "answered", "record"):
        record.pop(key, None)
    return record


def redecide(decision: Decision, answers: Mapping[str, bool]) -> Decision:
    """The ruling again, with these answers added to those it was given."""
    facts = decision.unsettled or decision.facts
    return decide(decision.rulebook, decision.table, facts, decision.house, {**decision.answers, **answers})


def answered(decision: Decision, answers: Mapping[str, bool]) -> Decision:
    """The ruling again with these answers, its own open questions worked out."""
    return with_questions(redecide(decision, answers))


def _score_key(decision: Decision) -> Any:
    """A ruling's final scores, for comparing two answers' rulings: the scores and what they mean, or None where
    the record gives no final score either way (no `score:` before the hand)."""
    score = decision.score
    if score is None or all(outcome.effect.score_after is None for outcome in score.outcomes) \
            and decision.table.scenario.score is None:
        return None
    if all(outcome.effect.score_after is None for outcome in score.outcomes):
        # The score before the hand given, but not the points a law adds or takes (Long Whist 18): what each
        # answer needs is what differs.
        return tuple(sorted(outcome.effect.needs or "" for outcome in score.outcomes)), score.more
    return tuple(sorted((repr(outcome.effect.score_after), outcome.effect.meaning or "")
                        for outcome in score.outcomes)), score.more


def _remedy_key(remedy: Any) -> tuple[str, str]:
    """A remedy as the same in two rulings of one hand: its law, and what it is for (as the JSON names it)."""
    return remedy.law.id, repr(target_record(remedy.target))


def open_questions(decision: Decision) -> tuple[Asked, ...]:
    """The ruling's open questions, each with what yes and no would rule (worked out once a decision)."""
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
        # Each answer's final scores, where they differ: a director gives the score either way.
        keys = _score_key(yes), _score_key(no)
        scored = changes and keys[0] != keys[1] and keys != (None, None)
        asked.append(Asked(qid, texts[qid], gained[True], gained[False], lost[True], lost[False],
                           tuple(together), changes, weight, yes.score if scored else None,
                           no.score if scored else None, yes, no))
    return tuple(asked)


def next_question(decision: Decision) -> Asked | None:
    """The question to ask first: of those whose answer changes the ruling, the one that settles the most."""
    candidates = [item for item in open_questions(decision) if item.changes]
    if not candidates:
        return None
    return max(candidates, key=lambda item: item.weight)  # max keeps the first of equals: the ruling's order


def asked_ids(decision: Decision, given: Mapping[str, bool]) -> set[str]:
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
