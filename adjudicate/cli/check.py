"""`adjudicate check`: every scenario file's ruling against its `expect` block, for CI; `adjudicate schema`.

Thin, as every command: the work is the library's (`adjudicate.api.check`, `scenario_schema`),
imported inside the commands so that the other commands do not pay for it.
"""

from __future__ import annotations

import enum
from typing import Annotated, List, Optional

import typer

from adjudicate.cli.common import (Command, app, commands_stopped, dump_json, dump_jsonl, echo, fail, guarded,
                                   scenario_sources)


class CheckFormat(str, enum.Enum):
    """Output formats of `check`."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"
    github = "github"
    sarif = "sarif"


@app.command("check", cls=Command)
def check_command(
    paths: Annotated[List[str], typer.Argument(
        metavar="PATH", help="Scenario files, and folders to search for *.yaml and *.yml (house/ folders skipped); "
                             "- reads one scenario from standard input.", show_default=False)],
    format: Annotated[CheckFormat, typer.Option(
        "--format", "-f", help="text (file:line:col lines and a summary), json, jsonl (a file a line), junit "
                               "(JUnit XML, with run "
                               "times), github (workflow annotations) or sarif (SARIF 2.1.0, for code "
                               "scanning).")] = CheckFormat.text,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", min=1, help="Processes to use (default: every core); 1 checks in this process.",
        show_default=False)] = None,
    shard: Annotated[Optional[str], typer.Option(
        "--shard", metavar="K/N", help="Check only shard K of N (1-based): every N-th file of the sorted list, "
                                      "from the K-th.", show_default=False)] = None,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Also say which laws with a condition no scenario applies, which have no near miss, "
                           "and which atoms of their conditions no pair of scenarios shows deciding.")
    ] = False,
    house: Annotated[Optional[str], typer.Option(
        "--house", metavar="FILE", help="Rule every file under this house-rules variant (a file or a built-in id).",
        show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Check every file anew: neither use nor keep results (also ADJUDICATE_NO_CACHE=1).")
    ] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Text format: only the summary, and nothing at all when every file passes.")] = False,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Text format: a line for each file checked, its status and the laws that decide it.")
    ] = False,
) -> None:
    """Check scenario files: load, validate, replay and rule each, and compare with its `expect` block.

    Exit 0 when every file passes, 1 when some ruling differs from its `expect`, 2 when some file is
    invalid or some folder could not be read (it wins); 141 when the output is a closed pipe; 130 on
    Ctrl-C, 143 on SIGTERM.

    Example: adjudicate check scenarios/
    """
    from adjudicate import api

    if quiet and verbose:
        fail(api.AdjudicateError("--quiet and --verbose cannot be given together"))
    sources = scenario_sources(paths)
    report = guarded(lambda: api.check(sources, house=house, jobs=jobs, shard=shard, coverage=coverage,
                                       cache=not no_cache))
    if format is CheckFormat.json:
        echo(dump_json(report.to_json(coverage)))
    elif format is CheckFormat.jsonl:
        for record in report.to_jsonl():
            echo(dump_jsonl(record))
    elif format is CheckFormat.sarif:
        echo(dump_json(report.to_sarif(coverage)))
    elif format is CheckFormat.junit:
        echo(report.to_junit(coverage))
    elif format is CheckFormat.github:
        echo(report.to_github(coverage), commands=True)
    else:
        text = report.to_text(coverage, verbosity=-1 if quiet else 1 if verbose else 0)
        if text:
            echo(commands_stopped(text), commands=True)
    if report.exit_code:
        raise typer.Exit(report.exit_code)


class SchemaFormat(str, enum.Enum):
    """Output formats of `schema`: the one schema, written as JSON or as YAML."""

    json = "json"
    yaml = "yaml"


@app.command("schema", cls=Command)
def schema_command(
    format: Annotated[SchemaFormat, typer.Option(
        "--format", "-f", help="json, or yaml (the same schema, for those who keep it beside the scenarios).")
    ] = SchemaFormat.json,
) -> None:
    """Print a JSON Schema (draft 2020-12) for scenario files, for editors (yaml-language-server).

    Example: adjudicate schema > scenario.schema.json, then put
    `# yaml-language-server: $schema=scenario.schema.json` at the top of a scenario file.
    """
    from adjudicate import api

    schema = api.scenario_schema()
    if format is SchemaFormat.yaml:
        import yaml

        echo(yaml.safe_dump(schema, sort_keys=False, allow_unicode=True, width=100))
    else:
        echo(dump_json(schema))
