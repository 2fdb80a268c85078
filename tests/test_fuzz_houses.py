"""Hypothesis: house-rules files and `expect` blocks built from their own vocabulary, mutated at random, are ruled
on or refused with a positioned error, never a traceback nor an internal error (alongside
tests/test_fuzz_scenarios.py). A small budget by default; twenty times it under ADJUDICATE_HYPOTHESIS=long."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from adjudicate.checking.batch import INTERNAL, check_file
from adjudicate.errors import RulebookError
from adjudicate.lawbook.house import lint_file

EXAMPLES = 40 * (20 if os.environ.get("ADJUDICATE_HYPOTHESIS") == "long" else 1)
ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
BARE = GOOD[:GOOD.index("expect:")]
POSITIONED = re.compile(r"^.+\.yaml(:\d+:\d+)?: .+")

LAW = st.sampled_from(["1", "2", "3", "7", "62", "63", "64", "65", "77", "999", "H1", "H2", "x", ""])
SCALAR = st.one_of(LAW, st.sampled_from(["TH", "E", "NS", "score", "revoke", "true", "null", "[]", "{}", "-1",
                                         "3", "adversaries", "offender"]),
                   st.text(max_size=8))
VALUE = st.recursive(SCALAR.map(json.dumps), lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    st.dictionaries(st.sampled_from(["kind", "seat", "trick", "points", "chooser", "options", "when", "revoke",
                                     "established", "law", "by", "for", "made", "x"]), inner, max_size=3)
    .map(lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs.items()) + "}")), max_leaves=6)
ACTION = st.sampled_from(["strike", "replace", "add"])
FIELD = st.sampled_from(["title", "text", "condition", "remedies", "rulings", "defeats", "kind", "section", "refs",
                         "subjects", "context", "because", "why"])


@st.composite
def house_file(draw) -> str:
    changes = []
    for _ in range(draw(st.integers(0, 4))):
        action = draw(ACTION)
        fields = [f"    why: {draw(VALUE)}"] if draw(st.booleans()) else []
        fields += [f"    {draw(FIELD)}: {draw(VALUE)}" for _ in range(draw(st.integers(0, 3)))]
        changes.append(f"  - {action}: {json.dumps(draw(LAW))}\n" + "".join(line + "\n" for line in fields))
    parameters = draw(st.sampled_from(["", "parameters:\n  game_points: " + draw(VALUE) + "\n",
                                       "parameters:\n  scores: " + draw(VALUE) + "\n"]))
    return (f"house: {draw(st.sampled_from(['fuzz', 'Fuzz', '', 'a-b']))}\nname: {draw(VALUE)}\n"
            f"varies: {draw(st.sampled_from(['euchre', 'short-whist', 'modern-euchre', 'nothing', 'x.yaml']))}\n"
            + parameters + "changes:\n" + "".join(changes))


EXPECT_KEYS = st.sampled_from(["laws", "include", "not", "unknown", "trump", "winners", "irregularities", "remedies",
                               "not_applied", "score", "questions", "x"])


@st.composite
def expect_block(draw) -> str:
    lines = [f"  {draw(EXPECT_KEYS)}: {draw(VALUE)}" for _ in range(draw(st.integers(1, 4)))]
    if draw(st.booleans()):
        lines.append(f"  remedies: [{{law: {json.dumps(draw(LAW))}, for: {draw(VALUE)}, made: {draw(VALUE)}}}]")
    return "expect:\n" + "\n".join(lines) + "\n"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
@given(text=house_file())
def test_fuzzed_house_files_are_applied_or_refused_at_a_position(tmp_path: Path, text: str):
    house = tmp_path / "house.yaml"
    house.write_text(text, encoding="utf-8")
    try:
        lint_file(str(house))
    except RulebookError as error:
        assert error.problems
        for problem in error.problems:
            assert POSITIONED.match(str(problem)), str(problem)
    scenario = tmp_path / "hand.yaml"
    scenario.write_text(BARE, encoding="utf-8")
    result = check_file(str(scenario), str(house))
    assert result.cause != INTERNAL, result.findings


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
@given(block=expect_block())
def test_fuzzed_expect_blocks_are_compared_or_refused_at_a_position(tmp_path: Path, block: str):
    scenario = tmp_path / "hand.yaml"
    scenario.write_text(BARE + block, encoding="utf-8")
    result = check_file(str(scenario))
    assert result.cause != INTERNAL, result.findings
    for finding in result.findings:
        assert finding.path == str(scenario)
        assert "\n" not in finding.message
