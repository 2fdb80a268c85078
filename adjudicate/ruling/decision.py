"""The decision: from the laws whose conditions hold to a ruling that holds together.

The matcher says which laws' conditions the hand meets. A director does more:
a law that applies may defeat another (a claim too late bars the penalty, equal
revokes cancel, a consultation forfeits the right: `defeats.py`), so the other
is named as not applied and why; a law that only describes a lawful act is
context, not the ruling; each penalty says what it is for (which revoke, which
lead), repeated offences each give their own, a choice already made in the log
is shown as made and not offered again, and the hand is scored once, with one
final score for each combination of the choices still open (`scoring.py`).
"""

from __future__ import annotations

import re
from itertools import combinations_with_replacement, islice
from math import comb, prod

from msgspec import Struct
from msgspec.structs import replace

from adjudicate.lawbook.conditions import FactIndex, evaluate
from adjudicate.lawbook.defeats import Defeat
from adjudicate.play.facts import Claim, Facts, Irregularity, honours_claimants, settle
from adjudicate.ruling.matcher import AppliedLaw, OpenQuestion, bindings, holds, match, offender_of
from adjudicate.ruling.questions import Asked, question_texts
from adjudicate.lawbook.remedies import CHOOSERS, Declaration, Option, Remedy
from adjudicate.lawbook.rulebook import Law, Rulebook
from adjudicate.ruling.scoring import (ORDER_LAW, SCORE_KINDS, VOIDS_HAND, Effect, HandRules, Penalty, Rubber,
                                      claimable_honours, final_score, hand_score, honours_held, tricks_taken)
from adjudicate.errors import Pos
from adjudicate.record.seats import Seat, Side
from adjudicate.play.table import Moment, Table

CONSULT_BY_DEFAULT: dict[str, bool | None] = {"euchre": False, "short-whist": False, "long-whist": None}
"""May partners consult before choosing between penalties, where a law does not say (Euchre 85, Short Whist 84);
None where the code has no general law on it (Long Whist: only laws 16, 19 and 20 say "may consult"), and the
ruling says nothing of consulting."""
_SIDED = ("cannot_win_game", "no_hand_points", "honours_not_scored", "honours_scored_against", "honours_game",
          "honours_set_up_uncounted")
"""Rulings about the offender's side: kept once per offender, since the score reads whose side."""
_CLAIMANTS = ("honours_not_scored", "honours_scored_against", "honours_set_up_uncounted")
"""Rulings about the side that claimed (Short Whist 4: claimants at four cannot score honours)."""
_HAND_KINDS = ("no_hand_points", "lone_scores_two", "hand_ends", "hands_abandoned", "honours_not_scored",
               "new_deal_same_dealer", "makers_euchred", "makers_score")
"""Rulings that change the hand's own points: their laws are cited with the hand's score."""
NEW_HAND = frozenset({"new_deal", "new_deal_same_dealer", "misdeal", "deal_lost", "hand_ends", "hands_abandoned",
                      "dealt_wrong_new_deal", "may_deal_again", "fresh_cut", "deal_stopped",
                      "deal_stopped_not_his"})
"""Rulings after which this hand is not played on: the cards are dealt again, or the hand is over (a deal out of
turn stopped is dealt by the player whose deal it is)."""
_SAME_DEALER = frozenset({"new_deal", "new_deal_same_dealer", "misdeal", "may_deal_again", "fresh_cut",
                          "deal_stopped", "dealt_wrong_new_deal"})
"""Rulings of a new deal that, unless the deal is also declared lost, the same dealer makes (Short Whist note 11:
"the same dealer must deal again"; Euchre 33: "a new deal by the same dealer")."""
OUTSIDE = frozenset({"no_revoke", "partner_had_played", "named_not_exposed", "named_not_detached",
                     "trump_card_not_taken_up", "not_the_dealer", "no_misdeal", "pack_not_proved_imperfect",
                     "reminded_before_turn_up", "mixed_by_claimants", "called_at_eight",
                     "called_before_playing", "dealt_wrong_new_deal", "revoke_never_established",
                     "claim_withdrawn_before_mix"})
"""Rulings that say the law does NOT reach the case: it is cited because its condition, as the law words it,
fails (Short Whist 86: the card named not "prior to his partner playing"; Euchre 62: no card of the suit led
held; Long Whist 17: the partner reminded before the trump card was turned up). A law whose only rulings here
are these, offering nothing, decides by not reaching the case (`Decision.outside`). A time limit that was met
is not among them: the limit is what decides (Short Whist 78: the claim came before the cut, so it is in time),
and the law applies."""
_DEALT_AGAIN = re.compile(r"same dealer|deals again|dealt again")
ENDS_OPTIONS = frozenset({"new_deal", "deal_again"})
"""Options that, taken, end this hand for a new deal by the same dealer."""
MAX_OUTCOMES = 64
"""Combinations of open choices scored one by one; past this the ruling says how many more there are."""


class NotApplied(Struct, frozen=True):
    """A law (or its remedies, or rulings) whose condition holds, defeated by another law that applies."""

    law: Law
    by: Law
    defeat: Defeat
    targets: tuple[object, ...] = ()
    """What of the defeated law's application is defeated (each revoke cancelled); empty: all of it."""

    @property
    def because(self) -> str:
        return self.defeat.because


NO_CLAIM = Option("no_claim", None, None, None, None, Pos("<law>", 0, 0))
"""The claimants' other course where a penalty is due only on a claim (Euchre 63, Short Whist 78, Long Whist 15):
not to claim it."""


