"""The acts of a hand, as written in a scenario's log: `W: order up`, `N: KS`, `quit`.

Each act parses from the words a player would write and prints back to them
(`str(Act.parse("order up", Seat.W)) == "W: order up"`). An act is what someone
did at the table, regular or not: judging it is the replay's job.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from msgspec import Struct

from adjudicate.record.cards import Card, Suit
from adjudicate.errors import did_you_mean, quote
from adjudicate.record.seats import Seat

CLAIM_KINDS = ("revoke", "new deal", "misdeal", "honours", "score", "game", "tricks", "penalty", "exposed card", "deal")
"""What a player may claim: `claim revoke E`, `claim new deal`; `claim deal N`: that it is not North's deal (Short
Whist 48 and 50, "asserting that it is not his deal")."""

REQUIREMENTS = ("highest", "lowest", "win", "lose")
"""What the adversaries may require of a player: his highest or lowest of the suit led, to win or lose the trick."""

DEAL_PATTERNS = ("2-3", "3-2", "1-4", "4-1", "2-2-1", "1-by-1", "irregular")

ELECTIONS = ("new deal", "stand", "play", "alone", "penalty")

FOUND_WHERE = ("floor", "trick", "pack", "table")
"""Where a card missing from a hand was found (`found QS floor`): below the table, among the tricks, in the
pack (at Whist the other pack, Short Whist 46; at Euchre the cards not dealt), on the table."""

CUT_WORDS = ("unpresented",)
"""How a cut was made, where it matters: `E: cut unpresented`, without the pack being presented to him."""

THROW_WORDS = ("lost", "sure")
"""Why a player threw his cards down, where the record says (Long Whist 23, 24): supposing the game lost, or
sure of winning every trick."""

GIVEN = ("trump", "packet")
"""What a dealer gave to the wrong hand in the deal: `S: give trump to W` (the trump card), `S: give packet to N`."""


class Act(Struct, frozen=True):
    """One thing done at the table."""

    verb: str
    """The act's name: "play", "pass", "order up", "claim", "quit", ..."""
    seat: Seat | None = None
    """Who did it; None for a table event (`quit`, `mix`, `cut`, `turn`)."""
    cards: tuple[Card, ...] = ()
    """The cards it names (played, discarded, exposed, corrected, called)."""
    suit: Suit | None = None
    """The suit it names (`name hearts`, `alone at spades`, `call clubs`)."""
    target: Seat | None = None
    """Whom it is aimed at (`claim revoke E`, `require highest S`)."""
    word: str | None = None
    """Its kind, where the act has kinds: a claim's, a requirement's, a deal's pattern."""

    @property
    def card(self) -> Card:
        return self.cards[0]

    def text(self) -> str:
        """The act's words without the seat, as written in a log."""
        return _PRINTERS[self.verb](self)

    def __str__(self) -> str:
        return f"{self.seat}: {self.text()}" if self.seat else self.text()

    @classmethod
    def parse(cls, text: str, seat: Seat | None = None) -> "Act":
        """Parse the words of an act; `seat` is who did it (None for a bare table event)."""
        return parse_act(text, seat)


# --- the grammar ------------------------------------------------------------
# Each entry: verb -> (argument shape, seat act?, table event?).
#   ""        no argument
#   "card"    one card             "cards"  one or more cards
#   "suit"    a suit               "seat?"  optionally a seat
#   "kind"    one of a fixed list of words (see _KINDS), then optionally a seat

class _Spec(Struct, frozen=True):
    verb: str
    shape: str
    seat: bool
    bare: bool
    example: str


