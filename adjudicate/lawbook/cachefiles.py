"""The cache folder, and the one reader and atomic writer of cache files: the parsed built-in rulebooks'
(`adjudicate.lawbook.cache`), the law search's index (`adjudicate.lawbook.search`) and check's results
(`adjudicate.checking.resultcache`).

Kept apart from the rulebook cache so that reading a cache file imports nothing of the rulebook's records: a
`check` whose every result is cached loads no rulebook at all.
"""

from __future__ import annotations

import os

MAX_CACHE_BYTES = 8 * 1024 * 1024
"""The largest cache file read: a larger one is no cache file of ours."""


RESULTS_FOLDER = "check-results"
"""The folder inside the cache folder where `check` keeps its results (adjudicate.checking.resultcache)."""


def cache_dir() -> str | None:
    """Where adjudicate keeps its caches (`cache_folder`); None when ADJUDICATE_NO_CACHE turns them off."""
    if os.environ.get("ADJUDICATE_NO_CACHE"):
        return None
    return cache_folder()


def cache_folder() -> str:
    """The cache folder, the platform's way, whether or not the cache is turned off.

    ADJUDICATE_CACHE_DIR if set; else on Windows %LOCALAPPDATA%\\adjudicate\\Cache; else
    $XDG_CACHE_HOME/adjudicate (when set to an absolute path, as the XDG spec asks); else
    ~/Library/Caches/adjudicate on macOS and ~/.cache/adjudicate elsewhere.
    """
    import sys

    if os.environ.get("ADJUDICATE_CACHE_DIR"):
        return os.environ["ADJUDICATE_CACHE_DIR"]
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"),
                            "adjudicate", "Cache")
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return os.path.join(xdg, "adjudicate")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "adjudicate")
    return os.path.join(home, ".cache", "adjudicate")


def read_cache_file(path: str, magic: bytes, limit: int = MAX_CACHE_BYTES) -> memoryview | None:
    """A cache file's payload, if the file is there, no larger than `limit` bytes, begins with `magic` and its
    checksum holds; None otherwise (a cache miss, never an error)."""
    import stat
    import zlib

    try:
        # Opened without blocking (a named pipe where a cache file belongs, restored from elsewhere, would
        # otherwise wait for a writer for ever), and read only if it is a regular file.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            return None
        # Asking for the file's own size (and a byte more), not the limit: a buffered read of 8 MB has the OS
        # map and unmap 8 MB for each kilobyte entry (a third of a cached `check`'s time per file).
        blob = os.read(handle, min(info.st_size, limit) + 1)
    except OSError:
        return None
    finally:
        os.close(handle)
    head = len(magic)
    if len(blob) > limit or not blob.startswith(magic):
        return None
    payload = memoryview(blob)[head + 4:]
    if zlib.crc32(payload).to_bytes(4, "big") != blob[head:head + 4]:
        return None
    return payload


def write_cache_file(path: str, magic: bytes, payload: bytes, prefix: str) -> bool:
    """Write a cache file atomically (a temporary file, named from `prefix`, renamed), `magic` and a checksum
    before the payload; whether it was written. Nothing is left behind where the disk says no."""
    import tempfile
    import zlib

    folder = os.path.dirname(path)
    temporary = None
    try:
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(magic + zlib.crc32(payload).to_bytes(4, "big") + payload)
        os.replace(temporary, path)
        temporary = None
        return True
    except OSError:
        return False  # no cache where the disk says no
    finally:
        if temporary is not None:
            try:
                os.remove(temporary)
            except OSError:
                pass
