"""What every command shares: the Typer app, `--format`, turning errors into one line and exit 2, and printing.

Everything a command prints goes through `echo` (stdout) or `report_problem` (stderr): text
from files is shown with its control characters escaped (`adjudicate.escape`), and a
failing output (a closed pipe, a full disk, a closed stdout) ends the command with a
documented exit code instead of a traceback.
"""

from __future__ import annotations

import enum
import errno
import io
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, NoReturn, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand
from typer.main import get_command_name
from typer.models import CommandInfo

from adjudicate.api import AdjudicateError
from adjudicate.errors import EXIT_BROKEN_PIPE, EXIT_INPUT, did_you_mean
from adjudicate.escape import inert_lines, json_text, old_commands_inert, visible, visible_lines

if TYPE_CHECKING:
    from pathlib import Path

def new_app(**settings: Any) -> typer.Typer:
    """The `adjudicate` Typer app as every entry point builds it."""
    return typer.Typer(
        name="adjudicate",
        help="A rules lawyer for the card table: replays a disputed Euchre or Whist hand "
        "and says which numbered laws apply.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
        **settings,
    )


def _version(value: bool) -> None:
    if value:
        from adjudicate.version import __version__

        echo(f"adjudicate {__version__}")
        raise typer.Exit()


def _main(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """A rules lawyer for the card table: replays a disputed Euchre or Whist hand and says which numbered laws
    apply."""


class Command(TyperCommand):
    """A command whose usage line names its arguments as a man page does: `FILE...`, `[FILE]...`, `REF [LAW]`.

    Typer 0.28 writes a required argument in braces (`{files}...`) and drops the `...` of a
    `metavar`; this builds the line from the arguments themselves, the same under every Typer
    the project allows.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            kind = getattr(param, "type", None)  # typer 0.29's parameters type it otherwise: read it as data
            if getattr(kind, "choices", None):
                _suggest_choices(kind)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append((name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else ""))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


def _parse_plainly() -> None:
    """Typer 0.29 and later turn every parameter's text into its value with a pydantic `TypeAdapter`, and so
    import pydantic (about 60 ms, half as much again as `adjudicate rule FILE`'s whole start) at every start.
    The values of these commands are flags, text, lists of text, paths, a format's name and a whole number at
    least some minimum: those are made here, with the messages Click gives (a format mistyped with its
    did-you-mean); any other value goes to Typer's own parsing, which imports pydantic then. Under a Typer
    without that layer (below 0.29) nothing is changed."""
    import importlib

    try:
        BadParameter: Any = importlib.import_module("typer._click.exceptions").BadParameter
        coercion: Any = importlib.import_module("typer._coercion")
        _TyperParameter: Any = importlib.import_module("typer.core")._TyperParameter
        RuntimeParam, build_runtime_param = coercion.RuntimeParam, coercion.build_runtime_param
    except (ImportError, AttributeError):  # a Typer that parses with Click's types: nothing to do
        return
    if getattr(_TyperParameter, "_adjudicate_plain", False):
        return
    builds = _TyperParameter.get_runtime_param

    class Plain(RuntimeParam):  # type: ignore[misc,valid-type]
        """A parameter's values made without pydantic; what it does not know, made by Typer's own."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            annotation = self.annotation
            if getattr(annotation, "__origin__", None) is list and isinstance(value, (list, tuple)):
                (item,) = annotation.__args__
                return [self._made(item, each, param, ctx) for each in value]
            return self._made(annotation, value, param, ctx)

        def _made(self, kind: Any, value: Any, param: Any, ctx: Any) -> Any:
            info = self.parameter_info
            if kind is str and isinstance(value, str):
                return value
            if kind is bool and isinstance(value, bool):
                return value
            if isinstance(kind, type) and issubclass(kind, enum.Enum) and isinstance(value, (str, kind)):
                if isinstance(value, kind):
                    return value
                names = [str(member.value) for member in kind]
                text = str(value)
                if text not in names:
                    raise BadParameter(f"{text!r} is not one of {', '.join(map(repr, names))}"
                                       f"{did_you_mean(text, names)}.", ctx=ctx, param=param)
                return kind(text)
            if kind is int and isinstance(value, (str, int)) and not isinstance(value, bool) and info.max is None:
                try:
                    number = int(value)
                except ValueError:
                    raise BadParameter(f"{value!r} is not a valid integer.", ctx=ctx, param=param) from None
                if info.min is not None and number < info.min:
                    raise BadParameter(f"{number} is not in the range x>={info.min}.", ctx=ctx, param=param)
                return number
            if (isinstance(kind, type) and kind.__name__ == "Path" and kind.__module__ == "pathlib"
                    and isinstance(value, str) and not (info.exists or info.resolve_path)):
                return kind(value)
            descriptor = param.type_descriptor
            if kind is not descriptor.annotation:  # an item of a list
                descriptor = coercion.resolve_type_descriptor(kind, info)
            return build_runtime_param(descriptor)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None and not self.type_descriptor.is_file:
            self._runtime_param = Plain(parameter_info=self.type_descriptor.parameter_info,
                                        annotation=self.type_descriptor.annotation)
        return builds(self)

    _TyperParameter.get_runtime_param = get_runtime_param
    _TyperParameter._adjudicate_plain = True


_parse_plainly()


def _suggest_choices(choice: Any) -> None:
    """Make a wrong value of this choice (`--format jsn`) say which choice was meant, as every other mistake does."""
    convert = choice.convert
    names = [str(getattr(value, "value", value)) for value in choice.choices]

    def suggesting(value: Any, param: Any, ctx: Any) -> Any:
        try:
            return convert(value, param, ctx)
        except Exception as error:  # Click's BadParameter, from whichever Click this Typer uses
            hint = did_you_mean(value, names) if isinstance(value, str) else ""
            message = getattr(error, "message", None)
            if hint and isinstance(message, str):
                setattr(error, "message", message[:-1] + hint + "." if message.endswith(".") else message + hint)
            raise

    choice.convert = suggesting


app = new_app(callback=_main)
"""Every command registers itself here (`@app.command()` in its module under `adjudicate/cli/`)."""

COMMAND_MODULES = {"rule": "cli.rule", "replay": "cli.replay", "check": "cli.check", "schema": "cli.check",
                   "laws": "cli.laws", "law": "cli.laws", "lint": "cli.laws", "diff": "cli.house",
                   "cache": "cli.cache"}
"""The module (under `adjudicate`) whose import registers each command: `adjudicate CMD` imports only
that one (`adjudicate/__main__.py`); a test keeps the table whole."""


def command_name(info: CommandInfo) -> str:
    """The name a registered command is run by: its own, or its function's (`diff`)."""
    return info.name or get_command_name(getattr(info.callback, "__name__", ""))


def command_named(name: str) -> typer.Typer | None:
    """An app holding only the command `name`, of those registered so far (None if there is no such command).

    Typer inspects every registered command's signature before it runs one (about 20 ms
    for the eight); `adjudicate rule FILE` needs only its own. The app stays a group
    (a callback that does nothing), so usage, help and errors read `adjudicate rule …`
    exactly as they do from the full app.
    """
    chosen = [info for info in app.registered_commands if command_name(info) == name]
    if not chosen:
        return None
    single = new_app(callback=lambda: None)
    single.registered_commands = chosen
    return single


class Format(str, enum.Enum):
    """Output formats shared by every command."""

    table = "table"
    json = "json"
    markdown = "markdown"


class ListFormat(str, enum.Enum):
    """The formats of the commands that print one record per file or law (`rule`, `replay`, `laws`, `lint`): those
    of every command, and JSON Lines (`jsonl`), one record a line, each printed as soon as it is made."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    markdown = "markdown"


T = TypeVar("T")


def warn(line: str) -> None:
    """One line on stderr, its control characters escaped; nothing if stderr itself cannot be written."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(inert_lines(visible(line)) + "\n")
        stream.flush()
    except (OSError, ValueError):  # stderr closed, full or a broken pipe: the exit code still says it
        pass


def report_problem(error: AdjudicateError) -> None:
    """Print an input or usage error to stderr, one line per problem: `file:line:col: message` for a problem
    in a file (its message on that one line; the shape of `check`'s and `lint`'s findings, path first, which
    editors' problem matchers read), `error: ` and each line of the message for one in no file (a usage error)."""
    for problem in error.problems:
        if problem.path:
            warn(str(problem))
        else:
            for line in problem.message.splitlines() or [""]:
                warn(f"error: {line}")


def fail(error: AdjudicateError) -> NoReturn:
    """Print an input or usage error, one line per problem, and exit 2."""
    report_problem(error)
    raise typer.Exit(EXIT_INPUT)


def guarded(call: Callable[[], T]) -> T:
    """Run library code; its errors become a clean message and exit code 2."""
    try:
        return call()
    except AdjudicateError as error:
        fail(error)


def dump_jsonl(data: Any) -> str:
    """One JSON Lines line: `data` as compact JSON on one line, escaped as `dump_json` escapes."""
    import json

    return json_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                     ascii_only=not _stdout_is_unicode())


def dump_json(data: Any) -> str:
    """JSON as every command prints it: stable key order as built, two-space indent, UTF-8 text.

    Characters a terminal or a strict UTF-8 reader would trip on (bidi controls, C1 controls,
    the undecodable bytes of a file name) are escaped (`adjudicate.escape.json_text`); on an
    output that cannot hold UTF-8 (PYTHONIOENCODING=ascii, the C locale), everything beyond
    ASCII is written as JSON escapes, so the JSON stays valid and means the same.
    """
    import json  # only the commands printing JSON need it

    return json_text(json.dumps(data, indent=2, ensure_ascii=False), ascii_only=not _stdout_is_unicode())


def _stdout_is_unicode() -> bool:
    import codecs

    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig", "utf-16", "utf-32", "gb18030")
    except LookupError:
        return False


def echo(text: str, commands: bool = False, colour: bool = False) -> None:
    """Print `text` (a line break added if it has none) on stdout, its control characters escaped
    (newlines and tabs kept; with `colour`, the renderer's own bold and highlight too), no line of it a CI
    workflow command (`adjudicate.escape.inert_lines`) unless `commands` (`check --format github`, whose
    commands are its own and escape what they quote), and flush it, so that a failing output is known here.

    A broken pipe (`adjudicate check scenarios/ | head -1`) ends the command quietly with exit
    141, as a command killed by SIGPIPE reports in a shell; any other failure to write (a full
    disk, a closed stdout) with a line on stderr and exit 2.
    """
    if colour:
        from adjudicate.terminal import keep_colour

        text = keep_colour(text, visible_lines)
    else:
        text = visible_lines(text)
    text = old_commands_inert(text) if commands else inert_lines(text)
    out = sys.stdout
    try:
        if out is None:
            raise OSError(errno.EBADF, "standard output is closed")
        write_all(out, text if text.endswith("\n") else text + "\n")
    except OSError as error:
        output_failed(error)


def commands_stopped(text: str) -> str:
    """`text` made inert, and on GitHub Actions (GITHUB_ACTIONS set) between `::stop-commands::TOKEN` and
    `::TOKEN::`, a token drawn at random for each run, as GitHub advises for printing what a stranger wrote: the
    runner takes no line between the two for a command."""
    text = inert_lines(visible_lines(text))
    if not os.environ.get("GITHUB_ACTIONS"):
        return text
    import secrets

    token = secrets.token_hex(16)
    return f"::stop-commands::{token}\n{text.rstrip(chr(10))}\n::{token}::"


def write_all(out: Any, text: str) -> None:
    """Write `text` to the text stream `out` and flush it, every byte or an OSError.

    Under PYTHONUNBUFFERED=1 (or -u) stdout's buffer is the raw file itself, and a text stream
    over it drops what a partial write left out: a reader that goes away mid-output (`| head`)
    then cost the rest of the output in silence, exit 0. So the bytes are written here, until
    all are written or the OS says why not.
    """
    buffer = getattr(out, "buffer", None)
    if buffer is None:  # a plain text stream
        out.write(text)
        out.flush()
        return
    out.flush()  # whatever the text layer still holds goes first
    if os.linesep != "\n":  # pragma: no cover - as the text layer would translate
        text = text.replace("\n", os.linesep)
    view = memoryview(text.encode(getattr(out, "encoding", None) or "utf-8", "backslashreplace"))
    while view:
        written = buffer.write(view)
        if written is None:  # pragma: no cover - a non-blocking stdout that is full
            raise OSError(errno.EAGAIN, "standard output would block")
        view = view[written:]
    buffer.flush()


def output_failed(error: OSError) -> NoReturn:
    """End the command after stdout failed: exit 141 for a broken pipe (quietly), 2 otherwise."""
    silence_stdout()
    if error.errno == errno.EPIPE:
        raise typer.Exit(EXIT_BROKEN_PIPE)
    warn(f"error: cannot write the output: {error.strerror or error}")
    raise typer.Exit(EXIT_INPUT)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that what is still buffered for it is dropped at exit
    instead of failing again (Python's 'Exception ignored ... BrokenPipeError')."""
    out = sys.stdout
    try:
        target = out.fileno() if out is not None else 1
    except (OSError, ValueError):  # not a real file (a test's capture): nothing to silence
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, target)
        finally:
            os.close(null)
    except OSError:
        pass


STDIN_ARGUMENT = "-"
"""The FILE argument that stands for standard input (`cat hand.yaml | adjudicate rule -`); a file named `-`
is `./-`."""


def scenario_sources(files: "list[str]") -> "list[Any]":
    """What each FILE argument names, for the library: a `Path`, or for `-` standard input's binary stream
    (named `<stdin>`); `-` given twice is a usage error (exit 2), before anything is read.

    Each is a `Path`, not the text given: the library reads a `str` that holds a line break as YAML text,
    and a file's name may hold one.
    """
    from pathlib import Path

    if files.count(STDIN_ARGUMENT) > 1:
        fail(AdjudicateError(f"`{STDIN_ARGUMENT}` (standard input) is given {files.count(STDIN_ARGUMENT)} times: "
                             "it can be read only once"))
    return [standard_input() if name == STDIN_ARGUMENT else Path(name) for name in files]


class StandardInput(io.BufferedIOBase):
    """Standard input as the library reads a stream: its bytes (buffered: a short read is its end), and the
    name `<stdin>` (whatever the stream calls itself: a test's runner gives one with no name)."""

    name = "<stdin>"

    def __init__(self, stream: Any):
        super().__init__()
        self.stream = stream

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        return self.stream.read(size)


def standard_input() -> StandardInput:
    """Standard input as a binary stream named `<stdin>`; on a terminal, a line on stderr saying how to end it."""
    stream = sys.stdin
    if stream is None:
        fail(AdjudicateError("standard input is closed: nothing to read for `-`"))
    try:
        interactive = stream.isatty()
    except (OSError, ValueError):
        interactive = False
    if interactive:
        warn("reading a scenario from standard input; end it with Ctrl-D (Ctrl-Z then Enter on Windows)")
    return StandardInput(getattr(stream, "buffer", stream))


def each_file(files: "list[Any]", format: "Format | ListFormat", record: Callable[[Any], Any],
              text: Callable[[Any, bool], str], markdown_between: str = "\n", colour: bool = False) -> None:
    """Run one library call a file (or standard input: `scenario_sources`); print JSON (an array, one record a
    file in the order given, whatever their number), JSON Lines (a record a line, each as soon as it is made)
    or text.

    The texts of several files are separated by a blank line, or in Markdown by `markdown_between`
    (`rule`'s sheets: a horizontal rule).

    An input error in one file is printed (file:line:col, on stderr) and the others still run;
    the command then exits 2.
    """
    records, texts, failed = [], [], False
    for path in files:
        try:
            if format.value == "jsonl":
                echo(dump_jsonl(record(path)))
            elif format.value == "json":
                records.append(record(path))
            else:
                texts.append(text(path, format.value == "markdown"))
        except AdjudicateError as error:
            report_problem(error)
            failed = True
    if format.value == "json":
        echo(dump_json(records))
    else:
        print_each(texts, format, markdown_between, colour)
    if failed:
        raise typer.Exit(EXIT_INPUT)


def print_each(outputs: "list[Any]", format: "Format | ListFormat", markdown_between: str = "\n",
               colour: bool = False) -> None:
    """Print what each file gave: in JSON an array (empty when no file gave anything), in JSON Lines one line
    each; as text, the texts separated by a blank line, or in Markdown by `markdown_between` (nothing when no
    file gave anything)."""
    if format.value == "json":
        echo(dump_json(outputs))
    elif format.value == "jsonl":
        for output in outputs:
            echo(dump_jsonl(output))
    elif outputs:
        echo((markdown_between if format.value == "markdown" else "\n").join(outputs), colour=colour)
