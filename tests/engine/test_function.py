"""tv.function runs eagerly and keeps the trace of its latest call."""

from __future__ import annotations

import tapeviz as tv


def test_function_with_and_without_arguments() -> None:
    @tv.function
    def square(x: tv.Tensor) -> tv.Tensor:
        return x * x

    @tv.function(jit_compile=True)
    def cube(x: tv.Tensor) -> tv.Tensor:
        return x * x * x

    assert float(square(tv.constant(3.0))) == 9.0
    assert float(cube(tv.constant(2.0))) == 8.0
    assert cube.options == {"jit_compile": True}
    assert square.__name__ == "square"


def test_trace_records_every_op_of_the_last_call_only() -> None:
    @tv.function
    def f(x: tv.Tensor, n: int) -> tv.Tensor:
        for _ in tv.range(n):
            x = tv.sin(x)
        return x

    f(tv.constant(1.0), 2)
    f(tv.constant(1.0), 3)
    assert f.call_count == 2
    trace = f.last_trace
    assert trace is not None and trace.args[1] == 3
    assert [r.name for r in trace.records].count("sin") == 3
    assert all(not r.watched for r in trace.records)


def test_function_does_not_change_gradients() -> None:
    x = tv.Variable(2.0)

    @tv.function
    def loss() -> tv.Tensor:
        return x**3

    with tv.GradientTape() as tape:
        y = loss()
    assert float(tape.gradient(y, x)) == 12.0
    assert [r.name for r in loss.last_trace.records] == ["pow"]
