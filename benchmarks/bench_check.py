"""Benchmark `adjudicate check` against the floor of merely parsing the same files, and `rule`'s cold start.

    python benchmarks/bench_check.py [--files 10000] [--runs 3] [--out benchmarks/out]

Writes 10,000 scenario files (variations of the shipped ones: the same hands with
a comment and a note) under benchmarks/out/ (git-ignored), in folders
of 2,000, then times whole processes, best of several runs:

- `adjudicate check --jobs 1` and `--jobs 2` on 2,000 files and on all of them, against
  a bare Python process that only reads and parses the same files with
  `yaml.load(text, Loader=yaml.CSafeLoader)`;
- cold start: `adjudicate rule FILE` against `python -c "import typer, yaml, tabulate"`.

It prints each time and the ratios. The issue's targets: check on 2,000 files in
one process at most twice the parse floor, less with --jobs 2; `rule` within 1.3
times the import floor.

The package is byte-compiled first (`compileall`), as an installed package is: a
checkout run with PYTHONDONTWRITEBYTECODE=1 would otherwise recompile every
module of adjudicate at each start, which no installed copy does.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
PER_FOLDER = 2_000

BARE_PARSE = """
import os, sys, yaml
files = []
for folder, subfolders, names in os.walk(sys.argv[1]):
    files.extend(os.path.join(folder, name) for name in names if name.endswith(('.yaml', '.yml')))
for path in sorted(files):
    with open(path, encoding='utf-8') as handle:
        yaml.load(handle.read(), Loader=yaml.CSafeLoader)
"""


TYPER_COMMAND = """
import typer, yaml, tabulate
from pathlib import Path
app = typer.Typer(add_completion=False)
@app.command()
def rule(file: Path) -> None:
    pass
app([__import__('sys').argv[1]])
"""
"""The least any Typer command taking a file argument costs: Typer parses arguments with pydantic
(typer 0.29 builds a TypeAdapter per parameter), which the import floor does not load."""


def _adjudicate() -> list[str]:
    script = Path(sys.executable).with_name("adjudicate")
    return [str(script)] if script.exists() else [sys.executable, "-m", "adjudicate"]


def sources() -> list[Path]:
    """The shipped scenarios that stand alone (no house file or rulebook named by a relative path)."""
    chosen = []
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        if "house" in path.relative_to(SCENARIOS).parts[:-1]:
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"^(code|house):.*\.ya?ml\s*$", text, re.M):
            continue
        chosen.append(path)
    return chosen


def write_files(out: Path, count: int) -> Path:
    """`count` scenario files under out/files/part-N/, PER_FOLDER a folder; returns out/files."""
    target = out / "files"
    if target.exists():
        shutil.rmtree(target)
    originals = [(path, path.read_text(encoding="utf-8")) for path in sources()]
    rng = random.Random(1888)
    for number in range(count):
        path, text = originals[number % len(originals)]
        # A comment and a note: the same hand, so the same ruling; every file's bytes differ.
        varied = text if re.search(r"^notes:", text, re.M) else text + f"notes: variation {number}\n"
        varied = f"# variation {number} of {path.relative_to(SCENARIOS).as_posix()}, seed {rng.random():.6f}\n" + varied
        folder = target / f"part-{number // PER_FOLDER}" / path.parent.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{path.stem}-{number:05d}.yaml").write_text(varied, encoding="utf-8")
    return target


def best(command: list[str], runs: int, accept: tuple[int, ...] = (0,)) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if done.returncode not in accept:
            sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout.decode()[-2000:]}"
                     f"{done.stderr.decode()[-2000:]}")
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3, help="runs of each check timing (cold starts: 3x as many)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out")
    parser.add_argument("--skip-large", action="store_true", help="time only the 2,000-file folder")
    args = parser.parse_args()

    import adjudicate

    compileall.compile_dir(os.path.dirname(adjudicate.__file__), quiet=1)
    files = write_files(args.out, args.files)
    first = files / "part-0"
    small = sum(1 for _ in first.rglob("*.yaml"))
    total = sum(1 for _ in files.rglob("*.yaml"))
    print(f"wrote {total:,} scenario files under {files} ({small:,} in {first.name}); python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores")

    adjudicate_cmd = _adjudicate()
    rows = []
    sets = [(small, first)] + ([] if args.skip_large else [(total, files)])
    for count, folder in sets:
        floor = best([sys.executable, "-c", BARE_PARSE, str(folder)], args.runs)
        # Exit 1 (some expectation not met by a scenario being edited) still rules every file: timed all the same.
        one = best(adjudicate_cmd + ["check", "--jobs", "1", str(folder)], args.runs, accept=(0, 1))
        two = best(adjudicate_cmd + ["check", "--jobs", "2", str(folder)], args.runs, accept=(0, 1))
        rows.append((count, floor, one, two))
        print(f"{count:>6,} files: parse floor {floor:6.2f}s   check --jobs 1 {one:6.2f}s ({one / floor:.2f}x)   "
              f"check --jobs 2 {two:6.2f}s ({two / floor:.2f}x)")

    scenario = str(SCENARIOS / "euchre" / "revoke-established.yaml")
    floor = best([sys.executable, "-c", "import typer, yaml, tabulate"], args.runs * 3)
    rule = best(adjudicate_cmd + ["rule", scenario], args.runs * 3)
    command = best([sys.executable, "-c", TYPER_COMMAND, scenario], args.runs * 3)
    print(f"cold start: import typer, yaml, tabulate {floor:.3f}s   adjudicate rule {rule:.3f}s ({rule / floor:.2f}x)   "
          f"an empty Typer command with one file argument {command:.3f}s ({command / floor:.2f}x)")
    count, parse_floor, one, two = rows[0]
    print(f"ratios: check {count:,} files --jobs 1 / parse floor = {one / parse_floor:.2f} (target <= 2), "
          f"--jobs 2 = {two / parse_floor:.2f} (target < --jobs 1); rule / import floor = {rule / floor:.2f} "
          f"(target <= 1.3)")


if __name__ == "__main__":
    main()
