"""PyTorch's bridge with NumPy: ``Tensor.numpy()`` and ``torch.from_numpy`` share memory.

Expected outputs are the ones PyTorch's tensors tutorial ("Bridge with NumPy") and d2l's
data-manipulation chapter print; the rules are torch's documented ones: ``numpy()`` and
``from_numpy``/``as_tensor`` (same dtype) share, ``torch.tensor`` copies, numpy writes do not bump
the version counter. Recorded tapes keep the values they read (the timeline's history).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import tapeviz.torch as torch
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results_decode
from tapeviz.torch._shared import Cell, SharedCell

TUTORIAL = """import torch
import numpy as np
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
"""


def test_the_tensors_tutorial_bridge_prints_what_torch_prints() -> None:
    r = run(TUTORIAL)
    assert r.error is None, r.error
    assert r.output.splitlines() == [
        "t: tensor([1., 1., 1., 1., 1.])",
        "n: [1. 1. 1. 1. 1.]",
        "t: tensor([2., 2., 2., 2., 2.])",
        "n: [2. 2. 2. 2. 2.]",
        "t: tensor([2., 2., 2., 2., 2.], dtype=torch.float64)",
        "n: [2. 2. 2. 2. 2.]",
    ]


def test_d2l_data_manipulation_saving_memory_and_conversion() -> None:
    src = """import torch
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
z1 = id(Z)
Z[:] = X + Y
print(id(Z) == z1)
before = id(X)
X += Y
print(id(X) == before)
A = X.numpy()
B = torch.from_numpy(A)
print((type(A), type(B)))
a = torch.tensor([3.5])
print((a, a.item(), float(a), int(a)))
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output.splitlines() == [
        "False", "True", "True",
        "(<class 'numpy.ndarray'>, <class 'torch.Tensor'>)",
        "(tensor([3.5000]), 3.5, 3.5, 3)",
    ]  # fmt: skip


def test_classes_print_as_torch_names_them() -> None:
    assert repr(torch.Tensor) == "<class 'torch.Tensor'>"
    assert repr(torch.nn.Parameter) == "<class 'torch.nn.parameter.Parameter'>"
    assert type(torch.ones(2)) is torch.Tensor


def test_numpy_shares_memory_both_ways() -> None:
    t = torch.zeros(3)
    n = t.numpy()
    assert n.dtype == np.float32 and n.flags.writeable
    n[1] = 5.0
    assert t.tolist() == [0.0, 5.0, 0.0]
    t.mul_(2)
    assert n.tolist() == [0.0, 10.0, 0.0]
    m = t.numpy()
    assert m is not n and np.shares_memory(m, n)  # a new array object each call, one memory
    s = torch.tensor(7.0).numpy()  # 0-d: a 0-d array
    assert s.shape == () and s.dtype == np.float32


def test_numpy_writes_do_not_bump_the_version_counter() -> None:
    t = torch.ones(2)
    n = t.numpy()
    n += 1
    assert t._version == 0 and t.tolist() == [2.0, 2.0]
    t.add_(1)
    assert t._version == 1 and n.tolist() == [3.0, 3.0]
    # a leaf saved for backward, written through numpy: no in-place error (as in torch)
    x = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    y = (w * x).sum()
    x.numpy()[0] = 4.0
    y.backward()
    assert w.grad is not None


def test_numpy_of_a_tensor_that_requires_grad() -> None:
    w = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"detach\(\)\.numpy\(\)"):
        w.numpy()
    n = w.numpy(force=True)
    assert n.tolist() == [1.0, 1.0]
    d = w.detach().numpy()
    with torch.no_grad():
        w -= 0.5
    assert d.tolist() == [0.5, 0.5]  # detach() shares the memory: the update shows


def test_from_numpy_and_as_tensor_share_tensor_copies() -> None:
    a = np.array([1.0, 2.0, 3.0])
    t = torch.from_numpy(a)
    s = torch.as_tensor(a)
    c = torch.tensor(a)
    f = torch.as_tensor(a, dtype=torch.float32)  # another dtype: a copy
    a[0] = -1
    assert t.dtype is torch.float64 and t.tolist() == [-1.0, 2.0, 3.0]
    assert s.tolist() == [-1.0, 2.0, 3.0]
    assert c.tolist() == [1.0, 2.0, 3.0] and f.tolist() == [1.0, 2.0, 3.0]
    t.add_(10)
    assert a.tolist() == [9.0, 12.0, 13.0] and s.tolist() == [9.0, 12.0, 13.0]
    t[1] = 0.0
    assert a.tolist() == [9.0, 0.0, 13.0]
    b = a[::2]  # a strided (positive) view is shared too
    v = torch.from_numpy(b)
    a[2] = 1.0
    assert v.tolist() == [9.0, 1.0]


