"""`adjudicate diff`: which rulings a house variant changes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, List, Sequence

import typer

from adjudicate.cli.common import Command, Format, app, dump_json, echo, guarded
from adjudicate.errors import EXIT_INPUT
from adjudicate.escape import visible


@app.command(cls=Command)
def diff(
    paths: Annotated[List[Path], typer.Argument(metavar="PATH", help="Scenario files or folders.", show_default=False, readable=False)],
    house: Annotated[str, typer.Option("--house", help="House-rules file (or a built-in house's id).")],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    all_files: Annotated[bool, typer.Option("--all", help="List unchanged and skipped scenarios too.")] = False,
) -> None:
    """Show which rulings change under a house variant: the code's ruling and the house's, side by side.

    Example: adjudicate diff --house rulebooks/house/modern-euchre.yaml scenarios/
    """
    from tabulate import tabulate

    from adjudicate import api

    results = guarded(lambda: api.diff(house, paths))
    counts = {status: sum(1 for r in results if r.status == status) for status in ("changed", "same", "skipped", "invalid")}
    if format is Format.json:
        echo(dump_json({
            "house": house,
            "scenarios": [
                {"scenario": r.path, "status": r.status,
                 **({"code": _summary_json(r.code), "house": _summary_json(r.house)} if r.code else {}),
                 **({"note": r.note} if r.note else {})}
                for r in results if all_files or r.status != "same"
            ],
            "summary": counts,
        }))
    else:
        shown = results if all_files else [r for r in results if r.status in ("changed", "invalid")]
        if format is Format.markdown:
            rows = []
            for r in shown:
                # A file's name and a note (an error message) come from the files: escaped, each on its line.
                if r.code and r.house:
                    path = visible(_relative(r.path)) + (f"\n({visible(r.note)})" if r.note else "")
                    rows.append([path, "\n".join(r.code.lines()), "\n".join(r.house.lines())])
                else:
                    rows.append([visible(_relative(r.path)), r.status + (f": {visible(r.note)}" if r.note else ""), ""])
            if rows:
                echo(tabulate(rows, headers=["scenario", "by the code", f"with {visible(house)}"], tablefmt="github"))
        elif shown:
            echo(_changes_text(shown, house))
        echo(f"{counts['changed']} of {len(results)} scenarios change under {visible(house)}"
             f" ({counts['same']} the same, {counts['skipped']} of other codes, {counts['invalid']} invalid)")
    if counts["invalid"]:
        raise typer.Exit(EXIT_INPUT)


WIDTH = 100
"""The text format's lines are wrapped to this many columns."""
STATUS_WIDTH = 9
"""`changed  ` and the other statuses, padded: each scenario's path starts in the same column."""


def _relative(path: str) -> str:
    """A path as the text shows it: relative to the current folder when it is inside it."""
    import os

    if os.path.isabs(path):
        try:
            relative = os.path.relpath(path)
        except ValueError:  # pragma: no cover - another drive (Windows)
            return path
        if not relative.startswith(os.pardir):
            return relative
    return path


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=True) or [first.rstrip()]


def _changes_text(shown: "Sequence[Any]", house: str) -> str:
    """Each scenario shown, `changed  PATH` (or `same`, `skipped`, `invalid`), then for a ruling the lines of
    the code's ruling and the house's as a diff: `- ` only by the code, `+ ` only with the house, two spaces
    for a line both share; every line wrapped to 100 columns."""
    import difflib

    pad = " " * STATUS_WIDTH
    lines = [f"- by the code, + with {visible(house)}", ""]
    for r in shown:
        head = f"{r.status:<{STATUS_WIDTH - 1}} "
        if r.code and r.house and r.status == "changed":
            lines += _wrapped(visible(_relative(r.path)), head, pad)
            if r.note:
                lines += _wrapped(f"({visible(r.note)})", pad, pad + " ")
            before, after = r.code.lines(), r.house.lines()
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
                marked = ([("  ", line) for line in before[i1:i2]] if tag == "equal" else
                          [("- ", line) for line in before[i1:i2]] + [("+ ", line) for line in after[j1:j2]])
                for mark, line in marked:
                    lines += _wrapped(line, pad + mark, pad + "    ")
        else:
            lines += _wrapped(visible(_relative(r.path)) + (f": {visible(r.note)}" if r.note else ""), head,
                              pad + "  ")
    return "\n".join(lines)


def _summary_json(summary) -> dict:
    return {"laws": list(summary.laws), "not_applied": list(summary.not_applied), "remedies": list(summary.remedies),
            "rulings": list(summary.rulings), "scores": list(summary.scores)}
