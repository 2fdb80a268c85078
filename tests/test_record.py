"""The ruling record for appeals (`record` of `rule --format json`) and the ruling sheet (`rule --format markdown`).

What an appeal relies on: the record names the version and the sha256 of every input's bytes (the rulebook,
the house files, the scenario) and the answers given; the same inputs give the same record and the same
sheet byte for byte, from any folder and with or without the rulebook cache; one byte changed in an input
changes its digest; and the sheet quotes the laws word for word and shows a stranger's text as text.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt
from typer.testing import CliRunner

import adjudicate
from adjudicate import api
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicate"
SCENARIOS = ROOT / "scenarios"
REVOKE = SCENARIOS / "euchre" / "revoke-established.yaml"
HOUSE_SCENARIO = SCENARIOS / "euchre" / "house-stick-the-dealer-dealer-passes.yaml"
BUILDS_ON = ROOT / "tests" / "data" / "house" / "builds-on.yaml"
runner = CliRunner()


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def builtin(code: str) -> str:
    return sha256((PACKAGE / "rulebooks" / f"{code}.yaml").read_bytes())


def ruled(*args: object) -> dict:
    result = runner.invoke(app, ["rule", "--format", "json", *map(str, args)])
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)  # an array, one record a file
    return record


def command(*args: object, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, **env}
    return subprocess.run([sys.executable, "-m", "adjudicate", *map(str, args)], cwd=cwd, env=environment,
                          capture_output=True, text=True, check=False)


# --- the record's keys and values ----------------------------------------------------------------------------

@pytest.mark.parametrize("scenario, code", [
    ("euchre/revoke-established.yaml", "euchre"),
    ("short-whist/revoke-established.yaml", "short-whist"),
    ("long-whist/revoke-cards-mixed-after-claim.yaml", "long-whist"),
])
def test_the_record_names_the_version_and_the_digests_of_the_code_and_the_scenario(scenario, code):
    path = SCENARIOS / scenario
    record = ruled(path)
    assert list(record)[-1] == "record"  # a key of its own, after the ruling's
    assert record["record"] == {
        "adjudicate": adjudicate.__version__,
        "code": {"id": code, "name": code, "builtin": True, "digest": builtin(code)},
        "house": None,
        "scenario": {"digest": sha256(path.read_bytes()), "of": "file bytes"},
        "answers": {},
    }


def test_a_built_in_house_is_recorded_with_its_digest():
    record = ruled(HOUSE_SCENARIO)["record"]
    assert record["code"] == {"id": "euchre", "name": "euchre", "builtin": True, "digest": builtin("euchre")}
    assert record["house"] == {
        "id": "stick-the-dealer", "name": "stick-the-dealer", "builtin": True,
        "digest": sha256((PACKAGE / "rulebooks" / "house" / "stick-the-dealer.yaml").read_bytes()),
        "builds_on": [],
    }


def test_a_house_file_is_recorded_with_every_file_it_builds_on():
    record = ruled("--house", BUILDS_ON, HOUSE_SCENARIO)["record"]
    varies = yaml.safe_load(BUILDS_ON.read_text(encoding="utf-8"))["varies"]
    assert record["house"] == {
        "id": "modern-stuck", "name": str(BUILDS_ON), "builtin": False, "digest": sha256(BUILDS_ON.read_bytes()),
        "builds_on": [{"id": "modern-euchre", "name": varies, "builtin": False,  # as its `varies:` names it
                       "digest": sha256((PACKAGE / "rulebooks" / "house" / "modern-euchre.yaml").read_bytes())}],
    }
    assert record["code"]["digest"] == builtin("euchre")  # the code the houses vary


def _project(tmp_path: Path) -> Path:
    """A folder of its own (a project: it holds .git) with a scenario naming a rulebook file of its own."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "rules").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "rulebooks" / "mini-euchre.yaml", tmp_path / "rules" / "mini.yaml")
    text = REVOKE.read_text(encoding="utf-8").replace("code: euchre", "code: ../rules/mini.yaml")
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "hand.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "hands" / "hand.yaml"


