"""The entry point runs one command through an app holding only that command: it must read the same."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from adjudicate.cli import app, command_name, command_named
from adjudicate.cli_common import COMMAND_MODULES

runner = CliRunner()
NAMES = [command_name(info) for info in app.registered_commands]
SCENARIO = "scenarios/euchre/revoke-established.yaml"


def test_every_command_is_found_by_its_name_and_nothing_else_is():
    assert NAMES == ["rule", "replay", "check", "schema", "laws", "law", "lint", "diff"]
    assert command_named("rul") is None and command_named("--help") is None


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("args", [["--help"], [], ["--no-such-option"]])
def test_a_command_alone_reads_as_it_does_in_the_full_app(name, args):
    alone = runner.invoke(command_named(name), [name, *args], prog_name="adjudicate")
    full = runner.invoke(app, [name, *args], prog_name="adjudicate")
    assert (alone.exit_code, alone.output) == (full.exit_code, full.output)


def test_the_installed_entry_point_rules_and_suggests(tmp_path):
    main = [sys.executable, "-m", "adjudicate"]  # the module the `adjudicate` script runs
    ruled = subprocess.run(main + ["rule", "--format", "json", SCENARIO], capture_output=True, text=True)
    assert ruled.returncode == 0 and '"laws"' in ruled.stdout
    typo = subprocess.run(main + ["rul", SCENARIO], capture_output=True, text=True)
    assert typo.returncode == 2 and "Did you mean 'rule'?" in typo.stderr


def test_each_command_is_registered_by_the_module_the_entry_point_imports_for_it():
    assert sorted(COMMAND_MODULES) == sorted(NAMES)
    for info in app.registered_commands:
        assert info.callback.__module__ == f"adjudicate.{COMMAND_MODULES[command_name(info)]}"


@pytest.mark.parametrize("name", ["rule", "law", "check"])
def test_the_entry_point_imports_only_the_module_of_the_command(name):
    script = ("import sys\n"
              f"sys.argv = ['adjudicate', {name!r}, '--help']\n"
              "from adjudicate.__main__ import main\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print('imported:', ' '.join(sorted(m for m in sys.modules if m.startswith('adjudicate.cli'))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"Usage: adjudicate {name} [OPTIONS]" in done.stdout
    imported = done.stdout.splitlines()[-1].split()[1:]
    assert sorted(imported) == sorted(["adjudicate.cli_common", f"adjudicate.{COMMAND_MODULES[name]}"])


def test_short_help_and_version():
    """Issue 15: `-h` as well as `--help`, on the app and on each command, and `--version`."""
    import subprocess
    import sys

    from adjudicate import __version__

    for args in (["-h"], ["rule", "-h"], ["check", "-h"]):
        done = subprocess.run([sys.executable, "-m", "adjudicate", *args], capture_output=True, text=True)
        first = done.stdout.splitlines()[0] if done.stdout else ""
        assert done.returncode == 0 and first.startswith("Usage: ") and "adjudicate" in first, (args, done.stderr)
        assert "-h, --help" in done.stdout
    done = subprocess.run([sys.executable, "-m", "adjudicate", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"adjudicate {__version__}\n")


@pytest.mark.parametrize("command", ["rule", "replay", "laws", "law", "lint", "diff", "check", "schema"])
def test_every_format_option_has_its_short_form(command):
    """Issue 15: `-f` wherever a command takes `--format`, so `adjudicate laws -f json` works like `rule -f json`."""
    result = CliRunner().invoke(app, [command, "-h"])
    assert result.exit_code == 0, result.output
    if "--format" in result.output:
        assert "-f, --format" in result.output, f"{command} takes --format but not -f:\n{result.output}"


def test_laws_answers_to_f():
    result = CliRunner().invoke(app, ["laws", "--code", "euchre", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert result.output.lstrip().startswith("[")
