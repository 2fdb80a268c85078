"""The Python API: rule on a hand, replay it, read the laws, check scenario files, from a program.

The library's face, and the only one the command line uses (docs/api.md):

    >>> import adjudicate
    >>> ruling = adjudicate.rule("scenarios/euchre/revoke-established.yaml")
    >>> [law.id for law in ruling.laws]
    ['62', '63', '64']

A scenario is given as a file's path (a `str` or an `os.PathLike`), as YAML text (a `str` that holds a
line break or begins with `{`), as a mapping of plain Python values (what `yaml.safe_load` of the
file would give), or as a binary stream read to its end (`sys.stdin.buffer`: `adjudicate rule -`). Each result is a small frozen record (msgspec Structs, as the library's own), built
from the records the command line prints: `to_json()` gives exactly the data `--format json` prints,
`to_text()` and `to_markdown()` exactly the text of the other formats. Every error the library means
to raise is an `AdjudicateError`, whose `problems` say where (`path`, `line`, `column`, `message`).

Importing this module costs little: the pipeline (YAML, the rulebooks, the replay) is imported by the
first call that needs it.
"""

# No `from __future__ import annotations` here, unlike the other modules: msgspec reads the records'
# annotations when it first converts a ruling, and evaluated ones cost it nothing, where strings cost
# a `typing.ForwardRef` compiled for each (0.4 ms of every `adjudicate rule`).
import os
from typing import IO, TYPE_CHECKING, Any, Iterable, Mapping, Union

from msgspec import Struct, field

from adjudicate.errors import AdjudicateError, InputError, Pos, Problem, UsageError, did_you_mean
from adjudicate.frozen import FrozenDict, frozen as _frozen

if TYPE_CHECKING:
    from adjudicate.checking import batch as checking, diffing
    from adjudicate.checking.batch import CheckSummary as CheckSummary
    from adjudicate.checking.batch import CodeCoverage as CodeCoverage
    from adjudicate.checking.batch import FileResult as FileResult
    from adjudicate.checking.batch import Finding as Finding
    from adjudicate.checking.batch import Skipped as Skipped
    from adjudicate.checking.diffing import Difference as Difference
    from adjudicate.checking.diffing import RulingSummary as RulingSummary
    from adjudicate.ruling.appeal import Given
    from adjudicate.ruling.decision import Decision
    from adjudicate.play.facts import Facts
    from adjudicate.lawbook.library import Citation as _Citation
    from adjudicate.lawbook.rulebook import Clause as _Clause
    from adjudicate.lawbook.rulebook import Law as _Law
    from adjudicate.lawbook.library import Library
    from adjudicate.lawbook.rulebook import Rulebook
    from adjudicate.record.scenario import Scenario
    from adjudicate.play.table import Table

__all__ = [
    "AdjudicateError", "Answer", "Answered", "AppliedLaw", "Cache", "CheckReport", "CheckSummary", "Choice", "Citation",
    "Claim", "Clause", "Code", "CodeCoverage", "Counterpart", "Declared", "Difference", "FileResult", "Finding",
    "FrozenDict", "Irregularity", "Law", "LawEntry", "LintResult", "Made", "Making", "NotApplied", "Note", "Option",
    "Outcome", "Play", "Pos", "Problem", "Question", "Record", "RecordedFile", "RecordedHouse", "RecordedScenario",
    "Remedy", "Replay", "Ruling", "RulingSummary", "Score", "Skipped", "Target", "Trick", "answer_rulings",
    "cache_info", "check", "clear_cache", "code", "codes", "diff", "law", "law_in_each_code", "laws", "lint", "parse_answer", "read_answers", "replay",
    "rule", "scenario_schema",
]
"""The library's face, as a literal list that type checkers read. `adjudicate._API` in the package's
`__init__` is the same set, kept there so that `import adjudicate` need not import this module
(tests/test_api.py holds the two equal)."""

_CHECKING_RECORDS = {"CheckSummary": "batch", "CodeCoverage": "batch", "FileResult": "batch", "Finding": "batch",
                     "Skipped": "batch", "Difference": "diffing", "RulingSummary": "diffing"}
"""The records of `check` and `diff`, defined with the code that makes them (in worker processes too) and
imported from there when first asked for, so that importing this module does not load the checker."""


