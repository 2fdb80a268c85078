"""The `adjudicate` command: a thin layer that parses arguments and calls the library.

Each command lives in a module of `adjudicate/cli/` that registers itself on the shared app;
importing this module registers them all.
"""

from __future__ import annotations

# Each import registers its commands; `--help` lists them in this order, the main job first.
from adjudicate.cli import rule  # noqa: F401  isort:skip
from adjudicate.cli import replay  # noqa: F401  isort:skip
from adjudicate.cli import check  # noqa: F401  isort:skip
from adjudicate.cli import laws  # noqa: F401  isort:skip
from adjudicate.cli import house  # noqa: F401  isort:skip
from adjudicate.cli import cache  # noqa: F401  isort:skip
from adjudicate.cli.common import app, command_name, command_named

__all__ = ["app", "command_name", "command_named", "main"]


def main() -> None:
    """The full app (the `adjudicate` command itself starts from `adjudicate.__main__`, which imports
    only the command asked for)."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
