"""Asking the table for the facts: open questions with ids, `--answer`, `--answers FILE`, and `--ask` on a terminal.

The terminal is a real one: `adjudicate rule --ask` runs in a pseudo-terminal (`pty.fork`), and the test types
the answers, Ctrl-C and Ctrl-D as a player would.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from events import HANG, as_at_a_terminal, can_see_syscalls, syscall, until
from typer.testing import CliRunner

import adjudicate
from adjudicate.cli.app import app

runner = CliRunner()
REVOKE = "scenarios/euchre/revoke-holding-unknown.yaml"
"""East trumps a spade lead and no one knows whether he held a spade: one question, laws 4, 62, 63, 64 and 70 hang on it."""
SHUFFLE = "scenarios/euchre/penalty-claimed-after-the-shuffle-and-cut.yaml"
"""A claim with no ground in the record after the shuffle and the cut: two questions, each with its own law."""
HONOURS = "scenarios/long-whist/honours-called-with-score-unknown.yaml"
"""North calls honours and the score before the hand was not written down."""
ESTABLISHED = "scenarios/euchre/revoke-established.yaml"
TABLE_QUESTIONS = "tests/data/house/table-questions.yaml"
"""A test house: Q1 (yes defeats Q2, so Q2 is then moot), Q2, and Q3 (defeated whenever it is so: never asked)."""
SHIPPED = sorted(str(path) for path in Path("scenarios").rglob("*.yaml") if "house" not in path.parts)

Q1 = "euchre-Q1-revokers-partner-see-card-led"
Q2 = "euchre-Q2-revoker-apologise-table"
Q3 = "euchre-Q3-revoke-made-haste"
SHUFFLE_IDS = ["euchre-27-card-seen-during-dealers-shuffling", "euchre-29-card-exposed-cutting-fewer-than-four"]
"""Laws 22 and 26 (how the pack is shuffled, where it is put) would rule nothing if they held: not asked."""


def rule(*args: str):
    return runner.invoke(app, ["rule", *args])


def rule_json(*args: str):
    done = rule("-f", "json", *args)
    assert done.exit_code == 0, done.output
    ruled = json.loads(done.stdout)  # an array, one ruling a file: here the ruling itself for one file
    return ruled[0] if len(ruled) == 1 else ruled


# --- ids ----------------------------------------------------------------------------------------------

def test_every_open_question_of_every_shipped_scenario_has_an_id_of_its_own():
    asked = 0
    for path in SHIPPED:
        ruling = adjudicate.rule(path)
        ids = [question.id for question in ruling.unknown]
        assert len(ids) == len(set(ids)), (path, ids)
        assert all(qid and " " not in qid for qid in ids), (path, ids)
        asked += len(ids)
    assert asked >= 25  # the shipped scenarios leave some thirty facts open (none that would change nothing)


def test_the_ids_read_as_the_question_and_come_from_the_record_and_the_laws():
    assert [q["id"] for q in rule_json(REVOKE)["unknown"]] == ["E-held-spade-trick-1"]
    assert [q["id"] for q in rule_json(HONOURS)["unknown"]] == ["NS-at-the-point-of-eight"]
    assert [q["id"] for q in rule_json(SHUFFLE)["unknown"]] == SHUFFLE_IDS


def test_the_same_scenario_gets_the_same_ids_in_any_order_of_files_and_on_every_run():
    alone = [q["id"] for q in rule_json(SHUFFLE)["unknown"]]
    first = rule_json(SHUFFLE, REVOKE, HONOURS)
    last = rule_json(HONOURS, REVOKE, SHUFFLE)
    assert [q["id"] for q in first[0]["unknown"]] == alone == [q["id"] for q in last[2]["unknown"]]
    assert first[1]["unknown"] == last[1]["unknown"]
    again = subprocess.run([sys.executable, "-m", "adjudicate", "rule", "-f", "json", SHUFFLE, REVOKE, HONOURS],
                           capture_output=True, text=True, check=True)
    assert json.loads(again.stdout) == first


def test_each_question_says_what_yes_and_no_rule():
    (revoke,) = rule_json(REVOKE)["unknown"]
    assert revoke == {"id": "E-held-spade-trick-1",
                      "question": "Did East hold a spade at trick 1? (his hand is not fully known)",
                      "if_so": {"laws": ["4", "62", "63", "64", "70"], "not": ["66"]},
                      "otherwise": {"laws": ["62"], "not": ["66"]}, "changes_ruling": True}
    (honours,) = rule_json(HONOURS)["unknown"]  # the score, asked as the one yes-or-no fact it settles
    assert honours["question"].startswith("Were North and South at the point of eight when the hand began?")
    assert (honours["if_so"], honours["otherwise"]) == ({"laws": []}, {"laws": ["16"]})


def test_the_table_lists_each_question_with_its_id():
    short = rule(REVOKE)
    assert short.exit_code == 0
    # The hand is in play: the tricks searched at its end answer the question (Euchre 66), so the table plays on.
    assert "The search answers the question: did East hold a spade at trick 1? If so:" in " ".join(short.stdout.split())
    assert "NEXT: Play on: East leads to trick 2. At the end of the hand, before the cards are cut, North–South\n" \
        "  search the tricks (law 66), which answers the question above;" in short.stdout
    assert "(To answer the questions: rerun with --ask, or --explain for the laws in full.)\n" in short.stdout
    done = rule("--explain", REVOKE)
    assert done.exit_code == 0
    # Law 66's search is how the question is settled, not what an answer rules; answered by it at the end of the
    # hand, a yes does not bring in law 70's right to have the hand played out: it has been played out.
    assert ("OPEN QUESTIONS\n[E-held-spade-trick-1] Did East hold a spade at trick 1? (his hand is not fully known) Settled as\n"
            "  law 66 provides. If so, laws 4, 62, 63 and 64 apply; if not, law 62 applies.\n"
            "(Answer them with --answer ID=yes or ID=no, or rule with --ask to be asked.)\n") in done.stdout


# --- --answer and --answers ------------------------------------------------------------------------------

@pytest.mark.parametrize("word", ["yes", "YES", "y", "true", "True"])
def test_a_yes_makes_the_laws_that_hang_on_it_apply(word):
    ruled = rule_json(REVOKE, "--answer", f"E-held-spade-trick-1={word}")
    assert [law["id"] for law in ruled["laws"]] == ["4", "62", "63", "64", "70"]
    assert ruled["unknown"] == []
    assert ruled["answered"] == [{"id": "E-held-spade-trick-1", "question": "Did East hold a spade at trick 1? "
                                  "(his hand is not fully known)", "answer": True}]
    assert [remedy["law"] for remedy in ruled["remedies"]] == ["63", "70"]
    (revoke,) = ruled["irregularities"]
    assert "unknown" not in revoke and revoke["because"].endswith("he held a spade, as the table says")


@pytest.mark.parametrize("word", ["no", "n", "false", "No"])
def test_a_no_drops_what_hangs_on_it(word):
    ruled = rule_json(REVOKE, "--answer", f"E-held-spade-trick-1={word}")
    assert (ruled["irregularities"], ruled["remedies"], ruled["unknown"]) == ([], [], [])
    # Law 62 alone: no revoke, so North's claim fails.
    assert [law["id"] for law in ruled["laws"]] == ["62"]
    assert [item["kind"] for item in ruled["rulings"]] == ["no_revoke"]
    assert ruled["answered"][0]["answer"] is False


def test_answered_the_table_says_so_and_lists_no_open_question():
    short = rule(REVOKE, "--answer", "E-held-spade-trick-1=yes").stdout
    assert "Asked at the table: Did East hold a spade at trick 1? (his hand is not fully known) Yes." \
        in " ".join(short.split()) and "NEXT: ask" not in short
    done = rule("--explain", REVOKE, "--answer", "E-held-spade-trick-1=yes")
    assert done.exit_code == 0
    assert ("ANSWERED\n[E-held-spade-trick-1] yes: Did East hold a spade at trick 1? (his hand is not fully "
            "known)\n") in done.stdout
    assert "OPEN QUESTIONS" not in done.stdout and "Law 63. Penalty for a revoke" in done.stdout
    markdown = rule(REVOKE, "--answer", "E-held-spade-trick-1=no", "-f", "markdown").stdout
    assert "## The answers given\n\n- E-held-spade-trick-1: no. Did East hold a spade at trick 1?" in markdown


def test_the_score_question_settles_the_call_of_honours():
    at_eight = rule_json(HONOURS, "--answer", "NS-at-the-point-of-eight=yes")
    assert (at_eight["irregularities"], at_eight["laws"]) == ([], [])  # Long Whist 16: the proper call, at eight
    short = rule_json(HONOURS, "--answer", "NS-at-the-point-of-eight=no")
    assert [law["id"] for law in short["laws"]] == ["16"]
    assert short["irregularities"][0]["at_eight"] is False
    assert [option["kind"] for remedy in short["remedies"] for option in remedy["options"]] == ["new_deal"]


def test_an_answers_file_answers_several_and_the_answer_option_comes_after_it(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("# what the table said\n"
                       "euchre-29-card-exposed-cutting-fewer-than-four: no\n"
                       "euchre-27-card-seen-during-dealers-shuffling: no\n", encoding="utf-8")
    ruled = rule_json(SHUFFLE, "--answers", str(answers), "--answer", "euchre-27-card-seen-during-dealers-shuffling=y")
    assert [law["id"] for law in ruled["laws"]] == ["27", "68"]  # law 68 bars a revoke of the last hand whatever the answers
    assert ruled["unknown"] == []
    assert {a["id"]: a["answer"] for a in ruled["answered"]} == {SHUFFLE_IDS[0]: True, SHUFFLE_IDS[1]: False}


def test_an_answer_goes_to_every_scenario_given_that_asks_it():
    both = rule_json(REVOKE, SHUFFLE, "--answer", "E-held-spade-trick-1=yes")
    assert [law["id"] for law in both[0]["laws"]] == ["4", "62", "63", "64", "70"]
    assert both[1]["answered"] == [] and len(both[1]["unknown"]) == 2


def test_answers_are_the_same_as_a_record_that_says_so():
    """A hand that lists East's cards (no spade among them) rules as the answer no; one that adds his spade, yes."""
    text = Path(REVOKE).read_text(encoding="utf-8")
    without = adjudicate.rule(text.replace("E: [8H, ...]", "E: [8H, KH, QD, 9C, 8C]"))
    answered_no = adjudicate.rule(REVOKE, answers={"E-held-spade-trick-1": False})
    assert (answered_no.law_ids, answered_no.irregularities) == (without.law_ids, without.irregularities) == (["62"], ())
    held = adjudicate.rule(text.replace("E: [8H, ...]", "E: [8H, 7S, ...]"))
    answered_yes = adjudicate.rule(REVOKE, answers={"E-held-spade-trick-1": True})
    assert answered_yes.law_ids == held.law_ids == ["4", "62", "63", "64", "70"]
    assert answered_yes.score == held.score and answered_yes.remedies == held.remedies


