"""The `adjudicate` command's entry point, and `python -m adjudicate`.

Before any command runs, the process is made safe to run anywhere (docs/errors.md):

- stdout and stderr write what their encoding cannot hold as backslash escapes
  (`PYTHONIOENCODING=ascii`, `LC_ALL=C PYTHONUTF8=0`: the law texts' curly quotes become
  `\\u201c`), instead of failing;
- a closed stdout is noted (and /dev/null put on its descriptor, so that no file opened later
  takes the number): the first thing printed then fails with exit 2 and a line on stderr;
- SIGTERM raises `Terminated` in the main thread, as SIGINT raises KeyboardInterrupt: `check`
  ends its worker processes, and the command exits 143 (SIGINT: 130);
- whatever escapes the command (a broken pipe met by the help text, an output error) becomes
  its exit code, never a traceback.
"""

import gc
import importlib
import os
import signal
import sys


_running = True
"""While the command runs, SIGTERM raises Terminated; once it has finished, it ends the process at once."""


def _on_sigterm(signum: int, frame: object) -> None:
    from adjudicate.errors import EXIT_TERMINATED, Terminated

    if not _running:
        os._exit(EXIT_TERMINATED)
    raise Terminated()


def _prepare_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # pragma: no cover - a stream that cannot be reconfigured
                pass
    if sys.stdout is None:
        try:
            os.fstat(1)
        except OSError:  # fd 1 closed: keep the number taken, so a scenario file opened later is not "stdout"
            try:
                null = os.open(os.devnull, os.O_WRONLY)
                if null != 1:
                    os.dup2(null, 1)
                    os.close(null)
            except OSError:  # pragma: no cover
                pass


def _run() -> None:
    # `adjudicate CMD` imports only the module of CMD; anything else (--help, a typo to be
    # answered with "did you mean") goes to the full app.
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    from adjudicate.cli.common import COMMAND_MODULES, command_named

    if name in COMMAND_MODULES:
        importlib.import_module(f"adjudicate.{COMMAND_MODULES[name]}")
        single = command_named(name)
        if single is not None:
            single()
            return
    from adjudicate.cli.app import main as run

    run()


def _pacified() -> bool:
    """Whether Click met a broken pipe itself (it then wraps stdout and exits 1)."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _output_failed(error: OSError) -> int:
    import errno

    from adjudicate.cli.common import silence_stdout, warn
    from adjudicate.errors import EXIT_BROKEN_PIPE, EXIT_INPUT

    silence_stdout()
    if error.errno == errno.EPIPE:
        return EXIT_BROKEN_PIPE
    warn(f"error: cannot write the output: {error.strerror or error}")
    return EXIT_INPUT


def _exit_code() -> str | int | None:
    """Run the command; its exit code, whatever ended it."""
    from adjudicate.errors import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

    try:
        try:
            _run()
            code: str | int | None = 0
        except SystemExit as done:
            code = done.code
            if code == 1 and _pacified():  # Click's own broken pipe (help text into `| head -1`)
                code = EXIT_BROKEN_PIPE
        except OSError as error:  # an output error met outside `echo` (the help text into /dev/full)
            code = _output_failed(error)
        # What is still buffered for stdout is written now, while a failure can still be reported.
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError as error:
            code = _output_failed(error)
    except Terminated:
        code = EXIT_TERMINATED
    except KeyboardInterrupt:  # outside the command (Typer turns one inside it into exit 130)
        code = EXIT_INTERRUPTED
    return code


def main() -> None:
    # What a run allocates forms no reference cycles (tests/test_no_cycles.py checks that ruling
    # and checking files leaves the cycle collector nothing to find), and the modules, rulebooks
    # and Typer app a start builds live until exit: the collector's rounds over them were about a
    # twentieth of a cold start, and found nothing. Memory is still freed as each object goes.
    gc.disable()
    _prepare_streams()
    signal.signal(signal.SIGTERM, _on_sigterm)
    code = _exit_code()
    global _running
    _running = False  # nothing is left to clean up: a SIGTERM from here on ends the process at once
    from adjudicate.errors import EXIT_INTERRUPTED, EXIT_TERMINATED

    if code in (EXIT_TERMINATED, EXIT_INTERRUPTED):
        # Interrupted: `check` has killed its workers; what is printed is flushed, and the process ends
        # without the interpreter's exit handlers, whose join of the process pool's thread could write
        # to a pipe that thread had just closed ("Bad file descriptor", about one stop in twenty under load).
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    # The interpreter's exit runs the cycle collector once over everything still alive (the modules, the
    # rulebooks): frozen, they are not walked. It found nothing (above), and cost about 35 M instructions a run.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    main()
