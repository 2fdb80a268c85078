"""House rules: a club's variant written once over a code, checked, and applied.

    house: modern-euchre
    name: Modern club Euchre
    source: How most American clubs play today
    varies: euchre                  # a code id, a built-in house id, or another house file
    parameters:
      ranks: [A, K, Q, J, T, "9"]   # the 24-card pack
      game_points: 10
    changes:
      - replace: "63"
        why: A renege costs two points, and the hand ends.
        remedies: ...               # any field of a law: title, text, condition, remedies, rulings, ...
      - add: H1
        why: Stick the dealer.
        title: ...
        text: ...
        condition: ...
      - strike: "7"
        why: Rubbers are not played.
      - add: H2
        why: A renege is not penalised once the next hand is dealt.
        defeats: [{law: "63", how: bars, because: ...}]   # an exception to a code law, which stands

Applying a house file gives a `Rulebook` like any other, so the matcher and
every command use it unchanged.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterable

import msgspec.structs
from msgspec import Struct

from adjudicate.record.cards import Pack, Rank
from adjudicate.lawbook.conditions import describe
from adjudicate.lawbook.defeats import defeat_problems
from adjudicate.errors import InputError, Pos, Problem, RulebookError, ScenarioError, UsageError, did_you_mean, quote
from adjudicate.lawbook.games import Game
from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook
from adjudicate.lawbook.reader import _LAW_FIELDS, _Reader
from adjudicate.lawbook.rulebook import Law, Rulebook, SourceFile, sources_of, with_sources
from adjudicate.lawbook.sources import SUFFIXES, Boundary, Named, boundary_for, named_again, named_file, recording_named
from adjudicate.record.yamlsource import Node, read_yaml, read_yaml_source

TOP_KEYS = frozenset({"house", "name", "source", "varies", "parameters", "changes", "note"})
PARAMETER_KEYS = frozenset({"ranks", "game_points", "hand_size", "scores"})
SCORE_VALUES = {"point": 1, "march": 2, "euchre": 2, "lone_point": 1, "lone_march": 4, "lone_euchre": 4}
"""The scoring values of a Euchre hand a house may change (Euchre laws 2 and 3), with the code's own."""
ACTIONS = ("replace", "add", "strike")
_HOUSE_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_ADDED_ID = re.compile(r"[A-Z]+[0-9]+")
MAX_DEPTH = 8
"""How many house files may build on one another."""


class Change(Struct, frozen=True):
    """One change a house makes to its code: a law replaced, added or struck out, and why."""

    action: str
    law: str
    why: str
    fields: dict[str, Any]
    """The law fields it gives (for replace and add), already checked."""
    cited: tuple[tuple[str, Pos, str], ...]
    """(ref, where, citing law) of the refs it gives, checked once the house is applied."""
    pos: Pos


class House(Struct, frozen=True):
    """A house-rules file."""

    id: str
    name: str
    source: str | None
    varies: str
    parameters: dict[str, Any]
    changes: tuple[Change, ...]
    path: str
    varies_pos: Pos
    data: bytes = b""
    """The file's bytes as read (for the ruling record's digest)."""


def builtin_house_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "rulebooks" / "house"


def builtin_houses() -> tuple[str, ...]:
    folder = builtin_house_dir()
    if not folder.is_dir():
        return ()
    return tuple(sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".yaml")))


def resolve_house(name: str) -> str:
    """A house named on the command line: a built-in id (`modern-euchre`) or any file's path.

    A `UsageError` (with a did-you-mean) for a name that is neither a built-in house nor a path.
    """
    if name in builtin_houses():
        return str(builtin_house_dir() / f"{name}.yaml")
    if name.endswith(SUFFIXES) or os.sep in name or "/" in name or os.path.exists(name):
        return name
    raise UsageError(_unknown_house(name))


def _unknown_house(name: str) -> str:
    return (f"unknown house {quote(name)}{did_you_mean(name, builtin_houses())}; expected a built-in house "
            f"({', '.join(builtin_houses()) or 'none'}) or a house-rules file's path (ending .yaml)")


