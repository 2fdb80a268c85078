"""The table as replayed: tricks, holdings and a timeline (`replay.replay` builds it from a scenario's log).

For every play it records whose turn it was and what the player was known to hold, so that the detectors
(`facts`) can judge it.
"""

from __future__ import annotations

from functools import cached_property

from msgspec import Struct, field

from adjudicate.errors import Pos
from adjudicate.lawbook.games import Game
from adjudicate.record.acts import Act
from adjudicate.record.cards import Card, Rank, Suit, Trump
from adjudicate.record.scenario import Scenario
from adjudicate.record.seats import Seat, Side


MAKING_ACTS = frozenset({"pass", "order up", "assist", "take up", "turn down", "alone", "alone at", "name",
                         "take it from you", "mention"})
ROUND_ONE_MAKES = frozenset({"order up", "assist", "take up"})
DEAL_ACTS = frozenset({"deal", "touch", "count", "shuffle", "new cards", "cut", "expose", "drop", "drop below",
                       "turn", "claim", "elect", "consult", "found", "missing", "give", "withdraw", "look trump",
                       "remind"})


HONOUR_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.KNAVE)
"""The ranks of the four honours, of trumps (Short Whist 3, Long Whist 1-6)."""


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
        if not self.taken_back:
            return self.plays
        return [play for play in self.plays if play.withdrawn_at is None]

    @property
    def complete(self) -> bool:
        """Every player in the hand has a card in it (two cards from one player do not make up for a third's)."""
        return len(self.players) - (self.out in self.players) >= self.size

    out: Seat | None = None
    """The lone player's partner, whose card (if he plays one, law 100) does not win the trick."""
    players: set[Seat] = field(default_factory=set)
    """The players with a card standing in it: kept as cards are played (`add`) and taken back, for `complete`,
    asked about 45 times a hand on the benchmark's files, and for whose turn it is."""

    @property
    def led(self) -> Suit | None:
        return self._led

    _led: Suit | None = None
    taken_back: int = 0
    """How many of its plays were taken back (`withdrawn_at` set): `active` is `plays` itself while none was, without
    looking at each play (65 times a hand, on the benchmark's files)."""

    def add(self, play: Play) -> None:
        """A card played to it."""
        self.plays.append(play)
        self.players.add(play.seat)

    def take_back(self, play: Play, entry: int) -> None:
        """The card is taken back out of the trick at log entry `entry` (corrected, or after a false lead)."""
        play.withdrawn_at = entry
        self.taken_back += 1
        self.players = {other.seat for other in self.active}

    def played_by(self, seat: Seat) -> Play | None:
        if seat not in self.players:
            return None
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


