"""`adjudicate check` and `adjudicate schema`: exit codes, every format, shards, jobs, coverage, and the schema."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from adjudicate.checking import batch as checking
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"

GOOD = """\
title: East trumps a spade while holding one
code: euchre
dealer: S
score: {NS: 2, EW: 3}
hands:
  E: [QS, 9H, JD, AC, 8C]
  W: [AS, ...]
turned: JH
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: KS
  - E: 9H
  - S: TS
  - quit
  - E: QS
  - N: claim revoke E
expect:
  trump: H
  winners: [E]
  irregularities:
    - {kind: revoke, seat: E, trick: 1, established: true}
  laws: ["4", "62", "63", "64", "70"]
"""

# The same hand, expecting a law that does not apply (line 24 is `  laws:`) and one excluded that does.
BAD_EXPECT = GOOD.replace('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70", "65"]\n  not: ["63"]')
BAD_LAWS_LINE = 24
BAD_NOT_LINE = 25

# A card that is not in the Euchre pack, on line 6.
INVALID = GOOD.replace("E: [QS, 9H, JD, AC, 8C]", "E: [QS, 9H, JD, AC, 2C]")

HOUSE_FILE = """\
house: test-house
name: Not a scenario
varies: euchre
changes: []
"""


def run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "good.yaml").write_text(GOOD)
    (tmp_path / "a" / "also-good.yml").write_text(GOOD)
    (tmp_path / "a" / "house").mkdir()
    (tmp_path / "a" / "house" / "variant.yaml").write_text(HOUSE_FILE)
    (tmp_path / "a" / "notes.txt").write_text("not yaml")
    return tmp_path


def summary(stdout: str) -> str:
    return [line for line in stdout.splitlines() if re.fullmatch(r"\w+: \d+ passed, \d+ failed(, \d+ skipped)?", line)][-1]


# --- exit codes and text ----------------------------------------------------------------------

def test_all_pass_exit_0(folder: Path):
    result = run("check", "--jobs", "1", folder)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines() == ["check: 2 passed, 0 failed"]


def test_failing_expect_exit_1_side_by_side(folder: Path):
    bad = folder / "a" / "bad.yaml"
    bad.write_text(BAD_EXPECT)
    result = run("check", "--jobs", "1", folder)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    laws = [line for line in lines if "expect.laws" in line]
    assert laws == [f"{bad}:{BAD_LAWS_LINE}:3: expect.laws: expected [4, 62, 63, 64, 65, 70]; actual [4, 62, 63, 64, 70]"]
    assert any(line.startswith(f"{bad}:{BAD_NOT_LINE}:3: expect.not:") for line in lines)
    assert summary(result.stdout) == "check: 2 passed, 1 failed"


def test_invalid_file_exit_2_wins_over_failing(folder: Path):
    (folder / "a" / "bad.yaml").write_text(BAD_EXPECT)
    broken = folder / "a" / "broken.yaml"
    broken.write_text(INVALID)
    result = run("check", "--jobs", "1", folder)
    assert result.exit_code == 2
    assert any(line.startswith(f"{broken}:6:") and "2C" in line for line in result.stdout.splitlines())
    assert summary(result.stdout) == "check: 2 passed, 1 failed"
    assert "check: 1 invalid file (could not be read, validated, replayed or ruled)" in result.stdout.splitlines()


def test_yaml_error_and_missing_path_are_invalid(tmp_path: Path):
    (tmp_path / "syntax.yaml").write_text("code: euchre\ndealer: [S\n")
    result = run("check", "--jobs", "1", tmp_path / "syntax.yaml", tmp_path / "nowhere")
    assert result.exit_code == 2
    assert f"{tmp_path / 'nowhere'}: no such file or folder" in result.stdout
    assert re.search(rf"^{re.escape(str(tmp_path / 'syntax.yaml'))}:\d+:\d+: ", result.stdout, re.M)
    assert "Traceback" not in result.stdout


def test_house_folder_skipped_and_named_house_file_counted_skipped(folder: Path):
    result = run("check", "--jobs", "1", folder, folder / "a" / "house" / "variant.yaml")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines() == ["check: 2 passed, 0 failed, 1 skipped"]


def test_empty_folder_is_an_error(tmp_path: Path):
    result = run("check", tmp_path)
    assert result.exit_code == 2
    assert "no scenario files" in result.stdout


def test_bad_shard_is_a_usage_error(folder: Path):
    for value in ("3/2", "0/2", "x", "1/0"):
        result = run("check", "--shard", value, folder)
        assert result.exit_code == 2
        assert "--shard" in result.stderr


# --- formats ------------------------------------------------------------------------------------

def test_json(folder: Path):
    (folder / "a" / "bad.yaml").write_text(BAD_EXPECT)
    result = run("check", "--jobs", "1", "--format", "json", folder)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["summary"] == {"passed": 2, "failed": 1, "invalid": 0, "skipped": 0, "exit_code": 1}
    files = {Path(item["file"]).name: item for item in data["files"]}
    assert [Path(item["file"]).name for item in data["files"]] == ["also-good.yml", "bad.yaml", "good.yaml"]
    assert files["good.yaml"]["status"] == "passed" and files["good.yaml"]["laws"] == ["4", "62", "63", "64", "70"]
    laws, excluded = files["bad.yaml"]["problems"]
    # JSON values, not their words: the words are the message's, as the text format prints them.
    assert (laws["key"], laws["line"], laws["expected"], laws["actual"]) == \
        ("laws", BAD_LAWS_LINE, ["4", "62", "63", "64", "65", "70"], ["4", "62", "63", "64", "70"])
    assert laws["message"] == "expect.laws: expected [4, 62, 63, 64, 65, 70]; actual [4, 62, 63, 64, 70]"
    assert (excluded["key"], excluded["expected"], excluded["actual"]) == ("not", ["63"], ["4", "62", "63", "64", "70"])


# Each `expect` key made to fail, and the JSON values `check --format json` gives for it.
WRONG_EXPECTATIONS = [
    ("trump: H", "trump: S", "trump", "S", "H"),
    ("trump: H", "trump: none", "trump", None, "H"),
    ("winners: [E]", "winners: [N]", "winners", ["N"], ["E"]),
    ("    - {kind: revoke, seat: E, trick: 1, established: true}",
     "    - {kind: revoke, seat: W, established: false}", "irregularities",
     [{"kind": "revoke", "seat": "W", "established": False}],
     [{"kind": "revoke", "seat": "E", "trick": 1, "established": True}]),
    ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70"]\n  include: ["65"]', "include", ["65"],
     ["4", "62", "63", "64", "70"]),
    ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70"]\n  unknown: ["65"]', "unknown", ["65"], []),
    ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70"]\n  score: {hand: {NS: 4, EW: 0}}', "score.hand",
     {"NS": 4, "EW": 0}, None),  # the hand was not played out: no points of its own, null
    ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70"]\n  not_applied: [{law: "66", by: "68"}]', "not_applied",
     [{"law": "66", "by": "68"}], []),
]


@pytest.mark.parametrize("old, new, key, expected, actual", WRONG_EXPECTATIONS, ids=[w[2] for w in WRONG_EXPECTATIONS])
def test_json_gives_expected_and_actual_as_values(tmp_path: Path, old, new, key, expected, actual):
    assert old in GOOD
    path = tmp_path / "wrong.yaml"
    path.write_text(GOOD.replace(old, new, 1))
    result = run("check", "--jobs", "1", "--format", "json", path)
    assert result.exit_code == 1, result.stdout
    problems = [p for p in json.loads(result.stdout)["files"][0]["problems"] if p["key"] == key]
    assert len(problems) == 1, result.stdout
    assert (problems[0]["expected"], problems[0]["actual"]) == (expected, actual)
    text = run("check", "--jobs", "1", path).stdout  # the text format keeps the words
    assert f"expect.{key}: expected " in text and "; actual " in text


def test_json_gives_remedies_and_outcomes_as_values(tmp_path: Path):
    wrong = GOOD.replace('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "70"]\n'
                         '  remedies: [{law: "63", chooser: EW, options: [score], for: {kind: revoke, trick: 1}}]\n'
                         '  score: {outcomes: [{after: {NS: 9, EW: 3}, choices: ["63 score"]}]}')
    path = tmp_path / "wrong.yaml"
    path.write_text(wrong)
    result = run("check", "--jobs", "1", "--format", "json", path)
    assert result.exit_code == 1, result.stdout
    problems = {p["key"]: p for p in json.loads(result.stdout)["files"][0]["problems"]}
    remedy = problems["remedies"]
    assert remedy["expected"] == {"law": "63", "chooser": "EW", "options": ["score"],
                                  "for": {"kind": "revoke", "trick": 1}}
    assert isinstance(remedy["actual"], list) and remedy["actual"][0]["law"] == "63"
    assert remedy["actual"][0]["chooser"] == "NS" and remedy["actual"][0]["for"]["seat"] == "E"
    score = problems["score"]
    assert score["expected"] == {"after": {"NS": 9, "EW": 3}, "meaning": None,
                                 "choices": [{"law": "63", "option": "score"}]}
    assert all(set(outcome) == {"after", "meaning", "choices"} for outcome in score["actual"])
    assert {"NS", "EW"} == set(score["actual"][0]["after"])


def test_junit_is_xml_naming_each_failing_file(folder: Path):
    bad = folder / "a" / "bad.yaml"
    bad.write_text(BAD_EXPECT)
    broken = folder / "a" / "broken.yaml"
    broken.write_text(INVALID)
    result = run("check", "--jobs", "1", "--format", "junit", folder)
    assert result.exit_code == 2
    root = ET.fromstring(result.stdout.encode())
    suite = root.find("testsuite")
    assert suite is not None
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert len(cases) == 4
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "1")
    assert root.get("skipped") is None and suite.get("skipped") == "0"  # the xunit schema: not on <testsuites>
    failure = cases[str(bad)].find("failure")
    assert failure is not None and str(bad) in failure.get("message") and "expect.laws" in failure.text
    error = cases[str(broken)].find("error")
    assert error is not None and str(broken) in error.get("message")
    assert cases[str(folder / "a" / "good.yaml")].find("failure") is None


def test_junit_times_are_measured_to_the_millisecond_and_all_else_is_the_same_bytes(folder: Path):
    """JUnit is the one format carrying run times: `time` on <testsuites>, <testsuite> and each <testcase>,
    in seconds to the millisecond; with the times taken out, two runs give the same bytes."""
    (folder / "a" / "bad.yaml").write_text(BAD_EXPECT)
    args = ("check", "--jobs", "1", "--format", "junit", folder, folder / "a" / "house" / "variant.yaml")
    first, second = run(*args).stdout, run(*args).stdout
    root = ET.fromstring(first.encode())
    suite = root.find("testsuite")
    assert suite is not None
    cases = list(suite.iter("testcase"))
    times = [root.get("time"), suite.get("time"), *(case.get("time") for case in cases)]
    assert all(re.fullmatch(r"\d+\.\d{3}", str(value)) for value in times), times
    assert root.get("time") == suite.get("time")
    checked = [float(case.get("time")) for case in cases if case.find("skipped") is None]
    assert len(checked) == 3 and sum(checked) <= float(suite.get("time")) + 0.001 * len(checked)
    assert [case.get("time") for case in cases if case.find("skipped") is not None] == ["0.000"]
    assert root.get("skipped") is None  # still off <testsuites>, which the xunit schema refuses it on

    def untimed(xml: str) -> str:
        return re.sub(r' time="\d+\.\d{3}"', ' time="…"', xml)

    assert untimed(first) == untimed(second)
    assert first.count(' time="') == len(cases) + 2


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_no_other_format_carries_a_time(folder: Path, fmt: str):
    (folder / "a" / "bad.yaml").write_text(BAD_EXPECT)
    outputs = {run("check", "--jobs", "1", "--format", fmt, folder).stdout for _ in range(3)}
    assert len(outputs) == 1
    assert "seconds" not in next(iter(outputs)) and '"time' not in next(iter(outputs))


def test_github_annotation_on_the_expect_line(folder: Path):
    bad = folder / "a" / "bad.yaml"
    bad.write_text(BAD_EXPECT)
    result = run("check", "--jobs", "1", "--format", "github", folder)
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 2
    match = re.fullmatch(r"::error file=([^,]+),line=(\d+),col=(\d+),title=[^:]+::(.*)", errors[0])
    assert match, errors[0]
    assert match.group(1) == str(bad).replace(":", "%3A").replace(",", "%2C")
    assert int(match.group(2)) == BAD_LAWS_LINE
    assert BAD_EXPECT.splitlines()[BAD_LAWS_LINE - 1].strip().startswith("laws:")
    assert "expected [4, 62, 63, 64, 65, 70]; actual [4, 62, 63, 64, 70]" in match.group(4)
    assert int(errors[1].split("line=")[1].split(",")[0]) == BAD_NOT_LINE
    assert summary(result.stdout) == "check: 2 passed, 1 failed"


def test_output_is_deterministic(folder: Path):
    first = run("check", "--jobs", "1", "--format", "json", folder).stdout
    assert run("check", "--jobs", "1", "--format", "json", folder).stdout == first


# --- shards and jobs --------------------------------------------------------------------------------

def test_shards_cover_every_file_once():
    every = checking.collect([str(SCENARIOS)]).files
    assert len(every) >= 3
    for count in (1, 2, 3, 5):
        seen: list[str] = []
        for index in range(1, count + 1):
            result = run("check", "--jobs", "1", "--format", "json", "--shard", f"{index}/{count}", SCENARIOS)
            seen.extend(item["file"] for item in json.loads(result.stdout)["files"])
        assert sorted(seen) == list(every), count
        assert len(seen) == len(set(seen))


def test_collect_is_sorted_and_skips_house_folders(folder: Path):
    files = checking.collect([str(folder / "a" / "good.yaml"), str(folder)]).files
    assert files == tuple(sorted(files))
    assert len(files) == 2
    assert not any("house" in Path(f).parts for f in files)


def test_jobs_give_the_same_output_as_one_process():
    one = run("check", "--jobs", "1", "--format", "json", "--coverage", SCENARIOS)
    assert checking.plan_processes(len(json.loads(one.stdout)["files"]), 2) == 2  # the pool really runs
    two = run("check", "--jobs", "2", "--format", "json", "--coverage", SCENARIOS)
    assert two.exit_code == one.exit_code
    assert two.stdout == one.stdout


# --- coverage -----------------------------------------------------------------------------------------

def test_coverage_text_and_json(folder: Path):
    result = run("check", "--jobs", "1", "--coverage", folder)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any(line.startswith("coverage euchre: 2 scenarios;") for line in lines)
    never = next(line for line in lines if line.startswith("coverage euchre: never applied:"))
    assert "62" not in never.split(":")[-1].replace(",", " ").split()
    data = json.loads(run("check", "--jobs", "1", "--coverage", "--format", "json", folder).stdout)
    (euchre,) = data["coverage"]
    assert euchre["code"] == "euchre"
    assert {"4", "62", "63", "64", "70"} <= set(euchre["conditioned"])
    assert not {"4", "62", "63", "64", "70"} & set(euchre["never_applied"])
    assert set(euchre["never_applied"]) <= set(euchre["conditioned"])


def test_near_miss_by_shared_subject_and_by_not():
    passed = checking.FileResult("x.yaml", checking.PASSED, code="euchre", laws=("4", "62", "63", "64", "70"))
    (report,) = checking.coverage([passed])
    # 65 (revoke.question) is not applied, but laws on the revoke are: a near miss.
    if "65" in report.conditioned:
        assert "65" in report.never_applied and "65" not in report.no_near_miss
    # The applied laws themselves have no near miss from this scenario alone.
    assert "62" in report.no_near_miss
    named = checking.FileResult("y.yaml", checking.PASSED, code="euchre", laws=(), excluded=("62",))
    (report,) = checking.coverage([passed, named])
    assert "62" not in report.no_near_miss


# --- house ------------------------------------------------------------------------------------------------

def test_house_option_passes_through_or_is_refused_cleanly(folder: Path):
    """`--house` reaches every file's ruling; a house that cannot be read makes each file invalid, in one line."""
    result = run("check", "--jobs", "1", "--format", "json", "--house", "stick-the-dealer", folder)
    files = json.loads(result.stdout)["files"]
    assert [entry["house"] for entry in files] == ["stick-the-dealer"] * len(files) and len(files) == 2
    result = run("check", "--jobs", "1", "--house", "anything.yaml", folder)
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == "anything.yaml: no such file"


