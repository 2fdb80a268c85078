"""Scenario files from strangers (issue 13): what a file may make the tool read, what an error may
quote, the built-in rulebook cache, and the messages for mistakes that used to be unclear.

Each test runs the real command (`CliRunner`) or the library call the command makes, on files it
writes to a temporary folder; none reads anything outside the repository and that folder.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app
from adjudicate.errors import MAX_PROBLEMS, MAX_QUOTED
from adjudicate.record.yamlsource import read_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
"""A valid scenario with a full `expect` block; each test changes one thing in it."""

runner = CliRunner()


def scenario(folder: Path, old: str = "", new: str = "", name: str = "hand.yaml", text: str = EXAMPLE) -> Path:
    """The example scenario with `old` replaced by `new` (once; it must be there), written to folder/name."""
    if old:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: object):
    result = runner.invoke(app, [str(arg) for arg in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args} raised {result.exception!r}\n{result.output}") from result.exception
    assert "Traceback" not in result.output
    return result


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line]


# --- reading files: not regular, /proc ---------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_without_blocking_when_regular_files_only(tmp_path: Path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(Exception) as caught:  # opening it blocking would wait for ever (pytest-timeout ends that)
        read_text(fifo, regular_only=True)
    assert str(caught.value) == f"{fifo}: is a named pipe (FIFO), not a regular file; refused"


def test_a_device_or_folder_is_refused_when_regular_files_only(tmp_path: Path):
    with pytest.raises(Exception, match=r"/dev/null: is a device, not a regular file; refused"):
        read_text("/dev/null", regular_only=True)
    with pytest.raises(Exception, match=r": is a folder, not a file$"):
        read_text(tmp_path, regular_only=True)
    # Named on the command line, a device is still read as before (`rule /dev/stdin`).
    assert read_text("/dev/null") == ""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc here")
def test_a_proc_file_that_reports_size_zero_is_read_to_its_end():
    text = read_text("/proc/self/status")
    assert text.startswith("Name:") and "\nPid:" in text


def test_a_file_that_holds_more_than_its_size_says_is_read_whole(tmp_path: Path, monkeypatch):
    path = tmp_path / "grows.yaml"
    path.write_text("a: 1\nb: 2\n")
    real_fstat = os.fstat

    def fstat_saying_zero(handle: int) -> os.stat_result:
        status = real_fstat(handle)
        fields = list(status)
        fields[stat.ST_SIZE] = 0
        return os.stat_result(fields)

    monkeypatch.setattr(os, "fstat", fstat_saying_zero)
    assert read_text(path) == "a: 1\nb: 2\n"


# --- whole numbers --------------------------------------------------------------------------

@pytest.mark.parametrize("written, read", [("010", 10), ("08", 8), ("+5", 5), ("0", 0)])
def test_whole_numbers_are_decimal_leading_zeros_and_all(tmp_path: Path, written: str, read: int):
    path = scenario(tmp_path, "score: {NS: 2, EW: 3}", f"score: {{NS: {written}, EW: 3}}")
    result = run("rule", "--format", "json", path)
    assert result.exit_code == 0, result.stderr
    assert f'"NS": {read}' in result.stdout


@pytest.mark.parametrize("written", ["0x0A", "0b11", "1_0", "1:30", "0o12"])
def test_yaml_11_numbers_other_than_decimal_are_refused_at_their_place(tmp_path: Path, written: str):
    path = scenario(tmp_path, "score: {NS: 2, EW: 3}", f"score: {{NS: {written}, EW: 3}}")
    result = run("rule", path)
    assert result.exit_code == 2
    # YAML 1.1 reads the first four as numbers (10, 3, 10, 90), and 0o12 as text.
    kind = "whole number," if written == "0o12" else "whole number written in decimal digits, like 10,"
    assert error_lines(result) == [f"{path}:4:13: the score of NS should be a {kind} not '{written}'"]


# --- how much an error says -------------------------------------------------------------------

def test_the_problems_of_a_file_are_capped_with_a_count_of_the_rest(tmp_path: Path):
    log = "log:\n" + "".join(f"  - N: frobnicate {n}\n" for n in range(2_000))
    path = scenario(tmp_path, EXAMPLE[EXAMPLE.index("log:"):EXAMPLE.index("expect:")], log)
    result = run("rule", path)
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == MAX_PROBLEMS + 1
    assert all(re.match(rf"{re.escape(str(path))}:\d+:\d+: unknown act 'frobnicate \d+'", line)
               for line in lines[:-1])
    assert lines[-1] == (f"{path}:{10 + MAX_PROBLEMS}:8: ... and 1,950 more problems "
                         f"(only the first {MAX_PROBLEMS} are shown)")


def test_one_huge_value_of_repeated_cards_gives_one_line_fast(tmp_path: Path):
    path = scenario(tmp_path, "E: [QS, 9H, JD, AC, 8C]", "E: " + "QS " * 1_600_000)
    started = time.process_time()  # this process's CPU time: on busy cores the wall clock is anyone's
    result = run("rule", path)
    assert time.process_time() - started < 2
    assert result.exit_code == 2
    assert error_lines(result) == [f"{path}:6:6: the hand of E lists 1,600,000 cards; no pack has more than 52"]


@pytest.mark.parametrize("act, message", [
    ("frob" * 1_000_000, "unknown act 'frobfrob"),
    ("expose " + "QS " * 1_500_000, "an act of 1,500,001 words; an act names at most a pack of cards, 52"),
])
def test_one_huge_act_gives_one_short_line_fast(tmp_path: Path, act: str, message: str):
    path = scenario(tmp_path, "  - quit\n", f"  - N: {act}\n")
    started = time.process_time()  # this process's CPU time: on busy cores the wall clock is anyone's
    result = run("rule", path)
    assert time.process_time() - started < 2
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line.startswith(f"{path}:16:8: {message}") and len(line) < 1_000


def test_a_quoted_value_is_cut_short(tmp_path: Path):
    path = scenario(tmp_path, "dealer: S", "dealer: " + "X" * 5_000)
    result = run("rule", path)
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line == (f"{path}:3:9: `dealer`: '{'X' * MAX_QUOTED}…' (5,000 characters) is not a seat; "
                    "expected N, E, S or W")
    unknown = scenario(tmp_path, "dealer: S", "dealer: S\n? " + "y" * 5_000 + "\n: 1", name="key.yaml")
    result = run("rule", unknown)
    assert result.exit_code == 2
    assert f"unknown key '{'y' * MAX_QUOTED}…' (5,000 characters) in the scenario;" in result.stderr
    assert max(len(line) for line in error_lines(result)) < 400


def test_the_problems_of_a_file_are_printed_in_line_order(tmp_path: Path):
    # The replay checks the hands seat by seat (N, E, S, W): West's line comes first in the file.
    path = scenario(tmp_path, "hands:\n  E: [QS, 9H, JD, AC, 8C]\n  W: [AS, ...]",
                    "hands:\n  W: [AS, AS, ...]\n  E: [QS, 9H, JD, AC, 2C]")
    result = run("rule", path)
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"{path}:6:11: the hand of W: AS is listed twice (also at column 7)",
        f"{path}:7:23: the hand of E: 2C is not in the pack of euchre (32 cards: AKQJT987 in each suit)",
    ]


# --- the expect block: invalid, not failing ------------------------------------------------------

def check(path: Path):
    return run("check", "--jobs", "1", path)


@pytest.mark.parametrize("old, new, message", [
    ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["²"]',
     "24:10: '²' in `expect.laws` is not a law id: expected a law's number, like \"63\", or a house's added law, "
     "like \"H1\""),
    ("trick: 1,", "trick: -1,", "23:38: `trick` counts the tricks from 1, so it cannot be -1"),
    ("options: [score]", "options: [[score]]",
     "25:49: an option of an expected remedy (a kind, like score) should be text, not a list"),
    ("options: [score]", "options: [scor]",
     "25:49: unknown option 'scor' (did you mean \"score\"?); expected one of: "),
    ("kind: revoke", "kind: renege", "23:14: unknown irregularity kind 'renege' (did you mean \"revoke\"?); "
                                     "expected one of: "),
    ("kind: revoke", "kind: revokee", "23:14: unknown irregularity kind 'revokee' (did you mean \"revoke\"?)"),
    ('remedies: [{law: "63", chooser: NS, options: [score]}]', 'remedies: [{lawz: "63"}]',
     "25:15: unknown key 'lawz' in an expected remedy (did you mean \"law\"?); expected one of: chooser, for, law, "
     "made, mandatory, options"),
    ('remedies: [{law: "63", chooser: NS, options: [score]}]', "remedies: [{}]",
     "25:14: an expected remedy checks nothing: give at least one of chooser, for, law, made, mandatory, options"),
    ('remedies: [{law: "63", chooser: NS, options: [score]}]', "remedies: {law: 63}",
     "25:13: `expect.remedies` should be a list, not a mapping"),
])
def test_a_mistake_in_expect_is_an_invalid_file_at_its_place(tmp_path: Path, old: str, new: str, message: str):
    path = scenario(tmp_path, old, new)
    result = check(path)
    assert result.exit_code == 2, result.output
    assert result.stdout.startswith(f"{path}:{message}")
    assert "Node(" not in result.stdout and "internal error" not in result.stdout
    assert "check: 0 passed, 0 failed\ncheck: 1 invalid file" in result.stdout


def test_every_mistake_in_expect_is_reported_at_once_in_line_order(tmp_path: Path):
    path = scenario(tmp_path, "  trump: H\n  winners: [E]", "  trump: X\n  winners: [Q]\n  lawz: []")
    result = check(path)
    assert result.exit_code == 2
    lines = [line for line in result.stdout.splitlines() if line.startswith(str(path))]
    assert [line.split(": ", 1)[0] for line in lines] == [f"{path}:20:10", f"{path}:21:13", f"{path}:22:3"]


def test_score_and_not_applied_are_expect_keys_read_and_checked_at_load(tmp_path: Path):
    from adjudicate.record.scenario import load_scenario

    text = EXAMPLE[:EXAMPLE.index("expect:")] + "expect:\n  trump: H\n  not_applied: []\n  score: {hand: null}\n"
    path = scenario(tmp_path, text=text)
    expect = load_scenario(path).expect
    assert expect is not None and expect.score is not None and expect.score.hand_given
    assert expect.not_applied == ()
    assert check(path).exit_code == 0
    bad = scenario(tmp_path, text=text.replace("score: {hand: null}", "score: {hnad: null}"), name="bad.yaml")
    result = check(bad)
    assert result.exit_code == 2
    assert "unknown key 'hnad' in `expect.score` (did you mean \"hand\"?)" in result.output


# --- what a scenario's code: and house: may name ---------------------------------------------------

MINI_EUCHRE = ROOT / "tests" / "data" / "rulebooks" / "mini-euchre.yaml"
HOUSE = """\
house: club
name: The club's rules
varies: euchre
changes: []
"""
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n"
PASSWD = "root: x:0:0:root:/root:/bin/bash\ndaemon: x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A repository (it holds .git) with scenarios two folders down, and files outside it."""
    monkeypatch.delenv("ADJUDICATE_ALLOW_PATHS", raising=False)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "rulebooks").mkdir()
    (repo / "rulebooks" / "club.yaml").write_text(HOUSE)
    (repo / ".git" / "config.yaml").write_text(PASSWD)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "id_ed25519.yaml").write_text(SECRET)
    (tmp_path / "outside" / "passwd.yaml").write_text(PASSWD)
    (tmp_path / "outside" / "club.yaml").write_text(HOUSE)
    return repo


