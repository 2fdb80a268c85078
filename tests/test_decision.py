"""The decision holds together: laws defeat laws, penalties add up, a choice made is final, the hand is scored once.

Each test rules a hand a director would recognise and asserts what the ruling prints
or gives as JSON: who may choose what, the laws not applied and why, and the score.
The last tests walk every shipped scenario and every defeat relation of the codes.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.lawbook.conditions import evaluate
from adjudicate.ruling.decision import decide
from adjudicate.play.facts import detect
from adjudicate.ruling.matcher import bindings, match, offender_of
from adjudicate.ruling.pipeline import rule_scenario
from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook
from adjudicate.record.scenario import parse_scenario
from adjudicate.ruling.scoring import Penalty, final_score, hand_score
from adjudicate.record.seats import Side
from adjudicate.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))
runner = CliRunner()

# East trumps a spade at trick 1 holding the queen; West throws a diamond to a spade at trick 3 holding the seven.
HAND = """\
code: euchre
dealer: S
score: {{NS: {ns}, EW: {ew}}}
hands:
  W: [AS, 7S, AH, KD, 8C]
  N: [KS, TH, QD, 9C, 7D]
  E: [QS, 8H, JD, AC, TC]
  S: [TS, JH, KH, 7C, 9D]
turned: 9H
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: KS
  - E: 8H
  - S: TS
  - quit
  - E: AC
  - S: 9D
  - W: 8C
  - N: {north}
  - quit
  - E: QS
  - S: KH
  - W: KD
  - N: 7D
  - quit
  - N: claim revoke
