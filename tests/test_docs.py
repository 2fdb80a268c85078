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


# --- docs/writing-a-hand.md: every file it names is checked, every YAML block is a scenario or a file's lines,
# and every ruling it quotes is the real output -----------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "writing-a-hand.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", GUIDE, re.M | re.S)


def _in_order(shown: list[str], lines: list[str], whole_runs: bool = True) -> bool:
    """Each run of `shown` between `…` lines stands, whole and in order, among `lines` (or, not `whole_runs`,
    each line of `shown` does, in order: the lines of a file the guide quotes, some left out)."""
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "…" or not whole_runs:
            runs.append([])
        if line != "…":
            runs[-1].append(line)
    at = 0
    for run in (run for run in runs if run):
        found = next((i for i in range(at, len(lines) - len(run) + 1) if lines[i:i + len(run)] == run), None)
        if found is None:
            return False
        at = found + len(run)
    return True


def test_the_guide_to_writing_a_hand():
    from adjudicate.scenario import parse_scenario

    assert "](docs/writing-a-hand.md)" in "\n".join(README.splitlines()[:30]), \
        "the README's first screen should link docs/writing-a-hand.md"
    named = sorted(set(re.findall(r"scenarios/[a-z-]+/[a-z0-9-]+\.yaml", GUIDE)))
    assert len(named) >= 12
    missing = [name for name in named if not (ROOT / name).is_file()]
    assert not missing, f"docs/writing-a-hand.md names files that do not exist: {missing}"
    checked = runner.invoke(app, ["check", "--jobs", "1", *(str(ROOT / name) for name in named)])
    assert checked.exit_code == 0, checked.output
    yaml_blocks = _blocks("yaml")
    assert len(yaml_blocks) >= 12
    for block in yaml_blocks:
        first = block.splitlines()[0]
        if first.startswith("# scenarios/"):
            name = first[2:].strip()
            assert name in named
            lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
            assert _in_order(block.splitlines()[1:], lines, whole_runs=False), f"the guide's lines of {name} are not in it:\n{block}"
        else:
            parse_scenario(block, "docs/writing-a-hand.md")  # raises with the line and column if it is no scenario
    consoles = _blocks("console")
    assert len(consoles) >= 12
    for block in consoles:
        command, *shown = block.splitlines()
        assert command.startswith("$ adjudicate rule scenarios/"), command
        path = command.split()[-1]
        result = runner.invoke(app, ["rule", str(ROOT / path)])
        assert result.exit_code == 0, result.output
        output = [line.rstrip() for line in result.stdout.replace(str(ROOT) + "/", "").splitlines()]
        assert _in_order([line.rstrip() for line in shown], output), \
            f"the guide quotes a ruling of {path} that `adjudicate rule` does not print:\n{block}"


# --- docs/asking.md: every command it shows prints what it shows; the --ask session is typed into a terminal ----

ASKING = (ROOT / "docs" / "asking.md").read_text(encoding="utf-8")


def _asking_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", ASKING, re.M | re.S)


def _shown_in_order(shown: list[str], output: str) -> bool:
    return _in_order([line.rstrip() for line in shown], [line.rstrip() for line in output.splitlines()])


def test_the_asking_page_shows_what_the_commands_print(tmp_path):
    import shlex
    import subprocess
    import sys

    (answers,) = [block for block in _asking_blocks("yaml") if block.startswith("# answers.yaml")]
    (tmp_path / "answers.yaml").write_text(answers, encoding="utf-8")
    consoles = [block for block in _asking_blocks("console") if " --ask " not in block.splitlines()[0]]
    assert len(consoles) >= 4
    for block in consoles:
        command, *shown = block.splitlines()
        assert command.startswith("$ adjudicate rule "), command
        args = [str(tmp_path / "answers.yaml") if arg == "answers.yaml" else arg
                for arg in shlex.split(command[len("$ adjudicate "):])]
        done = subprocess.run([sys.executable, "-m", "adjudicate", *args], capture_output=True, text=True, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        printed = done.stdout + done.stderr
        assert _shown_in_order(shown, printed), f"docs/asking.md shows what `{command[2:]}` does not print:\n{printed}"
        assert done.returncode == (2 if shown[0].startswith("error:") else 0)


def test_the_asking_page_shows_a_real_session():
    from test_asking import at_terminal

    (session,) = [block for block in _asking_blocks("console") if " --ask " in block.splitlines()[0]]
    command, *shown = session.splitlines()
    replies = [line.rsplit(": ", 1)[1].encode() + b"\r" for line in shown if "Answer [y/n]: " in line]
    assert len(replies) == 4
    screen, code = at_terminal(command[len("$ adjudicate "):].split(), replies)
    assert code == 0, screen
    assert _shown_in_order(shown, screen.replace("<typed>", "")), screen


def test_the_asking_page_runs_its_python_as_written(monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "asking.md"), module_relative=False, report=True)
    assert result.attempted >= 5 and result.failed == 0
