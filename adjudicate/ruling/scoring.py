"""Scoring: each game's score, and what a remedy does to it.

Euchre of 1888: game five points; a game won counts two if the losers failed
to score (law 7). Short Whist: game five points; tricks above six count one;
the winners gain a treble if the adversaries have not scored, a double if
they have scored less than three, a single if three or four (law 8). Long
Whist: game ten points. A revoke's penalty takes precedence of every other
score (Euchre 4, Short Whist 5, 72 V), so it is applied to the score before
the hand, and the revoking side cannot win the game by that hand (Short Whist
82; Long Whist 11, "if up, must remain at nine").

When the hand was played out, each option's score also counts the hand's own
points after the penalty, in the order of Short Whist 5 (the revoke, then
tricks, then honours): at Whist the tricks above six, and at Short Whist the
honours a side claimed (law 7) unless it stood at four when the deal began
(law 4); at Euchre the makers' one or two, the lone hand's one or four, or the
euchre's two (four against a lone hand) (laws 2, 3). Long Whist's honours are
not counted: the record does not show the calls at the point of eight.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from adjudicate.play.facts import HONOUR_RANKS, honours_claimants, honours_dealt
from adjudicate.lawbook.games import Game
from adjudicate.record.seats import Side
from adjudicate.play.table import Table


class Effect(Struct, frozen=True):
    """What choosing an option does to the score."""

    score_after: dict[Side, int] | None
    """Each side's points after it, or None when the record does not give what is needed."""
    meaning: str | None
    """What it means: "NS win a treble game"."""
    needs: str | None
    """What the record must add to say (the score before the hand, the tricks each side took)."""
    order: str | None = None
    """Where the order of scoring decided the game (Euchre 4, Short Whist 5): what was scored first and took a
    side to game, so that what the hand would have scored after it was not counted ("the revoke penalty")."""
    so_far: dict[Side, int] | None = None
    """Where what is needed is to come off a score (Long Whist 18: honours scored not having them), the score the
    hand's tricks leave before it."""
    takes_nothing_at: int | None = None
    """Where a penalty takes tricks (Long Whist 11: "take three tricks from them") from a hand that ended before it
    was played out (Long Whist 14: the cards mixed) and the score is the same as without it, no side having tricks
    above six with them or without: the trick the hand ended at. Such a choice gives nothing, and is said to."""
    by_points: tuple[tuple[int, "Effect"], ...] = ()
    """Where what is needed is the points a side marked for honours (Long Whist 18: two for three honours, four for
    four, by Hoyle's count), the score if they marked two, and if four."""
    rubber_over: bool = False
    """The game won ends the rubber (`games:` in the scenario): the winners had a game of it already, and (Euchre 1)
    the first two games were not both theirs, nor does the third lap."""
    unchanged: bool = False
    """Where the score before the hand is not given and the choice scores nothing now, whatever it was (the deal
    stands and the hand is still to be played, or a new deal): the score is unchanged, and the score before the
    hand decides nothing here, so it is not asked for."""


UNWRITTEN = "the tricks each side took above six, not in the record, to be added"
"""What a score needs where the hand is over but its play not written down (Long Whist 18: honours claimed at its
end): the score is given as far as the record goes."""


def tricks_taken(table: Table, abandoned: bool = False) -> dict[Side, int] | None:
    """Tricks each side took, when the hand was played to the end (or, `abandoned`, as they stood when the
    hands were abandoned: Euchre 49, Short Whist 59)."""
    winners = table.winners
    if len(winners) < table.game.hand_size and not abandoned:
        return None
    taken = {Side.NS: 0, Side.EW: 0}
    for winner in winners:
        taken[winner.side] += 1
    return taken


ORDER_LAW = {"euchre": "4", "short-whist": "5"}
"""The law that puts the revoke's penalty first, and (Short Whist) tricks before honours."""


def order_words(code: str) -> str:
    """The order the scores are taken in, said where it decides a score (`Score.floor_decides`): the penalties
    first, each in its turn, a deduction stopping at nought, then the hand's own points (docs/rulings.md)."""
    first = f"the penalties are scored first (law {ORDER_LAW[code]})" if code in ORDER_LAW else \
        "the laws in hand do not fix the order of scoring: the penalties are scored first"
    return (f"{first[:1].upper()}{first[1:]}, one after another in the order of the offences, a deduction taking a "
            "score down no further than nought, and the hand's own points after them.")