class Table(Struct, dict=True):
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

    @cached_property
    def by_verb(self) -> dict[str, list[Moment]]:
        """The moments of each verb, in log order: worked out when first asked (the replay makes the table once the
        log is replayed), for the questions that look for one kind of act, rather than walking the log each time."""
        found: dict[str, list[Moment]] = {}
        for moment in self.moments:
            found.setdefault(moment.act.verb, []).append(moment)
        return found

    @cached_property
    def winners(self) -> list[Seat]:
        """Who won each trick completed, in order: worked out when first asked (the tricks stand as the replay
        left them), for the score, which asks it several times a hand."""
        return [trick.winner for trick in self.tricks if trick.complete and trick.winner is not None]

    @cached_property
    def honours(self) -> dict[Seat, int | None]:
        """How many of the four honours (A K Q J of trumps) each seat was dealt, where the record shows it: his whole
        hand is listed, or every honour is placed; None where it does not. Worked out when first asked (the hands
        stand as the replay left them), for the detectors, the claims and the score."""
        trump = self.trumps.suit
        if trump is None or self.game.family != "whist":
            return dict.fromkeys(self.holdings)
        ranks = self.game.pack.ranks
        honours = frozenset(Card(rank, trump) for rank in HONOUR_RANKS if rank in ranks)
        placed = not honours.difference(*(record.dealt for record in self.holdings.values()))
        return {seat: len(honours.intersection(record.dealt)) if record.listed_complete or placed else None
                for seat, record in self.holdings.items()}

    @property
    def trump(self) -> Suit | None:
        return self.trumps.suit

    @property
    def trump_turned(self) -> bool:
        """The trump is known at the table: at Whist, the log does not stop in the deal (shuffled, cut or dealt)
        before the trump card is turned up and before any card is played; at Euchre, always (the making says
        what it is)."""
        if self.game.family != "whist":
            return True
        in_deal = any(m.act.verb in ("shuffle", "cut", "deal", "touch", "count", "give") and m.phase == "deal"
                      for m in self.moments)
        return not in_deal or any(m.act.verb == "turn" for m in self.moments) \
            or any(trick.plays for trick in self.tricks)

    @property
    def dealer(self) -> Seat:
        return self.scenario.dealer

    @property
    def eldest(self) -> Seat:
        """The player on the left of the one who dealt the cards in play: the dealer's left, or, where another
        player dealt them and no one dealt again, his left (he received the first card; Short Whist 48: not
        stopped before the turn-up, "the game must proceed as if no mistake had been made")."""
        dealt = [moment.act.seat for moment in self.by_verb.get("deal", ())
                 if moment.phase == "deal" and moment.act.seat is not None]
        return (dealt[-1] if dealt else self.scenario.dealer).left

    @property
    def lone(self) -> Seat | None:
        return self.making.lone if self.making else None

    @property
    def out(self) -> Seat | None:
        """The lone player's partner, whose cards are out of the hand."""
        return self.lone.partner if self.lone else None

    def next_to_play(self) -> tuple[Seat, int, bool] | None:
        """Who plays next as the record leaves the play, to which trick, and whether he leads: the winner of the
        last trick completed leads the next (the eldest hand the first), a trick begun goes on from its leader
        in order, and a trick whose cards were all taken back, or that was led out of turn and not followed by
        all, is led by the player whose lead it was. None once every trick is played."""
        out = self.out
        last = self.tricks[-1] if self.tricks else None
        if last is None or last.complete:
            number = last.number + 1 if last else 1
            if number > self.game.hand_size:
                return None
            leader = (last.winner or last.leader) if last else self.eldest
            while leader is out:
                leader = leader.left
            return leader, number, True
        # Euchre 53, Short Whist 63, Long Whist 7: a lead out of turn that not all have followed does not stand;
        # the cards played to it are taken back and the player whose lead it was leads.
        if not last.active or last.active[0].seat is not last.due_leader:
            return last.due_leader, last.number, True
        for step in range(4):
            seat = last.leader.after(step)
            if seat is not out and last.played_by(seat) is None:
                return seat, last.number, False
        return None

    def moment(self, entry: int) -> Moment:
        return self.moments[entry - 1]

    @property
    def next_deal_cut(self) -> int | None:
        """The log entry at which the cards were cut for the next deal: a cut once the play had begun."""
        return next((m.entry for m in self.by_verb.get("cut", ()) if m.phase in ("play", "after")), None)

    def next_deal_cut_against(self, side: Side) -> Moment | None:
        """The first cut for the next deal that counts against `side`: any cut made with the pack presented (or
        with nothing said of it), and one made without the pack being presented (`E: cut unpresented`) only
        against the side that made it."""
        for moment in self.by_verb.get("cut", ()):
            act = moment.act
            if moment.phase in ("play", "after") \
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
        return self.held_at_each([entry], hand_size)[0]

    def held_at_each(self, entries: list[int], hand_size: int) -> list[Knowledge]:
        """What he held just before each of `entries` (in log order), his record walked once: the cards dealt him
        (and come to him since: `acquired`), less those whose last move before the entry took them out of his hand
        (`gone`), and less those that come to him at or after it, unless he played one and took it back before."""
        unknown = max(0, self.total_cards(hand_size) - len(self.dealt))
        dealt = frozenset(self.dealt)
        gone = self.gone
        out: set[Card] = set()  # the cards whose last move, so far, took them out of his hand
        moved = 0
        held_at_each = []
        for entry in entries:
            while moved < len(gone) and gone[moved][0] < entry:
                _, card, how = gone[moved]
                if how == "returned":
                    out.discard(card)
                else:
                    out.add(card)
                moved += 1
            held = dealt - out
            if self.acquired:
                later = {card for when, card in self.acquired if when >= entry}
                if later:  # not his yet, unless he played it and took it back before
                    held -= later - {card for _, card, how in gone[:moved] if how == "returned"}
            held_at_each.append(Knowledge(held, unknown))
        return held_at_each
