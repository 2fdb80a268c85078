"""check's result cache: a file's result kept for as long as nothing it depends on changes (issue 22).

A result is found by a key hashing (BLAKE2b) everything its ruling depends on:

- this install: the package's version, the size and time of each of its modules and of every built-in
  rulebook and house file, the versions of Python, PyYAML and msgspec;
- the run's options that change results: `--house` (its name, and the bytes of the file it names),
  `--coverage` (a result made with it holds each law's condition values; one made without it does not),
  and ADJUDICATE_ALLOW_PATHS;
- the file: its path as given (results quote it), the working directory (a relative path's meaning),
  the boundary its `code:` and `house:` may name files in (`adjudicate.lawbook.sources`), and its bytes.

The files a scenario names (`code:`, `house:`, and a house file's `varies:`) are known only once it is
ruled: the entry records each (its path, its real path, and its bytes' digest, or what kind of thing
stood there when it was refused), and a result is used only while each is still so. Results that are not
the file's own (an internal error, a worker that died, a file over its time or memory budget) are not kept.

The results of the files of one folder (as the path names it), under one run's options, are kept together in
one index file in the cache folder's `check-results/` (the platform's cache folder, as the rulebook cache's:
`adjudicate.lawbook.cachefiles.cache_dir`): a run reads one file a folder, not one a scenario. Each entry
also holds the file's stamp (its size, times, inode and device, as `os.lstat` gives them, on POSIX) from when
its bytes were hashed: while the stamp is the same, the bytes are those hashed, and the file is not read
again; a file whose stamp differs (a fresh checkout, an edit) is read and hashed, and its result used if
the key is still the same. A stamp is not kept for a file changed less than RACY_SECONDS before it was
read, nor for a symbolic link: such a file is read and hashed at each run.

Index files are written and read by `write_cache_file` and `read_cache_file`, with their safety: a size
cap, a checksum, an atomic write, a non-blocking open of regular files only, msgpack decoded by msgspec into
exactly these records (no code). A damaged, truncated, foreign or unreadable index is a miss; one that cannot
be written is not kept. Only the run's own process writes them, once, at the end of the run (worker
processes hand back what they ruled): two runs at once over the same folder keep the results of the one that
ends last. An index drops the entries of files that no longer exist when it is written; the folder keeps at
most MAX_BYTES (past it the oldest written are removed) and nothing written more than STALE_DAYS ago.
ADJUDICATE_NO_CACHE=1 or `check --no-cache` turn it off.

A run whose every file is cached imports none of the rulebook's records, the reader of YAML or the replay:
this module imports only the batch's records and `adjudicate.lawbook.cachefiles`.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from typing import Callable

from msgspec import Raw, Struct

from adjudicate.checking.batch import BUDGET, FOLDER, INTERNAL, NOT_CHECKED, FileResult
from adjudicate.lawbook.cachefiles import RESULTS_FOLDER

FOLDER_NAME = RESULTS_FOLDER
MAGIC = b"adjudicate check results, msgpack 2\n"
SUFFIX = ".msgpack"
MAX_BYTES = 256 * 1024 * 1024
"""The cache folder's bound: past it, pruning removes the oldest written index files down to 80% of it."""
MAX_INDEX_BYTES = 64 * 1024 * 1024
"""The largest index read or written (some 160,000 results: a folder with more is checked without the cache)."""
STALE_DAYS = 30
"""An index written (or last used) this long ago is removed: another install's, a folder long gone."""
MAX_KEYED_BYTES = 5 * 1024 * 1024
"""A file larger than this (more than any scenario may be: `adjudicate.record.yamlsource.MAX_FILE_BYTES`) is
checked without the cache, which reports it."""
RACY_SECONDS = 3
"""A file changed this recently when it was read keeps no stamp: a change in the same tick of the file
system's clock (two seconds on FAT) would leave the stamp as it was."""
_NOT_KEPT = (INTERNAL, NOT_CHECKED, BUDGET, FOLDER)
_STAMPS = os.name == "posix"
"""Stamps are kept on POSIX only: elsewhere `st_ctime` is the creation time, and `st_ino` may be 0."""

Named = tuple[str, str, bytes]
"""A file the scenario named: (the path as joined, its real path, its state: `_state`)."""
Stamp = tuple[int, ...]
"""(mode, size, mtime_ns, ctime_ns, inode, device) of a file; () when none is kept."""


