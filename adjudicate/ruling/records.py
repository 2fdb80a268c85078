"""The ruling and the replayed hand as plain data: what `--format json` prints, and what two rulings of one
hand are compared by (`branches.signature`).

The decision reads itself through these records when it weighs an open question; the renderers print
them as they are (JSON) or read the decision itself (the text, the ruling sheet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicate.play.facts import Claim, Facts, Irregularity
from adjudicate.play.table import Moment, Table
from adjudicate.ruling.scoring import claimable_words

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision, Score


def _making_record(table: Table) -> dict[str, Any] | None:
    making = table.making
    if making is None:
        return None
    return {
        "maker": str(making.maker) if making.maker else None,
        "act": making.act,
        "round": making.round,
        "alone": str(making.lone) if making.lone else None,
        "discard": str(making.discard) if making.discard else None,
        "turned_down": making.turned_down,
    }


def replay_record(table: Table, facts: Facts) -> dict[str, Any]:
    """The reconstructed hand as `replay --format json` gives it (docs/commands.md)."""
    scenario = table.scenario
    marked = marks(facts)
    return {
        "scenario": scenario.path,
        "title": scenario.title,
        "code": scenario.code,
        "dealer": str(scenario.dealer),
        "eldest": str(table.eldest),
        "turned": str(scenario.turned) if scenario.turned else None,
        "trump": str(table.trump) if table.trump else None,
        "making": _making_record(table),
        "score": {str(side): points for side, points in scenario.score.items()} if scenario.score else None,
        "tricks": [
            {
                "number": trick.number,
                "leader": str(trick.leader),
                "cards": [
                    {"seat": str(play.seat), "card": str(play.card), "entry": play.entry,
                     **({"withdrawn": True} if play.withdrawn else {}),
                     **({"irregular": marked[play.entry]} if play.entry in marked else {})}
                    for play in trick.plays
                ],
                "winner": str(trick.winner) if trick.winner and trick.complete else None,
                "complete": trick.complete,
                "quitted": trick.quit_entry is not None,
            }
            for trick in table.tricks
        ],
        "irregularities": [irregularity.to_json() for irregularity in facts.irregularities],
        "claims": [claim.to_json() for claim in facts.claims],
        "unknown": facts.unknowns,
    }


def marks(facts: Facts) -> dict[int, list[str]]:
    marks: dict[int, list[str]] = {}
    for irregularity in facts.irregularities:
        marks.setdefault(irregularity.entry, []).append(irregularity.kind)
    return marks


def _side_score(score: dict | None) -> dict[str, int] | None:
    return {str(side): points for side, points in score.items()} if score is not None else None


def target_record(target: object) -> dict[str, Any] | None:
    """What a remedy or a defeat is for: the irregularity, claim or act, as `for` gives it."""
    if isinstance(target, Irregularity):
        return {"kind": target.kind, "seat": str(target.seat) if target.seat else None, "trick": target.trick,
                "entry": target.entry}
    if isinstance(target, Claim):
        return {"kind": "claim", "claim": target.kind, "seat": str(target.seat),
                "against": str(target.against) if target.against else None, "entry": target.entry}
    if isinstance(target, Moment):
        return {"kind": "act", "act": target.act.text(), "seat": str(target.act.seat) if target.act.seat else None,
                "entry": target.entry}
    return None


def _option_record(item) -> dict[str, Any]:
    return {
        "kind": item.option.kind,
        **({"points": item.option.points} if item.option.points is not None else {}),
        **({"tricks": item.option.tricks} if item.option.tricks is not None else {}),
        "to": str(item.to) if item.to else None,
        "text": item.option.wording(),
    }


def ruling_record(decision: "Decision", questions: bool = True) -> dict[str, Any]:
    """The ruling as `rule --format json` gives it (docs/commands.md).

    `questions=False` leaves out what each open question's answers would rule (which rules the hand again
    for each answer): for comparing two rulings (`branches.signature`)."""
    table, facts = decision.table, decision.facts
    scenario = table.scenario

    def law_record(applied) -> dict[str, Any]:
        return {"id": applied.law.id, "title": applied.law.title, "section": applied.law.section,
                "text": applied.law.text, "because": applied.because}

    score = decision.score
    return {
        "scenario": scenario.path,
        "title": scenario.title,
        "code": decision.rulebook.code,
        "house": decision.house,
        "trump": str(table.trump) if table.trump else None,
        "irregularities": [irregularity.to_json() for irregularity in facts.irregularities],
        "claims": [claim.to_json() for claim in facts.claims],
        "laws": [law_record(applied) for applied in decision.laws],
        "not_applied": [
            {"law": item.law.id, "title": item.law.title, "by": item.by.id, "how": item.defeat.how,
             "what": item.defeat.what, "for": [target_record(t) for t in item.targets],
             "because": item.because}
            for item in decision.not_applied
        ],
        "context": [law_record(applied) for applied in decision.context],
        "remedies": [
            {
                "law": outcome.law.id,
                "for": [target] if (target := target_record(outcome.target)) else [],
                "chooser": outcome.chooser,
                "consult": outcome.consult,
                **({"mandatory": True} if outcome.mandatory else {}),
                **({"text": outcome.remedy.text} if outcome.remedy.text else {}),
                "made": ({"option": outcome.made.option.kind, "entry": outcome.made_entry}
                         if outcome.made else None),
                "options": [_option_record(item) for item in outcome.options],
            }
            for outcome in decision.remedies
        ],
        "rulings": [{"law": item.law.id, "kind": item.declaration.kind, "text": item.declaration.text}
                    for item in decision.declarations],
        "score": None if score is None else {
            "before": _side_score(score.before),
            "hand": _side_score(score.hand),
            "hand_laws": [law.id for law in score.hand_laws],
            "outcomes": outcome_records(score),
            **({"more": score.more} if score.more else {}),
            **({"honours": [{"side": str(side), "held": held, "points": points, "text": text}
                            for side, held, points, text in claimable_words(decision.rulebook.code,
                                                                            score.claimable, score.kept_below_game(
                                                                                decision.table.game.game_points))]}
               if score.claimable else {}),
        },
        "unknown": _unknown_records(decision) if questions else [
            {"question": item.question, "if_so": {"laws": [law.id for law in item.laws]}, "otherwise": {"laws": []}}
            for item in decision.unknown],
        "answered": [{"id": qid, "question": question, "answer": answer}
                     for qid, question, answer in decision.answered],
    }


def outcome_records(score: "Score") -> list[dict[str, Any]]:
    """The final scores, one for each combination of the choices still open."""
    return [
        {
            "choices": [{"law": remedy.law.id, "option": item.option.kind,
                         "for": [target] if (target := target_record(remedy.target)) else [],
                         **({"made": True} if remedy.made is not None else {}),
                         **({"mandatory": True} if remedy.mandatory else {})}
                        for remedy, item in outcome.choices],
            "after": _side_score(outcome.effect.score_after),
            "meaning": outcome.effect.meaning,
            **({"needs": outcome.effect.needs} if outcome.effect.needs else {}),
            **({"unchanged": True} if outcome.effect.unchanged else {}),
            **({"reading": outcome.reading} if outcome.reading else {}),
            # Long Whist 18: the points marked for honours not known: the score if two were marked, and if four.
            **({"by_points": [{"points": points, "after": _side_score(effect.score_after), "meaning": effect.meaning,
                               **({"needs": effect.needs} if effect.needs else {})}
                              for points, effect in outcome.effect.by_points]} if outcome.effect.by_points else {}),
        }
        for outcome in score.outcomes
    ]


def _unknown_records(decision: "Decision") -> list[dict[str, Any]]:
    if not decision.unknown:
        return []
    if decision.questions is None:
        raise ValueError("this ruling's open questions were not worked out (rule_loaded(questions=False))")

    def answer(laws, lost, score) -> dict[str, Any]:
        return {"laws": [law.id for law in laws], **({"not": [law.id for law in lost]} if lost else {}),
                **({"score": outcome_records(score)} if score is not None else {})}

    return [{"id": item.id, "question": item.question,
             "if_so": answer(item.if_so, item.if_so_not, item.if_so_score),
             "otherwise": answer(item.otherwise, item.otherwise_not, item.otherwise_score),
             **({"together_with": list(item.together)} if item.together else {}),
             "changes_ruling": item.changes}
            for item in decision.questions]
