"""The Python API (`adjudicate.api`, docs/api.md): its sources, records, errors, and that the CLI uses only it."""

from __future__ import annotations

import ast
import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
import yaml
from typer.testing import CliRunner

import adjudicate
from adjudicate import api
from adjudicate.checking import batch as checking
from adjudicate.cli.app import app
from adjudicate.play.facts import detect
from adjudicate.ruling.pipeline import rule_scenario
from adjudicate.ruling.records import replay_record, ruling_record
from adjudicate.record.scenario import load_scenario
from adjudicate.play.replay import replay as replay_hand

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
PACKAGE = ROOT / "adjudicate"
FILES = sorted(path for path in SCENARIOS.rglob("*.yaml") if "house" not in path.relative_to(SCENARIOS).parts[:-1])
REVOKE = SCENARIOS / "euchre" / "revoke-established.yaml"


def _id(path: Path) -> str:
    return path.relative_to(SCENARIOS).as_posix()


def _invoke(*args: str):
    return CliRunner().invoke(app, [str(arg) for arg in args])


# --- the docs ---------------------------------------------------------------------------------------

def test_the_api_page_runs_as_written(monkeypatch):
    """docs/api.md's examples, from the repository's top folder: every output shown is the real one."""
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, report=True,
                              optionflags=doctest.DONT_ACCEPT_TRUE_FOR_1)
    assert result.attempted > 30 and result.failed == 0


def test_the_readme_links_the_api_page():
    assert "(docs/api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


# --- the package's face -----------------------------------------------------------------------------

def test_the_package_exports_the_api_and_lists_it():
    assert adjudicate._API == set(api.__all__)
    for name in api.__all__:
        assert getattr(adjudicate, name) is getattr(api, name)
    assert {"rule", "replay", "check", "laws", "law", "AdjudicateError", "Ruling"} <= set(dir(adjudicate))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        adjudicate.nothing  # noqa: B018