def scenario_house(scenario, boundary: Boundary) -> Rulebook:
    """The house rules a scenario's own `house:` names: a built-in id, or a file inside `boundary`."""
    name: str = scenario.house
    pos = scenario.positions.get("house", Pos(scenario.path, 1, 1))
    if name in builtin_houses():
        return _applied(str(builtin_house_dir() / f"{name}.yaml"), None)
    if not (name.endswith(SUFFIXES) or os.sep in name or "/" in name):
        raise ScenarioError([Problem(pos, _unknown_house(name))])
    return _applied(named_file(name, scenario.path, pos, "house", boundary), boundary)


def is_house_file(root: Node) -> bool:
    return root.is_map() and root.get("varies") is not None


def load_house(path: str, named: bool = False) -> House:
    """Read a house-rules file; `named`: the file was named inside another file (see `adjudicate.lawbook.sources`)."""
    try:
        data, root = read_yaml_source(path, regular_only=named)
    except InputError as error:
        raise RulebookError(error.problems) from None
    return read_house(root, path, named, data)


def read_house(root: Node, path: str, named: bool = False, data: bytes = b"") -> House:
    problems: list[Problem] = []

    def attempt(read):
        try:
            return read()
        except InputError as error:
            problems.extend(error.problems)
            return None

    if not root.is_map():
        raise RulebookError([Problem(root.pos, "a house-rules file should be a mapping with house, name, varies "
                                               "and changes")])
    if (named and not ("house" in root.value and "varies" in root.value)) or (  # type: ignore[operator]
            root.value and TOP_KEYS.isdisjoint(root.value)):  # type: ignore[arg-type]
        # Some other file: its keys and values are its content, and are not quoted.
        raise RulebookError([Problem(root.pos, "not a house-rules file: it has no `house:` and `varies:` keys "
                                               "(nothing of it is shown)")])
    attempt(lambda: root.check_keys("the house rules", TOP_KEYS, required=("house", "name", "varies")))
    house_id = attempt(lambda: root.get("house").text("`house`").strip()) if root.get("house") else None  # type: ignore[union-attr]
    if house_id is not None and not _HOUSE_ID.fullmatch(house_id):
        problems.append(Problem(root.get("house").pos, f"a house id is lower-case words joined by hyphens, "  # type: ignore[union-attr]
                                                       f"like modern-euchre, not {house_id!r}"))
    name = attempt(lambda: root.get("name").text("`name`").strip()) if root.get("name") else None  # type: ignore[union-attr]
    source = attempt(lambda: root.get("source").text("`source`").strip()) if root.get("source") else None  # type: ignore[union-attr]
    varies_node = root.get("varies")
    varies = attempt(lambda: varies_node.text("`varies`").strip()) if varies_node else None
    parameters_node = root.get("parameters")
    parameters = attempt(lambda: _parameters(parameters_node)) if parameters_node is not None else {}
    changes: list[Change] = []
    changes_node = root.get("changes")
    if changes_node is not None:
        if not changes_node.is_seq():
            problems.append(Problem(changes_node.pos, "`changes` should be a list of replace/add/strike entries"))
        else:
            for element in changes_node.elements():
                change = attempt(lambda: _change(element, path))
                if change is not None:
                    changes.append(change)
    if problems or house_id is None or name is None or varies is None or varies_node is None:
        raise RulebookError(sorted(problems, key=lambda p: (p.pos.line, p.pos.column))
                            or [Problem(root.pos, "not a house-rules file")])
    return House(house_id, name, source, varies, parameters or {}, tuple(changes), path, varies_node.pos, data)


