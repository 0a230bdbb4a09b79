"""PyTorch scripts run in the sandbox: ``import torch`` binds tapeviz.torch, tapes reach the app."""

from __future__ import annotations

from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results_decode

MICROGRAD = """import torch
x1 = torch.Tensor([2.0]).double()                ; x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()                ; x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()               ; w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()                ; w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()  ; b.requires_grad = True
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()

print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
"""

LOOP = """import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
for i in range(20):
    loss = (w * w).sum() + b * b
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w)
"""


_received = results_decode.round_trip  # the run as the window gets it


def test_the_micrograd_lecture_cell_prints_what_torch_printed() -> None:
    r = run(MICROGRAD)
    assert r.error is None, r.error
    assert r.output == (
        "0.7071066904050358\n---\nx2 0.5000001283844369\nw2 0.0\n"
        "x1 -1.5000003851533106\nw1 1.0000002567688737\n"
    )
    assert len(r.tapes) == 1
    assert [rec.name for rec in r.tapes[0].tape.records] == [
        "multiply", "multiply", "add", "add", "tanh",
    ]  # fmt: skip


def test_a_training_loop_is_one_timeline_with_named_parameters() -> None:
    local = run(LOOP)
    assert local.error is None, local.error
    assert local.output == "tensor([ 0.0115, -0.0231], requires_grad=True)\n"
    for result in (local, _received(local)):
        (timeline,) = timelines_of(result)
        assert timeline.steps == 20
        assert sorted(p.name for p in timeline.parameters) == ["b", "w"]
        assert all(p.variable for p in timeline.parameters)
        assert timeline.loss[0] == 5.25


def test_no_grad_is_a_with_block_scripts_may_use() -> None:
    r = run("import torch\nx = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n"
            "    y = x * 2\nprint(y.requires_grad)\n")  # fmt: skip
    assert r.error is None, r.error
    assert r.output == "False\n"


def test_torch_state_does_not_leak_between_runs() -> None:
    r = run("import torch\ntorch.set_grad_enabled(False)\ntorch.set_default_dtype(torch.float64)\n"
            "torch.set_printoptions(precision=2)\n")  # fmt: skip
    assert r.error is None, r.error
    r = run("import torch\nprint(torch.is_grad_enabled(), torch.get_default_dtype(), "
            "torch.tensor([1.23456]))\n")  # fmt: skip
    assert r.output == "True torch.float32 tensor([1.2346])\n"


def test_a_seeded_script_gives_the_same_numbers_every_run() -> None:
    src = "import torch\ntorch.manual_seed(0)\nprint(torch.randn(3).tolist())\n"
    assert run(src).output == run(src).output


def test_custom_autograd_functions_as_the_tutorial_writes_them() -> None:
    src = """import torch
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MulConstant.apply(x, 3.0)
y.sum().backward()
print(y, x.grad)
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
P3 = LegendrePolynomial3.apply
a = torch.full((), 0.5, requires_grad=True)
out = P3(a)
out.backward()
print(out, a.grad)
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output == (
        "tensor([3., 6.], grad_fn=<MulConstantBackward>) tensor([3., 3.])\n"
        "tensor(-0.4375, grad_fn=<LegendrePolynomial3Backward>) tensor(0.3750)\n"
    )


NET = """import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.randn(64, 2)
y = (X[:, 0] * 2 - X[:, 1] + 0.5).unsqueeze(1)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 8)
        self.fc2 = nn.Linear(8, 1)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
for epoch in range(5):
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
for name, p in model.named_parameters():
    print(name, p.shape)
"""


def test_a_module_trained_with_a_data_loader_is_one_timeline_named_as_torch_names() -> None:
    local = run(NET)
    assert local.error is None, local.error
    assert local.output.splitlines() == [
        "fc1.weight torch.Size([8, 2])", "fc1.bias torch.Size([8])",
        "fc2.weight torch.Size([1, 8])", "fc2.bias torch.Size([1])",
    ]  # fmt: skip
    for result in (local, _received(local)):
        (timeline,) = timelines_of(result)
        assert timeline.steps == 20  # 5 epochs of 4 batches
        names = sorted(p.name for p in timeline.parameters)
        assert names == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
        assert timeline.loss[-1] < timeline.loss[0] / 4  # (torch.manual_seed(0)'s own weights)
    tape = local.tapes[0].tape
    assert "AddmmBackward0" in tape.op_labels and "MseLossBackward0" in tape.op_labels
    assert {r.scope for r in tape.records} >= {("net", "fc1"), ("net", "fc2"), ("mseloss",)}


def test_d2l_linear_regression_from_scratch_runs_as_written() -> None:
    """d2l's PyTorch cell: a generator data_iter, random.shuffle, a hand-written sgd."""
    src = """import random
import torch
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
batch_size = 10
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
w = torch.normal(0, 0.01, size=(2,1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating b: {true_b - b}')
"""
    r = run(src)
    assert r.error is None, r.error
    lines = r.output.splitlines()
    assert [ln.split(",")[0] for ln in lines[:3]] == ["epoch 1", "epoch 2", "epoch 3"]
    assert float(lines[2].split()[-1]) < 1e-3  # d2l: loss 0.000050
    assert lines[3].startswith("error in estimating b: tensor([") and "RsubBackward1" in lines[3]
    (timeline,) = timelines_of(r)
    assert timeline.steps == 300  # 3 epochs of 100 batches