# --- errors ---------------------------------------------------------------------------------------------

def test_an_id_no_scenario_asks_is_an_error_with_a_did_you_mean():
    done = rule(REVOKE, "--answer", "E-held-spade-trick-2=yes")
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == ("error: no question 'E-held-spade-trick-2' is asked by "
                           "scenarios/euchre/revoke-holding-unknown.yaml (did you mean \"E-held-spade-trick-1\"?)\n"
                           "error: the questions asked: E-held-spade-trick-1\n")
    several = rule(REVOKE, SHUFFLE, "--answer", "euchre-27-card-seen-during-dealers-shufling=no")
    assert several.exit_code == 2
    assert "asked by the scenarios given (did you mean \"euchre-27-card-seen-during-dealers-shuffling\"?)" \
        in several.stderr
    none_asked = rule(ESTABLISHED, "--answer", "E-held-spade-trick-1=yes")
    assert none_asked.exit_code == 2 and "no question is asked" in none_asked.stderr


@pytest.mark.parametrize("given, message", [
    ("E-held-spade-trick-1=maybe", "error: --answer 'E-held-spade-trick-1=maybe': the answer should be yes or no "
                                   "(or true, false, y, n), not 'maybe'\n"),
    ("E-held-spade-trick-1", "error: --answer 'E-held-spade-trick-1': expected QUESTION-ID=yes or QUESTION-ID=no\n"),
    ("=yes", "error: --answer '=yes': expected QUESTION-ID=yes or QUESTION-ID=no\n"),
])
def test_a_malformed_answer_is_an_error(given, message):
    done = rule(REVOKE, "--answer", given)
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", message)


