"""A JSON Schema (draft 2020-12) for scenario files, for editors and other tools.

Built from the constants the loader itself uses (the scenario's keys, the
`expect` keys, the acts of `adjudicate.record.acts`, the ranks and suits of
`adjudicate.record.cards`, the irregularity kinds of the facts vocabulary, the built-in
codes), so it cannot drift from what `adjudicate` reads. The schema checks
shape: keys, types, seats, cards and the first word of every act. The loader
checks more (a card in two places, `...` only at the end of a hand, each act's
arguments in full), and says where.

    adjudicate schema > scenario.schema.json

and, at the top of a scenario file, for yaml-language-server (VS Code's YAML
extension, Neovim, Helix, ...):

    # yaml-language-server: $schema=../scenario.schema.json
"""

from __future__ import annotations

from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_REGEX_SPECIAL = set("\\^$.|?*+()[]{}/")


def _literal(text: str) -> str:
    """A regex matching `text` in any case, in the syntax both ECMAScript (with the u flag) and Python accept.

    No inline flags (ECMAScript has none), and only the characters that must be escaped are, since
    ECMAScript's unicode mode refuses needless escapes such as `\\-` or `\\ `.
    """
    out = []
    for char in text:
        if char == " ":
            out.append(r"\s+")
        elif char.lower() != char.upper():
            out.append(f"[{char.lower()}{char.upper()}]" if len(char.upper()) == 1 else char)
        elif char in _REGEX_SPECIAL:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def _alternatives(words: list[str]) -> str:
    # Longest first, so that "alone at" is tried before "alone", "10" before "1".
    ordered = sorted(set(words), key=lambda word: (-len(word), word))
    return "(?:" + "|".join(_literal(word) for word in ordered) + ")"


