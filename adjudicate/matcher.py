"""The matcher: which laws of a code apply to a replayed hand, and what each side may choose.

Every law with a condition is evaluated over the facts of the hand (each
irregularity with its timing facts, each claim and election, the hand as a
whole). A law whose condition certainly holds applies; one that holds only if
an open fact is so goes under `unknown`, with the laws for each answer. Each
law that applies gives its remedies (who chooses, which options, whether
partners may consult, the score after each) and its rulings.
"""

from __future__ import annotations

from typing import Iterable

from msgspec import Struct

from adjudicate.conditions import Fact, FactIndex, Match, atoms, evaluate, required_subjects
from adjudicate.facts import Claim, Facts, Irregularity
from adjudicate.remedies import CHOOSERS, Declaration, Option, Remedy
from adjudicate.rulebook import Law, Rulebook, builtin_codes, builtin_rulebook
from adjudicate.scoring import Effect, apply_option
from adjudicate.seats import Seat, Side
from adjudicate.table import Moment, Table

CONSULT_BY_DEFAULT = {"euchre": False, "short-whist": False, "long-whist": True}
"""May partners consult before choosing between penalties, where a law does not say (Euchre 85, Short Whist 84)."""


class AppliedLaw(Struct, frozen=True):
    law: Law
    matches: tuple[Match, ...]

    @property
    def because(self) -> str:
        """Why it applies, in a sentence (put together when a report asks: `check` never does)."""
        return _because(self.law, self.matches)


class OptionOutcome(Struct, frozen=True):
    option: Option
    to: Side | None
    effect: Effect


class RemedyOutcome(Struct, frozen=True):
    law: Law
    remedy: Remedy
    chooser: str
    """A side ("NS") or a seat ("E"), or the role's words when the record does not say who."""
    consult: bool
    offender: Seat | None
    options: tuple[OptionOutcome, ...]


class DeclarationOutcome(Struct, frozen=True):
    law: Law
    declaration: Declaration


class OpenQuestion(Struct, frozen=True):
    """A fact the record leaves open, and the laws that apply if it is so."""

    question: str
    laws: tuple[Law, ...]


class Decision(Struct, frozen=True):
    """The ruling on a hand."""

    rulebook: Rulebook
    table: Table
    facts: Facts
    laws: tuple[AppliedLaw, ...]
    remedies: tuple[RemedyOutcome, ...]
    declarations: tuple[DeclarationOutcome, ...]
    unknown: tuple[OpenQuestion, ...]
    house: str | None = None

    @property
    def law_ids(self) -> list[str]:
        return [applied.law.id for applied in self.laws]


def hand_facts(table: Table, facts: Facts, act_verbs: frozenset[str] | None = None) -> list[Fact]:
    """The facts a condition can name, built once per hand.

    `act_verbs`, when given, limits the `act` facts to acts of those verbs: the only ones the
    rulebook's conditions can look up (most of a log is cards played, which no condition names).
    """
    making = table.making
    makers = making.maker.side if making and making.maker else None
    result: list[Fact] = []
    for irregularity in facts.irregularities:
        values: dict[str, object] = {
            "seat": str(irregularity.seat) if irregularity.seat else None,
            "side": str(irregularity.side) if irregularity.side else None,
            "trick": irregularity.trick,
            "by_dealer": irregularity.seat is table.dealer,
            "by_makers": makers is not None and irregularity.side is makers,
            "lone_hand": table.lone is not None,
        }
        for name, value in irregularity.details.items():
            values[name] = _plain(value)
        result.append(Fact(irregularity.kind, values, irregularity, irregularity.unknown))
    for claim in facts.claims:
        result.append(Fact("claim", {
            "kind": claim.kind, "seat": str(claim.seat), "side": str(claim.seat.side),
            "against": str(claim.against) if claim.against else None, "after_cut": claim.after_cut,
            "after_mix": claim.after_mix, "trick": claim.trick}, claim))
    for moment in table.moments:
        if moment.act.verb == "elect" and moment.act.seat is not None:
            result.append(Fact("election", {"kind": moment.act.word, "seat": str(moment.act.seat),
                                            "side": str(moment.act.seat.side), "trick": moment.trick}, moment))
    result.extend(_act_facts(table, makers, act_verbs))
    complete = [trick for trick in table.tricks if trick.complete]
    result.append(Fact("hand", {
        "family": table.game.family,
        "lone": table.lone is not None,
        "round": making.round if making else None,
        "played_out": len(complete) >= table.game.hand_size,
        "makers": str(makers) if makers else None,
        "tricks_played": len(complete),
        "score_known": table.scenario.score is not None,
        "cut_for_next_deal": table.next_deal_cut is not None,
        "mixed": any(m.act.verb == "mix" for m in table.moments),
        "makers_tricks": (sum(1 for trick in complete if trick.winner and trick.winner.side is makers)
                          if makers and len(complete) >= table.game.hand_size else None),
        "passed_out": bool(making and making.maker is None and making.turned_down
                           and len(set(making.passed[2])) >= 4),
    }, None))
    return result


