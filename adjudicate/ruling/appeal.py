"""The ruling record for appeals: what a ruling was made from, each input named by a digest of its bytes.

A club files a ruling; a player appeals it. Whoever hears the appeal reruns the scenario with the
same version of adjudicate and compares: the same version, the same digests (sha256, written
`sha256:<hex>`) of the rulebook, the house files and the scenario, and the same answers, give the
same ruling (docs/ruling-record.md). The record holds nothing that varies between runs: no time, no
path but those as they were written or given, the answers sorted by question id.

The bytes are those the loaders read anyway (a built-in rulebook's when its cache is checked, a
house file's, the scenario's): the record reads no file again, and they are digested only when a
record is asked for (`check` never asks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from msgspec import Struct

if TYPE_CHECKING:
    from adjudicate.ruling.decision import Decision
    from adjudicate.lawbook.rulebook import SourceFile

DIGEST_OF = {"file": "file bytes", "stream": "stream bytes", "text": "text as UTF-8",
             "mapping": "mapping as canonical JSON"}
"""What the scenario's digest is of, by how the scenario was given (the record's `scenario.of`)."""


class Given(Struct, frozen=True):
    """A scenario as it was given: how (`file`, `stream`, `text`, `mapping`) and the bytes its digest is of."""

    form: str
    data: bytes
    """A file's bytes as read; a text's UTF-8; a mapping's canonical JSON (`canonical_json`)."""


def canonical_json(value: Mapping[str, Any]) -> bytes:
    """A scenario given as a mapping of plain values, as JSON with its keys sorted and no spaces, in UTF-8.

    The values are those `yamlsource.node_of` admits (text, numbers, true and false, None, lists and
    tuples, mappings with text keys), checked there first: subclasses (a `str` enum's member) are
    written as the plain value they hold, a tuple as a list.
    """
    import json

    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, Mapping):
        return {str.__str__(key): _plain(item) for key, item in value.items()}
    return [_plain(item) for item in value]


def digest(data: bytes) -> str:
    """`sha256:<hex>` of the bytes."""
    return f"sha256:{_sha256(data).hexdigest()}"


def _sha256(data: bytes) -> Any:
    # CPython's own SHA-256 module imports in 0.2 ms; `hashlib` (OpenSSL) in 2 ms, a thirtieth of `rule`'s start.
    try:
        from _sha256 import sha256  # CPython 3.10, 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # CPython 3.12 and later
        except ImportError:  # another Python
            from hashlib import sha256
    return sha256(data)


def appeal_record(decision: "Decision", given: Given) -> dict[str, Any]:
    """The `record` block of `rule --format json`: the version, the code, the house, the scenario and the answers
    the decision was made with (its `answered`), by question id."""
    from adjudicate.version import __version__
    from adjudicate.lawbook.builtin import builtin_codes
    from adjudicate.lawbook.rulebook import sources_of

    sources = sources_of(decision.rulebook)
    houses = [source for source in sources if source.kind == "house"]
    code = next((source for source in sources if source.kind == "code"), None)
    scenario = decision.table.scenario
    return {
        "adjudicate": __version__,
        "code": {
            "id": decision.rulebook.code,
            # A code that is not a built-in one is the file the scenario's `code:` (or `code=`) names, as written.
            "name": code.name if code is not None and code.name in builtin_codes() else scenario.code,
            "builtin": code is not None and code.name in builtin_codes(),
            "digest": digest(code.data) if code is not None else None,
        },
        "house": _house_record(houses, decision.house),
        "scenario": {"digest": digest(given.data), "of": DIGEST_OF[given.form]},
        "answers": {qid: answer for qid, _question, answer in sorted(decision.answered)},
    }


def _house_record(houses: "list[SourceFile]", name: str | None) -> dict[str, Any] | None:
    if not houses or name is None:
        return None
    from adjudicate.lawbook.house import builtin_houses

    def entry(source: "SourceFile", named: str) -> dict[str, Any]:
        return {"id": source.id, "name": named, "builtin": named in builtin_houses(), "digest": digest(source.data)}

    top, *built_on = houses
    return {**entry(top, name), "builds_on": [entry(source, source.name) for source in built_on]}
