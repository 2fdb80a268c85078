"""Cross-check the replay engine against OpenSpiel, an engine nobody here wrote.

Three parts (see docs/oracle.md):

* Always: every deal in tests/data/oracle/*.json (played by OpenSpiel, converted
  by tests/oracle/generate.py) is parsed and replayed, and our engine must agree
  with OpenSpiel on the trump suit, every trick's leader and winner, and every
  play's card and set of legal cards.
* Always: from those deals, revokes are made by swapping a card the player held
  but OpenSpiel did not allow; the engine must report the revoke.
* Always: every euchre deal of the sample is scored, and the hand's points must
  be OpenSpiel's returns translated by the table of the 1888 differences
  (SCORE_TABLE, the same as docs/oracle.md's).
* `-m oracle`, when pyspiel imports: the full run (1,000 euchre deals, 200 bridge
  play phases as Short Whist) is generated live and compared the same way, and
  the euchre deals from seed 0 on are scored until 1,000 were played out.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import msgspec
import pytest
import yaml

from adjudicate.ruling.decision import decide
from adjudicate.play.facts import detect
from adjudicate.lawbook.builtin import builtin_rulebook
from adjudicate.record.scenario import parse_scenario
from adjudicate.ruling.scoring import hand_score
from adjudicate.record.seats import Side
from adjudicate.play.replay import replay

HERE = Path(__file__).resolve().parent
FIXTURE_DIR = HERE / "data" / "oracle"
ORACLE_DOC = HERE.parent / "docs" / "oracle.md"
CARD = re.compile(r"^[AKQJT2-9][SHDC]$")


def _records(game: str) -> list[dict]:
    with open(FIXTURE_DIR / f"{game}.json", encoding="utf-8") as f:
        return json.load(f)["records"]


EUCHRE = _records("euchre")
BRIDGE = _records("bridge")
FIXTURE = EUCHRE + BRIDGE


def _name(record: dict) -> str:
    return f"{record['game']}-{record['seed']}"


# ---------------------------------------------------------------------------
# Comparing one deal


def _replay(text: str, name: str):
    return replay(parse_scenario(text, f"<oracle {name}>"))


def _irregularities(table) -> list:
    """The replay's irregularities: `table.irregularities` if the table carries them, else `facts.detect`."""
    if hasattr(table, "irregularities"):
        return list(table.irregularities)
    from adjudicate.play.facts import detect

    return list(detect(table).irregularities)


def _opt(value) -> str | None:
    return None if value is None else str(value)


def disagreements(record: dict, table=None) -> list[str]:
    """Every point where our replay differs from what OpenSpiel said, in order."""
    name = _name(record)
    if table is None:
        table = _replay(record["scenario"], name)
    expected = record["expected"]
    found: list[str] = []
    if _opt(table.trump) != expected["trump"]:
        found.append(f"trump: engine {_opt(table.trump)}, OpenSpiel {expected['trump']}")
    ours = list(table.tricks)
    theirs = expected["tricks"]
    if len(ours) != len(theirs):
        found.append(f"number of tricks: engine {len(ours)}, OpenSpiel {len(theirs)}")
    for mine, want in zip(ours, theirs):
        n = want["number"]
        if mine.number != n:
            found.append(f"trick {n}: engine numbers it {mine.number}")
        if _opt(mine.leader) != want["leader"]:
            found.append(f"trick {n} leader: engine {_opt(mine.leader)}, OpenSpiel {want['leader']}")
        plays = list(mine.plays)
        if len(plays) != len(want["plays"]):
            found.append(f"trick {n}: engine has {len(plays)} cards "
                         f"({' '.join(str(p.card) for p in plays)}), OpenSpiel {len(want['plays'])}")
        for i, (play, exp) in enumerate(zip(plays, want["plays"]), start=1):
            where = f"trick {n} card {i} ({exp['seat']} {exp['card']})"
            if _opt(play.seat) != exp["seat"] or _opt(play.card) != exp["card"]:
                found.append(f"{where}: engine has {play.seat} {play.card}")
            legal = None if play.legal is None else sorted(str(c) for c in play.legal)
            if legal != exp["legal"]:
                if legal is None:
                    found.append(f"{where} legal: engine None (holding unknown), OpenSpiel {exp['legal']}")
                else:
                    extra = sorted(set(legal) - set(exp["legal"]))
                    missing = sorted(set(exp["legal"]) - set(legal))
                    found.append(f"{where} legal: engine {legal}, OpenSpiel {exp['legal']}"
                                 f" (engine also allows {extra or '-'}; engine forbids {missing or '-'})")
        if _opt(mine.winner) != want["winner"]:
            found.append(f"trick {n} winner: engine {_opt(mine.winner)}, OpenSpiel {want['winner']}")
    return found


