"""``torch.autograd.functional`` against torch's documented examples and finite differences.

The docs' examples use random inputs; each test here picks the inputs that reproduce the values
the docs print (``exp_reducer``'s Jacobian is ``exp(x)``, so ``x = log(printed)``), and checks
the structure (tuple nesting, shapes, ``grad_fn``) the docs describe.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz.torch as torch
from tapeviz.sandbox import run

F = torch.autograd.functional


def exp_reducer(x: Any) -> Any:
    return x.exp().sum(dim=1)


def exp_adder(x: Any, y: Any) -> Any:
    return 2 * x.exp() + 3 * y


def pow_reducer(x: Any) -> Any:
    return x.pow(3).sum()


def pow_adder_reducer(x: Any, y: Any) -> Any:
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


def adder(x: Any, y: Any) -> Any:
    return 2 * x + 3 * y


def _np(t: Any) -> np.ndarray:
    return np.asarray(t.detach().numpy(), np.float64)


def _close(t: Any, want: Any, atol: float = 2e-4) -> None:
    np.testing.assert_allclose(_np(t), np.asarray(want, np.float64), atol=atol)


# -- the docs' examples --------------------------------------------------------------------------
def test_jacobian_doc_example() -> None:
    printed = np.array([[1.4917, 2.4352], [2.4369, 2.3799]])
    inputs = torch.tensor(np.log(printed), dtype=torch.float32)
    jac = F.jacobian(exp_reducer, inputs)
    assert jac.shape == torch.Size([2, 2, 2]) and jac.grad_fn is None
    _close(jac, [[printed[0], [0, 0]], [[0, 0], printed[1]]])
    made = F.jacobian(exp_reducer, inputs, create_graph=True)
    assert repr(made).endswith("grad_fn=<ViewBackward0>)")
    x, y = torch.tensor(np.log([2.8052 / 2, 3.3963 / 2])), torch.rand(2)
    jx, jy = F.jacobian(exp_adder, (x.float(), y))
    _close(jx, [[2.8052, 0.0], [0.0, 3.3963]])
    _close(jy, [[3.0, 0.0], [0.0, 3.0]])


def test_hessian_doc_examples() -> None:
    diag = np.array([[5.2265, 4.8221], [1.9456, 3.2550]])
    inputs = torch.tensor(diag / 6, dtype=torch.float32)  # d²(x³)/dx² = 6x
    h = F.hessian(pow_reducer, inputs)
    assert h.shape == torch.Size([2, 2, 2, 2])
    want = np.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            want[i, j, i, j] = diag[i, j]
    _close(h, want)
    assert repr(F.hessian(pow_reducer, inputs, create_graph=True)).endswith(
        "grad_fn=<ViewBackward0>)"
    )
    (hxx, hxy), (hyx, hyy) = F.hessian(pow_adder_reducer, (torch.rand(2), torch.rand(2)))
    _close(hxx, 4 * np.eye(2))
    _close(hyy, 6 * np.eye(2))
    _close(hxy, np.zeros((2, 2)))
    _close(hyx, np.zeros((2, 2)))


def test_vjp_and_jvp_doc_examples() -> None:
    printed = np.array(
        [
            [1.4458, 1.3962, 1.3042, 1.6354],
            [2.1288, 1.0652, 1.5483, 2.5035],
            [2.2046, 1.1292, 1.1432, 1.3059],
            [1.3225, 1.6652, 1.7753, 2.0152],
        ]
    )
    inputs = torch.tensor(np.log(printed), dtype=torch.float32)
    out, vjp = F.vjp(exp_reducer, inputs, torch.ones(4))
    _close(out, [5.7817, 7.2458, 5.7830, 6.7782], atol=5e-4)
    _close(vjp, printed)
    out, vjp = F.vjp(exp_reducer, inputs, torch.ones(4), create_graph=True)
    assert repr(out).endswith("grad_fn=<SumBackward1>)") and vjp.requires_grad
    out, (gx, gy) = F.vjp(adder, (torch.rand(2), torch.rand(2)), torch.ones(2))
    assert gx.tolist() == [2.0, 2.0] and gy.tolist() == [3.0, 3.0]
    x = torch.rand(4, 4)
    out, jvp = F.jvp(exp_reducer, x, torch.ones(4, 4))  # with v = 1 the jvp is the row sums
    _close(jvp, _np(out), atol=1e-5)
    out, jvp = F.jvp(exp_reducer, x, torch.ones(4, 4), create_graph=True)
    assert repr(out).endswith("grad_fn=<SumBackward1>)") and jvp.requires_grad
    out, jvp = F.jvp(adder, (torch.rand(2), torch.rand(2)), (torch.ones(2), torch.ones(2)))
    assert isinstance(jvp, torch.Tensor) and jvp.tolist() == [5.0, 5.0]


def test_vhp_and_hvp_doc_examples() -> None:
    for fn, printed, value in (
        (F.vhp, [[1.0689, 1.2431], [3.0989, 4.4456]], 0.5591),
        (F.hvp, [[2.0239, 1.6456], [2.4988, 1.4310]], 0.1448),
    ):
        inputs = torch.tensor(np.array(printed) / 6, dtype=torch.float32)
        out, prod = fn(pow_reducer, inputs, torch.ones(2, 2))
        assert out.shape == torch.Size([]) and abs(out.item() - value) < 2e-4
        _close(prod, printed)
        out, prod = fn(pow_reducer, inputs, torch.ones(2, 2), create_graph=True)
        assert repr(out).endswith("grad_fn=<SumBackward0>)") and prod.requires_grad
        out, (px, py) = fn(
            pow_adder_reducer, (torch.rand(2), torch.rand(2)), (torch.zeros(2), torch.ones(2))
        )
        assert px.tolist() == [0.0, 0.0] and py.tolist() == [6.0, 6.0]


# -- structure -----------------------------------------------------------------------------------
def test_jacobian_nests_as_outputs_then_inputs() -> None:
    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 5.0])
    jac = F.jacobian(lambda a, b: (a * b, a.sum()), (x, y))
    assert isinstance(jac, tuple) and len(jac) == 2 and all(len(r) == 2 for r in jac)
    assert jac[0][0].tolist() == [[3.0, 0.0], [0.0, 5.0]]
    assert jac[0][1].tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert jac[1][0].shape == torch.Size([2]) and jac[1][0].tolist() == [1.0, 1.0]
    assert jac[1][1].tolist() == [0.0, 0.0]  # independent: zeros (not strict)
    single = F.jacobian(lambda a: (a**2, a.sum()), x)  # outputs a tuple, input a tensor
    assert isinstance(single, tuple) and single[0].tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert single[1].tolist() == [1.0, 1.0]
    scalar = F.jacobian(lambda a: (a * a).sum(), torch.tensor(3.0))
    assert scalar.shape == torch.Size([]) and scalar.item() == 6.0


def test_results_have_no_history_and_inputs_are_untouched() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    jac = F.jacobian(lambda a: a**2, x)
    assert not jac.requires_grad and x.grad is None and x.is_leaf
    with torch.no_grad():  # torch enables grad inside
        assert F.jacobian(lambda a: a**2, x).tolist() == [[2.0, 0.0], [0.0, 4.0]]
    made = F.jacobian(lambda a: a**3, x, create_graph=True)  # differentiable back to x
    made.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]  # d/dx sum(3x²) = 6x


def test_vectorize_and_strategy_are_accepted() -> None:
    x = torch.tensor([1.0, 2.0])
    plain = F.jacobian(torch.sin, x)
    assert F.jacobian(torch.sin, x, vectorize=True).tolist() == plain.tolist()
    fwd = F.jacobian(torch.sin, x, vectorize=True, strategy="forward-mode")
    assert fwd.tolist() == plain.tolist()
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        F.jacobian(torch.sin, x, strategy="forward-mode")
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True`"):
        F.jacobian(torch.sin, x, strict=True, vectorize=True)
    h = F.hessian(lambda a: a.pow(3).sum(), x, vectorize=True)
    assert h.tolist() == [[6.0, 0.0], [0.0, 12.0]]


# -- errors as torch raises them -----------------------------------------------------------------
def test_strict_mode_errors() -> None:
    x, y = torch.ones(2), torch.ones(2)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "Output 0 of the user-provided function is "
            "independent of input 1. This is not allowed in "
            "strict mode."
        ),
    ):
        F.jacobian(lambda a, b: a * 2, (x, y), strict=True)
    with pytest.raises(
        RuntimeError,
        match=re.escape("Output 0 of the user-provided function does not require gradients"),
    ):
        F.vjp(lambda a: torch.ones(2), x, torch.ones(2), strict=True)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "the jacobian of the user-provided function with respect to input 0 is independent"
        ),
    ):
        F.hessian(lambda a: (2 * a).sum(), x, strict=True)
    h = F.hessian(lambda a: (2 * a).sum(), x)  # not strict: the mathematical zeros
    assert h.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    _, g = F.vjp(lambda a, b: (a * a).sum(), (x, y))
    assert g[1].tolist() == [0.0, 0.0]


def test_argument_errors() -> None:
    with pytest.raises(
        TypeError,
        match=re.escape(
            "The inputs given to jacobian must be either a Tensor or "
            "a tuple of Tensors but the given inputs has type "
            "<class 'list'>."
        ),
    ):
        F.jacobian(torch.sin, [torch.ones(2)])
    with pytest.raises(TypeError, match="but the value at index 1 has type"):
        F.vjp(adder, (torch.ones(2), 3.0), torch.ones(2))
    with pytest.raises(
        RuntimeError,
        match=r"v has invalid size: should be torch.Size\(\[2\]\) "
        r"but got torch.Size\(\[3\]\).",
    ):
        F.vjp(torch.sin, torch.ones(2), torch.ones(3))
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "The vector v can only be None if the user-provided "
            "function returns a single Tensor with a single "
            "element."
        ),
    ):
        F.vjp(torch.sin, torch.ones(2))
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "The vector v can only be None if the input to the "
            "user-provided function is a single Tensor"
        ),
    ):
        F.jvp(torch.sin, torch.ones(2))
    with pytest.raises(RuntimeError, match="v is a tuple of invalid length: should be 2 but got 1"):
        F.hvp(pow_adder_reducer, (torch.ones(2), torch.ones(2)), (torch.ones(2),))
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "The Tensor returned by the function given to hessian should contain a single element"
        ),
    ):
        F.hessian(torch.sin, torch.ones(2))
    with pytest.raises(
        RuntimeError, match=re.escape("The function given to vhp should return a single Tensor")
    ):
        F.vhp(lambda a: (a.sum(), a.sum()), torch.ones(2), torch.ones(2))
    out, g = F.jvp(lambda a: a * 3, torch.tensor([2.0]))  # one-element input: v may be omitted
    assert out.tolist() == [6.0] and g.tolist() == [3.0]


# -- against finite differences -----------------------------------------------------------------
W = np.array([[0.3, -1.2, 0.5], [0.8, 0.1, -0.4]])


def net(x: Any, w: Any) -> Any:
    return torch.tanh(x @ w).sum(dim=0) * x.sum()


def loss(x: Any, w: Any) -> Any:
    return (torch.sin(x @ w) ** 2).sum() + (x * x).sum() * w.sum()


def _numeric_jacobian(fn: Callable[..., Any], args: list[np.ndarray], j: int) -> np.ndarray:
    eps = 1e-6

    def at(a: np.ndarray) -> np.ndarray:
        vals = [torch.tensor(v, dtype=torch.float64) for v in args]
        vals[j] = torch.tensor(a, dtype=torch.float64)
        return _np(fn(*vals))

    base = args[j]
    out_shape = at(base).shape
    jac = np.zeros(out_shape + base.shape)
    for idx in np.ndindex(*base.shape):
        d = np.zeros_like(base)
        d[idx] = eps
        jac[(..., *idx)] = (at(base + d) - at(base - d)) / (2 * eps)
    return jac


def _f64(a: np.ndarray) -> Any:
    return torch.tensor(a, dtype=torch.float64)


def test_jacobian_and_products_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    x0 = rng.normal(size=(4, 2))
    args = [x0, W]
    jx, jw = F.jacobian(net, (_f64(x0), _f64(W)))
    np.testing.assert_allclose(_np(jx), _numeric_jacobian(net, args, 0), atol=1e-6)
    np.testing.assert_allclose(_np(jw), _numeric_jacobian(net, args, 1), atol=1e-6)
    v_out = rng.normal(size=3)
    _, (gx, gw) = F.vjp(net, (_f64(x0), _f64(W)), _f64(v_out))
    np.testing.assert_allclose(_np(gx), np.tensordot(v_out, _np(jx), axes=1), atol=1e-9)
    np.testing.assert_allclose(_np(gw), np.tensordot(v_out, _np(jw), axes=1), atol=1e-9)
    vx, vw = rng.normal(size=(4, 2)), rng.normal(size=(2, 3))
    _, jv = F.jvp(net, (_f64(x0), _f64(W)), (_f64(vx), _f64(vw)))
    want = np.tensordot(_np(jx), vx, axes=2) + np.tensordot(_np(jw), vw, axes=2)
    np.testing.assert_allclose(_np(jv), want, atol=1e-9)


def test_hessian_and_its_products_match_finite_differences() -> None:
    rng = np.random.default_rng(1)
    x0 = rng.normal(size=(4, 2))
    args = [x0, W]
    (hxx, hxw), (hwx, hww) = F.hessian(loss, (_f64(x0), _f64(W)))
    assert hxx.shape == torch.Size([4, 2, 4, 2]) and hxw.shape == torch.Size([4, 2, 2, 3])
    assert hwx.shape == torch.Size([2, 3, 4, 2]) and hww.shape == torch.Size([2, 3, 2, 3])

    def grad_x(x: Any, w: Any) -> Any:
        return F.jacobian(lambda a: loss(a, w), x, create_graph=True)

    def grad_w(x: Any, w: Any) -> Any:
        return F.jacobian(lambda b: loss(x, b), w, create_graph=True)

    np.testing.assert_allclose(_np(hxx), _numeric_jacobian(grad_x, args, 0), atol=1e-5)
    np.testing.assert_allclose(_np(hxw), _numeric_jacobian(grad_x, args, 1), atol=1e-5)
    np.testing.assert_allclose(_np(hwx), _numeric_jacobian(grad_w, args, 0), atol=1e-5)
    np.testing.assert_allclose(_np(hww), _numeric_jacobian(grad_w, args, 1), atol=1e-5)
    vx, vw = rng.normal(size=(4, 2)), rng.normal(size=(2, 3))
    hv_x = np.tensordot(_np(hxx), vx, axes=2) + np.tensordot(_np(hxw), vw, axes=2)
    hv_w = np.tensordot(_np(hwx), vx, axes=2) + np.tensordot(_np(hww), vw, axes=2)
    for fn in (F.hvp, F.vhp):  # the Hessian is symmetric: both are H v
        value, (px, pw) = fn(loss, (_f64(x0), _f64(W)), (_f64(vx), _f64(vw)))
        assert abs(value.item() - _np(loss(_f64(x0), _f64(W)))) < 1e-12
        np.testing.assert_allclose(_np(px), hv_x, atol=1e-9)
        np.testing.assert_allclose(_np(pw), hv_w, atol=1e-9)


def test_scripts_import_the_functional_api() -> None:
    src = """import torch
from torch.autograd.functional import jacobian, hessian
import torch.autograd.functional as AF
def f(x):
    return (x ** 3).sum()
x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(hessian(f, x))
print(AF.hvp(f, x, torch.ones(2)))
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output == (
        "tensor([ 3., 12.])\ntensor([[ 6.,  0.],\n        [ 0., 12.]])\n"
        "(tensor(9.), tensor([ 6., 12.]))\n"
    )


def test_create_graph_results_differentiate_again() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = F.hessian(lambda a: (a**4).sum(), x, create_graph=True)  # diag(12 x²)
    assert h.tolist() == [[12.0, 0.0], [0.0, 48.0]]
    h.sum().backward()
    assert x.grad.tolist() == [24.0, 48.0]
    x.grad = None
    _, hv = F.hvp(lambda a: (a**4).sum(), x, torch.ones(2), create_graph=True)
    hv.sum().backward()
    assert hv.tolist() == [12.0, 48.0] and x.grad.tolist() == [24.0, 48.0]
    x.grad = None
    _, jv = F.jvp(lambda a: a**3, x, torch.ones(2), create_graph=True)  # 3x²
    jv.sum().backward()
    assert jv.tolist() == [3.0, 12.0] and x.grad.tolist() == [6.0, 12.0]
