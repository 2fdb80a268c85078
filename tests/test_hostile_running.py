"""Running in hostile surroundings, through the real command (README, "Errors and limits"):
unreadable files, outputs that fail (a broken pipe, a full disk, a closed stdout, an ASCII-only
encoding), values and file names holding control characters. Never a traceback; every exit code
as documented.

Most run the command as a process (`python -m adjudicate`), since file descriptors and encodings
are the process's own. The tests of unreadable files need a user who may not read everything: as
root they drop the capabilities that let root read any file (`setpriv --inh-caps=-dac_override,
-dac_read_search --bounding-set=...`, util-linux), so they run as root in CI too; as another user
they run as they are.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli import app
from adjudicate.escape import json_text, visible, visible_lines

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
SUMMARY = re.compile(r"check: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?")
LINUX = sys.platform.startswith("linux")

runner = CliRunner()


def command(*args: object, env: dict[str, str] | None = None, timeout: float = 60,
            **options) -> subprocess.CompletedProcess[bytes]:
    """`adjudicate ARGS` as a process, from the repository (so this checkout's code runs)."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    return subprocess.run([sys.executable, "-m", "adjudicate", *map(str, args)], cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=timeout, **streams)


def no_traceback(done: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in done.stdout + done.stderr, done.stderr.decode(errors="replace")


def summary_of(text: str) -> tuple[int, int, int]:
    (match,) = [m for m in map(SUMMARY.fullmatch, text.splitlines()) if m]
    return int(match[1]), int(match[2]), int(match[3] or 0)


def scenarios(folder: Path, count: int, names: str = "hand-{:03d}.yaml") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / names.format(number) for number in range(count)]
    for path in paths:
        path.write_text(GOOD, encoding="utf-8")
    return paths


# --- as a user who may not read every file ------------------------------------------------------

DROP = ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]


def unprivileged() -> list[str]:
    """The prefix that runs a command without the right to read every file (empty when not root).

    Skipped only where setpriv is missing (CI makes sure it is there); a setpriv that cannot drop
    the capabilities fails the test, saying why.
    """
    if os.name != "posix":
        pytest.skip("file permissions are POSIX's")
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root, and setpriv (util-linux) is missing: cannot drop the right to read every file")
    probe = _probe()
    if probe:
        pytest.fail(f"setpriv cannot drop root's right to read every file here: {probe}")
    return DROP


@functools.lru_cache(maxsize=None)
def _probe() -> str:
    done = subprocess.run([*DROP, sys.executable, "-c", "pass"], capture_output=True)
    return "" if done.returncode == 0 else done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"


def unprivileged_command(*args: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*unprivileged(), sys.executable, "-m", "adjudicate", *map(str, args)],
                          capture_output=True, cwd=ROOT, timeout=60)


