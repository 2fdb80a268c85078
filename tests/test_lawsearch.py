"""Law search: BM25F over title, section, text and notes; words in any form; a stable order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicate.errors import UsageError
from adjudicate.lawbook.search import LawIndex, in_section, query_terms, search, stem, terms
from adjudicate.lawbook.library import builtin_library
from adjudicate.lawbook.reader import load_rulebook
from adjudicate.cli.app import app

runner = CliRunner()

DATA = Path(__file__).parent / "data" / "rulebooks"


@pytest.fixture(scope="module")
def laws():
    return (list(load_rulebook(DATA / "mini-whist.yaml").laws)
            + list(load_rulebook(DATA / "mini-euchre.yaml").laws))


def refs(hits):
    return [hit.law.ref for hit in hits]


@pytest.mark.parametrize("word, same", [
    ("revoking", "revoke"), ("revoked", "revokes"), ("renounced", "renounce"),
    ("renouncing", "renounce"), ("dealt", "dealt"), ("cards", "card"),
])
def test_words_in_any_form_share_a_stem(word, same):
    assert stem(word) == stem(same)


def test_terms_drop_markup_punctuation_and_common_words():
    assert terms("_Vide_ Law 72.--The revoking player[32]") == ["vide", "law", "72", "revok", "player", "32"]
    assert terms("the of a", keep_stop_words=True) == ["the", "of", "a"]


def test_a_query_needs_some_uncommon_word():
    assert query_terms("revoke revoking REVOKES") == ["revok"]
    with pytest.raises(UsageError, match="nothing to search for in 'the of': give some words less common"):
        query_terms("the of")
    with pytest.raises(UsageError, match=r"nothing to search for in '--': give some words$"):
        query_terms("--")


def test_revoking_finds_the_laws_that_say_revoke(laws):
    found = refs(search(laws, "revoking"))
    assert set(found) == {"mini-whist:5", "mini-whist:71", "mini-whist:72", "mini-whist:73",
                          "mini-euchre:62", "mini-euchre:63", "mini-euchre:64"}


def test_renounced_finds_renouncing(laws):
    assert refs(search(laws, "renounced")) == ["mini-whist:73"]


def test_title_and_section_count_for_more_than_text(laws):
    # "penalty" is in the title of euchre 63 and whist 72, and only in the text of whist 5
    found = refs(search(laws, "penalty"))
    assert found[-1] == "mini-whist:5"
    assert set(found[:2]) == {"mini-euchre:63", "mini-whist:72"}


def test_notes_are_searched(laws):
    assert refs(search(laws, "vide")) == ["mini-whist:5"]


def test_ties_go_by_code_then_number(laws):
    hits = search(laws, "suit")  # the same words in euchre 62 and whist 71
    assert refs(hits) == ["mini-euchre:62", "mini-whist:71"]
    assert hits[0].score == hits[1].score


def test_the_same_query_gives_the_same_order(laws):
    assert refs(search(laws, "revoke card")) == refs(search(list(reversed(laws)), "revoke card"))


def test_limit_and_no_match(laws):
    assert len(search(laws, "revoke", limit=2)) == 2
    assert search(laws, "honours") == []
    assert LawIndex([]).search("revoke") == []


def test_in_section_matches_every_word_in_any_form(laws):
    by_ref = {law.ref: law for law in laws}
    assert in_section(by_ref["mini-whist:71"], "revoking")
    assert in_section(by_ref["mini-whist:71"], "the revokes")
    assert not in_section(by_ref["mini-whist:71"], "revoke deal")
    assert in_section(by_ref["mini-euchre:64"], "DEAL")


# --- on the real codes -----------------------------------------------------------------

def test_revoking_finds_euchre_62_and_63_near_the_top():
    euchre = builtin_library()["euchre"]
    found = refs(search(euchre.laws, "revoking", limit=5))
    assert found[0] == "euchre:63"
    assert "euchre:62" in found
    everywhere = refs(search(builtin_library().laws(), "revoking", limit=3))
    assert "euchre:63" in everywhere


def test_lead_out_of_turn_finds_each_codes_law():
    found = refs(search(builtin_library().laws(), "lead out of turn", limit=6))
    assert {"euchre:52", "short-whist:62", "long-whist:7"} <= set(found)


def test_everyday_words_find_the_codes_own():
    """Issue 15: `laws --search renege` finds the revoke laws (lawsearch.SYNONYMS, listed in docs/commands.md)."""
    from adjudicate.lawbook.search import SYNONYMS

    result = runner.invoke(app, ["laws", "--search", "renege", "--format", "json"])
    assert result.exit_code == 0, result.output
    found = {(hit["code"], hit["id"]) for hit in json.loads(result.stdout)}
    assert {("euchre", "63"), ("short-whist", "72"), ("long-whist", "11")} <= found
    commands = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    laws = commands[commands.index("## `adjudicate laws`"):commands.index("## `adjudicate law` ")]
    for word in SYNONYMS:
        assert f"`{word}`" in laws, f"docs/commands.md's `adjudicate laws` does not list the search synonym {word!r}"


def test_rule_starts_without_tabulate():
    """Only the replay's table needs tabulate: `adjudicate rule` does not import it (24 ms of a cold start)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    script = ("import sys; from typer.testing import CliRunner; from adjudicate.cli.app import app; "
              f"CliRunner().invoke(app, ['rule', {str(root / 'scenarios/euchre/revoke-established.yaml')!r}]); "
              "print('tabulate' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False"]


