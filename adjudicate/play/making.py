"""Euchre's making of the trump: passes, orders, assists, taking up, turning down, naming, lone hands and
the dealer's discard (laws 74-99).
"""

from __future__ import annotations

from adjudicate.play.state import _State
from adjudicate.play.table import MAKING_ACTS, ROUND_ONE_MAKES
from adjudicate.record.cards import Trump
from adjudicate.record.scenario import LogEntry
from adjudicate.record.seats import Seat


class _Making(_State):
    # --- Euchre's making of the trump ----------------------------------------
    def make(self, entry: LogEntry) -> None:
        act, making = entry.act, self.making
        if making is None:
            return  # Whist has no making; the act stays in the timeline as it was said.
        seat = act.seat
        assert seat is not None
        verb = act.verb
        turned = self.scenario.turned
        if verb == "pass":
            making.passed[2 if making.turned_down else 1].append(seat)
            first = making.passed[1]
            if not making.turned_down and making.maker is None and len(set(first)) == 4:
                making.turned_down = True
            return
        if verb == "turn down":
            making.turned_down = True
            making.passed[1].append(seat)
            return
        if verb == "mention":
            return
        if making.maker is None and verb in MAKING_ACTS and verb != "take it from you" \
                and not self.due_to_speak(seat, entry.number):
            return  # Law 82: no one's right is taken away by an order, assist or make out of turn: of no effect.
        if verb in ROUND_ONE_MAKES or (verb == "alone" and making.maker is None):
            if making.maker is not None:
                return  # the trump is made already: a second order up changes nothing
            if turned is not None and not making.turned_down:
                making.maker, making.act, making.round, making.entry = seat, verb, 1, entry.number
                self.trumps = Trump(turned.suit, bowers=True)
                self.take_up(entry)
                if verb == "alone":
                    self.declare_alone(seat, entry)
                self.phase = "discard"
            return
        if verb in ("name", "alone at"):
            if making.maker is not None:
                return
            assert act.suit is not None
            if turned is not None and act.suit is turned.suit and making.turned_down:
                # Law 78: naming the suit turned down is passing.
                making.passed[2].append(seat)
                return
            making.maker, making.act, making.round, making.entry = seat, verb, 2 if making.turned_down else 1, entry.number
            self.trumps = Trump(act.suit, bowers=True)
            if verb == "alone at":
                self.declare_alone(seat, entry)
            self.phase = "play"
            return
        if verb in ("alone", "take it from you"):
            self.declare_alone(seat, entry)

    def due_to_speak(self, seat: Seat, before: int) -> bool:
        """Whether the trump may be made by `seat` now: it is his turn, or he already passed in this round (law 80
        rules that attempt). A pass out of turn moves no one's turn (law 82)."""
        making = self.making
        assert making is not None
        order = [self.scenario.dealer.after(step) for step in (1, 2, 3, 4)]
        turned = self.scenario.turned
        index, round_no, passed = 0, 1, {1: set(), 2: set()}  # type: ignore[var-annotated]
        for moment in self.moments:
            act = moment.act
            if moment.entry >= before or act.seat is None:
                continue
            law_78 = act.verb == "name" and round_no == 2 and turned is not None and act.suit is turned.suit
            if act.verb not in ("pass", "turn down") and not law_78:
                continue
            if index < 4 and act.seat is order[index]:
                passed[round_no].add(act.seat)
                index += 1
                while index < 4 and order[index] in passed[round_no]:
                    index += 1
            else:
                passed[round_no].add(act.seat)
            if round_no == 1 and (len(passed[1]) == 4 or act.verb == "turn down"):
                index, round_no = 0, 2
        return index >= 4 or seat is order[index] or seat in passed[round_no]

    def declare_alone(self, seat: Seat, entry: LogEntry) -> None:
        making = self.making
        assert making is not None
        maker = making.maker
        if maker is None:
            return
        if any(when < entry.number for when, _card, how in self.records[seat].exposed if how != "drop below"):
            return  # Law 95: he cannot play alone if before making his declaration he exposes a card.
        if entry.number == making.entry:
            making.lone, making.lone_entry = seat, entry.number
            return
        if seat is maker or seat.side is not maker.side:
            # Law 98: a declaration not single precludes a lone hand; law 95: the adversaries cannot.
            return
        passed = seat in making.passed[1] or seat in making.passed[2]
        if passed or self.tricks:
            # Law 99: an offer to take it after a lead, or after passing: neither can play alone.
            if making.lone is not None and making.lone_entry is not None:
                making.lone, making.lone_entry = None, None
            return
        making.lone, making.lone_entry = seat, entry.number

    def take_up(self, entry: LogEntry) -> None:
        turned = self.scenario.turned
        if turned is None or self.turned_taken:
            return
        self.turned_taken = True
        dealer = self.records[self.scenario.dealer]
        dealer.dealt.add(turned)
        dealer.acquired.append((entry.number, turned))

    def discard(self, entry: LogEntry) -> None:
        act = entry.act
        seat = act.seat
        assert seat is not None
        card = act.card
        record = self.records[seat]
        if not self.in_pack(card, entry.pos, "discard"):
            return
        self.own(seat, card, entry, "discards")
        record.gone.append((entry.number, card, "discarded"))
        if self.making is not None and seat is self.scenario.dealer and self.making.discard is None:
            self.making.discard, self.making.discard_entry = card, entry.number
        if self.phase == "discard":
            self.phase = "play"