class OptionOutcome(Struct, frozen=True):
    """An option offered, and to whom its points or tricks go."""

    option: Option
    to: Side | None


class RemedyOutcome(Struct, frozen=True):
    law: Law
    remedy: Remedy
    chooser: str
    """A side ("NS") or a seat ("E"), or the role's words when the record does not say who."""
    chooser_side: Side | None
    consult: bool | None
    """May partners consult before choosing; None where the code says nothing of it."""
    offender: Seat | None
    options: tuple[OptionOutcome, ...]
    target: object | None = None
    """What it is for: the irregularity, claim or act the law applies to."""
    made: OptionOutcome | None = None
    """The option chosen in the log (a card called, a new deal elected): final, not offered again."""
    made_entry: int | None = None
    honours: bool = False
    """Its points are the honours a side marked (Long Whist 18), scored with the hand's honours after its tricks
    (`HandRules.honours_points`), not first as a penalty."""

    @property
    def mandatory(self) -> bool:
        """The law leaves no choice: its option is applied, not offered (Euchre 90 "forfeits two"); a penalty that
        "may be claimed" (Euchre 63) only once the record shows the claim."""
        return self.remedy.mandatory and not self.unclaimed

    @property
    def unclaimed(self) -> bool:
        """A penalty due only on a claim (Euchre 63, Short Whist 78, Long Whist 15: `claim: true`) whose offence the
        record does not show claimed: the claimants may still claim it, until a law bars the claim (Euchre 68, Short
        Whist 78, Long Whist 15: the cut for the next deal)."""
        return self.remedy.claim and isinstance(self.target, Irregularity) \
            and self.target.details.get("claimed") is False

    @property
    def scores(self) -> bool:
        """The choice bears on the score (points, tricks, or a new deal that annuls the hand)."""
        return any(item.option.kind in SCORE_KINDS or item.option.kind in VOIDS_HAND for item in self.options)


class DeclarationOutcome(Struct, frozen=True):
    law: Law
    declaration: Declaration
    offender: Seat | None = None
    """Whose side a ruling about a side is about (for a claim, the claimant's)."""


class Outcome(Struct, frozen=True):
    """One combination of the open choices, and the score it leaves."""

    choices: tuple[tuple[RemedyOutcome, OptionOutcome], ...]
    effect: Effect
    uncalled: Effect | None = None
    """At Short Whist, where a side may still call its honours (law 6): the score if they are not called, `effect`
    being the score if they are (law 3), scored last (law 5). None where no honours are claimable."""
    freed: frozenset[Side] = frozenset()
    """Sides kept below game (Short Whist 82, Long Whist 11) against whom no penalty is claimed here, where that
    limit, read as going with a penalty enforced, would have changed this score: it is not applied to them."""
    reading: str | None = None
    """The stated reading this score rests on, where the law leaves it open (`freed`: the limit to game with no
    claim), in the record's terms ("NS", "EW")."""


class Score(Struct, frozen=True):
    before: dict[Side, int] | None
    hand: dict[Side, int] | None
    """The hand's own points, counted once (None when it was not played out)."""
    hand_laws: tuple[Law, ...]
    """The laws that give the hand's points (Euchre 2 or 3, Short Whist 2 ...)."""
    rules: HandRules
    outcomes: tuple[Outcome, ...]
    more: int = 0
    """Combinations not scored one by one (past MAX_OUTCOMES)."""
    claimable: dict[Side, int] = {}
    """Sides holding three or four honours, per the hands, who have not claimed them and still may (Short Whist
    6, Long Whist 18), with how many: at Short Whist the scores count them (law 3) as the side's right; at Long
    Whist, whose code gives no value, the right is stated and nothing counted."""
    in_play: bool = False
    """The hand is still in play: not played out, not voided or ended, no new deal declared or taken, the cards
    not mixed or cut for the next deal, and cards still to be played. Its scores are the score so far (the
    penalties already due); the hand is played on and scored at its end."""
    next_dealer: Seat | None = None
    """Who deals next once the hand is over: the same dealer where the laws order a new deal that does not lose
    the deal (Short Whist note 11, Euchre 33), the player on his left where the deal is lost or the hand ends;
    None while the hand is in play or an open choice decides it."""
    cap_decides: bool = True
    """Some final score is kept below game by a `cannot_win_game` ruling, or may be (the hand not played out, the
    score not given): where none is, that ruling decides nothing and is not declared."""
    floor_decides: bool = False
    """Some final score turns on the order of scoring: a deduction takes down more than the side then has, and
    stops at nought (`final_score`: the penalties in turn, before the hand's points), so the ruling says the order."""


    def kept_below_game(self, game_points: int) -> frozenset[Side]:
        """Sides kept one short of game by a `cannot_win_game` ruling whatever is chosen (Long Whist 11: "if up,
        must remain at nine"): every score after the hand is given and has them there."""
        if self.more or not self.outcomes:
            return frozenset()
        return frozenset(side for side in self.rules.capped
                         if all(o.effect.score_after is not None and not o.effect.needs
                                and o.effect.score_after.get(side) == game_points - 1 for o in self.outcomes))


