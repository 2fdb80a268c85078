"""`adjudicate check --format sarif`: SARIF 2.1.0 as GitHub code scanning reads it (docs/ci.md, "SARIF").

Every log is validated against the SARIF 2.1.0 JSON schema, vendored from OASIS in tests/data/
(see its NOTICE), on passing, failing and invalid scenario trees, with links, house files, standard
input and names that need percent-encoding.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

import pytest
from typer.testing import CliRunner

from adjudicate import __version__

from adjudicate.checking import batch as checking, sarif
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
GOOD = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
LAWS = 'laws: ["4", "62", "63", "64", "70"]'
LAWS_LINE = next(n for n, line in enumerate(GOOD.splitlines(), 1) if line.strip() == LAWS)
WRONG = GOOD.replace(LAWS, 'laws: ["62", "65"]')
BROKEN = GOOD.replace("E: [QS, 9H, JD, AC, 8C]", "E: [QS, 9H, JD, AC, 2C]")
BROKEN_LINE = next(n for n, line in enumerate(BROKEN.splitlines(), 1) if "2C" in line)
HOUSE_FILE = "house: test-house\nname: Not a scenario\nvaries: euchre\nchanges: []\n"

runner = CliRunner()


def validator():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    return jsonschema.Draft4Validator(SCHEMA)


def sarif_of(*args: object, input: bytes | None = None) -> tuple[int, dict, str]:
    """Run `adjudicate check --format sarif ARGS`; (exit code, the log validated against the schema, its text)."""
    result = runner.invoke(app, ["check", "--jobs", "1", "--format", "sarif", *map(str, args)], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    log = json.loads(result.stdout)
    errors = sorted(validator().iter_errors(log), key=lambda error: list(error.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)
    return result.exit_code, log, result.stdout


def github_needs(log: dict) -> None:
    """What GitHub code scanning needs of a result, beyond the schema: a rule it knows by id and index, a
    text message, one location with a line (a folder aside), a partial fingerprint not its own."""
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]
        assert set(result["message"]) == {"text"}  # text only: it quotes strangers' files, never markdown
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        if not physical["artifactLocation"].get("uri", "").endswith("/"):
            assert physical["region"]["startLine"] >= 1
        assert set(result["partialFingerprints"]) == {sarif.FINGERPRINT}
        assert "primaryLocationLineHash" not in result["partialFingerprints"]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    """A folder of scenarios, the working directory (so that URIs are relative to it)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "good.yaml").write_text(GOOD, encoding="utf-8")
    return tmp_path


def test_a_passing_tree_has_no_results_and_every_rule(tree: Path):
    code, log, _ = sarif_of("scenarios")
    assert code == 0
    assert log["version"] == "2.1.0" and log["$schema"] == sarif.SCHEMA
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"], driver["semanticVersion"]) == ("adjudicate", __version__, __version__)
    assert [rule["id"] for rule in driver["rules"]] == [kind.id for kind in sarif.RULES]
    for rule in driver["rules"]:
        assert {"id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration"} <= set(rule)
    assert run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is True and invocation["exitCode"] == 0
    assert run["columnKind"] == "unicodeCodePoints"


def test_a_failing_expectation_is_an_error_on_its_key(tree: Path):
    (tree / "scenarios" / "wrong.yaml").write_text(WRONG, encoding="utf-8")
    code, log, _ = sarif_of("scenarios")
    assert code == 1
    github_needs(log)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "expectation-not-met" and result["level"] == "error"
    assert result["message"]["text"] == "expect.laws: expected [62, 65]; actual [4, 62, 63, 64, 70]"
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "scenarios/wrong.yaml", "uriBaseId": "%SRCROOT%"}
    assert physical["region"] == {"startLine": LAWS_LINE, "startColumn": 3}
    assert result["properties"] == {"key": "laws", "expected": ["62", "65"], "actual": ["4", "62", "63", "64", "70"]}
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is True  # it ran; it found a difference


def test_an_invalid_file_is_an_error_where_the_problem_is(tree: Path):
    (tree / "scenarios" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    (tree / "scenarios" / "wrong.yaml").write_text(WRONG, encoding="utf-8")
    code, log, _ = sarif_of("scenarios", tree / "nowhere.yaml")
    assert code == 2
    github_needs(log)
    results = log["runs"][0]["results"]
    by_uri = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in results}
    assert set(by_uri) == {"nowhere.yaml", "scenarios/broken.yaml", "scenarios/wrong.yaml"}
    broken = by_uri["scenarios/broken.yaml"]
    assert broken["ruleId"] == "invalid-scenario" and "2C" in broken["message"]["text"]
    assert broken["locations"][0]["physicalLocation"]["region"]["startLine"] == BROKEN_LINE
    missing = by_uri["nowhere.yaml"]  # the file as a whole: on its first line, for GitHub
    assert missing["message"]["text"] == "no such file or folder"
    assert missing["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["exitCode"] == 2 and invocation["executionSuccessful"] is True


def test_names_are_percent_encoded_and_paths_outside_are_file_uris(tree: Path, tmp_path_factory):
    names = ["a b#1%?.yaml", "é:x.yaml"]
    if sys.platform.startswith("linux"):
        names.append(os.fsdecode(b"\xff.yaml"))  # a name that is no UTF-8: its byte, percent-encoded
    for name in names:
        (tree / "scenarios" / name).write_text(WRONG, encoding="utf-8")
    outside = tmp_path_factory.mktemp("elsewhere") / "far away.yaml"
    outside.write_text(WRONG, encoding="utf-8")
    _, log, _ = sarif_of("scenarios", outside)
    github_needs(log)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]]
    relative = {location["uri"] for location in uris if location.get("uriBaseId") == "%SRCROOT%"}
    assert "scenarios/a%20b%231%25%3F.yaml" in relative
    assert "scenarios/%C3%A9%3Ax.yaml" in relative  # no ':' left to read as a scheme
    if sys.platform.startswith("linux"):
        assert "scenarios/%FF.yaml" in relative
    for uri in relative:
        assert os.fsdecode(unquote_to_bytes(uri)) in {f"scenarios/{name}" for name in names}
        assert all(c.isascii() and (c.isalnum() or c in "/%._-") for c in uri), uri
    (absolute,) = [location for location in uris if "uriBaseId" not in location]
    assert urlsplit(absolute["uri"]).scheme == "file"
    assert os.fsdecode(unquote_to_bytes(urlsplit(absolute["uri"]).path)) == str(outside.resolve())