def _numbered(text: str) -> str:
    return "\n".join(f"{i:4d} | {line}" for i, line in enumerate(text.splitlines(), start=1))


def report(record: dict, found: list[str]) -> str:
    return (f"{_name(record)} ({record['shape']}): {len(found)} disagreement(s) with OpenSpiel.\n"
            f"First: {found[0]}\n"
            + "".join(f"  then: {line}\n" for line in found[1:6])
            + f"Scenario:\n{_numbered(record['scenario'])}")


# ---------------------------------------------------------------------------
# (a) the fixture, always


@pytest.mark.parametrize("record", FIXTURE, ids=_name)
def test_fixture_agrees_with_openspiel(record):
    found = disagreements(record)
    assert not found, report(record, found)


@pytest.mark.parametrize("record", FIXTURE, ids=_name)
def test_fixture_deal_is_regular(record):
    """OpenSpiel plays only legal cards, so the replay finds no irregularity."""
    table = _replay(record["scenario"], _name(record))
    irregular = [f"{i.kind} by {i.seat} at trick {i.trick}" for i in _irregularities(table)]
    assert not irregular, (f"{_name(record)}: engine reports {irregular} in a regular deal\n"
                           f"{_numbered(record['scenario'])}")


def test_fixture_covers_every_bidding_shape():
    shapes = {r["shape"] for r in EUCHRE}
    for round_ in ("round one", "round two"):
        for position in ("eldest", "second", "third", "dealer"):
            assert any(s.startswith(f"{round_}, {position} ") and not s.endswith("alone") for s in shapes), \
                (round_, position)
            assert f"{round_}, {position} alone" in shapes
    features = {f for r in EUCHRE for f in r["features"]}
    assert {"eldest hand sits out", "left bower barred while its own suit is followed", "both bowers in one legal set",
            "left bower held to a trump lead", "quit recorded"} <= features
    assert "passed out" in shapes
    assert len(EUCHRE) >= 60 and len(BRIDGE) >= 25


# ---------------------------------------------------------------------------
# (c) revokes made from the fixture deals

_EUCHRE_ORDER = "AKQJT987"
_WHIST_ORDER = "AKQJT98765432"


def _suit_of(card: str, trump: str, euchre: bool) -> str:
    if euchre and card[0] == "J" and card[1] == _left_suit(trump):
        return trump
    return card[1]


def _left_suit(trump: str) -> str:
    return {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]


def _strength(card: str, trump: str, euchre: bool) -> int:
    """Higher wins, within a suit (bowers counted in the trump suit)."""
    order = _EUCHRE_ORDER if euchre else _WHIST_ORDER
    if euchre and card == "J" + trump:
        return 100
    if euchre and card == "J" + _left_suit(trump):
        return 99
    return len(order) - order.index(card[0])


def trick_winner(plays: list[tuple[str, str]], trump: str, euchre: bool) -> str:
    """Our own small rule (independent of the engine): the seat that wins."""
    led = _suit_of(plays[0][1], trump, euchre)

    def key(play):
        suit = _suit_of(play[1], trump, euchre)
        rank = 2 if suit == trump else 1 if suit == led else 0
        return (rank, _strength(play[1], trump, euchre) if rank else 0)

    return max(plays, key=key)[0]