def test_from_numpy_refuses_what_torch_refuses() -> None:
    with pytest.raises(TypeError, match=r"expected np.ndarray \(got list\)"):
        torch.from_numpy([1.0, 2.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"can't convert np\.ndarray of type numpy\.uint16"):
        torch.from_numpy(np.zeros(2, np.uint16))
    with pytest.raises(ValueError, match="negative"):
        torch.from_numpy(np.arange(3.0)[::-1])
    ro = np.ones(2)
    ro.setflags(write=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = torch.from_numpy(ro)
    assert any("not writable" in str(w.message) for w in caught)
    assert t.tolist() == [1.0, 1.0]


def test_tensor_and_array_share_through_a_round_trip() -> None:
    x = torch.arange(4.0)
    b = torch.from_numpy(x.numpy())
    b.add_(1)
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]
    x.zero_()
    assert b.tolist() == [0.0, 0.0, 0.0, 0.0]


def test_grad_accumulates_into_an_array_taken_from_it() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    g = w.grad.numpy()
    (w * w).sum().backward()
    assert g.tolist() == [4.0, 8.0]  # torch accumulates .grad in place


def test_data_assignment_moves_the_tensor_off_the_array() -> None:
    t = torch.zeros(2)
    n = t.numpy()
    t.data = torch.ones(2)
    n[0] = 9.0
    assert t.tolist() == [1.0, 1.0] and n.tolist() == [9.0, 0.0]


def test_sharing_ends_when_nobody_holds_the_array() -> None:
    t = torch.ones(3)
    n = t.numpy()
    assert type(t._c) is SharedCell
    del n
    t.add_(1)
    assert type(t._c) is Cell and t.tolist() == [2.0, 2.0, 2.0]
    a = np.ones(2)
    u = torch.from_numpy(a)
    del a
    assert u.tolist() == [1.0, 1.0] and type(u._c) is Cell


# -- training loops: the numpy side follows torch, the recorded history does not move -----------

LOOP = """import torch
import numpy as np
{init}
b = torch.tensor(0.5, requires_grad=True)
losses, snaps, copies, items = [], [], [], []
for i in range(10):
    loss = (w * w).sum() + b * b
    loss.backward()
    {inside}
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
{after}
"""
BASE = LOOP.format(init="w = torch.tensor([1.0, -2.0], requires_grad=True)", inside="pass",
                   after="print(w)")  # fmt: skip
BRIDGED = LOOP.format(
    init="src = np.array([1.0, -2.0], dtype=np.float32)\n"
    "w = torch.from_numpy(src).requires_grad_()",
    inside="losses.append(loss.detach().numpy()); snaps.append(w.detach().numpy()); "
    "copies.append(w.detach().numpy().copy()); items.append(loss.item())",
    after="print(w)\nprint(bool((src == w.detach().numpy()).all()), np.allclose(src, "
    "[0.8 ** 10, -2 * 0.8 ** 10]))\n"
    "print(losses[0], np.allclose(losses, 5.25 * 0.64 ** np.arange(10)), type(items[0]).__name__)\n"
    "print(all((s == src).all() for s in snaps), copies[0], copies[1])",
)


_received = results_decode.round_trip  # the run as the window gets it


def _history(result: RunResult) -> list[list[np.ndarray]]:
    (timeline,) = timelines_of(result)
    assert timeline.steps == 10
    out = [[np.asarray(timeline.value_at(j, k)) for k in range(timeline.steps + 1)]
           for j in range(len(timeline.parameters))]  # fmt: skip
    out.append([np.asarray(timeline.loss)])
    return out


def test_numpy_in_a_training_loop_follows_torch_and_leaves_the_history_alone() -> None:
    base, bridged = run(BASE), run(BRIDGED)
    assert base.error is None and bridged.error is None, (base.error, bridged.error)
    out = bridged.output.splitlines()
    assert out[0] == base.output.strip()
    assert out[1] == "True True"  # the source array follows the updates: w = 0.8**k w0
    assert out[2] == "5.25 True float"  # each loss's own array keeps its step's value
    # every snapshot of the parameter is its memory (final values); .copy() keeps each step
    assert out[3] == "True [ 1. -2.] [ 0.8 -1.6]"
    for result in (bridged, _received(bridged)):
        for got, want in zip(_history(result), _history(base), strict=True):
            assert len(got) == len(want)
            for g, w in zip(got, want, strict=True):
                np.testing.assert_array_equal(g, w)
    # and step 0's recorded value of w is the initial one, though ``src`` moved since
    (timeline,) = timelines_of(bridged)
    names = [p.name for p in timeline.parameters]
    np.testing.assert_array_equal(timeline.value_at(names.index("w"), 0), [1.0, -2.0])


NET = """import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(32, 2)
y = X[:, :1] * 2 - X[:, 1:] + 0.5
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
weights = []
for step in range(8):
    opt.zero_grad()
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    opt.step()
    {inside}
"""


def test_an_optimizer_step_moves_the_numpy_view_not_the_recorded_steps() -> None:
    base = run(NET.format(inside="pass"))
    bridged = run(
        NET.format(inside="weights.append(model.weight.detach().numpy())")
        + "print(all((w == model.weight.detach().numpy()).all() for w in weights))\n"
    )
    assert base.error is None and bridged.error is None, (base.error, bridged.error)
    assert bridged.output == "True\n"
    (tb,) = timelines_of(base)
    (tn,) = timelines_of(bridged)
    assert tb.steps == tn.steps == 8
    np.testing.assert_array_equal(tb.loss, tn.loss)
    for j in range(len(tb.parameters)):
        for k in range(tb.steps + 1):
            np.testing.assert_array_equal(tb.value_at(j, k), tn.value_at(j, k))
