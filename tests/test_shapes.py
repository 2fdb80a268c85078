"""One shape a command, whatever the number of files (docs/commands.md, "One JSON shape a command"); findings on
stdout and diagnostics on stderr, every line about a place in a file path first; check's -q and -v; -V; diff's text
within 100 columns, its changes marked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

ONE = "scenarios/euchre/revoke-established.yaml"
TWO = "scenarios/euchre/bid-out-of-turn.yaml"
RULEBOOK = "rulebooks/euchre.yaml"
HOUSE = "rulebooks/house/modern-euchre.yaml"
BAD = "tests/errors/bad-seat.yaml"
"""A scenario with one problem: its dealer is no seat (2:9)."""


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# --- JSON and JSON Lines: one shape whatever the number of files -------------------------------------------------

@pytest.mark.parametrize("command, key, files", [
    ("rule", "scenario", [ONE]), ("rule", "scenario", [TWO, ONE]),
    ("replay", "scenario", [ONE]), ("replay", "scenario", [TWO, ONE]),
    ("lint", "path", [RULEBOOK]), ("lint", "path", [HOUSE, RULEBOOK]),
])
def test_json_is_an_array_in_the_order_given_and_jsonl_a_line_each(command, key, files):
    as_json = run(command, "-f", "json", *files)
    assert as_json.exit_code == 0 and as_json.stderr == ""
    records = json.loads(as_json.stdout)
    assert isinstance(records, list) and [record[key] for record in records] == files
    as_lines = run(command, "-f", "jsonl", *files)
    assert as_lines.exit_code == 0 and as_lines.stderr == ""
    lines = as_lines.stdout.splitlines()
    assert [json.loads(line) for line in lines] == records  # the same records, one compact line each
    assert all(line.startswith("{") and "\n" not in line for line in lines)


def test_laws_json_is_an_array_and_jsonl_a_law_a_line():
    records = json.loads(run("laws", "--code", "long-whist", "-f", "json").stdout)
    assert isinstance(records, list) and len(records) == 19
    lines = run("laws", "--code", "long-whist", "-f", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == records


def test_check_json_is_one_object_and_jsonl_a_file_a_line():
    data = json.loads(run("check", "-f", "json", ONE, TWO).stdout)
    assert set(data) >= {"files", "skipped", "summary"} and [f["file"] for f in data["files"]] == sorted([ONE, TWO])
    lines = run("check", "-f", "jsonl", ONE, TWO).stdout.splitlines()
    assert [json.loads(line) for line in lines] == data["files"]
    one = json.loads(run("check", "-f", "json", ONE).stdout)
    assert [f["file"] for f in one["files"]] == [ONE]


@pytest.mark.parametrize("args, kind", [
    (["law", "euchre:63"], dict), (["law", "63"], list), (["diff", "--house", "modern-euchre", ONE], dict),
    (["diff", "--house", "modern-euchre", ONE, TWO], dict), (["schema"], dict),
])
def test_the_other_commands_json_has_the_documented_shape(args, kind):
    result = run(*args[:1], "-f", "json", *args[1:])
    assert result.exit_code == 0 and isinstance(json.loads(result.stdout), kind)


def test_a_file_in_error_is_left_out_of_the_array_and_said_on_stderr():
    bad = BAD
    result = run("rule", "-f", "json", ONE, str(bad))
    assert result.exit_code == 2 and [r["scenario"] for r in json.loads(result.stdout)] == [ONE]
    assert re.fullmatch(rf"{re.escape(bad)}:2:9: .+\n", result.stderr), result.stderr
    alone = run("replay", "-f", "json", str(bad))
    assert alone.exit_code == 2 and json.loads(alone.stdout) == []


EVERY_FORMAT = [
    ("rule", ["table", "json", "jsonl", "markdown"], [ONE]),
    ("replay", ["table", "json", "jsonl", "markdown"], [ONE]),
    ("laws", ["table", "json", "jsonl", "markdown"], ["--code", "long-whist"]),
    ("law", ["table", "json", "markdown"], ["euchre:63"]),
    ("lint", ["table", "json", "jsonl", "markdown"], [RULEBOOK]),
    ("diff", ["table", "json", "markdown"], ["--house", "modern-euchre", "scenarios/euchre"]),
    ("check", ["text", "json", "jsonl", "junit", "github", "sarif"], [ONE]),
    ("schema", ["json", "yaml"], []),
]


@pytest.mark.parametrize("command, fmt, args", [(c, f, a) for c, formats, a in EVERY_FORMAT for f in formats])
def test_every_command_in_every_format_prints_on_stdout_only(command, fmt, args):
    result = run(command, "-f", fmt, *args)
    assert result.exit_code == 0 and result.stdout.strip() and result.stderr == "", (result.stdout, result.stderr)
    if fmt in ("json", "sarif"):
        json.loads(result.stdout)
    if fmt == "jsonl":
        assert all(isinstance(json.loads(line), dict) for line in result.stdout.splitlines())


def test_a_bad_format_names_the_formats_and_the_one_meant():
    result = run("rule", "-f", "jsn", ONE)
    assert result.exit_code == 2
    assert "'jsn' is not one of 'table', 'json', 'jsonl', 'markdown' (did you mean \"json\"?)" in result.stderr


# --- one error line: path first, for rule as for check -------------------------------------------------------

def test_rule_and_check_give_a_problem_in_a_file_the_same_line():
    bad = BAD
    ruled, checked, replayed = run("rule", str(bad)), run("check", str(bad)), run("replay", str(bad))
    (line,) = ruled.stderr.splitlines()
    assert line.startswith(f"{bad}:2:9: ") and ruled.stdout == ""  # a diagnostic: stderr
    assert checked.stdout.splitlines()[0] == line and checked.stderr == ""  # a finding: stdout
    assert replayed.stderr.splitlines() == [line]


def test_a_usage_error_in_no_file_is_an_error_line_on_stderr():
    result = run("rule", "--house", "modern-eucher", ONE)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.startswith("error: ")


def test_the_readme_says_where_findings_and_diagnostics_go():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Findings go to standard\noutput, diagnostics to standard error" in readme
    assert "`file:line:col: message`" in readme


# --- check -q and -v; -V ---------------------------------------------------------------------------------------

def test_check_quiet_prints_nothing_on_success_and_the_summary_on_failure():
    assert (lambda r: (r.exit_code, r.stdout, r.stderr))(run("check", "-q", ONE)) == (0, "", "")
    bad = BAD
    result = run("check", "--quiet", ONE, str(bad))
    assert result.exit_code == 2 and result.stdout == (
        "check: 1 passed, 0 failed\ncheck: 1 invalid file (could not be read, validated, replayed or ruled)\n")


def test_check_verbose_gives_each_file_a_line_first():
    result = run("check", "-v", ONE, TWO)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"{TWO}: passed (laws ")
    assert lines[1:] == [f"{ONE}: passed (laws 4, 62, 63, 64, 70)", "check: 2 passed, 0 failed"]
    assert run("check", "--verbose", "-f", "json", ONE).stdout == run("check", "-f", "json", ONE).stdout


def test_check_quiet_and_verbose_together_is_a_usage_error():
    result = run("check", "-q", "-v", ONE)
    assert result.exit_code == 2 and result.stderr == "error: --quiet and --verbose cannot be given together\n"


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_dash_capital_v_prints_the_version(flag):
    from adjudicate.version import __version__

    result = run(flag)
    assert result.exit_code == 0 and result.stdout == f"adjudicate {__version__}\n"


# --- diff's text --------------------------------------------------------------------------------------------------

def test_diff_text_fits_100_columns_marks_the_changes_and_shows_relative_paths():
    result = run("diff", "--house", "modern-euchre", str(ROOT / "scenarios"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert lines[0] == "- by the code, + with modern-euchre"
    changed = [line for line in lines if line.startswith("changed  ")]
    assert changed and all(line[9:].startswith("scenarios/") for line in changed)  # relative to here
    block = lines[lines.index("changed  scenarios/euchre/house-modern-renege-costs-two.yaml") + 1:][:10]
    assert "         - law 63: NS may score 3" in block and "         + law 63: NS may score 2" in block
    assert "           law 64: revoke established" in block  # a line both rulings share, unmarked
    shipped = len(list((ROOT / "scenarios").glob("*/*.yaml")))
    assert lines[-1].startswith(f"{len(changed)} of {shipped} scenarios change under modern-euchre")


def test_diff_markdown_keeps_the_grid():
    result = run("diff", "-f", "markdown", "--house", "modern-euchre", "scenarios/euchre")
    assert result.stdout.startswith("| scenario ") and "|----" in result.stdout.splitlines()[1].replace(":", "-")
