"""adjudicate: a rules lawyer for the card table.

The Python API (docs/api.md) is this package's face: `adjudicate.rule(source)` rules on a scenario
(a file's path, YAML text or a mapping), `adjudicate.replay`, `adjudicate.laws`, `adjudicate.law`,
`adjudicate.check`, `adjudicate.lint`, `adjudicate.diff`; every error they mean to raise is an
`adjudicate.AdjudicateError`. They live in `adjudicate.api`, imported at the first use of one of
them: `import adjudicate` itself loads nothing (the command line's start is measured).

The pipeline (docs/development.md, "Layout"): a scenario file is loaded (`scenario`), replayed at a
table (`table`), its irregularities found (`facts`), matched against a code's
laws (`rulebook`, `matcher`), decided (`decision`, `scoring`) and rendered (`report`).
The CLI (`cli`) only parses arguments and calls the API.
"""

from __future__ import annotations

TYPE_CHECKING = False
"""True to type checkers only (mypy reads `if TYPE_CHECKING:` so): `typing` is not imported, to keep this import cheap."""

if TYPE_CHECKING:  # for type checkers: the names below, as `__getattr__` gives them
    from typing import Any

    from adjudicate.api import (  # noqa: F401
        AdjudicateError, Answer, Answered, AppliedLaw, Cache, CheckReport, CheckSummary, Choice, Citation, Claim, Clause,
        Code, CodeCoverage, Counterpart, Declared, Difference, FileResult, Finding, FrozenDict, Irregularity, Law,
        LawEntry, LintResult, Made, Making, NotApplied, Note, Option, Outcome, Play, Pos, Problem, Question, Record,
        RecordedFile, RecordedHouse, RecordedScenario, Remedy, Replay, Ruling, RulingSummary, Score, Skipped,
        Target, Trick, answer_rulings, cache_info, check, clear_cache, code, codes, diff, law, law_in_each_code, laws, lint, parse_answer,
        read_answers, replay, rule, scenario_schema)
    from adjudicate.version import __version__

__all__ = [
    "AdjudicateError", "Answer", "Answered", "AppliedLaw", "Cache", "CheckReport", "CheckSummary", "Choice", "Citation",
    "Claim", "Clause", "Code", "CodeCoverage", "Counterpart", "Declared", "Difference", "FileResult", "Finding",
    "FrozenDict", "Irregularity", "Law", "LawEntry", "LintResult", "Made", "Making", "NotApplied", "Note", "Option",
    "Outcome", "Play", "Pos", "Problem", "Question", "Record", "RecordedFile", "RecordedHouse", "RecordedScenario",
    "Remedy", "Replay", "Ruling", "RulingSummary", "Score", "Skipped", "Target", "Trick", "answer_rulings",
    "cache_info", "check", "clear_cache", "code", "codes", "diff", "law", "law_in_each_code", "laws", "lint", "parse_answer", "read_answers", "replay",
    "rule", "scenario_schema",
    "__version__",
]
"""The library's face, a literal list that type checkers read (`mypy --strict` takes `adjudicate.rule` from it):
`adjudicate.api.__all__` and `__version__` (tests/test_api.py holds them equal)."""

_API = frozenset(__all__) - {"__version__"}
"""The names `adjudicate.api` exports, imported from it when first asked for (`import adjudicate` itself imports
nothing)."""


def __getattr__(name: str) -> Any:
    """`adjudicate.rule` and the rest: imported from `adjudicate.api` when first asked for."""
    if name == "__version__":
        from adjudicate.version import __version__

        globals()[name] = __version__
        return __version__
    if name in _API:
        from adjudicate import api

        value = getattr(api, name)
        globals()[name] = value  # asked once
        return value
    raise AttributeError(f"module 'adjudicate' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API)
