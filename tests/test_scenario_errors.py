"""Malformed scenario files: one line per problem, with file:line:col, exit 2, no traceback."""

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app

runner = CliRunner()

GOOD = """\
code: euchre
dealer: S
turned: JH
hands:
  E: [QS, 9H, JD, AC, 8C]
log:
  - W: order up
  - S: discard 7C
  - W: AS
"""

CASES = [
    ("broken YAML", "code: euchre\ndealer: [S\n", ":3:1: invalid YAML"),
    ("unknown key", GOOD + "dealr: S\n", ':10:1: unknown key \'dealr\' in the scenario (did you mean "dealer"?)'),
    ("missing key", "code: euchre\nlog: []\n", ":1:1: the scenario is missing the required key 'dealer'"),
    ("not a mapping", "- W: AS\n", ":1:1: a scenario should be a mapping"),
    ("bad seat", GOOD.replace("dealer: S", "dealer: X"), ":2:9: `dealer`: 'X' is not a seat"),
    ("bad act", GOOD.replace("order up", "ordr up"), ':7:8: unknown act \'ordr up\' (did you mean "order up"?)'),
    ("bare act needs seat", GOOD + "  - pass\n", ":10:5: 'pass' needs the seat that did it"),
    ("card not in pack", GOOD + "  - N: 2S\n", ":10:5: N plays: 2S is not in the pack of euchre"),
    ("card in two places", GOOD.replace("turned: JH", "turned: QS"), ":5:7: the hand of E: QS is in two places"),
    ("card played twice", GOOD + "  - N: AS\n", ":10:5: N plays AS, but AS was already played"),
    ("card not in listed hand", GOOD + "  - E: KS\n", ":10:5: E plays KS, but the hand of E as dealt (line 5) does not hold it"),
    ("card held by another", GOOD + "  - N: QS\n", ":10:5: N plays QS, but QS is the hand of E (line 5)"),
    ("duplicate key", GOOD + "code: euchre\n", ":10:1: duplicate key 'code' (first at line 1)"),
    ("unknown code", GOOD.replace("code: euchre", "code: eucher"), ':1:7: unknown code \'eucher\' (did you mean "euchre"?)'),
    ("python tag", GOOD.replace("code: euchre", "code: !!python/object/apply:os.system [echo hi]"),
     ":1:7: the YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed"),
    ("log entry with two seats", GOOD + "  - {N: AS, E: KS}\n", ":10:5: a log entry is one act"),
    ("hand not a list", GOOD.replace("E: [QS, 9H, JD, AC, 8C]", "E: {QS: 1}"),
     ":5:6: the hand of E should be a list of cards, not a mapping"),
    ("card not text", GOOD.replace("E: [QS, 9H, JD, AC, 8C]", "E: [QS, [9H]]"),
     ":5:11: a card in the hand of E should be text, not a list"),
    ("act not text", GOOD.replace("W: order up", "W: {order: up}"), ":7:8: the act of W should be text, not a mapping"),
    ("empty file", "", ":1:1: the file is empty"),
    ("bad score", GOOD + "score: {NS: two}\n", ":10:13: the score of NS should be a whole number"),
    ("games not 0 or 1", GOOD + "games: {NS: 2, EW: 0}\n", ":10:13: the games of NS should be 0 or 1"),
    ("games misspelt side", GOOD + "games: {NS: 1, ew: 0}\n", ':10:16: unknown key \'ew\' in `games` (did you mean "EW"?)'),
    ("games misspelt", GOOD + "game: {NS: 1, EW: 0}\n", ':10:1: unknown key \'game\' in the scenario (did you mean "games"?)'),
    ("games one side only", GOOD + "games: {NS: 1}\n", ":10:8: `games` is missing the required key 'EW'"),
    ("games not a mapping", GOOD + "games: 1\n", ":10:8: `games`"),
    ("dots in the middle", GOOD.replace("[QS, 9H", "[QS, ..., 9H"), ":5:11: `...` may only end the hand of E"),
]


@pytest.mark.parametrize("name, text, message", CASES, ids=[case[0] for case in CASES])
def test_malformed_scenario(tmp_path, name, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{path}{message}" in result.stderr


def test_missing_file_and_folder(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr


def test_binary_and_non_utf8(tmp_path):
    (tmp_path / "bin.yaml").write_bytes(b"code: euchre\x00\x01")
    (tmp_path / "latin.yaml").write_bytes(b"title: caf\xe9\n")
    result = runner.invoke(app, ["replay", str(tmp_path / "bin.yaml"), str(tmp_path / "latin.yaml")])
    assert result.exit_code == 2
    assert "bin.yaml:1:1: is a binary file" in result.stderr
    assert "latin.yaml:1:11: the file is not UTF-8 text" in result.stderr


def test_alias_bomb_is_refused_quickly(tmp_path):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 10):
        refs = ",".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", str(tmp_path / "bomb.yaml")])
    assert result.exit_code == 2
    assert "expands to more than" in result.stderr