def test_importing_the_package_imports_nothing_else():
    """`import adjudicate` is the package's __init__ alone: not the API, not typing, not the pipeline."""
    script = ("import sys; before = set(sys.modules); import adjudicate; "
              "print(' '.join(sorted(set(sys.modules) - before)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    # __future__ (the stdlib's own few lines, for the annotations) may be loaded already or not, by the site
    assert set(done.stdout.split()) - {"__future__"} == {"adjudicate"}
    script = "import adjudicate, sys; adjudicate.rule; print('yaml' in sys.modules, 'adjudicate.play.table' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]  # the API's module, without the pipeline


# --- the CLI imports only the face -------------------------------------------------------------------

CLI_MODULES = sorted([*(PACKAGE / "cli").glob("*.py"), PACKAGE / "__main__.py"])
FACE = {"adjudicate.api", "adjudicate.escape", "adjudicate.terminal", "adjudicate.version"}
"""Besides the CLI's own modules (adjudicate.cli.*): the API, the escaping of text from files for
printing, and the terminal's width and colour (presentation, not the pipeline)."""
PLUMBING = {"Terminated", "did_you_mean"}
"""From adjudicate.errors, besides the exit codes (EXIT_*): the exception SIGTERM raises (`__main__`), and the
did-you-mean the CLI adds to a mistyped choice (`--format jsn`) so that it reads as the library's own mistakes do."""


def _imports(path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """(module, names, line) of every import in the file, those inside functions too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, tuple(alias.name for alias in node.names), node.lineno))
    return found


def _allowed(module: str, names: tuple[str, ...]) -> bool:
    if not (module == "adjudicate" or module.startswith("adjudicate.")):
        return True  # typer, tabulate, the standard library
    if module in FACE or module == "adjudicate.cli" or module.startswith("adjudicate.cli."):
        return True
    if module == "adjudicate":
        return bool(names) and all(name in ("api", "__version__") or name in adjudicate._API
                                   for name in names)
    if module == "adjudicate.errors":
        return bool(names) and all(name.startswith("EXIT_") or name in PLUMBING for name in names)
    return False


@pytest.mark.parametrize("path", CLI_MODULES, ids=lambda path: path.name)
def test_the_cli_imports_the_library_only_through_its_face(path):
    wrong = [f"{path.name}:{line}: {module} {', '.join(names)}".rstrip()
             for module, names, line in _imports(path) if not _allowed(module, names)]
    assert not wrong, wrong
    # and no reaching through the package's attributes (`adjudicate.ruling.matcher.rule_scenario`)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    reached = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id == "adjudicate"]
    assert all(attr in adjudicate._API or attr == "api" for attr in reached), reached


def test_the_import_check_refuses_what_it_should():
    assert not _allowed("adjudicate.ruling.matcher", ("rule_scenario",))
    assert not _allowed("adjudicate", ("checking",))
    assert not _allowed("adjudicate.errors", ("InputError",))
    assert _allowed("adjudicate.errors", ("EXIT_INPUT",)) and _allowed("adjudicate", ("api",))
    assert CLI_MODULES and all(path.exists() for path in CLI_MODULES)


# --- rule: the records are the JSON ------------------------------------------------------------------

def _typed(value: object) -> object:
    """A record as plain data, under the JSON's names (`for`), an irregularity's `details` spread back out."""
    data = msgspec.to_builtins(value)

    def spread(item: object) -> object:
        if isinstance(item, dict):
            out = {key: spread(child) for key, child in item.items() if key != "details"}
            out.update({key: spread(child) for key, child in (item.get("details") or {}).items()})
            return out
        if isinstance(item, (list, tuple)):  # to_builtins keeps tuples
            return [spread(child) for child in item]
        return item

    return spread(data)


def _covers(record: object, typed: object, where: str = "") -> list[str]:
    """Where `typed` loses or changes what `record` holds (a typed default standing for a key the JSON leaves out
    is not a loss)."""
    if isinstance(record, dict):
        if not isinstance(typed, dict):
            return [f"{where}: {typed!r}"]
        lost = [f"{where}.{key}" for key in record if key not in typed]
        for key in record:
            if key in typed:
                lost += _covers(record[key], typed[key], f"{where}.{key}")
        lost += [f"{where}.{key}={value!r}" for key, value in typed.items()
                 if key not in record and value not in (None, False, 0, (), [], {})]
        return lost
    if isinstance(record, list):
        if not isinstance(typed, list) or len(record) != len(typed):
            return [f"{where}: {typed!r}"]
        return [lost for index, (a, b) in enumerate(zip(record, typed)) for lost in _covers(a, b, f"{where}[{index}]")]
    return [] if record == typed else [f"{where}: {record!r} != {typed!r}"]


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_shipped_ruling_as_records_is_its_json(path):
    ruling = api.rule(path)
    record = ruling_record(rule_scenario(str(path)))
    data = ruling.to_json()
    assert data.pop("record") == json.loads(msgspec.json.encode(ruling.record))  # the record for appeals: its own key
    assert data == record
    assert _covers(record, _typed(ruling)) == []
    assert ruling.law_ids == [law["id"] for law in record["laws"]]


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_shipped_replay_as_records_is_its_json(path):
    scenario = load_scenario(path)
    replayed = api.replay(path)
    if not scenario.house and not scenario.code.endswith(".yaml"):
        table = replay_hand(scenario)
        assert replayed.to_json() == replay_record(table, detect(table))
    assert _covers(replayed.to_json(), _typed(replayed)) == []


@pytest.mark.parametrize("format", ["json", "table", "markdown"])
def test_the_records_render_as_the_command_prints(format):
    from adjudicate.cli.common import dump_json

    ruling, replayed = api.rule(REVOKE), api.replay(REVOKE)
    shown = {"json": (dump_json([ruling.to_json()]), dump_json([replayed.to_json()])),  # an array, one a file
             "table": (ruling.to_text(), replayed.to_text()),
             "markdown": (ruling.to_markdown(), replayed.to_markdown())}[format]
    for command, text in zip(("rule", "replay"), shown):
        result = _invoke(command, "--format", format, REVOKE)
        assert result.exit_code == 0 and result.stdout == text.rstrip("\n") + "\n"


def test_records_are_frozen_and_compare_by_value():
    one, two = api.rule(REVOKE), api.rule(REVOKE)
    assert one == two and one is not two
    with pytest.raises(AttributeError):
        one.title = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        one.laws[0].id = "1"  # type: ignore[misc]
    first = one.to_json()
    first["laws"].clear()
    assert one.to_json()["laws"], "to_json gives a new dict each call"


def test_a_ruling_not_made_by_rule_says_so():
    made = api.rule(REVOKE)
    copy = msgspec.structs.replace(made)
    assert copy == made
    with pytest.raises(TypeError, match="not made by adjudicate.rule"):
        copy.to_json()


def test_irregularities_keep_the_facts_of_their_kind():
    (revoke,) = api.rule(REVOKE).irregularities
    assert (revoke.kind, revoke.seat, revoke.side, revoke.trick, revoke.entry) == ("revoke", "E", "EW", 1, 5)
    assert revoke.details["established"] is True and revoke.details["held"] == ("QS",)


# --- the sources ---------------------------------------------------------------------------------------

STANDALONE = [path for path in FILES
              if "house:" not in path.read_text(encoding="utf-8")
              and not yaml.safe_load(path.read_text(encoding="utf-8"))["code"].endswith(".yaml")]


def _without_name(record: dict) -> dict:
    """The ruling without what says how the scenario was given: its name, and the record of its inputs (whose
    digests are of what was given: tests/test_record.py)."""
    return {key: value for key, value in record.items() if key not in ("scenario", "record")}


@pytest.mark.parametrize("path", STANDALONE[::7], ids=_id)
def test_a_mapping_and_a_text_rule_as_the_file_does(path):
    text = path.read_text(encoding="utf-8")
    by_file = api.rule(path).to_json()
    by_mapping = api.rule(yaml.safe_load(text)).to_json()
    by_text = api.rule(text).to_json()
    assert (by_mapping["scenario"], by_text["scenario"]) == ("<mapping>", "<text>")
    assert _without_name(by_mapping) == _without_name(by_file) == _without_name(by_text)
    assert _without_name(api.replay(yaml.safe_load(text)).to_json()) == _without_name(api.replay(path).to_json())


def test_a_mapping_naming_a_house_file_finds_it_from_the_current_folder(monkeypatch, tmp_path):
    path = SCENARIOS / "euchre" / "house-stick-the-dealer-dealer-passes.yaml"
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "variant.yaml").write_bytes((PACKAGE / "rulebooks" / "house" / "stick-the-dealer.yaml")
                                                      .read_bytes())
    mapping = dict(yaml.safe_load(path.read_text(encoding="utf-8")), house="house/variant.yaml")
    monkeypatch.chdir(tmp_path)
    by_file = _without_name(api.rule(path).to_json())
    by_mapping = _without_name(api.rule(mapping).to_json())
    assert by_mapping.pop("house") == "house/variant.yaml" and by_file.pop("house") == "stick-the-dealer"
    assert by_mapping == by_file
    monkeypatch.chdir(ROOT)  # the file is looked for from the current folder, bounded by its project
    with pytest.raises(api.AdjudicateError, match=r"<mapping>:house: `house`: 'house/variant.yaml' is not a file"):
        api.rule(mapping)


def test_a_str_is_a_path_unless_it_holds_a_line_break_or_opens_a_mapping(tmp_path):
    flow = "{code: euchre, dealer: S, log: [W: AS]}"
    assert api.rule(flow).scenario == "<text>"
    assert api.rule(REVOKE.read_text(encoding="utf-8")).scenario == "<text>"
    assert api.rule(str(REVOKE)).scenario == str(REVOKE)
    # a file whose name holds a line break is still a file, given as a Path
    odd = tmp_path / "two\nlines.yaml"
    odd.write_text(flow)
    assert api.rule(odd).scenario == str(odd)
    with pytest.raises(api.AdjudicateError) as caught:
        api.rule(str(tmp_path / "missing.yaml"))
    (problem,) = caught.value.problems
    assert (problem.path, problem.line, problem.message) == (str(tmp_path / "missing.yaml"), 0, "no such file")


@pytest.mark.parametrize("source", [42, None, b"code: euchre", ["code", "euchre"]])
def test_a_source_of_another_type_is_a_type_error(source):
    with pytest.raises(TypeError, match="a path, YAML text, a mapping or a binary stream"):
        api.rule(source)  # type: ignore[arg-type]


def test_a_mapping_keeps_the_yaml_types_of_its_values():
    base = {"code": "euchre", "dealer": "S", "log": [{"W": "AS"}]}
    assert api.rule({**base, "score": {"NS": 2, "EW": 3}}).score is not None
    with pytest.raises(api.AdjudicateError, match=r"<mapping>:score\.NS: the score of NS should be a whole number, "
                                                  r"not '2'"):
        api.rule({**base, "score": {"NS": "2", "EW": 3}})
    with pytest.raises(api.AdjudicateError, match=r"should be a whole number, not '2\.0'"):
        api.rule({**base, "score": {"NS": 2.0, "EW": 3}})
    # the text of a str subclass (an engine's str enum) is its characters
    import enum

    class Seat(str, enum.Enum):
        S = "S"
        W = "W"

    assert api.rule({**base, "dealer": Seat.S, "log": [{Seat.W: "AS"}]}).to_json()["irregularities"] == \
        api.rule(base).to_json()["irregularities"]


@pytest.mark.parametrize("mapping, where, message", [
    ({"code": "euchre", "dealer": "S", "log": [{"W": "AS"}], "delaer": "S"}, "delaer", "unknown key 'delaer'"),
    ({"code": "euchre", "dealer": "S", "log": ["quit", {"W": "ZZ"}]}, "log[1].W", "unknown act 'ZZ'"),
    ({"code": "euchre", "dealer": "S", "log": [], "hands": {"E": ["QS", 7]}}, "hands.E[1]", "not a card: '7'"),
    ({"code": "euchre", "dealer": "S", "log": [], "title": "a\x1b[2Jb"}, "title", "U+001B"),
    ({"code": "euchre", "dealer": "S", "log": [], "notes": {1: "x", "1": "y"}}, "notes['1']", "duplicate key '1'"),
    ({"code": "euchre", "dealer": "S", "log": [{"W": {1, 2}}]}, "log[0].W", "not set"),
    ({"code": "euchre", "log": []}, "", "missing the required key 'dealer'"),
])
def test_a_mapping_s_errors_name_the_key_path(mapping, where, message):
    with pytest.raises(api.AdjudicateError) as caught:
        api.rule(mapping)
    problem = caught.value.problems[0]
    assert (problem.path, problem.line, problem.column, problem.key) == ("<mapping>", 0, 0, where)
    assert message in problem.message
    assert str(problem) == (f"<mapping>:{where}: " if where else "<mapping>: ") + problem.message


def test_a_mapping_holding_itself_is_refused_at_the_depth_limit():
    log: list = []
    log.append(log)
    with pytest.raises(api.AdjudicateError, match="nests lists and mappings more than 100 deep"):
        api.rule({"code": "euchre", "dealer": "S", "log": log})


def test_a_text_s_errors_name_the_line_and_column():
    with pytest.raises(api.AdjudicateError) as caught:
        api.rule("code: euchre\ndealer: X\nlog: [quit]\n")
    (problem,) = caught.value.problems
    assert (problem.path, problem.line, problem.column, problem.key) == ("<text>", 2, 9, None)


# --- code= and house= ------------------------------------------------------------------------------------

def test_code_overrides_or_supplies_the_scenario_s_code():
    mapping = yaml.safe_load(REVOKE.read_text(encoding="utf-8"))
    del mapping["code"]
    with pytest.raises(api.AdjudicateError, match="missing the required key 'code'"):
        api.rule(mapping)
    supplied = api.rule(mapping, code="euchre")
    assert _without_name(supplied.to_json()) == _without_name(api.rule(REVOKE).to_json())
    # a rulebook file's path, trusted as the command line's arguments are
    by_file = api.rule(REVOKE, code=str(PACKAGE / "rulebooks" / "euchre.yaml"))
    assert by_file.law_ids == api.rule(REVOKE).law_ids and by_file.code == "euchre"
    whist = api.rule("dealer: S\nlog: [quit]\n", code="short-whist")
    assert whist.code == "short-whist"
    assert api.replay("dealer: S\nlog: [quit]\n", code="short-whist").code == "short-whist"
    with pytest.raises(api.AdjudicateError, match='unknown code \'eucher\' \\(did you mean "euchre"\\?\\)'):
        api.rule(REVOKE, code="eucher")


def test_house_is_the_command_line_s_house():
    ruling = api.rule(REVOKE, house="stick-the-dealer")
    result = _invoke("rule", "--format", "json", "--house", "stick-the-dealer", REVOKE)
    assert ruling.house == "stick-the-dealer" and json.loads(result.stdout) == [ruling.to_json()]
    with pytest.raises(api.AdjudicateError):
        api.rule(REVOKE, house="no-such-house")


# --- errors -------------------------------------------------------------------------------------------------

def test_every_error_is_one_type_with_positioned_problems():
    with pytest.raises(api.AdjudicateError) as caught:
        api.law("euchre:999")
    (problem,) = caught.value.problems
    assert (problem.path, problem.line, problem.column, problem.key) == ("", 0, 0, None)
    assert str(problem) == problem.message == str(caught.value)
    assert isinstance(caught.value, ValueError)


# --- check, laws, lint, diff ---------------------------------------------------------------------------------

def test_check_is_the_command_s_check():
    report = api.check([SCENARIOS / "euchre"])
    assert report.ok and report.exit_code == 0 and report.summary.passed == len(report.files) > 10
    result = _invoke("check", "--jobs", "1", "--format", "json", SCENARIOS / "euchre")
    assert json.loads(result.stdout) == report.to_json()
    measured = api.check([SCENARIOS / "euchre"], coverage=True)
    assert measured.to_json(coverage=True)["coverage"] == json.loads(
        _invoke("check", "--jobs", "1", "--format", "json", "--coverage", SCENARIOS / "euchre").stdout)["coverage"]
    # Made without `coverage=True`, the report's coverage has the laws but not the atoms of their conditions.
    assert [{k: v for k, v in item.items() if k not in ("atoms", "undecided")}
            for item in measured.to_json(coverage=True)["coverage"]] == report.to_json(coverage=True)["coverage"]
    one = api.check(REVOKE)
    assert [result.path for result in one.files] == [str(REVOKE)]
    assert one.to_text() == "check: 1 passed, 0 failed\n"


def test_check_shards_and_reports_what_it_cannot_check(tmp_path):
    files = [result.path for result in api.check(SCENARIOS / "euchre").files]
    halves = [api.check(SCENARIOS / "euchre", shard=shard) for shard in ("1/2", (2, 2))]
    assert sorted(result.path for half in halves for result in half.files) == sorted(files)
    with pytest.raises(api.AdjudicateError, match="expected K/N"):
        api.check(SCENARIOS, shard="3/2")
    (tmp_path / "bad.yaml").write_text("code: euchre\ndealer: X\nlog: []\n")
    report = api.check(tmp_path)
    assert report.exit_code == 2 and report.files[0].status == checking.INVALID
    assert report.files[0].findings[0].line == 2


def test_laws_law_and_codes():
    hits = api.laws("euchre", search="revoke")
    assert hits[0].score is not None and hits == tuple(sorted(hits, key=lambda law: -law.score))  # type: ignore
    listed = json.loads(_invoke("laws", "--code", "euchre", "--search", "revoke", "--format", "json").stdout)
    assert [law.to_json() for law in hits] == listed
    assert all(law.section == "The Revoke" for law in api.laws(section="revoke", code="euchre"))
    assert len(api.laws()) == sum(api.code(code).laws for code in api.codes())
    entry = api.law("short-whist:72.V")
    assert entry.clause is not None and entry.ref == "short-whist:72.V" and entry.clause.ref == "72.V"
    assert entry.to_json() == json.loads(_invoke("law", "short-whist:72.V", "--format", "json").stdout)
    assert entry.to_text() == _invoke("law", "short-whist:72.V").stdout.rstrip("\n")
    assert api.law("euchre", "63") == api.law("euchre:63")
    assert [entry.law.code for entry in api.law_in_each_code("63")] == ["euchre", "short-whist"]
    with pytest.raises(api.AdjudicateError, match="which code's law '63'"):
        api.law("63")
    with pytest.raises(api.AdjudicateError, match="no code has a law '999'"):
        api.law_in_each_code("999")
    with pytest.raises(api.AdjudicateError, match="unknown code 'bridge'"):
        api.code("bridge")


def test_lint_and_diff(tmp_path):
    results = api.lint()
    assert results and all(result.ok and result.laws for result in results)
    assert any(result.house for result in results)
    broken = tmp_path / "broken.yaml"
    broken.write_text("code: x\nlaws: 3\n")
    (result,) = api.lint([broken])
    assert not result.ok and result.problems and result.to_json()["problems"][0]["line"] >= 1
    differences = api.diff("stick-the-dealer", [SCENARIOS / "euchre"])
    assert {difference.status for difference in differences} <= {"changed", "same", "skipped", "invalid"}
    assert api.scenario_schema()["$schema"].startswith("https://json-schema.org/")


def test_a_rulebook_file_given_as_code_is_read_once_while_it_is_unchanged(monkeypatch, tmp_path):
    from adjudicate.lawbook import reader

    copy = tmp_path / "euchre.yaml"
    copy.write_bytes((PACKAGE / "rulebooks" / "euchre.yaml").read_bytes())
    loads = []
    real = reader.load_rulebook
    monkeypatch.setattr(reader, "load_rulebook", lambda *a, **k: loads.append(a) or real(*a, **k))
    for _ in range(3):
        api.rule(REVOKE, code=str(copy))
    assert len(loads) == 1
    os.utime(copy, ns=(0, 0))
    api.rule(REVOKE, code=str(copy))
    assert len(loads) == 2


# --- typed: a user's script under `mypy --strict` ---------------------------------------------------------

TYPED_SCRIPT = ROOT / "tests" / "data" / "typed" / "user_script.py"


def test_a_users_script_runs_and_passes_mypy_strict(tmp_path):
    """A user's ten lines over `rule`, `check`, `laws` and their results: they run, and `mypy --strict` passes
    them, reading the package as it reads an installed one that ships `py.typed` (its own modules followed
    silently: only the user's script is judged)."""
    import shutil

    script = shutil.copy(TYPED_SCRIPT, tmp_path / "user_script.py")
    ran = subprocess.run([sys.executable, script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "['4', '62', '63', '64', '70'] [{'NS': 5, 'EW': 3}] True 0 euchre:63 no-such-file.yaml"
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", "user_script.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env={**os.environ, "MYPYPATH": str(ROOT)})
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found in 1 source file" in checked.stdout


def test_mypy_strict_reads_the_face_from_literal_lists():
    """Type checkers read `__all__` only as a literal list: both the package's and the API module's are."""
    import ast

    for path in (ROOT / "adjudicate" / "__init__.py", ROOT / "adjudicate" / "api.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assigned = [node.value for node in tree.body if isinstance(node, ast.Assign)
                    and any(isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets)]
        assert len(assigned) == 1 and isinstance(assigned[0], ast.List), path
        assert all(isinstance(item, ast.Constant) for item in assigned[0].elts), path


# --- immutable and hashable throughout --------------------------------------------------------------------

SHIPPED = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "scenarios").rglob("*.yaml") if "house" not in path.parts)


def _mappings(value: object) -> list[dict]:
    """Every mapping held anywhere inside a record."""
    if isinstance(value, msgspec.Struct):
        return [m for name in value.__struct_fields__ for m in _mappings(getattr(value, name))]
    if isinstance(value, dict):
        return [value, *(m for item in value.values() for m in _mappings(item))]
    if isinstance(value, (tuple, list)):
        return [m for item in value for m in _mappings(item)]
    return []


def test_every_ruling_and_replay_is_hashable_and_its_mappings_cannot_be_changed():
    os.chdir(ROOT)
    for path in SHIPPED:
        for made in (api.rule(path), api.replay(path)):
            assert hash(made) == hash(made) and made == made and {made}, path
            for mapping in _mappings(made):
                assert isinstance(mapping, api.FrozenDict), (path, mapping)
                with pytest.raises(TypeError, match="cannot be changed"):
                    mapping["NS"] = 99
    ruling = api.rule("scenarios/euchre/revoke-established.yaml")
    assert ruling.score is not None and ruling.score.outcomes[0].after == {"NS": 5, "EW": 3}
    with pytest.raises(TypeError):
        ruling.score.outcomes[0].after["NS"] = 99  # type: ignore[index]
    assert ruling.score.outcomes[0].after == {"NS": 5, "EW": 3} and hash(ruling.record)
    with pytest.raises(AttributeError):
        ruling.title = "changed"  # type: ignore[misc]


def test_the_records_of_check_diff_laws_and_lint_are_hashable_and_public():
    report = api.check(["scenarios/euchre"])
    assert hash(report) and all(isinstance(result, api.FileResult) for result in report.files)
    assert isinstance(report.summary, api.CheckSummary)
    assert hash(api.diff("modern-euchre", ["scenarios/euchre"]))
    assert all(isinstance(item, api.Difference) for item in api.diff("modern-euchre", ["scenarios/euchre"]))
    assert hash(api.laws("euchre")) and hash(api.law("euchre:63")) and hash(api.lint())
    documented = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in ("FileResult", "Finding", "Skipped", "CheckSummary", "CodeCoverage", "Difference", "RulingSummary",
                 "FrozenDict"):
        assert f"`{name}`" in documented, name
