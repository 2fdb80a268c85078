"""Scoring: each game's score, and what a remedy does to it.

Euchre of 1888: game five points; a game won counts two if the losers failed
to score (law 7). Short Whist: game five points; tricks above six count one;
the winners gain a treble if the adversaries have not scored, a double if
they have scored less than three, a single if three or four (law 8). Long
Whist: game ten points. A revoke's penalty takes precedence of every other
score (Euchre 4, Short Whist 5, 72 V), so it is applied to the score before
the hand, and the revoking side cannot win the game by that hand (Short Whist
82; Long Whist 11, "if up, must remain at nine").
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicate.games import Game
from adjudicate.seats import Side
from adjudicate.table import Table


@dataclass(frozen=True, slots=True)
class Effect:
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


def apply_option(kind: str, number: int | None, code: str, game: Game, table: Table,
                 score: dict[Side, int] | None, chooser: Side | None, offenders: Side | None,
                 capped: set[Side]) -> Effect:
    """The effect of one option on the score before the hand."""
    if kind not in ("score", "deduct", "take_tricks", "forfeit"):
        return Effect(None, None, None)
    if score is None:
        return Effect(None, None, "the score before the hand (`score:` in the scenario)")
    after = dict(score)
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
        taken = tricks_taken(table)
        if taken is None or chooser is None or offenders is None:
            return Effect(None, None, "the tricks each side took (play the hand out in the log)")
        moved = min(number or 0, taken[offenders])
        taken = {chooser: taken[chooser] + moved, offenders: taken[offenders] - moved}
        for side in (Side.NS, Side.EW):
            after[side] += max(0, taken[side] - 6) if game.family == "whist" else 0
    for side in capped:
        after[side] = min(after[side], max(score[side], game.game_points - 1))
    return Effect(after, meaning_of(code, game, after), None)
