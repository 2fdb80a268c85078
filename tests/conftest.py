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

from hypothesis import HealthCheck, settings

# On GitHub Actions, `check`'s text is fenced by ::stop-commands:: and a token drawn at random: the tests compare
# bytes, and set it themselves where they test it.
os.environ.pop("GITHUB_ACTIONS", None)

# The parsed built-in rulebooks are cached (adjudicate/lawbook/rulebook.py); the tests keep theirs apart.
os.environ.setdefault("ADJUDICATE_CACHE_DIR", tempfile.mkdtemp(prefix="adjudicate-test-cache-"))

# The text the suite holds (snapshots, goldens, docs) is as a 100-column terminal prints it, whatever this one is.
os.environ["COLUMNS"] = "100"
os.environ.pop("NO_COLOR", None)

PROFILE = os.environ.get("ADJUDICATE_HYPOTHESIS", "default")

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)
settings.register_profile(
    "long", deadline=None, max_examples=2_000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE if PROFILE in ("default", "long", "ci") else "default")
