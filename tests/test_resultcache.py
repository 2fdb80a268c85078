"""check's result cache (issue 22): the same report with it as without, in every format; each input of a result's
key, changed, has the file ruled anew; damaged, truncated, foreign, planted and unwritable cache entries, a named
pipe and a read-only cache folder are only misses; a run whose every file is cached loads no rulebook."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate import api
from adjudicate.checking import batch as checking
from adjudicate.checking import resultcache
from adjudicate.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
HOUSE = ROOT / "adjudicate" / "rulebooks" / "house" / "modern-euchre.yaml"
EUCHRE = ROOT / "adjudicate" / "rulebooks" / "euchre.yaml"
RENEGE_TWO = "{kind: score, points: 2, when: {hand: {lone: false}}}"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    """A cache folder of this test's own, turned on."""
    monkeypatch.setenv("ADJUDICATE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ADJUDICATE_NO_CACHE", raising=False)
    return tmp_path / "cache" / resultcache.FOLDER_NAME


@pytest.fixture
def ruled(monkeypatch) -> list[str]:
    """The files ruled (not taken from the cache), in order."""
    calls: list[str] = []
    real = checking._check

    def counting(path, text, house, conditions=False):
        calls.append(path)
        return real(path, text, house, conditions)

    monkeypatch.setattr(checking, "_check", counting)
    return calls


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project (it has .git) with two scenarios naming one house file, and one naming a rulebook file."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / "house").mkdir()
    shutil.copy(HOUSE, root / "house" / "modern.yaml")
    shutil.copy(EUCHRE, root / "rules.yaml")
    text = (SCENARIOS / "euchre" / "house-modern-renege-costs-two.yaml").read_text(encoding="utf-8")
    (root / "renege.yaml").write_text(text.replace("house: modern-euchre", "house: house/modern.yaml"),
                                      encoding="utf-8")
    (root / "renege-again.yaml").write_text(text.replace("house: modern-euchre", "house: house/modern.yaml")
                                            .replace("title: Under", "title: Again, under"), encoding="utf-8")
    plain = (SCENARIOS / "euchre" / "all-four-hands-thrown.yaml").read_text(encoding="utf-8")
    assert "code: euchre\n" in plain
    (root / "own-code.yaml").write_text(plain.replace("code: euchre\n", "code: rules.yaml\n"), encoding="utf-8")
    return root


def kept(folder: Path) -> list[tuple[str, "resultcache._Entry"]]:
    """Every result kept in the cache folder: (its file's path, its entry), from each folder's index."""
    import msgspec

    found = []
    for index in sorted(folder.glob("*" + resultcache.SUFFIX)):
        data = index.read_bytes()
        assert data.startswith(resultcache.MAGIC)
        decoded = msgspec.msgpack.decode(data[len(resultcache.MAGIC) + 4:], type=resultcache._Index)
        found.extend((path, msgspec.msgpack.decode(raw, type=resultcache._Entry)) for path, raw in decoded.entries.items())
    return found


def _untimed(junit: str) -> str:
    return re.sub(r' time="[0-9.]+"', "", junit)


def reports(paths: list[str], coverage: bool = False, **options) -> dict[str, str]:
    """Every format of the report, as `adjudicate check` prints it (JUnit without its run times)."""
    report = api.check(paths, coverage=coverage, **options)
    return {"text": report.to_text(coverage), "verbose": report.to_text(coverage, verbosity=1),
            "json": repr(report.to_json(coverage)), "jsonl": repr(report.to_jsonl()),
            "junit": _untimed(report.to_junit(coverage)), "github": report.to_github(coverage),
            "sarif": repr(report.to_sarif(coverage)), "exit": str(report.exit_code)}


@pytest.mark.parametrize("coverage", [False, True])
def test_every_shipped_scenario_reports_the_same_bytes_cold_warm_and_uncached(folder: Path, ruled: list[str],
                                                                             coverage: bool):
    paths = [str(SCENARIOS)]
    uncached = reports(paths, coverage)
    assert not folder.exists()
    ruled.clear()
    cold = reports(paths, coverage, cache=True)
    count = len(ruled)
    assert count > 200 and len(kept(folder)) == count
    assert len(list(folder.glob("*.msgpack"))) == 3  # an index a folder: euchre, long-whist, short-whist
    warm = reports(paths, coverage, cache=True)
    assert len(ruled) == count  # nothing ruled anew
    assert cold == uncached and warm == uncached


