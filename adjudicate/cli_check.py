"""`adjudicate check`: every scenario file's ruling against its `expect` block, for CI; `adjudicate schema`.

Thin, as every command: the work is `adjudicate.checking` (and `adjudicate.schema`),
imported inside the commands so that the other commands do not pay for it.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from adjudicate.cli_common import app, dump_json, echo, fail


class CheckFormat(str, enum.Enum):
    """Output formats of `check`."""

    text = "text"
    json = "json"
    junit = "junit"
    github = "github"


@app.command("check")
def check_command(
    paths: Annotated[List[Path], typer.Argument(
        metavar="PATH", help="Scenario files, and folders to search for *.yaml and *.yml (house/ folders skipped).",
        show_default=False, readable=False)],
    format: Annotated[CheckFormat, typer.Option(
        "--format", "-f", help="text (file:line:col lines and a summary), json, junit (JUnit XML) or github "
                               "(workflow annotations).")] = CheckFormat.text,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", min=1, help="Processes to use (default: every core); 1 checks in this process.",
        show_default=False)] = None,
    shard: Annotated[Optional[str], typer.Option(
        "--shard", metavar="K/N", help="Check only shard K of N (1-based): every N-th file of the sorted list, "
                                      "from the K-th.", show_default=False)] = None,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Also say which laws with a condition no scenario applies, and which have no near miss.")
    ] = False,
    house: Annotated[Optional[str], typer.Option(
        "--house", metavar="FILE", help="Rule every file under this house-rules variant (a file or a built-in id).",
        show_default=False)] = None,
) -> None:
    """Check scenario files: load, validate, replay and rule each, and compare with its `expect` block.

    Exit 0 when every file passes, 1 when some ruling differs from its `expect`, 2 when some file is
    invalid or some folder could not be read (it wins); 141 when the output is a closed pipe; 130 on
    Ctrl-C, 143 on SIGTERM.

    Example: adjudicate check scenarios/
    """
    from adjudicate import checking
    from adjudicate.errors import UsageError

    if shard is not None:
        try:
            index, count = checking.parse_shard(shard)
        except ValueError as error:
            fail(UsageError(str(error)))
    if house is not None and not _house_supported():
        fail(UsageError("house rules are not supported yet"))
    collection = checking.collect(str(path) for path in paths)
    files = list(collection.files)
    if shard is not None:
        files = checking.shard(files, index, count)
    results = list(collection.problems) + checking.check_files(
        files, jobs=checking.default_jobs() if jobs is None else jobs, house=house)
    summary = checking.summarise(results, len(collection.skipped))
    report = checking.coverage(results) if coverage else None
    skipped = collection.skipped
    if format is CheckFormat.json:
        echo(dump_json(checking.render_json(results, summary, report, skipped)))
    elif format is CheckFormat.junit:
        echo(checking.render_junit(results, summary, report, skipped))
    elif format is CheckFormat.github:
        echo(checking.render_github(results, summary, report, skipped))
    else:
        echo(checking.render_text(results, summary, report, skipped))
    if summary.exit_code:
        raise typer.Exit(summary.exit_code)


def _house_supported() -> bool:
    import inspect

    from adjudicate.matcher import rule_scenario

    return "house" in inspect.signature(rule_scenario).parameters


@app.command("schema")
def schema_command() -> None:
    """Print a JSON Schema (draft 2020-12) for scenario files, for editors (yaml-language-server).

    Example: adjudicate schema > scenario.schema.json, then put
    `# yaml-language-server: $schema=scenario.schema.json` at the top of a scenario file.
    """
    from adjudicate.schema import scenario_schema

    echo(dump_json(scenario_schema()))