@pytest.mark.parametrize("text, message", [
    ("E-held-spade-trick-1: yes\nbad: [1\n", "answers.yaml:3:1: invalid YAML"),
    ("E-held-spade-trick-1: perhaps\n", "answers.yaml:1:23: the answer to 'E-held-spade-trick-1' should be yes or "
                                        "no (or true, false), not 'perhaps'"),
    ("- E-held-spade-trick-1\n", "answers.yaml:1:1: an answers file is a mapping of question id to yes or no"),
    ("E-held-spade-trick-1: [yes]\n", "answers.yaml:1:23: the answer to 'E-held-spade-trick-1' should be yes or no"),
])
def test_an_answers_file_with_an_error_names_its_line_and_column(tmp_path, text, message):
    path = tmp_path / "answers.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicate", "rule", REVOKE, "--answers", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"{tmp_path / message}"), done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_answers_file_is_an_error():
    done = rule(REVOKE, "--answers", "no/such/answers.yaml")
    assert done.exit_code == 2 and done.stderr.startswith("no/such/answers.yaml")


def test_the_api_refuses_answers_that_are_not_yes_or_no():
    with pytest.raises(adjudicate.AdjudicateError, match="should be True or False"):
        adjudicate.rule(REVOKE, answers={"E-held-spade-trick-1": "yes"})  # type: ignore[dict-item]
    with pytest.raises(adjudicate.AdjudicateError, match="did you mean"):
        adjudicate.rule(REVOKE, answers={"E-held-spade-trick": True})