"""


def rule_text(text: str):
    scenario = parse_scenario(text, "<test>")
    rulebook = builtin_rulebook(scenario.code)
    table = replay(scenario, rulebook.game)
    return decide(rulebook, table, detect(table))


def ruling_json(path: Path) -> dict:
    result = runner.invoke(app, ["rule", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)  # an array, one record a file
    return record


def afters(decision) -> list[dict[str, int]]:
    return [{str(side): points for side, points in outcome.effect.score_after.items()}
            for outcome in decision.score.outcomes]


def test_two_revokes_by_one_side_give_two_penalties_that_add_up():
    """Euchre 63: "the penalty may be claimed as often as the revoke is repeated": 3 + 3, and the game."""
    decision = rule_text(HAND.format(ns=0, ew=0, north="9C"))
    revokes = [i for i in decision.facts.irregularities if i.kind == "revoke"]
    assert [(str(r.seat), r.trick) for r in revokes] == [("E", 1), ("W", 3)]
    penalties = [r for r in decision.remedies if r.law.id == "63"]
    assert [(r.chooser, r.target.trick) for r in penalties] == [("NS", 1), ("NS", 3)]
    (outcome,) = decision.score.outcomes
    assert [remedy.law.id for remedy, _ in outcome.choices] == ["63", "63"]
    assert afters(decision) == [{"NS": 6, "EW": 0}]
    # Law 1 and Technical Terms, "Lap": the sixth point is carried to the next game.
    assert outcome.effect.meaning == ("NS win a double game (2 points, law 7: the losers failed to score) and carry 1 "
                                      "point to the next game (a lap, law 1), the penalty scored first (law 4)")


def test_two_revokes_against_one_cancel_one_pair_and_one_penalty_remains():
    """Euchre 71: "An equal number of revokes on different sides cancel each other": two against one leaves one."""
    decision = rule_text(HAND.format(ns=2, ew=2, north="QD"))
    assert sorted((str(i.seat), i.trick) for i in decision.facts.irregularities if i.kind == "revoke") == \
        [("E", 1), ("N", 2), ("W", 3)]
    (cancelled,) = [item for item in decision.not_applied if item.law.id == "63"]
    assert (cancelled.law.id, cancelled.by.id, cancelled.defeat.how) == ("63", "71", "cancels")
    assert sorted((str(t.seat), t.trick) for t in cancelled.targets) == [("E", 1), ("N", 2)]
    assert "63" in decision.law_ids  # it still applies to West's revoke
    (penalty,) = [r for r in decision.remedies if r.law.id == "63"]
    assert (penalty.chooser, str(penalty.target.seat), penalty.target.trick) == ("NS", "W", 3)
    assert afters(decision) == [{"NS": 5, "EW": 2}]


@pytest.mark.parametrize("north", ["9C", "QD"])
def test_repeated_revokes_read_right_in_every_format(tmp_path, north):
    path = tmp_path / "revokes.yaml"
    path.write_text("title: Revokes\n" + HAND.format(ns=2, ew=2, north=north))
    text = " ".join(runner.invoke(app, ["rule", "--explain", str(path)]).stdout.split())
    markdown = " ".join(runner.invoke(app, ["rule", str(path), "-f", "markdown"]).stdout.split())
    record = ruling_json(path)
    if north == "QD":
        said = ("Laws 4 (Revoke penalty scores first) and 63 (Penalty for a revoke) do not apply to the revoke by "
                "East at trick 1 and the revoke by North at trick 2: an equal number of revokes on different sides "
                "cancel each other (law 71 cancels them).")
        assert said in text
        assert "Law 63, for the revoke by West at trick 3: applied, the law leaving no choice: - add 3 points to their own score" in text
        assert "With law 63's 3 points to NS (for the revoke by West at trick 3): NS 5, EW 2: NS win a single " \
               "game (1 point, law 7), the penalty scored first (law 4)." in text
        assert [o["after"] for o in record["score"]["outcomes"]] == [{"NS": 5, "EW": 2}]
    else:
        assert "does not apply" not in text
        assert "With law 63's 3 points to NS (for the revoke by East at trick 1); and law 63's 3 points to NS " \
               "(for the revoke by West at trick 3): NS 8, EW 2: NS win a single game (1 point, law 7) and carry 3 " \
               "points to the next game (a lap, law 1), the penalty scored first (law 4)." in text
        assert [[c["law"] for c in o["choices"]] for o in record["score"]["outcomes"]] == [["63", "63"]]


def test_equal_revokes_cancel_and_the_table_says_so():
    path = ROOT / "scenarios" / "euchre" / "revokes-on-both-sides.yaml"
    record = ruling_json(path)
    assert [r["law"] for r in record["remedies"]] == ["70", "70"]  # either side may have the hand played out
    assert record["not_applied"][1:] == [{"law": "63", "title": "Penalty for a revoke", "by": "71", "how": "cancels",
                                      "what": "law", "for": [],
                                      "because": "an equal number of revokes on different sides cancel each other"}]
    short = " ".join(runner.invoke(app, ["rule", str(path)]).stdout.split())
    assert "The revokes are established. An equal number of revokes on different sides cancel each other. Either " \
           "side may require the hand to be played out. The score if the hand stops here: North–South 2, East–West " \
           "2." in short and "NOT APPLIED" not in short
    text = runner.invoke(app, ["rule", "--explain", str(path)]).stdout
    assert "Laws 4 (Revoke penalty scores first) and 63 (Penalty for a revoke) do not apply: an equal number of " \
           "revokes on different sides cancel each other (law 71 cancels them)." in " ".join(text.split())
    assert "Law 63, for" not in text  # no penalty to choose or apply: only law 70's election is open


def test_a_claim_after_the_cut_bars_the_penalty():
    record = ruling_json(ROOT / "scenarios" / "euchre" / "revoke-claimed-after-the-cut.yaml")
    assert {item["law"] for item in record["not_applied"]} >= {"63"}
    assert all(item["by"] == "68" for item in record["not_applied"])
    # Law 68 bars the claim, not the establishment: law 64 still says the revoke is established.
    assert "64" in [law["id"] for law in record["laws"]]
    assert "63" not in [law["id"] for law in record["laws"]]
    # Law 66's search is "at the end of the hand": the cards mixed and cut, there are no tricks to search.
    assert "66" not in [law["id"] for law in record["laws"]] + [item["law"] for item in record["not_applied"]]
    assert not [r for r in record["remedies"] if r["law"] == "63"]


def test_consulting_on_the_penalty_loses_it():
    """Euchre 85: "If they do so consult, they lose their right"."""
    record = ruling_json(ROOT / "scenarios" / "euchre" / "consulted-on-the-penalty.yaml")
    assert record["remedies"] == []
    assert [(item["law"], item["by"], item["how"]) for item in record["not_applied"]] == [("52", "85", "forfeits")]


def test_a_lead_out_of_turn_without_consulting_keeps_its_choice():
    """The near miss: the same lead out of turn, and no consultation: law 52's two penalties are offered."""
    text = (ROOT / "scenarios" / "euchre" / "consulted-on-the-penalty.yaml").read_text()
    decision = rule_text(text.replace("  - E: consult\n", ""))
    assert [(r.law.id, r.chooser, sorted(o.option.kind for o in r.options)) for r in decision.remedies] == \
        [("52", "EW", ["call_card", "call_suit"])]
    assert decision.not_applied == ()


