"""Hostile input, through the real command line: every malformed file gets exit 2 and one
`FILE:LINE:COL: message` line per problem (or `FILE: message` for the file as a
whole), never a traceback, fast; nothing in a file runs; the same input gives the same bytes.

Hypothesis generates the malformed files; the limits each have a test with a time bound.
`ADJUDICATE_HYPOTHESIS=long` (tests/conftest.py) runs twenty times the examples.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from typer.testing import CliRunner

from events import HANG

from adjudicate.cli.app import app
from adjudicate.record.scenario import MAX_LOG_ENTRIES
from adjudicate.record.yamlsource import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES

LONG = os.environ.get("ADJUDICATE_HYPOTHESIS") == "long"
ROOT = Path(__file__).resolve().parent.parent
MINI_WHIST = Path(__file__).parent / "data" / "rulebooks" / "mini-whist.yaml"

runner = CliRunner()


def examples(n: int) -> int:
    return n * 20 if LONG else n


def hostile(n: int):
    return settings(max_examples=examples(n), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# --- running the command and judging what it printed -----------------------------------

LINT_LINE = re.compile(r"(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<message>\S.*)")
ERROR_LINE = LINT_LINE
"""One shape for `rule`'s and `replay`'s errors (on stderr) and `lint`'s findings (on stdout): path first."""


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args} raised {result.exception!r}\n{result.output}") from result.exception
    assert "Traceback" not in result.output
    return result


def assert_refused(path: Path, command: str = "replay") -> list[re.Match[str]]:
    """The command refuses the file: exit 2, every problem one well-formed line naming the file."""
    result = invoke(command, str(path))
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    if command == "lint":  # lint reports problems as its output (docs/commands.md, `adjudicate lint`)
        lines, pattern = result.stdout.splitlines(), LINT_LINE
        assert result.stderr == ""
    else:
        lines, pattern = result.stderr.splitlines(), ERROR_LINE
        assert result.stdout == ""
    assert lines, "refused without a message"
    matches = []
    for line in lines:
        match = pattern.fullmatch(line)
        assert match, f"not `FILE:LINE:COL: message`: {line!r}"
        assert match["file"] == str(path), line
        if match["line"] is not None:
            assert int(match["line"]) >= 1 and int(match["col"]) >= 1, line
        matches.append(match)
    return matches


def assert_handled(path: Path, command: str = "replay"):
    """Accepted (exit 0) or refused cleanly (exit 2): never anything else."""
    result = invoke(command, str(path))
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        return assert_refused(path, command)
    return result


# --- a scenario, as lines, and ways to spoil it ----------------------------------------------

BASE = {
    "code": "euchre",
    "dealer": "S",
    "score": "{NS: 2, EW: 3}",
    "hands": "\n  E: [QS, 9H, JD, AC, 8C]\n  W: [AS, ...]",
    "turned": "JH",
    "log": ("\n  - W: order up\n  - S: discard 7C\n  - W: AS\n  - N: KS\n  - E: 9H\n  - S: TS\n"
            "  - quit\n  - E: QS\n  - N: claim revoke E"),
}
OPTIONAL = {"title": "East trumps a spade while holding one", "notes": "a note"}


def render(fields: dict[str, str]) -> str:
    return "".join(f"{key}: {value}\n" for key, value in fields.items())


