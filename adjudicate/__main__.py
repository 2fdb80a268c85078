"""The `adjudicate` command's entry point, and `python -m adjudicate`."""

import gc
import importlib
import sys


def main() -> None:
    # What a run allocates forms no reference cycles (tests/test_no_cycles.py checks that ruling
    # and checking files leaves the cycle collector nothing to find), and the modules, rulebooks
    # and Typer app a start builds live until exit: the collector's rounds over them were about a
    # twentieth of a cold start, and found nothing. Memory is still freed as each object goes.
    gc.disable()
    # `adjudicate CMD` imports only the module of CMD; anything else (--help, a typo to be
    # answered with "did you mean") goes to the full app.
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    from adjudicate.cli_common import COMMAND_MODULES, command_named

    if name in COMMAND_MODULES:
        importlib.import_module(f"adjudicate.{COMMAND_MODULES[name]}")
        single = command_named(name)
        if single is not None:
            single()
            return
    from adjudicate.cli import main as run

    run()


if __name__ == "__main__":
    main()
