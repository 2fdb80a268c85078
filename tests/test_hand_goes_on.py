"""Whether the hand goes on, said once and the same in both forms (issue 20): a record that stops mid-hand gives
the score so far and how play goes on; a hand played out or ended gives the score after it and who deals next;
a new deal says the same dealer deals again. And the short ruling's words for who chooses and what is declared.
"""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from adjudicate import api
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


def _rule(scenario: str, *flags: str) -> str:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, ["rule", *flags, f"scenarios/{scenario}.yaml"], prog_name="adjudicate")
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.stdout
    return " ".join(result.stdout.split())


def test_a_record_that_stops_mid_hand_gives_the_score_so_far_and_who_plays_next():
    text = _rule("euchre/card-named-while-in-the-hand")
    assert "The score so far: North–South 1, East–West 1." in text
    assert "NEXT: Play on: West leads to trick 2; the hand is scored at its end." in text
    assert "after the hand" not in text and "next deal" not in text


def test_the_long_form_says_the_same_of_a_hand_that_goes_on():
    text = _rule("euchre/card-named-while-in-the-hand", "--explain")
    assert "The score: NS 1, EW 1 so far; the hand goes on" in text
    assert "After the hand: NS 1, EW 1" not in text


def test_a_trick_begun_goes_on_from_the_player_whose_turn_it_is():
    text = _rule("short-whist/trump-card-taken-up-dispute-before-his-turn")
    assert "Play on: East plays to trick 1" in text


def test_a_deal_that_holds_good_is_played_out_with_the_forfeit_already_due():
    # Euchre 90: "the deal holds good, and the party so offending forfeits two".
    text = _rule("euchre/six-cards-dealt")
    assert "The deal holds good." in text and "North–South forfeit two points to East–West" in text
    assert "The score so far: North–South 0, East–West 2." in text
    assert "NEXT: Play the hand out; it is scored at its end." in text


def test_a_hand_ended_gives_the_score_after_it_and_the_next_dealer():
    text = _rule("euchre/misdeal-two-two-one")
    assert "NEXT: Gather the cards for the next deal: West deals." in text
    assert "so far" not in text and "Play on" not in text


def test_a_new_deal_is_dealt_by_the_same_dealer_and_leaves_the_score_as_it_stood():
    # Short Whist 41: the adversaries "may exact a new deal"; law 37's note 11: "the same dealer must deal again".
    text = _rule("short-whist/trump-card-looked-at-in-dealing")
    assert "East–West chose to claim a new deal" in text
    assert "The hand is not scored; the score stands: North–South 2, East–West 1." in text
    assert "South deals again." in text


def test_a_revoke_established_mid_hand_offers_the_revoking_side_the_play_out_and_scores_the_penalty_first():
    # Euchre 70: "A revoking player and his partner may require the hand ... to be played out"; law 4: "The
    # penalty of a revoke takes precedence of all other scores".
    text = _rule("euchre/revoke-established")
    assert "East–West may require the hand to be played out." in text
    assert "The score with the penalty: North–South 5, East–West 3: North–South win a single game, the penalty" \
           " scored first." in text
    # Laws 4 and 1 ("Lap"): the hand played out is scored after the penalty, the winners' points carried.
    assert "If they do, South plays to trick 2, and the hand is scored at its end after the penalty (law 4)" in text
    assert "if East–West are euchred, North–South carry two points to the next game (a lap, law 1)" in text
    assert "if East–West take three tricks or more, East–West's points come after the game they lost" in text
    assert "NEXT: East–West may require the hand played out; if they do not, West deals next. If they do" in text
    assert "after the hand" not in text
    laws = api.rule(ROOT / "scenarios/euchre/revoke-established.yaml").law_ids
    assert "4" in laws and "70" in laws


def test_the_play_out_is_not_offered_once_the_cards_are_mixed():
    laws = api.rule(ROOT / "scenarios/euchre/revoke-cards-mixed-after-claim.yaml").law_ids
    assert "70" not in laws and "4" not in laws