def _act_facts(table: Table, makers: Side | None, verbs: frozenset[str] | None) -> list[Fact]:
    result = []
    cut_in_phase: set[str] = set()
    turned = False
    first_lead = next((play.entry for trick in table.tricks for play in trick.plays), None)
    for moment in table.moments:
        act = moment.act
        seat = act.seat
        if verbs is None or act.verb in verbs:
            result.append(Fact("act", {
                "verb": act.verb, "word": act.word, "seat": str(seat) if seat else None,
                "side": str(seat.side) if seat else None, "phase": moment.phase, "trick": moment.trick,
                "card": str(act.cards[0]) if act.cards else None, "suit": str(act.suit) if act.suit else None,
                "target": str(act.target) if act.target else None,
                "by_dealer": seat is table.dealer, "by_eldest": seat is table.eldest,
                "by_makers": makers is not None and seat is not None and seat.side is makers,
                "by_lone_player": table.lone is not None and seat is table.lone,
                "after_cut": moment.phase in cut_in_phase, "after_turn": turned or moment.phase != "deal",
                "after_first_lead": first_lead is not None and moment.entry > first_lead,
                "round": moment.round,
                "position": table.dealer.steps_to(seat) or 4 if seat else None,
            }, moment))
        if act.verb == "cut":
            cut_in_phase.add(moment.phase)
        if act.verb == "turn":
            turned = True
    return result


