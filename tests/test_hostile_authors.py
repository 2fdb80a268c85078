"""Hostile authors, any machine (issue 23): what a stranger who writes scenario files, house files and their
names can make `check` print, cost or do, and output that is the same on every run.

- no line of any output is a CI workflow command made from a name, a title, a value or a law's text;
- cost bounded per file: the combinations of open choices are counted, not built; the house cache is keyed
  by the file and bounded; failed expectations are cut; a per-file budget of time and memory;
- the same bytes whatever the hash seed and the number of processes;
- errors at their line, never a traceback (a house striking then replacing a law, an expected remedy's `for`
  that is not a mapping);
- invisible characters in names escaped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings, strategies as st
from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.escape import inert_lines, json_text, visible

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
BARE = GOOD[:GOOD.index("expect:")]
LONG = os.environ.get("ADJUDICATE_HYPOTHESIS") == "long"
runner = CliRunner()


def command(*args: object, env: dict[str, str] | None = None, cwd: Path = ROOT,
            timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    """`adjudicate ARGS` as a process; the timeout only bounds a hang."""
    environment = {**os.environ, **(env or {})}
    environment.pop("GITHUB_ACTIONS", None) if env is None or "GITHUB_ACTIONS" not in env else None
    return subprocess.run([sys.executable, "-m", "adjudicate", *map(str, args)], cwd=cwd, env=environment,
                          capture_output=True, timeout=timeout)


# --- workflow commands ---------------------------------------------------------------------------

def runner_commands(output: str) -> list[str]:
    """The lines of `output` GitHub's runner would take for workflow commands: those that start, after any
    white space (it trims as .NET does: Unicode white space), with `::`, and those holding `##[` anywhere;
    none between `::stop-commands::TOKEN` and `::TOKEN::`."""
    found, stopped = [], None
    for line in output.split("\n"):
        trimmed = line.strip()
        if stopped is not None:
            if trimmed == f"::{stopped}::":
                stopped = None
            continue
        if trimmed.startswith("::stop-commands::"):
            stopped = trimmed[len("::stop-commands::"):]
            continue
        if trimmed.startswith("::") or "##[" in line:
            found.append(line)
    assert stopped is None, "commands were stopped and never started again"
    return found


COMMANDS = ["error", "warning", "notice", "debug", "add-mask", "stop-commands", "group", "endgroup", "set-output",
            "save-state", "echo", "add-path", "set-env", "add-matcher"]
WHITE = st.sampled_from(["", " ", "  ", "\t", "\u00a0", "\u2003", "\u3000", " \t "])
PLAIN = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x7f), min_size=1, max_size=12)
PROPERTIES = st.lists(st.tuples(st.sampled_from(["file", "line", "col", "title", "name"]), PLAIN),
                      max_size=3).map(lambda pairs: ",".join(f"{key}={value}" for key, value in pairs))


@st.composite
def workflow_command(draw) -> str:
    """A line of the runner's command grammar: `::command props::data` or the older `##[command props]data`,
    after white space."""
    name = draw(st.sampled_from(COMMANDS))
    props = draw(PROPERTIES)
    data = draw(PLAIN)
    head = f"{name} {props}" if props else name
    form = draw(st.sampled_from(["::{h}::{d}", "##[{h}]{d}", "::{h}::", "##[{h}]"]))
    return draw(WHITE) + form.format(h=head, d=data)


def as_file_name(text: str) -> str:
    """A file name the runner's grammar can live in: no slash, no NUL, no newline, short enough."""
    name = text.replace("/", "_").replace("\x00", "_").replace("\n", "_").strip() or "x"
    return name.encode()[:200].decode("utf-8", "ignore") + ".yaml"


def every_format(args: list[str], env: dict[str, str] | None = None) -> dict[str, str]:
    outputs = {}
    for fmt in ("text", "json", "junit", "sarif", "github"):
        done = runner.invoke(app, ["check", "--jobs", "1", "--format", fmt, *args], env=env)
        assert "Traceback" not in done.output, done.output
        outputs[fmt] = done.stdout + done.stderr
    return outputs