def revoke_variant(record: dict, pick: int = 0) -> dict | None:
    """The deal with one revoke put in, truncated after the next lead; None if no play allows one.

    The revoke: at a play where the player held a card OpenSpiel did not allow,
    he plays that card instead. A seat's holding at a trick is what it plays
    from that trick on (every active seat plays out its hand). At Euchre the
    left bower's cases come first: trumps led and his only trump is the left
    bower, but he plays a card of the bower's own suit (a revoke); then the
    left bower played while holding a card of the suit led (a revoke too).
    """
    expected = record["expected"]
    trump = expected["trump"]
    tricks = expected["tricks"]
    euchre = record["game"] == "euchre"
    if trump is None:
        return None
    left = "J" + _left_suit(trump)
    candidates = []   # (priority, trick index, play index, card, kind)
    for t, trick in enumerate(tricks[:-1]):
        for i, play in enumerate(trick["plays"]):
            held = [p["card"] for later in tricks[t:] for p in later["plays"] if p["seat"] == play["seat"]]
            illegal = sorted(set(held) - set(play["legal"]))
            if i == 0 or not illegal:
                continue
            if euchre and play["legal"] == [left]:
                same = [c for c in illegal if c[1] == left[1]]
                candidates.append((0, t, i, (same or illegal)[0], "left bower withheld from a trump lead"))
            elif euchre and left in illegal:
                candidates.append((1, t, i, left, "left bower played to a plain suit led"))
            else:
                kind = "plain revoke at euchre" if euchre else "revoke at whist"
                candidates.append((2, t, i, illegal[(record["seed"] + pick) % len(illegal)], kind))
    if not candidates:
        return None
    _, t, i, card, kind = min(candidates)
    return _build_revoke(record, t, i, card, kind)


def _build_revoke(record: dict, t: int, i: int, card: str, kind: str) -> dict:
    expected = record["expected"]
    trump = expected["trump"]
    tricks = expected["tricks"]
    euchre = record["game"] == "euchre"
    trick = tricks[t]
    revoker = trick["plays"][i]["seat"]
    kept = trick["plays"][i]["card"]            # the card he ought to have played, still in his hand
    new_plays = [(p["seat"], p["card"]) for p in trick["plays"]]
    new_plays[i] = (revoker, card)
    winner = trick_winner(new_plays, trump, euchre)
    if winner == revoker:
        lead = kept
    else:
        lead = next(p["card"] for p in tricks[t + 1]["plays"] if p["seat"] == winner)
    assert lead != card

    doc = yaml.safe_load(record["scenario"])
    target = sum(len(x["plays"]) for x in tricks[:t]) + i      # index among all plays
    last = sum(len(x["plays"]) for x in tricks[:t + 1])         # plays up to the end of the trick
    log = []
    count = 0
    entries = doc["log"]
    for k, entry in enumerate(entries):
        if count == last:
            if entry == "quit":          # the deal records quitting: keep it
                log.append(entry)
            break
        if isinstance(entry, dict):
            (seat, act), = entry.items()
            if CARD.match(str(act)):
                if count == target:
                    assert seat == revoker and act == kept
                    entry = {seat: card}
                count += 1
        log.append(entry)
    log.append({winner: lead})
    doc["log"] = log
    doc["title"] = f"{doc['title']}; {revoker} revokes with {card} at trick {t + 1}"
    text = _emit(doc)
    return {"name": f"{_name(record)}-revoke", "scenario": text, "seat": revoker,
            "trick": t + 1, "card": card, "kept": kept, "kind": kind}


