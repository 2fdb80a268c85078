"""The native reader, the one C extension (docs/development.md, "The native reader"); everything else is in
pyproject.toml. Declared here, not in pyproject.toml's `[tool.setuptools.ext-modules]`, which setuptools still
calls experimental.

It is built over libyaml where a C compiler and libyaml's headers are (`apt install libyaml-dev`, `brew install
libyaml`); it is optional, so that where either is missing the install goes on without it and the Python reader
reads every file, with the same results.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "adjudicate.record._yamltree",
    sources=["adjudicate/record/_yamltree.c"],
    libraries=["yaml"],
    # Homebrew's libyaml on Apple silicon, not on the compiler's own path
    include_dirs=["/opt/homebrew/include"],
    library_dirs=["/opt/homebrew/lib"],
    optional=True,
)])