# --- which questions are asked, and in what order ---------------------------------------------------------

def test_a_question_whose_answers_give_the_same_ruling_is_not_asked():
    ruling = adjudicate.rule(ESTABLISHED, house=TABLE_QUESTIONS)
    changes = {question.id: question.changes_ruling for question in ruling.unknown}
    assert changes == {Q1: True, Q2: True, Q3: False}  # Q3 is defeated by Q4 whenever it is so
    assert "Was the revoke made in haste? Either answer gives the same ruling." in ruling.to_text(explain=True).replace("\n  ", " ")
    assert ruling.next_question().id == Q1  # a yes settles Q2 too
    after_yes = ruling.answer({Q1: True})
    assert [q.id for q in after_yes.unknown] == [Q3] and after_yes.next_question() is None
    after_no = ruling.answer({Q1: False})
    assert after_no.next_question().id == Q2


TWO_QUESTIONS = "tests/data/house/two-questions.yaml"
"""A test house: T1 hangs on two questions at once; T2 applies if a question is answered no."""
SEEN, SPOKE, CLAIMED = ("euchre-T1-revokers-partner-see-card-led", "euchre-T1-revokers-partner-speak",
                        "euchre-T2-revoke-claimed-once")


def test_a_law_on_two_questions_and_a_law_on_a_no():
    ruled = rule_json(ESTABLISHED, "--house", TWO_QUESTIONS)
    by_id = {question["id"]: question for question in ruled["unknown"]}
    assert list(by_id) == [SEEN, SPOKE, CLAIMED]  # each question on its own, with its own id
    assert by_id[SEEN]["together_with"] == [SPOKE] and by_id[SPOKE]["together_with"] == [SEEN]
    # Each branch's laws (and, as the final scores differ, each branch's score: below for law 14's question).
    laws = lambda branch: {key: value for key, value in branch.items() if key != "score"}  # noqa: E731
    assert laws(by_id[SEEN]["if_so"]) == {"laws": ["T1"]} and laws(by_id[SEEN]["otherwise"]) == {"laws": []}
    assert laws(by_id[CLAIMED]["if_so"]) == {"laws": []} and laws(by_id[CLAIMED]["otherwise"]) == {"laws": ["T2"]}
    one = rule_json(ESTABLISHED, "--house", TWO_QUESTIONS, "--answer", f"{SEEN}=yes")
    assert "T1" not in [law["id"] for law in one["laws"]]  # still hangs on the other
    assert [question["id"] for question in one["unknown"]] == [SPOKE, CLAIMED]
    both = rule_json(ESTABLISHED, "--house", TWO_QUESTIONS, "--answer", f"{SEEN}=yes", "--answer", f"{SPOKE}=y",
                     "--answer", f"{CLAIMED}=no")
    assert [law["id"] for law in both["laws"]] == ["4", "62", "63", "64", "70", "T1", "T2"] and both["unknown"] == []
    seen_not = rule_json(ESTABLISHED, "--house", TWO_QUESTIONS, "--answer", f"{SEEN}=no")
    assert [question["id"] for question in seen_not["unknown"]] == [CLAIMED]  # the other is moot
    text = rule("--explain", "--house", TWO_QUESTIONS, ESTABLISHED).stdout.replace("\n  ", " ")
    assert f"[{SEEN}] Did the revoker's partner see the card led? If so (together with {SPOKE}), law T1 applies" \
        in text
    assert f"[{CLAIMED}] Was the revoke claimed at once? If so, law T2 does not apply; if not, it does." in text


