"""A card missing from a hand is still his; a card named in the hand is exposed; a second card to a trick
already complete is exposed, not led (issue 14): as `adjudicate rule` and `replay` show them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

EUCHRE_SHORT = """\
code: euchre
dealer: S
score: {NS: 0, EW: 2}
hands:
  W: [AS, 7S, AH, KD, 8C]
  N: [KS, TH, QD, 9C, 7D]
  E: [8H, JD, AC, TC]        # four cards: the queen of spades is missing
  S: [TS, JH, KH, 7C, 9D]
turned: 9H
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: KS
  - E: TC
  - S: TS
  - quit
  - W: AH
  - N: TH
  - E: 8H
  - S: JH
  - quit
  - S: KH
  - W: 8C
  - N: 9C
  - E: JD
  - quit
  - E: AC
  - S: 9D
  - W: KD
  - N: 7D
  - quit
  - S: 9H              # East, who won trick 4, has no card: the lead passes to South
  - W: 7S
  - N: QD
  - quit
  - E: FOUND
  - N: claim revoke E
"""


def ruled(tmp_path: Path, text: str, command: str = "rule") -> dict:
    path = tmp_path / "hand.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, [command, "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)  # an array, one record a file
    return record


def kinds(ruling: dict) -> list[tuple]:
    return sorted((item["kind"], item["seat"], item["trick"], item.get("established")) for item in ruling["irregularities"])


def laws(ruling: dict) -> list[str]:
    return [law["id"] for law in ruling["laws"]]


def test_at_euchre_a_card_found_on_the_floor_after_the_hand_was_not_held_so_no_revoke(tmp_path):
    # Law 62: a revoke is a renounce "holding" a card of the suit led; the code has no Short Whist 46.
    ruling = ruled(tmp_path, EUCHRE_SHORT.replace("FOUND", "found QS floor"))
    assert kinds(ruling) == [("missing_card", "E", None, None)]
    # Law 66's search is not offered: the card is found, and a search of the tricks can prove nothing.
    assert laws(ruling) == ["2", "62", "90"]
    # Two forfeited for the short hand (law 90), and EW score nothing of their point.
    [outcome] = ruling["score"]["outcomes"]
    assert outcome["after"] == {"NS": 2, "EW": 2}
    # The last trick is complete with three cards, South's lead: no omitted play, no lead out of turn.
    replayed = ruled(tmp_path, EUCHRE_SHORT.replace("FOUND", "found QS floor"), "replay")
    last = replayed["tricks"][-1]
    assert (last["leader"], last["complete"], len(last["cards"])) == ("S", True, 3)


def test_at_euchre_a_card_mixed_with_a_trick_makes_him_answerable_for_his_revoke(tmp_path):
    # Law 61: "mix his trump or other card with a trick ... he is answerable for all the consequent revokes".
    ruling = ruled(tmp_path, EUCHRE_SHORT.replace("FOUND", "found QS trick"))
    assert ("revoke", "E", 1, True) in kinds(ruling)
    assert {"61", "62", "63", "64"} <= set(laws(ruling))


def test_at_euchre_the_card_wanting_not_found_is_an_imperfect_pack(tmp_path):
    # Law 33: a new deal by the same dealer, the points of previous hands standing; no revoke (law 62).
    ruling = ruled(tmp_path, EUCHRE_SHORT.replace("FOUND", "missing QS"))
    assert kinds(ruling) == [("missing_card", "E", None, None)]
    assert laws(ruling) == ["33", "62"]
    assert [outcome["after"] for outcome in ruling["score"]["outcomes"]] == [{"NS": 0, "EW": 2}]


def test_at_euchre_a_card_found_in_the_pack_was_never_his_to_hold(tmp_path):
    ruling = ruled(tmp_path, EUCHRE_SHORT.replace("FOUND", "found QS pack"))
    assert kinds(ruling) == [("missing_card", "E", None, None)]
    assert laws(ruling) == ["2", "62", "90"]


def test_short_whist_quoted_law_46_and_found_no_revoke_now_it_finds_it(tmp_path):
    text = (ROOT / "scenarios" / "short-whist" / "missing-card-found-makes-a-revoke.yaml").read_text(encoding="utf-8")
    text = text[:text.index("\nexpect:")] + "\n"
    ruling = ruled(tmp_path, text)
    assert ("revoke", "N", 6, True) in kinds(ruling)
    assert {"46", "71", "72", "73"} <= set(laws(ruling))
    # Without the card found, North's twelve cards are only a short hand: law 46, and no revoke.
    lines = [line for line in text.splitlines() if "found 9D" not in line and line != "  - N: 9D"]
    before = ruled(tmp_path, "\n".join(lines) + "\n")
    assert "46" in laws(before)
    assert not [item for item in before["irregularities"] if item["kind"] == "revoke"]


PARTLY_KNOWN = """\
code: euchre
dealer: S
hands:
  W: [AS, 7S, AH, KD, 8C]
  N: [KS, 9C, ...]
  E: [QS, 8H, JD, AC, TC]
  S: [TS, JH, KH, 7C, 9D]
