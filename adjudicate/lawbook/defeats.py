"""Defeats: one law written as an exception to another, the relation kept as data beside the text.

    - id: "68"
      condition: {claim: {kind: revoke, after_cut: true}}
      defeats:
        - law: ["63", "64", "66", "70"]
          how: bars
          because: the revoke was claimed after the cards were cut for the next deal

When a law that applies defeats another, the other is not applied: it goes under
the ruling's `not_applied`, with the law that defeated it and why. As in Catala,
where an `exception` article overrides its `label`, a law that is itself defeated
defeats nothing, and a circle of defeats is an error when the rulebook loads.

`what` narrows the defeat to the other law's `remedies` or `rulings` (the law is
still cited; what it gave is taken away). `same` narrows it to what the other law
applies to: the same offending seat, side, or the very same irregularity; so law
104 (no penalty for a lone player's exposed card) takes nothing from an
adversary's. `pairs: true` cancels an equal number across the two sides, as
Euchre 71 says of revokes: two against one leaves one.
"""

from __future__ import annotations

from typing import Iterable

from msgspec import Struct

from adjudicate.lawbook.conditions import Condition, parse_condition
from adjudicate.errors import InputError, Pos, Problem, did_you_mean
from adjudicate.record.yamlsource import Node

HOWS = ("bars", "cancels", "precludes", "forfeits", "supersedes", "saves", "excludes", "voids")
"""How a law defeats another, in the codes' own verbs (Euchre 68 bars, 71 cancels, 98 precludes, 85 forfeits)."""
WHATS = ("law", "remedies", "rulings")
"""What of the other law is defeated: the whole law, only its remedies, or only its rulings."""
SAMES = ("offender", "side", "adversaries", "irregularity", "latest")
"""How far the defeat reaches: what it and the other law apply to must share this (`adversaries`: the one's
offender sits on the side opposed to the other's, as partners who consult on the penalty for the other side's
lead out of turn; `latest`: the other law's irregularity is the other side's latest before the act that
defeats it, as a consultation forfeits the penalty for the offence it was about, not for a later one)."""
KEYS = frozenset({"law", "how", "what", "same", "pairs", "because", "when"})


class Defeat(Struct, frozen=True):
    """A law's word that another law (or its remedies, or its rulings) does not apply."""

    law: str
    """The id of the law defeated."""
    how: str
    """One of `HOWS`: the verb a ruling reads with ("law 68 bars law 63")."""
    because: str
    """Why, in a sentence a director reads aloud."""
    pos: Pos
    what: str = "law"
    """One of `WHATS`."""
    same: str | None = None
    """One of `SAMES`, or None for every thing the other law applies to."""
    pairs: bool = False
    """Cancel an equal number of what the other law applies to, side against side (Euchre 71)."""
    when: Condition | None = None
    """A condition that must also hold for the defeat (Euchre 85 forfeits only when they consulted); what it
    matches is what the defeat reaches from, for `same`."""


def parse_defeats(node: Node, law: str, cited: list[tuple[str, Pos, str]] | None = None) -> tuple[Defeat, ...]:
    """Read a law's `defeats:` list; each law id it names goes to `cited`, to be checked once every law is known."""
    if not node.is_seq():
        raise node.error(f"the defeats of law {law} should be a list, not {node.describe()}")
    problems: list[Problem] = []
    found: list[Defeat] = []
    for item in node.elements():
        what = f"a defeat of law {law}"
        if not item.is_map():
            problems.append(Problem(item.pos, f"{what} should be a mapping with law, how and because"))
            continue
        try:
            item.check_keys(what, KEYS, required=("law", "how", "because"))
            found.extend(_defeat(item, law, cited))
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    return tuple(found)


