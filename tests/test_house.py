"""House rules: loading, checking, applying, and which rulings they change."""

import json
from pathlib import Path

from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.lawbook.house import house_rulebook, lint_file
from adjudicate.lawbook.builtin import builtin_rulebook

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "house"
HOUSES = ROOT / "adjudicate" / "rulebooks" / "house"
runner = CliRunner()


def test_builtin_houses_lint_clean():
    result = runner.invoke(app, ["lint", *sorted(str(p) for p in HOUSES.glob("*.yaml"))])
    assert result.exit_code == 0, result.output
    assert "modern-euchre.yaml: ok (114 laws with the house rules)" in result.stdout


def test_modern_euchre_changes_the_pack_the_game_and_the_renege():
    modern = house_rulebook("modern-euchre")
    code = builtin_rulebook("euchre")
    assert len(modern.game.pack) == 24 and modern.game.game_points == 10
    assert "1" not in modern and "7" not in modern
    [remedy] = modern.law("63").remedies
    assert [(o.kind, o.points) for o in remedy.options] == [("score", 2), ("score", 4)]
    assert code.law("63").text != modern.law("63").text


def test_a_broken_house_file_fails_with_line_and_column():
    result = runner.invoke(app, ["lint", str(DATA / "broken.yaml")])
    assert result.exit_code == 2
    path = DATA / "broken.yaml"
    out = result.stdout
    assert f"{path}:1:8: a house id is lower-case words joined by hyphens" in out
    assert f"{path}:6:16: `parameters.game_points` should be from 1 to 99, not 500" in out
    assert f"{path}:10:10: an added law's id should be letters then a number, such as H1" in out
    assert f"{path}:14:5: a `strike` change is missing the required key 'why'" in out
    assert f"{path}:18:16: `revoke` has no fact 'establshed' (did you mean \"established\"?)" in out
    assert "Traceback" not in result.output


def test_unknown_law_and_small_pack_found_when_applied(tmp_path):
    text = (DATA / "broken.yaml").read_text()
    fixed = (text.replace("house: Broken House", "house: broken")
             .replace("game_points: 500", "game_points: 10")
             .replace('  - add: "106"\n    why: an added law must not look like the code\'s own\n    title: Clash\n'
                      '    text: clash\n', "")
             .replace('  - strike: "7"\n', '  - strike: "7"\n    why: no rubbers\n')
             .replace("establshed", "established"))
    path = tmp_path / "house.yaml"
    path.write_text(fixed)
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 2
    assert f"{path}:5:10: a pack of 12 cards cannot deal 5 to each of four players and turn one for trump" in result.stdout
    assert f"{path}:8:5: replace: euchre has no law '630'" in result.stdout


def test_contradicting_laws_are_found():
    result = runner.invoke(app, ["lint", str(DATA / "contradicts.yaml")])
    assert result.exit_code == 2
    assert "laws 63 and H1 would both apply to the same hands with different remedies" in result.stdout


def test_a_house_may_build_on_another():
    kind, rulebook = lint_file(str(DATA / "builds-on.yaml"))
    assert kind == "house"
    assert len(rulebook.game.pack) == 24
    assert rulebook.law("77").rulings[0].kind == "dealer_must_name"
    assert [(o.points) for o in rulebook.law("63").remedies[0].options] == [2, 4]


def test_diff_lists_the_revoke_scenarios_with_the_penalty_changed():
    result = runner.invoke(app, ["diff", "--house", str(HOUSES / "modern-euchre.yaml"),
                                 str(ROOT / "scenarios"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    changed = {Path(item["scenario"]).name: item for item in report["scenarios"] if item["status"] == "changed"}
    design = changed["revoke-established.yaml"]
    assert "law 63: NS may score 3" in design["code"]["remedies"]
    assert "law 63: NS may score 2" in design["house"]["remedies"]
    assert "score NS 5, EW 3 if 63 score" in design["code"]["scores"]
    assert "score NS 4, EW 3 if 63 score" in design["house"]["scores"]
    for name, item in changed.items():
        for before in item["code"]["remedies"]:
            if before.startswith("law 63: NS may score 3") or before.startswith("law 63: EW may score 3"):
                assert any(after.startswith(before[:len("law 63: NS may score ")] + "2")
                           for after in item["house"]["remedies"]), name
    assert report["summary"]["invalid"] == 0


def test_rule_with_house_option_and_scenario_house_key():
    path = ROOT / "scenarios" / "euchre" / "revoke-established.yaml"
    result = runner.invoke(app, ["rule", "--house", "modern-euchre", str(path), "-f", "json"])
    assert result.exit_code == 2  # the hand holds 7s and 8s: not playable with 24 cards
    assert "is not in the pack of euchre (24 cards" in result.stderr
    stuck = ROOT / "scenarios" / "euchre" / "house-stick-the-dealer-dealer-passes.yaml"
    (record,) = json.loads(runner.invoke(app, ["rule", str(stuck), "-f", "json"]).stdout)
    assert record["house"] == "stick-the-dealer"
    assert {law["id"] for law in record["laws"]} >= {"77", "H1"}


def test_a_house_sets_the_scoring_values_of_a_euchre_hand(tmp_path):
    assert house_rulebook("modern-euchre").game.value("lone_euchre", 4) == 2
    assert builtin_rulebook("euchre").game.value("lone_euchre", 4) == 4
    path = tmp_path / "scores.yaml"
    path.write_text("house: scores\nname: Scores\nvaries: euchre\nparameters:\n  scores: {lone_euchr: 2, march: 99}\n")
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 2
    assert f'{path}:5:12: unknown key \'lone_euchr\' in `parameters.scores` (did you mean "lone_euchre"?)' in result.stdout


def test_a_house_law_defeats_a_code_law_without_striking_it(tmp_path):
    """docs/house-rules.md: H2 bars law 63 when the claim comes after the mix; 63 stands for every other hand."""
    house = DATA / "no-renege-after-mix.yaml"
    text = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text()
    text = text[:text.index("expect:")]
    late = tmp_path / "late.yaml"
    late.write_text(text.replace("  - N: claim revoke E\n", "  - mix\n  - N: claim revoke E\n"))
    (record,) = json.loads(runner.invoke(app, ["rule", "--house", str(house), str(late), "-f", "json"]).stdout)
    assert [(item["law"], item["by"], item["how"]) for item in record["not_applied"]] == [("63", "H2", "bars")]
    assert "H2" in [law["id"] for law in record["laws"]]
    assert not [r for r in record["remedies"] if r["law"] == "63"]
    said = " ".join(runner.invoke(app, ["rule", "--explain", "--house", str(house), str(late)]).stdout.split())
    assert "Law 63 (Penalty for a revoke) does not apply: the renege was claimed after the cards were mixed " \
           "(law H2 bars it)." in said
    in_time = tmp_path / "in-time.yaml"
    in_time.write_text(text)
    (record,) = json.loads(runner.invoke(app, ["rule", "--house", str(house), str(in_time), "-f", "json"]).stdout)
    assert record["not_applied"] == [] and [r["law"] for r in record["remedies"]] == ["63", "70"]


def test_a_scoring_law_takes_no_score_remedies():
    """The hand's points are the score section's, counted once: a score remedy on law 3 would count them twice."""
    result = runner.invoke(app, ["lint", str(DATA / "scoring-law-with-remedies.yaml")])
    assert result.exit_code == 2
    assert "law 3 is a scoring law: the hand's own points are the score section's, counted once" in result.stdout