def test_a_coverage_run_keeps_results_of_its_own(folder: Path, ruled: list[str]):
    """A result made without --coverage holds no condition values: a --coverage run does not use it."""
    path = str(SCENARIOS / "euchre" / "all-four-hands-thrown.yaml")
    api.check(path, cache=True)
    api.check(path, cache=True, coverage=True)
    api.check(path, cache=True, coverage=True)
    api.check(path, cache=True)
    assert len(ruled) == 2 and len(kept(folder)) == 2


def test_the_cache_is_shared_with_worker_processes(folder: Path):
    paths = [str(SCENARIOS)]
    uncached = api.check(paths, jobs=2).to_text(True)
    assert api.check(paths, jobs=2, cache=True).to_text(True) == uncached
    assert len(kept(folder)) > 200
    assert api.check(paths, jobs=2, cache=True).to_text(True) == uncached


def test_no_cache_and_the_environment_turn_it_off(folder: Path, project: Path, monkeypatch, ruled: list[str]):
    runner = CliRunner()
    path = str(project / "renege.yaml")
    assert runner.invoke(app, ["check", "--no-cache", path]).exit_code == 0
    assert not folder.exists()
    monkeypatch.setenv("ADJUDICATE_NO_CACHE", "1")
    assert runner.invoke(app, ["check", path]).exit_code == 0
    assert not folder.exists()
    monkeypatch.delenv("ADJUDICATE_NO_CACHE")
    assert runner.invoke(app, ["check", path]).exit_code == 0
    assert runner.invoke(app, ["check", path]).exit_code == 0
    assert len(ruled) == 3 and len(kept(folder)) == 1


def test_a_changed_file_is_ruled_anew(folder: Path, project: Path, ruled: list[str]):
    path = project / "renege.yaml"
    assert api.check(str(path), cache=True).exit_code == 0
    assert api.check(str(path), cache=True).exit_code == 0
    assert len(ruled) == 1
    path.write_text(path.read_text(encoding="utf-8").replace("{NS: 8, EW: 3}", "{NS: 9, EW: 3}"), encoding="utf-8")
    report = api.check(str(path), cache=True)
    assert len(ruled) == 2 and report.exit_code == 1
    assert "expect.score" in report.to_text()
    # A failed expectation's values (a score by side) come back from the entry as they were made.
    assert reports([str(path)], cache=True) == reports([str(path)])
    assert len(ruled) == 3


def test_a_changed_house_file_it_names_is_ruled_anew(folder: Path, project: Path, ruled: list[str]):
    """Both scenarios name the house file; the second is ruled under the house as this process applied it for the
    first (adjudicate.lawbook.house's applied houses), and depends on its file all the same."""
    paths = [str(project / "renege.yaml"), str(project / "renege-again.yaml")]
    house = project / "house" / "modern.yaml"
    assert api.check(paths, cache=True).exit_code == 0
    assert api.check(paths, cache=True).exit_code == 0
    assert len(ruled) == 2
    text = house.read_text(encoding="utf-8")
    assert RENEGE_TWO in text
    house.write_text(text.replace(RENEGE_TWO, RENEGE_TWO.replace("points: 2", "points: 3")), encoding="utf-8")
    report = api.check(paths, cache=True)
    assert len(ruled) == 4 and report.summary.failed == 2  # the renege now costs three: NS 9, not 8
    house.write_text(text, encoding="utf-8")
    assert api.check(paths, cache=True).exit_code == 0
    assert len(ruled) == 6
    house.unlink()
    report = api.check(paths, cache=True)
    assert report.exit_code == 2 and "is not a file" in report.to_text()
    assert len(ruled) == 8


