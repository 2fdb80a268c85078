"""Comparing a scenario's `expect` block with what the replay and the matcher found.

Each mismatch names the expectation's line, what was expected and what was
found, so `check` (and the test suite) can print it as `file:line:col: ...`: each
side both in words (for the text, JUnit and GitHub formats) and as a JSON value
(lists, numbers, objects, null: for `check --format json` and SARIF readers).
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from adjudicate.errors import Pos
from adjudicate.play.facts import Facts
from adjudicate.lawbook.rulebook import law_sort_key
from adjudicate.ruling.records import target_record
from adjudicate.record.expect import Expect
from adjudicate.play.table import Table
from adjudicate.record.yamlsource import NULL_TAG, Node


class Mismatch(Struct, frozen=True):
    """One expectation the ruling does not meet."""

    pos: Pos
    key: str
    expected: str
    """What was expected, in words: `[62, 63, 64]`, `none of [63]`."""
    actual: str
    """What the ruling gives, in words."""
    expected_value: Any = None
    """What was expected as a JSON value: the `expect` key's value as the file gives it (normalised:
    law ids sorted for `laws` and `unknown`, seats and suits as letters, scores as {side: points})."""
    actual_value: Any = None
    """The ruling's value for the same key, in the same shape (for `include` and `not`, the laws applied)."""

    def __str__(self) -> str:
        return f"{self.pos}: expect.{self.key}: expected {self.expected}, found {self.actual}"


def _ids(ids) -> str:
    return "[" + ", ".join(ids) + "]" if ids else "none"


def _score_value(score) -> dict[str, int] | None:
    return None if score is None else {str(side): points for side, points in score.items()}


def _expected_irregularity(wanted) -> dict[str, Any]:
    """An `expect.irregularities` entry as JSON: the fields it states."""
    value: dict[str, Any] = {"kind": wanted.kind}
    if wanted.seat is not None:
        value["seat"] = str(wanted.seat)
    if wanted.trick is not None:
        value["trick"] = wanted.trick
    if wanted.established is not None:
        value["established"] = wanted.established
    return value


def _found_irregularity(found) -> dict[str, Any]:
    """An irregularity the replay found, in the shape of an `expect.irregularities` entry."""
    value: dict[str, Any] = {"kind": found.kind, "seat": str(found.seat) if found.seat else None,
                             "trick": found.trick}
    if found.kind == "revoke":
        value["established"] = bool(found.get("established"))
    return value


def compare(expect: Expect, table: Table, facts: Facts, decision=None) -> list[Mismatch]:
    """Every way the replay (and, if given, the ruling) differs from the expectations."""
    found: list[Mismatch] = []
    where = expect.positions

    def at(key: str) -> Pos:
        return where.get(key, expect.pos)

    if expect.trump is not None:
        trump = table.trump
        actual = str(trump) if trump else "none"
        wanted = expect.trump if expect.trump in ("S", "H", "D", "C") else "none"
        if wanted != actual:
            found.append(Mismatch(at("trump"), "trump", wanted, actual, None if wanted == "none" else wanted,
                                  None if actual == "none" else actual))
    if expect.winners is not None:
        seats = tuple(table.winners)
        if seats != expect.winners:
            winners = [str(seat) for seat in seats]
            wanted_winners = [str(seat) for seat in expect.winners]
            found.append(Mismatch(at("winners"), "winners", _ids(wanted_winners), _ids(winners), wanted_winners,
                                  winners))
    if expect.irregularities is not None:
        unmatched = list(facts.irregularities)
        missing = []
        for expected in expect.irregularities:
            hit = next((i for i in unmatched if _fits(expected, i)), None)
            if hit is None:
                missing.append(expected)
            else:
                unmatched.remove(hit)
        if missing or unmatched:
            expected_text = _ids(sorted(_describe_expected(e) for e in expect.irregularities))
            actual_text = _ids(sorted(_describe_found(i) for i in facts.irregularities))
            found.append(Mismatch(at("irregularities"), "irregularities", expected_text, actual_text,
                                  [_expected_irregularity(e) for e in expect.irregularities],
                                  [_found_irregularity(i) for i in facts.irregularities]))
    if decision is not None:
        applied = decision.law_ids
        # A law id is the last part of its sort key, so two lists sorted as text hold the same laws exactly when
        # they do sorted by law_sort_key: the laws put in the order of their numbers only to say they differ.
        if expect.laws is not None and sorted(expect.laws) != sorted(applied):
            wanted_laws = sorted(expect.laws, key=law_sort_key)
            in_order = sorted(applied, key=law_sort_key)
            found.append(Mismatch(at("laws"), "laws", _ids(wanted_laws), _ids(in_order), wanted_laws, in_order))
        absent = [law for law in expect.include if law not in applied]
        if absent:
            found.append(Mismatch(at("include"), "include", f"{_ids(list(expect.include))} among the laws",
                                  f"{_ids(applied)} (missing {', '.join(absent)})", list(expect.include),
                                  sorted(applied, key=law_sort_key)))
        present = [law for law in expect.exclude if law in applied]
        if present:
            found.append(Mismatch(at("not"), "not", f"none of {_ids(list(expect.exclude))}",
                                  f"{', '.join(present)} applying", list(expect.exclude),
                                  sorted(applied, key=law_sort_key)))
        if expect.unknown is not None:
            open_laws = sorted({law.id for item in decision.unknown for law in item.laws}, key=law_sort_key)
            wanted_open = sorted(expect.unknown, key=law_sort_key)
            if wanted_open != open_laws:
                found.append(Mismatch(at("unknown"), "unknown", _ids(wanted_open), _ids(open_laws), wanted_open,
                                      open_laws))
        if expect.questions is not None:
            from adjudicate.ruling.branches import open_ids

            wanted_ids, asked = sorted(expect.questions), sorted(open_ids(decision))
            if wanted_ids != asked:
                found.append(Mismatch(at("unknown"), "unknown", f"the questions {_ids(wanted_ids)}", _ids(asked),
                                      wanted_ids, asked))
        if expect.remedies is not None:
            found.extend(_compare_remedies(expect.remedies, decision, at("remedies")))
        if expect.not_applied is not None:
            found.extend(_compare_defeats(expect.not_applied, decision, at("not_applied")))
        if expect.score is not None:
            found.extend(_compare_score(expect.score, decision))
    return found


