"""Across laws and codes: what cites a law, and which laws of the other codes are about the same thing."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Iterator

from msgspec import Struct

from adjudicate.errors import UsageError
from adjudicate.lawbook.rulebook import Clause, Law, Note, Rulebook
from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook, unknown_code


# --- across laws and codes ----------------------------------------------------

class Citation(Struct, frozen=True):
    """One law citing another: which law, by what ref, and whether in a note."""

    law: Law
    """The law that cites."""
    ref: str
    """The ref as written: "72" or "72.V"."""
    note: Note | None
    """The note the ref stands in, or None when the law's own text cites it."""


class Library:
    """Several codes' rulebooks together: lookup by "code:id", citations, counterparts."""

    def __init__(self, rulebooks: Iterable[Rulebook]):
        self.rulebooks: dict[str, Rulebook] = {rb.code: rb for rb in sorted(rulebooks, key=lambda r: r.code)}
        """The rulebooks by code id, sorted by code."""
        self._cited: dict[tuple[str, str], list[Citation]] | None = None
        self._subjects: dict[str, list[Law]] | None = None

    @classmethod
    def builtin(cls) -> "Library":
        """Every built-in code (loaded once)."""
        return builtin_library()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(self.rulebooks)

    def __getitem__(self, code: str) -> Rulebook:
        try:
            return self.rulebooks[code]
        except KeyError:
            raise unknown_code(code, self.rulebooks) from None

    def laws(self) -> Iterator[Law]:
        """Every law of every code, code by code."""
        for rulebook in self.rulebooks.values():
            yield from rulebook.laws

    def lookup(self, code: str, ref: str) -> tuple[Law, Clause | None]:
        """The law (and clause) `ref` of `code`; a `UsageError` with a did-you-mean if none."""
        return self[code.strip().lower()].resolve(ref)

    def with_id(self, ref: str) -> list[tuple[Law, Clause | None]]:
        """In every code that has it, the law (and clause) with this id."""
        found = []
        for rulebook in self.rulebooks.values():
            try:
                found.append(rulebook.resolve(ref))
            except UsageError:
                continue
        return found

    def cited_by(self, law: Law) -> tuple[Citation, ...]:
        """What cites this law or one of its clauses, in its code's text and notes, in law order."""
        if self._cited is None:
            cited: dict[tuple[str, str], list[Citation]] = {}
            for other in self.laws():
                for ref, note in other.all_refs():
                    cited.setdefault((other.code, ref.partition(".")[0]), []).append(Citation(other, ref, note))
            self._cited = cited
        return tuple(self._cited.get((law.code, law.id), ()))

    def counterparts(self, law: Law) -> tuple[Law, ...]:
        """Laws of the other codes sharing a subject with this one, by code then number."""
        if self._subjects is None:
            subjects: dict[str, list[Law]] = {}
            for other in self.laws():
                for subject in other.subjects:
                    subjects.setdefault(subject, []).append(other)
            self._subjects = subjects
        found = {(other.code, other.number): other
                 for subject in law.subjects for other in self._subjects.get(subject, ())
                 if other.code != law.code}
        return tuple(found[key] for key in sorted(found))


@lru_cache(maxsize=1)
def builtin_library() -> Library:
    """A `Library` of every built-in code, loaded once."""
    return Library(builtin_rulebook(code) for code in builtin_codes())
