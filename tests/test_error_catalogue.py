"""The error catalogue: each file in tests/errors/ provokes one error message, stored in
tests/errors/expected.yaml (file name -> exactly what is printed, the path as given).

Scenarios run through `adjudicate replay` and their messages are its stderr; rulebooks
(`rulebook-*.yaml`) run through `adjudicate lint`, which prints its problems as its
output. docs/errors.md's "The error catalogue" lists them all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
ERRORS = Path(__file__).parent / "errors"
EXPECTED: dict[str, str] = yaml.safe_load((ERRORS / "expected.yaml").read_text(encoding="utf-8"))
FILES = sorted(path.name for path in ERRORS.glob("*.yaml") if path.name != "expected.yaml")


def provoke(name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """(exit code, the message printed) for one catalogue file, named relative to the checkout."""
    monkeypatch.chdir(ROOT)
    path = f"tests/errors/{name}"
    if name.startswith("rulebook-"):
        result = CliRunner().invoke(app, ["lint", path])
        assert result.stderr == ""
        return result.exit_code, result.stdout
    result = CliRunner().invoke(app, ["replay", path])
    assert result.stdout == ""
    return result.exit_code, result.stderr


def test_every_file_has_its_message_and_every_message_its_file():
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_catalogued_message(name, monkeypatch):
    code, printed = provoke(name, monkeypatch)
    assert code == 2
    assert printed == EXPECTED[name]


def test_the_catalogue_document_lists_every_file():
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    catalogue = text[text.index("## The error catalogue"):]
    missing = [name for name in FILES if f"`{name}`" not in catalogue]
    assert not missing, f"docs/errors.md's error catalogue does not list {missing}"
