"""Renderers: a replayed hand (and later a ruling) as JSON records, a table for people, or Markdown.

Records are built once (`replay_record`), then printed in each format; the
renderers know nothing of YAML or of how the facts were found.
"""

from __future__ import annotations

from typing import Any

from tabulate import tabulate

from adjudicate.facts import Facts, Irregularity
from adjudicate.table import Table


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
        for number, irregularity in enumerate(facts.irregularities, start=1):
            lines.append(_irregularity_line(number, irregularity))
    else:
        lines.append("no irregularity found")
    for claim in facts.claims:
        against = f" against {claim.against.word}" if claim.against else ""
        timing = " after the cut for the next deal" if claim.after_cut else ""
        lines.append(f"claim: {claim.seat.word} claims {claim.kind}{against} (log entry {claim.entry}){timing}")
    return "\n".join(lines) + "\n"
