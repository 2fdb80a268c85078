"""Running on hostile trees and in hostile surroundings, through the real command (docs/errors.md,
"Errors and limits"): `check` on folders from a stranger's pull request (named pipes, links, unreadable
and very deep folders, file names and values holding control characters), signals (SIGTERM,
SIGINT, a killed worker, a killed parent), and outputs that fail (a broken pipe, a full disk, a
closed stdout, an ASCII-only encoding). Never a traceback; every exit code as documented.

Most run the command as a process (`python -m adjudicate`), since signals, file descriptors and
encodings are the process's own. The tests of unreadable files need a user who may not read
everything: as root they drop the capabilities that let root read any file
(`setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=...`, util-linux), so they
run as root in CI too; as another user they run as they are.
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

from events import HANG, as_at_a_terminal, file_has, until

from adjudicate.cli.app import app
from adjudicate.escape import json_text, visible, visible_lines

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
SUMMARY = re.compile(r"check: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?")
LINUX = sys.platform.startswith("linux")

runner = CliRunner()


def command(*args: object, env: dict[str, str] | None = None, timeout: float = HANG,
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
                          capture_output=True, cwd=ROOT, timeout=HANG)


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
    assert done.stderr.decode().splitlines() == [f"{secret}: cannot read: Permission denied"]
    assert b"Usage:" not in done.stderr and b"East played the nine of hearts" in done.stdout  # the good file was still done


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
    assert b"cannot read: Permission denied" in b" ".join(diffed.stdout.split())  # however diff wraps it


def test_an_unreadable_subfolder_is_reported_in_every_format_and_exits_2(tmp_path: Path):
    scenarios(tmp_path / "tree" / "open", 2)
    closed = tmp_path / "tree" / "closed"
    scenarios(closed, 1)
    closed.chmod(0)
    try:
        out = {fmt: unprivileged_command("check", "--jobs", "1", "--format", fmt, tmp_path / "tree")
               for fmt in ("text", "json", "junit", "github", "sarif")}
    finally:
        closed.chmod(0o755)
    for done in out.values():
        no_traceback(done)
        assert done.returncode == 2
    text = out["text"].stdout.decode()
    assert f"{closed}: cannot read this folder: Permission denied; the files in it were not checked" in text
    assert "check: 1 folder could not be read (the files in it were not checked)" in text
    assert summary_of(text) == (2, 0, 0)
    data = json.loads(out["json"].stdout)
    (record,) = [item for item in data["files"] if item["file"] == str(closed)]
    assert (record["status"], record["cause"]) == ("invalid", "folder")
    assert data["summary"]["unreadable_folders"] == 1 and data["summary"]["exit_code"] == 2
    cases = {case.get("name"): case for case in ET.fromstring(out["junit"].stdout).iter("testcase")}
    assert cases[str(closed)].find("error") is not None
    assert any(line.startswith(f"::error file={closed}") for line in out["github"].stdout.decode().splitlines())
    (run,) = json.loads(out["sarif"].stdout)["runs"]
    (folder,) = [result for result in run["results"] if result["ruleId"] == "folder-not-read"]
    assert folder["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/closed/")
    assert run["invocations"][0]["executionSuccessful"] is False  # the check could not cover every file


# --- what `check` walks ------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_in_a_folder_is_reported_not_opened(tmp_path: Path):
    scenarios(tmp_path, 1)
    os.mkfifo(tmp_path / "p.yaml")
    named = tmp_path / "q.yml"
    os.mkfifo(named)
    for args in ([tmp_path], [named]):
        done = command("check", "--jobs", "1", *args, timeout=HANG)  # opening the pipe would block forever
        no_traceback(done)
        assert done.returncode == 2
        for pipe in ([tmp_path / "p.yaml", named] if args == [tmp_path] else [named]):
            assert f"{pipe}: is a named pipe (FIFO), not a regular file; not read" in done.stdout.decode()
    data = json.loads(command("check", "--jobs", "1", "--format", "json", tmp_path, tmp_path, named, timeout=HANG).stdout)
    assert {item["file"]: item["status"] for item in data["files"]} == {
        str(tmp_path / "hand-000.yaml"): "passed", str(tmp_path / "p.yaml"): "invalid", str(named): "invalid"}


def test_a_folder_1100_deep_is_walked_without_recursion(tmp_path: Path):
    folder = tmp_path / "deep"
    folder.mkdir()
    path = str(folder)
    for _ in range(1100):  # os.makedirs itself recurses: one level at a time
        path = os.path.join(path, "d")
        os.mkdir(path)
    Path(path, "hand.yaml").write_text(GOOD, encoding="utf-8")
    try:
        done = command("check", "--jobs", "1", folder)
        no_traceback(done)
        assert (done.returncode, done.stdout.decode()) == (0, "check: 1 passed, 0 failed\n")
    finally:  # shutil.rmtree recurses too
        os.remove(os.path.join(path, "hand.yaml"))
        while path != str(folder):
            os.rmdir(path)
            path = os.path.dirname(path)


def test_links_inside_the_folder_are_followed_once_and_links_out_of_it_reported(tmp_path: Path):
    tree = tmp_path / "tree"
    scenarios(tree / "real", 2)
    outside = tmp_path / "outside"
    scenarios(outside, 3)
    (tree / "again").symlink_to("real")  # inside: its files are the real folder's, checked once
    (tree / "real" / "loop").symlink_to(".")  # a loop
    (tree / "real" / "alias.yaml").symlink_to("hand-000.yaml")
    (tree / "away").symlink_to(outside)  # out of the folder given: not followed
    (tree / "stray.yaml").symlink_to(outside / "hand-000.yaml")
    out = {fmt: command("check", "--jobs", "1", "--format", fmt, tree) for fmt in ("text", "json", "junit", "github")}
    for done in out.values():
        no_traceback(done)
        assert done.returncode == 0
    text = out["text"].stdout.decode()
    assert summary_of(text) == (2, 0, 2)
    assert f"{tree / 'away'}: skipped: a symbolic link to a folder outside {tree} ({outside}); not followed" in text
    assert f"{tree / 'stray.yaml'}: skipped: a symbolic link to a file outside {tree}" in text
    data = json.loads(out["json"].stdout)
    assert [item["file"] for item in data["files"]] == [str(tree / "real" / f"hand-00{n}.yaml") for n in (0, 1)]
    assert data["skipped"] == [str(tree / "away"), str(tree / "stray.yaml")]
    assert [item["kind"] for item in data["skipped_reasons"]] == ["link", "link"]
    suite = ET.fromstring(out["junit"].stdout).find("testsuite")
    assert suite is not None and suite.get("skipped") == "2"
    assert sum(1 for case in suite.iter("testcase") if case.find("skipped") is not None) == 2
    warnings = [line for line in out["github"].stdout.decode().splitlines() if line.startswith("::warning ")]
    assert len(warnings) == 2 and all("title=skipped::a symbolic link" in line for line in warnings)
    # Named on the command line, a link is the user's own choice: followed.
    assert command("check", "--jobs", "1", tree / "away").returncode == 0


# --- signals -----------------------------------------------------------------------------------

# `check` run with one file made slow (it waits a minute), so that the workers are busy when the
# signal comes: forked, they share the patched function.
SLOW_CHECK = """
import os, sys, threading
from adjudicate.checking import batch as checking
real = checking._budgeted
progress = os.environ["PROGRESS"]
def ruled(path, *args):
    if path.endswith("slow.yaml"):
        with open(progress + ".slow", "a") as marker:
            marker.write(f"{os.getpid()}\\n")
        threading.Event().wait()  # never set: the file is checked until a signal ends it
    result = real(path, *args)
    with open(progress, "a") as done:
        done.write(path + "\\n")
    return result
