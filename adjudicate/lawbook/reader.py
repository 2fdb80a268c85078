"""Reading a rulebook file: every check, every problem with file:line:col (docs/rulebook-format.md).

`load_rulebook` reads one and either returns a `Rulebook` or raises one `RulebookError` holding every
problem it found.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable

from adjudicate.record.cards import Pack, Rank
from adjudicate.lawbook.conditions import Condition, parse_condition
from adjudicate.lawbook.defeats import defeat_problems, parse_defeats
from adjudicate.lawbook.provisos import parse_provisos, proviso_problems
from adjudicate.lawbook.remedies import parse_remedies, parse_rulings
from adjudicate.lawbook.games import Game
from adjudicate.errors import InputError, Pos, Problem, RulebookError, did_you_mean
from adjudicate.record.yamlsource import Node, parse_yaml, read_yaml_source
from adjudicate.lawbook.rulebook import (BecauseWhen, Clause, FAMILIES, KINDS, Law, Metadata, Note, RANKS, Rulebook,
    SourceFile, _CITATION, _CLAUSE_ID, _CODE, _FOOTNOTE_MARK, _LAW_ID, _REF, _SUBJECT, with_sources)


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
        self.problems.extend(proviso_problems(laws or ()))
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
        if any(values.get(key) is None for key, (required, _) in _GAME_FIELDS.items() if required):
            return None
        ranks, hand = values["ranks"], values["hand_size"]
        if len(ranks) * 4 < hand * 4:
            self.problem(node.pos, f"a pack of {len(ranks) * 4} cards cannot deal {hand} to each of four players")
            return None
        return Game(values["family"], Pack(tuple(Rank.parse(rank) for rank in ranks)), hand, values["game_points"],
                    out_of_turn_cannot_win=bool(values.get("out_of_turn_cannot_win", False)))

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
        values["provisos"] = values.get("provisos") or ()
        values["because_when"] = values.get("because_when") or ()
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


def _because_when(reader: Any, node: Node, law_id: str) -> tuple[BecauseWhen, ...]:
    """`because_when:` a list of {when, because}: a reason said in place of `because` where `when` holds."""
    if not node.is_seq():
        raise node.error(f"the because_when of law {law_id} should be a list, not {node.describe()}")
    items = []
    for item in node.elements():
        what = f"a because_when of law {law_id}"
        item.expect_map(what)
        item.check_keys(what, frozenset({"when", "because"}), required=("when", "because"))
        when_node, because_node = item.get("when"), item.get("because")
        assert when_node is not None and because_node is not None  # required by check_keys
        when = parse_condition(when_node, f"`when` of {what}")
        because = " ".join(reader.nonempty(because_node, f"the because of {what}").split())
        items.append(BecauseWhen(when, because))
    return tuple(items)


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
    "because_when": (False, lambda r, n, i: _because_when(r, n, i)),
    "defeats": (False, lambda r, n, i: parse_defeats(n, i, r.pending_refs)),
    "context": (False, lambda r, n, i: n.boolean(f"the context of law {i}")),
    "provisos": (False, lambda r, n, i: parse_provisos(n, i)),
    "no_condition": (False, lambda r, n, i: " ".join(r.nonempty(n, f"the no_condition of law {i}").split())),
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
    "out_of_turn_cannot_win": (False, lambda r, n: n.boolean("game.out_of_turn_cannot_win")),
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
