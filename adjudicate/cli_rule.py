"""`adjudicate rule`: the ruling on each scenario, the main job."""

from __future__ import annotations

from typing import Annotated, Any, List, Optional

import typer

from adjudicate.cli_common import Command, Format, app, each_file, scenario_sources


@app.command(cls=Command)
def rule(
    files: Annotated[List[str], typer.Argument(
        metavar="FILE", help="Scenario files to rule on; - reads one from standard input.", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
) -> None:
    """Rule on scenario files: the irregularities, the laws that decide them and those that do not apply, each
    side's choices, and the score after each. `--format markdown` prints a ruling sheet a club can file, and
    `--format json` a `record` of what the ruling was made from (the version, the digests of the rulebook, the
    house files and the scenario).

    Example: adjudicate rule scenarios/euchre/revoke-established.yaml
    """
    from adjudicate import api

    def as_text(path: Any, markdown: bool) -> str:
        ruling = api.rule(path, house=house)
        return ruling.to_markdown() if markdown else ruling.to_text()

    each_file(scenario_sources(files), format, record=lambda path: api.rule(path, house=house).to_json(),
              text=as_text, markdown_between="\n---\n\n")
