"""A PyTorch loop that trains an nn.Sequential on 2-D points is drawn in the Network view.

The view is given the loop's network (torch's (out, in) weights read as kernels) and replays
the weights the timeline recorded: its output at a step must be the script's own output then.
"""

from __future__ import annotations

import numpy as np
import pytest

from tapeviz.models.network.script_net import ScriptNet, script_net_of
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import run
from tapeviz.sandbox.process.results_decode import round_trip

# "PyTorch for Deep Learning" 02, shortened: make_circles, an nn.Sequential, BCEWithLogitsLoss.
CIRCLES = """import torch
from torch import nn
from sklearn.datasets import make_circles
X, y = make_circles(200, noise=0.03, random_state=42)
X = torch.from_numpy(X).type(torch.float)
y = torch.from_numpy(y).type(torch.float)
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(2, 5), nn.ReLU(), nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 1))
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
first = model(X).squeeze().detach().numpy()
for epoch in range(LOOPS):
    model.train()
    y_logits = model(X).squeeze()
    loss = loss_fn(y_logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
last = model(X).squeeze().detach().numpy()
"""


def _net(code: str, received: bool = False) -> tuple[ScriptNet | str | None, dict]:
    r = run(code)
    assert r.error is None, r.error
    tls = timelines_of(round_trip(r) if received else r)
    assert len(tls) == 1
    return script_net_of(tls[0]), r.namespace


@pytest.mark.parametrize("received", [False, True])
def test_the_loop_is_drawn_with_the_scripts_own_outputs(received: bool) -> None:
    net, ns = _net(CIRCLES.replace("LOOPS", "12"), received)
    assert isinstance(net, ScriptNet), net
    assert net.steps == 12 and net.config.net.hidden == (5, 3)
    assert [net.spec.activations[0], net.spec.activations[1]] == ["relu", "tanh"]
    assert net.display == "logit" and net.label == "SGD lr 0.1" and net.kind == "SGD"
    x = np.asarray(net.data.train_x)
    np.testing.assert_allclose(x, np.asarray(ns["X"].numpy(), np.float64), rtol=1e-6)
    assert sorted(set(net.data.train_y.tolist())) == [-1.0, 1.0]
    for k, want in ((0, ns["first"]), (12, ns["last"])):
        out = net.spec.forward(net.row(k), x)[-1][:, 0]
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
    assert net.epoch_of(5) == 5  # (a loop of the script's own: each step counts)


def test_cross_entropy_over_two_logits_is_a_softmax_pair() -> None:
    code = (CIRCLES.replace("LOOPS", "3")
            .replace("nn.Linear(3, 1))", "nn.Linear(3, 2))")
            .replace("nn.BCEWithLogitsLoss()", "nn.CrossEntropyLoss()")
            .replace("y = torch.from_numpy(y).type(torch.float)", "y = torch.from_numpy(y)")
            .replace("model(X).squeeze()", "model(X)"))  # fmt: skip
    net, ns = _net(code)
    assert isinstance(net, ScriptNet), net
    x = np.asarray(net.data.train_x)
    logits = ns["first"]
    p1 = np.exp(logits[:, 1]) / np.exp(logits).sum(1)  # the view draws softmax₁ = σ(z₁ − z₀)
    out = net.spec.forward(net.row(0), x)[-1][:, 0]
    np.testing.assert_allclose(out, p1, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ((("nn.ReLU()", "nn.GELU()"),), "is a GELU, not a Linear layer"),
        ((("nn.Linear(3, 1))", "nn.Linear(3, 3))"), ("nn.BCEWithLogitsLoss()", "nn.MSELoss()"),
          ("loss_fn(y_logits, y)", "loss_fn(y_logits, torch.zeros(200, 3))")),
         "output has 3 units"),
    ],
)  # fmt: skip
def test_a_network_the_view_cannot_draw_says_why(
    changes: tuple[tuple[str, str], ...], reason: str
) -> None:
    code = CIRCLES.replace("LOOPS", "3")
    for old, new in changes:
        code = code.replace(old, new)
    net, _ = _net(code)
    assert isinstance(net, str) and reason in net, net


def test_a_loop_on_three_columns_is_not_offered() -> None:
    wide = "X = torch.cat([torch.from_numpy(X).float(), torch.ones(200, 1)], 1)"
    three = (CIRCLES.replace("LOOPS", "3").replace("nn.Linear(2, 5)", "nn.Linear(3, 5)")
             .replace("X = torch.from_numpy(X).type(torch.float)", wide))  # fmt: skip
    assert _net(three)[0] is None


