"""Rulebooks: a code's numbered laws, verbatim, each with where it stood in its file.

A rulebook is one YAML file per code (docs/rulebook-format.md): this module holds its records (`Law`,
`Clause`, `Note`, `Rulebook`) and the text helpers they share. `reader.load_rulebook` reads one with every
check; `builtin.builtin_rulebook` loads the codes shipped inside the package (through `cache`);
`library.Library` answers the questions that cross laws and codes.
"""

from __future__ import annotations

import os
import re
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from msgspec import Struct

from adjudicate.record.cards import Pack, Rank
from adjudicate.lawbook.conditions import Condition, parse_condition
from adjudicate.lawbook.defeats import Defeat, defeat_problems, parse_defeats
from adjudicate.lawbook.provisos import Proviso
from adjudicate.lawbook.remedies import Declaration, Remedy, parse_remedies, parse_rulings
from adjudicate.lawbook.games import Game
from adjudicate.errors import InputError, Pos, Problem, RulebookError, UsageError, did_you_mean
from adjudicate.record.yamlsource import Node, parse_yaml, read_yaml_source

KINDS = ("definition", "scoring", "procedure", "penalty", "ruling", "etiquette")
"""What a law may be (docs/rulebook-format.md, `kind`)."""
FAMILIES = ("whist", "euchre")
"""The families of games a rulebook may govern."""
RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
"""Every rank a pack may hold, highest first."""

# Patterns as text, compiled (and kept) by `re` when first used: most runs load rulebooks from the
# cache and never use them.
_CODE = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"
_LAW_ID = r"[0-9]+"
_CLAUSE_ID = r"[IVXLC]+"
_REF = r"([0-9]+)(?:\.([IVXLC]+))?"
_SUBJECT = r"[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)*"
_FOOTNOTE_MARK = r"\[([0-9]+)\]"
_CLAUSE_LINE = r"\s*[IVXLC]+\.\s"
# "Law 27", "Rule 32", "Laws 45 and 50": a citation the refs must list
_CITATION = r"\b(?:Laws?|Rules?)\s+([0-9]+(?:\s*(?:,|and|or|to|-|–)\s*[0-9]+)*)"


# --- text --------------------------------------------------------------------

def paragraphs(text: str) -> tuple[str, ...]:
    """The verbatim, line-broken text as paragraphs, each on one line.

    Lines are joined within a paragraph; a blank line ends one, and a line that
    opens with a Roman numeral ("I. Two or more cards played at once.") starts
    its own, as the source sets its clauses apart.
    """
    result: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or (re.match(_CLAUSE_LINE, line) and current):
            if current:
                result.append(" ".join(current))
            current = [stripped] if stripped else []
            continue
        current.append(stripped)
    if current:
        result.append(" ".join(current))
    return tuple(result)


def reflow(text: str, width: int | None = None) -> str:
    """The text as paragraphs separated by blank lines, wrapped to `width` if given.

    A clause paragraph ("IV. Cannot be divided ...") wraps with a hanging indent.
    """
    paras = paragraphs(text)
    if width is None:
        return "\n\n".join(paras)
    import textwrap

    out = []
    for para in paras:
        match = re.match(_CLAUSE_LINE, para)
        indent = " " * (len(match.group(0)) if match else 0)
        out.append(textwrap.fill(para, width=width, subsequent_indent=indent,
                                 break_long_words=False, break_on_hyphens=False))
    return "\n\n".join(out)


def law_sort_key(ref: str) -> tuple[int, str, str]:
    """Orders law ids and refs numerically: "9" < "10" < "72" < "72.I"; a house's "H1" after them."""
    number, _, rest = ref.partition(".")
    return (int(number) if number.isdigit() and number.isascii() else 1 << 30, rest, ref)


# --- the records ----------------------------------------------------------------

class Clause(Struct, frozen=True):
    """A numbered sub-clause of a law, addressable as LAW.CLAUSE ("72.V")."""

    id: str
    """The clause's Roman numeral as printed: "V"."""
    law: str
    """The id of the law it belongs to: "72"."""
    text: str
    """The clause's text, verbatim, line breaks kept, without its numeral."""
    pos: Pos
    """Where the clause's record starts in the rulebook file."""

    @property
    def ref(self) -> str:
        """The clause's address within its code: "72.V"."""
        return f"{self.law}.{self.id}"

    def reflowed(self, width: int | None = None) -> str:
        """The text as paragraphs for display (see `reflow`)."""
        return reflow(self.text, width)


