"""The replay: who leads, who wins, what each player held, and the irregularities found."""

import json
from pathlib import Path

from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.play.facts import detect
from adjudicate.record.scenario import parse_scenario
from adjudicate.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
DESIGN_EXAMPLE = ROOT / "scenarios" / "euchre" / "revoke-established.yaml"
runner = CliRunner()


def hand(text: str):
    table = replay(parse_scenario(text, "test.yaml"))
    return table, detect(table)


def test_design_example_replays_as_the_design_says():
    table, facts = hand(DESIGN_EXAMPLE.read_text())
    assert str(table.trump) == "H"
    assert str(table.tricks[0].winner) == "E"
    [revoke] = facts.of_kind("revoke")
    assert (str(revoke.seat), revoke.trick, revoke.get("established")) == ("E", 1, True)
    assert revoke.get("established_by") == "the trick was turned and quitted"


def test_design_example_json_keys():
    result = runner.invoke(app, ["replay", "--format", "json", str(DESIGN_EXAMPLE)])
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)  # an array, one hand a file
    assert record["trump"] == "H"
    first = record["tricks"][0]
    assert first["leader"] == "W" and first["winner"] == "E"
    assert [c["seat"] + c["card"] for c in first["cards"]] == ["WAS", "NKS", "E9H", "STS"]
    assert record["irregularities"][0]["kind"] == "revoke"
    assert record["irregularities"][0]["established"] is True


def test_several_files_give_a_json_array_in_order(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(DESIGN_EXAMPLE.read_text().replace("title: East", "title: Again, East"))
    result = runner.invoke(app, ["replay", "-f", "json", str(DESIGN_EXAMPLE), str(other)])
    records = json.loads(result.stdout)
    assert [r["scenario"] for r in records] == [str(DESIGN_EXAMPLE), str(other)]


def test_output_is_deterministic():
    outputs = {runner.invoke(app, ["replay", fmt, str(DESIGN_EXAMPLE)]).stdout
               for fmt in ("-ftable",) for _ in range(3)}
    assert len(outputs) == 1


EUCHRE = """\
code: euchre
dealer: S
turned: JH
hands:
  W: [AS, QD, 9C, TD, KH]
  N: [KS, 8D, 9D, AD, 7H]
  E: [QS, 9H, JD, AC, 8C]
  S: [TS, 7S, KC, QC, 8S]
log:
"""


def test_left_bower_must_follow_a_trump_lead():
    # Hearts are trumps: the knave of diamonds is the left bower, a heart for following suit.
    table, facts = hand(EUCHRE + "  - W: order up\n  - S: discard 8S\n  - W: KH\n  - N: 7H\n  - E: AC\n  - S: JH\n")
    assert sorted(map(str, table.tricks[0].plays[2].legal)) == ["9H", "JD"]
    [revoke] = facts.of_kind("revoke")
    assert str(revoke.seat) == "E" and revoke.get("established") is False
    assert str(table.tricks[0].winner) == "S"  # the right bower


def test_partners_question_before_the_quit_saves_the_revoke():
    log = ("  - W: order up\n  - S: discard 8S\n  - W: AS\n  - N: KS\n  - E: 9H\n  - S: TS\n"
           "  - W: ask\n  - quit\n  - E: correct QS\n")
    # Law 65: the question asked before the quit; the quit does not establish, the error may be corrected.
    table, facts = hand(EUCHRE + log.replace("W: ask", "W: ask"))
    [revoke] = facts.of_kind("revoke")
    # Here the wrong partner asked (W is E's partner), so the question counts.
    assert revoke.get("question_asked") is True
    assert revoke.get("established") is False and revoke.get("corrected") is True


def test_question_answered_none_establishes_at_the_quit():
    log = ("  - W: order up\n  - S: discard 8S\n  - W: AS\n  - N: KS\n  - E: 9H\n  - S: TS\n"
           "  - W: ask\n  - E: deny\n  - quit\n")
    table, facts = hand(EUCHRE + log)
    [revoke] = facts.of_kind("revoke")
    assert revoke.get("answered_negative") is True and revoke.get("established") is True


def test_lead_out_of_turn_followed_by_all_three():
    table, facts = hand(EUCHRE + "  - N: pass\n  - E: pass\n  - W: order up\n  - S: discard 8S\n"
                        "  - N: KS\n  - E: QS\n  - S: TS\n  - W: AS\n")
    [lead] = facts.of_kind("lead_out_of_turn")
    assert str(lead.seat) == "N" and lead.get("all_followed") is True and str(lead.get("due")) == "W"
    # W (eldest: dealer S's left) ought to have led; he was also out of turn to bid.
    assert facts.of_kind("bid_out_of_turn")


def test_lone_hand_tricks_of_three():
    # N, the dealer's partner, assists alone; the dealer S's cards are out, tricks are of three cards.
    table, facts = hand(EUCHRE + "  - W: pass\n  - N: alone\n  - S: discard 8S\n"
                        "  - W: AS\n  - N: KS\n  - E: QS\n  - W: TD\n")
    assert str(table.lone) == "N" and str(table.out) == "S"
    first = table.tricks[0]
    assert first.size == 3 and first.complete and str(first.winner) == "W"
    assert str(table.tricks[1].leader) == "W" and not facts.irregularities


def test_lone_partner_playing_is_found():
    table, facts = hand(EUCHRE + "  - W: pass\n  - N: alone\n  - S: discard 8S\n"
                        "  - W: AS\n  - N: KS\n  - E: QS\n  - S: TS\n")
    assert [i.kind for i in facts.irregularities] == ["lone_partner_played"]


def test_unknown_holding_is_said_not_guessed():
    text = """\
code: euchre
dealer: S
turned: JH
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: KS
  - E: 9H
  - S: TS
"""
    table, facts = hand(text)
    [revoke] = facts.of_kind("revoke")
    assert revoke.unknown and "Did East hold a spade at trick 1?" in revoke.unknown


def test_a_scenario_may_name_a_rulebook_file(tmp_path):
    import shutil

    shutil.copy(ROOT / "tests" / "data" / "rulebooks" / "mini-euchre.yaml", tmp_path / "club.yaml")
    scenario = tmp_path / "hand.yaml"
    scenario.write_text("code: club.yaml\ndealer: S\nturned: JH\nlog:\n  - W: order up\n  - S: discard 7C\n  - W: AS\n")
    for command in ("replay", "rule"):
        result = runner.invoke(app, [command, "-f", "json", str(scenario)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)[0]["trump"] == "H"
