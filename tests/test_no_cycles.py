"""The `adjudicate` command runs with the cycle collector off (`adjudicate/__main__.py`): safe only while
ruling, checking and reporting a file build no reference cycles, so that every object is freed as the
last reference to it goes. These tests hold the engine to that, over the shipped scenarios (with their
house rules), and files that are invalid in every way the error catalogue knows."""

from __future__ import annotations

import gc
from pathlib import Path

from adjudicate.checking import batch as checking
from adjudicate.ruling.pipeline import rule_scenario
from adjudicate.render.text import replay_text, ruling_text
from adjudicate.ruling.records import replay_record, ruling_record

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

    def render_all(paths: list[str]) -> None:
        for path in paths:
            decision = rule_scenario(path)
            ruling_text(decision)
            ruling_record(decision)
            replay_text(decision.table, decision.facts)
            replay_record(decision.table, decision.facts)

    # Once first: what is imported on first use (tabulate, for the replay's table) leaves import-time garbage
    # (the enum classes of `socket`, through importlib.metadata) that is no cycle of ours.
    render_all(files[:1])
    assert _garbage_after(lambda: render_all(files)) == 0


def test_the_api_s_records_leave_no_cycles():
    """The CLI rules through `adjudicate.api`: its records (and what they keep to render) are freed as they go too,
    mappings and texts as sources included."""
    import yaml

    from adjudicate import api

    files = [path for path in sorted((ROOT / "scenarios").rglob("*.yaml"))
             if "house" not in path.relative_to(ROOT / "scenarios").parts[:-1]]
    api.rule(files[0]).to_json()
    api.replay(files[0]).to_json()
    api.laws(search="revoke")
    api.law("euchre:63").to_text()

    def use_all() -> None:
        for path in files:
            ruling = api.rule(path)
            ruling.to_json(), ruling.to_text(), ruling.to_markdown()
            for qid in list(ruling.questions)[:1]:  # a ruling answered (--answer), and the next question (--ask)
                ruling.answer({qid: True}).to_json(), ruling.next_question()
            replayed = api.replay(path)
            replayed.to_json(), replayed.to_text()
            text = path.read_text(encoding="utf-8")
            api.rule(text).to_json()
            if "house:" not in text:
                api.rule(yaml.safe_load(text)).to_json()
        for law in api.laws(search="revoke"):
            law.to_json()
        api.law("short-whist:72.V").to_markdown()
        api.lint()

    assert _garbage_after(use_all) == 0
