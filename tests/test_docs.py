"""Every command is documented: in the README with an example, and in its own --help."""

import re
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from adjudicate.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]
runner = CliRunner()


def test_the_main_job_comes_first_in_help():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    commands = result.stdout.split("Commands:", 1)[1]
    listed = re.findall(r"^  ([a-z]+) ", commands, re.M)
    assert listed[0] == "rule"
    assert sorted(listed) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_readme_section_with_an_example(command):
    assert re.search(rf"^### `adjudicate {command}\b", README, re.M), f"no README section for {command}"
    assert re.search(rf"^adjudicate {command}\b", README, re.M), f"no example of `adjudicate {command}`"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert f"adjudicate {command}" in result.stdout