checking._budgeted = ruled
sys.argv = ["adjudicate", *sys.argv[1:]]
from adjudicate.__main__ import main
main()
"""


def _state(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    state = _state(pid)
    return state is not None and state[0] not in ("Z", "X")


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            state = _state(int(entry))
            if state is not None and state[1] == pid and state[0] not in ("Z", "X"):
                found.append(int(entry))
    return sorted(found)


def start_slow_check(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], list[int]]:
    """`check --jobs 2` on 63 files and slow.yaml, returned once the 63 are checked and a worker is waiting on
    slow.yaml (its pid written in PROGRESS.slow): events, not time."""
    scenarios(tmp_path / "files", 63)
    (tmp_path / "files" / "slow.yaml").write_text(GOOD, encoding="utf-8")
    progress = tmp_path / "progress"
    process = subprocess.Popen([sys.executable, "-c", SLOW_CHECK, "check", "--jobs", "2", *args, str(tmp_path / "files")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                               env={**os.environ, "PROGRESS": str(progress), "ADJUDICATE_FILE_SECONDS": "0"},
                               preexec_fn=as_at_a_terminal)
    until(lambda: len(children(process.pid)) >= 2 or process.poll() is not None, "two workers")
    workers = children(process.pid)
    assert len(workers) == 2, "check --jobs 2 did not start two workers"
    until(lambda: file_has(progress, 63) and file_has(Path(f"{progress}.slow")) or process.poll() is not None,
          "the other files checked and a worker on slow.yaml")
    assert process.poll() is None, process.communicate()[1].decode()
    slow = int(Path(f"{progress}.slow").read_text().split()[0])
    return process, sorted(workers, key=lambda pid: pid != slow)  # the one on slow.yaml first


def gone_within(pids: list[int], seconds: float = HANG) -> bool:
    """Whether the processes are gone; `seconds` only bounds a hang."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.01)
    return False