def test_a_penalty_demanded_in_the_log_is_made_and_not_offered_again():
    record = ruling_json(ROOT / "scenarios" / "euchre" / "exposed-card-called.yaml")
    (remedy,) = [r for r in record["remedies"] if r["law"] == "46"]
    assert remedy["made"] == {"option": "call_card", "entry": 4}
    assert remedy["for"] == [{"kind": "exposed_card", "seat": "N", "trick": 1, "entry": 3}]


def test_the_hand_is_scored_once():
    """Euchre 2: the makers euchred, the adversaries score two: NS at 1 go to 3, not 5."""
    record = ruling_json(ROOT / "scenarios" / "euchre" / "makers-euchred-hand-played-out.yaml")
    assert record["remedies"] == []  # the hand's points are the score, not a choice
    assert record["score"]["hand"] == {"NS": 2, "EW": 0}
    assert [o["after"] for o in record["score"]["outcomes"]] == [{"NS": 3, "EW": 4}]
    assert record["score"]["hand_laws"] == ["2"]


# --- the score never double-counts ----------------------------------------------------------

ORACLE_DEALS = json.loads((ROOT / "tests" / "data" / "oracle" / "euchre.json").read_text())["records"]
PLAYED = [record for record in ORACLE_DEALS if record.get("outcome") != "passed out"]
EUCHRE = builtin_rulebook("euchre")


def _table(record: dict):
    return replay(parse_scenario(record["scenario"], f"<oracle {record['seed']}>"), EUCHRE.game)


@settings(max_examples=150, deadline=None)
@given(deal=st.sampled_from(PLAYED), ns=st.integers(0, 4), ew=st.integers(0, 4),
       penalties=st.lists(st.tuples(st.sampled_from(["score", "forfeit"]), st.sampled_from([Side.NS, Side.EW]),
                                    st.integers(1, 5)), max_size=3))
def test_penalties_and_the_hand_never_double_count(deal, ns, ew, penalties):
    """Random played-out hands (OpenSpiel's), random penalties: the final score is the score before, plus each
    penalty once, plus the hand's own points once, unless a penalty reached game first (Euchre 4)."""
    table = _table(deal)
    hand = hand_score("euchre", EUCHRE.game, table)
    assert hand is not None and sum(hand.values()) in (1, 2, 4)
    before = {Side.NS: ns, Side.EW: ew}
    given_penalties = [Penalty(kind, points, to, to.other) for kind, to, points in penalties]
    after = final_score("euchre", EUCHRE.game, table, before, given_penalties).score_after
    assert after is not None
    expected = dict(before)
    for _, to, points in penalties:
        expected[to] += points
    if max(expected.values()) < EUCHRE.game.game_points:
        for side in (Side.NS, Side.EW):
            expected[side] += hand[side]
    assert after == expected


@pytest.mark.parametrize("record", PLAYED[:20], ids=lambda r: f"seed-{r['seed']}")
def test_a_legal_hand_ruled_from_any_score_adds_its_points_once(record):
    table = _table(record)
    hand = hand_score("euchre", EUCHRE.game, table)
    assert hand is not None
    for ns, ew in ((0, 0), (1, 3), (4, 4)):
        scenario = msgspec.structs.replace(table.scenario, score={Side.NS: ns, Side.EW: ew})
        ruled = decide(EUCHRE, msgspec.structs.replace(table, scenario=scenario), detect(table))
        (outcome,) = ruled.score.outcomes
        assert outcome.effect.score_after == {Side.NS: ns + hand[Side.NS], Side.EW: ew + hand[Side.EW]}