def test_a_house_file_the_house_file_varies_is_checked_too(folder: Path, project: Path, ruled: list[str]):
    """A house file that varies another: the scenario depends on both."""
    modern = project / "house" / "modern.yaml"
    text = modern.read_text(encoding="utf-8")
    (project / "house" / "base.yaml").write_text(text, encoding="utf-8")
    (project / "house" / "top.yaml").write_text("house: top\nname: On top of the modern rules\nvaries: base.yaml\n"
                                                "changes: []\n", encoding="utf-8")
    scenario = project / "renege.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("house/modern.yaml", "house/top.yaml"),
                        encoding="utf-8")
    assert api.check(str(scenario), cache=True).exit_code == 0
    assert api.check(str(scenario), cache=True).exit_code == 0
    assert len(ruled) == 1
    (project / "house" / "base.yaml").write_text(text.replace(RENEGE_TWO, RENEGE_TWO.replace("points: 2", "points: 3")),
                                                 encoding="utf-8")
    assert api.check(str(scenario), cache=True).exit_code == 1
    assert len(ruled) == 2


def test_a_changed_rulebook_it_names_is_ruled_anew(folder: Path, project: Path, ruled: list[str]):
    path, rules = project / "own-code.yaml", project / "rules.yaml"
    first = api.check(str(path), cache=True)
    assert first.exit_code == 0 and api.check(str(path), cache=True).to_text() == first.to_text()
    assert len(ruled) == 1
    rules.write_text(rules.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert api.check(str(path), cache=True).to_text() == first.to_text()
    assert len(ruled) == 2
    rules.write_text("code: euchre\n", encoding="utf-8")
    assert api.check(str(path), cache=True).exit_code == 2
    assert len(ruled) == 3


def test_another_house_on_the_command_line_is_ruled_anew(folder: Path, project: Path, ruled: list[str]):
    path = str(SCENARIOS / "euchre" / "all-four-hands-thrown.yaml")
    api.check(path, cache=True)
    api.check(path, house="modern-euchre", cache=True)
    api.check(path, house=str(project / "house" / "modern.yaml"), cache=True)
    api.check(path, house="modern-euchre", cache=True)
    assert len(ruled) == 3
    house = project / "house" / "modern.yaml"
    house.write_text(house.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    api.check(path, house=str(house), cache=True)
    assert len(ruled) == 4


def test_another_allowed_folder_or_working_directory_is_ruled_anew(folder: Path, project: Path, ruled: list[str],
                                                                  monkeypatch, tmp_path: Path):
    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    monkeypatch.setenv("ADJUDICATE_ALLOW_PATHS", str(tmp_path))
    api.check(path, cache=True)
    monkeypatch.chdir(project)
    api.check(path, cache=True)
    api.check(path, cache=True)
    assert len(ruled) == 3


def test_another_version_or_built_in_rulebook_is_ruled_anew(folder: Path, project: Path, tmp_path: Path):
    """A copy of the package, run as a command: its rulebook edited, then its version, each time ruled anew."""
    package = tmp_path / "install" / "adjudicate"
    shutil.copytree(ROOT / "adjudicate", package, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(package.parent), "ADJUDICATE_CACHE_DIR": str(folder.parent)}

    def check() -> int:
        done = subprocess.run([sys.executable, "-m", "adjudicate", "check", "--jobs", "1", str(project / "renege.yaml")],
                              env=env, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "check: 1 passed, 0 failed" in done.stdout
        return len(list(folder.glob("*.msgpack")))

    assert check() == 1
    assert check() == 1
    rulebook = package / "rulebooks" / "euchre.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert check() == 2
    assert check() == 2
    version = package / "version.py"
    text = version.read_text(encoding="utf-8")
    assert '__version__ = "' in text
    version.write_text(text.replace('__version__ = "', '__version__ = "9', 1), encoding="utf-8")
    assert check() == 3


def test_a_cached_run_loads_no_rulebook_yaml_or_replay(folder: Path, tmp_path: Path):
    """What a run whose every file is cached imports: not PyYAML, the rulebook's records, the replay or the ruling."""
    path = str(SCENARIOS / "euchre" / "all-four-hands-thrown.yaml")
    env = {**os.environ, "ADJUDICATE_CACHE_DIR": str(folder.parent)}
    command = [sys.executable, "-X", "importtime", "-m", "adjudicate", "check", "--jobs", "1", path]

    def imported() -> set[str]:
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}

    cold = imported()
    assert {"adjudicate.record.yamlsource", "adjudicate.lawbook.rulebook", "adjudicate.play.replay"} <= cold
    from adjudicate.record import yamlsource

    if yamlsource._native is not None:  # the native reader reads this file: PyYAML is not imported
        assert "yaml" not in cold
    warm = imported()
    assert "adjudicate.checking.resultcache" in warm
    assert not warm & {"yaml", "adjudicate.record.yamlsource", "adjudicate.lawbook.rulebook",
                        "adjudicate.lawbook.cache"}
    assert not {name for name in warm if name.startswith(("adjudicate.play", "adjudicate.ruling"))}


# --- a hostile cache folder --------------------------------------------------------------------------------


def entry(folder: Path) -> Path:
    """The one index file in the cache folder."""
    [path] = folder.glob("*.msgpack")
    return path


def consistent(payload: bytes) -> bytes:
    """A cache file holding `payload`, with the magic and a checksum that holds: as someone planting one would."""
    import zlib

    return resultcache.MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload


def replanted(data: bytes, change) -> bytes:
    """The index file's bytes with its one entry changed by `change`, consistent again."""
    import msgspec

    index = msgspec.msgpack.decode(data[len(resultcache.MAGIC) + 4:], type=resultcache._Index)
    [(path, raw)] = index.entries.items()
    planted = change(msgspec.msgpack.decode(raw, type=resultcache._Entry))
    return consistent(msgspec.msgpack.encode(resultcache._Index(index.name, {path: msgspec.Raw(
        msgspec.msgpack.encode(planted))})))


@pytest.mark.parametrize("damage", ["flipped", "truncated", "empty", "foreign", "other key", "other index",
                                    "too big"])
def test_a_damaged_or_foreign_index_is_a_miss(folder: Path, project: Path, ruled: list[str], damage: str,
                                              monkeypatch):
    import msgspec

    path = str(project / "renege.yaml")
    expected = api.check(path).to_text()
    api.check(path, cache=True)
    kept_at = entry(folder)
    data = kept_at.read_bytes()
    head = len(resultcache.MAGIC) + 4
    if damage == "flipped":
        data = data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:]
    elif damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "empty":
        data = b""
    elif damage == "foreign":  # consistent (magic, checksum), but not an index: a rulebook cache's record, a dict
        data = consistent(msgspec.msgpack.encode({"source": b"x", "rulebook": [1, 2, 3]}))
    elif damage == "other key":  # another file's entry (another key, no stamp), consistent, planted under this path
        data = replanted(data, lambda planted: msgspec.structs.replace(
            planted, key=b"\0" * len(planted.key), stamp=(),
            result=msgspec.structs.replace(planted.result, status="failed")))
    elif damage == "other index":  # another folder's or run's index, consistent, under this one's name
        index = msgspec.msgpack.decode(data[head:], type=resultcache._Index)
        data = consistent(msgspec.msgpack.encode(msgspec.structs.replace(index, name=b"\0" * len(index.name))))
    else:
        monkeypatch.setattr(resultcache, "MAX_INDEX_BYTES", len(data) + 1024)
        data = data + b"\0" * 2048
    kept_at.write_bytes(data)
    assert api.check(path, cache=True).to_text() == expected
    assert len(ruled) == 3  # without the cache, into it, and anew
    assert api.check(path, cache=True).to_text() == expected  # written anew, and used
    assert len(ruled) == 3


def test_an_entry_of_the_wrong_kind_is_a_miss(folder: Path, project: Path, ruled: list[str]):
    """An entry whose result could never have been kept (an internal error), planted with the file's own stamp."""
    import msgspec

    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    kept_at = entry(folder)
    kept_at.write_bytes(replanted(kept_at.read_bytes(), lambda planted: msgspec.structs.replace(
        planted, result=msgspec.structs.replace(planted.result, status="invalid", cause=checking.INTERNAL))))
    assert api.check(path, cache=True).exit_code == 0
    assert len(ruled) == 2


def test_a_pickle_in_place_of_an_entry_runs_nothing(folder: Path, project: Path, tmp_path: Path):
    import pickle

    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    marker = tmp_path / "ran"
    payload = pickle.dumps(eval, protocol=2) + repr(f"open({str(marker)!r}, 'w')").encode()
    entry(folder).write_bytes(consistent(payload))
    assert api.check(path, cache=True).exit_code == 0
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_in_place_of_an_entry_does_not_hang(folder: Path, project: Path, ruled: list[str]):
    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    kept = entry(folder)
    kept.unlink()
    os.mkfifo(kept)
    assert api.check(path, cache=True).exit_code == 0
    assert len(ruled) == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_in_place_of_a_house_file_named_is_refused_not_read(folder: Path, project: Path, ruled: list[str]):
    """An entry records the house file a scenario named; a named pipe put there since is not read (no hang)."""
    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    house = project / "house" / "modern.yaml"
    house.unlink()
    os.mkfifo(house)
    report = api.check(path, cache=True)
    assert report.exit_code == 2 and "not a regular file" in report.to_text()
    assert len(ruled) == 2


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX permissions, not root")
def test_a_read_only_cache_folder_changes_nothing(folder: Path, project: Path, ruled: list[str]):
    path = str(project / "renege.yaml")
    expected = api.check(path).to_text()
    folder.mkdir(parents=True)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert api.check(path, cache=True).to_text() == expected
        assert api.check(path, cache=True).to_text() == expected
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(stat.S_IRWXU)
    assert len(ruled) == 3


@pytest.mark.parametrize("how", ["read-only file system", "a file where the folder belongs"])
def test_a_cache_folder_that_cannot_be_written_changes_nothing(folder: Path, project: Path, ruled: list[str],
                                                               monkeypatch, how: str):
    """As the test above, also where permissions do not hold (as root): the disk refuses every write."""
    import errno
    import tempfile

    path = str(project / "renege.yaml")
    expected = api.check(path).to_text()
    if how == "read-only file system":
        def refuse(*args, **kwargs):
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    else:
        folder.parent.mkdir(parents=True)
        folder.write_bytes(b"")
    assert api.check(path, cache=True).to_text() == expected
    assert api.check(path, cache=True).to_text() == expected
    assert len(ruled) == 3
    assert not folder.is_dir() or list(folder.iterdir()) == []


def index_of(path: str) -> Path:
    cache = resultcache.ResultCache.open(None)
    assert cache is not None
    return Path(cache.index_name(os.path.dirname(path)))


def test_the_cache_is_pruned_to_its_bound_and_of_stale_indexes(folder: Path, tmp_path: Path):
    import time

    files = []
    for number in range(12):  # a folder each: an index each
        place = tmp_path / "scenarios" / f"part-{number:02d}"
        place.mkdir(parents=True)
        shutil.copy(SCENARIOS / "euchre" / "all-four-hands-thrown.yaml", place / "thrown.yaml")
        files.append(str(place / "thrown.yaml"))
    now = time.time()
    for number, path in enumerate(files):
        api.check(path, cache=True)
        stamp = now - (len(files) - number) * 60
        os.utime(index_of(path), (stamp, stamp))
    size = index_of(files[0]).stat().st_size
    assert all(index_of(path).stat().st_size == size for path in files)
    stale = index_of(files[-1])
    old = now - (resultcache.STALE_DAYS + 1) * 86400
    os.utime(stale, (old, old))
    cache = resultcache.ResultCache.open(None)
    assert cache is not None
    cache.prune(limit=100 * size)
    assert not stale.exists() and len(list(folder.glob("*.msgpack"))) == 11
    cache.prune(limit=10 * size)
    assert len(list(folder.glob("*.msgpack"))) == 8  # past the bound: down to 80% of it
    cache.prune(limit=5 * size)
    assert len(list(folder.glob("*.msgpack"))) == 4
    assert all(index_of(path).exists() for path in files[7:11])  # the oldest written went first


def test_an_index_drops_the_files_no_longer_there(folder: Path, project: Path, ruled: list[str]):
    paths = [str(project / "renege.yaml"), str(project / "renege-again.yaml")]
    api.check(paths, cache=True)
    assert sorted(path for path, _ in kept(folder)) == sorted(paths)
    os.remove(paths[1])
    api.check(paths[0], cache=True)
    assert sorted(path for path, _ in kept(folder)) == sorted(paths)  # nothing was written: the index is as it was
    (project / "renege.yaml").write_text((project / "renege.yaml").read_text(encoding="utf-8") + "# edited\n",
                                         encoding="utf-8")
    api.check(paths[0], cache=True)
    assert [path for path, _ in kept(folder)] == paths[:1]
    assert len(ruled) == 3


def test_a_run_prunes_only_when_it_wrote(folder: Path, monkeypatch):
    pruned: list[int] = []
    monkeypatch.setattr(resultcache.ResultCache, "prune", lambda self, limit=0: pruned.append(1))
    path = str(SCENARIOS / "euchre" / "all-four-hands-thrown.yaml")
    api.check(path, cache=True)
    api.check(path, cache=True)
    assert pruned == [1]


# --- stamps: a file whose stamp is as it was is not read again ---------------------------------------------


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The scenario files the cache read (and hashed), in order."""
    calls: list[str] = []
    real = resultcache._read

    def counting(path):
        if path.endswith("renege.yaml"):
            calls.append(path)
        return real(path)

    monkeypatch.setattr(resultcache, "_read", counting)
    return calls


def settled(path: Path) -> None:
    """As if the file had been written long ago: its stamp is kept (ctime cannot be set back; RACY_SECONDS can)."""
    stamp = path.stat().st_mtime - 3600
    os.utime(path, (stamp, stamp))


@pytest.mark.skipif(not resultcache._STAMPS, reason="stamps are kept on POSIX only")
def test_an_unchanged_file_is_not_read_again_and_a_touched_one_is_hashed(folder: Path, project: Path, ruled: list[str],
                                                                        reads: list[str], monkeypatch):
    path = project / "renege.yaml"
    settled(path)
    monkeypatch.setattr(resultcache, "RACY_SECONDS", 0)
    expected = api.check(str(path)).to_text()
    assert api.check(str(path), cache=True).to_text() == expected
    assert [entry.stamp != () for _, entry in kept(folder)] == [True]
    reads.clear()
    assert api.check(str(path), cache=True).to_text() == expected
    assert reads == [] and len(ruled) == 2
    os.utime(path)  # touched: a new stamp, the same bytes
    assert api.check(str(path), cache=True).to_text() == expected
    assert len(reads) == 1 and len(ruled) == 2  # read and hashed, not ruled; kept with its new stamp
    assert api.check(str(path), cache=True).to_text() == expected
    assert len(reads) == 1


@pytest.mark.skipif(not resultcache._STAMPS, reason="stamps are kept on POSIX only")
def test_a_file_edited_to_the_same_size_and_time_is_ruled_anew(folder: Path, project: Path, ruled: list[str],
                                                              monkeypatch):
    path = project / "renege.yaml"
    settled(path)
    monkeypatch.setattr(resultcache, "RACY_SECONDS", 0)
    assert api.check(str(path), cache=True).exit_code == 0
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    edited = text.replace("{NS: 8, EW: 3}", "{NS: 9, EW: 3}")
    assert len(edited) == len(text) and edited != text
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the size and time as they were
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    report = api.check(str(path), cache=True)
    assert report.exit_code == 1 and "expect.score" in report.to_text()
    assert len(ruled) == 2


def test_a_file_changed_just_before_it_was_read_keeps_no_stamp(folder: Path, project: Path, ruled: list[str],
                                                              reads: list[str]):
    """Written a moment ago (the fixture): a change in the same tick of the file system's clock would leave its
    stamp as it was, so it is read and hashed at each run until it has settled."""
    path = str(project / "renege.yaml")
    api.check(path, cache=True)
    assert [entry.stamp for _, entry in kept(folder)] == [()]
    api.check(path, cache=True)
    assert len(reads) == 2 and len(ruled) == 1


def test_cache_clear_knows_the_indexes_and_their_temporaries(tmp_path: Path):
    """`adjudicate cache clear` removes the indexes and the temporaries they are written through, nothing else."""
    folder = tmp_path / "cache"
    results = folder / resultcache.FOLDER_NAME
    results.mkdir(parents=True)
    ours = ["0123456789abcdef0123456789abcdef01234567.msgpack", ".results-k3j_x9q2.tmp", ".result-a1b2c3d4.tmp"]
    theirs = ["notes.txt", "index.msgpack", ".hidden.tmp"]
    for name in ours + theirs:
        (results / name).write_bytes(b"x")
    done = CliRunner().invoke(app, ["cache", "clear"], env={"ADJUDICATE_CACHE_DIR": str(folder)})
    assert done.exit_code == 0, done.output
    assert sorted(os.listdir(results)) == sorted(theirs)
