"""A cache of the built-in rulebooks, parsed. Its files are read and written by `adjudicate.lawbook.cachefiles`,
as the law search's index and check's result cache are.
"""

from __future__ import annotations

import os
import re

from msgspec import Struct

from adjudicate.lawbook.cachefiles import RESULTS_FOLDER, cache_dir, cache_folder, read_cache_file, write_cache_file
from adjudicate.lawbook.rulebook import Rulebook

__all__ = ["cache_dir", "cached_rulebook", "read_cache_file", "remove_stale", "store_rulebook", "write_cache_file"]


# --- a cache of the built-in rulebooks, parsed ------------------------------------
# Reading a built-in rulebook with every check takes ~60 ms; decoding the cached copy well under 1 ms.
#
# The cache holds data, never code: msgpack decoded by msgspec into exactly the `Rulebook` type (its
# records and nothing else), so a planted file can construct no other object. A file is used only
#  - under its own name: the code, a digest of this install's folder (two checkouts or venvs keep
#    their own files) and a key made of the rulebook's bytes, the package's version and the stamps
#    (size, time) of the modules whose records it holds;
#  - when its header is this format's, the checksum it records is that of the payload that follows
#    (a truncated or damaged file), and the payload holds exactly the shipped rulebook's bytes;
#  - when every law's text, clause and note (and its title and section) stands verbatim in the shipped
#    rulebook file, at the law's own record there: an edited cache cannot put words in a law's mouth.
# What the last check does not cover (conditions, remedies, our `because` sentences) is trusted as
# derived: someone able to write the cache folder and recompute the checksums could change a ruling,
# but not a quoted law, and not run anything. ADJUDICATE_NO_CACHE=1 turns the cache off;
# ADJUDICATE_CACHE_DIR moves it.

_CACHED_CLASSES = ("lawbook/rulebook.py", "lawbook/reader.py", "lawbook/conditions.py", "lawbook/remedies.py",
                   "lawbook/defeats.py", "lawbook/provisos.py", "lawbook/games.py", "record/cards.py",
                   "record/vocabulary.py", "errors.py")
"""The modules whose records a cache file holds, and the reader that made them, relative to the package's folder."""
_CACHE_MAGIC = b"adjudicate rulebook cache, msgpack 1\n"
_CACHE_SUFFIX = ".msgpack"


class _CacheEntry(Struct, frozen=True):
    """What a cache file holds after its header."""

    source: bytes
    """The shipped rulebook file's bytes it was parsed from (compared whole: no digest can collide)."""
    offsets: tuple[int, ...]
    """Where each law's record starts in the shipped file (its `id:`), for checking the texts."""
    rulebook: Rulebook


# Checksums are zlib's CRC-32, not SHA-256: `hashlib` costs 2 ms to import, as much as the whole load, and
# no digest without a secret would stop someone able to write the cache folder; the source is compared whole.

def _install_tag() -> str:
    """A checksum of this install's folder: each checkout or virtualenv has cache files of its own."""
    import zlib

    return f"{zlib.crc32(os.path.dirname(os.path.abspath(__file__)).encode('utf-8', 'surrogateescape')):08x}"


def _cache_file(code: str, data: bytes) -> str | None:
    """The cache file of the built-in rulebook parsed from `data`, or None (no cache)."""
    import sys
    import zlib

    from adjudicate.version import __version__

    base = cache_dir()
    if base is None:
        return None
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamps = [__version__, sys.version, str(len(data))]
    for name in _CACHED_CLASSES:
        try:
            info = os.stat(os.path.join(here, name))
        except OSError:
            return None
        stamps.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    key = (zlib.crc32(data) << 32) | zlib.crc32("\n".join(stamps).encode())
    return os.path.join(base, f"{code}-{_install_tag()}-{key:016x}{_CACHE_SUFFIX}")


def cached_rulebook(code: str, data: bytes) -> "Rulebook | None":
    """The cached rulebook of `code` parsed from `data`, if a cache file holds it and passes every check."""
    import msgspec

    path = _cache_file(code, data)
    payload = read_cache_file(path, _CACHE_MAGIC) if path is not None else None
    if payload is None:
        return None
    try:
        entry = msgspec.msgpack.Decoder(_CacheEntry).decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None  # a foreign or older file is only a cache miss
    rulebook = entry.rulebook
    if entry.source != data or rulebook.code != code or not _verbatim(rulebook, entry.offsets, data):
        return None
    return rulebook