# Values that are wrong for each key, whatever the rest of the file says.
WRONG = {
    "code": ["[euchre]", "{a: b}", "~", "''", "eucher", "5", "'   '", "!!binary aGVsbG8="],
    "dealer": ["[S]", "{S: N}", "~", "X", "NE", "0", "''", "5.5"],
    "score": ["[2, 3]", "5", "{NS: -1}", "{NS: 100}", "{NS: two}", "{XY: 1}", "{NS: 1.5}", "{NS: [1]}",
              "{NS: ~}", "{NS: true}"],
    "hands": ["[QS]", "5", "{X: [QS]}", "{E: {a: b}}", "{E: [ZZ]}", "{E: [..., QS]}", "{N: [JH]}",
              "{E: [[QS]]}", "{N: [QS]}", "{E: [2S]}", "{E: [1S]}", "{E: [QS, ~]}"],
    "turned": ["[JH]", "{a: b}", "1S", "ZZ", "~", "QS", "2H", "''", "J"],
    "log": ["5", "{W: pass}", "[[AS]]", "[{W: [AS]}]", "[{X: AS}]", "[{W: AS, N: KS}]", "[fly]",
            "[{W: fly away}]", "[{W: 2S}]", "[{W: AS}, {N: AS}]", "[{N: QS}]", "[~]", "[pass]",
            "[{W: discard}]", "[{W: claim}]", "[{W: expose ZZ}]", "[{~: AS}]", "[{W: ~}]", "~", "''"],
    "title": ["[a]", "{a: b}", "~"],
    "notes": ["[a]", "{a: b}"],
    "house": ["[a]", "{a: b}", "''"],
    "expect": ["5", "[laws]", "{lawz: [1]}", "{laws: 5}", "{winners: [X]}", "{winners: E}",
               "{irregularities: [{seat: N}]}", "{irregularities: [{kind: revoke, trick: one}]}",
               "{irregularities: [{kind: revoke, established: maybe}]}", "{trump: purple}"],
}