def _emit(doc: dict) -> str:
    """The scenario as YAML, in the generator's layout (so it reads like the original)."""
    lines = [f"title: {doc['title']}", f"code: {doc['code']}", f"dealer: {doc['dealer']}", "hands:"]
    lines += [f"  {seat}: [{', '.join(cards)}]" for seat, cards in doc["hands"].items()]
    lines += [f"turned: {doc['turned']}", "log:"]
    for entry in doc["log"]:
        if isinstance(entry, dict):
            (seat, act), = entry.items()
            lines.append(f"  - {seat}: {act}")
        else:
            lines.append(f"  - {entry}")
    text = "\n".join(lines) + "\n"
    assert yaml.safe_load(text) == doc
    return text


def revoke_problems(variant: dict) -> list[str]:
    table = _replay(variant["scenario"], variant["name"])
    found = [(i.kind, str(i.seat), i.trick) for i in _irregularities(table)]
    want = ("revoke", variant["seat"], variant["trick"])
    if want in found:
        return []
    return [f"{variant['seat']} played {variant['card']} holding {variant['kept']} at trick {variant['trick']}: "
            f"engine reports {found or 'no irregularity'}, expected a revoke by {variant['seat']} "
            f"at trick {variant['trick']}"]


REVOKES = [v for v in (revoke_variant(r) for r in FIXTURE) if v is not None]


def test_revoke_variants_exist():
    assert len(REVOKES) >= 30
    kinds = {v["kind"] for v in REVOKES}
    assert {"left bower withheld from a trump lead", "left bower played to a plain suit led",
            "plain revoke at euchre", "revoke at whist"} <= kinds, kinds



@pytest.mark.parametrize("variant", REVOKES, ids=lambda v: v["name"])
def test_revoke_is_detected(variant):
    problems = revoke_problems(variant)
    assert not problems, f"{variant['name']}: {problems[0]}\nScenario:\n{_numbered(variant['scenario'])}"


# ---------------------------------------------------------------------------
# (d) the score of every euchre deal


class ScoreRow(NamedTuple):
    """One outcome of a euchre deal: OpenSpiel's returns for it, and the points the 1888 laws give."""

    outcome: str
    lone: bool | None
    makers_tricks: str
    openspiel: tuple[int, int]
    """OpenSpiel's returns (Returns() of a player of each side): to the makers, to the adversaries."""
    laws_of_1888: tuple[int, int]
    """The points the hand scores under the laws of 1888: to the makers, to the adversaries."""
    law: str


# OpenSpiel's euchre score (euchre.cc, ComputeScore) against the laws of 1888, outcome by outcome:
# the same table as docs/oracle.md's "The score" (test_score_table_is_the_documented_one holds them so).
# The differences: OpenSpiel's returns are zero-sum (the side that does not score gets the negative),
# and a euchred lone hand gives the adversaries two in OpenSpiel, four by law 3.
SCORE_TABLE = (
    #        outcome        lone   makers' tricks  OpenSpiel  1888     law
    ScoreRow("march",       False, "5",            (2, -2),   (2, 0),  "2"),
    ScoreRow("point",       False, "3 or 4",       (1, -1),   (1, 0),  "2"),
    ScoreRow("euchre",      False, "0 to 2",       (-2, 2),   (0, 2),  "2"),
    ScoreRow("lone march",  True,  "5",            (4, -4),   (4, 0),  "3"),
    ScoreRow("lone point",  True,  "3 or 4",       (1, -1),   (1, 0),  "3"),
    ScoreRow("lone euchre", True,  "0 to 2",       (-2, 2),   (0, 4),  "3"),
    ScoreRow("passed out",  None,  "-",            (0, 0),    (0, 0),  "77"),
)

EUCHRE_RULEBOOK = builtin_rulebook("euchre")


def _our_hand_points(table) -> dict[Side, int] | None:
    """adjudicate's points for the hand itself, each side's; None when the hand was not played out.

    The one place the score check asks the scoring module.
    """
    return hand_score("euchre", EUCHRE_RULEBOOK.game, table)


