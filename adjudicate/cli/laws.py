"""The rulebook commands: `laws` (list, filter, search), `law` (one law in full), `lint` (check rulebook files).

Thin, as every command: parse the arguments, call the library's face (`adjudicate.api`: `laws`,
`law`, `lint`), render. The library is imported inside each command so that `adjudicate --help`
and the other commands do not pay for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, List, Optional

import typer

from adjudicate.cli.common import Command, Format, ListFormat, app, dump_json, dump_jsonl, echo, guarded
from adjudicate.errors import EXIT_INPUT
from adjudicate.escape import visible

if TYPE_CHECKING:
    from adjudicate.api import LawEntry

FormatOption = Annotated[Format, typer.Option("--format", "-f", help="table (for people), json or markdown.")]
ListFormatOption = Annotated[ListFormat, typer.Option(
    "--format", "-f", help="table (for people), json (an array), jsonl (a record a line) or markdown.")]

_BARE_REF = re.compile(r"[0-9]+(?:\.[IVXLCivxlc]+)?")
_COLUMNS = ("code", "id", "section", "title", "kind")


def _markdown_cell(value: str) -> str:
    return value.replace("|", "\\|").replace("\n", " ")


def _table(rows: list[list[str]], headers: list[str], fmt: "Format | ListFormat") -> str:
    from tabulate import tabulate

    if fmt.value == "markdown":
        rows = [[_markdown_cell(cell) for cell in row] for row in rows]
        return tabulate(rows, headers=headers, tablefmt="pipe", disable_numparse=True)
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


# --- laws -------------------------------------------------------------------------

@app.command("laws", cls=Command)
def laws_command(
    code: Annotated[Optional[str], typer.Option(help="Only this code's laws: euchre, short-whist or long-whist.")] = None,
    section: Annotated[Optional[str], typer.Option(
        help='Only laws whose section heading has all these words, in any form ("revoke").')] = None,
    search: Annotated[Optional[str], typer.Option(
        help="Rank the laws by these words, best first; words match in any form.")] = None,
    format: ListFormatOption = ListFormat.table,
) -> None:
    """List the laws of the built-in codes, or search them.

    Example: adjudicate laws --code euchre --search "revoking"
    """
    from adjudicate import api

    laws = guarded(lambda: api.laws(code, search, section=section))
    if format is ListFormat.json:
        echo(dump_json([law.to_json() for law in laws]))
        return
    if format is ListFormat.jsonl:
        for law in laws:
            echo(dump_jsonl(law.to_json()))
        return
    if not laws:
        typer.echo("no laws match", err=True)
        return
    echo(_table([[law.code, law.id, law.section, law.title, law.kind] for law in laws], list(_COLUMNS), format))


# --- law --------------------------------------------------------------------------

@app.command("law", cls=Command)
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
    from adjudicate import api

    if law_id is None and ":" not in ref:
        name = ref.strip()
        if _BARE_REF.fullmatch(name):
            _show_codes_with(guarded(lambda: api.law_in_each_code(name)), name, format)
            return
        guarded(lambda: api.code(name.lower()))  # an unknown code: say so, with a did-you-mean
        guarded(lambda: _raise(api.AdjudicateError(f"which law of {name}? e.g. adjudicate law {name}:1; "
                                                    f"adjudicate laws --code {name} lists them")))
        return
    entry = guarded(lambda: api.law(ref, law_id))
    if format is Format.json:
        echo(dump_json(entry.to_json()))
    elif format is Format.markdown:
        echo(entry.to_markdown())
    else:
        echo(entry.to_text())


def _raise(error: Exception) -> None:
    raise error


def _show_codes_with(found: "tuple[LawEntry, ...]", ref: str, fmt: Format) -> None:
    rows = [[entry.law.code, entry.clause.ref if entry.clause else entry.law.id, entry.law.title] for entry in found]
    if fmt is Format.json:
        echo(dump_json([{"code": code, "id": law_id, "title": title} for code, law_id, title in rows]))
        return
    if fmt is Format.markdown:
        echo(_table(rows, ["code", "id", "title"], fmt))
        return
    from tabulate import tabulate

    echo(f"Law {ref} in each code that has it:\n\n"
         + tabulate([[f"{code}:{law_id}", title] for code, law_id, title in rows], tablefmt="plain",
                    disable_numparse=True)
         + f"\n\nFor one of them: adjudicate law {rows[0][0]}:{rows[0][1]}")


# --- lint -------------------------------------------------------------------------

@app.command("lint", cls=Command)
def lint_command(
    files: Annotated[Optional[List[str]], typer.Argument(
        metavar="FILE", help="Rulebook or house-rules files to check; none: the built-in ones.")] = None,
    format: ListFormatOption = ListFormat.table,
) -> None:
    """Check rulebook and house-rules files, printing each problem as path:line:col.

    Every check the loader makes (for a house file: unknown law ids, conditions on unknown facts,
    parameters out of range, two laws that would both apply with different remedies); exit 0 if
    every file is good, 2 if not.

    Example: adjudicate lint rulebooks/house/*.yaml
    """
    from adjudicate import api

    results = api.lint(files)
    if format is ListFormat.json:
        echo(dump_json([result.to_json() for result in results]))
    elif format is ListFormat.jsonl:
        for result in results:
            echo(dump_jsonl(result.to_json()))
    else:
        bullet = "- " if format is ListFormat.markdown else ""
        lines = []
        for result in results:  # a path and a message from the file: escaped, one line each
            if result.ok:
                what = " with the house rules" if result.house else ""
                lines.append(f"{bullet}{visible(result.path)}: ok ({result.laws} laws{what})")
            lines += [f"{bullet}{visible(str(problem))}" for problem in result.problems]
        echo("\n".join(lines))
    if not all(result.ok for result in results):
        raise typer.Exit(EXIT_INPUT)
