"""Checking scenario files against their `expect` blocks, many at a time, for CI.

`collect` turns the paths given on the command line into a sorted list of
scenario files; `check_files` loads, replays and rules each one and compares the
ruling with its `expect` block (`adjudicate.checking.expectations.compare`), in this
process or across several; `coverage` says which laws no checked scenario makes
apply. Every result is a plain record (`FileResult`), so it crosses process
boundaries and renders to text, JSON, JUnit XML or GitHub annotations
(`adjudicate.cli.check`).

A file is `passed` (it loads, replays and is ruled, and every expectation
holds; a file with no `expect` block passes once it is ruled without error),
`failed` (some expectation differs from the ruling) or `invalid` (it cannot be
read, validated, replayed or ruled: an input error at file:line:col).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from typing import IO, Any, Callable, Iterable, Protocol, Sequence

import msgspec
from msgspec import Struct

from adjudicate.errors import MAX_PROBLEMS, STDIN, AdjudicateError, InputError
from adjudicate.checking import budget
from adjudicate.escape import visible
from adjudicate.frozen import frozen

SCENARIO_SUFFIXES = (".yaml", ".yml")
HOUSE_FOLDER = "house"
"""House-rules files sit in `house/` folders beside the scenarios (`house: house/renege.yaml`); they are skipped."""

PASSED, FAILED, INVALID = "passed", "failed", "invalid"

FOLDER, NOT_CHECKED, INTERNAL, BUDGET = "folder", "not checked", "internal", "budget"
"""The causes of an invalid result that is not a file's own fault: a folder that could not be read,
files a worker process did not finish (it died), a bug in adjudicate met while ruling a file."""
HOUSE, LINK = "house", "link"
"""Why a path was skipped: a house-rules file named on the command line; a link out of the folder given."""
HOUSE_REASON = "a house-rules file (under a house/ folder), not a scenario"

MIN_FILES_PER_PROCESS = 32
"""A worker process pays for forking and for loading its rulebooks (tens of milliseconds); below
this many files per process, fewer processes (or none) are used."""


class Finding(Struct, frozen=True):
    """One problem in one file: an input error, or an expectation the ruling does not meet."""

    path: str
    line: int
    """1-based; 0 when the problem is the file as a whole (missing, unreadable)."""
    column: int
    message: str
    key: str | None = None
    """For a failing expectation: the `expect` key (`laws`, `include`, `not`, `trump`, ...)."""
    expected: Any = None
    """For a failing expectation: what was expected, as a JSON value (a list of law ids, a seat, a score as
    {side: points}, null: `adjudicate.checking.expectations.Mismatch.expected_value`); the words are in `message`."""
    actual: Any = None
    """What the ruling gives, in the same shape."""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}" if self.line > 0 else self.path

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class FileResult(Struct, frozen=True):
    """What checking one file found."""

    path: str
    status: str
    """`passed`, `failed` or `invalid`."""
    findings: tuple[Finding, ...] = ()
    code: str | None = None
    """The code the file was ruled under (the house rules' base code under a house variant)."""
    house: str | None = None
    laws: tuple[str, ...] = ()
    """The ids of the laws the ruling applied."""
    excluded: tuple[str, ...] = ()
    """The ids the file's `expect.not` names (for near misses)."""
    has_expect: bool = False
    opened: tuple[str, ...] = ()
    """The ids of the laws the ruling raised as open questions (they apply if a fact is so)."""
    shown: tuple[str, ...] = ()
    """Besides `laws`, the laws whose condition the hand met that the ruling names as context or not applied."""
    cause: str | None = None
    """For an invalid result that is not a file's own fault: FOLDER (a folder that could not be read),
    NOT_CHECKED (the worker process checking it died), INTERNAL (a bug in adjudicate) or BUDGET (it took more time or
    memory than a file may: adjudicate/checking/budget.py)."""
    stream: bool = False
    """It was read from a stream (standard input), not a file: `path` is the stream's name (`<stdin>`)."""
    conditions: tuple[tuple[str, str], ...] = ()
    """With `check --coverage`: each law with a condition and its value over the hand, then each of its atoms'
    (`adjudicate.checking.conditions.law_values`); empty otherwise, and under a house variant."""
    seconds: float = 0.0
    """How long checking it took (reading, replaying, ruling, comparing); 0 for a path not checked, and for a
    result taken from the cache (it takes some microseconds). Only the JUnit format prints it, to the millisecond:
    every other format is the same bytes for the same files."""


class Skipped(Struct, frozen=True):
    """A path not checked on purpose, and why."""

    path: str
    reason: str
    kind: str = HOUSE
    """HOUSE (a house-rules file named on the command line) or LINK (a symbolic link out of the folder given)."""


class Collection(Struct, frozen=True):
    """The files to check, and what was wrong with the paths given."""

    files: tuple[str, ...]
    problems: tuple[FileResult, ...] = ()
    """Invalid: paths that do not exist, folders with no scenario files, folders that cannot be read,
    *.yaml entries that are not regular files (named pipes, devices), links to nowhere."""
    skipped: tuple[Skipped, ...] = ()
    """Skipped on purpose: house-rules files named on the command line, links out of the folder given."""


# --- collecting files ------------------------------------------------------------

def _in_house_folder(parts: Sequence[str]) -> bool:
    return HOUSE_FOLDER in parts


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def _not_regular(mode: int) -> str:
    """`is a named pipe (FIFO), not a regular file; not read`, for a file that cannot be a scenario."""
    kind = next((f"{name}, " for test, name in _KINDS if test(mode)), "")
    return f"is {kind}not a regular file; not read"


def _cannot(what: str, error: OSError) -> str:
    return f"cannot read {what}: {error.strerror or error}"


def _listed_as_folder(entry: os.DirEntry) -> bool:
    """Whether the folder's listing says this entry is a folder (no call to the disk where it says so itself)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _Walk:
    """One folder given to `collect`, searched without recursion (any depth: a folder 1,100 deep
    is no RecursionError), each real folder and file once.

    Entries are read with `os.scandir`, whose file types come from the directory listing itself:
    a scenario file costs no `stat`. A *.yaml entry that is not a regular file (a named pipe, a
    socket, a device) is refused unread and reported: opening a FIFO would block forever. A
    folder that cannot be read (permission denied, a name too long) is reported, never skipped
    in silence. Symbolic links are followed only where they lead inside the folder given,
    and only to a folder or file not reached already (their (st_dev, st_ino) are remembered, so
    a loop ends); a link leading out of it is reported as skipped, not followed: a scenario
    folder from a pull request must not make `check` read (and quote in its messages) files
    elsewhere on the machine.
    """

    def __init__(self, root: str, top: os.stat_result, found: set[str], problems: list[FileResult],
                 skipped: list[Skipped]):
        self.root, self.top = root, top
        self.real_root = os.path.realpath(root)
        self.found, self.problems, self.skipped = found, problems, skipped
        self.folders: set[tuple[int, int]] = set()
        """(st_dev, st_ino) of every folder walked: a link to one, or a loop, adds nothing."""
        self.files: set[tuple[int, int]] = set()
        """(st_dev, st_ino) of every file reached through a link (a real file is known by its path)."""
        self.scenarios = 0
        """*.yaml and *.yml entries met: checked, or reported as not readable."""
        self.unreadable = 0
        """Folders that could not be read."""

    def run(self) -> None:
        self.folders.add((self.top.st_dev, self.top.st_ino))
        links: list[str] = []
        self._walk(self.root, links)
        # Links after every real folder: a file reached both ways keeps its own path.
        while links:
            self._follow(links.pop(0), links)

    def _walk(self, start: str, links: list[str]) -> None:
        stack = [start]
        while stack:
            folder = stack.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError as error:
                self.unreadable += 1
                self.problems.append(_invalid(os.path.normpath(folder), 0, 0,
                                              _cannot("this folder", error) + "; the files in it were not checked",
                                              FOLDER))
                continue
            subfolders = []
            for entry in entries:
                name = entry.name
                try:
                    if entry.is_symlink():
                        links.append(entry.path)
                    elif entry.is_dir(follow_symlinks=False):
                        if name != HOUSE_FOLDER and not name.startswith("."):
                            info = entry.stat(follow_symlinks=False)
                            if (info.st_dev, info.st_ino) not in self.folders:
                                self.folders.add((info.st_dev, info.st_ino))
                                subfolders.append(entry.path)
                    elif name.endswith(SCENARIO_SUFFIXES):
                        if entry.is_file(follow_symlinks=False):
                            self.found.add(os.path.normpath(entry.path))
                        else:
                            self.problems.append(_invalid(os.path.normpath(entry.path), 0, 0,
                                                          _not_regular(entry.stat(follow_symlinks=False).st_mode)))
                        self.scenarios += 1
                except OSError as error:  # gone since the listing, or cannot be looked at (a path past PATH_MAX)
                    if name.endswith(SCENARIO_SUFFIXES):
                        self.problems.append(_invalid(os.path.normpath(entry.path), 0, 0, _cannot("this file", error)))
                        self.scenarios += 1
                    elif name != HOUSE_FOLDER and not name.startswith(".") and _listed_as_folder(entry):
                        self.unreadable += 1
                        self.problems.append(_invalid(os.path.normpath(entry.path), 0, 0,
                                                      _cannot("this folder", error)
                                                      + "; the files in it were not checked", FOLDER))
            stack.extend(reversed(subfolders))

    def _reached_as(self, target: str) -> str:
        """The path by which the walk of the real folders reached `target` (inside the folder given), if it did."""
        return os.path.normpath(os.path.join(self.root, os.path.relpath(target, self.real_root)))

    def _follow(self, link: str, links: list[str]) -> None:
        path = os.path.normpath(link)
        scenario = link.endswith(SCENARIO_SUFFIXES)
        try:
            info = os.stat(link)
        except OSError as error:
            if scenario:  # a scenario file's name: say why it could not be read
                message = "a symbolic link to nowhere" if error.errno == errno.ENOENT else _cannot("this file", error)
                self.problems.append(_invalid(path, 0, 0, message))
                self.scenarios += 1
            return
        is_folder = stat.S_ISDIR(info.st_mode)
        if is_folder and (os.path.basename(path) == HOUSE_FOLDER or os.path.basename(path).startswith(".")):
            return  # skipped as a folder of that name is
        if not is_folder and not scenario:
            return
        target = os.path.realpath(link)
        if not _inside(target, self.real_root):
            self.skipped.append(Skipped(path, f"a symbolic link to {'a folder' if is_folder else 'a file'} outside "
                                              f"{os.path.normpath(self.root)} ({target}); not followed", LINK))
            return
        key = (info.st_dev, info.st_ino)
        if is_folder:
            if key not in self.folders:
                self.folders.add(key)
                self._walk(link, links)
        elif key not in self.files and self._reached_as(target) not in self.found:
            self.files.add(key)
            self.scenarios += 1
            if stat.S_ISREG(info.st_mode):
                self.found.add(path)
            else:
                self.problems.append(_invalid(path, 0, 0, _not_regular(info.st_mode)))


def collect(paths: Iterable[str | os.PathLike[str]]) -> Collection:
    """The scenario files under `paths`: files as given, folders searched recursively for *.yaml and *.yml.

    Files under a folder named `house/` are house-rules files, not scenarios, and are skipped (below a
    folder given, any folder named `house`; for a file named on the command line, any folder of its path
    relative to the working directory, or of the path as written when it lies outside). The result is
    sorted by path and free of duplicates, so it is the same on every machine, whatever order the paths
    were given in. How folders are searched (links, named pipes, unreadable folders): `_Walk`.
    """
    found: set[str] = set()
    problems: list[FileResult] = []
    skipped: list[Skipped] = []
    for given in paths:
        name = os.fspath(given)
        try:
            info = os.stat(name)
        except FileNotFoundError:
            problems.append(_invalid(name, 0, 0, "no such file or folder"))
            continue
        except OSError as error:
            problems.append(_invalid(name, 0, 0, _cannot("this path", error)))
            continue
        if stat.S_ISDIR(info.st_mode):
            before = len(problems)
            walk = _Walk(name, info, found, problems, skipped)
            walk.run()
            problems[before:] = sorted(problems[before:], key=lambda result: result.path)
            if not walk.scenarios and not walk.unreadable:
                problems.append(_invalid(name, 0, 0, "no scenario files (*.yaml, *.yml) in this folder"))
            continue
        normal = os.path.normpath(name)
        relative = os.path.relpath(normal)
        written = relative if not relative.startswith(os.pardir) else normal
        if _in_house_folder(written.split(os.sep)[:-1]):
            skipped.append(Skipped(normal, HOUSE_REASON, HOUSE))
        elif not stat.S_ISREG(info.st_mode):
            problems.append(_invalid(normal, 0, 0, _not_regular(info.st_mode)))
        else:
            found.add(normal)
    unique = {item.path: item for item in skipped}
    # A folder given twice, or inside another given, meets its troubles twice: each is said once.
    once = list({(problem.path, problem.findings): problem for problem in problems}.values())
    return Collection(tuple(sorted(found)), tuple(once), tuple(unique[path] for path in sorted(unique)))


def shard(files: Sequence[str], index: int, count: int) -> list[str]:
    """Shard `index` of `count` (1-based): every `count`-th file of the sorted list, starting at the `index`-th.

    Across index = 1..count every file falls in exactly one shard, and the shards differ in size by
    at most one file.
    """
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"shard {index}/{count}: expected K/N with 1 <= K <= N")
    return list(files[index - 1::count])


def parse_shard(text: str) -> tuple[int, int]:
    """`"2/4"` -> (2, 4); a ValueError naming what was expected otherwise."""
    head, slash, tail = text.partition("/")
    try:
        index, count = int(head), int(tail)
    except ValueError:
        raise ValueError(f"--shard {text!r}: expected K/N, such as 1/4 (the first of four shards)") from None
    if not slash or count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard {text!r}: expected K/N with 1 <= K <= N, such as 1/4")
    return index, count


# --- checking one file -------------------------------------------------------------

def _invalid(path: str, line: int, column: int, message: str, cause: str | None = None) -> FileResult:
    return FileResult(path, INVALID, (Finding(path, line, column, _cut(message)),), cause=cause)


def _unreadable(path: str, error: InputError) -> FileResult:
    """An invalid file: each of the input error's problems, at its file, line and column."""
    findings = tuple(Finding(p.pos.path, p.pos.line, p.pos.column, p.message) for p in error.problems)
    return FileResult(path, INVALID, findings or (Finding(path, 0, 0, str(error)),))


class ResultStore(Protocol):
    """Where results are kept between runs (`adjudicate.checking.resultcache.ResultCache`).

    `find` gives a file's kept result, or what ruling it needs (a miss), or None (ruled uncached); `rule`, in
    whichever process rules the file, gives its result and the entry to `keep` (this process); `save` writes
    what was kept, and says whether it wrote."""

    def find(self, path: str, text: bool = True) -> Any: ...

    def rule(self, miss: Any, compute: Callable[[str | None], FileResult]) -> tuple[FileResult, bytes | None]: ...

    def keep(self, miss: Any, entry: bytes | None) -> None: ...

    def save(self) -> bool: ...

    def prune(self) -> None: ...


def check_file(path: str, house: str | None = None, conditions: bool = False) -> FileResult:
    """Load, replay and rule one scenario file and compare the ruling with its `expect` block.

    `conditions`: also evaluate every law's condition atom by atom over the hand, for the coverage."""
    started = time.perf_counter()
    return _timed(_budgeted(path, None, house, conditions), started)


def _budgeted(path: str, text: str | None, house: str | None, conditions: bool = False) -> FileResult:
    """`_check` within the per-file budget (adjudicate/checking/budget.py): past it, the file's error."""
    try:
        with budget.within_budget():
            return _check(path, text, house, conditions)
    except budget.OverBudget:
        return _invalid(path, 0, 0, budget.time_message(), BUDGET)
    except MemoryError:
        return _invalid(path, 0, 0, budget.memory_message(), BUDGET)


def check_stream(stream: IO[bytes], house: str | None = None, name: str = STDIN,
                 conditions: bool = False) -> FileResult:
    """Read one scenario from `stream` (standard input) to its end, with the limits of a file, and check it
    as `check_file` checks a file; the result and its findings are named `name`."""
    from adjudicate.errors import InputError
    from adjudicate.record.yamlsource import read_stream

    started = time.perf_counter()
    try:
        text = read_stream(stream, name)
    except InputError as error:
        result = _unreadable(name, error)
    else:
        result = _budgeted(name, text, house, conditions)
    return _timed(result, started, stream=True)


def _timed(result: FileResult, started: float, stream: bool = False) -> FileResult:
    return msgspec.structs.replace(result, seconds=time.perf_counter() - started, stream=stream)


def _check(path: str, text: str | None, house: str | None, conditions: bool = False) -> FileResult:
    # The pipeline is imported at the first file ruled, not with this module (a re-run whose results all come from
    # the cache rules none), module by module: on Python 3.11 `from module import name` in a function costs 8 K
    # instructions each time (it looks for the module's `__path__`, formatting an AttributeError), `from package
    # import module` half that (with the errors' names imported with this module: 5.8 M on 201 files).
    from adjudicate.checking import expectations
    from adjudicate.record import scenario as record
    from adjudicate.ruling import pipeline

    try:
        if text is None:
            scenario = record.load_scenario(path)
        else:
            scenario = record.parse_scenario(text, path)
        decision = pipeline.rule_loaded(scenario, house=house, questions=False)
    except InputError as error:
        return _unreadable(path, error)
    except AdjudicateError as error:
        return _invalid(path, 0, 0, str(error))
    except RecursionError:
        return _invalid(path, 0, 0, "the file nests too deep to rule on")
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - a bug in the engine must not hide the other files' results
        return _invalid(path, 0, 0, f"internal error while ruling (a bug in adjudicate, please report it): "
                                    f"{type(error).__name__}: {error}", INTERNAL)
    scenario = decision.table.scenario
    expect = scenario.expect
    laws = tuple(decision.law_ids)
    opened = tuple(dict.fromkeys(law.id for question in decision.unknown for law in question.laws))
    shown = tuple(dict.fromkeys([*(item.law.id for item in decision.context),
                                 *(item.law.id for item in decision.not_applied)]))
    code = decision.rulebook.code
    values: tuple[tuple[str, str], ...] = ()
    if conditions and decision.house is None:
        from adjudicate.checking.conditions import hand_index, law_values

        values = law_values(decision.rulebook.laws, hand_index(decision))
    if expect is None:
        return FileResult(path, PASSED, (), code, decision.house, laws, opened=opened, shown=shown,
                          conditions=values)
    try:
        mismatches = expectations.compare(expect, decision.table, decision.facts, decision)
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001
        return _invalid(path, 0, 0, f"internal error while comparing `expect` (a bug in adjudicate, please "
                                    f"report it): {type(error).__name__}: {error}", INTERNAL)
    findings = _mismatch_findings(mismatches)
    return FileResult(path, FAILED if findings else PASSED, findings, code, decision.house, laws,
                      tuple(expect.exclude), True, opened, shown, conditions=values)


def _check_chunk(chunk: Sequence[tuple[str, Any]], house: str | None, conditions: bool = False,
                 cache: ResultStore | None = None) -> list[tuple[FileResult, bytes | None]]:
    """Each file's result, and the entry to keep of it: a file given with a miss of `cache` (`ResultStore.find`)
    is ruled by the cache, which makes the entry; one given with None is ruled uncached."""
    done: list[tuple[FileResult, bytes | None]] = []
    with budget.for_files():
        for path, miss in chunk:
            started = time.perf_counter()
            if cache is None or miss is None:
                result, entry = _budgeted(path, None, house, conditions), None
            else:
                result, entry = cache.rule(miss, lambda text: _budgeted(path, text, house, conditions))
            done.append((_timed(result, started), entry))
    return done


def _mismatch_findings(mismatches) -> tuple[Finding, ...]:
    """The failed expectations as findings, cut as errors are (docs/errors.md): at most MAX_PROBLEMS, then one
    counting the rest; each message at most MAX_MESSAGE characters, and so each value's JSON."""
    findings = [Finding(m.pos.path, m.pos.line, m.pos.column,
                        _cut(f"expect.{m.key}: expected {m.expected}; actual {m.actual}"),
                        m.key, frozen(_cut_value(m.expected_value)), frozen(_cut_value(m.actual_value)))
                for m in mismatches[:MAX_PROBLEMS]]
    omitted = len(mismatches) - MAX_PROBLEMS
    if omitted > 0:
        first = mismatches[MAX_PROBLEMS].pos
        findings.append(Finding(first.path, first.line, first.column,
                                f"... and {omitted:,} more failed expectation{'s' if omitted > 1 else ''} "
                                f"(only the first {MAX_PROBLEMS} are shown)"))
    return tuple(findings)


def _cut(text: str) -> str:
    from adjudicate.errors import MAX_MESSAGE

    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "… (message cut)"


def _cut_value(value: object) -> object:
    """A JSON value kept whole up to MAX_MESSAGE characters of JSON; a longer one becomes its JSON text, cut."""
    from adjudicate.errors import MAX_MESSAGE
    import msgspec

    if value is None or isinstance(value, (bool, int, float)):
        return value
    try:
        text = msgspec.json.encode(value).decode("utf-8", "surrogatepass")
    except (TypeError, msgspec.EncodeError, UnicodeError):
        text = str(value)
    return value if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "… (value cut)"


# --- checking many -------------------------------------------------------------------

def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def plan_processes(files: int, jobs: int) -> int:
    """How many worker processes to use for `files` files with at most `jobs`: 0 means in this process."""
    if jobs <= 1:
        return 0
    useful = files // MIN_FILES_PER_PROCESS
    workers = min(jobs, useful)
    return workers if workers >= 2 else 0


def check_files(files: Sequence[str], jobs: int = 1, house: str | None = None,
                conditions: bool = False, cache: ResultStore | None = None) -> list[FileResult]:
    """Check every file, in `jobs` processes at most; the results come back in the files' order.

    `conditions`: also evaluate every law's condition atom by atom (`check --coverage`; `check_file`).
    `cache`: each file's kept result used while nothing it depends on has changed, the others ruled and kept,
    the cache saved (by this process) and pruned when something was written.

    Worker processes die with this one (`_worker_start`), and end at once when it is interrupted
    (Ctrl-C, or SIGTERM as `adjudicate.errors.Terminated`): the interruption is raised again once
    they are gone. A worker that dies (the OOM killer, a SIGKILL) does not lose the rest: the
    files of the chunks it and the others had not finished come back invalid, NOT_CHECKED,
    saying so, beside the results of the chunks that were.
    """
    results: list[FileResult | None] = [None] * len(files)
    todo: list[tuple[int, str, Any]] = []
    if cache is None:
        todo = [(number, path, None) for number, path in enumerate(files)]
    else:
        # Texts go with the misses only to a ruling in this process: a worker reads its files again.
        text = plan_processes(len(files), jobs) == 0
        find = cache.find
        for number, path in enumerate(files):
            found = find(path, text)
            if isinstance(found, FileResult):
                results[number] = found
            else:
                todo.append((number, path, found))
    chunk = [(path, miss) for _, path, miss in todo]
    workers = plan_processes(len(chunk), jobs)
    if not chunk:
        done = []
    elif workers == 0:
        done = _check_chunk(chunk, house, conditions, cache)
    else:
        done = _check_in_workers(chunk, workers, house, conditions, cache)
    for (number, _, miss), (result, entry) in zip(todo, done):
        results[number] = result
        if cache is not None and miss is not None:
            cache.keep(miss, entry)
    if cache is not None and cache.save():
        cache.prune()
    return [result for result in results if result is not None]


def _check_in_workers(files: Sequence[tuple[str, Any]], workers: int, house: str | None, conditions: bool,
                      cache: ResultStore | None) -> list[tuple[FileResult, bytes | None]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # A few chunks per worker: large enough that each task's overhead is small, enough of them that a
    # worker which drew slow files does not hold the others up.
    size = max(1, -(-len(files) // (workers * 4)))
    chunks = [files[start:start + size] for start in range(0, len(files), size)]
    # Forking shares the modules already imported; elsewhere the default start method is used.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[tuple[FileResult, bytes | None]] = []
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start,
                               initargs=(os.getpid(),))
    try:
        futures = [pool.submit(_check_chunk, chunk, house, conditions, cache) for chunk in chunks]
        for chunk, future in zip(chunks, futures):
            try:
                results.extend(future.result())
            except Exception as error:  # noqa: BLE001 - BrokenProcessPool: a worker died; report, don't lose the rest
                results.extend((result, None) for result in _not_checked([path for path, _ in chunk], error))
    except BaseException:  # KeyboardInterrupt, Terminated: end the workers now, not when they finish
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return results


def _worker_start(parent: int) -> None:
    """A worker's first act: die with the parent, and leave interruptions to it.

    On Linux the kernel is asked (prctl PR_SET_PDEATHSIG) to SIGKILL this worker when the
    parent dies, however it dies (SIGKILL, the OOM killer): without it, workers of a parent
    killed by SIGTERM waited on their task queue for good. Ctrl-C reaches the whole process
    group: workers ignore it, and the parent ends them. SIGTERM is left to kill a worker outright
    (a forked worker would otherwise inherit the parent's handler).
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the parent's handlers still end us
            pass
    if os.getppid() != parent:  # the parent died before the request was made: nobody wants our results
        os._exit(1)


_PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""


def _stop_workers(pool: object) -> None:
    """Kill the pool's workers at once and shut it down without waiting for their tasks."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if callable(kill):
        try:
            kill()
        except Exception:  # noqa: BLE001 - already broken or shut down
            pass
    else:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            try:
                process.kill()
            except Exception:  # noqa: BLE001 - already gone
                pass
    shutdown = getattr(pool, "shutdown")
    shutdown(wait=False, cancel_futures=True)


def _not_checked(chunk: Sequence[str], error: BaseException) -> list[FileResult]:
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(error, BrokenProcessPool):
        why = ("not checked: a worker process died before it finished these files (killed: out of memory, "
               "or a signal); the other files' results stand")
    else:
        why = f"not checked: internal error in a worker process (a bug in adjudicate, please report it): " \
              f"{type(error).__name__}: {error}"
    return [FileResult(path, INVALID, (Finding(path, 0, 0, why),), cause=NOT_CHECKED) for path in chunk]


class CheckSummary(Struct, frozen=True):
    passed: int
    failed: int
    invalid: int
    """Every invalid result: files, and the folders and files of `unreadable` and `not_checked`."""
    skipped: int
    unreadable: int = 0
    """Folders that could not be read (their files were not checked)."""
    not_checked: int = 0
    """Files a worker process died before finishing."""

    @property
    def exit_code(self) -> int:
        """2 when something is invalid or could not be checked (it wins), 1 when some expectation differs, else 0."""
        return 2 if self.invalid else 1 if self.failed else 0


def summarise(results: Sequence[FileResult], skipped: int = 0) -> CheckSummary:
    counts = {PASSED: 0, FAILED: 0, INVALID: 0}
    causes = {FOLDER: 0, NOT_CHECKED: 0}
    for result in results:
        counts[result.status] += 1
        if result.cause in causes:
            causes[result.cause] += 1
    return CheckSummary(counts[PASSED], counts[FAILED], counts[INVALID], skipped, causes[FOLDER], causes[NOT_CHECKED])


# --- coverage ------------------------------------------------------------------------------

class CodeCoverage(Struct, frozen=True):
    """Of one code's laws that have a condition: which no checked scenario applies, which have no near miss."""

    code: str
    scenarios: int
    """Scenarios of this code that were ruled (passed or failed)."""
    conditioned: tuple[str, ...]
    """The laws with a condition, in the rulebook's order."""
    never_applied: tuple[str, ...]
    """Laws no scenario makes apply, nor raises as an open question."""
    no_near_miss: tuple[str, ...]
    only_open: tuple[str, ...] = ()
    """Laws that hang on a question of fact: scenarios raise them as open questions, none applies them for certain."""
    atoms: int | None = None
    """The atoms of the conditions (`adjudicate.checking.conditions`), when they were measured (`check
    --coverage`); None when the results hold no values of them."""
    undecided: tuple[tuple[str, int, str], ...] = ()
    """The atoms no two scenarios show deciding: (law id, the atom's line in the rulebook, the atom)."""


def _heads(subjects: Iterable[str]) -> set[str]:
    return {subject.split(".", 1)[0] for subject in subjects}


def coverage(results: Sequence[FileResult]) -> list[CodeCoverage]:
    """Coverage of each built-in code that some checked scenario is ruled under, in code order.

    A law *applies* in a scenario when the scenario's ruling lists it. A scenario is a *near miss*
    for law L when it is of L's code, does not apply L, and either names L in `expect.not`, or
    applies another law that shares a subject with L: two laws share a subject when a subject of
    each has the same first dotted part ("revoke.penalty" and "revoke.question" share "revoke").
    A near miss shows the law's condition being tested from the side where it does not hold.
    Scenarios under a house variant count for the code it varies; invalid files do not count.
    """
    from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook

    by_code: dict[str, list[FileResult]] = {}
    for result in results:
        if result.status != INVALID and result.code is not None:
            by_code.setdefault(result.code, []).append(result)
    report: list[CodeCoverage] = []
    for code in builtin_codes():
        if code not in by_code:
            continue
        rulebook = builtin_rulebook(code)
        conditioned = [law for law in rulebook.laws if law.condition is not None]
        heads = {law.id: _heads(law.subjects) for law in rulebook.laws}
        applied_anywhere: set[str] = set()
        opened_anywhere: set[str] = set()
        near: set[str] = set()
        for result in by_code[code]:
            applied = set(result.laws) | set(result.shown)
            applied_anywhere |= applied
            opened_anywhere |= set(result.opened)
            applied_heads = set().union(*(heads.get(law_id, set()) for law_id in applied)) if applied else set()
            for law in conditioned:
                if law.id in applied:
                    continue
                if law.id in result.excluded or heads[law.id] & applied_heads:
                    near.add(law.id)
        measured = [dict(result.conditions) for result in by_code[code] if result.conditions]
        atoms: int | None = None
        undecided: tuple[tuple[str, int, str], ...] = ()
        if measured:
            from adjudicate.checking.conditions import label, parts, undecided as never_deciding

            atoms = sum(len(parts(law.condition)) for law in conditioned if law.condition is not None)
            undecided = tuple((law.id, part.pos.line, label(part))
                              for law, part in never_deciding(conditioned, measured))
        report.append(CodeCoverage(
            code, len(by_code[code]), tuple(law.id for law in conditioned),
            tuple(law.id for law in conditioned if law.id not in applied_anywhere | opened_anywhere),
            tuple(law.id for law in conditioned if law.id not in near),
            tuple(law.id for law in conditioned if law.id in opened_anywhere - applied_anywhere),
            atoms, undecided))
    return report


# --- rendering -----------------------------------------------------------------------------

def summary_lines(summary: CheckSummary) -> list[str]:
    """`check: 120 passed, 2 failed` (with `, N skipped` when some were), then a line for each kind of
    trouble there was: invalid files, folders that could not be read, files not checked.

    The first line has exactly the shape CI log readers look for: `N passed, N failed`, optionally
    prefixed by one word and a colon and followed by `, N skipped`.
    """
    line = f"check: {summary.passed} passed, {summary.failed} failed"
    if summary.skipped:
        line += f", {summary.skipped} skipped"
    lines = [line]
    files = summary.invalid - summary.unreadable - summary.not_checked
    if files:
        lines.append(f"check: {files} invalid {_plural(files, 'file')} (could not be read, validated, replayed or "
                     "ruled)")
    if summary.unreadable:
        lines.append(f"check: {summary.unreadable} {_plural(summary.unreadable, 'folder')} could not be read "
                     f"(the files in {'it were' if summary.unreadable == 1 else 'them were'} not checked)")
    if summary.not_checked:
        lines.append(f"check: {summary.not_checked} {_plural(summary.not_checked, 'file')} not checked "
                     "(a worker process died: an internal failure)")
    return lines


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def coverage_lines(report: Sequence[CodeCoverage]) -> list[str]:
    lines = []
    for item in report:
        lines.append(f"coverage {item.code}: {item.scenarios} scenarios; {len(item.conditioned)} laws with a "
                     f"condition, {len(item.conditioned) - len(item.never_applied) - len(item.only_open)} applied "
                     f"by some scenario, {len(item.only_open)} raised only as open questions")
        lines.append(f"coverage {item.code}: never applied: {', '.join(item.never_applied) or 'none'}")
        lines.append(f"coverage {item.code}: only as open questions: {', '.join(item.only_open) or 'none'}")
        lines.append(f"coverage {item.code}: no near miss: {', '.join(item.no_near_miss) or 'none'}")
        if item.atoms is not None:
            lines.append(f"coverage {item.code}: {item.atoms - len(item.undecided)} of {item.atoms} atoms of the "
                         f"conditions shown deciding by a pair of scenarios")
            lines.extend(f"coverage {item.code}: law {law_id}: never shown deciding: {atom} (line {line})"
                         for law_id, line, atom in item.undecided)
    return lines


def render_text(results: Sequence[FileResult], summary: CheckSummary, report: Sequence[CodeCoverage] | None,
                skipped: Sequence[Skipped] = (), verbosity: int = 0) -> str:
    """One `file:line:col: message` line per problem, in file order; links not followed; coverage; the summary.

    `verbosity` 1 (`check -v`) first gives each file checked a line, `path: passed (laws 62, 63, 64)`;
    -1 (`check -q`) gives the summary alone, and nothing at all when every file passed.

    File names and messages come from the files checked: each line is shown with its control
    characters escaped (`adjudicate.escape.visible`), so none can break a line or forge one.
    """
    if verbosity < 0:
        return "" if summary.exit_code == 0 else "\n".join(summary_lines(summary)) + "\n"
    lines = []
    for result in results:
        if verbosity > 0:
            laws = f" (laws {', '.join(result.laws)})" if result.laws else ""
            lines.append(visible(f"{result.path}: {result.status}{laws}"))
        lines.extend(visible(str(finding)) for finding in result.findings)
    lines.extend(visible(f"{item.path}: skipped: {item.reason}") for item in skipped
                 if item.kind != HOUSE or verbosity > 0)
    if report is not None:
        lines.extend(coverage_lines(report))
    lines.extend(summary_lines(summary))
    return "\n".join(lines) + "\n"


def render_jsonl(results: Sequence[FileResult]) -> list[dict[str, object]]:
    """Each file's record (`files[]` of `render_json`), for JSON Lines: one a line."""
    return list(render_json(results, summarise(list(results)), None)["files"])  # type: ignore[call-overload]


def _finding_record(finding: Finding) -> dict[str, object]:
    record: dict[str, object] = {"file": finding.path, "line": finding.line, "column": finding.column,
                                 "message": finding.message}
    if finding.key is not None:
        record.update(key=finding.key, expected=finding.expected, actual=finding.actual)
    return record


def render_json(results: Sequence[FileResult], summary: CheckSummary, report: Sequence[CodeCoverage] | None,
                skipped: Sequence[Skipped] = ()) -> dict[str, object]:
    """The report as data. Printed by `adjudicate.cli.common.dump_json`, which keeps it valid UTF-8
    (a file name's undecodable bytes as visible `\\xNN`)."""
    files: list[dict[str, object]] = []
    for r in results:
        record: dict[str, object] = {"file": r.path, "status": r.status, "code": r.code, "house": r.house,
                                     "expect": r.has_expect, "laws": list(r.laws),
                                     "problems": [_finding_record(f) for f in r.findings]}
        if r.cause is not None:
            record["cause"] = r.cause
        files.append(record)
    totals: dict[str, object] = {"passed": summary.passed, "failed": summary.failed, "invalid": summary.invalid,
                                 "skipped": summary.skipped, "exit_code": summary.exit_code}
    # Of the invalid, those that are no file's own fault: counted only when there are some.
    troubles = {"unreadable_folders": summary.unreadable, "not_checked": summary.not_checked}
    totals.update({key: count for key, count in troubles.items() if count})
    data: dict[str, object] = {
        "files": files,
        "skipped": [item.path for item in skipped],
        "skipped_reasons": [{"file": item.path, "kind": item.kind, "reason": item.reason} for item in skipped],
        "summary": totals,
    }
    if report is not None:
        data["coverage"] = [{"code": c.code, "scenarios": c.scenarios, "conditioned": list(c.conditioned),
                             "never_applied": list(c.never_applied), "no_near_miss": list(c.no_near_miss),
                             "only_open": list(c.only_open),
                             **({"atoms": c.atoms, "undecided": [{"law": law_id, "line": line, "atom": atom}
                                                                 for law_id, line, atom in c.undecided]}
                                if c.atoms is not None else {})}
                            for c in report]
    return data


def _seconds(seconds: float) -> str:
    """A JUnit `time`: seconds, to the millisecond."""
    return f"{max(seconds, 0.0):.3f}"


def render_junit(results: Sequence[FileResult], summary: CheckSummary, report: Sequence[CodeCoverage] | None,
                 skipped: Sequence[Skipped] = (), seconds: float = 0.0) -> str:
    """JUnit XML: one testsuite, one testcase per file; a failing file has a <failure>, an invalid one an <error>.

    `time` on <testsuites> and <testsuite> is `seconds` (the whole check, start to end), on each
    <testcase> the time checking that file took (`FileResult.seconds`), in seconds to the millisecond:
    CI systems show the slow ones. So this format, alone of check's formats, differs from run to run;
    everything else in it is the same bytes for the same files.

    Every name and message is shown with its control characters escaped (`visible`): XML 1.0 cannot
    hold most of them, not even as character references, and a file name's undecodable bytes are no
    characters at all; so the XML stays well-formed whatever the files are called.
    """
    import xml.etree.ElementTree as ET

    total = len(results) + len(skipped)
    counts = {"tests": str(total), "failures": str(summary.failed), "errors": str(summary.invalid),
              "skipped": str(len(skipped)), "time": _seconds(seconds)}
    # The xunit schema (Jenkins, GitLab) refuses `skipped` on <testsuites>: it belongs to <testsuite>.
    root = ET.Element("testsuites", {"name": "adjudicate check",
                                     **{key: value for key, value in counts.items() if key != "skipped"}})
    suite = ET.SubElement(root, "testsuite", {"name": "adjudicate check", **counts})
    for result in results:
        path = visible(result.path)
        case = ET.SubElement(suite, "testcase", {"classname": _classname(path), "name": path, "file": path,
                                                 "time": _seconds(result.seconds)})
        if result.status == PASSED:
            continue
        tag = "failure" if result.status == FAILED else "error"
        first = result.findings[0]
        message = f"{first}" + (f" (and {len(result.findings) - 1} more)" if len(result.findings) > 1 else "")
        element = ET.SubElement(case, tag, {"message": visible(message),
                                            "type": "expectation" if tag == "failure" else "invalid"})
        element.text = "\n".join(visible(str(f)) for f in result.findings)
    for item in skipped:
        path = visible(item.path)
        case = ET.SubElement(suite, "testcase", {"classname": _classname(path), "name": path, "file": path,
                                                 "time": _seconds(0.0)})
        ET.SubElement(case, "skipped", {"message": visible(item.reason)})
    if report is not None:
        ET.SubElement(suite, "system-out").text = "\n".join(coverage_lines(report))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _classname(path: str) -> str:
    folder = os.path.dirname(path).replace(os.sep, "/").strip("./")
    return folder.replace("/", ".") or "scenarios"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(results: Sequence[FileResult], summary: CheckSummary, report: Sequence[CodeCoverage] | None,
                  skipped: Sequence[Skipped] = ()) -> str:
    """GitHub workflow commands: `::error file=F,line=L,col=C::message` for each problem, on its line
    (a failing expectation on its key's line in the `expect` block); `::warning` for each link not
    followed; then the summary as plain lines. Names and messages have their control characters
    escaped (`visible`) before GitHub's own escapes, so none can end a command or start another."""
    lines = []
    for result in results:
        title = "expectation not met" if result.status == FAILED else "invalid scenario"
        for finding in result.findings:
            where = f"file={_escape_property(visible(finding.path))}"
            if finding.line > 0:
                where += f",line={finding.line},col={finding.column}"
            lines.append(f"::error {where},title={_escape_property(title)}::{_escape_data(visible(finding.message))}")
    for item in skipped:
        if item.kind != HOUSE:
            lines.append(f"::warning file={_escape_property(visible(item.path))},title=skipped::"
                         f"{_escape_data(visible(item.reason))}")
    if report is not None:
        lines.extend(f"::notice title=coverage::{_escape_data(line)}" for line in coverage_lines(report))
    lines.extend(summary_lines(summary))
    return "\n".join(lines) + "\n"
