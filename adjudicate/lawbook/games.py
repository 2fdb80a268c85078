"""The game facts of each code: its family, pack, hand and game.

The rulebooks carry the same facts under `game:`; this table is what the
replay needs without loading a rulebook, and a test keeps the two equal.
"""

from __future__ import annotations

from msgspec import Struct

from adjudicate.record.cards import EUCHRE_PACK, WHIST_PACK, Pack


class Game(Struct, frozen=True):
    """What kind of game a code governs."""

    family: str
    """"euchre" or "whist"."""
    pack: Pack
    """The cards in play."""
    hand_size: int
    """Cards dealt to each player."""
    game_points: int
    """Points that make a game."""
    values: tuple[tuple[str, int], ...] = ()
    """Scoring values that differ from the code's (a house's `scores:`), e.g. (("lone_euchre", 2),)."""
    out_of_turn_cannot_win: bool = False
    """A card played out of turn to a suit led does not win the trick where its player held another he might
    lawfully have played that would not have won it: the best of the other cards wins it (Long Whist 10)."""

    def value(self, name: str, default: int) -> int:
        return dict(self.values).get(name, default)

    @property
    def euchre(self) -> bool:
        return self.family == "euchre"


BUILTIN_GAMES: dict[str, Game] = {
    "euchre": Game("euchre", EUCHRE_PACK, 5, 5),
    "short-whist": Game("whist", WHIST_PACK, 13, 5),
    "long-whist": Game("whist", WHIST_PACK, 13, 10, out_of_turn_cannot_win=True),
}
