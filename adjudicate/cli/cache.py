"""`adjudicate cache`: where the parsed rulebooks are kept, and clearing them."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from adjudicate.cli.common import Command, Format, app, dump_json, echo, guarded, warn
from adjudicate.errors import EXIT_INPUT
from adjudicate.escape import visible


class Action(str, enum.Enum):
    info = "info"
    clear = "clear"


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.1f} MiB"


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


@app.command("cache", cls=Command)
def cache_command(
    action: Annotated[Action, typer.Argument(
        help="info: the cache folder and adjudicate's files in it; clear: remove those files.")] = Action.info,
    format: Annotated[Format, typer.Option("--format", "-f", help="table (for people), json or markdown.")
                      ] = Format.table,
) -> None:
    """Show where the parsed rulebooks are cached, and their size; or clear them.

    Example: adjudicate cache clear
    """
    from adjudicate import api

    cache = guarded(api.clear_cache if action is Action.clear else api.cache_info)
    if format is Format.json:
        echo(dump_json(cache.to_json()))
    else:
        folder = visible(cache.folder)
        if format is Format.markdown:
            folder = f"`{folder}`"
        if action is Action.clear:
            if cache.files:
                echo(f"removed {_files(len(cache.files))} ({_size(cache.size)}) from {folder}")
            else:
                echo(f"nothing to remove: {folder} {'holds no cache files' if cache.exists else 'does not exist'}")
        else:
            echo(f"cache folder: {folder}{'' if cache.exists else ' (not made yet)'}")
            echo(f"{_files(len(cache.files))}, {_size(cache.size)}; `adjudicate cache clear` removes them")
            if not cache.enabled:
                echo("the cache is turned off: ADJUDICATE_NO_CACHE is set")
    for name, why in cache.failed:
        warn(f"error: cannot remove {name} from {cache.folder}: {why}")
    if cache.failed:
        raise typer.Exit(EXIT_INPUT)
