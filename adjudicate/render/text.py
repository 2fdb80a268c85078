"""The ruling and the replayed hand as text for people (the JSON records are `ruling.records`).

The renderers only read the decision; they know nothing of YAML or of how the facts were found.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from adjudicate.escape import visible
from adjudicate.play.facts import Claim, Facts, Irregularity
from adjudicate.play.table import Moment, Table
from adjudicate.record.cards import Card, number_word
from adjudicate.ruling.records import marks as record_marks
from adjudicate.record.seats import Side
from adjudicate.ruling.scoring import (DEAL_OR_NOT, SCORE_KINDS, UNWRITTEN, VOIDS_HAND, claimable_words, going_out,
                                       honours_held, order_words, takes_nothing_words)

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision

LATER_CHOICES = frozenset({"suit_if_they_win"})
"""What a law declares open to the choosers later, on a condition not yet met (Long Whist 7: the suit named if the
adversaries do not call the card and win the trick): a choice, said under THE CHOICES after the law's remedy that
is to be decided first, and not again among the declarations."""


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
        if irregularity.get("established") and irregularity.unknown:
            # Law 62 (Euchre; Short Whist 71): a revoke only if he held the suit led, which the record leaves open.
            status = " - established if he held the suit led"
        elif irregularity.get("established"):
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
    marks = record_marks(facts)
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


def trump_words(table: Table) -> str:
    """The trump and how it was made, as a hand record says it: "hearts (ordered up by West)"."""
    trump = table.trump.word if table.trump else "not made"
    making = table.making
    if making and making.maker:
        done = _MADE.get(making.act or "", making.act)
        trump += f" ({done} by {making.maker.word}"
        if making.lone:
            trump += f"; {making.lone.word} plays alone"
        trump += ")"
    return trump


def _heading(table: Table) -> list[str]:
    scenario = table.scenario
    lines = [visible(scenario.path) + (f" - {visible(scenario.title)}" if scenario.title else "")]
    facts = [f"code {scenario.code}", f"dealer {scenario.dealer.word}"]
    if scenario.turned:
        facts.append(f"turned {scenario.turned}")
    facts.append(f"trump {trump_words(table)}")
    lines.append("; ".join(facts))
    if scenario.score:
        lines.append("score before the hand: " + ", ".join(f"{side} {points}" for side, points in scenario.score.items()))
    if scenario.games:
        lines.append("games won in the rubber: " + ", ".join(f"{side} {won}" for side, won in scenario.games.items()))
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
        from tabulate import tabulate  # only the replay's table needs it: `rule` starts without it

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
        lines.append(f"Claim: {claim.describe()}.")
    return lines


# --- the ruling -------------------------------------------------------------------

def _score_text(score: dict | None) -> str | None:
    if score is None:
        return None
    return ", ".join(f"{side} {points}" for side, points in score.items())


_NOUNS = {
    "failed_to_comply": "failure to comply", "called_attention": "remark on the trick",
    "made_after_passing": "bid after passing", "mentioned_suit": "suit mentioned after passing",
    "named_turned_down_suit": "naming of the suit turned down", "changed_named_suit": "change of the suit named",
    "alone_not_single_declaration": "lone hand not declared at once", "alone_not_entitled": "lone hand not allowed",
    "alone_after_exposing": "lone hand after an exposed card", "alone_after_passing": "lone hand after passing",
    "taken_from_too_late": "lone hand taken over too late", "dealer_alone_after_discard": "lone hand after the discard",
    "lone_partner_played": "play by the lone player's partner", "trump_card_discarded": "discard of the turned card",
    "dealer_played_before_discard": "play before the discard", "wrong_number_of_cards": "wrong number of cards",
    "trump_card_left": "trump card left on the table", "trump_card_lifted_early": "trump card lifted early",
    "trump_card_forgotten": "trump card forgotten", "hand_thrown": "hand thrown down",
    "reminded_partner": "reminder to call honours", "omitted_play": "trick not played to",
    "honours_scored_falsely": "false score of honours",
    "two_cards_one_trick": "two cards played to one trick",
}
"""What a remedy is for, as a noun a director says: "for the failure to comply by East"."""


def kind_noun(kind: str) -> str:
    """An irregularity's kind as a noun a director says: "failure to comply", "revoke"."""
    return _NOUNS.get(kind, _kind_words(kind))


def target_words(target: object) -> str | None:
    """What a remedy or a defeat is for, as a director says it: "the revoke by East at trick 1"."""
    if isinstance(target, Irregularity):
        text = f"the {_NOUNS.get(target.kind, _kind_words(target.kind))}"
        if target.seat:
            text += f" by {target.seat.word}"
        if target.trick:
            text += f" at trick {target.trick}"
        return text
    if isinstance(target, Claim):
        against = f" against {target.against.word}" if target.against else ""
        return f"{target.seat.word}'s claim of {target.kind}{against}"
    if isinstance(target, Moment):
        who = f"{target.act.seat.word}'s " if target.act.seat else ""
        return f"{who}\"{target.act.text()}\" (log entry {target.entry})"
    return None


