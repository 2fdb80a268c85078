"""The ruling as a director announces it at the table: the decision first, in a player's words.

In the order the directors' guides give (the decision, what happened, the law, each side's choices and
what each leaves), each fact said once. The long form, every law quoted with its reasons and the laws
that do not apply, is `render.text.ruling_text`; this one only reads the decision, as that one does.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Callable, NamedTuple

from msgspec.structs import replace

from adjudicate.escape import visible
from adjudicate.lawbook.rulebook import paragraphs
from adjudicate.play.facts import Claim, Irregularity
from adjudicate.play.table import Moment
from adjudicate.record.cards import Card, cards_words, number_word
from adjudicate.record.seats import Seat, Side
from adjudicate.render.text import GAME_LAW, _answers_words, honours_set_up_by, kind_noun, marked_words, \
    spent_at_the_end
from adjudicate.ruling.scoring import (DEAL_OR_NOT, ORDER_LAW, claimable_words, going_out, hand_can_give, order_words,
                                       takes_nothing_words)
from adjudicate.terminal import BOLD, HIGHLIGHT, MAX_WIDTH, RESET

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision, DeclarationOutcome, OptionOutcome, Outcome, RemedyOutcome, Score
    from adjudicate.play.table import Table
    from adjudicate.ruling.questions import Asked
    from adjudicate.ruling.scoring import Effect

SIDE_WORDS = {"NS": "North–South", "EW": "East–West"}
HINT_EXPLAIN = "(For the laws in full and every reason: rerun with --explain.)"
HINT_ASK = "(To answer the questions: rerun with --ask, or --explain for the laws in full.)"
HINT_SCORE = "(Add the score before the hand to the record to settle the score.)"

QUOTE_UP_TO = 260
"""A law that fixes a penalty is quoted when it is short enough to read out; a longer one is cited only."""

_PROCEDURAL = frozenset({"may_consult", "no_consultation", "must_not_consult", "penalty_not_divided",
                         "revoke_penalty_first", "answerable_for_revokes", "no_revoke_meanwhile", "privilege_kept",
                         "no_right_taken_away", "touch_allowed", "no_revoke_compelled", "no_compelled_revoke",
                         "shuffle_again_after_false_cut", "question_did_not_save"})
"""What a law declares about how a penalty is taken, not what the ruling is, or what the facts already say
(Euchre 65: the question answered "none" did not save the revoke, said with the revoke): in the long form only."""
_CONSULTING = frozenset({"may_consult", "no_consultation", "must_not_consult"})
"""Whether partners may consult: said in the choice itself ("partners may consult"), so a law that declares only
that is left out of a long LAWS line (the long form has it)."""
_CODE_NAMES = {"euchre": "Euchre (Somerset Club, 1888)", "short-whist": "Short Whist (Club Code, 1864)",
               "long-whist": "Long Whist (Hoyle)"}
"""Each code as the context line names it (its full title is in the long form)."""
_FOOTNOTE = re.compile(r"\[[0-9]+\]")
"""The source's footnote marks ("[33]"): the long form keeps them, the ruling at the table does not."""
_SCORE_NOTES = frozenset({"honours_still_claimable"})
"""What a law declares of the score (honours still to be called, Short Whist 6): said after the score."""
_ONCE = frozenset({"cannot_win_game"})
"""Declarations said once however many offenders they are declared for."""
_PAST = {"consult": "consulted his partner", "remark": "made a remark on the play", "ask": "asked his partner if he "
         "had none of the suit", "deny": "answered that he had none", "touch": "touched the cards",
         "count": "counted the cards", "shuffle": "shuffled", "mix": "mixed the cards", "cut": "cut the cards",
         "throw": "threw his cards down", "last trick": "looked at the last trick", "remind": "reminded his partner",
         "call honours": "called honours", "new cards": "called for new cards", "take back": "took his card back",
         "place cards": "had the cards placed", "quit": "quitted the trick", "turn": "turned the trump card",
         "pass": "passed", "ask turned": "asked what card was turned up", "ask trump": "asked what the trump suit was",
         "answer": "answered", "lift trump": "lifted the trump card", "leave trump": "left the trump card on the table",
         "look trump": "looked at the trump card", "other pack card": "had a card of the other pack among his cards"}

def side_words(text: str) -> str:
    """"NS" and "EW" in a sentence, as players say them."""
    return re.sub(r"\b(NS|EW)\b", lambda m: SIDE_WORDS[m.group(1)], text)

def _number(n: int | None, noun: str) -> str:
    n = n or 0
    return f"{number_word(n)} {noun}{'' if n == 1 else 's'}"

def option_words(item: "OptionOutcome", remedy: "RemedyOutcome") -> str:
    """One option, short, as the chooser would say it: "three points to North–South"."""
    option = item.option
    offenders = remedy.offender.side if remedy.offender else (
        remedy.chooser_side.other if remedy.chooser_side else None)
    off = SIDE_WORDS.get(str(offenders), "the offenders") if offenders else "the offenders"
    if option.kind == "score" and not option.text:
        to = SIDE_WORDS.get(str(item.to), "their side") if item.to else "their own side"
        return f"{_number(option.points, 'point')} to {to}"
    if option.kind == "deduct" and not option.text:
        return f"{_number(option.points, 'point')} taken from {off}"
    if option.kind == "take_tricks" and not option.text:
        return f"{_number(option.tricks, 'trick')} from {off}"
    if option.kind == "forfeit" and not option.text:
        return f"{off} forfeit {_number(option.points, 'point')}"
    return _wording(item, remedy)

def _wording(item: "OptionOutcome", remedy: "RemedyOutcome", table: "Table | None" = None) -> str:
    """An option in the law's words, the offender and his partner named where the record says who they are:
    "call on North not to win the trick" for "call on his partner not to win the trick"."""
    text = side_words(visible(item.option.wording()))
    offender = remedy.offender
    if offender is None:
        return text
    target = remedy.target
    details = target.details if isinstance(target, Irregularity) else {}
    if table is not None and isinstance(target, Irregularity) and target.kind == "revoke":
        exact = _revoke_card_words(item.option.kind, text, target, offender, table)
        if exact:
            return exact
    card, leader = details.get("card"), details.get("next_leader") or details.get("due")
    # Long Whist 7: the card and the leader named where the record says which and who.
    if isinstance(card, Card):
        text = re.sub(r"\bthe card (played|led) out of turn\b", f"{offender.word}'s {card.name}", text)
    if isinstance(leader, Seat):
        text = text.replace("the partner of the one of them who is to lead name the suit, which must be led",
                            f"{leader.partner.word} name the suit {leader.word} must lead")
        text = text.replace("the rightful leader", leader.word)
    text = text.replace("the offender's hand", f"{offender.word}'s hand")
    text = _surplus_named(text, offender, details.get("cards"))
    partner = offender.partner.word
    text = re.sub(r"\bthe offender's side\b", SIDE_WORDS[str(offender.side)], text)
    # "His partner" is the offender's only where the option is a call made on him ("call on his partner not to
    # win", Short Whist 68); elsewhere "he" may be another player (the lone player, Euchre 100).
    text = re.sub(r"\b(the offender's partner|(?<=call on )his partner|(?<=oblige )his partner)\b", partner, text)
    text = re.sub(r"\b(?:the offender|from him)(?!'s)\b( or his partner\b)?",
                  lambda m: ("from " if m.group(0).startswith("from") else "") + offender.word
                  + (f" or {partner}" if m.group(1) else ""), text)
    return text

def _revoke_card_words(kind: str, text: str, revoke: Irregularity, offender: Seat, table: "Table") -> str | None:
    """A revoke corrected, its options said as the table carries them out where the revoking player's hand is
    known: the card played in error named; and "his highest or lowest of the suit led" (Long Whist 12) named, and
    whether it replaces the card he has put in its place."""
    holding = table.scenario.hands.get(offender)
    held, card = revoke.details.get("held"), revoke.details.get("card")
    if holding is None or not holding.complete or not isinstance(held, (list, tuple)) or not isinstance(card, Card):
        return None
    if kind == "call_card":
        named = re.sub(r"\bthe card (?:he )?played in error\b", f"{offender.word}'s {card.name}, played in error", text)
        return named if named != text else None
    if kind not in ("call_highest", "call_lowest") or "of the suit led" not in text:
        return None
    trick = table.tricks[revoke.trick - 1] if revoke.trick and revoke.trick <= len(table.tricks) else None
    now = next((play.card for play in (trick.active if trick else ()) if play.seat is offender), None)
    cards = sorted((c for c in held if isinstance(c, Card)), key=lambda c: c.rank)
    if not cards:
        return None
    wanted = cards[-1] if kind == "call_highest" else cards[0]
    which = f"{'highest' if kind == 'call_highest' else 'lowest'} {wanted.suit.word[:-1]}"
    if now == wanted:
        return f"have {offender.word}'s {which}, the {wanted.rank.word}, which he has put in: it stands, and " \
            "nothing changes"
    if now is not None and now.suit == wanted.suit:
        return f"have {offender.word}'s {which}, the {wanted.rank.word}, go to trick {revoke.trick} in place of " \
            f"the {now.rank.word} he put in"
    return f"have {offender.word} play his {which}, the {wanted.rank.word}, to trick {revoke.trick}"


def _surplus_named(text: str, seat: Seat, cards: object) -> str:
    """Short Whist 56, 70: the two cards a player played to one trick named, with the player ("the knave of
    spades, the second card East played to the trick," and "the first, the nine of spades,")."""
    if not isinstance(cards, list) or len(cards) != 2 or not all(isinstance(card, Card) for card in cards):
        return text
    first, second = cards
    text = re.sub(r"\bthe second card he played to (it|the trick),?",
                  lambda m: f"the {second.name}, the second card {seat.word} played to {m.group(1)},", text)
    return re.sub(r"\bthe first stays\b", f"the {first.name} stays", text)


def _suit_called(remedy: "RemedyOutcome", decision: "Decision") -> str | None:
    """A suit call made in the log, as the table must hear it: which suit, and from whom ("call clubs from
    North"); None for any other choice, or a call the log does not spell out."""
    made = remedy.made
    if made is None or made.option.kind != "call_suit" or remedy.made_entry is None:
        return None
    act = decision.table.moment(remedy.made_entry).act
    if act.suit is None:
        return None
    target = act.target or remedy.offender
    if target is None:
        return f"call {act.suit.word}"
    return f"call {act.suit.word} from {target.word}"


def _plain_points(item: "OptionOutcome") -> bool:
    """An option said as points or tricks ("three points to North–South"), not as something done."""
    from adjudicate.ruling.scoring import SCORE_KINDS

    return item.option.kind in SCORE_KINDS and not item.option.text

def _chooser(remedy: "RemedyOutcome", decision: "Decision | None" = None) -> str:
    """Who chooses, as players say it: a side, or one player. A side whose partner sits out for a lone hand is the
    lone player alone (Euchre 101: his partner's cards are laid face downwards, not to be taken up again)."""
    lone = decision.table.lone if decision is not None else None
    if lone is not None and remedy.chooser_side is lone.side:
        return lone.word
    if remedy.chooser in ("N", "E", "S", "W"):
        return Seat.parse(remedy.chooser).word
    return SIDE_WORDS.get(remedy.chooser, side_words(remedy.chooser))


def _one(who: str) -> bool:
    """One player chooses ("West chooses"), not a side ("East–West choose")."""
    return who in ("North", "East", "South", "West")

def _target(target: object, several: bool = True) -> str | None:
    """What a remedy is for, briefly: "East's revoke", "East's revoke at trick 3" where he made more than one."""
    if isinstance(target, Irregularity):
        noun = kind_noun(target.kind)
        if target.seat:
            return f"{target.seat.word}'s {noun}" + (f" at trick {target.trick}" if target.trick and several else "")
        return f"the {noun}"
    if isinstance(target, Claim):
        return f"{target.seat.word}'s claim"
    if isinstance(target, Moment) and target.act.seat:
        return f"what {target.act.seat.word} did"
    return None