# --- the built-in laws' stems, counted once and kept with the rulebook cache (issue 15) ---------------

def _search(cache: Path, *args: str, **env: str):
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "adjudicate", "laws", "--format", "json", *args],
                          capture_output=True, text=True, env={**os.environ, "ADJUDICATE_CACHE_DIR": str(cache), **env})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_law_search_counts_the_laws_once_and_reuses_them(tmp_path):
    uncached = _search(tmp_path / "none", "--search", "revoke", ADJUDICATE_NO_CACHE="1")
    assert not (tmp_path / "none").exists()
    first = _search(tmp_path, "--search", "revoke")
    [made] = tmp_path.glob("search-*.msgpack")
    stamp = made.stat()
    second = _search(tmp_path, "--search", "revoke")
    assert first == second == uncached and json.loads(first)[0]["id"] == "13"
    again = made.stat()
    assert (again.st_ino, again.st_mtime_ns) == (stamp.st_ino, stamp.st_mtime_ns)  # read, not made anew
    # Another query, one code, a section: the same counts serve them, as counting afresh would.
    for args in (["--search", "lone hand"], ["--code", "euchre", "--search", "renege"],
                 ["--section", "revoke", "--search", "claim"]):
        assert _search(tmp_path, *args) == _search(tmp_path / "none", *args, ADJUDICATE_NO_CACHE="1"), args
    assert made.stat().st_mtime_ns == stamp.st_mtime_ns


def test_a_stale_or_damaged_search_cache_is_made_anew(tmp_path):
    import zlib

    import msgspec

    from adjudicate.lawbook import search as lawsearch

    fresh = _search(tmp_path, "--search", "revoke")
    [made] = tmp_path.glob("search-*.msgpack")
    head = len(lawsearch._CACHE_MAGIC)
    entry = msgspec.msgpack.decode(made.read_bytes()[head + 4:], type=lawsearch._CountsCache)
    # Made from other rulebooks (another stamp), its counts emptied: were it used, nothing would be found.
    stale = msgspec.msgpack.encode(lawsearch._CountsCache(
        entry.stamp.replace("euchre:", "euchre:1"), {key: {} for key in entry.counts}, entry.stems))
    for planted in (lawsearch._CACHE_MAGIC + zlib.crc32(stale).to_bytes(4, "big") + stale,
                    b"not a cache file", made.read_bytes()[:-10]):
        made.write_bytes(planted)
        assert _search(tmp_path, "--search", "revoke") == fresh
        rebuilt = msgspec.msgpack.decode(made.read_bytes()[head + 4:], type=lawsearch._CountsCache)
        assert rebuilt.stamp == entry.stamp and rebuilt.counts == entry.counts


def test_counted_stems_rank_as_counting_afresh_does():
    from adjudicate.lawbook.search import builtin_counts

    every = list(builtin_library().laws())
    counted = builtin_counts(every)
    for query in ("revoke", "renege", "lead out of turn", "exposed card", "misdeal", "the score of a game"):
        assert LawIndex(every, counted).search(query) == LawIndex(every).search(query), query
