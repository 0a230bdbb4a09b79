"""A read-only, ordered bag of names that behaves like a module (``tf.math``, ``tf.nn``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class Namespace:
    """A fixed set of public names with attribute access; assigning to it is refused."""

    __slots__ = ("_name", "_names")

    def __init__(self, name: str, names: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_names", dict(names))

    def __getattr__(self, attr: str) -> Any:
        try:
            return self._names[attr]
        except KeyError:
            raise AttributeError(f"{self._name} has no attribute {attr!r}") from None

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError(f"{self._name} is read-only")

    def __dir__(self) -> list[str]:
        return list(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, attr: object) -> bool:
        return attr in self._names

    def names(self) -> dict[str, Any]:
        """A copy of the name → object mapping, in order."""
        return dict(self._names)

    def __repr__(self) -> str:
        return f"<module '{self._name}'>"
