"""Cells of PyTorch's autograd tutorials and d2l's autograd chapter, with what torch prints.

The expected text is torch's own output as the tutorials show it (torch is not a dependency).
"""

from __future__ import annotations

from tapeviz.sandbox import run

CELLS = """import torch
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
torch.manual_seed(1)  # d/a is exact for most a; a seed keeps the test from a rare a
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nSecond call\\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nCall after zeroing gradients\\n{inp.grad}")
x = torch.ones(5)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
print(f"Gradient function for z = {z.grad_fn}"[:40])
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
print(x.shape, x.size(), w.T.shape, x.dtype, torch.float32, x.numel(), x.dim())
print(torch.tensor([[1,2],[3,4]]).sum(dim=0), torch.tensor([[1.,2],[3,4]]).mean(1, keepdim=True))
"""

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