def test_a_rulebook_file_is_recorded_as_the_scenario_names_it(tmp_path):
    hand = _project(tmp_path)
    record = ruled(hand)["record"]
    rulebook = tmp_path / "rules" / "mini.yaml"
    assert record["code"] == {"id": yaml.safe_load(rulebook.read_text(encoding="utf-8"))["code"],
                              "name": "../rules/mini.yaml", "builtin": False, "digest": sha256(rulebook.read_bytes())}


def test_the_api_records_a_text_and_a_mapping_and_says_what_was_digested():
    text = REVOKE.read_text(encoding="utf-8")
    mapping = yaml.safe_load(text)
    by_file, by_text, by_mapping = api.rule(REVOKE).record, api.rule(text).record, api.rule(mapping).record
    assert (by_file.scenario.of, by_text.scenario.of, by_mapping.scenario.of) == \
        ("file bytes", "text as UTF-8", "mapping as canonical JSON")
    assert by_text.scenario.digest == by_file.scenario.digest == sha256(REVOKE.read_bytes())  # the same bytes
    canonical = json.dumps(mapping, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    assert by_mapping.scenario.digest == sha256(canonical)
    shuffled = dict(reversed(list(mapping.items())), hands={"W": mapping["hands"]["W"], "E": mapping["hands"]["E"]})
    assert api.rule(shuffled).record.scenario.digest == by_mapping.scenario.digest  # key order is not content
    assert api.rule(dict(mapping, title="Another")).record.scenario.digest != by_mapping.scenario.digest
    assert by_file.code == by_text.code == by_mapping.code and by_file.house is None
    assert api.rule(REVOKE).to_json()["record"] == json.loads(json.dumps(api.rule(REVOKE).to_json()["record"]))


def test_code_given_to_the_api_is_recorded_as_given():
    path = str(PACKAGE / "rulebooks" / "euchre.yaml")
    record = api.rule(REVOKE, code=path).record
    assert (record.code.id, record.code.name, record.code.builtin, record.code.digest) == \
        ("euchre", path, False, builtin("euchre"))
    assert record.scenario.digest == sha256(REVOKE.read_bytes())  # the file as read, before code= replaced its code


def test_the_answers_are_recorded_sorted_by_question_id():
    """The record's answers are those the ruling was made with, sorted by id whatever order they were given in."""
    shuffle = SCENARIOS / "euchre" / "penalty-claimed-after-the-shuffle-and-cut.yaml"
    given = {"euchre-29-card-exposed-cutting-fewer-than-four": True, "euchre-27-card-seen-during-dealers-shuffling": False}
    record = api.rule(shuffle, answers=given).to_json()["record"]
    assert json.dumps(record["answers"]) == \
        '{"euchre-27-card-seen-during-dealers-shuffling": false, "euchre-29-card-exposed-cutting-fewer-than-four": true}'
    assert api.rule(shuffle).to_json()["record"]["answers"] == {} == api.rule(shuffle, answers={}).record.answers


# --- the same inputs, the same bytes ---------------------------------------------------------------------------

@pytest.mark.parametrize("format", ["json", "markdown"])
def test_the_same_inputs_give_the_same_bytes_from_any_folder_and_with_or_without_the_cache(tmp_path, format):
    path = str(REVOKE)  # the same name given, from two folders
    runs = [command("rule", "-f", format, path, cwd=ROOT),
            command("rule", "-f", format, path, cwd=tmp_path),
            command("rule", "-f", format, path, cwd=tmp_path, ADJUDICATE_CACHE_DIR=str(tmp_path / "cold")),
            command("rule", "-f", format, path, cwd=tmp_path, ADJUDICATE_CACHE_DIR=str(tmp_path / "cold")),
            command("rule", "-f", format, path, cwd=tmp_path, ADJUDICATE_NO_CACHE="1")]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    assert len({run.stdout for run in runs}) == 1


def test_the_record_does_not_depend_on_how_the_scenario_s_path_is_written(tmp_path):
    hand = _project(tmp_path)
    (from_here,) = json.loads(command("rule", "-f", "json", hand, cwd=ROOT).stdout)
    (from_there,) = json.loads(command("rule", "-f", "json", "hand.yaml", cwd=hand.parent).stdout)
    assert from_here["scenario"] != from_there["scenario"]  # the path as given...
    assert from_here["record"] == from_there["record"]  # ...is not in the record: nothing there moves with the folder
    shown = json.dumps(from_here["record"])
    assert str(tmp_path) not in shown and str(PACKAGE) not in shown


def test_one_byte_changed_changes_the_digest_of_that_input_alone(tmp_path):
    hand = _project(tmp_path)
    before = ruled(hand)["record"]
    hand.write_bytes(hand.read_bytes().replace(b"East trumps", b"East Trumps"))
    after = ruled(hand)["record"]
    assert after["scenario"]["digest"] != before["scenario"]["digest"] and after["code"] == before["code"]
    rulebook = tmp_path / "rules" / "mini.yaml"
    rulebook.write_bytes(rulebook.read_bytes() + b"\n")  # a byte no law's text holds: the same laws
    again = ruled(hand)
    assert again["record"]["code"]["digest"] != after["code"]["digest"]
    assert again["record"]["scenario"] == after["scenario"]


def test_one_byte_changed_in_a_house_file_changes_its_digest(tmp_path):
    house = tmp_path / "club.yaml"
    house.write_bytes((PACKAGE / "rulebooks" / "house" / "stick-the-dealer.yaml").read_bytes())
    before = ruled("--house", house, HOUSE_SCENARIO)["record"]["house"]
    house.write_bytes(house.read_bytes() + b"# the club's copy\n")
    after = ruled("--house", house, HOUSE_SCENARIO)["record"]["house"]
    assert before["digest"] != after["digest"] == sha256(house.read_bytes())


AUDIT = """
import sys
from pathlib import Path
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and args and isinstance(args[0], (str, bytes)) else None)
import adjudicate
ruling = adjudicate.rule(sys.argv[1])
ruling.to_json(), ruling.to_markdown(), ruling.record
rulebook = str(Path(adjudicate.__file__).parent / "rulebooks" / "euchre.yaml")
print(opened.count(sys.argv[1]), opened.count(rulebook), "adjudicate.ruling.appeal" in sys.modules)
adjudicate.check([sys.argv[1]])
"""


def test_the_digests_are_of_the_bytes_read_once_and_check_makes_none(tmp_path):
    for cache in ("", "1"):  # the rulebook cache off, then on (its first run fills it)
        env = {"ADJUDICATE_CACHE_DIR": str(tmp_path / "cache")} if cache else {"ADJUDICATE_NO_CACHE": "1"}
        result = subprocess.run([sys.executable, "-c", AUDIT, str(REVOKE)], cwd=ROOT, capture_output=True, text=True,
                                env={**os.environ, **env}, check=False)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["1", "1", "True"]
    checked = subprocess.run([sys.executable, "-c", "import sys, adjudicate; adjudicate.check(sys.argv[1:]); "
                              "print('adjudicate.ruling.appeal' in sys.modules)", str(SCENARIOS / "euchre")],
                             cwd=ROOT, capture_output=True, text=True, check=False)
    assert checked.stdout.strip() == "False"  # check digests nothing


# --- the ruling sheet ----------------------------------------------------------------------------------------

def sheet(*args: object) -> str:
    result = runner.invoke(app, ["rule", "--format", "markdown", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.stdout


def tokens(markdown: str) -> list:
    """Every token of the Markdown as CommonMark (with tables and strike-through) reads it, inline ones too."""
    found = []
    for token in MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(markdown):
        found.append(token)
        found.extend(token.children or [])
    return found


def plain(markdown_inline: str) -> str:
    """An inline Markdown text as the reader sees it."""
    return "".join(token.content for token in tokens(markdown_inline) if token.type in ("text", "code_inline"))


def test_the_sheet_quotes_each_law_word_for_word():
    from adjudicate.lawbook.rulebook import paragraphs

    record = ruled(REVOKE)
    assert quotes_of(sheet(REVOKE)) == [list(paragraphs(law["text"])) for law in record["laws"]]


def test_the_sheet_of_a_shipped_ruling():
    text = sheet(REVOKE)
    lines = text.splitlines()
    assert lines[0] == "# Ruling: East trumps a spade while holding one"
    for said in ("- Dealer: South", "- Score before the hand: NS 2, EW 3", "- Trump: hearts (ordered up by West)",
                 "- East: QS 9H JD AC 8C", "- West: AS, and more not known", "1. W: order up", "9. N: claim revoke E",
                 "### Law 63. Penalty for a revoke (The Revoke)", "- Law 63, for the revoke by East at trick 1: applied, the law leaving no choice:",
                 "    - add 3 points to their own score", "- Before the hand: NS 2, EW 3.",
                 "- With law 63 (add 3 points to their own score, for the revoke by East at trick 1): NS 5, EW 3 "
                 "(NS win a single game (1 point, law 7), the penalty scored first (law 4)).",
                 "- Law 64: The revoke is established."):
        assert said in lines, said
    assert lines[-1] == (f"Record: adjudicate {adjudicate.__version__} · code euchre {builtin('euchre')} · house none"
                         f" · scenario {sha256(REVOKE.read_bytes())} (file bytes)")
    assert text == api.rule(REVOKE).to_markdown()


def test_the_sheet_gives_every_score_each_choice_leaves():
    path = SCENARIOS / "long-whist" / "revoke-cards-mixed-after-claim.yaml"
    lines = sheet(path).splitlines()
    scores = lines[lines.index("## The score") + 2:]
    scores = scores[:scores.index("")]
    assert scores == [
        "- Before the hand: NS 2, EW 3.",
        # Long Whist 14: the cards mixed end the hand, the tricks as taken (none): docs/rulings.md.
        "- The hand itself: NS 0, EW 0 (law 14), counted once.",
        "- If law 11 (add 3 points to their own score, for the revoke by East at trick 1): NS 5, EW 3.",
        # The hand ended at the first trick: the tricks taken count for nothing, and the sheet says so.
        "- If law 11 (take 3 tricks from the offenders and add them to their own, for the revoke by East at trick 1): "
        "NS 2, EW 3; the choice gives nothing: the hand ended at trick 1, and neither side has tricks above six to "
        "score, with them or without.",
        "- If law 11 (deduct 3 points from the offenders' score, for the revoke by East at trick 1): NS 2, EW 0.",
    ]
    assert "- Law 13 (When a revoke may be claimed) does not apply: the claim came before the trick was turned and " \
           "quitted, but the accused side mixed the cards after it, and so forfeit the revoke (law 14 supersedes " \
           "it)." in lines


def test_the_sheet_names_the_house_and_every_file_it_builds_on():
    lines = sheet("--house", BUILDS_ON, HOUSE_SCENARIO).splitlines()
    record = ruled("--house", BUILDS_ON, HOUSE_SCENARIO)["record"]
    assert f"- House rules: {BUILDS_ON} (modern-stuck)".replace("_", "\\_") in lines
    base = record["house"]["builds_on"][0]
    assert lines[-1].endswith(f" · house {BUILDS_ON} {record['house']['digest']} · built on {base['name']} "
                              f"{base['digest']} · scenario {record['scenario']['digest']} (file bytes)")


def test_an_open_question_is_on_the_sheet():
    path = SCENARIOS / "long-whist" / "revoke-claimed-too-soon-then-cards-mixed.yaml"
    (question,) = ruled(path)["unknown"]
    asked = question["question"][0].upper() + question["question"][1:]
    assert f"- {question['id']}: {asked} If so: laws 11, 14 (law 13 no longer); if not: none." in sheet(path).splitlines()


def test_several_files_give_a_sheet_each_separated_by_a_rule_in_the_order_given():
    other = SCENARIOS / "long-whist" / "revoke-cards-mixed-after-claim.yaml"
    both = sheet(other, REVOKE)
    assert both == sheet(other) + "\n---\n\n" + sheet(REVOKE)
    assert [token.type for token in tokens(both)].count("hr") == 1
    assert [t.content for t in tokens(both) if t.type == "inline" and t.content.startswith("Ruling: ")] == \
        ["Ruling: North claims a revoke against East while the trick is still on the table, and West, East's "
         "partner, mixes the cards before they are examined", "Ruling: East trumps a spade while holding one"]


HOSTILE = {
    "title": "[click](https://evil.example/x) ![img](https://evil.example/i.png) <script>alert(1)</script> "
             "&lt;b&gt; **bold** `code` www.evil.example mail@evil.example | a | b | ~~gone~~ $x$ ###",
    "notes": "# Forged heading\n\n- a list\n\n1. a numbered list\n\n> a quote\n\n    code block\n\n---\n\n"
             "<div>html</div>\n\n[ref]: https://evil.example/ref",
}


def test_a_stranger_s_title_and_notes_stay_text_on_the_sheet(tmp_path):
    from adjudicate.lawbook.rulebook import paragraphs

    text = REVOKE.read_text(encoding="utf-8").replace("title: East trumps a spade while holding one\n", "")
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(HOSTILE, width=1000) + text, encoding="utf-8")
    markdown = sheet(path)
    found = tokens(markdown)
    assert not {token.type for token in found} & {
        "link_open", "image", "html_inline", "html_block", "code_block", "fence", "code_inline", "strong_open",
        "em_open", "s_open", "table_open", "hr"}
    headings = [found[index + 1].content for index, token in enumerate(found) if token.type == "heading_open"]
    assert plain(headings[0]) == "Ruling: " + HOSTILE["title"]  # shown as written, and the only h1
    assert [token.tag for token in found if token.type == "heading_open"].count("h1") == 1
    assert [plain(h) for h in headings if h.startswith("Law")] == [
        "Law 4. Revoke penalty scores first (Scoring)", "Law 62. Revoke defined (The Revoke)",
        "Law 63. Penalty for a revoke (The Revoke)", "Law 64. When a revoke is established (The Revoke)",
        "Law 70. Revoking side may have the hand played out (The Revoke)"]
    assert "https://" not in markdown and "www.evil" not in markdown and "l@evil" not in markdown  # no bare links
    assert quotes_of(markdown)[0] == list(paragraphs(HOSTILE["notes"]))  # the notes, each paragraph as written


def quotes_of(markdown: str) -> list[list[str]]:
    """The text of each block quote, paragraph by paragraph, as the reader sees it."""
    quotes, depth, current = [], 0, []
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type == "blockquote_open":
            depth, current = depth + 1, []
        elif token.type == "blockquote_close":
            depth -= 1
            quotes.append(current)
        elif depth and token.type == "inline":
            current.append(plain(token.content))
    return quotes


def test_control_characters_in_a_title_are_escaped_on_the_sheet_too(tmp_path):
    path = tmp_path / "controls.yaml"
    text = REVOKE.read_text(encoding="utf-8")
    path.write_text(text.replace("title: East trumps a spade while holding one",
                                 'title: "East\\u202e trumps\\n# error: forged\\r\\tx"'), encoding="utf-8")
    first, second = api.rule(path).to_markdown().splitlines()[:2]
    assert first == "# Ruling: East\\\\u202e trumps\\\\n\\# error: forged\\\\r\\\\tx" and second == ""
    assert plain(first[2:]) == "Ruling: East\\u202e trumps\\n# error: forged\\r\\tx"  # as escape.visible shows it


def test_a_format_not_offered_is_refused_naming_the_one_meant():
    result = runner.invoke(app, ["rule", "--format", "markdwn", str(REVOKE)])
    assert result.exit_code == 2 and "'markdwn'" in result.output and "'markdown'" in result.output
    assert result.stdout.count("Ruling") == 0


# --- docs/ruling-record.md: every record and sheet it shows is the real output -----------------------------

DOC = ROOT / "docs" / "ruling-record.md"


def _examples() -> list[tuple[str, list[str], str]]:
    """(what, the command's arguments, the block as the page shows it) of each `<!-- what: adjudicate ... -->`."""
    import re

    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"<!-- (\w+): adjudicate (.+?) -->\n(`{3,4})\w+\n(.*?)\n\3\n<!-- /\1 -->", text, re.S)
    return [(what, args.split(), block) for what, args, _, block in found]


def test_the_page_shows_the_record_the_house_and_the_sheet_as_printed(monkeypatch):
    monkeypatch.chdir(ROOT)  # the paths the page names, as it names them
    examples = _examples()
    assert [what for what, _, _ in examples] == ["record", "house", "sheet"]
    for what, args, block in examples:
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        if what == "sheet":
            assert block + "\n" == result.stdout, f"docs/ruling-record.md's sheet should read:\n{result.stdout}"
        else:
            record = json.loads(result.stdout)[0]["record"]
            assert json.loads(block) == (record if what == "record" else record["house"])
            assert block == json.dumps(json.loads(block), indent=2)


def test_the_page_s_python_runs_as_written(monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(DOC), module_relative=False, report=True)
    assert result.attempted >= 3 and result.failed == 0
