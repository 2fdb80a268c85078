"""Benchmark `adjudicate check` against the floor of merely parsing the same files, and `rule`'s cold start.

    python benchmarks/bench_check.py [--files 10000] [--runs 3] [--skip-large] [--instructions]

Writes 10,000 scenario files (variations of the shipped ones: the same hands with
a comment and a note) under benchmarks/out/ (git-ignored), in folders
of 2,000, then times whole processes over several rounds, each command and its
floor taking turns, and prints the ratio of the best times and the median of the
rounds' ratios:

- `adjudicate check --jobs 1` and `--jobs 2` on 2,000 files and on all of them, against
  a bare Python process that only reads and parses the same files with
  `yaml.load(text, Loader=yaml.CSafeLoader)`;
- `check --jobs 1` run again over the same unchanged files (the result cache primed), against the cold
  `check --no-cache --jobs 1`;
- cold start: `adjudicate rule FILE` against `python -c "import typer, yaml, tabulate"`.

With --instructions it also counts the instructions of the 2,000-file check, the
parse floor, `rule` and the import floor under valgrind's callgrind: slow, but the
same count on a busy machine as on a quiet one.

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
import statistics
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


def _run(command: list[str], accept: tuple[int, ...]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode not in accept:
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout.decode()[-2000:]}"
                 f"{done.stderr.decode()[-2000:]}")
    return took


def interleaved(commands: dict[str, list[str]], runs: int, accept: tuple[int, ...] = (0,)) -> dict[str, list[float]]:
    """Each command's times over `runs` rounds, the commands taking turns within a round.

    On a shared machine the load changes from second to second: a floor timed in one minute
    and its command in the next can differ by a third for no reason of theirs. Taking turns,
    each round's floor and command meet much the same load, and the median of the rounds'
    ratios is steadier than the ratio of two bests.
    """
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(_run(command, accept))
    return times


def ratios(times: dict[str, list[float]], floor: str, name: str) -> tuple[float, float]:
    """(best / best, median of each round's ratio) of `name` against `floor`."""
    return min(times[name]) / min(times[floor]), statistics.median(
        mine / base for mine, base in zip(times[name], times[floor]))


def instructions(command: list[str]) -> int | None:
    """Instructions the command executes, counted by valgrind's callgrind (None without valgrind):
    the same count whatever else the machine is doing."""
    if shutil.which("valgrind") is None:
        return None
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3, help="rounds of the check timings (cold starts: 5x as many)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out")
    parser.add_argument("--skip-large", action="store_true", help="time only the 2,000-file folder")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions with valgrind (minutes; the same on a busy machine)")
    parser.add_argument("--instructions-only", action="store_true",
                        help="count instructions only (the 2,000-file folder, no timed rounds)")
    parser.add_argument("--memory", action="store_true",
                        help="only the peak memory (VmHWM) of `check --no-cache --jobs 2` over all --files files "
                             "and of each of its workers (Linux)")
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
    scenario = str(SCENARIOS / "euchre" / "revoke-established.yaml")
    floor_cmd = [sys.executable, "-c", "import typer, yaml, tabulate"]
    rule_cmd = adjudicate_cmd + ["rule", scenario]
    # The caches live under out/: the result cache is primed before the re-run rounds; the cold rounds pass
    # --no-cache (the parsed built-in rulebooks are still read from their cache, as on any machine).
    os.environ["ADJUDICATE_CACHE_DIR"] = str(args.out / "cache")
    shutil.rmtree(args.out / "cache", ignore_errors=True)
    if args.memory:
        peaks = peak_memory(adjudicate_cmd + ["check", "--no-cache", "--jobs", "2", str(files)])
        print(f"peak memory (VmHWM) of check --no-cache --jobs 2 over {total:,} files: "
              + ", ".join(f"{name} {kib / 1024:.1f} MiB" for name, kib in peaks.items()))
        return
    rows = []
    sets = [] if args.instructions_only else [(small, first)] + ([] if args.skip_large else [(total, files)])
    for count, folder in sets:
        # Exit 1 (some expectation not met by a scenario being edited) still rules every file: timed all the same.
        warm = adjudicate_cmd + ["check", "--jobs", "1", str(folder)]
        _run(warm, accept=(0, 1))  # the result cache primed
        times = interleaved({"floor": [sys.executable, "-c", BARE_PARSE, str(folder)],
                             "one": adjudicate_cmd + ["check", "--no-cache", "--jobs", "1", str(folder)],
                             "two": adjudicate_cmd + ["check", "--no-cache", "--jobs", "2", str(folder)],
                             "warm": warm}, args.runs, accept=(0, 1))
        (one_best, one_median), (two_best, two_median) = ratios(times, "floor", "one"), ratios(times, "floor", "two")
        warm_best, warm_median = ratios(times, "one", "warm")
        rows.append((count, one_best, one_median, two_best, two_median))
        print(f"{count:>6,} files: parse floor {min(times['floor']):6.2f}s   "
              f"check --jobs 1 {min(times['one']):6.2f}s ({one_best:.2f}x best, {one_median:.2f}x median)   "
              f"check --jobs 2 {min(times['two']):6.2f}s ({two_best:.2f}x best, {two_median:.2f}x median)   "
              f"re-run, unchanged files, --jobs 1 {min(times['warm']):6.3f}s ({warm_best:.3f}x / {warm_median:.3f}x "
              f"the cold --jobs 1; target <= 0.1)")

    if args.instructions_only:
        args.instructions = True
    else:
        cold_starts(args, floor_cmd, rule_cmd, scenario, rows)
    if args.instructions:
        count_instructions(adjudicate_cmd, first, small, floor_cmd, rule_cmd)


