"""The play: cards led and played to tricks in or out of turn, quitted, corrected, taken back, shown,
dropped, found and named; and the last trick's winner at the end of the log.
"""

from __future__ import annotations

from adjudicate.play.state import _State
from adjudicate.play.table import Play, Trick
from adjudicate.record.cards import Card, Suit
from adjudicate.record.scenario import LogEntry
from adjudicate.record.seats import Seat


class _Tricks(_State):
    # --- play -------------------------------------------------------------
    def current(self) -> Trick | None:
        if self.tricks and self.tricks[-1].quit_entry is None:
            return self.tricks[-1]
        return None

    def size(self) -> int:
        return 3 if self.making and self.making.lone else 4

    def next_leader(self) -> Seat:
        """Who ought to lead the next trick: the eldest hand first, then each trick's winner."""
        out = self.making.lone.partner if self.making and self.making.lone else None
        if not self.tricks:
            leader = self.scenario.dealer.left
        else:
            leader = self.tricks[-1].winner or self.tricks[-1].leader
        while leader is out:
            leader = leader.left
        if self.short and leader in self.short and self.tricks:
            # He has no card left to lead, his hand a card short: the lead passes on (Short Whist 46).
            entry = len(self.moments)
            for _ in range(3):
                if leader not in self.short or not self.no_card_left(leader, entry):
                    break
                leader = leader.left
                while leader is out:
                    leader = leader.left
        return leader

    def due_in(self, trick: Trick) -> Seat | None:
        """Whose turn it is in a trick: the first seat from the leader, in order, who has not played and has a card."""
        out = self.making.lone.partner if self.making and self.making.lone else None
        seat = trick.leader
        for _ in range(4):
            if seat is not out and seat not in trick.players and not (
                    self.short and seat in self.short and self.no_card_left(seat, len(self.moments))):
                return seat
            seat = seat.left
        return None

    def close_open_trick(self, entry: int) -> None:
        trick = self.current()
        if trick is not None and trick.active:
            trick.quit_entry = entry
            trick.winner = self.winner(trick)

    def quit(self, entry: int) -> None:
        trick = self.current()
        if trick is None:
            return
        if not trick.active:
            self.tricks.pop()
            return
        trick.quit_entry = entry
        trick.winner = self.winner(trick)

    def winner(self, trick: Trick) -> Seat | None:
        out = trick.out
        active = trick.active if out is None else [play for play in trick.active if play.seat is not out] or trick.active
        if not active:
            return None
        led = trick._led or self.trumps.suit_of(active[0].card)
        power = self.trumps.power
        # The highest card wins; of cards of equal power, the first played (`max` keeps the first).
        best = max(active, key=lambda play: power(play.card, led))
        if self.game.out_of_turn_cannot_win and trick.complete and _may_not_win(self, trick, best, led):
            # Long Whist 10: "neither to trump it nor win it": the best of the other cards wins the trick.
            best = max((play for play in active if play is not best), key=lambda play: power(play.card, led))
        return best.seat

    def play(self, entry: LogEntry) -> None:
        act = entry.act
        seat = act.seat
        assert seat is not None
        cards = act.cards
        for card in cards:
            if card not in self.pack_cards:
                self.not_in_pack(card, entry.pos, f"{seat} plays")
                return
            if card in self.played:
                self.problem(entry.pos, f"{seat} plays {card}, but {card} was already played (log entry {self.played[card]})")
                return
        if self.phase in ("deal", "making", "discard"):
            self.phase = "play"
        for card in cards:
            if not self.own(seat, card, entry, "plays"):
                return
        trick = self.current()
        out = self.making.lone.partner if self.making and self.making.lone else None
        joins = trick is not None and seat is out and trick.played_by(seat) is None
        if trick is not None and trick.complete and not joins:
            # A full trick not yet quitted: the next card played quits it (docs/scenario-format.md, `quit`).
            trick.quit_entry = entry.number
            trick.winner = self.winner(trick)
            trick = None
        if trick is None:
            size = self.size()
            if self.short:
                size -= sum(1 for short in self.short if short is not seat and self.no_card_left(short, entry.number))
            trick = Trick(len(self.tricks) + 1, seat, self.next_leader(), size, out=out)
            self.tricks.append(trick)
        card, also = cards[0], cards[1:]
        if seat in trick.players and self.leads_again(trick, seat, card):
            # Law 47 / Short Whist 57: a winning card led again before the partner has played: the
            # second card is not played to the trick; it is an exposed card.
            self.records[seat].exposed.append((entry.number, card, "led again"))
            return
        leads = not trick.active
        play = Play(seat, card, entry.number, trick.number, trick.due_leader if leads else self.due_in(trick),
                    None if leads else trick._led, also_played=also)
        if leads:
            trick.leader = seat
            trick._led = self.trumps.suit_of(card) if self.trumps.suit or not self.euchre else card.suit
        trick.add(play)
        record = self.records[seat]
        record.gone.append((entry.number, card, "played"))
        self.played[card] = entry.number
        for extra in also:
            record.exposed.append((entry.number, extra, "two at once"))

    def leads_again(self, trick: Trick, seat: Seat, card: Card) -> bool:
        """He has a card in this unfinished trick, it is winning it, and his partner has not played."""
        mine = trick.played_by(seat)
        if mine is None or trick.complete or trick.played_by(seat.partner) is not None:
            return False
        if seat.partner is trick.out:
            return False
        return self.winner(trick) is seat

    def correct(self, entry: LogEntry) -> None:
        """Take back the card just played to the trick in progress and play another."""
        seat = entry.act.seat
        assert seat is not None
        trick = self.tricks[-1] if self.tricks else None
        old = trick.played_by(seat) if trick else None
        if trick is None or old is None:
            self.play(entry)
            return
        trick.take_back(old, entry.number)
        record = self.records[seat]
        record.gone.append((entry.number, old.card, "returned"))
        self.played.pop(old.card, None)
        card = entry.act.card
        if not self.in_pack(card, entry.pos, f"{seat} corrects to") or not self.own(seat, card, entry, "plays"):
            return
        if card in self.played:
            self.problem(entry.pos, f"{seat} plays {card}, but {card} was already played (log entry {self.played[card]})")
            return
        play = Play(seat, card, entry.number, trick.number, old.due, old.led)
        trick.add(play)
        if trick.active and trick.active[0] is play:
            trick.leader = seat
            trick._led = self.trumps.suit_of(card)
        record.gone.append((entry.number, card, "played"))
        self.played[card] = entry.number
        if trick.quit_entry is not None:
            trick.winner = self.winner(trick)

    def take_back(self, entry: LogEntry) -> None:
        seat = entry.act.seat
        assert seat is not None
        trick = self.current()
        old = trick.played_by(seat) if trick else None
        if trick is None or old is None:
            return
        trick.take_back(old, entry.number)
        self.records[seat].gone.append((entry.number, old.card, "returned"))
        self.played.pop(old.card, None)
        if not trick.active:
            # The false lead and the cards played to it are all taken back (law 53): the trick
            # starts again, but the false lead stays on the record.
            self.false_starts.append(self.tricks.pop())
        elif trick.active[0].seat is not trick.leader:
            trick.leader = trick.active[0].seat
            trick._led = self.trumps.suit_of(trick.active[0].card)

    def withdraw(self, entry: LogEntry) -> None:
        """`withdraw [KIND]`: his side's last claim (of that kind) still standing is taken back."""
        act = entry.act
        assert act.seat is not None
        side = act.seat.side
        for moment in reversed(self.moments):
            claim = moment.act
            if claim.verb == "claim" and claim.seat is not None and claim.seat.side is side \
                    and moment.entry not in self.withdrawn and (act.word is None or claim.word == act.word):
                self.withdrawn[moment.entry] = entry.number
                return
        # Nothing of his side's to take back: the words stand in the timeline, and change nothing.

    def reveal(self, seat: Seat | None, card: Card, entry: LogEntry, how: str) -> None:
        if seat is None or not self.in_pack(card, entry.pos, how):
            return
        if self.own(seat, card, entry, "shows"):
            self.records[seat].exposed.append((entry.number, card, how))

    def drop_below(self, entry: LogEntry) -> None:
        """`drop below`: not an exposed card (law 46), and still his: he holds it, for revokes, until he plays it."""
        seat, card = entry.act.seat, entry.act.card
        assert seat is not None
        if self.in_pack(card, entry.pos, "drop below") and card not in self.played:
            self.own(seat, card, entry, "drops")

    def restore(self, entry: LogEntry) -> None:
        """`found CARD [where]`, `missing CARD`: a card missing from his hand is his (Short Whist 46 and 70):
        held from the deal on, for revokes, and, once found, restored to him. The Euchre code has no such rule:
        a card he mixed with a trick he is answerable for (law 61), but one found elsewhere he did not hold
        (law 62, "holding") until it is found, and one not found he never holds (the pack is imperfect, law 33)."""
        act = entry.act
        seat, card = act.seat, act.card
        assert seat is not None
        what = f"{seat} {act.text()}"
        if not self.in_pack(card, entry.pos, what):
            return
        if card in self.played:
            self.problem(entry.pos, f"{what}: {card} was played (log entry {self.played[card]}), so it was not "
                                    f"missing from his hand")
            return
        if card == self.scenario.turned:
            self.problem(entry.pos, f"{what}: {card} is the turned card, not a card missing from a hand")
            return
        record = self.records[seat]
        holding = self.scenario.hands.get(seat)
        if holding is not None and card in holding.cards:
            self.problem(entry.pos, f"{what}: {card} is listed in the hand of {seat} (line {holding.pos.line}); a card "
                                    f"missing from his hand is left out of `hands`, which lists the cards he held")
            return
        where = self.placed(card)
        if where is not None and where[0] is not seat:
            self.problem(entry.pos, f"{what}: {card} is in {self.owner_words(where[0])} (line {where[1].line}), "
                                    f"not missing from his")
            return
        if any(missing == card for _, missing, _, _ in record.missing):
            self.problem(entry.pos, f"{what}: {card} was already found or said to be missing")
            return
        if record.listed_complete and record.listed + len(record.missing) >= self.game.hand_size:
            self.problem(entry.pos, f"{what}: the hand of {seat} as listed (line {self.scenario.hands[seat].pos.line}) "
                                    f"already holds {self.game.hand_size} cards, so none was missing from it")
            return
        place = "nowhere" if act.verb == "missing" else act.word
        held = not self.euchre or place == "trick"
        trick = self.current()
        if act.verb == "found" and trick is not None and trick.active and trick.played_by(seat) is None \
                and self.no_card_left(seat, entry.number):
            trick.size = min(self.size(), trick.size + 1)  # restored to him, his card is due to this trick
        record.dealt.add(card)
        if not held:
            record.acquired.append((entry.number if act.verb == "found" else len(self.scenario.log) + 1, card))
        record.missing.append((entry.number, card, place, held))
        self.where[card] = (seat, entry.pos)

    def no_card_left(self, seat: Seat, entry: int) -> bool:
        """Just before `entry`, he has no card in his hand: his others played, his missing card not yet found."""
        record = self.records[seat]
        absent = {card for found, card in self.short[seat] if found >= entry}
        held = record.held_at(entry, self.game.hand_size)
        return held.known <= absent and held.unknown <= len(absent - record.dealt)

    def name_card(self, entry: LogEntry) -> None:
        """`names CARD`: a card named while in his hand is not exposed (no code makes it so: Short Whist 56 and
        note 22, Euchre 46: a card must be shown, or detached and named, law 60); the act stays in the log."""
        seat, card = entry.act.seat, entry.act.card
        assert seat is not None
        if not self.in_pack(card, entry.pos, f"{seat} names"):
            return
        if card in self.played or card == self.scenario.turned:
            return  # the trump card any player may name (Short Whist 53 speaks of it)
        record = self.records[seat]
        if card in record.dealt and card not in record.held_at(entry.number, self.game.hand_size).known:
            return  # discarded, or otherwise gone from his hand
        self.own(seat, card, entry, "names")

    def second_card(self, entry: LogEntry) -> None:
        """`second card CARD`: played to the trick just completed by a player who had played to it (he thought he
        had not): not a lead, but an exposed card (the table's word is taken)."""
        seat, card = entry.act.seat, entry.act.card
        assert seat is not None
        what = f"{seat} {entry.act.text()}"
        trick = self.tricks[-1] if self.tricks else None
        if trick is None or not trick.complete or trick.played_by(seat) is None:
            why = ("no trick has been played" if trick is None else
                   f"trick {trick.number} is not complete" if not trick.complete else
                   f"{seat} has no card in trick {trick.number}")
            self.problem(entry.pos, f"{what}: a second card is one played to the trick just completed by a player "
                                    f"who had played to it, but {why}; a card played or led is written `{seat}: {card}`")
            return
        if not self.in_pack(card, entry.pos, what):
            return
        if card in self.played:
            self.problem(entry.pos, f"{what}, but {card} was already played (log entry {self.played[card]})")
            return
        if self.own(seat, card, entry, "plays"):
            self.records[seat].exposed.append((entry.number, card, "second card"))

    def finish(self) -> None:
        trick = self.current()
        if trick is not None and trick.complete:
            trick.winner = self.winner(trick)
        elif trick is not None and trick.active:
            trick.winner = self.winner(trick) if trick.complete else None


def _may_not_win(state: _Tricks, trick: Trick, play: Play, led: Suit) -> bool:
    """Long Whist 10: the card was played out of turn to a suit led (not the lead, nor the fourth hand's play
    before his partner that law 9 allows once the third hand has), and its player's fully listed hand held
    another card he might lawfully have played (following suit if he could) that would not have won."""
    active = trick.active
    if play is active[0] or play.due is None or play.seat is play.due:
        return False
    before = {other.seat for other in active if other.entry < play.entry}
    leader = active[0].seat
    if play.seat is leader.after(3) and leader.after(2) in before and leader.after(1) not in before:
        return False
    record = state.records[play.seat]
    if not record.listed_complete:
        return False
    gone = {card for t in state.tricks for other in t.plays if other.seat is play.seat
            and other.entry < play.entry for card in (other.card, *other.also_played)}
    held = [card for card in record.dealt if card not in gone]
    lawful = [card for card in held if state.trumps.suit_of(card) is led] or held
    best = max((state.trumps.power(other.card, led) for other in active if other is not play), default=0)
    return any(state.trumps.power(card, led) < best for card in lawful)
