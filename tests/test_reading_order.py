"""The reader builds its tree straight from libyaml's events: the refusal a file gets is still the one reading
the whole document first gave. libyaml's syntax errors and PyYAML's composer's (an undefined alias, an anchor
named twice, a second document) come before the reader's own refusals wherever they stand in the file; of the
reader's own, the first in the file's order; an alias is a copy of the value it names, counted again."""

from __future__ import annotations

import pytest

from adjudicate.errors import InputError
from adjudicate.record.yamlsource import MAX_NODES, parse_yaml


def _refusal(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    return str(caught.value)


@pytest.mark.parametrize("text, expected", [
    # a syntax error after a refusal of the reader's own is the one reported
    ("a: 1\na: 2\nb: [\n", "f.yaml:4:1: invalid YAML: did not find expected node content"),
    ("a: !!python/object 1\nb: 'unclosed\n", "invalid YAML: found unexpected end of stream"),
    # so are the composer's, after ours
    ("a: 1\na: 2\nb: *nowhere\n", "f.yaml:3:4: invalid YAML: found undefined alias"),
    ("a: 1\na: &x 2\nb: &x 3\n", "f.yaml:3:4: invalid YAML: second occurrence"),
    # the reader's own: the first in the file
    ("a: 1\nb: !!python/object 2\na: 3\n", "f.yaml:2:4: the YAML tag 'tag:yaml.org,2002:python/object' is not allowed"),
    ("a: 1\na: 2\nb: !!python/object 3\n", "f.yaml:2:1: duplicate key 'a' (first at line 1)"),
    ("? [a, b]\n: 1\na: 1\na: 2\n", "f.yaml:1:3: a key should be plain text, not a list"),
    ("? [a, !!binary x]\n: 1\n", "f.yaml:1:7: the YAML tag 'tag:yaml.org,2002:binary' is not allowed"),
    # an alias standing as a key is the text it names
    ("&k a: 1\n*k : 2\n", "f.yaml:1:1: duplicate key 'a' (first at line 1)"),
])
def test_the_refusal_is_the_one_reading_the_whole_document_first_gave(text, expected):
    assert expected in _refusal(text)


def test_an_alias_is_a_copy_of_what_it_names_where_it_stands():
    root = parse_yaml("a: &x {b: [1, 2]}\nc: *x\n", "f.yaml")
    first, copy = root.get("a"), root.get("c")
    assert first is not None and copy is not None and copy is not first
    assert copy.get("b").elements()[1].value == "2"  # type: ignore[union-attr]
    assert copy.pos == first.pos  # where the value was written


def test_values_an_alias_repeats_are_counted_again():
    wide = "[" + ", ".join(["1"] * (MAX_NODES // 2)) + "]"
    assert "more than 50,000 values" in _refusal(f"a: &x {wide}\nb: *x\n")
