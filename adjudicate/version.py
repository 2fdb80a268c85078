"""The version of adjudicate (pyproject.toml's `version`, which tests/test_packaging.py holds to it)."""

__version__ = "0.1.0"