# The course's own subclassed models (CircleModelV0 … V2) and its loop, test split included.
COURSE = """import torch
from torch import nn
from sklearn.datasets import make_circles
from sklearn.model_selection import train_test_split
X, y = make_circles(1000, noise=0.03, random_state=42)
X = torch.from_numpy(X).type(torch.float)
y = torch.from_numpy(y).type(torch.float)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)
device = "cuda" if torch.cuda.is_available() else "cpu"
class CircleModelV2(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(in_features=2, out_features=10)
        self.layer_2 = nn.Linear(in_features=10, out_features=10)
        self.layer_3 = nn.Linear(in_features=10, out_features=1)
        self.relu = nn.ReLU()
    def forward(self, x):
        return self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))
model_3 = CircleModelV2().to(device)
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model_3.parameters(), lr=0.1)
torch.manual_seed(42)
first = model_3(X_train).squeeze().detach().numpy()
tests = []
for epoch in range(LOOPS):
    model_3.train()
    y_logits = model_3(X_train).squeeze()
    y_pred = torch.round(torch.sigmoid(y_logits))
    loss = loss_fn(y_logits, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_3.eval()
    with torch.inference_mode():
        test_logits = model_3(X_test).squeeze()
        test_pred = torch.round(torch.sigmoid(test_logits))
        test_loss = loss_fn(test_logits, y_test)
    tests.append(test_loss.item())
last = model_3(X_train).squeeze().detach().numpy()
"""


def _drawn(net: ScriptNet | str | None, ns: dict, x_name: str = "X_train") -> np.ndarray:
    assert isinstance(net, ScriptNet), net
    x = np.asarray(net.data.train_x)
    np.testing.assert_allclose(x, np.asarray(ns[x_name].numpy(), np.float64), rtol=1e-6)
    for k, want in ((0, ns["first"]), (net.steps, ns["last"])):
        out = net.spec.forward(net.row(k), x)[-1][:, 0]
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
    return x


@pytest.mark.parametrize("received", [False, True])
def test_the_courses_subclassed_model_is_drawn_with_its_test_points(received: bool) -> None:
    net, ns = _net(COURSE.replace("LOOPS", "5"), received)
    _drawn(net, ns)
    assert isinstance(net, ScriptNet)
    assert net.steps == 5 and net.config.net.hidden == (10, 10)
    assert list(net.spec.activations) == ["relu", "relu", "linear"] and net.display == "logit"
    test_x = np.asarray(net.data.test_x)
    np.testing.assert_allclose(test_x, ns["X_test"].numpy(), rtol=1e-6)
    assert sorted(set(net.data.test_y.tolist())) == [-1.0, 1.0] and len(test_x) == 200
    # the test loss after each step is the one the loop printed
    np.testing.assert_allclose(net.history["val_loss"], ns["tests"], rtol=1e-5)


@pytest.mark.parametrize(
    ("forward", "acts"),
    [
        ("return self.layer_3(self.layer_2(self.layer_1(x)))", "linear linear"),  # CircleModelV1
        ("return self.layer_3(torch.relu(self.layer_2(nn.functional.relu(self.layer_1(x)))))",
         "relu relu"),
        ("z = torch.tanh(self.layer_1(x))\n        z = self.layer_2(z).sigmoid()\n"
         "        return self.layer_3(z).squeeze()", "tanh sigmoid"),
    ],
)  # fmt: skip
def test_functional_activations_and_plain_chains_are_read(forward: str, acts: str) -> None:
    code = COURSE.replace("LOOPS", "3").replace(
        "return self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))", forward
    )
    net, ns = _net(code)
    _drawn(net, ns)
    assert isinstance(net, ScriptNet)
    assert list(net.spec.activations) == [*acts.split(), "linear"]


@pytest.mark.parametrize(
    ("forward", "says"),
    [
        ("return self.layer_3(self.layer_2(self.layer_1(x)) + self.layer_1(x).sum(1, keepdim=1))",
         "not a chain"),
        ("return self.layer_3(nn.functional.gelu(self.layer_2(self.layer_1(x))))", "not a chain"),
    ],
)  # fmt: skip
def test_a_forward_that_is_no_chain_says_why(forward: str, says: str) -> None:
    code = COURSE.replace("LOOPS", "3").replace(
        "return self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))", forward
    )
    net, _ = _net(code)
    assert isinstance(net, str) and says in net, net


def test_a_functional_loss_and_adam_are_read_too() -> None:
    functional = "loss = nn.functional.binary_cross_entropy_with_logits(y_logits, y)"
    code = (CIRCLES.replace("LOOPS", "4")
            .replace("torch.optim.SGD(model.parameters(), lr=0.1)",
                     "torch.optim.Adam(model.parameters(), lr=0.02)")
            .replace("loss = loss_fn(y_logits, y)", functional))  # fmt: skip
    net, ns = _net(code)
    assert isinstance(net, ScriptNet), net
    assert (net.kind, net.label, net.loss, net.display) == (
        "Adam",
        "Adam lr 0.02",
        "BCEWithLogitsLoss",
        "logit",
    )
    x = np.asarray(net.data.train_x)
    out = net.spec.forward(net.row(4), x)[-1][:, 0]
    np.testing.assert_allclose(out, ns["last"], rtol=1e-4, atol=1e-5)


