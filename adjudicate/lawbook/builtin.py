"""The codes shipped inside the package: their ids, their files, and each read once (from the cache of
parsed rulebooks where it holds).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from adjudicate.errors import Pos, Problem, RulebookError, UsageError, did_you_mean
from adjudicate.lawbook.rulebook import Rulebook, SourceFile, with_sources
from adjudicate.lawbook.cache import cached_rulebook, store_rulebook
from adjudicate.lawbook.reader import parse_rulebook


# --- the built-in codes ---------------------------------------------------------

def _builtin_dir() -> Path:
    # The rulebooks ship as plain files beside the modules (package data); a zipped install is not supported.
    return Path(__file__).resolve().parent.parent / "rulebooks"


@lru_cache(maxsize=1)
def builtin_codes() -> tuple[str, ...]:
    """The ids of the codes shipped inside the package, sorted."""
    folder = _builtin_dir()
    return tuple(sorted(entry.name[: -len(".yaml")] for entry in folder.iterdir()
                        if entry.name.endswith(".yaml") and entry.is_file()))


def builtin_paths() -> list[str]:
    """The files of the built-in rulebooks, in code order (for `adjudicate lint` with no files)."""
    return [str(_builtin_dir() / f"{code}.yaml") for code in builtin_codes()]


def unknown_code(code: str, codes: Iterable[str]) -> UsageError:
    """The error for a code that is not among `codes`."""
    codes = sorted(codes)
    return UsageError(f"unknown code {code!r}{did_you_mean(code, codes)}; "
                      f"the codes are: {', '.join(codes) or 'none'}")


@lru_cache(maxsize=None)
def builtin_rulebook(code: str) -> Rulebook:
    """The built-in rulebook for a code id, loaded once; a `UsageError` if there is none."""
    if code not in builtin_codes():
        raise unknown_code(code, builtin_codes())
    resource = _builtin_dir() / f"{code}.yaml"
    data = resource.read_bytes()
    rulebook = cached_rulebook(code, data)
    if rulebook is None:
        rulebook = parse_rulebook(data.decode("utf-8"), str(resource))
        store_rulebook(code, data, rulebook)
    if rulebook.code != code:
        raise RulebookError([Problem(Pos(str(resource), 1, 1),
                                     f"the file {code}.yaml holds the code {rulebook.code!r}; "
                                     "a built-in rulebook is named after its code")])
    return with_sources(rulebook, (SourceFile("code", code, code, data),))
