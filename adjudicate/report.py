"""Renderers: a replayed hand (and later a ruling) as JSON records, a table for people, or Markdown.

Records are built once (`replay_record`), then printed in each format; the
renderers know nothing of YAML or of how the facts were found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from adjudicate.facts import Facts, Irregularity
from adjudicate.table import Table

if TYPE_CHECKING:
    from adjudicate.matcher import Decision


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
    """The reconstructed hand as DESIGN.md's `replay --format json` gives it."""
    scenario = table.scenario
    marks = _marks(facts)
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
                     **({"irregular": marks[play.entry]} if play.entry in marks else {})}
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


def _marks(facts: Facts) -> dict[int, list[str]]:
    marks: dict[int, list[str]] = {}
    for irregularity in facts.irregularities:
        marks.setdefault(irregularity.entry, []).append(irregularity.kind)
    return marks


def _kind_words(kind: str) -> str:
    return kind.replace("_", " ")


def _irregularity_line(number: int, irregularity: Irregularity) -> str:
    where = []
    if irregularity.seat:
        where.append(f"by {irregularity.seat.word} ({irregularity.side})")
    if irregularity.trick:
        where.append(f"trick {irregularity.trick}")
    where.append(f"log entry {irregularity.entry}")
    status = ""
    if irregularity.kind == "revoke":
        if irregularity.get("established"):
            status = " - established"
        elif irregularity.get("corrected"):
            status = " - corrected in time"
        else:
            status = " - not established"
    line = f"{number}. {_kind_words(irregularity.kind)} {', '.join(where)}{status}\n   {irregularity.because}"
    if irregularity.unknown:
        line += f"\n   unknown: {irregularity.unknown}"
    return line


def _trick_rows(table: Table, facts: Facts) -> list[list[str]]:
    marks = _marks(facts)
    rows = []
    for trick in table.tricks:
        cards = []
        for play in trick.plays:
            text = f"{play.seat} {play.card}"
            if play.withdrawn:
                text = f"({text} taken back)"
            if play.entry in marks:
                text += " !"
            cards.append(text)
        winner = str(trick.winner) if trick.winner and trick.complete else "-"
        rows.append([str(trick.number), str(trick.leader), "  ".join(cards), winner])
    return rows


_MADE = {"order up": "ordered up", "assist": "assisted", "take up": "taken up", "name": "named",
         "alone": "made", "alone at": "named"}


def _heading(table: Table) -> list[str]:
    scenario = table.scenario
    lines = [scenario.path + (f" - {scenario.title}" if scenario.title else "")]
    facts = [f"code {scenario.code}", f"dealer {scenario.dealer.word}"]
    if scenario.turned:
        facts.append(f"turned {scenario.turned}")
    trump = table.trump.word if table.trump else "not made"
    making = table.making
    if making and making.maker:
        done = _MADE.get(making.act or "", making.act)
        trump += f" ({done} by {making.maker.word}"
        if making.lone:
            trump += f"; {making.lone.word} plays alone"
        trump += ")"
    facts.append(f"trump {trump}")
    lines.append("; ".join(facts))
    if scenario.score:
        lines.append("score before the hand: " + ", ".join(f"{side} {points}" for side, points in scenario.score.items()))
    return lines


def replay_text(table: Table, facts: Facts, markdown: bool = False) -> str:
    """The hand as a card player would write a hand record, irregular cards marked `!`."""
    lines = _heading(table)
    if markdown:
        lines[0] = f"### {lines[0]}"
    lines.append("")
    rows = _trick_rows(table, facts)
    headers = ["trick", "led by", "cards in order", "won by"]
    if rows:
        lines.append(tabulate(rows, headers=headers, tablefmt="github" if markdown else "simple"))
    else:
        lines.append("(no card was played)")
    lines.append("")
    if facts.irregularities:
        lines.append("irregularities:" if not markdown else "**Irregularities**")
    lines.extend(_what_happened(facts, "no irregularity found"))
    return "\n".join(lines) + "\n"


def _what_happened(facts: Facts, none: str) -> list[str]:
    """Each irregularity, numbered, with its facts; then each claim raised."""
    lines = [_irregularity_line(number, irregularity)
             for number, irregularity in enumerate(facts.irregularities, start=1)] or [none]
    for claim in facts.claims:
        against = f" against {claim.against.word}" if claim.against else ""
        timing = " after the cut for the next deal" if claim.after_cut else ""
        lines.append(f"Claim: {claim.seat.word} claims {claim.kind}{against} (log entry {claim.entry}){timing}.")
    return lines


# --- the ruling -------------------------------------------------------------------

def _score_text(score: dict | None) -> str | None:
    if score is None:
        return None
    return ", ".join(f"{side} {points}" for side, points in score.items())


