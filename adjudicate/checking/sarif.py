"""`adjudicate check --format sarif`: the check's findings as a SARIF 2.1.0 log, as GitHub code scanning reads it.

One run; the tool's `rules` are the kinds of finding `check` makes (a ruling that differs from the file's
`expect` block, a file that is not a valid scenario, a folder that could not be read, ...), always all of
them, in this order, so that a `ruleIndex` means the same in every log. Each problem `check` reports is
one result at its file, line and column (docs/ci.md, "SARIF"):

- a file's location is its path relative to the working directory, percent-encoded (a space, `#`, `%`,
  any byte that is not ASCII), against the base `%SRCROOT%` (the working directory, left for the reader
  to resolve, as GitHub does with the repository checked out); a path outside the working directory is
  an absolute `file:` URI; the scenario read from standard input is the run's one artifact with no URI
  at all, located by its index (it is `invocations[0].stdin` too);
- a problem with a file as a whole (it cannot be read) is placed on its first line: GitHub needs a line;
- `partialFingerprints` identify a result by its rule, its file's URI, its `expect` key (or, for an invalid
  file, its message) and how many such came before it in the file: not by its line, so a result keeps
  its identity (and its alert) when lines are added above it;
- the messages are `message.text` only, never markdown: they quote scenario files, which come from
  anyone; their control characters are escaped as everywhere (`adjudicate.escape.visible`).

House-rules files named on the command line are not results (nothing is wrong with them, and the
other formats only count them): each is a `note` among `invocations[0].toolExecutionNotifications`,
beside the coverage lines of `--coverage`. A link out of the folder given is a `warning` result, as
the github format's. `executionSuccessful` is false only when the check could not cover every file it
was given (a folder not read, a worker process that died, an internal error); a file found invalid is
a result of a check that ran.

No time, no machine, no absolute working directory: the same files give the same bytes.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Sequence
from urllib.parse import quote

from msgspec import Struct

from adjudicate.checking.batch import FAILED, FOLDER, HOUSE, INTERNAL, NOT_CHECKED, CodeCoverage, FileResult, Finding, \
    Skipped, CheckSummary, coverage_lines
from adjudicate.errors import STDIN
from adjudicate.escape import visible

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "adjudicateFinding/v1"
"""The key of the partial fingerprint (a versioned hierarchical string, SARIF 3.27.17). Not GitHub's own
`primaryLocationLineHash`, which its upload computes from the line's text and would refuse to find changed."""


class Kind(Struct, frozen=True):
    """A kind of finding: a SARIF reportingDescriptor."""

    id: str
    name: str
    level: str
    """error, warning or note."""
    short: str
    full: str
    help: str


RULES = (
    Kind("expectation-not-met", "ExpectationNotMet", "error",
         "The ruling differs from the file's `expect` block.",
         "adjudicate replayed and ruled the scenario, and some expectation of its `expect` block (trump, "
         "winners, irregularities, laws, include, not, unknown, remedies, not_applied, score) does not hold. "
         "The result stands on the expectation's key; its message gives what was expected and what the "
         "ruling gives, side by side.",
         "Either the scenario's `expect` block is wrong (correct it to what the laws give: `adjudicate rule "
         "FILE` prints the ruling with the reason for each law), or adjudicate rules the hand wrongly (a bug "
         "to report, with the file)."),
    Kind("invalid-scenario", "InvalidScenario", "error",
         "The file is not a valid scenario.",
         "adjudicate could not read, validate, replay or rule the file: invalid YAML, a key it does not know, "
         "a card not in the pack or in two places, a log entry that is no act, a house or rulebook file it "
         "may not read. The result stands where the problem is, and says what was expected.",
         "Correct the file at the line and column given (docs/writing-a-hand.md explains each key; "
         "`adjudicate schema` gives a JSON Schema for editors). A house-rules file belongs in a folder "
         "named `house/`, which `check` skips."),
    Kind("folder-not-read", "FolderNotRead", "error",
         "A folder could not be read; its files were not checked.",
         "adjudicate check could not list a folder below a path it was given (permission denied, a name too "
         "long), so the scenario files in it, if any, were not checked.",
         "Make the folder readable by the user running the check, or leave it out of the paths given."),
    Kind("not-checked", "NotChecked", "error",
         "The file was not checked: a worker process died.",
         "The worker process checking this file died before it finished (killed: out of memory, or a "
         "signal). The other files' results stand.",
         "Run the check again, with fewer processes (`--jobs`) or more memory; if it recurs on the same file, "
         "report it with the file."),
    Kind("internal-error", "InternalError", "error",
         "adjudicate met a bug while checking the file.",
         "An error inside adjudicate (not in the file) stopped it ruling this file or comparing its "
         "`expect` block. The other files' results stand.",
         "Report it, with the file and the message."),
    Kind("link-not-followed", "LinkNotFollowed", "warning",
         "A symbolic link out of the folder given was not followed.",
         "A symbolic link inside a folder given to `check` leads outside it; `check` does not follow such "
         "links, so that a scenario folder (from a pull request, say) cannot make it read files elsewhere.",
         "Replace the link by the file or folder itself, or give the place it leads to as a path of its own."),
)
RULE_INDEX = {kind.id: index for index, kind in enumerate(RULES)}

NOTIFICATIONS = (
    Kind("house-file-skipped", "HouseFileSkipped", "note",
         "A house-rules file named on the command line was skipped.",
         "A file under a folder named `house/` holds house rules, not a scenario; `check` counts it as "
         "skipped and does not check it.",
         "Nothing to do; `adjudicate lint FILE` checks a house-rules file."),
    Kind("coverage", "Coverage", "note",
         "Coverage of the laws by the scenarios checked (`--coverage`).",
         "For each code, the laws with a condition that no scenario checked applies, those raised only as "
         "open questions, and those with no near miss.",
         "Write scenarios for the laws listed."),
)
NOTIFICATION_INDEX = {kind.id: index for index, kind in enumerate(NOTIFICATIONS)}