class Note(Struct, frozen=True):
    """A footnote to a law, kept with the law it annotates (Cavendish's, in Short Whist)."""

    mark: str
    """The footnote's number in the source: "32" for the marker [32] in the law's text."""
    by: str
    """Whose note it is: "Cavendish". Notes are his, not the law's."""
    text: str
    """The note's text, verbatim, line breaks kept."""
    refs: tuple[str, ...]
    """Ids of the laws (or clauses) the note cites, in the note's own code."""
    pos: Pos
    """Where the note's record starts in the rulebook file."""

    def reflowed(self, width: int | None = None) -> str:
        """The text as paragraphs for display (see `reflow`)."""
        return reflow(self.text, width)


class BecauseWhen(Struct, frozen=True):
    """A law's reason for one way it applies: said in place of its `because` where `when` holds."""

    when: Condition
    because: str


class Law(Struct, frozen=True):
    """One numbered law of a code: its verbatim text and what we know about it."""

    id: str
    """The law's number as a string: "63"."""
    code: str
    """The id of the code it belongs to: "euchre"."""
    section: str
    """The heading it stands under in the source: "The Revoke"."""
    title: str
    """A short title of ours: "The penalty for a revoke"."""
    kind: str
    """One of `KINDS`: definition, scoring, procedure, penalty, ruling, etiquette."""
    subjects: tuple[str, ...]
    """Dotted subjects ("revoke.penalty"); laws of different codes sharing one are counterparts."""
    refs: tuple[str, ...]
    """Ids of the laws or clauses its text cites ("27", "44.IV"), in this code."""
    text: str
    """The law's text, verbatim from the source, line breaks kept, without its number."""
    clauses: tuple[Clause, ...]
    """Its numbered sub-clauses, in order; empty for most laws."""
    notes: tuple[Note, ...]
    """Footnotes on it, in order; empty for most laws."""
    pos: Pos
    """Where the law's record starts in the rulebook file."""
    condition: Condition | None = None
    """When the law applies to a hand (conditions.py); None for a law no hand can trigger."""
    remedies: tuple[Remedy, ...] = ()
    """What each side may then choose."""
    rulings: tuple[Declaration, ...] = ()
    """What the law declares so when it applies."""
    because: str | None = None
    """Why it applies, in our words, read before the facts' own sentence."""
    because_when: tuple[BecauseWhen, ...] = ()
    """Reasons said in place of `because` where their `when` holds, the first that does (Euchre 2: the hands
    abandoned under law 49, not played out)."""
    defeats: tuple[Defeat, ...] = ()
    """The laws (or their remedies or rulings) this law defeats when it applies (defeats.py)."""
    context: bool = False
    """The law only describes a lawful act (the second hand may assist): when it applies it is context
    for the ruling, listed apart from the laws that decide the dispute."""
    provisos: tuple[Proviso, ...] = ()
    """Its clauses that limit it, quoted, each with what on the record encodes it (provisos.py); the law
    audit (docs/law-audit.md) is made of them."""
    no_condition: str | None = None
    """Why a law that decides has no condition: in one line, what no record can raise."""

    @property
    def ref(self) -> str:
        """The law's address across codes: "euchre:63"."""
        return f"{self.code}:{self.id}"

    @property
    def number(self) -> int:
        """The law's number as a number, for ordering (a house's added laws, "H1", after the code's)."""
        if self.id.isdigit():
            return int(self.id)
        digits = "".join(ch for ch in self.id if ch.isdigit())
        return 100_000 + int(digits or 0)

    def clause(self, clause_id: str) -> Clause | None:
        """The clause with this numeral, or None."""
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        return None

    def paragraphs(self) -> tuple[str, ...]:
        """The text as paragraphs, each on one line (see `paragraphs`)."""
        return paragraphs(self.text)

    def reflowed(self, width: int | None = None) -> str:
        """The text as paragraphs for display, wrapped to `width` if given."""
        return reflow(self.text, width)

    def all_refs(self) -> Iterator[tuple[str, Note | None]]:
        """Every ref of the law: its text's, then each note's (with the note)."""
        for ref in self.refs:
            yield ref, None
        for note in self.notes:
            for ref in note.refs:
                yield ref, note

    def record(self) -> dict[str, Any]:
        """The law as plain data, for JSON: `clauses` and `notes` only where present."""
        data: dict[str, Any] = {
            "id": self.id,
            "code": self.code,
            "section": self.section,
            "title": self.title,
            "kind": self.kind,
            "subjects": list(self.subjects),
            "text": self.text,
            "refs": list(self.refs),
        }
        if self.clauses:
            data["clauses"] = [{"id": c.id, "text": c.text} for c in self.clauses]
        if self.notes:
            data["notes"] = [{"mark": n.mark, "by": n.by, "text": n.text, "refs": list(n.refs)}
                             for n in self.notes]
        return data


