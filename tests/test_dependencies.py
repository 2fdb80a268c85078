"""The dependencies pyproject.toml allows: each has a floor that .ci/floors installs and tests, and typer
stays below the release that would slow every start."""

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

TYPER_MEASURED_BELOW = (0, 29)
"""Typer releases measured for start-up: those below this. Typer 0.29 imports pydantic to parse any argument:
`adjudicate rule FILE` 187 ms against 124 ms with 0.28 (0.29.0: 214 ms against 127 ms), `adjudicate rule --help`
117 ms against 60 ms, medians of 40-60 alternated runs each; `--version`, which parses none, the same."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _typer() -> str:
    [requirement] = [dep for dep in DEPENDENCIES if re.match(r"typer\b", dep)]
    return requirement


def test_typer_is_held_below_the_release_that_imports_pydantic_at_every_start():
    ceiling = re.search(r"<\s*([0-9.]+)", _typer())
    allowed = _version(ceiling.group(1)) if ceiling else (sys.maxsize,)
    assert ceiling and allowed <= TYPER_MEASURED_BELOW, (
        f"pyproject.toml allows {_typer()!r}, but typer 0.29 imports pydantic to parse any argument (~60 ms, "
        "half as much again as `adjudicate rule FILE`'s whole start, measured with 0.29.0 and 0.29.2): measure "
        "the newer typer's start-up (hyperfine 'adjudicate rule FILE', python -X importtime) and record it in "
        "TYPER_MEASURED_BELOW first")


def test_the_cli_starts_without_pydantic():
    """What the ceiling is for, as the installed typer does it: parsing `rule`'s arguments imports no pydantic."""
    script = ("import sys\n"
              "sys.argv = ['adjudicate', 'rule', '--format', 'json', 'scenarios/euchre/revoke-established.yaml']\n"
              "from adjudicate.__main__ import main\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print('pydantic' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert '"laws"' in done.stdout and done.stderr.splitlines()[-1] == "False", done.stderr


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
