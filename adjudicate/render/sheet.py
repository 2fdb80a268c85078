"""The ruling sheet: a ruling as a club files it, in Markdown (`adjudicate rule --format markdown`).

The sheet is the ruling record `rule --format json` prints, laid out for people: the facts as the
scenario gives them (the code, the house, the dealer, the score before, the trump, the hands, the
log in order, the notes), the irregularities, the laws that decide it quoted word for word, the laws
that do not apply and why, the choices and who makes them, the score after each, the open questions,
the answers given, and a last line with the version and the digests of every input (docs/ruling-record.md).

Every text that comes from a file (a title, a note, a path, a law of a rulebook file a scenario names)
is a stranger's: its control characters are escaped as everywhere (`adjudicate.escape`), and then
its Markdown, so that it reads as the text it is and cannot make a link, an image, HTML, a heading,
a list or a table (`markdown_text`). The same record gives the same sheet, byte for byte.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from adjudicate.escape import visible
from adjudicate.render.text import (LATER_CHOICES, and_list, defeat_sentence, kind_noun, later_choice,
                                    no_claim_words, trump_words)
from adjudicate.ruling.scoring import DEAL_OR_NOT, VOIDS_HAND, takes_nothing_words

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision

_PUNCTUATION = re.compile(r"[\\`*_\[\]<>|~&$#@]|:(?=//)|(?<=www)\.", re.IGNORECASE)
"""What can start Markdown inline (emphasis, code, links and images, HTML and entities, tables, strike-through,
GitHub's maths), and what GitHub turns into a link unasked (`https://`, `www.`, an e-mail address)."""
_LINE_START = re.compile(r"[-+=>]|[0-9]+(?=[.)])")
"""What makes a line a list item, a block quote or a heading's underline when it comes first on the line."""


def markdown_text(text: str, first: bool = False) -> str:
    """A stranger's text as Markdown that shows exactly it: one line, nothing in it read as Markdown.

    Control characters (newlines too) become visible escapes first (`escape.visible`), then every
    character Markdown could read as markup is escaped with a backslash. `first`: the text comes first
    in its block (after `- ` or `> `), so leading spaces (a code block) are dropped and a list or quote
    marker at its start is escaped.
    """
    text = _PUNCTUATION.sub(lambda match: "\\" + match.group(), visible(text))
    if first:
        text = text.lstrip()
        start = _LINE_START.match(text)
        if start:
            at = start.end() if start.group()[0].isdigit() else 0
            text = text[:at] + "\\" + text[at:]
    return text


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _quote(text: str) -> list[str]:
    """A law's text as a block quote, one paragraph a line (the paragraphs of its verbatim text)."""
    from adjudicate.lawbook.rulebook import paragraphs

    lines: list[str] = []
    for paragraph in paragraphs(text):
        if lines:
            lines.append(">")
        lines.append(f"> {markdown_text(paragraph, first=True)}")
    return lines


def _seat(seat: str | None) -> str:
    from adjudicate.record.seats import Seat

    return Seat.parse(seat).word if seat else ""


def _score(score: dict[str, int] | None) -> str:
    return ", ".join(f"{side} {points}" for side, points in score.items()) if score else ""


def _target(target: dict[str, Any]) -> str:
    """What a remedy or a defeat is for (a `for` record), as a director says it."""
    kind = target["kind"]
    if kind == "claim":
        against = f" against {_seat(target['against'])}" if target.get("against") else ""
        return f"{_seat(target['seat'])}'s claim of {target['claim']}{against}"
    if kind == "act":
        who = f"{_seat(target['seat'])}'s " if target.get("seat") else ""
        return f"{who}\"{target['act']}\" (log entry {target['entry']})"
    text = f"the {kind_noun(kind)}"
    if target.get("seat"):
        text += f" by {_seat(target['seat'])}"
    if target.get("trick"):
        text += f" at trick {target['trick']}"
    return text


def _for(targets: list[dict[str, Any]]) -> str:
    return and_list([_target(target) for target in targets])


def _laws(ids: list[str]) -> str:
    return f"law{'s' if len(ids) > 1 else ''} {', '.join(ids)}" if ids else "none"


def ruling_sheet(decision: "Decision", record: dict[str, Any]) -> str:
    """The sheet of one ruling: `record` is the ruling's JSON (with its `record` block), `decision` gives the
    facts the JSON does not hold (the hands, the log, the notes)."""
    lines: list[str] = []
    lines += _facts(decision, record)
    lines += _irregularities(decision, record)
    lines += _decisive_laws(decision, record)
    lines += _not_applied(record)
    lines += _choices(record)
    lines += _scores(decision, record)
    lines += _declared(record)
    lines += _questions(record)
    lines += _answers(record)
    lines.append(_digest_line(record["record"]))
    return "\n".join(lines) + "\n"


def _facts(decision: "Decision", record: dict[str, Any]) -> list[str]:

    table = decision.table
    scenario = table.scenario
    lines = [f"# Ruling: {markdown_text(scenario.title or scenario.path)}", "",
             f"Scenario: {markdown_text(scenario.path)}", "", "## The facts", ""]
    lines.append(f"- Code: {markdown_text(decision.rulebook.title)} ({markdown_text(record['code'])})")
    house = record["record"]["house"]
    lines.append(f"- House rules: {markdown_text(house['name'])} ({markdown_text(house['id'])})" if house else
                 "- House rules: none")
    lines.append(f"- Dealer: {scenario.dealer.word}")
    lines.append(f"- Score before the hand: {_score(_side_score(scenario.score)) or 'not given'}")
    if scenario.turned:
        lines.append(f"- Turned up: {scenario.turned}")
    lines.append(f"- Trump: {markdown_text(trump_words(table))}")
    lines += ["", "The hands as given:", ""]
    for seat, holding in scenario.hands.items():
        cards = " ".join(str(card) for card in holding.cards)
        rest = "" if holding.complete else (", and more not known" if cards else "not known")
        lines.append(f"- {seat.word}: {cards}{rest}")
    if not scenario.hands:
        lines.append("- None given.")
    lines += ["", "The log, in order:", ""]
    lines += [f"{entry.number}. {markdown_text(str(entry), first=True)}" for entry in scenario.log]
    if not scenario.log:
        lines.append("- Nothing happened.")
    if scenario.notes and scenario.notes.strip():
        from adjudicate.lawbook.rulebook import paragraphs

        lines += ["", "Notes:", ""]
        for number, paragraph in enumerate(paragraphs(scenario.notes)):
            lines += ([">"] if number else []) + [f"> {markdown_text(paragraph, first=True)}"]
    lines.append("")
    return lines


def _side_score(score: Any) -> dict[str, int] | None:
    return {str(side): points for side, points in score.items()} if score else None


def _irregularities(decision: "Decision", record: dict[str, Any]) -> list[str]:
    lines = ["## The irregularities", ""]
    for number, item in enumerate(record["irregularities"], start=1):
        where = [f"by {_seat(item['seat'])} ({item['side']})"] if item.get("seat") else []
        if item.get("trick"):
            where.append(f"trick {item['trick']}")
        where.append(f"log entry {item['entry']}")
        status = ""
        if item["kind"] == "revoke":
            status = (": established" if item.get("established") else
                      ": corrected in time" if item.get("corrected") else ": not established")
        text = f"{number}. {item['kind'].replace('_', ' ').capitalize()} {', '.join(where)}{status}. " \
               f"{markdown_text(_sentence(item['because']))}"
        if item.get("unknown"):
            text += f" Unknown: {markdown_text(_sentence(item['unknown']))}"
        lines.append(text)
    if not record["irregularities"]:
        lines.append("None.")
    claims = decision.facts.claims
    if claims:
        lines += ["", "Claims:", ""]
        lines += [f"- {markdown_text(_sentence(claim.describe()), first=True)}" for claim in claims]
    lines.append("")
    return lines


def _decisive_laws(decision: "Decision", record: dict[str, Any]) -> list[str]:
    lines = ["## The laws that decide it", ""]
    said: dict[str, str] = {}
    for law in record["laws"]:
        lines.append(f"### Law {markdown_text(law['id'])}. {markdown_text(law['title'])} "
                     f"({markdown_text(law['section'])})")
        lines.append("")
        lines += _quote(law["text"])
        lines.append("")
        outside = decision.outside(law["id"])
        if outside:
            # Cited because it does not reach the case (`OUTSIDE`): its reason, as in `--explain`.
            reasons = " ".join(dict.fromkeys(item.declaration.text.strip() for item in outside))
            lines += [f"Does not reach this case: {markdown_text(reasons)}", ""]
            continue
        first = said.setdefault(law["because"], law["id"])
        because = markdown_text(law["because"]) if first == law["id"] else f"the same facts, as under law {first}."
        lines += [f"Applies: {because}", ""]
    if not record["laws"]:
        lines += ["No law of this code applies to what the record shows.", ""]
    if record["context"]:
        ids = [markdown_text(law["id"]) for law in record["context"]]
        lines += [f"Not cited: {_laws(ids)} only describe{'' if len(ids) > 1 else 's'} lawful acts that happened.",
                  ""]
    return lines


def _not_applied(record: dict[str, Any]) -> list[str]:
    """Each defeated law, those defeated alike together: "Law 63 (Penalty for a revoke) does not apply to ...: why
    (law 71 cancels it)."."""
    lines = ["## The laws that do not apply", ""]
    grouped: dict[tuple, list[dict[str, Any]]] = {}
    for item in record["not_applied"]:
        key = (item["by"], item["how"], item["what"], item["because"], repr(item["for"]))
        grouped.setdefault(key, []).append(item)
    for (by, how, what, because, _), defeated in grouped.items():
        several = len(defeated) > 1
        names = and_list([f"{markdown_text(item['law'])} ({markdown_text(item['title'])})" for item in defeated])
        scope = f" to {markdown_text(_for(defeated[0]['for']))}" if defeated[0]["for"] else ""
        lines.append("- " + defeat_sentence(names, several, what, scope, markdown_text(because), markdown_text(by),
                                            markdown_text(how)))
    if not record["not_applied"]:
        lines.append("None.")
    lines.append("")
    return lines


def _choices(record: dict[str, Any]) -> list[str]:
    lines = ["## The choices", ""]
    for remedy in record["remedies"]:
        head = f"Law {markdown_text(remedy['law'])}" + (f", for {markdown_text(_for(remedy['for']))}"
                                                          if remedy["for"] else "")
        chooser = markdown_text(remedy["chooser"])
        made = remedy["made"]
        if made is not None:
            chosen = next((option for option in remedy["options"] if option["kind"] == made["option"]), None)
            what = markdown_text(chosen["text"]) if chosen else markdown_text(made["option"])
            at = f" at log entry {made['entry']}" if made.get("entry") else ""
            lines.append(f"- {head}: {chooser} chose{at}: {what}. The choice is made and final.")
            continue
        if remedy.get("mandatory"):
            lines.append(f"- {head}: applied, the law leaving no choice:")
        elif len(remedy["options"]) > 1:
            # One player who chooses (the lone player, Euchre 89) has no partner to consult.
            deal_or_not = remedy["consult"] and {option["kind"] for option in remedy["options"]} == DEAL_OR_NOT
            consult = "" if remedy["chooser"] in ("N", "E", "S", "W") or deal_or_not or remedy["consult"] is None else \
                " (partners may consult)" if remedy["consult"] else " (partners may not consult)"
            lines.append(f"- {head}: {chooser} choose{'s' if remedy['chooser'] in ('N', 'E', 'S', 'W') else ''} one{consult}:")
        else:
            lines.append(f"- {head}: {chooser} may:")
        lines += [f"    - {markdown_text(option['text'], first=True)}" for option in remedy["options"]]
        # A choice the law declares open later (Long Whist 7: the suit named if they win the trick), as in the text.
        lines += [f"    - {markdown_text(later_choice(item['text']), first=True)}"
                  for item in _later_choices(record, remedy)]
    if not record["remedies"]:
        lines.append("None: no law that applies leaves a choice.")
    lines.append("")
    return lines


def _choice_text(choice: dict[str, Any], remedies: list[dict[str, Any]]) -> str:
    """One choice behind a score: "law 63 (add 3 points to their own score, for the revoke by East at trick 1)"."""
    remedy = next((r for r in remedies if r["law"] == choice["law"] and r["for"] == choice["for"]), None)
    option = next((o for o in remedy["options"] if o["kind"] == choice["option"]), None) if remedy else None
    if choice["option"] == "no_claim" and remedy is not None:
        return no_claim_words(remedy["chooser"], choice["law"], _for(choice["for"]) if choice["for"] else None)
    said = [option["text"] if option else choice["option"].replace("_", " ")]
    if choice["for"]:
        said.append(f"for {_for(choice['for'])}")
    if choice.get("made"):
        said.append("as chosen in the log")
    return f"law {choice['law']} ({', '.join(said)})"


def _scores(decision: "Decision", record: dict[str, Any]) -> list[str]:
    lines = ["## The score", ""]
    score = record["score"]
    if score is None or decision.score is None:
        return lines + ["Not reckoned.", ""]
    unneeded = bool(decision.score.outcomes) and all(o.effect.unchanged for o in decision.score.outcomes)
    lines.append(f"- Before the hand: {_score(score['before'])}." if score["before"] else
                 "- Before the hand: not given (`score:` in the scenario); no score here turns on it." if unneeded else
                 "- Before the hand: not given (`score:` in the scenario), so no score after it can be said.")
    if decision.score.rules.void:
        lines.append("- The hand itself: not scored (a law that applies ends it).")
    elif score["hand"] is not None:
        cited = f" ({_laws(score['hand_laws'])})" if score["hand_laws"] else ""
        lines.append(f"- The hand itself: {_score(score['hand'])}{cited}, counted once.")
    elif decision.table.tricks:
        lines.append("- The hand itself: not played out, so its own points are not counted here.")
    several = len(score["outcomes"]) > 1
    for outcome, reckoned in zip(score["outcomes"], decision.score.outcomes):
        chosen = "; and ".join(_choice_text(choice, record["remedies"]) for choice in outcome["choices"])
        lead = f"{'If' if several else 'With'} {markdown_text(chosen)}" if chosen else "After the hand"
        needs = markdown_text(outcome["needs"]) if outcome.get("needs") else ""
        if outcome["after"] is None and reckoned.effect.unchanged:
            # Nothing scored, whatever the score before the hand: a new deal, or the hand still to be played.
            void = any(item.option.kind in VOIDS_HAND for _, item in reckoned.choices)
            lines.append(f"- {lead}: the score is unchanged" + (": the new deal scores nothing." if void else
                                                                 " until the hand is played out."))
            continue
        if outcome["after"] is None:
            lines.append(f"- {lead}: the score after the hand cannot be given; the record needs "
                         f"{needs or 'more than it holds'}.")
            continue
        meaning = f" ({markdown_text(outcome['meaning'])})" if outcome["meaning"] else \
            f"; the record needs {needs}" if needs else ""
        if reckoned.effect.takes_nothing_at is not None:
            # Tricks taken from a hand that ended too soon for them to count (Long Whist 14 with 11).
            meaning += f"; the choice {takes_nothing_words(reckoned.effect, why=True)}"
        reading = f" {markdown_text(outcome['reading'])}" if outcome.get("reading") else ""
        lines.append(f"- {lead}: {_score(outcome['after'])}{meaning}.{reading}")
    if score.get("more"):
        lines.append(f"- ... and {score['more']} more combinations of the choices (see `--format json`).")
    lines.append("")
    return lines


def _later_choices(record: dict[str, Any], remedy: dict[str, Any]) -> list[dict[str, Any]]:
    """The declarations of a choice still to come (render.text's `LATER_CHOICES`) by the law of a remedy not yet
    chosen: said with its options, not among the declarations."""
    if remedy["made"] is not None:
        return []
    return [item for item in record["rulings"] if item["law"] == remedy["law"] and item["kind"] in LATER_CHOICES]


def _declared(record: dict[str, Any]) -> list[str]:
    said = [id(item) for remedy in record["remedies"] for item in _later_choices(record, remedy)]
    rulings = [item for item in record["rulings"] if id(item) not in said]
    if not rulings:
        return []
    lines = ["## Declared by the laws", ""]
    lines += [f"- Law {markdown_text(item['law'])}: {markdown_text(item['text'])}" for item in rulings]
    return lines + [""]


def _questions(record: dict[str, Any]) -> list[str]:
    lines = ["## Open questions", ""]
    for question in record["unknown"]:
        text = question["question"][:1].upper() + question["question"][1:]
        said = f"{markdown_text(question['id'], first=True)}: {markdown_text(text)}" if question.get("id") else \
            markdown_text(text, first=True)
        lines.append(f"- {said} If so: {_answer_rules(question['if_so'])}; "
                     f"if not: {_answer_rules(question['otherwise'])}.")
    if not record["unknown"]:
        lines.append("None: the record settles every fact the ruling needs.")
    lines.append("")
    return lines


def _answer_rules(answer: dict[str, Any]) -> str:
    """What one answer to an open question rules: the laws it brings in, and those it takes away (`not`)."""
    said = _laws(answer["laws"])
    if answer.get("not"):
        said += f" ({_laws(answer['not'])} no longer)"
    return said


def _answers(record: dict[str, Any]) -> list[str]:
    """The answers given (the record's, by id), each with its question as the ruling asked it."""
    asked = {item["id"]: item["question"] for item in record.get("answered", ())}
    given = record["record"]["answers"]
    lines = ["## The answers given", ""]
    for key, value in given.items():
        question = asked.get(key, "")
        question = f" {markdown_text(question[:1].upper() + question[1:])}" if question else ""
        lines.append(f"- {markdown_text(key, first=True)}: {'yes' if value else 'no'}.{question}")
    if not given:
        lines.append("None.")
    lines.append("")
    return lines


def _digest_line(block: dict[str, Any]) -> str:
    """One line with every input's digest: what an appeal compares after rerunning the scenario."""
    code = block["code"]
    parts = [f"adjudicate {markdown_text(block['adjudicate'])}",
             f"code {markdown_text(code['name'])} {code['digest']}"]
    house = block["house"]
    if house is None:
        parts.append("house none")
    else:
        parts.append(f"house {markdown_text(house['name'])} {house['digest']}")
        parts += [f"built on {markdown_text(base['name'])} {base['digest']}" for base in house["builds_on"]]
    scenario = block["scenario"]
    parts.append(f"scenario {scenario['digest']} ({scenario['of']})")
    return "Record: " + " · ".join(parts)
