"""Rulebooks: a code's numbered laws, verbatim, each with where it stood in its file.

A rulebook is one YAML file per code (docs/rulebook-format.md). `load_rulebook`
reads one with every check and either returns a `Rulebook` or raises one
`RulebookError` holding every problem it found, each with file:line:col.
`builtin_rulebook` loads the codes shipped inside the package; `Library` holds
them all and answers the questions that cross laws: what cites this law, and
which laws of the other codes are about the same thing.
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
    defeats: tuple[Defeat, ...] = ()
    """The laws (or their remedies or rulings) this law defeats when it applies (defeats.py)."""
    context: bool = False
    """The law only describes a lawful act (the second hand may assist): when it applies it is context
    for the ruling, listed apart from the laws that decide the dispute."""

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


# --- reading -----------------------------------------------------------------------

class _Reader:
    """Reads one rulebook's node tree, collecting every problem instead of stopping at the first."""

    def __init__(self, path: str):
        self.path = path
        self.problems: list[Problem] = []
        self.code = "?"
        # (ref, where it was written, the law citing it) checked once every law is known
        self.pending_refs: list[tuple[str, Pos, str]] = []
        # every law id met, even of laws that failed to load (so as not to report refs to them)
        self.seen_ids: set[str] = set()

    def problem(self, pos: Pos, message: str) -> None:
        self.problems.append(Problem(pos, message))

    def attempt(self, read: Callable[[], Any]) -> Any:
        """Run one read; an InputError becomes problems and the result None."""
        try:
            return read()
        except InputError as error:
            self.problems.extend(error.problems)
            return None

    def keys(self, node: Node, what: str, fields: dict[str, Any]) -> None:
        required = tuple(key for key, (needed, _) in fields.items() if needed)
        self.attempt(lambda: node.check_keys(what, frozenset(fields), required))

    # --- small values -----------------------------------------------------
    def nonempty(self, node: Node, what: str) -> str:
        value = node.text(what)
        if not value.strip():
            raise node.error(f"{what} is empty")
        return value

    def text_list(self, node: Node, what: str, pattern: str | None = None,
                  expected: str = "") -> tuple[str, ...]:
        node.expect_seq(what)
        values: list[str] = []
        seen: dict[str, Pos] = {}
        for element in node.elements():
            value = self.attempt(lambda: element.text(f"each of {what}"))
            if value is None:
                continue
            value = value.strip()
            if pattern is not None and not re.fullmatch(pattern, value):
                self.problem(element.pos, f"{value!r} in {what} is not {expected}")
                continue
            if value in seen:
                self.problem(element.pos, f"{value!r} is listed twice in {what} "
                                          f"(first at line {seen[value].line})")
                continue
            seen[value] = element.pos
            values.append(value)
        return tuple(values)

    def refs(self, node: Node, what: str, citing: str) -> tuple[str, ...]:
        refs = self.text_list(node, what, _REF, 'a law id like "27" or a clause like "44.IV"')
        positions = {str(e.value).strip(): e.pos for e in node.elements() if e.is_scalar()}
        for ref in refs:
            self.pending_refs.append((ref, positions.get(ref, node.pos), citing))
        return refs

    # --- the file ---------------------------------------------------------------
    def rulebook(self, root: Node) -> Rulebook | None:
        if not root.is_map():
            raise root.error(f"a rulebook should be a mapping of keys to values, not {root.shape()}")
        if root.value and frozenset(_TOP_FIELDS).isdisjoint(root.value):  # type: ignore[arg-type]
            # Some other YAML file: its keys are its content, and are not quoted.
            raise root.error(f"not a rulebook: none of the {len(root.value):,} keys of this mapping is a "  # type: ignore[arg-type]
                             f"rulebook's ({', '.join(_TOP_FIELDS)})")
        self.keys(root, "the rulebook", _TOP_FIELDS)
        values: dict[str, Any] = {}
        for key, (required, read) in _TOP_FIELDS.items():
            node = root.get(key)
            if node is not None and not (node.is_null() and not required):  # null: not known
                values[key] = self.attempt(lambda: read(self, node))
        if values.get("code"):
            self.code = values["code"]
        laws_node = root.get("laws")
        laws = self.attempt(lambda: self.laws(laws_node)) if laws_node is not None else None
        self.check_refs(laws or ())
        self.problems.extend(defeat_problems(laws or ()))
        if self.problems or laws is None:
            return None
        meta = Metadata(**{k: values[k] for k in _META_KEYS if values.get(k) is not None})
        return Rulebook(values["code"], values["title"], meta, values["game"], tuple(laws), self.path)

    def game(self, node: Node) -> Game | None:
        node.expect_map("game")
        self.keys(node, "game", _GAME_FIELDS)
        values = {}
        for key, (_, read) in _GAME_FIELDS.items():
            child = node.get(key)
            if child is not None:
                values[key] = self.attempt(lambda: read(self, child))
        if any(values.get(key) is None for key in _GAME_FIELDS):
            return None
        ranks, hand = values["ranks"], values["hand_size"]
        if len(ranks) * 4 < hand * 4:
            self.problem(node.pos, f"a pack of {len(ranks) * 4} cards cannot deal {hand} to each of four players")
            return None
        return Game(values["family"], Pack(tuple(Rank.parse(rank) for rank in ranks)), hand, values["game_points"])

    def laws(self, node: Node) -> tuple[Law, ...]:
        node.expect_seq("laws")
        laws: list[Law] = []
        first: dict[str, Pos] = {}
        marks: dict[str, Pos] = {}
        previous: Law | None = None
        for element in node.elements():
            law = self.attempt(lambda: self.law(element))
            if law is None:
                continue
            if law.id in first:
                self.problem(law.pos, f"duplicate law id {law.id!r} (first at line {first[law.id].line})")
                continue
            first[law.id] = law.pos
            if previous is not None and law.number < previous.number:
                self.problem(law.pos, f"law {law.id} comes after law {previous.id}: "
                                      "laws should stand in the source's order")
            previous = law
            for note in law.notes:
                if note.mark in marks:
                    self.problem(note.pos, f"note [{note.mark}] is given twice "
                                           f"(first at line {marks[note.mark].line})")
                marks.setdefault(note.mark, note.pos)
            laws.append(law)
        return tuple(laws)

    def law(self, node: Node) -> Law | None:
        node.expect_map("a law")
        id_node = node.get("id")
        law_id = self.attempt(lambda: _law_id(self, id_node)) if id_node is not None else None
        if law_id is not None:
            self.seen_ids.add(law_id)
        # how messages name the law: its id, or as much of one as there is
        if law_id is None and id_node is not None and id_node.is_scalar() and not id_node.is_null():
            label = str(id_node.value).strip()
        else:
            label = law_id or f"at line {node.pos.line}"
        self.keys(node, f"law {label}", _LAW_FIELDS)
        before = len(self.problems)
        values: dict[str, Any] = {"id": law_id}
        for key, (_, read) in _LAW_FIELDS.items():
            child = node.get(key)
            if key != "id" and child is not None:
                values[key] = self.attempt(lambda: read(self, child, label))
        if any(values.get(key) is None for key, (required, _) in _LAW_FIELDS.items() if required):
            return None
        values["clauses"] = values.get("clauses") or ()
        values["notes"] = values.get("notes") or ()
        values["remedies"] = values.get("remedies") or ()
        values["rulings"] = values.get("rulings") or ()
        values["defeats"] = values.get("defeats") or ()
        values["context"] = bool(values.get("context"))
        if (values["remedies"] or values["rulings"]) and values.get("condition") is None and node.get("condition") is None:
            self.problem(node.pos, f"law {label} has remedies or rulings but no condition saying when it applies")
        if values.get("kind") == "scoring" and values["remedies"]:
            self.problem(node.get("remedies").pos,  # type: ignore[union-attr]
                         f"law {label} is a scoring law: the hand's own points are the score section's, counted "
                         "once (a house changes them with `parameters.scores`), so it takes no remedies")
        law = Law(code=self.code, pos=node.pos, **values)
        self.check_marks(law, node)
        self.check_citations(law, node)
        self.check_clauses(law)
        return None if len(self.problems) > before else law

    def clause(self, node: Node, law_id: str) -> Clause:
        node.expect_map(f"a clause of law {law_id}")
        self.keys(node, f"a clause of law {law_id}", _CLAUSE_FIELDS)
        id_node, text_node = node.get("id"), node.get("text")
        clause_id = self.attempt(lambda: _clause_id(id_node)) if id_node is not None else None
        text = self.attempt(lambda: self.nonempty(text_node, f"the text of clause {law_id}.{clause_id}")) \
            if text_node is not None else None
        if clause_id is None or text is None:
            raise InputError([])
        return Clause(clause_id, law_id, text, node.pos)

    def note(self, node: Node, law_id: str) -> Note:
        node.expect_map(f"a note on law {law_id}")
        self.keys(node, f"a note on law {law_id}", _NOTE_FIELDS)
        got: dict[str, Any] = {}
        for key in ("mark", "by", "text"):
            child = node.get(key)
            if child is not None:
                got[key] = self.attempt(lambda: self.nonempty(child, f"the {key} of a note on law {law_id}"))
        mark = got.get("mark")
        if mark is not None and not re.fullmatch(_LAW_ID, mark.strip()):
            self.problem(node.get("mark").pos, f"a note's mark should be its footnote number, like \"32\", "  # type: ignore[union-attr]
                                               f"not {mark!r}")
            mark = None
        refs_node = node.get("refs")
        refs = self.attempt(lambda: self.refs(refs_node, f"the refs of note [{mark}]", law_id)) \
            if refs_node is not None else ()
        if mark is None or got.get("by") is None or got.get("text") is None or refs is None:
            raise InputError([])
        return Note(mark.strip(), got["by"].strip(), got["text"], refs, node.pos)

    def check_marks(self, law: Law, node: Node) -> None:
        """Each note's marker ([32]) stands in the text or a clause; each marker has its note."""
        printed = set(re.findall(_FOOTNOTE_MARK, law.text))
        for clause in law.clauses:
            printed.update(re.findall(_FOOTNOTE_MARK, clause.text))
        marks = {note.mark for note in law.notes}
        for note in law.notes:
            if note.mark not in printed:
                self.problem(note.pos, f"note [{note.mark}] is not marked in the text of law {law.id} "
                                       "or its clauses")
        for mark in sorted(printed - marks, key=int):
            self.problem(node.get("text").pos,  # type: ignore[union-attr]
                         f"the text of law {law.id} marks footnote [{mark}], but the law has no note [{mark}]")

    def check_clauses(self, law: Law) -> None:
        """The text is the whole law as printed, so each clause stands in it after its numeral."""
        whole = " ".join(law.text.split())
        for clause in law.clauses:
            if f"{clause.id}. {' '.join(clause.text.split())}" not in whole:
                self.problem(clause.pos, f"clause {clause.ref} is not in the text of law {law.id} "
                                         f"as \"{clause.id}. \" and the clause's text (line breaks aside)")

    def check_citations(self, law: Law, node: Node) -> None:
        """A law the text (or a note) cites by number ("Rule 32", "_Vide_ Law 72") is in its refs."""
        texts: list[tuple[str, tuple[str, ...], Pos, str]] = [
            (law.text + "\n" + "\n".join(c.text for c in law.clauses), law.refs,
             node.get("refs").pos, f"law {law.id}")]  # type: ignore[union-attr]
        texts += [(note.text, note.refs, note.pos, f"note [{note.mark}]") for note in law.notes]
        for text, refs, pos, what in texts:
            listed = {ref.partition(".")[0] for ref in refs}
            for match in re.finditer(_CITATION, text):
                for number in re.findall(r"[0-9]+", match.group(1)):
                    if number not in listed:
                        self.problem(pos, f"{what} cites law {number} ({match.group(0).strip()!r}), "
                                          f"but its refs do not list {number!r}")

    def check_refs(self, laws: Iterable[Law]) -> None:
        """Every ref names a law, or a clause of a law, of this rulebook."""
        by_id = {law.id: law for law in laws}
        for ref, pos, citing in self.pending_refs:
            law_id, _, clause_id = ref.partition(".")
            law = by_id.get(law_id)
            if law is None and law_id in self.seen_ids:
                continue  # the law is there but has problems of its own
            if law is None:
                self.problem(pos, f"law {citing} cites law {law_id}, which is not in this rulebook"
                                  f"{did_you_mean(law_id, by_id)}")
            elif clause_id and law.clause(clause_id) is None:
                names = ", ".join(c.id for c in law.clauses)
                self.problem(pos, f"law {citing} cites {ref}, but law {law_id} has "
                                  + (f"no clause {clause_id} (its clauses are {names})" if names else "no clauses"))


