"""`adjudicate diff`: which rulings a house variant changes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List

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
        rows = []
        for r in shown:
            # A file's name and a note (an error message) come from the files: escaped, each on its line.
            if r.code and r.house:
                path = visible(r.path) + (f"\n({visible(r.note)})" if r.note else "")
                rows.append([path, "\n".join(r.code.lines()), "\n".join(r.house.lines())])
            else:
                rows.append([visible(r.path), r.status + (f": {visible(r.note)}" if r.note else ""), ""])
        if rows:
            table_format = "github" if format is Format.markdown else "grid"
            echo(tabulate(rows, headers=["scenario", "by the code", f"with {visible(house)}"],
                          tablefmt=table_format))
        echo(f"{counts['changed']} of {len(results)} scenarios change under {visible(house)}"
             f" ({counts['same']} the same, {counts['skipped']} of other codes, {counts['invalid']} invalid)")
    if counts["invalid"]:
        raise typer.Exit(EXIT_INPUT)


def _summary_json(summary) -> dict:
    return {"laws": list(summary.laws), "not_applied": list(summary.not_applied), "remedies": list(summary.remedies),
            "rulings": list(summary.rulings), "scores": list(summary.scores)}
