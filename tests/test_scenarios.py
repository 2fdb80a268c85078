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

from pathlib import Path

import pytest

from adjudicate.play import facts
from adjudicate.checking.expectations import compare
from adjudicate.ruling.pipeline import rule_scenario
from adjudicate.record.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def _scenario_files() -> list[Path]:
    # House-rules files may sit beside scenarios (`house: house/renege.yaml`); they are not scenarios.
    return sorted(path for path in SCENARIOS.rglob("*.yaml") if "house" not in path.relative_to(SCENARIOS).parts[:-1])


FILES = _scenario_files()


def _id(path: Path) -> str:
    return path.relative_to(SCENARIOS).as_posix()


KNOWN_ENGINE_GAPS: dict[str, str] = {
}
"""Scenarios whose expectation is the law's and the engine's answer is not (yet): file id -> why. Strict: a gap
closed fails until its entry goes. `adjudicate check scenarios/` (CI) knows no gaps, so an entry here keeps CI red:
use it while working on a gap, not to land one."""


def _params() -> list:
    params = []
    for path in FILES:
        name = _id(path)
        marks = [pytest.mark.xfail(reason=KNOWN_ENGINE_GAPS[name], strict=True)] if name in KNOWN_ENGINE_GAPS else []
        params.append(pytest.param(path, id=name, marks=marks))
    return params


@pytest.mark.parametrize("path", _params())
def test_scenario(path: Path) -> None:
    """Replay, detect and rule; compare with the file's `expect` block (trump, winners, irregularities, laws)."""
    decision = rule_scenario(str(path))
    expect = decision.table.scenario.expect
    assert expect is not None, f"{_id(path)} has no `expect` block"
    mismatches = compare(expect, decision.table, decision.facts, decision)
    because = "\n".join(f"    {item.kind} ({item.seat}, trick {item.trick}): {item.because}"
                        for item in decision.facts.irregularities) or "    (none)"
    laws = "\n".join(f"    {applied.law.id}: {applied.because}" for applied in decision.laws) or "    (none)"
    assert not mismatches, (f"{_id(path)}: {decision.table.scenario.title}\n"
                            + "\n".join(str(m) for m in mismatches)
                            + f"\n  what the engine says:\n{because}\n  laws applied:\n{laws}")


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


def test_every_law_with_a_condition_is_shown_and_has_a_near_miss() -> None:
    """Issue 4: for every law with a condition, a scenario that makes it apply (or raises it, for a law
    that hangs on a question of fact) and a near miss that does not."""
    from adjudicate.checking import batch as checking

    results = checking.check_files([str(path) for path in FILES])
    for report in checking.coverage(results):
        assert not report.never_applied, f"{report.code}: no scenario shows laws {report.never_applied}"
        assert not report.no_near_miss, f"{report.code}: no near miss for laws {report.no_near_miss}"