def assert_no_forged_command(outputs: dict[str, str]) -> None:
    for fmt, output in outputs.items():
        commands = runner_commands(output)
        if fmt == "github":
            # Its own annotations only, each with its properties escaped (no `::` inside them).
            for line in commands:
                assert line.startswith(("::error file=", "::warning file=", "::notice file=")), line
                head = line[2:].split("::", 1)[0]
                assert "," not in head.split(" ", 1)[1].replace(",line=", "").replace(",col=", "").replace(
                    ",endLine=", "").replace(",endColumn=", "").replace(",title=", ""), line
                assert "##[" not in line, line
        else:
            assert commands == [], (fmt, commands)


@settings(max_examples=400 if LONG else 12, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(forged=workflow_command(), meaning=workflow_command())
def test_no_name_title_or_value_makes_a_workflow_command_in_any_format(tmp_path_factory, forged, meaning):
    folder = tmp_path_factory.mktemp("forged")
    name = as_file_name(forged)
    # A house file with a problem, named by a scenario: its findings start with its name as written.
    (folder / name).write_text("house: x\nname: X\nvaries: euchre\nchanges:\n  - strike: '999'\n    why: y\n",
                               encoding="utf-8")
    (folder / "names-it.yaml").write_text(BARE + f"house: {json.dumps(name)}\n", encoding="utf-8")
    # A failing expectation echoing the expected value (free text), and a title.
    (folder / "value.yaml").write_text(
        BARE.replace("title: East trumps a spade while holding one", f"title: {json.dumps(forged)}")
        + f"expect:\n  score:\n    after: {{NS: 5, EW: 3}}\n    meaning: {json.dumps(meaning)}\n", encoding="utf-8")
    old = os.getcwd()
    os.chdir(folder)
    try:
        names = sorted(path.name for path in folder.iterdir())
        assert_no_forged_command(every_format(["--", *names]))
        assert_no_forged_command(every_format(["."]))
        wrapped = every_format(["--", *names], env={"GITHUB_ACTIONS": "true"})
        assert_no_forged_command(wrapped)
        assert wrapped["text"].startswith("::stop-commands::")
    finally:
        os.chdir(old)


@settings(max_examples=200 if LONG else 8, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(forged=workflow_command())
def test_a_house_law_text_rewrapped_by_rule_makes_no_workflow_command(tmp_path_factory, forged):
    """A long word starting with `::` that `rule` wraps onto an indented line of its own."""
    folder = tmp_path_factory.mktemp("law")
    word = forged.strip() + "x" * 90
    house = folder / "house.yaml"
    house.write_text("house: x\nname: X\nvaries: euchre\nchanges:\n  - strike: '63'\n    why: y\n"
                     "  - add: H1\n    why: y\n    title: Penalty\n"
                     f"    text: {json.dumps('The penalty of a revoke is ' + word + ' three points.')}\n"
                     "    condition:\n      revoke: {established: true}\n"
                     "    remedies:\n      - chooser: adversaries\n        options:\n"
                     "          - {kind: score, points: 3}\n", encoding="utf-8")
    scenario = folder / "hand.yaml"
    scenario.write_text(BARE, encoding="utf-8")
    for fmt in ("table", "markdown", "json"):
        done = runner.invoke(app, ["rule", "--house", str(house), "--format", fmt, str(scenario)])
        assert done.exit_code == 0, done.output
        assert "three points" in done.stdout  # the law's text is printed
        assert runner_commands(done.stdout) == [], fmt


def test_the_issues_forged_annotation_is_printed_inert(tmp_path: Path):
    name = "::error file=README.md,line=1,title=Security notice::Rotate your tokens now.yaml"
    (tmp_path / name).write_text("code: euchre\n", encoding="utf-8")
    (tmp_path / "::add-mask::secret.yaml").write_text("code: euchre\n", encoding="utf-8")
    for args in (["check", "."], ["check", "--", name, "::add-mask::secret.yaml"]):
        done = command(*args, cwd=tmp_path)
        assert done.returncode == 2
        text = done.stdout.decode()
        assert runner_commands(text) == []
        assert "\\x3a:error file=README.md" in text or "./::error file=README.md" in text
    done = command("check", "--", name, env={"GITHUB_ACTIONS": "true"}, cwd=tmp_path)
    lines = done.stdout.decode().splitlines()
    token = lines[0].removeprefix("::stop-commands::")
    assert len(token) >= 32 and lines[-1] == f"::{token}::"
    other = command("check", "--", name, env={"GITHUB_ACTIONS": "true"}, cwd=tmp_path).stdout.decode()
    assert other.splitlines()[0] != lines[0]  # a token of its own each run


def test_inert_lines_leaves_plain_text_alone_and_breaks_both_forms():
    plain = "scenarios/euchre/x.yaml:3:4: expect.laws: expected 62; actual 63 (law 4:: see)"
    assert inert_lines(plain) is plain
    assert inert_lines("  ::error::x\n\u00a0::add-mask::y\nok ##[error]z") == \
        "  \\x3a:error::x\n\u00a0\\x3a:add-mask::y\nok ##\\x5berror]z"


# --- cost ---------------------------------------------------------------------------------------

def many_laws_house(path: Path, count: int) -> Path:
    laws = "".join(f"  - add: H{n}\n    why: a penalty of the house's\n    title: Revoke penalty {n}\n"
                   "    text: A revoke costs one, two or three points.\n"
                   "    condition:\n      revoke: {established: true}\n"
                   "    remedies:\n      - chooser: adversaries\n        options:\n"
                   "          - {kind: score, points: 1}\n          - {kind: score, points: 2}\n"
                   "          - {kind: score, points: 3}\n" for n in range(1, count + 1))
    path.write_text("house: many\nname: Many\nvaries: euchre\nchanges:\n  - strike: '63'\n    why: the house's own\n"
                    + laws, encoding="utf-8")
    return path


def test_a_17_law_combination_house_builds_only_the_combinations_it_shows(tmp_path: Path, monkeypatch):
    """3 options for each of 17 laws are 3^17 = 129,140,163 combinations: 64 are built, the rest counted."""
    from adjudicate.ruling import decision

    built = []
    real = decision.final_score
    monkeypatch.setattr(decision, "final_score", lambda *args: built.append(1) or real(*args))
    house = many_laws_house(tmp_path / "house.yaml", 17)
    (tmp_path / "hand.yaml").write_text(BARE, encoding="utf-8")
    done = runner.invoke(app, ["rule", "--house", str(house), "--format", "json", str(tmp_path / "hand.yaml")])
    assert done.exit_code == 0, done.output
    score = json.loads(done.stdout)[0]["score"]
    assert len(score["outcomes"]) == decision.MAX_OUTCOMES == len(built)
    assert score["more"] == 3 ** 17 - decision.MAX_OUTCOMES


def test_combinations_are_those_itertools_would_give_in_its_order():
    from itertools import product

    from adjudicate.ruling.decision import _combinations

    groups = [[[("a", 1), ("a", 2)]], [[("b", 1)]], [[("c", 1), ("c", 2), ("c", 3)]]]
    expected = [tuple(x) for x in product([("a", 1), ("a", 2)], [("b", 1)], [("c", 1), ("c", 2), ("c", 3)])]
    assert list(_combinations(groups)) == expected
    assert list(_combinations([[[("a", 1)]], [[]]])) == []  # a choice with no option: no combination


def test_one_house_through_many_links_is_applied_once_and_the_cache_is_bounded(tmp_path: Path, monkeypatch):
    from adjudicate.lawbook import house as houses

    house = many_laws_house(tmp_path / "house.yaml", 2)
    applied = []
    real = houses.apply_house
    monkeypatch.setattr(houses, "apply_house", lambda *args, **kw: applied.append(1) or real(*args, **kw))
    monkeypatch.setattr(houses, "_APPLIED", houses.Applied(houses.MAX_APPLIED))
    for n in range(20):
        link = tmp_path / f"link-{n}.yaml"
        link.symlink_to(house)
        rulebook = houses.house_rulebook(str(link))
        assert rulebook.path == str(link)  # named as written
    assert len(applied) == 1
    for n in range(houses.MAX_APPLIED + 5):
        other = many_laws_house(tmp_path / f"other-{n}.yaml", 1)
        houses.house_rulebook(str(other))
    assert len(houses._APPLIED) == houses.MAX_APPLIED


def test_failed_expectations_are_cut_to_the_documented_length(tmp_path: Path):
    items = "".join(f'    - {{law: "{n}", chooser: NS, options: [score]}}\n' for n in range(100, 2100))
    path = tmp_path / "big.yaml"
    path.write_text(BARE + "expect:\n  remedies:\n" + items, encoding="utf-8")
    text = runner.invoke(app, ["check", "--jobs", "1", str(path)]).stdout
    lines = text.splitlines()
    assert max(map(len, lines)) <= 1_000 + len(str(path)) + 40
    assert len(lines) == 50 + 1 + 1  # 50 findings, one counting the rest, the summary
    assert "... and 1,950 more failed expectations (only the first 50 are shown)" in text
    data = runner.invoke(app, ["check", "--jobs", "1", "--format", "json", str(path)]).stdout
    assert len(data) < 200_000
    for finding in json.loads(data)["files"][0]["problems"]:
        assert len(finding["message"]) <= 1_000 + len("… (message cut)")
        assert len(json.dumps(finding.get("actual"), ensure_ascii=False)) <= 1_000 + 40


SLOW = """
import sys
from adjudicate.checking import batch
real = batch._check
def _check(path, text, house, *rest):
    if path.endswith("slow.yaml"):
        while True:  # CPU for ever: only the budget ends it
            pass
    if path.endswith("greedy.yaml"):
        hog = bytearray(4 * 1024 * 1024 * 1024)  # 4 GB, more than the budget lets it have
    return real(path, text, house, *rest)
batch._check = _check
sys.argv = ["adjudicate", *sys.argv[1:]]
from adjudicate.__main__ import main
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the memory budget is Linux's (RLIMIT_AS)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_past_its_budget_is_its_own_error_and_the_rest_stand(tmp_path: Path, jobs):
    folder = tmp_path / "files"
    folder.mkdir()
    for n in range(8):
        (folder / f"hand-{n}.yaml").write_text(GOOD, encoding="utf-8")
    (folder / "slow.yaml").write_text(GOOD, encoding="utf-8")
    (folder / "greedy.yaml").write_text(GOOD, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", SLOW, "check", "--jobs", jobs, "--format", "json", str(folder)],
                          capture_output=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "ADJUDICATE_FILE_SECONDS": "2", "ADJUDICATE_FILE_MEGABYTES": "512"})
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode == 2
    files = {Path(item["file"]).name: item for item in json.loads(done.stdout)["files"]}
    assert files["slow.yaml"]["cause"] == "budget"
    assert "more than the budget of 2 CPU seconds a file (ADJUDICATE_FILE_SECONDS)" in \
        files["slow.yaml"]["problems"][0]["message"]
    assert files["greedy.yaml"]["cause"] == "budget"
    assert "more than the budget of 512 MB of memory a file" in files["greedy.yaml"]["problems"][0]["message"]
    assert all(files[f"hand-{n}.yaml"]["status"] == "passed" for n in range(8))



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the memory budget is Linux's (RLIMIT_AS)")
def test_a_run_of_files_gives_back_the_signal_handler_and_the_memory_limit(tmp_path: Path):
    """The budget is set up once for a run of files (`budget.for_files`), not once a file: after the run, a
    program calling the library has its SIGPROF handler and its address-space limit as they were."""
    import resource
    import signal

    from adjudicate import api

    for n in range(3):
        (tmp_path / f"hand-{n}.yaml").write_text(GOOD, encoding="utf-8")
    handler, limit = signal.getsignal(signal.SIGPROF), resource.getrlimit(resource.RLIMIT_AS)
    report = api.check([str(tmp_path)], jobs=1)
    assert [result.status for result in report.files] == ["passed"] * 3
    assert signal.getsignal(signal.SIGPROF) == handler and resource.getrlimit(resource.RLIMIT_AS) == limit
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)

# --- the same bytes ------------------------------------------------------------------------------

RENDER_EVERY_FORMAT = """
import sys
import adjudicate
from adjudicate.cli.common import dump_json
report = adjudicate.check(sys.argv[2:], jobs=int(sys.argv[1]))
for text in (report.to_text(), dump_json(report.to_json()), dump_json(report.to_sarif())):
    sys.stdout.write(text + "\\n\\f\\n")
sys.stdout.write(str(report.exit_code))
"""
"""`check`'s text, JSON and SARIF (as the command prints them) of one run, in one process."""


def test_check_prints_the_same_bytes_under_any_hash_seed_and_any_jobs(tmp_path: Path):
    """The issue's case: revoke-not-claimed-before-the-cut.yaml with another turned card, whose ruling has two
    laws defeated by two others each, beside every shipped scenario. Each process checks once and prints the
    three formats of that report: every format is a rendering of the one report, and the process's hash seed
    is what could reorder either."""
    source = (ROOT / "scenarios" / "short-whist" / "revoke-not-claimed-before-the-cut.yaml").read_text()
    assert "turned:" in source
    import re

    (tmp_path / "tie.yaml").write_text(re.sub(r"turned: \S+", "turned: 2S", source), encoding="utf-8")
    outputs = set()
    for seed, jobs in (("0", "1"), ("1", "2"), ("2", "1"), ("3", "2"), ("4", "4"), ("5", "1")):
        done = subprocess.run([sys.executable, "-c", RENDER_EVERY_FORMAT, jobs, "scenarios", str(tmp_path / "tie.yaml")],
                              cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, timeout=300)
        assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
        text, json_text, sarif, exit_code = done.stdout.split(b"\n\f\n")
        assert exit_code == b"1"  # tie.yaml's expect is the shipped file's, for another turned card
        assert b"check: " in text and b'"summary"' in json_text and b'"2.1.0"' in sarif
        assert b"84 by 63, 84 by 78" in text or b"84 by 78, 84 by 63" in text  # the tie the issue found
        outputs.add(re.sub(rb'"?time"?[=:] ?"?[0-9.]+"?', b"", done.stdout))
    assert len(outputs) == 1


# --- errors, never tracebacks ---------------------------------------------------------------------

def test_a_house_striking_then_replacing_a_law_is_an_error_at_its_line(tmp_path: Path):
    house = tmp_path / "house.yaml"
    house.write_text("house: x\nname: X\nvaries: euchre\nchanges:\n  - strike: \"1\"\n    why: a\n"
                     "  - replace: \"1\"\n    why: b\n    title: T\n", encoding="utf-8")
    scenario = tmp_path / "hand.yaml"
    scenario.write_text(BARE, encoding="utf-8")
    message = f"{house}:7:5: replace: law 1 was struck above (line 5); a law is struck or replaced, not both"
    for args in (["lint", house], ["rule", "--house", house, scenario], ["replay", "--house", house, scenario],
                 ["diff", "--house", house, scenario], ["check", "--jobs", "1", "--house", house, scenario]):
        done = command(*args)
        assert b"Traceback" not in done.stderr and b"TypeError" not in done.stdout + done.stderr, args
        assert done.returncode == 2, (args, done.stderr.decode())
        assert message in (done.stdout + done.stderr).decode(), args


@pytest.mark.parametrize("value", ["TH", "[TH, E]", "{kind: [revoke]}", "{colour: red}"])
def test_an_expected_remedys_for_that_is_not_a_mapping_of_values_is_an_error_at_its_line(tmp_path: Path, value):
    path = tmp_path / "for.yaml"
    path.write_text(BARE + f"expect:\n  remedies:\n    - {{law: \"63\", for: {value}}}\n", encoding="utf-8")
    done = runner.invoke(app, ["check", "--jobs", "1", str(path)])
    assert done.exit_code == 2
    assert "internal error" not in done.stdout
    assert f"{path}:{BARE.count(chr(10)) + 3}:" in done.stdout


# --- look-alikes ------------------------------------------------------------------------------

@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\ufe0f"])
def test_invisible_characters_in_names_are_escaped_in_every_format(tmp_path: Path, char):
    code = f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
    name = f"hand{char}.yaml"
    (tmp_path / name).write_text("code: euchre\n", encoding="utf-8")
    (tmp_path / "hand.yaml").write_text("code: euchre\n", encoding="utf-8")
    assert visible(name) == f"hand{code}.yaml"
    in_json = f"\\u{ord(char):04x}"
    assert json_text(json.dumps(name, ensure_ascii=False)) == f'"hand{in_json}.yaml"'
    outputs = every_format([str(tmp_path)])
    from urllib.parse import quote as percent

    for fmt, output in outputs.items():
        assert char not in output, fmt
        assert {"sarif": percent(char), "json": in_json}.get(fmt, code) in output, fmt  # SARIF names files by URI
    ET.fromstring(runner.invoke(app, ["check", "--jobs", "1", "-f", "junit", str(tmp_path)]).stdout)


# --- the cache folder -------------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX's")
def test_a_named_pipe_where_a_cache_file_belongs_is_a_cache_miss_not_a_hang(tmp_path: Path):
    cache = tmp_path / "cache"
    env = {"ADJUDICATE_CACHE_DIR": str(cache)}
    first = command("rule", "scenarios/euchre/revoke-established.yaml", env=env)
    assert first.returncode == 0
    for name in os.listdir(cache):
        os.remove(cache / name)
        os.mkfifo(cache / name)  # as a CI cache restored from elsewhere could hold
    done = command("rule", "scenarios/euchre/revoke-established.yaml", env=env)  # the timeout only bounds a hang
    assert done.returncode == 0 and done.stdout == first.stdout
    searched = command("laws", "--search", "revoke", env=env)
    assert searched.returncode == 0


def test_stale_cache_files_of_other_installs_are_removed_and_fresh_ones_kept(tmp_path: Path):
    cache = tmp_path / "cache"
    cache.mkdir()
    old, fresh = cache / "euchre-00000000-0123456789abcdef.msgpack", cache / "euchre-11111111-0123456789abcdef.msgpack"
    other, look_alike = cache / "notes.txt", cache / "notes.msgpack"  # not ours (not a name adjudicate writes)
    for path in (old, fresh, other, look_alike):
        path.write_bytes(b"x")
    long_ago = os.stat(old).st_mtime - 31 * 86400
    for path in (old, other, look_alike):
        os.utime(path, (long_ago, long_ago))
    done = command("rule", "scenarios/euchre/revoke-established.yaml", env={"ADJUDICATE_CACHE_DIR": str(cache)})
    assert done.returncode == 0
    names = set(os.listdir(cache))
    assert old.name not in names and fresh.name in names and other.name in names and look_alike.name in names
    assert any(name.startswith("euchre-") and name not in (fresh.name,) for name in names)  # this install's own


# --- nothing skipped silently ---------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PATH_MAX is 4096 on Linux")
def test_a_folder_whose_path_is_past_path_max_is_reported(tmp_path: Path):
    (tmp_path / "ok.yaml").write_text(GOOD, encoding="utf-8")
    handle = os.open(tmp_path, os.O_RDONLY)
    for n in range(25):  # 25 names of 202 characters: a path of over 5,000
        name = f"{n:02d}" + "d" * 200
        os.mkdir(name, dir_fd=handle)
        inner = os.open(name, os.O_RDONLY, dir_fd=handle)
        os.close(handle)
        handle = inner
    scenario = os.open("deep.yaml", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=handle)
    os.write(scenario, GOOD.encode())
    os.close(scenario)
    os.close(handle)
    done = command("check", "--jobs", "1", tmp_path)
    text = done.stdout.decode()
    assert done.returncode == 2, text
    assert "the files in it were not checked" in text and "check: 1 folder could not be read" in text
