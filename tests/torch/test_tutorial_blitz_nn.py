"""PyTorch's 60-minute blitz "Neural Networks" tutorial and d2l's LeNet, as their pages print them.

The blitz script runs unchanged in the sandbox. What torch prints is the tutorial's own rendered
output: the ``print(net)`` text, ``10`` parameters, ``torch.Size([6, 1, 5, 5])``, the
``MseLossBackward0 → AddmmBackward0 → AccumulateGrad`` walk (``addmm``'s first input is the
bias) and ``None`` for ``conv1.bias.grad`` after ``zero_grad()`` (torch 2's
``set_to_none=True``). d2l's LeNet prints its layer-by-layer shapes as the book shows them.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.nn.functional as F
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results_decode

NET = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution
        # kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        # Max pooling over a (2, 2) window
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        # If the size is a square, you can specify with a single number
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1) # flatten all dimensions except the batch dimension
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)
"""

TUTORIAL = (
    NET
    + """
params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight

input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)

net.zero_grad()
out.backward(torch.randn(1, 10))

output = net(input)
target = torch.randn(10)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()

loss = criterion(output, target)
print(loss)

print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU

net.zero_grad()     # zeroes the gradient buffers of all parameters

print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)

loss.backward()

print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)

learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

import torch.optim as optim

# create your optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)

# in your training loop:
optimizer.zero_grad()   # zero the gradient buffers
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()    # Does the update
"""
)

PRINTED_NET = [
    "Net(",
    "  (conv1): Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))",
    "  (conv2): Conv2d(6, 16, kernel_size=(5, 5), stride=(1, 1))",
    "  (fc1): Linear(in_features=400, out_features=120, bias=True)",
    "  (fc2): Linear(in_features=120, out_features=84, bias=True)",
    "  (fc3): Linear(in_features=84, out_features=10, bias=True)",
    ")",
]


_received = results_decode.round_trip  # the run as the window gets it


def test_the_tutorial_runs_unchanged_and_prints_what_torch_prints() -> None:
    # Seeded: unseeded, about one draw in ten has a gradient spanning 1,000×, which torch (and
    # tapeviz) prints in scientific notation, not the fixed 4-decimal form checked below.
    r = run(TUTORIAL.replace("import torch\n", "import torch\ntorch.manual_seed(1)\n", 1))
    assert r.error is None, r.error
    lines = r.output.splitlines()
    assert lines[:9] == [*PRINTED_NET, "10", "torch.Size([6, 1, 5, 5])"]
    text = "\n".join(lines[9:])
    assert re.match(r"tensor\(\[\[(\s*-?\d\.\d{4},?){10}\]\], grad_fn=<AddmmBackward0>\)", text)
    rest = [ln for ln in lines if not ln.startswith(("tensor([[", "         "))][9:]
    node = r"<{}(?: object(?: at 0x[0-9a-f]+)?)?>"
    assert re.fullmatch(r"tensor\(\d+\.\d{4}, grad_fn=<MseLossBackward0>\)", rest[0])
    for line, name in zip(rest[1:4], ("MseLossBackward0", "AddmmBackward0", "AccumulateGrad"),
                          strict=True):  # fmt: skip
        assert re.fullmatch(node.format(name), line), line
    assert rest[4:7] == [
        "conv1.bias.grad before backward", "None", "conv1.bias.grad after backward"]  # fmt: skip
    assert re.fullmatch(r"tensor\(\[(\s*-?\d\.\d{4},?){6}\]\)", rest[7]), rest[7]


def test_the_tutorials_graphs_are_torchs_nodes_and_cross_the_process_wall() -> None:
    r = run(TUTORIAL)
    assert r.error is None, r.error
    tape = r.tapes[-1].tape  # the optimizer's backward pass
    labelled = [lab for lab in tape.op_labels if lab]
    assert labelled == [
        "ConvolutionBackward0", "ReluBackward0", "MaxPool2DWithIndicesBackward0",
        "ConvolutionBackward0", "ReluBackward0", "MaxPool2DWithIndicesBackward0",
        "ViewBackward0", "AddmmBackward0", "ReluBackward0", "AddmmBackward0", "ReluBackward0",
        "AddmmBackward0", "MseLossBackward0",
    ]  # fmt: skip
    assert "transpose" not in [rec.name for rec in tape.records]  # no NHWC round trips
    shown = GraphModel([tape])
    assert [n.label for n in shown.nodes.values() if n.kind == "layer"] == [
        "conv1", "conv2", "fc1", "fc2", "fc3", "mseloss"]  # fmt: skip
    assert len(shown.gradients) > 0
    back = _received(r)
    got = back.tapes[-1].tape
    assert list(got.op_labels) == list(tape.op_labels)
    conv = next(rec for rec in got.records if rec.name == "conv_bias_nchw")
    assert dict(conv.params) == {"stride": (1, 1), "padding": (0, 0), "dilation": (1, 1),
                                 "groups": 1}  # fmt: skip


