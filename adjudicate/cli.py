"""The `adjudicate` command: a thin layer that parses arguments and calls the library.

Each command lives in a `cli_*` module that registers itself on the shared app;
importing this module registers them all.
"""

from __future__ import annotations

import sys

import typer
from typer.main import get_command_name
from typer.models import CommandInfo

# Each import registers its commands; `--help` lists them in this order, the main job first.
from adjudicate import cli_rule  # noqa: F401  isort:skip
from adjudicate import cli_replay  # noqa: F401  isort:skip
from adjudicate import cli_check  # noqa: F401  isort:skip
from adjudicate import cli_laws  # noqa: F401  isort:skip
from adjudicate import cli_house  # noqa: F401  isort:skip
from adjudicate.cli_common import app, new_app

__all__ = ["app", "main"]


def command_name(info: CommandInfo) -> str:
    """The name a registered command is run by: its own, or its function's (`diff`)."""
    return info.name or get_command_name(getattr(info.callback, "__name__", ""))


def command_named(name: str) -> typer.Typer | None:
    """An app holding only the command `name` (None if there is no such command).

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


def main() -> None:
    single = command_named(sys.argv[1]) if len(sys.argv) > 1 else None
    (single or app)()


if __name__ == "__main__":  # pragma: no cover
    main()