def finish(process: subprocess.Popen[bytes], workers: list[int]) -> None:
    for pid in [process.pid, *workers]:  # whatever a failing test left running
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    process.communicate()


@pytest.mark.skipif(not LINUX, reason="reads /proc to find the worker processes")
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_check_and_its_workers_at_once(tmp_path: Path, signum, code):
    """A worker waits on slow.yaml for ever: only the signal can end the run (the wait's bound is a hang's)."""
    process, workers = start_slow_check(tmp_path)
    try:
        process.send_signal(signum)
        out, err = process.communicate(timeout=HANG)
        assert process.returncode == code, err.decode()
        assert b"Traceback" not in out + err, err.decode()
        assert gone_within(workers), "workers left running"
    finally:
        finish(process, workers)


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_parent_killed_outright(tmp_path: Path):
    process, workers = start_slow_check(tmp_path)
    try:
        process.kill()
        process.wait(timeout=HANG)
        assert gone_within(workers), "workers outlived their parent"
    finally:
        finish(process, workers)


@pytest.mark.skipif(not LINUX, reason="reads /proc to find the worker processes")
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_killed_worker_is_reported_with_what_was_checked(tmp_path: Path, fmt):
    process, workers = start_slow_check(tmp_path, "--format", fmt)
    try:
        os.kill(workers[0], signal.SIGKILL)  # the one on slow.yaml, as the OOM killer does
        out, err = process.communicate(timeout=HANG)
        assert process.returncode == 2, err.decode()
        assert b"Traceback" not in out + err and b"BrokenProcessPool" not in out + err, err.decode()
        slow = str(tmp_path / "files" / "slow.yaml")
        if fmt == "json":
            data = json.loads(out)
            status = {item["file"]: (item["status"], item.get("cause")) for item in data["files"]}
            assert status[slow] == ("invalid", "not checked")
            assert data["summary"]["not_checked"] + data["summary"]["passed"] == 64
            assert data["summary"]["passed"] >= 1
        else:
            text = out.decode()
            assert f"{slow}: not checked: a worker process died before it finished these files" in text
            passed, failed, _ = summary_of(text)
            (line,) = [line for line in text.splitlines() if "not checked (a worker process died" in line]
            assert passed >= 1 and failed == 0 and passed + int(line.split()[1]) == 64
    finally:
        finish(process, workers)


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


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED=1"])
def test_a_reader_leaving_mid_output_exits_141_and_loses_nothing_silently(unbuffered):
    """The reader takes ten bytes of 200 KB and goes (`| head -c 10`): the pipe holds 64 KB, so the
    write is cut short. Unbuffered, Python's text stream dropped the rest of a partial write in
    silence (exit 0); the output must be written whole or the command must say it was not."""
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "scenarios" / "euchre").glob("*.yaml"))
    whole = command("rule", "--format", "json", *files)
    assert whole.returncode == 0 and len(whole.stdout) > 150_000
    process = subprocess.Popen([sys.executable, "-m", "adjudicate", "rule", "--format", "json", *files], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": unbuffered})
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10) == whole.stdout[:10]
    process.stdout.close()
    err = process.stderr.read()
    assert (process.wait(timeout=HANG), err) == (141, b"")


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
    done = subprocess.run(["sh", "-c", f"exec {line} >&-"], capture_output=True, cwd=ROOT, timeout=HANG)
    assert done.returncode == 2
    assert done.stderr.decode() == "error: cannot write the output: standard output is closed\n"