def _ruling_hand_points(table) -> dict[Side, int] | None:  # a passed-out deal: the score stands
    """The hand's points as the whole ruling gives them: the score section's final score from 0-0, with no
    choice open (a legal deal has no irregularity), which must be the hand's points counted once."""
    scenario = msgspec.structs.replace(table.scenario, score={Side.NS: 0, Side.EW: 0})
    decision = decide(EUCHRE_RULEBOOK, msgspec.structs.replace(table, scenario=scenario), detect(table))
    assert decision.score is not None
    outcomes = decision.score.outcomes
    assert len(outcomes) == 1 and not outcomes[0].choices, "a legal deal leaves no choice open"
    return outcomes[0].effect.score_after


def openspiel_in_1888(record: dict) -> tuple[ScoreRow | None, dict[str, int]]:
    """OpenSpiel's score of the deal translated by SCORE_TABLE: its row, and the 1888 points by side."""
    expected = record["expected"]
    returns = expected["side_returns"]
    makers = expected["makers"] or "NS"          # a passed-out deal has no makers; its row scores nobody
    adversaries = Side(makers).other.value
    theirs = (returns[makers], returns[adversaries])
    row = next((row for row in SCORE_TABLE if row.lone == expected["lone"] and row.openspiel == theirs), None)
    if row is None:
        return None, {}
    points = {makers: row.laws_of_1888[0], adversaries: row.laws_of_1888[1]}
    return row, {side: points[side] for side in ("NS", "EW")}


def _plain(points: dict[Side, int] | None) -> dict[str, int] | None:
    return None if points is None else {side.value: n for side, n in points.items()}


def score_problems(record: dict, table=None) -> list[str]:
    """Where our score of the hand differs from OpenSpiel's returns translated to the laws of 1888."""
    if table is None:
        table = _replay(record["scenario"], _name(record))
    expected = record["expected"]
    row, want = openspiel_in_1888(record)
    if row is None:
        return [f"OpenSpiel's returns {expected['side_returns']} (makers {expected['makers']}, "
                f"lone {expected['lone']}) are not in SCORE_TABLE"]
    found = []
    if row.outcome != record["outcome"]:
        found.append(f"OpenSpiel's returns {expected['side_returns']} are a {row.outcome} in SCORE_TABLE, "
                     f"but OpenSpiel's tricks make the deal a {record['outcome']}")
    ours = _plain(_our_hand_points(table))
    if row.outcome == "passed out":
        if ours is not None and any(ours.values()):
            found.append(f"hand points: engine {ours} for a passed-out deal, which scores nothing (law 77)")
    elif ours != want:
        found.append(f"hand points: engine {ours}, OpenSpiel {expected['side_returns']} "
                     f"(a {row.outcome}: {want} under law {row.law})")
    ruled = _plain(_ruling_hand_points(table))
    if ruled != want:
        found.append(f"the ruling's points (laws 2, 3): {ruled}, OpenSpiel {expected['side_returns']} "
                     f"(a {row.outcome}: {want} under law {row.law})")
    return found


@pytest.mark.parametrize("record", EUCHRE, ids=_name)
def test_fixture_score_agrees_with_openspiel(record):
    found = score_problems(record)
    assert not found, report(record, found)


def test_fixture_covers_every_score_outcome():
    outcomes = Counter(r["outcome"] for r in EUCHRE)
    assert all(outcomes[row.outcome] >= 3 for row in SCORE_TABLE), outcomes
    assert set(outcomes) == {row.outcome for row in SCORE_TABLE}


