"""The table: a scenario's log replayed act by act into tricks, holdings and a timeline.

The replay never refuses an irregular act: a lead out of turn starts a trick
with the wrong leader, a revoke is a card played like any other. It records,
for every play, whose turn it was and what the player was known to hold, so
that the detectors (`facts`) can judge it. Only what cannot happen at a table
(a card not in the pack, a card in two places, a card played twice) is an
input error.
"""

from __future__ import annotations

from operator import itemgetter

from msgspec import Struct, field

from adjudicate.record.acts import Act
from adjudicate.record.cards import Card, Suit, Trump
from adjudicate.errors import Pos, Problem, ScenarioError, in_file_order
from adjudicate.lawbook.games import BUILTIN_GAMES, Game
from adjudicate.record.scenario import LogEntry, Scenario
from adjudicate.record.seats import SEATS, Seat, Side

MAKING_ACTS = frozenset({"pass", "order up", "assist", "take up", "turn down", "alone", "alone at", "name",
                         "take it from you", "mention"})
ROUND_ONE_MAKES = frozenset({"order up", "assist", "take up"})
_first = itemgetter(0)
DEAL_ACTS = frozenset({"deal", "touch", "count", "shuffle", "new cards", "cut", "expose", "drop", "drop below",
                       "turn", "claim", "elect", "consult", "found", "missing", "give", "withdraw"})


class Knowledge(Struct, frozen=True):
    """What a player was known to hold at one moment."""

    known: frozenset[Card]
    """Cards he certainly held: from `hands`, or because he played them later (the search of the tricks)."""
    unknown: int
    """How many more cards he held that the record does not name."""


class Play(Struct):
    """A card played to a trick."""

    seat: Seat
    card: Card
    entry: int
    """The log entry (1-based) that played it."""
    trick: int
    """The trick (1-based) it went to."""
    due: Seat | None
    """Whose turn it was to play (None once everyone has played)."""
    led: Suit | None
    """The suit led to this trick (a left bower leads trumps), or None for a lead."""
    holding: Knowledge | None = None
    """What the player held just before playing, as far as the record shows."""
    legal: frozenset[Card] | None = None
    """The cards he could have played without revoking, or None if his holding is not fully known."""
    withdrawn_at: int | None = None
    """The entry at which it was taken back (corrected, or withdrawn after a false lead)."""
    also_played: tuple[Card, ...] = ()
    """Other cards played at once with it (they are exposed, law 46 I)."""

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Trick(Struct):
    """One trick: who led, the cards in play order, who won."""

    number: int
    leader: Seat
    due_leader: Seat
    """Who ought to have led it."""
    size: int
    """How many players play to it (3 when a lone hand is played)."""
    plays: list[Play] = field(default_factory=list)
    """Every card played to it, withdrawn ones included."""
    quit_entry: int | None = None
    """The entry at which it was turned and quitted (explicit `quit`, or implied by the next lead)."""
    winner: Seat | None = None

    @property
    def active(self) -> list[Play]:
        """The cards that stand in the trick (not to be changed: it may be `plays` itself)."""
        plays = self.plays
        for play in plays:
            if play.withdrawn_at is not None:
                return [play for play in plays if play.withdrawn_at is None]
        return plays

    @property
    def complete(self) -> bool:
        """Every player in the hand has a card in it (two cards from one player do not make up for a third's)."""
        return len({play.seat for play in self.active if play.seat is not self.out}) >= self.size

    out: Seat | None = None
    """The lone player's partner, whose card (if he plays one, law 100) does not win the trick."""

    @property
    def led(self) -> Suit | None:
        return self._led

    _led: Suit | None = None

    def played_by(self, seat: Seat) -> Play | None:
        for play in self.active:
            if play.seat is seat:
                return play
        return None


class Moment(Struct, frozen=True):
    """One log entry replayed: the act, and where the hand stood when it happened."""

    entry: int
    act: Act
    pos: Pos
    phase: str
    """"deal", "making", "discard", "play" or "after" (the hand is over)."""
    trick: int
    """The trick in progress or about to start (1-based)."""
    round: int | None = None
    """Euchre's round of making the trump (1, or 2 once the card is turned down), while it is being made."""


class Making(Struct):
    """How the trump was made at Euchre."""

    maker: Seat | None = None
    """Who ordered up, assisted, took up or named the trump."""
    act: str | None = None
    round: int | None = None
    entry: int | None = None
    lone: Seat | None = None
    """Who plays alone, if anyone."""
    lone_entry: int | None = None
    turned_down: bool = False
    """All passed in the first round and the turned card went down."""
    passed: dict[int, list[Seat]] = field(default_factory=lambda: {1: [], 2: []})
    """Who passed in each round."""
    discard: Card | None = None
    discard_entry: int | None = None


