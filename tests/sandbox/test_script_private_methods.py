"""A script class may name its own private methods what the engine keeps inside its tapes.

The sandbox refuses a script class's ``_name`` that the library spells (a base class may have
it); the names a tape keeps its columns under were chosen from those already spelled, so
scripts that ran before the columns still run.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import run

MODULE = """import tensorflow as tf
class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(2.0)
    def {name}(self, x):
        return x * self.w
    def __call__(self, x):
        return self.{name}(x)
print(float(M()(tf.constant(3.0))))
"""


@pytest.mark.parametrize("name", ["_flat", "_stop", "_materialize", "_helper"])
def test_a_module_with_its_own_private_method_runs(name: str) -> None:
    result = run(MODULE.format(name=name))
    assert result.error is None, result.error
    assert result.output == "6.0\n"
