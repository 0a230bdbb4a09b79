"""What a tape records: :class:`OpRecord`, and ops recorded as columns (:class:`Rows`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from tapeviz.engine.primitives import Primitive

if TYPE_CHECKING:
    from tapeviz.engine.tensor import Tensor

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class OpRecord(NamedTuple):
    """One recorded op: plain, immutable data read by gradient(), the graph and the stepper.

    ``params`` holds numbers, strings, bools, None, DTypes and tuples of those (the one
    exception is ``custom_gradient``'s user gradient function); ``scope`` is the name scope the
    op ran in, outermost first (``("sequential", "dense")`` inside a Keras layer).
    """

    id: int
    primitive: Primitive
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    params: Mapping[str, Any]
    watched: bool
    scope: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The primitive's name (``"multiply"``)."""
        return self.primitive.name

    @property
    def input_ids(self) -> tuple[int, ...]:
        """Ids of the input tensors, in argument order."""
        return tuple(t.id for t in self.inputs)

    @property
    def output_ids(self) -> tuple[int, ...]:
        """Ids of the output tensors."""
        return tuple(t.id for t in self.outputs)

    @property
    def input_values(self) -> tuple[Any, ...]:
        """The numpy values the op read."""
        return tuple(t._value for t in self.inputs)

    @property
    def output_values(self) -> tuple[Any, ...]:
        """The numpy values the op produced."""
        return tuple(t._value for t in self.outputs)

    @property
    def output(self) -> Tensor:
        """The (first) output tensor."""
        return self.outputs[0]


FLAT = 6  # slots per op recorded as columns (see Recorder._pending)


def rows_of(flat: list[Any], start: int, stop: int, first_id: int) -> Iterator[OpRecord]:
    """The records of ``flat[start:stop]`` (whole ops), numbered from ``first_id``."""
    new, empty = tuple.__new__, _EMPTY
    n = first_id
    for i in range(start, stop, FLAT):
        prim, x, y, t, watched, scope = flat[i : i + FLAT]
        yield new(OpRecord, (n, prim, (x,) if y is None else (x, y), (t,), empty, watched, scope))
        n += 1


class Rows(Sequence[OpRecord]):
    """A recorder's ops at one moment, the ones recorded as columns made as they are read."""

    __slots__ = ("_n", "_pending", "_recs", "_size")

    def __init__(self, recs: list[OpRecord], flat: list[Any]) -> None:
        self._recs, self._pending = recs, flat
        self._n, self._size = len(recs), len(flat)  # (both lists may grow afterwards)

    def __len__(self) -> int:
        return self._n + self._size // FLAT

    def __iter__(self) -> Iterator[OpRecord]:
        recs = self._recs
        for i in range(self._n):
            yield recs[i]
        yield from rows_of(self._pending, 0, self._size, self._n)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("record index out of range")
        if index < self._n:
            return self._recs[index]
        at = (index - self._n) * FLAT
        return next(rows_of(self._pending, at, at + FLAT, index))
