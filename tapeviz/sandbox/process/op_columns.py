"""A batch of tapes' ops gathered as columns, read as the engine keeps them (no records made).

A tape holds its ops in two parts (``Recorder.parts``): the records made so far (ops the
general path recorded, or read as records), then the ops the elementwise fast path recorded as
columns, ``FLAT`` slots per op. The encoder used to read ``records``, which made an
:class:`~tapeviz.engine.core.OpRecord` of every column op and kept it on the tape (a
10,000-step loop: 60,000 records made and kept while the script ran). :func:`gather` reads both
parts as they are, in the same order, and gives what the records would have given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, compress, repeat
from operator import add, attrgetter, floordiv, is_not
from typing import Any

from tapeviz.engine.records import FLAT

_PRIM, _INPUTS, _OUTPUTS = attrgetter("primitive"), attrgetter("inputs"), attrgetter("outputs")
_WATCHED, _PARAMS, _ID = attrgetter("watched"), attrgetter("params"), attrgetter("id")
_SCOPE = attrgetter("scope")
NO_COLUMNS: list[Any] = []  # (the same empty list every time: the encoder compares them; read only)


def parts(tape: Any) -> tuple[Sequence[Any], list[Any]]:
    """A tape's made records and its column ops after them (without columns: all records)."""
    get = getattr(tape, "parts", None)
    return get() if get is not None else (tape.records, NO_COLUMNS)  # type: ignore[no-any-return]


def count(made: Sequence[Any], flat: list[Any]) -> int:
    """How many ops the two parts hold."""
    return len(made) + len(flat) // FLAT


class Ops:
    """The ops of a batch of tapes, in order, as plain lists (one entry per op or per tensor)."""

    def __init__(self) -> None:
        self.prims: list[Any] = []  # primitive objects
        self.ids: list[int] = []  # the op's number in its tape
        self.watched: list[bool] = []
        self.n_in: list[int] = []
        self.n_out: list[int] = []
        self.inputs: list[Any] = []  # every op's inputs, flattened
        self.outputs: list[Any] = []
        self.params: list[tuple[int, Any]] = []  # (op, params) for the ops that have params
        self.scopes: list[tuple[str, ...]] = []  # each op's name scope (``("sequential",)``)

    def records(self, made: Sequence[Any]) -> None:
        """Append ops read from their records."""
        first = len(self.prims)
        self.prims += map(_PRIM, made)
        self.ids += map(_ID, made)
        self.watched += map(_WATCHED, made)
        self.scopes += map(_SCOPE, made)
        ins, outs = list(map(_INPUTS, made)), list(map(_OUTPUTS, made))
        self.n_in += map(len, ins)
        self.n_out += map(len, outs)
        self.inputs += chain.from_iterable(ins)
        self.outputs += chain.from_iterable(outs)
        params = list(map(_PARAMS, made))
        which = compress(range(first, first + len(made)), params)
        self.params += zip(which, compress(params, params), strict=True)

    def columns(self, flat: list[Any], ids: Iterable[int]) -> None:
        """Append ops recorded as columns (``FLAT`` slots each), numbered ``ids`` in their tapes."""
        xs, ys = flat[1::FLAT], flat[2::FLAT]
        two = list(map(is_not, ys, repeat(None)))  # a second input (else a unary op)
        self.prims += flat[0::FLAT]
        self.ids += ids
        self.watched += flat[4::FLAT]
        self.scopes += flat[5::FLAT]
        self.n_in += map(add, two, repeat(1))
        self.n_out += repeat(1, len(xs))
        pairs = chain.from_iterable(zip(xs, ys, strict=True))
        self.inputs += compress(pairs, chain.from_iterable(zip(repeat(True), two)))
        self.outputs += flat[3::FLAT]


def gather(held: Sequence[tuple[Sequence[Any], list[Any]]]) -> Ops:
    """The ops of tapes held as ``parts`` gives them, tape by tape (each: records, then columns)."""
    ops = Ops()
    if not any(flat for _, flat in held):  # (records only, or columns only: one pass for all)
        ops.records(list(chain.from_iterable(made for made, _ in held)))
    elif not any(made for made, _ in held):
        flats = [flat for _, flat in held]
        ids = chain.from_iterable(map(range, map(floordiv, map(len, flats), repeat(FLAT))))
        ops.columns(list(chain.from_iterable(flats)), ids)
    else:
        for made, flat in held:
            if made:
                ops.records(made)
            if flat:
                ops.columns(flat, range(len(made), count(made, flat)))
    return ops