turned: 9H
log:
  - W: order up
  - S: discard 7C
  - W: AS
  - N: DROPPED
  - N: KS
  - E: QS
  - S: TS
  - quit
  - W: KD
  - N: 9C
  - E: 8H
  - S: 9D
  - quit
"""


def test_a_card_dropped_below_the_table_stays_his(tmp_path):
    ruling = ruled(tmp_path, PARTLY_KNOWN.replace("DROPPED", "drop below QD"))
    assert kinds(ruling) == [("card_dropped_below", "N", 1, None), ("revoke", "N", 2, True)]
    assert ruling["unknown"] == []
    # Not dropped, North's diamonds are unknown: the revoke is a question, not a fact.
    open_question = ruled(tmp_path, PARTLY_KNOWN.replace("  - N: DROPPED\n", ""))
    assert [item["question"] for item in open_question["unknown"]]


SIMPLE = """\
code: euchre
dealer: S
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
  - E: QS
  - S: TS
"""


def test_a_card_named_in_the_hand_is_not_exposed_nor_one_played(tmp_path):
    # Law 46 (Short Whist 56, note 22): a card is exposed when shown, not when named while it stays in the hand.
    ruling = ruled(tmp_path, SIMPLE + "  - E: names AC\n")
    assert kinds(ruling) == []
    assert ruling["remedies"] == [] and "46" not in laws(ruling)
    assert kinds(ruled(tmp_path, SIMPLE + "  - E: names QS\n")) == []


def test_a_second_card_to_a_complete_trick_is_exposed_and_not_a_lead(tmp_path):
    second = ruled(tmp_path, SIMPLE + "  - E: second card AC\n  - W: AH\n")
    assert kinds(second) == [("exposed_card", "E", 1, None)]
    assert laws(second) == ["46", "61"]  # law 61: "If any one play two cards to the same trick"
    led = ruled(tmp_path, SIMPLE + "  - E: AC\n")
    assert kinds(led) == [("lead_out_of_turn", "E", 2, None)]
    assert "52" in laws(led) and "46" not in laws(led)


@pytest.mark.parametrize("act, message", [
    ("E: found AC floor", "13:5: E found AC floor: AC is listed in the hand of E"),
    ("E: found AS", "13:5: E found AS: AS is in the hand of W (line 5), not missing from his"),
    ("W: found QS", "13:5: W found QS: the hand of W as listed (line 5) already holds 5 cards"),
    ("E: found 9H", "13:5: E found 9H: 9H is the turned card"),
    ("E: found QS attic", "13:8: 'found' says where the card was found: one of floor, trick, pack, table"),
    ("E: second card QS", "13:5: E second card QS: a second card is one played to the trick just completed"),
    ("E: names AS", "13:5: E names AS, but AS is the hand of W"),
    ("E: name KD", "13:8: 'name' takes a suit (Euchre's making of the trump, as 'name hearts'); to name a card he "
                   "holds, write 'names KD'"),
])
def test_impossible_records_are_errors_with_their_place(tmp_path, act, message):
    text = EUCHRE_SHORT.split("  - W: AS\n")[0].replace("  - S: discard 7C\n", "  - S: discard 7C\n  - " + act + "\n")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:")
    assert message in result.stderr
    assert "Traceback" not in result.stderr
