"""`adjudicate rule`: the ruling on each scenario, the main job; `--answer`, `--answers` and `--ask` settle its open
questions (docs/asking.md)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, List, Optional

import typer

from adjudicate.cli.common import (Command, ListFormat, app, each_file, echo, guarded, print_each, report_problem,
                                   scenario_sources, warn)
from adjudicate.errors import EXIT_INPUT, EXIT_INTERRUPTED

if TYPE_CHECKING:
    from adjudicate.api import Question, Ruling


class Colour(str, enum.Enum):
    """When to colour the text (`--color`), as ruff and pytest have it."""

    auto = "auto"
    always = "always"
    never = "never"


SHEETS_BETWEEN = "\n---\n\n"
"""Between the ruling sheets of several files (`--format markdown`): a horizontal rule."""


@app.command(cls=Command)
def rule(
    files: Annotated[List[str], typer.Argument(
        metavar="FILE", help="Scenario files to rule on; - reads one from standard input.", show_default=False)],
    format: Annotated[ListFormat, typer.Option(
        "--format", "-f", help="table, json (an array, a ruling a file), jsonl (a ruling a line) or markdown (a "
                               "ruling sheet).")] = ListFormat.table,
    house: Annotated[Optional[str], typer.Option(
        "--house", help="House-rules file (or a built-in house's id) to use instead of the scenario's own.")] = None,
    answer: Annotated[Optional[List[str]], typer.Option(
        "--answer", metavar="ID=yes|no", show_default=False,
        help="Answer an open question (its id, as the ruling lists it): yes or no (also true, false, y, n). "
             "Repeat for several.")] = None,
    answers: Annotated[Optional[Path], typer.Option(
        "--answers", metavar="FILE", show_default=False, readable=False,
        help="A YAML file of answers, one `ID: yes` (or no) a line.")] = None,
    ask: Annotated[bool, typer.Option(
        "--ask", help="On a terminal, ask the open questions whose answer changes the ruling, then give the "
                      "one ruling.")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", "-v", help="The ruling in full: every law quoted, every reason, the laws that do not apply "
                                "and why.")] = False,
    color: Annotated[Colour, typer.Option(
        "--color", help="Colour the text: auto (on a terminal, unless NO_COLOR is set), always or never.")
    ] = Colour.auto,
) -> None:
    """Rule on scenario files, as a director gives the ruling at the table: the decision first, what happened,
    the laws by number, each side's choices with the score after each, what is still open and the next step.
    `--explain` gives the long form (every law quoted, the laws that do not apply and why); `--format markdown`
    a ruling sheet a club can file; `--format json` the ruling with a `record` of what it was made from (the
    version, the digests of the rulebook, the house files and the scenario).

    Example: adjudicate rule scenarios/euchre/revoke-established.yaml
    """
    from adjudicate import api
    from adjudicate.terminal import use_colour, width

    sources = scenario_sources(files)
    given = _answers_given(answer or [], answers)
    columns = width()
    colour = format is ListFormat.table and use_colour(color.value, sys.stdout)

    def text_of(ruling: "Ruling") -> str:
        return ruling.to_text(explain=explain, width=columns, colour=colour)

    if not given and not ask:
        def as_text(path: Any, markdown: bool) -> str:
            ruling = api.rule(path, house=house)
            return ruling.to_markdown() if markdown else text_of(ruling)

        each_file(sources, format, record=lambda path: api.rule(path, house=house).to_json(), text=as_text,
                  markdown_between=SHEETS_BETWEEN, colour=colour)
        return
    rulings: list[Ruling] = []
    failed = False
    for path in sources:
        try:
            rulings.append(api.rule(path, house=house))
        except api.AdjudicateError as error:
            report_problem(error)
            failed = True
    if given and rulings:
        rulings = list(guarded(lambda: api.answer_rulings(rulings, given)))
    if ask:
        if sys.stdin.isatty() and sys.stdout.isatty():
            rulings = [_asked(ruling, len(rulings) > 1) for ruling in rulings]
        elif any(ruling.next_question() for ruling in rulings):
            warn("note: --ask asks only on a terminal (standard input and output); the open questions are listed "
                 "in the ruling")
    print_each([ruling.to_json() if format in (ListFormat.json, ListFormat.jsonl) else
                ruling.to_markdown() if format is ListFormat.markdown else text_of(ruling) for ruling in rulings],
               format, SHEETS_BETWEEN, colour)
    if failed:
        raise typer.Exit(EXIT_INPUT)


def _answers_given(texts: list[str], path: Path | None) -> dict[str, bool]:
    """The answers of `--answers FILE` and then of each `--answer` (the later of two answers to one question wins)."""
    from adjudicate import api

    given: dict[str, bool] = {}
    if path is not None:
        given.update(guarded(lambda: api.read_answers(path)))
    for text in texts:
        qid, yes = guarded(lambda: api.parse_answer(text))
        given[qid] = yes
    return given


class _Interrupted(Exception):
    pass


def _asked(ruling: "Ruling", name_it: bool) -> "Ruling":
    """Ask, one by one, the questions whose answer changes the ruling, the one that settles the most first; the
    ruling as answered. Ctrl-C ends the command (exit 130); the end of input (Ctrl-D) stops the asking."""
    import signal

    interrupted: list[bool] = []

    def on_interrupt(signum: int, frame: object) -> None:
        interrupted.append(True)
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, on_interrupt)
    try:
        question = ruling.next_question()
        if question is not None and name_it:
            echo(f"{ruling.scenario}:")
        while question is not None:
            echo(f"{question.question[:1].upper()}{question.question[1:]}")
            echo(f"  {question.id}: {_what_each_answer_does(question)}")
            try:
                yes = typer.confirm("  Answer", default=None)
            except typer.Abort:
                if interrupted:
                    raise _Interrupted() from None
                echo("")  # the end of input: no more answers, the ruling as it stands
                break
            ruling = ruling.answer({question.id: yes})
            question = ruling.next_question()
    except (_Interrupted, KeyboardInterrupt):  # at a prompt, or while the ruling is worked out again
        echo("")  # end the prompt's line
        warn("interrupted")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        signal.signal(signal.SIGINT, before)
    return ruling


def _laws(ids: "tuple[str, ...]") -> str:
    return f"law{'s' if len(ids) > 1 else ''} {', '.join(ids)}"


def _what_each_answer_does(question: "Question") -> str:
    def said(laws: "tuple[str, ...]", lost: "tuple[str, ...]") -> str:
        parts = [f"{_laws(laws)} {'apply' if len(laws) > 1 else 'applies'}"] if laws else []
        if lost:
            parts.append(f"{_laws(lost)} no longer {'apply' if len(lost) > 1 else 'applies'}")
        return " and ".join(parts)
    yes = said(question.if_so.laws, question.if_so.not_)
    no = said(question.otherwise.laws, question.otherwise.not_)
    if not yes and not no:
        return "the same laws apply either way, with other choices or another score"
    if yes and not no and question.if_so.not_:
        # The other answer keeps the laws as they are: what the first removes still applies.
        no = f"{_laws(question.if_so.not_)} still {'apply' if len(question.if_so.not_) > 1 else 'applies'}"
    elif no and not yes and question.otherwise.not_:
        yes = f"{_laws(question.otherwise.not_)} still {'apply' if len(question.otherwise.not_) > 1 else 'applies'}"
    return f"if so, {yes or 'none of them'}; if not, {no or 'none of them'}"
