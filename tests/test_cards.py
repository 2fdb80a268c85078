"""Cards, suits, seats and acts parse and print, and round-trip."""

import pytest
from hypothesis import given, strategies as st

from adjudicate.record.acts import ACT_EXAMPLES, Act
from adjudicate.record.cards import EUCHRE_PACK, WHIST_PACK, Card, Suit, Trump
from adjudicate.record.seats import Seat, Side


@given(st.sampled_from(sorted(WHIST_PACK.cards)))
def test_card_round_trips(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text, expected", [
    ("JH", "JH"), ("jh", "JH"), ("10S", "TS"), ("TS", "TS"), ("J♥", "JH"), ("♠A", "AS"), ("2c", "2C"),
])
def test_card_spellings(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "J", "1H", "JX", "HJ", "11S", "joker"])
def test_not_a_card(text):
    with pytest.raises(ValueError, match="card"):
        Card.parse(text)


def test_packs():
    assert len(EUCHRE_PACK) == 32 and len(EUCHRE_PACK.cards) == 32
    assert len(WHIST_PACK.cards) == 52
    assert Card.parse("6H") not in EUCHRE_PACK


def test_suits_and_seats_round_trip():
    for suit in Suit:
        assert Suit.parse(str(suit)) is suit and Suit.parse(suit.word) is suit and Suit.parse(suit.symbol) is suit
    for seat in Seat:
        assert Seat.parse(str(seat)) is seat and seat.left.right is seat and seat.partner.partner is seat
    assert [str(Seat.N.after(i)) for i in range(4)] == ["N", "E", "S", "W"]
    assert Seat.E.side is Side.EW and Side.parse("ns") is Side.NS


def test_bowers():
    hearts = Trump(Suit.HEARTS, bowers=True)
    right, left = Card.parse("JH"), Card.parse("JD")
    assert hearts.is_right_bower(right) and hearts.is_left_bower(left)
    assert hearts.suit_of(left) is Suit.HEARTS and hearts.is_trump(left)
    ace = Card.parse("AH")
    assert hearts.power(right, Suit.SPADES) > hearts.power(left, Suit.SPADES) > hearts.power(ace, Suit.SPADES)
    # At Whist the knave is no bower.
    whist = Trump(Suit.HEARTS, bowers=False)
    assert whist.suit_of(left) is Suit.DIAMONDS
    assert whist.power(Card.parse("AH"), Suit.SPADES) > whist.power(right, Suit.SPADES)


@pytest.mark.parametrize("verb, example", ACT_EXAMPLES)
def test_every_act_round_trips(verb, example):
    seat: Seat | None = Seat.W
    try:
        act = Act.parse(example, Seat.W)
    except ValueError as error:  # an event of the table that no seat does (`bystander remark`)
        assert "is a table event" in str(error)
        seat, act = None, Act.parse(example, None)
    assert act.verb == verb
    assert Act.parse(act.text(), seat) == act
    if seat is not None:
        assert str(act) == f"W: {act.text()}"


@pytest.mark.parametrize("text", ["found QS", "found QS floor", "found QS trick", "found QS pack", "found QS table",
                                  "missing QS", "names KD", "second card AS"])
def test_card_acts_round_trip(text):
    act = Act.parse(text.replace("QS", "q♠").upper(), Seat.E)
    assert act.text() == text
    assert Act.parse(act.text(), Seat.E) == act


def test_found_says_where():
    assert Act.parse("found QS floor", Seat.E).word == "floor"
    assert Act.parse("found QS", Seat.E).word is None
    assert Act.parse("names KD", Seat.E).verb == "names" and Act.parse("name hearts", Seat.E).verb == "name"


@pytest.mark.parametrize("text", ["quit", "mix", "cut", "turn"])
def test_table_events(text):
    assert str(Act.parse(text)) == text


@pytest.mark.parametrize("text, printed, verb, word, target", [
    ("cut unpresented", "cut unpresented", "cut", "unpresented", None),
    ("throw", "throw", "throw", None, None),
    ("throw lost", "throw lost", "throw", "lost", None),
    ("Throw Sure", "throw sure", "throw", "sure", None),
    ("withdraw", "withdraw", "withdraw", None, None),
    ("withdraw honours", "withdraw honours", "withdraw", "honours", None),
    ("withdraw new deal", "withdraw new deal", "withdraw", "new deal", None),
    ("give trump to W", "give trump to W", "give", "trump", Seat.W),
    ("give packet N", "give packet to N", "give", "packet", Seat.N),
    ("Give Trump To west", "give trump to W", "give", "trump", Seat.W),
])
def test_the_acts_of_claims_cuts_and_the_deal_round_trip(text, printed, verb, word, target):
    act = Act.parse(text, Seat.E)
    assert (act.verb, act.word, act.target) == (verb, word, target)
    assert act.text() == printed
    assert Act.parse(act.text(), Seat.E) == act
    assert str(act) == f"E: {printed}"


@pytest.mark.parametrize("text, seat, message", [
    ("cut unpresented", None, "needs the seat that cut"),
    ("cut sideways", Seat.E, "unpresented"),
    ("throw away", Seat.E, "lost .supposing the game lost. or sure"),
    ("withdraw revok", Seat.N, 'did you mean "revoke"'),
    ("give trump", Seat.S, "whose hand it went to"),
    ("give ace to W", Seat.S, "trump or packet"),
    ("give trump to X", Seat.S, "seat"),
])
def test_the_acts_of_claims_cuts_and_the_deal_refuse_bad_words(text, seat, message):
    with pytest.raises(ValueError, match=message):
        Act.parse(text, seat)


@pytest.mark.parametrize("text, message", [
    ("ordr up", 'did you mean "order up"'),
    ("claim revok E", 'did you mean "revoke"'),
    ("name purple", "not a suit"),
    ("discard", "takes one card"),
    ("pass now", "takes nothing"),
    ("found QS attic", "one of floor, trick, pack, table"),
    ("found", "takes the card found"),
    ("found QS floor now", "takes the card found and optionally where"),
    ("names hearts", "not a card"),
    ("second card", "takes one card"),
    ("name KD", "to name a card he holds, write 'names KD'"),
])
def test_bad_acts(text, message):
    with pytest.raises(ValueError, match=message):
        Act.parse(text, Seat.N)