def _score_words(score) -> str:
    return "none" if score is None else ", ".join(f"{side} {points}" for side, points in score.items())


def _pair_order(pair: tuple[str, str | None]) -> tuple:
    """A total order of (law, by) pairs: by the law, then by the law that defeats it (none first)."""
    return (law_sort_key(pair[0]), pair[1] is not None, law_sort_key(pair[1]) if pair[1] is not None else ())


def _compare_defeats(wanted, decision, pos: Pos) -> list[Mismatch]:
    actual = sorted({(item.law.id, item.by.id) for item in decision.not_applied}, key=_pair_order)
    unmatched = list(actual)
    missing = []
    for law, by in wanted:
        hit = next((pair for pair in unmatched if pair[0] == law and (by is None or pair[1] == by)), None)
        if hit is None:
            missing.append((law, by))
        else:
            unmatched.remove(hit)
    if not missing and not unmatched:
        return []
    show = lambda pairs: _ids([f"{law} by {by}" if by else law for law, by in pairs])  # noqa: E731
    value = lambda pairs: [{"law": law, "by": by} for law, by in pairs]  # noqa: E731
    wanted_in_order = sorted(wanted, key=_pair_order)
    return [Mismatch(pos, "not_applied", show(wanted_in_order), show(actual), value(wanted_in_order), value(actual))]


def _compare_score(wanted, decision) -> list[Mismatch]:
    found: list[Mismatch] = []
    score = decision.score
    if wanted.hand_given:
        actual_hand = score.hand if score else None
        if actual_hand != wanted.hand:
            found.append(Mismatch(wanted.pos, "score.hand", _score_words(wanted.hand), _score_words(actual_hand),
                                  _score_value(wanted.hand), _score_value(actual_hand)))
    if wanted.outcomes is None:
        return found
    outcomes = list(score.outcomes) if score else []

    def value(outcome) -> dict[str, Any]:
        return {"after": _score_value(outcome.effect.score_after), "meaning": outcome.effect.meaning,
                "choices": [{"law": remedy.law.id, "option": item.option.kind} for remedy, item in outcome.choices]}

    def wanted_value(expected) -> dict[str, Any]:
        return {"after": _score_value(expected.after), "meaning": expected.meaning,
                "choices": None if expected.choices is None
                else [{"law": law, "option": option} for law, option in expected.choices]}

    def describe(outcome) -> str:
        chosen = ", ".join(f"{remedy.law.id} {item.option.kind}" for remedy, item in outcome.choices)
        text = _score_words(outcome.effect.score_after)
        if outcome.effect.meaning:
            text += f" ({outcome.effect.meaning})"
        return text + (f" if {chosen}" if chosen else "")

    def fits(expected, outcome) -> bool:
        if outcome.effect.score_after != expected.after:
            return False
        if expected.meaning is not None and (outcome.effect.meaning or "") != expected.meaning:
            return False
        if expected.choices is not None:
            chosen = sorted((remedy.law.id, item.option.kind) for remedy, item in outcome.choices)
            return chosen == sorted(expected.choices)
        return True

    unmatched = list(outcomes)
    for expected in wanted.outcomes:
        hit = next((o for o in unmatched if fits(expected, o)), None)
        if hit is None:
            text = _score_words(expected.after) + (f" ({expected.meaning})" if expected.meaning else "")
            if expected.choices is not None:
                text += " if " + (", ".join(f"{law} {option}" for law, option in expected.choices) or "no choice")
            found.append(Mismatch(expected.pos, "score", text, "; ".join(describe(o) for o in outcomes) or "no score",
                                  wanted_value(expected), [value(o) for o in outcomes]))
        else:
            unmatched.remove(hit)
    if unmatched and not found:
        found.append(Mismatch(wanted.pos, "score", f"{len(wanted.outcomes)} final score(s)",
                              f"also {'; '.join(describe(o) for o in unmatched)}",
                              [wanted_value(e) for e in wanted.outcomes], [value(o) for o in outcomes]))
    return found