def takes_nothing_words(effect: Effect, why: bool = False) -> str:
    """A choice of tricks that gives nothing (`Effect.takes_nothing_at`), said beside its score: "gives nothing: the
    hand ended at trick 1"; `why`, with the reason (tricks score only above six). Empty otherwise."""
    at = effect.takes_nothing_at
    if at is None:
        return ""
    said = f"gives nothing: the hand ended {f'at trick {at}' if at else 'before a card was played'}"
    return said + (", and neither side has tricks above six to score, with them or without" if why else "")


def game_value(code: str, game: Game, winner: Side, score: dict[Side, int]) -> str:
    """What a game won is worth, in the code's words and points (Euchre 7; Short Whist 8)."""
    loser = score[winner.other]
    if game.family == "euchre":
        return "a double game (2 points, law 7: the losers failed to score)" if loser == 0 else \
            "a single game (1 point, law 7)"
    if code == "short-whist":
        if loser == 0:
            return "a treble game (3 points, law 8 I)"
        if loser < 3:
            return "a double game (2 points, law 8 II)"
        return "a single game (1 point, law 8 III)"
    return "the game"


def _game_winner(game: Game, score: dict[Side, int]) -> Side | None:
    """The side the score takes to game (the higher, should both be there), or None."""
    higher = Side.NS if score[Side.NS] >= score[Side.EW] else Side.EW  # NS first of equals
    return higher if score[higher] >= game.game_points else None


def meaning_of(code: str, game: Game, score: dict[Side, int], order: str | None = None,
               laps: bool = False, rubber: "Rubber | None" = None) -> str | None:
    winner = _game_winner(game, score)
    if winner is None:
        return None
    said = f"{winner} win {game_value(code, game, winner, score)}"
    if order in _BEFORE_THE_WINNERS:
        # The adversaries' points, scored first, made the game worth less: said with its value.
        said = said[:-1] + f"; {order} scored first, law {ORDER_LAW[code]})"
    won, then = rubber_words(game, winner, rubber) if rubber is not None else ("", "")
    said += won
    if laps and score[winner] > game.game_points:
        # Euchre 1 and Technical Terms: "'Lap,'--is where more points are made than are necessary to win a game,
        # and are carried to the next game."
        carried = score[winner] - game.game_points
        said += (f"{',' if won else ''} and carry {carried} point{'s' if carried > 1 else ''} to the next game "
                 "(a lap, law 1)")
    said += then
    if order and order not in _BEFORE_THE_WINNERS:
        said += f", {order} scored first (law {ORDER_LAW[code]})"
    return said


class Rubber(Struct, frozen=True):
    """The rubber as the record gives it (`games:` in the scenario) and the code counts it (Euchre 7, Short Whist 9
    and 10; the laws of Long Whist in hand say nothing of it)."""

    games: dict[Side, int]
    """The games each side had won in the rubber before the one in play."""
    points_law: str
    """The law that gives the winners of the rubber two points: Euchre 7, Short Whist 9."""
    deduct_law: str | None = None
    """The law that deducts the losers' game in a rubber of three games (Short Whist 10), where the code has one."""


def rubber_over(game: Game, score: dict[Side, int] | None, rubber: Rubber | None, laps: bool) -> bool:
    """The score wins a game that ends the rubber: the winners had a game of it already (Short Whist 1: "If the first
    two games be won by the same players, the third game is not played"); at Euchre only the third game ends it, and
    not where its score laps (Euchre 1: "the third game is played; should the score of the third game lap, a fourth
    game is played")."""
    if score is None or rubber is None:
        return False
    winner = _game_winner(game, score)
    if winner is None or rubber.games.get(winner) != 1:
        return False
    if game.family == "euchre":
        return rubber.games.get(winner.other) == 1 and not (laps and score[winner] > game.game_points)
    return True


