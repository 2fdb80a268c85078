"""Setting out: the hands as dealt, and in Whist the trump card as the dealer's last card.
"""

from __future__ import annotations

from adjudicate.errors import Pos
from adjudicate.play.state import _State
from adjudicate.play.table import SeatRecord
from adjudicate.record.cards import Card, Trump
from adjudicate.record.scenario import Holding
from adjudicate.record.seats import SEATS, Seat


class _Deal(_State):
    # --- setting out -------------------------------------------------------
    def deal(self) -> None:
        scenario, euchre = self.scenario, self.euchre
        turned = scenario.turned
        # Whist: the trump card is the dealer's last card, unless the log says it came to another hand.
        holder = scenario.dealer
        if not euchre:
            given = next((entry.act.target for entry in scenario.log
                          if entry.act.verb == "give" and entry.act.word == "trump"), None)
            if given is not None and given is not scenario.dealer:
                holder = self.trump_card_to = given
        if turned is not None and scenario.turned_pos is not None:
            self.place(turned, holder if not euchre else "the turned card", scenario.turned_pos)
        where = self.where
        at_once: set[Card] = set()  # the cards of the hands placed at once so far
        for seat in SEATS:
            holding = scenario.hands.get(seat)
            cards = set(holding.cards) if holding else set()
            # At Whist, the trump card listed in the hand it came to is placed already.
            placing = cards - {turned} if not euchre and seat is holder and turned in where else cards
            if holding is not None and len(cards) == len(holding.cards) and turned not in placing \
                    and placing <= self.pack_cards and where.keys().isdisjoint(placing) and at_once.isdisjoint(placing):
                # The everyday hand, each card listed once, in the pack and in no other place: placed at once
                # (`listed`), not card by card through `place` (7.9 M instructions less on the benchmark's 200 files).
                self.listed[seat] = holding
                at_once |= placing
            elif holding is not None:
                self.place_hand(seat, holding, holder)
            listed = len(cards)
            complete = bool(holding and holding.complete)
            if not euchre and turned is not None and seat is holder:
                # The turned card is the dealer's last card (Short Whist law 44 III).
                if turned not in cards:
                    cards.add(turned)
                    listed += 1
            self.records[seat] = SeatRecord(seat, cards, complete, listed)
        if not euchre:
            self.trumps = Trump(turned.suit if turned else None, bowers=False)

    def place_hand(self, seat: Seat, holding: Holding, holder: Seat) -> None:
        """Place the cards of a hand one by one, saying which is listed twice, not in the pack or in two places;
        at Whist, the trump card in the hand it came to (`holder`) is placed already."""
        seen: dict[Card, Pos] = {}
        for card, pos in zip(holding.cards, holding.positions):
            if card in seen:
                self.problem(pos, f"the hand of {seat}: {card} is listed twice (also at column {seen[card].column})")
                continue
            seen[card] = pos
            if not self.euchre and card == self.scenario.turned and seat is holder:
                continue
            self.place(card, seat, pos)