def patterns() -> dict[str, str]:
    """The regular expressions of the schema: card, cards, seat, suit, seat_act, table_event."""
    from adjudicate.record import acts, cards

    ranks = _alternatives(list(cards._RANK_BY_LETTER))
    suit_marks = [name for name in cards._SUIT_NAMES if len(name) == 1]
    suit_words = list(cards._SUIT_NAMES)
    suit_mark = _alternatives(suit_marks)
    symbols = _alternatives(sorted(cards._SYMBOLS))
    card = f"(?:{ranks}{suit_mark}|{symbols}{ranks})"
    separator = r"[\s,\[\]]"
    card_list = f"{separator}*{card}(?:{separator}+{card})*{separator}*"
    seats = ["N", "E", "S", "W", "north", "east", "south", "west"]
    verbs = [verb for verb, _ in acts.ACT_EXAMPLES]
    bare = [spec.verb for spec in acts._SPECS if spec.bare]
    return {
        "card": rf"^\s*{card}\s*$",
        "cards": rf"^{card_list}$",
        "seat": rf"^\s*{_alternatives(seats)}\s*$",
        "suit": rf"^\s*{_alternatives(suit_words)}\s*$",
        "seat_act": rf"^\s*(?:{card_list}|{_alternatives(verbs)}(?:\s+\S.*)?)\s*$",
        "table_event": rf"^\s*{_alternatives(bare)}\s*$",
    }


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, as a dict ready for `json.dumps`."""
    from adjudicate.record import acts, expect as expect_block, scenario, vocabulary
    from adjudicate.lawbook.remedies import OPTIONS
    from adjudicate.lawbook.builtin import builtin_codes

    p = patterns()
    text = {"type": ["string", "number", "boolean"]}
    seat = {"type": "string", "pattern": p["seat"], "examples": ["N", "E", "S", "W"],
            "description": "A seat: N, E, S or W (north, east, south, west). Partners N-S and E-W."}
    card = {"type": "string", "pattern": p["card"], "examples": ["JH", "TS", "10S", "Q♠"],
            "description": "A card: rank A K Q J T 9 8 7 6 5 4 3 2 (or 10) then suit S H D C (or ♠ ♥ ♦ ♣), any case."}
    law_ids = {"type": "array", "items": {"type": ["string", "integer"]},
               "description": "Law ids of the scenario's code, as strings: [\"62\", \"63\"]."}
    seats = ("N", "E", "S", "W")
    score = {"type": "object", "description": "Each side's points: {NS: 2, EW: 3}.",
             "properties": {side: {"type": "integer", "minimum": 0, "maximum": 99} for side in ("NS", "EW")},
             "additionalProperties": False}
    examples = [example for _, example in acts.ACT_EXAMPLES]
    bare_events = sorted({spec.verb for spec in acts._SPECS if spec.bare})
    try:
        from adjudicate.lawbook.house import builtin_houses
        houses = list(builtin_houses())
    except ImportError:  # pragma: no cover - before house rules
        houses = []

    top: dict[str, Any] = {
        "title": {**text, "description": "A sentence saying what the hand shows."},
        "notes": {**text, "description": "Free text."},
        "code": {"description": "A built-in code id, or a rulebook file's path relative to this file.",
                 "anyOf": [{"enum": list(builtin_codes())},
                           {"type": "string", "pattern": r"\.[yY][aA]?[mM][lL]$"}]},
        "house": {"type": "string", "minLength": 1, "examples": houses,
                  "description": "House rules: a built-in house id, or a file's path relative to this file."},
        "dealer": {**seat, "description": "The dealer: N, E, S or W. The eldest hand is the dealer's left."},
        "score": {**score, "description": "The game score before this hand: {NS: 2, EW: 3}."},
        "games": {"type": "object", "required": ["NS", "EW"], "additionalProperties": False,
                  "properties": {side: {"type": "integer", "minimum": 0, "maximum": 1} for side in ("NS", "EW")},
                  "description": "The games each side has won in the rubber before the one in play: {NS: 1, EW: 0}."},
        "hands": {"type": "object", "description": "The hands as dealt, any subset of seats; a list ending in "
                                                   "`...` gives only the cards known.",
                  "properties": {s: {"anyOf": [
                      {"type": "array", "items": {"anyOf": [card, {"const": "..."}]}},
                      {"type": "string", "pattern": p["cards"] + "|" + p["cards"][:-1] + r"\s*\.\.\.\s*$",
                       "description": "Cards separated by spaces: QS 9H JD AC 8C"}]} for s in seats},
                  "additionalProperties": False},
        "turned": {**card, "description": "The card turned for trump."},
        "log": {"type": "array", "maxItems": scenario.MAX_LOG_ENTRIES,
                "description": "What happened, in order, one act an entry: {SEAT: ACT}, or a bare table event.",
                "items": {"anyOf": [
                    {"type": "string", "pattern": p["table_event"], "examples": bare_events,
                     "description": "A table event: " + ", ".join(bare_events) + "."},
                    {"type": "object", "minProperties": 1, "maxProperties": 1,
                     "propertyNames": {"pattern": p["seat"]},
                     "additionalProperties": {"type": "string", "pattern": p["seat_act"], "examples": examples,
                                              "description": "An act: a card played (AS), or one of: "
                                                             + ", ".join(v for v, _ in acts.ACT_EXAMPLES) + "."}},
                ]}},
    }
    expect: dict[str, Any] = {
        "laws": {**law_ids, "description": "Exactly these laws apply."},
        "include": {**law_ids, "description": "At least these laws apply."},
        "not": {**law_ids, "description": "None of these laws apply."},
        "unknown": {**law_ids, "description": "Exactly these laws hang on an open question of fact; an item that is "
                               "a question's id (E-held-spade-trick-1) names a question asked instead, and the "
                               "questions named must be exactly those the ruling asks."},
        "trump": {"type": "string", "description": "The trump suit the replay should find (S, H, D, C, or none).",
                  "anyOf": [{"pattern": p["suit"]}, {"pattern": r"^\s*(?:[nN][oO][nN][eE]|[nN][oO]\s+[tT][rR][uU][mM][pP])\s*$"}]},
        "winners": {"type": "array", "items": seat, "description": "The winner of each complete trick, in order."},
        "irregularities": {"type": "array", "description": "Exactly these irregularities, in any order.",
                           "items": {"type": "object", "required": ["kind"], "additionalProperties": False,
                                     "properties": _only(expect_block.EXPECTED_IRREGULARITY_KEYS, {
                                         "kind": {"enum": list(vocabulary.KINDS)},
                                         "seat": seat,
                                         "trick": {"type": "integer", "minimum": 1},
                                         "established": {"type": "boolean"}})}},
        "remedies": {"type": "array", "description": "Remedies the ruling must offer.",
                     "items": {"type": "object", "minProperties": 1, "additionalProperties": False,
                               "properties": _only(expect_block.EXPECTED_REMEDY_KEYS, {
                                   "law": {"type": ["string", "integer"]},
                                   "chooser": {"type": "string",
                                               "description": "A side (NS, EW), a seat, or the role's words."},
                                   "options": {"type": "array", "items": {"enum": list(OPTIONS)}},
                                   "for": {"type": "object",
                                           "description": "What it is for: {kind: revoke, seat: E, trick: 1}."},
                                   "made": {"enum": list(OPTIONS),
                                            "description": "The option chosen in the log (call_card)."},
                                   "mandatory": {"type": "boolean",
                                                 "description": "The law leaves no choice: the option is applied."}})}},
        "not_applied": {"type": "array", "description": "Exactly these laws are defeated by another that applies.",
                        "items": {"anyOf": [{"type": ["string", "integer"]},
                                            {"type": "object", "required": ["law"], "additionalProperties": False,
                                             "properties": {"law": {"type": ["string", "integer"]},
                                                            "by": {"type": ["string", "integer"]}}}]}},
        "score": {"type": "object", "additionalProperties": False,
                  "description": "The hand's own points and the final score (or one for each open choice).",
                  "properties": _only(expect_block.EXPECTED_SCORE_KEYS, {
                      "hand": {"anyOf": [score, {"type": "null"}],
                               "description": "The hand's own points, counted once (null: not played out)."},
                      "after": {**score, "description": "The one final score, when no choice is open."},
                      "meaning": {"type": "string", "description": "What it means: NS win a single game."},
                      "outcomes": {"type": "array", "description": "Exactly these final scores.",
                                   "items": {"type": "object", "required": ["after"], "additionalProperties": False,
                                             "properties": _only(expect_block.EXPECTED_OUTCOME_KEYS, {
                                                 "after": {"anyOf": [score, {"type": "null"}]}, "meaning": {"type": "string"},
                                                 "choices": {"type": "array", "items": {
                                                     "type": "string", "pattern": r"^\s*\S+\s+[a-z_]+\s*$",
                                                     "description": "A law and an option: 63 score."}}})}}})},
    }
    top["expect"] = {"type": "object", "description": "What the ruling should be, for `adjudicate check`.",
                     "properties": _only(expect_block.EXPECT_KEYS, expect), "additionalProperties": False}
    return {
        "$schema": DRAFT,
        "title": "adjudicate scenario",
        "description": "A disputed Euchre or Whist hand: what happened at the table, for `adjudicate` to replay "
                       "and rule on.",
        "type": "object",
        "required": ["code", "dealer", "log"],
        "properties": _only(scenario.TOP_KEYS, top),
        "additionalProperties": False,
    }


def _only(keys: frozenset[str], described: dict[str, Any]) -> dict[str, Any]:
    """A property for every key the loader accepts (any value for one the schema does not describe yet), and no other."""
    return {key: described.get(key, {}) for key in sorted(keys)}
