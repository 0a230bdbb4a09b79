"""A run's tapes turned into columns as they finish: the incremental half of ``results.encode``.

The worker hands each finished tape to an :class:`Encoder` while the script still runs (at
its checkpoints, ``server.TICK_S`` apart), so when a 10,000-tape script ends only its last
tapes are left to encode, and a streamed run's snapshots no longer encode the whole run again.

What can still change after a tape is encoded is left for the document: the values of
anything that is not a plain engine ``Tensor`` (see :mod:`table_rows`), and what is per tape
(its names, watches, fit marks). A tape that changed after it was encoded (a persistent tape
called again, a tape re-entered) makes the encoder unusable: the caller encodes the run
afresh. A finished tape waits a tick before it is encoded, so its gradient() calls come first.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import chain, compress, repeat, starmap
from typing import Any

import numpy as np

from tapeviz.engine.state import STATE
from tapeviz.engine.tape import GradientCall
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.process import op_columns as O
from tapeviz.sandbox.process import params as P
from tapeviz.sandbox.process.table_rows import Table, cat
from tapeviz.sandbox.process.wire import Writer


def _identities(held: list[tuple[Any, list[Any]]]) -> list[tuple[int, int]]:
    """Which lists each tape holds its ops in (a tape reset, or read as records, holds others)."""
    return [(id(made), id(flat)) for made, flat in held]


def _param_key(params: Any) -> Any:
    try:
        key = tuple(params.items())
        hash(key)
        return key
    except TypeError:  # an index array: no dedupe
        return None


class Encoder:
    """A run's finished tapes as columns, added a batch at a time (:meth:`add`)."""

    def __init__(self, threshold: int | None = None) -> None:
        self.table = Table(threshold)
        self.n = 0  # tapes encoded
        self._settled = 0  # tapes finished at the last add_finished()
        self.broken = False  # an add() failed: the run is encoded afresh
        self._seen: dict[str, list[int]] = {k: [] for k in ("tape", "records", "count", "calls")}
        self._cols: dict[str, list[np.ndarray]] = {
            k: [] for k in ("id", "prim", "watched", "param", "nin", "nout", "in", "out", "scope")
        }
        self.scope_names: dict[tuple[str, ...], int] = {}  # each op's name scope, numbered
        self.prims: dict[Any, int] = {}
        self._param_codes: dict[Any, int] = {}
        self.params: list[Any] = [None]  # code 0: no params
        self._calls: dict[str, list[Any]] = {
            k: [] for k in ("tape", "kind", "n", "targets", "sources", "results", "mask")
        }
        self.kinds: dict[str, int] = {}
        self.seeds: list[tuple[int, tuple[Any, ...]]] = []  # (call, output gradients given)
        self.n_calls = 0

    def add(self, tapes: Sequence[Any]) -> None:
        """Encode ``tapes[self.n:]`` (finished tapes; the ones before were added already)."""
        if len(tapes) > self.n:
            self._add_checked(tapes[self.n :])

    def add_finished(self, created: list[Any], limit: int) -> None:
        """Encode the run's finished tapes that were finished at the last call already.

        Finished: not the newest (it may still record) and before the first one still inside
        its ``with`` block; at most ``limit`` tapes in all (the run keeps no more). Waiting a
        call (a tick) lets a step's tapes get their gradient() calls first: a GAN's two tapes
        end their ``with`` blocks before either is asked (encoded in between, the run would be
        encoded afresh at its end).
        """
        stop = min(len(created) - 1, limit, self._settled)
        self._settled = len(created) - 1
        if stop <= self.n:
            return
        new = created[self.n : stop]
        entered = [id(r) for r in STATE.entered]
        if entered:
            ids = list(map(id, new))
            new = new[: min([ids.index(e) for e in entered if e in ids], default=len(new))]
        if new:
            self._add_checked(new)

    def _add_checked(self, tapes: Sequence[Any]) -> None:
        """:meth:`_add`; after a failure nothing more is added (the run is encoded afresh)."""
        if self.broken:
            return
        try:
            self._add(tapes)
        except Exception:
            self.broken = True
            raise

    def still(self, tapes: Sequence[Any]) -> bool:
        """Whether the tapes added so far are ``tapes``' first ones, unchanged since."""
        if self.broken or len(tapes) < self.n:
            return False
        recorders = list(tapes[: self.n])
        held = list(map(O.parts, recorders))
        calls = list(map(getattr, recorders, repeat("gradient_calls"), repeat(())))
        seen = self._seen
        return (
            list(map(id, recorders)) == seen["tape"]
            and _identities(held) == seen["records"]
            and list(starmap(O.count, held)) == seen["count"]
            and list(map(id, chain.from_iterable(calls))) == seen["calls"]
        )

    def _add(self, tapes: Sequence[Any]) -> None:
        recorders = list(tapes)
        held = list(map(O.parts, recorders))  # (what each holds, read as it is: no record made)
        calls = list(map(getattr, recorders, repeat("gradient_calls"), repeat(())))
        ops = O.gather(held)
        n = len(ops.prims)
        for p in dict.fromkeys(ops.prims):
            self.prims.setdefault(p, len(self.prims))
        cols = self._cols
        cols["id"].append(np.fromiter(ops.ids, np.int64, n))
        cols["prim"].append(np.fromiter(map(self.prims.__getitem__, ops.prims), np.int64, n))
        cols["watched"].append(np.fromiter(ops.watched, np.bool_, n))
        cols["param"].append(self._param_column(n, ops.params))
        cols["nin"].append(np.fromiter(ops.n_in, np.int64, n))
        cols["nout"].append(np.fromiter(ops.n_out, np.int64, n))
        cols["in"].append(self.table.rows(ops.inputs))
        cols["out"].append(self.table.rows(ops.outputs))
        if any(ops.scopes) or self.scope_names:  # (a loop outside any layer: no column)
            distinct = self.scope_names
            if not distinct:  # the ops before had no scope either
                cols["scope"].append(np.full(sum(map(len, cols["id"][:-1])), -1, np.int64))
            cols["scope"].append(np.fromiter(
                (-1 if not sc else distinct.setdefault(sc, len(distinct)) for sc in ops.scopes),
                np.int64, n))  # fmt: skip
        self._add_calls(calls)
        seen = self._seen
        seen["tape"] += map(id, recorders)
        seen["records"] += _identities(held)
        seen["count"] += starmap(O.count, held)
        seen["calls"] += map(id, chain.from_iterable(calls))
        self.table.flush()
        self.n += len(tapes)

    def _param_column(self, n: int, params: list[tuple[int, Any]]) -> np.ndarray:
        column = np.zeros(n, np.int64)
        codes = self._param_codes
        for k, p in params:  # the ops that have params
            key = _param_key(p)
            code = codes.get(key) if key is not None else None
            if code is None:
                code = len(self.params)
                self.params.append(p)
                if key is not None:
                    codes[key] = code
            column[k] = code
        return column

    def _add_calls(self, per_tape: list[Any]) -> None:
        """The tapes' gradient() calls (a 10,000-step loop makes 10,000), by C-level passes."""
        calls = list(chain.from_iterable(per_tape))
        if not calls:
            return
        if not all(map(operator.is_, map(type, calls), repeat(GradientCall))):
            calls = [GradientCall(c.kind, tuple(c.target_ids), tuple(c.source_ids),
                                  tuple(c.results), getattr(c, "seeds", None))
                     for c in calls]  # fmt: skip
        c = self._calls
        c["tape"].append(self.n + np.repeat(np.arange(len(per_tape)), list(map(len, per_tape))))
        kind_of, tids, sids, outs, given = zip(*calls, strict=True)
        for k in dict.fromkeys(kind_of):
            self.kinds.setdefault(k, len(self.kinds))
        c["kind"] += map(self.kinds.__getitem__, kind_of)
        c["targets"] += chain.from_iterable(tids)
        c["sources"] += chain.from_iterable(sids)
        c["n"] += zip(map(len, tids), map(len, sids), map(len, outs), strict=True)
        flat = list(chain.from_iterable(outs))
        mask = list(map(isinstance, flat, repeat(TensorLike)))
        c["mask"] += mask
        c["results"].append(self.table.rows(list(compress(flat, mask))))
        self.seeds += [(self.n_calls + k, g) for k, g in enumerate(given) if g is not None]
        self.n_calls += len(calls)

    def columns(self, writer: Writer) -> dict[str, Any]:
        """The records' and calls' columns (call after ``table.seal()``)."""
        cols, c, final = self._cols, self._calls, self.table.final
        n = np.array(c["n"], np.int64).reshape(-1, 3)
        results = np.full(len(c["mask"]), -1, np.int64)  # -1: a None result
        results[np.array(c["mask"], np.bool_)] = final(cat(c["results"]))
        return {
            "prims": [p.name for p in self.prims],
            "params": [{} if p is None else P.encode_params(p, writer) for p in self.params],
            **{k: writer.ints(cat(cols[k])) for k in ("id", "prim", "param", "nin", "nout")},
            "watched": writer.ints(cat(cols["watched"]).astype(np.int64)),
            "in": writer.ints(final(cat(cols["in"]))),
            "out": writer.ints(final(cat(cols["out"]))),
            "call_tape": writer.ints(cat(c["tape"])),
            "call_kinds": list(self.kinds),
            "call_kind": writer.ints(c["kind"]),
            "call_n_targets": writer.ints(n[:, 0]),
            "call_n_sources": writer.ints(n[:, 1]),
            "call_n_results": writer.ints(n[:, 2]),
            "call_targets": writer.ints(c["targets"]),
            "call_sources": writer.ints(c["sources"]),
            "call_seeds": [[k, [_seed(v, writer) for v in g]] for k, g in self.seeds],
            "call_results": writer.ints(results),
            **self._scope_columns(writer),
        }

    def _scope_columns(self, writer: Writer) -> dict[str, Any]:
        """Each record's name scope (``sequential/dense``), for a graph folded by layer."""
        if not self.scope_names:
            return {}
        names = ["/".join(sc)[:200] for sc in self.scope_names]
        return {"scope_names": names, "scope": writer.ints(cat(self._cols["scope"]))}

    def counts(self) -> list[int]:
        """How many ops each tape encoded so far holds."""
        return self._seen["count"]


def _seed(value: Any, writer: Writer) -> Any:
    """One output gradient of a call, as an array (None: that target was seeded with ones)."""
    if value is None:
        return None
    arr = np.asarray(value)
    return writer.array(arr) if arr.dtype.kind in "biuf" else None