def _law_id(reader: _Reader, node: Node) -> str:
    value = node.text("a law's id").strip()
    if not re.fullmatch(_LAW_ID, value):
        raise node.error(f'a law\'s id should be its number as a string, like "63", not {value!r}')
    return value


def _clause_id(node: Node) -> str:
    value = node.text("a clause's id").strip()
    if not re.fullmatch(_CLAUSE_ID, value):
        raise node.error(f'a clause\'s id should be its Roman numeral, like "IV", not {value!r}')
    return value


def _one_of(node: Node, what: str, choices: tuple[str, ...]) -> str:
    value = node.text(what).strip()
    if value not in choices:
        raise node.error(f"{what} {value!r} is not one of: {', '.join(choices)}{did_you_mean(value, choices)}")
    return value


def _positive(node: Node, what: str) -> int:
    value = node.integer(what)
    if value <= 0:
        raise node.error(f"{what} should be more than 0, not {value}")
    return value


def _code(reader: _Reader, node: Node) -> str:
    value = node.text("the code").strip()
    if not re.fullmatch(_CODE, value):
        raise node.error(f"the code should be a short id in lower case, like \"short-whist\", not {value!r}")
    return value


def _subjects(reader: _Reader, node: Node, law_id: str) -> tuple[str, ...]:
    values = reader.text_list(node, f"the subjects of law {law_id}", _SUBJECT,
                              'a dotted subject in lower case, like "revoke.penalty"')
    if not values and not node.elements():
        raise node.error(f"law {law_id} needs at least one subject")
    return values