def and_list(items: list[str]) -> str:
    """"a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def defeat_sentence(names: str, several: bool, what: str, scope: str, because: str, by: str, how: str) -> str:
    """Laws defeated alike, in one sentence: "Laws 4, 63 and 64 do not apply to ...: why (law 68 bars them)."
    Its parts come as the renderer shows them (the table's text, or the sheet's escaped Markdown)."""
    laws = f"Law{'s' if several else ''} {names}"
    said = {"law": f"{laws} {'do' if several else 'does'} not apply{scope}",
            "remedies": f"{laws} {'offer' if several else 'offers'} nothing{scope}",
            "rulings": f"{laws} {'declare' if several else 'declares'} nothing{scope}"}[what]
    return f"{said}: {because} (law {by} {how} {'them' if several else 'it'})."


def no_claim_words(chooser: str, law_id: str, target: str | None) -> str:
    """The choice not to claim a penalty due only on a claim (Euchre 63, Short Whist 78, Long Whist 15), behind the
    score it leaves: "NS make no claim of law 72's penalty (for the revoke by East at trick 1)"."""
    one = chooser in ("N", "E", "S", "W")
    return f"{chooser} make{'s' if one else ''} no claim of law {law_id}'s penalty" + (f" (for {target})" if target else "")


def _choice_words(remedy, item, opened: bool) -> str:
    """One choice behind a final score: "NS choose law 72's deduction of 3 points from EW (for ...)"."""
    target = target_words(remedy.target)
    if item.option.kind == "no_claim":
        return no_claim_words(remedy.chooser, remedy.law.id, target)
    text = f"law {remedy.law.id}'s {_option_short(item)}"
    if item.option.kind == "score" and item.to:
        text += f" to {item.to}"
    elif item.option.kind in ("deduct", "forfeit", "take_tricks") and remedy.offender:
        text += f" from {remedy.offender.side}"
    if opened and len(remedy.options) > 1 and remedy.made is None:
        text = f"{remedy.chooser} choose {text}"
    return text + (f" (for {target})" if target else "")


def _said_as_choice(decision: "Decision", declared) -> bool:
    """A declaration of a choice still to come (`LATER_CHOICES`) whose law offers its choosers a remedy now."""
    return declared.declaration.kind in LATER_CHOICES and any(
        remedy.law.id == declared.law.id and remedy.made is None for remedy in decision.remedies)


def later_choices(decision: "Decision", remedy) -> list[str]:
    """The choices a law declares open later to the side choosing its remedy now (`LATER_CHOICES`), each as an
    option of that remedy: "if they do not call the card and win the trick, they may instead ..."."""
    said = []
    for declared in decision.declarations:
        if declared.law.id != remedy.law.id or declared.declaration.kind not in LATER_CHOICES:
            continue
        text = later_choice(visible(declared.declaration.text))
        if text not in said:
            said.append(text)
    return said


def later_choice(text: str) -> str:
    """A choice still to come said as an option of the remedy to be decided first: "if they do not call the card and
    win the trick, they may instead ..." for "If his adversaries do not call the card ..." (Long Whist 7)."""
    return text.strip().rstrip(".").replace("If his adversaries ", "if they ", 1)


def _option_short(item) -> str:
    option = item.option
    points = f"{option.points} point{'' if option.points == 1 else 's'}"
    if option.kind == "score":
        return points
    if option.kind == "deduct":
        return f"deduction of {points}"
    if option.kind == "take_tricks":
        return f"{option.tricks} trick{'' if option.tricks == 1 else 's'}"
    if option.kind == "forfeit":
        return f"forfeit of {points}"
    return option.kind.replace("_", " ")


def _made_of(table: Table, code: str) -> str:
    """What the record shows a Whist hand's points are made of: the tricks each side took, and at Short Whist the
    honours each held (laws 2, 3), where the hand was played out; "" otherwise. (Long Whist's laws in hand give
    honours no value, and the scores leave them out: the honours held are not said beside them.)"""
    complete = [trick for trick in table.tricks if trick.complete and trick.winner is not None]
    if table.game.family != "whist" or len(complete) < table.game.hand_size:
        return ""
    taken = {side: sum(1 for trick in complete if trick.winner is not None and trick.winner.side is side)
             for side in (Side.NS, Side.EW)}
    said = f"Tricks taken: {_score_text(taken)}."
    held = honours_held(table) if code == "short-whist" else None
    if held is not None:
        said += f" Honours held: {_score_text(held)}."
    return said


GAME_LAW = {"euchre": "7", "short-whist": "8"}
"""The law that gives a game's value (Euchre 7; Short Whist 8)."""


def _game_law(code: str) -> str:
    return f" (the game's value by law {GAME_LAW[code]}, from the other side's score)" if code in GAME_LAW else ""


