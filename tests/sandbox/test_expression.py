"""Expression mode: what a lecturer types in a box, with a variables table."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.sandbox import Invalid, VariableSpec, compile_expression, run

QUAD = [
    VariableSpec("x", 0.0),
    VariableSpec("a", 1.0, "watched"),
    VariableSpec("b", -2.0, "watched"),
    VariableSpec("c", 1.0, "constant"),
]


def test_the_seed_quadratic_with_watched_constants() -> None:
    result = run("a*x**2 + b*x + c", mode="expression", variables=QUAD)
    assert result.error is None
    assert float(result.value) == 1.0
    assert {k: None if g is None else float(g) for k, g in result.gradients.items()} == {
        "x": -2.0,
        "a": 0.0,
        "b": 0.0,
    }
    (info,) = result.tapes
    assert [r.name for r in info.tape.records] == ["pow", "multiply", "multiply", "add", "add"]
    assert isinstance(result.namespace["x"], tv.Variable)


def test_caret_is_power_with_a_visible_note_and_unicode_operators() -> None:
    result = run("a·x^2 + b×x + c", mode="expression", variables=QUAD)
    assert result.error is None and float(result.gradients["x"]) == -2.0
    assert "^ was read as ** (power); in Python code write x**2" in result.notes
    assert "· was read as *" in result.notes and "× was read as *" in result.notes
    superscript = compile_expression("x² + x³", ["x"])
    assert superscript.source == "x**2 + x**3"


def test_function_names_without_prefixes() -> None:
    result = run(
        "sin(x)*exp(-y) + sqrt(y) + tanh(x) + sigmoid(x) + relu(x) + abs(x) + mean([x, y])",
        mode="expression",
        variables={"x": 0.5, "y": 1.0},
    )
    assert result.error is None
    x, y = 0.5, 1.0
    expected = (
        np.sin(x) * np.exp(-y)
        + np.sqrt(y)
        + np.tanh(x)
        + 1 / (1 + np.exp(-x))
        + x
        + x
        + (x + y) / 2
    )
    assert float(result.value) == pytest.approx(expected, rel=1e-6)


def test_rosenbrock_value_and_gradient() -> None:
    result = run("(1-x)**2 + 100*(y-x**2)**2", mode="expression", variables={"x": -1.2, "y": 1.0})
    assert float(result.value) == pytest.approx(24.2)
    assert float(result.gradients["x"]) == pytest.approx(-215.6, rel=1e-5)
    assert float(result.gradients["y"]) == pytest.approx(-88.0, rel=1e-5)


def test_unknown_names_are_reported_with_a_suggestion() -> None:
    result = run("x**2 + z", mode="expression", variables={"x": 1.0})
    assert result.error is not None
    assert result.error.message == "unknown name 'z' — add it as a variable?"
    assert (result.error.line, result.error.col) == (1, 8)
    typo = run("sin(xx)", mode="expression", variables={"x": 1.0, "y": 2.0})
    assert typo.error is not None and typo.error.hint == "did you mean 'x'?"


def test_unknown_functions_and_misuse() -> None:
    err = run("sinn(x)", mode="expression", variables={"x": 1.0}).error
    assert (
        err is not None
        and err.message == "unknown function 'sinn'"
        and err.hint == "did you mean 'sin'?"
    )
    err = run("sin + x", mode="expression", variables={"x": 1.0}).error
    assert err is not None and "'sin' is a function" in err.message
    err = run("[i for i in x]", mode="expression", variables={"x": 1.0}).error
    assert err is not None and err.kind == "refused" and "script mode" in (err.hint or "")
    err = run("x +", mode="expression", variables={"x": 1.0}).error
    assert err is not None and err.kind == "syntax"


def test_compiled_once_evaluated_many_times_records_on_the_active_tape() -> None:
    ce = compile_expression("(1-x)^2 + 100*(y-x^2)^2", ["x", "y"])
    assert ce.names == ("x", "y") and ce.source == "(1-x)**2 + 100*(y-x**2)**2"
    x, y = tv.Variable(-1.2), tv.Variable(1.0)
    opt = tv.optimizers.SGD(learning_rate=1e-3)
    for _ in range(10):
        with tv.GradientTape() as tape:
            loss = ce({"x": x, "y": y})
        opt.apply_gradients(zip(tape.gradient(loss, [x, y]), [x, y], strict=True))
    assert float(ce(x=x, y=y)) == pytest.approx(4.1, abs=0.05)  # DEMOS: 24.2 -> 4.1
    with pytest.raises(Invalid, match="unknown name 'q'"):
        compile_expression("q + 1", ["x"])


def test_array_variables_and_reductions() -> None:
    result = run(
        "sum((w*x - t)**2)",
        mode="expression",
        variables=[
            ("w", 2.0),
            ("x", [1.0, 2.0, 3.0], "constant"),
            ("t", [2.0, 4.0, 7.0], "constant"),
        ],
    )
    assert result.error is None and float(result.value) == 1.0
    assert float(result.gradients["w"]) == pytest.approx(-6.0)


def test_variable_table_rows_are_validated() -> None:
    with pytest.raises(ValueError, match="kind"):
        VariableSpec("x", 1.0, "frozen")
    with pytest.raises(ValueError, match="valid variable name"):
        VariableSpec("__x", 1.0)


def test_a_long_chain_folds_each_subexpression_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiling ``x + sin(x) + …`` asks for every prefix's folded value: each is computed once."""
    from tapeviz.sandbox.language import expression

    calls: list[int] = []
    real = expression._ExprCompiler._fold

    def counted(self: object, node: object) -> object:
        calls.append(1)
        return real(self, node)  # type: ignore[arg-type]

    monkeypatch.setattr(expression._ExprCompiler, "_fold", counted)
    terms = 150
    compiled = compile_expression(" + ".join(["x"] + ["sin(x)"] * terms), ["x"])
    assert len(calls) <= 3 * terms  # once per node: linear (it was quadratic: ~11,000 here)
    assert compiled is not None