def _parameters(node: Node) -> dict[str, Any]:
    node.expect_map("`parameters`")
    node.check_keys("`parameters`", PARAMETER_KEYS)
    result: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, _, value in node.items():
        try:
            if key == "scores":
                value.expect_map("`parameters.scores`")
                value.check_keys("`parameters.scores`", frozenset(SCORE_VALUES))
                scores = {}
                for name, _, points in value.items():
                    number = points.integer(f"`parameters.scores.{name}`")
                    if not 0 <= number <= 24:
                        problems.append(Problem(points.pos, f"`parameters.scores.{name}` should be from 0 to 24, "
                                                            f"not {number}"))
                    scores[name] = number
                result["scores"] = (tuple(sorted(scores.items())), value.pos)
            elif key == "ranks":
                value.expect_seq("`parameters.ranks`")
                ranks = []
                for element in value.elements():
                    text = element.text("a rank").strip()
                    try:
                        ranks.append(Rank.parse(text))
                    except ValueError as error:
                        problems.append(Problem(element.pos, str(error)))
                if len(set(ranks)) != len(ranks):
                    problems.append(Problem(value.pos, "a rank is listed twice in `parameters.ranks`"))
                result["ranks"] = (tuple(ranks), value.pos)
            else:
                number = value.integer(f"`parameters.{key}`")
                low, high = (1, 99) if key == "game_points" else (1, 13)
                if not low <= number <= high:
                    problems.append(Problem(value.pos, f"`parameters.{key}` should be from {low} to {high}, "
                                                       f"not {number}"))
                result[key] = (number, value.pos)
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    return result


def _change(node: Node, path: str) -> Change:
    node.expect_map("a change")
    actions = [key for key in ACTIONS if node.get(key) is not None]
    if len(actions) != 1:
        raise node.error("a change says one of `replace: LAW`, `add: NEW-ID` or `strike: LAW`"
                         + (f"; this one says {', '.join(actions)}" if actions else ""))
    action = actions[0]
    allowed = {action, "why"} | (set() if action == "strike" else set(_LAW_FIELDS) - {"id"})
    node.check_keys(f"a `{action}` change", frozenset(allowed), required=(action, "why"))
    law_node = node.get(action)
    assert law_node is not None
    law_id = law_node.text(f"the law to {action}").strip()
    if action == "add" and not _ADDED_ID.fullmatch(law_id):
        raise law_node.error(f"an added law's id should be letters then a number, such as H1, so it cannot "
                             f"clash with the code's numbered laws; not {law_id!r}")
    why = node.get("why").text("`why`").strip()  # type: ignore[union-attr]
    reader = _Reader(path)
    fields: dict[str, Any] = {}
    for key, (_, read) in _LAW_FIELDS.items():
        child = node.get(key)
        if key != "id" and child is not None:
            fields[key] = reader.attempt(lambda: read(reader, child, law_id))
    if action == "add":
        for key in ("title", "text"):
            if key not in fields:
                reader.problem(node.pos, f"an added law needs `{key}:`")
    if reader.problems:
        raise InputError(reader.problems)
    return Change(action, law_id, why, fields, tuple(reader.pending_refs), node.pos)