def test_an_answer_given_again_replaces_the_first():
    ruling = adjudicate.rule(REVOKE, answers={"E-held-spade-trick-1": True})
    again = ruling.answer({"E-held-spade-trick-1": False})
    assert (again.law_ids, again.answers) == (["62"], {"E-held-spade-trick-1": False})


def test_the_api_answers_and_shows_the_answers_given():
    ruling = adjudicate.rule(SHUFFLE)
    assert list(ruling.questions) == SHUFFLE_IDS and ruling.answers == {}
    settled = ruling.answer({SHUFFLE_IDS[0]: True}).answer({SHUFFLE_IDS[1]: False})
    assert settled.answers == {SHUFFLE_IDS[0]: True, SHUFFLE_IDS[1]: False}
    assert settled.to_json()["answered"] == [
        {"id": SHUFFLE_IDS[0], "question": ruling.questions[SHUFFLE_IDS[0]].question, "answer": True},
        {"id": SHUFFLE_IDS[1], "question": ruling.questions[SHUFFLE_IDS[1]].question, "answer": False}]
    assert settled == adjudicate.rule(SHUFFLE, answers={SHUFFLE_IDS[1]: False, SHUFFLE_IDS[0]: True})


# --- --ask at a terminal --------------------------------------------------------------------------------

PROMPT = b"Answer [y/n]: "


def waiting_for_a_key(pid: int) -> bool:
    """Whether the process is blocked reading its terminal (fd 0), in read(2) or in a wait on it."""
    if not can_see_syscalls():  # pragma: no cover - no /proc: the prompt, printed, is the nearest event
        return True
    call = syscall(pid)
    return call is not None and call[1] in (0, 1)  # read(0, ...), or select/poll on the one descriptor


