"""The received table's names as columns read like the ``{row: name}`` dict they replace."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tapeviz.sandbox.process.row_names import RowNames, compact


def test_row_names_read_as_the_dict_of_the_same_columns() -> None:
    rng = np.random.default_rng(3)
    rows = rng.permutation(5000)[:1200]
    texts = ["Variable:0", "dense/kernel:0", "w:0"]
    index = rng.integers(0, 3, len(rows))
    want = dict(zip(rows.tolist(), [texts[i] for i in index.tolist()], strict=True))
    got = RowNames(rows, index, texts)
    assert dict(got) == want and len(got) == len(want)
    assert list(got) == sorted(want)  # in row order
    for r in (int(rows[0]), int(rows[-1]), np.int64(rows[5])):
        assert got[r] == want[int(r)] and r in got
    missing = next(r for r in range(5000) if r not in want)
    assert got.get(missing) is None and missing not in got and "x" not in got
    with pytest.raises(KeyError):
        got[-1]


def test_a_row_named_twice_keeps_its_last_name_as_a_dict_would() -> None:
    got = RowNames(np.array([4, 2, 4]), np.array([0, 1, 2]), ["a", "b", "c"])
    assert dict(got) == dict(zip([4, 2, 4], ["a", "b", "c"], strict=True)) == {4: "c", 2: "b"}
    assert dict(RowNames(np.array([], np.int64), np.array([], np.int64), [])) == {}


def test_columns_are_int32_and_far_smaller_than_the_dict() -> None:
    n = 100_000
    rows, index = np.arange(0, 3 * n, 3), np.zeros(n, np.int64)
    got = RowNames(rows, index, ["Variable:0"])
    as_dict = dict.fromkeys(rows.tolist(), "Variable:0")
    dict_bytes = sys.getsizeof(as_dict) + sum(sys.getsizeof(k) for k in as_dict)
    assert got.nbytes == 8 * n and got.nbytes * 10 < dict_bytes
    assert compact(np.array([0, 2**31 - 1])).dtype == np.int32
    assert compact(np.array([0, 2**31])).dtype == np.int64


def test_get_many_reads_each_row_as_get_does() -> None:
    rng = np.random.default_rng(5)
    rows = rng.permutation(400)[:150]
    texts = ["a", "b", "c"]
    got = RowNames(rows, rng.integers(0, 3, len(rows)), texts)
    asked = np.array([0, 399, *rows[:20].tolist(), 1000, -1, *range(0, 400, 7)])
    assert got.get_many(asked) == [got.get(int(r)) for r in asked]
    empty = RowNames(np.array([], np.int64), np.array([], np.int64), [])
    assert empty.get_many(np.array([0, 3])) == [None, None]