ASCII_ONLY = [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}]


@functools.lru_cache(maxsize=None)
def utf8_output(*args: str) -> bytes:
    """What the command prints on a UTF-8 output, the same for each encoding compared with it: run once."""
    done = command(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("env", ASCII_ONLY, ids=["PYTHONIOENCODING=ascii", "LC_ALL=C"])
def test_an_ascii_only_output_degrades_to_escapes(env):
    table = command("rule", "--explain", SCENARIO, env=env)
    no_traceback(table)
    assert table.returncode == 0
    assert "\u201cIs when a player" in utf8_output("rule", "--explain", SCENARIO).decode()
    assert b"\\u201cIs when a player" in table.stdout  # the curly quote, as an escape
    ascii_json = command("rule", "--format", "json", SCENARIO, env=env)
    assert ascii_json.returncode == 0 and ascii_json.stdout.isascii()
    assert json.loads(ascii_json.stdout) == json.loads(utf8_output("rule", "--format", "json", SCENARIO))
    for args in (["check", "--jobs", "1", "--format", "junit", SCENARIO], ["law", "euchre", "62"], ["laws"]):
        done = command(*args, env=env)
        no_traceback(done)
        assert done.returncode == 0, done.stderr


# --- control characters --------------------------------------------------------------------

HOSTILE_NAMES = ["x\nerror: forged.yaml", "esc\x1b]0;pwned\x07\x1b[2J.yaml", "cr\rcheck: 9 passed, 0 failed.yaml",
                 "bidi\u202eLMTH.yaml", "tab\tc1\x85\x9b.yaml"]


@pytest.fixture
def hostile_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in HOSTILE_NAMES:
        (tree / name).write_text("code: euchre\n", encoding="utf-8")  # invalid: named in the report
    if sys.platform.startswith("linux"):  # a name that is not UTF-8: a filesystem of bytes
        with open(os.path.join(os.fsencode(tree), b"latin\xe9.yaml"), "w", encoding="utf-8") as handle:
            handle.write("code: euchre\n")
    scenarios(tree, 1)
    return tree


def test_file_names_with_control_characters_are_escaped_in_every_format(hostile_tree: Path):
    unsafe = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    text = command("check", "--jobs", "1", hostile_tree)
    no_traceback(text)
    assert text.returncode == 2
    lines = text.stdout.decode("utf-8").splitlines()
    assert not any(unsafe.search(line) for line in lines)
    assert all(line.startswith((f"{hostile_tree}/", "check: ")) for line in lines), lines  # nothing forged
    assert [line for line in lines if SUMMARY.fullmatch(line)] == ["check: 1 passed, 0 failed"]
    assert any(line.startswith(f"{hostile_tree}/x\\nerror: forged.yaml:") for line in lines)
    assert any(line.startswith(f"{hostile_tree}/esc\\x1b]0;pwned\\x07\\x1b[2J.yaml:") for line in lines)
    assert any(line.startswith(f"{hostile_tree}/bidi\\u202eLMTH.yaml:") for line in lines)
    if LINUX:
        assert any(line.startswith(f"{hostile_tree}/latin\\xe9.yaml:") for line in lines)

    junit = command("check", "--jobs", "1", "--format", "junit", hostile_tree)
    suite = ET.fromstring(junit.stdout).find("testsuite")  # well-formed, whatever the names
    assert suite is not None
    names = sorted(case.get("name") or "" for case in suite.iter("testcase"))
    assert f"{hostile_tree}/x\\nerror: forged.yaml" in names and not any(unsafe.search(n) for n in names)

    raw = command("check", "--jobs", "1", "--format", "json", hostile_tree).stdout
    data = json.loads(raw.decode("utf-8"))  # valid UTF-8, valid JSON
    files = {item["file"] for item in data["files"]}
    assert f"{hostile_tree}/x\nerror: forged.yaml" in files  # JSON escapes it; the name is kept as it is
    if LINUX:
        assert f"{hostile_tree}/latin\\xe9.yaml" in files  # an undecodable byte, visibly
    assert not re.search(rb"[\x00-\x1f\x7f]", raw.replace(b"\n", b"")) and "\u202e".encode() not in raw

    github = command("check", "--jobs", "1", "--format", "github", hostile_tree).stdout.decode("utf-8")
    assert all(line.startswith(("::error file=", "check: ")) for line in github.splitlines())
    assert not any(unsafe.search(line) for line in github.splitlines())

    from urllib.parse import unquote_to_bytes, urlsplit

    raw = command("check", "--jobs", "1", "--format", "sarif", hostile_tree).stdout
    (run,) = json.loads(raw.decode("utf-8"))["runs"]
    assert not re.search(rb"[\x00-\x1f\x7f]", raw.replace(b"\n", b"")) and "\u202e".encode() not in raw
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]]
    assert all(uri.isascii() and not unsafe.search(uri) for uri in uris)
    named = {os.fsdecode(unquote_to_bytes(urlsplit(uri).path)) for uri in uris}  # each name's own bytes again
    assert {str(hostile_tree / name) for name in HOSTILE_NAMES} <= named
    if LINUX:
        assert os.fsdecode(os.path.join(os.fsencode(hostile_tree), b"latin\xe9.yaml")) in named


