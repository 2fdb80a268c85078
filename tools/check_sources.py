#!/usr/bin/env python3
"""Check the rulebook YAML files against the source texts.

    python3 tools/check_sources.py [SOURCES_DIR]      # default: ../shared/sources

Loads adjudicate/rulebooks/{euchre,short-whist,long-whist}.yaml with
yaml.safe_load and checks, comparing texts after normalising whitespace:

- every law's text equals the source's text of that law, and its section the
  heading it stands under;
- every clause's text occurs in its law's text, and the clauses are the ones the
  source numbers;
- every note's text equals the source's footnote, its marker is in the law's
  text, and every footnote [1]-[36] of Short Whist is kept exactly once;
- the ids are complete (Euchre 1-116, Short Whist 1-91, Long Whist 7-25) and
  unique, and every ref (law or note) resolves ("44.IV" = law 44, clause IV);
- the required keys are there, kinds are known, subjects are dotted names of
  the vocabulary, and every Long Whist law has a counterpart (a shared subject)
  in another code.

The source parsing here is deliberately separate from tools/import_sources.py:
the YAML is edited by hand after the import, and this script is what says it
still quotes the sources. Prints a summary; exits 1 on any mismatch.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT / "adjudicate" / "rulebooks"

CODES = {
    # code: (source file, expected ids, end of the laws, footnotes heading)
    "euchre": ("euchre-code.txt", range(1, 117), "TECHNICAL TERMS USED IN EUCHRE.", None),
    "short-whist": ("short-whist-laws.txt", range(1, 92), "FOOTNOTES:", "FOOTNOTES:"),
    "long-whist": ("long-whist-laws.txt", range(7, 26), None, None),
}
FOOTNOTES_END = "ETIQUETTE OF WHIST."

CLAUSES = {
    ("euchre", "42"): "I II",
    ("euchre", "46"): "I II III",
    ("short-whist", "3"): "I II III",
    ("short-whist", "8"): "I II III",
    ("short-whist", "37"): "I II",
    ("short-whist", "44"): "I II III IV V VI VII",
    ("short-whist", "56"): "I II",
    ("short-whist", "72"): "I II III IV V",
}

META_KEYS = ("code", "title", "authors", "club", "year", "edition", "source", "game", "laws")
LAW_KEYS = ("id", "section", "title", "kind", "subjects", "refs", "text")
KINDS = {"definition", "scoring", "procedure", "penalty", "ruling", "etiquette"}

VOCABULARY = set("""
rubber scoring.points scoring.honours scoring.game-value scoring.error scoring.precedence
cutting table.formation table.cutting-ties table.cutting-out table.entry shuffling
deal.rotation deal.cut deal.out-of-turn deal.wrong-pack new-deal new-deal.exposed-card
misdeal misdeal.definition misdeal.interruption trump-card exposed-cards
exposed-cards.definition exposed-cards.call-repeated winning-card-led-again
hands-thrown-down hands-abandoned detached-card lead-out-of-turn lead-out-of-turn.followed
called-card.not-complied called-card.no-revoke-compelled called-suit.none-held
play-out-of-turn play-out-of-turn.third-before-second play-out-of-turn.fourth-before-partner
omitted-play two-cards-one-trick revoke.definition revoke.penalty revoke.established
revoke.question revoke.search revoke.mixing revoke.claim-time revoke.corrected
revoke.play-out revoke.both-sides revoke.game-limit revoke.bets new-cards torn-cards
making-trump discard wrong-number-of-cards lone-hand calling-attention cards-placed
penalty.consultation penalty.time-to-decide last-trick bystanders honours.calling etiquette
""".split())
SUBJECT_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[a-z]+(?:-[a-z]+)*)*$")


def norm(text: str) -> str:
    return " ".join(str(text).split())


def source_laws(path: Path, code: str, end: str | None, notes_heading: str | None):
    """{id: (heading, normalised text)}, {mark: normalised footnote text}."""
    text = path.read_text(encoding="utf-8")
    body = re.split(r"(?m)^={5,}\s*$", text, maxsplit=1)[1]
    lines = body.split("\n")
    laws: dict[str, tuple[str, list[str]]] = {}
    notes: dict[str, list[str]] = {}
    heading = ""
    cur: list[str] | None = None
    in_notes = False
    for line in lines:
        if code == "long-whist":
            h = re.match(r"^\d{4}\. (.+)$", line)
            h = h.group(1) if h else None
        else:
            h = line.strip() if line and line == line.upper() and re.search("[A-Z]", line) \
                and not line[0].isspace() and not line[0].isdigit() else None
        if h is not None:
            cur = None
            if in_notes and h == FOOTNOTES_END:
                break
            if h == end or (notes_heading and h == notes_heading):
                if notes_heading and h == notes_heading:
                    in_notes = True
                    continue
                break
            heading = h
            continue
        m = re.match(r"^\[(\d+)\] (.*)$", line) if in_notes else re.match(r"^(\d+)\. (.*)$", line)
        if m:
            cur = [m.group(2)]
            if in_notes:
                notes[m.group(1)] = cur
            else:
                laws[m.group(1)] = (heading, cur)
        elif cur is not None:
            cur.append(line)
    return (
        {k: (title_case(h), norm("\n".join(v))) for k, (h, v) in laws.items()},
        {k: norm("\n".join(v)) for k, v in notes.items()},
    )


def title_case(heading: str) -> str:
    heading = heading.strip().rstrip(".:")
    if heading != heading.upper():
        return heading  # Long Whist headings are already in title case
    return " ".join(w.capitalize() for w in heading.split(" "))


def main(argv: list[str]) -> int:
    sources = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "sources"
    errors: list[str] = []
    books: dict[str, dict] = {}
    counts: dict[str, dict[str, int]] = {}

    def err(code: str, where: str, msg: str) -> None:
        errors.append(f"{code} {where}: {msg}")

    for code, (fname, ids, end, notes_heading) in CODES.items():
        path = BOOKS / f"{code}.yaml"
        try:
            book = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as e:
            err(code, str(path), f"cannot load: {e}")
            continue
        books[code] = book
        src_laws, src_notes = source_laws(sources / fname, code, end, notes_heading)
        if sorted(src_laws, key=int) != [str(i) for i in ids]:
            err(code, fname, f"source law ids are not {ids.start}-{ids.stop - 1}")

        for key in META_KEYS:
            if key not in book:
                err(code, "metadata", f"missing key {key!r}")
        if book.get("code") != code:
            err(code, "metadata", f"code is {book.get('code')!r}")
        laws = book.get("laws") or []
        by_id: dict[str, dict] = {}
        for law in laws:
            lid = law.get("id")
            if not isinstance(lid, str):
                err(code, repr(lid), "id is not a string")
                continue
            if lid in by_id:
                err(code, lid, "duplicate id")
            by_id[lid] = law
        want_ids = [str(i) for i in ids]
        if list(by_id) != want_ids:
            missing = [i for i in want_ids if i not in by_id]
            extra = [i for i in by_id if i not in want_ids]
            err(code, "ids", f"not {ids.start}-{ids.stop - 1} in order; missing {missing}, extra {extra}")

        n_clauses = n_notes = n_refs = 0
        marks_seen: list[str] = []
        for lid, law in by_id.items():
            for key in LAW_KEYS:
                if key not in law:
                    err(code, lid, f"missing key {key!r}")
            text = law.get("text", "")
            if lid in src_laws:
                heading, src_text = src_laws[lid]
                if norm(text) != src_text:
                    err(code, lid, "text differs from the source:\n    yaml:   "
                        + norm(text) + "\n    source: " + src_text)
                if law.get("section") != heading:
                    err(code, lid, f"section {law.get('section')!r}, source heading {heading!r}")
            if law.get("kind") not in KINDS:
                err(code, lid, f"unknown kind {law.get('kind')!r}")
            if not law.get("title"):
                err(code, lid, "empty title")
            subjects = law.get("subjects") or []
            if not subjects:
                err(code, lid, "no subjects")
            for s in subjects:
                if not isinstance(s, str) or not SUBJECT_RE.match(s):
                    err(code, lid, f"subject {s!r} is not a dotted name")
                elif s not in VOCABULARY:
                    err(code, lid, f"subject {s!r} is not in the vocabulary")
            clauses = law.get("clauses") or []
            got = " ".join(str(c.get("id")) for c in clauses)
            if got != CLAUSES.get((code, lid), ""):
                err(code, lid, f"clauses [{got}], expected [{CLAUSES.get((code, lid), '')}]")
            for c in clauses:
                n_clauses += 1
                if norm(c.get("text", "")) not in norm(text) or not norm(c.get("text", "")):
                    err(code, f"{lid}.{c.get('id')}", "clause text does not occur in the law's text")
            for n in law.get("notes") or []:
                n_notes += 1
                mark = n.get("mark")
                marks_seen.append(mark)
                if not isinstance(mark, str) or f"[{mark}]" not in text:
                    err(code, lid, f"note {mark!r}: marker not in the law's text")
                if mark not in src_notes:
                    err(code, lid, f"note {mark!r}: no such footnote in the source")
                elif norm(n.get("text", "")) != src_notes[mark]:
                    err(code, lid, f"note {mark}: text differs from the source footnote")
                if not n.get("by"):
                    err(code, lid, f"note {mark}: no 'by'")
            # refs resolve
            all_refs = [("", r) for r in law.get("refs", [])]
            all_refs += [(f" note {n.get('mark')}", r) for n in law.get("notes") or [] for r in n.get("refs", [])]
            for where, ref in all_refs:
                n_refs += 1
                if not isinstance(ref, str):
                    err(code, lid + where, f"ref {ref!r} is not a string")
                    continue
                target_id, _, clause = ref.partition(".")
                target = by_id.get(target_id)
                if target is None:
                    err(code, lid + where, f"ref {ref} does not resolve")
                elif clause and clause not in [c.get("id") for c in target.get("clauses") or []]:
                    err(code, lid + where, f"ref {ref}: law {target_id} has no clause {clause}")
                if not where and target_id == lid:
                    err(code, lid, "refs itself")
        # each footnote of the source kept once
        if src_notes or marks_seen:
            if sorted(marks_seen, key=int) != sorted(src_notes, key=int):
                err(code, "notes", f"marks {sorted(marks_seen, key=int)} != source {sorted(src_notes, key=int)}")
        for lid in src_laws:
            if lid not in by_id:
                err(code, lid, "in the source but not in the rulebook")
        counts[code] = {"laws": len(by_id), "clauses": n_clauses, "notes": n_notes, "refs": n_refs}

    # counterparts: every Long Whist law shares a subject with another code
    if "long-whist" in books:
        others: dict[str, list[str]] = {}
        for code, book in books.items():
            if code == "long-whist":
                continue
            for law in book.get("laws") or []:
                for s in law.get("subjects") or []:
                    others.setdefault(s, []).append(f"{code}:{law.get('id')}")
        for law in books["long-whist"].get("laws") or []:
            if not any(s in others for s in law.get("subjects") or []):
                err("long-whist", str(law.get("id")), "no counterpart in another code")

    total = 0
    for code, c in counts.items():
        total += c["laws"]
        print(f"{code:12} {c['laws']:4} laws  {c['clauses']:3} clauses  {c['notes']:3} notes  {c['refs']:3} refs")
    print(f"{'total':12} {total:4} laws")
    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    print("OK: every text, clause and note matches the sources; ids complete; every ref resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
