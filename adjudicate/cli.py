"""The `adjudicate` command: a thin layer that parses arguments and calls the library.

Each command lives in a `cli_*` module that registers itself on the shared app;
importing this module registers them all.
"""

from __future__ import annotations

from adjudicate import cli_check, cli_house, cli_laws, cli_replay, cli_rule  # noqa: F401  (each registers its commands)
from adjudicate.cli_common import app

__all__ = ["app", "main"]


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
