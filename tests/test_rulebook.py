"""The rulebook loader: every check, each problem at its file:line:col; the built-in codes; the Library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicate.errors import Pos, RulebookError, UsageError
from adjudicate.lawbook.builtin import builtin_codes, builtin_rulebook
from adjudicate.lawbook.library import Library, builtin_library
from adjudicate.lawbook.reader import load_rulebook, parse_rulebook
from adjudicate.lawbook.rulebook import Rulebook, paragraphs, reflow

DATA = Path(__file__).parent / "data" / "rulebooks"


def fixture(name: str) -> str:
    """A fixture's path as the tests name it (relative, so messages are stable)."""
    return os.path.relpath(DATA / name)


def problems_of(name: str) -> list[str]:
    """The problems loading a fixture finds, as "line:col: message"."""
    path = fixture(name)
    with pytest.raises(RulebookError) as caught:
        load_rulebook(path)
    lines = [str(problem) for problem in caught.value.problems]
    assert all(line.startswith(path + ":") for line in lines), lines
    return [line[len(path) + 1:] for line in lines]


# --- a good rulebook -----------------------------------------------------------------

def test_a_valid_rulebook_loads_with_its_metadata_and_game():
    rulebook = load_rulebook(fixture("mini-whist.yaml"))
    assert rulebook.code == "mini-whist"
    assert rulebook.title == "A Small Code of Whist, for the tests"
    assert rulebook.metadata.authors == ("A. Tester",)
    assert rulebook.metadata.annotator == "Cavendish"
    assert rulebook.metadata.year == 1864
    assert rulebook.game.family == "whist"
    assert "".join(rank.letter for rank in rulebook.game.pack.ranks[:5]) == "AKQJT"
    assert rulebook.game.hand_size == 13 and rulebook.game.game_points == 5
    assert [law.id for law in rulebook] == ["5", "71", "72", "73"]
    assert len(rulebook) == 4


def test_a_law_keeps_every_field_and_its_position():
    path = fixture("mini-whist.yaml")
    law = load_rulebook(path).law("72")
    assert law.code == "mini-whist"
    assert law.ref == "mini-whist:72"
    assert law.section == "The Revoke"
    assert law.title == "The penalty for a revoke"
    assert law.kind == "penalty"
    assert law.subjects == ("revoke.penalty",)
    assert law.refs == ("71", "5")
    assert law.text.startswith("The penalty for a revoke:--\n\n  I. Is at the option")
    assert law.pos == Pos(path, 39, 5)
    assert [clause.ref for clause in law.clauses] == ["72.I", "72.II"]
    assert law.clauses[1].text == "Can be claimed for as many revokes as occur during the hand;\n"
    assert law.clauses[1].pos == Pos(path, 61, 9)
    (note,) = law.notes
    assert (note.mark, note.by, note.text, note.refs) == ("2", "Cavendish", "And add them to their own.\n", ())
    assert note.pos == Pos(path, 65, 9)


def test_lookup_by_law_and_by_clause():
    rulebook = load_rulebook(fixture("mini-whist.yaml"))
    assert rulebook.get("71").title == "What a revoke is"
    assert rulebook.get("72.II").ref == "72.II"
    assert rulebook.get("72.IX") is None and rulebook.get("99") is None
    assert "72.I" in rulebook and "72" in rulebook and "70" not in rulebook
    law, clause = rulebook.resolve("72.i")  # the numeral in any case
    assert (law.id, clause.id) == ("72", "I")
    assert rulebook.resolve("71") == (rulebook.law("71"), None)


@pytest.mark.parametrize("ref, message", [
    ("720", "mini-whist has no law '720' (did you mean \"72\"?) (its laws are 5–73)"),
    ("70", "mini-whist has no law '70' (its laws are 5–73)"),
    ("72.V", "mini-whist:72 has no clause 'V' (its clauses are I, II)"),
    ("71.I", "mini-whist:71 has no clauses"),
])
def test_an_unknown_law_or_clause_is_a_usage_error(ref, message):
    with pytest.raises(UsageError) as caught:
        load_rulebook(fixture("mini-whist.yaml")).resolve(ref)
    assert str(caught.value) == message