def named(project: Path, key: str, value: str) -> Path:
    folder = project / "scenarios" / "euchre"
    if key == "code":
        return scenario(folder, "code: euchre", f"code: {value}")
    return scenario(folder, "code: euchre", f"code: euchre\nhouse: {value}")


def refusal(result) -> str:
    assert result.exit_code == 2, result.output
    [line] = error_lines(result)
    assert not leaked(line)
    return line


def leaked(text: str) -> bool:
    """Whether text quotes anything of SECRET or PASSWD."""
    return any(word in text for word in ("BEGIN", "b3BlbnNz", "daemon", "/bin/bash", "nologin"))


@pytest.mark.parametrize("key", ["code", "house"])
@pytest.mark.parametrize("value", ["../../../outside/id_ed25519.yaml", "../../../outside/passwd.yaml",
                                   "{tmp}/outside/passwd.yaml"])
def test_a_scenario_cannot_name_a_file_outside_its_project(project: Path, key: str, value: str):
    path = named(project, key, value.format(tmp=project.parent))
    line = refusal(run("rule", path))
    assert line.startswith(f"{path}:2:7: `code`: " if key == "code" else f"{path}:3:8: `house`: ")
    assert f"is outside the project of the scenario, {project.resolve()} (the nearest folder above it holding .git" \
           in line