class Decision(Struct, frozen=True):
    """The ruling on a hand."""

    rulebook: Rulebook
    table: Table
    facts: Facts
    laws: tuple[AppliedLaw, ...]
    """The laws that decide the dispute."""
    remedies: tuple[RemedyOutcome, ...]
    declarations: tuple[DeclarationOutcome, ...]
    unknown: tuple[OpenQuestion, ...]
    house: str | None = None
    not_applied: tuple[NotApplied, ...] = ()
    context: tuple[AppliedLaw, ...] = ()
    """Laws that only describe a lawful act that happened (the second hand assisted)."""
    score: Score | None = None
    answered: tuple[tuple[str, str, bool], ...] = ()
    """The questions the table answered, as (id, question, answer): settled as if the record had said so."""
    unsettled: Facts | None = None
    """The facts as the record gives them, before the answers (`facts` is as answered); None with no answers."""
    questions: tuple[Asked, ...] | None = None
    """The open questions, each with what yes and no would rule (`branches.with_questions`); None where they
    were not worked out (a branch weighed for another question, `check`, which prints no ruling)."""

    @property
    def answers(self) -> dict[str, bool]:
        """The answers given, by question id."""
        return {qid: answer for qid, _, answer in self.answered}

    @property
    def law_ids(self) -> list[str]:
        return [applied.law.id for applied in self.laws]

    def outside(self, law_id: str) -> tuple[DeclarationOutcome, ...]:
        """The rulings by which law `law_id` decides by not reaching the case (`OUTSIDE`); empty where it reaches
        it: it offers a remedy, or declares anything else."""
        mine = tuple(item for item in self.declarations if item.law.id == law_id)
        if not mine or any(item.declaration.kind not in OUTSIDE for item in mine) \
                or any(remedy.law.id == law_id for remedy in self.remedies):
            return ()
        return mine


# --- defeats ------------------------------------------------------------------------

def _same(defeat: Defeat, target: object, attackers: list[object | None], hand: FactIndex | None = None) -> bool:
    """Does the defeat reach this thing the defeated law applies to? (`hand`: the hand's facts, where the
    irregularities in it are asked.)"""
    if defeat.same is None:
        return True
    victim = offender_of(target)
    if defeat.same == "latest":
        # Short Whist 84, Euchre 85: partners who consult lose the penalty they consulted on, that of the other
        # side's latest offence before the consultation; a later, separate offence gives a fresh choice.
        offences = _offences(hand) if hand is not None else ()
        for attacker in attackers:
            seat = offender_of(attacker)
            entry = getattr(attacker, "entry", None)
            if seat is None or entry is None:
                continue
            before = [item for item in offences if item.entry < entry and item.seat is not None
                      and item.seat.side is seat.side.other]
            if before and max(before, key=lambda item: item.entry) is target:
                return True
        return False
    for attacker in attackers:
        if defeat.same == "irregularity":
            if attacker is target:
                return True
            continue
        seat = offender_of(attacker)
        if seat is None or victim is None:
            return True
        if defeat.same == "offender" and seat is victim or defeat.same == "side" and seat.side is victim.side \
                or defeat.same == "adversaries" and seat.side is victim.side.other:
            return True
    return False


def _offences(hand: FactIndex) -> tuple[Irregularity, ...]:
    """The irregularities of the hand, each once."""
    return tuple({id(fact.source): fact.source for fact in hand if isinstance(fact.source, Irregularity)}.values())


def _paired(targets: list[object]) -> list[object]:
    """Euchre 71: an equal number on each side cancel; the earliest of each side go first."""
    by_side: dict[Side | None, list[object]] = {}
    for target in targets:
        seat = offender_of(target)
        by_side.setdefault(seat.side if seat else None, []).append(target)
    pairs = min(len(by_side.get(Side.NS, ())), len(by_side.get(Side.EW, ())))
    cancelled = {id(target) for target in (*by_side.get(Side.NS, [])[:pairs], *by_side.get(Side.EW, [])[:pairs])}
    return [target for target in targets if id(target) in cancelled]


def _apply_defeats(applied: list[AppliedLaw], hand: FactIndex, pending: dict[str, AppliedLaw],
                   defeaters: tuple[Law, ...]) -> tuple[
        dict[str, AppliedLaw], list[NotApplied], dict[str, set[int]], dict[str, set[str]]]:
    """Which laws stand, what of them is defeated, and by what: defeaters first (a defeated law defeats nothing).

    A law that would apply only if an open fact is so, and that a law which applies defeats, is not applied
    whatever the answer: its question is not asked (`pending` loses it)."""
    standing = {item.law.id: item for item in applied}
    not_applied: list[NotApplied] = []
    lost_targets: dict[str, set[int]] = {}  # law id -> ids of bindings whose remedies are gone
    lost_parts: dict[str, set[str]] = {}    # law id -> "remedies" / "rulings" wholly gone
    for law in defeaters:
        attacker = standing.get(law.id)
        if attacker is None:
            continue
        for defeat in law.defeats:
            victim = standing.get(defeat.law)
            open_victim = pending.get(defeat.law) if victim is None and defeat.what == "law" else None
            if victim is None and open_victim is None:
                continue
            if defeat.when is not None:
                found = [m for m in evaluate(defeat.when, hand) if m.certain]
                if not found:
                    continue
                attackers = bindings(found)
            else:
                attackers = bindings(attacker.matches)
            if open_victim is not None:
                if defeat.same is None or any(_same(defeat, t, attackers, hand)
                                              for t in bindings(open_victim.matches)):
                    del pending[defeat.law]
                    not_applied.append(NotApplied(open_victim.law, law, defeat))
                continue
            assert victim is not None
            targets = [t for t in bindings(victim.matches) if t is not None]
            reached = [t for t in targets if _same(defeat, t, attackers, hand)]
            if defeat.pairs:
                reached = _paired(reached)
            if defeat.same is not None or defeat.pairs:
                if not reached:
                    continue
                whole = len(reached) == len(targets)
            else:
                whole = True
            if defeat.what == "law" and whole:
                del standing[defeat.law]
                not_applied.append(NotApplied(victim.law, law, defeat))
            elif defeat.what == "law":
                gone = {id(t) for t in reached}
                left = tuple(m for m in victim.matches if id(m.binding) not in gone)
                standing[defeat.law] = replace(victim, matches=left)
                not_applied.append(NotApplied(victim.law, law, defeat, tuple(reached)))
            elif whole:
                lost_parts.setdefault(defeat.law, set()).add(defeat.what)
                not_applied.append(NotApplied(victim.law, law, defeat))
            else:
                lost_targets.setdefault(f"{defeat.law}:{defeat.what}", set()).update(id(t) for t in reached)
                not_applied.append(NotApplied(victim.law, law, defeat, tuple(reached)))
    return standing, not_applied, lost_targets, lost_parts