def rubber_words(game: Game, winner: Side, rubber: Rubber) -> tuple[str, str]:
    """What the game won does to the rubber, added to the game's meaning: the rubber won, with its points, and what
    follows (after a lap, if any); nothing unless the winners had won a game of it already (the rubber is the best of
    three: Euchre 1, Short Whist 1)."""
    if rubber.games.get(winner) != 1:
        return "", ""
    if game.family == "euchre":
        won = f" and the rubber, taking two additional points (law {rubber.points_law})"
        # Euchre 1: "If the first two games are won by the same players, the third game is played."
        then = "; the third game is played all the same (law 1)" if rubber.games.get(winner.other) == 0 else ""
        return won, then
    won = (f" and the rubber, gaining two points, the rubber points, in addition to the value of their games "
           f"(law {rubber.points_law})")
    then = ""
    if rubber.deduct_law is not None and rubber.games.get(winner.other) == 1:
        # Short Whist 10: the losers' game was won before this hand, its value is not in the record: said, not
        # figured.
        then = (f"; the rubber having consisted of three games, the value of {winner.other}'s game is deducted "
                f"from the points {winner} gained (law {rubber.deduct_law})")
    return won, then


_BEFORE_THE_WINNERS = ("the adversaries' tricks",)


def honours_held(table: Table) -> dict[Side, int] | None:
    """How many of the four honours (A K Q J of trumps) each side held, if every holder is known: the honours each
    seat was dealt (`facts.honours_dealt`: `Table.honours`, worked out once a hand), by side, where all four are
    placed."""
    held = {Side.NS: 0, Side.EW: 0}
    for seat, count in honours_dealt(table).items():
        if count is None:
            return None
        held[seat.side] += count
    return held if sum(held.values()) == len(HONOUR_RANKS) else None  # else some honour's holder is not known


def claimable_honours(code: str, game: Game, table: Table, score: dict[Side, int] | None,
                      claimed: frozenset[Side], barred: frozenset[Side],
                      held: dict[Side, int] | None = None) -> dict[Side, int]:
    """The sides that hold three or four honours, have not claimed them, and may still (Short Whist 6, Long Whist
    18: until the trump card of the next deal is turned up; Short Whist 4: not a side at four when the deal
    began), with how many they hold (`held`, as `HandRules.honours`: counted from the table where None)."""
    if game.family != "whist" or any(m.phase == "after" for m in table.by_verb.get("turn", ())):
        return {}
    held = held if held is not None else honours_held(table)
    if not held:
        return {}
    return {side: count for side, count in held.items()
            if count >= 3 and side not in claimed and side not in barred
            and not (code == "short-whist" and score is not None and score[side] == 4)}


def claimable_words(code: str, claimable: dict[Side, int],
                    kept: frozenset[Side] = frozenset()) -> list[tuple[Side, int, int | None, str]]:
    """Each side's honours still claimable, in words: (side, held, points if claimed or None, the sentence).
    `kept`: sides held one short of game whatever is chosen (Long Whist 11: "if up, must remain at nine"), whose
    honours, claimed or not, change no score."""
    said = []
    for side, held in claimable.items():
        count = "four" if held == 4 else "three"
        if code == "short-whist":
            points = 4 if held == 4 else 2
            text = (f"{side} hold {count} honours and have not claimed them; they may until the trump card of the "
                    f"next deal is turned up (law 6). Called, they score {points} points (law 3), scored last "
                    "(law 5): each score is given with the call, and without it where that differs.")
        elif side in kept:
            points = None
            text = (f"{side} hold {count} honours and have not claimed them; they may until the trump card of the "
                    "next deal is turned up (law 18), but, kept at nine by law 11 (\"if up, must remain at nine\"), "
                    "they change no score this hand.")
        else:
            points = None
            text = (f"{side} hold {count} honours and have not claimed them; they may until the trump card of the "
                    "next deal is turned up (law 18). What they score is not in the laws in hand, so the scores "
                    "leave them out.")
        said.append((side, held, points, text))
    return said