# --- no ruling offers what a law applying to the same hand defeats ----------------------------

@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_no_ruling_offers_what_a_law_that_applies_defeats(path):
    """Walk every defeat relation of the ruling's rulebook: where the defeating law applies (and its `when`
    holds), the law it defeats is not cited, and offers and declares nothing, for what the defeat reaches."""
    decision = rule_scenario(str(path))
    rulebook = decision.rulebook
    standing = {item.law.id: item for item in (*decision.laws, *decision.context)}
    matched = match(rulebook, decision.table, decision.facts)
    for law in rulebook.laws:
        if law.id not in standing:
            continue
        for defeat in law.defeats:
            if defeat.when is not None:
                found = [m for m in evaluate(defeat.when, matched.hand) if m.certain]
                if not found:
                    continue
                attackers = bindings(found)
            else:
                attackers = bindings(standing[law.id].matches)
            offered = [r for r in decision.remedies if r.law.id == defeat.law]
            declared = [d for d in decision.declarations if d.law.id == defeat.law]
            scoped = defeat.same is not None or defeat.pairs
            if not scoped:
                if defeat.what == "law":
                    assert defeat.law not in standing, f"law {defeat.law} is cited though law {law.id} defeats it"
                if defeat.what in ("law", "remedies"):
                    assert not offered, f"law {defeat.law} offers a remedy though law {law.id} defeats it"
                if defeat.what in ("law", "rulings"):
                    assert not declared, f"law {defeat.law} declares though law {law.id} defeats it"
                continue
            reached = {id(t) for item in decision.not_applied if item.law.id == defeat.law and item.by is law
                       for t in item.targets}
            for remedy in offered:
                assert id(remedy.target) not in reached, \
                    f"law {defeat.law} offers a remedy for what law {law.id} defeats"
                if defeat.same == "offender" and not defeat.pairs and defeat.what != "rulings":
                    victim = offender_of(remedy.target)
                    assert not any(offender_of(a) is victim for a in attackers if offender_of(a) is not None), \
                        f"law {defeat.law} offers a remedy against {victim} though law {law.id} defeats it"


def test_every_defeat_relation_names_a_law_of_its_code():
    for code in builtin_codes():
        rulebook = builtin_rulebook(code)
        for law in rulebook.laws:
            for defeat in law.defeats:
                assert defeat.law in rulebook, f"{code}:{law.id} defeats {defeat.law}, which is not a law"
                assert defeat.because.strip()


# --- only real questions: no open question is one the record answers --------------------------

import re  # noqa: E402

_ANSWERED_BY = [
    # (what the question asks about, the record that answers it)
    (re.compile(r"\b(hold|held|holding|none of (it|the suit)|oblige[ds]? him to revoke|their honours|an honour)\b"),
     lambda table: len(table.scenario.hands) == 4 and all(h.complete for h in table.scenario.hands.values()),
     "every hand is listed whole"),
    (re.compile(r"score of four|score before the hand"),
     lambda table: table.scenario.score is not None, "the scenario gives `score:`"),
    (re.compile(r"\b(touch\w* the cards (first|before)|(already )?shuffled (first|already|the pack for this deal))"),
     lambda table: any(m.act.verb in ("touch", "shuffle") for m in table.moments), "the log shows who did it"),
    (re.compile(r"turned up before|after the trump card of the following deal"),
     lambda table: any(m.act.verb == "turn" and m.phase == "after" for m in table.moments),
     "the log shows the next deal's turn-up"),
    (re.compile(r"\bmix(ed)? the cards\b"),
     lambda table: any(m.act.verb == "mix" and m.act.seat is not None for m in table.moments),
     "the log names who mixed"),
]


