"""The class-based with-blocks (engine.scoped) behave like the context managers they replaced."""

from __future__ import annotations

import threading

import pytest

from tapeviz.engine import printing
from tapeviz.engine.guard import GUARD, size_limits


def test_nested_limits_restore_each_level_even_after_an_error() -> None:
    before = GUARD.max_elements, GUARD.max_flops
    with size_limits(10, 20):
        with pytest.raises(ValueError), size_limits(5):
            assert (GUARD.max_elements, GUARD.max_flops) == (5, None)
            raise ValueError
        assert (GUARD.max_elements, GUARD.max_flops) == (10, 20)
    assert (GUARD.max_elements, GUARD.max_flops) == before


def test_one_block_object_cannot_be_entered_twice() -> None:
    block = size_limits(7, 7)
    with block, pytest.raises(RuntimeError, match="already in use"), block:
        pass
    assert (GUARD.max_elements, GUARD.max_flops) == (None, None)
    sink = printing.capture(print)
    with sink, pytest.raises(RuntimeError, match="already in use"), sink:
        pass


def test_a_capture_made_in_one_thread_captures_the_thread_that_enters_it() -> None:
    seen: list[str] = []
    block = printing.capture(seen.append)

    def worker() -> None:
        with block:
            printing.emit("from the worker")

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(5)
    assert seen == ["from the worker"]