def at_terminal(args: list[str], replies: list[bytes], timeout: float = HANG) -> tuple[str, int]:
    """Run `adjudicate ARGS` in a pseudo-terminal, typing each reply at each prompt; its screen and exit code."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command, the pty its terminal, Ctrl-C as a shell would leave it
        try:
            as_at_a_terminal()
            os.execv(sys.executable, [sys.executable, "-m", "adjudicate", *args])
        finally:
            os._exit(127)
    screen = b""
    end = time.monotonic() + timeout
    pending = list(replies)

    def read() -> bool:
        nonlocal screen
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child is gone and its terminal closed
            return False
        screen += chunk
        return bool(chunk)

    try:
        while time.monotonic() < end:
            if pending and screen.endswith(PROMPT):
                # As a player would: once the command waits for his key, blocked reading the terminal (a Ctrl-C
                # before it reads is a signal that comes before Python's wait for the key).
                until(lambda: waiting_for_a_key(pid), "the command waiting for a key")
                os.write(fd, pending.pop(0))
                screen += b"<typed>"  # so the next prompt is a new one
            if not read():
                break
        else:
            raise AssertionError(f"the command did not finish: {screen.decode(errors='replace')}")
        _, status = os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    return screen.decode().replace("\r\n", "\n"), os.waitstatus_to_exitcode(status)


def test_ask_asks_the_question_and_gives_the_one_ruling():
    screen, code = at_terminal(["rule", "--ask", "--explain", "--color", "never", REVOKE], [b"y\r"])
    assert code == 0, screen
    assert screen.startswith("Did East hold a spade at trick 1? (his hand is not fully known)\n"
                             "  E-held-spade-trick-1: if so, laws 4, 62, 63, 64, 70 apply and law 66 no longer applies; "
                             "if not, law 62 applies and law 66 no longer applies\n"
                             "  Answer [y/n]: <typed>")
    assert "[E-held-spade-trick-1] yes: Did East hold a spade" in screen
    assert "Law 63. Penalty for a revoke" in screen and "OPEN QUESTIONS" not in screen


def test_ask_asks_each_question_that_matters_in_the_order_that_settles_the_most():
    screen, code = at_terminal(["rule", "--ask", "-v", "--color", "never", ESTABLISHED, "--house", TABLE_QUESTIONS],
                                 [b"n\r", b"y\r"])
    assert code == 0, screen
    asked = [line for line in screen.splitlines() if line.startswith("Did ") or line.startswith("Was ")]
    assert asked == ["Did the revoker's partner see the card led?", "Did the revoker apologise to the table?"]
    assert f"[{Q1}] no" in screen and f"[{Q2}] yes" in screen
    assert "Law Q2. Apology for a revoke" in screen
    assert "Was the revoke made in haste? Either answer gives the same" in screen  # listed, never asked
    moot, code = at_terminal(["rule", "--ask", "-v", "--color", "never", ESTABLISHED, "--house", TABLE_QUESTIONS],
                               [b"yes\r"])
    assert code == 0 and moot.count("Answer [y/n]") == 1  # a yes to Q1 makes Q2 moot
    assert "Law Q1. Revoke seen by the partner" in moot and "Law Q2. Apology" not in moot


def test_ask_asks_the_two_questions_of_the_shuffle_and_each_answer_counts():
    screen, code = at_terminal(["rule", "--ask", "-f", "json", SHUFFLE], [b"n\r", b"y\r"])
    assert code == 0, screen
    assert screen.count("Answer [y/n]") == 2
    (ruled,) = json.loads(screen[screen.index("\n[") + 1:])
    assert ruled["unknown"] == [] and len(ruled["answered"]) == 2
    # Law 68 applies whatever the answers: a revoke of the last hand is out of time once the pack is cut.
    assert sorted(law["id"] for law in ruled["laws"]) == sorted(
        [a["id"].split("-")[1] for a in ruled["answered"] if a["answer"]] + ["68"])


def test_ask_with_several_files_asks_each_in_turn_under_its_name():
    screen, code = at_terminal(["rule", "--ask", "-v", "--color", "never", REVOKE, ESTABLISHED, HONOURS],
                               [b"y\r", b"n\r"])
    assert code == 0, screen
    assert screen.startswith(f"{REVOKE}:\nDid East hold a spade at trick 1?")
    assert f"\n{HONOURS}:\nWere North and South at the point of eight" in screen
    assert f"{ESTABLISHED}:" not in screen  # it asks nothing
    assert "[E-held-spade-trick-1] yes" in screen and "[NS-at-the-point-of-eight] no" in screen


def test_a_reply_that_is_not_yes_or_no_is_asked_again():
    screen, code = at_terminal(["rule", "--ask", "-v", REVOKE], [b"perhaps\r", b"n\r"])
    assert code == 0 and "Error: invalid input" in screen
    assert "[E-held-spade-trick-1] no" in screen


def test_ctrl_c_at_the_prompt_ends_the_command_with_130_and_no_traceback():
    screen, code = at_terminal(["rule", "--ask", SHUFFLE], [b"y\r", b"\x03"])
    assert code == 130, screen
    assert "interrupted" in screen and "Traceback" not in screen and "RULING" not in screen.upper().split("ANSWER")[-1]


def test_the_end_of_input_at_the_prompt_stops_the_asking_and_rules_on_what_was_answered():
    screen, code = at_terminal(["rule", "--ask", "-v", "--color", "never", SHUFFLE], [b"y\r", b"\x04"])
    assert code == 0, screen
    assert "ANSWERED\n[euchre-27-card-seen-during-dealers-shuffling] yes" in screen
    assert "OPEN QUESTIONS" in screen and "Traceback" not in screen


def test_ask_with_answers_asks_only_what_is_left():
    screen, code = at_terminal(["rule", "--ask", SHUFFLE, "--answer", f"{SHUFFLE_IDS[0]}=no"], [b"n\r"])
    assert code == 0 and screen.count("Answer [y/n]") == 1
    assert screen.startswith("Was a card exposed in cutting")


def test_ask_without_a_terminal_rules_as_today_and_says_so_once():
    plain = subprocess.run([sys.executable, "-m", "adjudicate", "rule", REVOKE, SHUFFLE],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
    asked = subprocess.run([sys.executable, "-m", "adjudicate", "rule", "--ask", REVOKE, SHUFFLE],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert asked.returncode == 0 and asked.stdout == plain.stdout
    assert asked.stderr == ("note: --ask asks only on a terminal (standard input and output); the open questions "
                            "are listed in the ruling\n")
    answered = subprocess.run([sys.executable, "-m", "adjudicate", "rule", "--ask", REVOKE,
                               "--answer", "E-held-spade-trick-1=y"], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
    assert answered.returncode == 0 and answered.stderr == "" and "Asked at the table:" in answered.stdout


# --- check: expect.unknown may name the questions --------------------------------------------------------

def test_expect_unknown_may_name_question_ids_and_check_compares_them(tmp_path):
    text = Path(REVOKE).read_text(encoding="utf-8")
    assert 'unknown: ["4", "62", "63", "64", "70", E-held-spade-trick-1]' in text
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("E-held-spade-trick-1]", "E-held-spade-trick-2]"), encoding="utf-8")
    done = runner.invoke(app, ["check", str(wrong)])
    assert done.exit_code == 1
    assert (f"{wrong}:23:3: expect.unknown: expected the questions [E-held-spade-trick-2]; "
            "actual [E-held-spade-trick-1]") in done.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("E-held-spade-trick-1]", '"E held a spade"]'), encoding="utf-8")
    invalid = runner.invoke(app, ["check", str(bad)])
    assert invalid.exit_code == 2 and "is not a law id" in invalid.stdout + invalid.stderr


def test_the_replay_names_an_open_irregularity_s_question_by_the_id_rule_answers():
    """An irregularity the record leaves open carries its question's id in the replay too, so a script that
    replays first can answer with `rule --answer`."""
    (replayed,) = json.loads(runner.invoke(app, ["replay", "-f", "json", REVOKE]).stdout)
    (revoke,) = replayed["irregularities"]
    assert revoke["unknown_id"] == "E-held-spade-trick-1"
    assert revoke["unknown_id"] in {question["id"] for question in rule_json(REVOKE)["unknown"]}
    assert adjudicate.replay(REVOKE).irregularities[0].unknown_id == "E-held-spade-trick-1"


def test_a_question_whose_answers_score_differently_gives_each_score():
    # Long Whist 14: if the accused side mixed the cards after the claim they forfeit the revoke, and North and
    # South choose its penalty (law 11), the hand ended with the tricks as taken (none: three tricks take
    # nothing); if not, the claim came too soon (law 13) and the score stands.
    (mixed,) = rule_json("scenarios/long-whist/revoke-claimed-too-soon-then-cards-mixed.yaml")["unknown"]
    assert [outcome["after"] for outcome in mixed["if_so"]["score"]] == [
        {"NS": 5, "EW": 3}, {"NS": 2, "EW": 3}, {"NS": 2, "EW": 0}]
    assert [outcome["after"] for outcome in mixed["otherwise"]["score"]] == [{"NS": 2, "EW": 3}]
    text = rule("--explain", "scenarios/long-whist/revoke-claimed-too-soon-then-cards-mixed.yaml").stdout
    text = " ".join(text.split())
    assert "if not, laws 11 and 14 do not apply and law 13 still applies." in text
    assert "If not, the score: NS 2, EW 3." in text
    # Where neither answer gives a final score (no score before the hand), no score is said for either.
    (revoke,) = rule_json(REVOKE)["unknown"]
    assert "score" not in revoke["if_so"] and "score" not in revoke["otherwise"]