def hand_points(code: str, game: Game, table: Table, score: dict[Side, int],
                taken: dict[Side, int], honours_claimed: frozenset[Side] | None = None,
                held: dict[Side, int] | None = None) -> list[dict[Side, int]]:
    """The points the hand itself scores, in the order they are scored (tricks, then honours); `held` as
    `HandRules.honours`."""
    if game.family == "whist":
        tricks = {side: max(0, taken[side] - 6) for side in (Side.NS, Side.EW)}
        stages = [tricks]
        if code == "short-whist":
            honours = held if held is not None else honours_held(table) or {}
            # A claim of the game or the score at the end of the hand counts the honours the side held; a claim
            # withdrawn counts for nothing (facts.Claim.honours_claim).
            claimed = honours_claimed if honours_claimed is not None else honours_claimants(table)
            # Short Whist 3, 4 and 7: four honours score four, three score two; called to be scored;
            # not by players at the score of four when the deal began.
            stages.append({side: (4 if count == 4 else 2 if count == 3 else 0)
                           if side in claimed and score[side] != 4 else 0
                           for side, count in honours.items()})
        return stages
    points = {Side.NS: 0, Side.EW: 0}
    making = table.making
    if making is None or making.maker is None:
        return [points]
    makers = making.maker.side
    made = taken[makers]
    lone = making.lone is not None
    if made >= 5:
        points[makers] += game.value("lone_march", 4) if lone else game.value("march", 2)
    elif made >= 3:
        points[makers] += game.value("lone_point", 1) if lone else game.value("point", 1)
    else:
        points[makers.other] += game.value("lone_euchre", 4) if lone else game.value("euchre", 2)
    return [points]


def hand_can_give(code: str, game: Game, table: Table) -> list[tuple[str, Side, int]]:
    """What a Euchre hand not yet played out can score, each result once (laws 2, 3, as the house values them):
    ("march", makers, 2), ("point", makers, 1), ("euchre", adversaries, 2); empty where no side made the trump."""
    making = table.making
    if not game.euchre or making is None or making.maker is None:
        return []
    makers = making.maker.side
    # Only what the tricks still to play can give: a side that has lost a trick cannot march (law 2).
    won = sum(1 for winner in table.winners if winner.side is makers)
    lost = len(table.winners) - won
    most = game.hand_size - lost
    said = []
    for result, made in (("march", game.hand_size), ("point", 3), ("euchre", 0)):
        if (result == "march" and lost) or (result == "point" and (most < 3 or won >= game.hand_size)) \
                or (result == "euchre" and won >= 3):
            continue
        points = hand_points(code, game, table, {Side.NS: 0, Side.EW: 0},
                             {makers: made, makers.other: game.hand_size - made})[0]
        side = makers if result != "euchre" else makers.other
        said.append((result, side, points[side]))
    return said


class Penalty(Struct, frozen=True):
    """One option a side takes (or must take), as it bears on the score."""

    kind: str
    """An option kind: score, deduct, take_tricks, forfeit, new_deal, or one that leaves the score alone."""
    number: int | None
    to: Side | None
    """Who gains (score, take_tricks, forfeit's receivers)."""
    offenders: Side | None
    """Who pays (deduct, take_tricks, forfeit)."""


SCORE_KINDS = ("score", "deduct", "take_tricks", "forfeit")
VOIDS_HAND = ("new_deal",)
"""Options after which the hand is not scored: a new deal annuls it."""
DEAL_OR_NOT = frozenset({"new_deal", "let_it_stand"})
"""A new deal claimed or not: one right, taken or left, not a choice between two penalties (Short Whist 84)."""


class HandRules(Struct, frozen=True):
    """What the laws that apply say about scoring this hand."""

    capped: frozenset[Side] = frozenset()
    """Sides that cannot win the game by this hand (Short Whist 82, Long Whist 11)."""
    void: bool = False
    """The hand is not scored (a house's "the hand ends")."""
    no_points: frozenset[Side] = frozenset()
    """Sides not entitled to score what they made on the hand (Euchre 90)."""
    lone_march: int | None = None
    """What a lone player's five tricks score, where a law says (Euchre 102: only two)."""
    abandoned: bool = False
    """The hands were abandoned: the tricks stand as they were taken (Euchre 49, Short Whist 59)."""
    no_honours: frozenset[Side] = frozenset()
    """Sides that cannot score honours by this hand (Short Whist 4 and 6)."""
    honours_claimed: frozenset[Side] | None = None
    """Sides whose standing claims count as a claim of honours (Short Whist 7); None: read from the table."""
    honours_against: frozenset[Side] = frozenset()
    """Sides that scored honours not having them, to be scored against them (Long Whist 18): the points they
    scored are not in the record, so the score after the hand needs them."""
    laps: bool = False
    """Points made past game are carried to the next game (Euchre 1 and its Technical Terms, "Lap"): a penalty
    that wins the game first leaves the winners' points of the rest of the hand to be carried, not lost."""
    stopped: bool = False
    """The hand ends here, not played out (Short Whist 79: the revoking side does not require it): the honours
    held are scored all the same (laws 3, 5); a hand that goes on scores them at its end."""
    honours_uncounted: frozenset[Side] = frozenset()
    """Sides whose honours are set up, claimed in time, but how many they held is not in the record (Long Whist 18,
    nor what honours count in its laws in hand): the score after the hand needs them."""
    honours_game: frozenset[Side] = frozenset()
    """Sides whose call at eight was answered, their honours held (Long Whist 18, 19): the honours set up end the
    hand and take them to game, whatever honours count (not in the laws in hand)."""
    honours_points: dict[Side, int] = {}
    """Points scored with the honours, after the tricks, by side (Long Whist 18: the points a side marked for honours
    it did not hold, scored to its adversaries; or for honours set up): the table's answer gives them."""
    rubber: Rubber | None = None
    """The rubber, where the record gives the games won in it and the code counts it (Euchre 7, Short Whist 9): a
    game won that wins the rubber says so, with the rubber's points."""
    honours: dict[Side, int] | None = None
    """The honours each side held (`honours_held`; empty where some holder is not known), counted once for the hand
    from the honours each seat was dealt (`Facts.honours`), not from the holdings at each score (9 M instructions
    less on 201 benchmark files); None: counted from the table where asked."""


