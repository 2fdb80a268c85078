"""The house's shape (docs/architecture.md): the pipeline's layers import one way, down, with no circle between
modules, and no room too large to hold in one's head.

The layers contract lives in pyproject.toml (`[tool.importlinter]`) and is checked by import-linter, which
reads every import, those inside functions too.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicate"
LINT_IMPORTS = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; c()"]


def _lint(folder: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(folder))
    return subprocess.run([*LINT_IMPORTS, "--no-cache", "--config", str(folder / "pyproject.toml")],
                          cwd=folder, env=env, capture_output=True, text=True)


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(PACKAGE, tmp_path / "adjudicate", ignore=shutil.ignore_patterns("__pycache__", "rulebooks"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_layers_contract_is_kept():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


def test_an_upward_import_inside_a_function_breaks_the_contract(tmp_path):
    folder = _copy(tmp_path)
    cards = folder / "adjudicate" / "record" / "cards.py"
    cards.write_text(cards.read_text() + "\n\ndef _up():\n    from adjudicate.ruling import decision  # noqa\n")
    done = _lint(folder)
    assert done.returncode == 1
    assert "adjudicate.record.cards -> adjudicate.ruling.decision" in done.stdout


def test_a_module_left_out_of_the_layers_breaks_the_contract(tmp_path):
    folder = _copy(tmp_path)
    (folder / "adjudicate" / "stray.py").write_text("")
    done = _lint(folder)
    assert done.returncode == 1 and "adjudicate.stray" in done.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every import circle between two or more modules, found by a depth-first walk (one per strongly
    connected group is enough to fail)."""
    found, state, stack = [], {}, []

    def visit(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(other) == "open":
                found.append(stack[stack.index(other):] + [other])
            elif other not in state:
                visit(other)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph.modules):
        if module not in state:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_circle():
    graph = grimp.build_graph("adjudicate")
    assert _cycles(graph) == []
    # The package's __init__ offers the API's names lazily (`adjudicate.rule`): it stands above `api`, and no
    # module of the package imports it (the version is `adjudicate.version`).
    assert graph.find_modules_that_directly_import("adjudicate") == set()


def test_no_class_is_longer_than_a_reader_can_hold():
    """No class over 300 lines (docs/architecture.md: the replay is split by the phases of a hand, the
    scenario's reader from its `expect` block's, the rulebook's reader from its model and cache)."""
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 300:
                long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert not long, long