# --- the decision ---------------------------------------------------------------------

def decide(rulebook: Rulebook, table: Table, facts: Facts, house: str | None = None,
           answers: dict[str, bool] | None = None) -> Decision:
    """The ruling: the laws that apply, those defeated, the choices, and the score after each.

    `answers` (question id -> yes or no) settles open questions as if the record had said so: the
    irregularities they hang on (`facts.settle`) and the rulebook's `question:`s (`questions.rulebook_ids`).
    """
    answered: tuple[tuple[str, str, bool], ...] = ()
    unsettled = None
    texts: dict[str, bool] = {}
    if answers:
        known = question_texts(rulebook, facts)
        answered = tuple((qid, known[qid], answer) for qid, answer in sorted(answers.items()) if qid in known)
        texts = {known[qid]: answer for qid, answer in answers.items() if qid in known}
        unsettled, facts = facts, settle(facts, answers)
    matched = match(rulebook, table, facts, texts)
    hand = matched.hand
    pending = dict(matched.pending)
    standing, not_applied, lost_targets, lost_parts = _apply_defeats(list(matched.laws), hand, pending,
                                                                     matched.defeaters)
    # A question is asked only where some answer changes the ruling: a law that, holding, would offer nothing,
    # declare nothing and defeat nothing (Euchre 22: "the pack must neither be shuffled below the table ...")
    # changes nothing, so whether it holds is not asked.
    for law_id in [law_id for law_id, item in pending.items() if _idle(item.law)]:
        del pending[law_id]
    unknown: tuple[OpenQuestion, ...] = ()
    if matched.unknown:
        unknown = tuple(question for question in (
            OpenQuestion(item.question, tuple(law for law in item.laws if law.id in pending), item.parts)
            for item in matched.unknown)
            if question.laws)
    applied = [standing[item.law.id] for item in matched.laws if item.law.id in standing]
    declarations: list[DeclarationOutcome] = []
    for item in applied:
        if "rulings" in lost_parts.get(item.law.id, ()) or item.law.context:
            continue
        # A ruling's `when` is about the hand, not about what the law is bound to: asked once for the law.
        if not item.law.rulings:
            continue
        holding = [declaration for declaration in item.law.rulings
                   if declaration.when is None or holds(declaration.when, hand)]
        if not holding:
            continue
        gone = lost_targets.get(f"{item.law.id}:rulings", set())
        for binding in bindings(item.matches):
            if binding is not None and id(binding) in gone:
                continue
            for declaration in holding:
                # One ruling once, unless it is about a side (who cannot win the game).
                offender = None
                if declaration.kind in _SIDED:
                    offender = binding.seat if isinstance(binding, Claim) and declaration.kind in _CLAIMANTS \
                        else offender_of(binding)
                if not any(d.law is item.law and d.declaration is declaration and d.offender == offender
                           for d in declarations):
                    declarations.append(DeclarationOutcome(item.law, declaration, offender))
    rules = _hand_rules(declarations, table, facts)
    remedies: list[RemedyOutcome] = []
    measured: list[OpenQuestion] = []
    for item in applied:
        if "remedies" in lost_parts.get(item.law.id, ()):
            continue
        gone = lost_targets.get(f"{item.law.id}:remedies", set())
        for binding in bindings(item.matches):
            if binding is not None and id(binding) in gone:
                continue
            offender = offender_of(binding)
            for remedy in item.law.remedies:
                if remedy.when is not None and not holds_for(remedy.when, hand, binding):
                    continue
                outcome = _remedy(rulebook, table, item.law, remedy, offender, binding, hand)
                if outcome.options:
                    remedies.append(outcome)
                elif remedy.mandatory:
                    # A penalty the law gives, whose measure turns on an open fact (Long Whist 18: the points the
                    # side marked for honours): the question is asked, the law applying whichever the answer.
                    for option in remedy.options:
                        for found in evaluate(option.when, hand) if option.when is not None else ():
                            if found.questions and not any(q.question == "; and ".join(found.questions)
                                                           for q in measured):
                                measured.append(OpenQuestion("; and ".join(found.questions), (item.law,),
                                                             found.questions))
    unknown += tuple(question for question in measured if all(q.question != question.question for q in unknown))
    # Long Whist 18: the points marked for honours, once the table says how many, are scored by the law's penalty
    # (to the adversaries of a side that did not hold them; to the claimants whose honours are set up); the score
    # needs them only while they are not known.
    # They are scored with the honours, after the tricks (as Short Whist 5 orders them), not first as a penalty.
    honours_points: dict[Side, int] = {}
    marked: set[Side] = set()
    remedy_honours: set[int] = set()
    for taken in remedies:
        if not taken.mandatory or taken.chooser_side is None or len(taken.options) != 1 \
                or taken.options[0].option.kind != "score":
            continue
        for kind in ("honours_scored_against", "honours_set_up_uncounted"):
            if any(item.law is taken.law and item.declaration.kind == kind for item in declarations):
                marked.add(taken.chooser_side.other if kind == "honours_scored_against" else taken.chooser_side)
                honours_points[taken.chooser_side] = honours_points.get(taken.chooser_side, 0) \
                    + (taken.options[0].option.points or 0)
                remedy_honours.add(id(taken))
    rules = replace(rules, honours_against=rules.honours_against - marked,
                    honours_uncounted=rules.honours_uncounted - marked, honours_points=honours_points)
    laws = tuple(item for item in applied if not item.law.context)
    context = tuple(item for item in applied if item.law.context)
    if remedy_honours:
        remedies = [replace(remedy, honours=True) if id(remedy) in remedy_honours else remedy for remedy in remedies]
    score = _score(rulebook, table, applied, remedies, declarations, rules)
    if not score.cap_decides:
        # "if up, must remain at nine" (Long Whist 11; Short Whist 82): said only where it changes a score.
        declarations = [item for item in declarations if item.declaration.kind != "cannot_win_game"]
    return Decision(rulebook, table, facts, laws, tuple(remedies), tuple(declarations), unknown, house,
                    tuple(not_applied), context, score, answered, unsettled)