@pytest.fixture
def locked(tmp_path: Path):
    """A scenario file nobody may read, beside a good one; permissions put back for the clean-up."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(GOOD, encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(GOOD, encoding="utf-8")
    secret.chmod(0)
    yield secret, good
    secret.chmod(0o644)


@pytest.mark.parametrize("name", ["rule", "replay"])
def test_an_unreadable_file_is_reported_and_the_others_still_run(locked, name):
    secret, good = locked
    done = unprivileged_command(name, secret, good)
    no_traceback(done)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [f"error: {secret}: cannot read: Permission denied"]
    assert b"Usage:" not in done.stderr and b"revoke by East" in done.stdout  # the good file was still done


def test_check_and_diff_report_an_unreadable_file(locked):
    secret, good = locked
    checked = unprivileged_command("check", "--jobs", "1", secret, good)
    no_traceback(checked)
    assert checked.returncode == 2
    lines = checked.stdout.decode().splitlines()
    assert f"{secret}: cannot read: Permission denied" in lines and summary_of("\n".join(lines)) == (1, 0, 0)
    diffed = unprivileged_command("diff", "--house", "stick-the-dealer", secret, good)
    no_traceback(diffed)
    assert diffed.returncode == 2 and b"Usage:" not in diffed.stderr
    assert b"cannot read: Permission denied" in diffed.stdout


# --- outputs that fail -----------------------------------------------------------------------

SCENARIO = "scenarios/euchre/revoke-established.yaml"
EVERY_COMMAND = [["rule", SCENARIO], ["replay", SCENARIO], ["check", "--jobs", "1", SCENARIO], ["laws"],
                 ["law", "euchre", "62"], ["lint"], ["schema"], ["diff", "--house", "stick-the-dealer", SCENARIO],
                 ["--help"], ["rule", "--help"]]


@pytest.mark.parametrize("args", EVERY_COMMAND, ids=lambda args: " ".join(args))
def test_a_broken_pipe_exits_141_quietly(args):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: `| head -0`
    try:
        done = command(*args, stdout=write)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", EVERY_COMMAND, ids=lambda args: " ".join(args))
def test_a_full_disk_is_one_line_and_exit_2(args):
    with open("/dev/full", "wb") as full:
        done = command(*args, stdout=full)
    assert done.returncode == 2
    assert done.stderr.decode() == "error: cannot write the output: No space left on device\n"


@pytest.mark.skipif(os.name != "posix", reason="a POSIX shell closes stdout")
@pytest.mark.parametrize("args", EVERY_COMMAND[:3], ids=lambda args: " ".join(args))
def test_a_closed_stdout_is_one_line_and_exit_2(args):
    line = " ".join([sys.executable, "-m", "adjudicate", *args])
    done = subprocess.run(["sh", "-c", f"exec {line} >&-"], capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert done.stderr.decode() == "error: cannot write the output: standard output is closed\n"


ASCII_ONLY = [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}]


@pytest.mark.parametrize("env", ASCII_ONLY, ids=["PYTHONIOENCODING=ascii", "LC_ALL=C"])
def test_an_ascii_only_output_degrades_to_escapes(env):
    table = command("rule", SCENARIO, env=env)
    no_traceback(table)
    assert table.returncode == 0
    assert "\u201cIs when a player" in command("rule", SCENARIO).stdout.decode()
    assert b"\\u201cIs when a player" in table.stdout  # the curly quote, as an escape
    ascii_json = command("rule", "--format", "json", SCENARIO, env=env)
    assert ascii_json.returncode == 0 and ascii_json.stdout.isascii()
    assert json.loads(ascii_json.stdout) == json.loads(command("rule", "--format", "json", SCENARIO).stdout)
    for args in (["check", "--jobs", "1", "--format", "junit", SCENARIO], ["law", "euchre", "62"], ["laws"]):
        done = command(*args, env=env)
        no_traceback(done)
        assert done.returncode == 0, done.stderr


# --- control characters --------------------------------------------------------------------

def test_rule_and_replay_escape_what_could_drive_the_terminal(tmp_path: Path):
    path = tmp_path / "title.yaml"
    path.write_text(GOOD.replace("title: East trumps a spade while holding one",
                                 'title: "East\\rSPOOF \\u202eevil \\x85 \\u2028"'), encoding="utf-8")
    for args in (["rule", str(path)], ["rule", "--format", "markdown", str(path)], ["replay", str(path)]):
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
        assert not re.search("[\r\x85\u202e\u2028]", done.stdout)
    ruled = runner.invoke(app, ["rule", str(path)]).stdout
    assert ruled.split("\n")[0].startswith("Ruling: East\\rSPOOF \\u202eevil")
    as_json = runner.invoke(app, ["rule", "--format", "json", str(path)]).stdout
    assert "\u202e" not in as_json and json.loads(as_json)["title"].startswith("East\rSPOOF \u202eevil")


def test_error_lines_on_stderr_stay_one_line_each(tmp_path: Path):
    path = tmp_path / "x\nerror: forged\x1b[2J.yaml"
    path.write_text("code: eucher\n", encoding="utf-8")
    done = command("replay", path)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert lines and all(line.startswith(f"error: {tmp_path}/x\\nerror: forged\\x1b[2J.yaml") for line in lines)
    linted = command("lint", path)
    assert linted.returncode == 2
    assert all(line.startswith(f"{tmp_path}/x\\nerror: forged\\x1b[2J.yaml") for line in linted.stdout.decode().splitlines())


# --- the escapes themselves --------------------------------------------------------------------

def test_visible_escapes_control_characters_and_leaves_plain_text_alone():
    plain = "scenarios/euchre/revoke.yaml:24:3: expect.laws: expected [62]; actual “62”"
    assert visible(plain) is plain and visible_lines(plain + "\n\tx") == plain + "\n\tx"
    assert visible("a\nb\rc\td\x1be\x7ff\x85g\u202eh\u2028i\udce9j\ud800") == \
        "a\\nb\\rc\\td\\x1be\\x7ff\\x85g\\u202eh\\u2028i\\xe9j\\ud800"
    assert visible_lines("line\n\x1b[2Jnext\tcell\r") == "line\n\\x1b[2Jnext\tcell\\r"


def test_json_text_keeps_the_data_and_stays_valid_utf8():
    data = {"file": "a\udce9b", "title": "x\u202ey\x85", "quote": "“q” 😀"}
    text = json_text(json.dumps(data, ensure_ascii=False))
    text.encode("utf-8")  # no surrogate left
    assert json.loads(text) == {"file": "a\\xe9b", "title": "x\u202ey\x85", "quote": "“q” 😀"}
    assert "\u202e" not in text and "\x85" not in text
    ascii_text = json_text(json.dumps(data, ensure_ascii=False), ascii_only=True)
    assert ascii_text.isascii() and json.loads(ascii_text) == json.loads(text)