def _score_lines(decision: "Decision", heading, wrap) -> list[str]:
    score = decision.score
    assert score is not None
    lines = [heading("The score")]
    before = _score_text(score.before)
    # No choice's score turns on the score before the hand (a new deal, or the deal standing with the hand still to
    # be played): it is not asked for.
    annulled = bool(score.outcomes) and all(
        o.effect.unchanged or
        (kinds := {item.option.kind for _, item in o.choices}) & set(VOIDS_HAND) and not kinds & set(SCORE_KINDS)
        for o in score.outcomes)
    # Not in the record: a question for the table, put in the table's words (the record's field is in the hint).
    lines.extend(wrap(f"Before the hand: {before}." if before else
                      "Before the hand: not in the record." if annulled else
                      "Before the hand: not in the record; ask the table, since the score after the hand turns on it."))
    cited = ", ".join(law.id for law in score.hand_laws)
    # The cards mixed, or cut for the next deal, once the play began: the hand is over.
    over = next((m for m in decision.table.moments if m.act.verb in ("mix", "cut") and m.phase != "deal"), None)
    if score.hand is not None:
        why = f" (law{'s' if len(score.hand_laws) > 1 else ''} {cited})" if cited else ""
        if score.rules.void:
            lines.extend(wrap("The hand itself: not scored (a law that applies ends it)."))
        else:
            # The hand's points count the honours still claimable as called (Short Whist 6), whether or not the
            # call changes the score after it (law 5 may leave them no score): said, so the two lines agree.
            called = ", with the honours called" if score.claimable and decision.rulebook.code == "short-whist" \
                else ""
            if called and score.before is None:
                # Short Whist 4: "at the score of four" when the deal began, a side cannot score honours. No score
                # after the hand is given, so the hand's points without the call are said here (law 6).
                sides = " and ".join(str(side) for side in score.claimable)
                without = {side: points - (4 if score.claimable.get(side) == 4 else 2 if side in score.claimable
                                           else 0) for side, points in score.hand.items()}
                called = f", with the honours called (if {sides} were not at four when the deal began, law 4); " \
                    f"without the call, {_score_text(without)}"
            lines.extend(wrap(f"The hand itself: {_score_text(score.hand)}{why}{called}."))
            made_of = _made_of(decision.table, decision.rulebook.code)
            if made_of:
                lines.extend(wrap(made_of))
            if score.before is None and not score.claimable and not score.rules.void:
                # What the table's answer decides at once: whether the hand ends the game.
                out = going_out(decision.rulebook.code, decision.table.game, decision.table, score.hand, score.rules)
                if out:
                    lines.extend(wrap("The hand takes " + ", and ".join(
                        f"{side} to game if they were at {' or '.join(number_word(n) for n in points)}"
                        for side, points in out.items()) + " when it began" + _game_law(decision.rulebook.code)
                        + "."))
    elif score.rules.void:
        lines.extend(wrap("The hand itself: not scored (a law that applies ends it)."))
    elif decision.table.tricks:
        lines.extend(wrap("The hand itself: not played out, so its own points are not counted here"
                          + (f" (the cards were {'mixed' if over.act.verb == 'mix' else 'cut'} at log entry "
                             f"{over.entry}, and the hand was over" + ("; the code says nothing of such a hand's "
                                                                       "own points, and this is a reading)."
                                                                       if over.act.verb == "mix" else ").")
                             if over else ".")))
    if score.claimable and score.outcomes and score.hand is not None and not score.in_play and all(
            o.uncalled is not None and o.uncalled.score_after is not None
            and o.uncalled.score_after == o.effect.score_after for o in score.outcomes):
        # Short Whist 5: honours are scored last; where the game is decided before them, their call changes nothing.
        sides = " and ".join(str(side) for side in score.claimable)
        lines.extend(wrap(f"{sides} may still call their honours (law 6), but honours are scored last (law 5) and "
                          "change no score here."))
    else:
        lines.extend(line for item in claimable_words(
            decision.rulebook.code, score.claimable, score.kept_below_game(decision.table.game.game_points)) for line in wrap(item[3]))
    opened = len(score.outcomes) > 1
    for outcome in score.outcomes:
        effect = outcome.effect
        chosen = "; and ".join(_choice_words(remedy, item, opened) for remedy, item in outcome.choices)
        lead = f"{'If' if opened else 'With'} {chosen}: " if chosen else ""
        if effect.score_after is None:
            kinds = {item.option.kind for _, item in outcome.choices}
            if kinds & set(VOIDS_HAND) and not kinds & set(SCORE_KINDS):
                # A new deal annuls the hand and awards nothing: the score stands as it was, whatever it was.
                lines.extend(wrap(f"{lead}the score is unchanged: the new deal scores nothing.",
                                  "- " if opened else "", "  " if opened else ""))
                continue
            if effect.unchanged:
                # The deal stands and the hand is yet to be played (or played on): nothing is scored until it is.
                if lead:
                    lines.extend(wrap(f"{lead}the score is unchanged until the hand is played out.",
                                      "- " if opened else "", "  " if opened else ""))
                continue
            needs = re.sub(r" \(`[^`]*` in the scenario\)", "", effect.needs or "")
            if needs and not lead and score.before is None and needs == "the score before the hand":
                continue  # said above, as a question for the table
            if needs:
                lines.extend(wrap(f"{lead}to give the score after the hand, the record needs {needs}."
                                  if lead else f"To give the score after the hand, the record needs {needs}.",
                                  "- " if opened else "", "  " if opened else ""))
            continue
        result = _score_text(effect.score_after) or ""
        if effect.meaning:
            result += f": {effect.meaning}"
        if effect.takes_nothing_at is not None:
            result += f"; the choice {takes_nothing_words(effect, why=True)}"
        uncalled = outcome.uncalled
        if uncalled is not None and uncalled.score_after is not None and uncalled.score_after != effect.score_after:
            # Short Whist 6: honours still claimable; the score if they are not called.
            result += f"; without the call of honours, {_score_text(uncalled.score_after)}" + (
                f": {uncalled.meaning}" if uncalled.meaning else "")
        if outcome.reading is not None:
            result += f". {outcome.reading.removesuffix('.')}"
        play_out = any(remedy.made is None and any(item.option.kind == "play_out" for item in remedy.options)
                       for remedy in decision.remedies)
        # The hand still in play: its score is "so far", whatever else the record lacks; not where the choice is a
        # new deal, which ends the hand.
        voided = any(item.option.kind in VOIDS_HAND or item.option.kind in ("deal_again",)
                     for _, item in outcome.choices)
        # Honours claimed with no trick in the record: the hand was played, only not written down.
        unwritten = not decision.table.tricks and any(claim.honours_claim for claim in decision.facts.claims)
        pending = "" if effect.meaning or over or voided and not effect.needs else \
            " so far; the hand goes on, and its points are added when it is played out" \
            if score.in_play and (effect.needs or not unwritten) else \
            "" if not effect.needs else \
            " if the hand stops here; if the revoking side requires it played out, its points are added" \
            if play_out else ""
        if unwritten and effect.needs and not score.in_play:
            # The hand over, its play not written down (Long Whist 18): the score as far as the record goes.
            pending = f"; {effect.needs}"
        if chosen:
            lines.extend(wrap(f"{lead}{result}{pending}.", "- " if opened else "", "  " if opened else ""))
        elif any(q.changes and (q.if_so_score is not None or q.otherwise_score is not None)
                 for q in decision.questions or ()):
            # Each answer of an open question gives its own score (Long Whist 18): this one is neither's.
            lines.extend(wrap("After the hand: the score turns on the open question below, and is given under "
                              "each answer."))
        else:
            # No card played and none to be (a deal stopped or lost): there is no hand to score after.
            unplayed = not decision.table.tricks and not score.in_play and score.hand is None \
                and not any(m.phase in ("play", "after") for m in decision.table.moments)
            label = "After the hand, as far as the record goes" if unwritten and effect.needs and not score.in_play \
                else "The score" if pending else "The score stands" if unplayed and not opened else "After the hand"
            if label == "After the hand" and (side := honours_set_up_by(decision)) is not None:
                label += f", before {side}'s honours are added" if side else ", before the honours are added"
            lines.extend(wrap(f"{label}: {result}{pending}."))
    if score.more:
        lines.extend(wrap(f"... and {score.more} more combinations of the choices (see `--format json`)."))
    if score.floor_decides:
        lines.extend(wrap(order_words(decision.rulebook.code)))
    lines.append("")
    return lines


