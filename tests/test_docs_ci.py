"""docs/ci.md: its GitHub Actions workflow parses and runs the command it says, its JSON example is real output,
and the SARIF rules it lists are the ones `check --format sarif` gives."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from adjudicate.checking import sarif
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
CI = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
runner = CliRunner()


def section(title: str) -> str:
    start = CI.index(f"\n## {title}")
    end = CI.find("\n## ", start + 1)
    return CI[start:end if end > 0 else len(CI)]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)


def workflow() -> dict:
    (block,) = blocks(section("SARIF"), "yaml")
    return yaml.safe_load(block)


def steps() -> list[dict]:
    (job,) = workflow()["jobs"].values()
    return job["steps"]


def test_the_workflow_parses_and_uploads_what_check_writes():
    flow = workflow()
    assert flow["permissions"]["security-events"] == "write"  # upload-sarif needs it
    runs = [step["run"] for step in steps() if "adjudicate check" in step.get("run", "")]
    assert len(runs) == 1
    command, _, target = runs[0].partition(" > ")
    words = shlex.split(command)
    assert words[:2] == ["adjudicate", "check"] and words[words.index("--format") + 1] == "sarif"
    (upload,) = [step for step in steps() if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert upload["with"]["sarif_file"] == target.strip()
    assert "cancelled()" in upload["if"]  # uploaded when the check fails, which is when the alerts matter
    index = steps().index(upload)
    assert any("adjudicate check" in step.get("run", "") for step in steps()[:index])


def test_the_workflows_command_gives_a_valid_log_of_the_shipped_scenarios(monkeypatch):
    jsonschema = pytest.importorskip("jsonschema")
    (run,) = [step["run"] for step in steps() if "adjudicate check" in step.get("run", "")]
    words = shlex.split(run.partition(" > ")[0])
    monkeypatch.chdir(ROOT)  # the repository's root, as the docs say
    result = runner.invoke(app, [*words[1:], "--jobs", "1"])
    assert result.exit_code == 0, result.output
    log = json.loads(result.stdout)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert log["runs"][0]["results"] == []


def test_the_rules_table_is_the_tools():
    listed = re.findall(r"^ *\| `([a-z-]+)` \| (error|warning|note) \|", section("SARIF"), re.M)
    assert listed == [(kind.id, kind.level) for kind in sarif.RULES]


def test_the_json_example_is_real_output(tmp_path: Path, monkeypatch):
    (example,) = blocks(section("JSON: expected and actual as values"), "json")
    shown = json.loads(example)
    scenario = ROOT / "scenarios" / "euchre" / "revoke-established.yaml"
    text = scenario.read_text(encoding="utf-8").replace('laws: ["4", "62", "63", "64", "70"]',
                                                              'laws: ["4", "62", "63", "64", "65", "70"]')
    assert text.splitlines()[shown["line"] - 1].strip().startswith("laws:")
    folder = tmp_path / "scenarios" / "euchre"
    folder.mkdir(parents=True)
    (folder / "bad.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check", "--jobs", "1", "--format", "json", shown["file"]])
    (problem,) = json.loads(result.stdout)["files"][0]["problems"]
    assert problem == shown


def test_the_standard_input_examples_name_real_commands():
    commands = [line for block in blocks(section("Standard input"), "sh") for line in block.splitlines()]
    assert any(re.search(r"\| adjudicate rule -$", line) for line in commands)
    for line in commands:
        used = re.search(r"adjudicate (\w+)", line)
        assert used and used.group(1) in {"rule", "replay", "check"}
        help_text = " ".join(runner.invoke(app, [used.group(1), "--help"]).stdout.split())  # however it wraps
        assert "standard input" in help_text


def test_the_result_cache_recipe_keys_the_cache_on_the_version_and_the_lockfile():
    from adjudicate.version import __version__

    (block,) = blocks(section("The result cache"), "yaml")
    steps = yaml.safe_load(block)
    (cache,) = [step for step in steps if step.get("uses", "").startswith("actions/cache@")]
    (version,) = [step for step in steps if step.get("id") == "adjudicate"]
    key = cache["with"]["key"]
    assert "hashFiles('requirements.lock')" in key and "steps.adjudicate.outputs.version" in key
    assert cache["with"]["restore-keys"] == key.rsplit("${{ github.sha }}", 1)[0]
    assert cache["with"]["path"] == "~/.cache/adjudicate"
    # The step's command takes the version from what `adjudicate --version` prints.
    assert "adjudicate --version | cut -d' ' -f2" in version["run"]
    printed = runner.invoke(app, ["--version"]).stdout.strip()
    assert printed.split(" ")[1] == __version__
    assert steps.index(version) < steps.index(cache)
