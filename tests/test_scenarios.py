"""The regression suite of scenario files: every `scenarios/**/*.yaml` replayed and checked against its `expect`.

Each scenario is a small disputed hand a card player could follow. Its `expect`
block says what the replay must find: the trump suit, the winner of each
complete trick in order, and exactly the irregularities the record shows, as a
multiset of (kind, seat, trick[, established]). The laws (`laws`, `include`,
`not`) are the matcher's business and are not checked here.

A scenario that shows a situation the engine does not yet judge as the law
says is listed in KNOWN_ENGINE_GAPS with the reason; its test is expected to
fail (not strictly) until the engine catches up.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from adjudicate import facts
from adjudicate.scenario import load_scenario
from adjudicate.table import replay

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def _scenario_files() -> list[Path]:
    # House-rules files may sit beside scenarios (`house: house/renege.yaml`); they are not scenarios.
    return sorted(path for path in SCENARIOS.rglob("*.yaml") if "house" not in path.relative_to(SCENARIOS).parts[:-1])


FILES = _scenario_files()


def _id(path: Path) -> str:
    return path.relative_to(SCENARIOS).as_posix()


KNOWN_ENGINE_GAPS: dict[str, str] = {}
"""Scenarios whose expectation is the law's and the engine's answer is not (yet): file id -> why."""


def _params() -> list:
    params = []
    for path in FILES:
        name = _id(path)
        marks = [pytest.mark.xfail(reason=KNOWN_ENGINE_GAPS[name], strict=False)] if name in KNOWN_ENGINE_GAPS else []
        params.append(pytest.param(path, id=name, marks=marks))
    return params


Key = tuple[str, str | None, int | None, bool | None]


def _expected_key(irregularity) -> Key:
    return (irregularity.kind, str(irregularity.seat) if irregularity.seat else None, irregularity.trick,
            irregularity.established)


def _actual_key(irregularity: facts.Irregularity) -> Key:
    established = bool(irregularity.get("established")) if irregularity.kind == "revoke" else None
    return (irregularity.kind, str(irregularity.seat) if irregularity.seat else None, irregularity.trick, established)


def _show(key: Key) -> str:
    kind, seat, trick, established = key
    text = f"{kind} by {seat or '-'} at trick {trick if trick is not None else '-'}"
    if established is not None:
        text += ", established" if established else ", not established"
    return text


def _listing(keys) -> str:
    return "\n".join(f"    {_show(key)}" for key in sorted(keys, key=lambda k: tuple(str(part) for part in k))) or "    (none)"


@pytest.mark.parametrize("path", _params())
def test_scenario(path: Path) -> None:
    scenario = load_scenario(str(path))
    table = replay(scenario)
    found = facts.detect(table)
    expect = scenario.expect
    assert expect is not None, f"{_id(path)} has no `expect` block"
    problems: list[str] = []

    if expect.trump is not None:
        expected_trump = None if expect.trump.lower() in ("none", "no trump") else expect.trump
        actual_trump = table.trump.letter if table.trump else None
        if expected_trump != actual_trump:
            problems.append(f"trump: expected {expected_trump or 'none'}, replay gives {actual_trump or 'none'}")

    if expect.winners is not None:
        expected_winners = [str(seat) for seat in expect.winners]
        actual_winners = [str(trick.winner) for trick in table.tricks if trick.complete and trick.winner]
        if expected_winners != actual_winners:
            problems.append(f"winners of the complete tricks: expected {expected_winners}, replay gives {actual_winners}")

    if expect.irregularities is not None:
        expected = Counter(_expected_key(item) for item in expect.irregularities)
        actual = Counter(_actual_key(item) for item in found.irregularities)
        if expected != actual:
            missing = expected - actual
            extra = actual - expected
            because = "\n".join(f"    {item.kind} ({item.seat}, trick {item.trick}): {item.because}"
                                for item in found.irregularities) or "    (none)"
            problems.append(
                "irregularities differ\n"
                f"  expected:\n{_listing(expected.elements())}\n"
                f"  found:\n{_listing(actual.elements())}\n"
                f"  missing (expected, not found):\n{_listing(missing.elements())}\n"
                f"  extra (found, not expected):\n{_listing(extra.elements())}\n"
                f"  what the engine says:\n{because}")

    assert not problems, f"{_id(path)}: {scenario.title}\n" + "\n".join(problems)


@pytest.mark.parametrize("path", [pytest.param(path, id=_id(path)) for path in FILES])
def test_scenario_has_title_and_expect(path: Path) -> None:
    scenario = load_scenario(str(path))
    assert scenario.title and scenario.title.strip(), f"{_id(path)} has no `title:`"
    assert scenario.expect is not None, f"{_id(path)} has no `expect:` block"
    assert scenario.expect.irregularities is not None, \
        f"{_id(path)}: `expect:` should list `irregularities:` (`[]` when there are none)"
    assert scenario.expect.trump is not None, f"{_id(path)}: `expect:` should say the `trump:`"
    for item in scenario.expect.irregularities:
        assert item.kind in facts.KINDS, f"{_id(path)}: unknown irregularity kind {item.kind!r}"
        if item.kind == "revoke":
            assert item.established is not None, f"{_id(path)}: an expected revoke should say `established:`"
    assert path.parent.name == scenario.code, f"{_id(path)} is under {path.parent.name}/ but its code is {scenario.code}"


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 3, f"no scenarios found under {SCENARIOS}"


def test_known_engine_gaps_name_real_files() -> None:
    names = {_id(path) for path in FILES}
    stale = sorted(set(KNOWN_ENGINE_GAPS) - names)
    assert not stale, f"KNOWN_ENGINE_GAPS names files that do not exist: {stale}"


def test_every_kind_is_shown_by_some_scenario() -> None:
    """Each irregularity the engine knows is shown by at least one scenario."""
    shown = {item.kind for path in FILES for item in (load_scenario(str(path)).expect.irregularities or ())}
    missing = sorted(set(facts.KINDS) - shown)
    assert not missing, f"no scenario shows these kinds: {missing}"
