"""A replay's state, shared by the phases of a hand (`deal`, `making`, `tricks`): where each card is, what
each seat held and showed, the tricks, the timeline; and the physical checks (a card not in the pack, or in
two places) that are input errors, not irregularities.
"""

from __future__ import annotations

from adjudicate.errors import Pos, Problem
from adjudicate.lawbook.games import Game
from adjudicate.play.table import Making, Moment, SeatRecord, Trick
from adjudicate.record.cards import Card, Trump
from adjudicate.record.scenario import Holding, LogEntry, Scenario
from adjudicate.record.seats import Seat


class _State:
    """What a replay knows as it goes: the cards' places, each seat's record, the tricks and the timeline;
    and the checks of what cannot happen at a table."""

    def __init__(self, scenario: Scenario, game: Game):
        self.scenario = scenario
        self.game = game
        self.euchre = game.euchre
        self.pack_cards = game.pack.cards
        self.problems: list[Problem] = []
        self.where: dict[Card, tuple["Seat | str", Pos]] = {}
        """Where each card placed one by one is (`place`, `own`): its owner, a seat or "the turned card", and where
        the record says so. A hand as dealt placed at once is not copied here card by card (`listed`, `placed`)."""
        self.listed: dict[Seat, Holding] = {}
        """The hands as dealt placed at once (`_Deal.deal`: each card listed once, in the pack and in no other place),
        looked in only for a card not in the hand that plays or shows it (`placed`): each card put in `where` cost 8.9 M
        instructions more on the benchmark's 201 files."""
        self.records: dict[Seat, SeatRecord] = {}
        self.moments: list[Moment] = []
        self.tricks: list[Trick] = []
        self.making = Making() if game.euchre else None
        self.phase = "deal"
        self.turned_taken = False
        self.trumps = Trump(None, game.euchre)
        self.played: dict[Card, int] = {}
        self.false_starts: list[Trick] = []
        self.short: dict[Seat, list[tuple[int, Card]]] = {}
        """Players a card short (`found`, `missing`), with each card missing from their hands and the entry it was
        found at (`missing`: never). Once they have played all their other cards, no card of theirs is due to a
        trick until it is found: the trick is complete without them, and the lead passes them by."""
        self.withdrawn: dict[int, int] = {}
        self.trump_card_to: Seat | None = None

    # --- physical checks ---------------------------------------------------
    def problem(self, pos: Pos, message: str) -> None:
        self.problems.append(Problem(pos, message))

    def in_pack(self, card: Card, pos: Pos, what: str) -> bool:
        if card not in self.pack_cards:
            self.not_in_pack(card, pos, what)
            return False
        return True

    def not_in_pack(self, card: Card, pos: Pos, what: str) -> None:
        ranks = "".join(rank.letter for rank in self.game.pack.ranks)
        self.problem(pos, f"{what}: {card} is not in the pack of {self.scenario.code} "
                          f"({len(self.game.pack)} cards: {ranks} in each suit)")

    @staticmethod
    def owner_words(owner: "Seat | str") -> str:
        return f"the hand of {owner}" if isinstance(owner, Seat) else owner

    def placed(self, card: Card) -> tuple["Seat | str", Pos] | None:
        """Where a card is: its owner and where the record says so, if it was placed (`where`, `listed`)."""
        where = self.where.get(card)
        if where is None:
            for seat, holding in self.listed.items():
                if card in holding.cards:
                    return seat, holding.positions[holding.cards.index(card)]
        return where

    def place(self, card: Card, owner: "Seat | str", pos: Pos) -> bool:
        """Note where a card was dealt; `owner` is a seat, or "the turned card"."""
        where = self.placed(card)
        if where is None and card in self.pack_cards:  # the everyday card, placed once
            self.where[card] = (owner, pos)
            return True
        if where is None or where[0] != owner:
            what = "`turned`" if owner == "the turned card" else self.owner_words(owner)
            if not self.in_pack(card, pos, what):
                return False
            assert where is not None  # a card in the pack not placed yet is placed above
            other, other_pos = where
            self.problem(pos, f"{what}: {card} is in two places: also {self.owner_words(other)} (line {other_pos.line})")
            return False
        return True

    def own(self, seat: Seat, card: Card, entry: LogEntry, doing: str) -> bool:
        """Check that `seat` can hold `card` and note that he did."""
        record = self.records[seat]
        turned = self.scenario.turned
        if card == turned and self.euchre:
            if seat is self.scenario.dealer and self.turned_taken:
                return True
            self.problem(entry.pos, f"{seat} {doing} {card}, but {card} is the turned card"
                                    + ("" if seat is self.scenario.dealer else f", which only the dealer {self.scenario.dealer} can take up"))
            return False
        if card in record.dealt:
            return True
        where = self.placed(card)
        if where is not None and where[0] is not seat:
            self.problem(entry.pos, f"{seat} {doing} {card}, but {card} is {self.owner_words(where[0])} "
                                    f"(line {where[1].line})")
            return False
        if record.listed_complete:
            self.problem(entry.pos, f"{seat} {doing} {card}, but the hand of {seat} as dealt "
                                    f"(line {self.scenario.hands[seat].pos.line}) does not hold it")
            return False
        record.dealt.add(card)
        self.where[card] = (seat, entry.pos)
        return True
