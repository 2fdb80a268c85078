"""adjudicate: a rules lawyer for the card table.

The pipeline (DESIGN.md): a scenario file is loaded (`scenario`), replayed at a
table (`table`), its irregularities found (`facts`), matched against a code's
laws (`rulebook`, `matcher`) and rendered (`report`). The CLI (`cli`) only parses
arguments and calls these.
"""

__version__ = "0.1.0"
