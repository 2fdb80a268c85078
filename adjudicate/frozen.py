"""FrozenDict: the mapping inside the library's records (a score by side, an irregularity's details), which
cannot be changed and is hashable, so that the records are immutable and hashable throughout."""

from __future__ import annotations

from typing import Any, Mapping, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A mapping inside a record (a score by side, an irregularity's details, the answers given): a `dict` that
    cannot be changed, and is hashable, so that the records holding it are immutable and hashable throughout.
    Its values are frozen too (lists as tuples, mappings as FrozenDicts)."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def _refused(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{type(self).__name__} cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refused

    def __reduce__(self) -> Any:
        return (type(self), (dict(self),))


def frozen(value: Any) -> Any:
    """A value read from data with every mapping in it a FrozenDict and every list a tuple."""
    if isinstance(value, Mapping):
        return FrozenDict({key: frozen(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(item) for item in value)
    return value
