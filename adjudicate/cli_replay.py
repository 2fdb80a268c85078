"""`adjudicate replay`: the hand as reconstructed, trick by trick, irregularities marked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from adjudicate.cli_common import Format, app, dump_json, echo, report_problem
from adjudicate.errors import AdjudicateError


@app.command()
def replay(
    files: Annotated[List[Path], typer.Argument(help="Scenario files to replay.", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
) -> None:
    """Replay scenario files: trump, each trick's leader, cards and winner, and every irregularity.

    Example: adjudicate replay scenarios/euchre/revoke-established.yaml
    """
    from adjudicate.facts import detect
    from adjudicate.matcher import rulebook_for
    from adjudicate.report import replay_record, replay_text
    from adjudicate.scenario import load_scenario
    from adjudicate.table import replay as replay_hand

    records, texts, failed = [], [], False
    for path in files:
        try:
            scenario = load_scenario(str(path))
            game = rulebook_for(scenario, house=house)[0].game if (house or scenario.house) else None
            table = replay_hand(scenario, game)
            facts = detect(table)
        except AdjudicateError as error:
            report_problem(error)
            failed = True
            continue
        if format is Format.json:
            records.append(replay_record(table, facts))
        else:
            texts.append(replay_text(table, facts, markdown=format is Format.markdown))
    if format is Format.json and records:
        echo(dump_json(records[0] if len(files) == 1 else records))
    elif texts:
        echo("\n".join(texts))
    if failed:
        raise typer.Exit(2)