def apply_house(house: House, depth: int = 0, boundary: Boundary | None = None) -> Rulebook:
    """The code's rulebook with the house's parameters and changes applied (and those of what it builds on).

    A house file that `varies:` names must lie inside `boundary` (by default, the house file's own project).
    """
    if depth > MAX_DEPTH:
        raise RulebookError([Problem(house.varies_pos, f"house files build on one another more than {MAX_DEPTH} "
                                                       "deep (a loop?)")])
    varies = house.varies
    if varies in builtin_codes():
        base = builtin_rulebook(varies)
    elif varies in builtin_houses():
        base = apply_house(load_house(str(builtin_house_dir() / f"{varies}.yaml")), depth + 1)
    elif varies.endswith(SUFFIXES):
        bound = boundary or boundary_for(house.path)
        path = named_file(varies, house.path, house.varies_pos, "varies", bound, RulebookError)
        base = apply_house(load_house(path, named=True), depth + 1, bound)
    else:
        choices = [*builtin_codes(), *builtin_houses()]
        raise RulebookError([Problem(house.varies_pos, f"`varies: {quote(varies)}` is neither a code "
                                                       f"({', '.join(builtin_codes())}), a built-in house nor a "
                                                       f"house file's path{did_you_mean(varies, choices)}")])
    problems: list[Problem] = []
    game = _game(base.game, house, problems)
    laws = list(base.laws)
    by_id = {law.id: index for index, law in enumerate(laws)}
    pending: list[tuple[str, Pos, str]] = []
    for change in house.changes:
        fields = dict(change.fields)
        pending.extend(change.cited)
        if change.action in ("replace", "strike") and change.law not in by_id:
            problems.append(Problem(change.pos, f"{change.action}: {base.code} has no law {change.law!r}"
                                                f"{did_you_mean(change.law, by_id)}"))
            continue
        if change.action in ("replace", "strike") and laws[by_id[change.law]] is None:
            struck = next(earlier.pos for earlier in house.changes
                          if earlier.action == "strike" and earlier.law == change.law)
            problems.append(Problem(change.pos, f"{change.action}: law {change.law} was struck above (line "
                                                f"{struck.line}); a law is struck or replaced, not both"))
            continue
        if change.action == "strike":
            laws[by_id[change.law]] = None  # type: ignore[call-overload]
        elif change.action == "replace":
            old = laws[by_id[change.law]]
            laws[by_id[change.law]] = msgspec.structs.replace(old, **fields, pos=change.pos)
        else:
            if change.law in by_id:
                problems.append(Problem(change.pos, f"add: law {change.law} is already in the rulebook"))
                continue
            law = Law(id=change.law, code=base.code, section=fields.pop("section", "House rules"),
                      title=fields.pop("title"), kind=fields.pop("kind", "penalty"),
                      subjects=fields.pop("subjects", ()), refs=fields.pop("refs", ()), text=fields.pop("text"),
                      clauses=(), notes=(), pos=change.pos, **fields)
            by_id[law.id] = len(laws)
            laws.append(law)
    final = [law for law in laws if law is not None]
    ids = {law.id for law in final}
    for ref, pos, citing in pending:
        if ref.partition(".")[0] not in ids:
            problems.append(Problem(pos, f"law {citing} cites law {ref}, which is not in the rulebook with these "
                                         f"house rules"))
    problems.extend(_contradictions(final, house))
    problems.extend(defeat_problems(final))
    problems.extend(Problem(law.pos, f"law {law.id} is a scoring law: the hand's own points are the score "
                                     "section's, counted once (change them with `parameters.scores`), so it takes "
                                     "no remedies")
                    for law in final if law.kind == "scoring" and law.remedies)
    if problems:
        raise RulebookError(sorted(problems, key=lambda p: (p.pos.path, p.pos.line, p.pos.column)))
    title = f"{base.title}, with {house.name}"
    built_on = sources_of(base)
    if built_on and built_on[0].kind == "house":  # named by this file's `varies:`, as written
        built_on = (msgspec.structs.replace(built_on[0], name=varies), *built_on[1:])
    return with_sources(Rulebook(base.code, title, base.metadata, game, tuple(final), house.path),
                        (SourceFile("house", house.id, house.path, house.data), *built_on))


def _game(game: Game, house: House, problems: list[Problem]) -> Game:
    params = house.parameters
    ranks = params.get("ranks", (game.pack.ranks, house.varies_pos))
    hand = params.get("hand_size", (game.hand_size, house.varies_pos))
    points = params.get("game_points", (game.game_points, house.varies_pos))
    needed = hand[0] * 4 + (1 if game.family == "euchre" else 0)
    if len(ranks[0]) * 4 < needed:
        problems.append(Problem(ranks[1], f"a pack of {len(ranks[0]) * 4} cards cannot deal {hand[0]} to each of "
                                          f"four players" + (" and turn one for trump" if game.family == "euchre" else "")))
    scores = params.get("scores")
    if scores is not None and game.family != "euchre":
        problems.append(Problem(scores[1], "`parameters.scores` sets the values of a Euchre hand (laws 2 and 3); "
                                           f"this house varies {game.family}"))
    values = dict(game.values)
    values.update(dict(scores[0]) if scores else {})
    return Game(game.family, Pack(tuple(ranks[0])), hand[0], points[0], tuple(sorted(values.items())),
                game.out_of_turn_cannot_win)


def _contradictions(laws: list[Law], house: House) -> list[Problem]:
    """Two laws that would both apply to the same hands with different remedies or rulings."""
    problems = []
    by_condition: dict[str, Law] = {}
    changed = {change.law for change in house.changes if change.action != "strike"}
    for law in laws:
        if law.condition is None or not (law.remedies or law.rulings):
            continue
        key = describe(law.condition)
        other = by_condition.get(key)
        if other is not None and (law.id in changed or other.id in changed) and not _defeats(law, other):
            if _remedy_key(other) != _remedy_key(law) and (law.remedies and other.remedies):
                problems.append(Problem(law.pos, f"laws {other.id} and {law.id} would both apply to the same hands "
                                                 "with different remedies; strike or replace one of them"))
        by_condition.setdefault(key, law)
    return problems