def _plain(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


class _Prepared(Struct, frozen=True):
    """A rulebook's laws with conditions, filed by a subject each needs, worked out once a rulebook."""

    always: tuple[tuple[int, Law, frozenset[str]], ...]
    """(order, law, needed subjects) of the laws that need no particular subject."""
    by_subject: dict[str, tuple[tuple[int, Law, frozenset[str]], ...]]
    """The other laws, under one subject each needs (a law can apply only if that subject is in the hand)."""
    act_verbs: frozenset[str] | None
    """The verbs of the acts any condition (a law's, a remedy's, a ruling's `when`) looks up;
    None when some condition looks at acts of every verb."""

    def candidates(self, hand: FactIndex) -> list[tuple[int, Law, frozenset[str]]]:
        """The laws that could apply to this hand, in the rulebook's order."""
        found = list(self.always)
        for subject in hand.by_subject:
            found.extend(self.by_subject.get(subject, ()))
        found.sort(key=lambda item: item[0])
        return found


_PREPARED: dict[int, tuple[Rulebook, _Prepared]] = {}
"""By the rulebook's identity (hashing a rulebook would walk every law); the rulebook is kept, so its id stays its own."""


def _prepared(rulebook: Rulebook) -> _Prepared:
    entry = _PREPARED.get(id(rulebook))
    if entry is None or entry[0] is not rulebook:
        always: list[tuple[int, Law, frozenset[str]]] = []
        filed: dict[str, list[tuple[int, Law, frozenset[str]]]] = {}
        for order, law in enumerate(rulebook.laws):
            if law.condition is None:
                continue
            required = required_subjects(law.condition)
            # File it under its most particular need: a narrowed act or claim, then any irregularity.
            keys = sorted(required, key=lambda subject: (subject in ("hand", "act", "claim", "election"),
                                                         ":" not in subject, subject))
            if keys:
                filed.setdefault(keys[0], []).append((order, law, required))
            else:
                always.append((order, law, required))
        entry = (rulebook, _Prepared(tuple(always), {key: tuple(laws) for key, laws in filed.items()},
                                     _act_verbs(rulebook)))
        _PREPARED[id(rulebook)] = entry
    return entry[1]


def _act_verbs(rulebook: Rulebook) -> frozenset[str] | None:
    conditions = [law.condition for law in rulebook.laws if law.condition is not None]
    for law in rulebook.laws:
        conditions.extend(item.when for item in law.rulings if item.when is not None)
        for remedy in law.remedies:
            whens = [remedy.when, *(option.when for option in remedy.options)]
            conditions.extend(when for when in whens if when is not None)
    verbs = set()
    for atom in (atom for condition in conditions for atom in atoms(condition)):
        if atom.subject == "act":
            if atom.key == "act":
                return None
            verbs.add(atom.key[len("act:"):])
    return frozenset(verbs)


def decide(rulebook: Rulebook, table: Table, facts: Facts, house: str | None = None) -> Decision:
    """Match every law of the rulebook against the hand."""
    prepared = _prepared(rulebook)
    hand = FactIndex(hand_facts(table, facts, prepared.act_verbs))
    applied: list[AppliedLaw] = []
    open_questions: dict[str, list[Law]] = {}
    for _order, law, required in prepared.candidates(hand):
        assert law.condition is not None  # only laws with a condition are prepared
        matches = evaluate(law.condition, hand, required)
        certain = tuple(match for match in matches if match.certain)
        if certain:
            applied.append(AppliedLaw(law, certain))
            continue
        for match in matches:
            question = "; and ".join(match.questions)
            laws = open_questions.setdefault(question, [])
            if law not in laws:
                laws.append(law)
    declarations = [DeclarationOutcome(item.law, declaration) for item in applied
                    for declaration in item.law.rulings
                    if declaration.when is None or _holds(declaration.when, hand)]
    remedies: list[RemedyOutcome] = []
    for item in applied:
        for binding in _bindings(item.matches):
            offender = _offender(binding)
            for remedy in item.law.remedies:
                if remedy.when is not None and not _holds(remedy.when, hand):
                    continue
                remedies.append(_remedy(rulebook, table, item.law, remedy, offender, binding, hand, declarations))
    unknown = tuple(OpenQuestion(question, tuple(laws)) for question, laws in open_questions.items())
    return Decision(rulebook, table, facts, tuple(applied), tuple(remedies), tuple(declarations), unknown, house)


def _holds(condition, hand: FactIndex) -> bool:
    return any(match.certain for match in evaluate(condition, hand))


def _bindings(matches: Iterable[Match]) -> list[object | None]:
    """Each distinct thing the law applies to (each revoke: law 63's "as often as the revoke is repeated")."""
    seen: dict[int, object | None] = {}
    for match in matches:
        seen.setdefault(id(match.binding), match.binding)
    bound = [binding for binding in seen.values() if binding is not None]
    return bound or [None]


def _offender(binding: object | None) -> Seat | None:
    if isinstance(binding, Irregularity):
        return binding.seat
    if isinstance(binding, Claim):
        return binding.against
    if isinstance(binding, Moment):
        return binding.act.seat
    return None


def _because(law: Law, matches: tuple[Match, ...]) -> str:
    sentences = []
    for match in matches:
        binding = match.binding
        if isinstance(binding, Irregularity):
            sentences.append(binding.because)
        elif isinstance(binding, Claim):
            against = f" against {binding.against.word}" if binding.against else ""
            when = " after the cards were cut for the next deal" if binding.after_cut else ""
            sentences.append(f"{binding.seat.word} claimed {binding.kind}{against}{when}")
        elif isinstance(binding, Moment):
            who = f"{binding.act.seat.word} said or did" if binding.act.seat else "the table event was"
            sentences.append(f"{who} \"{binding.act.text()}\" (log entry {binding.entry})")
    sentences = list(dict.fromkeys(sentences))
    text = "; ".join(sentences)
    if law.because:
        text = f"{law.because}: {text}" if text else law.because
    return _sentence(text or f"the facts of the hand meet law {law.id}")


def _sentence(text: str) -> str:
    text = text.strip()
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


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
            binding: object | None, hand: FactIndex, declarations: list[DeclarationOutcome]) -> RemedyOutcome:
    chooser, chooser_side = _chooser(remedy.chooser, table, offender, binding)
    offenders = offender.side if offender else (chooser_side.other if chooser_side else None)
    capped = _capped_sides(declarations, offenders)
    hand_ends = any(item.declaration.kind == "hand_ends" for item in declarations)
    options = []
    for option in remedy.options:
        if option.when is not None and not _holds(option.when, hand):
            continue
        number = option.points if option.points is not None else option.tricks
        effect = apply_option(option.kind, number, rulebook.code, rulebook.game, table, table.scenario.score,
                              chooser_side, offenders, capped, hand_ends)
        to = chooser_side if option.kind in ("score", "take_tricks") else \
            (offenders.other if option.kind == "forfeit" and offenders else None)
        options.append(OptionOutcome(option, to, effect))
    consult = remedy.consult
    if consult is None:
        consult = True if len(options) <= 1 else CONSULT_BY_DEFAULT.get(rulebook.code, False)
    return RemedyOutcome(law, remedy, chooser, consult, offender, tuple(options))


def _capped_sides(declarations: list[DeclarationOutcome], offenders: Side | None) -> set[Side]:
    """Sides the laws that apply forbid to win the game by this hand (Short Whist 82, Long Whist 11)."""
    capped: set[Side] = set()
    for item in declarations:
        declaration = item.declaration
        if declaration.kind != "cannot_win_game" or offenders is None:
            continue
        if declaration.side in (None, "offenders"):
            capped.add(offenders)
        elif declaration.side == "adversaries":
            capped.add(offenders.other)
    return capped


def rule_scenario(path: str, rulebook: Rulebook | None = None, house: str | None = None) -> Decision:
    """Load, replay, detect and match one scenario file: the whole pipeline.

    `house` (a house id or a file's path, as given on the command line) overrides the scenario's
    own `house:` (a house id or a path relative to the scenario).
    """
    from adjudicate.facts import detect
    from adjudicate.scenario import load_scenario
    from adjudicate.table import replay

    scenario = load_scenario(path)
    rulebook, house_name = rulebook_for(scenario, rulebook, house)
    table = replay(scenario, rulebook.game)
    return decide(rulebook, table, detect(table), house_name)


from adjudicate.sources import code_rulebook, rulebook_for  # noqa: E402,F401  (moved; callers keep importing them here)