def hand_score(code: str, game: Game, table: Table, rules: HandRules = HandRules(),
               taken: dict[Side, int] | None = None) -> dict[Side, int] | None:
    """The hand's own points, counted once from nothing; None when the hand was not played out."""
    taken = taken if taken is not None else tricks_taken(table, rules.abandoned)
    if taken is None:
        return None
    total = {Side.NS: 0, Side.EW: 0}
    if rules.void:
        return total
    # The score before the hand still decides what the hand may score (Short Whist 4: no honours at four).
    for stage in _stages(code, game, table, table.scenario.score or total, taken, rules):
        for side, points in stage.items():
            total[side] += points
    return total


def _stages(code: str, game: Game, table: Table, score: dict[Side, int], taken: dict[Side, int],
            rules: HandRules) -> list[dict[Side, int]]:
    stages = hand_points(code, game, table, score, taken, rules.honours_claimed, rules.honours)
    if rules.lone_march is not None and game.family == "euchre" and table.making and table.making.maker \
            and table.making.lone is not None and taken[table.making.maker.side] >= game.hand_size:
        stages = [{side: min(points, rules.lone_march) for side, points in stage.items()} for stage in stages]
    if rules.no_points:
        stages = [{side: 0 if side in rules.no_points else points for side, points in stage.items()}
                  for stage in stages]
    if rules.no_honours and len(stages) > 1:  # Short Whist: tricks, then honours
        stages[1] = {side: 0 if side in rules.no_honours else points for side, points in stages[1].items()}
    if rules.honours_points:  # Long Whist 18: the points marked for honours, after the tricks
        stages.append({side: rules.honours_points.get(side, 0) for side in (Side.NS, Side.EW)})
    return stages


def going_out(code: str, game: Game, table: Table, hand: dict[Side, int], rules: HandRules = HandRules()) \
        -> dict[Side, list[int]]:
    """Where the score before the hand is not given: each side's scores from which the hand takes it to game, its
    points all scored as they stand (Short Whist 4 and 5 may bar some, and those are asked as questions), the other
    side at nought. The table, asked the score, knows at once whether the hand ends the game."""
    said: dict[Side, list[int]] = {}
    for side in (Side.NS, Side.EW):
        if not hand.get(side):
            continue
        for points in range(game.game_points):
            before = {side: points, side.other: 0}
            after = final_score(code, game, table, before, [], rules).score_after
            if after is not None and after[side] >= game.game_points \
                    and all(after[s] == before[s] + hand[s] for s in before):
                said.setdefault(side, []).append(points)
    return said


