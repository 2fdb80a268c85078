"""The `adjudicate` command: a thin layer that parses arguments and calls the library.

Each command lives in a `cli_*` module that registers itself on the shared app.
"""

from __future__ import annotations

from adjudicate.cli_common import app


def main() -> None:
    # Importing a command module registers its commands on `app`.
    from adjudicate import cli_laws, cli_replay  # noqa: F401

    app()


if __name__ == "__main__":  # pragma: no cover
    main()
