"""The `laws`, `law` and `lint` commands: exit codes and output, in each format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import adjudicate.cli.laws  # noqa: F401  (registers the commands)
from adjudicate.cli.common import app

DATA = Path(__file__).parent / "data" / "rulebooks"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def fixture(name: str) -> str:
    return os.path.relpath(DATA / name)


# --- laws ---------------------------------------------------------------------------

def test_laws_table_lists_every_law():
    result = run("laws")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["code", "id", "section", "title", "kind"]
    assert set(lines[1]) <= {"-", " "}
    assert len(lines) == 2 + 226
    assert lines[2].split()[:2] == ["euchre", "1"]


def test_laws_json_gives_records():
    result = run("laws", "--code", "long-whist", "--format", "json")
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    assert [r["id"] for r in records] == [str(n) for n in range(7, 26)]
    assert list(records[4]) == ["id", "code", "section", "title", "kind", "subjects", "text", "refs"]
    assert records[4]["id"] == "11" and records[4]["code"] == "long-whist"
    assert records[4]["text"].startswith("If a revoke happen to be made")


def test_laws_json_has_clauses_and_notes_where_present():
    records = json.loads(run("laws", "--code", "short-whist", "--format", "json").stdout)
    law72 = next(r for r in records if r["id"] == "72")
    assert [c["id"] for c in law72["clauses"]] == ["I", "II", "III", "IV", "V"]
    assert law72["notes"][0]["mark"] == "32" and law72["notes"][0]["by"] == "Cavendish"
    assert "clauses" not in records[0] or records[0]["clauses"]


def test_laws_markdown_is_a_pipe_table():
    result = run("laws", "--code", "euchre", "--section", "revoke", "--format", "markdown")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].replace(" ", "") == "|code|id|section|title|kind|"
    assert lines[1].startswith("|:-") or lines[1].startswith("|--")
    assert [line.split("|")[2].strip() for line in lines[2:]] == [str(n) for n in range(62, 72)]


def test_laws_section_matches_words_in_any_form():
    plain = run("laws", "--section", "revoke", "--format", "json").stdout
    assert run("laws", "--section", "REVOKING", "--format", "json").stdout == plain
    codes = {(r["code"], r["section"]) for r in json.loads(plain)}
    assert codes == {("euchre", "The Revoke"), ("short-whist", "The Revoke"), ("long-whist", "Revoking")}


def test_laws_search_ranks_best_first():
    result = run("laws", "--code", "euchre", "--search", "revoking")
    assert result.exit_code == 0
    ids = [line.split()[1] for line in result.stdout.splitlines()[2:]]
    assert ids[0] == "63" and "62" in ids[:5]
    records = json.loads(run("laws", "--code", "euchre", "--search", "revoking", "--format", "json").stdout)
    assert [r["id"] for r in records] == ids
    assert records[0]["score"] >= records[1]["score"] > 0


def test_laws_search_is_deterministic():
    assert run("laws", "--search", "card exposed").stdout == run("laws", "--search", "card exposed").stdout


def test_laws_no_match():
    result = run("laws", "--search", "xylophone")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "no laws match\n"
    assert run("laws", "--search", "xylophone", "--format", "json").stdout == "[]\n"


@pytest.mark.parametrize("args, message", [
    (["--code", "euchr"], "error: unknown code 'euchr' (did you mean \"euchre\"?); "
                          "the codes are: euchre, long-whist, short-whist\n"),
    (["--search", "the"], "error: nothing to search for in 'the': give some words less common than these\n"),
])
def test_laws_bad_usage_is_one_line_and_exit_2(args, message):
    result = run("laws", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == message


# --- law ----------------------------------------------------------------------------

EUCHRE_63_TEXT = """\
    The penalty of a revoke is three points, except in the case of a lone
    hand, when it is five; and the penalty may be claimed as often as the
    revoke is repeated in the hand.
