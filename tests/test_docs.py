"""Every command is documented: in docs/commands.md with an example (`check` in full in docs/ci.md), in
the README's table of commands, and in its own --help. The README stays short and every link of the
documentation leads somewhere."""

import os
import re
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]
runner = CliRunner()


def test_the_main_job_comes_first_in_help():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    commands = result.stdout.split("Commands:", 1)[1]
    listed = re.findall(r"^  ([a-z]+) ", commands, re.M)
    assert listed[0] == "rule"
    assert sorted(listed) == COMMANDS


def _section(text: str, command: str) -> str:
    """The section of a page headed `adjudicate COMMAND`, to the next heading of its level or above."""
    headings = re.sub(r"^```.*?^```$", lambda block: re.sub(r"[^\n]", " ", block.group()), text, flags=re.M | re.S)
    found = re.search(rf"^(#+) `adjudicate {command}\b.*$", headings, re.M)
    assert found, f"no section for `adjudicate {command}`"
    level = len(found.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(headings, found.end())
    return text[found.end():end.start() if end else len(text)]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_section_with_an_example(command):
    pages = ["commands.md", "ci.md"] if command == "check" else ["commands.md"]
    for page in pages:
        section = _section((ROOT / "docs" / page).read_text(encoding="utf-8"), command)
        assert re.search(rf"^adjudicate {command}\b", section, re.M), f"docs/{page}: no example of `adjudicate {command}`"


@pytest.mark.parametrize("command", COMMANDS)
def test_the_readme_lists_every_command_with_its_page(command):
    row = re.search(rf"^\| `adjudicate {command}\b.*\]\((docs/[a-z-]+\.md)[^)]*\) \|$", README, re.M)
    assert row, f"the README's table of commands has no row for {command} linking its page"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert f"adjudicate {command}" in result.stdout


# --- the README: short, and every page of docs/ linked; every link of every page resolves ---------------

def test_the_readme_fits_on_two_screens_before_the_reference():
    """Issue 15: what it is, the two commands, the guide's link on the first screen, one ruling, then the
    commands' table, whose links lead into docs/: at most 80 lines before it; the whole well under 10 KB."""
    lines = README.splitlines()
    links = [number for number, line in enumerate(lines) if "](docs/" in line]
    assert links[0] < 30, "the README's first screen should link docs/ (the guide to writing a hand)"
    after_the_guide = next(number for number in links if "](docs/writing-a-hand.md)" not in lines[number])
    assert after_the_guide <= 80, f"the README runs {after_the_guide} lines before its links into docs/"
    assert len(README.encode("utf-8")) < 10_000


def test_the_readme_keeps_the_two_commands():
    """CI and the tests run these lines as written."""
    assert "\npython3 -m venv .venv && . .venv/bin/activate && pip install . && adjudicate rule " \
           "scenarios/euchre/revoke-established.yaml\n" in README
    assert "\npython3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest -n auto " \
           "&& adjudicate check scenarios/\n" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\npython -m pytest -n auto\n" in ci


def test_the_readmes_ruling_is_the_real_one():
    """The README's scenario is the shipped file's lines, and its ruling's key lines the real output, in order."""
    blocks = re.findall(r"^```yaml\n(.*?)^```$", README, re.M | re.S)
    assert len(blocks) == 1
    path = "scenarios/euchre/revoke-established.yaml"
    shipped = (ROOT / path).read_text(encoding="utf-8")
    assert shipped.startswith(blocks[0]) and shipped[len(blocks[0]):].startswith("expect:")
    (console,) = re.findall(r"^```console\n(.*?)^```$", README, re.M | re.S)
    command, *shown = console.splitlines()
    assert command == f"$ adjudicate rule {path}"
    result = runner.invoke(app, ["rule", str(ROOT / path)])
    assert result.exit_code == 0, result.output
    output = [line.rstrip() for line in result.stdout.splitlines()]
    assert _in_order([line.rstrip() for line in shown], output), \
        f"the README quotes a ruling of {path} that `adjudicate rule` does not print"


def _outside_code(text: str) -> str:
    """The text without its fenced blocks and inline code, where a `#` or a `[x](y)` is no heading or link."""
    text = re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def _anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as hyphens,
    `-1`, `-2` after a heading met before."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_leads_somewhere(page):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", _outside_code(text)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:: not this repository's to check
        name, _, anchor = target.partition("#")
        linked = (page.parent / name).resolve() if name else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked.read_text(encoding="utf-8")):
            broken.append(f"{target}: {linked.name} has no heading of that anchor")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_page_sends_readers_outside_the_repository(page):
    """DESIGN.md and ../shared are the development's, not in the repository."""
    text = page.read_text(encoding="utf-8")
    assert "DESIGN.md" not in text and "../shared" not in text


