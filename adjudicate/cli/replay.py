"""`adjudicate replay`: the hand as reconstructed, trick by trick, irregularities marked."""

from __future__ import annotations

from typing import Annotated, Any, List, Optional

import typer

from adjudicate.cli.common import Command, ListFormat, app, each_file, scenario_sources


@app.command(cls=Command)
def replay(
    files: Annotated[List[str], typer.Argument(
        metavar="FILE", help="Scenario files to replay; - reads one from standard input.", show_default=False)],
    format: Annotated[ListFormat, typer.Option(
        "--format", "-f", help="table, json (an array, a hand a file), jsonl (a hand a line) or markdown.")
    ] = ListFormat.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
) -> None:
    """Replay scenario files: trump, each trick's leader, cards and winner, and every irregularity.

    Example: adjudicate replay scenarios/euchre/revoke-established.yaml
    """
    from adjudicate import api

    def as_text(path: Any, markdown: bool) -> str:
        replayed = api.replay(path, house=house)
        return replayed.to_markdown() if markdown else replayed.to_text()

    each_file(scenario_sources(files), format, record=lambda path: api.replay(path, house=house).to_json(),
              text=as_text)
