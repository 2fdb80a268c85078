"""The matcher: which laws of a code have their conditions met by a replayed hand.

Every law with a condition is evaluated over the facts of the hand (each
irregularity with its timing facts, each claim and election, the hand as a
whole). A law whose condition certainly holds is matched; one that holds only if
an open fact is so goes under `unknown`, with the laws for each answer. Which of
the matched laws then decide, which defeat which, and what each side may choose,
is the decision's business (`decision.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from msgspec import Struct

from adjudicate.lawbook.conditions import (Atom, Fact, FactIndex, Match, affirmed_atoms, alternative_subjects, any_certain,
                                           atoms, certain, evaluate, required_subjects)
from adjudicate.lawbook.defeats import order as defeat_order
from adjudicate.lawbook.provisos import whens
from adjudicate.play.facts import Claim, Facts, Irregularity, honours_claimants, honours_dealt
from adjudicate.play.facts import side_honours as _side_honours
from adjudicate.lawbook.rulebook import Law, Rulebook
from adjudicate.record.seats import Seat, Side
from adjudicate.play.table import Moment, Table, Trick

if TYPE_CHECKING:
    from adjudicate.record.scenario import Scenario


class AppliedLaw(Struct, frozen=True):
    law: Law
    matches: tuple[Match, ...]
    hand: FactIndex | None = None
    """The hand's facts it certainly holds over, from which what a report says of it (`acts`, `reason`) is read
    when asked: `check` never asks (9 M instructions less on 201 benchmark files). None for a law that applies only
    if an open fact is so."""
    found: tuple[Match, ...] = ()
    """Its matches as found, before a defeat took any: the acts it names are besides what any of them is bound
    to."""

    @property
    def acts(self) -> tuple[Moment, ...]:
        """The players' acts that the parts of its condition name and find, besides what it is bound to (Short Whist
        45: the touches that show who touched the cards first), in the order they happened."""
        named = _filing(self.law).act_atoms
        return _named_acts(named, self.hand, self.found) if named and self.hand is not None else ()

    @property
    def reason(self) -> str | None:
        """The law's `because_when` reason that holds for this hand, said in place of its `because`."""
        hand = self.hand
        if hand is None:
            return None
        return next((item.because for item in self.law.because_when if holds(item.when, hand)), None)

    @property
    def because(self) -> str:
        """Why it applies, in a sentence (put together when a report asks: `check` never does)."""
        return _because(self.law, self.matches, self.acts, self.reason)

    @property
    def facts(self) -> tuple[tuple[object, str], ...]:
        """Each fact it turns on, with the words said of it: what it is bound to, then the acts it names."""
        return _facts(self.matches, self.acts)


class OpenQuestion(Struct, frozen=True):
    """A fact the record leaves open, and the laws that apply if it is so."""

    question: str
    laws: tuple[Law, ...]
    parts: tuple[str, ...] = ()
    """The questions it is made of, each as the match has it ("q", or "not (q)"): all must be so."""


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
    score = table.scenario.score
    honours = facts.honours or honours_dealt(table)
    complete = [trick for trick in table.tricks if trick.complete]
    claims = facts.standing_claims
    if claims:
        result.extend(_claim_facts(table, facts, claims, complete))
    for moment in table.by_verb.get("elect", ()):
        if moment.act.seat is not None:
            result.append(Fact("election", {"kind": moment.act.word, "seat": str(moment.act.seat),
                                            "side": str(moment.act.seat.side), "trick": moment.trick}, moment))
    result.extend(_act_facts(table, makers, act_verbs, honours, facts.acts))
    # Euchre 49, Short Whist 59: hands abandoned, the tricks stand as they were taken.
    abandoned = any(item.kind == "hand_thrown" and item.details.get("all_four") for item in facts.irregularities)
    # Short Whist 6: a side dealt three or four honours (the record shows it) with no standing claim of them.
    unclaimed = None
    if table.game.family == "whist":
        claimed = honours_claimants(table, facts.claims)
        unclaimed = next((side for side in (Side.NS, Side.EW) if (_side_honours(honours, side) or 0) >= 3
                          and side not in claimed), None)
    result.append(Fact("hand", {
        "honours_unclaimed": unclaimed is not None,
        "unclaimed_side_score": score[unclaimed] if score and unclaimed is not None else None,
        "next_trump_turned": any(m.phase == "after" for m in table.by_verb.get("turn", ())),
        "family": table.game.family,
        "lone": table.lone is not None,
        "round": making.round if making else None,
        "played_out": len(complete) >= table.game.hand_size,
        "makers": str(makers) if makers else None,
        "tricks_played": len(complete),
        "score_known": score is not None,
        "hands_known": len(table.scenario.hands) == 4 and all(h.complete for h in table.scenario.hands.values()),
        "cut_for_next_deal": table.next_deal_cut is not None,
        "mixed": "mix" in table.by_verb,
        "makers_tricks": (sum(1 for trick in complete if trick.winner and trick.winner.side is makers)
                          if makers and (abandoned or len(complete) >= table.game.hand_size) else None),
        "abandoned": abandoned,
        "passed_out": bool(making and making.maker is None and making.turned_down
                           and len(set(making.passed[2])) >= 4),
    }, None))
    return result