@pytest.mark.parametrize("value, message", [
    ("/etc/shadow.yaml", "'/etc/shadow.yaml' is outside the project of the scenario"),
    ("../../.git/config.yaml", "'../../.git/config.yaml' is in a hidden folder or is a hidden file: a scenario may "
                               "not name one"),
    ("../../rulebooks/", "'../../rulebooks/' is not a .yaml or .yml file's path"),
    ("../../nothing.yaml", "'../../nothing.yaml' is not a file (looked for "),
])
def test_a_scenario_cannot_name_a_secret_or_what_is_not_a_yaml_file(project: Path, value: str, message: str):
    for key in ("code", "house"):
        path = named(project, key, value)
        line = refusal(run("rule", path))
        assert f"`{key}`: {message}" in line


def test_a_scenario_cannot_name_a_file_that_is_not_yaml(project: Path):
    path = named(project, "house", "/etc/shadow")
    assert refusal(run("rule", path)) == f"{path}:3:8: `house`: '/etc/shadow' is not a .yaml or .yml file's path"
    path = named(project, "code", "/etc/shadow")
    assert refusal(run("rule", path)) == f"{path}:2:7: `code`: '/etc/shadow' is not a .yaml or .yml file's path"
    path = named(project, "code", "shadow")  # not a path: a code's id
    assert refusal(run("rule", path)) == (f"{path}:2:7: unknown code 'shadow'; expected one of: euchre, "
                                          "long-whist, short-whist, or a rulebook file's path")