_SPECS: tuple[_Spec, ...] = (
    # Euchre's making of the trump (laws 74-82, 93-99)
    _Spec("pass", "", True, False, "pass"),
    _Spec("order up", "", True, False, "order up"),
    _Spec("assist", "", True, False, "assist"),
    _Spec("take up", "", True, False, "take up"),
    _Spec("turn down", "", True, False, "turn down"),
    _Spec("alone at", "suit", True, False, "alone at hearts"),
    _Spec("alone", "", True, False, "alone"),
    _Spec("name", "suit", True, False, "name hearts"),
    _Spec("take it from you", "", True, False, "take it from you"),
    _Spec("mention", "suit", True, False, "mention spades"),
    _Spec("discard", "card", True, False, "discard 7C"),
    # play
    _Spec("play", "cards", True, False, "AS"),
    _Spec("correct", "card", True, False, "correct QS"),
    _Spec("take back", "", True, False, "take back"),
    _Spec("expose", "cards", True, False, "expose KH"),
    _Spec("drop", "card", True, False, "drop KH"),
    _Spec("drop below", "card", True, False, "drop below KH"),
    _Spec("found", "found", True, False, "found KH floor"),
    _Spec("missing", "card", True, False, "missing KH"),
    _Spec("names", "card", True, False, "names KH"),
    _Spec("second card", "card", True, False, "second card KH"),
    _Spec("detach", "card", True, False, "detach KH"),
    _Spec("throw", "throw", True, False, "throw"),
    _Spec("remark", "", True, False, "remark"),
    _Spec("ask turned", "", True, False, "ask turned"),
    _Spec("ask trump", "", True, False, "ask trump"),
    _Spec("ask", "", True, False, "ask"),
    _Spec("deny", "", True, False, "deny"),
    _Spec("place cards", "", True, False, "place cards"),
    _Spec("last trick", "", True, False, "last trick"),
    # penalties demanded
    _Spec("call", "call", True, False, "call KH"),
    _Spec("require", "require", True, False, "require highest S"),
    _Spec("consult", "", True, False, "consult"),
    _Spec("elect", "elect", True, False, "elect new deal"),
    # honours (Long Whist laws 16-21)
    _Spec("call honours", "", True, False, "call honours"),
    _Spec("answer", "", True, False, "answer"),
    _Spec("remind", "", True, False, "remind"),
    # Whist's trump card (Short Whist laws 52-55)
    _Spec("lift trump", "", True, False, "lift trump"),
    _Spec("leave trump", "", True, False, "leave trump"),
    _Spec("forget trump", "", True, False, "forget trump"),
    _Spec("look trump", "", True, False, "look trump"),
    # claims
    _Spec("claim", "claim", True, False, "claim revoke E"),
    # the deal and the pack
    _Spec("deal", "deal", True, False, "deal 2-3"),
    _Spec("touch", "", True, False, "touch"),
    _Spec("count", "", True, False, "count"),
    _Spec("other pack card", "", True, False, "other pack card"),
    _Spec("shuffle", "", True, True, "shuffle"),
    _Spec("new cards", "", True, True, "new cards"),
    # table events (also by a seat, where who did it matters)
    _Spec("quit", "", True, True, "quit"),
    _Spec("mix", "", True, True, "mix"),
    _Spec("cut", "cut", True, True, "cut"),
    _Spec("withdraw", "withdraw", True, False, "withdraw game"),
    _Spec("give", "give", True, False, "give trump to W"),
    _Spec("turn", "", True, True, "turn"),
    _Spec("bystander remark", "", False, True, "bystander remark"),
)
_BY_VERB = {spec.verb: spec for spec in _SPECS}
# Longest verbs first, so "alone at" is tried before "alone", "call honours" before "call";
# grouped by their first word, so a verb is found without trying every one.
_MATCH_ORDER = sorted(_SPECS, key=lambda spec: -len(spec.verb))
_BY_FIRST_WORD: dict[str, list[_Spec]] = {}
for _spec in _MATCH_ORDER:
    _BY_FIRST_WORD.setdefault(_spec.verb.split()[0], []).append(_spec)

ACT_EXAMPLES: tuple[tuple[str, str], ...] = tuple((spec.verb, spec.example) for spec in _SPECS)


def _words_after(text: str, verb: str) -> str | None:
    """The rest of `text` if it starts with the words of `verb`."""
    if text == verb:
        return ""
    if text.startswith(verb + " "):
        return text[len(verb) + 1:].strip()
    return None


def _parse_seat(text: str) -> Seat:
    return Seat.parse(text)


MAX_ACT_WORDS = 60
"""The most words an act may have: the 52 cards of the largest pack, and a few words more."""


