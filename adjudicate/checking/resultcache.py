"""check's result cache: a file's result kept for as long as nothing it depends on changes (issue 22).

A result is found by a key hashing (BLAKE2b) everything its ruling depends on:

- this install: the package's version and each of its modules' size and time, the bytes of every
  built-in rulebook and house file, the versions of Python, PyYAML and msgspec;
- the run's options that change results: `--house` (its name, and the bytes of the file it names),
  `--coverage` (a result made with it holds each law's condition values; one made without it does not),
  and ADJUDICATE_ALLOW_PATHS;
- the file: its path as given (results quote it), the working directory (a relative path's meaning),
  the boundary its `code:` and `house:` may name files in (`adjudicate.lawbook.sources`), and its bytes.

The files a scenario names (`code:`, `house:`, and a house file's `varies:`) are known only once it is
ruled: the entry records each (its path, its real path, and its bytes' digest, or what kind of thing
stood there when it was refused), and a result is used only while each is still so. Results that are not
the file's own (an internal error, a worker that died, a file over its time or memory budget) are not kept.

Entries are files in the cache folder's `check-results/` (the platform's cache folder, as the rulebook
cache's: `adjudicate.lawbook.cachefiles.cache_dir`), written and read by `write_cache_file` and
`read_cache_file`, with their safety: a size cap, a checksum, an atomic write, a non-blocking open of regular
files only, msgpack decoded by msgspec into exactly these records (no code). A damaged, truncated, foreign or
unreadable entry is a miss; an entry that cannot be written is not kept. At most MAX_ENTRIES are kept: past
it the oldest written are removed, and an entry written more than STALE_DAYS ago is removed by the next run
that writes one. ADJUDICATE_NO_CACHE=1 or `check --no-cache` turn it off.

A run whose every file is cached imports none of the rulebook's records, the reader of YAML or the replay:
this module imports only the batch's records and `adjudicate.lawbook.cachefiles`.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Callable

from msgspec import Struct

from adjudicate.checking.batch import BUDGET, FOLDER, INTERNAL, NOT_CHECKED, FileResult
from adjudicate.lawbook.cachefiles import RESULTS_FOLDER

FOLDER_NAME = RESULTS_FOLDER
MAGIC = b"adjudicate check result, msgpack 1\n"
SUFFIX = ".msgpack"
MAX_ENTRIES = 30_000
"""Entries kept; pruning removes the oldest written down to 80% of it."""
STALE_DAYS = 30
"""An entry written this long ago is removed (another install's, a file long gone; one still in use is written
again when next used)."""
MAX_KEYED_BYTES = 5 * 1024 * 1024
"""A file larger than this (more than any scenario may be: `adjudicate.record.yamlsource.MAX_FILE_BYTES`) is
checked without the cache, which reports it."""
_NOT_KEPT = (INTERNAL, NOT_CHECKED, BUDGET, FOLDER)

Named = tuple[str, str, bytes]
"""A file the scenario named: (the path as joined, its real path, its state: `_state`)."""


class _Entry(Struct, frozen=True):
    key: bytes
    """The whole key (the file's name holds it in hex: compared whole all the same)."""
    named: tuple[Named, ...]
    result: FileResult


try:  # hashlib's import loads OpenSSL (over 10 ms); BLAKE2 is CPython's own module
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b as _blake2b


def _digest(*parts: bytes) -> bytes:
    hasher = _blake2b(digest_size=20)
    for part in parts:
        hasher.update(len(part).to_bytes(8, "big"))
        hasher.update(part)
    return hasher.digest()


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def install_key() -> bytes:
    """A digest of this install: the versions, each module's size and time, each built-in rulebook's bytes."""
    import msgspec

    from adjudicate.version import __version__

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [__version__, sys.version, msgspec.__version__, *_stamps("yaml"), *_stamps("_yaml")]
    stack = [package]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            parts.append(f"{folder}:?")
            continue
        for entry in entries:
            where = os.path.relpath(entry.path, package)
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    parts.append(f"{where}:{info.st_size}:{info.st_mtime_ns}")
                elif entry.name.endswith((".yaml", ".yml")):
                    with open(entry.path, "rb") as handle:
                        parts.append(f"{where}:{_digest(handle.read()).hex()}")
            except OSError:
                parts.append(f"{where}:?")
    return _digest(*(_bytes(part) for part in parts))


def _stamps(module: str) -> list[str]:
    """A module's file and its stamps (size, time), found without importing it (PyYAML's import costs more
    than a cached run's every other step): another PyYAML, or one built without libyaml, is another key."""
    from importlib.util import find_spec

    try:
        spec = find_spec(module)
        origin = spec.origin if spec is not None else None
        if origin is None:
            return [f"{module}: none"]
        info = os.stat(origin)
    except (ImportError, ValueError, OSError):
        return [f"{module}: none"]
    return [f"{module}: {origin}:{info.st_size}:{info.st_mtime_ns}"]


def _state(path: str, passed: bool) -> bytes:
    """What stands at a named file's path now: its bytes' digest if it passed the checks and was read (read as
    the ruling read it, never blocking), else the kind of thing there (nothing, a folder, ...)."""
    if passed:
        data = _read(path)
        return b"!" if data is None else b"=" + _digest(data)
    try:
        return b"mode %d" % stat.S_IFMT(os.stat(path).st_mode)
    except OSError:
        return b"none"


def _read(path: str) -> bytes | None:
    """A regular file's bytes, read without blocking, at most MAX_KEYED_BYTES; None if it is anything else."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_KEYED_BYTES:
            return None
        data = os.read(handle, status.st_size + 1)
        return data if len(data) == status.st_size else None  # it changed while read: not keyed
    except OSError:
        return None
    finally:
        os.close(handle)


class ResultCache:
    """The result cache of one run of `check` (one `--house`, with or without `--coverage`): picklable, for the
    worker processes."""

    def __init__(self, folder: str, house: str | None, conditions: bool = False):
        from adjudicate.lawbook.sources import ALLOW_ENV

        self.folder = folder
        self.key = _digest(install_key(), _bytes(repr(house)), _house_state(house), b"conditions" if conditions else b"",
                           _bytes(os.environ.get(ALLOW_ENV, "")), _bytes(os.getcwd()))
        self.written = False
        self.boundaries: dict[str, bytes] = {}
        """The boundary of the files in each folder, in this run (`entry_name`)."""

    @classmethod
    def open(cls, house: str | None, conditions: bool = False) -> "ResultCache | None":
        """The cache for a run with this `--house` (and `--coverage` or not), or None when caching is off."""
        from adjudicate.lawbook.cachefiles import cache_dir

        base = cache_dir()
        return None if base is None else cls(os.path.join(base, FOLDER_NAME), house, conditions)

    def entry_name(self, path: str, data: bytes) -> tuple[bytes, str]:
        """The key of the file at `path` holding `data`, and the name of its entry."""
        from adjudicate.lawbook.sources import boundary_for

        # The boundary is its folder's (`boundary_for` resolves the file's real path, link by link, in Python):
        # worked out once a folder in a run, for each file that is no link.
        folder = os.path.dirname(path)
        boundary = None if os.path.islink(path) else self.boundaries.get(folder)
        if boundary is None:
            boundary = _bytes(repr(boundary_for(path)))
            if not os.path.islink(path):
                self.boundaries[folder] = boundary
        key = _digest(self.key, _bytes(path), boundary, data)
        return key, os.path.join(self.folder, key.hex() + SUFFIX)

    def check(self, path: str, compute: Callable[[str | None], FileResult]) -> FileResult:
        """The result of checking the file at `path`: kept, or `compute(text)` (and kept), with the text of the
        bytes keyed; `compute(None)` (not kept) when they cannot be keyed or decoded (it reads the file and
        reports why)."""
        data = _read(path)
        if data is None:
            return compute(None)
        try:
            key, name = self.entry_name(path, data)
        except (OSError, ValueError):
            return compute(None)
        kept = self._load(name, key)
        if kept is not None:
            return kept
        from adjudicate.errors import InputError
        from adjudicate.lawbook.sources import recording_named
        from adjudicate.record.yamlsource import decode_source

        try:
            text = decode_source(data, path)
        except InputError:
            return compute(None)
        with recording_named() as named:
            result = compute(text)
        if result.cause not in _NOT_KEPT:
            self._store(name, key, tuple((joined, real, _state(joined, passed)) for joined, real, passed in named),
                        result)
        return result

    def _load(self, name: str, key: bytes) -> FileResult | None:
        import msgspec

        from adjudicate.lawbook.cachefiles import read_cache_file

        payload = read_cache_file(name, MAGIC)
        if payload is None:
            return None
        try:
            entry = _decoder().decode(payload)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None  # a foreign or older file is only a miss
        if entry.key != key or entry.result.status not in ("passed", "failed", "invalid") \
                or entry.result.cause in _NOT_KEPT:
            return None
        for joined, real, state in entry.named:
            if os.path.realpath(joined) != real or _state(joined, state[:1] in (b"=", b"!")) != state:
                return None
        return _refrozen(entry.result)

    def _store(self, name: str, key: bytes, named: tuple[Named, ...], result: FileResult) -> None:
        import msgspec

        from adjudicate.lawbook.cachefiles import write_cache_file

        kept = msgspec.structs.replace(result, seconds=0.0, stream=False)
        try:
            payload = msgspec.msgpack.encode(_Entry(key, named, kept))
        except (UnicodeEncodeError, msgspec.EncodeError, TypeError, OverflowError):
            return  # a file name that is no text (undecodable bytes), a value msgpack cannot hold: not kept
        if write_cache_file(name, MAGIC, payload, prefix=".result-"):
            self.written = True

    def prune(self, limit: int = MAX_ENTRIES) -> None:
        """Keep at most `limit` entries, none written more than STALE_DAYS ago: past `limit`, the oldest written
        are removed, down to 80% of it. (`check_files` prunes after a run that wrote an entry: a run that only
        read has added nothing.)"""
        import time

        try:
            with os.scandir(self.folder) as listing:
                entries = [entry for entry in listing if entry.name.endswith((SUFFIX, ".tmp"))]
        except OSError:
            return  # no folder, or not ours to list: nothing to prune
        now = time.time()
        dated = []
        for entry in entries:
            try:
                stamp = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
            if now - stamp > STALE_DAYS * 86400 or (entry.name.endswith(".tmp") and now - stamp > 86400):
                _remove(entry.path)
            else:
                dated.append((stamp, entry.path))
        if len(dated) <= limit:
            return
        dated.sort()
        for _, path in dated[:len(dated) - limit * 4 // 5]:
            _remove(path)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _refrozen(result: FileResult) -> FileResult:
    """A result as decoded, its findings' values frozen again as `check` made them (msgpack gives lists, dicts)."""
    if not any(finding.key is not None for finding in result.findings):
        return result
    import msgspec

    from adjudicate.frozen import frozen

    findings = tuple(msgspec.structs.replace(finding, expected=frozen(finding.expected), actual=frozen(finding.actual))
                     if finding.key is not None else finding for finding in result.findings)
    return msgspec.structs.replace(result, findings=findings)


_DECODER = None


def _decoder():
    global _DECODER
    if _DECODER is None:
        import msgspec

        _DECODER = msgspec.msgpack.Decoder(_Entry)
    return _DECODER


def _house_state(house: str | None) -> bytes:
    """The bytes of the file `--house` names (a built-in house's are in the install's key)."""
    if not house:
        return b""
    from adjudicate.errors import AdjudicateError
    from adjudicate.lawbook.house import resolve_house

    try:
        path = resolve_house(house)
    except AdjudicateError:
        return b"unknown"
    return _state(path, True)