class Table(Struct):
    """A hand replayed."""

    scenario: Scenario
    game: Game
    trumps: Trump
    tricks: list[Trick]
    moments: list[Moment]
    holdings: dict[Seat, "SeatRecord"]
    making: Making | None
    false_starts: list[Trick] = field(default_factory=list)
    """Tricks begun by a false lead whose cards were all taken back (law 53)."""
    withdrawn: dict[int, int] = field(default_factory=dict)
    """Claims taken back: the claim's log entry -> the entry of the `withdraw` that took it back."""
    trump_card_to: Seat | None = None
    """At Whist, the seat the trump card (the dealer's last card) went to when the log says it came to another
    hand (`S: give trump to W`, Short Whist 44 III); None when it came to the dealer."""

    @property
    def trump(self) -> Suit | None:
        return self.trumps.suit

    @property
    def dealer(self) -> Seat:
        return self.scenario.dealer

    @property
    def eldest(self) -> Seat:
        return self.scenario.dealer.left

    @property
    def lone(self) -> Seat | None:
        return self.making.lone if self.making else None

    @property
    def out(self) -> Seat | None:
        """The lone player's partner, whose cards are out of the hand."""
        return self.lone.partner if self.lone else None

    def moment(self, entry: int) -> Moment:
        return self.moments[entry - 1]

    @property
    def next_deal_cut(self) -> int | None:
        """The log entry at which the cards were cut for the next deal: a cut once the play had begun."""
        return next((m.entry for m in self.moments if m.act.verb == "cut" and m.phase in ("play", "after")), None)

    def next_deal_cut_against(self, side: Side) -> Moment | None:
        """The first cut for the next deal that counts against `side`: any cut made with the pack presented (or
        with nothing said of it), and one made without the pack being presented (`E: cut unpresented`) only
        against the side that made it."""
        for moment in self.moments:
            act = moment.act
            if act.verb == "cut" and moment.phase in ("play", "after") \
                    and (act.word != "unpresented" or act.seat is None or act.seat.side is side):
                return moment
        return None

    def standing_claim(self, moment: Moment) -> bool:
        """A claim not withdrawn (`withdraw`)."""
        return moment.entry not in self.withdrawn


class SeatRecord(Struct):
    """Everything the record shows of one player's cards."""

    seat: Seat
    dealt: set[Card]
    """Cards known to have been dealt to him (from `hands`, or played, shown or discarded later)."""
    listed_complete: bool
    """`hands` listed his whole hand."""
    listed: int
    """How many cards `hands` listed."""
    acquired: list[tuple[int, Card]] = field(default_factory=list)
    """(entry, card) he took into his hand: the dealer's turned card."""
    gone: list[tuple[int, Card, str]] = field(default_factory=list)
    """(entry, card, how) that left his hand: "played", "discarded"; "returned" puts one back."""
    exposed: list[tuple[int, Card, str]] = field(default_factory=list)
    """(entry, card, how) shown: "expose", "drop", "detach", "throw", "two at once", "led again", "named" (named
    while in his hand), "second card" (played to the trick just completed, thinking he had not played to it)."""
    missing: list[tuple[int, Card, str | None, bool]] = field(default_factory=list)
    """(entry, card, where, held) of a card missing from his hand: `found CARD [where]` (where it was found, or
    None if the record does not say) or `missing CARD` (where is "nowhere": not found, the card wanting).
    `held`: he is answerable for revokes as if it had been in his hand from the deal on (Short Whist 46)."""

    def total_cards(self, hand_size: int) -> int:
        if self.listed_complete:
            return self.listed + len(self.acquired)
        return max(hand_size, len(self.dealt - {card for _, card in self.acquired})) + len(self.acquired)

    def held_at(self, entry: int, hand_size: int) -> Knowledge:
        """What he held just before log entry `entry`."""
        held = set(self.dealt)
        for when, card in self.acquired:
            if when >= entry:
                held.discard(card)
        for when, card, how in sorted(self.gone, key=_first):
            if when < entry:
                if how == "returned":
                    held.add(card)
                else:
                    held.discard(card)
        total = self.total_cards(hand_size)
        known_total = len(self.dealt)
        unknown = max(0, total - known_total)
        return Knowledge(frozenset(held), unknown)