def _seq_of(name: str, read: Callable[[_Reader, Node, str], Any]) -> Callable[[_Reader, Node, str], tuple[Any, ...]]:
    def read_all(reader: _Reader, node: Node, law_id: str) -> tuple[Any, ...]:
        node.expect_seq(f"the {name} of law {law_id}")
        items = [reader.attempt(lambda: read(reader, element, law_id)) for element in node.elements()]
        if any(item is None for item in items):
            raise InputError([])
        return tuple(items)
    return read_all


def _clauses(reader: _Reader, node: Node, law_id: str) -> tuple[Clause, ...]:
    clauses: tuple[Clause, ...] = _seq_of("clauses", lambda r, n, i: r.clause(n, i))(reader, node, law_id)
    seen: dict[str, Pos] = {}
    for clause in clauses:
        if clause.id in seen:
            reader.problem(clause.pos, f"duplicate clause {law_id}.{clause.id} (first at line {seen[clause.id].line})")
        seen.setdefault(clause.id, clause.pos)
    return clauses


# One row per key a record may have: (required?, how to read it). The matcher's
def _condition(reader: Any, node: Node, law_id: str) -> Condition:
    return parse_condition(node, f"the condition of law {law_id}")


_LAW_FIELDS: dict[str, tuple[bool, Callable[..., Any]]] = {
    "id": (True, _law_id),
    "section": (True, lambda r, n, i: r.nonempty(n, f"the section of law {i}").strip()),
    "title": (True, lambda r, n, i: r.nonempty(n, f"the title of law {i}").strip()),
    "kind": (True, lambda r, n, i: _one_of(n, f"the kind of law {i}", KINDS)),
    "subjects": (True, _subjects),
    "refs": (True, lambda r, n, i: r.refs(n, f"the refs of law {i}", i)),
    "text": (True, lambda r, n, i: r.nonempty(n, f"the text of law {i}")),
    "clauses": (False, _clauses),
    "notes": (False, _seq_of("notes", lambda r, n, i: r.note(n, i))),
    "condition": (False, _condition),
    "remedies": (False, lambda r, n, i: parse_remedies(n, i)),
    "rulings": (False, lambda r, n, i: parse_rulings(n, i)),
    "because": (False, lambda r, n, i: " ".join(r.nonempty(n, f"the because of law {i}").split())),
    "defeats": (False, lambda r, n, i: parse_defeats(n, i, r.pending_refs)),
    "context": (False, lambda r, n, i: n.boolean(f"the context of law {i}")),
}
_CLAUSE_FIELDS: dict[str, tuple[bool, Any]] = {"id": (True, None), "text": (True, None)}
_NOTE_FIELDS: dict[str, tuple[bool, Any]] = {"mark": (True, None), "by": (True, None), "text": (True, None),
                                             "refs": (False, None)}
