"""The facts vocabulary: every fact a law's condition may name, with its type, and every option a remedy may
offer.

The detectors (`play.facts`) produce irregularities of these kinds with these details; conditions in the
rulebooks (`lawbook.conditions`) are checked against this list when a rulebook loads, so a misspelt fact is
an error with its line; a scenario's `expect` block names irregularities and options in the same words.
"""

from __future__ import annotations

# Types a fact may have: how a condition's value is checked.
BOOL, INT, TEXT, SEAT, SIDE, SUIT, CARD = "bool", "int", "text", "seat", "side", "suit", "card"

COMMON_FIELDS: dict[str, str] = {
    "seat": SEAT,
    "side": SIDE,
    "trick": INT,
    "by_dealer": BOOL,
    "by_makers": BOOL,
    "lone_hand": BOOL,
    "later_trick_begun": BOOL,
}
"""Facts every irregularity has: the offender, his side, the trick, his role, and whether a lone hand is played;
`later_trick_begun` (of one in a trick): a card has since been played to a later trick."""

KINDS: dict[str, tuple[str, dict[str, str]]] = {
    "revoke": ("a player held a card of the suit led and played another suit (Euchre 62, Short Whist 71)", {
        "card": CARD, "suit_led": SUIT, "question_asked": BOOL, "question_entry": INT, "answered_negative": BOOL,
        "established": BOOL, "established_by": TEXT, "established_entry": INT, "corrected": BOOL,
        "corrected_entry": INT, "claimed": BOOL, "held": TEXT, "cut_against_adversaries": BOOL, "lapsed": BOOL,
        "withdrawal_open": BOOL, "claim_withdrawn": BOOL, "mixed_by_accused": BOOL}),
    "lead_out_of_turn": ("a player led when it was not his turn to lead", {
        "card": CARD, "due": SEAT, "followed": INT, "played_to": INT, "all_followed": BOOL, "taken_back": BOOL,
        "by_lone_player": BOOL, "partner_of_due": BOOL, "adversaries_to_lead": BOOL, "due_leader_led": BOOL}),
    "third_hand_before_second": ("the third hand played before the second", {
        "card": CARD, "due": SEAT, "position": INT, "to_lone_hand": BOOL, "adversaries_to_lead": BOOL,
        "fourth_before_turn": BOOL}),
    "fourth_hand_before_partner": ("the fourth hand played before his partner, the second hand; `partner_can_win` (the partner "
                                   "still to play): he holds a card he may play that beats the other side's cards in "
                                   "the trick (Long Whist 10; absent where his hand is not listed)", {
        "card": CARD, "due": SEAT, "position": INT, "to_lone_hand": BOOL, "adversaries_to_lead": BOOL,
        "lapsed": BOOL, "partner_can_win": BOOL}),
    "played_out_of_turn": ("a player played to a trick before his turn", {
        "card": CARD, "due": SEAT, "position": INT, "to_lone_hand": BOOL, "adversaries_to_lead": BOOL}),
    "omitted_play": ("a trick was turned and quitted without a card from one player", {
        "discovered_after_next_play": BOOL}),
    "two_cards_one_trick": ("a player played two cards to one trick; `trick_short`: the trick was quitted without a "
                            "card from another player, so it holds his card too many in that player's place; "
                            "`surplus`: the second card he played", {
                                "cards": TEXT, "trick_short": BOOL, "surplus": CARD}),
    "exposed_card": ("a card shown, dropped face up, played with another, named while in the hand (`how: named`) or "
                     "played to a trick already complete by a player who had played to it (`how: second card`), and "
                     "so liable to be called", {
        "card": CARD, "how": TEXT, "by_lone_player": BOOL, "during_deal": BOOL}),
    "card_dropped_below": ("a card dropped below the table (not an exposed card)", {"card": CARD}),
    "missing_card": ("a card missing from a player's hand, found (on the floor, among the tricks, in the pack, on "
                     "the table) or not, the tricks searched; it is his, and he answers for revokes as if it had been "
                     "in his hand (Short Whist 46, 70; Euchre 61). `where`: floor, trick, pack, table, or absent "
                     "(not said, or not found); `found`: it was found; `in_trick`: found among the tricks; "
                     "`after_play`: he had played a card before it was found", {
                         "card": CARD, "where": TEXT, "found": BOOL, "in_trick": BOOL, "after_play": BOOL}),
    "detached_card": ("a card detached from the hand", {
        "card": CARD, "how": TEXT, "by_lone_player": BOOL, "during_deal": BOOL}),
    "hand_thrown": ("a player threw his cards face up on the table", {
        "all_four": BOOL, "one_retained": BOOL, "lone_adversary": BOOL, "by_lone_player": BOOL,
        # Long Whist 24: false where the record shows he cannot be sure of winning every trick (the highest trump
        # not yet played is not in his hand); absent where the record does not settle it.
        "could_be_sure": BOOL}),
    "called_attention": ("a player called attention to the trick before his partner had played", {"partner": SEAT, "lapsed": BOOL}),
    "winning_card_led_again": ("a player led again before his partner had played to the trick; `partner_can_win`: "
                               "his partner holds a card he may play that wins the trick (Long Whist 8, \"if he "
                               "can\"), absent where his hand is not listed; `adversaries_to_lead`: the side not at fault win "
                               "the trick and lead next (Long Whist 7), absent where not yet known", {
        "card": CARD, "how": TEXT, "by_lone_player": BOOL, "during_deal": BOOL, "partner_can_win": BOOL,
        "adversaries_to_lead": BOOL}),
    "bid_out_of_turn": ("a player passed, ordered up or assisted out of turn", {
        "act": TEXT, "due": SEAT, "round": INT}),
    "made_after_passing": ("a player passed, then tried to order up or assist", {"act": TEXT, "partner": SEAT}),
    "mentioned_suit": ("a player, after passing, mentioned the suit he meant to make", {"suit": SUIT, "partner": SEAT}),
    "named_turned_down_suit": ("a player named the suit turned down", {"suit": SUIT}),
    "changed_named_suit": ("a player named a suit, then another", {"first": SUIT, "second": SUIT}),
    "alone_not_single_declaration": ("a lone hand not declared in a single declaration", {"after_naming": BOOL}),
    "alone_not_entitled": ("a player declared alone when he or his partner was ordered up, or the adversaries "
                           "made the trump", {"maker": SEAT}),
    "alone_after_exposing": ("a player declared alone after exposing a card", {}),
    "alone_after_passing": ("a player declared alone after he had passed", {"after_lead": BOOL, "after_passing": BOOL}),
    "taken_from_too_late": ("a lone hand taken from the partner after a lead or after passing", {
        "after_lead": BOOL, "after_passing": BOOL}),
    "dealer_alone_after_discard": ("the dealer announced a lone hand after quitting his discard", {}),
    "lone_partner_played": ("the lone player's partner played to a trick", {"card": CARD, "first_lead": BOOL}),
    "lead_before_discard": ("a lead made before the dealer's discard was complete", {
        "discarded_later": BOOL, "lone": SEAT, "eldest": BOOL}),
    "trump_card_discarded": ("the dealer discarded the turned card", {}),
    "dealer_played_before_discard": ("the dealer played before discarding", {}),
    "wrong_number_of_cards": ("a player had more or fewer cards than the deal gives; `in_play`: a card has been "
                              "played, so it appears in the play (Long Whist 25 by analogy)",
                              {"count": INT, "more": BOOL, "in_play": BOOL}),
    "trump_card_left": ("the dealer left the trump card on the table after the first trick (Short Whist 52)", {}),
    "trump_card_lifted_early": ("the dealer took the trump card into his hand before his turn (Short Whist 54); "
                                "`lapsed`: he has since played to the first trick, and holds it lawfully (53)",
                                {"lapsed": BOOL}),
    "trump_card_forgotten": ("the dealer could not recollect the trump card (Short Whist 55)", {}),
    "honours_called": ("a player called honours other than at the point of eight, or after playing (Long Whist "
                       "16-21)", {"at_eight": BOOL, "after_playing": BOOL, "answered": BOOL}),
    "reminded_partner": ("a player reminded his partner to call honours (Long Whist 17)", {}),
    "honours_scored_falsely": ("a player claimed honours for his side, which the record shows held fewer than three "
                               "of the four (Long Whist 18: \"scoring honours, not having them\"); `honours`: how "
                               "many it held", {"honours": INT}),
    "failed_to_comply": ("a player called on to play a card, suit, highest or lowest did not", {
        "required": TEXT, "card": CARD}),
}
for _kind in ("exposed_card", "detached_card", "winning_card_led_again", "lead_out_of_turn", "revoke"):
    # Euchre 56: the call lasts "until such card has been played"; `played_uncalled`: played before any call.
    KINDS[_kind][1].update({"card_played": BOOL, "played_uncalled": BOOL})