def honours_set_up_by(decision: "Decision") -> str | None:
    """Long Whist 18, "no honours can be set up, unless before claimed": the side ("NS", "EW") whose honours,
    claimed in time, are set up, though the laws in hand do not say what they count; None if none ("" if the
    record does not say whose)."""
    set_up = next((item for item in decision.declarations if item.declaration.kind == "honours_set_up"), None)
    if set_up is None:
        return None
    claims = [m.act.seat for m in decision.table.moments if m.act.verb.startswith("claim") and m.act.seat]
    seat = set_up.offender or (claims[-1] if claims else None)
    return str(seat.side) if seat is not None else ""


def _quote(text: str, width: int, indent: str) -> list[str]:
    import textwrap

    from adjudicate.lawbook.rulebook import paragraphs

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


def _laws_words(laws, verb: str, verbs: str) -> str:
    """"laws 62, 63 and 64 apply", "law 16 applies"."""
    several = len(laws) > 1
    return f"law{'s' if several else ''} {and_list([law.id for law in laws])} {verb if several else verbs}"


def _branch_words(gained, lost) -> str:
    said = []
    if gained:
        said.append(_laws_words(gained, "apply", "applies"))
    if lost:
        said.append(_laws_words(lost, "no longer apply", "no longer applies"))
    return " and ".join(said)


def marked_words(effect, scores=None, first: bool = True, count: bool = True) -> str:
    """Long Whist 18, the points marked for honours not known: the score if two were marked, and if four
    ("if two points were marked, NS 8, EW 3; if four, NS 10, EW 3: NS win the game"), with the tricks where the
    record does not give them; `scores` says a score in words (the short ruling's sides), else as "NS 8, EW 3".
    `first`: said for the first time in the ruling, with the missing tricks, and (`count`) the reading of what
    honours count."""
    said = []
    for points, alternative in effect.by_points:
        if alternative.score_after is None:
            return ""
        result = (scores or _score_text)(alternative.score_after) or ""
        if alternative.meaning:
            result += f": {alternative.meaning}"
        reading = (" (what honours count is not in the laws in hand: read, by Hoyle's Long Whist, as two points for "
                   "three honours and four for four)") if first and count else ""
        said.append(f"if two points were marked for the honours{reading}, {result}" if points == 2
                    else f"if four, {result}")
    if len(said) != 2:
        return ""
    unplayed = first and any(alternative.needs for _, alternative in effect.by_points)
    return "; ".join(said) + ("; to which the tricks each side took above six are to be added (they are not in the "
                              "record)" if unplayed else "")