_GAME_FIELDS: dict[str, tuple[bool, Callable[..., Any]]] = {
    "family": (True, lambda r, n: _one_of(n, "game.family", FAMILIES)),
    "ranks": (True, lambda r, n: r.text_list(n, "game.ranks", "|".join(RANKS),
                                             f"a rank ({' '.join(RANKS)}; ten is T)")),
    "hand_size": (True, lambda r, n: _positive(n, "game.hand_size")),
    "game_points": (True, lambda r, n: _positive(n, "game.game_points")),
}
_META_KEYS = ("authors", "annotator", "club", "year", "edition", "source", "note")
_TOP_FIELDS: dict[str, tuple[bool, Callable[..., Any]]] = {
    "code": (True, _code),
    "title": (True, lambda r, n: r.nonempty(n, "the rulebook's title").strip()),
    "authors": (False, lambda r, n: r.text_list(n, "authors")),
    "annotator": (False, lambda r, n: r.nonempty(n, "annotator").strip()),
    "club": (False, lambda r, n: r.nonempty(n, "club").strip()),
    "year": (False, lambda r, n: n.integer("year")),
    "edition": (False, lambda r, n: r.nonempty(n, "edition").strip()),
    "source": (False, lambda r, n: r.nonempty(n, "source").strip()),
    "note": (False, lambda r, n: r.nonempty(n, "the rulebook's note").strip()),
    "game": (True, lambda r, n: r.game(n)),
    "laws": (True, lambda r, n: None),  # read after the rest, once the code is known
}


