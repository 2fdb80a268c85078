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

from adjudicate.games import Game
from adjudicate.seats import Side
from adjudicate.table import Table


class Effect(Struct, frozen=True):
    """What choosing an option does to the score."""

    score_after: dict[Side, int] | None
    """Each side's points after it, or None when the record does not give what is needed."""
    meaning: str | None
    """What it means: "NS win a treble game"."""
    needs: str | None
    """What the record must add to say (the score before the hand, the tricks each side took)."""


def tricks_taken(table: Table) -> dict[Side, int] | None:
    """Tricks each side took, when the hand was played to the end."""
    complete = [trick for trick in table.tricks if trick.complete and trick.winner is not None]
    if len(complete) < table.game.hand_size:
        return None
    taken = {Side.NS: 0, Side.EW: 0}
    for trick in complete:
        assert trick.winner is not None
        taken[trick.winner.side] += 1
    return taken


def game_value(code: str, game: Game, winner: Side, score: dict[Side, int]) -> str:
    """What a game won is worth, in the code's words."""
    loser = score[winner.other]
    if game.family == "euchre":
        return "a double game (the losers failed to score, law 7)" if loser == 0 else "a single game"
    if code == "short-whist":
        if loser == 0:
            return "a treble game"
        if loser < 3:
            return "a double game"
        return "a single game"
    return "the game"


def meaning_of(code: str, game: Game, score: dict[Side, int]) -> str | None:
    winners = [side for side in (Side.NS, Side.EW) if score[side] >= game.game_points]
    if not winners:
        return None
    winner = max(winners, key=lambda side: score[side])
    return f"{winner} win {game_value(code, game, winner, score)}"


def honours_held(table: Table) -> dict[Side, int] | None:
    """How many of the four honours (A K Q J of trumps) each side held, if every holder is known."""
    trump = table.trump
    if trump is None:
        return None
    held = {Side.NS: 0, Side.EW: 0}
    for rank in "AKQJ":
        holder = next((seat for seat, record in table.holdings.items()
                       if any(card.rank.letter == rank and card.suit is trump for card in record.dealt)), None)
        if holder is None:
            return None
        held[holder.side] += 1
    return held


def hand_points(code: str, game: Game, table: Table, score: dict[Side, int],
                taken: dict[Side, int]) -> list[dict[Side, int]]:
    """The points the hand itself scores, in the order they are scored (tricks, then honours)."""
    if game.family == "whist":
        tricks = {side: max(0, taken[side] - 6) for side in (Side.NS, Side.EW)}
        stages = [tricks]
        if code == "short-whist":
            honours = honours_held(table) or {}
            claimed = {moment.act.seat.side for moment in table.moments
                       if moment.act.verb == "claim" and moment.act.word == "honours" and moment.act.seat}
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


def apply_option(kind: str, number: int | None, code: str, game: Game, table: Table,
                 score: dict[Side, int] | None, chooser: Side | None, offenders: Side | None,
                 capped: set[Side], hand_ends: bool = False) -> Effect:
    """The effect of one option on the score: the penalty first, then the hand's own points if it was played out."""
    if kind not in ("score", "deduct", "take_tricks", "forfeit"):
        return Effect(None, None, None)
    if score is None:
        return Effect(None, None, "the score before the hand (`score:` in the scenario)")
    after = dict(score)
    taken = tricks_taken(table)
    to = chooser if kind == "score" else offenders.other if kind == "forfeit" and offenders else chooser
    if kind in ("score", "forfeit"):
        if to is None:
            return Effect(None, None, "which side the points go to")
        after[to] += number or 0
    elif kind == "deduct":
        if offenders is None:
            return Effect(None, None, "which side revoked")
        after[offenders] = max(0, after[offenders] - (number or 0))
    else:
        if taken is None or chooser is None or offenders is None:
            return Effect(None, None, "the tricks each side took (play the hand out in the log)")
        moved = min(number or 0, taken[offenders])
        taken = {chooser: taken[chooser] + moved, offenders: taken[offenders] - moved}
    for side in capped:
        after[side] = min(after[side], max(score[side], game.game_points - 1))
    if taken is not None and not hand_ends:
        # The penalty takes precedence: once a side is at game, nothing later in the hand is scored.
        for stage in hand_points(code, game, table, score, taken):
            if max(after.values()) >= game.game_points:
                break
            for side, points in stage.items():
                after[side] += points
            for side in capped:
                after[side] = min(after[side], max(score[side], game.game_points - 1))
    return Effect(after, meaning_of(code, game, after), None)