def test_a_link_inside_the_project_cannot_lead_outside(project: Path):
    (project / "rulebooks" / "link.yaml").symlink_to(project.parent / "outside" / "passwd.yaml")
    line = refusal(run("rule", named(project, "house", "../../rulebooks/link.yaml")))
    assert "is outside the project of the scenario" in line


def test_a_file_inside_the_project_may_be_named(project: Path):
    path = named(project, "house", "../../rulebooks/club.yaml")
    result = run("rule", "--format", "json", path)
    assert result.exit_code == 0, result.stderr
    assert '"house": "../../rulebooks/club.yaml"' in result.stdout


def test_without_git_the_scenarios_own_folder_is_the_project(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("ADJUDICATE_ALLOW_PATHS", raising=False)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "club.yaml").write_text(HOUSE)
    (tmp_path / "hands").mkdir()
    beside = scenario(tmp_path, "code: euchre", "code: euchre\nhouse: house/club.yaml")
    assert run("rule", beside).exit_code == 0
    below = scenario(tmp_path / "hands", "code: euchre", "code: euchre\nhouse: ../house/club.yaml")
    assert "is outside the project of the scenario" in refusal(run("rule", below))


def test_the_allowed_folders_widen_with_an_environment_variable(project: Path, monkeypatch):
    path = named(project, "house", "../../../outside/club.yaml")
    assert "is outside the project" in refusal(run("rule", path))
    monkeypatch.setenv("ADJUDICATE_ALLOW_PATHS", os.pathsep.join(["/nowhere", str(project.parent / "outside")]))
    assert run("rule", path).exit_code == 0


def test_the_allowed_folders_widen_by_argument(project: Path):
    from adjudicate.record.scenario import load_scenario
    from adjudicate.lawbook.ruled_by import rulebook_for

    loaded = load_scenario(named(project, "house", "../../../outside/club.yaml"))
    with pytest.raises(Exception, match="is outside the project"):
        rulebook_for(loaded)
    rulebook, house = rulebook_for(loaded, allow=[str(project.parent / "outside")])
    assert house == "../../../outside/club.yaml" and rulebook.code == "euchre"


def test_a_house_on_the_command_line_is_trusted(project: Path):
    path = named(project, "code", "euchre")
    result = run("rule", "--house", project.parent / "outside" / "club.yaml", path)
    assert result.exit_code == 0, result.stderr


def test_a_house_files_varies_is_bounded_too(project: Path):
    (project / "rulebooks" / "builds-on.yaml").write_text(HOUSE.replace("varies: euchre",
                                                                        "varies: ../../outside/club.yaml"))
    line = refusal(run("rule", named(project, "house", "../../rulebooks/builds-on.yaml")))
    assert line.startswith(f"{project / 'rulebooks' / 'builds-on.yaml'}:3:9: `varies`: "
                           "'../../outside/club.yaml' is outside the project of the file, ")