def store_rulebook(code: str, data: bytes, rulebook: "Rulebook") -> None:
    """Write the cache file (atomically: a temporary file renamed), then remove this install's stale ones.

    Nothing is left behind when writing fails, and a rulebook whose texts the load-time check could not
    find in its file is not cached at all.
    """
    import msgspec

    path = _cache_file(code, data)
    if path is None:
        return
    offsets = _record_offsets(rulebook, data)
    if offsets is None or not _verbatim(rulebook, offsets, data):
        return
    payload = msgspec.msgpack.encode(_CacheEntry(data, offsets, rulebook))
    if not write_cache_file(path, _CACHE_MAGIC, payload, prefix=f".{code}-"):
        return
    remove_stale(os.path.dirname(path), f"{code}-{_install_tag()}-", os.path.basename(path))


STALE_DAYS = 30
"""A cache file no command has read for this long is another install's that is gone (a deleted virtual
environment, a CI job's fresh one): removed by the next install that writes the cache."""


def is_cache_name(name: str) -> bool:
    """Whether `name` is a file adjudicate writes in its cache folder: `CODE-INSTALL-KEY.msgpack` (a parsed
    rulebook), `search-INSTALL.msgpack` (the search index), a temporary `.CODE-….tmp` or `.search-….tmp` being
    written, or an earlier version's `CODE-KEY.pickle`; or, in `check-results/`, a results index `HEX.msgpack` (or an
    earlier version's result) or its temporary `.results-….tmp` (`.result-….tmp`). Nothing else there is touched."""
    if name.startswith(RESULTS_FOLDER + "/"):
        return re.fullmatch(r"[0-9a-f]{16,128}\.msgpack|\.results?-[A-Za-z0-9_]+\.tmp",
                            name[len(RESULTS_FOLDER) + 1:]) is not None
    return re.fullmatch(r"[a-z][a-z-]*-[0-9a-f]{8}(?:-[0-9a-f]{16})?\.msgpack|\.[a-z][a-z-]*-[A-Za-z0-9_]+\.tmp"
                        r"|[a-z][a-z-]*-[0-9a-f]{16}\.pickle", name) is not None


def remove_stale(folder: str, mine: str, keep: str) -> None:
    """Remove this install's earlier cache files (named `mine`...) but `keep`, and any install's not used for
    STALE_DAYS (by its access time, or its modification time where the disk keeps no access time)."""
    import time

    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name == keep or not is_cache_name(name):
            continue
        full = os.path.join(folder, name)
        try:
            info = os.lstat(full)
            unused = now - max(info.st_atime, info.st_mtime)
            if name.startswith(mine) or unused > STALE_DAYS * 86400:
                os.remove(full)
        except OSError:
            pass


def cache_files(folder: str) -> list[tuple[str, int]] | None:
    """(name, size) of each of adjudicate's files in `folder` and in its `check-results/` (`is_cache_name`: a
    file, or a link, never what it leads to; no other folder, and `check-results/` only if it is a folder, not a
    link), sorted by name; None when there is no such folder."""
    import stat

    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        if stat.S_ISDIR(os.lstat(os.path.join(folder, RESULTS_FOLDER)).st_mode):
            names += [f"{RESULTS_FOLDER}/{name}" for name in os.listdir(os.path.join(folder, RESULTS_FOLDER))]
    except OSError:
        pass
    found = []
    for name in sorted(names):
        if not is_cache_name(name):
            continue
        try:
            info = os.lstat(os.path.join(folder, name))
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
            found.append((name, info.st_size if stat.S_ISREG(info.st_mode) else 0))
    return found


def clear_cache(folder: str) -> tuple[list[tuple[str, int]], list[tuple[str, str]]]:
    """Remove adjudicate's files from `folder` (those `cache_files` lists: a link is removed, never followed;
    a folder inside, or any other name, is left alone); (removed (name, size), failed (name, reason)).

    The names are removed relative to the folder opened once (`dir_fd`), so a folder swapped for a link while
    it is cleared cannot lead the removal elsewhere.
    """
    found = cache_files(folder)
    if not found:
        return [], []
    removed: list[tuple[str, int]] = []
    failed: list[tuple[str, str]] = []
    handle = None
    if os.unlink in os.supports_dir_fd and hasattr(os, "O_DIRECTORY"):
        try:
            handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as error:
            return [], [(folder, error.strerror or str(error))]
    results = None
    if handle is not None and any(name.startswith(RESULTS_FOLDER + "/") for name, _ in found):
        try:
            results = os.open(RESULTS_FOLDER, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0),
                              dir_fd=handle)
        except OSError as error:
            failed.append((RESULTS_FOLDER, error.strerror or str(error)))
            found = [(name, size) for name, size in found if not name.startswith(RESULTS_FOLDER + "/")]
    try:
        for name, size in found:
            try:
                if handle is not None and name.startswith(RESULTS_FOLDER + "/"):
                    os.unlink(name[len(RESULTS_FOLDER) + 1:], dir_fd=results)
                elif handle is not None:
                    os.unlink(name, dir_fd=handle)
                else:
                    os.unlink(os.path.join(folder, name))
                removed.append((name, size))
            except FileNotFoundError:
                continue  # removed meanwhile (another run pruning)
            except OSError as error:
                failed.append((name, error.strerror or str(error)))
    finally:
        if results is not None:
            os.close(results)
        if handle is not None:
            os.close(handle)
    return removed, failed


