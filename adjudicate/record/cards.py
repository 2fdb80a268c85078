"""Cards, suits, ranks and packs, and the bowers of Euchre.

Each value parses and prints (`Card.parse("JH")`, `str(card) == "JH"`), and
`repr` gives the call that rebuilds it. What depends on the deal (which suit is
trumps, so which knave is the left bower) is a `Trump` context, not a property
of the card.
"""

from __future__ import annotations

import enum
from typing import NamedTuple
from functools import cached_property, lru_cache

from msgspec import Struct

from adjudicate.errors import quote


class Suit(enum.Enum):
    """A suit, by its letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self._value_  # the plain attribute: `.value` goes through a descriptor

    @property
    def word(self) -> str:
        """The suit's name as a player says it: "spades"."""
        return self.name.lower()

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour(self) -> "Suit":
        """The other suit of the same colour (whose knave is the left bower)."""
        return _SAME_COLOUR[self]

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """`S`, `spades`, `spade` or `♠` (any case)."""
        key = text.strip().lower()
        try:
            return _SUIT_NAMES[key]
        except KeyError:
            raise ValueError(f"not a suit: {quote(text)} (expected S, H, D, C or spades, hearts, diamonds, clubs)") from None

    # Members are singletons compared by identity: the identity hash is the fast, right one.
    __hash__ = object.__hash__

    def __lt__(self, other: "Suit") -> bool:
        return _SUIT_ORDER.index(self.value) < _SUIT_ORDER.index(other.value)

    def __str__(self) -> str:
        return self._value_  # the plain attribute: `.value` goes through a descriptor

    def __format__(self, spec: str) -> str:
        return format(self._value_, spec)

    def __repr__(self) -> str:
        return f"Suit.parse({self.value!r})"


_SUIT_ORDER = "SHDC"


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SAME_COLOUR = {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES, Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}
_SUIT_NAMES: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_NAMES[_s.letter.lower()] = _s
    _SUIT_NAMES[_s.word] = _s
    _SUIT_NAMES[_s.word[:-1]] = _s
    _SUIT_NAMES[_s.symbol] = _s
_SUIT_NAMES.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_SYMBOLS = frozenset("♠♥♦♣♤♡♢♧")