def test_a_file_named_that_is_not_a_rulebook_or_house_file_is_not_quoted(project: Path):
    (project / "rulebooks" / "key.yaml").write_text(SECRET)
    (project / "rulebooks" / "passwd.yaml").write_text(PASSWD)
    for name in ("key.yaml", "passwd.yaml"):
        line = refusal(run("rule", named(project, "code", f"../../rulebooks/{name}")))
        assert line.endswith(f"{name}:1:1: not a rulebook: it has no `code:` and `laws:` keys (nothing of it is shown)")
        line = refusal(run("rule", named(project, "house", f"../../rulebooks/{name}")))
        assert line.endswith(f"{name}:1:1: not a house-rules file: it has no `house:` and `varies:` keys "
                             "(nothing of it is shown)" if name == "passwd.yaml" else
                             f"{name}:1:1: a house-rules file should be a mapping with house, name, varies and changes")


def test_a_rulebook_or_house_file_linted_that_is_something_else_is_not_quoted(tmp_path: Path):
    (tmp_path / "key.yaml").write_text(SECRET)
    (tmp_path / "passwd.yaml").write_text(PASSWD)
    for name in ("key.yaml", "passwd.yaml"):
        result = run("lint", tmp_path / name)
        assert result.exit_code == 2
        assert not leaked(result.output)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_house_naming_a_named_pipe_is_refused_at_once(project: Path):
    os.mkfifo(project / "rulebooks" / "pipe.yaml")
    line = refusal(run("rule", named(project, "house", "../../rulebooks/pipe.yaml")))  # or a hang
    assert line.endswith("3:8: `house`: '../../rulebooks/pipe.yaml' is a named pipe (FIFO), not a regular file; refused")


def test_a_misspelt_house_id_is_reported_at_the_scenarios_house_key(project: Path):
    path = named(project, "house", "modern-eucher")
    message = ("unknown house 'modern-eucher' (did you mean \"modern-euchre\"?); expected a built-in house "
               "(modern-euchre, stick-the-dealer) or a house-rules file's path (ending .yaml)")
    assert refusal(run("rule", path)) == f"{path}:3:8: {message}"
    result = check(path)
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == f"{path}:3:8: {message}"
    # On the command line, the same mistake is a usage error with the same did-you-mean.
    assert refusal(run("rule", "--house", "modern-eucher", path)) == f"error: {message}"


# --- the cache of the built-in rulebooks ------------------------------------------------------------

@pytest.fixture
def cache(tmp_path: Path, monkeypatch):
    """An empty cache folder of this test's own, the rulebooks loaded anew from it."""
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    folder = tmp_path / "cache"
    monkeypatch.setenv("ADJUDICATE_CACHE_DIR", str(folder))
    monkeypatch.delenv("ADJUDICATE_NO_CACHE", raising=False)
    builtin.builtin_rulebook.cache_clear()
    yield folder
    builtin.builtin_rulebook.cache_clear()


def shipped(code: str):
    """The built-in rulebook parsed from its file, without the cache."""
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    path = builtin._builtin_dir() / f"{code}.yaml"
    return reader.parse_rulebook(path.read_text(encoding="utf-8"), str(path))


def cached_file(folder: Path, code: str) -> Path:
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    builtin.builtin_rulebook.cache_clear()
    builtin.builtin_rulebook(code)
    builtin.builtin_rulebook.cache_clear()
    [path] = folder.glob(f"{code}-*.msgpack")
    return path


def rewrite(path: Path, change) -> None:
    """Decode a cache file, change its entry, and write it back consistent (magic, checksum): as an attacker would."""
    import zlib

    import msgspec

    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    head = len(rulebook_cache._CACHE_MAGIC) + 4
    entry = msgspec.msgpack.decode(path.read_bytes()[head:], type=rulebook_cache._CacheEntry)
    payload = msgspec.msgpack.encode(change(entry))
    path.write_bytes(rulebook_cache._CACHE_MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload)


@pytest.mark.parametrize("code", ["euchre", "short-whist", "long-whist"])
def test_every_built_in_rulebook_round_trips_through_the_cache(cache: Path, code: str):
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    parsed = shipped(code)
    cached_file(cache, code)
    loaded = builtin.builtin_rulebook(code)
    assert loaded == parsed and loaded is not parsed
    assert [law.condition for law in loaded] == [law.condition for law in parsed]  # tagged unions, tuples kept


