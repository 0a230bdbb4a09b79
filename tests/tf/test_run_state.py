"""The run-state registry: settings saved, reset to their defaults for a run, restored after."""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.tf import run_state
from tapeviz.tf.keras_src import utils as keras_utils


class _Holder(threading.local):
    def __init__(self) -> None:
        self.level = 0
        self.seen: list[int] = []


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, run_state.Setting]:
    """A copy of the registry for the test to add to (the real one is put back after)."""
    copy = dict(run_state._SETTINGS)
    monkeypatch.setattr(run_state, "_SETTINGS", copy)
    return copy


def _register(holder: _Holder, name: str = "test.holder") -> None:
    run_state.register_attributes(name, holder, lambda: {"level": 0, "seen": []})


def test_a_block_starts_from_the_defaults_and_gives_the_callers_state_back(
    registry: dict[str, Any],
) -> None:
    holder = _Holder()
    _register(holder)
    holder.level = 3
    mine = holder.seen
    mine.append(1)
    with run_state.fresh_run_state():
        assert (holder.level, holder.seen) == (0, [])
        holder.level = 5
        holder.seen.append(2)
    assert holder.level == 3
    assert holder.seen is mine and mine == [1]  # the caller's list, never emptied


def test_the_state_comes_back_when_the_block_raises(registry: dict[str, Any]) -> None:
    holder = _Holder()
    _register(holder)
    holder.level = 2
    with pytest.raises(ZeroDivisionError), run_state.fresh_run_state():
        holder.level = 9
        _ = 1 / 0
    assert holder.level == 2


def test_a_setting_registered_inside_a_block_is_reset_when_it_ends(
    registry: dict[str, Any],
) -> None:
    holder = _Holder()
    with run_state.fresh_run_state():
        _register(holder, "test.late")
        holder.level = 4
    assert holder.level == 0
    assert "test.late" in run_state.settings()


def test_reset_run_state_resets_every_setting_and_a_block_is_used_once(
    registry: dict[str, Any],
) -> None:
    holder = _Holder()
    _register(holder)
    holder.level = 7
    run_state.reset_run_state()
    assert holder.level == 0
    block = run_state.fresh_run_state()
    with block, pytest.raises(RuntimeError), block:
        pass


def test_caches_are_emptied_at_both_ends(registry: dict[str, Any]) -> None:
    calls: list[int] = []

    class Cache:
        def cache_clear(self) -> None:
            calls.append(1)

    run_state.register_caches("test.cache", Cache())
    with run_state.fresh_run_state():
        assert len(calls) == 1
    assert len(calls) == 2


def test_a_lazy_setting_is_kept_and_saved_only_when_a_change_is_announced(
    registry: dict[str, Any],
) -> None:
    box = {"value": 1, "saves": 0}

    def save() -> int:
        box["saves"] += 1
        return box["value"]

    run_state.register(
        "test.lazy", save=save, restore=lambda v: box.update(value=v), reset=lambda: None,
        lazy=True,
    )  # fmt: skip
    run_state.changing("test.lazy")  # outside any block: nothing to save
    with run_state.fresh_run_state():
        assert box == {"value": 1, "saves": 0}  # the caller's, not saved yet
        with run_state.fresh_run_state():
            run_state.changing("test.lazy")
            run_state.changing("test.lazy")  # saved once per block
            box["value"] = 2
        assert box == {"value": 1, "saves": 1}
        run_state.changing("test.lazy")
        box["value"] = 3
    assert box == {"value": 1, "saves": 2}


def test_every_keras_and_tf_setting_is_fresh_inside_and_back_after() -> None:
    tf.keras.backend.set_floatx("float64")
    tf.keras.backend.set_epsilon(1e-4)
    tf.config.run_functions_eagerly(True)
    tf.random.set_seed(3)
    first = tf.keras.layers.Dense(1).name
    try:
        with run_state.fresh_run_state():
            assert (tf.keras.backend.floatx(), tf.keras.backend.epsilon()) == ("float32", 1e-7)
            assert tf.config.functions_run_eagerly() is False
            assert tf.keras.layers.Dense(1).name == "dense"
            tf.random.set_seed(None)
            a = tf.random.normal([2], seed=5).numpy()
        assert tf.keras.backend.floatx() == "float64"
        assert tf.keras.backend.epsilon() == 1e-4
        assert tf.config.functions_run_eagerly() is True
        assert tf.keras.layers.Dense(1).name == f"{first}_1"
        b = tf.random.normal([2], seed=5).numpy()  # the caller's global seed 3 still holds
        tf.random.set_seed(3)
        np.testing.assert_array_equal(b, tf.random.normal([2], seed=5).numpy())
        assert not np.array_equal(a, b)
    finally:
        tf.keras.backend.set_floatx("float32")
        tf.keras.backend.set_epsilon(1e-7)
        tf.config.run_functions_eagerly(False)


def test_set_random_seed_seeds_numpy_and_python_and_a_block_gives_them_back() -> None:
    np_state, py_state = np.random.get_state(), random.getstate()
    seeded: list[int] = []
    keras_utils.seed_also(seeded.append)
    try:
        with run_state.fresh_run_state():
            tf.keras.utils.set_random_seed(2**32 + 5)
            assert seeded == [5]
            assert np.random.rand() == np.random.RandomState(5).rand()
            assert random.random() == random.Random(2**32 + 5).random()
        assert random.getstate() == py_state
        np.testing.assert_array_equal(np.random.get_state()[1], np_state[1])
    finally:
        keras_utils._NUMPY_SEEDERS.remove(seeded.append)


def test_an_unseeded_global_generator_can_be_copied() -> None:
    g = tf.random.get_global_generator()
    copy = tf.random.Generator(copy_from=g)
    np.testing.assert_array_equal(copy.normal([3]).numpy(), g.normal([3]).numpy())
    assert isinstance(g._gen.bit_generator, np.random.Philox)