def _branch_score_words(score, over: bool) -> str:
    """The final scores under one answer of an open question: "if NS choose law 14's 3 points to NS (...), NS 5,
    EW 3; if ...". `over`: the hand is over (the cards mixed or cut), so a score is final, not "so far"."""
    opened = len(score.outcomes) > 1
    said = []
    for outcome in score.outcomes:
        effect = outcome.effect
        result = (_score_text(effect.score_after) or "") if effect.score_after is not None else \
            (marked_words(effect) or f"the record needs {effect.needs}") if effect.needs else "not given"
        if effect.meaning:
            result += f": {effect.meaning}"
        elif effect.score_after is not None and effect.needs and not over:
            result += " so far"
        if effect.takes_nothing_at is not None:
            result += f" ({takes_nothing_words(effect)})"
        if effect.score_after is not None and effect.needs == UNWRITTEN:
            result += f"; {UNWRITTEN}"  # the hand over, its play not written down (Long Whist 18)
        chosen = "; and ".join(_choice_words(remedy, item, opened) for remedy, item in outcome.choices)
        said.append(f"if {chosen}, {result}" if chosen and opened else result)
    if score.more:
        said.append(f"and {score.more} more combinations")
    return "; ".join(said)


def settling_laws(item) -> set[str]:
    """The laws either answer of an open question takes away: they rule only how it is settled (Euchre 66, Short
    Whist 75: the tricks searched at the end of the hand)."""
    return {law.id for law in item.if_so_not} & {law.id for law in item.otherwise_not}


def spent_at_the_end(item) -> set[str]:
    """Where a search at the end of the hand settles the question (Euchre 66, Short Whist 75), the laws an answer
    brings in that only give the right to have the hand played out (Euchre 70, Short Whist 79): by the time the
    search answers, the hand has been played out, and the right is spent."""
    settling = settling_laws(item)
    if not any(law.id in settling and any(ruling.kind == "search_at_the_end" for ruling in law.rulings)
               for law in item.if_so_not):
        return set()
    return {law.id for law in (*item.if_so, *item.otherwise)
            if law.remedies and not law.rulings
            and all(option.kind == "play_out" for remedy in law.remedies for option in remedy.options)}


def _answers_words(item) -> str:
    """What each answer of an open question rules: "If so, laws 62, 63 and 64 apply; if not, none of them."."""
    if not item.changes:
        return "Either answer gives the same ruling."
    # A law that either answer takes away is how the question is settled, not what an answer rules: said first.
    settling, spent = settling_laws(item), spent_at_the_end(item)
    settled = [law for law in item.if_so_not if law.id in settling]
    item = replace(item, if_so=tuple(law for law in item.if_so if law.id not in spent),
                   otherwise=tuple(law for law in item.otherwise if law.id not in spent),
                   if_so_not=tuple(law for law in item.if_so_not if law.id not in settling),
                   otherwise_not=tuple(law for law in item.otherwise_not if law.id not in settling))
    if settled:
        return f"Settled as {_laws_words(settled, 'provide', 'provides')}. {_answers_words(item)}"
    yes, no = _branch_words(item.if_so, item.if_so_not), _branch_words(item.otherwise, item.otherwise_not)
    if yes and not no and not item.if_so_not:
        no = "none of them" if len(item.if_so) > 1 else "it does not"
    elif yes and not no:
        # "If so, law 4 applies and laws 3 and 7 no longer apply; if not, law 4 does not, and laws 3 and 7 stand."
        no = " and ".join(([_laws_words(item.if_so, "do not apply", "does not apply")] if item.if_so else [])
                          + [_laws_words(item.if_so_not, "still apply", "still applies")])
    elif no and not yes and not item.otherwise_not:
        yes = _laws_words(item.otherwise, "do not apply", "does not apply")
        no = "it does" if len(item.otherwise) == 1 else "they do"
    elif no and not yes:
        yes = " and ".join(([_laws_words(item.otherwise, "do not apply", "does not apply")] if item.otherwise
                            else []) + [_laws_words(item.otherwise_not, "still apply", "still applies")])
    together = f" (together with {and_list(list(item.together))})" if item.together else ""
    if yes and yes == no and not item.if_so_not and not item.otherwise_not:
        # The same law either way, ruling differently (Long Whist 18: honours scored against a side that did not
        # hold them, set up for one that did and claimed them in time).
        return f"Either way{together}, {yes}; what {'it rules' if len(item.if_so) == 1 else 'they rule'} turns on the answer."
    if not yes and not no:
        return f"The same laws apply either way{together}, with other choices or another score."
    return f"If so{together}, {yes}; if not, {no}."


