"""`adjudicate replay`: the hand as reconstructed, trick by trick, irregularities marked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from adjudicate.cli_common import Format, app, each_file


@app.command()
def replay(
    files: Annotated[List[Path], typer.Argument(help="Scenario files to replay.", show_default=False, readable=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
) -> None:
    """Replay scenario files: trump, each trick's leader, cards and winner, and every irregularity.

    Example: adjudicate replay scenarios/euchre/revoke-established.yaml
    """
    from adjudicate.facts import detect
    from adjudicate.games import BUILTIN_GAMES
    from adjudicate.matcher import rulebook_for
    from adjudicate.report import replay_record, replay_text
    from adjudicate.scenario import load_scenario
    from adjudicate.table import replay as replay_hand

    def replayed(path: str):
        scenario = load_scenario(path)
        builtin = scenario.code in BUILTIN_GAMES and not (house or scenario.house)
        game = None if builtin else rulebook_for(scenario, house=house)[0].game
        table = replay_hand(scenario, game)
        return table, detect(table)

    def as_record(path: str) -> dict:
        table, facts = replayed(path)
        return replay_record(table, facts)

    def as_text(path: str, markdown: bool) -> str:
        table, facts = replayed(path)
        return replay_text(table, facts, markdown=markdown)

    each_file(files, format, record=as_record, text=as_text)
