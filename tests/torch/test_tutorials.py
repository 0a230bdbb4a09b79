"""Cells of PyTorch's autograd tutorials and d2l's autograd chapter, with what torch prints.

The expected text is torch's own output as the tutorials show it (torch is not a dependency).
"""

from __future__ import annotations

from tapeviz.sandbox import run

CELLS = 'import torch\nx = torch.arange(4.0)\nprint(x)\nx.requires_grad_(True)\nprint(x.grad)\ny = 2 * torch.dot(x, x)\nprint(y)\ny.backward()\nprint(x.grad)\nprint(x.grad == 4 * x)\nx.grad.zero_()\ny = x.sum()\ny.backward()\nprint(x.grad)\nx.grad.zero_()\ny = x * x\ny.backward(gradient=torch.ones(len(y)))\nprint(x.grad)\nx.grad.zero_()\ny = x * x\nu = y.detach()\nz = u * x\nz.sum().backward()\nprint(x.grad == u)\nx.grad.zero_()\ny.sum().backward()\nprint(x.grad == 2 * x)\ndef f(a):\n    b = a * 2\n    while b.norm() < 1000:\n        b = b * 2\n    if b.sum() > 0:\n        c = b\n    else:\n        c = 100 * b\n    return c\na = torch.randn(size=(), requires_grad=True)\nd = f(a)\nd.backward()\nprint(a.grad == d / a)\na = torch.tensor([2., 3.], requires_grad=True)\nb = torch.tensor([6., 4.], requires_grad=True)\nQ = 3*a**3 - b**2\nexternal_grad = torch.tensor([1., 1.])\nQ.backward(gradient=external_grad)\nprint(9*a**2 == a.grad)\nprint(-2*b == b.grad)\ninp = torch.eye(4, 5, requires_grad=True)\nout = (inp+1).pow(2).t()\nout.backward(torch.ones_like(out), retain_graph=True)\nprint(f"First call\\n{inp.grad}")\nout.backward(torch.ones_like(out), retain_graph=True)\nprint(f"\\nSecond call\\n{inp.grad}")\ninp.grad.zero_()\nout.backward(torch.ones_like(out), retain_graph=True)\nprint(f"\\nCall after zeroing gradients\\n{inp.grad}")\nx = torch.ones(5)\nw = torch.randn(5, 3, requires_grad=True)\nb = torch.randn(3, requires_grad=True)\nz = torch.matmul(x, w)+b\nprint(f"Gradient function for z = {z.grad_fn}"[:40])\nprint(z.requires_grad)\nwith torch.no_grad():\n    z = torch.matmul(x, w)+b\nprint(z.requires_grad)\nprint(x.shape, x.size(), w.T.shape, x.dtype, torch.float32, x.numel(), x.dim())\nprint(torch.tensor([[1,2],[3,4]]).sum(dim=0), torch.tensor([[1.,2],[3,4]]).mean(1, keepdim=True))\n'

EXPECTED = [
    "tensor([0., 1., 2., 3.])",
    "None",
    "tensor(28., grad_fn=<MulBackward0>)",
    "tensor([ 0.,  4.,  8., 12.])",
    "tensor([True, True, True, True])",
    "tensor([1., 1., 1., 1.])",
    "tensor([0., 2., 4., 6.])",
    "tensor([True, True, True, True])",
    "tensor([True, True, True, True])",
    "tensor(True)",
    "tensor([True, True])",
    "tensor([True, True])",
    "First call",
    "tensor([[4., 2., 2., 2., 2.],",
    "        [2., 4., 2., 2., 2.],",
    "        [2., 2., 4., 2., 2.],",
    "        [2., 2., 2., 4., 2.]])",
    "",
    "Second call",
    "tensor([[8., 4., 4., 4., 4.],",
    "        [4., 8., 4., 4., 4.],",
    "        [4., 4., 8., 4., 4.],",
    "        [4., 4., 4., 8., 4.]])",
    "",
    "Call after zeroing gradients",
    "tensor([[4., 2., 2., 2., 2.],",
    "        [2., 4., 2., 2., 2.],",
    "        [2., 2., 4., 2., 2.],",
    "        [2., 2., 2., 4., 2.]])",
    "True",
    "False",
    "torch.Size([5]) torch.Size([5]) torch.Size([3, 5]) torch.float32 torch.float32 5 1",
    "tensor([4, 6]) tensor([[1.5000],",
    "        [3.5000]])",
]


def test_the_autograd_tutorial_cells_print_what_torch_prints() -> None:
    result = run(CELLS)
    assert result.error is None, result.error
    lines = [ln for ln in result.output.splitlines() if not ln.startswith("Gradient function")]
    assert lines == EXPECTED
    assert "Gradient function for z = <AddBackward0 " in result.output