def _idle(law: Law) -> bool:
    """The law, if it held, would change no ruling: no remedy, no ruling, no defeat, or only context."""
    return law.context or not (law.remedies or law.rulings or law.defeats)


def holds_for(condition, hand: FactIndex, binding: object | None) -> bool:
    """The condition holds for this thing the law applies to: a match bound to another irregularity of the same
    kind does not count (Euchre 46's call is for the exposed card, not for a card dropped below the table)."""
    for found in evaluate(condition, hand):
        if not found.certain:
            continue
        other = found.binding
        if other is binding or other is None or binding is None or not isinstance(other, Irregularity) \
                or not isinstance(binding, Irregularity) or other.kind != binding.kind:
            return True
    return False


def _hand_rules(declarations: list[DeclarationOutcome], table: Table, facts: Facts) -> HandRules:
    capped: set[Side] = set()
    no_points: set[Side] = set()
    no_honours: set[Side] = set()
    against: set[Side] = set()
    game: set[Side] = set()
    uncounted: set[Side] = set()
    void = abandoned = False
    lone_march = None
    for item in declarations:
        declaration = item.declaration
        offenders = item.offender.side if item.offender else None
        side = offenders.other if declaration.side == "adversaries" and offenders else offenders
        if declaration.kind == "cannot_win_game" and side is not None:
            capped.add(side)
        elif declaration.kind == "no_hand_points" and side is not None:
            no_points.add(side)
        elif declaration.kind in ("hand_ends", "new_deal_same_dealer"):  # a new deal annuls the hand (Euchre 33)
            void = True
        elif declaration.kind == "lone_scores_two":
            lone_march = 2
        elif declaration.kind == "hands_abandoned":
            abandoned = True
        elif declaration.kind == "honours_not_scored" and side is not None:
            no_honours.add(side)
        elif declaration.kind == "honours_scored_against" and side is not None:
            against.add(side)
        elif declaration.kind == "honours_game" and side is not None:
            game.add(side)
        elif declaration.kind == "honours_set_up_uncounted" and side is not None:
            uncounted.add(side)
    claimed = honours_claimants(table, facts.claims)
    return HandRules(frozenset(capped), void, frozenset(no_points), lone_march, abandoned, frozenset(no_honours),
                     claimed, frozenset(against), honours_game=frozenset(game), honours_uncounted=frozenset(uncounted),
                     honours=honours_held(table) or {})


def _chooser(role: str, table: Table, offender: Seat | None, binding: object | None) -> tuple[str, Side | None]:
    """Who chooses: a side or a seat where the record says, else the role in words."""
    making = table.making
    if role in ("NS", "EW"):
        return role, Side(role)
    if role == "dealer":
        return str(table.dealer), table.dealer.side
    if role == "dealer_side":
        return str(table.dealer.side), table.dealer.side
    if role == "eldest":
        return str(table.eldest), table.eldest.side
    if role in ("makers", "defenders") and making and making.maker:
        side = making.maker.side if role == "makers" else making.maker.side.other
        return str(side), side
    if role == "lone_player" and table.lone:
        return str(table.lone), table.lone.side
    if role == "claimants" and isinstance(binding, Claim):
        return str(binding.seat.side), binding.seat.side
    if role == "adversaries" and isinstance(binding, Claim) and binding.against is None:
        # A claim against no one (Long Whist 18: honours scored not having them): the claimants are at fault.
        return str(binding.seat.side.other), binding.seat.side.other
    if offender is not None:
        if role == "adversaries" or role == "claimants":
            return str(offender.side.other), offender.side.other
        if role == "offenders":
            return str(offender.side), offender.side
        if role == "offender":
            return str(offender), offender.side
        if role == "partner":
            return str(offender.partner), offender.side
    return CHOOSERS.get(role, role), None


