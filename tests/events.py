"""Waiting on events, never on time: a process blocked reading its standard input, a file written.

Each wait polls for the event and gives up only after a bound that is there to end a hang (a test that
would otherwise wait for ever), never to guess how long something takes: on two busy cores a process
can take many seconds to start.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path
from typing import Callable

HANG = 120.0
"""Seconds after which a wait is a hang, and the test fails."""

_READ = {"x86_64": 0, "amd64": 0, "aarch64": 63, "arm64": 63, "riscv64": 63, "i386": 3, "i686": 3, "armv7l": 3,
         "ppc64le": 3, "ppc64": 3, "s390x": 3}
"""The number of the read(2) system call, by machine."""


def until(event: Callable[[], bool], what: str, bound: float = HANG) -> None:
    """Poll `event` until it holds; fail (naming `what`) only if it has not after `bound` seconds."""
    deadline = time.monotonic() + bound
    while not event():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {bound:.0f} s for {what}")
        time.sleep(0.01)


def syscall(pid: int) -> tuple[int, int] | None:
    """(system call number, first argument) of a process blocked in one, from /proc; None if running or gone."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return None
    if len(fields) < 2 or not fields[0].isdigit():
        return None
    return int(fields[0]), int(fields[1], 16)


def can_see_syscalls() -> bool:
    return platform.machine() in _READ and os.path.exists(f"/proc/{os.getpid()}/syscall")


def reading_stdin(pid: int) -> bool:
    """Whether the process is blocked in read(2) on its standard input (file descriptor 0)."""
    return syscall(pid) == (_READ.get(platform.machine(), -1), 0)


def file_has(path: Path, lines: int = 1) -> bool:
    try:
        return len(path.read_text().splitlines()) >= lines
    except OSError:
        return False


def as_at_a_terminal() -> None:
    """For `subprocess.Popen(preexec_fn=...)`: Ctrl-C as a shell leaves it for a command run in the foreground.

    A command started from a background job of a non-interactive shell (`pytest ... &`, as a CI script or a
    loop of runs may start it) inherits SIGINT ignored (POSIX), and Python then installs no KeyboardInterrupt
    handler: a test that sends SIGINT must give its command the default action back, as a terminal would."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