def _claim_facts(table: Table, facts: Facts, claims: tuple[Claim, ...], complete: list[Trick]) -> list[Fact]:
    score = table.scenario.score
    # What the record shows before each claim that a claim can be for: an irregularity, a deal by a player whose
    # deal it was not, an act repeated (a second shuffle).
    grounds = sorted([irregularity.entry for irregularity in facts.irregularities]
                     + [moment.entry for moment in table.by_verb.get("deal", ())
                        if moment.act.seat is not None and moment.act.seat is not table.dealer
                        and moment.phase == "deal"]
                     + [entry for entry, details in facts.acts.items() if details.get("repeat") is True])
    # Whist 2: each trick above six counts one, in a hand played out.
    trick_points = {side: max(0, sum(1 for trick in complete if trick.winner and trick.winner.side is side) - 6)
                    for side in (Side.NS, Side.EW)} \
        if table.game.family == "whist" and len(complete) >= table.game.hand_size else None
    result = []
    for claim in claims:
        side = claim.seat.side
        # What the claim is for, before it, against the seat it names: an open ground is one the record shows only
        # if an open fact is so (a renounce by a player whose holding of the suit led is not known).
        renounced = [item for item in facts.irregularities if item.kind == claim.kind and item.entry < claim.entry
                   and (claim.against is None or item.seat is claim.against)]
        ground_open = bool(renounced) and all(item.unknown for item in renounced)
        result.append(Fact("claim", {
            "kind": claim.kind, "seat": str(claim.seat), "side": str(side),
            "against": str(claim.against) if claim.against else None, "after_cut": claim.after_cut,
            "after_mix": claim.after_mix, "trick": claim.trick, "after_next_turn": claim.after_next_turn,
            "claimants_score": score[side] if score else None,
            "adversaries_score": score[side.other] if score else None,
            "adversaries_trick_points": trick_points[side.other] if trick_points else None,
            "adversaries_game_on_tricks": score[side.other] + trick_points[side.other] >= table.game.game_points
            if score and trick_points else None,
            "honours": claim.side_honours, "honours_known": claim.side_honours is not None,
            "honours_claim": claim.honours_claim, "repeat": claim.repeat,
            "after_unpresented_cut": claim.after_unpresented_cut, "then_mixed": claim.then_mixed,
            "after_deal_cut": any(m.phase == "deal" and m.entry < claim.entry for m in table.by_verb.get("cut", ())),
            "ground_open": ground_open,
            "grounded": bool(grounds) and grounds[0] < claim.entry}, claim))
    return result


_NO_DETAILS: dict[str, object] = {}