def _or_list(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    if any("," in re.sub(r"\([^()]*\)", "", item) for item in items):
        # Choices that have commas of their own are told apart by semicolons: "call East's ace of diamonds, at
        # any time in the deal, so long as ...; or name the suit West must lead".
        return "; ".join(items[:-1]) + "; or " + items[-1]
    return ", ".join(items[:-1]) + " or " + items[-1]

def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    ended = text[-1] in ".?!" or text.endswith((".”", "?”", "!”"))
    return text[0].upper() + text[1:] + ("" if ended else ".")

def _single(who: str, item: "OptionOutcome", remedy: "RemedyOutcome") -> str:
    """A penalty with no choice in it, as a sentence: "North–South add three points to their score"."""
    option = item.option
    if not option.text:
        if option.kind == "score":
            return f"{who} {'adds' if _one(who) else 'add'} {_number(option.points, 'point')} to " \
                   f"{'his side' if _one(who) else 'their'}'s score".replace("their's", "their")
        if option.kind == "take_tricks":
            return f"{who} {'takes' if _one(who) else 'take'} {option_words(item, remedy)}"
        if option.kind == "deduct":
            return f"{who} {'takes' if _one(who) else 'take'} {option_words(item, remedy).replace(' taken from ', ' from ')}'s score"
        if option.kind == "forfeit":
            return f"{option_words(item, remedy)} to {who}"
    if remedy.mandatory:  # a consequence the law declares, not a choice ("on penalty of losing one point")
        return _wording(item, remedy)
    return f"{who} may {_wording(item, remedy)}"


def _mirrored(option: "OptionOutcome") -> str:
    """An option said for either side: "three points to its own score"."""
    kind, points, tricks = option.option.kind, option.option.points, option.option.tricks
    if option.option.text:
        return visible(option.option.wording())
    if kind == "score":
        return f"{_number(points, 'point')} to its own score"
    if kind == "deduct":
        return f"{_number(points, 'point')} off the other side's score"
    if kind == "take_tricks":
        return f"{_number(tricks, 'trick')} from the other side"
    if kind == "forfeit":
        return f"{_number(points, 'point')} forfeited by the other side"
    return visible(option.option.wording())


def _choice_sentences(decision: "Decision", in_table: "set[int] | frozenset[int]" = frozenset()) -> list[str]:
    """Who chooses what, each remedy once: "North–South choose one penalty for East's revoke: ...". Remedies
    alike (one law, the same options) are said in one sentence: for several offences of one side, or for an
    offence of each side ("each side chooses one penalty for the other's revoke")."""
    said: list[str] = []
    groups: dict[tuple, list["RemedyOutcome"]] = {}
    for remedy in decision.remedies:
        key = (remedy.law.id, remedy.made is not None, remedy.scores,
               tuple((item.option.kind, item.option.points, item.option.tricks, item.option.text)
                     for item in remedy.options))
        groups.setdefault(key, []).append(remedy)
    counts: dict[tuple, int] = {}
    for item in decision.facts.irregularities:
        counts[(item.kind, item.seat)] = counts.get((item.kind, item.seat), 0) + 1

    def target(thing: object) -> str | None:
        several = not isinstance(thing, Irregularity) or counts.get((thing.kind, thing.seat), 0) > 1
        return _target(thing, several)

    for remedies in groups.values():
        remedy = remedies[0]
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in remedies))
        each_side = len(choosers) == 2 and set(choosers) == set(SIDE_WORDS.values())
        if remedy.made is not None:
            for made in remedies:
                made_for = target(made.target)
                assert made.made is not None
                said.append(f"{f'for {made_for}, ' if made_for else ''}{_chooser(made, decision)} chose "
                            f"{'' if _plain_points(made.made) else 'to '}{_suit_called(made, decision) or option_words(made.made, made)}"
                            # Short Whist 84, Euchre 85: "such decision is final": said where there was a choice
                            # between penalties to make, not of the one penalty the law gives.
                            + ("; the choice is final" if len(made.options) > 1 else ""))
            continue
        consult = "" if len(remedy.options) < 2 or all(_one(who) for who in choosers) or _deal_or_not(remedy) \
            or remedy.consult is None else " (partners may consult)" if remedy.consult else " (partners may not consult: they agree who chooses)"
        if not remedy.scores:
            who = "either side" if each_side else _and_list(choosers)
            options = [_wording(item, remedy, decision.table) for item in remedy.options]
            after = _played_after(decision, remedy)
            if after is not None:
                # Euchre 69: "Any player or players who have played after him, except his partner, may withdraw
                # their cards": named, not the whole side.
                if after:
                    one = len(after) == 1
                    said.append(f"{_and_list([seat.word for seat in after])} may withdraw "
                                f"{'his card' if one else 'their cards'} and play {'another' if one else 'others'}")
                continue
            earlier = next((n for n, text in enumerate(said) if text.startswith(f"{who} ")
                            and not text.startswith(f"{who} may ") and f"{who} chose " not in text), None)
            if len(options) == 1 and earlier is not None:
                said[earlier] += f", and may {options[0]}"  # "..., and may search all the tricks"
                continue
            # A call with its manner said after the law's words ("... if he do not make him revoke\": they may leave it
            # in the trick, or have it taken back", Long Whist 7): two sentences, where it is the only option.
            said.append(f"{who} may {_or_list(options)}".replace('": they may ', '". They may ', 1) if len(options) == 1 else
                        f"{who} choose{'s' if _one(who) else ''} one{consult}: {_or_list(options)}")
            continue
        noun = kind_noun_of(remedy.target)
        tabled = len(remedy.options) > 1 and all(id(r) in in_table for r in remedies)
        if each_side and noun:
            options = [_mirrored(item) for item in remedy.options]
            if tabled:
                said.append(f"each side chooses one penalty for the other's {noun}{consult}, as in the table "
                            "below")
            elif len(options) == 1:
                said.append(f"each side takes {options[0]} for the other's {noun}")
            else:
                said.append(f"each side chooses one penalty for the other's {noun}{consult}: {_or_list(options)}")
            continue
        for who in choosers:
            mine = [r for r in remedies if _chooser(r, decision) == who]
            mine_targets = list(dict.fromkeys(t for r in mine if (t := target(r.target))))
            for_what = ""
            if mine_targets:
                for_what = " for " + _and_list(mine_targets).replace(" and ", " and for ")
            chooses = "chooses" if _one(who) else "choose"
            if remedy.remedy.at_end and decision.score is not None and decision.score.in_play:
                for_what += " at the end of the hand"  # Short Whist 72 I: the hand goes on, the choice waits
            if tabled and {item.option.kind for item in remedy.options} == DEAL_OR_NOT:
                # A fresh deal or not (Short Whist 42: "may decide whether they will have a fresh deal or not"):
                # a right taken or left, not a penalty.
                said.append(f"{who} {'decides' if _one(who) else 'decide'} whether to have a new deal{for_what}"
                            f"{consult}, as below")
            elif tabled and all(r.unclaimed for r in mine):
                # Short Whist 78, Long Whist 15: the penalty is due only on a claim; the last line below is the
                # score with none.
                said.append(f"if {who} {'claims' if _one(who) else 'claim'} it, {'he chooses' if _one(who) else 'they choose'} "
                            f"one of the penalties below{for_what}{consult}")
            elif tabled:
                said.append(f"{who} {chooses} one of the penalties below{for_what}{consult}")
            elif len(remedy.options) == 1 and all(r.unclaimed for r in mine):
                # Euchre 63: "the penalty may be claimed"; the record shows no claim yet.
                points = _number(mine[0].options[0].option.points, "point")
                each = f" for each of {_and_list(mine_targets)}" if len(mine_targets) > 1 and len(mine) > 1 else for_what
                said.append(f"{who} may claim the penalty{each}, {points}{_claim_closes(decision)}; "
                            "the record shows no claim yet" + _own_cut_words(decision))
            elif len(remedy.options) == 1:
                each = f" for each of {_and_list(mine_targets)}" if len(mine_targets) > 1 and len(mine) > 1 else for_what
                said.append(_single(who, mine[0].options[0], mine[0]) + each)
            else:
                options = [option_words(item, mine[0]) for item in mine[0].options]
                # A choice with no points in it (a new deal, or the deal to stand: Euchre 60) is no penalty.
                noun = " penalty" if remedy_scores(mine[0].remedy) else ""
                said.append(f"{who} {chooses} one{noun}{for_what}{consult}: "
                            f"{_or_list(options)}" if len(mine) == 1 else
                            f"{who} {chooses} a{noun or 'n option'}{for_what}{consult}: {_or_list(options)}")
    return said


CLAIM_CLOSES = {"euchre": ("68", "the cards are cut for the next deal")}
"""When a penalty that "may be claimed" can no longer be (Euchre 68: "A revoke cannot be claimed after the cards
are cut for the next deal")."""


def _claim_closes(decision: "Decision") -> str:
    closes = CLAIM_CLOSES.get(decision.rulebook.code)
    return f", until {closes[1]} (law {closes[0]})" if closes else ""


def _own_cut(decision: "Decision") -> Moment | None:
    """A cut for the next deal the revoking side made without the pack presented (`E: cut unpresented`), with no
    claim yet: it does not close the claim (`Table.next_deal_cut_against`). None otherwise."""
    if decision.rulebook.code not in CLAIM_CLOSES or decision.facts.standing_claims:
        return None
    revokers = {offence.seat.side for offence in decision.facts.irregularities
                if offence.kind == "revoke" and offence.get("established") is True and offence.seat is not None}
    return next((m for m in decision.table.moments if m.act.verb == "cut" and m.act.word == "unpresented"
                 and m.phase in ("play", "after") and m.act.seat is not None and m.act.seat.side in revokers), None)


def _own_cut_words(decision: "Decision") -> str:
    """Why the revoking side's own cut, the pack not presented, does not close the claim (Euchre 68 with 29),
    said once beside the time limit: a reading, the code being silent on such a cut."""
    cut = _own_cut(decision)
    score = decision.score
    dealer = score.next_dealer if score is not None else None
    if cut is None or cut.act.seat is None or dealer is None:
        return ""
    closes = CLAIM_CLOSES[decision.rulebook.code][0]
    return (f". {cut.act.seat.word}'s cut does not close it: law {closes} does not say whether such a cut counts; "
            f"read here as not, since {dealer.right.word}, on {dealer.word}'s right, cuts for {dealer.word}'s deal "
            "(law 29: \"The player on the dealer's right cuts the pack\")")


def _unclaimed_step(decision: "Decision", unclaimed: list["RemedyOutcome"], closes: bool = True) -> str:
    """Who says whether he claims a penalty that "may be claimed" (Euchre 63), and by when (law 68)."""
    choosers = list(dict.fromkeys(_chooser(r, decision) for r in unclaimed))
    one = len(choosers) == 1 and _one(choosers[0])
    return f"{_and_list(choosers)} {'says whether he claims' if one else 'say whether they claim'} the penalty" \
        f"{_claim_closes(decision) if closes else ''}"


def _played_after(decision: "Decision", remedy: "RemedyOutcome") -> "list[Seat] | None":
    """Who may withdraw a card played after a revoke corrected in time (Euchre 69: "who have played after him,
    except his partner"), or None where the remedy is not that withdrawal."""
    target = remedy.target
    if not isinstance(target, Irregularity) or target.trick is None or target.seat is None \
            or not all(item.option.kind == "withdraw_and_substitute" for item in remedy.options):
        return None
    trick = next((t for t in decision.table.tricks if t.number == target.trick), None)
    if trick is None:
        return None
    return [play.seat for play in trick.plays if play.entry > target.entry
            and play.seat not in (target.seat, target.seat.partner)]


def remedy_scores(remedy: object) -> bool:
    """A law's remedy bears on the score (points or tricks): the penalty."""
    from adjudicate.ruling.scoring import SCORE_KINDS

    return any(option.kind in SCORE_KINDS for option in getattr(remedy, "options", ()))


def kind_noun_of(target: object) -> str | None:
    return kind_noun(target.kind) if isinstance(target, Irregularity) else None


def _deal_or_not(remedy: "RemedyOutcome") -> bool:
    """A new deal claimed or not, on which partners may consult (Short Whist 84 forbids consulting only on "which
    of the two penalties" to exact): nothing about consulting is said."""
    return bool(remedy.consult) and {item.option.kind for item in remedy.options} == DEAL_OR_NOT


def _headline_declarations(decision: "Decision") -> list[str]:
    """What the laws declare the ruling to be, each text once; how a penalty is taken (partners may consult,
    the order of scoring) is in the long form, and in the score the table shows."""
    return [text for text, _ in _headline_items(decision)]


def _headline_items(decision: "Decision") -> "list[tuple[str, DeclarationOutcome]]":
    """The headline's sentences (`_headline_declarations`), each with the declaration it says."""
    headline: list[str] = []
    said_of: dict[str, "DeclarationOutcome"] = {}
    kinds: set[str] = set()
    offenders: dict[str, Seat] = {}
    next_leaders: dict[str, Seat] = {}
    follows: dict[str, str] = {}
    plays: dict[str, str] = {}
    for applied in decision.laws:
        seats = {match.binding.seat for match in applied.matches
                 if isinstance(match.binding, Irregularity) and match.binding.seat is not None}
        called = {(match.binding, holder) for match in applied.matches
                  if isinstance(match.binding, Moment) and (holder := _called_on(decision, match.binding))}
        if not seats and len(called) == 1:
            # A card called (Short Whist 64): "he" is the player it is called from; the suit he must follow, the
            # suit led to the trick he is yet to play to.
            moment, holder = called.pop()
            seats = {holder}
            trick = next((t for t in decision.table.tricks if t.number == moment.trick), None)
            if trick is not None and trick.led is not None and trick.played_by(holder) is None:
                follows[applied.law.id] = f" with a{'n' if trick.led.word[0] in 'aeiou' else ''} {trick.led.word[:-1]}"
        if len(seats) == 1:
            offenders[applied.law.id] = seats.pop()
        # Euchre 55 with 83: the one card the player called on may lawfully play, and who wins the trick anyway.
        only = next((match.binding for match in applied.matches if isinstance(match.binding, Irregularity)
                     and isinstance(match.binding.get("only_card"), Card)), None)
        if only is not None:
            card, winner = only.details["only_card"], only.get("sure_winner")
            assert isinstance(card, Card)
            trick = next((t for t in decision.table.tricks if t.number == only.trick), None)
            best = next((play.card for play in (trick.active if trick else ()) if play.seat is winner), None)
            plays[applied.law.id] = f"he plays the {card.name}" + (
                f", and {winner.word}'s {best.name} wins trick {only.trick}"
                if isinstance(winner, Seat) and best is not None else "")
        winners = {match.binding.details.get("next_leader") for match in applied.matches
                   if isinstance(match.binding, Irregularity) and match.binding.trick is not None}
        if len(winners) == 1 and isinstance(won := winners.pop(), Seat):
            next_leaders[applied.law.id] = won
    dealer = decision.table.dealer
    for item in _defined_first(decision.declarations):
        kind = item.declaration.kind
        text = side_words(visible(item.declaration.text)).strip()
        # The dealer and his partner named (Euchre 43, 45; Short Whist 45): "North, the dealer's partner, touched".
        text = re.sub(r"^The dealer's partner\b", f"{dealer.partner.word}, the dealer's partner,", text)
        text = text.replace("the player whose deal it was, not of his partner who dealt",
                            f"{dealer.word}, whose deal it was, not of {dealer.partner.word}, who dealt") \
            .replace("on that player's left", f"on {dealer.word}'s left")
        seat = item.offender or offenders.get(item.law.id)
        if text.startswith("He ") and seat is not None:
            text = f"{seat.word} {text[3:]}"  # "He incurs the penalty of a revoke": the player named
        elif text.startswith("If his adversaries ") and seat is not None:
            # "If his adversaries win the trick" (Long Whist 7): the side named.
            text = f"If {SIDE_WORDS[str(seat.side.other)]} {text[19:]}"
        elif text.startswith("His partner, ") and seat is not None:
            # "His partner, who has still to play" (Long Whist 10): the partner named, and whose partner he is.
            text = f"{seat.partner.word}, {seat.word}'s partner{text[11:]}"
        elif text.startswith("The leader's partner having played before his turn, ") and seat is not None:
            # Long Whist 9: the leader's partner (the offender) and the fourth hand, on his left, named.
            text = f"{seat.word} having played before his turn, {seat.left.word}, the fourth hand, may do the same" \
                + text.split("(the fourth hand) may do the same", 1)[1]
        if seat is not None:
            # "the offender's partner", "the offender's side" (Long Whist 7): named.
            text = re.sub(r"\b[Tt]he offender's partner\b", seat.partner.word, text)
            text = re.sub(r"\b[Tt]he offender's side\b", SIDE_WORDS[str(seat.side)], text)
            text = _surplus_named(text, seat, next(
                (fact.get("cards") for fact in decision.facts.irregularities
                 if fact.kind == "two_cards_one_trick" and fact.seat is seat), None))
        if item.law.id in plays:
            text = text.replace("he plays that card", plays[item.law.id])
        if item.law.id in next_leaders:
            # "the best of the other cards wins it" (Long Whist 10): the player whose card it is named.
            text = text.replace("the best of the other cards wins it",
                                f"the best of the other cards, {next_leaders[item.law.id].word}'s, wins it")
        if item.law.id in follows:
            text = re.sub(r"\bfollows? suit\b", lambda m: m.group(0) + follows[item.law.id], text)
        said = text.rstrip(".").lower()
        # One side or both that cannot win the game by the hand (Short Whist 81 and 82) is said once.
        if kind in _PROCEDURAL or kind in _ONCE and kind in kinds \
                or any(said in other.lower() for other in headline):
            continue
        kinds.add(kind)
        if kind == "revoke_established" and sum(1 for fact in decision.facts.irregularities if fact.kind == "revoke"
                                                and fact.get("established")) > 1:
            text = re.sub(r"\bThe revoke is\b", "The revokes are", text)  # two revokes, one law's ruling
        # "The revoke is established", then "The question having been answered ..., the revoke is established".
        headline = [other for other in headline if other.rstrip(".").lower() not in said]
        headline.append(text)
        said_of.setdefault(text, item)
    return [(text, said_of[text]) for text in headline]


