"""`-` reads one scenario from standard input, for `rule`, `replay` and `check` (docs/ci.md, "Standard input").

It is named `<stdin>` in every error and every format; it is read with the limits of a file (the size
cap, UTF-8 only, no binary); `-` given twice is a usage error; a file it names by a relative path is
looked for from the working directory. Most tests run the real command with CliRunner's input; those
about what a process's stdin can do (never end, never write) run `python -m adjudicate`.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import adjudicate
from adjudicate.cli.app import app
from adjudicate.record.yamlsource import MAX_FILE_BYTES
from events import HANG, as_at_a_terminal, can_see_syscalls, reading_stdin, until

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "euchre" / "revoke-established.yaml"
GOOD = SCENARIO.read_text(encoding="utf-8")
LAWS = 'laws: ["4", "62", "63", "64", "70"]'
LAWS_LINE = next(n for n, line in enumerate(GOOD.splitlines(), 1) if line.strip() == LAWS)

runner = CliRunner()


def run(*args: object, input: bytes | str | None = None):
    result = runner.invoke(app, [str(arg) for arg in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


def process(*args: object, **options) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "adjudicate", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=as_at_a_terminal, **options)


# --- rule and replay ------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["rule", "replay"])
def test_a_scenario_on_standard_input_is_ruled_as_its_file_is(command: str):
    (from_file,) = json.loads(run(command, "--format", "json", SCENARIO).stdout)
    result = run(command, "--format", "json", "-", input=GOOD.encode())
    assert result.exit_code == 0, result.output
    (from_stdin,) = json.loads(result.stdout)
    assert from_stdin["scenario"] == "<stdin>"
    if command == "rule":  # the same bytes, read from a stream rather than a file (docs/ruling-record.md)
        assert from_stdin["record"]["scenario"] == {**from_file["record"]["scenario"], "of": "stream bytes"}
        from_stdin["record"] = from_file["record"]
    assert {**from_stdin, "scenario": str(SCENARIO)} == from_file
    table = run(command, "-", input=GOOD.encode())
    assert table.exit_code == 0 and table.stdout == run(command, SCENARIO).stdout.replace(str(SCENARIO), "<stdin>")


def test_standard_input_among_files_keeps_its_place():
    result = run("rule", "--format", "json", SCENARIO, "-", input=GOOD.replace("dealer: S", "dealer: S", 1).encode())
    assert result.exit_code == 0, result.output
    assert [ruling["scenario"] for ruling in json.loads(result.stdout)] == [str(SCENARIO), "<stdin>"]


@pytest.mark.parametrize("text, where, message", [
    (GOOD.replace("E: [QS, 9H, JD, AC, 8C]", "E: [QS, 9H, JD, AC, 2C]"), "<stdin>:6:", "2C"),
    ("code: euchre\ndealer: [S\n", "<stdin>:3:1", "invalid YAML"),
    ("", "<stdin>:1:1", "the file is empty"),
])
def test_errors_name_stdin_with_line_and_column(text: str, where: str, message: str):
    result = run("rule", "-", input=text.encode())
    assert result.exit_code == 2
    (line,) = [line for line in result.stderr.splitlines() if line]
    assert line.startswith(f"{where}") and message in line, line


@pytest.mark.parametrize("data, message", [
    (b"code: euchre\n\x00\x01\x02", "<stdin>:1:1: the input is binary (it holds a NUL byte), not YAML text"),
    (b"\xff\xfec\x00o\x00", "<stdin>:1:1: the input is UTF-16 text; give it as UTF-8"),
    (b"title: caf\xe9\n", "<stdin>:1:11: the input is not UTF-8 text: byte 0xE9 cannot stand here (give it as UTF-8)"),
    (b"# " + b"x" * (MAX_FILE_BYTES + 10), f"<stdin>: standard input holds more than {MAX_FILE_BYTES:,} bytes"),
], ids=["binary", "utf-16", "latin-1", "too-big"])
def test_what_a_file_may_not_hold_standard_input_may_not_either(data: bytes, message: str):
    result = run("replay", "-", input=data)
    assert result.exit_code == 2
    (line,) = [line for line in result.stderr.splitlines() if line]
    assert line.startswith(message), line  # path first, as every problem in a file


@pytest.mark.parametrize("command", ["rule", "replay", "check"])
def test_dash_twice_is_a_usage_error(command: str):
    result = run(command, "-", SCENARIO, "-", input=GOOD.encode())
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["error: `-` (standard input) is given 2 times: it can be read only once"]


def test_a_file_named_dash_is_dot_slash_dash(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text(GOOD, encoding="utf-8")
    result = run("rule", "--format", "json", "./-", input=b"not read")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["scenario"] == "-"


def test_a_house_named_by_a_relative_path_is_looked_for_from_the_working_directory(tmp_path: Path, monkeypatch):
    project = tmp_path / "club"
    (project / ".git").mkdir(parents=True)
    (project / "house").mkdir()
    (project / "house" / "no-renege-after-mix.yaml").write_text(
        (ROOT / "tests" / "data" / "house" / "no-renege-after-mix.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    text = GOOD.replace("code: euchre", "code: euchre\nhouse: house/no-renege-after-mix.yaml", 1)
    monkeypatch.chdir(project)
    result = run("rule", "--format", "json", "-", input=text.encode())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["house"] == "house/no-renege-after-mix.yaml"
    (project / "elsewhere").mkdir()
    monkeypatch.chdir(project / "elsewhere")
    result = run("rule", "-", input=text.encode())
    assert result.exit_code == 2
    assert "<stdin>:3:8: `house`: 'house/no-renege-after-mix.yaml' is not a file (looked for " \
           "house/no-renege-after-mix.yaml)" in result.stderr


# --- check ---------------------------------------------------------------------------------------------

def test_check_names_stdin_in_text_json_and_junit():
    wrong = GOOD.replace(LAWS, 'laws: ["62", "65"]').encode()
    text = run("check", "--jobs", "1", "-", input=wrong)
    assert text.exit_code == 1
    assert text.stdout.splitlines() == [f"<stdin>:{LAWS_LINE}:3: expect.laws: expected [62, 65]; actual [4, 62, 63, 64, 70]",
                                        "check: 0 passed, 1 failed"]
    data = json.loads(run("check", "--jobs", "1", "--format", "json", "-", SCENARIO, input=wrong).stdout)
    assert [(item["file"], item["status"]) for item in data["files"]] == [("<stdin>", "failed"), (str(SCENARIO), "passed")]
    assert data["files"][0]["problems"][0]["file"] == "<stdin>"
    junit = ET.fromstring(run("check", "--jobs", "1", "--format", "junit", "-", input=wrong).stdout)
    (case,) = junit.iter("testcase")
    assert case.get("name") == case.get("file") == "<stdin>" and case.find("failure") is not None


def test_check_of_an_unreadable_standard_input_is_an_invalid_result():
    result = run("check", "--jobs", "1", "--format", "json", "-", input=b"\x00binary")
    assert result.exit_code == 2
    (item,) = json.loads(result.stdout)["files"]
    assert item["file"] == "<stdin>" and item["status"] == "invalid"
    assert item["problems"][0]["message"] == "the input is binary (it holds a NUL byte), not YAML text"


def test_the_api_reads_a_binary_stream_by_its_name():
    assert adjudicate.rule(io.BytesIO(GOOD.encode())).scenario == "<stream>"
    named = io.BytesIO(GOOD.encode())
    named.name = "<stdin>"  # type: ignore[attr-defined]
    assert adjudicate.replay(named).scenario == "<stdin>"
    with open(SCENARIO, "rb") as handle:
        assert adjudicate.rule(handle).scenario == str(SCENARIO)
    report = adjudicate.check([io.BytesIO(GOOD.encode()), str(SCENARIO)])
    assert [result.path for result in report.files] == ["<stream>", str(SCENARIO)] and report.ok
    stream = io.BytesIO(GOOD.encode())
    with pytest.raises(adjudicate.AdjudicateError, match="given twice"):
        adjudicate.check([stream, stream])


# --- what a process's standard input can do -----------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["rule", "check"])
def test_an_endless_standard_input_is_refused_at_the_limit(command: str):
    with open("/dev/zero", "rb") as zero:
        done = process(command, "-", stdin=zero)
        out, err = done.communicate(timeout=HANG)  # refused at the limit, or it would read for ever
    assert done.returncode == 2, err.decode()
    assert f"standard input holds more than {MAX_FILE_BYTES:,} bytes".encode() in out + err
    assert b"Traceback" not in out + err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.skipif(not can_see_syscalls(), reason="reads /proc/PID/syscall to see the process blocked reading")
def test_a_standard_input_that_never_writes_is_waited_on_until_a_signal(signum, code):
    done = process("rule", "-", stdin=subprocess.PIPE)
    try:
        until(lambda: reading_stdin(done.pid) or done.poll() is not None, "the command blocked reading its input")
        assert done.poll() is None
        done.send_signal(signum)
        out, err = done.communicate(timeout=HANG)
    finally:
        if done.poll() is None:
            done.kill()
    assert done.returncode == code, err.decode()
    assert b"Traceback" not in out + err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_on_a_terminal_it_says_how_to_end_the_input():
    import pty

    controller, terminal = pty.openpty()
    try:
        done = process("rule", "--format", "json", "-", stdin=terminal)
        # The input is written whole at once: the terminal's line discipline holds it until the command reads.
        os.write(controller, "".join(line + "\n" for line in GOOD.splitlines()).encode() + b"\x04")
        out, err = done.communicate(timeout=HANG)
    finally:
        os.close(controller)
        os.close(terminal)
    assert done.returncode == 0, err.decode()
    assert err.decode().splitlines() == ["reading a scenario from standard input; end it with Ctrl-D (Ctrl-Z then "
                                         "Enter on Windows)"]
    assert json.loads(out)[0]["scenario"] == "<stdin>"


def test_a_file_called_stdin_in_the_working_directory_does_not_move_the_boundary(tmp_path: Path, monkeypatch):
    project, outside = tmp_path / "club", tmp_path / "outside"
    (project / ".git").mkdir(parents=True)
    outside.mkdir()
    house = (ROOT / "tests" / "data" / "house" / "no-renege-after-mix.yaml").read_text(encoding="utf-8")
    (outside / "club.yaml").write_text(house, encoding="utf-8")
    (project / "<stdin>").symlink_to(outside / "club.yaml")  # from a pull request, say
    monkeypatch.chdir(project)
    text = GOOD.replace("code: euchre", "code: euchre\nhouse: ../outside/club.yaml", 1)
    result = run("rule", "-", input=text.encode())
    assert result.exit_code == 2
    assert f"is outside the project of the scenario, {project.resolve()}" in result.stderr