def _remedy(rulebook: Rulebook, table: Table, law: Law, remedy: Remedy, offender: Seat | None,
            binding: object | None, hand: FactIndex) -> RemedyOutcome:
    chooser, chooser_side = _chooser(remedy.chooser, table, offender, binding)
    offenders = offender.side if offender else (chooser_side.other if chooser_side else None)
    options = []
    for option in remedy.options:
        if option.when is not None and not holds_for(option.when, hand, binding):
            continue
        to = chooser_side if option.kind in ("score", "take_tricks") else \
            (offenders.other if option.kind == "forfeit" and offenders else None)
        options.append(OptionOutcome(option, to))
    consult = remedy.consult
    if consult is None:
        consult = True if len(options) <= 1 else CONSULT_BY_DEFAULT.get(rulebook.code, False)
    made, entry = _made(table, options, chooser_side, binding)
    return RemedyOutcome(law, remedy, chooser, chooser_side, consult, offender, tuple(options), binding, made, entry)


# What an act in the log chooses: (verb, word or "card"/"suit") -> the option kinds it takes.
_CHOSEN_BY = {
    ("call", "card"): ("call_card",),
    ("call", "suit"): ("call_suit",),
    ("require", "highest"): ("require_highest", "call_highest"),
    ("require", "lowest"): ("require_lowest", "call_lowest"),
    ("require", "win"): ("require_win",),
    ("require", "lose"): ("require_lose",),
    ("elect", "new deal"): ("new_deal",),
    ("elect", "stand"): ("let_it_stand",),
    ("elect", "play"): ("elect_play", "play_out"),
    ("elect", "alone"): ("play_alone",),
    ("elect", "penalty"): SCORE_KINDS,
    ("claim", "new deal"): ("new_deal",),
}


def _made(table: Table, options: list[OptionOutcome], side: Side | None,
          binding: object | None) -> tuple[OptionOutcome | None, int | None]:
    """The option the chooser's side took in the log after the irregularity, if any (Euchre 85, Short Whist 84:
    the demand is final)."""
    if side is None or not options:
        return None, None
    since = binding.entry if isinstance(binding, (Irregularity, Claim)) else \
        binding.entry if isinstance(binding, Moment) else 0
    for moment in table.moments:
        act = moment.act
        if moment.entry <= since or act.seat is None or act.seat.side is not side \
                or act.verb not in ("call", "require", "elect", "claim"):
            continue
        word = act.word if act.verb != "call" else ("card" if act.cards else "suit")
        kinds = _CHOSEN_BY.get((act.verb, word or ""), ())
        chosen = [item for item in options if item.option.kind in kinds]
        if len(chosen) == 1 or (chosen and act.verb != "elect"):
            return chosen[0], moment.entry
    return None, None


# --- the score -------------------------------------------------------------------------

def _score(rulebook: Rulebook, table: Table, applied: list[AppliedLaw], remedies: list[RemedyOutcome],
           declarations: list[DeclarationOutcome], rules: HandRules) -> Score:
    code, game = rulebook.code, rulebook.game
    before = table.scenario.score
    if game.euchre and _law_or_none(rulebook, "1") is not None:
        # Euchre 1 ("should the score of the third game lap, a fourth game is played") and Technical Terms ("Lap"):
        # laps are played, points past game carried to the next; a house that strikes law 1 plays none.
        rules = replace(rules, laps=True)
    games = table.scenario.games
    points_law = "7" if game.euchre else "9" if code == "short-whist" else None
    if games is not None and points_law is not None and _law_or_none(rulebook, points_law) is not None:
        # Euchre 7, Short Whist 9: the rubber's two points, where the record gives the games won in it; Short Whist
        # 10: the losers' game deducted in a rubber of three. A house that strikes the law plays no rubber.
        deduct = "10" if code == "short-whist" and _law_or_none(rulebook, "10") is not None else None
        rules = replace(rules, rubber=Rubber(games, points_law, deduct))
    # The tricks each side took, counted once for the hand's score (None: not played out) and whether it goes on.
    taken = tricks_taken(table, rules.abandoned)
    in_play = taken is None and _in_play(table, declarations, remedies, rules)
    claimed = rules.honours_claimed if rules.honours_claimed is not None else frozenset()
    claimable = {} if rules.void or _no_end_yet(declarations, remedies, taken is not None, in_play) else \
        claimable_honours(code, game, table, before, claimed | rules.honours_game, rules.no_honours | rules.no_points,
                          rules.honours)
    uncalled_rules = None
    if claimable and code == "short-whist":
        # Short Whist 6: honours may be claimed until the trump card of the next deal is turned up; a side that
        # holds them and has not yet claimed keeps the right: its scores are given as claimed (law 3), and
        # beside them the scores if it does not call them.
        uncalled_rules = rules
        rules = replace(rules, honours_claimed=claimed | frozenset(claimable))
    hand = hand_score(code, game, table, rules, taken)
    hand_laws = tuple(item.law for item in applied if item.law.kind == "scoring"
                      and all(ruling.kind in _HAND_KINDS for ruling in item.law.rulings))
    hand_laws += tuple(dict.fromkeys(item.law for item in declarations if item.declaration.kind in _HAND_KINDS
                                     and item.law not in hand_laws))
    if claimable:
        hand_laws += tuple(law for law_id in CLAIMABLE_LAWS.get(code, ())
                           if (law := _law_or_none(rulebook, law_id)) is not None and law not in hand_laws)
    if hand is None and not in_play and not rules.void:
        rules = replace(rules, stopped=True)
        uncalled_rules = None if uncalled_rules is None else replace(uncalled_rules, stopped=True)
    open_choices: list[list[tuple[RemedyOutcome, OptionOutcome]]] = []
    for remedy in remedies:
        if not remedy.scores or remedy.honours:
            continue
        if remedy.made is not None:
            open_choices.append([(remedy, remedy.made)])
        elif remedy.mandatory:
            open_choices.append([(remedy, item) for item in remedy.options[:1]])
        elif remedy.unclaimed:
            # Euchre 63 "may be claimed", Short Whist 78, Long Whist 15: claimed, the penalty (or the one chosen of
            # its options); not claimed, none.
            open_choices.append([(remedy, item) for item in remedy.options[:1 if remedy.remedy.mandatory else None]]
                                + [(remedy, OptionOutcome(NO_CLAIM, None))])
        else:
            open_choices.append([(remedy, item) for item in remedy.options])
    groups = _groups(open_choices)
    outcomes = []
    bites = False
    floored = False
    for choices in islice(_combinations(groups), MAX_OUTCOMES):
        penalties = [Penalty(item.option.kind, item.option.points if item.option.points is not None
                             else item.option.tricks, item.to,
                             remedy.offender.side if remedy.offender else
                             (remedy.chooser_side.other if remedy.chooser_side else None))
                     for remedy, item in choices]
        free = _free_of_cap(rules.capped, choices, penalties)
        these, these_uncalled = rules, uncalled_rules
        if free:
            these = replace(rules, capped=rules.capped - free)
            these_uncalled = None if uncalled_rules is None else replace(uncalled_rules,
                                                                         capped=uncalled_rules.capped - free)
        effect = final_score(code, game, table, before, penalties, these)
        # Said where no law fixes the order (Long Whist); Euchre 4 and Short Whist 5 are cited for it already.
        floored = floored or code not in ORDER_LAW and _floored(before, penalties)
        if these.capped and not bites and (effect.score_after is None or effect.needs
                                           or final_score(code, game, table, before, penalties,
                                                          replace(these, capped=frozenset())) != effect):
            # Kept below game (Short Whist 82, Long Whist 11): the cap changes this score, or may yet.
            bites = True
        uncalled = None if these_uncalled is None else final_score(code, game, table, before, penalties,
                                                                   these_uncalled)
        freed = free if free and (effect != final_score(code, game, table, before, penalties, rules) or (
            uncalled_rules is not None and uncalled != final_score(code, game, table, before, penalties,
                                                                   uncalled_rules))) else frozenset()
        outcomes.append(Outcome(tuple(choices), effect, uncalled, freed, _cap_reading(applied, declarations, freed)))
    if any(outcome.effect.order for outcome in outcomes) and (order_law := _law_or_none(
            rulebook, ORDER_LAW.get(code, ""))) is not None and order_law not in hand_laws:
        hand_laws += (order_law,)  # Euchre 4, Short Whist 5: the order decided the game
    # How many combinations there are, counted rather than built: a group of k like choices of w options each
    # has C(w + k - 1, k) multisets.
    total = prod(comb(len(members[0]) + len(members) - 1, len(members)) for members in groups)
    return Score(before, hand, hand_laws, rules, tuple(outcomes), max(0, total - len(outcomes)), claimable,
                 in_play=in_play, next_dealer=None if in_play else _next_dealer(table, declarations, remedies),
                 cap_decides=bites or bool(total > len(outcomes)), floor_decides=floored)


