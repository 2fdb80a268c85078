"""The per-file budget of `check`: how long one file may take and how much memory it may add.

`check` is run on strangers' files. However the engine is made to bound its own work (the combinations of
open choices are counted, not built; messages are cut), one file must not be able to take a CI job down:
each file is checked within a budget of time and of memory, and a file past it is that file's error,
the other files' results unaffected.

- time: `ADJUDICATE_FILE_SECONDS` (default 60), seconds of CPU time, by a profiling interval timer
  (ITIMER_PROF, SIGPROF) in the process checking the file, where that process can take signals (its main
  thread, on POSIX). CPU time, not the wall clock: on a busy machine a file's wall time is anyone's, and a
  file that costs too much costs CPU (no read of a file blocks: named pipes and devices are refused);
- memory: `ADJUDICATE_FILE_MEGABYTES` (default 2048), the address space the process may grow by while it
  checks the file (RLIMIT_AS, restored after it; on Linux, where the process's size can be read).

`0` turns either off. A run of files (`for_files`: a chunk of `check`'s files in one process) sets the budget up
once: the signal handler is installed and the address-space limit set at its start, from the process's size
then, and each file only starts and stops its timer. Set up and taken down for every file, the budget was about
a twentieth of checking an everyday file (the signal module's wrappers, the process's size read from /proc,
four calls on the limits).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

SECONDS_ENV, MEGABYTES_ENV = "ADJUDICATE_FILE_SECONDS", "ADJUDICATE_FILE_MEGABYTES"
DEFAULT_SECONDS, DEFAULT_MEGABYTES = 60.0, 2048


class OverBudget(BaseException):
    """Raised inside a file's check when its time runs out: a BaseException, so that no `except Exception` in the
    engine takes it for its own error."""


def _number(name: str, default: float) -> float:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value >= 0 and value == value else default


def seconds() -> float:
    return _number(SECONDS_ENV, DEFAULT_SECONDS)


def megabytes() -> float:
    return _number(MEGABYTES_ENV, DEFAULT_MEGABYTES)


def _size() -> int | None:
    """This process's address space in bytes, if it can be read."""
    # Read with plain `os` calls, as a scenario is: a buffered file object costs more to make than the read.
    try:
        handle = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            data = os.read(handle, 4096)
        finally:
            os.close(handle)
        return int(data.split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _raise(signum, frame):  # noqa: ANN001 - a signal handler's signature
    # Never inside an import: a module cut short half-way would break every later use of it in this process.
    # Checked again a moment later.
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            signal.setitimer(signal.ITIMER_PROF, 0.05)
            return
        frame = frame.f_back
    raise OverBudget


class _Run:
    """The budget set up for a run of files in this thread: the timer's seconds, if the files are timed."""

    def __init__(self, thread: int, seconds: float | None):
        self.thread = thread
        self.seconds = seconds


_run: _Run | None = None


@contextmanager
def for_files() -> Iterator[None]:
    """Set the budget up once for the files checked inside this, each of them inside `within_budget`: the
    SIGPROF handler installed and the address-space limit lowered at the start, both restored at the end."""
    global _run
    if _run is not None:  # already inside one (in any thread: the limit is the process's)
        yield
        return
    limit = seconds()
    timed = (limit > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
             and signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, signal.SIG_IGN, None))
    memory = _memory_limit()
    previous = signal.signal(signal.SIGPROF, _raise) if timed else None
    _run = _Run(threading.get_ident(), limit if timed else None)
    try:
        yield
    finally:
        _run = None
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        if memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, memory)


@contextmanager
def within_budget() -> Iterator[None]:
    """Check one file inside this; OverBudget (time) or MemoryError (memory) come out of it when it overruns."""
    if _run is None:  # a file alone: its own run
        with for_files(), within_budget():
            yield
        return
    # Another thread's run: the address-space limit is the process's, and only the main thread is timed.
    timer = _run.seconds if _run.thread == threading.get_ident() else None
    if timer is not None:
        signal.setitimer(signal.ITIMER_PROF, timer)
    try:
        yield
    finally:
        if timer is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)


def _memory_limit() -> tuple[int, int] | None:
    """Lower this process's address-space limit to its size now plus the budget; the limits it had, to restore."""
    budget = megabytes()
    if budget <= 0 or not sys.platform.startswith("linux"):
        return None
    import resource

    size = _size()
    if size is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = size + int(budget * 1024 * 1024)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        return None  # already as tight
    try:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):
        return None
    return soft, hard


def time_message() -> str:
    return (f"not checked in full: it took more than the budget of {seconds():g} CPU seconds a file "
            f"({SECONDS_ENV}); the other files' results stand")


def memory_message() -> str:
    return (f"not checked in full: it needed more than the budget of {megabytes():g} MB of memory a file "
            f"({MEGABYTES_ENV}); the other files' results stand")