KINDS["exposed_card"][1]["claimants_touched"] = BOOL  # Euchre 35, 36; Short Whist 38, 39: the side with the claim touched first
# Short Whist 40, Euchre 37: shown after the deal was written down and before the turn-up, so one of the last cards.
KINDS["exposed_card"][1]["last_cards"] = BOOL
# Euchre 39: the dealer's card shown in turning the trump card (false: one of the dealt cards, or shown while dealing).
KINDS["exposed_card"][1]["in_turning"] = BOOL
KINDS["detached_card"][1]["named"] = TEXT  # Euchre 51: the card an adversary first called, `right` or `wrong`
for _kind in ("third_hand_before_second", "fourth_hand_before_partner", "played_out_of_turn"):
    # Long Whist 7, 10: the trick the card was played to is complete (every hand has played to it), and
    # (once it is) whether the card played out of turn won it; `could_lose` (it won): he held another card he
    # might lawfully have played that would not have won (absent where his hand is not listed); `beaten`: another
    # card played to the trick beats it, so it cannot win the trick.
    KINDS[_kind][1].update({"trick_complete": BOOL, "won_trick": BOOL, "could_lose": BOOL, "beaten": BOOL,
                            "next_leader": SEAT})
for _kind in ("called_attention", "fourth_hand_before_partner", "lead_before_discard"):
    # Euchre 83, 59, 89: the player called on played to the trick before any demand was made on him.
    KINDS[_kind][1]["played_unrequired"] = BOOL
    # Euchre 55: the player called on, yet to play, holds one card only that he may lawfully play to the trick
    # (`only_card`), so that every demand comes to it; `sure_winner`: who wins the trick whatever is played.
    KINDS[_kind][1].update({"one_lawful_card": BOOL, "only_card": CARD, "sure_winner": SEAT})