def parse_rulebook(text: str, path: str) -> Rulebook:
    """A rulebook from YAML text; `path` names it in error positions."""
    try:
        root = parse_yaml(text, path)
    except InputError as error:
        raise RulebookError(error.problems) from None
    return _read(root, path)


def load_rulebook(path: str | os.PathLike[str], *, named: bool = False) -> Rulebook:
    """Load a rulebook file with every check, or raise a `RulebookError` listing every problem.

    `named`: the file was named inside another file, a scenario's `code:` (see `adjudicate.lawbook.sources`): it
    must be a regular file, and unless it has `code:` and `laws:` it is refused without a word of it quoted.
    """
    name = os.fspath(path)
    try:
        data, root = read_yaml_source(name, regular_only=named)
    except InputError as error:
        raise RulebookError(error.problems) from None
    if named and not (root.is_map() and "code" in root.value and "laws" in root.value):  # type: ignore[operator]
        raise RulebookError([Problem(root.pos, "not a rulebook: it has no `code:` and `laws:` keys "
                                               "(nothing of it is shown)")])
    rulebook = _read(root, name)
    return with_sources(rulebook, (SourceFile("code", rulebook.code, name, data),))


def _read(root: Node, path: str) -> Rulebook:
    reader = _Reader(path)
    rulebook = reader.attempt(lambda: reader.rulebook(root))
    if reader.problems or rulebook is None:
        unique = list(dict.fromkeys(reader.problems))  # in the order found, once each
        problems = sorted(unique, key=lambda p: (p.pos.line, p.pos.column))
        raise RulebookError(problems or [Problem(root.pos, "not a rulebook")])
    return rulebook


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
    rulebook = _cached(code, data)
    if rulebook is None:
        rulebook = parse_rulebook(data.decode("utf-8"), str(resource))
        _store(code, data, rulebook)
    if rulebook.code != code:
        raise RulebookError([Problem(Pos(str(resource), 1, 1),
                                     f"the file {code}.yaml holds the code {rulebook.code!r}; "
                                     "a built-in rulebook is named after its code")])
    return with_sources(rulebook, (SourceFile("code", code, code, data),))


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

