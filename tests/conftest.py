"""Shared test configuration: hypothesis profiles.

The default profile keeps the whole suite quick. A longer search is one
environment variable away:

    ADJUDICATE_HYPOTHESIS=long python -m pytest tests/test_hostile.py tests/test_fuzz_scenarios.py

Tests that fix `max_examples` in their own `@settings` keep it under every
profile; tests/test_hostile.py scales its own by 20 under `long`.
"""

from __future__ import annotations

import os
import tempfile

import typer.testing
from hypothesis import HealthCheck, settings

# On GitHub Actions, `check`'s text is fenced by ::stop-commands:: and a token drawn at random: the tests compare
# bytes, and set it themselves where they test it.
os.environ.pop("GITHUB_ACTIONS", None)

# The parsed built-in rulebooks are cached (adjudicate/lawbook/rulebook.py); the tests keep theirs apart.
os.environ.setdefault("ADJUDICATE_CACHE_DIR", tempfile.mkdtemp(prefix="adjudicate-test-cache-"))

# The text the suite holds (snapshots, goldens, docs) is as a 100-column terminal prints it, whatever this one is.
os.environ["COLUMNS"] = "100"
os.environ.pop("NO_COLOR", None)

# Typer's CliRunner builds the Click command from the app at every invoke: inspecting each command's signature
# and evaluating its annotations took 85% of an in-process run of `rule` (0.15 s of 0.18 s). A process builds it
# once, when it starts; so does each test process here, once an app. The apps are held (not weakly), so an id
# is never reused for another.
_BUILT: dict[int, tuple[object, object]] = {}
_build = getattr(typer.testing, "_get_command", None)


def _built_once(app):
    held = _BUILT.get(id(app))
    if held is None or held[0] is not app:
        held = _BUILT[id(app)] = (app, _build(app))
    return held[1]


if _build is not None:
    typer.testing._get_command = _built_once

PROFILE = os.environ.get("ADJUDICATE_HYPOTHESIS", "default")

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)
settings.register_profile(
    "long", deadline=None, max_examples=2_000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE if PROFILE in ("default", "long", "ci") else "default")
