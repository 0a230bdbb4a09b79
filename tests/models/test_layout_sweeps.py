"""The ordering sweeps stop at a fixed point and skip lone nodes: the same rows as every sweep."""

from __future__ import annotations

import itertools
import random

import pytest

from tapeviz.models.graph import layout


def every_sweep(ids: list, layer: dict, preds: dict, succs: dict, sweeps: int) -> list:
    """The barycenter ordering as it was: every sweep over every row, all run."""
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for n in ids:
        rows[layer[n]].append(n)
    pos = {n: i for row in rows for i, n in enumerate(row)}

    def sweep(order: range, neighbours: dict) -> None:
        for li in order:
            keyed = []
            for i, n in enumerate(rows[li]):
                near = [pos[m] for m in neighbours[n]]
                keyed.append((sum(near) / len(near) if near else pos[n], i, n))
            keyed.sort()
            rows[li] = [n for _, _, n in keyed]
            for i, n in enumerate(rows[li]):
                pos[n] = i

    for _ in range(sweeps):
        sweep(range(1, len(rows)), preds)
        sweep(range(len(rows) - 2, -1, -1), succs)
    return rows


def random_dag(seed: int, n: int) -> tuple[list[str], list[tuple[str, str]]]:
    rng = random.Random(seed)
    ids = [f"n{k}" for k in range(n)]
    edges = []
    for k in range(1, n):
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            edges.append((ids[rng.randrange(max(0, k - 12), k)], ids[k]))
    return ids, edges


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("sweeps", [1, 4, 9])
def test_the_rows_are_those_of_every_sweep_run(seed: int, sweeps: int) -> None:
    ids, edges = random_dag(seed, 15 + 11 * seed)
    preds, succs = layout._neighbours(ids, edges)
    layer = layout._layers(ids, preds, succs)
    want = every_sweep(ids, layer, preds, succs, sweeps)
    assert layout._order(ids, layer, preds, succs, None, sweeps) == want


def test_a_long_chain_with_a_constant_into_each_op() -> None:
    ids = [f"n{k}" for k in range(2000)]
    edges = [(a, b) for a, b in itertools.pairwise(ids)]
    ids += [f"c{k}" for k in range(1, 2000)]  # a constant into each op, as y * 1.0001 has
    edges += [(f"c{k}", f"n{k}") for k in range(1, 2000)]
    preds, succs = layout._neighbours(ids, edges)
    layer = layout._layers(ids, preds, succs)
    rows = layout._order(ids, layer, preds, succs, None, 4)
    assert rows == every_sweep(ids, layer, preds, succs, 4)