def test_short_whist_plays_on_and_the_claimants_choose_at_the_end_of_the_hand():
    # Short Whist 72 I: the adversaries, "at the end of the hand, may either take three tricks ..."; so the hand
    # goes on, and law 79 (as Euchre 70) only lets the revoking side forbid stopping it.
    text = _rule("short-whist/revoke-established")
    assert "North–South choose one of the penalties below for East's revoke at the end of the hand" in text
    assert "NEXT: Play on: South plays to trick 2. At the end of the hand North–South announce their choice of" \
           " penalty (law 72)" in text
    assert "East–West may require the hand played out, so it is not stopped before its end (law 79)" in text
    assert "if they do not" not in text


def test_a_lone_player_chooses_alone_and_is_not_told_to_agree_with_his_partner():
    text = _rule("euchre/adversary-exposes-a-card-against-lone-hand")
    assert "West may call the card" in text and "East–West may" not in text
    text = _rule("euchre/lead-before-discard-against-lone-third-hand-dealer-yet-to-play")
    assert "East chooses one:" in text and "East announces his choice" in text
    assert "partners may not consult" not in text and "E choose" not in text


def test_the_offenders_partner_is_named_and_a_declared_loss_is_not_offered():
    text = _rule("short-whist/fourth-hand-before-partner-called-in-time")
    assert "chose to call on North not to win the trick" in text and "call on his partner" not in text
    text = _rule("long-whist/reminded-partner-to-call")
    assert "North–South lose one point for South's reminder" in text and "may the offender's side" not in text


def test_two_revokes_are_said_in_the_plural_with_a_penalty_each():
    text = _rule("euchre/two-revokes-by-one-side")
    assert "The revokes are established." in text
    assert "add three points to their score for each of East's revoke and West's revoke" in text


def test_a_new_deal_claimed_gathers_the_cards_for_the_same_dealer():
    # Euchre 35 with 33: the new deal is by the same dealer; the hand is not played.
    for scenario in ("euchre/card-exposed-in-the-deal", "euchre/card-exposed-in-the-deal-after-both-sides-touched"):
        text = _rule(scenario)
        assert "NEXT: Gather the cards; South deals again." in text, scenario
        assert "Play on" not in text and "Play the hand out" not in text, scenario


def test_a_deal_out_of_turn_stopped_is_dealt_by_the_player_whose_deal_it_is():
    # Euchre 40, Short Whist 48: stopped before the trump card is turned, the deal out of turn is not played.
    for scenario in ("euchre/deal-out-of-turn-stopped", "short-whist/deal-out-of-turn-stopped"):
        text = _rule(scenario)
        assert "NEXT: Gather the cards; South, whose deal it is, deals." in text, scenario
        assert "Play the hand out" not in text and "so far" not in text, scenario


def test_a_new_deal_still_open_gives_the_table_both_ways():
    text = _rule("short-whist/card-of-the-other-pack-in-the-hand")
    assert "NEXT: East–West announce their choice: if a new deal, South deals again; if the deal stands, play on: " \
           "West leads to trick 2; the hand is scored at its end." in text
    text = _rule("long-whist/honours-called-not-at-eight")
    assert "If a new deal is claimed, the hand is not scored and the score stands: North–South 6, East–West 3." in text
    assert "The hand is not scored; the score stands" not in text
    assert "NEXT: East–West say whether they claim it: if a new deal, South deals again; if the deal stands, " \
           "play on: West leads to trick 2" in text