def final_score(code: str, game: Game, table: Table, before: dict[Side, int] | None,
                penalties: list[Penalty], rules: HandRules = HandRules()) -> Effect:
    """The score after the hand: the penalties first (Euchre 4, Short Whist 5 and 72 V, Long Whist 11),
    then the hand's own points in their order (tricks, then honours), each counted once."""
    taken = tricks_taken(table, rules.abandoned)
    if before is None:
        zero = {Side.NS: 0, Side.EW: 0}
        if not any(penalty.kind in SCORE_KINDS for penalty in penalties) \
                and _final_score(code, game, table, zero, penalties, rules, taken).score_after == zero:
            # Nothing scored by this choice from a score of nothing: nothing is scored from any score.
            return Effect(None, None, None, unchanged=True)
        return Effect(None, None, "the score before the hand (`score:` in the scenario)")
    effect = _final_score(code, game, table, before, penalties, rules, taken)
    if rubber_over(game, effect.score_after, rules.rubber, rules.laps) and effect.meaning is not None:
        effect = replace(effect, rubber_over=True)
    taking = [penalty for penalty in penalties if penalty.kind == "take_tricks"]
    if taking and effect.score_after is not None and rules.abandoned and taken is not None \
            and sum(taken.values()) < game.hand_size:
        others = [penalty for penalty in penalties if penalty.kind != "take_tricks"]
        if _final_score(code, game, table, before, others, rules, taken).score_after == effect.score_after:
            return replace(effect, takes_nothing_at=len(table.tricks))
    return effect


def _final_score(code: str, game: Game, table: Table, before: dict[Side, int], penalties: list[Penalty],
                 rules: HandRules, taken: dict[Side, int] | None) -> Effect:
    """`final_score` from a given score, with the tricks each side took (`tricks_taken`, None: not played out)."""
    after = dict(before)
    void = rules.void
    for penalty in penalties:
        number = penalty.number or 0
        if penalty.kind in VOIDS_HAND:
            void = True
        elif penalty.kind in ("score", "forfeit"):
            if penalty.to is None:
                return Effect(None, None, "which side the points go to")
            after[penalty.to] += number
        elif penalty.kind == "deduct":
            if penalty.offenders is None:
                return Effect(None, None, "which side is penalised")
            after[penalty.offenders] = max(0, after[penalty.offenders] - number)
        elif penalty.kind == "take_tricks":
            if taken is None or penalty.to is None or penalty.offenders is None:
                return Effect(None, None, "the tricks each side took (play the hand out in the log)")
            moved = min(number, taken[penalty.offenders])
            taken = {penalty.to: taken[penalty.to] + moved, penalty.offenders: taken[penalty.offenders] - moved}
    _cap(after, before, rules.capped, game)
    if not void and rules.honours_game:
        # Long Whist 18, 19: the honours called at eight and set up make the game; the tricks are not played.
        for side in rules.honours_game:
            after[side] = max(after[side], game.game_points)
        _cap(after, before, rules.capped, game)
        return Effect(after, meaning_of(code, game, after, rubber=rules.rubber), None)
    if not void and rules.honours_uncounted:
        sides = " and ".join(str(side) for side in sorted(rules.honours_uncounted, key=str))
        tricks = " with the tricks each side took above six, not in the record" if taken is None else ""
        return Effect(None, None, f"the points {sides} marked for the honours set up (two or four), to add them to "
                                  f"NS {after[Side.NS]}, EW {after[Side.EW]}{tricks}",
                      by_points=_by_points(code, game, table, before, penalties, rules, rules.honours_uncounted))
    if not void and rules.honours_points and taken is None:
        # Long Whist 18: the points marked for honours are known, the hand's tricks are not in the record.
        for side, points in rules.honours_points.items():
            after[side] += points
        _cap(after, before, rules.capped, game)
        return Effect(after, meaning_of(code, game, after, rubber=rules.rubber), UNWRITTEN)
    if not void and rules.honours_against:
        sides = " and ".join(str(side) for side in sorted(rules.honours_against, key=str))
        so_far = dict(after)
        if taken is not None:  # the tricks, scored: the honours against them come off what follows
            for side, points in _stages(code, game, table, before, taken, rules)[0].items():
                so_far[side] += points
        tricks = f" (the tricks give NS {so_far[Side.NS]}, EW {so_far[Side.EW]})" if taken is not None else \
            ", and the tricks each side took above six, not in the record"
        return Effect(None, None, f"the points {sides} marked for honours they did not hold (two or four), to be "
                                  f"scored to their adversaries{tricks}", so_far=so_far,
                      by_points=_by_points(code, game, table, before, penalties, rules,
                                           frozenset(side.other for side in rules.honours_against)))
    if not void:
        if taken is None:
            if not table.tricks and not any(p.kind in SCORE_KINDS for p in penalties):
                # Honours claimed once the hand is over, its play not written down (Long Whist 18): its tricks
                # are missing from the record, not nothing.
                unwritten = rules.stopped and bool(rules.honours_claimed) and game.family == "whist"
                return Effect(dict(before), None, UNWRITTEN if unwritten else None)
            # A penalty that takes a side to game wins it before anything the rest of the hand may make (Euchre 4,
            # Short Whist 5): said, since the hand may yet be played out (Euchre 70).
            first = "the penalty" if code in ORDER_LAW and max(after.values()) >= game.game_points \
                and max(before.values()) < game.game_points and any(p.kind in SCORE_KINDS for p in penalties) \
                else None
            if code == "short-whist" and rules.stopped and max(after.values()) < game.game_points:
                # Short Whist 3, 5: the honours are held whatever the play; called, they score, last.
                honours = _stages(code, game, table, before, {Side.NS: 0, Side.EW: 0}, rules)[1:]
                for stage in honours:
                    for side, points in stage.items():
                        after[side] += points
                _cap(after, before, rules.capped, game)
            return Effect(after, meaning_of(code, game, after, first, rules.laps, rules.rubber),
                          "the rest of the hand: it was not played out, so its own points are not counted", first)
        # The penalty takes precedence: once a side is at game, nothing later in the hand is scored; where that
        # leaves out points the hand made, the order decided the game and is said (Euchre 4, Short Whist 5).
        names = ["the tricks", "the honours"] if game.family == "whist" else ["the hand's points"]
        reached = "the penalty" if max(after.values()) >= game.game_points else None
        order = None
        stages = _stages(code, game, table, before, taken, rules)
        for index, stage in enumerate(stages):
            if max(after.values()) >= game.game_points:
                winners = {side for side in after if after[side] >= game.game_points}
                if rules.laps and len(winners) == 1:
                    # The game is won (law 4: the penalty first); the winners' points of the hand are a lap, carried
                    # to the next game; their adversaries' come after the game they lost and are not scored.
                    for side in winners:
                        after[side] += stage[side]
                    if any(points for side, points in stage.items() if side not in winners) and code in ORDER_LAW:
                        order = reached
                    continue
                if any(stage.values()) and code in ORDER_LAW:
                    order = reached
                break
            for side, points in stage.items():
                after[side] += points
            _cap(after, before, rules.capped, game)
            if max(after.values()) >= game.game_points:
                reached = names[min(index, len(names) - 1)]
                if order is None and code in ORDER_LAW and index > 0:
                    order = _earlier_decides(code, game, after, stages[:index], names)
        return Effect(after, meaning_of(code, game, after, order, rules.laps, rules.rubber), None, order)
    return Effect(after, meaning_of(code, game, after, laps=rules.laps, rubber=rules.rubber), None)