def test_records_are_immutable():
    law = load_rulebook(fixture("mini-whist.yaml")).law("71")
    with pytest.raises(AttributeError):
        law.title = "changed"  # type: ignore[misc]


def test_record_as_plain_data():
    rulebook = load_rulebook(fixture("mini-whist.yaml"))
    assert rulebook.law("71").record() == {
        "id": "71", "code": "mini-whist", "section": "The Revoke", "title": "What a revoke is",
        "kind": "definition", "subjects": ["revoke.definition"],
        "text": "Is when a player, holding one or more cards of the suit led, plays\na card of a different suit.\n",
        "refs": [],
    }
    record = rulebook.law("72").record()
    assert record["clauses"][0]["id"] == "I"
    assert record["notes"] == [{"mark": "2", "by": "Cavendish", "text": "And add them to their own.\n", "refs": []}]


# --- text for display ----------------------------------------------------------------

def test_paragraphs_join_lines_and_set_clauses_apart():
    text = ("The penalty for a revoke:--\n\n  I. Is at the option of the\n          adversaries;\n"
            "  II. Can be claimed\n  for as many revokes;\nNot a clause: I. in the middle.\n")
    assert paragraphs(text) == (
        "The penalty for a revoke:--",
        "I. Is at the option of the adversaries;",
        "II. Can be claimed for as many revokes; Not a clause: I. in the middle.",
    )


def test_a_euchre_clause_line_without_indent_is_its_own_paragraph():
    text = "It is a misdeal:\nI. Unless five cards are dealt\nto each player.\nII. Unless the dealer begin.\n"
    assert paragraphs(text) == ("It is a misdeal:", "I. Unless five cards are dealt to each player.",
                                "II. Unless the dealer begin.")


def test_reflow_wraps_with_a_hanging_indent_for_clauses():
    text = "Lead:--\n\n  IV. Cannot be divided, i.e., a player cannot add one or two to his own score\n"
    assert reflow(text) == "Lead:--\n\nIV. Cannot be divided, i.e., a player cannot add one or two to his own score"
    assert reflow(text, 40) == ("Lead:--\n\n"
                                "IV. Cannot be divided, i.e., a player\n"
                                "    cannot add one or two to his own\n"
                                "    score")


def test_law_reflowed_keeps_paragraphs():
    law = load_rulebook(fixture("mini-whist.yaml")).law("73")
    assert law.reflowed() == "Renouncing in error is to be avoided.\n\nRevoking on purpose is cheating."


# --- every problem, at its place ----------------------------------------------------------