def _defined_first(declarations: "tuple[DeclarationOutcome, ...]") -> "list[DeclarationOutcome]":
    """What happened said before what follows from it: a law that defines ("It is a misdeal", Euchre 42) moved
    before the first law on the same subject that rules on it ("The misdeal loses the deal", law 41); the others
    keep their order."""
    def roots(item: "DeclarationOutcome") -> set[str]:
        return {subject.split(".")[0] for subject in item.law.subjects}

    ordered: list["DeclarationOutcome"] = []
    for item in declarations:
        at = len(ordered)
        if item.law.kind == "definition":
            at = next((n for n, other in enumerate(ordered)
                       if other.law.kind != "definition" and roots(other) & roots(item)), at)
        ordered.insert(at, item)
    return ordered


def _called_on(decision: "Decision", moment: Moment) -> Seat | None:
    """The player a card call is made on: the act's target, or the player dealt the card called."""
    act = moment.act
    if act.verb != "call" or not act.cards:
        return None
    if act.target is not None:
        return act.target
    holdings = decision.table.holdings
    return next((seat for seat in holdings if act.card in holdings[seat].dealt), None)


class _Reversal(NamedTuple):
    """What one answer to an open question takes away of a law's declaration here, and what it rules instead."""

    law: str
    which: str
    """"the question below", or "question 2 below" where several are asked."""
    word: str
    """The answer that takes it away: "yes" or "no"."""
    then: str | None = None
    """What the law that answer brings in declares instead ("the dealer may deal again"), if it says so."""
    by: str | None = None

    def clause(self) -> str:
        """Said after the declaration it reverses: ", unless the answer to the question below is yes: then the
        dealer may deal again (law 44)"."""
        return f", unless the answer to {self.which} is {self.word}" + self._then()

    def short(self) -> str:
        """Said after a further declaration the same answer takes away, its ruling said already: ", unless the
        answer to the question below is yes (law 47)"."""
        return f", unless the answer to {self.which} is {self.word}" + (f" (law {self.by})" if self.by else "")

    @property
    def answer(self) -> tuple[str, str, str | None]:
        """The question, the answer and the law it brings in: reversals alike but for the law they reverse."""
        return self.which, self.word, self.by

    def _then(self) -> str:
        return f": then {self.then} (law {self.by})" if self.then else ""


def _clauses(reversals: "list[_Reversal]", answered: "set[tuple[str, str, str | None]]") -> str:
    """One reversal said with what its answer rules, the first time that answer is said (`answered`), and briefly
    after; several on one declaration named by question and law only (", unless the answer to question 1 (law 4)
    or question 2 (law 5) below is yes"), each question's ruling being listed below it, so that no "unless" hangs
    on another."""
    if len(reversals) == 1:
        reversal = reversals[0]
        text = reversal.short() if reversal.answer in answered else reversal.clause()
        answered.add(reversal.answer)
        return text
    answered.update(reversal.answer for reversal in reversals)
    said = []
    for word in dict.fromkeys(reversal.word for reversal in reversals):
        named = [reversal.which.removesuffix(" below") + (f" (law {reversal.by})" if reversal.by else "")
                 for reversal in reversals if reversal.word == word]
        said.append(f", unless the answer to {' or '.join(dict.fromkeys(named))} below is {word}")
    return "".join(said)


def _which(decision: "Decision", question: "Asked") -> str:
    """How the short ruling points at an open question: "the question below", or "question 2 below"."""
    asking = [q for q in decision.questions or () if q.changes]
    number = next((n for n, q in enumerate(asking, start=1) if q is question), None)
    return "the question below" if len(asking) < 2 or number is None else f"question {number} below"


def _settling(question: "Asked") -> set[str]:
    """The laws either answer takes away: they rule only how the question is settled (Euchre 66's search)."""
    return {law.id for law in question.if_so_not} & {law.id for law in question.otherwise_not}


def _reversals(decision: "Decision") -> "dict[str, list[_Reversal]]":
    """Each law whose declaration here an open answer may take away, with what that answer rules instead: the
    law is no longer cited under that answer (Long Whist 13, a premature claim, once the cards are mixed after
    it: law 14), or the law the answer brings in sets it aside (Euchre 44 saves the dealer from law 43's loss of
    the deal). The one mechanism for it, so that a reversal is said once, where the declaration is."""
    said: dict[str, list[_Reversal]] = {}
    declaring = list(dict.fromkeys(item.law.id for item in decision.declarations))
    for question in decision.questions or ():
        if not question.changes:
            continue
        which = _which(decision, question)
        settling = _settling(question)
        for word, brings, takes, branch in (("yes", question.if_so, question.if_so_not, question.if_so_ruling),
                                            ("no", question.otherwise, question.otherwise_not,
                                             question.otherwise_ruling)):
            taken = {law.id for law in takes}
            for law_id in declaring:
                if law_id in settling:
                    continue
                by = next((law for law in brings if law.rulings and any(
                    defeat.law == law_id and defeat.what in ("law", "rulings") for defeat in law.defeats)), None)
                if law_id not in taken and by is None:
                    continue
                then = None
                if by is not None:
                    # What it declares under that answer, or else the first thing it can declare.
                    declared = [item.declaration.text for item in (branch.declarations if branch else ())
                                if item.law.id == by.id] or [by.rulings[0].text]
                    then = _lower_first(side_words(visible(declared[0])).strip().rstrip("."))
                reversal = _Reversal(law_id, which, word, then, by.id if by is not None else None)
                if reversal not in said.get(law_id, []):
                    said.setdefault(law_id, []).append(reversal)
    return said


def _score_words(score: dict | None) -> str:
    if score is None:
        return ""
    return ", ".join(f"{SIDE_WORDS.get(str(side), str(side))} {points}" for side, points in score.items())

def _outcome_result(outcome: "Outcome") -> str:
    return _effect_result(outcome.effect)


def _effect_result(effect: "Effect") -> str:
    if effect.score_after is None:
        return ""
    result = _score_words(effect.score_after)
    if effect.meaning:
        result += f": {side_words(re.sub(r' [(][^)]*[)]', '', effect.meaning))}"
    return result

def _honours_decide(score: "Score | None") -> bool:
    """Honours still claimable change some score (Short Whist 6): each is given without and with the call."""
    return score is not None and any(
        o.uncalled is not None and o.uncalled.score_after != o.effect.score_after for o in score.outcomes)


def _callers(score: "Score") -> str:
    return _and_list([SIDE_WORDS.get(str(side), str(side)) for side in score.claimable])


def _uncalled_result(outcome: "Outcome") -> str:
    return _effect_result(outcome.uncalled or outcome.effect)


def _both_results(score: "Score", outcome: "Outcome") -> str:
    """Short Whist 3, 5, 6: the score without the call of honours, then with it (scored last)."""
    held = " and ".join(f"{'four' if n == 4 else 'three'}" for n in score.claimable.values())
    return (f"without the call of honours, {_uncalled_result(outcome)}; if {_callers(score)} call their {held} "
            f"honours before the next trump card is turned up (laws 3, 6), scored last (law 5), "
            f"{_outcome_result(outcome)}")


def _needs_words(needs: str | None) -> str:
    """What the record must add, without the record's own terms: "the tricks each side took"."""
    return re.sub(r"\s*[(][^)]*[)]", "", needs or "what the record does not give")


def _order_decides_nothing(decision: "Decision") -> set[str]:
    """The law that puts the revoke's penalty first (Euchre 4), where the order decides nothing: the hand played
    out, the revoking side scoring nothing on it, and no choice's score turning on the order. It is left out of the
    short form's LAWS (the long form has it)."""
    score = decision.score
    if score is None or score.hand is None or score.floor_decides or any(o.effect.order for o in score.outcomes):
        return set()
    revokers = {offence.seat.side for offence in decision.facts.irregularities
                if offence.kind == "revoke" and offence.seat is not None}
    if not revokers or any(score.hand.get(side) for side in revokers):
        return set()
    idle = set()
    for applied in decision.laws:
        said = [item for item in decision.declarations if item.law.id == applied.law.id]
        if said and all(item.declaration.kind == "revoke_penalty_first" for item in said) \
                and not any(remedy.law.id == applied.law.id for remedy in decision.remedies):
            idle.add(applied.law.id)
    return idle


def _needs(decision: "Decision") -> str | None:
    score = decision.score
    if score is None:
        return None
    for outcome in score.outcomes:
        if outcome.effect.score_after is None and outcome.effect.needs:
            return _needs_words(outcome.effect.needs)
    return None

def _short(item: "OptionOutcome") -> str:
    """An option in a table's cell, its chooser and its offence in the column's heading: "three tricks"."""
    option = item.option
    if not option.text:
        if option.kind == "score":
            return f"add {_number(option.points, 'point')}"
        if option.kind == "deduct":
            return f"deduct {_number(option.points, 'point')}"
        if option.kind == "take_tricks":
            return f"take {_number(option.tricks, 'trick')}"
        if option.kind == "forfeit":
            return f"forfeit of {_number(option.points, 'point')}"
    return side_words(visible(option.wording()))


NO_CLAIM_LINE = "no claim before the cut"
"""The score with a penalty due only on a claim left unclaimed (Euchre 68, Short Whist 78, Long Whist 15: the claim
closes at the cut for the next deal), on a line of its own."""


def _score_table(decision: "Decision", width: int) -> list[str]:
    """The open choices and the final score of each, a row a combination: a column a choice, then the score."""
    score = decision.score
    if score is None or len(score.outcomes) < 2 or all(o.effect.score_after is None for o in score.outcomes):
        return []
    first = score.outcomes[0]
    choosers = [_chooser(remedy, decision) for remedy, _ in first.choices]
    headers = []
    for (remedy, _), who in zip(first.choices, choosers):
        target = _target(remedy.target)
        headers.append(f"{who}, for {target}" if target and choosers.count(who) > 1 else who)
    rows = [[_short(item) for _, item in outcome.choices] for outcome in score.outcomes]
    # A line a choice, with no column heading to name the chooser: the score with no claim is said as such.
    listed = [[NO_CLAIM_LINE if item.option.kind == "no_claim" else cell
               for (_, item), cell in zip(outcome.choices, row)] for outcome, row in zip(score.outcomes, rows)]
    # A column every row gives the same option is no choice: it is said in the decision, not here.
    keep = [i for i in range(len(headers)) if len({row[i] for row in rows}) > 1]
    unplayed = score.hand is None and bool(decision.table.tricks) and not score.rules.void
    headers = [headers[i] for i in keep] + ["Score so far (the hand goes on)" if score.in_play else
                                            "Score (hand not played out)" if unplayed else "Score after the hand"]
    # The order of scoring is said in NEXT where it matters; the cell keeps to who wins what.
    meanings = [side_words(re.sub(r", [^,]* scored first$", "", re.sub(r" [(][^)]*[)]", "", o.effect.meaning)))
                if o.effect.meaning else "" for o in score.outcomes]
    if unplayed and decision.table.next_to_play() is not None:
        # Euchre 63, 68: with no claim (yet) the hand simply goes on, and the penalty may be claimed until the cut;
        # the score before the rest of the hand is not a final score.
        meanings = [m or ("not final: the hand goes on, scored at its end"
                          if any(item.option.kind == "no_claim" for _, item in o.choices) else "")
                    for m, o in zip(meanings, score.outcomes)]
    # Tricks taken from a hand that ended too soon for them to count (Long Whist 14 with 11): the choice is said to
    # give nothing, not left to look like a live one.
    meanings = ["; ".join(part for part in (m, takes_nothing_words(o.effect)) if part)
                for m, o in zip(meanings, score.outcomes)]
    if _honours_decide(score):
        # Short Whist 3, 5, 6: the score without the call of honours, and with it.
        def cell(effect: "Effect | None") -> str:
            if effect is None or effect.score_after is None:
                return f"not known: {_needs_words(effect.needs if effect else None)}"
            meaning = side_words(re.sub(r", [^,]* scored first$", "", re.sub(r" [(][^)]*[)]", "", effect.meaning))) \
                if effect.meaning else ""
            return _score_words(effect.score_after) + (f": {meaning}" if meaning else "")
        cells = [[row[i] for i in keep] + [cell(o.uncalled or o.effect), cell(o.effect)]
                 for row, o in zip(rows, score.outcomes)]
        heads = headers[:-1] + ["Without the call of honours", f"If {_callers(score)} call them"]
        widths = [max(len(heads[i]), *(len(row[i]) for row in cells)) for i in range(len(heads))]
        if sum(widths) + 2 * (len(widths) - 1) <= width:
            return ["  ".join(text.ljust(size) for text, size in zip(line_cells, widths)).rstrip()
                    for line_cells in [heads, *cells]]
        # Too wide for a table: one line a choice.
        lines = []
        for row, o in zip(listed, score.outcomes):
            said = ", ".join(row[i] for i in keep)
            if o.effect.score_after is None:
                text = f"{cell(o.effect)}"
            elif o.uncalled is None or o.uncalled.score_after == o.effect.score_after:
                text = f"{cell(o.effect)}, called or not"
            else:
                text = f"{cell(o.uncalled)}; called, {cell(o.effect)}"
            lines.extend(textwrap.wrap(f"{said}: {text}." if said else f"{text[:1].upper()}{text[1:]}.", width,
                                       initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False))
        return lines
    rows = [[row[i] for i in keep] + [_score_words(o.effect.score_after) if o.effect.score_after is not None
                                      else f"not known: {_needs_words(o.effect.needs)}"]
            + ([m] if any(meanings) else [])
            for row, o, m in zip(rows, score.outcomes, meanings)]
    if any(meanings):
        headers.append("")
    sizes = [max(len(headers[i]), *(len(row[i]) for row in rows)) for i in range(len(headers))]
    if sum(sizes) + 2 * (len(sizes) - 1) > width:
        return [line for row, said in zip(rows, listed) for line in textwrap.wrap(
            ", ".join(said[i] for i in keep) + ": " + ", ".join(cell for cell in row[len(keep):] if cell) + ".",
            width, initial_indent="- ", subsequent_indent="  ")]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.ljust(size) for cell, size in zip(cells, sizes)).rstrip()
    return [line(headers), *(line(row) for row in rows)]


