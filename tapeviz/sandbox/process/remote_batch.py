"""Many rows of a received tensor table made into tensors at once (a big tape's records).

A 20,000-op tape names 60,000 rows; made one by one (a buffer view, a reshape, a name looked
up, per row) that took the window ~0.5 s. Here the scalar rows' values are read with one
gather per dtype and their names with one search; each row's tensor is then the same object
:meth:`~tapeviz.sandbox.process.remote.TensorTable.tensor` makes (a numpy scalar value; a
Variable registered as such), made in the order the rows are first named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MIN_BATCH = 64  # fewer rows than this are made one by one (the gathers would cost more)


def make_rows(table: Any, rows: Sequence[int]) -> None:
    """Make the tensors of ``rows`` not made yet (first use first), as ``table.tensor`` would.

    ``table`` is a :class:`~tapeviz.sandbox.process.remote.TensorTable` (which imports this).
    """
    objs = table._objs
    todo = [r for r in dict.fromkeys(rows) if r not in objs]
    if len(todo) < MIN_BATCH:
        for r in todo:
            table.tensor(r)
        return
    at = np.asarray(todo, np.int64)
    values: list[Any] = [None] * len(todo)
    zero_d = table.dim_offsets[at + 1] == table.dim_offsets[at]
    nbytes = table.offsets[at + 1] - table.offsets[at]
    scalar = np.zeros(len(todo), np.bool_)
    for sel, dt in table._by_dtype(at):
        sel = sel[zero_d[sel] & (nbytes[sel] == dt.itemsize)]
        if len(sel):
            scalar[sel] = True
            picked = table.gather(table.offsets[at[sel]], dt)
            for pos, v in zip(sel.tolist(), picked, strict=True):
                values[pos] = v  # (a numpy scalar of the row's dtype, as freeze makes it)
    for pos in np.flatnonzero(~scalar).tolist():
        values[pos] = table.value(todo[pos])
    names = table.names.get_many(at)
    for r, value, name, tid, kind, code in zip(
        todo, values, names, table.ids[at].tolist(), table.kinds[at].tolist(),
        table.codes[at].tolist(), strict=True,
    ):  # fmt: skip
        table.make(r, value, name, tid, kind, code)