class _Entry(Struct, frozen=True, array_like=True):
    key: bytes
    """The whole key: the file's bytes hashed with everything else its result depends on."""
    stamp: Stamp
    """The file's stamp when its bytes were hashed, or ()."""
    named: tuple[Named, ...]
    result: FileResult


class _Index(Struct, frozen=True):
    name: bytes
    """The index's own key (its file's name holds it in hex: compared whole all the same)."""
    entries: dict[str, Raw]
    """Each file's `_Entry`, by its path as given, decoded only when the file is checked."""


class Miss(Struct, frozen=True):
    """A file whose result is not kept: what `ResultCache.rule` needs to rule it and keep the result."""

    path: str
    key: bytes
    stamp: Stamp
    content: bytes
    """The digest of the bytes keyed: a worker reading the file again keeps its result only if they are the same."""
    text: str | None = None
    """The bytes keyed, decoded (given to a ruling in this process; a worker reads the file again)."""


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
    """A digest of this install: the versions, each module's and built-in rulebook's size and time (as a file's
    stamp stands for its bytes below: reading and hashing the rulebooks was half the key's 3 ms)."""
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
                elif entry.name.endswith((".py", ".yaml", ".yml")):
                    info = entry.stat()
                    parts.append(f"{where}:{info.st_size}:{info.st_mtime_ns}")
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
        read = _read(path)
        return b"!" if read is None else b"=" + _digest(read[0])
    try:
        return b"mode %d" % stat.S_IFMT(os.stat(path).st_mode)
    except OSError:
        return b"none"


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _stamp(info: os.stat_result) -> Stamp:
    return (info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _read(path: str) -> tuple[bytes, Stamp, bool] | None:
    """A regular file's bytes, read without blocking, at most MAX_KEYED_BYTES; its stamp (or () when none is to
    be kept); and whether `path` is a symbolic link. None if it is anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    link = False
    try:
        # Opened without following a link first: a link (ELOOP, or another error) is opened again, followed,
        # and told by `os.path.islink`. One call fewer for every file that is no link.
        handle = os.open(path, flags | _NOFOLLOW)
    except OSError:
        if not _NOFOLLOW:
            return None
        try:
            handle = os.open(path, flags)
        except OSError:
            return None
        link = os.path.islink(path)
    else:
        link = not _NOFOLLOW and os.path.islink(path)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_KEYED_BYTES:
            return None
        racy = time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) < RACY_SECONDS * 1_000_000_000
        data = os.read(handle, info.st_size + 1)
        if len(data) != info.st_size:
            return None  # it changed while read: not keyed
        return data, () if link or racy or not _STAMPS else _stamp(info), link
    except OSError:
        return None
    finally:
        os.close(handle)


class _Folder:
    """One folder's index in this run: where its file is, what it held, what this run changed."""

    def __init__(self, name: str, key: bytes, boundary: bytes, entries: dict[str, Raw]):
        self.name = name
        self.key = key
        self.boundary = boundary
        self.entries = entries
        self.checked: set[str] = set()
        self.changed = False


class ResultCache:
    """The result cache of one run of `check` (one `--house`, with or without `--coverage`). It is handed to
    worker processes for `rule` only: the indexes stay with the process that opened it."""

    def __init__(self, folder: str, house: str | None, conditions: bool = False):
        from adjudicate.lawbook.sources import ALLOW_ENV

        self.folder = folder
        self.key = _digest(install_key(), _bytes(repr(house)), _house_state(house), b"conditions" if conditions else b"",
                           _bytes(os.environ.get(ALLOW_ENV, "")), _bytes(os.getcwd()))
        self.folders: dict[str, _Folder | None] = {}
        """Each folder's index, by the folder as the paths name it (None: its boundary cannot be found)."""
        self.states: dict[tuple[str, bool], tuple[str, bytes]] = {}
        """The real path and state of each file named, as this run found them first."""

    def __getstate__(self) -> dict[str, object]:
        return {"folder": self.folder, "key": self.key, "folders": {}, "states": {}}

    @classmethod
    def open(cls, house: str | None, conditions: bool = False) -> "ResultCache | None":
        """The cache for a run with this `--house` (and `--coverage` or not), or None when caching is off."""
        from adjudicate.lawbook.cachefiles import cache_dir

        base = cache_dir()
        return None if base is None else cls(os.path.join(base, FOLDER_NAME), house, conditions)

    def index_name(self, folder: str) -> str:
        """The path of the index of the files in `folder` (as the paths name it) for this run."""
        found = self._folder(folder)
        return "" if found is None else found.name

    def _folder(self, folder: str) -> _Folder | None:
        if folder in self.folders:
            return self.folders[folder]
        from adjudicate.lawbook.sources import folder_boundary

        try:
            boundary = _bytes(repr(folder_boundary(folder)))
        except (OSError, ValueError):
            self.folders[folder] = None
            return None
        key = _digest(self.key, _bytes(folder), boundary)
        name = os.path.join(self.folder, key.hex() + SUFFIX)
        found = _Folder(name, key, boundary, _load(name, key))
        self.folders[folder] = found
        return found

    def find(self, path: str, text: bool = True) -> FileResult | Miss | None:
        """The kept result of the file at `path`; else what ruling it needs (`rule`), with its text decoded when
        `text` (the ruling is in this process); None when its bytes cannot be keyed or decoded (it is ruled
        uncached, and reports why)."""
        folder = self._folder(os.path.dirname(path))
        if folder is None:
            return None
        folder.checked.add(path)
        raw = folder.entries.get(path)
        entry = None
        if raw is not None and _STAMPS:
            try:
                info = os.lstat(path)
            except OSError:
                info = None
            if info is not None and stat.S_ISREG(info.st_mode):
                entry = _decode_entry(raw)
                if entry is not None and entry.stamp == _stamp(info) and entry.stamp \
                        and (not entry.named or self._still(entry.named)):
                    return _refrozen(entry.result)
        read = _read(path)
        if read is None:
            self._forget(folder, path)
            return None
        data, stamp, link = read
        boundary = folder.boundary
        if link:
            from adjudicate.lawbook.sources import boundary_for

            boundary = _bytes(repr(boundary_for(path)))
        key = _digest(self.key, _bytes(path), boundary, data)
        if raw is not None:
            entry = entry if entry is not None else _decode_entry(raw)
            if entry is not None and entry.key == key and self._still(entry.named):
                if entry.stamp != stamp:  # the same bytes, stamped anew (a fresh checkout): kept so
                    self._put(folder, path, _encode(_Entry(key, stamp, entry.named, entry.result)))
                return _refrozen(entry.result)
        decoded = None
        if text:
            from adjudicate.errors import InputError
            from adjudicate.record.yamlsource import decode_source

            try:
                decoded = decode_source(data, path)
            except InputError:
                self._forget(folder, path)
                return None
        return Miss(path, key, stamp, _digest(data), decoded)

    def rule(self, miss: Miss, compute: Callable[[str | None], FileResult]) -> tuple[FileResult, bytes | None]:
        """The result of `compute(text)` for the file `miss` names, and its entry to `keep` (None: not kept).
        In a worker process the file is read again: if its bytes changed since `find`, they are ruled, not kept."""
        text = miss.text
        if text is None:
            from adjudicate.errors import InputError
            from adjudicate.record.yamlsource import decode_source

            read = _read(miss.path)
            if read is None or _digest(read[0]) != miss.content:
                return compute(None), None
            try:
                text = decode_source(read[0], miss.path)
            except InputError:
                return compute(None), None
        from adjudicate.lawbook.sources import recording_named

        with recording_named() as named:
            result = compute(text)
        if result.cause in _NOT_KEPT:
            return result, None
        import msgspec

        states = tuple((joined, real, _state(joined, passed)) for joined, real, passed in named)
        return result, _encode(_Entry(miss.key, miss.stamp, states, msgspec.structs.replace(result, seconds=0.0,
                                                                                            stream=False)))

    def keep(self, miss: Miss, entry: bytes | None) -> None:
        """Keep the entry `rule` made for the file (None: forget any kept before)."""
        folder = self._folder(os.path.dirname(miss.path))
        if folder is None:
            return
        if entry is None:
            self._forget(folder, miss.path)
        else:
            self._put(folder, miss.path, entry)

    def _put(self, folder: _Folder, path: str, entry: bytes | None) -> None:
        if entry is not None:
            folder.entries[path] = Raw(entry)
            folder.changed = True

    def _forget(self, folder: _Folder, path: str) -> None:
        if folder.entries.pop(path, None) is not None:
            folder.changed = True

    def _still(self, named: tuple[Named, ...]) -> bool:
        """Whether each file an entry's scenario named is still what it was (each looked at once a run)."""
        for joined, real, state in named:
            passed = state[:1] in (b"=", b"!")
            now = self.states.get((joined, passed))
            if now is None:
                now = self.states[joined, passed] = (os.path.realpath(joined), _state(joined, passed))
            if now != (real, state):
                return False
        return True

    def save(self) -> bool:
        """Write each index this run changed, without the entries of files no longer there; whether one was.
        An index only read, and written more than a day ago, has its time set to now (for pruning)."""
        import msgspec

        from adjudicate.lawbook.cachefiles import write_cache_file

        written = False
        now = time.time()
        for folder in self.folders.values():
            if folder is None:
                continue
            if not folder.changed:
                if folder.entries and folder.checked:
                    _refresh(folder.name, now)
                continue
            entries = {path: raw for path, raw in folder.entries.items()
                       if path in folder.checked or os.path.lexists(path)}
            try:
                payload = msgspec.msgpack.encode(_Index(folder.key, entries))
            except (msgspec.EncodeError, TypeError, OverflowError):  # pragma: no cover - each entry encoded alone
                continue
            if len(payload) <= MAX_INDEX_BYTES and write_cache_file(folder.name, MAGIC, payload, prefix=".results-"):
                written = True
        return written

    def prune(self, limit: int = MAX_BYTES) -> None:
        """Keep at most `limit` bytes of index files, none written more than STALE_DAYS ago: past `limit`, the
        oldest written are removed, down to 80% of it. (`check_files` prunes after a run that wrote an index:
        a run that only read has added nothing.)"""
        try:
            with os.scandir(self.folder) as listing:
                entries = [entry for entry in listing if entry.name.endswith((SUFFIX, ".tmp"))]
        except OSError:
            return  # no folder, or not ours to list: nothing to prune
        now = time.time()
        dated = []
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if now - info.st_mtime > STALE_DAYS * 86400 or (entry.name.endswith(".tmp") and now - info.st_mtime > 86400):
                _remove(entry.path)
            else:
                dated.append((info.st_mtime, info.st_size, entry.path))
        total = sum(size for _, size, _ in dated)
        if total <= limit:
            return
        dated.sort()
        for _, size, path in dated:
            if total <= limit * 4 // 5:
                break
            _remove(path)
            total -= size


def _load(name: str, key: bytes) -> dict[str, Raw]:
    """The entries of the index file `name`, if it is one and its key is `key`; else none."""
    import msgspec

    from adjudicate.lawbook.cachefiles import read_cache_file

    payload = read_cache_file(name, MAGIC, MAX_INDEX_BYTES)
    if payload is None:
        return {}
    try:
        index = _decoder(_Index).decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return {}  # a foreign or older file is only a miss
    return dict(index.entries) if index.name == key else {}


def _decode_entry(raw: Raw) -> _Entry | None:
    import msgspec

    try:
        entry = _decoder(_Entry).decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if entry.result.status not in ("passed", "failed", "invalid") or entry.result.cause in _NOT_KEPT:
        return None
    return entry


def _encode(entry: _Entry) -> bytes | None:
    import msgspec

    try:
        return msgspec.msgpack.encode(entry)
    except (UnicodeEncodeError, msgspec.EncodeError, TypeError, OverflowError):
        return None  # a file name that is no text (undecodable bytes), a value msgpack cannot hold: not kept


def _refresh(name: str, now: float) -> None:
    try:
        if now - os.stat(name).st_mtime > 86400:
            os.utime(name, (now, now))
    except OSError:
        pass


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _refrozen(result: FileResult) -> FileResult:
    """A result as decoded, its findings' values frozen again as `check` made them (msgpack gives lists, dicts)."""
    if not result.findings or not any(finding.key is not None for finding in result.findings):
        return result
    import msgspec

    from adjudicate.frozen import frozen

    findings = tuple(msgspec.structs.replace(finding, expected=frozen(finding.expected), actual=frozen(finding.actual))
                     if finding.key is not None else finding for finding in result.findings)
    return msgspec.structs.replace(result, findings=findings)


_DECODERS: dict[type, object] = {}


def _decoder(kind: type):
    decoder = _DECODERS.get(kind)
    if decoder is None:
        import msgspec

        decoder = _DECODERS[kind] = msgspec.msgpack.Decoder(kind)
    return decoder


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