def _claim_line(claim: Claim, cutter: Seat | None = None) -> str:
    """The claim and its timing; `cutter`, who made the cut it came after, where one did."""
    against = f" against {claim.against.word}" if claim.against else ""
    kind = "a revoke" if claim.kind == "revoke" else f"the {claim.kind}"
    text = f"{claim.seat.word} claimed {kind}{against}"
    if claim.kind == "deal":  # Short Whist 48, 50: "asserting that it is not his deal"
        text = f"{claim.seat.word} objected that it was not {claim.against.word + chr(39) + 's' if claim.against else 'his'} deal"
    if claim.after_cut and claim.own_cut_unpresented:
        who = cutter.word if cutter is not None else SIDE_WORDS[str(claim.seat.side)]
        text += f" after {who} cut for the next deal, the pack not presented"
    elif claim.after_cut:
        text += " after the cards were cut for the next deal"
    elif claim.after_unpresented_cut:
        who = cutter.word if cutter is not None else SIDE_WORDS[str(claim.seat.side.other)]
        text += f" after {who} cut for the next deal, the pack not presented"
    if claim.after_next_turn:
        text += f"{',' if claim.after_cut else ''} after the trump card of the next deal was turned up"
    if claim.kind in ("game", "score") and claim.honours_claim:
        text += (f", a claim of the {number_word(claim.side_honours)} honours his side held"
                 if claim.side_honours is not None else ", a claim of the honours his side held")
    if claim.withdrawn:
        text += ", and withdrew the claim, so it counts for nothing"
    return _sentence(text)

def _deciding_moments(decision: "Decision") -> list[Moment]:
    """The acts the laws that decide turn on, in the order they happened: each match's own act, and every act
    that a part of the law's condition (not one it denies) names and finds, as the touches of Euchre 43."""
    found: dict[int, Moment] = {}
    for applied in decision.laws:
        for match in applied.matches:
            if isinstance(match.binding, Moment):
                found.setdefault(id(match.binding), match.binding)
        for moment in applied.acts:
            if moment.act.verb in _PAST:
                found.setdefault(id(moment), moment)
    return sorted(found.values(), key=lambda moment: moment.entry)


def _moment_line(moment: Moment, moments: "tuple[Moment, ...] | list[Moment]" = ()) -> str:
    act = moment.act
    if act.seat is None:
        return _sentence(f"At the table: {visible(act.text())}")
    if act.verb == "deal":
        packets = re.findall(r"\d+", act.text())
        if packets:
            return _sentence(f"{act.seat.word} dealt the cards by {_and_list([number_word(int(n)) for n in packets])}")
    if act.verb == "deal" and act.word == "irregular":
        return _sentence(f"{act.seat.word} dealt the cards irregularly")
    if act.verb == "names" and act.cards:
        return _sentence(f"{act.seat.word} named {cards_words(list(act.cards))}")
    if act.verb == "call" and (act.cards or act.suit):
        called = cards_words(list(act.cards)) if act.cards else act.suit.word if act.suit else ""
        on = f" from {act.target.word}" if act.target is not None else ""
        return _sentence(f"{act.seat.word} called {called}{on}")
    if act.verb == "give" and act.target is not None:
        what = "a packet" if act.word == "packet" else f"the {act.word or 'cards'}"
        return _sentence(f"{act.seat.word} gave {what} to {act.target.word}")
    did = _PAST.get(act.verb)
    if did is None:
        return _sentence(f"{act.seat.word}: “{visible(act.text())}”")
    if act.verb == "shuffle":
        # Short Whist 36, Euchre 30: a shuffle after another player's cut is said as that.
        cut = next((other for other in sorted(moments, key=lambda m: -m.entry) if other.entry < moment.entry
                    and other.act.verb == "cut" and other.phase == moment.phase), None)
        if cut is not None and cut.act.seat is not None and cut.act.seat is not act.seat:
            return _sentence(f"{act.seat.word} shuffled the pack after {cut.act.seat.word}'s cut")
    # The same act done again by the same player for the same deal (Euchre 24: "shuffle once only").
    before = sum(1 for other in moments if other.entry < moment.entry and other.act.verb == act.verb
                 and other.act.seat is act.seat and other.phase == moment.phase)
    again = f" {('twice', 'three times', 'four times')[min(before, 3) - 1]}" if before else ""
    return _sentence(f"{act.seat.word} {did}{again}")

def _irregularity_lines(irregularities: list[Irregularity]) -> list[tuple[int, str]]:
    """One line an irregularity, with the log entry it was made at; the same act by several players in one line
    ("West, North, East and South threw their cards face up on the table"), at the first of them."""
    alike: dict[str, list[Irregularity]] = {}
    for item in irregularities:
        text = visible(item.because)
        rest = text[len(item.seat.word) + 1:] if item.seat and text.startswith(item.seat.word + " ") else None
        alike.setdefault(f"{item.kind}:{rest}" if rest is not None else f"{id(item)}", []).append(item)
    lines = []
    for key, items in alike.items():
        entry = min(item.entry for item in items)
        if len(items) == 1:
            lines.append((entry, _sentence(visible(items[0].because))))
            continue
        rest = key.split(":", 1)[1].replace(" his ", " their ").replace(" he ", " they ")
        lines.append((entry, _sentence(f"{_and_list([item.seat.word for item in items if item.seat])} {rest}")))
    return lines

def _unless_asked(decision: "Decision") -> str:
    """A score that holds only for one answer to an open question, whose other answer gives another score (Long
    Whist 14: the accused side mixed the cards, and the revoke is forfeited): "If the answer is no, "."""
    for asked in (q for q in decision.questions or () if q.changes and q.if_so_score is not None):
        if asked.if_so and not asked.otherwise:
            return f"If the answer to {_which(decision, asked)} is no, "
    return ""

def _forked(decision: "Decision") -> "Asked | None":
    """The one open question whose yes brings in a law that reverses a declaration and gives a score of its own,
    a no leaving the ruling as it stands (Long Whist 14 with 13: the cards mixed after a claim made too soon, by
    nobody remembers whom): each answer is then said in a sentence of its own."""
    score = decision.score
    if not _unless_asked(decision) or score is None or len(score.outcomes) != 1 \
            or score.outcomes[0].effect.score_after is None:
        return None  # no score of the no's own to say it with
    asking = [q for q in decision.questions or () if q.changes]
    return asking[0] if len(asking) == 1 and asking[0].if_so_ruling is not None else None


def _branch_choices(branch: "Decision") -> str:
    """The one choice an answer opens, each option with the score it gives: "North–South choose one of law 11's
    penalties: add three points (North–South 5, East–West 3), ..."."""
    score = branch.score
    if score is None or not score.outcomes or any(len(o.choices) != 1 or o.effect.score_after is None
                                                  for o in score.outcomes):
        return ""
    remedy = score.outcomes[0].choices[0][0]
    # A choice that gives nothing is said so, not with the score it leaves as it was (Long Whist 14 with 11).
    options = [f"{_short(item)} ({takes_nothing_words(o.effect) or _score_words(o.effect.score_after)})"
               for o in score.outcomes for _, item in o.choices]
    return f"{_chooser(remedy, branch)} then choose one of law {remedy.law.id}'s penalties: {_or_list(options)}"


def _pending(decision: "Decision") -> str:
    """No law applies as the record stands, but an open question's answer would bring one in: the ruling turns on
    it, and "no penalty" is said only for the answer that brings none (Long Whist 16, the score unknown)."""
    parts: list[str] = []
    open_ = [q for q in decision.questions or () if q.changes]
    if len(open_) != 1:
        return ""  # several questions: each is listed under "Still to settle"
    for asked in open_:
        for answer, laws, other in (("yes", asked.if_so, "no"), ("no", asked.otherwise, "yes")):
            if answer == "yes" and asked.if_so and {law.id for law in asked.if_so} == {law.id for law in asked.otherwise}:
                # The same law either way, ruling differently (Long Whist 18: honours scored against a side that
                # did not hold them, set up for one that did and claimed them in time).
                named = _and_list([f"law {law.id} ({visible(law.title).lower()})" for law in laws])
                parts.append(f"{named} {'applies' if len(laws) == 1 else 'apply'} whichever the answer, "
                             f"and what {'it rules' if len(laws) == 1 else 'they rule'} turns on it")
            if laws and not (asked.if_so and asked.otherwise):
                named = _and_list([f"law {law.id} ({visible(law.title).lower()})" for law in laws])
                parts.append(f"if the answer is {answer}, {named} {'applies' if len(laws) == 1 else 'apply'}; "
                             f"if {other}, no law of this code applies and there is no penalty")
    if not parts:
        return ""
    return "The ruling turns on the question below: " + "; ".join(dict.fromkeys(parts))

def _asked_with_meaning(decision: "Decision", questions: "list[Asked]") -> list[str]:
    """Each open question once, with what a yes would rule ("If yes: there must be a new deal (law 39)"). A
    question that another asks in the same words, narrowed ("... during the deal or the play?"), is asked once,
    with what each law would rule."""
    texts = {id(q): visible(q.question).strip() for q in questions}
    kept: list[tuple[str, list["Asked"]]] = []
    for q in sorted(questions, key=lambda q: len(texts[id(q)])):
        text = texts[id(q)]
        same = next((group for head, group in kept if text.startswith(head.rstrip("?"))), None)
        if same is not None:
            same.append(q)
        else:
            kept.append((text, [q]))
    order = {id(q): n for n, q in enumerate(questions)}
    kept.sort(key=lambda item: min(order[id(q)] for q in item[1]))
    lines = []
    for text, group in kept:
        meanings = [meaning for meaning in dict.fromkeys(_if_yes(decision, q) for q in group) if meaning]
        # One question for several laws: "If yes: ... (law 47); ... (law 37)."
        meaning = meanings[0][:-1] + "".join("; " + m.removeprefix("If yes: ")[:-1] for m in meanings[1:]) + "." \
            if meanings else ""
        # The same law whichever the answer, ruling otherwise on a no (Long Whist 18: honours held and claimed
        # in time are set up): what a no rules is said too.
        nos = [_if_yes(decision, q, yes=False) for q in group
               if q.otherwise and {law.id for law in q.otherwise} == {law.id for law in q.if_so}]
        meaning = " ".join([meaning, *dict.fromkeys(m for m in nos if m)]).strip()
        if not meaning:
            # A no brings a law in, a yes none (Long Whist 16: were they at the point of eight?): what a no rules.
            meaning = " ".join(dict.fromkeys(m for q in group if q.otherwise and not q.if_so
                                             and (m := _if_yes(decision, q, yes=False))))
        scored = " ".join(dict.fromkeys(m for q in group if (m := _scored_answers(q))))
        if scored:
            # The same laws either way, ruling otherwise or measuring what they give (Long Whist 18: honours held or
            # not, the points marked for them): the score after each answer, then what the table does.
            meaning = f"{meaning} {scored}".strip()
            steps = {_next_step(replace(branch, questions=())) for q in group
                     for branch in (q.if_so_ruling, q.otherwise_ruling) if branch is not None}
            if len(steps) == 1 and (step := steps.pop()):
                meaning += f" Either way, next: {step[:1].lower()}{step[1:]}"
        lines.append(f"{text} {meaning}".rstrip())
    return lines


def _scored_answers(question: "Asked") -> str:
    """The score after the hand on each answer, where the answer changes no law but only the score."""
    if {law.id for law in question.if_so} != {law.id for law in question.otherwise} \
            or question.if_so_not or question.otherwise_not:
        return ""
    said = []
    tricks = True
    for word, score in (("yes", question.if_so_score), ("no", question.otherwise_score)):
        if score is None or len(score.outcomes) != 1:
            return ""
        effect = score.outcomes[0].effect
        if effect.by_points:
            # The points marked for honours not known either (Long Whist 18): two, and four.
            # What honours count is said with the law's rulings (the honours set up, or scored against a side).
            result = marked_words(effect, _score_words, tricks, count=False)
            tricks = False
            if not result:
                return ""
            said.append(f"If {word}, the score after the hand as far as the record goes: {side_words(result)}.")
            continue
        result = _effect_result(effect)
        if not result:
            return ""
        known = " as far as the record goes" if effect.needs else ""
        missing = f"; {_needs_words(effect.needs)}" if effect.needs else ""
        said.append(f"If {word}, the score after the hand{known}: {result}{missing}.")
    return " ".join(said)


def _if_no(decision: "Decision", questions: "list[Asked]") -> str:
    """What the table does if the one question asked is answered no, where a no brings in no law and takes none away:
    the ruling as it stands without the question is then the ruling, and its next step is said."""
    def low(text: str) -> str:
        return text if re.match(r"(North|East|South|West)\b", text) else text[:1].lower() + text[1:]

    if questions and all(q.otherwise and not q.if_so and not q.if_so_not for q in questions) \
            and _if_yes(decision, questions[0], yes=False):
        # The mirror: a yes brings in no law and takes none away (Long Whist 16: the call was made at the point of
        # eight), so there is no penalty, and the ruling's next step on a yes is said.
        branch = questions[0].if_so_ruling
        then = _next_step(branch if branch is not None else replace(decision, questions=()))
        return f" If yes: there is no penalty; {low(then)}"
    # Several questions asked in one text (one fact, several laws: Short Whist 37 and 47) are one question here.
    if not questions or any(q.otherwise or q.otherwise_not for q in questions) \
            or not _if_yes(decision, questions[0]):
        return ""

    step = _next_step(replace(decision, questions=()))
    yes = questions[0].if_so_ruling
    then = _next_step(yes) if yes is not None else ""
    if then == step:
        return f" Either way, next: {low(step)}"
    then = f" Then, if yes: {low(then)}" if then and not then.startswith("ask the table") else ""
    return f"{then} If no: {low(step)}"


def _deals_said_once(asked: str, then: str) -> str:
    """The question and what a yes rules, with the step that follows it: where that step names who deals ("Then, if
    yes: gather the cards for the next deal: South deals again"), the laws' own "the dealer deals again" and "by the
    same dealer" (Short Whist 47, 37) are not said before it, so that the deal is said once."""
    yes = re.search(r"Then, if yes: (.*?)(?: If no: |$)", then)
    if yes is None or not re.search(r"\b(North|East|South|West) deals\b", yes.group(1)):
        return asked + then
    return re.sub(r",? and the dealer deals again\b|, by the same dealer\b", "", asked) + then


def _each_answer(decision: "Decision", question: "Asked") -> str:
    """What each answer rules, in the ruling's own sentences rather than law numbers, where nothing applies until
    the question is answered (Euchre 62: did the player who renounced hold the suit led?). Empty where the yes
    ruling is not worked out, or the no is not a ruling its laws declare outright."""
    branch = question.if_so_ruling
    if branch is None or not question.if_so:
        return ""
    # The search answers once the hand is played out: the right to have it played out is spent by then.
    spent = spent_at_the_end(question)
    branch = replace(branch, remedies=tuple(r for r in branch.remedies if r.law.id not in spent))
    said = list(dict.fromkeys(_headline_declarations(branch) + _choice_sentences(branch)))
    if not said:
        return ""
    yes_laws = {law.id for law in question.if_so} - spent
    declared = {item.declaration.text for item in branch.declarations}
    no = [(law.id, ruling.text) for law in question.otherwise for ruling in law.rulings
          if ruling.when is not None and ruling.text not in declared]
    if len(no) != 1:
        return ""
    cite = _and_list(sorted(yes_laws, key=lambda law: (len(law), law)))
    yes = " ".join(_sentence(text) for text in said)
    no_cite, no_text = no[0]
    return f"If so: {yes[:1].lower()}{yes[1:].rstrip('.')} (law{'s' if len(yes_laws) > 1 else ''} {cite}). " \
        f"If not: {no_text[:1].lower()}{no_text[1:].rstrip('.')} (law {no_cite})"