def _descriptor(kind: Kind) -> dict[str, Any]:
    return {"id": kind.id, "name": kind.name, "shortDescription": {"text": kind.short},
            "fullDescription": {"text": kind.full}, "help": {"text": kind.help},
            "defaultConfiguration": {"level": kind.level}}


def _rule_of(result: FileResult) -> str:
    if result.status == FAILED:
        return "expectation-not-met"
    return {FOLDER: "folder-not-read", NOT_CHECKED: "not-checked", INTERNAL: "internal-error"}.get(
        result.cause or "", "invalid-scenario")


def uri_of(path: str, folder: bool = False) -> tuple[str, bool]:
    """(the URI of `path`, whether it is relative to the working directory, SRCROOT).

    Percent-encoded from the path's bytes (a name's undecodable bytes are its own bytes again), with `/`
    between its parts; a folder's ends in `/`.
    """
    from pathlib import Path

    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    inside = relative != os.pardir and not relative.startswith(os.pardir + os.sep)
    if inside:
        encoded = quote(os.fsencode("/".join(relative.split(os.sep))), safe="/")
    else:
        encoded = Path(absolute).as_uri()  # file:///..., a Windows drive's colon kept
    if folder and not encoded.endswith("/"):
        encoded += "/"
    return encoded, inside


def _artifact(path: str, folder: bool, streams: dict[str, int]) -> dict[str, Any]:
    if path in streams:
        return {"index": streams[path]}
    uri, relative = uri_of(path, folder)
    return {"uri": uri, "uriBaseId": SRCROOT} if relative else {"uri": uri}


def _location(path: str, line: int, column: int, streams: dict[str, int], folder: bool = False) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact(path, folder, streams)}
    if line > 0:
        physical["region"] = {"startLine": line, **({"startColumn": column} if column > 0 else {})}
    elif not folder:
        physical["region"] = {"startLine": 1}
    return {"physicalLocation": physical}


def _fingerprint(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _result(rule: str, finding: Finding, seen: dict[tuple[str, ...], int], streams: dict[str, int],
            folder: bool = False) -> dict[str, Any]:
    kind = RULES[RULE_INDEX[rule]]
    location = _location(finding.path, finding.line, finding.column, streams, folder)
    # The file as its URI (`scenarios/x.yaml`, however the path was written) or the stream's name.
    where = location["physicalLocation"]["artifactLocation"].get("uri", finding.path)
    identity = (rule, where, finding.key if finding.key is not None else finding.message)
    seen[identity] = count = seen.get(identity, 0) + 1
    result: dict[str, Any] = {
        "ruleId": rule, "ruleIndex": RULE_INDEX[rule], "level": kind.level,
        "message": {"text": visible(finding.message)},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT: _fingerprint(*identity, str(count))},
    }
    if finding.key is not None:
        result["properties"] = {"key": finding.key, "expected": finding.expected, "actual": finding.actual}
    return result


def render_sarif(results: Sequence[FileResult], summary: CheckSummary, report: Sequence[CodeCoverage] | None,
                 skipped: Sequence[Skipped] = (), *, version: str) -> dict[str, Any]:
    """The SARIF log of a check, as data (printed by `adjudicate.cli.common.dump_json`)."""
    seen: dict[tuple[str, ...], int] = {}
    streams = {result.path: index for index, result in enumerate(r for r in results if r.stream)}
    found = [_result(_rule_of(result), finding, seen, streams, result.cause == FOLDER)
             for result in results for finding in result.findings]
    found.extend(_result("link-not-followed", Finding(item.path, 0, 0, f"skipped: {item.reason}"), seen, {})
                 for item in skipped if item.kind != HOUSE)
    notes: list[dict[str, Any]] = [
        {"descriptor": {"id": "house-file-skipped", "index": NOTIFICATION_INDEX["house-file-skipped"]},
         "level": "note", "message": {"text": visible(f"skipped: {item.reason}")},
         "locations": [_location(item.path, 0, 0, {})]}
        for item in skipped if item.kind == HOUSE]
    if report is not None:
        notes.extend({"descriptor": {"id": "coverage", "index": NOTIFICATION_INDEX["coverage"]}, "level": "note",
                      "message": {"text": line}} for line in coverage_lines(report))
    invocation: dict[str, Any] = {
        "executionSuccessful": not (summary.unreadable or summary.not_checked
                                    or any(result.cause == INTERNAL for result in results)),
        "exitCode": summary.exit_code,
        "exitCodeDescription": {0: "every file passed", 1: "some ruling differs from its file's expect block",
                                2: "some file is invalid or could not be checked"}[summary.exit_code],
    }
    if STDIN in streams:
        invocation["stdin"] = {"index": streams[STDIN]}
    if notes:
        invocation["toolExecutionNotifications"] = notes
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "adjudicate", "version": version, "semanticVersion": version,
                            "rules": [_descriptor(kind) for kind in RULES],
                            "notifications": [_descriptor(kind) for kind in NOTIFICATIONS]}},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"description": {
            "text": "The working directory adjudicate check ran in (in CI, the repository checked out)."}}},
    }
    if streams:
        run["artifacts"] = [{"location": {"index": index}, "roles": ["analysisTarget", "standardStream"],
                             "description": {"text": "The scenario read from standard input (`-`)." if name == STDIN
                                             else f"A scenario read from a stream, {visible(name)}."}}
                            for name, index in streams.items()]
    run["results"] = found
    run["columnKind"] = "unicodeCodePoints"
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
