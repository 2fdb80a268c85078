"""`adjudicate cache` (docs/commands.md): where the rulebook cache is and its size, and clearing it; clearing
removes only adjudicate's own files in its own folder, never what a link there leads to, and a missing folder is
nothing to clear. Stale files of other installs are pruned after STALE_DAYS (tests/test_hostile_authors.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = "scenarios/euchre/revoke-established.yaml"
OURS = ["euchre-0123abcd-0123456789abcdef.msgpack", "short-whist-0123abcd-0123456789abcdef.msgpack",
        "search-0123abcd.msgpack", ".euchre-k3j_x9q2.tmp", ".search-a1b2c3d4.tmp", "long-whist-0123456789abcdef.pickle"]
"""Names adjudicate writes: parsed rulebooks, the search index, temporaries being written, an old version's pickle."""
THEIRS = ["notes.txt", "mine.msgpack", "euchre.msgpack", "README", ".hidden.tmp"]
"""Names adjudicate never writes: left alone even in its own folder."""


def cache(folder: Path, *args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, ["cache", *args], env={"ADJUDICATE_CACHE_DIR": str(folder)})
    return done.exit_code, done.stdout, done.stderr


def planted(tmp_path: Path) -> tuple[Path, Path]:
    folder, outside = tmp_path / "cache", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    for name in OURS + THEIRS:
        (folder / name).write_bytes(b"x" * 10)
    (outside / "precious.msgpack").write_bytes(b"keep me")
    (outside / "euchre-0123abcd-0123456789abcdef.msgpack").write_bytes(b"keep me too")
    # Links named as adjudicate's files, leading out of the folder: the link goes, never what it leads to.
    (folder / "long-whist-0123abcd-0123456789abcdef.msgpack").symlink_to(outside / "precious.msgpack")
    (folder / "search-89abcdef.msgpack").symlink_to(outside)
    (folder / "link-to-outside").symlink_to(outside)  # not adjudicate's name: left alone
    # A folder inside, named as a cache file: not entered, not removed.
    (folder / "euchre-11111111-0123456789abcdef.msgpack").mkdir()
    (folder / "euchre-11111111-0123456789abcdef.msgpack" / "euchre-22222222-0123456789abcdef.msgpack").write_bytes(b"x")
    return folder, outside


def test_info_names_the_folder_and_counts_only_adjudicates_files(tmp_path: Path):
    folder, _ = planted(tmp_path)
    code, out, _ = cache(folder)
    assert code == 0
    assert out.splitlines() == [f"cache folder: {folder}", "8 files, 60 bytes; `adjudicate cache clear` removes them"]
    code, out, _ = cache(folder, "info", "-f", "json")
    data = json.loads(out)
    assert (data["folder"], data["enabled"], data["exists"], data["size"]) == (str(folder), True, True, 60)
    assert data["files"] == sorted(OURS + ["long-whist-0123abcd-0123456789abcdef.msgpack", "search-89abcdef.msgpack"])


def test_clear_removes_only_adjudicates_files_and_never_follows_a_link(tmp_path: Path):
    folder, outside = planted(tmp_path)
    code, out, err = cache(folder, "clear")
    assert (code, err) == (0, "")
    assert out == f"removed 8 files (60 bytes) from {folder}\n"
    assert sorted(os.listdir(folder)) == sorted(THEIRS + ["link-to-outside", "euchre-11111111-0123456789abcdef.msgpack"])
    assert sorted(os.listdir(outside)) == ["euchre-0123abcd-0123456789abcdef.msgpack", "precious.msgpack"]
    assert (outside / "precious.msgpack").read_bytes() == b"keep me"
    assert os.listdir(folder / "euchre-11111111-0123456789abcdef.msgpack") == ["euchre-22222222-0123456789abcdef.msgpack"]
    assert cache(folder, "clear")[1] == f"nothing to remove: {folder} holds no cache files\n"


def test_a_missing_folder_is_nothing_to_clear_and_is_not_made(tmp_path: Path):
    folder = tmp_path / "no" / "such"
    assert cache(folder, "clear") == (0, f"nothing to remove: {folder} does not exist\n", "")
    code, out, _ = cache(folder)
    assert code == 0 and out.startswith(f"cache folder: {folder} (not made yet)\n0 files, 0 bytes")
    data = json.loads(cache(folder, "clear", "-f", "json")[1])
    assert (data["exists"], data["files"], data["size"]) == (False, [], 0)
    assert not (tmp_path / "no").exists()


def test_a_folder_that_is_a_file_is_nothing_to_clear(tmp_path: Path):
    folder = tmp_path / "cache"
    folder.write_bytes(b"not a folder")
    assert cache(folder, "clear")[0] == 0
    assert folder.read_bytes() == b"not a folder"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may remove a file from any folder")
def test_a_file_that_cannot_be_removed_is_an_error_on_stderr_and_exit_2(tmp_path: Path):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / OURS[0]).write_bytes(b"x")
    folder.chmod(0o500)
    try:
        code, _, err = cache(folder, "clear")
    finally:
        folder.chmod(0o700)
    assert code == 2 and f"error: cannot remove {OURS[0]} from {folder}: Permission denied" in err


def test_turned_off_the_cache_still_says_where_it_is(tmp_path: Path):
    done = CliRunner().invoke(app, ["cache"], env={"ADJUDICATE_CACHE_DIR": str(tmp_path),
                                                   "ADJUDICATE_NO_CACHE": "1"})
    assert done.exit_code == 0
    assert done.stdout.splitlines()[-1] == "the cache is turned off: ADJUDICATE_NO_CACHE is set"


def test_the_command_clears_what_a_run_wrote_and_the_next_run_writes_it_again(tmp_path: Path):
    """End to end, as a process: `rule` and `laws --search` fill the cache, `cache clear` empties it, `rule` again."""
    env = {**os.environ, "ADJUDICATE_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "adjudicate", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return done

    ruled = run("rule", SCENARIO).stdout
    run("laws", "--search", "revoke")
    written = sorted(os.listdir(tmp_path / "cache"))
    assert [name.split("-")[0] for name in written] == ["euchre", "long", "search", "short"]  # the codes, the index
    info = json.loads(run("cache", "-f", "json").stdout)
    assert info["files"] == written and info["size"] == sum((tmp_path / "cache" / n).stat().st_size for n in written)
    assert run("cache", "clear").stdout.startswith("removed 4 files (")
    assert os.listdir(tmp_path / "cache") == []
    assert run("rule", SCENARIO).stdout == ruled
    assert [name.split("-")[0] for name in os.listdir(tmp_path / "cache")] == ["euchre"]