def test_a_lead_out_of_turn_not_followed_by_all_is_led_again_by_the_rightful_leader():
    # Euchre 52, 53: the card led out of turn may be called; the rightful leader leads.
    text = _rule("euchre/card-led-after-a-complete-trick")
    assert "play on: West leads to trick 2; if North–South call the card, East's ace of clubs lies face up, liable to be called; if they choose otherwise, East takes it back;" in text
    assert "South plays to trick 2" not in text
    # Short Whist 63: the cards played to the false lead are taken back; West leads afresh.
    text = _rule("short-whist/lead-out-of-turn-second-and-third-played")
    assert "West leads to trick 1; if East–West call the card, North's queen of spades lies face up, liable to be " \
           "called; if they choose otherwise, North takes it back (the cards played to it are taken back)" in text
    # Euchre 85: the penalty lost by consulting, the card goes back into the hand.
    text = _rule("euchre/consulted-on-the-penalty")
    assert "NEXT: Play on: West leads to trick 1; North takes back the king of spades;" in text


def test_a_lead_out_of_turn_that_all_followed_stands():
    # Euchre 53: "the other three have followed him, the trick is complete".
    text = _rule("euchre/lone-player-leads-out-of-turn-and-both-follow")
    assert "NEXT: Play on: West leads to trick 2; the hand is scored at its end." in text
    assert "liable to be called" not in text.split("NEXT:")[1]


def test_after_the_next_trump_card_is_turned_the_next_hand_is_played_on():
    # Euchre 5, Short Whist 6: the next deal's trump card turned, its dealer has dealt and the score stands.
    for scenario in ("euchre/error-in-the-score-after-the-next-turn", "short-whist/game-claimed-after-the-next-turn-up",
                     "short-whist/game-claimed-then-corrected-after-the-turn-up"):
        text = _rule(scenario)
        # Euchre 5: the error in the score can no longer be put right, so the score stands as it was marked.
        stands = "as marked" if scenario.startswith("euchre/") else "as given above"
        assert f"NEXT: Play the next hand (West's deal) on; the score stands {stands}." in text, scenario
        assert "West deals" not in text and "Record the score above" not in text, scenario


def test_a_hand_played_out_never_says_play_on():
    text = _rule("long-whist/honours-claimed-without-them")
    assert "Play on" not in text
    for path in sorted((ROOT / "scenarios").glob("*/*.yaml")):
        hand = api.replay(str(path))
        if len(hand.tricks) == (5 if hand.code == "euchre" else 13) and all(trick.complete for trick in hand.tricks):
            next_line = " ".join(api.rule(str(path)).to_text().split()).split("NEXT: ")[-1]
            assert not next_line.startswith(("Play on", "Play the hand out")), path.name


def test_long_whist_says_nothing_of_consulting_where_the_code_has_no_law_on_it():
    """Long Whist says "may consult" only in laws 16, 19 and 20: a choice under law 7 or law 11 says nothing of
    consulting, in either form, and the record gives `consult` as null; Short Whist 84 still says it."""
    for scenario in ("long-whist/fourth-hand-before-second-trick-in-play", "long-whist/revoke-established"):
        for flags in ((), ("--explain",)):
            assert "consult" not in _rule(scenario, *flags)
        record = api.rule(ROOT / "scenarios" / f"{scenario}.yaml")
        assert [remedy.consult for remedy in record.remedies] == [None]
    assert "partners may consult" in _rule("short-whist/revoke-established")


def test_long_whist_7_names_a_suit_only_when_the_side_not_at_fault_is_to_lead():
    """Law 7, "if either of the adverse party be to lead": one reading, stated in both forms. West, East's partner,
    is to lead after East's lead out of turn: no suit is named; South, the side not at fault, wins a trick East
    played to out of turn: North may name the suit South leads."""
    reading = "read as the side not at fault"
    offenders_lead = "long-whist/card-led-after-a-complete-trick"
    for flags in ((), ("--explain",)):
        text = _rule(offenders_lead, *flags)
        assert "no suit can be named" in text and reading in text and "name the suit West must lead" not in text
    assert [sorted(o.kind for o in r.options) for r in api.rule(ROOT / "scenarios" / f"{offenders_lead}.yaml").remedies] \
        == [["call_card"]]
    theirs = "long-whist/third-hand-before-second-adversaries-to-lead"
    assert "North–South may have North name the suit South must lead" in _rule(theirs)
    assert reading in _rule(theirs) and reading in _rule(theirs, "--explain")
