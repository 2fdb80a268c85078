"""One law shown in full, as `adjudicate law` prints it: its text, notes, what it cites, what cites it, its counterparts.

Renderers, as `report.py` is for rulings: they take the rulebook's records (`adjudicate.lawbook.rulebook`) and
know nothing of the command line; `adjudicate.api.LawEntry` calls them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicate.lawbook.library import Citation, Library
    from adjudicate.lawbook.rulebook import Clause, Law

WIDTH = 78
"""Law texts are wrapped to this width, whatever the terminal, so output is the same everywhere."""


def _how(hows: list[str]) -> str:
    """" (in the text; in Cavendish's note [1])" when a law is cited other than by its text alone."""
    return "" if hows == ["in the text"] else f" ({'; '.join(hows)})"


def _cites(library: "Library", law: "Law", clause: "Clause | None") -> list[tuple[str, str, list[str]]]:
    """What the law (and the notes shown with it) cite: (ref, title, how), one row per ref."""
    rulebook = library[law.code]
    rows: dict[str, tuple[str, str, list[str]]] = {}
    cited = [(ref, None) for ref in law.refs] + [(ref, n) for n in _notes_for(law, clause) for ref in n.refs]
    for ref, note in cited:
        _, _, hows = rows.setdefault(ref, (ref, rulebook.law(ref).title, []))
        how = f"in {note.by}'s note [{note.mark}]" if note else "in the text"
        if how not in hows:
            hows.append(how)
    return list(rows.values())


def _citation_groups(cited: tuple["Citation", ...]) -> list[tuple["Law", list[str]]]:
    """Citations grouped by citing law, each with how it cites: "44.IV", "in Cavendish's note [17]"."""
    groups: dict[str, tuple["Law", list[str]]] = {}
    for citation in cited:
        how = []
        if "." in citation.ref:
            how.append(citation.ref)
        if citation.note is not None:
            how.append(f"in {citation.note.by}'s note [{citation.note.mark}]")
        law, hows = groups.setdefault(citation.law.ref, (citation.law, []))
        label = ", ".join(how)
        if label and label not in hows:
            hows.append(label)
        elif not label and "in the text" not in hows:
            hows.insert(0, "in the text")
    return list(groups.values())


def _shared(law: "Law", other: "Law") -> list[str]:
    return [subject for subject in other.subjects if subject in law.subjects]


def _notes_for(law: "Law", clause: "Clause | None") -> list[Any]:
    if clause is None:
        return list(law.notes)
    return [note for note in law.notes if f"[{note.mark}]" in clause.text]


def law_json(law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
              counterparts: tuple["Law", ...]) -> dict[str, Any]:
    record = law.record()
    if clause is not None:
        record["clause"] = {"id": clause.id, "ref": clause.ref, "text": clause.text}
    record["cited_by"] = [{"code": c.law.code, "id": c.law.id, "title": c.law.title, "ref": c.ref,
                           "note": c.note.mark if c.note else None} for c in cited]
    record["counterparts"] = [{"code": o.code, "id": o.id, "title": o.title, "subjects": _shared(law, o)}
                              for o in counterparts]
    return record


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else "" for line in text.splitlines())


def law_text(library: "Library", law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
              counterparts: tuple["Law", ...]) -> str:
    from tabulate import tabulate

    head = f"{law.ref}.{clause.id}" if clause else law.ref
    lines = [f"{head} — {law.title}" + (f", clause {clause.id}" if clause else ""),
             library[law.code].title,
             f"Section: {law.section} · Kind: {law.kind} · Subjects: {', '.join(law.subjects)}",
             ""]
    if clause is None:
        lines.append(_indent(law.reflowed(WIDTH - 4)))
    else:
        from adjudicate.lawbook.rulebook import reflow

        lead = law.paragraphs()[0]
        if not lead.startswith(f"{law.clauses[0].id}. "):
            lines += [_indent(reflow(lead, WIDTH - 4)), ""]
        lines.append(_indent(reflow(f"{clause.id}. {clause.text}", WIDTH - 4)))
    for note in _notes_for(law, clause):
        lines += ["", f"Note [{note.mark}] by {note.by} (his footnote, not part of the law):",
                  _indent(note.reflowed(WIDTH - 4))]
    lines.append("")

    def listing(title: str, rows: list[list[str]]) -> None:
        if not rows:
            lines.append(f"{title}: none")
            return
        lines.append(f"{title}:")
        lines.append(_indent(tabulate(rows, tablefmt="plain", disable_numparse=True), "  "))

    listing("Cites", [[f"{law.code}:{ref}", title + _how(hows)] for ref, title, hows in _cites(library, law, clause)])
    listing("Cited by", [[other.ref, other.title + _how(hows)] for other, hows in _citation_groups(cited)])
    listing("Counterparts", [[other.ref, other.title, ", ".join(_shared(law, other))] for other in counterparts])
    return "\n".join(lines)


def law_markdown(library: "Library", law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
                  counterparts: tuple["Law", ...]) -> str:
    head = f"{law.ref}.{clause.id}" if clause else law.ref
    out = [f"## {head} — {law.title}" + (f", clause {clause.id}" if clause else ""), "",
           f"*{library[law.code].title}* · Section: {law.section} · Kind: {law.kind} · "
           f"Subjects: {', '.join(f'`{s}`' for s in law.subjects)}", ""]
    from adjudicate.lawbook.rulebook import paragraphs

    paras = law.paragraphs() if clause is None else paragraphs(f"{clause.id}. {clause.text}")
    out += ["\n>\n".join(f"> {p}" for p in paras), ""]
    for note in _notes_for(law, clause):
        out += [f"**Note [{note.mark}] by {note.by}** (his footnote, not part of the law): "
                f"{' '.join(note.reflowed().split())}", ""]

    def refs_line(title: str, items: list[str]) -> None:
        out.append(f"**{title}:** {', '.join(items) if items else 'none'}  ")

    refs_line("Cites", [f"{law.code}:{ref} ({title}{_how(hows).replace(' (', '; ', 1)[:-1] if _how(hows) else ''})"
                        for ref, title, hows in _cites(library, law, clause)])
    refs_line("Cited by", [f"{other.ref} ({other.title}{_how(hows).replace(' (', '; ', 1)[:-1] if _how(hows) else ''})"
                           for other, hows in _citation_groups(cited)])
    refs_line("Counterparts", [f"{other.ref} ({other.title})" for other in counterparts])
    return "\n".join(out).rstrip()
