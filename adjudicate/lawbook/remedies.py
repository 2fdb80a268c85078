"""Remedies and rulings: what a law lets a side choose, and what it simply declares.

    remedies:
      - chooser: adversaries        # who chooses, relative to the offender
        consult: true               # partners may consult (Short Whist 84's exception for revokes)
        mandatory: false            # true: no choice, the option open is applied (Euchre 90 "forfeits two")
        whenever: false             # true: chosen at any time during the hand (Short Whist 55); play goes on
        options:
          - {kind: take_tricks, tricks: 3}
          - {kind: deduct, points: 3}
          - {kind: score, points: 3}
    rulings:
      - {kind: cannot_win_game, text: The revoking side cannot win the game by this hand.}

An option or ruling may carry `when:`, a condition (`conditions.py`) that must
also hold for it to be open: Euchre 63's five points `when: {hand: {lone: true}}`.
"""

from __future__ import annotations

import re

from msgspec import Struct

from adjudicate.lawbook.conditions import Condition, parse_condition
from adjudicate.errors import InputError, Pos, Problem, did_you_mean
from adjudicate.record.yamlsource import Node
from adjudicate.record.vocabulary import OPTIONS

CHOOSERS: dict[str, str] = {
    "adversaries": "the side opposed to the offender",
    "offenders": "the offender's side",
    "offender": "the offender himself",
    "partner": "the offender's partner",
    "claimants": "the side that claimed",
    "dealer": "the dealer",
    "dealer_side": "the dealer's side",
    "makers": "the side that made the trump",
    "defenders": "the side opposed to the makers",
    "lone_player": "the player playing alone",
    "eldest": "the eldest hand",
    "NS": "North and South", "EW": "East and West",
}
"""Who may choose, as a law words it."""


SCORE_KINDS = ("score", "deduct", "take_tricks", "forfeit")
_SLUG = re.compile(r"[a-z][a-z0-9_]*")


class Option(Struct, frozen=True):
    kind: str
    points: int | None
    tricks: int | None
    text: str | None
    when: Condition | None
    pos: Pos

    def wording(self) -> str:
        if self.text:
            return self.text
        return OPTIONS[self.kind][0].format(points=self.points, tricks=self.tricks)


class Remedy(Struct, frozen=True):
    chooser: str
    consult: bool | None
    """May partners consult before choosing? None: the code's general rule (Euchre 85, Short Whist 84)."""
    options: tuple[Option, ...]
    text: str | None
    when: Condition | None
    pos: Pos
    mandatory: bool = False
    """The law leaves no choice ("forfeits two", "scores five points", "on penalty of losing one point"): the
    option its `when`s leave open is applied, and no one is offered it."""
    claim: bool = False
    """The penalty is due only on a claim (Euchre 63 "may be claimed"; Short Whist 78, Long Whist 15: a revoke
    "cannot be claimed after the cards have been cut"): once the record shows the offence claimed it is applied
    (mandatory) or chosen among its options; until then the adversaries may claim it or not, and the score is
    given for each option and for no claim."""
    whenever: bool = False
    """The choice may be made at any time during the hand (Short Whist 55 "may be called at any time during that
    hand"): play goes on without waiting for it."""
    at_end: bool = False
    """The choice is made at the end of the hand (Short Whist 72 I: the adversaries, "at the end of the hand, may
    either take three tricks ..."): a hand still in play is played on, and the choice waits for its last trick."""


class Declaration(Struct, frozen=True):
    """What a law declares so: "the revoke is established", "the trick is complete"."""

    kind: str
    text: str
    side: str | None
    """For a ruling on a side (`cannot_win_game`): which, relative to the offender."""
    when: Condition | None
    pos: Pos


def _when(node: Node, problems: list[Problem], what: str) -> Condition | None:
    child = node.get("when")
    if child is None:
        return None
    try:
        return parse_condition(child, f"`when` of {what}")
    except InputError as error:
        problems.extend(error.problems)
        return None


def _keys(node: Node, what: str, allowed: frozenset[str], problems: list[Problem]) -> None:
    try:
        node.check_keys(what, allowed)
    except InputError as error:
        problems.extend(error.problems)


def parse_remedies(node: Node, law: str) -> tuple[Remedy, ...]:
    problems: list[Problem] = []
    remedies: list[Remedy] = []
    if not node.is_seq():
        raise node.error(f"the remedies of law {law} should be a list, not {node.describe()}")
    for item in node.elements():
        what = f"a remedy of law {law}"
        if not item.is_map():
            problems.append(Problem(item.pos, f"{what} should be a mapping with chooser and options"))
            continue
        _keys(item, what, frozenset({"chooser", "consult", "mandatory", "claim", "whenever", "at_end", "options", "text",
                                         "when"}), problems)
        chooser_node = item.get("chooser")
        chooser = None
        if chooser_node is None:
            problems.append(Problem(item.pos, f"{what} is missing the required key 'chooser'"))
        else:
            try:
                chooser = chooser_node.text("the chooser").strip()
            except InputError as error:
                problems.extend(error.problems)
            if chooser is not None and chooser not in CHOOSERS:
                problems.append(Problem(chooser_node.pos, f"unknown chooser {chooser!r}{did_you_mean(chooser, CHOOSERS)}; "
                                                          f"expected one of: {', '.join(CHOOSERS)}"))
                chooser = None
        consult = _flag(item, "consult", None, problems)
        mandatory = bool(_flag(item, "mandatory", False, problems))
        claim = bool(_flag(item, "claim", False, problems))
        whenever = bool(_flag(item, "whenever", False, problems))
        at_end = bool(_flag(item, "at_end", False, problems))
        options: list[Option] = []
        onode = item.get("options")
        if onode is None or not onode.is_seq() or not onode.elements():
            problems.append(Problem((onode or item).pos, f"{what} needs `options:`, a list of at least one option"))
        else:
            for element in onode.elements():
                option = _option(element, law, problems)
                if option is not None:
                    options.append(option)
        text = _text(item, "text", problems)
        when = _when(item, problems, what)
        if mandatory and len(options) > 1 and any(option.when is None for option in options):
            problems.append(Problem(item.pos, f"{what} is mandatory, so its options must be told apart by `when:` "
                                              "(one applies); an option without `when:` would leave a choice"))
        if chooser is not None:
            remedies.append(Remedy(chooser, consult, tuple(options), text, when, item.pos, mandatory, claim, whenever,
                                   at_end))
    if problems:
        raise InputError(problems)
    return tuple(remedies)