@pytest.mark.parametrize("path", [p for p in SCENARIOS if "/house/" not in p.as_posix()],
                         ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_no_open_question_is_answered_by_the_record(path):
    """Issue 14: a question is asked only when the record cannot answer it. Each open question is matched to
    what it asks about; if the record holds that (every hand listed, the score given, the acts in the log),
    the question should have been answered from it."""
    decision = rule_scenario(str(path))
    for question in decision.unknown:
        for asks, answered, why in _ANSWERED_BY:
            if asks.search(question.question.lower()):
                assert not answered(decision.table), \
                    f"{question.question!r} (laws {[law.id for law in question.laws]}) is asked, but {why}"


@pytest.mark.parametrize("name, open_", [("revoke-corrected-before-the-quit-fourth-hand-may-withdraw", True),
                                         ("revoke-corrected-in-time", False),
                                         ("revoke-saved-by-partners-question", False)])
def test_short_whist_76_withdrawal_only_while_the_trick_is_on_the_table(name, open_):
    """Short Whist 76: "any player or players who have played after him may withdraw their cards": to the
    trick in which he renounced, before it is turned and quitted; after, nothing is left to withdraw."""
    decision = rule_scenario(ROOT / "scenarios" / "short-whist" / f"{name}.yaml")
    kinds = {item.declaration.kind for item in decision.declarations}
    assert ("cards_may_be_withdrawn" in kinds) is open_


@pytest.mark.parametrize("name, called, uncalled", [
    ("game-claimed-then-withdrawn", {Side.NS: 5, Side.EW: 3}, {Side.NS: 3, Side.EW: 3}),
    ("honours-not-yet-claimed-at-the-end-of-the-hand", {Side.NS: 3, Side.EW: 3}, {Side.NS: 1, Side.EW: 3})])
def test_short_whist_honours_still_claimable_score_with_and_without_the_call(name, called, uncalled):
    """Short Whist 3, 5, 6: a side that holds three honours and has not called them may until the next turn-up;
    the score is given with the call (two points, scored last) and without it."""
    decision = rule_scenario(ROOT / "scenarios" / "short-whist" / f"{name}.yaml")
    [outcome] = decision.score.outcomes
    assert outcome.effect.score_after == called
    assert outcome.uncalled is not None and outcome.uncalled.score_after == uncalled


def test_euchre_39_is_not_asked_of_a_card_the_hands_place_with_a_player():
    """Euchre 39, "in turning the trump card, expose any other card of the pack": a card dealt to a hand has left
    the pack, so the record answers no and only law 37 is open; with the hands not given, it is asked."""
    text = (ROOT / "scenarios" / "euchre" / "dealer-exposes-a-card-in-the-deal.yaml").read_text()
    decision = rule_text(text)
    assert sorted(law.id for pending in decision.unknown for law in pending.laws) == ["37"]
    (exposed,) = decision.facts.irregularities
    assert exposed.get("in_turning") is False
    unlisted = text[:text.index("hands:")] + text[text.index("turned:"):]
    decision = rule_text(unlisted)
    assert sorted(law.id for pending in decision.unknown for law in pending.laws) == ["37", "39"]
    # Shown while the dealing went on: not in turning the trump either.
    decision = rule_text(unlisted.replace("  - S: expose TS\n  - turn\n", "  - S: expose TS\n  - S: deal 3-2\n  - turn\n"))
    assert [law.id for pending in decision.unknown for law in pending.laws] == ["37"]


def test_euchre_55_every_demand_of_law_83_comes_to_the_one_card_he_may_play():
    """East holds one spade, the queen: highest, lowest, win or lose, he plays it, and West's ace wins the trick.
    Given a second spade, the demands differ and nothing of the kind is said."""
    text = (ROOT / "scenarios" / "euchre" / "called-attention-partner-yet-to-play.yaml").read_text()
    decision = rule_text(text)
    assert "55" in [applied.law.id for applied in decision.laws]
    result = runner.invoke(app, ["rule", "-"], input=text)
    assert "whichever is required, he plays the queen of spades, and West's ace of spades wins trick 1" in \
        " ".join(result.stdout.split())
    two = text.replace("E: [QS, 8H, JD, AC, TC]", "E: [QS, 8S, JD, AC, TC]").replace(
        "N: [KS, TH, QD, 9C, 7D]", "N: [KS, TH, QD, 9C, 8H]")
    decision = rule_text(two)
    assert "55" not in [applied.law.id for applied in decision.laws]
    assert not any(item.declaration.kind == "one_lawful_card" for item in decision.declarations)