class Rank(enum.IntEnum):
    """A rank; the integer is its order in plain suits at Whist (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    KNAVE = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    __hash__ = int.__hash__  # equal to its number, so hashed as its number, without Enum's slower hash

    letter: str
    """As a card is written: "A", "T", "9". A plain attribute, set once: read without the call a property costs
    (a card is printed or scored by its letters some 130 times a hand)."""

    def __init__(self, number: int) -> None:
        self.letter = str(number) if number <= 9 else "TJQKA"[number - 10]

    @property
    def word(self) -> str:
        return "knave" if self is Rank.KNAVE else self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Rank":
        key = text.strip().upper()
        try:
            return _RANK_BY_LETTER[key]
        except KeyError:
            raise ValueError(f"not a rank: {quote(text)} (expected A K Q J T 9 8 7 6 5 4 3 2)") from None

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Rank.parse({self.letter!r})"


_KNAVE = Rank.KNAVE
_RANK_BY_LETTER = {r.letter: r for r in Rank}
_RANK_BY_LETTER["10"] = Rank.TEN
_RANK_BY_LETTER["B"] = Rank.KNAVE


class Card(NamedTuple):
    """A playing card (a tuple: hashed and compared as fast as the replay needs)."""

    rank: Rank
    """Ace to two."""
    suit: Suit
    """Its printed suit (a left bower's printed suit is not the trump suit)."""

    @classmethod
    def parse(cls, text: str) -> "Card":
        """`JH`, `jh`, `10H`, `TH`, `J♥` or `♥J`."""
        return parse_card(text)

    @classmethod
    def _parse(cls, text: str) -> "Card":
        raw = text.strip()
        if len(raw) < 2:
            raise ValueError(f"not a card: {quote(text)} (expected rank then suit, like JH, TS or 10♠)")
        attempts = [(raw[:-1], raw[-1])]
        if raw[0] in _SYMBOLS:
            attempts.append((raw[1:], raw[0]))
        for rank_text, suit_text in attempts:
            try:
                return cls(Rank.parse(rank_text), Suit.parse(suit_text))
            except ValueError:
                continue
        raise ValueError(f"not a card: {quote(text)} (expected rank A K Q J T 9 8 7 6 5 4 3 2 then suit S H D C, like JH or TS)")

    @property
    def name(self) -> str:
        """As a player says it: "knave of hearts"."""
        return f"{self.rank.word} of {self.suit.word}"

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


# Cards by the text they were parsed from: a log names the same few dozen cards over and over.
# The bound is far above the spellings of 52 cards, whatever a file holds.
parse_card = lru_cache(maxsize=4096)(Card._parse)
"""`Card.parse` without the method call: the same bounded cache of the cards a log names."""


class Pack(Struct, frozen=True, dict=True):
    """The cards a code plays with: these ranks in each of the four suits."""

    ranks: tuple[Rank, ...]

    @cached_property
    def cards(self) -> frozenset[Card]:
        return frozenset(Card(r, s) for r in self.ranks for s in Suit)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __len__(self) -> int:
        return len(self.ranks) * 4

    @classmethod
    def of(cls, ranks: str) -> "Pack":
        """`Pack.of("AKQJT987")`."""
        return cls(tuple(Rank.parse(letter) for letter in ranks))


WHIST_PACK = Pack.of("AKQJT98765432")
EUCHRE_PACK = Pack.of("AKQJT987")


class Trump(Struct, frozen=True):
    """The trump suit of a deal, and whether the knaves are bowers (Euchre).

    At Euchre the right bower (knave of trumps) is highest, the left bower (the
    other knave of the same colour) second, and the left bower is a trump for
    every purpose, following suit included.
    """

    suit: Suit | None
    bowers: bool = False

    def suit_of(self, card: Card) -> Suit:
        """The suit a card belongs to for following suit: a left bower's is trumps."""
        # The one test of a left bower (is_left_bower asks this): the knave of the other suit of the
        # trump colour, when knaves are bowers. It runs for every card of every holding replayed.
        suit = self.suit
        if card.rank is _KNAVE and self.bowers and suit is not None and card.suit is _SAME_COLOUR[suit]:
            return suit
        return card.suit

    @property
    def left_bower(self) -> Card | None:
        """The one card whose suit for following is not its own (`suit_of`), when knaves are bowers."""
        return Card(_KNAVE, _SAME_COLOUR[self.suit]) if self.bowers and self.suit is not None else None

    def is_right_bower(self, card: Card) -> bool:
        return self.bowers and self.suit is not None and card.rank is Rank.KNAVE and card.suit is self.suit

    def is_left_bower(self, card: Card) -> bool:
        return self.suit_of(card) is not card.suit

    def is_trump(self, card: Card) -> bool:
        return self.suit is not None and self.suit_of(card) is self.suit

    def power(self, card: Card, led: Suit) -> int:
        """How strongly a card bids for a trick led in `led`: higher wins; 0 cannot win."""
        suit = self.suit_of(card)
        if suit is self.suit:  # a trump (never so when there are none)
            if card.rank is _KNAVE and self.bowers:
                return 300 if card.suit is suit else 299  # the right bower, the left
            return 200 + int(card.rank)
        if suit is led:
            return 100 + int(card.rank)
        return 0


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen")


def number_word(number: int) -> str:
    """A count as a player says it: "three", "no" for none; figures past thirteen."""
    return _NUMBER_WORDS[number] if 0 <= number < len(_NUMBER_WORDS) else str(number)


def cards_words(cards: "list[Card] | tuple[Card, ...]") -> str:
    """Cards as a player says them, those of one suit together: "the seven, eight and nine of diamonds and
    the knave of spades"."""
    groups: dict[Suit, list[Rank]] = {}
    for card in cards:
        groups.setdefault(card.suit, []).append(card.rank)
    said = []
    for suit, ranks in groups.items():
        words = [rank.word for rank in ranks]
        listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        said.append(f"the {listed} of {suit.word}")
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]
