"""Hypothesis: malformed scenarios get a positioned error, and random hands never crash the replay."""

import re

import os

from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicate.record.acts import ACT_EXAMPLES
from adjudicate.record.cards import EUCHRE_PACK, WHIST_PACK
from adjudicate.errors import InputError
from adjudicate.play.facts import detect
from adjudicate.render.text import replay_text
from adjudicate.ruling.records import replay_record
from adjudicate.record.scenario import parse_scenario
from adjudicate.play.replay import replay

# Twenty times the examples under ADJUDICATE_HYPOTHESIS=long (tests/conftest.py).
EXAMPLES = 300 * (20 if os.environ.get("ADJUDICATE_HYPOTHESIS") == "long" else 1)

POSITIONED = re.compile(r"^fuzz\.yaml(:\d+:\d+)?: .+")

BASE = """\
code: euchre
dealer: S
turned: JH
hands:
  E: [QS, 9H, JD, AC, 8C]
  W: [AS, ...]
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: KS
  - E: 9H
  - S: TS
  - quit
  - E: QS
  - N: claim revoke E
"""


def run(text: str) -> None:
    """Load, replay, detect and render; an input error must name fuzz.yaml and a position."""
    try:
        table = replay(parse_scenario(text, "fuzz.yaml"))
    except InputError as error:
        assert error.problems
        for problem in error.problems:
            assert POSITIONED.match(str(problem)), str(problem)
            assert "\n" not in problem.message
        return
    facts = detect(table)
    replay_record(table, facts)
    replay_text(table, facts)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_scenarios(data):
    text = BASE
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(text)))
        choice = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        if choice == "delete":
            end = data.draw(st.integers(position, min(len(text), position + 12)))
            text = text[:position] + text[end:]
        else:
            piece = data.draw(st.sampled_from(
                ["[", "]", "{", "}", ":", "- ", "\n", "  ", "&a ", "*a", "!!python/object ", "...", "JH", "10S",
                 "N", "pass", "claim", "9", "'", '"', "#", "\t", "\x00", "é", "null", "~", "- N: AS\n"]))
            if choice == "replace":
                text = text[:position] + piece + text[position + len(piece):]
            else:
                text = text[:position] + piece + text[position:]
    run(text)


SEATS = ["N", "E", "S", "W"]


@st.composite
def random_hand(draw):
    code = draw(st.sampled_from(["euchre", "short-whist", "long-whist"]))
    pack = sorted(EUCHRE_PACK.cards if code == "euchre" else WHIST_PACK.cards)
    cards = draw(st.permutations(pack))
    size = 5 if code == "euchre" else 13
    hands = {seat: cards[i * size:(i + 1) * size] for i, seat in enumerate(SEATS)}
    turned = cards[4 * size] if code == "euchre" else hands[SEATS[1]][-1]
    dealer = draw(st.sampled_from(SEATS))
    known = draw(st.sets(st.sampled_from(SEATS)))
    lines = [f"code: {code}", f"dealer: {dealer}", f"turned: {turned}", "hands:"]
    for seat in sorted(known):
        listed = [str(card) for card in hands[seat]]
        partial = draw(st.booleans())
        if partial:
            listed = listed[: draw(st.integers(0, len(listed)))] + ["..."]
        lines.append(f"  {seat}: [{', '.join(listed)}]")
    if not known:
        lines.pop()
    lines.append("log:")
    remaining = {seat: list(hands[seat]) for seat in SEATS}
    verbs = [example for _, example in ACT_EXAMPLES if example not in ("AS",)]
    for _ in range(draw(st.integers(0, 30))):
        if draw(st.integers(0, 3)) == 0:
            seat = draw(st.sampled_from(SEATS))
            act = draw(st.sampled_from(verbs + ["quit", "mix", "cut"]))
            lines.append(f"  - {act}" if act in ("quit", "mix", "cut") else f"  - {seat}: {act}")
        else:
            seat = draw(st.sampled_from(SEATS))
            if remaining[seat]:
                card = remaining[seat].pop(draw(st.integers(0, len(remaining[seat]) - 1)))
                lines.append(f"  - {seat}: {card}")
    if lines[-1] == "log:":
        lines[-1] = "log: []"
    return "\n".join(lines) + "\n"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_hand())
def test_random_hands_never_crash(text):
    run(text)