def _cap_reading(applied: list[AppliedLaw], declarations: list[DeclarationOutcome],
                 freed: frozenset[Side]) -> str | None:
    """The stated reading behind a score that frees a side of the limit to game (`Outcome.freed`), or None."""
    if not freed:
        return None
    cap = next((item.law for item in applied if any(ruling.kind == "cannot_win_game" for ruling in item.law.rulings)),
               None)
    if cap is None:
        return None
    limit = next((item.law for item in declarations if item.declaration.kind == "claim_still_open"), None)
    sides = " and ".join(str(side) for side in sorted(freed, key=str))
    after_cut = f", as after the cut, when law {limit.id} bars the claim" if limit is not None else ""
    return (f"Law {cap.id}'s limit to game is read here as going with a penalty enforced{after_cut}: with no claim "
            f"it does not hold {sides} below game.")


def _free_of_cap(capped: frozenset[Side], choices: tuple[tuple[RemedyOutcome, OptionOutcome], ...],
                 penalties: list[Penalty]) -> frozenset[Side]:
    """Sides kept below game (Short Whist 82, Long Whist 11) against whom this combination claims no penalty: each
    penalty open against them left unclaimed (`no_claim`). Short Whist 82 limits the revoking side "in whatever way
    the penalty be enforced", Long Whist 11's "if up, must remain at nine" is part of the penalty: read here as
    going with a penalty enforced, so a revoke not claimed holds no one below game, as when law 78 (Long Whist 15)
    bars the claim after the cut (docs/rulings.md)."""
    free = set()
    for side in capped:
        against = [item for (remedy, item), penalty in zip(choices, penalties) if penalty.offenders is side]
        if against and all(item.option.kind == "no_claim" for item in against):
            free.add(side)
    return frozenset(free)


def _floored(before: dict[Side, int] | None, penalties: list[Penalty]) -> bool:
    """A deduction, taken in its turn (`final_score`), takes down more than the side then has."""
    if before is None:
        return False
    after = dict(before)
    for penalty in penalties:
        number = penalty.number or 0
        if penalty.kind in ("score", "forfeit") and penalty.to is not None:
            after[penalty.to] += number
        elif penalty.kind == "deduct" and penalty.offenders is not None:
            if after[penalty.offenders] < number:
                return True
            after[penalty.offenders] -= number
    return False


def _taken(remedy: RemedyOutcome) -> OptionOutcome | None:
    """The option a remedy applies: the one chosen in the log, or a mandatory one's."""
    if remedy.made is not None:
        return remedy.made
    return remedy.options[0] if remedy.mandatory and remedy.options else None


