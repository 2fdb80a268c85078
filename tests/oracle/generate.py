"""Random legal deals played by OpenSpiel, converted to `adjudicate` scenarios.

OpenSpiel (PyPI `open-spiel`, module `pyspiel`) is an engine nobody here wrote.
Each deal it plays becomes two things:

* a scenario file in our YAML format (`code: euchre` or `code: short-whist`), and
* what OpenSpiel says happened: the trump suit, and for every trick its leader,
  its cards in order with, for each play, the set of cards OpenSpiel allowed
  (its legal actions at that moment), and its winner; for a euchre deal also
  the makers, whether the maker went alone, and OpenSpiel's returns (its score
  of the deal), per player and per side.

`tests/test_oracle.py` replays the scenario with our engine and compares.

Every deal is determined by its seed (Python's `random.Random(seed)` chooses the
chance outcomes and every player's action), so a run is reproducible.

Usage (needs `pip install '.[oracle]'`):

    python tests/oracle/generate.py                 # rewrite the fixture sample
    python tests/oracle/generate.py --stats         # shapes and outcomes seen in the full run
    python tests/oracle/generate.py --show euchre 17  # one deal's scenario text

Only the standard library and pyspiel are used here, so the generator runs
without the package under test.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

# ---------------------------------------------------------------------------
# Sizes of the full live run and of the fixture sample.

EUCHRE_DEALS = 1000
EUCHRE_SCORED = 1000            # the score check plays seeds from 0 until this many were played out
BRIDGE_DEALS = 200
EUCHRE_FIXTURE = 60
EUCHRE_FIXTURE_PER_OUTCOME = 3  # the sample holds at least this many deals of every outcome
BRIDGE_FIXTURE = 25

BRIDGE_SEED_BASE = 1_000_000   # bridge seeds are BRIDGE_SEED_BASE + index

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "data" / "oracle"

SEATS = "NESW"                  # OpenSpiel's players 0..3 are N, E, S, W
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
POSITIONS = {1: "eldest", 2: "second", 3: "third", 0: "dealer"}  # offset from the dealer


def _pyspiel():
    import pyspiel  # noqa: PLC0415 - optional dependency, imported on use

    return pyspiel


# ---------------------------------------------------------------------------
# Euchre
#
# OpenSpiel's euchre (open_spiel/games/euchre/euchre.{h,cc}):
#   card action c: rank "9TJQKA"[c // 4], suit "CDHS"[c % 4]
#   actions 24 pass, 25..28 clubs/diamonds/hearts/spades, 29 alone, 30 partner
#   history: [dealer, 20 dealt cards (card i to seat (dealer + i) % 4), upcard, ...]

E_RANKS = "9TJQKA"
E_SUITS = "CDHS"
E_PASS, E_ALONE, E_PARTNER = 24, 29, 30
E_TRUMP_ACTIONS = {25: "C", 26: "D", 27: "H", 28: "S"}


def euchre_card(action: int) -> str:
    """OpenSpiel's card action as our card name: 10 (hearts knave) -> "JH"."""
    return E_RANKS[action // 4] + E_SUITS[action % 4]


def _euchre_policy(rng: random.Random, state, passy: bool) -> int:
    """A random legal action, weighted so that every bidding shape occurs."""
    legal = state.legal_actions()
    phase = str(state.current_phase())
    if phase.endswith("BIDDING"):
        bids = [a for a in legal if a != E_PASS]
        round_one = state.num_passes() < 4
        p_pass = 0.97 if passy else (0.7 if round_one else 0.55)
        if E_PASS in legal and rng.random() < p_pass:
            return E_PASS
        return rng.choice(bids)
    if phase.endswith("GO_ALONE"):
        return E_ALONE if rng.random() < 0.35 else E_PARTNER
    return rng.choice(legal)


def euchre_deal(seed: int) -> dict:
    """Play one euchre deal with OpenSpiel and convert it.

    Every 25th seed is played without stick-the-dealer and with players who
    nearly always pass, so that some deals are passed out (no trump, no play).
    """
    pyspiel = _pyspiel()
    rng = random.Random(seed)
    stick = seed % 25 != 24
    game = pyspiel.load_game("euchre", {"stick_the_dealer": stick})
    state = game.new_initial_state()

    plays: list[dict] = []           # {seat, card, legal} in order
    bidding: list[tuple[int, int]] = []  # (player, action) in the bidding phase
    alone = False
    discard = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
            continue
        player = state.current_player()
        phase = str(state.current_phase())
        action = _euchre_policy(rng, state, passy=not stick)
        if phase.endswith("BIDDING"):
            bidding.append((player, action))
        elif phase.endswith("DISCARD"):
            discard = action
        elif phase.endswith("GO_ALONE"):
            alone = action == E_ALONE
        elif phase.endswith("PLAY"):
            plays.append({
                "seat": SEATS[player],
                "card": euchre_card(action),
                "legal": sorted(euchre_card(a) for a in state.legal_actions()),
            })
        else:  # pragma: no cover - OpenSpiel changed
            raise RuntimeError(f"unexpected euchre phase {phase}")
        state.apply_action(action)

    history = state.history()
    dealer = history[0]
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    for i, card in enumerate(history[1:21]):
        hands[SEATS[(dealer + i) % 4]].append(euchre_card(card))
    upcard = history[21]
    assert upcard == state.upcard()

    # The making of the trump, in the 1888 words.
    log: list[tuple[str, str]] = []
    shape = "passed out"
    trump = None
    for n, (player, action) in enumerate(bidding):
        seat = SEATS[player]
        if action == E_PASS:
            log.append((seat, "pass"))
            continue
        trump = E_TRUMP_ACTIONS[action]
        position = POSITIONS[(player - dealer) % 4]
        if n < 4:  # round one: the turned card's suit
            act = {"eldest": "order up", "second": "assist", "third": "order up", "dealer": "take up"}[position]
            if alone:
                act = "alone"   # Law 98: a single declaration
            shape = f"round one, {position} {'alone' if alone else act}"
        else:
            act = f"alone at {SUIT_WORDS[trump]}" if alone else f"name {SUIT_WORDS[trump]}"
            shape = f"round two, {position} {'alone' if alone else 'names'}"
        log.append((seat, act))
        if n < 4:
            log.append((SEATS[dealer], f"discard {euchre_card(discard)}"))
        break

    if trump is not None:
        assert E_SUITS[state.trump_suit()] == trump
        assert bool(state.declarer_go_alone()) == alone
        assert state.declarer() == player
        assert state.lone_defender() < 0          # allow_lone_defender is off
        if n < 4:
            assert state.discard() == discard

    # What OpenSpiel says about the tricks.
    tricks = []
    cursor = 0
    if trump is not None:
        active = state.active_players()
        for number, trick in enumerate(state.tricks(), start=1):
            cards = trick.cards()
            leader = trick.leader()
            seats = []
            p = leader
            for _ in cards:
                seats.append(SEATS[p])
                p = (p + 1) % 4
                while not active[p]:
                    p = (p + 1) % 4
            these = plays[cursor:cursor + len(cards)]
            cursor += len(cards)
            assert [x["seat"] for x in these] == seats, (seed, number)
            assert [x["card"] for x in these] == [euchre_card(c) for c in cards], (seed, number)
            tricks.append({
                "number": number,
                "leader": SEATS[leader],
                "plays": these,
                "winner": SEATS[trick.winner()],
            })
    assert cursor == len(plays)

    # OpenSpiel's score of the deal (its Returns(), one number a player; partners' are equal).
    returns = [int(r) for r in state.returns()]
    assert returns == list(state.returns()), seed
    assert returns[0] == returns[2] and returns[1] == returns[3], (seed, returns)
    makers = None
    outcome = "passed out"
    if trump is not None:
        makers = ("NS", "EW")[state.declarer() % 2]   # players 0, 2 are N, S
        made = sum(1 for trick in tricks if SEATS.index(trick["winner"]) % 2 == state.declarer() % 2)
        outcome = ("lone " if alone else "") + ("march" if made == 5 else "point" if made >= 3 else "euchre")
    score = {
        "makers": makers,
        "lone": alone if trump is not None else None,
        "returns": dict(zip(SEATS, returns)),
        "side_returns": {"NS": returns[0], "EW": returns[1]},
    }

    quits = seed % 3 == 1   # a third of the deals record each trick's quitting
    for trick in tricks:
        for play in trick["plays"]:
            log.append((play["seat"], play["card"]))
        if quits:
            log.append((None, "quit"))

    features = _euchre_features(tricks, trump)
    if alone and trump is not None:
        features.append("lone hand")
        sitting_out = SEATS[active.index(False)]
        if sitting_out == SEATS[(dealer + 1) % 4]:
            features.append("eldest hand sits out")
    if quits:
        features.append("quit recorded")

    title = f"OpenSpiel euchre seed {seed} ({shape})"
    text = _scenario_yaml(title, "euchre", SEATS[dealer], hands, euchre_card(upcard), log)
    return {
        "game": "euchre",
        "seed": seed,
        "shape": shape,
        "outcome": outcome,
        "features": features,
        "stick_the_dealer": stick,
        "scenario": text,
        "expected": {"trump": trump, "tricks": tricks, **score},
    }


def _left_bower(trump: str) -> str:
    return "J" + {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]


def _euchre_features(tricks: list[dict], trump: str | None) -> list[str]:
    """Tags for the fixture sample: the left-bower cases of following suit.

    A seat's holding at a trick is what it plays from that trick on (every
    active seat plays out its hand), so "held" here is exact.
    """
    if trump is None:
        return []
    left = _left_bower(trump)
    found = set()
    for i, trick in enumerate(tricks):
        led = trick["plays"][0]["card"]
        led_suit = trump if led == left else led[1]
        if led == left:
            found.add("left bower led")
        for play in trick["plays"][1:]:
            if left in play["legal"] and "J" + trump in play["legal"]:
                found.add("both bowers in one legal set")
            held = {p["card"] for t in tricks[i:] for p in t["plays"] if p["seat"] == play["seat"]}
            if left not in held:
                continue
            if led_suit == trump:
                found.add("left bower held to a trump lead")
            elif led_suit == left[1]:
                if left in play["legal"]:
                    found.add("left bower free to a lead of its own suit")
                else:
                    found.add("left bower barred while its own suit is followed")
    return sorted(found)


# ---------------------------------------------------------------------------
# Bridge, played out as Short Whist
#
# OpenSpiel's bridge: card action c is rank "23456789TJQKA"[c // 4], suit
# "CDHS"[c % 4]; the declarer plays the dummy's cards, but each card belongs to
# the seat whose turn it is in the trick, which is what Whist needs.

B_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
B_PASS = 52
B_RANKS = "23456789TJQKA"


def bridge_card(action: int) -> str:
    """OpenSpiel's bridge card action as our card name: 34 (hearts ten) -> "TH"."""
    return B_RANKS[action // 4] + E_SUITS[action % 4]


def _bridge_bid(rng: random.Random, state) -> int:
    legal = state.legal_actions()
    if B_PASS in legal and rng.random() < 0.6:
        return B_PASS
    bids = [a for a in legal if a != B_PASS]
    return rng.choice(bids) if bids else B_PASS


_TRICK_LINE = re.compile(r"^Trick (\d+)\. (.*)\. Won by (\w+)\.$")
_SEAT_WORDS = {"North": "N", "East": "E", "South": "S", "West": "W"}


def bridge_deal(index: int) -> dict:
    """Play one bridge deal's play phase with OpenSpiel; convert it to Short Whist.

    The declarer becomes the dealer, so the opening leader (declarer's left) is
    the eldest hand; the turned card is one of the declarer's trumps. Auctions
    that end in no trump, in no contract, or with a declarer holding no trump
    are played again with the same generator until one fits.
    """
    pyspiel = _pyspiel()
    seed = BRIDGE_SEED_BASE + index
    rng = random.Random(seed)
    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})
    for attempt in range(1000):
        state = game.new_initial_state()
        plays: list[dict] = []
        last_bid = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            if legal[0] >= B_PASS:                     # the auction
                action = _bridge_bid(rng, state)
                if action > 54:
                    last_bid = state.action_to_string(action)
            else:                                       # the play
                action = rng.choice(legal)
                plays.append({
                    "card": bridge_card(action),
                    "legal": sorted(bridge_card(a) for a in legal),
                    "actor": player,
                })
            state.apply_action(action)
        if not plays or last_bid is None or last_bid.endswith("NT"):
            continue
        trump = B_SUIT_LETTER[last_bid[-1]]

        # OpenSpiel's own account of the tricks, from its description of the deal.
        tricks = []
        cursor = 0
        for line in str(state).splitlines():
            m = _TRICK_LINE.match(line.strip())
            if not m:
                continue
            number = int(m.group(1))
            cards = []
            for part in m.group(2).split(" "):
                if part.endswith(":"):
                    seat = _SEAT_WORDS[part[:-1]]
                else:
                    suit, rank = part[0], part[1:]
                    cards.append((seat, ("T" if rank == "10" else rank) + B_SUIT_LETTER[suit]))
            these = []
            for seat, card in cards:
                play = plays[cursor]
                cursor += 1
                assert play["card"] == card, (seed, number)
                these.append({"seat": seat, "card": card, "legal": play["legal"]})
            tricks.append({
                "number": number,
                "leader": cards[0][0],
                "plays": these,
                "winner": _SEAT_WORDS[m.group(3)],
            })
        if not tricks:
            raise RuntimeError("this OpenSpiel does not describe tricks as 'Trick N. ... Won by SEAT.' "
                               "(open-spiel 2.0 or later does); pip install 'open-spiel>=2.0'")
        assert cursor == 52 and len(tricks) == 13, seed
        declarer = (SEATS.index(tricks[0]["leader"]) + 3) % 4
        hands: dict[str, list[str]] = {s: [] for s in SEATS}
        for trick in tricks:
            for play in trick["plays"]:
                hands[play["seat"]].append(play["card"])
        own_trumps = [c for c in hands[SEATS[declarer]] if c[1] == trump]
        if not own_trumps:
            continue
        turned = rng.choice(sorted(own_trumps))
        for seat in hands:
            hands[seat].sort(key=_whist_order)
        quits = index % 2 == 1
        log: list[tuple[str | None, str]] = []
        for trick in tricks:
            for play in trick["plays"]:
                log.append((play["seat"], play["card"]))
            if quits:
                log.append((None, "quit"))
        features = ["quit recorded"] if quits else []
        shape = f"contract {last_bid} by {SEATS[declarer]}"
        title = f"OpenSpiel bridge play seed {seed} ({shape}) as Short Whist"
        text = _scenario_yaml(title, "short-whist", SEATS[declarer], hands, turned, log)
        return {
            "game": "bridge",
            "seed": seed,
            "index": index,
            "attempt": attempt,
            "shape": shape,
            "features": features,
            "scenario": text,
            "expected": {"trump": trump, "tricks": tricks},
        }
    raise RuntimeError(f"no suit contract in 1000 auctions for seed {seed}")