def _fits(wanted, found) -> bool:
    """An expected irregularity matches a found one on every field it states."""
    return (wanted.kind == found.kind
            and (wanted.seat is None or wanted.seat is found.seat)
            and (wanted.trick is None or wanted.trick == found.trick)
            and (wanted.established is None or wanted.established == found.get("established")))


def _describe_expected(wanted) -> str:
    text = wanted.kind + (f" {wanted.seat}" if wanted.seat else "") + (f" trick {wanted.trick}" if wanted.trick else "")
    if wanted.established is not None:
        text += " established" if wanted.established else " not established"
    return text


def _describe_found(found) -> str:
    text = found.kind + (f" {found.seat}" if found.seat else "") + (f" trick {found.trick}" if found.trick else "")
    if found.kind == "revoke":
        text += " established" if found.get("established") else " not established"
    return text


def _compare_remedies(node: Node, decision, pos: Pos) -> list[Mismatch]:
    """`remedies: [{law: "63", chooser: NS, options: [score], for: {kind: revoke, seat: E}, made: call_card}]`:
    each listed remedy must be offered (or, with `made:`, have been chosen in the log). `remedies: []`: no choice
    is offered or made at all (a penalty whose time has passed, Euchre 56)."""
    found = []
    offered = [_offered(outcome) for outcome in decision.remedies]
    if not node.is_seq():
        return [Mismatch(node.pos, "remedies", "a list of {law, chooser, options}", node.describe(),
                         _json_value(node), offered)]
    actual: str | None = None
    if not node.elements() and offered:
        actual = "; ".join(f"law {o['law']}: {o['chooser']} choosing {o['options']}" for o in offered)
        return [Mismatch(node.pos, "remedies", "no choice", actual, [], offered)]
    for item in node.elements():
        if not item.is_map():
            found.append(Mismatch(item.pos, "remedies", "{law, chooser, options}", item.describe(),
                                  _json_value(item), offered))
            continue
        want = {key: _plain_value(child) for key, (_, child) in item.value.items()}  # type: ignore[attr-defined]
        if "options" in want and isinstance(want["options"], list):
            want["options"] = sorted(str(o) for o in want["options"])
        ok = any(all(_fits_remedy(key, value, actual) for key, value in want.items()) for actual in offered)
        if not ok:
            wanted = (f"law {want.get('law', 'any')}: {want.get('chooser', 'anyone')} choosing "
                      f"{want.get('options', 'anything')}" + _for_words(want.get("for"))
                      + (f", made: {want['made']}" if "made" in want else ""))
            if actual is None:  # once, for all the expected remedies not found
                actual = "; ".join(f"law {a['law']}: {a['chooser']} choosing {a['options']}{_for_words(a['for'])}"
                                   + (f", made: {a['made']}" if a["made"] else "") for a in offered) or "no remedy"
            found.append(Mismatch(item.pos, "remedies", wanted, actual, _json_value(item), offered))
    return found


def _offered(outcome) -> dict:
    return {"law": outcome.law.id, "chooser": outcome.chooser,
            "options": sorted(item.option.kind for item in outcome.options),
            "for": target_record(outcome.target), "made": outcome.made.option.kind if outcome.made else None,
            "mandatory": "true" if outcome.mandatory else "false"}


def _plain_value(node: Node):
    kind = node.kind
    if kind == "seq":
        return [_plain_value(element) for element in node.value]  # type: ignore[attr-defined]
    if kind == "map":
        return {key: _plain_value(child) for key, (_, child) in node.value.items()}  # type: ignore[attr-defined]
    return None if node.tag == NULL_TAG else str(node.value).strip()


_TYPED = {"tag:yaml.org,2002:int": int, "tag:yaml.org,2002:float": float}


def _json_value(node: Node):
    """A value of the `expect` block as JSON: numbers as numbers, true and false, null; the rest as text."""
    if node.is_null():
        return None
    if node.is_seq():
        return [_json_value(element) for element in node.elements()]
    if node.is_map():
        return {key: _json_value(child) for key, _, child in node.items()}
    if node.tag == "tag:yaml.org,2002:bool":
        return str(node.value).lower() in ("true", "yes", "on")
    convert = _TYPED.get(node.tag)
    if convert is not None:
        try:
            number = convert(str(node.value))
        except ValueError:  # YAML 1.1's other spellings (0x0A, 1_000, 1:30, .inf): as written
            return str(node.value)
        return number if number == number and abs(number) != float("inf") else str(node.value)  # JSON has no NaN
    return str(node.value)


def _fits_remedy(key: str, value, actual: dict) -> bool:
    if key != "for":
        return actual[key] == value
    target = actual["for"] or {}
    return isinstance(value, dict) and all(str(target.get(name)) == str(wanted) for name, wanted in value.items())


def _for_words(target) -> str:
    if not target or not isinstance(target, dict):
        return ""
    return " for " + " ".join(str(target[key]) for key in ("kind", "seat", "trick") if target.get(key) is not None)
