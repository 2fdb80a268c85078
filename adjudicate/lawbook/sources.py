"""The rulebook a scenario is ruled by, and the files a scenario may name (issue 13).

A scenario's `code:` and `house:` name a built-in id (`euchre`, `modern-euchre`) or a file. A
scenario may come from anyone (a pull request checked in CI), so a file it names is read only
when it is

- a `.yaml` or `.yml` file (never `/etc/shadow`, a key, a JSON credentials file),
- a regular file (never a named pipe or a device, which could hang the command or stream for ever),
- inside the scenario's *project*: the nearest folder above the scenario that holds `.git`
  (the repository checked out), or the scenario's own folder when no such folder exists, or a
  folder the user allows with `ADJUDICATE_ALLOW_PATHS` (folders separated by `os.pathsep`) or
  with the `allow` argument; symbolic links are followed first, so a link cannot lead outside,
- not hidden: no part of its path below the allowed folder starts with a dot (`.git/config`
  may hold a CI token; `.ssh`, `.env`).

The same holds for a house file's `varies:`, bounded as the file that named it was (a house file
named on the command line is bounded by its own project). Paths the user gives on the command line
(`--house FILE`, a rulebook to lint) are trusted as they are.

A file read this way that is not recognisably a rulebook or a house-rules file (no `code:` and
`laws:`, no `house:` and `varies:`) is refused in one line that quotes nothing of it.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Iterator

from msgspec import Struct

from adjudicate.errors import InputError, Pos, Problem, ScenarioError, did_you_mean, quote

if TYPE_CHECKING:
    from adjudicate.lawbook.rulebook import Rulebook

ALLOW_ENV = "ADJUDICATE_ALLOW_PATHS"
"""Folders (separated by os.pathsep) whose files any scenario may name, beyond its own project."""
SUFFIXES = (".yaml", ".yml")
PROJECT_MARKER = ".git"
"""A folder holding this (a folder, or a file in a git worktree) is the top of a project."""


class Boundary(Struct, frozen=True):
    """The folders a scenario's `code:` and `house:` may name files in (real paths, links resolved)."""

    project: str
    """The scenario's project: its nearest ancestor holding .git, or its own folder."""
    allowed: tuple[str, ...] = ()
    """More folders, from ADJUDICATE_ALLOW_PATHS and the caller."""

    @property
    def roots(self) -> tuple[str, ...]:
        return (self.project, *self.allowed)

    def root_of(self, real: str) -> str | None:
        """The allowed folder `real` (a real path) lies in, or None."""
        for root in self.roots:
            try:
                if os.path.commonpath([root, real]) == root:
                    return root
            except ValueError:  # another drive (Windows), or a relative path
                continue
        return None


@lru_cache(maxsize=256)
def project_of(folder: str) -> str:
    """The project a file in `folder` (a real path) belongs to: the nearest ancestor holding .git, or `folder`."""
    probe = folder
    while True:
        if os.path.lexists(os.path.join(probe, PROJECT_MARKER)):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return folder
        probe = parent


def allowed_folders(allow: Iterable[str] = ()) -> tuple[str, ...]:
    """The folders allowed beyond a scenario's project: ADJUDICATE_ALLOW_PATHS's, then `allow`'s, as real paths."""
    listed = [part for part in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if part.strip()]
    return tuple(dict.fromkeys(os.path.realpath(os.path.expanduser(path)) for path in (*listed, *allow)))


def boundary_for(path: str, allow: Iterable[str] = ()) -> Boundary:
    """The boundary of the files that the file at `path` (a scenario, a house file) may name.

    A scenario that is no file (`<stdin>`, `<text>`, `<mapping>`) names files from the working directory,
    bounded by its project; a file of that name in the working directory (a link, say) changes nothing.
    """
    if _unnamed(path):
        folder = os.path.realpath(os.getcwd())
    else:
        folder = os.path.dirname(os.path.realpath(path))
    return Boundary(project_of(folder), allowed_folders(allow))


def folder_boundary(folder: str) -> Boundary:
    """The boundary of every file in `folder` that is no symbolic link (`boundary_for` of any of them: its real
    path's folder is the folder's real path)."""
    return Boundary(project_of(os.path.realpath(folder)), allowed_folders())


def _unnamed(path: str) -> bool:
    return path.startswith("<") and path.endswith(">") and os.sep not in path and "/" not in path


def named_file(written: str, named_in: str, pos: Pos, key: str, boundary: Boundary,
               error: type[InputError] = ScenarioError) -> str:
    """The path of the file that `key: written` in the file `named_in` names, if the boundary admits it.

    Raises `error` at `pos` (the key's value) when the file is not a .yaml file, lies outside the
    boundary or in a hidden folder, does not exist, or is not a regular file.
    """
    def refuse(message: str) -> InputError:
        return error([Problem(pos, f"`{key}`: {quote(written)} {message}")])

    if not written.endswith(SUFFIXES):
        raise refuse("is not a .yaml or .yml file's path")
    path = os.path.join(os.path.dirname(named_in), written)
    real = os.path.realpath(path)
    if _NAMED is not None:
        _NAMED.append((path, real, False))
    root = boundary.root_of(real)
    if root is None:
        naming = "the scenario" if error is ScenarioError else "the file"
        raise refuse(f"is outside the project of {naming}, {boundary.project} (the nearest folder above it holding "
                     f".git, or else its own folder); a file elsewhere is read only if {ALLOW_ENV} names its folder")
    if any(part.startswith(".") for part in os.path.relpath(real, root).split(os.sep)):
        raise refuse("is in a hidden folder or is a hidden file: a scenario may not name one")
    try:
        mode = os.stat(real).st_mode
    except OSError:
        raise refuse(f"is not a file (looked for {path})") from None
    if not stat.S_ISREG(mode):
        from adjudicate.record.yamlsource import file_kind

        raise refuse("is a folder, not a file" if stat.S_ISDIR(mode) else f"is {file_kind(mode)}, not a regular file; "
                                                                            "refused")
    # Named in messages as short as it can be (`rulebooks/x.yaml`, not `scenarios/euchre/../../rulebooks/x.yaml`),
    # so long as the shorter path is the same file (`..` after a link is not where it seems).
    shown = os.path.normpath(path)
    if _NAMED is not None:
        _NAMED[-1] = (path, real, True)
    return shown if os.path.realpath(shown) == real else real


# --- the files named, recorded for check's result cache (adjudicate/checking/resultcache.py) and for the
# houses a process keeps applied (adjudicate/lawbook/house.py) ------------------------------------------

Named = tuple[str, str, bool]
"""A file named: the path as joined, its real path, and whether it passed every check above (and so was read)."""

_NAMED: list[Named] | None = None
"""While recording (`recording_named`): each file named by a scenario, or by a house file it names."""


@contextmanager
def recording_named() -> Iterator[list[Named]]:
    """Record the files named inside the `with` into the list given; an outer recording gets them too."""
    global _NAMED
    outer = _NAMED
    recorded: list[Named] = []
    _NAMED = recorded
    try:
        yield recorded
    finally:
        _NAMED = outer
        if outer is not None:
            outer.extend(recorded)


def named_again(files: Iterable[Named]) -> None:
    """Record again the files a house file named when its rulebook was applied earlier in this process (kept
    applied by `adjudicate.lawbook.house`): a scenario ruled under it depends on them all the same."""
    if _NAMED is not None:
        _NAMED.extend(files)