"""


def test_law_shows_text_citations_and_counterparts():
    result = run("law", "euchre:63")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("euchre:63 — ")
    assert "The Laws of Euchre, as adopted by the Somerset Club of Boston" in out
    assert "Section: The Revoke · Kind: penalty" in out
    assert "\n\n" + EUCHRE_63_TEXT + "\n" in out
    assert "Cites: none\n" in out
    cited_by = out.split("Cited by:\n")[1].split("Counterparts:")[0]
    assert "euchre:4 " in cited_by
    counterparts = out.split("Counterparts:\n")[1]
    assert "long-whist:11 " in counterparts and "short-whist:72 " in counterparts
    assert "revoke.penalty" in counterparts


def test_law_with_code_and_number_apart_is_the_same():
    assert run("law", "euchre", "63").stdout == run("law", "euchre:63").stdout
    assert run("law", "EUCHRE:63").stdout == run("law", "euchre:63").stdout


def test_law_clause():
    result = run("law", "short-whist:72.V")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("short-whist:72.V — ")
    assert ", clause V\n" in out.splitlines()[0] + "\n"
    assert "    The penalty for a revoke:--\n\n    V. Takes precedence of every other score," in out
    assert "II. Can be claimed" not in out
    assert run("law", "short-whist:72.v").stdout == out


def test_law_notes_are_marked_as_cavendishs():
    out = run("law", "short-whist:72").stdout
    assert "I. Is at the option of the adversaries" in out and "V. Takes precedence" in out
    assert "Note [32] by Cavendish (his footnote, not part of the law):\n    And add them to their own." in out


def test_law_cites_through_notes():
    out = run("law", "short-whist:46").stdout
    cites = out.split("Cites:\n")[1].split("Cited by")[0]
    assert "short-whist:44.IV" in cites and "in Cavendish's note [17]" in cites


def test_law_json_record_with_cited_by_and_counterparts():
    result = run("law", "euchre:63", "--format", "json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert list(record)[:8] == ["id", "code", "section", "title", "kind", "subjects", "text", "refs"]
    assert record["id"] == "63" and record["code"] == "euchre"
    assert record["text"].startswith("The penalty of a revoke is three points")
    assert {"code": "euchre", "id": "4"}.items() <= record["cited_by"][0].items()
    counterparts = {(c["code"], c["id"]) for c in record["counterparts"]}
    assert {("short-whist", "72"), ("long-whist", "11")} <= counterparts
    assert all(c["code"] != "euchre" for c in record["counterparts"])


def test_law_json_for_a_clause():
    record = json.loads(run("law", "short-whist:72.V", "--format", "json").stdout)
    assert record["id"] == "72"
    assert record["clause"]["ref"] == "72.V"
    assert record["clause"]["text"].startswith("Takes precedence of every other score")


def test_law_markdown():
    result = run("law", "long-whist:11", "--format", "markdown")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("## long-whist:11 — ")
    assert lines[4].startswith("> If a revoke happen to be made, the adversary may add three")
    assert any(line.startswith("**Counterparts:** euchre:63 (") for line in lines)


def test_a_bare_number_lists_the_codes_that_have_it():
    result = run("law", "63")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Law 63 in each code that has it:"
    assert [line.split()[0] for line in lines[2:4]] == ["euchre:63", "short-whist:63"]
    assert lines[-1] == "For one of them: adjudicate law euchre:63"
    records = json.loads(run("law", "11", "--format", "json").stdout)
    assert [(r["code"], r["id"]) for r in records] == [("euchre", "11"), ("long-whist", "11"), ("short-whist", "11")]
    markdown = run("law", "100", "--format", "markdown").stdout.splitlines()
    assert markdown[0].replace(" ", "") == "|code|id|title|" and len(markdown) == 3


@pytest.mark.parametrize("args, message", [
    (["euchr:63"], "unknown code 'euchr' (did you mean \"euchre\"?); the codes are: euchre, long-whist, short-whist"),
    (["euchre:130"], "euchre has no law '130' (did you mean \"30\"?) (its laws are 1–116)"),
    (["long-whist", "3"], "long-whist has no law '3' (did you mean \"23\"?) (its laws are 7–25)"),
    (["short-whist:72.VI"], "short-whist:72 has no clause 'VI' (did you mean \"V\"?) (its clauses are I, II, III, IV, V)"),
    (["euchre:63.I"], "euchre:63 has no clauses"),
    (["999"], "no code has a law '999'; the codes are: euchre, long-whist, short-whist"),
    (["euchre"], "which law of euchre? e.g. adjudicate law euchre:1; adjudicate laws --code euchre lists them"),
    (["whist"], "unknown code 'whist' (did you mean \"long-whist\"?); the codes are: euchre, long-whist, short-whist"),
])
def test_law_unknown_is_one_line_and_exit_2(args, message):
    result = run("law", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {message}\n"


# --- lint -----------------------------------------------------------------------------

def test_lint_a_good_file():
    path = fixture("mini-whist.yaml")
    result = run("lint", path)
    assert result.exit_code == 0
    assert result.stdout == f"{path}: ok (4 laws)\n"


def test_lint_prints_every_problem_and_exits_2():
    good, bad = fixture("mini-euchre.yaml"), fixture("missing-key.yaml")
    result = run("lint", good, bad)
    assert result.exit_code == 2
    assert result.stdout == (f"{good}: ok (3 laws)\n"
                             f"{bad}:10:5: law 1 is missing the required key 'kind'\n"
                             f"{bad}:17:5: law 2 is missing the required key 'refs'\n")


def test_lint_a_missing_file(tmp_path):
    path = str(tmp_path / "nowhere.yaml")
    result = run("lint", path)
    assert result.exit_code == 2
    assert result.stdout == f"{path}: no such file\n"


def test_lint_json_is_an_array_for_one_file_as_for_several():
    bad = fixture("empty-text.yaml")
    result = run("lint", bad, "--format", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == [{"path": bad, "ok": False, "laws": None,
                                          "problems": [{"line": 16, "column": 11,
                                                        "message": "the text of law 1 is empty"}]}]
    good = fixture("mini-whist.yaml")
    result = run("lint", good, bad, "--format", "json")
    data = json.loads(result.stdout)
    assert [(d["path"], d["ok"], d["laws"]) for d in data] == [(good, True, 4), (bad, False, None)]


def test_lint_markdown_is_a_list():
    good = fixture("mini-whist.yaml")
    result = run("lint", good, "--format", "markdown")
    assert result.exit_code == 0
    assert result.stdout == f"- {good}: ok (4 laws)\n"


def test_lint_with_no_files_checks_the_built_in_rulebooks_and_houses():
    result = run("lint")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.rsplit("/", 1)[-1] for line in lines] == [
        "euchre.yaml: ok (116 laws)", "long-whist.yaml: ok (19 laws)", "short-whist.yaml: ok (91 laws)",
        "modern-euchre.yaml: ok (114 laws with the house rules)",
        "stick-the-dealer.yaml: ok (117 laws with the house rules)"]


# --- help ----------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["laws", "law", "lint"])
def test_every_command_has_a_summary_and_an_example(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert f"Example: adjudicate {command}" in result.stdout
    assert "--format" in result.stdout
