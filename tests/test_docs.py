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


# --- docs/rulings.md: the relations of one law defeating another, as the rulebooks encode them -------------

RULINGS = (Path(__file__).resolve().parent.parent / "docs" / "rulings.md").read_text(encoding="utf-8")


def relations_table() -> str:
    from adjudicate.rulebook import builtin_codes, builtin_rulebook

    rows = ["| code | law | how | defeats | what | reaches | because |", "|---|---|---|---|---|---|---|"]
    for code in builtin_codes():
        for law in builtin_rulebook(code).laws:
            grouped: dict[tuple, list[str]] = {}
            for defeat in law.defeats:
                reach = defeat.same or "all"
                if defeat.pairs:
                    reach += ", in pairs"
                if defeat.when is not None:
                    reach += ", when its `when` holds"
                grouped.setdefault((defeat.how, defeat.what, reach, defeat.because), []).append(defeat.law)
            for (how, what, reach, because), targets in grouped.items():
                rows.append(f"| {code} | {law.id} | {how} | {', '.join(targets)} | {what} | {reach} | {because} |")
    return "\n".join(rows)


def test_the_relations_table_is_the_rulebooks():
    start = RULINGS.index("<!-- relations:")
    start = RULINGS.index("\n", start) + 1
    end = RULINGS.index("<!-- /relations -->")
    assert RULINGS[start:end].strip() == relations_table(), \
        "docs/rulings.md's relations table differs from the rulebooks; it should read:\n" + relations_table()


@pytest.mark.parametrize("scenario", sorted(set(re.findall(r"`(scenarios/[a-z-]+/[a-z0-9-]+\.yaml)`", RULINGS))))
def test_every_scenario_docs_rulings_names_exists(scenario):
    assert (Path(__file__).resolve().parent.parent / scenario).is_file(), scenario
