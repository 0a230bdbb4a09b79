"""tape.pretty() is stable text: a golden test and the tape's text view."""

from __future__ import annotations

import tapeviz as tv


def quadratic_tape() -> tuple[tv.GradientTape, dict[int, str]]:
    x = tv.Variable(0.0, name="x")
    a, b, c = tv.constant(1.0), tv.constant(-2.0), tv.constant(1.0)
    with tv.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * tv.pow(x, 2) + b * x + c
    return tape, {a.id: "a", b.id: "b", c.id: "c", y.id: "y"}


GOLDEN = """\
GradientTape(persistent=False, watch_accessed_variables=True): 5 ops; watching [a, b, c, x]
  %0: float32 = pow(x, c0)  # 0
  %1: float32 = multiply(a, %0)  # 0
  %2: float32 = multiply(b, x)  # -0
  %3: float32 = add(%1, %2)  # 0
  y: float32 = add(%3, c)  # 1"""


def test_pretty_is_golden_and_repeatable() -> None:
    first = quadratic_tape()
    second = quadratic_tape()
    assert first[0].pretty(first[1]) == GOLDEN
    assert second[0].pretty(second[1]) == GOLDEN  # new tensor ids, same text


def test_pretty_marks_unwatched_ops_params_and_shapes() -> None:
    m = tv.constant([[1.0, 2.0], [3.0, 4.0]])
    with tv.GradientTape() as tape:
        s = tv.reduce_sum(m, axis=0)
        _ = s[1:]
    text = tape.pretty()
    assert (
        "%0: float32[2] = reduce_sum(c0, axis=0, keepdims=False)  # [4, 6]  (not watched)" in text
    )
    assert "getitem(%0, key=[1:])" in text
    assert text.startswith("GradientTape(persistent=False, watch_accessed_variables=True): 2 ops;")
