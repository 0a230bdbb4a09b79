"""Each test starts like a fresh TensorFlow program: Keras names from ``dense``, no seed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import tapeviz.tf as tf


@pytest.fixture(autouse=True)
def fresh_program() -> Iterator[None]:
    tf.keras.backend.clear_session()
    tf.random.set_seed(None)
    yield
    tf.keras.backend.clear_session()
    tf.random.set_seed(None)