def _flag(node: Node, key: str, default: bool | None, problems: list[Problem]) -> bool | None:
    """A yes/no key of a remedy (`consult`, `mandatory`, `claim`, `whenever`, `at_end`), or the default where it is absent or wrong."""
    if (value := node.get(key)) is None:
        return default
    try:
        return value.boolean(key)
    except InputError as error:
        problems.extend(error.problems)
        return default


def _text(node: Node, key: str, problems: list[Problem]) -> str | None:
    child = node.get(key)
    if child is None:
        return None
    try:
        return " ".join(child.text(key).split())
    except InputError as error:
        problems.extend(error.problems)
        return None


def _option(node: Node, law: str, problems: list[Problem]) -> Option | None:
    what = f"an option of law {law}"
    if node.is_scalar() and not node.is_null():
        node_kind = str(node.value).strip()
        kind_node: Node | None = node
        item = None
    elif node.is_map():
        item = node
        _keys(node, what, frozenset({"kind", "points", "tricks", "text", "when"}), problems)
        kind_node = node.get("kind")
        if kind_node is None:
            problems.append(Problem(node.pos, f"{what} is missing the required key 'kind'"))
            return None
        try:
            node_kind = kind_node.text("the kind of an option").strip()
        except InputError as error:
            problems.extend(error.problems)
            return None
    else:
        problems.append(Problem(node.pos, f"{what} should be a kind (new_deal) or a mapping ({{kind: score, points: 3}})"))
        return None
    assert kind_node is not None
    if node_kind not in OPTIONS:
        problems.append(Problem(kind_node.pos, f"unknown option {node_kind!r}{did_you_mean(node_kind, OPTIONS)}; "
                                               f"expected one of: {', '.join(OPTIONS)}"))
        return None
    needs = OPTIONS[node_kind][1]
    numbers: dict[str, int | None] = {"points": None, "tricks": None}
    for key in ("points", "tricks"):
        child = item.get(key) if item is not None else None
        if child is None:
            continue
        if key != needs:
            problems.append(Problem(child.pos, f"option {node_kind!r} takes no {key}"))
            continue
        try:
            value = child.integer(key)
        except InputError as error:
            problems.extend(error.problems)
            continue
        if not 0 < value <= 13:
            problems.append(Problem(child.pos, f"{key} should be between 1 and 13, not {value}"))
            continue
        numbers[key] = value
    if needs is not None and numbers[needs] is None and not any(p.pos.line == node.pos.line for p in problems):
        problems.append(Problem(node.pos, f"option {node_kind!r} needs `{needs}:`"))
        return None
    text = _text(item, "text", problems) if item is not None else None
    when = _when(item, problems, what) if item is not None else None
    return Option(node_kind, numbers["points"], numbers["tricks"], text, when, node.pos)


def parse_rulings(node: Node, law: str) -> tuple[Declaration, ...]:
    problems: list[Problem] = []
    rulings: list[Declaration] = []
    if not node.is_seq():
        raise node.error(f"the rulings of law {law} should be a list, not {node.describe()}")
    for item in node.elements():
        what = f"a ruling of law {law}"
        if not item.is_map():
            problems.append(Problem(item.pos, f"{what} should be a mapping with kind and text"))
            continue
        _keys(item, what, frozenset({"kind", "text", "side", "when"}), problems)
        kind = _text(item, "kind", problems)
        text = _text(item, "text", problems)
        if kind is None or text is None:
            problems.append(Problem(item.pos, f"{what} needs both `kind:` (a word_like_this) and `text:`"))
            continue
        if not _SLUG.fullmatch(kind):
            problems.append(Problem(item.get("kind").pos, f"a ruling's kind should be a word_like_this, not {kind!r}"))  # type: ignore[union-attr]
            continue
        side = _text(item, "side", problems)
        if side is not None and side not in CHOOSERS:
            problems.append(Problem(item.get("side").pos, f"unknown side {side!r}{did_you_mean(side, CHOOSERS)}"))  # type: ignore[union-attr]
        rulings.append(Declaration(kind, text, side, _when(item, problems, what), item.pos))
    if problems:
        raise InputError(problems)
    return tuple(rulings)