def _defeats(one: Law, other: Law) -> bool:
    """One law is written as an exception to the other: no contradiction."""
    return any(d.law == other.id for d in one.defeats) or any(d.law == one.id for d in other.defeats)


def _remedy_key(law: Law) -> tuple:
    return tuple((remedy.chooser, tuple((o.kind, o.points, o.tricks) for o in remedy.options))
                 for remedy in law.remedies)


def house_rulebook(name: str) -> Rulebook:
    """A house named on the command line (a built-in id or any file) applied to its code; once a process for each file."""
    return _applied(resolve_house(name), None)


def _applied(path: str, boundary: Boundary | None) -> Rulebook:
    """The house file at `path` applied (`boundary`: the file was named in a scenario bounded so).

    Kept by the file it resolves to (one house reached through 200 links is applied once), its
    modification time and size, and the boundary; the rulebook served is named as `path` was written.
    """
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
        key: tuple | None = (real, info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size, boundary)
    except (OSError, ValueError):
        key = None  # loading it reports the problem
    kept = _APPLIED.get(key) if key is not None else None
    if kept is not None and kept[2] == _stamps(kept[1]):
        rulebook, named, _ = kept
        named_again(named)
    else:
        with recording_named() as recorded:
            rulebook = apply_house(load_house(path, named=boundary is not None), 0, boundary)
        if key is not None:
            _APPLIED.put(key, (rulebook, tuple(recorded), _stamps(recorded)))
    return _named(rulebook, path)


def _stamps(named: Iterable[Named]) -> tuple[tuple[int, int] | None, ...]:
    """The stamps (time, size) of the files a house file named (`varies:`): a house kept applied is applied again
    when one has changed since."""
    stamps: list[tuple[int, int] | None] = []
    for _, real, _ in named:
        try:
            info = os.stat(real)
            stamps.append((info.st_mtime_ns, info.st_size))
        except OSError:
            stamps.append(None)
    return tuple(stamps)


def _named(rulebook: Rulebook, path: str) -> Rulebook:
    """A cached house rulebook as the house file was named this time."""
    if rulebook.path == path:
        return rulebook
    sources = sources_of(rulebook)
    if sources and sources[0].kind == "house":
        sources = (msgspec.structs.replace(sources[0], name=path), *sources[1:])
    return with_sources(msgspec.structs.replace(rulebook, path=path), sources)


Kept = tuple[Rulebook, tuple[Named, ...], tuple[tuple[int, int] | None, ...]]
"""A house applied: its rulebook, the files its house file named (`varies:`, recorded again for check's result
cache when it is used: `adjudicate.lawbook.sources.named_again`), and their stamps then (`_stamps`)."""


class Applied:
    """House rulebooks already applied in this process, the least recently used dropped past `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple, Kept] = OrderedDict()

    def get(self, key: tuple) -> Kept | None:
        kept = self.items.get(key)
        if kept is not None:
            self.items.move_to_end(key)
        return kept

    def put(self, key: tuple, kept: Kept) -> None:
        self.items[key] = kept
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def __len__(self) -> int:
        return len(self.items)


MAX_APPLIED = 16
"""The most house rulebooks a process keeps (`check` rules hundreds of files under a few houses)."""
_APPLIED = Applied(MAX_APPLIED)


def lint_file(path: str) -> tuple[str, Rulebook]:
    """Check a rulebook or house-rules file (told apart by its `varies:` key): ("rulebook" | "house", result)."""
    from adjudicate.lawbook.reader import _read

    try:
        root = read_yaml(path)
    except InputError as error:
        raise RulebookError(error.problems) from None
    if is_house_file(root):
        return "house", apply_house(read_house(root, path))
    return "rulebook", _read(root, path)


def builtin_house_paths() -> list[str]:
    return [str(builtin_house_dir() / f"{name}.yaml") for name in builtin_houses()]
