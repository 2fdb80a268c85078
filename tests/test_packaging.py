"""The package as pip builds it: the wheel carries the LICENSE and the rulebooks; pyproject.toml's metadata."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--quiet", "-w", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [built] = out.glob("adjudicate-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_the_license(wheel):
    info = f"adjudicate-{PROJECT['version']}.dist-info"
    assert wheel.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
    metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode("utf-8"))
    assert metadata["License-Expression"] == "MIT" and metadata.get_all("License-File") == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_wheel_carries_every_rulebook_and_the_type_marker(wheel):
    package = ROOT / "adjudicate"
    shipped = sorted(path.relative_to(ROOT).as_posix() for path in package.glob("rulebooks/**/*.yaml"))
    assert len(shipped) >= 5 and "adjudicate/rulebooks/euchre.yaml" in shipped
    in_wheel = sorted(name for name in wheel.namelist() if name.startswith("adjudicate/rulebooks/"))
    assert in_wheel == shipped
    for name in shipped:
        assert wheel.read(name) == (ROOT / name).read_bytes(), name
    assert "adjudicate/py.typed" in wheel.namelist()


def test_the_wheel_metadata_has_the_urls_classifiers_and_floors(wheel):
    metadata = Parser().parsestr(wheel.read(f"adjudicate-{PROJECT['version']}.dist-info/METADATA").decode("utf-8"))
    assert metadata.get_all("Classifier") == PROJECT["classifiers"]
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL"))
    assert urls == PROJECT["urls"]
    required = {re.split(r"[<>=!~ ]", dep, maxsplit=1)[0] for dep in metadata.get_all("Requires-Dist")
                if "extra ==" not in dep}
    assert required == {re.split(r"[<>=!~ ]", dep, maxsplit=1)[0] for dep in PROJECT["dependencies"]}


def test_the_classifiers_say_what_the_project_is():
    classifiers = PROJECT["classifiers"]
    for wanted in ("Environment :: Console", "Topic :: Games/Entertainment", "Typing :: Typed",
                   "Programming Language :: Python :: 3 :: Only"):
        assert wanted in classifiers
    # PEP 639: the licence is `license = "MIT"`, which supersedes a `License ::` classifier (setuptools refuses both).
    assert PROJECT["license"] == "MIT" and not any(c.startswith("License ::") for c in classifiers)
    # One Python classifier for each minor version from requires-python's floor on.
    floor = int(re.fullmatch(r">=3\.(\d+)", PROJECT["requires-python"]).group(1))
    minors = sorted(int(c.rsplit(".", 1)[1]) for c in classifiers
                    if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert minors == list(range(floor, minors[-1] + 1))


def test_the_project_urls_are_the_placeholder_the_docs_use():
    """No public home yet: every URL is on example.org (reserved for examples, RFC 2606, so never someone
    else's site), and the pre-commit `repo:` the docs show is the same Repository URL. A real home replaces
    them all at once."""
    urls = PROJECT["urls"]
    assert set(urls) >= {"Homepage", "Repository", "Issues"}
    assert all(url.startswith("https://example.org/adjudicate") for url in urls.values())
    shown = [match for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for match in re.findall(r"- repo: (\S+)\s+# this repository", page.read_text(encoding="utf-8"))]
    assert shown and set(shown) == {urls["Repository"]}


def test_the_pre_commit_rev_is_this_version_s_tag():
    """The docs' pre-commit `rev:` names the release tag of this version (`v` + pyproject's version), and each
    release is tagged so: where the checkout has tags, that tag is among them."""
    shown = [match for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for match in re.findall(r"^\s+rev: (\S+)", page.read_text(encoding="utf-8"), re.M)]
    assert shown and set(shown) == {f"v{PROJECT['version']}"}
    listed = subprocess.run(["git", "-C", str(ROOT), "tag", "--list"], capture_output=True, text=True)
    tags = set(listed.stdout.split()) if listed.returncode == 0 else set()
    if not tags:
        pytest.skip("not a git checkout with tags (an sdist, or a shallow clone)")
    assert f"v{PROJECT['version']}" in tags, f"tag the release: git tag v{PROJECT['version']}"


def test_the_wheel_carries_the_native_reader_where_it_can_be_built(wheel):
    """The native reader is built where a C compiler and libyaml's headers are (here, where the installed package
    has it); its stub types it; its C source stays in the source distribution, not in the wheel."""
    from adjudicate.record import yamlsource

    names = wheel.namelist()
    assert "adjudicate/record/_yamltree.pyi" in names
    assert "adjudicate/record/_yamltree.c" not in names
    built = [name for name in names if re.fullmatch(r"adjudicate/record/_yamltree\..*(so|pyd)", name)]
    assert len(built) == (yamlsource._native is not None)
