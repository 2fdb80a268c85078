"""The floor of each of pyproject.toml's dependencies as a pin (`typer==0.18`), one a line, for .ci/floors.

With --verify: exit 1 unless each dependency is installed at exactly its floor. Every dependency must
have a `>=` floor: one without is an error, so a new dependency cannot slip past the floors test.
"""

from __future__ import annotations

import re
import sys
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as the package tomli
    import tomli as tomllib
from importlib.metadata import version
from pathlib import Path

REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*)(;.*)?$")


def floors() -> dict[str, str]:
    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))["project"]
    found = {}
    for requirement in project["dependencies"]:
        match = REQUIREMENT.match(requirement)
        floor = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", match.group(2)) if match else None
        if floor is None:
            sys.exit(f"floor_pins: {requirement!r} has no `>=` floor; give it one, so .ci/floors can test it")
        found[match.group(1)] = floor.group(1)
    return found


def same(installed: str, floor: str) -> bool:
    """`0.18.0` is the floor `0.18`; `6.0` is `6.0`."""
    def parts(text: str) -> list[str]:
        pieces = text.split(".")
        while len(pieces) > 1 and pieces[-1] == "0":
            pieces.pop()
        return pieces

    return parts(installed) == parts(floor)


def main() -> None:
    pins = floors()
    if sys.argv[1:] == ["--verify"]:
        wrong = [f"{name} {version(name)} (floor {floor})" for name, floor in pins.items()
                 if not same(version(name), floor)]
        if wrong:
            sys.exit("floor_pins: not at their floors: " + ", ".join(wrong))
        print("floors installed: " + ", ".join(f"{name} {version(name)}" for name in pins))
        return
    for name, floor in pins.items():
        print(f"{name}=={floor}")


if __name__ == "__main__":
    main()