def _act_facts(table: Table, makers: Side | None, verbs: frozenset[str] | None,
               honours: dict[Seat, int | None], details: dict[int, dict[str, object]]) -> list[Fact]:
    if verbs is not None and verbs.isdisjoint(table.by_verb):
        return []  # no act the conditions look up
    result = []
    cut_in_phase: set[str] = set()
    turned = False
    first_lead = next((play.entry for trick in table.tricks for play in trick.plays), None)
    sides = {side: _side_honours(honours, side) for side in (Side.NS, Side.EW)}
    dealer, eldest, lone = table.dealer, table.eldest, table.lone
    for moment in table.moments:
        act = moment.act
        seat = act.seat
        if verbs is None or act.verb in verbs:
            result.append(Fact("act", {
                "verb": act.verb, "word": act.word, "seat": str(seat) if seat else None,
                "side": str(seat.side) if seat else None, "phase": moment.phase, "trick": moment.trick,
                "card": str(act.cards[0]) if act.cards else None, "suit": str(act.suit) if act.suit else None,
                "target": str(act.target) if act.target else None,
                "by_dealer": seat is dealer, "by_eldest": seat is eldest,
                "by_makers": makers is not None and seat is not None and seat.side is makers,
                "by_lone_player": lone is not None and seat is lone,
                "after_cut": moment.phase in cut_in_phase, "after_turn": turned or moment.phase != "deal",
                "after_first_lead": first_lead is not None and moment.entry > first_lead,
                "round": moment.round,
                "position": dealer.steps_to(seat) or 4 if seat else None,
                "honours": honours.get(seat) if seat else None,
                "honours_known": seat is not None and honours.get(seat) is not None,
                "side_honours": sides.get(seat.side) if seat else None,
                "side_honours_known": seat is not None and sides.get(seat.side) is not None,
                **details.get(moment.entry, _NO_DETAILS),
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
    """(order, law, needed subjects) of the laws that can hold in any hand."""
    by_subject: dict[str, tuple[tuple[int, Law, frozenset[str]], ...]]
    """The other laws, each under one subject of each of its alternatives (`alternative_subjects`: a law with an
    `any:` can apply only if one of its parts' subjects are in the hand); a law may be found under several."""
    act_verbs: frozenset[str] | None
    """The verbs of the acts any condition (a law's, a remedy's, a ruling's `when`) looks up;
    None when some condition looks at acts of every verb."""
    defeaters: tuple[Law, ...] = ()
    """The laws that defeat others, each after every law that can defeat it (`defeats.order`)."""

    def candidates(self, hand: FactIndex) -> list[tuple[int, Law, frozenset[str]]]:
        """The laws that could apply to this hand, in the rulebook's order, each once."""
        found = {item[0]: item for item in self.always} if self.always else {}
        for subject in hand.by_subject:
            for item in self.by_subject.get(subject, ()):
                found[item[0]] = item
        return sorted(found.values())  # by order: each law is filed under its own


_PREPARED: dict[int, tuple[Rulebook, _Prepared]] = {}
"""By the rulebook's identity (hashing a rulebook would walk every law); the rulebook is kept, so its id stays its own."""


def _prepared(rulebook: Rulebook) -> _Prepared:
    entry = _PREPARED.get(id(rulebook))
    if entry is None or entry[0] is not rulebook:
        always: list[tuple[int, Law, frozenset[str]]] = []
        filed: dict[str, list[tuple[int, Law, frozenset[str]]]] = {}
        verbs: set[str] | None = set()
        for order, law in enumerate(rulebook.laws):
            filing = _filing(law)
            if verbs is not None:
                verbs = None if filing.verbs is None else verbs | filing.verbs
            if law.condition is None:
                continue
            if not filing.keys:
                always.append((order, law, filing.required))
            for key in filing.keys:
                filed.setdefault(key, []).append((order, law, filing.required))
        entry = (rulebook, _Prepared(tuple(always), {key: tuple(laws) for key, laws in filed.items()},
                                     None if verbs is None else frozenset(verbs), tuple(defeat_order(rulebook.laws))))
        _PREPARED[id(rulebook)] = entry
    return entry[1]


class _Filing(Struct, frozen=True):
    """One law as `_prepared` files it."""

    required: frozenset[str]
    """The subjects its condition needs (`required_subjects`)."""
    keys: tuple[str, ...]
    """The subjects it is filed under, one for each alternative of its condition; none where it can hold in any
    hand."""
    act_atoms: tuple[Atom, ...]
    """The `act` atoms its condition affirms (`_named_acts`)."""
    verbs: frozenset[str] | None
    """The verbs of the acts its conditions (its own, and its remedies', rulings' and defeats' `when`) look up; None
    where one looks at acts of every verb."""


_FILINGS: dict[int, tuple[Law, _Filing]] = {}
"""Each law's filing, by the law's identity, the law kept: a house shares most of its laws with its code, and its
rulebook is filed from theirs (5 M instructions less on 201 benchmark files, two of them under a house)."""


def _filing(law: Law) -> _Filing:
    entry = _FILINGS.get(id(law))
    if entry is None or entry[0] is not law:
        entry = _FILINGS[id(law)] = (law, _file(law))
    return entry[1]


def _file(law: Law) -> _Filing:
    verbs = _act_verbs(law)
    if law.condition is None:
        return _Filing(frozenset(), (), (), verbs)
    alternatives = alternative_subjects(law.condition)
    # File it under the most particular need of each alternative: a narrowed act or claim, then any
    # irregularity. (Filing an `any:` by its parts, not as needing no subject, with `_act_verbs` reading
    # `one_of`: 0.47 M instructions a file less, 6% of `check`, on 200 benchmark files; docs/benchmark.md.)
    keys: dict[str, None] = {}
    if all(alternatives):
        for needed in alternatives:
            keys[min(needed, key=_particular)] = None
    act_atoms = [atom for atom in affirmed_atoms(law.condition) if atom.subject == "act"]
    return _Filing(required_subjects(law.condition), tuple(keys), tuple(act_atoms), verbs)


def _particular(subject: str) -> tuple[bool, bool, str]:
    """Sorts the subjects a law needs, the most particular first: a narrowed act or claim, then any irregularity."""
    return subject in ("hand", "act", "claim", "election"), ":" not in subject, subject


def _act_verbs(law: Law) -> frozenset[str] | None:
    verbs: set[str] = set()
    for condition in (*whens(law), *(item.when for item in law.because_when)):
        for atom in atoms(condition):
            if atom.subject != "act":
                continue
            if atom.key == "act":
                # `verb: {one_of: [...]}` names its verbs too (Euchre 35, 37); an act atom naming none looks at all.
                named = next((test.value for test in atom.tests if test.fact == "verb" and test.op == "one_of"), None)
                if not isinstance(named, tuple):
                    return None
                verbs.update(str(verb) for verb in named)
            else:
                verbs.add(atom.key[len("act:"):])
    return frozenset(verbs)


class Matched(Struct, frozen=True):
    """The laws whose conditions hold over a hand, before any law defeats another."""

    hand: FactIndex
    laws: tuple[AppliedLaw, ...]
    unknown: tuple[OpenQuestion, ...]
    pending: dict[str, AppliedLaw]
    """The laws that apply only if an open fact is so, with the matches that hang on it."""
    defeaters: tuple[Law, ...]
    """The rulebook's laws that defeat others, attackers first."""


def match(rulebook: Rulebook, table: Table, facts: Facts, answers: dict[str, bool] | None = None) -> Matched:
    """Evaluate every law's condition over the hand's facts; `answers` settles `question:`s, by their text."""
    prepared = _prepared(rulebook)
    hand = FactIndex(hand_facts(table, facts, prepared.act_verbs))
    if answers:
        hand.answered(answers)
    applied: list[AppliedLaw] = []
    open_questions: dict[str, tuple[tuple[str, ...], list[Law]]] = {}
    pending: dict[str, AppliedLaw] = {}
    for _order, law, required in prepared.candidates(hand):
        assert law.condition is not None  # only laws with a condition are prepared
        matches = evaluate(law.condition, hand, required)
        if not matches:
            continue
        sure = certain(matches)
        if sure:
            applied.append(AppliedLaw(law, sure, hand, sure))
            continue
        pending[law.id] = AppliedLaw(law, tuple(matches))
        for found in matches:
            question = "; and ".join(found.questions)
            laws = open_questions.setdefault(question, (found.questions, []))[1]
            if law not in laws:
                laws.append(law)
    unknown = tuple(OpenQuestion(question, tuple(laws), parts) for question, (parts, laws) in open_questions.items()) \
        if open_questions else ()
    return Matched(hand, tuple(applied), unknown, pending, prepared.defeaters)


def holds(condition, hand: FactIndex) -> bool:
    """The condition certainly holds over the hand."""
    return any_certain(evaluate(condition, hand))


def bindings(matches: Iterable[Match]) -> list[object | None]:
    """Each distinct thing the law applies to (each revoke: law 63's "as often as the revoke is repeated")."""
    seen: dict[int, object] = {}
    for match in matches:
        if match.binding is not None:
            seen.setdefault(id(match.binding), match.binding)
    return list(seen.values()) or [None]


def offender_of(binding: object | None) -> Seat | None:
    if isinstance(binding, Irregularity):
        return binding.seat
    if isinstance(binding, Claim):
        return binding.against
    if isinstance(binding, Moment):
        return binding.act.seat
    return None


_DID = {"remind": "reminded his partner to call", "call honours": "called honours"}
"""Acts a law's reason names in words (Long Whist 17, 18) rather than as the log writes them."""


_UNNAMED = frozenset({"claim", "play"})
"""Acts not added to a law's facts when its condition names them: a claim is said as the claim it is, and the
cards played are the play itself."""


def _named_acts(act_atoms: tuple[Atom, ...], hand: FactIndex, certain: tuple[Match, ...]) -> tuple[Moment, ...]:
    """The acts by a player that the parts of the law's condition it affirms (not those it denies: `act_atoms`) find
    in the hand, other than what its matches are bound to."""
    bound = {id(match.binding) for match in certain}
    # An act that is the irregularity or the claim the law is bound to is said as that, and so is the cut a claim is
    # said to come after.
    said = {match.binding.entry for match in certain if isinstance(match.binding, (Irregularity, Claim))}
    cut_said = any(isinstance(match.binding, Claim) and (match.binding.after_cut or match.binding.after_unpresented_cut)
                   for match in certain)
    found: dict[int, Moment] = {}
    for atom in act_atoms:
        for match in evaluate(atom, hand):
            moment = match.binding
            if isinstance(moment, Moment) and match.certain and moment.act.seat is not None \
                    and moment.act.verb not in _UNNAMED and id(moment) not in bound and moment.entry not in said \
                    and not (cut_said and moment.act.verb == "cut"):
                found.setdefault(id(moment), moment)
    return tuple(sorted(found.values(), key=lambda moment: moment.entry))


def _facts(matches: tuple[Match, ...], acts: tuple[Moment, ...] = ()) -> tuple[tuple[object, str], ...]:
    said: dict[str, object] = {}
    for match in matches:
        sentence = _fact_words(match.binding)
        if sentence:
            said.setdefault(sentence, match.binding)
    for moment in acts:
        said.setdefault(_fact_words(moment), moment)
    return tuple((source, sentence) for sentence, source in said.items())


def _because(law: Law, matches: tuple[Match, ...], acts: tuple[Moment, ...] = (), reason: str | None = None) -> str:
    text = "; ".join(sentence for _source, sentence in _facts(matches, acts))
    because = reason or law.because
    if because:
        text = f"{because}: {text}" if text else because
    return _sentence(text or f"the facts of the hand meet law {law.id}")


def _fact_words(binding: object) -> str:
    """One fact a law turns on, in words: an irregularity as the replay says it, a claim, an act of the log."""
    if isinstance(binding, Irregularity):
        return binding.because
    if isinstance(binding, Claim):
        against = f" against {binding.against.word}" if binding.against else ""
        whens = []
        if binding.after_cut:
            whens.append("after his side had cut the cards for the next deal without the pack being presented"
                         if binding.own_cut_unpresented else "after the cards were cut for the next deal")
        if binding.after_next_turn and binding.kind in ("honours", "game", "score"):
            whens.append("after the trump card of the next deal was turned up")
        when = " " + " and ".join(whens) if whens else ""
        what = binding.kind
        if binding.kind in ("game", "score") and binding.honours_claim:
            what = f"the {binding.kind}, a claim of the honours his side held,"
        return f"{binding.seat.word} claimed {what}{against}{when}".rstrip(",")
    if isinstance(binding, Moment):
        who = binding.act.seat.word if binding.act.seat else "at the table"
        did = _DID.get(binding.act.verb)
        return f"{who} {did} at log entry {binding.entry}" if did and binding.act.seat else \
            f"{who}, \"{binding.act.text()}\", at log entry {binding.entry}"
    return ""


def _sentence(text: str) -> str:
    text = text.strip()
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