@lru_cache(maxsize=8192)  # `E: AS`, `N: pass`, `quit` recur in every log
def parse_act(text: str, seat: Seat | None) -> Act:
    """Parse one act's words. Raises ValueError with a message naming what was expected."""
    raw = " ".join(str(text).split())
    lowered = raw.lower()
    if not lowered:
        raise ValueError("an empty act")
    if len(raw) > 4 * MAX_ACT_WORDS and len(words := raw.split()) > MAX_ACT_WORDS:
        raise ValueError(f"an act of {len(words):,} words; an act names at most a pack of cards, "
                         f"{MAX_ACT_WORDS - 8} (the act {quote(raw, 20)})")
    first = lowered.split()[0]
    if seat is not None and first not in _BY_FIRST_WORD:
        # A card alone is a card played; two or more at once are all played (and exposed). No verb's first word is a
        # card: an act starting with one is no play, and is not tried as cards (the failed parse, an exception
        # raised through four calls, cost 3.7 M instructions on the 201 files).
        try:
            return Act("play", seat, tuple(Card.parse(word) for word in raw.translate(_LIST_PUNCTUATION).split()))
        except ValueError:
            pass
    for spec in _BY_FIRST_WORD.get(first, ()):
        rest = _words_after(lowered, spec.verb)
        if rest is None:
            continue
        if seat is None and not spec.bare:
            raise ValueError(f"{spec.verb!r} needs the seat that did it, as {{SEAT: {spec.example}}}")
        if seat is not None and not spec.seat:
            raise ValueError(f"{spec.verb!r} is a table event: write it alone, as `- {spec.example}`")
        original_rest = raw[len(raw) - len(rest):] if rest else ""
        return _ARG_PARSERS[spec.shape](spec, seat, rest, original_rest)
    verbs = [spec.verb for spec in _SPECS if (spec.seat if seat else spec.bare)]
    hint = did_you_mean(lowered, verbs) or did_you_mean(first, verbs)
    if seat is None:
        raise ValueError(f"unknown table event {quote(raw)}{hint}; a seat's act is written {{SEAT: ACT}}, "
                         f"a bare word is one of: {', '.join(verbs)}")
    raise ValueError(f"unknown act {quote(raw)}{hint}; expected a card (like JH) or one of: {', '.join(verbs)}")