def _if_yes(decision: "Decision", question: "Asked", yes: bool = True) -> str:
    """What the ruling would be if the answer is yes (or, `yes` false, no), in the first sentence the laws it
    brings in would add."""
    laws = {law.id for law in (question.if_so if yes else question.otherwise)}
    branch = question.if_so_ruling if yes else question.otherwise_ruling
    if not laws or branch is None:
        return ""
    now = set(_headline_declarations(decision)) | set(_choice_sentences(decision))
    said = [text for text in _headline_declarations(branch) if text not in now
            and any(item.law.id in laws and side_words(visible(item.declaration.text)).strip() == text
                    for item in branch.declarations)]
    said += [text for text in _choice_sentences(branch) if text not in now
             and any(remedy.law.id in laws for remedy in branch.remedies)]
    if not said:  # the laws it brings in change what another law gives (Short Whist 40: law 38's claim stands)
        said = [text for text in _headline_declarations(branch) + _choice_sentences(branch) if text not in now]
    cite = _and_list(sorted(laws, key=lambda law: (len(law), law)))
    word = "yes" if yes else "no"
    if not said:
        return f"If {word}, law {cite} applies." if len(laws) == 1 else f"If {word}, laws {cite} apply."
    first = re.split(r"(?<=[.;])\s", _sentence(said[0]))[0].rstrip(".;")
    if not re.match(r"(North|East|South|West)\b", first):
        first = first[:1].lower() + first[1:]
    return f"If {word}: {first} (law{'s' if len(laws) > 1 else ''} {cite})."


def _next_step(decision: "Decision") -> str:
    from adjudicate.ruling.decision import ENDS_OPTIONS, NEW_HAND

    questions = [q for q in decision.questions or () if q.changes]
    if questions:
        def low(text: str) -> str:
            return text if re.match(r"(North|East|South|West)\b", text) else text[:1].lower() + text[1:]

        asking = "ask the table these first: the ruling turns on them."
        # What the table does next whatever the answers, where every answer leads to the same step.
        # The step as the record stands, every answer left out: computed once, for the three uses below.
        base = _next_step(replace(decision, questions=()))
        alike = {_next_step(replace(branch, questions=())) for q in questions
                 for branch in (q.if_so_ruling, q.otherwise_ruling) if branch is not None} | {base}
        if len(alike) == 1:
            return f"{asking} Whatever the answers, next: {low(alike.pop())}"
        yes_only = not any(q.otherwise or q.otherwise_not for q in questions)
        if len(questions) > 1 and yes_only \
                and not any(item.declaration.kind in NEW_HAND for item in decision.declarations):
            # Each question brings in a law on a "yes" (a ground for a claim, a law that ends the deal), and a "no"
            # to all of them brings in none, so the table goes on as the record stands: each step is said.
            if base and not base.startswith("ask the table"):
                steps = []
                for number, question in enumerate(questions, start=1):
                    yes = question.if_so_ruling
                    then = _next_step(yes) if yes is not None and decision.facts.irregularities else ""
                    if then and then != base and not then.startswith("ask the table"):
                        # The play that follows is said once, at the end.
                        tail = "; then the hand is played out and scored at its end."
                        if then.endswith(tail) and base.endswith(tail):
                            then = then[:-len(tail)] + "."
                        steps.append(f"If yes to {number}: {low(then)}")
                return " ".join([asking, *steps, f"If no answer is yes: {low(base)}"])
        if yes_only:
            # No "no" brings a law in or takes one away: with every answer no, the ruling is the record's as it
            # stands, and so is its next step.
            return f"{asking} If no answer is yes, next: {low(base)}"
        return asking

    table, score = decision.table, decision.score
    if score is not None and not score.in_play \
            and any(m.act.verb == "turn" and m.phase == "after" for m in table.moments):
        # Euchre 5, Short Whist 6: the next deal's trump card is turned; the score can no longer be changed.
        deal = f"Play the next hand ({(score.next_dealer or table.dealer.left).word}'s deal) on"
        if not score.outcomes or any(o.effect.score_after is None for o in score.outcomes):
            return f"{deal}."  # no score is given above to stand (Long Whist 18: the points scored are not known)
        set_up = next((item for item in decision.declarations if item.declaration.kind == "honours_set_up"), None)
        if set_up is not None:
            # Long Whist 18: "no honours can be set up, unless before claimed": honours claimed in time are
            # added to the score, though the laws in hand do not say what they count.
            who = honours_set_up_by(decision)
            side = f" {SIDE_WORDS[who]}" if who else ""
            return (f"{deal}; the score stands as given above, with the honours{side} claimed in time set up "
                    f"and added to it (law {set_up.law.id}).")
        if any(item.declaration.kind == "score_correction_too_late" for item in decision.declarations):
            return f"{deal}; the score stands as marked."  # Euchre 5: the error can no longer be put right
        return f"{deal}; the score stands as given above."
    if any((taken := r.made or (r.options[0] if r.mandatory and r.options else None)) is not None
           and taken.option.kind in ENDS_OPTIONS for r in decision.remedies):
        return f"Gather the cards; {table.dealer.word} deals again."  # Short Whist note 11, Euchre 33
    if any(item.declaration.kind == "deal_stopped_not_his" for item in decision.declarations):
        return f"Gather the cards; the player whose deal it is, not {table.dealer.word}, deals."  # Euchre 40
    if any(item.declaration.kind == "deal_stopped" for item in decision.declarations):
        seat = score.next_dealer if score is not None and score.next_dealer is not None else table.dealer
        return f"Gather the cards; {seat.word}{', whose deal it is,' if seat is table.dealer else ''} deals."
    following = table.next_to_play()
    if score is not None and score.hand is None and following is not None \
            and not any(m.act.verb in ("mix", "cut") and m.phase in ("play", "after") for m in table.moments) \
            and any(r.made is not None and r.made.option.kind == "play_out" for r in decision.remedies):
        # Euchre 70: the revoking side has required the hand played out; it goes on, and is scored after the
        # penalty (law 4).
        law = f" (law {ORDER_LAW[decision.rulebook.code]})" if decision.rulebook.code in ORDER_LAW else ""
        rest = _rest_of_hand(decision)
        return _sentence(f"play on: {following[0].word} {'leads' if following[2] else 'plays'} to trick "
                         f"{following[1]}; the hand is scored at its end after the penalty{law}"
                         + (f": {rest}" if rest else ""))
    play_out = [r for r in decision.remedies if r.made is None and any(i.option.kind == "play_out" for i in r.options)]
    at_end = [r for r in decision.remedies if r.made is None and r.remedy.at_end]
    if at_end and score is not None and score.in_play and not questions:
        # Short Whist 72 I: the adversaries choose "at the end of the hand", so it is played on; the revoking side's
        # right to have it played out (law 79) only forbids stopping it.
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in at_end))
        verb = "announces his choice" if len(choosers) == 1 and _one(choosers[0]) else "announce their choice"
        laws = sorted({r.law.id for r in at_end}, key=lambda law_id: (len(law_id), law_id))
        keep = ""
        if play_out:
            who = _and_list(list(dict.fromkeys(_chooser(r, decision) for r in play_out)))
            keep = f"; {who} may require the hand played out, so it is not stopped before its end (law " \
                f"{', '.join(sorted({r.law.id for r in play_out}))})"
        order = f" (law {ORDER_LAW[decision.rulebook.code]})" if decision.rulebook.code in ORDER_LAW else ""
        play_on = _play_on(decision).removesuffix("; the hand is scored at its end")
        return _sentence(f"{play_on}. At the end of the hand {_and_list(choosers)} {verb} of penalty "
                         f"(law {', '.join(laws)}), and the hand is scored after it{order}{keep}")
    if play_out and not questions:
        others = [r for r in decision.remedies if r.made is None and len(r.options) > 1 and r not in play_out]
        unclaimed = [r for r in decision.remedies if r.made is None and r.unclaimed and r not in play_out]
        first = ""
        if unclaimed:
            first = _unclaimed_step(decision, unclaimed, closes=False) + "; "
        if others:
            choosers = list(dict.fromkeys(_chooser(r, decision) for r in others))
            first = f"{_and_list(choosers)} {'announces his' if len(choosers) == 1 and _one(choosers[0]) else 'announce their'} choice; "
        return _sentence(first + _play_out_step(decision, play_out))
    open_remedies = [r for r in decision.remedies if r.made is None and len(r.options) > 1]
    # Short Whist 55 (and 53, note 20): the highest or lowest trump "may be called at any time during that hand";
    # the table does not wait for the choice, which stays open while the hand is played.
    whenever = [r for r in open_remedies if r.remedy.whenever]
    if whenever and len(whenever) == len(open_remedies) and _goes_on(decision) \
            and not _new_deal_open(decision):
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in whenever))
        return _sentence(f"{_play_on(decision)}; {_and_list(choosers)} may make the call at any time during the hand")
    must_pass = next((r for r in open_remedies if any(i.option.kind == "partner_must_pass" for i in r.options)), None)
    if must_pass is not None and (step := _partner_passes_step(decision, must_pass)):
        return step
    if open_remedies:
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in open_remedies))
        verb = ("announces his choice" if _one(choosers[0]) else "announce their choice") if len(choosers) == 1 \
            else "each announce their choice"
        score = decision.score
        # A hand ended before it was played out (Long Whist 14: the cards mixed) has no hand to score: the choice
        # gives the score.
        ended = score is not None and not score.in_play and score.next_dealer is not None \
            and len(decision.table.tricks) < decision.table.game.hand_size \
            and all(o.effect.score_after is not None for o in score.outcomes)
        then = _play_on(decision) if _goes_on(decision) else \
            f"record the score their choice gives, then {score.next_dealer.word} deals" \
            if ended and score is not None and score.next_dealer is not None and any(r.scores for r in open_remedies) \
            else "score the hand" if any(r.scores for r in open_remedies) else "play on"
        if _new_deal_open(decision):
            return _sentence(f"{_and_list(choosers)} {verb}: {_either_way(decision)}")
        # Short Whist 78: no claim stands (none made, or one withdrawn); the penalty is exacted only on a claim
        # made before the cards are cut for the following deal.
        open_claim = next((item for item in decision.declarations if item.declaration.kind == "claim_still_open"), None)
        if open_claim is not None and any(r.scores for r in open_remedies):
            # The time the claim closes is said in the decision (law 78's ruling), and the score with no claim below.
            one = len(choosers) == 1 and _one(choosers[0])
            return _sentence(f"{_and_list(choosers)} {'says whether he claims' if one else 'say whether they claim'} "
                             f"the revoke and, if so, which penalty; then {then}")
        if then == "score the hand" and (recut := _recut(decision)):
            then = f"score the hand; {recut}"
        return _sentence(f"{_and_list(choosers)} {verb}; then {then}")
    if _new_deal_open(decision):
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in decision.remedies if r.made is None))
        say = "says whether he claims" if len(choosers) == 1 and _one(choosers[0]) else "say whether they claim"
        return _sentence(f"{_and_list(choosers)} {say} it: {_either_way(decision)}")
    reshuffle = [r for r in decision.remedies if r.made is None
                 and any(item.option.kind == "shuffle_again" for item in r.options)]
    if reshuffle and any(m.act.verb == "deal" for m in table.moments):
        # Short Whist 32, Euchre 27: the dealer "may be compelled to re-shuffle"; the deal he made on that pack is
        # set aside, and he deals again (no misdeal: the deal is not lost).
        same = table.dealer
        rest = _next_step(replace(decision, remedies=tuple(r for r in decision.remedies if r not in reshuffle)))
        law = f" (law {reshuffle[0].law.id})"
        return _sentence(f"{_chooser(reshuffle[0], decision)} say whether they compel a fresh shuffle: if they do, "
                         f"{same.word} gathers the cards and shuffles again, {same.right.word} cuts, and "
                         f"{same.word} deals again{law}, keeping the deal; if not, "
                         f"{rest[:1].lower() + rest[1:] if not re.match(r'(North|East|South|West)', rest) else rest}")
    if _goes_on(decision):
        return _sentence(_play_on(decision))
    dealer = score.next_dealer if score is not None else None
    deals = f": {dealer.word} deals" + (" again" if dealer is decision.table.dealer else "") if dealer else ""
    if (recut := _recut(decision)) and dealer is not None:
        deals = f": {recut}, and {dealer.word} deals"
    if any(item.declaration.kind == "fresh_cut" for item in decision.declarations) and dealer:
        # Euchre 29, Short Whist 34: the player on the dealer's right cuts, and the same dealer deals; Euchre 27:
        # "The dealer has always the right to shuffle last", so where another shuffled after the cut, he may first.
        gather = f"{dealer.word} gathers the cards; " if any(m.act.verb == "deal" and m.phase == "deal"
                                                            for m in table.moments) else ""
        last = next((item for item in decision.declarations if item.declaration.kind == "dealer_shuffles_last"), None)
        again = next((item for item in decision.declarations
                      if item.declaration.kind == "shuffle_again_after_false_cut"), None)
        if last is not None and again is not None:
            # Euchre 24: "after a false cut" each player may shuffle once more, the dealer's partner first (25).
            return _sentence(f"{gather}after the false cut each player may shuffle once more (law {again.law.id}), "
                             f"{dealer.partner.word} first and {dealer.word} last (law {last.law.id}); then "
                             f"{dealer.right.word} cuts the pack again, and {dealer.word} deals"
                             + (" again" if gather and dealer is table.dealer else ""))
        if last is not None:
            return _sentence(f"{gather}{dealer.word} may shuffle last (law {last.law.id}); then "
                             f"{dealer.right.word} cuts the pack again, and {dealer.word} deals"
                             + (" again" if gather and dealer is table.dealer else ""))
        return _sentence(f"{gather}{dealer.right.word} cuts the pack again; then {dealer.word} deals"
                         + (" again" if gather and dealer is table.dealer else ""))
    if any(item.declaration.kind in NEW_HAND for item in decision.declarations):
        return f"Gather the cards for the next deal{deals}."
    if score is not None and len(score.outcomes) == 1 and score.outcomes[0].effect.score_after is not None:
        if _honours_decide(score):
            return f"Record the score without the honours, and with them only if {_callers(score)} call them " \
                f"before the next trump card is turned up; then go on to the next deal{deals}."
        if score.outcomes[0].effect.rubber_over:
            # No law of the codes rules the cut for a fresh rubber (Short Whist 21 and Euchre 16 only name it, of
            # candidates entering the table): said without a law.
            return "Record the score above: the rubber is over, and the players cut for a fresh rubber."
        return f"Record the score above, then go on to the next deal{deals}."
    offered = [r for r in decision.remedies if r.made is None]
    if offered and all(r.unclaimed for r in offered) and table.next_to_play() is None:
        dealer = score.next_dealer if score is not None else None
        recut = f"{dealer.right.word} cuts the pack {dealer.word} presents, and " \
            if dealer is not None and _own_cut(decision) is not None else ""
        return _sentence(_unclaimed_step(decision, offered) + (f"; then {recut}{dealer.word} deals" if dealer else ""))
    if offered:
        choosers = list(dict.fromkeys(_chooser(r, decision) for r in offered))
        say = "says whether he takes" if len(choosers) == 1 and _one(choosers[0]) else "say whether they take"
        return _sentence(f"{_and_list(choosers)} {say} what is open to them; then play on")
    if table.next_to_play() is None:  # every trick played: the hand is over
        return f"Go on to the next deal: {(score and score.next_dealer or table.dealer.left).word} deals."
    return "Play on."