def test_the_readme_links_every_page():
    linked = set(re.findall(r"\]\(docs/([a-z-]+\.md)", README))
    assert linked == {page.name for page in DOCS}


@pytest.mark.parametrize("page", DOCS, ids=lambda page: page.name)
def test_every_page_says_what_it_is_for_and_links_back(page):
    title, blank, *rest = page.read_text(encoding="utf-8").splitlines()
    purpose = rest[:rest.index("")]
    assert title.startswith("# ") and blank == "" and purpose
    assert "](../README.md)" in "\n".join(purpose), f"docs/{page.name}: its first paragraph should link back to the README"


# --- docs/rulings.md: the relations of one law defeating another, as the rulebooks encode them -------------

RULINGS = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")


def relations_table() -> str:
    from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook

    rows = ["| code | law | how | defeats | what | reaches | because |", "|---|---|---|---|---|---|---|"]
    for code in builtin_codes():
        for law in builtin_rulebook(code).laws:
            grouped: dict[tuple, list[str]] = {}
            for defeat in law.defeats:
                reach = defeat.same or "all"
                if defeat.pairs:
                    reach += ", in pairs"
                if defeat.when is not None:
                    reach += ", when its `when` holds"
                grouped.setdefault((defeat.how, defeat.what, reach, defeat.because), []).append(defeat.law)
            for (how, what, reach, because), targets in grouped.items():
                rows.append(f"| {code} | {law.id} | {how} | {', '.join(targets)} | {what} | {reach} | {because} |")
    return "\n".join(rows)


def test_the_relations_table_is_the_rulebooks():
    start = RULINGS.index("<!-- relations:")
    start = RULINGS.index("\n", start) + 1
    end = RULINGS.index("<!-- /relations -->")
    assert RULINGS[start:end].strip() == relations_table(), \
        "docs/rulings.md's relations table differs from the rulebooks; it should read:\n" + relations_table()


@pytest.mark.parametrize("scenario", sorted(set(re.findall(r"`(scenarios/[a-z-]+/[a-z0-9-]+\.yaml)`", RULINGS))))
def test_every_scenario_docs_rulings_names_exists(scenario):
    assert (ROOT / scenario).is_file(), scenario


# --- docs/writing-a-hand.md: every file it names is checked, every YAML block is a scenario or a file's lines,
# and every ruling it quotes is the real output -----------------------------------------------------------------

GUIDE = (ROOT / "docs" / "writing-a-hand.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", GUIDE, re.M | re.S)


def _in_order(shown: list[str], lines: list[str], whole_runs: bool = True) -> bool:
    """Each run of `shown` between `…` lines stands, whole and in order, among `lines` (or, not `whole_runs`,
    each line of `shown` does, in order: the lines of a file the guide quotes, some left out)."""
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "…" or not whole_runs:
            runs.append([])
        if line != "…":
            runs[-1].append(line)
    at = 0
    for run in (run for run in runs if run):
        found = next((i for i in range(at, len(lines) - len(run) + 1) if lines[i:i + len(run)] == run), None)
        if found is None:
            return False
        at = found + len(run)
    return True


