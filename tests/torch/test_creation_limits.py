"""Every way to make a torch tensor checks its size first (np.zeros' untouched pages included).

``torch.zeros(10**9)`` used to succeed in-process (numpy's zeros reserve pages without touching
them) and ``torch.LongTensor(10**9)`` spent half a minute printing; now each is refused at once
with the size limit's message, as numpy's and TensorFlow's makers are.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import run


@pytest.mark.parametrize(
    "make",
    [
        "torch.zeros(10**9)", "torch.ones(10**5, 10**5)", "torch.empty(10**9)",
        "torch.full((10**5, 10**5), 1.0)", "torch.rand(10**9)", "torch.randn(10**5, 10**5)",
        "torch.Tensor(10**9)", "torch.LongTensor(10**9)", "torch.arange(10**9)",
        "torch.linspace(0, 1, 10**9)", "torch.logspace(0, 1, 10**9)", "torch.eye(10**5)",
        "torch.randint(0, 5, (10**9,))", "torch.randperm(10**9)",
    ],
)  # fmt: skip
def test_a_huge_tensor_is_refused_before_it_is_made(make: str) -> None:
    r = run(f"import torch\nx = {make}")
    assert r.error is not None and r.error.limit is not None, (make, r.error)
    assert "size limit" in r.error.message and r.error.line == 2


def test_ordinary_tensors_are_made_as_before() -> None:
    r = run("import torch\nprint(torch.zeros(2, 3).shape, torch.arange(4).tolist(), "
            "torch.eye(2).sum().item(), torch.Tensor(2, 2).shape)")  # fmt: skip
    assert r.error is None, r.error
    assert r.output == "torch.Size([2, 3]) [0, 1, 2, 3] 2.0 torch.Size([2, 2])\n"