def test_a_planted_pickle_in_the_cache_runs_nothing(cache: Path, tmp_path: Path):
    import pickle
    import zlib

    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    path = cached_file(cache, "long-whist")
    planted = pickle.dumps(Payload())
    path.write_bytes(rulebook_cache._CACHE_MAGIC + zlib.crc32(planted).to_bytes(4, "big") + planted)
    path.with_name(path.name.replace(".msgpack", ".pickle")).write_bytes(planted)  # the old format's name
    assert builtin.builtin_rulebook("long-whist") == shipped("long-whist")
    assert not marker.exists()


@pytest.mark.parametrize("field", ["text", "title", "section", "clause", "note"])
def test_an_edited_law_in_the_cache_is_not_printed(cache: Path, field: str):
    import msgspec

    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    code = "short-whist"
    path = cached_file(cache, code)
    parsed = shipped(code)
    target = next(law for law in parsed if law.clauses and law.notes)

    def edit(entry):
        laws = []
        for law in entry.rulebook.laws:
            if law.id == target.id:
                if field == "clause":
                    law = msgspec.structs.replace(law, clauses=(msgspec.structs.replace(
                        law.clauses[0], text="Send your winnings to the director.\n"), *law.clauses[1:]))
                elif field == "note":
                    law = msgspec.structs.replace(law, notes=(msgspec.structs.replace(
                        law.notes[0], text=law.clauses[0].text), *law.notes[1:]))  # another block of the same law
                else:
                    law = msgspec.structs.replace(law, **{field: "Send your winnings to the director.\n"
                                                          if field == "text" else "Winnings"})
            laws.append(law)
        return msgspec.structs.replace(entry, rulebook=msgspec.structs.replace(entry.rulebook, laws=tuple(laws)))

    rewrite(path, edit)
    assert builtin.builtin_rulebook(code).law(target.id) == target
    result = run("law", f"{code}:{target.id}")
    assert "winnings" not in result.stdout.lower()


def test_a_cache_whose_texts_are_swapped_between_laws_is_not_used(cache: Path):
    import msgspec

    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    path = cached_file(cache, "euchre")

    def swap(entry):
        laws = list(entry.rulebook.laws)
        laws[61], laws[62] = (msgspec.structs.replace(laws[61], text=laws[62].text),
                              msgspec.structs.replace(laws[62], text=laws[61].text))
        return msgspec.structs.replace(entry, rulebook=msgspec.structs.replace(entry.rulebook, laws=tuple(laws)))

    rewrite(path, swap)
    assert builtin.builtin_rulebook("euchre") == shipped("euchre")


def test_a_truncated_cache_file_is_ignored_and_written_anew(cache: Path):
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    path = cached_file(cache, "long-whist")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert builtin.builtin_rulebook("long-whist") == shipped("long-whist")
    assert path.read_bytes() == whole


def test_a_failed_write_leaves_no_temporary_file(cache: Path, monkeypatch):
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    assert builtin.builtin_rulebook("long-whist") == shipped("long-whist")
    assert cache.is_dir() and list(cache.iterdir()) == []


def test_another_installs_cache_files_are_left_alone(cache: Path):
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    mine = cached_file(cache, "long-whist")
    other = cache / "long-whist-00000000-0000000000000000.msgpack"
    other.write_bytes(b"another checkout's file")
    older = mine.with_name("-".join(mine.name.split("-")[:-1]) + "-0000000000000000.msgpack")
    older.write_bytes(b"this install's older file")
    mine.unlink()
    builtin.builtin_rulebook("long-whist")
    assert other.exists() and not older.exists() and mine.exists()


def test_the_cache_folder_is_found_the_platforms_way(monkeypatch, tmp_path: Path):
    from adjudicate.lawbook.cache import cache_dir

    monkeypatch.delenv("ADJUDICATE_CACHE_DIR")
    monkeypatch.delenv("ADJUDICATE_NO_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == str(tmp_path / "xdg" / "adjudicate")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the XDG spec: ignored
    assert cache_dir() == str(tmp_path / ".cache" / "adjudicate")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cache_dir() == str(tmp_path / "Library" / "Caches" / "adjudicate")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert cache_dir() == os.path.join(str(tmp_path / "Local"), "adjudicate", "Cache")
    monkeypatch.setenv("ADJUDICATE_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == str(tmp_path / "mine")
    monkeypatch.setenv("ADJUDICATE_NO_CACHE", "1")
    assert cache_dir() is None
