"""The entry point runs one command through an app holding only that command: it must read the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from adjudicate.cli.app import app, command_name, command_named
from adjudicate.cli.common import COMMAND_MODULES

runner = CliRunner()
NAMES = [command_name(info) for info in app.registered_commands]
SCENARIO = "scenarios/euchre/revoke-established.yaml"


def test_every_command_is_found_by_its_name_and_nothing_else_is():
    assert NAMES == ["rule", "replay", "check", "schema", "laws", "law", "lint", "diff", "cache"]
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
              "print('imported:', ' '.join(sorted(m for m in sys.modules if m.startswith('adjudicate.cli.'))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"Usage: adjudicate {name} [OPTIONS]" in done.stdout
    imported = done.stdout.splitlines()[-1].split()[1:]
    assert sorted(imported) == sorted(["adjudicate.cli.common", f"adjudicate.{COMMAND_MODULES[name]}"])


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


# --- usage lines, completion, schema's formats (issue 15, "The CLI's conventions") ----------------------

USAGE = {
    "rule": "Usage: adjudicate rule [OPTIONS] FILE...",
    "replay": "Usage: adjudicate replay [OPTIONS] FILE...",
    "check": "Usage: adjudicate check [OPTIONS] PATH...",
    "schema": "Usage: adjudicate schema [OPTIONS]",
    "laws": "Usage: adjudicate laws [OPTIONS]",
    "law": "Usage: adjudicate law [OPTIONS] REF [LAW]",
    "lint": "Usage: adjudicate lint [OPTIONS] [FILE]...",
    "diff": "Usage: adjudicate diff [OPTIONS] PATH...",
    "cache": "Usage: adjudicate cache [OPTIONS] [ACTION]",
}
SCRIPT = str(Path(sys.executable).with_name("adjudicate"))
"""The installed `adjudicate` script (the name completion is set up for; `python -m adjudicate` is another)."""


def test_every_command_has_a_usage_line():
    assert sorted(USAGE) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_usage_lines_name_the_arguments_as_a_man_page_does(name):
    """`FILE...`, not Typer 0.28's `{files}...`: from the entry point and from the full app alike."""
    done = subprocess.run([SCRIPT, name, "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == USAGE[name], done.stdout
    full = runner.invoke(app, [name, "--help"], prog_name="adjudicate")
    assert full.output.splitlines()[0] == USAGE[name]


def test_a_missing_file_is_named_as_the_usage_line_names_it():
    done = subprocess.run([SCRIPT, "rule"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == USAGE["rule"] and "Missing argument 'FILE'." in done.stderr


def test_shell_completion_is_offered_installed_and_answers():
    """Completion is on: it measured no start-up cost (setting its two options up takes ~0.1 ms in process;
    `adjudicate --version` 66.2 ms with it and 66.3 ms without, `adjudicate rule FILE` 125.3 ms and 124.8 ms,
    medians of 200 alternated runs each, within the noise)."""
    shown = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True).stdout
    assert "--install-completion" in shown and "--show-completion" in shown
    # Run from bash (a second command keeps bash from exec'ing it), whose script it prints.
    script = subprocess.run(["bash", "-c", f"'{SCRIPT}' --show-completion; true"], capture_output=True, text=True)
    assert "_adjudicate_completion()" in script.stdout and "_ADJUDICATE_COMPLETE=complete_bash" in script.stdout
    # What that script asks the command when Tab is pressed: the commands, then the options and their values.
    for words, wanted in [("adjudicate ru", ["rule"]), ("adjudicate la", ["laws", "law"]),
                          ("adjudicate rule --fo", ["--format"]),
                          ("adjudicate rule -f ", ["table", "json", "jsonl", "markdown"]),
                          ("adjudicate schema -f ", ["json", "yaml"])]:
        env = {**os.environ, "_ADJUDICATE_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        done = subprocess.run([SCRIPT], capture_output=True, text=True, env=env)
        assert (done.returncode, done.stdout.split()) == (0, wanted), (words, done.stderr)


def test_install_completion_sets_up_bash(tmp_path):
    done = subprocess.run(["bash", "-c", f"'{SCRIPT}' --install-completion; true"], capture_output=True, text=True,
                          env={**os.environ, "HOME": str(tmp_path)})
    installed = tmp_path / ".bash_completions" / "adjudicate.sh"
    assert done.stdout.startswith(f"bash completion installed in {installed}\n"), done.stderr
    assert "_ADJUDICATE_COMPLETE=complete_bash" in installed.read_text()
    assert f"source '{installed}'" in (tmp_path / ".bashrc").read_text()


def test_schema_takes_a_format():
    as_json = subprocess.run([SCRIPT, "schema"], capture_output=True, text=True)
    assert as_json.returncode == 0
    for flag in ("--format", "-f"):
        same = subprocess.run([SCRIPT, "schema", flag, "json"], capture_output=True, text=True)
        assert same.stdout == as_json.stdout
        as_yaml = subprocess.run([SCRIPT, "schema", flag, "yaml"], capture_output=True, text=True)
        assert as_yaml.returncode == 0 and as_yaml.stdout.startswith("$schema: https://json-schema.org/draft/2020-12/")
        assert yaml.safe_load(as_yaml.stdout) == json.loads(as_json.stdout)


@pytest.mark.parametrize("args, meant", [
    (["schema", "-f", "yml"], "'yml' is not one of 'json', 'yaml' (did you mean \"yaml\"?)."),
    (["schema", "--format", "markdown"], "'markdown' is not one of 'json', 'yaml'."),
    (["rule", "-f", "jsn", SCENARIO], "'jsn' is not one of 'table', 'json', 'jsonl', 'markdown' (did you mean \"json\"?)."),
    (["check", "-f", "jnit", SCENARIO], "'jnit' is not one of "),
    (["laws", "-f", "tabel"], "'tabel' is not one of 'table', 'json', 'jsonl', 'markdown' (did you mean \"table\"?)."),
])
def test_a_wrong_format_says_which_was_meant(args, meant):
    done = subprocess.run([SCRIPT, *args], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("Error: Invalid value for '--format'") and meant in last, done.stderr
    if args[0] == "check":
        assert last.endswith(' (did you mean "junit"?).')