def cold_starts(args: argparse.Namespace, floor_cmd: list[str], rule_cmd: list[str], scenario: str,
                rows: list[tuple[int, float, float, float, float]]) -> None:
    times = interleaved({"floor": floor_cmd, "rule": rule_cmd,
                         "typer": [sys.executable, "-c", TYPER_COMMAND, scenario]}, args.runs * 5)
    rule_best, rule_median = ratios(times, "floor", "rule")
    typer_best, _ = ratios(times, "floor", "typer")
    print(f"cold start: import typer, yaml, tabulate {min(times['floor']):.3f}s   adjudicate rule {min(times['rule']):.3f}s "
          f"({rule_best:.2f}x best, {rule_median:.2f}x median)   an empty Typer command with one file argument "
          f"{min(times['typer']):.3f}s ({typer_best:.2f}x)")
    count, one_best, one_median, two_best, two_median = rows[0]
    print(f"ratios: check {count:,} files --jobs 1 / parse floor = {one_best:.2f} best, {one_median:.2f} median "
          f"(target <= 2); --jobs 2 = {two_best:.2f}, {two_median:.2f} (target < --jobs 1); "
          f"rule / import floor = {rule_best:.2f}, {rule_median:.2f} (target <= 1.3)")


def _status(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            return dict(line.rstrip("\n").split(":\t", 1) for line in handle if ":\t" in line)
    except OSError:
        return {}


def peak_memory(command: list[str]) -> dict[str, int]:
    """The peak resident size (VmHWM, KiB) of the command's process and of each process it starts, read from
    /proc while they run (the last reading before each ends: a peak reached in its last tenth of a second may
    be missed). Linux only."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks: dict[int, int] = {}
    while process.poll() is None:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            status = _status(pid)
            if pid == process.pid or status.get("PPid", "").strip() == str(process.pid):
                high = status.get("VmHWM", "0 kB").split()[0]
                peaks[pid] = max(peaks.get(pid, 0), int(high))
        time.sleep(0.1)
    if process.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {process.returncode}")
    return {("parent" if pid == process.pid else f"worker {pid}"): kib for pid, kib in sorted(peaks.items())}


def count_instructions(adjudicate_cmd: list[str], first: Path, small: int, floor_cmd: list[str],
                       rule_cmd: list[str]) -> None:
    floor_count = instructions([sys.executable, "-c", BARE_PARSE, str(first)])
    check_count = instructions(adjudicate_cmd + ["check", "--no-cache", "--jobs", "1", str(first)])
    _run(adjudicate_cmd + ["check", "--jobs", "1", str(first)], accept=(0, 1))  # the result cache primed
    warm_count = instructions(adjudicate_cmd + ["check", "--jobs", "1", str(first)])
    import_count = instructions(floor_cmd)
    rule_count = instructions(rule_cmd)
    if floor_count is None or check_count is None or warm_count is None or import_count is None \
            or rule_count is None:
        print("instructions: valgrind not found")
    else:
        print(f"instructions (callgrind): check {small:,} files {check_count:,} / parse floor {floor_count:,} = "
              f"{check_count / floor_count:.2f}; rule {rule_count:,} / import floor {import_count:,} = "
              f"{rule_count / import_count:.2f}; re-run over unchanged files {warm_count:,} = "
              f"{warm_count / check_count:.3f} of the cold check (target <= 0.1)")


if __name__ == "__main__":
    main()
