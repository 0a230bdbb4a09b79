"""tapeviz.torch's autograd against PyTorch's documented behaviour (torch is not a dependency)."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.torch as torch
from tapeviz.engine import core


def test_backward_of_a_scalar_fills_the_leaves_grad() -> None:
    x = torch.tensor(2.0, requires_grad=True)
    y = x**2 + 3 * x
    y.backward()
    assert x.grad.item() == 7.0
    assert repr(y) == "tensor(10., grad_fn=<AddBackward0>)"
    assert repr(x) == "tensor(2., requires_grad=True)"


def test_the_micrograd_lecture_neuron_matches_torch() -> None:
    """The torch cell of Karpathy's micrograd lecture, with the outputs torch printed there."""
    x1 = torch.Tensor([2.0]).double()
    x1.requires_grad = True
    x2 = torch.Tensor([0.0]).double()
    x2.requires_grad = True
    w1 = torch.Tensor([-3.0]).double()
    w1.requires_grad = True
    w2 = torch.Tensor([1.0]).double()
    w2.requires_grad = True
    b = torch.Tensor([6.8813735870195432]).double()
    b.requires_grad = True
    n = x1 * w1 + x2 * w2 + b
    o = torch.tanh(n)
    assert o.data.item() == pytest.approx(0.7071066904050358, abs=1e-15)
    o.backward()
    assert x2.grad.item() == pytest.approx(0.5000001283844369, abs=1e-15)
    assert w2.grad.item() == 0.0
    assert x1.grad.item() == pytest.approx(-1.5000003851533106, abs=1e-15)
    assert w1.grad.item() == pytest.approx(1.0000002567688737, abs=1e-15)


def test_grad_accumulates_until_zeroed() -> None:
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = (a**2).sum()
    b.backward(retain_graph=True)
    held = a.grad
    b.backward()
    assert a.grad is held  # accumulated in place, as torch does
    assert a.grad.tolist() == [4.0, 8.0, 12.0]
    a.grad.zero_()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]
    a.grad = None
    (a * 3).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0, 3.0]


def test_a_freed_graph_cannot_be_walked_again() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_a_graph_of_adds_saves_nothing_and_may_be_walked_twice() -> None:
    x = torch.tensor(1.0, requires_grad=True)
    y = x + 2
    y.backward()
    y.backward()
    assert x.grad.item() == 2.0


def test_errors_torch_gives() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.tensor(1.0).backward()
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        torch.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x += 1
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        x.numpy()


def test_backward_with_a_gradient_argument_is_a_vector_jacobian_product() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(torch.tensor([0.1, 1.0, 0.0001]))
    np.testing.assert_allclose(x.grad.numpy(), [0.2, 4.0, 0.0006], rtol=1e-6)


def test_non_leaf_grad_is_none_with_a_warning_unless_retained() -> None:
    x = torch.tensor(3.0, requires_grad=True)
    y = x * 2
    z = y * y
    y.retain_grad()
    z.backward()
    assert y.grad.item() == 12.0
    assert y.is_leaf is False and x.is_leaf is True
    w = x * 5
    (w * 1).backward()
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert w.grad is None


def test_no_grad_records_nothing_and_detach_shares_values() -> None:
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    with torch.no_grad():
        y = w * 2
    assert y.requires_grad is False and y.grad_fn is None
    assert torch.is_grad_enabled()
    d = w.detach()
    with torch.no_grad():
        w -= 0.5
    assert d.tolist() == [0.5, -2.5]  # the detached alias sees the in-place change


def test_set_grad_enabled_as_a_function_and_a_block() -> None:
    x = torch.tensor(1.0, requires_grad=True)
    with torch.set_grad_enabled(False):
        assert (x * 2).requires_grad is False
    assert torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        assert (x * 2).requires_grad is False
    finally:
        torch.set_grad_enabled(True)


def test_an_in_place_change_of_a_saved_tensor_is_refused_at_backward() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    c = b * b
    b.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_autograd_grad_returns_without_accumulating_and_create_graph_goes_higher() -> None:
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(x**3, x, create_graph=True)
    assert g.item() == 12.0 and g.requires_grad
    (g2,) = torch.autograd.grad(g, x)
    assert g2.item() == 12.0
    assert x.grad is None
    y = torch.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(x * 2, [x, y])
    assert torch.autograd.grad(x * 2, [x, y], allow_unused=True)[1] is None


def test_each_backward_is_one_engine_tape_with_the_grad_fn_names() -> None:
    created: list[object] = []
    saved, core.STATE.created = core.STATE.created, created
    try:
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        for _ in range(3):
            loss = (w * w).sum()
            loss.backward()
    finally:
        core.STATE.created = saved
    assert len(created) == 3
    tape = created[0]
    assert [r.name for r in tape.records] == ["multiply", "reduce_sum"]
    assert tape.gradient_calls[0].source_ids == (w._t.id,)


def test_a_parameter_keeps_its_engine_id_across_no_grad_updates() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    first = w._t.id
    for _ in range(3):
        (w * w).sum().backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
    assert w._t.id == first
    np.testing.assert_allclose(w.detach().numpy(), np.array([1.0, 2.0]) * 0.8**3, rtol=1e-6)


def test_custom_function_uses_its_backward() -> None:
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):  # type: ignore[no-untyped-def]
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):  # type: ignore[no-untyped-def]
            (result,) = ctx.saved_tensors
            return grad_output * result * 2  # deliberately not exp's true gradient

    x = torch.tensor(0.5, requires_grad=True)
    y = Exp.apply(x)
    assert y.grad_fn.name() == "ExpBackward"
    y.backward()
    assert x.grad.item() == pytest.approx(2 * np.exp(0.5), rel=1e-6)


def test_next_functions_list_none_for_an_input_that_needs_no_grad() -> None:
    import tapeviz.torch as torch

    w = torch.ones(3, requires_grad=True)
    x = torch.ones(3)  # a tensor that needs no grad: torch lists (None, 0) in its place
    y = x * w
    names = [None if n is None else n.name() for n, _ in y.grad_fn.next_functions]
    assert names == [None, "torch::autograd::AccumulateGrad"]
    z = w * x
    names = [None if n is None else n.name() for n, _ in z.grad_fn.next_functions]
    assert names == ["torch::autograd::AccumulateGrad", None]


def test_a_create_graph_gradient_is_named_by_its_last_op_as_torch_prints_it() -> None:
    import tapeviz.torch as torch

    x = torch.tensor(2.0, requires_grad=True)
    dy = torch.autograd.grad(x**3, x, create_graph=True)[0]
    assert repr(dy) == "tensor(12., grad_fn=<MulBackward0>)"  # 3x²: torch's last op is a mul
    assert repr(torch.autograd.grad(dy, x)[0]) == "tensor(12.)"  # 6x


def test_topk_values_indices_and_gradient_as_torch() -> None:
    x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    t = torch.topk(x, 2)
    assert t.values.tolist() == [[5.0, 3.0], [6.0, 4.0]] and t.indices.tolist() == [[1, 2], [2, 0]]
    assert repr(t).startswith("torch.return_types.topk(\nvalues=tensor([[5., 3.],")
    assert type(t.values.grad_fn).__name__ == "TopkBackward0" or "TopkBackward0" in repr(
        t.values.grad_fn
    )
    t.values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]
    v, i = x.topk(1, dim=0, largest=False)
    assert v.tolist() == [[1.0, 2.0, 3.0]] and i.tolist() == [[0, 1, 0]]
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(x, 4)
