"""The rulebook a scenario is ruled by: its code (built in, or a rulebook file inside its boundary), with
the house rules given on the command line or named in the scenario (`lawbook.sources` says which files a
scenario may name).
"""

from __future__ import annotations

import os
from typing import Iterable

from adjudicate.errors import Pos, Problem, ScenarioError, did_you_mean, quote
from adjudicate.lawbook.house import house_rulebook, scenario_house
from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook
from adjudicate.lawbook.reader import load_rulebook
from adjudicate.lawbook.rulebook import Rulebook
from adjudicate.lawbook.sources import SUFFIXES, boundary_for, named_file


def rulebook_for(scenario, rulebook: Rulebook | None = None, house: str | None = None,
                 allow: Iterable[str] = ()) -> tuple[Rulebook, str | None]:
    """The rulebook a scenario is ruled by: its code's, with the house rules given or named in it.

    `house` (given on the command line: a built-in id or any file) overrides the scenario's own `house:`
    (a built-in id, or a file inside the scenario's boundary: see the module's doc).
    """
    if rulebook is None:
        rulebook = code_rulebook(scenario, allow)
    if house:
        ruled, name = house_rulebook(house), house
    elif scenario.house:
        ruled, name = scenario_house(scenario, boundary_for(scenario.path, allow)), scenario.house
    else:
        return rulebook, None
    if ruled.code != rulebook.code:
        pos = scenario.positions.get("house") or scenario.positions.get("code")
        raise ScenarioError([Problem(pos, f"the house rules {quote(name)} vary {ruled.code}, but the scenario's "
                                          f"code is {rulebook.code}")])
    return ruled, name


def code_rulebook(scenario, allow: Iterable[str] = ()) -> Rulebook:
    """The rulebook of a scenario's `code:`: a built-in code, or a rulebook file inside its boundary."""
    code = scenario.code
    if code in builtin_codes():
        return builtin_rulebook(code)
    pos = scenario.positions.get("code", Pos(scenario.path, 1, 1))
    if code.endswith(SUFFIXES) or "/" in code or os.sep in code:
        path = named_file(code, scenario.path, pos, "code", boundary_for(scenario.path, allow))
        return load_rulebook(path, named=True)
    raise ScenarioError([Problem(pos, f"unknown code {quote(code)}{did_you_mean(code, builtin_codes())}; expected "
                                      f"one of: {', '.join(builtin_codes())}, or a rulebook file's path")])