for _kind in ("lead_out_of_turn", "fourth_hand_before_partner", "called_attention"):
    # Euchre 85: the adversaries consulted on this one's penalty (before the offending side's next offence).
    KINDS[_kind][1]["consulted"] = BOOL
"""Every irregularity kind: what it is, and its own facts (beyond COMMON_FIELDS).

`lapsed` (a corrected revoke, the fourth hand before his partner, attention called to the trick): the player
whose play to the trick the penalty would direct (the revoker's substitute card, the partner's card) has played
it with no demand from the adversaries before it, so that penalty can no longer be exacted. `adversaries_to_lead`
(a lead or play out of turn): the offender's adversaries are to lead next: the due leader, or the winner of the
trick once complete, or before where no card still to be lawfully played can win it (absent otherwise);
`due_leader_led` (a lead out of turn taken back): the rightful leader has since led to the trick.
`fourth_before_turn` (the third hand before the second): the fourth hand
played before the second as well (Long Whist 9)."""

CLAIM_FIELDS: dict[str, str] = {
    "kind": TEXT, "seat": SEAT, "side": SIDE, "against": SEAT, "after_cut": BOOL, "after_mix": BOOL, "trick": INT,
    "after_next_turn": BOOL, "claimants_score": INT, "adversaries_score": INT,
    "adversaries_trick_points": INT, "adversaries_game_on_tricks": BOOL,
    "honours": INT, "honours_known": BOOL, "honours_claim": BOOL, "repeat": BOOL, "after_unpresented_cut": BOOL,
    "after_deal_cut": BOOL, "ground_open": BOOL, "grounded": BOOL, "then_mixed": BOOL,
}
"""Facts of a claim raised at the table (`claim revoke E`), and not withdrawn (a claim withdrawn is no claim).

`after_cut`: the cards were cut for the next deal before the claim, by a cut that counts against the claimants:
any cut, except that one made without the pack being presented (`E: cut unpresented`) counts only against the side
that made it; `after_unpresented_cut` says the claim came after such a cut by the other side, which does not.
`then_mixed`: the cards were mixed after the claim (Short Whist 77).
`after_deal_cut`: the claim came after the cut of the deal the record begins with, before its cards were dealt:
the cut for the deal next after the last hand, so too late to claim a revoke in that hand (Euchre 68).
`ground_open`: what the claim is for (an irregularity of its kind before it, against the seat it names) is in
the record only if an open fact is so: a revoke by a player whose holding of the suit led is not known.
`honours_claim`: a claim of honours within the meaning of the law (Short Whist 6, 7; Long Whist 18): `claim
honours`, or a claim of the game or the score once the hand is played out by a side that held three or four
honours (None where its honours are not shown). `repeat`: the side made the same claim before, still standing.

`after_next_turn`: the trump card of the next deal was turned up before the claim (a `turn` once the hand is
over; Short Whist 6, Long Whist 18). `claimants_score` and `adversaries_score`: each side's score before the
hand, when the scenario gives `score:` (absent otherwise, so a test on them does not hold).
`adversaries_trick_points`: the points the claimants' adversaries score by their tricks above six in a Whist hand
played out (absent otherwise); `adversaries_game_on_tricks`: those points take them to game from their score before
the hand (absent without `score:`), so that their tricks win it before any honours are scored (Short Whist 5).
`honours`: how many
of the four honours (A K Q J of trumps) the claiming side was dealt, when the record shows it (`honours_known`).
`grounded`: the record shows, before the claim, something it can be for (an irregularity, a deal by a player
whose deal it was not, an act repeated): a law asking whether a new deal was claimed on a ground the record does
not show (an imperfect pack) says `grounded: false`, so that it is not asked where the ground is in the record.
"""