_CACHED_CLASSES = ("lawbook/rulebook.py", "lawbook/conditions.py", "lawbook/remedies.py", "lawbook/defeats.py",
                   "record/cards.py", "lawbook/games.py", "errors.py")
"""The modules whose classes a cache file holds, relative to the package's folder."""
_CACHE_MAGIC = b"adjudicate rulebook cache, msgpack 1\n"
_CACHE_SUFFIX = ".msgpack"
_MAX_CACHE_BYTES = 8 * 1024 * 1024


class _CacheEntry(Struct, frozen=True):
    """What a cache file holds after its header."""

    source: bytes
    """The shipped rulebook file's bytes it was parsed from (compared whole: no digest can collide)."""
    offsets: tuple[int, ...]
    """Where each law's record starts in the shipped file (its `id:`), for checking the texts."""
    rulebook: Rulebook


def cache_dir() -> str | None:
    """Where the parsed built-in rulebooks are kept, the platform's way; None when turned off.

    ADJUDICATE_CACHE_DIR if set; else on Windows %LOCALAPPDATA%\\adjudicate\\Cache; else
    $XDG_CACHE_HOME/adjudicate (when set to an absolute path, as the XDG spec asks); else
    ~/Library/Caches/adjudicate on macOS and ~/.cache/adjudicate elsewhere.
    """
    import sys

    if os.environ.get("ADJUDICATE_NO_CACHE"):
        return None
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

    from adjudicate import __version__

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


def _cached(code: str, data: bytes) -> "Rulebook | None":
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


def _store(code: str, data: bytes, rulebook: "Rulebook") -> None:
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
    folder = os.path.dirname(path)
    mine = f"{code}-{_install_tag()}-"  # only this install's earlier files: another install's are its own
    try:
        for stale in os.listdir(folder):
            if stale.startswith(mine) and stale.endswith(_CACHE_SUFFIX) and stale != os.path.basename(path):
                os.remove(os.path.join(folder, stale))
    except OSError:
        pass


def read_cache_file(path: str, magic: bytes) -> memoryview | None:
    """A cache file's payload, if the file is there, no larger than _MAX_CACHE_BYTES, begins with `magic`
    and its checksum holds; None otherwise (a cache miss, never an error)."""
    import zlib

    try:
        with open(path, "rb") as handle:
            blob = handle.read(_MAX_CACHE_BYTES + 1)
    except OSError:
        return None
    head = len(magic)
    if len(blob) > _MAX_CACHE_BYTES or not blob.startswith(magic):
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
