"""Searching the laws: which laws are about these words, best first.

Ranking is BM25 over each law's title, section, text (clauses included) and
notes, with the title and section counting for more, since a short heading that
names the thing is the best sign a law is about it. Words match in any form:
both the laws and the query are reduced to stems by the Snowball English
stemmer, so "revoking" finds "revoke" and "renounced" finds "renounce".
Ties are broken by code, then law number, so the same query gives the same order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterable

from msgspec import Struct

from adjudicate.errors import UsageError
from adjudicate.rulebook import Law

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


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The stem of one lower-case word: "revoking" -> "revok"."""
    return _stemmer().stemWord(word)


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


class LawIndex:
    """An index of some laws (one code's, or every code's) to search with BM25F.

    BM25F: a word's count in each field is discounted by how long that field is
    against the same field of the other laws, then weighted (`FIELD_WEIGHTS`) and
    summed, and the sum saturates (`K1`), so a word in a short title counts for
    much and the fortieth "card" in a long law for little.
    """

    def __init__(self, laws: Iterable[Law]):
        self.laws: tuple[Law, ...] = tuple(laws)
        counts: list[dict[str, Counter[str]]] = []
        lengths: list[dict[str, int]] = []
        df: Counter[str] = Counter()
        for law in self.laws:
            fields = {name: Counter(terms(text)) for name, text in _fields(law).items()}
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


def search(laws: Iterable[Law], query: str, limit: int | None = None) -> list[Hit]:
    """Search these laws for the query's words; see `LawIndex.search`."""
    return LawIndex(laws).search(query, limit)


def in_section(law: Law, query: str) -> bool:
    """Whether every word of the query, in any form, is in the law's section heading."""
    heading = set(terms(law.section, keep_stop_words=True))
    return all(term in heading for term in query_terms(query))