ELECTION_FIELDS: dict[str, str] = {"kind": TEXT, "seat": SEAT, "side": SIDE, "trick": INT}
"""Facts of an election made at the table (`elect new deal`)."""

ACT_FIELDS: dict[str, str] = {
    "verb": TEXT, "word": TEXT, "seat": SEAT, "side": SIDE, "phase": TEXT, "trick": INT, "card": CARD,
    "suit": SUIT, "target": SEAT, "by_dealer": BOOL, "by_eldest": BOOL, "by_makers": BOOL, "by_lone_player": BOOL,
    "after_cut": BOOL, "after_turn": BOOL, "after_first_lead": BOOL, "round": INT, "position": INT,
    "honours": INT, "honours_known": BOOL, "side_honours": INT, "side_honours_known": BOOL,
    "first": BOOL, "repeat": BOOL, "would_revoke": BOOL, "target_holds": BOOL,
    "before_dealers_partner": BOOL, "to_dealer": BOOL, "trump_card_taken_up": BOOL, "called_played": BOOL,
    "after_turned_played": BOOL, "at_eight": BOOL, "answered": BOOL, "answer_honours": INT, "card_in_hand": BOOL, "wrong_name": BOOL, "own_card_in_trick": BOOL, "partner_played": BOOL,
}
"""Facts of any single act of the log, as written: `act: {verb: shuffle, phase: play}`.

`position` is the seat's place from the dealer's left: 1 the eldest hand, 2 the dealer's partner,
3 the third hand, 4 the dealer. `phase` is "deal" (before the trump card is turned), "making", "discard", "play" or "after";
`after_cut` says a `cut` came before it in the same phase (the cut for this deal, or for the next).
`honours` and `side_honours`: how many of the four honours (A K Q J of trumps) the player, and his side, were
dealt, when the record shows it (`honours_known`, `side_honours_known`: his whole hand is listed, or every honour
is placed); absent otherwise, so a test on them does not hold and the law's question is asked instead.
For a shuffle, touch, cut, deal or mix: `first` (no one did it before in this phase) and `repeat` (he did it
before in this phase); for a shuffle also `before_dealers_partner` (the dealer's partner shuffled later in the
phase). For `give` (a card or packet dealt to the wrong hand), `to_dealer`: the hand it went to is the dealer's. For `names` (Short Whist 53), `trump_card_taken_up`: the card named is the trump card, and the dealer had
taken it into his hand (lifted it, or played to the first trick). For a call of a card, `called_played`: the card called has been played since. For a call: `would_revoke` (the card called was not one he could play without revoking; for a requirement to
win or lose the trick, he could do it only with a card he may not play) For a call of a card, `wrong_name`: it names a card other than the one an adversary detached, at the
caller's side's first naming (Short Whist 60, Euchre 51). For `names`: `card_in_hand` (the card named was then in his hand; absent where his hand is not known),
`own_card_in_trick` (it is the card he played to the trick in progress) and, then, `partner_played` (his partner
had played to that trick before he named it: Short Whist 86). For `ask turned` (what card was turned up, Euchre 92): `after_turned_played`, the turned card had been
played to a trick. For `call honours` (Long Whist 16, 19, 21): `at_eight` (the caller's side was at the point of eight
before the hand; absent without `score:`), `answered` (his partner answered after it) and `answer_honours` (how many
honours the partner who answered was dealt; absent where not answered or not shown).
and `target_holds` (the player called on to lead a suit held one), absent where his hand is not known.
"""

