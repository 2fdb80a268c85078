"""The native reader (`adjudicate/record/_yamltree.c`) builds the tree of an everyday file in C and leaves every
other file to the Python reader: where it gives a tree, it is the Python reader's tree, value for value, with the
same positions and tags; where the Python reader refuses a file, the native reader gives it back unread, so every
refusal is the Python reader's own. Checked on every YAML file of the repository and on mutants of them."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicate.errors import InputError
from adjudicate.record import yamlsource
from adjudicate.record.yamlsource import MAX_DEPTH, MAX_NODES, Node, parse_yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
native = yamlsource._native

pytestmark = pytest.mark.skipif(native is None, reason="the native reader is not built here (no libyaml headers)")


def _python_tree(text: str, path: str = "f.yaml") -> Node:
    saved = yamlsource._native
    yamlsource._native = None
    try:
        return parse_yaml(text, path)
    finally:
        yamlsource._native = saved


def _native_tree(text: str, path: str = "f.yaml") -> Node | None:
    assert native is not None
    return native.build(text, path)  # type: ignore[return-value]


def _plain(node: Node) -> object:
    """Everything a node holds, as plain values: kind, tag, position (its type too), and the value."""
    pos = (type(node.pos).__name__, node.pos.path, node.pos.line, node.pos.column)
    if node.kind == "seq":
        value: object = [_plain(child) for child in node.elements()]
    elif node.kind == "map":
        value = [(name, _plain(key), _plain(item)) for name, key, item in node.items()]
    else:
        assert type(node.value) is str
        value = node.value
    return (node.kind, node.tag, pos, value)


def _same_reading(text: str) -> Node | None:
    """The native tree of a text, after checking it against the Python reader's reading of the same text."""
    try:
        expected: object = _plain(_python_tree(text))
    except InputError as refusal:
        expected = refusal
    got = _native_tree(text)
    if got is None:
        return None
    assert not isinstance(expected, InputError), f"the Python reader refuses it ({expected}); the native read it"
    assert _plain(got) == expected
    return got