def test_a_result_keeps_its_fingerprint_when_lines_move_and_the_log_its_bytes(tree: Path):
    wrong = tree / "scenarios" / "wrong.yaml"
    wrong.write_text(WRONG, encoding="utf-8")
    _, first, text = sarif_of("scenarios")
    assert sarif_of("scenarios")[2] == text  # same files, same bytes
    wrong.write_text("# a comment added above\n" + WRONG, encoding="utf-8")
    _, moved, _ = sarif_of("scenarios")
    (before,), (after,) = first["runs"][0]["results"], moved["runs"][0]["results"]
    assert after["locations"][0]["physicalLocation"]["region"]["startLine"] == LAWS_LINE + 1
    assert after["partialFingerprints"] == before["partialFingerprints"]
    for spelt in (f"../{tree.name}/scenarios", tree / "scenarios"):  # the same file, its path written otherwise
        (same,) = sarif_of(spelt)[1]["runs"][0]["results"]
        assert same["partialFingerprints"] == after["partialFingerprints"]
    (tree / "scenarios" / "other.yaml").write_text(WRONG, encoding="utf-8")
    _, two, _ = sarif_of("scenarios")
    assert len({json.dumps(r["partialFingerprints"]) for r in two["runs"][0]["results"]}) == 2


def test_strangers_text_is_plain_text_with_its_controls_escaped(tree: Path):
    hostile = GOOD.replace('title: East trumps a spade while holding one', 'title: x').replace(
        LAWS, 'laws: ["62", "63", "**[click](https://example.org)** \\e[31m\\u202e"]')
    (tree / "scenarios" / "hostile.yaml").write_text(hostile, encoding="utf-8")
    _, log, text = sarif_of("scenarios")
    github_needs(log)
    assert "\x1b" not in text and "\u202e" not in text
    (result,) = log["runs"][0]["results"]
    assert "markdown" not in json.dumps(result)


def test_house_files_are_notes_and_links_out_are_warnings(tree: Path, tmp_path_factory):
    (tree / "scenarios" / "house").mkdir()
    (tree / "scenarios" / "house" / "variant.yaml").write_text(HOUSE_FILE, encoding="utf-8")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "far.yaml").write_text(GOOD, encoding="utf-8")
    (tree / "scenarios" / "link.yaml").symlink_to(outside / "far.yaml")
    code, log, _ = sarif_of("scenarios", "scenarios/house/variant.yaml", "--coverage")
    assert code == 0
    github_needs(log)
    run = log["runs"][0]
    (warning,) = run["results"]
    assert (warning["ruleId"], warning["level"]) == ("link-not-followed", "warning")
    assert warning["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "scenarios/link.yaml"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    house = [note for note in notes if note["descriptor"]["id"] == "house-file-skipped"]
    assert len(house) == 1 and house[0]["level"] == "note"
    assert house[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "scenarios/house/variant.yaml"
    notifications = run["tool"]["driver"]["notifications"]
    assert all(notifications[n["descriptor"]["index"]]["id"] == n["descriptor"]["id"] for n in notes)
    assert any(n["message"]["text"].startswith("coverage euchre: ") for n in notes)


def test_standard_input_is_an_artifact_with_no_uri(tree: Path):
    code, log, _ = sarif_of("-", "scenarios", input=WRONG.encode())
    assert code == 1
    run = log["runs"][0]
    (result,) = run["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"index": 0}
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == LAWS_LINE
    (artifact,) = run["artifacts"]
    assert "uri" not in artifact["location"] and "standardStream" in artifact["roles"]
    assert run["invocations"][0]["stdin"] == {"index": 0}


def test_a_check_that_could_not_cover_every_file_was_not_successful():
    died = checking.FileResult("scenarios/x.yaml", checking.INVALID,
                               (checking.Finding("scenarios/x.yaml", 0, 0, "not checked: a worker process died"),),
                               cause=checking.NOT_CHECKED)
    folder = checking.FileResult("scenarios/locked", checking.INVALID,
                                 (checking.Finding("scenarios/locked", 0, 0, "cannot read this folder"),),
                                 cause=checking.FOLDER)
    for result, rule in ((died, "not-checked"), (folder, "folder-not-read")):
        summary = checking.summarise([result])
        log = sarif.render_sarif([result], summary, None, version=__version__)
        assert not sorted(validator().iter_errors(log), key=str)
        (found,) = log["runs"][0]["results"]
        assert found["ruleId"] == rule
        assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert found["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": "scenarios/locked/",
                                                                              "uriBaseId": "%SRCROOT%"}}


def test_the_api_gives_the_same_log():
    import adjudicate

    report = adjudicate.check(str(ROOT / "scenarios" / "euchre" / "revoke-established.yaml"))
    result = runner.invoke(app, ["check", "--jobs", "1", "--format", "sarif",
                                 str(ROOT / "scenarios" / "euchre" / "revoke-established.yaml")])
    assert json.loads(result.stdout) == report.to_sarif()
