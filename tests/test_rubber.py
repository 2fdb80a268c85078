"""The rubber (`games:` in a scenario): a game won by a side that had won one already wins the rubber, and the score
says so with the rubber's points in the code's words (Euchre 1 and 7; Short Whist 1, 9 and 10); Long Whist's laws in
hand say nothing of it, nor does a house that strikes the law; without `games:` nothing is said."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.lawbook.builtin import builtin_rulebook
from adjudicate.record.seats import Side
from adjudicate.ruling.pipeline import rule_scenario
from adjudicate.ruling.scoring import Rubber, rubber_over
from tests.test_decision import HAND, rule_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def meaning(text: str) -> str | None:
    (outcome,) = rule_text(text).score.outcomes
    return outcome.effect.meaning


def test_euchre_third_game_won_with_a_lap_wins_the_rubber_and_a_fourth_game_is_played():
    """Two revokes by EW take NS from nought to six: the game, a lap of one (law 1), and at one game all the rubber
    with its two additional points (law 7); the third game lapping, a fourth is played (law 1): the rubber is not
    said to be over, and the lap is carried to the next game."""
    text = HAND.format(ns=0, ew=0, north="9C") + "games: {NS: 1, EW: 1}\n"
    decision = rule_text(text)
    (outcome,) = decision.score.outcomes
    assert outcome.effect.meaning == (
        "NS win a double game (2 points, law 7: the losers failed to score) and the rubber, taking two additional "
        "points (law 7), and carry 1 point to the next game (a lap, law 1), the penalty scored first (law 4)")
    assert not outcome.effect.rubber_over


def test_euchre_side_without_a_game_wins_no_rubber_and_nothing_is_said():
    text = HAND.format(ns=0, ew=0, north="9C")
    plain = meaning(text)
    assert meaning(text + "games: {NS: 0, EW: 1}\n") == plain
    assert plain is not None and "rubber" not in plain


def test_euchre_the_rubber_ends_only_with_the_third_game_unlapped():
    """Euchre 1: "If the first two games are won by the same players, the third game is played; should the score of
    the third game lap, a fourth game is played"."""
    game = builtin_rulebook("euchre").game
    rubber = lambda ns, ew: Rubber({Side.NS: ns, Side.EW: ew}, "7")  # noqa: E731
    assert rubber_over(game, {Side.NS: 5, Side.EW: 2}, rubber(1, 1), laps=True)
    assert not rubber_over(game, {Side.NS: 6, Side.EW: 2}, rubber(1, 1), laps=True)
    assert not rubber_over(game, {Side.NS: 5, Side.EW: 2}, rubber(1, 0), laps=True)
    assert not rubber_over(game, {Side.NS: 5, Side.EW: 2}, rubber(0, 1), laps=True)
    assert not rubber_over(game, {Side.NS: 4, Side.EW: 2}, rubber(1, 1), laps=True)
    assert not rubber_over(game, {Side.NS: 5, Side.EW: 2}, None, laps=True)


def test_a_house_that_strikes_the_rubber_says_nothing_of_it(tmp_path):
    """Modern club Euchre strikes laws 1 and 7: no rubber."""
    text = (ROOT / "scenarios/euchre/house-modern-renege-costs-two.yaml").read_text(encoding="utf-8")
    path = tmp_path / "modern.yaml"
    path.write_text(text.replace("score: {NS: 6, EW: 3}", "score: {NS: 9, EW: 3}\ngames: {NS: 1, EW: 0}")
                    .split("\nexpect:")[0] + "\n", encoding="utf-8")
    decision = rule_scenario(path)
    assert decision.score is not None
    meanings = [outcome.effect.meaning for outcome in decision.score.outcomes]
    assert any(meanings)
    assert not any("rubber" in (said or "") for said in meanings)


def test_short_whist_second_game_of_a_side_ends_the_rubber_without_law_10():
    """Short Whist 1: the first two games won by the same players, the third is not played; law 9's rubber points;
    law 10 only where the rubber had three games."""
    path = ROOT / "scenarios/short-whist/honours-win-the-third-game-and-the-rubber.yaml"
    text = path.read_text(encoding="utf-8").replace("games: {NS: 1, EW: 1}", "games: {NS: 1, EW: 0}")
    said = meaning(text)
    assert said is not None and said.endswith("in addition to the value of their games (law 9)")
    assert "law 10" not in said


def test_short_whist_rubber_over_says_the_players_cut_for_a_fresh_rubber():
    result = runner.invoke(app, ["rule", str(ROOT / "scenarios/short-whist/honours-win-the-third-game-and-the-rubber.yaml")])
    assert result.exit_code == 0, result.output
    assert "NEXT: Record the score above: the rubber is over, and the players cut for a fresh rubber." \
        in result.stdout


def test_long_whist_says_nothing_of_the_rubber():
    """The laws of Long Whist in hand say nothing of the rubber: `games:` changes nothing in its rulings."""
    text = (ROOT / "scenarios/long-whist/honours-called-at-eight.yaml").read_text(encoding="utf-8")
    assert "\nscore:" in text and "\ngames:" not in text
    before = rule_text(text)
    after = rule_text(text.replace("\nscore:", "\ngames: {NS: 1, EW: 1}\nscore:", 1))
    assert before.score is not None and after.score is not None
    meanings = [outcome.effect.meaning for outcome in before.score.outcomes]
    assert any("win the game" in (said or "") for said in meanings)
    assert [outcome.effect.meaning for outcome in after.score.outcomes] == meanings
    assert not any(outcome.effect.rubber_over for outcome in after.score.outcomes)
