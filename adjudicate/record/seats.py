"""Seats and sides: N, E, S, W; partners N-S and E-W; play passes to the left."""

from __future__ import annotations

import enum

from adjudicate.errors import quote


class Side(enum.Enum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    __hash__ = object.__hash__  # singletons compared by identity

    # Set on each side once its seats exist (below): a plain attribute is read without the call a property costs.
    other: "Side"
    """The other partnership."""
    seats: tuple["Seat", "Seat"]
    """Its two seats: N and S, or E and W."""

    @classmethod
    def parse(cls, text: str) -> "Side":
        key = text.strip().upper().replace("-", "").replace("/", "")
        if key in ("SN",):
            key = "NS"
        if key in ("WE",):
            key = "EW"
        try:
            return cls(key)
        except ValueError:
            raise ValueError(f"not a side: {quote(text)} (expected NS or EW)") from None

    def __str__(self) -> str:
        return self._value_  # the plain attribute: `.value` goes through a descriptor

    def __format__(self, spec: str) -> str:
        return format(self._value_, spec)

    def __repr__(self) -> str:
        return f"Side.parse({self.value!r})"


class Seat(enum.Enum):
    """A place at the table. Play passes to the left: N -> E -> S -> W -> N."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    __hash__ = object.__hash__  # singletons compared by identity

    # Set on each seat once (here and below): a plain attribute is read without the call a property costs
    # (the replay and the ruling ask a seat's side some 60 times a hand).
    side: Side
    word: str
    """As a player says it: "North"."""
    left: "Seat"
    """The next player, to this one's left."""
    right: "Seat"
    partner: "Seat"

    def __init__(self, letter: str) -> None:
        self.side = Side.NS if letter in ("N", "S") else Side.EW
        self.word = {"N": "North", "E": "East", "S": "South", "W": "West"}[letter]

    def after(self, steps: int) -> "Seat":
        return _ORDER[(_ORDER.index(self) + steps) % 4]

    def steps_to(self, other: "Seat") -> int:
        """How many places to the left `other` sits (0 for the same seat)."""
        return (_ORDER.index(other) - _ORDER.index(self)) % 4

    @classmethod
    def parse(cls, text: str) -> "Seat":
        seat = _BY_NAME.get(text) or _BY_NAME.get(text.strip().upper())  # `N` as written, first
        if seat is None:
            raise ValueError(f"not a seat: {quote(text)} (expected N, E, S or W)")
        return seat

    def __str__(self) -> str:
        return self._value_  # the plain attribute: `.value` goes through a descriptor

    def __format__(self, spec: str) -> str:
        return format(self._value_, spec)

    def __repr__(self) -> str:
        return f"Seat.parse({self.value!r})"


_ORDER = (Seat.N, Seat.E, Seat.S, Seat.W)
for _index, _seat in enumerate(_ORDER):
    _seat.left, _seat.partner, _seat.right = (_ORDER[(_index + steps) % 4] for steps in (1, 2, 3))
Side.NS.other, Side.NS.seats = Side.EW, (Seat.N, Seat.S)
Side.EW.other, Side.EW.seats = Side.NS, (Seat.E, Seat.W)
_BY_NAME = {**{str(seat): seat for seat in _ORDER}, **{seat.word.upper(): seat for seat in _ORDER}}
SEATS = _ORDER
SEAT_LETTERS = {str(seat): seat for seat in _ORDER}
"""A seat by its letter as a scenario writes it (`N`)."""
seat_of_letter = SEAT_LETTERS.get
"""The seat a letter names as written (`N`), else None: `Seat.parse`'s first look-up, for the reader's everyday value.
(Bound once: Python 3.11 calls a method of an imported name as an attribute, making the bound method each time.)"""