def __getattr__(name: str) -> Any:
    if name in _CHECKING_RECORDS:
        import importlib

        value = getattr(importlib.import_module(f"adjudicate.checking.{_CHECKING_RECORDS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'adjudicate.api' has no attribute {name!r}")


def _decode(kind: Any, value: Any) -> Any:
    """msgspec's hook for the one type of ours it does not know: FrozenDict."""
    if getattr(kind, "__origin__", kind) is FrozenDict and isinstance(value, Mapping):
        return _frozen(value)
    raise NotImplementedError(f"cannot convert to {kind!r}")


def _convert(data: Any, kind: Any) -> Any:
    import msgspec

    return msgspec.convert(data, kind, dec_hook=_decode)


Source = Union[str, "os.PathLike[str]", Mapping[str, Any], IO[bytes]]
"""A scenario: a file's path, YAML text, a mapping, or a binary stream (standard input)."""

TEXT_NAME = "<text>"
"""How errors and records name a scenario given as YAML text."""
MAPPING_NAME = "<mapping>"
"""How errors and records name a scenario given as a mapping (`<mapping>:log[3]`: see `errors.KeyPos`)."""
STREAM_NAME = "<stream>"
"""How errors and records name a stream that has no name of its own (`sys.stdin.buffer`'s is `<stdin>`)."""


def _is_stream(source: object) -> bool:
    return callable(getattr(source, "read", None)) and not isinstance(source, (str, bytes, Mapping))


def _stream_name(stream: object) -> str:
    name = getattr(stream, "name", None)
    return name if isinstance(name, str) and name else STREAM_NAME


# --- the ruling ------------------------------------------------------------------------------------

class Irregularity(Struct, frozen=True):
    """An irregularity the replay found: `irregularities[]` of the JSON."""

    kind: str
    """`revoke`, `lead_out_of_turn`, ... (docs/commands.md, `adjudicate replay`)."""
    seat: str | None
    side: str | None
    trick: int | None
    entry: int
    """The log entry (numbered from 1) where it happened."""
    because: str
    """What happened, in a sentence."""
    details: FrozenDict[str, Any] = FrozenDict()
    """The timing facts of its kind (`established`, `corrected`, `held`, ...), in the JSON's order."""
    unknown: str | None = None
    """What the record leaves open about it."""
    unknown_id: str | None = None
    """The id of that open question, as `adjudicate rule --answer ID=yes` takes it."""


class Claim(Struct, frozen=True):
    """A claim raised at the table (`claim revoke E`): `claims[]`."""

    by: str
    kind: str
    against: str | None
    entry: int
    trick: int
    after_cut: bool
    after_mix: bool
    after_next_turn: bool
    after_unpresented_cut: bool
    """After the other side cut without the pack presented (a cut that does not count against him)."""
    honours_claim: bool
    """A claim of honours within the meaning of the law (Short Whist 7): of honours, or of the game or score
    at the end of the hand by a side holding three or four."""
    withdrawn_at: int | None
    """The log entry at which it was withdrawn; None if it stands."""


class AppliedLaw(Struct, frozen=True):
    """A law that decides the dispute (`laws[]`), or that only describes a lawful act (`context[]`)."""

    id: str
    title: str
    section: str
    text: str
    """Verbatim from the code."""
    because: str
    """Why it applies, in a sentence."""


class Target(Struct, frozen=True):
    """What a remedy or a defeat is for (`for[]`): an irregularity, a claim or an act (`kind` says which)."""

    kind: str
    """The irregularity's kind, or `claim`, or `act`."""
    seat: str | None
    entry: int
    trick: int | None = None
    claim: str | None = None
    """For a claim: its kind."""
    against: str | None = None
    act: str | None = None
    """For an act: its words."""


class NotApplied(Struct, frozen=True):
    """A law whose condition holds, defeated by another that applies: `not_applied[]`."""

    law: str
    title: str
    by: str
    """The law that defeats it."""
    how: str
    """`bars`, `cancels`, `forfeits`, ..."""
    what: str
    """`law`, `remedies` or `rulings`: what of it is defeated."""
    targets: tuple[Target, ...] = field(name="for")
    """What of it is defeated (`for` in the JSON); empty: all of it."""
    because: str


class Option(Struct, frozen=True):
    """One option of a remedy: `remedies[].options[]`."""

    kind: str
    """`score`, `deduct`, `take_tricks`, `new_deal`, `call_card`, ..."""
    to: str | None
    text: str
    points: int | None = None
    tricks: int | None = None


class Made(Struct, frozen=True):
    """A choice already made in the log: `remedies[].made`."""

    option: str
    entry: int | None


class Remedy(Struct, frozen=True):
    """What a side (or a seat) may choose under a law: `remedies[]`."""

    law: str
    targets: tuple[Target, ...] = field(name="for")
    """What it is for (`for` in the JSON)."""
    chooser: str
    """A side (`NS`, `EW`) or a seat, or the role's words where the record does not say who."""
    consult: bool | None
    """Whether partners may consult before choosing; null where the code says nothing of it."""
    made: Made | None
    """The choice already made in the log, final; None while it is open."""
    options: tuple[Option, ...]
    text: str | None = None
    """The remedy's own words, where the law gives them."""
    mandatory: bool = False
    """The law leaves no choice: its option is applied, not offered (Euchre 90 "forfeits two")."""


class Declared(Struct, frozen=True):
    """What a law declares so (`rulings[]`): "The revoke is established"."""

    law: str
    kind: str
    text: str


class Choice(Struct, frozen=True):
    """One choice behind a final score: `score.outcomes[].choices[]`."""

    law: str
    option: str
    targets: tuple[Target, ...] = field(name="for", default=())
    made: bool = False
    """The choice was made in the log."""
    mandatory: bool = False
    """The law leaves no choice: the option is applied."""


class MarkedOutcome(Struct, frozen=True):
    """The score if a side marked so many points for honours (Long Whist 18): `score.outcomes[].by_points[]`."""

    points: int
    after: FrozenDict[str, int] | None
    meaning: str | None
    needs: str | None = None


class Outcome(Struct, frozen=True):
    """One combination of the open choices and the score it leaves: `score.outcomes[]`."""

    choices: tuple[Choice, ...]
    after: FrozenDict[str, int] | None
    """The score after the hand (None where the record lacks what it needs: see `needs`)."""
    meaning: str | None
    """What it means: "NS win a single game"."""
    needs: str | None = None
    reading: str | None = None
    """The stated reading the score rests on, where the law leaves it open (Short Whist 82 with no claim made)."""
    by_points: tuple[MarkedOutcome, ...] = ()
    """Where the points a side marked for honours are not known (Long Whist 18): the score for two, and four."""
    unchanged: bool = False
    """`after` is None, but nothing is needed: the choice scores nothing now whatever the score before the hand (a new
    deal, or the hand still to be played), so the score is unchanged."""


class Claimable(Struct, frozen=True):
    """A side's honours still claimable: `score.honours[]` (Short Whist 6, Long Whist 18)."""

    side: str
    held: int
    points: int | None
    """What they score if claimed (Short Whist 3), counted in every final score; None where the code gives no
    value (Long Whist)."""
    text: str


class Score(Struct, frozen=True):
    """The score: `score`."""

    before: FrozenDict[str, int] | None
    hand: FrozenDict[str, int] | None
    """The hand's own points, counted once (None when it was not played out)."""
    hand_laws: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    more: int = 0
    """Combinations of choices not scored one by one."""
    honours: tuple[Claimable, ...] = ()
    """Honours a side holds, has not claimed, and still may claim (`score.honours`)."""


class Answer(Struct, frozen=True):
    """What one answer to an open question rules: `unknown[].if_so`, `unknown[].otherwise`."""

    laws: tuple[str, ...]
    """The laws that decide the dispute with this answer, which do not now."""
    not_: tuple[str, ...] = field(default=(), name="not")
    """Laws that decide it now, but not with this answer."""
    score: tuple[Outcome, ...] | None = None
    """The final scores with this answer, where the two answers' final scores differ (None otherwise)."""


class Question(Struct, frozen=True):
    """A fact the record leaves open, and what each answer rules: `unknown[]`.

    Every question is a yes-or-no question; `id` is how it is answered (`rule(..., answers={id: True})`,
    `adjudicate rule --answer ID=yes`), the same for the same scenario on every run.
    """

    id: str
    question: str
    if_so: Answer
    otherwise: Answer
    together_with: tuple[str, ...] = ()
    """The ids of the other questions some law hangs on together with this one (each answered yes is taken
    as so in `if_so`)."""
    changes_ruling: bool = True
    """Yes and no give different rulings: `--ask` asks only such questions."""


class Answered(Struct, frozen=True):
    """A question the table answered, settled as if the record had said so: `answered[]`."""

    id: str
    question: str
    answer: bool


class RecordedFile(Struct, frozen=True):
    """A rulebook or house-rules file a ruling was made from: `record.code`, `record.house.builds_on[]`."""

    id: str
    """The code's id, or the house's."""
    name: str
    """As it was named: a built-in id, or the path as given or as written in the file that named it."""
    builtin: bool
    """It is shipped with adjudicate (named by its id)."""
    digest: str
    """`sha256:<hex>` of its bytes."""


class RecordedHouse(Struct, frozen=True):
    """The house rules a ruling was made under: `record.house`."""

    id: str
    name: str
    builtin: bool
    digest: str
    builds_on: tuple[RecordedFile, ...]
    """The house files its `varies:` builds on, in turn, nearest first (the code is `record.code`)."""


class RecordedScenario(Struct, frozen=True):
    digest: str
    of: str
    """What the digest is of: `file bytes` (a file), `stream bytes` (standard input, a binary stream), `text as
    UTF-8` (YAML text), `mapping as canonical JSON`."""


class Record(Struct, frozen=True):
    """What a ruling was made from, for an appeal: `record` of `rule --format json` (docs/ruling-record.md)."""

    adjudicate: str
    """The version that ruled."""
    code: RecordedFile
    house: RecordedHouse | None
    scenario: RecordedScenario
    answers: FrozenDict[str, bool]
    """The answers given to open questions, by question id, sorted."""


class Ruling(Struct, frozen=True, dict=True):
    """The ruling on a hand, as `adjudicate rule --format json` gives it, as records.

    Made by `rule`; `to_json()` is the JSON's data itself, `to_text()` and `to_markdown()` the
    ruling as the table format and the ruling sheet (markdown) print it.
    """

    scenario: str
    """The file as named, or `<text>`, `<mapping>`."""
    title: str | None
    code: str
    house: str | None
    trump: str | None
    irregularities: tuple[Irregularity, ...]
    claims: tuple[Claim, ...]
    laws: tuple[AppliedLaw, ...]
    """The laws that decide the dispute."""
    not_applied: tuple[NotApplied, ...]
    context: tuple[AppliedLaw, ...]
    remedies: tuple[Remedy, ...]
    rulings: tuple[Declared, ...]
    score: Score | None
    unknown: tuple[Question, ...]
    """The questions the record leaves open, each with its id."""
    answered: tuple[Answered, ...] = ()
    """The questions answered (`answers`), in the order of their ids."""

    @property
    def answers(self) -> dict[str, bool]:
        """The answers given, by question id."""
        return {item.id: item.answer for item in self.answered}

    @property
    def questions(self) -> dict[str, Question]:
        """The open questions by id, in the ruling's order."""
        return {item.id: item for item in self.unknown}

    def next_question(self) -> "Question | None":
        """The question to ask next at the table, as `adjudicate rule --ask` asks: of the open questions whose
        answer changes the ruling, the one that settles the most (laws, remedies, other questions made moot);
        None when no answer would change the ruling."""
        from adjudicate.ruling.branches import next_question

        found = next_question(self._ruled())
        return None if found is None else self.questions[found.id]

    def asked_ids(self, answers: "Mapping[str, bool] | None" = None) -> frozenset[str]:
        """The ids of the questions this ruling asks, with those that the given answers (of them) open."""
        from adjudicate.ruling.branches import asked_ids

        return frozenset(asked_ids(self._ruled(), _checked_answers(answers or {})))

    def answer(self, answers: "Mapping[str, bool]", *, strict: bool = True) -> "Ruling":
        """The ruling again, with these answers (question id -> yes or no) added to those already given: each
        settled as if the record had said so. An id this ruling does not ask raises `AdjudicateError` (with a
        did-you-mean over the ids it asks); with `strict=False` it is passed over (for answers given to several
        scenarios at once)."""
        from adjudicate.ruling.branches import answered, asked_ids

        given = _checked_answers(answers)
        decision = self._ruled()
        asked = asked_ids(decision, given)
        stray = [qid for qid in given if qid not in asked]
        if stray and strict:
            raise _unasked_error(stray, asked, self.scenario)
        applying = {qid: answer for qid, answer in given.items() if qid in asked}
        return Ruling._of(answered(decision, applying), self.__dict__["_given"]) if applying else self

    @classmethod
    def _of(cls, decision: "Decision", given: "Given") -> "Ruling":
        from adjudicate.ruling.records import ruling_record

        record = ruling_record(decision)
        data = dict(record, irregularities=[_irregularity_data(item) for item in record["irregularities"]])
        ruling: Ruling = _convert(data, cls)
        ruling.__dict__["_decision"] = decision
        ruling.__dict__["_given"] = given
        return ruling

    def _ruled(self) -> "Decision":
        try:
            return self.__dict__["_decision"]
        except KeyError:
            raise TypeError("this Ruling was not made by adjudicate.rule(), so it has no ruling to render") from None

    def _record_data(self) -> dict[str, Any]:
        from adjudicate.ruling.appeal import appeal_record

        return appeal_record(self._ruled(), self.__dict__["_given"])

    @property
    def record(self) -> Record:
        """What the ruling was made from, for an appeal: the version, the digests of the rulebook, the house
        files and the scenario, and the answers given (`record` of the JSON; worked out when asked for)."""
        record: Record = _convert(self._record_data(), Record)
        return record

    @property
    def law_ids(self) -> list[str]:
        """The ids of the laws that decide the dispute."""
        return [law.id for law in self.laws]

    def to_json(self) -> dict[str, Any]:
        """The data `adjudicate rule --format json` prints, a new dict each call (report.ruling_record, and the
        `record` block, appeal.appeal_record)."""
        from adjudicate.ruling.records import ruling_record

        return dict(ruling_record(self._ruled()), record=self._record_data())

    def to_text(self, explain: bool = False, width: int = 100, colour: bool = False) -> str:
        """The ruling as `adjudicate rule` prints it: the director's ruling (the decision first, in a player's
        words), or with `explain` the long form (every law quoted, every reason, the laws that do not apply
        and why). Wrapped to `width` columns (at most 100); `colour` adds a terminal's bold and highlight."""
        if explain:
            from adjudicate.render.text import ruling_text

            return ruling_text(self._ruled(), width=width, colour=colour)
        from adjudicate.render.director import director_ruling

        return director_ruling(self._ruled(), width=width, colour=colour)

    def to_markdown(self) -> str:
        """The ruling sheet a club files, as `adjudicate rule --format markdown` prints it (adjudicate.render.sheet)."""
        from adjudicate.render.sheet import ruling_sheet

        return ruling_sheet(self._ruled(), self.to_json())


_IRREGULARITY_KEYS = ("kind", "seat", "side", "trick", "entry", "because", "unknown", "unknown_id")


def _irregularity_data(record: dict[str, Any]) -> dict[str, Any]:
    """An irregularity's JSON with the facts of its kind gathered under `details`."""
    data = {key: record[key] for key in _IRREGULARITY_KEYS if key in record}
    data["details"] = {key: value for key, value in record.items() if key not in _IRREGULARITY_KEYS}
    return data


# --- the replay ------------------------------------------------------------------------------------

class Making(Struct, frozen=True):
    """How the trump was made (Euchre): `making`."""

    maker: str | None
    act: str | None
    round: int | None
    alone: str | None
    discard: str | None
    turned_down: bool


class Play(Struct, frozen=True):
    """A card played to a trick: `tricks[].cards[]`."""

    seat: str
    card: str
    entry: int
    withdrawn: bool = False
    """Taken back (`correct`)."""
    irregular: tuple[str, ...] = ()
    """The kinds of the irregularities at this card."""


class Trick(Struct, frozen=True):
    number: int
    leader: str
    cards: tuple[Play, ...]
    winner: str | None
    complete: bool
    quitted: bool


class Replay(Struct, frozen=True, dict=True):
    """The hand as reconstructed, as `adjudicate replay --format json` gives it, as records."""

    scenario: str
    title: str | None
    code: str
    dealer: str
    eldest: str
    turned: str | None
    trump: str | None
    making: Making | None
    score: FrozenDict[str, int] | None
    tricks: tuple[Trick, ...]
    irregularities: tuple[Irregularity, ...]
    claims: tuple[Claim, ...]
    unknown: tuple[str, ...]

    @classmethod
    def _of(cls, table: "Table", facts: "Facts") -> "Replay":
        from adjudicate.ruling.records import replay_record

        record = replay_record(table, facts)
        data = dict(record, irregularities=[_irregularity_data(item) for item in record["irregularities"]])
        replayed: Replay = _convert(data, cls)
        replayed.__dict__["_hand"] = (table, facts)
        return replayed

    def _replayed(self) -> "tuple[Table, Facts]":
        try:
            return self.__dict__["_hand"]
        except KeyError:
            raise TypeError("this Replay was not made by adjudicate.replay(), so it has no hand to render") from None

    def to_json(self) -> dict[str, Any]:
        """The data `adjudicate replay --format json` prints, a new dict each call (report.replay_record)."""
        from adjudicate.ruling.records import replay_record

        return replay_record(*self._replayed())

    def to_text(self) -> str:
        """The hand as `adjudicate replay` prints it."""
        from adjudicate.render.text import replay_text

        return replay_text(*self._replayed())

    def to_markdown(self) -> str:
        from adjudicate.render.text import replay_text

        return replay_text(*self._replayed(), markdown=True)


# --- reading a scenario ------------------------------------------------------------------------------

def _read(source: Source, code: str | None) -> "tuple[Scenario, Given]":
    """The scenario of a source, its `code:` replaced by `code` when given (or supplied, when it has none), and
    the source as given (the bytes the ruling record's digest is of: see `adjudicate.ruling.appeal`)."""
    from adjudicate.ruling.appeal import Given, canonical_json
    from adjudicate.errors import ScenarioError
    from adjudicate.record.scenario import read_scenario
    from adjudicate.record.yamlsource import node_of, parse_yaml, read_source

    try:
        if isinstance(source, Mapping):
            name = MAPPING_NAME
            root = node_of(source, name)
            given = Given("mapping", canonical_json(source))
        elif isinstance(source, str) and _is_text(source):
            name = TEXT_NAME
            root = parse_yaml(source, name)
            given = Given("text", source.encode("utf-8", "surrogatepass"))
        elif isinstance(source, (str, os.PathLike)):
            name = source if isinstance(source, str) else os.fsdecode(os.fspath(source))
            data, text = read_source(name)
            root = parse_yaml(text, name)
            given = Given("file", data)
        elif _is_stream(source):
            from adjudicate.record.yamlsource import read_stream_source

            name = _stream_name(source)
            data, text = read_stream_source(source, name)
            root = parse_yaml(text, name)
            given = Given("stream", data)
        else:
            raise TypeError(f"a scenario is a path, YAML text, a mapping or a binary stream, not "
                            f"{type(source).__name__}")
    except ScenarioError:
        raise
    except InputError as error:
        raise ScenarioError(error.problems) from None
    if code is not None and root.is_map():
        root = _with_code(root, code)
    return read_scenario(root, name), given


def _is_text(source: str) -> bool:
    """A `str` is YAML text if it holds a line break or begins with `{` (a flow mapping); otherwise a path."""
    return "\n" in source or "\r" in source or source.lstrip().startswith("{")


def _with_code(root: Any, code: str) -> Any:
    from adjudicate.record.yamlsource import Node

    pairs = dict(root.value)
    pairs["code"] = (Node("scalar", "code", root.pos), Node("scalar", code, root.pos))
    return Node("map", pairs, root.pos, root.tag)


def _code_rulebook(code: str) -> "Rulebook":
    """The rulebook `code=` names: a built-in code's id, or a rulebook file's path (trusted, as the command
    line's `--house` is)."""
    from adjudicate.errors import did_you_mean
    from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook

    if code in builtin_codes():
        return builtin_rulebook(code)
    if code.endswith((".yaml", ".yml")) or "/" in code or os.sep in code:
        return _rulebook_file(code)
    raise UsageError(f"unknown code {code!r}{did_you_mean(code, builtin_codes())}; expected one of: "
                     f"{', '.join(builtin_codes())}, or a rulebook file's path")


_FILES: dict[tuple[str, int, int], "Rulebook"] = {}
"""Rulebook files already loaded by `code=`, by (real path, mtime, size): a program rules hand after hand."""


def _rulebook_file(path: str) -> "Rulebook":
    from adjudicate.lawbook.reader import load_rulebook

    try:
        info = os.stat(path)
    except OSError:
        return load_rulebook(path)  # it says what is wrong
    key = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
    if key not in _FILES:
        _FILES[key] = load_rulebook(path)
    return _FILES[key]


# --- the functions -------------------------------------------------------------------------------

def rule(source: Source, *, code: str | None = None, house: str | None = None,
         answers: "Mapping[str, bool] | None" = None) -> Ruling:
    """The ruling on a scenario: a file's path, YAML text, or a mapping.

    `code` (a built-in code's id, or a rulebook file's path) rules it by that code instead of its
    `code:` (which it may then leave out); `house` (a built-in house's id, or a house-rules file's
    path) under that house instead of its `house:`. `answers` (question id -> True or False) settles
    open questions as if the record had said so (`Ruling.answer`). Raises `AdjudicateError` for
    anything wrong with the scenario or the names given, or an answer to a question it does not ask.
    """
    from adjudicate.ruling.pipeline import rule_loaded

    scenario, given = _read(source, code)
    rulebook = _code_rulebook(code) if code is not None else None
    ruling = Ruling._of(rule_loaded(scenario, rulebook, house), given)
    return ruling.answer(answers) if answers else ruling


def answer_rulings(rulings: "Iterable[Ruling]", answers: "Mapping[str, bool]") -> "tuple[Ruling, ...]":
    """Each ruling with those of the answers it asks (answers given to several scenarios at once, as
    `adjudicate rule --answer` gives them); an id that none of them asks raises `AdjudicateError`."""
    rulings = tuple(rulings)
    given = _checked_answers(answers)
    asked: set[str] = set()
    for ruling in rulings:
        asked |= ruling.asked_ids(given)
    stray = [qid for qid in given if qid not in asked]
    if stray:
        raise _unasked_error(stray, asked, rulings[0].scenario if len(rulings) == 1 else "the scenarios given")
    return tuple(ruling.answer(given, strict=False) for ruling in rulings)


def _unasked_error(ids: "Iterable[str]", asked: "Iterable[str]", where: str | None = None) -> UsageError:
    """The error for answers to questions no scenario given asks: each id, with a did-you-mean over those asked."""
    asked = sorted(set(asked))
    lines = []
    for qid in ids:
        hint = did_you_mean(qid, asked)
        lines.append(f"no question {qid!r} is asked{f' by {where}' if where else ''}{hint}")
    lines.append(f"the questions asked: {', '.join(asked)}" if asked else "no question is asked: the record settles "
                 "every fact the ruling turns on")
    return UsageError("\n".join(lines))


def _checked_answers(answers: "Mapping[str, bool]") -> dict[str, bool]:
    if not isinstance(answers, Mapping):
        raise TypeError(f"answers are a mapping of question id to True or False, not {type(answers).__name__}")
    for qid, answer in answers.items():
        if not isinstance(qid, str) or not isinstance(answer, bool):
            raise UsageError(f"the answer to {qid!r} should be True or False (yes or no), not {answer!r}")
    return dict(answers)


ANSWER_WORDS = {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}
"""The words an answer is given in on the command line (any case)."""


def parse_answer(text: str) -> tuple[str, bool]:
    """`ID=yes` (or no, true, false, y, n, in any case) as (id, answer); `AdjudicateError` if it is not one."""
    qid, sep, word = text.partition("=")
    qid, word = qid.strip(), word.strip()
    if not sep or not qid:
        raise UsageError(f"--answer {text!r}: expected QUESTION-ID=yes or QUESTION-ID=no")
    if word.lower() not in ANSWER_WORDS:
        raise UsageError(f"--answer {text!r}: the answer should be yes or no (or true, false, y, n), not {word!r}")
    return qid, ANSWER_WORDS[word.lower()]


def read_answers(path: "str | os.PathLike[str]") -> dict[str, bool]:
    """An answers file: a YAML mapping of question id to yes or no (`E-held-spade-trick-1: yes`). Its errors
    (not a mapping, an answer not yes or no, a YAML error) raise `AdjudicateError` with the file, line and column."""
    from adjudicate.record.yamlsource import read_yaml

    name = os.fspath(path)
    root = read_yaml(name)
    if root.is_null():
        return {}
    if not root.is_map():
        raise root.error(f"an answers file is a mapping of question id to yes or no "
                         f"(`E-held-spade-trick-1: yes`), not {root.describe()}")
    answers: dict[str, bool] = {}
    problems: list[Problem] = []
    for qid, knode, value in root.items():
        word = str(value.value).strip().lower() if value.is_scalar() and not value.is_null() else None
        if word in ANSWER_WORDS:
            answers[qid] = ANSWER_WORDS[word]
        else:
            problems.append(Problem(value.pos, f"the answer to {qid!r} should be yes or no (or true, false), "
                                               f"not {value.describe()}"))
    if problems:
        raise InputError(problems)
    return answers


def replay(source: Source, *, code: str | None = None, house: str | None = None) -> Replay:
    """The hand as reconstructed, trick by trick, its irregularities found; sources and arguments as `rule`'s."""
    from adjudicate.play.facts import detect
    from adjudicate.lawbook.games import BUILTIN_GAMES
    from adjudicate.lawbook.ruled_by import rulebook_for
    from adjudicate.play.replay import replay as replay_hand

    scenario, _ = _read(source, code)
    if code is None and scenario.code in BUILTIN_GAMES and not (house or scenario.house):
        game = None  # a built-in code's game, without loading its laws
    else:
        rulebook = _code_rulebook(code) if code is not None else None
        game = rulebook_for(scenario, rulebook, house)[0].game
    table = replay_hand(scenario, game)
    return Replay._of(table, detect(table))


class CheckReport(Struct, frozen=True):
    """What `check` found: each file's result, the paths skipped, and the counts.

    The records are `adjudicate.checking.batch`'s (`FileResult`, `Finding`, `Skipped`, `CheckSummary`); the
    renderings are exactly `adjudicate check`'s formats, with `coverage=True` as `--coverage`.
    """

    files: "tuple[checking.FileResult, ...]"
    """In order: the paths that could not be checked, the scenario read from a stream (standard input), then
    every file checked, sorted by path."""
    skipped: "tuple[checking.Skipped, ...]"
    summary: "checking.CheckSummary"
    seconds: float = 0.0
    """How long the check took, start to end (the JUnit format's `time`; no other format prints it)."""

    @property
    def exit_code(self) -> int:
        """As `adjudicate check` exits: 0 all passed, 1 some ruling differs from its `expect`, 2 some file is invalid."""
        return self.summary.exit_code

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def coverage(self) -> "list[checking.CodeCoverage]":
        """Which laws with a condition no checked scenario applies, and which have no near miss."""
        from adjudicate.checking import batch as checking

        return checking.coverage(self.files)

    def _parts(self, coverage: bool) -> tuple[Any, ...]:
        return self.files, self.summary, self.coverage() if coverage else None, self.skipped

    def to_json(self, coverage: bool = False) -> dict[str, object]:
        """The data `adjudicate check --format json` prints."""
        from adjudicate.checking import batch as checking

        return checking.render_json(*self._parts(coverage))

    def to_text(self, coverage: bool = False, *, verbosity: int = 0) -> str:
        """`file:line:col: message` lines and the summary, as `adjudicate check` prints them; `verbosity=1` as
        `check -v` (a line for each file checked first), `-1` as `check -q` (the summary alone, nothing when every
        file passed)."""
        from adjudicate.checking import batch as checking

        files, summary, covered, skipped = self._parts(coverage)
        return checking.render_text(files, summary, covered, skipped, verbosity=verbosity)

    def to_jsonl(self) -> "list[dict[str, object]]":
        """Each file's record of `to_json()`'s `files`, as `adjudicate check --format jsonl` prints them, a line each."""
        from adjudicate.checking import batch as checking

        return checking.render_jsonl(self.files)

    def to_junit(self, coverage: bool = False) -> str:
        """JUnit XML, as `adjudicate check --format junit` prints it: the one format with run times (`time`)."""
        from adjudicate.checking import batch as checking

        files, summary, covered, skipped = self._parts(coverage)
        return checking.render_junit(files, summary, covered, skipped, seconds=self.seconds)

    def to_sarif(self, coverage: bool = False) -> dict[str, object]:
        """The SARIF 2.1.0 log `adjudicate check --format sarif` prints, as data (docs/ci.md)."""
        from adjudicate.version import __version__
        from adjudicate.checking import sarif

        return sarif.render_sarif(*self._parts(coverage), version=__version__)

    def to_github(self, coverage: bool = False) -> str:
        from adjudicate.checking import batch as checking

        return checking.render_github(*self._parts(coverage))


def check(paths: "str | os.PathLike[str] | IO[bytes] | Iterable[str | os.PathLike[str] | IO[bytes]]", *,
          house: str | None = None, jobs: int | None = 1, shard: "str | tuple[int, int] | None" = None,
          coverage: bool = False, cache: bool = False) -> CheckReport:
    """Check scenario files against their `expect` blocks, as `adjudicate check` does.

    `paths`: files, and folders searched for *.yaml and *.yml (house/ folders skipped); one path or
    several. A binary stream among them (`sys.stdin.buffer`, as `adjudicate check -` gives) is read to
    its end as one scenario, named by its `name` (`<stdin>`), and checked in this process; the same
    stream given twice raises `AdjudicateError`. `jobs`: processes to use (1: this one; None: every
    core). `shard`: only shard K of N, as `"2/4"` or `(2, 4)` (a stream is checked in shard 1). A file
    that cannot be checked is a result (invalid), not an exception; a `shard` that is not K/N raises
    `AdjudicateError`. `coverage`: also evaluate every law's condition atom by atom over each hand, so that
    the report's `coverage()` says which atoms no pair of scenarios shows deciding (`check --coverage`;
    it costs a little more time per file, so a plain check does not). `cache`: keep each file's result in the
    cache folder and use it again while nothing it depends on has changed, as `adjudicate check` does
    (`adjudicate.checking.resultcache`; off all the same with ADJUDICATE_NO_CACHE=1): the report is the same.
    """
    import time

    from adjudicate.checking import batch as checking

    started = time.perf_counter()
    one = isinstance(paths, (str, os.PathLike)) or _is_stream(paths)
    given: list[Any] = [paths] if one else list(paths)  # type: ignore[arg-type]
    streams: list[Any] = [item for item in given if _is_stream(item)]
    if len({id(stream) for stream in streams}) < len(streams):
        twice = next(s for i, s in enumerate(streams) if any(other is s for other in streams[:i]))
        raise UsageError(f"{_stream_name(twice)} is given twice: a stream can be read only once")
    named = [item for item in given if not _is_stream(item)]
    chosen: tuple[int, int] | None = None
    if shard is not None:
        try:
            chosen = checking.parse_shard(shard) if isinstance(shard, str) else checking.parse_shard(
                f"{shard[0]}/{shard[1]}")
        except ValueError as error:
            raise UsageError(str(error)) from None
    collection = checking.collect(os.fspath(path) for path in named)
    files = list(collection.files)
    if chosen is not None:
        files = checking.shard(files, *chosen)
        if chosen[0] != 1:
            streams = []
    read = [checking.check_stream(stream, house, _stream_name(stream), coverage) for stream in streams]
    kept = None
    if cache and files:
        from adjudicate.checking.resultcache import ResultCache

        kept = ResultCache.open(house, coverage)
    results = list(collection.problems) + read + checking.check_files(
        files, jobs=checking.default_jobs() if jobs is None else jobs, house=house, conditions=coverage, cache=kept)
    return CheckReport(tuple(results), collection.skipped, checking.summarise(results, len(collection.skipped)),
                       time.perf_counter() - started)


# --- the laws --------------------------------------------------------------------------------------

class Clause(Struct, frozen=True):
    """A numbered sub-clause of a law ("72.V")."""

    id: str
    """Its Roman numeral: "V"."""
    law: str
    text: str

    @property
    def ref(self) -> str:
        return f"{self.law}.{self.id}"


class Note(Struct, frozen=True):
    """A footnote to a law (Cavendish's, in Short Whist): his, not the law's."""

    mark: str
    by: str
    text: str
    refs: tuple[str, ...]


class Law(Struct, frozen=True, dict=True):
    """One law of a code, its text verbatim: what `adjudicate laws --format json` gives for each."""

    code: str
    id: str
    section: str
    title: str
    kind: str
    """definition, scoring, procedure, penalty, ruling or etiquette."""
    subjects: tuple[str, ...]
    text: str
    refs: tuple[str, ...]
    """The laws (or clauses) of its code its text cites."""
    clauses: tuple[Clause, ...] = ()
    notes: tuple[Note, ...] = ()
    score: float | None = None
    """For a search's hit: how well it matched (higher is better, within one search)."""

    @property
    def ref(self) -> str:
        """"euchre:63"."""
        return f"{self.code}:{self.id}"

    @classmethod
    def _of(cls, law: "_Law", score: float | None = None) -> "Law":
        made = cls(law.code, law.id, law.section, law.title, law.kind, law.subjects, law.text, law.refs,
                   tuple(Clause(c.id, c.law, c.text) for c in law.clauses),
                   tuple(Note(n.mark, n.by, n.text, n.refs) for n in law.notes), score)
        made.__dict__["_law"] = law
        return made

    def to_json(self) -> dict[str, Any]:
        """The law's record as `laws --format json` prints it (with `score`, rounded, for a search's hit)."""
        try:
            record = self.__dict__["_law"].record()
        except KeyError:
            raise TypeError("this Law was not made by adjudicate.laws() or law()") from None
        if self.score is not None:
            record["score"] = round(self.score, 4)
        return record


class Citation(Struct, frozen=True):
    """A law that cites another: `cited_by[]` of `law --format json`."""

    code: str
    id: str
    title: str
    ref: str
    """The ref as written: "72" or "72.V"."""
    note: str | None
    """The mark of the note the ref stands in; None when the law's text cites it."""


class Counterpart(Struct, frozen=True):
    """A law of another code about the same thing: `counterparts[]`."""

    code: str
    id: str
    title: str
    subjects: tuple[str, ...]
    """The subjects the two share."""


class LawEntry(Struct, frozen=True, dict=True):
    """One law in full, as `adjudicate law` shows it: its text, what cites it, its counterparts."""

    law: Law
    clause: Clause | None
    """The clause asked for ("short-whist:72.V"), if one was."""
    code_title: str
    """The full title of its code."""
    cited_by: tuple[Citation, ...]
    counterparts: tuple[Counterpart, ...]

    @property
    def ref(self) -> str:
        """"euchre:63", "short-whist:72.V"."""
        return f"{self.law.code}:{self.clause.ref}" if self.clause else self.law.ref

    @classmethod
    def _of(cls, library: "Library", law: "_Law", clause: "_Clause | None") -> "LawEntry":
        cited = library.cited_by(law)
        counterparts = library.counterparts(law)
        entry = cls(Law._of(law), Clause(clause.id, clause.law, clause.text) if clause else None,
                    library[law.code].title,
                    tuple(Citation(c.law.code, c.law.id, c.law.title, c.ref, c.note.mark if c.note else None)
                          for c in cited),
                    tuple(Counterpart(o.code, o.id, o.title, tuple(s for s in o.subjects if s in law.subjects))
                          for o in counterparts))
        entry.__dict__["_parts"] = (library, law, clause, cited, counterparts)
        return entry

    def _shown(self) -> "tuple[Library, _Law, _Clause | None, tuple[_Citation, ...], tuple[_Law, ...]]":
        try:
            return self.__dict__["_parts"]
        except KeyError:
            raise TypeError("this LawEntry was not made by adjudicate.law()") from None

    def to_json(self) -> dict[str, Any]:
        """The data `adjudicate law --format json` prints."""
        from adjudicate.render.lawreport import law_json

        return law_json(*self._shown()[1:])

    def to_text(self) -> str:
        from adjudicate.render.lawreport import law_text

        return law_text(*self._shown())

    def to_markdown(self) -> str:
        from adjudicate.render.lawreport import law_markdown

        return law_markdown(*self._shown())


class Code(Struct, frozen=True):
    """A built-in code."""

    id: str
    """"euchre", "short-whist", "long-whist"."""
    title: str
    laws: int
    """How many laws it has."""


def codes() -> tuple[str, ...]:
    """The ids of the built-in codes."""
    from adjudicate.lawbook.builtin import builtin_codes

    return builtin_codes()


def code(name: str) -> Code:
    """A built-in code by its id; `AdjudicateError` (with a did-you-mean) if there is none."""
    from adjudicate.lawbook.library import builtin_library

    rulebook = builtin_library()[name]
    return Code(rulebook.code, rulebook.title, len(rulebook))


def laws(code: str | None = None, search: str | None = None, *, section: str | None = None) -> tuple[Law, ...]:
    """The laws of the built-in codes (of one, with `code`), in code and law order.

    `section`: only laws whose section heading has all these words, in any form. `search`: the laws
    matching these words, best first, each with its `score`. An unknown code, or words with nothing
    to search for, raise `AdjudicateError`.
    """
    from adjudicate.lawbook import search as lawsearch
    from adjudicate.lawbook.builtin import builtin_rulebook
    from adjudicate.lawbook.library import builtin_library

    found = list(builtin_rulebook(code.strip().lower()).laws) if code is not None else list(builtin_library().laws())
    if section is None and search is None:
        return tuple(Law._of(law) for law in found)
    counted = lawsearch.builtin_counts(builtin_library().laws())  # the laws' stems, from the cache
    if section is not None:
        found = [law for law in found if lawsearch.in_section(law, section)]
    if search is None:
        return tuple(Law._of(law) for law in found)
    return tuple(Law._of(hit.law, hit.score) for hit in lawsearch.search(found, search, counted=counted))


def law(ref: str, number: str | None = None) -> LawEntry:
    """One law in full: `law("euchre:63")`, a clause `law("short-whist:72.V")`, or `law("euchre", "63")`."""
    from adjudicate.lawbook.library import builtin_library

    library = builtin_library()
    if number is not None:
        code_id, law_id = ref, number
    elif ":" in ref:
        code_id, _, law_id = ref.partition(":")
    else:
        raise UsageError(f"which code's law {ref.strip()!r}? name it as CODE:{ref.strip()}, e.g. euchre:63 "
                         f"(law_in_each_code({ref.strip()!r}) gives it in each code that has it)")
    found, clause = library.lookup(code_id, law_id.strip())
    return LawEntry._of(library, found, clause)


def law_in_each_code(ref: str) -> tuple[LawEntry, ...]:
    """The law (or clause) numbered `ref` ("63", "72.V") in each code that has it, by code."""
    from adjudicate.lawbook.library import builtin_library

    library = builtin_library()
    found = library.with_id(ref.strip().upper())  # the numeral of a clause in capitals: "72.v" is 72.V
    if not found:
        raise UsageError(f"no code has a law {ref.strip()!r}; the codes are: {', '.join(library.codes)}")
    return tuple(LawEntry._of(library, item, clause) for item, clause in found)


class LintResult(Struct, frozen=True):
    """What checking one rulebook or house-rules file found."""

    path: str
    ok: bool
    laws: int | None
    """How many laws it has (with a house, its code's as varied); None when it is not ok."""
    problems: tuple[Problem, ...] = ()
    house: bool = False
    """It is a house-rules file."""

    def to_json(self) -> dict[str, Any]:
        """As `adjudicate lint --format json` prints it, for one file."""
        return {"path": self.path, "ok": self.ok, "laws": self.laws,
                "problems": [{"line": p.line, "column": p.column, "message": p.message} for p in self.problems],
                **({"house": True} if self.house else {})}


def lint(paths: "Iterable[str | os.PathLike[str]] | None" = None) -> tuple[LintResult, ...]:
    """Check rulebook and house-rules files (none given: the built-in ones) with every check the loader makes.

    A file with problems is a result (`ok` false, its `problems`), not an exception.
    """
    from adjudicate.errors import RulebookError
    from adjudicate.lawbook.house import builtin_house_paths, lint_file
    from adjudicate.lawbook.builtin import builtin_paths

    names = [os.fspath(path) for path in paths] if paths else builtin_paths() + builtin_house_paths()
    results = []
    for name in names:
        try:
            kind, rulebook = lint_file(name)
        except RulebookError as error:
            results.append(LintResult(name, False, None, error.problems))
        else:
            results.append(LintResult(name, True, len(rulebook), (), kind == "house"))
    return tuple(results)


def diff(house: str, paths: "Iterable[str | os.PathLike[str]]") -> "tuple[diffing.Difference, ...]":
    """Which rulings change under a house variant: each scenario under `paths` ruled by its code and by the house.

    Each result is an `adjudicate.checking.diffing.Difference` (path, status: changed, same, skipped or invalid,
    and a summary of each ruling). An unknown or broken house raises `AdjudicateError`.
    """
    from adjudicate.checking.diffing import diff as diff_rulings

    return tuple(diff_rulings(house, [os.fspath(path) for path in paths]))


def scenario_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) for scenario files, as `adjudicate schema` prints it."""
    from adjudicate.render.schema import scenario_schema as schema

    return schema()


class Cache(Struct, frozen=True):
    """The cache of parsed built-in rulebooks (docs/errors.md): where it is and adjudicate's files in it."""

    folder: str
    """The cache folder (`$ADJUDICATE_CACHE_DIR`, or the platform's place), whether or not it exists."""
    enabled: bool
    """False when `ADJUDICATE_NO_CACHE` turns the cache off (the folder is then neither read nor written)."""
    exists: bool
    """Whether the folder exists."""
    files: tuple[str, ...] = ()
    """The names of adjudicate's own files in it, sorted (nothing else in the folder is counted)."""
    size: int = 0
    """Their size in bytes."""
    failed: tuple[tuple[str, str], ...] = ()
    """For `clear_cache`: the files that could not be removed, each with the reason."""

    def to_json(self) -> dict[str, Any]:
        """As `adjudicate cache --format json` prints it."""
        return {"folder": self.folder, "enabled": self.enabled, "exists": self.exists, "files": list(self.files),
                "size": self.size, **({"failed": [{"file": name, "error": why} for name, why in self.failed]}
                                      if self.failed else {})}


def cache_info() -> Cache:
    """Where the rulebook cache is, and adjudicate's files in it (their names and total size)."""
    from adjudicate.lawbook.cache import cache_dir, cache_files, cache_folder

    folder = cache_folder()
    found = cache_files(folder)
    return Cache(folder, cache_dir() is not None, found is not None, tuple(name for name, _ in found or ()),
                 sum(size for _, size in found or ()))


def clear_cache() -> Cache:
    """Remove adjudicate's own files from the cache folder (and nothing else: not another name, not a folder in
    it, not what a link there leads to); the `Cache` of what was removed, and of what could not be. A missing
    folder is nothing to remove. The next command parses each code anew, and writes the cache again."""
    from adjudicate.lawbook.cache import cache_dir, clear_cache as clear, cache_folder

    folder = cache_folder()
    removed, failed = clear(folder)
    return Cache(folder, cache_dir() is not None, os.path.isdir(folder), tuple(name for name, _ in removed),
                 sum(size for _, size in removed), tuple(failed))