HAND_FIELDS: dict[str, str] = {
    "family": TEXT, "lone": BOOL, "round": INT, "played_out": BOOL, "makers": SIDE, "tricks_played": INT,
    "score_known": BOOL, "cut_for_next_deal": BOOL, "mixed": BOOL, "passed_out": BOOL,
    "makers_tricks": INT, "hands_known": BOOL, "abandoned": BOOL, "honours_unclaimed": BOOL,
    "unclaimed_side_score": INT, "next_trump_turned": BOOL,
}
"""Facts of the hand as a whole. `hands_known`: all four hands are listed whole in `hands:`, so what any player
held at any moment is in the record. `abandoned`: all four threw their cards face up (Euchre 49, Short Whist 59);
`makers_tricks` is then the tricks the makers had taken. `honours_unclaimed` (Whist): a side was dealt three or
four honours, as the record shows, and has no standing claim of them; `unclaimed_side_score`, that side's score
before the hand (absent without `score:`); `next_trump_turned`: the trump card of the next deal has been turned
up (Short Whist 6)."""

SUBJECTS: dict[str, dict[str, str]] = {
    **{kind: {**COMMON_FIELDS, **fields} for kind, (_, fields) in KINDS.items()},
    "claim": CLAIM_FIELDS,
    "election": ELECTION_FIELDS,
    "act": ACT_FIELDS,
    "hand": HAND_FIELDS,
}
"""What a condition's atom may be about, and the facts of each."""


OPTIONS: dict[str, tuple[str, str | None]] = {
    "score": ("add {points} points to their own score", "points"),
    "deduct": ("deduct {points} points from the offenders' score", "points"),
    "take_tricks": ("take {tricks} tricks from the offenders and add them to their own", "tricks"),
    "forfeit": ("the offenders forfeit {points} points to the adversaries", "points"),
    "new_deal": ("claim a new deal", None),
    "let_it_stand": ("let the deal stand", None),
    "call_card": ("call the card (it must be played when asked, unless it would make him revoke)", None),
    "call_suit": ("call a suit from the offender or his partner when next either of them leads", None),
    "call_highest": ("call his highest of the suit led", None),
    "call_lowest": ("call his lowest of the suit led", None),
    "require_highest": ("require the offender's partner to play his highest of the suit led", None),
    "require_lowest": ("require the offender's partner to play his lowest of the suit led", None),
    "require_win": ("require him to win the trick, if he can", None),
    "require_lose": ("require him to lose the trick", None),
    "withdraw_and_substitute": ("withdraw the cards played after the error and play others", None),
    "play_out": ("require the hand to be played out", None),
    "partner_must_pass": ("the offender's partner must pass", None),
    "elect_play": ("elect that it shall be played", None),
    "play_alone": ("elect that he play it alone", None),
    "call_hands": ("call cards from both opposing hands", None),
    "search_tricks": ("search all the tricks", None),
    "count_hand": ("count the hand, to see if it holds more or fewer cards than it should", None),
    "change_discard": ("change his discard", None),
    "shuffle_again": ("compel a fresh shuffle", None),
    "cut_again": ("have the pack cut again", None),
    "deal_again": ("deal again", None),
    "see_card": ("see the card", None),
    "place_cards": ("have the cards placed before their players", None),
    "no_claim": ("not claim it", None),  # a penalty that "may be claimed" (Euchre 63, remedy `claim: true`)
}
"""What a side may be offered: each kind with its wording, and its number (points or tricks) if any."""