def _penalty_then_hand(decision: "Decision") -> str:
    """Where a penalty scores and the hand has points of its own, how the score is made up: the penalty first
    (Euchre 4, Short Whist 5), then the hand's points by the law that counts them (Euchre 2: "If they fail to
    take three tricks they are euchred, and the adversaries score two"). Empty otherwise."""
    score, code = decision.score, decision.rulebook.code
    if score is None or not score.hand or not score.hand_laws or code not in ORDER_LAW \
            or not any(points for points in score.hand.values()) \
            or not any(remedy.scores for remedy in decision.remedies):
        return ""
    laws = [law.id for law in score.hand_laws]
    words = _and_list([f"{SIDE_WORDS[str(side)]} {points}" for side, points in score.hand.items() if points])
    making = decision.table.making
    makers = making.maker.side if making is not None and making.maker is not None else None
    if makers is not None and not score.hand.get(makers):
        words = f"{SIDE_WORDS[str(makers)]}, the makers, were euchred: {words}"
    return f"The penalty is scored first (law {ORDER_LAW[code]}), then the hand's own points: {words} " \
        f"(law{'s' if len(laws) > 1 else ''} {_and_list(laws)})"


def _recut(decision: "Decision") -> str:
    """A revoke claimed in time after the revoking side cut without the pack presented: that cut is not the cut
    (Euchre 29, Short Whist 34: "The player on the dealer's right cuts the pack"), so the pack is presented
    again and cut by the next dealer's right-hand player. Empty otherwise."""
    score = decision.score
    dealer = score.next_dealer if score is not None else None
    if dealer is None or not any(claim.after_unpresented_cut and not claim.after_cut and claim.kind == "revoke"
                                 for claim in decision.facts.standing_claims):
        return ""
    return f"{dealer.right.word} cuts the pack {dealer.word} presents"


def _partner_passes_step(decision: "Decision", remedy: "RemedyOutcome") -> str | None:
    """Euchre 80: the adversaries elect that the late assist or order up be played, or not; if not, his partner
    must pass and the making goes on without them (law 77: all four passed, the trump card is turned down and
    the eldest hand names first). None where the record has gone past the making."""
    table, making, offender = decision.table, decision.table.making, remedy.offender
    if making is None or offender is None or making.round != 1 or table.scenario.turned is None \
            or any(trick.active for trick in table.tricks):
        return None
    chooser = _chooser(remedy, decision)
    card = table.scenario.turned
    dealer, partner = table.dealer, offender.partner
    elect = f"if they elect that it be played, {card.suit.word} are trumps and {dealer.word} takes up the " \
        f"{card.name}; then {_play_on(decision)}"
    passed = set(making.passed.get(1, ())) | {offender, partner}
    order = [table.eldest, table.eldest.left, table.eldest.left.left, dealer]
    still = [seat for seat in order if seat not in passed]
    if still:
        rest = f"{partner.word} must pass, and {still[0].word} speaks next"
    else:
        rest = f"{partner.word} must pass: all four have passed, the {card.name} is turned down and " \
            f"{table.eldest.word} names a suit or passes first (law 77)"
    return _sentence(f"{chooser} announce their choice: {elect}; if not, {rest}")


def _new_deal_taken(decision: "Decision") -> bool:
    """A new deal was claimed and nothing scores (Euchre 33, 35, 40): the score before the hand stands, and the
    ruling need not ask for it."""
    from adjudicate.ruling.decision import ENDS_OPTIONS

    taken = [r.made for r in decision.remedies if r.made is not None]
    return any(item.option.kind in ENDS_OPTIONS for item in taken) and not any(_plain_points(item) for item in taken)


def _new_deal_open(decision: "Decision") -> bool:
    """A new deal is still open to a side's choice (not yet claimed or refused)."""
    from adjudicate.ruling.decision import ENDS_OPTIONS

    return any(r.made is None and not r.mandatory and any(i.option.kind in ENDS_OPTIONS for i in r.options)
               for r in decision.remedies)


def _either_way(decision: "Decision") -> str:
    """What the table does after an open choice of a new deal: "if a new deal, South deals again; if the deal
    stands, play on: West leads to trick 1" (Short Whist note 11, Euchre 33: the same dealer deals again)."""
    score = decision.score
    if score is not None and score.rules.honours_game:
        # Long Whist 18, 19: the honours called at eight and set up end the hand, and make the game.
        sides = _and_list([SIDE_WORDS[str(side)] for side in sorted(score.rules.honours_game, key=str)])
        dealer = score.next_dealer or decision.table.dealer.left
        return f"if a new deal, {decision.table.dealer.word} deals again; if the deal stands, the hand is over, " \
            f"{sides} winning the game by their honours, and {dealer.word} deals next"
    return f"if a new deal, {decision.table.dealer.word} deals again; if the deal stands, {_play_on(decision)}"


def _dealt_again(decision: "Decision", outcome: "Outcome") -> bool:
    """The hand is annulled for a new deal (a new deal chosen, or a law that ends it unscored), with no penalty
    points in it: the score before it stands."""
    from adjudicate.ruling.scoring import VOIDS_HAND

    score = decision.score
    void = score is not None and score.rules.void or any(item.option.kind in VOIDS_HAND for _, item in outcome.choices)
    return void and not any(_plain_points(item) for _, item in outcome.choices) \
        and score is not None and outcome.effect.score_after == score.before

def _play_out_open(decision: "Decision") -> bool:
    """The revoking side may still require the hand to be played out (Euchre 70)."""
    return any(r.made is None and any(i.option.kind == "play_out" for i in r.options) for r in decision.remedies)


def _play_out_step(decision: "Decision", play_out: list["RemedyOutcome"]) -> str:
    """The revoking side's election (Euchre 70, Short Whist 79), and what the table does either way."""
    table, score = decision.table, decision.score
    both = len({r.chooser for r in play_out}) > 1
    who = "either side may require" if both else f"{_chooser(play_out[0], decision)} may require"
    if_so = "if either does" if both else "if they do"
    if_not = "if neither does" if both else "if they do not"
    following = table.next_to_play()
    where = f"{following[0].word} {'leads' if following[2] else 'plays'} to trick {following[1]}" if following \
        else "play on"
    code = decision.rulebook.code
    law = f" (law {ORDER_LAW[code]})" if code in ORDER_LAW else ""
    penalty = any(r.scores for r in decision.remedies)
    claimed = _claimed_outcomes(score)
    won = bool(claimed) and all(o.effect.meaning for o in claimed)
    dealer = score.next_dealer if score is not None else None
    deals = f"{dealer.word} deals {'again' if dealer is table.dealer else 'next'}" if dealer else "the next deal"
    if won:
        rest = _rest_of_hand(decision)
        if rest:
            return f"{who} the hand played out; {if_not}, {deals}. {if_so.capitalize()}, {where}, and the hand " \
                f"is scored at its end after the penalty{law}: {rest}"
        rest = f"the penalty, scored first{law}, has won the game whatever the hand makes"
        return f"{who} the hand played out; {if_not}, {deals}. {if_so.capitalize()}, {where}: {rest}"
    elif penalty:
        rest = f"its points after the penalty{law}"
    else:
        rest = "the hand scored at its end"
    return f"{who} the hand played out; {if_not}, {deals}. {if_so.capitalize()}, {where}, {rest}"


def _rest_of_hand(decision: "Decision") -> str | None:
    """What the rest of a Euchre hand played out (law 70) scores after a penalty that has won the game (law 4), laps
    being played (law 1, Technical Terms "Lap"): the winners' points are carried to the next game; their
    adversaries', made after the game they lost, are not scored (docs/rulings.md). None where that does not arise."""
    score, table, game = decision.score, decision.table, decision.rulebook.game
    if score is None or not score.rules.laps or score.hand is not None or table.making is None \
            or table.making.maker is None:
        return None
    winners = {side for o in _claimed_outcomes(score) if o.effect.score_after is not None
               for side, points in o.effect.score_after.items() if points >= game.game_points}
    results = hand_can_give(decision.rulebook.code, game, table)
    if len(winners) != 1 or not results:
        return None
    winner = winners.pop()
    already = max(o.effect.score_after[winner] for o in _claimed_outcomes(score) if o.effect.score_after is not None) \
        - game.game_points
    maker, makers = table.making.maker, table.making.maker.side
    lone = table.making.lone is not None
    who = maker.word if lone else str(makers)
    take = "takes" if lone else "take"
    conditions = {"march": f"if {who} {take} all five tricks", "point": f"if {who} {take} three or four",
                  "euchre": f"if {who} {'is' if lone else 'are'} euchred"}
    said: list[str] = []
    lost = [(result, side, points) for result, side, points in results if side is not winner and points]
    if {result for result, _, _ in lost} == {"march", "point"}:
        lost = [("three or more", lost[0][1], 0)]
        conditions["three or more"] = f"if {who} {take} three tricks or more"
    for result, side, points in results:
        if side is winner:
            carried = already + points
            said.append(f"{conditions[result]}, {side} carry {_number(carried, 'point')} to the next game"
                        + (" (a lap, law 1)" if not said else ""))
    for result, side, points in lost:
        what = f"{side}'s points come" if not points else \
            f"{side}'s {_number(points, 'point')} {'comes' if points == 1 else 'come'}"
        said.append(f"{conditions[result]}, {what} after the game they lost and are not scored")
    return side_words("; ".join(said))


def _claimed_outcomes(score: "Score | None") -> list["Outcome"]:
    """The outcomes with every penalty that "may be claimed" claimed (Euchre 63): what the election of law 70
    turns on."""
    if score is None:
        return []
    return [o for o in score.outcomes if not any(item.option.kind == "no_claim" for _, item in o.choices)]


def _goes_on(decision: "Decision") -> bool:
    """The hand is still in play (`Score.in_play`) and no score open to the choosers ends the game by a penalty."""
    score = decision.score
    return score is not None and score.in_play and not any(o.effect.meaning for o in score.outcomes)


def _play_on(decision: "Decision") -> str:
    """How the play goes on, the hand in play: "play on: West leads to trick 3; the hand is scored when it is
    played out"."""
    table = decision.table
    following = table.next_to_play()
    scored = "the hand is scored at its end"
    if following is None or not table.tricks and not any(m.phase == "play" for m in table.moments):
        first = _before_play(decision)
        if first:
            return f"{first}; then the hand is played out and scored at its end"
        if following is None or table.trump is None or table.game.family != "whist":
            return "play the hand out; it is scored at its end"
    seat, trick, leads = following
    making = table.making
    # Euchre: the dealer who took up the trump card in the first round discards before he plays (law 86 is
    # the penalty when he does not); a lead made before it does not excuse him.
    discard = f" ({table.dealer.word} discards before he plays)" if making is not None and making.round == 1 \
        and making.maker is not None and making.discard is None and table.dealer is not table.out \
        and table.dealer.word not in (p.seat.word for t in table.tricks for p in t.active) else ""
    # Long Whist 9: the leader's partner having played before his turn, the fourth hand may do the same.
    before = next((f", or {seat.partner.word} before him (law {item.law.id})" for item in decision.declarations
                   if item.declaration.kind == "may_play_before_turn" and not leads), "")
    if table.eldest is not table.dealer.left:
        # Another player dealt the cards in play, and the deal stands (Short Whist 48): the deal passes from him.
        scored += f", and {table.eldest.word}, on the left of the player who dealt, deals next"
    # Euchre 55: every demand comes to the one card he may lawfully play (said in the ruling): it is named.
    saying = {d.law.id for d in decision.declarations if d.declaration.kind == "one_lawful_card"}
    only = next((item.get("only_card") for applied in decision.laws if applied.law.id in saying
                 for match in applied.matches if isinstance(item := match.binding, Irregularity)
                 and item.trick == trick and item.seat is not None and item.seat.partner is seat
                 and isinstance(item.get("only_card"), Card)), None)
    first = _call_first(decision, trick) if not leads else ""
    if isinstance(only, Card) and not leads:
        return f"play on: {first}{seat.word} plays the {only.name} to trick {trick}{before}{discard}" \
            f"{_false_lead(decision)}; {scored}"
    return f"play on: {first}{seat.word} {'leads' if leads else 'plays'} to trick {trick}{before}{discard}" \
        f"{_false_lead(decision)}; {scored}"


def _call_first(decision: "Decision", trick: int) -> str:
    """A card played out of turn (not led) to the trick in play, which the adversaries may still call: called, it
    is taken back and he plays to the trick in his turn (Long Whist 7), so they say so before the play goes on. A
    remedy with other options open is announced as a choice before the play (`_next_step`), and is not said again."""
    tricks = decision.table.tricks
    last = tricks[-1] if tricks else None
    if last is None or last.complete or len(tricks) != trick:
        return ""
    for remedy in decision.remedies:
        target = remedy.target
        if remedy.made is not None or not isinstance(target, Irregularity) or target.trick != trick \
                or target.get("due") is None or [item.option.kind for item in remedy.options] != ["call_card"]:
            continue
        play = next((p for p in last.active[1:] if p.seat is target.seat and p.card == target.get("card")), None)
        if play is not None:
            card = cards_words([play.card]).removeprefix("the ")
            return f"{_chooser(remedy, decision)} first say whether they call {play.seat.word}'s {card}; then "
    return ""


_BEFORE_THE_DEAL = frozenset({"shuffle", "cut", "claim", "mix", "new cards"})
"""Acts of a log that has not yet come to the deal: what is done next is the deal."""


def _before_play(decision: "Decision") -> str | None:
    """What the table does before the play, where the record stops short of it: the deal not yet made ("South
    deals"), or at Euchre the trump not yet made ("South names the trump": the dealer who may not pass, house
    law 77; else the next player speaks, Euchre 8)."""
    table = decision.table
    moments = table.moments
    if moments and all(m.phase == "deal" and m.act.verb in _BEFORE_THE_DEAL for m in moments):
        return f"{table.dealer.word} deals"
    making = [m for m in moments if m.phase == "making" and m.act.seat is not None]
    if table.trump is None and making and moments[-1].phase == "making":
        last = making[-1]
        if last.round == 2 and last.act.seat is table.dealer:
            return f"{table.dealer.word} names the trump"
        return f"{last.act.seat.left.word} speaks next in making the trump" if last.act.seat else None
    if table.making is not None and table.trump is None and moments and moments[-1].phase in ("deal", "making"):
        # Euchre 8 and 9: the trump card turned, the eldest hand speaks first; before it, the deal is finished.
        if any(m.act.verb == "turn" for m in moments):
            return f"{table.eldest.word} speaks first in making the trump"
        if any(m.act.verb == "deal" for m in moments):
            return f"{table.dealer.word} finishes the deal and turns up the trump card"
    return None


