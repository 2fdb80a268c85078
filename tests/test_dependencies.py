"""The dependencies pyproject.toml allows: each has a floor that .ci/floors installs and tests; typer's newest
release allowed is the newest measured, and .ci/newest installs and tests it; under it, no command imports
pydantic."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]

TYPER_MEASURED_BELOW = (0, 30)
"""Typer releases measured for start-up: those below this. Typer 0.29 parses every argument with a pydantic
TypeAdapter, and so imports pydantic: `adjudicate rule FILE` took 187 ms against 124 ms with 0.28. The commands'
values (flags, text, paths, a format, a count) are now made without it (adjudicate/cli/common.py, `_parse_plainly`),
and `rule FILE` starts as fast under 0.29.2 as under 0.28 (docs/development.md has the figures)."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _typer() -> str:
    [requirement] = [dep for dep in DEPENDENCIES if re.match(r"typer\b", dep)]
    return requirement


def test_typer_is_held_below_the_newest_release_measured():
    ceiling = re.search(r"<\s*([0-9.]+)", _typer())
    allowed = _version(ceiling.group(1)) if ceiling else (sys.maxsize,)
    assert ceiling and allowed <= TYPER_MEASURED_BELOW, (
        f"pyproject.toml allows {_typer()!r}, beyond the typer releases measured: measure the newer typer's "
        "start-up (hyperfine 'adjudicate rule FILE', python -X importtime; 0.29 brought pydantic into every start) "
        "and record it in TYPER_MEASURED_BELOW first")


@pytest.mark.parametrize("args", [
    ["rule", "--format", "json", "--house", "stick-the-dealer", "scenarios/euchre/revoke-established.yaml"],
    ["check", "-q", "-j", "1", "scenarios/euchre/revoke-established.yaml"],
    ["diff", "--house", "modern-euchre", "scenarios/euchre/revoke-established.yaml"],
    ["laws", "--code", "euchre", "--format", "jsonl"],
])
def test_the_cli_starts_without_pydantic(args):
    """Under the installed typer (0.29 parses arguments with pydantic), no command's arguments import pydantic."""
    script = ("import sys\n"
              f"sys.argv = ['adjudicate', *{args!r}]\n"
              "from adjudicate.__main__ import main\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print('pydantic' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.stderr.splitlines()[-1] == "False", done.stderr


def test_every_dependency_has_a_floor_that_ci_installs():
    pins = subprocess.run([sys.executable, str(ROOT / ".ci" / "floor_pins.py")], capture_output=True, text=True)
    assert pins.returncode == 0, pins.stderr
    names = [re.match(r"[A-Za-z0-9._-]+", dep).group(0) for dep in DEPENDENCIES]
    floors = [re.search(r">=\s*([0-9][0-9A-Za-z.]*)", dep).group(1) for dep in DEPENDENCIES]
    assert pins.stdout.splitlines() == [f"{name}=={floor}" for name, floor in zip(names, floors)]
    assert "typer==0.18" in pins.stdout.splitlines()
    # CI runs the floors' tests after the main ones.
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^bash \.ci/floors$", run, re.M)


def test_ci_tests_the_newest_typer_beside_the_floor():
    """.ci/run runs .ci/newest: a fresh environment with the newest typer pyproject.toml allows, the CLI's tests and
    every scenario; the floors are .ci/floors'."""
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^bash \.ci/newest$", run, re.M)
    newest = (ROOT / ".ci" / "newest").read_text(encoding="utf-8")
    assert "typer" in newest and "tests/test_dependencies.py" in newest and "adjudicate check scenarios/" in newest
    assert re.search(r"mypy --python-version 3\.10", run)
