"""The `adjudicate` command runs with the cycle collector off (`adjudicate/__main__.py`): safe only while
ruling, checking and reporting a file build no reference cycles, so that every object is freed as the
last reference to it goes. These tests hold the engine to that, over the shipped scenarios (with their
house rules), and files that are invalid in every way the error catalogue knows."""

from __future__ import annotations

import gc
from pathlib import Path

from adjudicate import checking
from adjudicate.matcher import rule_scenario
from adjudicate.report import replay_record, replay_text, ruling_record, ruling_text

ROOT = Path(__file__).resolve().parent.parent


def _garbage_after(work) -> int:
    """How many unreachable objects the collector finds after `work` (0: no cycle was left behind)."""
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        work()
        return gc.collect()
    finally:
        if collecting:
            gc.enable()


def test_checking_scenarios_and_invalid_files_leaves_no_cycles():
    files = checking.collect([str(ROOT / "scenarios"), str(ROOT / "tests")]).files
    assert len(files) > 200
    checking.check_files(files[:5])  # rulebooks and conditions loaded and cached first: they are meant to stay
    found = _garbage_after(lambda: checking.check_files(files))
    assert found == 0


def test_rendering_rulings_and_replays_leaves_no_cycles():
    files = [str(path) for path in sorted((ROOT / "scenarios").rglob("*.yaml"))
             if "house" not in path.relative_to(ROOT / "scenarios").parts[:-1]]
    rule_scenario(files[0])

    def render_all() -> None:
        for path in files:
            decision = rule_scenario(path)
            ruling_text(decision)
            ruling_text(decision, markdown=True)
            ruling_record(decision)
            replay_text(decision.table, decision.facts)
            replay_record(decision.table, decision.facts)

    assert _garbage_after(render_all) == 0