def _no_arg(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    if rest:
        raise ValueError(f"{spec.verb!r} takes nothing after it (found {quote(raw)})")
    return Act(spec.verb, seat)


def _one_card(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    if not rest or len(rest.split()) != 1:
        raise ValueError(f"{spec.verb!r} takes one card, as {spec.example!r}")
    return Act(spec.verb, seat, (Card.parse(raw),))


def _cards(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    if not rest:
        raise ValueError(f"{spec.verb!r} takes one or more cards, as {spec.example!r}")
    return Act(spec.verb, seat, tuple(Card.parse(word) for word in raw.translate(_LIST_PUNCTUATION).split()))


_LIST_PUNCTUATION = str.maketrans({",": " ", "[": " ", "]": " "})


def _suit(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    if not rest or len(rest.split()) != 1:
        raise ValueError(f"{spec.verb!r} takes a suit, as {spec.example!r}")
    try:
        return Act(spec.verb, seat, suit=Suit.parse(rest))
    except ValueError:
        if spec.verb == "name" and _is_card(rest):
            raise ValueError(f"'name' takes a suit (Euchre's making of the trump, as 'name hearts'); "
                             f"to name a card he holds, write 'names {raw}'") from None
        raise


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except ValueError:
        return False
    return True


def _kind_then_seat(kinds: tuple[str, ...], what: str) -> Callable[[_Spec, Seat | None, str, str], Act]:
    def parse(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
        for kind in sorted(kinds, key=len, reverse=True):
            after = _words_after(rest, kind)
            if after is None:
                continue
            target = _parse_seat(after) if after else None
            return Act(spec.verb, seat, target=target, word=kind)
        hint = did_you_mean(rest, kinds)
        raise ValueError(f"{spec.verb!r} takes {what}{hint}: one of {', '.join(kinds)}, then optionally a seat, "
                         f"as {spec.example!r}")
    return parse


def _found(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`found QS`, or `found QS floor`: his missing card was found, and where."""
    words = raw.split()
    if not words or len(words) > 2:
        raise ValueError(f"'found' takes the card found and optionally where: one of {', '.join(FOUND_WHERE)}, "
                         f"as {spec.example!r}")
    card = Card.parse(words[0])
    if len(words) == 1:
        return Act("found", seat, (card,))
    where = words[1].lower()
    if where not in FOUND_WHERE:
        raise ValueError(f"'found' says where the card was found: one of {', '.join(FOUND_WHERE)}"
                         f"{did_you_mean(where, FOUND_WHERE)}, not {quote(words[1])}")
    return Act("found", seat, (card,), word=where)


def _call(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`call KH` (an exposed card), or `call clubs [S]` (a suit, from S when he next leads)."""
    words = raw.split()
    if not words or len(words) > 2:
        raise ValueError("'call' takes a card (call KH) or a suit and optionally a seat (call clubs S)")
    target = _parse_seat(words[1]) if len(words) == 2 else None
    try:
        return Act("call", seat, (Card.parse(words[0]),), target=target)
    except ValueError:
        pass
    try:
        return Act("call", seat, suit=Suit.parse(words[0]), target=target)
    except ValueError:
        raise ValueError(f"'call' takes a card (call KH) or a suit (call clubs), not {quote(raw)}") from None


def _worded(verb: str, seat: Seat | None, rest: str, words: tuple[str, ...], after: str) -> Act:
    """`VERB`, or `VERB WORD` with WORD one of `words`; `after` says, for the error, what may follow the verb."""
    if not rest:
        return Act(verb, seat)
    if rest not in words:
        raise ValueError(f"'{verb}' takes nothing after it{after}{did_you_mean(rest, words)}")
    return Act(verb, seat, word=rest)


def _cut(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`cut`, or `E: cut unpresented`: he cut without the pack being presented to him."""
    act = _worded("cut", seat, rest, CUT_WORDS, f", or how it was made: {', '.join(CUT_WORDS)} (cut without the "
                                                 "pack being presented)")
    if act.word is not None and seat is None:
        raise ValueError(f"'cut {rest}' needs the seat that cut, as {{SEAT: cut {rest}}}")
    return act


def _throw(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`throw`, or `throw lost` (supposing the game lost) or `throw sure` (sure of winning every trick)."""
    return _worded("throw", seat, rest, THROW_WORDS, ", or why he threw his cards down: lost (supposing the game "
                                                     "lost) or sure (sure of winning every trick)")


def _withdraw(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`withdraw`, or `withdraw KIND`: takes back his side's last claim (of that kind) still standing."""
    return _worded("withdraw", seat, rest, CLAIM_KINDS, " (his side's last claim), or the kind of claim withdrawn: "
                                                        f"one of {', '.join(CLAIM_KINDS)}")


def _give(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    """`give trump to W` (the trump card went to West's hand), `give packet to N` (a packet went to North)."""
    words = rest.split()
    if len(words) == 3 and words[1] == "to":
        words = [words[0], words[2]]
    if len(words) != 2 or words[0] not in GIVEN:
        raise ValueError(f"'give' takes what went to the wrong hand ({' or '.join(GIVEN)}) and whose hand it went "
                         f"to, as 'give trump to W' or 'give packet to N'")
    return Act("give", seat, target=_parse_seat(words[1]), word=words[0])


def _deal(spec: _Spec, seat: Seat | None, rest: str, raw: str) -> Act:
    if not rest:
        return Act("deal", seat)
    if rest not in DEAL_PATTERNS:
        raise ValueError(f"'deal' takes how the cards went round: one of {', '.join(DEAL_PATTERNS)}"
                         f"{did_you_mean(rest, DEAL_PATTERNS)}")
    return Act("deal", seat, word=rest)


_ARG_PARSERS: dict[str, Callable[[_Spec, Seat | None, str, str], Act]] = {
    "": _no_arg,
    "card": _one_card,
    "cards": _cards,
    "suit": _suit,
    "call": _call,
    "require": _kind_then_seat(REQUIREMENTS, "what is required"),
    "claim": _kind_then_seat(CLAIM_KINDS, "what is claimed"),
    "elect": _kind_then_seat(ELECTIONS, "what is elected"),
    "deal": _deal,
    "found": _found,
    "cut": _cut,
    "throw": _throw,
    "withdraw": _withdraw,
    "give": _give,
}


def _print_words(act: Act) -> str:
    parts = [act.verb]
    if act.word:
        parts.append(act.word)
    parts.extend(str(card) for card in act.cards)
    if act.suit:
        parts.append(act.suit.word)
    if act.target:
        parts.append(str(act.target))
    return " ".join(parts)


_PRINTERS: dict[str, Callable[[Act], str]] = {spec.verb: _print_words for spec in _SPECS}
_PRINTERS["play"] = lambda act: " ".join(str(card) for card in act.cards)
_PRINTERS["found"] = lambda act: f"found {act.card} {act.word}" if act.word else f"found {act.card}"
_PRINTERS["give"] = lambda act: f"give {act.word} to {act.target}"