def test_a_newline_in_an_expect_value_cannot_forge_the_summary(tmp_path: Path):
    """A law id with a newline is an invalid file (exit 2); free text compared with the ruling (a score's
    meaning) is a failed expectation (exit 1); in neither does the newline reach the report raw."""
    assert 'laws: ["4", "62", "63", "64", "70"]' in GOOD
    forged = "check: 191 passed, 0 failed"
    cases = {
        2: GOOD.replace('laws: ["4", "62", "63", "64", "70"]', f'laws: ["4", "62", "63", "64", "70", "65\\n{forged}"]'),
        1: GOOD[:GOOD.index("expect:")] + f'expect:\n  score:\n    after: {{NS: 5, EW: 3}}\n    meaning: "x\\n{forged}"\n',
    }
    for code, text in cases.items():
        path = tmp_path / f"forged-{code}.yaml"
        path.write_text(text, encoding="utf-8")
        for fmt in ("text", "github"):
            done = runner.invoke(app, ["check", "--jobs", "1", "--format", fmt, str(path)])
            assert done.exit_code == code, done.stdout
            assert [line for line in done.stdout.splitlines() if SUMMARY.fullmatch(line)] == \
                ["check: 0 passed, 0 failed" if code == 2 else "check: 0 passed, 1 failed"]
            # the id is quoted with the newline escaped; the meaning's white space is folded, as all free text
            assert (f"\\n{forged}" if code == 2 else f"x {forged}") in done.stdout


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
    assert "\u202e" not in as_json and json.loads(as_json)[0]["title"].startswith("East\rSPOOF \u202eevil")


def test_error_lines_on_stderr_stay_one_line_each(tmp_path: Path):
    path = tmp_path / "x\nerror: forged\x1b[2J.yaml"
    path.write_text("code: eucher\n", encoding="utf-8")
    done = command("replay", path)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert lines and all(line.startswith(f"{tmp_path}/x\\nerror: forged\\x1b[2J.yaml") for line in lines)
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
