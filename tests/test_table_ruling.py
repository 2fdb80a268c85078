"""The ruling a player can read at the table (issue 21): `adjudicate rule`'s default text.

Its budget and its words hold for every shipped scenario; a dozen rulings, one for each kind of dispute, are
held as goldens in tests/goldens/rulings/, read as a player would read them. When a ruling changes on purpose
(the rulebooks or the engine), write them anew and read the diff:

    ADJUDICATE_UPDATE_GOLDENS=1 python -m pytest tests/test_table_ruling.py

(ADJUDICATE_UPDATE_SNAPSHOTS=1 writes them too, with the snapshots.)
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate import api
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = Path(__file__).resolve().parent / "goldens" / "rulings"
UPDATE = "1" in (os.environ.get("ADJUDICATE_UPDATE_GOLDENS"), os.environ.get("ADJUDICATE_UPDATE_SNAPSHOTS"))
SCENARIOS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "scenarios").glob("*/*.yaml"))

ONE_IRREGULARITY_LINES = 26  # a revoke's three-way choice, with honours still to be called (Short Whist 6)
MOST_LINES = 60
WIDTH = 100

GOLDEN = {
    "euchre/revoke-established": "a single revoke, a penalty with no choice in it",
    "short-whist/revoke-established": "a single revoke, three penalties to choose from, and a question open",
    "short-whist/revokes-on-both-sides": "a revoke on each side: each chooses a penalty for the other's",
    "euchre/lead-out-of-turn-no-one-follows": "a lead out of turn: the adversaries choose a card or a suit",
    "long-whist/revoke-cards-mixed-after-claim": "a claim in time, then the accused side mixes the cards",
    "euchre/consulted-on-the-penalty": "partners consult on the penalty and lose it",
    "euchre/exposed-card-called": "an exposed card, called: the choice already made",
    "euchre/misdeal-two-two-one": "a misdeal: the deal is lost",
    "euchre/lone-partner-plays-to-first-lead": "a lone hand's partner plays: the adversaries choose",
    "short-whist/honours-claimed-after-the-cut": "honours called late",
    "short-whist/score-questioned": "an error in the score, a question open",
    "euchre/missing-card-not-found": "a missing card not found: an imperfect pack, a revoke claim that fails",
    "short-whist/all-four-hands-thrown-after-a-revoke": "all four hands thrown down after a revoke",
    "short-whist/deal-in-order": "no irregularity",
}
"""The goldens: each kind of dispute once."""

FORBIDDEN = ("`", "--", "said or did", "if not, .", "0 players", "log entry", ".yaml", "scenario", "None",
             "True", "False", "_")
"""Words of the record, the program or its flags that no default ruling's body says (its last line, the
one hint, may name a flag)."""
KEYS = ("score:", "hands:", "log:", "expect:", "house:", "dealer:", "code:", "turned:", "title:")
"""The record's keys."""


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, list(args), prog_name="adjudicate", env=env)
    finally:
        os.chdir(cwd)
    return result.exit_code, result.stdout


@lru_cache(maxsize=None)
def _ruling(scenario: str) -> api.Ruling:
    return api.rule(ROOT / scenario)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_ruling_keeps_to_its_budget_and_to_a_players_words(scenario):
    ruling = _ruling(scenario)
    text = ruling.to_text(width=WIDTH)
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    limit = ONE_IRREGULARITY_LINES if len(ruling.irregularities) <= 1 else MOST_LINES
    assert len(lines) <= limit, f"{scenario}: {len(lines)} lines, more than {limit}"
    _title, *body, hint = lines  # the title is the record's own words
    assert hint.startswith("(") and hint.endswith(")"), hint
    said = "\n".join(body)
    assert not [word for word in FORBIDDEN + KEYS if word in said], said
    assert not re.search(r"(?<![\w–-])0 (players|cards|tricks|points)\b", said)
    assert not re.search(r"the \w+ of (spades|hearts|diamonds|clubs) and the \w+ of \1\b", said), \
        "cards of one suit are said together: the seven, eight and nine of diamonds"
    # What an open answer takes away is said once, where it is declared, and names its question as the questions
    # below are numbered.
    flat = " ".join(said.split()).lower()
    for which, word in set(re.findall(r"unless the answer to (the question below|question \d below) is (yes|no)", flat)):
        assert f"does not hold if the answer to {which} is {word}" not in flat, flat
    if re.search(r"question 2 below", flat):
        assert "the question below" not in flat, flat


def test_the_decision_comes_first_and_nothing_is_said_twice():
    text = _ruling("scenarios/short-whist/revokes-on-both-sides.yaml").to_text()
    paragraphs = text.split("\n\n")
    decision = " ".join(paragraphs[1].split())
    assert decision.startswith("The revokes are established.")  # one on each side
    assert "Each side chooses one penalty for the other's revoke" in decision
    assert " ".join(text.split()).count("the seven, eight, nine, ten, knave and queen of diamonds") == 1
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s", text) if len(s.strip()) > 30]
    assert len(sentences) == len(set(sentences)), [s for s in sentences if sentences.count(s) > 1]