def ruling_text(decision: "Decision", width: int = 100, colour: bool = False) -> str:
    """The ruling in full (`rule --explain`): what happened, every law quoted with why it applies, the laws
    that do not apply and why, the choices, the score after each, wrapped to `width` (at most 100) columns
    (the director's short ruling is render/director.py's, the Markdown ruling sheet render/sheet.py's)."""
    import textwrap

    from adjudicate.terminal import BOLD, MAX_WIDTH, RESET

    table, facts, rulebook = decision.table, decision.facts, decision.rulebook
    scenario = table.scenario
    width = max(20, min(width, MAX_WIDTH))

    def wrap(text: str, first: str = "", rest: str = "") -> list[str]:
        return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                             break_long_words=False, break_on_hyphens=False) or [first.rstrip()]

    def heading(text: str) -> str:
        return f"{BOLD}{text.upper()}{RESET}" if colour else text.upper()

    lines = wrap(f"Ruling: {visible(scenario.title or scenario.path)}", "", "  ")
    context = [f"{rulebook.title} ({rulebook.code})", f"dealer {scenario.dealer.word}"]
    if table.trump and table.trump_turned:
        context.append(f"trump {table.trump.word}")
    if scenario.score:
        context.append(f"score before the hand {_score_text(scenario.score)}")
    if scenario.games:
        context.append(f"games won in the rubber {_score_text(scenario.games)}")
    lines.extend(wrap("; ".join(context)))
    if decision.house:
        lines.extend(wrap(f"house rules: {visible(decision.house)}"))
    lines.extend(wrap(f"({visible(scenario.path)})"))
    lines.append("")
    lines.append(heading("What happened"))
    # One fact once, with every law that turns on it ("North, "touch", at log entry 2 (law 45)."): an irregularity
    # is said numbered, a claim on its own line, an act of the log here; a law that turns on no one fact of the log
    # (the hand played out) by its reason.
    numbered = {id(item) for item in facts.irregularities}
    claim_at = {claim.entry: claim for claim in facts.claims}
    by_fact: dict[str, list[str]] = {}
    what_it_is: dict[str, str] = {}
    by_claim: dict[int, list[str]] = {}
    entries: dict[str, int] = {}
    factless: dict[str, list[str]] = {}
    for applied in decision.laws:
        said_of = applied.facts
        if not said_of and applied.because:
            factless.setdefault(visible(applied.because).strip().rstrip("."), []).append(applied.law.id)
        named = {id(moment) for moment in applied.acts}
        for source, sentence in said_of:
            if isinstance(source, Moment) and source.act.verb == "claim" and source.entry in claim_at:
                source = claim_at[source.entry]  # the claim's own act: said as the claim
            if isinstance(source, Claim):
                by_claim.setdefault(id(source), []).append(applied.law.id)
            elif id(source) not in numbered:
                fact = visible(sentence).strip().rstrip(".")
                by_fact.setdefault(fact, []).append(applied.law.id)
                if isinstance(source, Moment):
                    entries[fact] = source.entry
                # What the fact is, as the first law bound to it says ("The deal was a misdeal (law 44)").
                if applied.law.because and id(source) not in named:
                    what_it_is.setdefault(fact, visible(applied.law.because).strip().rstrip("."))

    def laws_of(ids: list[str]) -> str:
        ids = list(dict.fromkeys(ids))
        return f"law{'s' if len(ids) > 1 else ''} {and_list(ids)}"

    told = [_irregularity_line(number, irregularity)
            for number, irregularity in enumerate(facts.irregularities, start=1)]
    ordered = sorted(by_fact, key=lambda fact: entries.get(fact, 0))  # in the order they happened
    acts = " ".join(f"{what_it_is[fact] + ': ' + fact if fact in what_it_is else fact[:1].upper() + fact[1:]} "
                    f"({laws_of(by_fact[fact])})." for fact in ordered)
    if not facts.irregularities:
        # A law that turns on no one act (the hand played out) by its reason, where no irregularity is told.
        acts = " ".join([f"{reason} ({laws_of(ids)})." for reason, ids in factless.items()] + ([acts] if acts else []))
    if acts:
        told.append(acts)
    elif not told:
        told.append("No irregularity.")
    for raised in facts.claims:
        if any(item.entry == raised.entry and item.seat is raised.seat for item in facts.irregularities):
            continue  # the claim is itself the irregularity (Long Whist 18: honours scored not having them)
        claim_laws = by_claim.get(id(raised))
        described = raised.describe()
        if claim_laws:
            described = described.replace(f"(log entry {raised.entry})",
                                          f"(log entry {raised.entry}; {laws_of(claim_laws)})", 1)
        told.append(f"Claim: {described}.")
    for said in told:
        for number, part in enumerate(said.split("\n")):
            indent = "   " if number or part[:1].isdigit() else "  "
            lines.extend(wrap(part.strip(), "   " if number else "", indent))
    lines.append("")
    if decision.answered:
        lines.append(heading("Answered"))
        for qid, question, answer in decision.answered:
            lines.extend(wrap(f"[{qid}] {'yes' if answer else 'no'}: {visible(question[:1].upper() + question[1:])}",
                              "", "  "))
        lines.append("")
    lines.append(heading("The laws"))
    turning = {law.id for pending in decision.unknown for law in pending.laws}
    either = sorted({law.id for q in decision.questions or () for law in q.if_so if law in q.otherwise},
                    key=lambda law: (len(law), law))
    if not decision.laws and either and set(either) >= turning:
        # Long Whist 18: the same law whichever the answer, ruling differently on each: said under the law.
        pass
    elif not decision.laws and turning:
        lines.extend(wrap("No law applies on what the record shows alone; "
                          + ("the one quoted below turns" if len(turning) == 1 else "those quoted below turn")
                          + " on the table's answer."))
        lines.append("")
    elif not decision.laws:
        lines.append("No law of this code applies to what the record shows.")
        lines.append("")
    first_said: dict[str, str] = {}
    for applied in decision.laws:
        law = applied.law
        title = wrap(f"Law {law.id}. {visible(law.title)} ({visible(law.section)})", "", "  ")
        if colour:
            title[0] = title[0].replace(f"Law {law.id}.", f"{BOLD}Law {law.id}.{RESET}", 1)
        lines.extend(title)
        lines.extend(_quote(law.text, width, "    "))
        outside = decision.outside(law.id)
        if outside:
            # Cited because it does not reach the case (DESIGN: "the laws that say a thing is NOT so"): its reason.
            reasons = " ".join(dict.fromkeys(visible(item.declaration.text.strip()) for item in outside))
            lines.extend(wrap(f"Does not reach this case: {reasons}", "  ", "    "))
        else:
            said = first_said.setdefault(applied.because, law.id)
            because = visible(applied.because) if said == law.id else f"the same facts, as under law {said}."
            if law.rulings and all(ruling.kind == "cannot_win_game" for ruling in law.rulings) and not law.remedies \
                    and decision.score is not None and not decision.score.cap_decides:
                # Short Whist 82, Long Whist 11: the limit is said only where it changes a score.
                because += " It changes no score here: no choice open takes the revoking side to game." \
                    if not any(o.freed for o in decision.score.outcomes) else \
                    " It changes no score here: no penalty open takes the revoking side to game."
            lines.extend(wrap(f"Applies: {because}", "  ", "    "))
        # A law that applies but whose rulings or remedies another law sets aside says so here, not again
        # among the laws that do not apply.
        for item in decision.not_applied:
            if item.law.id == law.id and item.defeat.what != "law":
                scope = (" to " + and_list([words for t in item.targets if (words := target_words(t))])) \
                    if item.targets else ""
                sentence = defeat_sentence(law.id, False, item.defeat.what, scope, visible(item.because),
                                           item.by.id, item.defeat.how).replace(f"Law {law.id} ", "But it ", 1)
                lines.extend(wrap(sentence, "  ", "    "))
        lines.append("")
    # A law that decides on an open question's answer is quoted with the laws that apply: the ruling turns on it.
    quoted = {applied.law.id for applied in decision.laws}
    for pending in decision.unknown:
        asked = next((q for q in decision.questions or () if q.question == pending.question), None)
        spent = spent_at_the_end(asked) if asked is not None else set()
        for law in pending.laws:
            if law.id in quoted or law.id in spent:
                continue
            quoted.add(law.id)
            lines.extend(wrap(f"Law {law.id}. {visible(law.title)} ({visible(law.section)})", "", "  "))
            lines.extend(_quote(law.text, width, "    "))
            # An open `not: question` atom is pending as "not (QUESTION)": the question asked is QUESTION.
            asked = next((q for q in decision.questions or ()
                          if pending.question in (q.question, f"not ({q.question})")), None)
            bare = asked.question if asked is not None else pending.question
            question_text = visible(bare[:1].upper() + bare[1:])
            # A law that a no brings in (Long Whist 16: were they at the point of eight?) applies if not.
            polarity = "not" if asked is not None and law in asked.otherwise and law not in asked.if_so else "so"
            if asked is not None and law in asked.otherwise and law in asked.if_so:
                lines.extend(wrap(f"Applies whichever the answer, ruling on it: {question_text}", "  ", "    "))
            else:
                lines.extend(wrap(f"Applies if {polarity}: {question_text}", "  ", "    "))
            lines.append("")
    cited = {applied.law.id for applied in decision.laws}
    elsewhere = [item for item in decision.not_applied if item.law.id not in cited or item.defeat.what == "law"]
    if elsewhere:
        lines.append(heading("Laws that do not apply"))
        grouped: dict[tuple, list] = {}
        for item in elsewhere:
            key = (item.by.id, item.defeat.how, item.defeat.what, item.because, tuple(map(id, item.targets)))
            grouped.setdefault(key, []).append(item)
        for (by, how, what, because, _), defeated in grouped.items():
            targets = defeated[0].targets
            several = len(defeated) > 1
            names = and_list([f"{entry.law.id} ({visible(entry.law.title)})" for entry in defeated])
            scope = ""
            if targets:
                scope = " to " + and_list([words for t in targets if (words := target_words(t))])
            lines.extend(wrap(defeat_sentence(names, several, what, scope, visible(because), by, how), "", "  "))
        lines.append("")
    if decision.remedies:
        lines.append(heading("The choices"))
        irregular = {(item.entry, item.seat) for item in decision.facts.irregularities}
        # An election that does not bear on the score and is offered alike for several offences of one side (Euchre
        # 70: the hand played out, once for the hand) is said once, for all of them.
        alike: dict[tuple, list] = {}
        for outcome in decision.remedies:
            if isinstance(outcome.target, Moment) and outcome.made is None \
                    and (outcome.target.entry, outcome.target.act.seat) in irregular \
                    and any(other is not outcome and other.law.id == outcome.law.id and other.chooser == outcome.chooser
                            and isinstance(other.target, Irregularity) and other.options == outcome.options
                            for other in decision.remedies):
                continue  # the act that is the irregularity: its remedy is said once, for the irregularity
            group_key: tuple = (outcome.law.id, outcome.chooser, tuple(o.option.kind for o in outcome.options)) \
                if outcome.made is None and not outcome.scores and not outcome.mandatory else (id(outcome),)
            alike.setdefault(group_key, []).append(outcome)
        for group in alike.values():
            outcome = group[0]
            target = and_list([words for item in group if (words := target_words(item.target))])
            head = f"Law {outcome.law.id}" + (f", for {target}" if target else "")
            who = outcome.chooser
            if outcome.made is not None:
                lines.extend(wrap(f"{head}: {who} chose, at log entry {outcome.made_entry}: "
                                  f"{outcome.made.option.wording()}. The choice is made"
                                  # Short Whist 84, Euchre 85: "such decision is final": said where there was a
                                  # choice between penalties, not of the one penalty the law gives.
                                  + (" and final." if len(outcome.options) > 1 else "."),
                                  "", "  "))
                continue
            if outcome.mandatory:
                lines.extend(wrap(f"{head}: applied, the law leaving no choice:", "", "  "))
            elif len(outcome.options) > 1:
                # One player who chooses alone (a seat, or the lone player, Euchre 101) has no partner to consult.
                alone = who in ("N", "E", "S", "W") or table.lone is not None and who == str(table.lone.side)
                # A new deal claimed or not, on which consulting is not barred: nothing to say of it.
                deal_or_not = outcome.consult and {item.option.kind for item in outcome.options} == DEAL_OR_NOT
                consult = "" if alone or deal_or_not or outcome.consult is None else " (partners may consult)" if outcome.consult else \
                    " (partners may not consult: they agree who chooses)"
                # Short Whist 72 I: "at the end of the hand"; the hand still in play goes on first.
                end = " at the end of the hand" if outcome.remedy.at_end and decision.score is not None \
                    and decision.score.in_play else ""
                # Short Whist 78: no claim stands; the penalty is theirs only on a claim made before the cut.
                claim = next((f", once they claim it (law {item.law.id})" for item in decision.declarations
                              if item.declaration.kind == "claim_still_open"), "") if outcome.scores else ""
                lines.extend(wrap(f"{head}: {who} may choose one{end}{claim}{consult}:", "", "  "))
            else:
                lines.extend(wrap(f"{head}: {who} may:", "", "  "))
            for offered in outcome.options:
                lines.extend(wrap(offered.option.wording(), "  - ", "    "))
            if outcome.made is None:
                for later in later_choices(decision, outcome):
                    lines.extend(wrap(later, "  - ", "    "))
        lines.append("")
    score = decision.score
    if score is not None and (score.hand is not None or score.before is not None
                              or any(outcome.choices for outcome in score.outcomes)):
        lines.extend(_score_lines(decision, heading, wrap))
    if any(not decision.outside(declared.law.id) for declared in decision.declarations):
        lines.append(heading("Declared by the laws"))
        # Each law's text once: for both sides where it is said of each ("(NS, EW)"), and not where the same
        # law says it again inside a longer declaration.
        declared_by: dict[tuple[str, str], list[str]] = {}
        for declared in decision.declarations:
            if decision.outside(declared.law.id):
                continue  # said under the law, as why it does not reach the case
            if _said_as_choice(decision, declared):
                continue  # said under THE CHOICES
            text = declared.declaration.text.strip()
            if declared.declaration.kind == "one_lawful_card":
                # Euchre 55: the one card the player called on may lawfully play, named as in the short ruling.
                only = next((match.binding.get("only_card") for applied in decision.laws
                             if applied.law.id == declared.law.id for match in applied.matches
                             if isinstance(match.binding, Irregularity)
                             and isinstance(match.binding.get("only_card"), Card)), None)
                if isinstance(only, Card):
                    text = text.replace("he plays that card", f"he plays the {only.name}")
            sides = declared_by.setdefault((declared.law.id, text), [])
            side = str(declared.offender.side) if declared.offender is not None else ""
            if side not in sides:
                sides.append(side)
        for (law_id, text), sides in declared_by.items():
            if any(other_id == law_id and other != text and text.rstrip(".") in other
                   for other_id, other in declared_by):
                continue
            whose = ", ".join(sorted(side for side in sides if side))
            lines.extend(wrap(f"Law {law_id}{f' ({whose})' if whose else ''}: {text}", "", "  "))
        lines.append("")
    if decision.context:
        ids = ", ".join(applied.law.id for applied in decision.context)
        lines.extend(wrap(f"(Not cited: law{'s' if len(decision.context) > 1 else ''} {ids} only describe"
                          f"{'' if len(decision.context) > 1 else 's'} lawful acts that happened.)"))
        lines.append("")
    if decision.unknown:
        lines.append(heading("Open questions"))
        for asked in decision.questions or ():
            question = visible(asked.question[:1].upper() + asked.question[1:])
            lines.extend(wrap(f"[{asked.id}] {question} {_answers_words(asked)}", "", "  "))
            unplayed_said = False
            marked_said = False
            for said, branch in (("so", asked.if_so_score), ("not", asked.otherwise_score)):
                marked = branch is not None and len(branch.outcomes) == 1 \
                    and marked_words(branch.outcomes[0].effect, first=not marked_said)
                if marked:
                    # Long Whist 18: the points marked for honours not known, nor (it may be) the tricks: the score
                    # as far as the record goes, for two points and for four.
                    lines.extend(wrap(f"If {said}, the score after the hand as far as the record goes: {marked}.",
                                      "  ", "    "))
                    marked_said = True
                elif branch is not None:
                    ended = any(m.act.verb in ("mix", "cut") and m.phase != "deal" for m in table.moments)
                    # The hand's play not written down (Long Whist 18, claimed at its end): only the score
                    # before it is known, under either answer; why is said once.
                    unplayed = branch.in_play and branch.hand is None and not table.tricks
                    why = "" if unplayed_said else " (its tricks are not in the record)"
                    what = "the score before the hand" + why if unplayed else "the score"
                    unplayed_said = unplayed_said or unplayed
                    lines.extend(wrap(f"If {said}, {what}: {_branch_score_words(branch, ended)}.", "  ", "    "))
        lines.extend(wrap("(Answer them with --answer ID=yes or ID=no, or rule with --ask to be asked.)"))
        lines.append("")
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"