def _false_lead(decision: "Decision") -> str:
    """What becomes of a lead out of turn that not all have followed, the rightful leader leading afresh (Euchre
    52, 53, 104; Short Whist 62, 63; Long Whist 7): the card led lies face up, liable to be called, while the
    adversaries may still call it or have called it; else it is taken back (a suit called, or the penalty lost by
    consulting, Euchre 85, Short Whist 84)."""
    tricks = decision.table.tricks
    last = tricks[-1] if tricks else None
    if last is None or last.complete or not last.active or last.active[0].seat is last.due_leader:
        return ""
    play = last.active[0]
    card = cards_words([play.card]).removeprefix("the ")
    others = " (the cards played to it are taken back)" if len(last.active) > 1 else ""
    callable_ = any(r.made.option.kind == "call_card" if r.made is not None
                    else any(i.option.kind == "call_card" for i in r.options) for r in decision.remedies)
    # Euchre 52, Short Whist 62: the adversaries "may either call the card erroneously led, or may call a suit":
    # while they have not chosen, the card lies face up only for the first; a suit called, it is taken back.
    open_choice = next((r for r in decision.remedies if r.made is None
                        and any(i.option.kind == "call_card" for i in r.options)
                        and any(i.option.kind != "call_card" for i in r.options)), None)
    if open_choice is not None:
        return (f"; if {_chooser(open_choice, decision)} call the card, {play.seat.word}'s {card} lies face up, "
                f"liable to be called; if they choose otherwise, {play.seat.word} takes it back{others}")
    if callable_:
        return f"; {play.seat.word}'s {card} lies face up, liable to be called{others}"
    return f"; {play.seat.word} takes back the {card}{others}"