def _no_end_yet(declarations: list[DeclarationOutcome], remedies: list[RemedyOutcome], played_out: bool,
                in_play: bool) -> bool:
    """Short Whist 7: honours "must be called at the end of the hand". A hand not played out that goes on, or
    that a new deal voids or may void, has no end at which to call them yet."""
    if played_out:
        return False
    if in_play:
        return True
    return any(item.declaration.kind in NEW_HAND - {"hand_ends"} for item in declarations) or any(
        item.option.kind in ENDS_OPTIONS for remedy in remedies
        for item in ((remedy.made,) if remedy.made is not None else remedy.options))


def _in_play(table: Table, declarations: list[DeclarationOutcome], remedies: list[RemedyOutcome],
             rules: HandRules) -> bool:
    """The hand, not played out, goes on: see `Score.in_play`."""
    if rules.void or rules.abandoned or rules.honours_game:
        return False
    if any(item.declaration.kind in NEW_HAND for item in declarations):
        return False
    if any((taken := _taken(remedy)) is not None and taken.option.kind in ENDS_OPTIONS for remedy in remedies):
        return False
    # Euchre 70: the hand on which a revoke was established goes on only if the revoking side requires it. But
    # where the penalty is chosen "at the end of the hand" (Short Whist 72 I), the hand goes on to its end, and
    # the revoking side's right to have it played out (law 79) only forbids stopping it.
    if any(remedy.made is None and any(item.option.kind == "play_out" for item in remedy.options)
           for remedy in remedies) and not any(remedy.made is None and remedy.remedy.at_end for remedy in remedies):
        return False
    if any(moment.phase in ("play", "after") for verb in ("mix", "cut") for moment in table.by_verb.get(verb, ())):
        return False
    return table.next_to_play() is not None


def _next_dealer(table: Table, declarations: list[DeclarationOutcome],
                 remedies: list[RemedyOutcome]) -> Seat | None:
    """Who deals next, the hand over (see `Score.next_dealer`)."""
    kinds = {item.declaration.kind for item in declarations}
    if "deal_lost" in kinds:
        return table.dealer.left
    if "deal_stopped_not_his" in kinds:
        return None  # Euchre 40: the record's dealer dealt out of turn; it does not say whose deal it is
    # A hand that ends "and the dealer deals again" (Short Whist 37 with its note 11, 47) is dealt again by
    # him; one that ends scored (Euchre 102: the lone player scores five) passes the deal on.
    again = any(item.declaration.kind == "hand_ends" and _DEALT_AGAIN.search(item.declaration.text)
                for item in declarations)
    if kinds & _SAME_DEALER or again or any((taken := _taken(remedy)) is not None and taken.option.kind in ENDS_OPTIONS
                   for remedy in remedies):
        return table.dealer
    if any(remedy.made is None and not remedy.mandatory and any(item.option.kind in ENDS_OPTIONS
                                                                 for item in remedy.options) for remedy in remedies):
        return None
    return table.dealer.left


CLAIMABLE_LAWS = {"short-whist": ("3", "6")}
"""The laws that give honours still claimable their value and their time (Short Whist 3, 6), cited with the hand's
points because the scores count them. Long Whist 18 gives only the time, and the scores do not count the honours
(their value is not in its laws): it is cited in the sentence on the honours, not for the hand's points."""


def _law_or_none(rulebook: Rulebook, law_id: str) -> Law | None:
    law = rulebook.get(law_id)
    return law if isinstance(law, Law) else None


Dimension = list[tuple["RemedyOutcome", "OptionOutcome"]]


def _groups(dimensions: list[Dimension]) -> list[list[Dimension]]:
    """The open choices grouped: repeated penalties of one law to one side (Euchre 63, Short Whist 72: "as often as
    the revoke is repeated") are one group, combined as a multiset, since their order does not matter."""
    groups: dict[tuple, list[Dimension]] = {}
    for dimension in dimensions:
        remedy = dimension[0][0] if dimension else None
        key = (remedy.law.id, remedy.chooser, tuple((item.option.kind, item.option.points, item.option.tricks)
                                                    for _, item in dimension), len(dimension) == 1) \
            if remedy is not None else (id(dimension),)
        groups.setdefault(key, []).append(dimension)
    return list(groups.values())


def _picks(members: list[Dimension]):
    width = len(members[0])
    for combo in combinations_with_replacement(range(width), len(members)):
        yield tuple(members[n][index] for n, index in enumerate(combo))


class _Lazy:
    """A group's picks, drawn from its generator only as far as they are asked for."""

    def __init__(self, members: list[Dimension]) -> None:
        self.items: list[tuple] = []
        self.source = _picks(members)

    def has(self, index: int) -> bool:
        while len(self.items) <= index:
            item = next(self.source, None)
            if item is None:
                return False
            self.items.append(item)
        return True


def _combinations(groups: list[list[Dimension]]):
    """Every combination of the open choices, in `itertools.product`'s order, built one at a time: the caller takes
    the first MAX_OUTCOMES and nothing past them is made (3 options for each of 17 laws are 3^17 combinations)."""
    if not groups:
        yield ()  # no open choice: one combination, of none
        return
    lazy = [_Lazy(members) for members in groups]
    if not all(group.has(0) for group in lazy):
        return
    indices = [0] * len(lazy)
    while True:
        yield tuple(item for group, index in zip(lazy, indices) for item in group.items[index])
        position = len(lazy) - 1
        while position >= 0 and not lazy[position].has(indices[position] + 1):
            indices[position] = 0
            position -= 1
        if position < 0:
            return
        indices[position] += 1