YAML_FILES = sorted(path for pattern in ("*.yaml", "*.yml") for path in ROOT.rglob(pattern)
                    if not {".venv", "build", ".git", "node_modules"} & set(path.relative_to(ROOT).parts))


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_yaml_file_of_the_repository_reads_the_same(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    _same_reading(text)


def _everyday(text: str) -> bool:
    """Read by the Python reader, with no anchor or alias."""
    try:
        _python_tree(text)
    except InputError:
        return False
    return not any(getattr(event, "anchor", None) for event in yaml.parse(text, Loader=yaml.CSafeLoader))


def test_the_shipped_scenarios_and_rulebooks_take_the_native_way():
    """The everyday files are the native reader's: it gives none of them back (else it saves nothing)."""
    shipped = [path for path in YAML_FILES
               if path.relative_to(ROOT).parts[0] == "scenarios" or "rulebooks" in path.parts]
    given_back = {str(path.relative_to(ROOT)) for path in shipped if _same_reading(path.read_text("utf-8")) is None}
    not_everyday = {str(path.relative_to(ROOT)) for path in shipped if not _everyday(path.read_text("utf-8"))}
    assert len(shipped) > 300 and len(not_everyday) < 5
    assert given_back == not_everyday


@pytest.mark.parametrize("text, what", [
    ("a: &x 1\nb: *x\n", "an anchor and an alias"),
    ("a: !!str 1\n", "a tag"),
    ("a: ! 1\n", "the non-specific tag"),
    ("%TAG !e! tag:example.org,2026:\n---\na: 1\n", "a tag directive"),
    ("a: 1\na: 2\n", "a duplicate key"),
    (": 1\n", "an empty key"),
    ("~: 1\n", "a null key"),
    ("? [a]\n: 1\n", "a list as a key"),
    ("? {a: 1}\n: 1\n", "a mapping as a key"),
    ('a: "\\e[31m"\n', "a control character written as an escape"),
    ('a: "\\x85"\n', None),  # NEL is allowed: read natively
    ("a: =\n", "YAML 1.1's value key"),
    ("<<: {a: 1}\n", "a merge key"),
    ("a: 1\n---\nb: 2\n", "a second document"),
    ("", "an empty file"),
    ("# only a comment\n", "comments only"),
    ("a: [1, 2\n", "a syntax error"),
    ("a: 1\n  b: 2\n", "a syntax error"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "nesting past the limit"),
    ("[" + ", ".join(["1"] * MAX_NODES) + "]\n", "more values than the limit"),
])
def test_what_the_native_reader_gives_back_to_the_python_reader(text, what):
    got = _same_reading(text)
    if what is None:
        assert got is not None
    else:
        assert got is None, what


@pytest.mark.parametrize("text, tag", [
    ("a: 010\n", "int"), ("a: 08\n", "int"), ("a: '010'\n", "str"), ("a: yes\n", "bool"), ("a: \"yes\"\n", "str"),
    ("a: 0x0A\n", "int"), ("a: 1.5\n", "float"), ("a: ~\n", "null"), ("a:\n", "null"), ("a: null\n", "null"),
    ("a: 2026-12-02\n", "timestamp"), ("a: N\n", "str"), ("a: AS\n", "str"), ("a: Öl\n", "str"), ("a: |\n  x\n", "str"),
    ("a: -1\n", "int"), ("a: .inf\n", "float"), ("a: on\n", "bool"), ("a: 1:30\n", "int"),
])
def test_a_value_takes_the_tag_the_python_reader_gives_it(text, tag):
    got = _same_reading(text)
    assert got is not None
    assert got.get("a").tag == "tag:yaml.org,2002:" + tag  # type: ignore[union-attr]


def test_positions_count_characters_not_bytes():
    got = _same_reading("title: Öl — ÿ\nnotes: [é, ü]\n")
    assert got is not None
    notes = got.get("notes")
    assert notes is not None and [child.pos.column for child in notes.elements()] == [9, 12]


_SEEDS = [path.read_text("utf-8") for path in YAML_FILES[::25]] + [
    "a: &x [1, {b: *x}]\n", "k: !!python/object:os.system x\n", "a: \"\\e\"\nb: 'x'\n", "? a\n: b\n",
    "a: {b: [c, d: e]}\n", "- - - x\n- y\n", "a: >\n  folded\n  text\n", "%YAML 1.1\n---\na: 1\n...\n",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SEEDS), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                                                   st.sampled_from(list(":-[]{},&*!?|>'\"#\n %~\\\té0")),
                                                   st.booleans()), max_size=6))
def test_mutants_read_the_same_or_go_to_the_python_reader(seed, edits):
    """Characters inserted and deleted, and lines doubled: the native tree is the Python reader's, or none."""
    text = seed
    for where, how, char, double in edits:
        at = where % (len(text) + 1)
        if double:
            lines = text.split("\n")
            line = at % len(lines)
            lines.insert(line, lines[line])
            text = "\n".join(lines)
        elif how == 0:
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + char * how + text[at:]
    _same_reading(text)


_WITHOUT_NATIVE = ("import sys; sys.modules['adjudicate.record._yamltree'] = None; "
                   "from adjudicate.__main__ import main; sys.argv[0] = 'adjudicate'; main()")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_says_the_same_with_the_python_reader_alone(fmt):
    """Where the native reader could not be built, `check` reads every file the Python way and says the same."""
    args = ["check", "--no-cache", "--jobs", "1", "--format", fmt, "scenarios/"]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    with_native = subprocess.run([sys.executable, "-m", "adjudicate", *args], cwd=ROOT, env=env,
                                 capture_output=True, text=True, timeout=300)
    without = subprocess.run([sys.executable, "-c", _WITHOUT_NATIVE, *args], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
    assert with_native.returncode == without.returncode == 0, without.stderr[-2000:]
    assert with_native.stdout == without.stdout and with_native.stderr == without.stderr
    probe = subprocess.run([sys.executable, "-c", _WITHOUT_NATIVE.replace(
        "from adjudicate.__main__ import main; sys.argv[0] = 'adjudicate'; main()",
        "from adjudicate.record import yamlsource; print(yamlsource._native)")], capture_output=True, text=True)
    assert probe.stdout.strip() == "None"