class Metadata(Struct, frozen=True):
    """Where a code comes from: the bibliographic facts of its source."""

    authors: tuple[str, ...] = ()
    """Who wrote the laws."""
    annotator: str | None = None
    """Whose footnotes the notes are, if any: "Cavendish"."""
    club: str | None = None
    """The club that adopted the code."""
    year: int | None = None
    """The year the code was adopted."""
    edition: str | None = None
    """The edition the text was taken from."""
    source: str | None = None
    """The file or book the text was copied from."""
    note: str | None = None
    """A remark on the rulebook as a whole: what it leaves out, what it keeps as printed."""


class SourceFile(Struct, frozen=True):
    """A file a rulebook was built from, its bytes as read: what the ruling record's digests are of."""

    kind: str
    """`code` (a rulebook file, built in or not) or `house` (a house-rules file)."""
    id: str
    """The code's id, or the house's (`house:` in its file)."""
    name: str
    """The file as it was named: a built-in id, or its path (`varies:` as written, for a house built on)."""
    data: bytes


def sources_of(rulebook: "Rulebook") -> tuple[SourceFile, ...]:
    """The files a rulebook was built from: its house files, the outermost first, then its code's file.

    Kept beside the rulebook's fields (never in the cache), by the loaders that read the bytes anyway.
    """
    return rulebook.__dict__.get("_sources", ())


def with_sources(rulebook: "Rulebook", sources: tuple[SourceFile, ...]) -> "Rulebook":
    rulebook.__dict__["_sources"] = sources
    return rulebook


class Rulebook(Struct, frozen=True, dict=True):
    """A code's laws in the source's order, with lookup by id ("63") or clause ("72.V")."""

    code: str
    """The code id used on the command line: "short-whist"."""
    title: str
    """The code's full title."""
    metadata: Metadata
    """Authors, club, year, edition, source."""
    game: Game
    """The pack, the hand and the game as this code plays them."""
    laws: tuple[Law, ...]
    """Every law, in the order of the file (the source's)."""
    path: str
    """The file it was loaded from, as named."""

    @cached_property
    def _by_id(self) -> dict[str, Law]:
        return {law.id: law for law in self.laws}

    def __len__(self) -> int:
        return len(self.laws)

    def __iter__(self) -> Iterator[Law]:
        return iter(self.laws)

    def __contains__(self, ref: object) -> bool:
        return isinstance(ref, str) and self.get(ref) is not None

    def get(self, ref: str) -> Law | Clause | None:
        """The law ("63") or clause ("72.V") with this id, or None."""
        law_id, _, clause_id = ref.partition(".")
        law = self._by_id.get(law_id)
        if law is None or not clause_id:
            return law
        return law.clause(clause_id)

    def resolve(self, ref: str) -> tuple[Law, Clause | None]:
        """The law and, for "72.V", the clause; a `UsageError` naming what exists if not found."""
        law_id, dot, clause_id = ref.strip().partition(".")
        law = self._by_id.get(law_id)
        if law is None:
            ids = [law.id for law in self.laws]
            span = f"its laws are {ids[0]}–{ids[-1]}" if ids else "it has no laws"
            raise UsageError(f"{self.code} has no law {law_id!r}{did_you_mean(law_id, ids)} ({span})")
        if not dot:
            return law, None
        clause = law.clause(clause_id.upper())
        if clause is None:
            if not law.clauses:
                raise UsageError(f"{law.ref} has no clauses")
            names = [c.id for c in law.clauses]
            raise UsageError(f"{law.ref} has no clause {clause_id!r}{did_you_mean(clause_id.upper(), names)}"
                             f" (its clauses are {', '.join(names)})")
        return law, clause

    def law(self, law_id: str) -> Law:
        """The law with this id; a `UsageError` with a did-you-mean if there is none."""
        return self.resolve(law_id.partition(".")[0])[0]