@st.composite
def spoiled_scenario(draw) -> str:
    """A scenario with at least one thing wrong: a value of the wrong type or sense, or an unknown key."""
    fields = dict(BASE)
    fields.update(draw(st.dictionaries(st.sampled_from(sorted(OPTIONAL)), st.sampled_from(["x"]))))
    for key in list(fields):
        if key in OPTIONAL:
            fields[key] = OPTIONAL[key]
    spoilt = draw(st.sets(st.sampled_from(sorted(WRONG)), min_size=1, max_size=3))
    for key in sorted(spoilt):
        fields[key] = draw(st.sampled_from(WRONG[key]))
    if draw(st.booleans()):
        unknown = draw(st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
        assume(unknown not in fields and unknown not in WRONG)
        fields[unknown] = draw(st.sampled_from(["1", "x", "[a]"]))
    if draw(st.booleans()):  # a required key left out, in place of or as well as the rest
        fields.pop(draw(st.sampled_from(["code", "dealer", "log"])), None)
    keys = draw(st.permutations(list(fields)))
    return render({key: fields[key] for key in keys})


def dress(draw, text: str) -> bytes:
    """Ways of writing the same file: a byte-order mark, CRLF line ends, trailing blanks, comments."""
    if draw(st.booleans()):
        text = "".join(line + "   # a comment\n" if line and not line.startswith(" ") and
                       line.rstrip().endswith(("]", "}")) else line + "\n" for line in text.split("\n")[:-1])
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data


@hostile(40)
@given(st.data())
def test_spoiled_scenarios_are_refused_with_positions(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("spoiled") / "bad.yaml"
    path.write_bytes(dress(data.draw, data.draw(spoiled_scenario())))
    assert_refused(path)


FRAGMENTS = [
    "!!python/object/apply:os.system ['touch {marker}']", "!!python/name:os.system",
    "!!python/object/new:os.system [x]", "!custom x", "!!binary aGVsbG8=", "!!set {a}",
    "&a [*a, *a]", "*nowhere", "[", "{", "]", "}", ": :", "- ", "? ", "|\n", ">-\n", "'", '"',
    "\n---\n", "%YAML 1.1\n---\n", "\t", "\t\t- x\n", "\x07", "\x1b[31m", "\x00", "\x7f", "\u0085", "\ufeff",
    "\u2028", "\ud7ff", "é", "♠", "10♠", "…", "JH", "- N: AS\n", "  - quit\n", "<<: *a\n", "~", "null",
    "\"\\e]0;title\\a\"", "\"\\x1b\"", "'\\x1b'", "9" * 400, "x" * 5000,
]
NEVER_VALID = {"\x07", "\x1b[31m", "\x00", "\x7f", "\"\\e]0;title\\a\"", "\"\\x1b\""}


@hostile(50)
@given(st.data())
def test_hostile_fragments_anywhere(tmp_path_factory, data):
    """A fragment inserted anywhere: the file is accepted or refused cleanly, and never runs anything."""
    folder = tmp_path_factory.mktemp("fragments")
    marker = folder / "ran"
    text = render(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        position = data.draw(st.integers(0, len(text)))
        fragment = data.draw(st.sampled_from(FRAGMENTS))
        text = text[:position] + fragment + text[position:]
    text = text.replace("{marker}", str(marker))  # after drawing: the folder's name varies in length
    path = folder / "hostile.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    result = assert_handled(path)
    assert not marker.exists(), "a YAML tag ran a command"
    if any(fragment in text for fragment in NEVER_VALID):
        assert isinstance(result, list), "a control character got through"


@hostile(40)
@given(st.binary(max_size=300))
def test_random_bytes(tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("bytes") / "noise.yaml"
    path.write_bytes(blob)
    assert_refused(path)


@hostile(40)
@given(st.text(max_size=200))
def test_random_text(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("text") / "noise.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    assert_refused(path)


@hostile(30)
@given(depth=st.integers(MAX_DEPTH + 1, 6_000), opener=st.sampled_from(["[", "{a: ", "- ", "{? "]))
def test_any_deep_nesting_is_refused_at_a_position(tmp_path_factory, depth, opener):
    closer = {"[": "]", "{a: ": "}", "- ": "", "{? ": "}"}[opener]
    path = tmp_path_factory.mktemp("deep") / "deep.yaml"
    key = "log:\n" if opener == "- " else "log: "  # a block sequence starts on its own line
    path.write_text("code: euchre\ndealer: S\n" + key + opener * depth + "x" + closer * depth + "\n")
    (match,) = assert_refused(path)
    assert match["line"] is not None
    assert "nests lists and mappings more than" in match["message"]


# --- rulebooks, through `lint` ----------------------------------------------------------------

# Wrong for every key of a rulebook (a null is not: an optional key left null means "not known").
RULEBOOK_WRONG = ["[[a]]", "{a: b}", "!!python/name:os.system", "*nowhere", "[", "\"\\x07\"", "&a [*a]"]


@hostile(40)
@given(st.data())
def test_spoiled_rulebooks_are_refused_with_positions(tmp_path_factory, data):
    lines = MINI_WHIST.read_text(encoding="utf-8").split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r"\s*(- )?[a-z_]+: \S", line)
             and not line.lstrip().startswith("#")]
    for index in data.draw(st.sets(st.sampled_from(keyed), min_size=1, max_size=3)):
        head = re.match(r"(\s*(?:- )?[a-z_]+): ", lines[index])
        assert head
        if data.draw(st.booleans()):
            value = data.draw(st.sampled_from(RULEBOOK_WRONG))
            lines[index] = f"{head.group(1)}: {value}"
        else:  # an unknown key in place of a known one
            lines[index] = head.group(1) + "_x: " + lines[index][head.end():]
    path = tmp_path_factory.mktemp("rulebook") / "rulebook.yaml"
    path.write_bytes(dress(data.draw, "\n".join(lines)))
    assert_refused(path, "lint")


@hostile(30)
@given(st.data())
def test_hostile_fragments_in_rulebooks(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("rulebook-fragments")
    marker = folder / "ran"
    text = MINI_WHIST.read_text(encoding="utf-8")
    position = data.draw(st.integers(0, len(text)))
    fragment = data.draw(st.sampled_from(FRAGMENTS)).replace("{marker}", str(marker))
    path = folder / "rulebook.yaml"
    path.write_bytes((text[:position] + fragment + text[position:]).encode("utf-8", "surrogatepass"))
    assert_handled(path, "lint")
    assert not marker.exists()


# --- random valid hands never crash replay, in any format, and replay the same each time -------

SEATS = ["N", "E", "S", "W"]
VERBS = ["pass", "order up", "assist", "take up", "turn down", "alone", "alone at spades", "name hearts",
         "take it from you", "mention clubs", "ask", "deny", "throw", "remark", "claim revoke E",
         "claim new deal", "mix", "place cards", "last trick", "call honours", "answer", "remind",
         "lift trump", "leave trump", "forget trump", "look trump", "deal 2-3", "touch", "count", "shuffle", "new cards",
         "consult", "elect new deal", "require highest E", "call clubs W", "take back"]


@st.composite
def random_hand(draw) -> str:
    from adjudicate.record.cards import EUCHRE_PACK, WHIST_PACK

    code = draw(st.sampled_from(["euchre", "short-whist", "long-whist"]))
    pack = sorted(str(card) for card in (EUCHRE_PACK.cards if code == "euchre" else WHIST_PACK.cards))
    cards = draw(st.permutations(pack))
    size = 5 if code == "euchre" else 13
    hands = {seat: list(cards[i * size:(i + 1) * size]) for i, seat in enumerate(SEATS)}
    dealer = draw(st.sampled_from(SEATS))
    turned = cards[4 * size] if code == "euchre" else hands[dealer][-1]
    lines = [f"code: {code}", f"dealer: {dealer}", f"turned: {turned}"]
    if draw(st.booleans()):
        lines.append(f"score: {{NS: {draw(st.integers(0, 9))}, EW: {draw(st.integers(0, 9))}}}")
    known = draw(st.sets(st.sampled_from(SEATS)))
    if known:
        lines.append("hands:")
        for seat in sorted(known):
            listed = hands[seat]
            if draw(st.booleans()):
                listed = listed[:draw(st.integers(0, len(listed)))] + ["..."]
            lines.append(f"  {seat}: [{', '.join(listed)}]")
    log = []
    remaining = {seat: list(hands[seat]) for seat in SEATS}
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 5))
        seat = draw(st.sampled_from(SEATS))
        if kind == 0:
            log.append(f"  - {seat}: {draw(st.sampled_from(VERBS))}")
        elif kind == 1:
            log.append(f"  - {draw(st.sampled_from(['quit', 'mix', 'cut', 'turn', 'shuffle']))}")
        elif remaining[seat]:
            card = remaining[seat].pop(draw(st.integers(0, len(remaining[seat]) - 1)))
            verb = draw(st.sampled_from(["", "", "", "expose ", "drop ", "detach ", "correct ", "discard "]))
            log.append(f"  - {seat}: {verb}{card}")
    lines.append("log:" if log else "log: []")
    return "\n".join(lines + log) + "\n"


@hostile(40)
@given(random_hand(), st.sampled_from(["table", "json", "markdown"]))
def test_random_hands_never_crash_replay_in_any_format(tmp_path_factory, text, fmt):
    path = tmp_path_factory.mktemp("hand") / "hand.yaml"
    path.write_text(text, encoding="utf-8")
    first = invoke("replay", "--format", fmt, str(path))
    assert first.exit_code in (0, 2), first.output
    if first.exit_code == 2:  # a drawn act may name a card already placed: an input error, cleanly
        assert_refused(path)
        return
    assert first.stdout.strip() and first.stderr == ""
    if fmt == "json":
        (record,) = json.loads(first.stdout)
        assert {"trump", "tricks", "irregularities"} <= set(record)
    second = invoke("replay", "--format", fmt, str(path))
    assert second.stdout_bytes == first.stdout_bytes


@hostile(20)
@given(random_hand(), st.data())
def test_line_ends_and_byte_order_mark_change_nothing(tmp_path_factory, text, data):
    folder = tmp_path_factory.mktemp("dressed")
    plain, dressed = folder / "plain" / "hand.yaml", folder / "dressed" / "hand.yaml"
    plain.parent.mkdir()
    dressed.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    dressed.write_bytes(dress(data.draw, text))
    for fmt in ("table", "json"):
        a = invoke("replay", "--format", fmt, str(plain))
        b = invoke("replay", "--format", fmt, str(dressed))
        assert a.exit_code == b.exit_code
        assert a.stdout.replace(str(plain), "FILE") == b.stdout.replace(str(dressed), "FILE")
        assert a.stderr.replace(str(plain), "FILE") == b.stderr.replace(str(dressed), "FILE")


# --- the limits, each with its message and a time bound -----------------------------------------

def timed_refusal(path: Path, command: str = "replay", within: float = 2.0) -> list[re.Match[str]]:
    start = time.process_time()  # this process's CPU time: on busy cores the wall clock is anyone's
    matches = assert_refused(path, command)
    elapsed = time.process_time() - start
    assert elapsed < within, f"{path.name} took {elapsed:.2f}s of CPU"
    return matches


def run_module(*args: str, seed: str = "0") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run([sys.executable, "-m", "adjudicate", *args], capture_output=True, env=env,
                          cwd=ROOT, timeout=HANG)


def billion_laughs(path: Path) -> Path:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("command", ["replay", "lint"])
def test_fifty_megabytes_refused_within_two_seconds(tmp_path, command):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.write(b"code: euchre\ndealer: S\nlog:\n")
        handle.write(b"  - quit\n" * (50 * 1024 * 1024 // 9))
    (match,) = timed_refusal(path, command)
    assert match["line"] is None  # the file as a whole
    assert match["message"].startswith(f"the file is {path.stat().st_size:,} bytes")
    assert f"the most read is {MAX_FILE_BYTES:,}" in match["message"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_scenario_through_a_pipe_is_read_to_its_end(tmp_path):
    """A pipe has no size to ask for: it is read in chunks, the whole scenario (here longer than one chunk)."""
    scenario = (ROOT / "scenarios" / "euchre" / "revoke-established.yaml").read_text(encoding="utf-8")
    padded = scenario + "".join(f"# padding line {n:06d} to pass the size of one read\n" for n in range(3000))
    source = tmp_path / "scenario.yaml"
    source.write_text(padded, encoding="utf-8")
    pipe = tmp_path / "scenario.fifo"
    os.mkfifo(pipe)
    copy = f"import shutil; shutil.copyfileobj(open({str(source)!r}, 'rb'), open({str(pipe)!r}, 'wb'))"
    writer = subprocess.Popen([sys.executable, "-c", copy])
    ruled = subprocess.run([sys.executable, "-m", "adjudicate", "rule", "--format", "json", str(pipe)],
                           capture_output=True, text=True, timeout=HANG)
    writer.wait(timeout=HANG)
    assert ruled.returncode == 0, ruled.stderr
    assert json.loads(ruled.stdout)[0]["title"] == "East trumps a spade while holding one"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused_at_the_limit():
    result = runner.invoke(app, ["replay", "/dev/zero"])
    assert result.exit_code == 2
    assert f"more than {MAX_FILE_BYTES:,} bytes" in result.output


@pytest.mark.parametrize("command", ["replay", "lint"])
def test_billion_laughs_refused_well_under_a_second(tmp_path, command):
    (match,) = timed_refusal(billion_laughs(tmp_path / "lol.yaml"), command, within=0.5)
    assert match["line"] is not None
    assert f"expands to more than {MAX_NODES:,} values at the alias *a" in match["message"]


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")], ids=["flow-list", "flow-map"])
def test_five_thousand_deep_flow_nesting(tmp_path, opener, closer):
    path = tmp_path / "deep.yaml"
    path.write_text("code: euchre\ndealer: S\nlog: " + opener * 5000 + "x" + closer * 5000 + "\n")
    (match,) = timed_refusal(path)
    assert (match["line"], match["message"]) == (
        "3", f"the file nests lists and mappings more than {MAX_DEPTH} deep; refused")


def test_five_thousand_deep_block_nesting(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("code: euchre\ndealer: S\nlog:\n" + "- " * 5000 + "x\n")
    (match,) = timed_refusal(path)
    assert (match["line"], match["col"]) == ("4", str(2 * MAX_DEPTH + 1))
    assert "more than 100 deep" in match["message"]


def test_five_thousand_deep_block_mappings(tmp_path):
    """Indented a space a level, 5,000 levels is 12.5 MB: refused for its size; 1,000 for its depth."""
    path = tmp_path / "deep.yaml"
    path.write_text("".join(" " * i + f"k{i}:\n" for i in range(5000)) + " " * 5000 + "x\n")
    (match,) = timed_refusal(path)
    assert match["line"] is None and "bytes" in match["message"]
    path.write_text("".join(" " * i + f"k{i}:\n" for i in range(1000)) + " " * 1000 + "x\n")
    (match,) = timed_refusal(path)
    assert (match["line"], match["col"]) == (str(MAX_DEPTH + 1), str(MAX_DEPTH + 1))
    assert "more than 100 deep" in match["message"]


def test_the_three_headline_limits_within_two_seconds_in_a_fresh_process(tmp_path):
    """What a user waits for, interpreter start-up included."""
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    deep = tmp_path / "deep.yaml"
    deep.write_text("log: " + "[" * 5000 + "]" * 5000 + "\n")
    for path in (billion_laughs(tmp_path / "lol.yaml"), huge, deep):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = run_module("replay", str(path))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command's CPU time, not the busy wall clock's
        elapsed = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        assert done.returncode == 2 and done.stdout == b""
        assert ERROR_LINE.fullmatch(done.stderr.decode().strip()), done.stderr
        assert elapsed < 2.0, f"{path.name}: {elapsed:.2f}s"


def test_too_many_values_without_aliases(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text("code: euchre\ndealer: S\nnotes: [" + ",".join(["x"] * (MAX_NODES + 10)) + "]\n")
    (match,) = timed_refusal(path)
    assert match["message"] == f"the file holds more than {MAX_NODES:,} values; refused"


@pytest.mark.parametrize("style", ["block", "flow"])
def test_log_length(tmp_path, style):
    path = tmp_path / "long.yaml"
    count = MAX_LOG_ENTRIES + 1
    if style == "block":
        path.write_text("code: euchre\ndealer: S\nlog:\n" + "  - quit\n" * count)
    else:
        path.write_text("code: euchre\ndealer: S\nlog: [" + ", ".join(["quit"] * count) + "]\n")
    (match,) = timed_refusal(path)
    assert match["message"] == (f"the log has {count:,} entries; a hand has far fewer "
                                f"(the most read is {MAX_LOG_ENTRIES:,})")
    if style == "block":
        assert match["line"] == str(3 + count)
    path.write_text("code: euchre\ndealer: S\nlog:\n" + "  - quit\n" * MAX_LOG_ENTRIES)
    assert invoke("replay", str(path)).exit_code == 0


CASES = {
    "empty": (b"", "1", "the file is empty: expected a YAML mapping"),
    "blank lines": (b"\n  \n\n", "1", "the file is empty: expected a YAML mapping"),
    "only comments": (b"# a scenario\n# to come\n", "1", "the file holds only comments: expected a YAML mapping"),
    "binary": (b"code: euchre\n\x00\x01\x02", "1", "is a binary file, not YAML text"),
    "latin-1": (b"title: caf\xe9\n", "1", "the file is not UTF-8 text: byte 0xE9 cannot stand here "
                                          "(save the file as UTF-8)"),
    "utf-16": ("code: euchre\n".encode("utf-16"), "1", "the file is UTF-16 text; save it as UTF-8"),
    "control character": (b"code: euchre\ndealer: S\x07\n", "2",
                          "the character U+0007 '\\x07' is not allowed in YAML (control characters are not allowed)"),
    "escaped escape": (b'title: "\\e[2J"\ncode: euchre\n', "1",
                       "the text holds the control character U+001B '\\x1b' (written as an escape); "
                       "it could rewrite the terminal it is printed on; refused"),
    "two documents": (b"code: euchre\n---\ncode: euchre\n", "2",
                      "a second YAML document starts here: a file holds one document "
                      "(remove the `---` line or split the file)"),
    "recursive alias": (b"log: &a [*a]\n", "1", "the alias *a is used inside the value it names "
                                                "(a recursive alias); refused"),
    "merge key": (b"a: &a {b: 1}\nc: {<<: *a}\n", "2", "YAML merge keys (`<<: *name`) are not read: "
                                                       "write the keys out"),
    "python tag": (b"code: !!python/object/apply:os.system [echo hi]\n", "1",
                   "the YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed: input "
                   "files hold plain text, numbers, lists and mappings only"),
    "tab indent": (b"code: euchre\n\tdealer: S\n", "2", "invalid YAML: found a tab character that violates indentation"),
}


@pytest.mark.parametrize("command", ["replay", "lint"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_whole_file_problems(tmp_path, name, command):
    data, line, message = CASES[name]
    path = tmp_path / "file.yaml"
    path.write_bytes(data)
    (match,) = timed_refusal(path, command)
    assert (match["line"], match["message"]) == (line, message)


@pytest.mark.parametrize("command", ["replay", "lint"])
def test_paths_that_are_not_files(tmp_path, command):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "to-folder.yaml").symlink_to(tmp_path / "folder.yaml")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    expected = {
        "missing.yaml": "no such file",
        "folder.yaml": "is a folder, not a file",
        "to-folder.yaml": "is a folder, not a file",
        "dangling.yaml": "no such file",
        "loop.yaml": "cannot read: Too many levels of symbolic links",
    }
    for name, message in expected.items():
        (match,) = timed_refusal(tmp_path / name, command)
        assert (match["line"], match["message"]) == (None, message)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_text("code: euchre\n")
    path.chmod(0)
    (match,) = timed_refusal(path)
    assert (match["line"], match["message"]) == (None, "cannot read: Permission denied")


def test_every_file_is_reported_and_the_good_ones_still_replayed(tmp_path):
    good = ROOT / "scenarios" / "euchre" / "revoke-established.yaml"
    bad = billion_laughs(tmp_path / "lol.yaml")
    result = invoke("replay", str(bad), str(good), str(tmp_path / "missing.yaml"))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert [ERROR_LINE.fullmatch(line)["file"] for line in lines] == [str(bad), str(tmp_path / "missing.yaml")]
    assert "revoke by East" in result.stdout


# --- determinism across processes -------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["table", "json", "markdown"])
def test_same_bytes_in_every_process(fmt):
    files = ["scenarios/euchre/revoke-established.yaml", "scenarios/short-whist/exposed-card-called.yaml"]
    runs = [run_module("replay", "--format", fmt, *files, seed=seed) for seed in ("0", "4242")]
    assert runs[0].returncode == 0 and runs[0].stdout
    assert all(run.stdout == runs[0].stdout and run.stderr == runs[0].stderr for run in runs)


def test_same_error_bytes_in_every_process(tmp_path):
    path = tmp_path / "many-problems.yaml"
    path.write_text("code: eucher\ndealer: X\nscore: {NS: two, XY: 1}\nhands: {E: [ZZ]}\n"
                    "log: [{W: fly}, {Q: AS}, pass]\nexpect: {lawz: 1}\nfoo: 1\n")
    runs = [run_module("replay", str(path), seed=seed) for seed in ("0", "7", "99999")]
    assert runs[0].returncode == 2 and len(runs[0].stderr.splitlines()) >= 5
    assert all(run.stderr == runs[0].stderr and run.returncode == 2 for run in runs)


def test_the_reader_tracks_no_yaml_paths_so_its_resolver_shortcuts_hold():
    """The loader skips PyYAML's path tracking and remembers each scalar's tag: both hold only
    while no path resolver is registered, and a quoted "yes" stays text while a plain one is a bool."""
    from adjudicate.record.yamlsource import _Loader, parse_yaml

    assert not _Loader.yaml_path_resolvers
    first = parse_yaml('a: yes\nb: "yes"\nc: [1, "1", ~]\n', "x.yaml")
    again = parse_yaml('a: yes\nb: "yes"\nc: [1, "1", ~]\n', "x.yaml")
    for root in (first, again):
        assert root.get("a").tag.endswith("bool") and root.get("b").tag.endswith("str")
        assert [item.tag.rsplit(":", 1)[1] for item in root.get("c").elements()] == ["int", "str", "null"]
