"""Replaying a scenario's log at the table: the phases of a hand (`deal`, `making`, `tricks`) composed, each act
handed to its phase, and what each player held at each play worked out at the end.

The replay never refuses an irregular act: a lead out of turn starts a trick with the wrong leader, a revoke
is a card played like any other. Only what cannot happen at a table (a card not in the pack, a card in two
places, a card played twice) is an input error.
"""

from __future__ import annotations

from typing import Any, Callable

from adjudicate.errors import Pos, Problem, ScenarioError, in_file_order
from adjudicate.lawbook.games import BUILTIN_GAMES, Game
from adjudicate.play.deal import _Deal
from adjudicate.play.making import _Making
from adjudicate.play.table import DEAL_ACTS, MAKING_ACTS, Moment, Play, Table
from adjudicate.play.tricks import _Tricks
from adjudicate.record.scenario import LogEntry, Scenario
from adjudicate.record.seats import Seat


class _Replay(_Deal, _Making, _Tricks):
    """A scenario's log replayed act by act, each act handed to the phase of the hand it belongs to."""

    # --- the log ------------------------------------------------------------
    def run(self) -> Table:
        self.deal()
        log = self.scenario.log
        for entry in log:
            act = entry.act
            if act.verb in ("found", "missing") and act.seat is not None and act.cards:
                found = entry.number if act.verb == "found" else len(log) + 1
                self.short.setdefault(act.seat, []).append((found, act.card))
        moments, tricks = self.moments, self.tricks
        for entry in log:
            act = entry.act
            verb = act.verb
            if self.phase == "deal" and verb not in DEAL_ACTS:
                self.phase = "making" if self.euchre else "play"
            if verb == "cut" and not self.euchre and not tricks and any(
                    moment.act.verb == "claim" and moment.act.word == "honours" for moment in moments):
                # At Whist honours are claimed once the hand is played (Long Whist 18): a cut after a claim of
                # them is the next deal's, the hand over, though the record lists none of its tricks.
                self.phase = "after"
            # The trick in progress, or the one about to start.
            last = tricks[-1] if tricks else None
            number = last.number if last is not None and last.quit_entry is None and last.active else len(tricks) + 1
            moments.append(Moment(entry.number, act, entry.pos, self.phase, number, self.making_round()))
            self.act(entry)
        self.finish()
        if self.problems:
            raise ScenarioError(in_file_order(self.problems))
        table = Table(self.scenario, self.game, self.trumps, self.tricks, self.moments, self.records, self.making,
                      self.false_starts, self.withdrawn, self.trump_card_to)
        self.annotate(table)
        return table

    def making_round(self) -> int | None:
        making = self.making
        if making is None or making.maker is not None or self.phase not in ("deal", "making"):
            return None
        return 2 if making.turned_down else 1

    def act(self, entry: LogEntry) -> None:
        verb = entry.act.verb
        if verb in MAKING_ACTS:
            self.make(entry)
        elif verb == "turn":
            if self.phase == "deal":
                self.phase = "making" if self.euchre else "play"
        elif verb == "cut" and (self.tricks or self.phase == "after"):
            # The cut for the next deal: the hand is over.
            self.close_open_trick(entry.number)
            self.phase = "after"
        else:
            handler = self.HANDLERS.get(verb)
            if handler is not None:
                handler(self, entry)
        # Every other act (claims, calls, remarks, questions) stands in the timeline as it was.

    def reveal_all(self, entry: LogEntry) -> None:
        """`throw`: the whole hand shown face up (law 48)."""
        seat = entry.act.seat
        assert seat is not None
        held = self.records[seat].held_at(entry.number, self.game.hand_size)
        for card in sorted(held.known):
            self.records[seat].exposed.append((entry.number, card, "throw"))

    def reveal_each(self, entry: LogEntry) -> None:
        for card in entry.act.cards:
            self.reveal(entry.act.seat, card, entry, entry.act.verb)

    HANDLERS: dict[str, Callable[[Any, LogEntry], None]] = {
        "discard": _Making.discard,
        "play": _Tricks.play,
        "correct": _Tricks.correct,
        "take back": _Tricks.take_back,
        "quit": lambda self, entry: self.quit(entry.number),
        "expose": reveal_each,
        "drop": reveal_each,
        "detach": reveal_each,
        "throw": reveal_all,
        "drop below": _Tricks.drop_below,
        "found": _Tricks.restore,
        "missing": _Tricks.restore,
        "names": _Tricks.name_card,
        "second card": _Tricks.second_card,
        "withdraw": _Tricks.withdraw,
    }

    # --- what each player held at each play ----------------------------------
    def annotate(self, table: Table) -> None:
        hand_size = self.game.hand_size
        trump, left = self.trumps.suit, self.trumps.left_bower
        plays: dict[Seat, list[Play]] = {}
        for trick in self.tricks:
            for play in trick.plays:
                plays.setdefault(play.seat, []).append(play)
        for seat, his in plays.items():
            # The plays are in log order: each is added to the last trick, at the entry being replayed.
            holdings = self.records[seat].held_at_each([play.entry for play in his], hand_size)
            for play, holding in zip(his, holdings):
                play.holding = holding
                led = play.led
                if led is None:
                    play.legal = holding.known if holding.unknown == 0 else None
                    continue
                # The cards of the suit led (`Trump.suit_of`, without a call a card): each card's own suit, but the
                # left bower's, which is trumps.
                following = {card for card in holding.known if card.suit is led}
                if left is not None and left in holding.known:
                    if led is trump:
                        following.add(left)
                    else:
                        following.discard(left)
                if following:
                    play.legal = frozenset(following)
                elif holding.unknown == 0:
                    play.legal = holding.known
                else:
                    play.legal = None


def replay(scenario: Scenario, game: Game | None = None) -> Table:
    """Replay a scenario's log at the table of its code."""
    if game is None:
        game = _game_of(scenario)
    return _Replay(scenario, game).run()


def _game_of(scenario: Scenario) -> Game:
    if scenario.code in BUILTIN_GAMES:
        return BUILTIN_GAMES[scenario.code]
    from adjudicate.errors import did_you_mean
    pos = scenario.positions.get("code", Pos(scenario.path, 1, 1))
    raise ScenarioError([Problem(pos, f"unknown code {scenario.code!r}{did_you_mean(scenario.code, BUILTIN_GAMES)}; "
                                      f"expected one of: {', '.join(BUILTIN_GAMES)}")])
