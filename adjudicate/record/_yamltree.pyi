"""The native reader (`_yamltree.c`): a YAML text's positioned tree, built in C from libyaml's events."""

from typing import Callable

from adjudicate.record.yamlnode import Node

def build(text: str, path: str, /) -> Node | None: ...
def configure(node: type, pos: type, resolve: Callable[[str], str], starts: str, wildcard: bool,
              kinds: tuple[str, str, str], tags: tuple[str, str, str, str], allowed: frozenset[str],
              max_nodes: int, max_depth: int, cache_size: int, /) -> None: ...
