"""The pipeline, once: a scenario read, replayed at the table, its irregularities found, matched against its
code's laws and decided (docs/architecture.md). The API, the commands and `check` all rule through here.
"""

from __future__ import annotations

import os

from adjudicate.lawbook.rulebook import Rulebook
from adjudicate.lawbook.ruled_by import rulebook_for
from adjudicate.play.facts import detect
from adjudicate.play.replay import replay
from adjudicate.record.scenario import Scenario, load_scenario
from adjudicate.ruling.branches import with_questions
from adjudicate.ruling.decision import Decision, decide


def rule_scenario(path: str | os.PathLike[str], rulebook: Rulebook | None = None, house: str | None = None,
                  questions: bool = True) -> Decision:
    """Read one scenario file and rule on it: the whole pipeline.

    `house` (a house id or a file's path, as given on the command line) overrides the scenario's
    own `house:` (a house id or a path relative to the scenario).
    """
    return rule_loaded(load_scenario(path), rulebook, house, questions)


def rule_loaded(scenario: Scenario, rulebook: Rulebook | None = None, house: str | None = None,
                questions: bool = True) -> Decision:
    """Replay, detect, match and decide a scenario already read (from a file, a text or a mapping).

    `rulebook`, when given, is the code to rule by instead of the scenario's `code:`; `house` as for
    `rule_scenario`. `questions=False` leaves the open questions' answers unweighed (`check`, which prints
    no ruling, and is measured).
    """
    rulebook, house_name = rulebook_for(scenario, rulebook, house)
    table = replay(scenario, rulebook.game)
    decision = decide(rulebook, table, detect(table), house_name)
    return with_questions(decision) if questions else decision