@pytest.mark.parametrize("scenario", sorted(GOLDEN))
def test_the_golden_rulings_read_as_they_were_read(scenario):
    text = _ruling(f"scenarios/{scenario}.yaml").to_text(width=WIDTH)
    path = GOLDENS / f"{scenario}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden {path}: write it with ADJUDICATE_UPDATE_GOLDENS=1"
    assert text == path.read_text(encoding="utf-8"), f"{scenario}: differs from tests/goldens/rulings/{scenario}.txt"


def test_the_goldens_cover_a_dozen_kinds_of_dispute():
    assert len(GOLDEN) >= 12 and all((ROOT / "scenarios" / f"{name}.yaml").exists() for name in GOLDEN)


# --- the long form ------------------------------------------------------------------------------------

def test_explain_gives_every_law_in_full_and_the_laws_that_do_not_apply():
    ruling = _ruling("scenarios/long-whist/revoke-cards-mixed-after-claim.yaml")
    short, full = ruling.to_text(), ruling.to_text(explain=True)
    assert "LAWS THAT DO NOT APPLY" in full and "NOT APPLIED" not in short
    for law in ruling.laws:
        assert law.text.split()[0] in full and f"Law {law.id}." in full
    assert len(full.splitlines()) > len(short.splitlines())
    code, out = _run("rule", "--explain", "scenarios/long-whist/revoke-cards-mixed-after-claim.yaml")
    assert code == 0 and out == api.rule("scenarios/long-whist/revoke-cards-mixed-after-claim.yaml".join(
        [str(ROOT) + "/", ""])).to_text(explain=True).replace(str(ROOT) + "/", "")
    assert _run("rule", "-v", "scenarios/long-whist/revoke-cards-mixed-after-claim.yaml") == (0, out)


def test_the_default_is_the_director_ruling_and_the_other_formats_are_unchanged():
    scenario = "scenarios/euchre/revoke-established.yaml"
    assert _run("rule", scenario) == (0, _ruling(scenario).to_text())
    assert _run("rule", "--explain", "-f", "json", scenario) == _run("rule", "-f", "json", scenario)
    assert _run("rule", "--explain", "-f", "markdown", scenario) == _run("rule", "-f", "markdown", scenario)


# --- the terminal ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 60, 80, 100, 160])
def test_the_ruling_wraps_to_the_terminal_at_most_a_hundred_columns(columns):
    scenario = "scenarios/short-whist/revokes-on-both-sides.yaml"
    for flag in ((), ("--explain",)):
        code, out = _run("rule", *flag, scenario, env={"COLUMNS": str(columns)})
        assert code == 0
        # a line runs past the width only where one word (a question's id) is longer than it
        assert all(len(line) <= min(columns, 100) or len(line.split()) == 1 for line in out.splitlines()), out


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_colour_only_when_asked_or_on_a_terminal():
    scenario = "scenarios/euchre/revoke-established.yaml"
    _, piped = _run("rule", scenario)
    _, never = _run("rule", "--color", "never", scenario)
    _, always = _run("rule", "--color", "always", scenario)
    _, no_color = _run("rule", "--color", "auto", scenario, env={"NO_COLOR": "1"})
    assert not _ANSI.search(piped) and never == piped and no_color == piped
    assert _ANSI.search(always) and _ANSI.sub("", always) == piped
    bold = re.findall(r"\x1b\[1m(.*?)\x1b\[0m", always)
    assert "WHAT HAPPENED" in bold and "LAWS:" in bold
    highlighted = "".join(re.findall(r"\x1b\[1;32m(.*?)\x1b\[0m", always))
    assert highlighted.startswith("The revoke is established.")
    _, explained = _run("rule", "--explain", "--color", "always", scenario)
    assert "\x1b[1mLaw 63.\x1b[0m" in explained and _ANSI.sub("", explained) == _run("rule", "-v", scenario)[1]


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    import io

    from adjudicate.terminal import use_colour

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour("auto", Terminal()) and not use_colour("auto", io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour("auto", Terminal()) and use_colour("always", io.StringIO())
    assert not use_colour("never", Terminal())


def test_a_bad_colour_choice_is_refused():
    code, _ = _run("rule", "--color", "sometimes", "scenarios/euchre/revoke-established.yaml")
    assert code == 2


def test_a_title_with_control_characters_stays_escaped_in_colour(tmp_path):
    source = (ROOT / "scenarios/euchre/revoke-established.yaml").read_text(encoding="utf-8")
    path = tmp_path / "hostile.yaml"
    path.write_text(re.sub(r"(?m)^title: .*$", lambda _: 'title: "East \\e[31m trumps"', source), encoding="utf-8")
    _, out = _run("rule", "--color", "always", str(path))
    assert "\x1b[31m" not in out


def test_the_long_form_says_a_fact_once_with_every_law_it_brings_in():
    """Short Whist 43 gives the misdeal as "The deal was a misdeal (law 44): South, "count", ..." and law 44 the
    count itself: one act, said once in WHAT HAPPENED, with both laws."""
    full = _ruling("scenarios/short-whist/dealer-counts-the-cards.yaml").to_text(explain=True, width=WIDTH)
    happened = full.split("WHAT HAPPENED", 1)[1].split("\n\n", 1)[0]
    flat = " ".join(happened.split())
    assert flat.count('South, "count", at log entry 2') == 1, flat
    assert "(laws 43 and 44)" in flat, flat
