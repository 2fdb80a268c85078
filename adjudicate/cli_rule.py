"""`adjudicate rule`: the ruling on each scenario, the main job."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from adjudicate.cli_common import Format, app, dump_json, echo, report_problem
from adjudicate.errors import AdjudicateError


@app.command()
def rule(
    files: Annotated[List[Path], typer.Argument(help="Scenario files to rule on.", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
) -> None:
    """Rule on scenario files: the irregularities, the laws that apply with their text, and each side's choices.

    Example: adjudicate rule scenarios/euchre/revoke-established.yaml
    """
    from adjudicate.matcher import rule_scenario
    from adjudicate.report import ruling_record, ruling_text

    records, texts, failed = [], [], False
    for path in files:
        try:
            decision = rule_scenario(str(path), house=house)
        except AdjudicateError as error:
            report_problem(error)
            failed = True
            continue
        if format is Format.json:
            records.append(ruling_record(decision))
        else:
            texts.append(ruling_text(decision, markdown=format is Format.markdown))
    if format is Format.json and records:
        echo(dump_json(records[0] if len(files) == 1 else records))
    elif texts:
        echo("\n".join(texts))
    if failed:
        raise typer.Exit(2)