BROKEN = {
    "unknown-key.yaml": [
        "10:5: law 1 is missing the required key 'title'",
        "12:5: unknown key 'titel' in law 1 (did you mean \"title\"?); expected one of: because, because_when, clauses, "
        "condition, context, defeats, id, kind, no_condition, notes, provisos, refs, remedies, rulings, section, subjects, text, title",
        # a condition is checked against the facts vocabulary
        "24:17: unknown fact subject 'fact' (did you mean \"act\"?); expected an irregularity kind (revoke, "
        "lead_out_of_turn, ...), claim, election, act, hand, or all/any/not/question",
    ],
    "missing-key.yaml": [
        "10:5: law 1 is missing the required key 'kind'",
        "17:5: law 2 is missing the required key 'refs'",
    ],
    "wrong-type.yaml": [
        "7:14: game.hand_size should be a whole number, not 'thirteen'",
        "14:15: the subjects of law 1 should be a list, not 'rubber'",
        "20:12: the title of law 2 should be text, not a mapping",
    ],
    "duplicate-id.yaml": ["26:5: duplicate law id '2' (first at line 18)"],
    "bad-ref.yaml": [
        "15:12: law 1 cites law 3, which is not in this rulebook",
        "23:12: law 2 cites 1.IV, but law 1 has no clauses",
    ],
    "empty-text.yaml": ["16:11: the text of law 1 is empty"],
    "bad-kind.yaml": [
        "13:11: the kind of law 1 'penalties' is not one of: definition, scoring, procedure, penalty, "
        "ruling, etiquette (did you mean \"penalty\"?)",
    ],
    "bad-yaml.yaml": ["13:9: invalid YAML: did not find expected ',' or ']'"],
    "footnotes.yaml": [
        "16:11: the text of law 1 marks footnote [2], but the law has no note [2]",
        "19:9: note [1] is not marked in the text of law 1 or its clauses",
    ],
    "out-of-order.yaml": ["18:5: law 1 comes after law 2: laws should stand in the source's order"],
    "unlisted-citation.yaml": [
        "23:11: law 2 cites law 2 ('Rule 2'), but its refs do not list '2'",
        "27:9: note [1] cites law 1 ('Law 1'), but its refs do not list '1'",
    ],
    "clause-mismatch.yaml": [
        "23:9: clause 1.II is not in the text of law 1 as \"II. \" and the clause's text (line breaks aside)",
        "25:9: duplicate clause 1.I (first at line 21)",
    ],
    "bad-values.yaml": [
        "2:7: the code should be a short id in lower case, like \"short-whist\", not 'Broken Code'",
        "5:11: game.family 'bridge' is not one of: whist, euchre",
        "6:23: '10' in game.ranks is not a rank (A K Q J T 9 8 7 6 5 4 3 2; ten is T)",
        "7:14: game.hand_size should be more than 0, not 0",
        "10:9: a law's id should be its number as a string, like \"63\", not '1a'",
        "14:16: 'Rubber Games' in the subjects of law 1a is not a dotted subject in lower case, "
        "like \"revoke.penalty\"",
        "14:38: 'rubber' is listed twice in the subjects of law 1a (first at line 14)",
        "15:12: 'see 2' in the refs of law 1a is not a law id like \"27\" or a clause like \"44.IV\"",
        "19:13: a clause's id should be its Roman numeral, like \"IV\", not '1'",
        "23:15: the text of clause 1a.I is empty",
    ],
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_every_problem_of_a_broken_rulebook_at_its_line_and_column(name):
    assert problems_of(name) == BROKEN[name]


def test_the_error_message_is_one_line_per_problem():
    path = fixture("missing-key.yaml")
    with pytest.raises(RulebookError) as caught:
        load_rulebook(path)
    assert str(caught.value).splitlines() == [f"{path}:10:5: law 1 is missing the required key 'kind'",
                                              f"{path}:17:5: law 2 is missing the required key 'refs'"]


def test_a_missing_file(tmp_path):
    path = str(tmp_path / "nowhere.yaml")
    with pytest.raises(RulebookError) as caught:
        load_rulebook(path)
    assert str(caught.value) == f"{path}: no such file"


@pytest.mark.parametrize("text, message", [
    ("", "1:1: the file is empty: expected a YAML mapping"),
    ("- a\n- b\n", "1:1: a rulebook should be a mapping of keys to values, not a list"),
    ("code: x\ncode: y\n", "2:1: duplicate key 'code' (first at line 1)"),
    ("code: x\n", "1:1: the rulebook is missing the required key 'title'\n"
                  "1:1: the rulebook is missing the required key 'game'\n"
                  "1:1: the rulebook is missing the required key 'laws'"),
    ("code: x\ntitle: T\ngame: {family: whist, ranks: [A], hand_size: 2, game_points: 5}\nlaws: []\n",
     "3:7: a pack of 4 cards cannot deal 2 to each of four players"),
    ("code: x\ntitle: T\ngame: {family: whist, ranks: [A], hand_size: 1, game_points: 5}\nlaws: {}\n",
     "4:7: laws should be a list, not a mapping"),
    ("code: x\ntitle: T\ngame: {family: whist, ranks: [A], hand_size: 1, game_points: 5}\nlaws: [7]\n",
     "4:8: a law should be a mapping of keys to values, not '7'"),
])
def test_problems_of_the_file_as_a_whole(text, message):
    with pytest.raises(RulebookError) as caught:
        parse_rulebook(text, "r.yaml")
    assert str(caught.value) == "\n".join(f"r.yaml:{line}" for line in message.split("\n"))


def test_optional_metadata_may_be_null():
    text = ("code: x\ntitle: T\nclub: null\nyear: null\nnote: a remark\n"
            "game: {family: whist, ranks: [A], hand_size: 1, game_points: 5}\nlaws: []\n")
    rulebook = parse_rulebook(text, "r.yaml")
    assert rulebook.metadata.club is None and rulebook.metadata.year is None
    assert rulebook.metadata.note == "a remark"


# --- across codes --------------------------------------------------------------------

@pytest.fixture()
def library() -> Library:
    return Library([load_rulebook(fixture("mini-whist.yaml")), load_rulebook(fixture("mini-euchre.yaml"))])


def test_cited_by_counts_refs_of_laws_and_of_notes(library):
    whist = library["mini-whist"]
    cited = [(c.law.id, c.ref, c.note.mark if c.note else None) for c in library.cited_by(whist.law("72"))]
    assert cited == [("5", "72", "1"), ("73", "72.II", None)]
    assert [c.law.ref for c in library.cited_by(whist.law("5"))] == ["mini-whist:72"]
    assert library.cited_by(whist.law("73")) == ()
    assert [c.law.ref for c in library.cited_by(library["mini-euchre"].law("63"))] == ["mini-euchre:64"]


def test_counterparts_are_laws_of_the_other_codes_sharing_a_subject(library):
    whist, euchre = library["mini-whist"], library["mini-euchre"]
    assert library.counterparts(whist.law("72")) == (euchre.law("63"),)
    assert library.counterparts(euchre.law("63")) == (whist.law("72"),)
    assert library.counterparts(euchre.law("62")) == (whist.law("71"),)
    assert library.counterparts(euchre.law("64")) == ()


def test_library_lookup_and_unknown_code(library):
    law, clause = library.lookup("Mini-Whist", "72.II")
    assert (law.id, clause.id) == ("72", "II")
    assert [law.ref for law, _ in library.with_id("72")] == ["mini-whist:72"]
    assert [law.ref for law, _ in library.with_id("63")] == ["mini-euchre:63"]
    with pytest.raises(UsageError) as caught:
        library["mini-wist"]
    assert str(caught.value) == ("unknown code 'mini-wist' (did you mean \"mini-whist\"?); "
                                 "the codes are: mini-euchre, mini-whist")


# --- the built-in codes ----------------------------------------------------------------

def test_the_built_in_codes():
    assert builtin_codes() == ("euchre", "long-whist", "short-whist")


def test_all_226_laws_load():
    counts = {code: len(builtin_rulebook(code)) for code in builtin_codes()}
    assert counts == {"euchre": 116, "short-whist": 91, "long-whist": 19}
    assert sum(counts.values()) == 226
    assert [law.id for law in builtin_rulebook("euchre")] == [str(n) for n in range(1, 117)]
    assert [law.id for law in builtin_rulebook("short-whist")] == [str(n) for n in range(1, 92)]
    assert [law.id for law in builtin_rulebook("long-whist")] == [str(n) for n in range(7, 26)]


def test_built_in_rulebooks_are_loaded_once():
    assert builtin_rulebook("euchre") is builtin_rulebook("euchre")
    assert builtin_library() is Library.builtin()


def test_an_unknown_built_in_code():
    with pytest.raises(UsageError) as caught:
        builtin_rulebook("short_whist")
    assert str(caught.value) == ("unknown code 'short_whist' (did you mean \"short-whist\"?); "
                                 "the codes are: euchre, long-whist, short-whist")


def test_euchre_63_reads_correctly():
    law = builtin_rulebook("euchre").law("63")
    assert law.section == "The Revoke"
    assert law.kind == "penalty"
    assert law.text == ("The penalty of a revoke is three points, except in the case of a\n"
                        "lone hand, when it is five; and the penalty may be claimed as often as\n"
                        "the revoke is repeated in the hand.\n")
    assert law.reflowed().startswith("The penalty of a revoke is three points, except in the case of a lone hand,")


def test_short_whist_72_v_reads_correctly():
    rulebook = builtin_rulebook("short-whist")
    clause = rulebook.get("72.V")
    assert clause is not None and clause.ref == "72.V"
    assert " ".join(clause.text.split()) == (
        "Takes precedence of every other score, _e.g._,--The claimants two--their opponents nothing--"
        "the former add three to their score--and thereby win a treble game, even should the latter "
        "have made thirteen tricks, and held four honours.")
    law = rulebook.law("72")
    assert [c.id for c in law.clauses] == ["I", "II", "III", "IV", "V"]
    assert law.paragraphs()[0] == "The penalty for a revoke:--"
    assert law.paragraphs()[5].startswith("V. Takes precedence of every other score")
    assert [note.mark for note in law.notes] == ["32"]
    assert law.notes[0].by == "Cavendish"


def test_long_whist_11_reads_correctly():
    law = builtin_rulebook("long-whist").law("11")
    assert law.section == "Revoking"
    assert law.text.startswith("If a revoke happen to be made, the adversary may add three to their score,")
    assert law.text.rstrip().endswith("and, if up, must remain at nine.")


def test_the_revoke_penalties_of_the_three_codes_are_counterparts():
    library = builtin_library()
    euchre, short, long_ = (library.lookup(*ref)[0] for ref in
                            [("euchre", "63"), ("short-whist", "72"), ("long-whist", "11")])
    assert {euchre, long_} <= set(library.counterparts(short))
    assert {short, long_} <= set(library.counterparts(euchre))
    assert {euchre, short} <= set(library.counterparts(long_))
    assert all(law.code != "euchre" for law in library.counterparts(euchre))


def test_cavendish_note_cites_a_clause():
    library = builtin_library()
    cited = library.cited_by(library.lookup("short-whist", "44")[0])
    assert [(c.law.id, c.ref, c.note.mark if c.note else None) for c in cited] == [("46", "44.IV", "17")]


def test_built_in_rulebooks_load_from_any_directory_after_install(tmp_path):
    # the YAML is found inside the package (importlib.resources), not from the working directory
    code = "from adjudicate.lawbook.builtin import builtin_rulebook as b; print(len(b('long-whist')))"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "19\n"


def test_builtin_rulebooks_state_the_game_the_replay_plays():
    from adjudicate.lawbook.games import BUILTIN_GAMES
    for code, game in BUILTIN_GAMES.items():
        assert builtin_rulebook(code).game == game, code


def test_built_in_rulebooks_are_cached_parsed_and_a_damaged_cache_is_ignored(tmp_path, monkeypatch):
    from adjudicate.lawbook import builtin, reader
    from adjudicate.lawbook import cache as rulebook_cache

    monkeypatch.setenv("ADJUDICATE_CACHE_DIR", str(tmp_path))
    builtin.builtin_rulebook.cache_clear()
    first = builtin.builtin_rulebook("long-whist")
    [cached] = list(tmp_path.glob("long-whist-*.msgpack"))
    builtin.builtin_rulebook.cache_clear()
    again = builtin.builtin_rulebook("long-whist")
    assert again == first and again is not first
    cached.write_bytes(b"not a cache file")
    builtin.builtin_rulebook.cache_clear()
    assert builtin.builtin_rulebook("long-whist") == first
    # A cache file made from other bytes (a checksum collision, a hand-copied file) is not trusted.
    import msgspec
    import zlib
    stale = Rulebook("long-whist", "stale", first.metadata, first.game, (), first.path)
    payload = msgspec.msgpack.encode(rulebook_cache._CacheEntry(b"other bytes", (), stale))
    cached.write_bytes(rulebook_cache._CACHE_MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload)
    builtin.builtin_rulebook.cache_clear()
    assert builtin.builtin_rulebook("long-whist") == first
    entry = msgspec.msgpack.decode(cached.read_bytes()[len(rulebook_cache._CACHE_MAGIC) + 4:], type=rulebook_cache._CacheEntry)
    assert entry.rulebook == first
    monkeypatch.setenv("ADJUDICATE_NO_CACHE", "1")
    builtin.builtin_rulebook.cache_clear()
    assert builtin.builtin_rulebook("long-whist") == first
    builtin.builtin_rulebook.cache_clear()
    assert builtin.builtin_rulebook("long-whist") == first
    builtin.builtin_rulebook.cache_clear()
