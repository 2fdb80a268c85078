"""What every command shares: the Typer app, `--format`, and turning errors into one line and exit 2."""

from __future__ import annotations

import enum
import sys
from typing import Any, Callable, NoReturn, TypeVar

import typer
from typer.main import get_command_name
from typer.models import CommandInfo

from adjudicate.errors import AdjudicateError, InputError

def new_app(**settings: Any) -> typer.Typer:
    """The `adjudicate` Typer app as every entry point builds it."""
    return typer.Typer(
        name="adjudicate",
        help="A rules lawyer for the card table: replays a disputed Euchre or Whist hand "
        "and says which numbered laws apply.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        **settings,
    )


app = new_app()
"""Every command registers itself here (`@app.command()` in its `cli_*` module)."""

COMMAND_MODULES = {"rule": "cli_rule", "replay": "cli_replay", "check": "cli_check", "schema": "cli_check",
                   "laws": "cli_laws", "law": "cli_laws", "lint": "cli_laws", "diff": "cli_house"}
"""The module (under `adjudicate`) whose import registers each command: `adjudicate CMD` imports only
that one (`adjudicate/__main__.py`); a test keeps the table whole."""


def command_name(info: CommandInfo) -> str:
    """The name a registered command is run by: its own, or its function's (`diff`)."""
    return info.name or get_command_name(getattr(info.callback, "__name__", ""))


def command_named(name: str) -> typer.Typer | None:
    """An app holding only the command `name`, of those registered so far (None if there is no such command).

    Typer inspects every registered command's signature before it runs one (about 20 ms
    for the eight); `adjudicate rule FILE` needs only its own. The app stays a group
    (a callback that does nothing), so usage, help and errors read `adjudicate rule …`
    exactly as they do from the full app.
    """
    chosen = [info for info in app.registered_commands if command_name(info) == name]
    if not chosen:
        return None
    single = new_app(callback=lambda: None)
    single.registered_commands = chosen
    return single


class Format(str, enum.Enum):
    """Output formats shared by every command."""

    table = "table"
    json = "json"
    markdown = "markdown"


T = TypeVar("T")


def report_problem(error: AdjudicateError) -> None:
    """Print an input or usage error to stderr, one line per problem."""
    if isinstance(error, InputError):
        for problem in error.problems:
            typer.echo(f"error: {problem}", err=True)
    else:
        typer.echo(f"error: {error}", err=True)


def fail(error: AdjudicateError) -> NoReturn:
    """Print an input or usage error, one line per problem, and exit 2."""
    report_problem(error)
    raise typer.Exit(2)


def guarded(call: Callable[[], T]) -> T:
    """Run library code; its errors become a clean message and exit code 2."""
    try:
        return call()
    except AdjudicateError as error:
        fail(error)


def dump_json(data: Any) -> str:
    """JSON as every command prints it: stable key order as built, two-space indent."""
    import json  # only the commands printing JSON need it

    return json.dumps(data, indent=2, ensure_ascii=False)


def echo(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def each_file(files: "list", format: Format, record: Callable[[str], Any], text: Callable[[str, bool], str]) -> None:
    """Run one library call a file; print JSON (one object, or an array for several files) or text.

    An input error in one file is printed (file:line:col, on stderr) and the others still run;
    the command then exits 2.
    """
    records, texts, failed = [], [], False
    for path in files:
        try:
            if format is Format.json:
                records.append(record(str(path)))
            else:
                texts.append(text(str(path), format is Format.markdown))
        except AdjudicateError as error:
            report_problem(error)
            failed = True
    if format is Format.json and records:
        echo(dump_json(records[0] if len(files) == 1 else records))
    elif texts:
        echo("\n".join(texts))
    if failed:
        raise typer.Exit(2)
