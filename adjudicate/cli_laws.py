"""The rulebook commands: `laws` (list, filter, search), `law` (one law in full), `lint` (check rulebook files).

Thin, as every command: parse the arguments, call `adjudicate.rulebook` and
`adjudicate.lawsearch`, render. The library is imported inside each command so
that `adjudicate --help` and the other commands do not pay for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, List, Optional

import typer

from adjudicate.cli_common import Format, app, dump_json, echo, guarded
from adjudicate.errors import EXIT_INPUT
from adjudicate.escape import visible

if TYPE_CHECKING:
    from adjudicate.rulebook import Citation, Clause, Law, Library

WIDTH = 78
"""Law texts are wrapped to this width, whatever the terminal, so output is the same everywhere."""

FormatOption = Annotated[Format, typer.Option("--format", help="table (for people), json or markdown.")]

_BARE_REF = re.compile(r"[0-9]+(?:\.[IVXLCivxlc]+)?")
_COLUMNS = ("code", "id", "section", "title", "kind")


def _library() -> "Library":
    from adjudicate.rulebook import builtin_library

    return guarded(builtin_library)


def _markdown_cell(value: str) -> str:
    return value.replace("|", "\\|").replace("\n", " ")


def _table(rows: list[list[str]], headers: list[str], fmt: Format) -> str:
    from tabulate import tabulate

    if fmt is Format.markdown:
        rows = [[_markdown_cell(cell) for cell in row] for row in rows]
        return tabulate(rows, headers=headers, tablefmt="pipe", disable_numparse=True)
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


# --- laws -------------------------------------------------------------------------

@app.command("laws")
def laws_command(
    code: Annotated[Optional[str], typer.Option(help="Only this code's laws: euchre, short-whist or long-whist.")] = None,
    section: Annotated[Optional[str], typer.Option(
        help='Only laws whose section heading has all these words, in any form ("revoke").')] = None,
    search: Annotated[Optional[str], typer.Option(
        help="Rank the laws by these words, best first; words match in any form.")] = None,
    format: FormatOption = Format.table,
) -> None:
    """List the laws of the built-in codes, or search them.

    Example: adjudicate laws --code euchre --search "revoking"
    """
    from adjudicate import lawsearch

    from adjudicate.rulebook import builtin_rulebook

    if code is not None:  # load that code alone
        laws = list(guarded(lambda: builtin_rulebook(code.strip().lower())).laws)
    else:
        laws = list(_library().laws())
    if section is not None:
        laws = guarded(lambda: [law for law in laws if lawsearch.in_section(law, section)])
    scores: dict[str, float] = {}
    if search is not None:
        hits = guarded(lambda: lawsearch.search(laws, search))
        laws = [hit.law for hit in hits]
        scores = {hit.law.ref: hit.score for hit in hits}
    if format is Format.json:
        records = []
        for law in laws:
            record = law.record()
            if search is not None:
                record["score"] = round(scores[law.ref], 4)
            records.append(record)
        echo(dump_json(records))
        return
    if not laws:
        typer.echo("no laws match", err=True)
        return
    echo(_table([[law.code, law.id, law.section, law.title, law.kind] for law in laws], list(_COLUMNS), format))


# --- law --------------------------------------------------------------------------

@app.command("law")
def law_command(
    ref: Annotated[str, typer.Argument(
        metavar="REF", help='The law: "euchre:63", "short-whist:72.V" for a clause, or a bare "63" for every code\'s law 63.')],
    law_id: Annotated[Optional[str], typer.Argument(
        metavar="LAW", help='The law\'s number when the code is given apart: "euchre 63".')] = None,
    format: FormatOption = Format.table,
) -> None:
    """Show one law: its text, notes, citations and counterparts.

    Prints the law's text (line breaks joined into paragraphs), any footnotes
    (marked as the annotator's), the laws it cites, the laws that cite it, and
    the laws of the other codes about the same thing.

    Example: adjudicate law short-whist:72.V
    """
    from adjudicate.errors import UsageError

    library = _library()
    if law_id is not None:
        code, number = ref, law_id
    elif ":" in ref:
        code, _, number = ref.partition(":")
    elif _BARE_REF.fullmatch(ref.strip()):
        _show_codes_with(library, ref.strip(), format)
        return
    else:
        guarded(lambda: library[ref.strip().lower()])  # an unknown code: say so, with a did-you-mean
        guarded(lambda: _raise(UsageError(f"which law of {ref.strip()}? e.g. adjudicate law {ref.strip()}:1; "
                                          f"adjudicate laws --code {ref.strip()} lists them")))
        return
    law, clause = guarded(lambda: library.lookup(code, number.strip()))
    cited = library.cited_by(law)
    counterparts = library.counterparts(law)
    if format is Format.json:
        echo(dump_json(_law_json(law, clause, cited, counterparts)))
    elif format is Format.markdown:
        echo(_law_markdown(library, law, clause, cited, counterparts))
    else:
        echo(_law_text(library, law, clause, cited, counterparts))


def _raise(error: Exception) -> None:
    raise error


def _show_codes_with(library: "Library", ref: str, fmt: Format) -> None:
    from adjudicate.errors import UsageError

    found = library.with_id(ref.upper())  # the numeral of a clause in capitals: "72.v" is 72.V
    if not found:
        guarded(lambda: _raise(UsageError(f"no code has a law {ref!r}; the codes are: {', '.join(library.codes)}")))
    if fmt is Format.json:
        echo(dump_json([{"code": law.code, "id": clause.ref if clause else law.id, "title": law.title}
                        for law, clause in found]))
        return
    rows = [[law.code, clause.ref if clause else law.id, law.title] for law, clause in found]
    if fmt is Format.markdown:
        echo(_table(rows, ["code", "id", "title"], fmt))
        return
    from tabulate import tabulate

    echo(f"Law {ref} in each code that has it:\n\n"
         + tabulate([[f"{code}:{law_id}", title] for code, law_id, title in rows], tablefmt="plain",
                    disable_numparse=True)
         + f"\n\nFor one of them: adjudicate law {rows[0][0]}:{rows[0][1]}")


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


def _law_json(law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
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


def _law_text(library: "Library", law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
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
        from adjudicate.rulebook import reflow

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


def _law_markdown(library: "Library", law: "Law", clause: "Clause | None", cited: tuple["Citation", ...],
                  counterparts: tuple["Law", ...]) -> str:
    head = f"{law.ref}.{clause.id}" if clause else law.ref
    out = [f"## {head} — {law.title}" + (f", clause {clause.id}" if clause else ""), "",
           f"*{library[law.code].title}* · Section: {law.section} · Kind: {law.kind} · "
           f"Subjects: {', '.join(f'`{s}`' for s in law.subjects)}", ""]
    from adjudicate.rulebook import paragraphs

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


# --- lint -------------------------------------------------------------------------

@app.command("lint")
def lint_command(
    files: Annotated[Optional[List[str]], typer.Argument(
        metavar="FILE", help="Rulebook or house-rules files to check; none: the built-in ones.")] = None,
    format: FormatOption = Format.table,
) -> None:
    """Check rulebook and house-rules files, printing each problem as path:line:col.

    Every check the loader makes (for a house file: unknown law ids, conditions on unknown facts,
    parameters out of range, two laws that would both apply with different remedies); exit 0 if
    every file is good, 2 if not.

    Example: adjudicate lint rulebooks/house/*.yaml
    """
    from adjudicate.errors import RulebookError
    from adjudicate.house import builtin_house_paths, lint_file
    from adjudicate.rulebook import builtin_paths

    paths = list(files) if files else builtin_paths() + builtin_house_paths()
    results: list[dict[str, Any]] = []
    for path in paths:
        try:
            kind, rulebook = lint_file(path)
        except RulebookError as error:
            results.append({"path": path, "ok": False, "laws": None, "problems": list(error.problems)})
        else:
            results.append({"path": path, "ok": True, "laws": len(rulebook), "problems": [],
                            **({"house": True} if kind == "house" else {})})
    if format is Format.json:
        data = [{**r, "problems": [{"line": p.pos.line, "column": p.pos.column, "message": p.message}
                                   for p in r["problems"]]} for r in results]
        echo(dump_json(data[0] if len(data) == 1 else data))
    else:
        bullet = "- " if format is Format.markdown else ""
        lines = []
        for result in results:  # a path and a message from the file: escaped, one line each
            if result["ok"]:
                what = " with the house rules" if result.get("house") else ""
                lines.append(f"{bullet}{visible(result['path'])}: ok ({result['laws']} laws{what})")
            lines += [f"{bullet}{visible(str(problem))}" for problem in result["problems"]]
        echo("\n".join(lines))
    if not all(result["ok"] for result in results):
        raise typer.Exit(EXIT_INPUT)