def _whist_order(card: str) -> tuple[int, int]:
    return ("SHDC".index(card[1]), -"23456789TJQKA".index(card[0]))


# ---------------------------------------------------------------------------
# Scenario text


def _scenario_yaml(title: str, code: str, dealer: str, hands: dict[str, list[str]],
                   turned: str, log: list[tuple[str | None, str]]) -> str:
    lines = [f"title: {title}", f"code: {code}", f"dealer: {dealer}", "hands:"]
    for seat in SEATS:
        lines.append(f"  {seat}: [{', '.join(hands[seat])}]")
    lines.append(f"turned: {turned}")
    lines.append("log:")
    for seat, act in log:
        lines.append(f"  - {act}" if seat is None else f"  - {seat}: {act}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The full run and the fixture sample


def euchre_records(count: int = EUCHRE_DEALS) -> list[dict]:
    return [euchre_deal(seed) for seed in range(count)]


def euchre_scored_records(played_out: int = EUCHRE_SCORED) -> list[dict]:
    """The deals from seed 0 on, until `played_out` of them were played out (the passed-out ones included)."""
    records: list[dict] = []
    count = 0
    while count < played_out:
        record = euchre_deal(len(records))
        records.append(record)
        count += record["outcome"] != "passed out"
    return records


def bridge_records(count: int = BRIDGE_DEALS) -> list[dict]:
    return [bridge_deal(index) for index in range(count)]


def select_euchre_fixture(records: list[dict], size: int = EUCHRE_FIXTURE,
                          per_outcome: int = EUCHRE_FIXTURE_PER_OUTCOME) -> list[dict]:
    """Up to three deals of every bidding shape, two of every feature, then the earliest;
    then more, if need be, until every outcome (march, lone euchre, ...) has `per_outcome` deals."""
    chosen: dict[int, dict] = {}
    per_shape: Counter = Counter()
    for record in records:
        if per_shape[record["shape"]] < 3:
            per_shape[record["shape"]] += 1
            chosen[record["seed"]] = record
    per_feature: Counter = Counter(f for r in chosen.values() for f in r["features"])
    for record in records:
        if any(per_feature[f] < 2 for f in record["features"]) and record["seed"] not in chosen:
            chosen[record["seed"]] = record
            per_feature.update(record["features"])
    for record in records:
        if len(chosen) >= size:
            break
        chosen.setdefault(record["seed"], record)
    per_outcome_seen: Counter = Counter(r["outcome"] for r in chosen.values())
    for record in records:
        if per_outcome_seen[record["outcome"]] < per_outcome and record["seed"] not in chosen:
            chosen[record["seed"]] = record
            per_outcome_seen[record["outcome"]] += 1
    return [chosen[seed] for seed in sorted(chosen)]


def write_fixture(euchre: list[dict], bridge: list[dict], directory: Path = FIXTURE_DIR) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, records in (("euchre", euchre), ("bridge", bridge)):
        payload = {
            "generated_by": "python tests/oracle/generate.py",
            "engine": f"open-spiel {_open_spiel_version()}",
            "records": records,
        }
        path = directory / f"{name}.json"
        path.write_text(compact_json(payload) + "\n", encoding="utf-8")
        print(f"wrote {path} ({len(records)} deals, {path.stat().st_size:,} bytes)")


def compact_json(value, indent: int = 0, width: int = 110) -> str:
    """JSON with every short container (a play, a legal set) on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (list, dict)) or not value or len(flat) + indent <= width:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {compact_json(v, indent + 1, width)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact_json(v, indent + 1, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _open_spiel_version() -> str:
    try:
        from importlib.metadata import version

        return version("open-spiel")
    except Exception:  # pragma: no cover
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--euchre", type=int, default=EUCHRE_DEALS, help="euchre deals to play")
    parser.add_argument("--bridge", type=int, default=BRIDGE_DEALS, help="bridge deals to play")
    parser.add_argument("--stats", action="store_true", help="print the shapes seen; write nothing")
    parser.add_argument("--show", nargs=2, metavar=("GAME", "SEED"),
                        help="print one deal's scenario and expected tricks (bridge: index)")
    parser.add_argument("--out", type=Path, default=FIXTURE_DIR, help="fixture directory")
    args = parser.parse_args(argv)

    if args.show:
        game, number = args.show[0], int(args.show[1])
        record = euchre_deal(number) if game == "euchre" else bridge_deal(number)
        print(record["scenario"])
        print(json.dumps(record["expected"], indent=1))
        return 0

    euchre = euchre_records(args.euchre)
    bridge = bridge_records(args.bridge)
    shapes = Counter(r["shape"] for r in euchre)
    features = Counter(f for r in euchre for f in r["features"])
    if args.stats:
        for shape, n in sorted(shapes.items()):
            print(f"{n:5d}  {shape}")
        for outcome, n in sorted(Counter(r["outcome"] for r in euchre).items()):
            print(f"{n:5d}  ({outcome})")
        for feature, n in sorted(features.items()):
            print(f"{n:5d}  [{feature}]")
        print(f"{len(bridge):5d}  bridge deals; contracts by trump: "
              f"{dict(Counter(r['expected']['trump'] for r in bridge))}")
        return 0
    write_fixture(select_euchre_fixture(euchre), bridge[:BRIDGE_FIXTURE], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