class _Replay:
    def __init__(self, scenario: Scenario, game: Game):
        self.scenario = scenario
        self.game = game
        self.euchre = game.euchre
        self.pack_cards = game.pack.cards
        self.problems: list[Problem] = []
        self.where: dict[Card, tuple["Seat | str", Pos]] = {}
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
        if card not in self.game.pack:
            ranks = "".join(rank.letter for rank in self.game.pack.ranks)
            self.problem(pos, f"{what}: {card} is not in the pack of {self.scenario.code} "
                              f"({len(self.game.pack)} cards: {ranks} in each suit)")
            return False
        return True

    @staticmethod
    def owner_words(owner: "Seat | str") -> str:
        return f"the hand of {owner}" if isinstance(owner, Seat) else owner

    def place(self, card: Card, owner: "Seat | str", pos: Pos) -> bool:
        """Note where a card was dealt; `owner` is a seat, or "the turned card"."""
        where = self.where
        if card not in where and card in self.pack_cards:  # the everyday card, placed once
            where[card] = (owner, pos)
            return True
        if card not in self.pack_cards or where[card][0] != owner:
            what = "`turned`" if owner == "the turned card" else self.owner_words(owner)
            if not self.in_pack(card, pos, what):
                return False
            other, other_pos = where[card]
            self.problem(pos, f"{what}: {card} is in two places: also {self.owner_words(other)} (line {other_pos.line})")
            return False
        return True

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
        for seat in SEATS:
            holding = scenario.hands.get(seat)
            cards = set(holding.cards) if holding else set()
            seen: dict[Card, Pos] = {}
            for card, pos in zip(holding.cards if holding else (), holding.positions if holding else ()):
                if card in seen:
                    self.problem(pos, f"the hand of {seat}: {card} is listed twice (also at column {seen[card].column})")
                    continue
                seen[card] = pos
                if not euchre and card == turned and seat is holder:
                    continue
                self.place(card, seat, pos)
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

    # --- the log ------------------------------------------------------------
    def run(self) -> Table:
        self.deal()
        for entry in self.scenario.log:
            if entry.act.verb in ("found", "missing") and entry.act.seat is not None and entry.act.cards:
                found = entry.number if entry.act.verb == "found" else len(self.scenario.log) + 1
                self.short.setdefault(entry.act.seat, []).append((found, entry.act.card))
        for entry in self.scenario.log:
            if self.phase == "deal" and entry.act.verb not in DEAL_ACTS:
                self.phase = "making" if self.euchre else "play"
            self.moments.append(Moment(entry.number, entry.act, entry.pos, self.phase, self.trick_number(),
                                       self.making_round()))
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

    def trick_number(self) -> int:
        """The trick in progress, or the one about to start."""
        trick = self.current()
        if trick is not None and trick.active:
            return trick.number
        return len(self.tricks) + 1

    def act(self, entry: LogEntry) -> None:
        verb = entry.act.verb
        if verb in MAKING_ACTS:
            self.make(entry)
        elif verb == "turn":
            if self.phase == "deal":
                self.phase = "making" if self.euchre else "play"
        elif verb == "cut" and self.tricks:
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

    def own(self, seat: Seat, card: Card, entry: LogEntry, doing: str) -> bool:
        """Check that `seat` can hold `card` and note that he did."""
        record = self.records[seat]
        where = self.where.get(card)
        turned = self.scenario.turned
        if card == turned and self.euchre:
            if seat is self.scenario.dealer and self.turned_taken:
                return True
            self.problem(entry.pos, f"{seat} {doing} {card}, but {card} is the turned card"
                                    + ("" if seat is self.scenario.dealer else f", which only the dealer {self.scenario.dealer} can take up"))
            return False
        if where is not None and where[0] is not seat and card not in record.dealt:
            self.problem(entry.pos, f"{seat} {doing} {card}, but {card} is {self.owner_words(where[0])} "
                                    f"(line {where[1].line})")
            return False
        if card not in record.dealt:
            if record.listed_complete:
                self.problem(entry.pos, f"{seat} {doing} {card}, but the hand of {seat} as dealt "
                                        f"(line {self.scenario.hands[seat].pos.line}) does not hold it")
                return False
            record.dealt.add(card)
            self.where[card] = (seat, entry.pos)
        return True

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
        """Whose turn it is in a trick: the first seat from the leader, in order, who has not played."""
        out = self.making.lone.partner if self.making and self.making.lone else None
        played = {play.seat for play in trick.active}
        for step in range(4):
            seat = trick.leader.after(step)
            if seat is out or seat in played:
                continue
            if self.short and seat in self.short and self.no_card_left(seat, len(self.moments)):
                continue  # a card short, he has none to play
            return seat
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
        active = [play for play in trick.active if play.seat is not trick.out] or trick.active
        if not active:
            return None
        led = trick.led or self.trumps.suit_of(active[0].card)
        best = max(active, key=lambda play: (self.trumps.power(play.card, led), -active.index(play)))
        return best.seat

    def play(self, entry: LogEntry) -> None:
        act = entry.act
        seat = act.seat
        assert seat is not None
        cards = act.cards
        for card in cards:
            if not self.in_pack(card, entry.pos, f"{seat} plays"):
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
            trick = Trick(len(self.tricks) + 1, seat, self.next_leader(), size)
            trick.out = out
            self.tricks.append(trick)
        card = cards[0]
        if self.leads_again(trick, seat, card):
            # Law 47 / Short Whist 57: a winning card led again before the partner has played: the
            # second card is not played to the trick; it is an exposed card.
            self.records[seat].exposed.append((entry.number, card, "led again"))
            return
        due = self.due_in(trick) if trick.active else trick.due_leader
        play = Play(seat, card, entry.number, trick.number, due, trick.led if trick.active else None,
                    also_played=tuple(cards[1:]))
        if not trick.active:
            trick.leader = seat
            trick._led = self.trumps.suit_of(card) if self.trumps.suit or not self.euchre else card.suit
        trick.plays.append(play)
        record = self.records[seat]
        record.gone.append((entry.number, card, "played"))
        self.played[card] = entry.number
        for extra in cards[1:]:
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
        old.withdrawn_at = entry.number
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
        trick.plays.append(play)
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
        old.withdrawn_at = entry.number
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
        """`found CARD [where]`, `missing CARD`: a card missing from his hand is his (Short Whist 46 and 70, Euchre
        61): held from the deal on, for revokes, and, once found, restored to him. At Euchre a card found in the
        pack was never dealt to him (he had four cards, law 90): it is his from the moment it is found."""
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
        where = self.where.get(card)
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
        held = not (self.euchre and place == "pack")
        trick = self.current()
        if act.verb == "found" and trick is not None and trick.active and trick.played_by(seat) is None \
                and self.no_card_left(seat, entry.number):
            trick.size = min(self.size(), trick.size + 1)  # restored to him, his card is due to this trick
        record.dealt.add(card)
        if not held:
            record.acquired.append((entry.number, card))
        record.missing.append((entry.number, card, place, held))
        self.where[card] = (seat, entry.pos)

    def no_card_left(self, seat: Seat, entry: int) -> bool:
        """Just before `entry`, he has no card in his hand: his others played, his missing card not yet found."""
        record = self.records[seat]
        absent = {card for found, card in self.short[seat] if found >= entry}
        held = record.held_at(entry, self.game.hand_size)
        return held.known <= absent and held.unknown <= len(absent - record.dealt)

    def name_card(self, entry: LogEntry) -> None:
        """`names CARD`: a card named while in his hand is exposed. One he has played, or another has, is not in
        his hand: naming it exposes nothing."""
        seat, card = entry.act.seat, entry.act.card
        assert seat is not None
        if not self.in_pack(card, entry.pos, f"{seat} names"):
            return
        if card in self.played or (card == self.scenario.turned and self.euchre and not self.turned_taken):
            return
        record = self.records[seat]
        if card in record.dealt and card not in record.held_at(entry.number, self.game.hand_size).known:
            return  # discarded, or otherwise gone from his hand
        if self.own(seat, card, entry, "names"):
            record.exposed.append((entry.number, card, "named"))

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

    HANDLERS = {
        "discard": discard,
        "play": play,
        "correct": correct,
        "take back": take_back,
        "quit": lambda self, entry: self.quit(entry.number),
        "expose": reveal_each,
        "drop": reveal_each,
        "detach": reveal_each,
        "throw": reveal_all,
        "drop below": drop_below,
        "found": restore,
        "missing": restore,
        "names": name_card,
        "second card": second_card,
        "withdraw": withdraw,
    }

    # --- what each player held at each play ----------------------------------
    def annotate(self, table: Table) -> None:
        hand_size = self.game.hand_size
        suit_of = self.trumps.suit_of
        for trick in self.tricks:
            for play in trick.plays:
                record = self.records[play.seat]
                holding = record.held_at(play.entry, hand_size)
                play.holding = holding
                led = play.led
                if led is None:
                    play.legal = holding.known if holding.unknown == 0 else None
                    continue
                following = frozenset(card for card in holding.known if suit_of(card) is led)
                if following:
                    play.legal = following
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