class Net(nn.Module):
    """The tutorial's LeNet, for the checks the printed text cannot show."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 6, 5), nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.fc3 = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x: Any) -> Any:
        """The tutorial's forward."""
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def test_backward_then_the_manual_update_then_sgd() -> None:
    torch.manual_seed(0)
    net, x, target = Net(), torch.randn(1, 1, 32, 32), torch.randn(10).view(1, -1)
    out = net(x)
    net.zero_grad()
    out.backward(torch.randn(1, 10))
    assert all(p.grad is not None and p.grad.shape == p.shape for p in net.parameters())
    loss = nn.MSELoss()(net(x), target)
    net.zero_grad()
    assert net.conv1.bias.grad is None
    loss.backward()
    before = [p.detach().numpy().copy() for p in net.parameters()]
    grads = [p.grad.numpy().copy() for p in net.parameters()]
    for f in net.parameters():
        f.data.sub_(f.grad.data * 0.01)
    for p, b, g in zip(net.parameters(), before, grads, strict=True):
        np.testing.assert_allclose(p.detach().numpy(), b - 0.01 * g, rtol=1e-6, atol=1e-7)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    losses = []
    for _ in range(20):
        optimizer.zero_grad()
        loss = nn.MSELoss()(net(x), target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]


D2L = [
    ("Conv2d", [1, 6, 28, 28]), ("Sigmoid", [1, 6, 28, 28]), ("AvgPool2d", [1, 6, 14, 14]),
    ("Conv2d", [1, 16, 10, 10]), ("Sigmoid", [1, 16, 10, 10]), ("AvgPool2d", [1, 16, 5, 5]),
    ("Flatten", [1, 400]), ("Linear", [1, 120]), ("Sigmoid", [1, 120]), ("Linear", [1, 84]),
    ("Sigmoid", [1, 84]), ("Linear", [1, 10]),
]  # fmt: skip


def test_d2l_lenet_prints_its_layer_by_layer_shapes(capsys: Any) -> None:
    net = nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
        nn.Linear(120, 84), nn.Sigmoid(),
        nn.Linear(84, 10))  # fmt: skip
    X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
    for layer in net:
        X = layer(X)
        print(layer.__class__.__name__, "output shape: \t", X.shape)
    want = [f"{name} output shape: \t torch.Size({shape})" for name, shape in D2L]
    assert capsys.readouterr().out.splitlines() == want
    assert repr(net[2]) == "AvgPool2d(kernel_size=2, stride=2, padding=0)"
    assert repr(net[0]) == "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2))"


def test_d2l_lenet_in_the_sandbox() -> None:
    """The same loop as a script (``type(layer)``: the sandbox refuses ``__class__``)."""
    src = """import torch
from torch import nn
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(type(layer).__name__,'output shape: \\t',X.shape)
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output.splitlines() == [
        f"{name} output shape: \t torch.Size({shape})" for name, shape in D2L]  # fmt: skip


def test_d2l_prints_each_layers_class_name_in_a_script() -> None:
    from tapeviz.sandbox import run

    code = (
        "import torch\nfrom torch import nn\n"
        "net = nn.Sequential(nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),\n"
        "                    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten())\n"
        "X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)\n"
        "for layer in net:\n"
        "    X = layer(X)\n"
        "    print(layer.__class__.__name__, 'output shape: \\t', X.shape)\n"
    )  # d2l's exact loop: x.__class__ is type(x) in a script
    result = run(code)
    assert result.error is None, result.error
    assert result.output.splitlines() == [
        "Conv2d output shape: \t torch.Size([1, 6, 28, 28])",
        "Sigmoid output shape: \t torch.Size([1, 6, 28, 28])",
        "AvgPool2d output shape: \t torch.Size([1, 6, 14, 14])",
        "Flatten output shape: \t torch.Size([1, 1176])",
    ]