def test_the_guide_to_writing_a_hand():
    from adjudicate.record.scenario import parse_scenario

    assert "](docs/writing-a-hand.md)" in "\n".join(README.splitlines()[:30]), \
        "the README's first screen should link docs/writing-a-hand.md"
    named = sorted(set(re.findall(r"scenarios/[a-z-]+/[a-z0-9-]+\.yaml", GUIDE)))
    assert len(named) >= 12
    missing = [name for name in named if not (ROOT / name).is_file()]
    assert not missing, f"docs/writing-a-hand.md names files that do not exist: {missing}"
    checked = runner.invoke(app, ["check", "--jobs", "1", *(str(ROOT / name) for name in named)])
    assert checked.exit_code == 0, checked.output
    yaml_blocks = _blocks("yaml")
    assert len(yaml_blocks) >= 12
    for block in yaml_blocks:
        first = block.splitlines()[0]
        if first.startswith("# scenarios/"):
            name = first[2:].strip()
            assert name in named
            lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
            assert _in_order(block.splitlines()[1:], lines, whole_runs=False), f"the guide's lines of {name} are not in it:\n{block}"
        else:
            parse_scenario(block, "docs/writing-a-hand.md")  # raises with the line and column if it is no scenario
    consoles = _blocks("console")
    assert len(consoles) >= 12
    for block in consoles:
        command, *shown = block.splitlines()
        assert command.startswith("$ adjudicate rule scenarios/"), command
        path = command.split()[-1]
        result = runner.invoke(app, ["rule", str(ROOT / path)])
        assert result.exit_code == 0, result.output
        output = [line.rstrip() for line in result.stdout.replace(str(ROOT) + "/", "").splitlines()]
        assert _in_order([line.rstrip() for line in shown], output), \
            f"the guide quotes a ruling of {path} that `adjudicate rule` does not print:\n{block}"


# --- docs/asking.md: every command it shows prints what it shows; the --ask session is typed into a terminal ----

ASKING = (ROOT / "docs" / "asking.md").read_text(encoding="utf-8")


def _asking_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", ASKING, re.M | re.S)


def _shown_in_order(shown: list[str], output: str) -> bool:
    return _in_order([line.rstrip() for line in shown], [line.rstrip() for line in output.splitlines()])


def test_the_asking_page_shows_what_the_commands_print(tmp_path):
    import shlex
    import subprocess
    import sys

    (answers,) = [block for block in _asking_blocks("yaml") if block.startswith("# answers.yaml")]
    (tmp_path / "answers.yaml").write_text(answers, encoding="utf-8")
    consoles = [block for block in _asking_blocks("console") if " --ask " not in block.splitlines()[0]]
    assert len(consoles) >= 4
    for block in consoles:
        command, *shown = block.splitlines()
        assert command.startswith("$ adjudicate rule "), command
        args = [str(tmp_path / "answers.yaml") if arg == "answers.yaml" else arg
                for arg in shlex.split(command[len("$ adjudicate "):])]
        done = subprocess.run([sys.executable, "-m", "adjudicate", *args], capture_output=True, text=True, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        printed = done.stdout + done.stderr
        assert _shown_in_order(shown, printed), f"docs/asking.md shows what `{command[2:]}` does not print:\n{printed}"
        assert done.returncode == (2 if shown[0].startswith("error:") else 0)


def test_the_asking_page_shows_a_real_session():
    from test_asking import at_terminal

    (session,) = [block for block in _asking_blocks("console") if " --ask " in block.splitlines()[0]]
    command, *shown = session.splitlines()
    replies = [line.rsplit(": ", 1)[1].encode() + b"\r" for line in shown if "Answer [y/n]: " in line]
    assert len(replies) == 2  # the two questions whose answer changes the ruling (laws 27 and 29)
    screen, code = at_terminal(command[len("$ adjudicate "):].split(), replies)
    assert code == 0, screen
    screen = re.sub(r"\x1b\[[0-9;]*m", "", screen)  # a terminal: the ruling in colour
    assert _shown_in_order(shown, screen.replace("<typed>", "")), screen


def test_the_asking_page_runs_its_python_as_written(monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "asking.md"), module_relative=False, report=True)
    assert result.attempted >= 5 and result.failed == 0