def ruling_record(decision: "Decision") -> dict[str, Any]:
    """The ruling as DESIGN.md's `rule --format json` gives it."""
    table, facts = decision.table, decision.facts
    scenario = table.scenario
    return {
        "scenario": scenario.path,
        "title": scenario.title,
        "code": decision.rulebook.code,
        "house": decision.house,
        "trump": str(table.trump) if table.trump else None,
        "score": {str(side): points for side, points in scenario.score.items()} if scenario.score else None,
        "irregularities": [irregularity.to_json() for irregularity in facts.irregularities],
        "claims": [claim.to_json() for claim in facts.claims],
        "laws": [
            {"id": applied.law.id, "title": applied.law.title, "section": applied.law.section,
             "text": applied.law.text, "because": applied.because}
            for applied in decision.laws
        ],
        "remedies": [
            {
                "law": outcome.law.id,
                "chooser": outcome.chooser,
                "consult": outcome.consult,
                **({"text": outcome.remedy.text} if outcome.remedy.text else {}),
                "options": [
                    {
                        "kind": item.option.kind,
                        **({"points": item.option.points} if item.option.points is not None else {}),
                        **({"tricks": item.option.tricks} if item.option.tricks is not None else {}),
                        "to": str(item.to) if item.to else None,
                        "text": item.option.wording(),
                        "score_after": ({str(side): points for side, points in item.effect.score_after.items()}
                                        if item.effect.score_after else None),
                        **({"meaning": item.effect.meaning} if item.effect.meaning else {}),
                        **({"needs": item.effect.needs} if item.effect.needs else {}),
                    }
                    for item in outcome.options
                ],
            }
            for outcome in decision.remedies
        ],
        "rulings": [{"law": item.law.id, "kind": item.declaration.kind, "text": item.declaration.text}
                    for item in decision.declarations],
        "unknown": [
            {"question": item.question, "if_so": {"laws": [law.id for law in item.laws]},
             "otherwise": {"laws": []}}
            for item in decision.unknown
        ],
    }


def _quote(text: str, width: int, indent: str) -> list[str]:
    import textwrap

    from adjudicate.rulebook import paragraphs

    lines = []
    for number, paragraph in enumerate(paragraphs(text)):
        wrapped = textwrap.wrap(paragraph, width=width - len(indent) - 2, break_long_words=False,
                                break_on_hyphens=False)
        if number:
            lines.append(indent)
        lines.extend(f"{indent}{'“' if number == 0 and i == 0 else ' '}{line}" for i, line in enumerate(wrapped))
    if lines:
        lines[-1] += "”"
    return lines


def ruling_text(decision: "Decision", markdown: bool = False) -> str:
    """The ruling as a director gives it at the table: what happened, the laws, the choices.

    As text it is wrapped for a terminal; as Markdown (for a club's chat) each item is one
    unwrapped line, the laws quoted as block quotes.
    """
    import textwrap

    from adjudicate.rulebook import paragraphs

    table, facts, rulebook = decision.table, decision.facts, decision.rulebook
    scenario = table.scenario
    width = 88

    def wrap(text: str, first: str = "", rest: str = "") -> list[str]:
        if markdown:
            return [first.strip() + (" " if first.strip() else "") + text]
        return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest)

    def heading(text: str) -> str:
        return f"### {text}" if markdown else text.upper()

    lines = [("## " if markdown else "") + f"Ruling: {scenario.title or scenario.path}"]
    context = [f"{rulebook.title} ({rulebook.code})", f"dealer {scenario.dealer.word}"]
    if table.trump:
        context.append(f"trump {table.trump.word}")
    if scenario.score:
        context.append(f"score before the hand {_score_text(scenario.score)}")
    lines.append("; ".join(context))
    if decision.house:
        lines.append(f"house rules: {decision.house}")
    lines.append(f"({scenario.path})")
    lines.append("")
    lines.append(heading("What happened"))
    lines.extend(_what_happened(facts, "No irregularity."))
    lines.append("")
    lines.append(heading("The laws"))
    if not decision.laws:
        lines.append("No law of this code applies to what the record shows.")
        lines.append("")
    first_said: dict[str, str] = {}
    for applied in decision.laws:
        law = applied.law
        if markdown:
            lines.append(f"**Law {law.id}. {law.title}** ({law.section})")
            lines.append("")
            lines.append("\n>\n".join(f"> {paragraph}" for paragraph in paragraphs(law.text)))
            lines.append("")
        else:
            lines.append(f"Law {law.id}. {law.title} ({law.section})")
            lines.extend(_quote(law.text, width, "    "))
        said = first_said.setdefault(applied.because, law.id)
        because = applied.because if said == law.id else f"the same facts, as under law {said}."
        lines.extend(wrap(f"Applies: {because}", "  ", "    "))
        lines.append("")
    if decision.remedies:
        lines.append(heading("The choices"))
        for outcome in decision.remedies:
            consult = "partners may consult" if outcome.consult else "partners may not consult (they agree who chooses)"
            who = outcome.chooser
            lines.append(f"Law {outcome.law.id}: {who} may choose ({consult}):" if len(outcome.options) > 1
                         else f"Law {outcome.law.id}: {who} may:")
            if markdown:
                lines.append("")
            for item in outcome.options:
                effect = item.effect
                text = item.option.wording()
                if effect.score_after:
                    text += f" -> {_score_text(effect.score_after)}"
                    if effect.meaning:
                        text += f": {effect.meaning}"
                elif effect.needs:
                    text += f" (to score it, the record needs {effect.needs})"
                lines.extend(wrap(text, "  - ", "    "))
            if markdown:
                lines.append("")
        lines.append("")
    if decision.declarations:
        lines.append(heading("Declared by the laws"))
        for declared in decision.declarations:
            lines.append(("- " if markdown else "") + f"Law {declared.law.id}: {declared.declaration.text}")
        lines.append("")
    if decision.unknown:
        lines.append(heading("Open questions"))
        for open_question in decision.unknown:
            ids = ", ".join(law.id for law in open_question.laws)
            several = len(open_question.laws) > 1
            question = open_question.question[:1].upper() + open_question.question[1:]
            lines.extend(wrap(f"{question} If so, law{'s' if several else ''} {ids} "
                              f"{'apply' if several else 'applies'}; if not, "
                              f"{'none of them' if several else 'it does not'}.",
                              "- " if markdown else "", "  "))
        lines.append("")
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"
