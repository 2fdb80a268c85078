"""The `adjudicate` command's entry point, and `python -m adjudicate`."""

import gc


def main() -> None:
    # What a run allocates forms no reference cycles (tests/test_no_cycles.py checks that ruling
    # and checking files leaves the cycle collector nothing to find), and the modules, rulebooks
    # and Typer app a start builds live until exit: the collector's rounds over them were about a
    # twentieth of a cold start, and found nothing. Memory is still freed as each object goes.
    gc.disable()
    from adjudicate.cli import main as run

    run()


if __name__ == "__main__":
    main()