# --- docs/law-audit.md: every penalty, ruling and scoring law, clause by clause, against the scenarios ------

def test_the_law_audit_is_current():
    from adjudicate.checking.audit import audit_page

    page = (ROOT / "docs" / "law-audit.md").read_text(encoding="utf-8")
    assert page == audit_page(str(ROOT / "scenarios")), \
        "docs/law-audit.md differs from the rulebooks and scenarios: run `python tools/law_audit.py`"


def test_the_law_audit_shows_a_proviso_both_ways():
    """Euchre 40's time limit (stopped "before the trump card is turned") holds in one shipped deal out of
    turn and fails in another; a proviso nothing encodes says why."""
    page = (ROOT / "docs" / "law-audit.md").read_text(encoding="utf-8")
    section = page[page.index("### 40. "):page.index("### 41. ")]
    row = next(line for line in section.splitlines() if "before the trump card is turned" in line)
    holds, fails = row.split(" | ")[2:4]
    assert holds != "none" and fails.rstrip(" |") != "none"
    assert '| "no such claim can be entertained unless a revoke be established" | not encoded: ' in page


# --- every console block of every page is the real output ----------------------------------------------------

CONSOLE = re.compile(r"^( *)```console\n(.*?)^\1```$", re.M | re.S)


def _consoles() -> list[tuple[str, str]]:
    """(page, block) for every console block of the README and docs/, indented ones (in a list) too; a block
    typed into a terminal (`--ask`) is tests/test_docs.py's real session, and is left to it."""
    found = []
    for page in PAGES:
        for indent, block in CONSOLE.findall(page.read_text(encoding="utf-8")):
            lines = [line[len(indent):] for line in block.splitlines()]
            if " --ask " not in lines[0] and not lines[0].endswith(" --ask"):
                found.append((page.name, "\n".join(lines)))
    return found


BAD = ("scenarios/euchre/bad.yaml", "scenarios/euchre/revoke-established.yaml",
       ('laws: ["4", "62", "63", "64", "70"]', 'laws: ["4", "62", "63", "64", "65", "70"]'))
"""A file a page shows failing (docs/ci.md): the shipped revoke whose expect block names law 65 as well."""


@pytest.mark.parametrize("page, block", _consoles(), ids=lambda item: item[:40])
def test_every_console_block_of_every_page_is_the_real_output(page, block, tmp_path, monkeypatch):
    import shlex

    command, *shown = block.splitlines()
    assert command.startswith("$ adjudicate "), f"{page}: a console block runs adjudicate: {command}"
    args = shlex.split(command[len("$ adjudicate "):])
    cwd = ROOT
    if BAD[0] in args:
        cwd = tmp_path
        (tmp_path / BAD[0]).parent.mkdir(parents=True)
        text = (ROOT / BAD[1]).read_text(encoding="utf-8").replace(*BAD[2])
        (tmp_path / BAD[0]).write_text(text, encoding="utf-8")
    for name in ("answers.yaml",):
        if name in args:
            (answers,) = [b for b in _asking_blocks("yaml") if b.startswith(f"# {name}")]
            (tmp_path / name).write_text(answers, encoding="utf-8")
            args = [str(tmp_path / name) if arg == name else arg for arg in args]
    # In this process, through the app (the processes of every command are tests/test_hostile_running.py's).
    monkeypatch.chdir(cwd)
    done = runner.invoke(app, args, prog_name="adjudicate", input="", env={"COLUMNS": "100"})
    printed = (done.stdout + done.stderr).replace(str(ROOT) + "/", "")
    assert _in_order([line.rstrip() for line in shown], [line.rstrip() for line in printed.splitlines()]), \
        f"{page} shows what `{command[2:]}` does not print; it prints:\n{printed}"