def director_ruling(decision: "Decision", width: int = MAX_WIDTH, colour: bool = False) -> str:
    """The ruling as a director gives it: the decision, what happened, the laws, the choices and the score
    after each, what is still open, and the next step at the table; wrapped to `width`."""
    table, facts, rulebook = decision.table, decision.facts, decision.rulebook
    scenario = table.scenario
    width = max(20, min(width, MAX_WIDTH))
    out: list[str] = []

    def wrap(text: str, first: str = "", rest: str = "") -> list[str]:
        return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                             break_long_words=False, break_on_hyphens=False) or [first.rstrip()]

    def bold(text: str) -> str:
        return f"{BOLD}{text}{RESET}" if colour else text

    def heading(text: str) -> None:
        out.append("")
        out.extend(bold(line) for line in wrap(text.upper()))

    def labelled(label: str, text: str) -> None:
        """A short section on its own lines: "LAWS: 62, Revoke defined; ..."."""
        lines = wrap(f"{label}: {text}", "", "  ")
        lines[0] = lines[0].replace(f"{label}:", bold(f"{label}:"), 1)
        out.extend(lines)

    title = textwrap.shorten(f"Ruling: {visible(scenario.title)}" if scenario.title else "Ruling", width,
                             placeholder="…")
    out.append(bold(title))
    context = [_CODE_NAMES.get(rulebook.code, visible(rulebook.title)), f"dealer {scenario.dealer.word}"]
    if table.trump and table.trump_turned:
        # Euchre 80: the late assist or order up makes the trump only if the adversaries elect it be played.
        pending = next((r for r in decision.remedies if r.made is None
                        and any(i.option.kind == "partner_must_pass" for i in r.options)), None)
        context.append(f"trumps {table.trump.word}"
                       + (f" if {_chooser(pending, decision)} elect that it be played" if pending else ""))
    if scenario.score:
        context.append(f"score {_score_words(scenario.score)}")
    if scenario.games:
        context.append(f"games in the rubber {_score_words(scenario.games)}")
    out.extend(wrap("; ".join(context) + "."))
    if decision.house:
        out.extend(wrap(f"House rules: {visible(decision.house)}."))

    score = decision.score
    rows = _score_table(decision, width)
    in_table = {id(remedy) for outcome in (score.outcomes if score and rows else ()) for remedy, _ in outcome.choices}
    items = _headline_items(decision)
    headline = [text for text, _ in items]
    # What a law says of the score itself (Short Whist 6: honours still to be called) follows the score.
    notes = [text for item in decision.declarations if item.declaration.kind in _SCORE_NOTES
             for text in headline if text == side_words(visible(item.declaration.text)).strip()]
    headline = [text for text in headline if text not in notes]
    # A proviso of a law that also offers a remedy limits that remedy ("but should one player retain his hand,
    # he cannot be forced to abandon it", Euchre 48): the remedy is said first, the proviso after it. Each sentence
    # is known by the declaration it says, its words being the law's with the players named ("If North–South win
    # the trick", Long Whist 7).
    offering = {remedy.law.id for remedy in decision.remedies}
    limits = [text for text, item in items if text in headline and (
        item.law.id in offering
        and f"ruling:{item.declaration.kind}" in {ref for proviso in item.law.provisos for ref in proviso.encoded_by}
        # Euchre 55 with 83: every demand comes to one card, said after the demands (its text names the player).
        or item.declaration.kind == "one_lawful_card")]
    headline = [text for text in headline if text not in limits]
    honours = _honours_decide(score)
    if score is not None and score.claimable and rulebook.code == "short-whist" \
            and (score.before is None or any(o.effect.score_after is not None for o in score.outcomes)):
        # The score says it (with and without the call), or the call changes nothing (law 5: the game was won
        # on what is scored before honours): either way the note adds nothing. The score before the hand not
        # given, the right to call them is said below with law 6's time limit: the note would say it twice.
        notes = []
    choices = _choice_sentences(decision, in_table)
    # What an open answer may take away is said once, after the first thing the law declares in the headline; a
    # law whose declarations are not said there, on its own after the score.
    reversals = _reversals(decision)
    answered: set[tuple[str, str, str | None]] = set()
    of_law = {text: item.law.id for text, item in items}

    fork = _forked(decision)
    forked: list[tuple[str, _Reversal]] = []

    def reversible(text: str) -> str:
        law_id = of_law.get(text)
        if law_id is None or law_id not in reversals:
            return text
        if fork is not None and len(reversals[law_id]) == 1 and reversals[law_id][0].word == "yes" \
                and reversals[law_id][0].then:
            # Said under the no, what the yes rules instead in a sentence of its own: not "..., unless the answer
            # is yes: then ..." (Long Whist 13 and 14).
            forked.append((text, reversals.pop(law_id)[0]))
            return ""
        return text.rstrip(".") + _clauses(reversals.pop(law_id), answered)

    offered = [_sentence(text) for text in choices] + [_sentence(reversible(text)) for text in limits]
    following = table.next_to_play()
    if following is not None and not following[2] and _call_first(decision, following[1]):
        # A card played out of turn to the trick in play, which the adversaries say whether they call before the
        # play goes on (Long Whist 7; NEXT says it first too): the choice to be made first is said first, and what
        # the laws declare of the play after it, after it.
        decided = offered + [_sentence(reversible(text)) for text in headline]
    else:
        decided = [_sentence(reversible(text)) for text in headline] + offered
    decided = [text for text in decided if text]
    turns_on = _pending(decision) if not decision.laws else ""
    if turns_on and (headline or choices or score is not None):
        decided.append(_sentence(turns_on))
    when = "so far" if score is not None and score.in_play else "after the hand"
    stopped = score is not None and score.hand is None and not score.in_play and _play_out_open(decision)
    if score is not None and (stopped or score.in_play and any(o.effect.meaning for o in score.outcomes)):
        # A penalty that takes a side to game wins it, the hand's own points after it (Euchre 4, Short Whist 5);
        # else the score is the hand's if it stops here (Euchre 70: the revokers may have it played out).
        when = "with the penalty" if any(o.effect.meaning for o in score.outcomes) else "if the hand stops here"
    if score is not None and len(score.outcomes) == 1 and score.outcomes[0].effect.score_after is not None:
        if _dealt_again(decision, score.outcomes[0]) and _new_deal_open(decision):
            decided.append(_sentence("If a new deal is claimed, the hand is not scored and the score stands: "
                                     f"{_outcome_result(score.outcomes[0])}"))
        elif _dealt_again(decision, score.outcomes[0]):
            decided.append(_sentence(f"The hand is not scored; the score stands: {_outcome_result(score.outcomes[0])}"))
        elif score.hand is None and not table.tricks and any(claim.honours_claim for claim in facts.claims):
            # Honours are claimed when the hand is over (Long Whist 18, Short Whist 6), but its play is not
            # written down: the score so far is only the score before it.
            known = "the score after it as far as the record goes, before they are added" \
                if score.outcomes[0].effect.score_after != score.before else "the score before it"
            decided.append(_sentence(f"The tricks each side took in the hand are not in the record; "
                                     f"{known}: {_outcome_result(score.outcomes[0])}"))
        elif not table.tricks and not score.in_play and score.hand is None \
                and not any(m.phase in ("play", "after") for m in table.moments):
            # No card played (a deal stopped or lost): there is no hand to score after.
            decided.append(_sentence(f"The score stands: {_outcome_result(score.outcomes[0])}"))
        elif any(item.declaration.kind == "score_correction_too_late" for item in decision.declarations):
            # Euchre 5: too late to put the error right, the score stands as it was marked, whatever the laws'
            # count of the hand; that count is the marked score only if the hand was marked as the law has it.
            points = next((law.id for law in rulebook.laws if law.kind == "scoring"
                           and "scoring.points" in law.subjects), None)
            by = f" (law {points})" if points else ""
            decided.append(_sentence(f"The hand counted as the laws have it{by} gives {_outcome_result(score.outcomes[0])}; "
                                     "if it was marked otherwise, the score as marked stands"))
        else:
            if not _unless_asked(decision) and (order := _penalty_then_hand(decision)):
                decided.append(_sentence(order))
            if when == "after the hand" and (who := honours_set_up_by(decision)) is not None:
                # Long Whist 18: honours set up in time, their count not in the laws in hand: the score is before them.
                when += f", before {SIDE_WORDS[who]}'s honours are added" if who else ", before the honours are added"
            unless = _unless_asked(decision)
            if fork is not None and forked and fork.if_so_ruling is not None:
                # Each answer in a sentence of its own: the yes with what it rules and the choice it opens, the no
                # with the declaration it leaves standing and the score.
                revoker = next((fact.seat for fact in facts.irregularities
                                if fact.kind == "revoke" and fact.seat is not None), None)
                for text, reversal in forked:
                    then = reversal.then or ""
                    if revoker is not None:
                        then = re.sub(r"^the accused side\b", SIDE_WORDS[str(revoker.side)], then)
                    decided.append(_sentence(f"If the answer to {reversal.which} is yes, {then} (law {reversal.by})"))
                choices_yes = _branch_choices(fork.if_so_ruling)
                if choices_yes:
                    decided.append(_sentence(choices_yes))
                said_no = "; ".join(f"{_lower_first(text.rstrip('.'))} (law {reversal.law})" for text, reversal in forked)
                unless = f"If it is no, {said_no}; "
            decided.append(_sentence(f"{unless}the score {when}: "
                                     + (_both_results(score, score.outcomes[0]) if honours
                                        else _outcome_result(score.outcomes[0]))))
    elif score is not None and score.outcomes and all(o.effect.score_after is not None for o in score.outcomes) \
            and len({_outcome_result(o) for o in score.outcomes}) == 1:
        decided.append(_sentence(f"Whatever is chosen, the score {when}: " + (
            _both_results(score, score.outcomes[0]) if honours else _outcome_result(score.outcomes[0]))))
    elif score is not None and len(score.outcomes) == 1 and (so_far := score.outcomes[0].effect.so_far) \
            and not any(_scored_answers(q) for q in decision.questions or () if q.changes):
        # Long Whist 18: honours scored not having them go against the side, by points the record does not give;
        # the score the tricks leave is said, those points to come off it.
        decided.append(_sentence(f"The score {when}, before the honours are scored against them: "
                                 f"{_score_words(so_far)}"))
    if score is not None and score.before is None and score.hand is not None and not rows \
            and rulebook.code == "short-whist" and not score.claimable and not score.rules.void and not score.in_play and not any(r.scores for r in decision.remedies):
        # The score before the hand is not in the record: the hand's own points are said, to be added to it.
        asking_now = [q for q in decision.questions or () if q.changes]
        differs = any(q.if_so_ruling is not None and q.if_so_ruling.score is not None
                      and q.if_so_ruling.score.hand != score.hand for q in asking_now)
        unless = ("If the answer below is no, " if len(asking_now) == 1 else "If no answer below is yes, ") \
            if differs else ""
        laws = _and_list([law.id for law in score.hand_laws])
        # Whether the hand ends the game turns on the score before it: said, for the table to answer at once.
        goes = going_out(rulebook.code, table.game, table, score.hand, score.rules)
        game = "; " + "; ".join(f"if {SIDE_WORDS[str(side)]} were at {' or '.join(number_word(n) for n in points)}, "
                                f"it takes them to game" for side, points in goes.items()) \
            + (f" (its value by law {GAME_LAW[rulebook.code]})" if rulebook.code in GAME_LAW else "") if goes else ""
        decided.append(_sentence(f"{unless}the hand itself scores {_score_words(score.hand)} "
                                 f"(law{'s' if len(score.hand_laws) > 1 else ''} {laws}), added to the score "
                                 f"before it, which the record does not give{game}"))
    decided += [_sentence(text) for text in notes]
    open_questions = any(q.changes for q in decision.questions) if decision.questions is not None \
        else bool(decision.unknown)
    if not facts.irregularities and not decision.laws and open_questions and not turns_on:
        # The ruling turns on the questions (a claim whose ground the record does not show): nothing stands yet.
        claims = [f"{claim.seat.word}'s claim" for claim in facts.claims if not claim.withdrawn]
        grounds = f"no ground for {_and_list(list(dict.fromkeys(claims)))}" if claims else "no irregularity"
        one = len(_asked_with_meaning(decision, [q for q in decision.questions if q.changes])
                  if decision.questions is not None else {visible(q.question) for q in decision.unknown}) == 1
        fails = claims and not any(q.otherwise for q in decision.questions or () if q.changes)
        decided.insert(0, f"The record shows {grounds}; the ruling turns on the question{'' if one else 's'} below"
                          + ((", and the claim fails if the answer is no." if one
                              else ", and the claim fails if no answer is yes.") if fails else "."))
    # A law whose ruling is said above but which an open answer takes away (Short Whist 50 saves the deal that
    # law 43 loses): said, so that the ruling above is not read as final.
    asking = [q for q in decision.questions or () if q.changes]
    declaring = {item.law.id for item in decision.declarations}
    for open_question in asking:
        # A law that either answer takes away rules only how the question is settled (Euchre 66: the tricks
        # searched at the end of the hand): what each answer rules is said instead.
        if _settling(open_question) & declaring and len(asking) == 1 \
                and (each := _each_answer(decision, open_question)):
            question = visible(re.sub(r" [(][^)]*[)]", "", open_question.question)).strip()
            decided.append(_sentence(f"The search answers the question: {_lower_first(question)} {each}"))
    # The laws an answer takes away that the headline does not declare: nothing more where that answer's ruling is
    # said above (the void hand takes all with it, Short Whist 47); else said once for all of them.
    alone: dict[tuple[str, str, str | None, str | None], list[str]] = {}
    for left in reversals.values():
        for reversal in left:
            if reversal.answer not in answered:
                alone.setdefault((*reversal.answer, reversal.then), []).append(reversal.law)
    for (which_q, answer_word, by_law, instead), lost in alone.items():
        ruled = f": then {instead} (law {by_law})" if instead else ""
        decided.append(_sentence(f"What law{'s' if len(lost) > 1 else ''} {_and_list(lost)} "
                                 f"rule{'' if len(lost) > 1 else 's'} here does not hold if the answer to {which_q} "
                                 f"is {answer_word}{ruled}"))
    held = " and ".join(f"{'four' if n == 4 else 'three'} honours ({'four' if n == 4 else 'two'} points, law 3)"
                        for n in score.claimable.values()) if score is not None else ""
    if score is not None and honours and rows:
        decided.append(_sentence(f"{_callers(score)} may call their {held} until the next trump card is turned "
                                 "up (law 6), scored last (law 5); each score below is given without the call, "
                                 "then with it"))
    elif score is not None and score.claimable and rulebook.code == "short-whist" and score.before is None:
        # The score before the hand not given: no rows to give the call's points in; the right is said, with law 4's
        # "at the score of four ... cannot score honours", which the missing score leaves open.
        decided.append(_sentence(f"{_callers(score)} may call their {held} until the next trump card is turned "
                                 "up (law 6), unless they were at four when the deal began (law 4)"))
    if score is not None and score.claimable and rulebook.code != "short-whist":
        # Long Whist 18: the right to set honours up lasts until the next turn-up; their value is not in hand.
        decided += [_sentence(side_words(item[3])) for item in claimable_words(
            rulebook.code, score.claimable, score.kept_below_game(table.game.game_points))]
    if not decided:
        if not facts.irregularities and not decision.laws:
            played = bool(table.tricks) or any(m.phase in ("play", "after") for m in table.moments)
            first = _before_play(decision)
            decided = ["No irregularity: the hand stands as played." if played else
                       f"No irregularity: {first}." if first else "No irregularity: the deal stands."]
        elif not decision.laws and turns_on:
            decided = [_sentence(turns_on)]
        elif not decision.laws and (open_ := [q for q in decision.questions or () if q.changes]):
            # Nothing applies on the record as it stands, but an open fact would make laws apply (a revoke whose
            # holding is unknown, Euchre 62): the ruling is conditional, not "no penalty".
            decided = [_sentence(f"The ruling turns on what the record leaves open: "
                                 f"{_lower_first(re.sub(r' [(][^)]*[)]', '', q.question))} "
                                 f"{_each_answer(decision, q) or _answers_words(q)}") for q in open_]
        elif not decision.laws:
            decided = ["No law of this code applies to what happened: no penalty."]
        else:
            decided = ["No penalty, and no choice for either side."]
    out.append("")
    for line in wrap(" ".join(decided)):
        out.append(f"{HIGHLIGHT}{line}{RESET}" if colour else line)

    said_at = _irregularity_lines(list(facts.irregularities))
    # An act already said as the irregularity it is, or as the claim it makes, is not said again.
    bound = {id(item) for item in facts.irregularities} | {item.entry for item in facts.irregularities} \
        | {claim.entry for claim in facts.claims}
    if any(item.kind == "wrong_number_of_cards" and item.seat is table.trump_card_to is not None
           and item.seat not in scenario.hands for item in facts.irregularities):
        # Short Whist 44 III, IV: the card too many and the card too few are said "the trump card having gone to
        # West"; the act that gave it is not said a third time.
        bound.update(m.entry for m in table.moments if m.act.verb == "give" and m.act.word == "trump")
    # The consultation said with the offence it was about ("East consulted his partner on its penalty") is not
    # said again on a line of its own.
    for offence in facts.irregularities:
        if offence.get("consulted") is True and offence.seat is not None:
            bound.update(next(([m.entry] for m in table.moments if m.act.verb == "consult" and m.entry > offence.entry
                               and m.act.seat is not None and m.act.seat.side is not offence.seat.side), []))
    # A cut without the pack presented that a claim came after is said with the claim, naming who cut.
    cutters: dict[int, Seat] = {}
    for claim in facts.claims:
        if claim.own_cut_unpresented or claim.after_unpresented_cut:
            cut = next((m for m in reversed(table.moments) if m.act.verb == "cut" and m.act.word == "unpresented"
                        and m.entry < claim.entry and m.act.seat is not None), None)
            if cut is not None and cut.act.seat is not None:
                cutters[claim.entry] = cut.act.seat
                bound.add(cut.entry)
    # The irregularities, acts and claims in the order of the log (Long Whist 14 turns on a mix after the claim;
    # Long Whist 19 on cards thrown down after the call was answered).
    acts: list[tuple[int, str]] = list(said_at)
    for moment in _deciding_moments(decision):
        if id(moment) not in bound and moment.entry not in bound:
            bound.add(id(moment))
            acts.append((moment.entry, _moment_line(moment, table.moments)))
    # A claim that is itself the irregularity (Long Whist 18: honours scored not having them) is said once, as that.
    acts.extend((claim.entry, _claim_line(claim, cutters.get(claim.entry))) for claim in facts.claims
                if not any(item.entry == claim.entry and item.seat is claim.seat for item in facts.irregularities))
    if (own_cut := _own_cut(decision)) is not None and own_cut.entry not in bound:
        # The revoking side's cut the time limit is said beside (Euchre 68): what the table saw.
        dealer = score.next_dealer if score is not None else None
        acts.append((own_cut.entry, f"{own_cut.act.seat.word if own_cut.act.seat else 'The revoking side'} cut for "
                                    "the next deal before " + (f"{dealer.word} presented the pack."
                                                               if dealer is not None else "the pack was presented.")))
    happened = [line for _, line in sorted(acts, key=lambda act: act[0])]
    if score is not None and score.hand is None and table.tricks and not score.rules.void and score.outcomes \
            and any(o.effect.score_after is not None for o in score.outcomes) and not rows and not score.in_play \
            and not _play_out_open(decision):
        # No law of the three codes scores a hand whose cards were mixed before it was played out: said as a reading.
        mixed = any(m.act.verb == "mix" and m.phase != "deal" for m in table.moments)
        # The mixing said already, on the irregularity's line, is not said again.
        mixed_said = any("cards were mixed" in line for line in happened)
        happened.append("The cards being mixed, the hand cannot be played out, and the code says nothing of such a "
                        "hand's own points; read here as not counted." if mixed and mixed_said else
                        "The cards were mixed before the hand was played out, and the code says nothing of such a "
                        "hand's own points; read here as not counted." if mixed else
                        "The hand was not played out, so its own points are not counted.")
    for _qid, question, answer in decision.answered:
        happened.append(f"Asked at the table: {visible(question[:1].upper() + question[1:])} "
                        f"{'Yes' if answer else 'No'}.")
    if happened:
        heading("What happened")
        for text in dict.fromkeys(happened):
            out.extend(wrap(text, "", "  "))

    cited = []
    scoring_laws = {remedy.law.id for remedy in decision.remedies if remedy.scores}
    # Not where the decision itself says the order ("The penalty is scored first (law 4), then ...").
    idle = {law_id for law_id in _order_decides_nothing(decision) if f"(law {law_id})" not in " ".join(decided)}
    for applied in decision.laws:
        law = applied.law
        if law.id in idle:
            continue
        said = paragraphs(law.text)
        text = f"{law.id} {visible(law.title)}"
        # Quoted only where the wording decides: the law that fixes the penalty, when short enough to read out.
        if law.id in scoring_laws and len(said) == 1 and len(said[0]) <= QUOTE_UP_TO:
            text += f": “{visible(_FOOTNOTE.sub('', said[0]).strip())}”"
        cited.append(text)
    # A law that decides on an open question's answer is cited with it: the ruling turns on it.
    listed = {applied.law.id for applied in decision.laws}
    turning: list = []
    spent = {law_id for question in decision.questions or () for law_id in spent_at_the_end(question)}
    for open_law in (law for question in decision.unknown for law in question.laws):
        if open_law.id not in listed and open_law.id not in spent:
            listed.add(open_law.id)
            turning.append(open_law)
    if turning:
        titled = [f"{law.id} {visible(law.title)}" for law in turning]
        if len(turning) > 1:
            titled = [_and_list([law.id for law in turning])]
        # An open `not: question` atom is pending as "not (QUESTION)": one question with QUESTION.
        several = len({re.sub(r"^not \((.*)\)$", r"\1", question.question)
                       for question in decision.unknown}) > 1
        on_answers = f"on the table's answer{'s' if several else ''}, {'; '.join(titled)}"
        # Each question below names the law its yes decides by: where the laws line has no room for them
        # too, the questions cite them alone.
        if not cited or len(wrap(f"LAWS: {'; '.join(cited + [on_answers])}.", "", "  ")) \
                <= len(wrap(f"LAWS: {'; '.join(cited)}.", "", "  ")):
            cited.append(on_answers)
        else:
            turning = []
    if cited:
        out.append("")
        laws_line = "; ".join(cited) + ("" if cited[-1].endswith("”") else ".")
        if len(wrap(f"LAWS: {laws_line}", "", "  ")) > 3:
            # A long list reads better with titles for the laws that rule (a remedy, a declaration, the score)
            # and the others by number: the long form (--explain) has them all in full.
            # A law that declares only whether partners may consult (Short Whist 84) is said in the choice itself.
            ruling_ids = scoring_laws | {item.law.id for item in decision.declarations
                                         if item.declaration.kind not in _CONSULTING} | \
                {remedy.law.id for remedy in decision.remedies}
            # The others (a definition, a law that only describes) are left to the long form: a bare number
            # decides nothing a player can read.
            short = [text for text in cited if text.split(" ", 1)[0] in ruling_ids
                     or text.startswith("on the table's answer")] or cited
            laws_line = "; ".join(short) + ("" if short[-1].endswith("”") else ".")
        labelled("LAWS" if len(decision.laws) - len(idle) + len(turning) > 1 else "LAW", laws_line)
    # A penalty the laws withhold is part of the ruling: which law, and why (the rest is in the long form).
    decided_text = " ".join(decided).lower()
    grouped: dict[tuple, list] = {}
    for item in decision.not_applied:
        if any(remedy_scores(remedy) for remedy in item.law.remedies) and item.defeat.what in ("law", "remedies") \
                and visible(item.because).lower() not in decided_text:
            grouped.setdefault((item.by.id, item.because), []).append(item)
    cited_ids = {applied.law.id for applied in decision.laws}
    for (by, because), defeated in grouped.items():
        # A law cited above whose penalty another law sets aside: its penalty is what is not applied.
        ids = _and_list(list(dict.fromkeys(f"law {entry.law.id}'s penalty" if entry.law.id in cited_ids
                                           else f"{entry.law.id} {visible(entry.law.title)}" for entry in defeated)))
        why = side_words(visible(because))
        labelled("NOT APPLIED", _sentence(f"{ids}: {why}" + ("" if f"law {by}" in why else f" (law {by})")))

    if rows:
        out.append("")
        out.extend(bold(line) if number == 0 else line for number, line in enumerate(rows))
        if score is not None and score.more:
            out.extend(wrap(f"And {number_word(score.more)} more combinations of the choices."))
        if score is not None and score.floor_decides:
            out.extend(wrap(order_words(decision.rulebook.code)))

    questions = [q for q in decision.questions or () if q.changes] if decision.questions is not None else []
    if decision.questions is None and decision.unknown:
        asked = list(dict.fromkeys(visible(q.question) for q in decision.unknown))
    else:
        asked = _asked_with_meaning(decision, questions)
    out.append("")
    search = next((item for item in decision.declarations if item.declaration.kind == "search_at_the_end"), None)
    if len(asked) == 1 and search is not None and len(questions) == 1:
        # Euchre 66: the claimants search the tricks at the end of the hand; the question is settled then, not
        # asked now, and the hand is played on first.
        claimants = _and_list(list(dict.fromkeys(SIDE_WORDS[str(claim.seat.side)] for claim in facts.claims
                                                 if not claim.withdrawn and claim.kind == "revoke")))
        following = table.next_to_play()
        first = f"play on: {following[0].word} {'leads' if following[2] else 'plays'} to trick {following[1]}. " \
            if following is not None else ""
        code = decision.rulebook.code
        points = next((law.id for law in rulebook.laws if law.kind == "scoring" and "scoring.points" in law.subjects),
                      None)
        order = f", the revoke's penalty scored first (law {ORDER_LAW[code]})" if code in ORDER_LAW else ""
        scored = f"; then the hand is scored{order}, or as played if there was no revoke" \
            + (f" (law {points})" if points else "")
        labelled("NEXT", _sentence(f"{first}At the end of the hand, before the cards are cut, {claimants} search "
                                   f"the tricks (law {search.law.id}), which answers the question above{scored}"))
    elif len(asked) == 1:
        # What a yes rules and what the table then does are one sentence: "If yes: ... (law 40); then ...".
        if forked and len(questions) == 1:
            # What the yes rules is said in the decision: the question is asked bare.
            bare = visible(questions[0].question).strip()
            step = _if_no(decision, questions).replace(" Then, if yes: ", " If yes: ", 1)
            step = bare + step
        else:
            step = re.sub(r"\.\s+Then, if yes: ", "; then ", _deals_said_once(asked[0], _if_no(decision, questions)),
                          count=1)
        labelled("NEXT", f"ask the table first: {step[:1].upper()}{step[1:]}")
    else:
        if asked:
            out.pop()
            heading("Still to settle")
            for number, question in enumerate(asked, start=1):
                out.extend(wrap(f"{number}. {question[:1].upper()}{question[1:]}", "", "   "))
            out.append("")
        labelled("NEXT", _next_step(decision))
    needs = _needs(decision)
    if asked:
        hint = HINT_ASK
    elif needs and "score before the hand" in needs and score is not None \
            and (score.hand is not None or any(remedy.scores for remedy in decision.remedies)) \
            and not _new_deal_taken(decision):
        hint = HINT_SCORE
    else:
        hint = HINT_EXPLAIN
    out.extend(wrap(hint, "", " "))
    return "\n".join(line.rstrip() for line in out).strip("\n") + "\n"
