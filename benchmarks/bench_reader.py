"""What reading the shipped scenarios costs, by reader: today's `parse_yaml` against the parsers under it, and
rapidyaml's Python binding (`ryml`, optional: `pip install rapidyaml`) as a candidate for issue 22's one tree per
file.

    python benchmarks/bench_reader.py [--rounds 7] [--instructions]

Each mode reads every `scenarios/**/*.yaml` (their text read once, before timing):

- `parse_yaml`: today's reader, the positioned `Node` tree with every check;
- `pyyaml-load`: `yaml.load(text, Loader=yaml.CSafeLoader)`, the parse floor `bench_check.py` measures against;
- `libyaml-raw`: libyaml's own parse with no Python object made (`CParser.raw_parse`): what any reader that
  must refuse exactly what libyaml refuses pays at least;
- `ryml-parse`: rapidyaml parsing each file into its C++ tree (nothing read out of it);
- `ryml-walk`: the same, then every node's type, key and value read out through the binding and decoded, as
  any reader building our tree from rapidyaml's must at the least (no position, no `Node` made, no check).

Times are the best and the median of interleaved rounds (all modes take turns in each round). With
`--instructions`, each mode is also counted under valgrind's callgrind in a process of its own, less a process
that only reads the texts and imports the same modules: the same count on a busy machine as on a quiet one.
"""

from __future__ import annotations

import argparse
import gc
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def _texts() -> list[tuple[str, str]]:
    return [(str(path), path.read_text(encoding="utf-8")) for path in sorted((ROOT / "scenarios").rglob("*.yaml"))]


def modes() -> dict[str, Callable[[list[tuple[str, str]]], None]]:
    import yaml
    from yaml._yaml import CParser

    from adjudicate.errors import InputError
    from adjudicate.record.yamlsource import parse_yaml

    def today(texts: list[tuple[str, str]]) -> None:
        for path, text in texts:
            try:
                parse_yaml(text, path)
            except InputError:
                pass

    def pyyaml_load(texts: list[tuple[str, str]]) -> None:
        for _, text in texts:
            yaml.load(text, Loader=yaml.CSafeLoader)

    def libyaml_raw(texts: list[tuple[str, str]]) -> None:
        for _, text in texts:
            CParser(text).raw_parse()

    chosen: dict[str, Callable[[list[tuple[str, str]]], None]] = {"parse_yaml": today, "pyyaml-load": pyyaml_load, "libyaml-raw": libyaml_raw}
    try:
        import ryml
    except ImportError:
        return chosen
    binding = ryml._ryml
    none = ryml.NONE
    has_key, has_val = ryml.KEY, ryml.VAL
    node_type, key_of, val_of = binding.Tree_type, binding.Tree_key, binding.Tree_val
    first_child, next_sibling = binding.Tree_first_child, binding.Tree_next_sibling

    def ryml_parse(texts: list[tuple[str, str]]) -> None:
        for _, text in texts:
            binding.parse_csubstr(text.encode("utf-8"), ryml.Tree())

    def ryml_walk(texts: list[tuple[str, str]]) -> None:
        for _, text in texts:
            tree = ryml.Tree()
            binding.parse_csubstr(text.encode("utf-8"), tree)
            stack = [tree.root_id()]
            while stack:
                node = stack.pop()
                kind = node_type(tree, node)
                if kind & has_key:
                    str(key_of(tree, node), "utf-8")
                if kind & has_val:
                    value = val_of(tree, node)
                    if value is not None:
                        str(value, "utf-8")
                child = first_child(tree, node)
                while child != none:
                    stack.append(child)
                    child = next_sibling(tree, child)

    chosen.update({"ryml-parse": ryml_parse, "ryml-walk": ryml_walk})
    return chosen


def _instructions(mode: str) -> int:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                           __file__, "--once", mode], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if not found:
        sys.exit(f"callgrind gave no count for {mode}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    parser.add_argument("--once", help=argparse.SUPPRESS)  # one mode, once (or "none"): for callgrind
    args = parser.parse_args()
    texts = _texts()
    readers = modes()
    gc.disable()  # as parse_yaml runs, for every mode alike
    if args.once:
        if args.once != "none":
            readers[args.once](texts)
        return
    times: dict[str, list[float]] = {name: [] for name in readers}
    for _ in range(args.rounds):
        for name, read in readers.items():
            start = time.perf_counter()
            read(texts)
            times[name].append(time.perf_counter() - start)
    base = times["parse_yaml"]
    print(f"{len(texts)} files, python {sys.version.split()[0]}; best and median of {args.rounds} interleaved rounds, "
          "and the median of each round's ratio to parse_yaml")
    for name, taken in times.items():
        ratio = statistics.median(mine / ours for mine, ours in zip(taken, base))
        print(f"  {name:12s} {min(taken) * 1000:8.1f} ms best {statistics.median(taken) * 1000:8.1f} ms median "
              f"{ratio:6.3f}x parse_yaml")
    if args.instructions:
        if shutil.which("valgrind") is None:
            sys.exit("valgrind not found")
        start = _instructions("none")
        counts = {name: _instructions(name) - start for name in readers}
        print(f"instructions (callgrind, less {start:,} to start and read the texts):")
        for name, count in counts.items():
            print(f"  {name:12s} {count / 1e6:9.1f} M  {count / len(texts) / 1e6:6.3f} M a file  "
                  f"{count / counts['parse_yaml']:6.3f}x parse_yaml")


if __name__ == "__main__":
    main()
