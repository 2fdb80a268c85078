"""Every shipped scenario's output in every format, held byte for byte to the files in tests/snapshots/.

These pin the behaviour while the package is reorganised or a renderer is touched: a difference is
either a bug or a change of behaviour meant, and then the files are written anew and the diff read:

    ADJUDICATE_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py

Each scenario has one file: `rule` as text, as a ruling sheet and as JSON, and `replay` as text and
JSON, each under a heading. The commands over the whole folder (`check` in each of its formats,
`laws`, `law`, `lint`, `diff`, `schema`) have a file each. JUnit's run times are masked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("ADJUDICATE_UPDATE_SNAPSHOTS") == "1"
SCENARIOS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "scenarios").glob("*/*.yaml"))

PER_SCENARIO = [
    ("rule", []), ("rule", ["--explain"]), ("rule", ["-f", "markdown"]), ("rule", ["-f", "json"]),
    ("replay", []), ("replay", ["-f", "json"]),
]
WHOLE = {
    "check-text": ["check", "scenarios"],
    "check-json": ["check", "-f", "json", "scenarios"],
    "check-junit": ["check", "-f", "junit", "scenarios"],
    "check-github": ["check", "-f", "github", "scenarios"],
    "check-sarif": ["check", "-f", "sarif", "scenarios"],
    "laws": ["laws"],
    "laws-json": ["laws", "-f", "json"],
    "laws-search": ["laws", "--search", "revoke claimed too late"],
    "law-euchre-63": ["law", "euchre:63"],
    "law-short-whist-72-json": ["law", "short-whist:72", "-f", "json"],
    "law-long-whist-11-markdown": ["law", "long-whist:11", "-f", "markdown"],
    "lint": ["lint", "adjudicate/rulebooks/euchre.yaml", "adjudicate/rulebooks/house/modern-euchre.yaml",
             "adjudicate/rulebooks/house/stick-the-dealer.yaml"],
    "diff": ["diff", "--house", "adjudicate/rulebooks/house/modern-euchre.yaml", "scenarios/euchre"],
    "diff-json": ["diff", "--house", "adjudicate/rulebooks/house/modern-euchre.yaml", "-f", "json",
                  "scenarios/euchre"],
    "schema": ["schema"],
    "schema-yaml": ["schema", "-f", "yaml"],
}
_JUNIT_TIME = re.compile(r' time="[0-9.]+"')


def _run(args: list[str]) -> str:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, args, prog_name="adjudicate")
    finally:
        os.chdir(cwd)
    return f"$ adjudicate {' '.join(args)}\nexit {result.exit_code}\n{result.stdout}"


def _compare(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no snapshot {path.name}: write it with ADJUDICATE_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{name}: output differs from tests/snapshots/{name}.txt"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_scenario_reads_as_its_snapshot(scenario):
    text = "".join(_run([command, *options, scenario]) + "\n" for command, options in PER_SCENARIO)
    _compare("scenarios/" + scenario.removeprefix("scenarios/").removesuffix(".yaml"), text)


@pytest.mark.parametrize("name", sorted(WHOLE))
def test_a_command_reads_as_its_snapshot(name):
    _compare(name, _JUNIT_TIME.sub(' time="…"', _run(WHOLE[name])))
