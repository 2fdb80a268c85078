"""Searching the laws: which laws are about these words, best first.

Ranking is BM25 over each law's title, section, text (clauses included) and
notes, with the title and section counting for more, since a short heading that
names the thing is the best sign a law is about it. Words match in any form:
both the laws and the query are reduced to stems by the Snowball English
stemmer, so "revoking" finds "revoke" and "renounced" finds "renounce".
Ties are broken by code, then law number, so the same query gives the same order.

Stemming every built-in law is most of a search's work (~17 ms of ~27 ms), so the stems of the
built-in laws are counted once and kept beside the parsed rulebooks, in the rulebook cache's
folder (`rulebook.cache_dir`: ADJUDICATE_CACHE_DIR, or the platform's place; ADJUDICATE_NO_CACHE=1
turns it off). The file is used only while it was made from the same rulebook bytes, this module,
the same stemmer and version, and counts exactly the laws loaded; else it is made anew. It holds
numbers of stems, nothing else: a planted file could reorder a search, never change a law's text.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterable, Mapping

from msgspec import Struct

from adjudicate.errors import UsageError
from adjudicate.lawbook.cachefiles import read_cache_file, write_cache_file
from adjudicate.lawbook.rulebook import Law

FIELD_WEIGHTS = {"title": 3.0, "section": 2.0, "text": 1.0, "notes": 1.0}
"""How much a word counts in each field of a law (before BM25F's length discount)."""
K1 = 2.0
"""BM25: how soon more occurrences of a word stop adding to the score."""
B = 0.75
"""BM25F: how much a field longer than the same field of the average law is discounted."""

STOP_WORDS = frozenset("""
a an and are as at be been by do does for from had has have he her him his i if in into is it its
may must no not of on or she should so such than that the their them then there these they this
those to was were when which who whom will with would
""".split())
"""Words too common in the laws to tell one from another; not indexed, not searched for."""

_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # imported here: only searching needs it

    return snowballstemmer.stemmer("english")


_known_stems: dict[str, str] = {}
"""The stems of the built-in laws' words, read from the search cache: a query in the laws' own words needs
no stemmer (importing snowballstemmer, every language's, is ~8 ms)."""


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The stem of one lower-case word: "revoking" -> "revok"."""
    known = _known_stems.get(word)
    return known if known is not None else _stemmer().stemWord(word)


def words(text: str) -> list[str]:
    """The lower-case words of a text, markup (`_e.g._`) and punctuation dropped."""
    return _WORD.findall(text.lower())


def terms(text: str, keep_stop_words: bool = False) -> list[str]:
    """The stems of a text's words, stop words dropped unless asked to keep them."""
    return [stem(w) for w in words(text) if keep_stop_words or w not in STOP_WORDS]


SYNONYMS: dict[str, tuple[str, ...]] = {
    "renege": ("revoke",), "reneges": ("revoke",), "reneged": ("revoke",), "reneging": ("revoke",),
    "renig": ("revoke",), "renegue": ("revoke",),
    "jack": ("knave",), "jacks": ("knave",), "bower": ("knave",), "bowers": ("knave",),
    "loner": ("alone",), "solo": ("alone",),
}
"""Everyday words for what the codes say otherwise: a renege is a revoke, the jack the knave, a loner a lone hand."""


def query_terms(query: str) -> list[str]:
    """A query's distinct stems, in order, stop words dropped, everyday words read as the codes' own
    (`SYNONYMS`: "renege" searches for "revoke"); a `UsageError` if none are left."""
    found = terms(" ".join(" ".join(SYNONYMS.get(word, (word,))) for word in words(query)))
    if not found:
        raise UsageError(f"nothing to search for in {query!r}: give some words"
                         + (" less common than these" if words(query) else ""))
    return list(dict.fromkeys(found))


def _fields(law: Law) -> dict[str, str]:
    return {
        "title": law.title,
        "section": law.section,
        "text": law.text,  # the whole law as printed, clauses included
        "notes": "\n".join(note.text for note in law.notes),
    }


class Hit(Struct, frozen=True):
    """One law found by a search, with how well it matched."""

    law: Law
    """The law found."""
    score: float
    """Its BM25 score for the query: higher is better; only comparable within one search."""


Counts = dict[str, dict[str, int]]
"""One law's stems and how often each occurs, field by field (`FIELD_WEIGHTS`' names)."""


def law_counts(law: Law) -> Counts:
    """The stems of a law's fields, counted (stop words dropped)."""
    return {name: dict(Counter(terms(text))) for name, text in _fields(law).items()}


def law_key(law: Law) -> str:
    return f"{law.code}:{law.id}"


class LawIndex:
    """An index of some laws (one code's, or every code's) to search with BM25F.

    BM25F: a word's count in each field is discounted by how long that field is
    against the same field of the other laws, then weighted (`FIELD_WEIGHTS`) and
    summed, and the sum saturates (`K1`), so a word in a short title counts for
    much and the fortieth "card" in a long law for little.
    """

    def __init__(self, laws: Iterable[Law], counted: Mapping[str, Counts] | None = None):
        """`counted`: the stems of some of these laws already counted (`builtin_counts`), by `law_key`."""
        self.laws: tuple[Law, ...] = tuple(laws)
        counts: list[Counts] = []
        lengths: list[dict[str, int]] = []
        df: Counter[str] = Counter()
        for law in self.laws:
            fields = counted.get(law_key(law)) if counted is not None else None
            if fields is None:
                fields = law_counts(law)
            counts.append(fields)
            lengths.append({name: sum(c.values()) for name, c in fields.items()})
            df.update(set().union(*fields.values()))
        n = len(self.laws)
        average = {name: (sum(length[name] for length in lengths) / n if n else 0.0) or 1.0
                   for name in FIELD_WEIGHTS}
        self._tf: list[dict[str, float]] = []
        for fields, length in zip(counts, lengths):
            weighted: dict[str, float] = {}
            for name, counter in fields.items():
                factor = FIELD_WEIGHTS[name] / (1 - B + B * length[name] / average[name])
                for term, count in counter.items():
                    weighted[term] = weighted.get(term, 0.0) + count * factor
            self._tf.append(weighted)
        self._idf = {term: math.log(1 + (n - m + 0.5) / (m + 0.5)) for term, m in df.items()}

    def search(self, query: str, limit: int | None = None) -> list[Hit]:
        """The laws matching any word of the query, best first (score, then code, then number)."""
        wanted = query_terms(query)
        hits = []
        for law, tf in zip(self.laws, self._tf):
            score = 0.0
            for term in wanted:
                f = tf.get(term)
                if f:
                    score += self._idf[term] * f * (K1 + 1) / (f + K1)
            if score > 0:
                hits.append(Hit(law, round(score, 6)))
        hits.sort(key=lambda hit: (-hit.score, hit.law.code, hit.law.number))
        return hits if limit is None else hits[:limit]


def search(laws: Iterable[Law], query: str, limit: int | None = None,
           counted: Mapping[str, Counts] | None = None) -> list[Hit]:
    """Search these laws for the query's words; see `LawIndex.search`."""
    return LawIndex(laws, counted).search(query, limit)


# --- the built-in laws' stems, counted once -----------------------------------------------------------

_CACHE_MAGIC = b"adjudicate search index, msgpack 1\n"
"""More than this is no cache file of ours (it is ~55 KB): not read further."""


class _CountsCache(Struct, frozen=True):
    """What the search cache file holds after its header."""

    stamp: str
    """What the counts were made from (`_stamp`), compared whole."""
    counts: dict[str, Counts]
    """Each built-in law's counted stems, by `law_key`."""
    stems: dict[str, str]
    """The stem of each word of those laws."""


def search_cache_file() -> str | None:
    """The file the built-in laws' counted stems are kept in (one for this install), or None (no cache)."""
    from adjudicate.lawbook.cache import _install_tag, cache_dir

    base = cache_dir()
    return None if base is None else os.path.join(base, f"search-{_install_tag()}.msgpack")


def _stamp(laws: tuple[Law, ...]) -> str:
    """What counting these built-in laws' stems depends on: the version, the rulebooks' bytes, this module
    (its stop words) and the stemmer's."""
    import zlib

    from adjudicate.version import __version__
    from adjudicate.lawbook.builtin import _builtin_dir

    parts = [__version__]
    for code in sorted({law.code for law in laws}):
        data = (_builtin_dir() / f"{code}.yaml").read_bytes()
        parts.append(f"{code}:{len(data)}:{zlib.crc32(data):08x}")
    parts.append(_file_stamp(__file__))
    # The stemmer, found without importing it (that is what the cache saves): snowballstemmer's English
    # stemmer, or PyStemmer's, which snowballstemmer uses instead when it is installed.
    from importlib.util import find_spec

    for name in ("snowballstemmer", "Stemmer"):
        spec = find_spec(name)
        if spec is not None and spec.origin:
            parts.append(f"{name}:{_file_stamp(spec.origin)}")
            if name == "snowballstemmer":
                parts.append(_file_stamp(os.path.join(os.path.dirname(spec.origin), "english_stemmer.py")))
    return "\n".join(parts)


def _file_stamp(path: str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return f"{os.path.basename(path)}:missing"
    return f"{os.path.basename(path)}:{info.st_size}:{info.st_mtime_ns}"


def builtin_counts(laws: Iterable[Law]) -> dict[str, Counts]:
    """The counted stems of these built-in laws (every built-in code's, as `builtin_library` loads them):
    read from the search cache when it was made from the same files, else counted and the cache made anew."""
    import msgspec

    laws = tuple(laws)
    path = search_cache_file()
    stamp = _stamp(laws) if path is not None else ""
    wanted = {law_key(law) for law in laws}
    if path is not None:
        payload = read_cache_file(path, _CACHE_MAGIC)
        if payload is not None:
            try:
                cached = msgspec.msgpack.Decoder(_CountsCache).decode(payload)
            except (msgspec.DecodeError, msgspec.ValidationError):
                cached = None
            if cached is not None and cached.stamp == stamp and set(cached.counts) == wanted:
                _known_stems.update(cached.stems)
                return cached.counts
    counts = {law_key(law): law_counts(law) for law in laws}
    if path is not None:
        stems = {word: stem(word) for law in laws for text in _fields(law).values() for word in words(text)}
        _write(path, msgspec.msgpack.encode(_CountsCache(stamp, counts, dict(sorted(stems.items())))))
    return counts


def _write(path: str, payload: bytes) -> None:
    """Write the cache file atomically; nothing left behind where the disk says no."""
    write_cache_file(path, _CACHE_MAGIC, payload, prefix=".search-")


def in_section(law: Law, query: str) -> bool:
    """Whether every word of the query, in any form, is in the law's section heading."""
    heading = set(terms(law.section, keep_stop_words=True))
    return all(term in heading for term in query_terms(query))