def _defeat(item: Node, law: str, cited: list[tuple[str, Pos, str]] | None) -> list[Defeat]:
    problems: list[Problem] = []
    targets = item.get("law")
    assert targets is not None
    elements = targets.elements() if targets.is_seq() else [targets]
    ids: list[tuple[str, Pos]] = []
    for element in elements:
        value = element.text("the law a defeat names").strip()
        if not value or not (value.isdigit() or (value[:1].isalpha() and value[1:].isdigit())):
            problems.append(Problem(element.pos, f'a defeat names a law by its id, like "63", not {value!r}'))
        elif value == law:
            problems.append(Problem(element.pos, f"law {law} cannot defeat itself"))
        else:
            ids.append((value, element.pos))
    if not elements:
        problems.append(Problem(targets.pos, f"a defeat of law {law} should name at least one law"))
    how = _word(item, "how", HOWS, problems)
    what = _word(item, "what", WHATS, problems) or "law"
    same = _word(item, "same", SAMES, problems)
    pairs = False
    if (pnode := item.get("pairs")) is not None:
        try:
            pairs = pnode.boolean("pairs")
        except InputError as error:
            problems.extend(error.problems)
    when = None
    if (wnode := item.get("when")) is not None:
        try:
            when = parse_condition(wnode, f"the `when` of a defeat of law {law}")
        except InputError as error:
            problems.extend(error.problems)
    bnode = item.get("because")
    assert bnode is not None
    because = " ".join(bnode.text("the because of a defeat").split())
    if not because:
        problems.append(Problem(bnode.pos, "a defeat's `because` is empty: say why, as a director would"))
    if problems:
        raise InputError(problems)
    assert how is not None
    if cited is not None:
        cited.extend((target, pos, law) for target, pos in ids)
    return [Defeat(target, how, because, pos, what, same, pairs, when) for target, pos in ids]


def _word(item: Node, key: str, choices: tuple[str, ...], problems: list[Problem]) -> str | None:
    child = item.get(key)
    if child is None:
        return None
    try:
        value = child.text(f"a defeat's {key}").strip()
    except InputError as error:
        problems.extend(error.problems)
        return None
    if value not in choices:
        problems.append(Problem(child.pos, f"a defeat's {key} {value!r} is not one of: {', '.join(choices)}"
                                           f"{did_you_mean(value, choices)}"))
        return None
    return value


def defeat_problems(laws: Iterable) -> list[Problem]:
    """Every circle of defeats, named by its laws (Catala's conflict); a defeat of a missing law is a bad ref."""
    by_id = {law.id: law for law in laws}
    edges = {law.id: [d.law for d in law.defeats if d.law in by_id] for law in by_id.values() if law.defeats}
    problems: list[Problem] = []
    for cycle in _cycles(edges):
        first = by_id[cycle[0]]
        path = " -> ".join(f"law {law_id}" for law_id in (*cycle, cycle[0]))
        pos = next(d.pos for d in first.defeats if d.law == cycle[1 % len(cycle)])
        problems.append(Problem(pos, f"laws defeat each other in a circle ({path}): "
                                     "one of them must give way, or neither can be applied"))
    return problems


def _cycles(edges: dict[str, list[str]]) -> list[tuple[str, ...]]:
    """Each circle in the defeat graph once, from its smallest law id."""
    found: set[tuple[str, ...]] = set()
    for start in sorted(edges):
        stack: list[tuple[str, tuple[str, ...]]] = [(start, (start,))]
        while stack:
            node, path = stack.pop()
            for target in edges.get(node, ()):
                if target == start:
                    smallest = min(range(len(path)), key=lambda i: path[i])
                    found.add(path[smallest:] + path[:smallest])
                elif target not in path and target > start:
                    stack.append((target, path + (target,)))
    return sorted(found)


def order(laws: Iterable) -> list:
    """The laws that defeat others, each after every law that can defeat it (the graph has no circle)."""
    defeaters = [law for law in laws if law.defeats]
    ids = {law.id for law in defeaters}
    attackers: dict[str, set[str]] = {}
    for law in defeaters:
        for defeat in law.defeats:
            if defeat.law in ids:
                attackers.setdefault(defeat.law, set()).add(law.id)
    placed: list = []
    done: set[str] = set()
    pending = defeaters
    while pending:
        ready = [law for law in pending if attackers.get(law.id, set()) <= done]
        if not ready:  # a circle: refused at load, so only a rulebook built by hand gets here
            ready = pending
        placed.extend(ready)
        done.update(law.id for law in ready)
        pending = [law for law in pending if law.id not in done]
    return placed