# --- schema -------------------------------------------------------------------------------------------------

def _schema() -> dict:
    result = run("schema")
    assert result.exit_code == 0
    return json.loads(result.stdout)


def _scenario_files() -> list[Path]:
    return [Path(f) for f in checking.collect([str(SCENARIOS)]).files]


def test_schema_is_valid_draft_2020_12_and_matches_the_loader():
    jsonschema = pytest.importorskip("jsonschema")
    schema = _schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    from adjudicate.record.expect import EXPECT_KEYS
    from adjudicate.record.scenario import TOP_KEYS

    assert set(schema["properties"]) == set(TOP_KEYS)
    assert set(schema["properties"]["expect"]["properties"]) == set(EXPECT_KEYS)


@pytest.mark.parametrize("path", [pytest.param(p, id=p.relative_to(SCENARIOS).as_posix()) for p in _scenario_files()])
def test_every_scenario_validates_against_the_schema(path: Path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(_SCHEMA)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert not errors, errors


@pytest.mark.parametrize("change, where", [
    (("dealer: S", "dealer: X"), ["dealer"]),
    (("turned: JH", "turned: JZ"), ["turned"]),
    (("  - W: order up", "  - W: order down"), ["log", 0]),
    (("  - quit", "  - quitted"), ["log", 6]),
    (("code: euchre", "code: euchre\ncolour: red"), []),
    (("    - {kind: revoke,", "    - {kind: renege,"), ["expect", "irregularities", 0, "kind"]),
    (("score: {NS: 2, EW: 3}", "score: {NS: 2, EW: many}"), ["score", "EW"]),
])
def test_malformed_scenarios_fail_the_schema(change, where):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(_SCHEMA)
    assert not list(validator.iter_errors(yaml.safe_load(GOOD)))
    data = yaml.safe_load(GOOD.replace(*change))
    errors = list(validator.iter_errors(data))
    assert errors
    assert any(list(error.absolute_path) == where for error in errors), [list(e.absolute_path) for e in errors]


def test_schema_patterns_are_ecmascript_safe():
    """No inline flags or escapes JavaScript's unicode mode refuses (yaml-language-server runs in JavaScript)."""
    text = json.dumps(_SCHEMA)
    assert "(?i" not in text
    for pattern in re.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', text):
        source = json.loads(f'"{pattern}"')
        assert not re.search(r"\\[- ]", source), source


def _load_schema() -> dict:
    from adjudicate.render.schema import scenario_schema

    return scenario_schema()


_SCHEMA = _load_schema()


# --- condition coverage: the atoms no pair of scenarios shows deciding -----------------------------------

LATE_CLAIM_ATOM = "law 68: never shown deciding: claim (kind: revoke, after_cut: true)"


def _two_revokes(tmp_path: Path, *names: str) -> Path:
    tmp_path.mkdir()
    for name in names:
        (tmp_path / name).write_bytes((SCENARIOS / "euchre" / name).read_bytes())
    return tmp_path


def test_coverage_names_an_atom_until_a_pair_of_scenarios_shows_it_deciding(tmp_path: Path):
    """Euchre 68 holds on a revoke claimed after the cut: one scenario alone shows nothing deciding; beside a
    claim with no cut after it (its atom 0, the law not holding; a claim before a cut holds it too, as in time)
    the claim after the cut (1, holding) is shown."""
    alone = run("check", "--jobs", "1", "--coverage", _two_revokes(tmp_path / "one", "revoke-claimed-after-the-cut.yaml"))
    assert any(line.startswith(f"coverage euchre: {LATE_CLAIM_ATOM}") for line in alone.stdout.splitlines())
    pair = _two_revokes(tmp_path / "two", "revoke-claimed-after-the-cut.yaml", "revoke-cards-mixed-after-claim.yaml")
    result = run("check", "--jobs", "1", "--coverage", pair)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert not any(LATE_CLAIM_ATOM in line for line in lines)
    summary = next(line for line in lines if "atoms of the conditions shown deciding" in line)
    decided, _, total = summary.split(": ", 1)[1].partition(" of ")
    assert 0 < int(decided) < int(total.split()[0])
    data = json.loads(run("check", "--jobs", "1", "--coverage", "--format", "json", pair).stdout)
    (euchre,) = data["coverage"]
    assert euchre["atoms"] == int(total.split()[0])
    assert len(euchre["undecided"]) == int(total.split()[0]) - int(decided)
    assert not [item for item in euchre["undecided"]
                if item["law"] == "68" and item["atom"] == "claim (kind: revoke, after_cut: true)"]


def test_a_plain_check_evaluates_no_atom(monkeypatch):
    """The atom-by-atom evaluation costs only `--coverage`: a plain check never calls it, and its results and
    its JSON coverage (asked of the report afterwards) carry no atoms."""
    import adjudicate.checking.conditions as conditions
    from adjudicate import api

    def refuse(*args, **kwargs):
        raise AssertionError("a plain check evaluated the atoms")

    monkeypatch.setattr(conditions, "law_values", refuse)
    report = api.check(SCENARIOS / "euchre", jobs=1)
    assert report.ok and all(result.conditions == () for result in report.files)
    assert all("atoms" not in item for item in report.to_json(coverage=True)["coverage"])
    monkeypatch.undo()
    measured = api.check(SCENARIOS / "euchre", jobs=1, coverage=True)
    assert all(result.conditions for result in measured.files if result.house is None)


def test_an_atom_is_shown_deciding_only_by_a_pair_that_differs_in_it_and_in_the_condition():
    from adjudicate.checking.conditions import parts, undecided
    from adjudicate.lawbook.builtin import builtin_rulebook

    law = builtin_rulebook("euchre").law("70")  # all: [revoke (established), any: [hand (unfinished), election]]
    assert len(parts(law.condition)) == 3
    # Each value string: the condition, then each atom. Where the law holds and where it does not, only the
    # hand's state differs: only it decides.
    found = undecided([law], [{"70": "1110"}, {"70": "0100"}])
    assert [(l.id, p.subject) for l, p in found] == [("70", "revoke"), ("70", "election")]
    # An open value, or an open condition, shows nothing.
    assert len(undecided([law], [{"70": "1110"}, {"70": "?10?"}, {"70": "01??"}])) == 3
