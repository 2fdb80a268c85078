"""The values a scenario file's pieces hold (a seat, a card, a score, a law's id), read with their positions:
shared by the scenario's reader and its `expect` block's."""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from adjudicate.errors import InputError, Problem, did_you_mean, quote
from adjudicate.record.cards import Card
from adjudicate.record.seats import Seat, Side, seat_of_letter
from adjudicate.record.yamlsource import NULL_TAG, Node

LAW_ID = re.compile(r"[0-9]+|[A-Z]+[0-9]+")
"""A law's id as `expect` names it: its number ("63"), or a house's added law ("H1")."""
QUESTION_ID = r"[A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+"
"""An open question's id as `expect.unknown` may name it: `E-held-spade-trick-1`, `euchre-22-pack-shuffled-below-table`."""
_SIDES = {str(side): side for side in Side}
_SIDE_NAMES = frozenset(_SIDES)
"""A score's keys: the sides, `NS` and `EW`."""


class _Values:
    def read_keys(self, node: Node, what: str, allowed: frozenset[str] | set[str],
                  readers: Sequence[tuple[str, Callable[[Any, Node], Any]]],
                  required: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[Problem]]:
        """A mapping's values, each read by its key's reader, and every problem found: unknown or missing keys,
        then each value's, in the readers' order whatever the file's (a mapping given as Python values has no
        lines to order them by)."""
        problems: list[Problem] = []
        try:
            node.check_keys(what, allowed, required=required)
        except InputError as error:
            problems.extend(error.problems)
        pairs: dict[str, tuple[Node, Node]] = node.value  # type: ignore[assignment]
        read: dict[str, Any] = {}
        for key, reader in readers:
            pair = pairs.get(key)
            if pair is not None:
                try:
                    read[key] = reader(self, pair[1])
                except InputError as error:
                    problems.extend(error.problems)
        return read, problems

    @staticmethod
    def nonempty(node: Node, what: str) -> str:
        value = node.text(what).strip()
        if not value:
            raise node.error(f"{what} should not be empty")
        return value

    @staticmethod
    def seat(node: Node, what: str) -> Seat:
        if node.kind == "scalar" and node.tag != NULL_TAG:  # a seat's letter as written, `N`, read straight
            seat = seat_of_letter(node.value)  # type: ignore[call-overload]
            if seat is not None:
                return seat
        text = node.text(what)
        try:
            return Seat.parse(text)
        except ValueError:
            raise node.error(f"{what}: {quote(text)} is not a seat; expected N, E, S or W"
                             f"{did_you_mean(text.upper(), ['N', 'E', 'S', 'W'])}") from None

    @staticmethod
    def card(node: Node, what: str) -> Card:
        text = node.text(what)
        try:
            return Card.parse(text)
        except ValueError as error:
            raise node.error(f"{what}: {error}") from None

    def score(self, node: Node) -> dict[Side, int]:
        node.expect_map("`score`")
        node.check_keys("`score`", _SIDE_NAMES)
        score = {Side.NS: 0, Side.EW: 0}
        for key, (_, value) in node.value.items():  # type: ignore[attr-defined]
            points = value.integer(f"the score of {key}")
            if not 0 <= points <= 99:
                raise value.error(f"the score of {key} should be between 0 and 99, not {points}")
            score[_SIDES[key]] = points
        return score

    def games(self, node: Node) -> dict[Side, int]:
        """The games each side has won in the rubber before the one in play (the rubber is the best of three: Euchre
        1, Short Whist 1), both sides given."""
        node.expect_map("`games`")
        node.check_keys("`games`", _SIDE_NAMES, required=("NS", "EW"))
        games = {Side.NS: 0, Side.EW: 0}
        for key, (_, value) in node.value.items():  # type: ignore[attr-defined]
            won = value.integer(f"the games of {key}")
            if won not in (0, 1):
                raise value.error(f"the games of {key} should be 0 or 1 (the games won in the rubber before the one "
                                  f"in play: a rubber is the best of three), not {won}")
            games[_SIDES[key]] = won
        return games

    @staticmethod
    def law_id(node: Node, what: str) -> str:
        # A law id as written, `63`, read straight; the checking call, with its message, only where it is not text.
        written: str = node.value if node.kind == "scalar" and node.tag != NULL_TAG else node.text(  # type: ignore[assignment]
            f"a law id in {what}")
        text = written.strip()
        if not LAW_ID.fullmatch(text):
            raise node.error(f"{quote(text)} in {what} is not a law id: expected a law's number, like \"63\", "
                             "or a house's added law, like \"H1\"")
        return text
