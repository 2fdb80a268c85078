"""Input errors: what was wrong with a file, and exactly where.

Only input errors live here. An irregular play is not an error: it is what the
replay records. A card not in the pack, or a card in two places, is.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from msgspec import Struct

# The exit codes of every command (docs/errors.md, "Exit codes and signals"). 1 is `check`'s alone.
EXIT_OK = 0
EXIT_DIFFERS = 1
"""`check`: some ruling differs from its file's `expect` block."""
EXIT_INPUT = 2
"""Bad input or usage; for `check` also a file or folder that could not be checked; a failed output."""
EXIT_INTERRUPTED = 130
"""SIGINT (Ctrl-C): 128 + 2, as a shell reports a command the signal ended."""
EXIT_BROKEN_PIPE = 141
"""stdout is a pipe whose reader has gone (`| head -1`): 128 + SIGPIPE's 13, as a shell reports it."""
EXIT_TERMINATED = 143
"""SIGTERM (a CI job cancelled or timed out): 128 + 15."""


class Terminated(BaseException):
    """Raised in the main thread when SIGTERM arrives (`adjudicate.__main__`), so that the command
    stops as it does for Ctrl-C: worker processes ended, exit 143. A BaseException, as
    KeyboardInterrupt is, so that no `except Exception` meant for a bug in one file catches it."""


class Pos(Struct, frozen=True, gc=False):
    """Where something stands in a file: 1-based line and column.

    One is made for every YAML value read: a record built in C, and left out of the garbage
    collector's rounds (it holds only a text and two numbers, so it can be part of no cycle).
    """

    path: str
    """The file as the user named it."""
    line: int
    column: int

    def __str__(self) -> str:
        if self.line <= 0:  # the file as a whole: missing, unreadable
            return self.path
        return f"{self.path}:{self.line}:{self.column}"


class KeyPos(Pos, frozen=True, gc=False):
    """Where a value stands in a scenario given as a Python mapping (`adjudicate.rule({...})`): it has no
    lines, so the place is its key path, as Python subscripts it: `log[3]` is `mapping["log"][3]`,
    `hands.E[0]` is `mapping["hands"]["E"][0]`. `line` and `column` are 0.
    """

    key: str = ""
    """The key path; empty for the mapping itself."""

    def __str__(self) -> str:
        return f"{self.path}:{self.key}" if self.key else self.path


NOWHERE = Pos("", 0, 0)
"""The position of a problem that is in no file: an argument naming a code, law or house that does not exist."""

STDIN = "<stdin>"
"""The name a scenario read from standard input goes by (`adjudicate rule -`), in positions and results."""


class Problem(Struct, frozen=True):
    """One thing wrong with an input file, printed as one line."""

    pos: Pos
    message: str
    omitted: int = 0
    """On the last line of a capped list only: how many problems it stands for (see `InputError`)."""

    @property
    def path(self) -> str:
        """The file as the user named it (`<text>`, `<mapping>` for a scenario given as YAML text or a mapping);
        empty for a problem in no file (a usage error)."""
        return self.pos.path

    @property
    def line(self) -> int:
        """1-based; 0 for the file as a whole, for a value of a mapping (see `key`), and for a usage error."""
        return self.pos.line

    @property
    def column(self) -> int:
        """1-based; 0 where `line` is 0."""
        return self.pos.column

    @property
    def key(self) -> str | None:
        """For a scenario given as a mapping: the key path of the value (`log[3]`); None otherwise."""
        return self.pos.key if isinstance(self.pos, KeyPos) else None

    def __str__(self) -> str:
        if not self.pos.path:  # in no file: the message alone
            return self.message
        return f"{self.pos}: {self.message}"


MAX_PROBLEMS = 50
"""The most problems one error reports; the rest are counted on one last line (a 5 MB file of one
mistake repeated would otherwise print millions of lines)."""
MAX_QUOTED = 60
"""The most characters of a value an error message quotes (`quote`)."""
MAX_MESSAGE = 1_000
"""The longest message kept whole: a longer one (a value quoted in full where `quote` was not used) is cut."""


def quote(text: object, limit: int = MAX_QUOTED) -> str:
    """A value as an error message quotes it: its repr, cut to `limit` characters with "…" and its length."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '…'!r} ({len(text):,} characters)"


def in_file_order(problems: Iterable[Problem]) -> list[Problem]:
    """Problems sorted as a reader meets them: by file, line, then column (stable for ties)."""
    return sorted(problems, key=lambda p: (p.pos.path, p.pos.line, p.pos.column))


class AdjudicateError(ValueError):
    """Base of every error the library raises on purpose: the one exception type of the Python API.

    `problems` lists what was wrong, each with its `path`, `line`, `column` and `message`: for an
    input error (`InputError`), each problem at its place in the file; for any other (a usage error:
    a code, law or house named that does not exist), one problem in no file (path "", line 0), whose
    message is the error's.
    """

    problems: tuple[Problem, ...]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.problems = (Problem(NOWHERE, str(self)),)


class InputError(AdjudicateError):
    """One or more problems in an input file (scenario, rulebook, house rules)."""

    def __init__(self, problems: Sequence[Problem]):
        capped = _capped(problems)
        super().__init__("\n".join(str(p) for p in capped))
        self.problems = capped

    @classmethod
    def at(cls, pos: Pos, message: str) -> "InputError":
        return cls([Problem(pos, message)])


def _capped(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    """At most MAX_PROBLEMS problems, each message at most MAX_MESSAGE characters, then one line counting the rest.

    The counting line (`omitted` > 0) always comes last, and counts again when errors are merged and capped anew.
    """
    kept: list[Problem] = []
    omitted = 0
    first_omitted: Pos | None = None
    for problem in problems:
        if problem.omitted:
            omitted += problem.omitted
            first_omitted = first_omitted or problem.pos
        elif len(kept) < MAX_PROBLEMS:
            if len(problem.message) > MAX_MESSAGE:
                problem = Problem(problem.pos, problem.message[:MAX_MESSAGE] + "… (message cut)")
            kept.append(problem)
        else:
            omitted += 1
            first_omitted = first_omitted or problem.pos
    if omitted:
        assert first_omitted is not None
        kept.append(Problem(first_omitted, f"... and {omitted:,} more problem{'s' if omitted > 1 else ''} "
                                           f"(only the first {MAX_PROBLEMS} are shown)", omitted))
    return tuple(kept)


class ScenarioError(InputError):
    """A scenario file that cannot be replayed as written."""


class RulebookError(InputError):
    """A rulebook or house-rules file that cannot be loaded."""


class UsageError(AdjudicateError):
    """A command asked for something that does not exist (an unknown code or law)."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean "x"?)' for the closest choice, or '' when none is close."""
    import difflib  # only when there is a mistake to name: not at every start

    if len(word) > 100:  # no choice is anything like so long; difflib would take seconds over megabytes
        return ""
    options = sorted(set(choices))
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in options}
        close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        close = [lowered[c] for c in close]
    return f' (did you mean "{close[0]}"?)' if close else ""