def test_the_timeline_shows_each_parameter_after_the_last_step() -> None:
    r = run(CIRCLES.replace("LOOPS", "4"))
    assert r.error is None, r.error
    tl = timelines_of(r)[0]
    assert [p.label for p in tl.parameters][:2] == ["‖0.weight‖", "‖0.bias‖"]
    rows = tl.matrix(0, np.arange(tl.steps + 1), np.arange(10))
    final = r.namespace["model"][0].weight.detach().numpy().ravel()
    np.testing.assert_array_equal(rows[-1], final)  # (was the value before the last step)
    assert not np.array_equal(rows[-1], rows[-2])


def test_a_sigmoid_between_the_model_and_bce_is_the_output_activation() -> None:
    code = (CIRCLES.replace("LOOPS", "3").replace("nn.BCEWithLogitsLoss()", "nn.BCELoss()")
            .replace("y_logits = model(X).squeeze()",
                     "y_logits = torch.sigmoid(model(X).squeeze())"))  # fmt: skip
    net, ns = _net(code)
    assert isinstance(net, ScriptNet), net
    assert net.spec.activations[-1] == "sigmoid" and net.display == "prob"
    x = np.asarray(net.data.train_x)
    p = 1 / (1 + np.exp(-ns["first"]))
    np.testing.assert_allclose(net.spec.forward(net.row(0), x)[-1][:, 0], p, rtol=1e-4, atol=1e-6)


_SIGMOID = (
    ("nn.BCEWithLogitsLoss()", "nn.BCELoss()"),
    ("y_logits = model_3(X_train).squeeze()", "y_logits = model_3(X_train).squeeze().sigmoid()"),
    (
        "test_logits = model_3(X_test).squeeze()",
        "test_logits = model_3(X_test).squeeze().sigmoid()",
    ),
    ("torch.round(torch.sigmoid(y_logits))", "torch.round(y_logits)"),
    ("torch.round(torch.sigmoid(test_logits))", "torch.round(test_logits)"),
)
_TWO_LOGITS = (
    ("in_features=10, out_features=1)", "in_features=10, out_features=2)"),
    ("nn.BCEWithLogitsLoss()", "nn.CrossEntropyLoss()"),
    ("y = torch.from_numpy(y).type(torch.float)", "y = torch.from_numpy(y)"),
    ("y_logits = model_3(X_train).squeeze()", "y_logits = model_3(X_train)"),
    ("torch.round(torch.sigmoid(y_logits))", "y_logits.argmax(1)"),
    ("test_logits = model_3(X_test).squeeze()", "test_logits = model_3(X_test)"),
    ("torch.round(torch.sigmoid(test_logits))", "test_logits.argmax(1)"),
)


@pytest.mark.parametrize("changes", [_SIGMOID, _TWO_LOGITS])
def test_the_test_loss_follows_the_loops_own_loss(changes: tuple[tuple[str, str], ...]) -> None:
    code = COURSE.replace("LOOPS", "4").split("last = ")[0]
    for old, new in changes:
        assert old in code, old
        code = code.replace(old, new)
    net, ns = _net(code)
    assert isinstance(net, ScriptNet), net
    np.testing.assert_allclose(net.history["val_loss"], ns["tests"], rtol=1e-5)


LOADERS = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from sklearn.datasets import make_moons
X, y = make_moons(300, noise=0.1, random_state=0)
X, y = torch.tensor(X, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
train = DataLoader(TensorDataset(X[:240], y[:240]), batch_size=32, shuffle=True)
test = DataLoader(TensorDataset(X[240:], y[240:]), batch_size=20)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(2):
    for xb, yb in train:
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        for xb, yb in test:
            test_loss = loss_fn(model(xb).squeeze(1), yb)
"""


def test_a_data_loader_loop_shows_its_whole_data_set() -> None:
    """The view draws the loader's whole data set (train and test), not the first batch."""
    net, ns = _net(LOADERS)
    assert isinstance(net, ScriptNet), net
    assert net.steps == 16 and net.config.train.batch_size == 32  # 2 epochs of 8 batches
    np.testing.assert_allclose(net.data.train_x, ns["X"][:240].numpy(), rtol=1e-6)
    np.testing.assert_allclose(net.data.test_x, ns["X"][240:].numpy(), rtol=1e-6)
    assert (net.data.train_y == 2 * ns["y"][:240].numpy() - 1).all()  # (±1 as Playground)