def _by_points(code: str, game: Game, table: Table, before: dict[Side, int], penalties: list[Penalty],
               rules: HandRules, to: frozenset[Side]) -> tuple[tuple[int, Effect], ...]:
    """Long Whist 18: the score if the points marked for honours were two, and if four, scored to `to`."""
    if len(to) != 1:
        return ()
    side = next(iter(to))
    plain = replace(rules, honours_against=frozenset(), honours_uncounted=frozenset())
    return tuple((points, final_score(code, game, table, before, penalties, replace(plain, honours_points={side: points})))
                 for points in (2, 4))


def _earlier_decides(code: str, game: Game, after: dict[Side, int], earlier: list[dict[Side, int]],
                     names: list[str]) -> str | None:
    """Short Whist 5 ("Tricks score next. Honours last."): a side reached game on a later stage, and the points
    its adversaries scored on an earlier one changed what the game is worth (a single, not a double): what was
    scored first, or None."""
    winners = [side for side in (Side.NS, Side.EW) if after[side] >= game.game_points]
    if len(winners) != 1:
        return None
    loser = winners[0].other
    for index, stage in enumerate(earlier):
        if stage.get(loser):
            without = {**after, loser: after[loser] - stage[loser]}
            if game_value(code, game, winners[0], without) != game_value(code, game, winners[0], after):
                return "the adversaries' tricks" if index == 0 else names[index]
    return None


def _cap(after: dict[Side, int], before: dict[Side, int], capped: frozenset[Side], game: Game) -> None:
    for side in capped:
        after[side] = min(after[side], max(before[side], game.game_points - 1))