def _documented_score_table() -> list[ScoreRow]:
    """The rows of docs/oracle.md's table "OpenSpiel's score and the laws of 1888"."""
    text = ORACLE_DOC.read_text(encoding="utf-8")
    section = text.split("## The score", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip().strip("*").strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 8 or cells[0] in ("outcome", "") or set(cells[0]) <= {"-"}:
            continue
        outcome, lone, tricks, os_makers, os_adversaries, our_makers, our_adversaries, law = cells
        rows.append(ScoreRow(outcome, {"yes": True, "no": False, "-": None}[lone], tricks,
                             (int(os_makers), int(os_adversaries)), (int(our_makers), int(our_adversaries)),
                             law.removeprefix("law ")))
    return rows


def test_score_table_is_the_documented_one():
    assert _documented_score_table() == list(SCORE_TABLE)


# ---------------------------------------------------------------------------
# (b) the full run, live against OpenSpiel


def _generator():
    try:
        import pyspiel  # noqa: F401
    except ImportError as error:  # not installed, or its binary does not load here
        pytest.skip(f"pyspiel does not import ({error}); pip install '.[oracle]'")
    path = HERE / "oracle" / "generate.py"
    spec = importlib.util.spec_from_file_location("oracle_generate", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _problems(check, record: dict) -> list[str]:
    """What `check` finds wrong with a deal; an engine crash is a disagreement too: report it, go on."""
    try:
        return check(record)
    except Exception as error:
        return [f"engine raised {type(error).__name__}: {error}"]


def _live(records: list[dict]) -> None:
    bad = []
    revokes = missed = 0
    first_revoke_miss = None
    for record in records:
        found = _problems(disagreements, record)
        if found:
            bad.append((record, found))
        variant = revoke_variant(record)
        if variant is not None:
            revokes += 1
            try:
                problems = revoke_problems(variant)
            except Exception as error:
                problems = [f"engine raised {type(error).__name__}: {error}"]
            if problems:
                missed += 1
                first_revoke_miss = first_revoke_miss or (variant, problems)
    total = sum(len(found) for _, found in bad)
    summary = (f"{len(records)} deals compared with OpenSpiel: {len(bad)} deal(s) disagree, "
               f"{total} disagreement(s); {revokes} revokes made, {missed} missed")
    print(summary)
    messages = [summary]
    if bad:
        messages.append(report(*bad[0]))
        messages += [f"{_name(r)}: {f[0]}" for r, f in bad[1:20]]
    if first_revoke_miss:
        variant, problems = first_revoke_miss
        messages.append(f"{variant['name']}: {problems[0]}\n{_numbered(variant['scenario'])}")
    assert not bad and not missed, "\n".join(messages)


@pytest.mark.oracle
def test_live_euchre_against_openspiel():
    gen = _generator()
    records = gen.euchre_records(gen.EUCHRE_DEALS)
    assert len(records) == 1000
    _live(records)


@pytest.mark.oracle
def test_live_bridge_against_openspiel():
    gen = _generator()
    records = gen.bridge_records(gen.BRIDGE_DEALS)
    assert len(records) == 200
    _live(records)


@pytest.mark.oracle
def test_live_euchre_score_against_openspiel():
    """Seeds from 0 on until 1,000 deals were played out: each deal's points are OpenSpiel's, translated."""
    gen = _generator()
    records = gen.euchre_scored_records(gen.EUCHRE_SCORED)
    played = [r for r in records if r["outcome"] != "passed out"]
    assert len(played) == gen.EUCHRE_SCORED >= 1000
    bad = [(record, found) for record in records if (found := _problems(score_problems, record))]
    outcomes = Counter(r["outcome"] for r in records)
    lone = sum(1 for r in played if r["expected"]["lone"])
    summary = (f"{len(records)} deals scored against OpenSpiel: {len(played)} played out, {lone} lone, "
               f"{len(bad)} disagree ("
               + ", ".join(f"{outcomes[row.outcome]} {row.outcome}" for row in SCORE_TABLE) + ")")
    print(summary)
    messages = [summary]
    if bad:
        messages.append(report(*bad[0]))
        messages += [f"{_name(r)}: {f[0]}" for r, f in bad[1:20]]
    assert not bad, "\n".join(messages)
    assert all(outcomes[row.outcome] for row in SCORE_TABLE), outcomes


@pytest.mark.oracle
def test_fixture_is_what_the_generator_makes():
    """The committed sample is reproducible from its seeds with the installed OpenSpiel."""
    gen = _generator()
    for record in EUCHRE:
        assert gen.euchre_deal(record["seed"]) == record
    for record in BRIDGE[:5]:
        assert gen.bridge_deal(record["index"]) == record