def test_the_tensors_tutorial_out_argument_and_in_place_add() -> None:
    src = """import torch
tensor = torch.ones(4, 4)
tensor[:,1] = 0
y3 = torch.rand_like(tensor)
torch.matmul(tensor, tensor.T, out=y3)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(y3[0], z3[0])
agg = tensor.sum()
print(agg.item(), type(agg.item()))
tensor.add_(5)
print(tensor[0])
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output == (
        "tensor([3., 3., 3., 3.]) tensor([1., 0., 1., 1.])\n12.0 <class 'float'>\n"
        "tensor([6., 5., 6., 6.])\n"
    )


def test_grad_modes_as_decorators_and_tensors_in_plots() -> None:
    src = """import torch
import matplotlib.pyplot as plt
@torch.no_grad()
def f(x):
    return x*2
@torch.no_grad
def g(x):
    return x*3
@torch.enable_grad()
def h(x):
    return x*4
x=torch.ones(2, requires_grad=True)
print(f(x).requires_grad, g(x).requires_grad, torch.is_grad_enabled())
with torch.no_grad():
    print(h(x).requires_grad)
@torch.set_grad_enabled(False)
def k(x):
    return x * 5
print(torch.is_grad_enabled(), k(x).requires_grad, torch.is_grad_enabled())
t = torch.linspace(0, 1, 5)
plt.plot(t, t ** 2)
plt.show()
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output == "False False True\nTrue\nTrue False True\n"
    assert len(r.figures) == 1
    err = run("import torch\nimport matplotlib.pyplot as plt\n"
              "x = torch.ones(3, requires_grad=True)\nplt.plot(x, x * 2)\n").error  # fmt: skip
    assert err is not None and "detach().numpy()" in err.message


def test_grad_mode_decorators_on_methods_bind_self() -> None:
    """As torch's decorators (functools.wraps): a decorated method gets ``self``, keeps its name."""
    src = """import torch
class Model:
    def __init__(self):
        self.w = torch.ones(2, requires_grad=True)
    @torch.no_grad()
    def predict(self, x):
        return self.w * x
    @torch.no_grad
    def plain(self, x):
        return self.w * x
    @torch.enable_grad()
    def train_step(self, x):
        return self.w * x
m = Model()
print(m.predict(torch.ones(2)).requires_grad, m.plain(torch.ones(2)).requires_grad)
with torch.no_grad():
    print(m.train_step(torch.ones(2)).requires_grad)
print(m.predict.__name__, Model.predict.__name__)
"""
    r = run(src)
    assert r.error is None, r.error
    assert r.output == "False False\nTrue\npredict predict\n"


SCHEDULED = """import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x, y = torch.randn(8, 2), torch.randn(8, 1)
for epoch in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr()[0])
"""


def test_a_scheduled_optimizer_steps_in_a_script_without_a_warning() -> None:
    r = run(SCHEDULED)  # the scheduler once wrapped opt.step in a function scripts can't call
    assert r.error is None, r.error
    assert r.output == "0 0.1\n1 0.05\n2 0.05\n3 0.025\n4 0.025\n"
    assert r.notes == () and len(r.tapes) == 5


def test_a_scheduler_stepped_before_the_optimizer_warns_in_a_script() -> None:
    swapped = "    sched.step()\n    opt.step()\n"
    src = SCHEDULED.replace("    opt.step()\n    sched.step()\n", swapped)
    r = run(src)
    assert r.error is None, r.error
    assert any("before `optimizer.step()`" in str(n) for n in r.notes), r.notes


DATASET = """import torch
from torch.utils.data import Dataset, DataLoader, random_split
class Points(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, 2, generator=g)
        self.y = (self.x.norm(dim=1) < 1).long()
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
full = Points(50)
train, test = random_split(full, [40, 10], generator=torch.Generator().manual_seed(1))
loader = DataLoader(train, batch_size=16, shuffle=True)
model = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for xb, yb in loader:
    loss = torch.nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(len(full), len(train), len(test), [len(b[0]) for b in loader], full[3][0].shape)
"""


def test_a_courses_dataset_class_feeds_a_dataloader() -> None:
    r = run(DATASET)
    assert r.error is None, r.error
    assert r.output == "50 40 10 [16, 16, 8] torch.Size([2])\n"
    assert len(r.tapes) == 3
    assert run(DATASET).namespace["test"].indices == r.namespace["test"].indices  # seeded split
