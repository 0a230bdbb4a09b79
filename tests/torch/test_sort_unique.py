"""``torch.sort``, ``argsort``, ``unique`` and ``bincount`` as torch's documentation shows them.

A decision-boundary plot (the classification lessons' helper) needs ``torch.unique`` to tell a
binary problem from a multi-class one; it runs here and leaves a filled contour and a scatter.
"""

from __future__ import annotations

from collections.abc import Callable

from tapeviz.sandbox import run

PREFIX = "import torch\n"  # (every script here starts so)
Lines = Callable[[str], list[str]]  # (the lines_of fixture: tests/conftest.py)


def test_unique_as_documented(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX + "print(torch.unique(torch.tensor([1, 3, 2, 3], dtype=torch.long)))\n"
        "out, inv = torch.unique(torch.tensor([1, 3, 2, 3]), sorted=True, return_inverse=True)\n"
        "print(out, inv)\n"
        "out, inv = torch.unique(torch.tensor([[1, 3], [2, 3]]), return_inverse=True)\n"
        "print(inv.tolist())\n"
        "print(torch.tensor([2., 2., 1.]).unique(return_counts=True))"
    ) == [
        "tensor([1, 2, 3])",
        "tensor([1, 2, 3]) tensor([0, 2, 1, 2])",
        "[[0, 2], [1, 2]]",
        "(tensor([1., 2.]), tensor([1, 2]))",
    ]


def test_sort_gives_values_with_a_gradient_and_indices(
    lines_of: Lines,
) -> None:
    assert lines_of(
        PREFIX + "x = torch.tensor([3., 1., 2.], requires_grad=True)\n"
        "s = torch.sort(x, descending=True)\n"
        "print(s.values, s.indices)\n"
        "(s.values * torch.tensor([1., 10., 100.])).sum().backward()\n"
        "print(x.grad, x.argsort().tolist())"
    ) == [
        "tensor([3., 2., 1.], grad_fn=<SortBackward0>) tensor([0, 2, 1])",
        "tensor([  1., 100.,  10.]) [1, 2, 0]",
    ]


def test_bincount_as_documented_and_its_size_checked(lines_of: Lines) -> None:
    assert lines_of(PREFIX + "print(torch.bincount(torch.tensor([4, 3, 6, 3, 4])))") == [
        "tensor([0, 0, 0, 2, 2, 0, 1])"
    ]
    r = run("import torch\ntorch.bincount(torch.tensor([10**10]))")
    assert r.error is not None and "size limit" in r.error.message


def test_a_decision_boundary_helper_draws() -> None:
    r = run(
        "import torch, numpy as np\nimport matplotlib.pyplot as plt\nfrom torch import nn\n"
        "X = torch.randn(40, 2)\ny = (X[:, 0] > 0).float()\n"
        "model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))\n"
        "lo, hi = X[:, 0].min() - 0.1, X[:, 0].max() + 0.1\n"
        "xx, yy = np.meshgrid(np.linspace(lo, hi, 21), np.linspace(lo, hi, 21))\n"
        "grid = torch.from_numpy(np.column_stack((xx.ravel(), yy.ravel()))).float()\n"
        "with torch.inference_mode():\n    logits = model(grid)\n"
        "two = len(torch.unique(y)) <= 2\n"
        "pred = torch.round(torch.sigmoid(logits)).reshape(xx.shape).numpy()\n"
        "plt.contourf(xx, yy, pred, cmap=plt.cm.RdYlBu, alpha=0.7)\n"
        "plt.scatter(X[:, 0], X[:, 1], c=y, s=40, cmap=plt.cm.RdYlBu)\n"
        "plt.xlim(xx.min(), xx.max())\nprint(two)"
    )
    assert r.error is None, r.error
    assert r.output == "True\n" and len(r.figures) == 1