def _record_offsets(rulebook: Rulebook, data: bytes) -> tuple[int, ...] | None:
    """Where each law's record starts in the file's text (from the positions the reader gave), or None."""
    text = data.decode("utf-8")
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    offsets = []
    for law in rulebook.laws:
        if not 0 < law.pos.line < len(starts):
            return None
        offsets.append(starts[law.pos.line - 1] + law.pos.column - 1)
    return tuple(offsets)


def _verbatim(rulebook: Rulebook, offsets: tuple[int, ...], data: bytes) -> bool:
    """Whether each law's text, clauses and notes, title and section stand word for word in the rulebook file
    `data`, within the law's own record (which starts at its offset with the law's `id:`)."""
    if len(offsets) != len(rulebook.laws) or list(offsets) != sorted(set(offsets)):
        return False
    source = data.decode("utf-8")
    ends = (*offsets[1:], len(source))
    for law, start, end in zip(rulebook.laws, offsets, ends):
        line_start = source.rfind("\n", 0, start) + 1
        indent = source[line_start:start]
        if (indent.strip("- ") or not (source.startswith(f'id: "{law.id}"\n', start)
                                       or any(source.startswith(f"id: {form}\n", start) for form in _forms(law.id)))
                or not _plain_field(source, start, end, indent, "title", law.title)
                or not _plain_field(source, start, end, indent, "section", law.section)):
            return False
        key = "\n" + " " * len(indent) + "text: |\n"
        at = source.find(key, start, end)
        if at < 0 or not _literal_at(source, at + len(key), end, law.text):
            return False
        for key, parts in (("clauses", law.clauses), ("notes", law.notes)):
            if parts and not _blocks_hold(source, start, end, indent, key, [part.text for part in parts]):
                return False
    return True


def _blocks_hold(source: str, start: int, end: int, indent: str, key: str, texts: list[str]) -> bool:
    """Whether the record's `key:` list (clauses, notes) holds a `text: |` block for each text, in order."""
    import re

    head = "\n" + " " * len(indent) + f"{key}:"
    at = source.find(head, start, end)
    if at < 0:
        return False
    following = re.compile(r"\n {%d}[^ \n]" % len(indent)).search(source, at + len(head), end)  # the record's next key
    stop = following.start() if following else end
    blocks = []
    at = source.find("text: |\n", at, stop)
    while at >= 0:
        blocks.append(at + len("text: |\n"))
        at = source.find("text: |\n", at + 1, stop)
    return len(blocks) == len(texts) and all(_literal_at(source, block, stop, text)
                                             for block, text in zip(blocks, texts))


def _forms(value: str) -> tuple[str, ...]:
    """How a one-line value may be written plain or quoted in the file."""
    return (value, f'"{value}"', "'" + value.replace("'", "''") + "'")


def _plain_field(source: str, start: int, end: int, indent: str, key: str, value: str) -> bool:
    """Whether the record holds `key: value` (plain or quoted) at its own indentation."""
    prefix = "\n" + " " * len(indent) + f"{key}: "
    if source.find(f"{prefix}{value}\n", start, end) >= 0:  # plain, as nearly every one is
        return True
    return any(source.find(prefix + form + "\n", start, end) >= 0 for form in _forms(value)[1:])


def _literal_at(source: str, at: int, end: int, text: str) -> bool:
    """Whether the literal block scalar (`|`) whose lines start at `at` holds exactly `text`, and ends there."""
    stop = at
    while stop < end and source[stop] == " ":
        stop += 1
    indent = source[at:stop]
    if not indent or not text.endswith("\n"):
        return False
    block = "\n".join(indent + line if line else "" for line in text[:-1].split("\n")) + "\n"
    stop = at + len(block)
    if stop > len(source) or not source.startswith(block, at):
        return False
    while stop < len(source):  # the block ends: the next line that is not blank is less indented
        newline = source.find("\n", stop)
        line = source[stop:newline if newline >= 0 else len(source)]
        if line.strip():
            return not line.startswith(indent)
        if newline < 0:
            break
        stop = newline + 1
    return True
