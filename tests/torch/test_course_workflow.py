"""The "PyTorch for Deep Learning" course's notebook 01 (the workflow), as written.

Its printed numbers are the oracle: the seeded parameters (torch's own generator), the loss of
every tenth epoch and the learned weights, and ``pprint`` of the state dict.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import run

NOTEBOOK = """import torch
from torch import nn
weight = 0.7
bias = 0.3
start = 0
end = 1
step = 0.02
X = torch.arange(start, end, step).unsqueeze(dim=1)
y = weight * X + bias
train_split = int(0.8 * len(X))
X_train, y_train = X[:train_split], y[:train_split]
X_test, y_test = X[train_split:], y[train_split:]
class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
        self.bias = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weights * x + self.bias
torch.manual_seed(42)
model_0 = LinearRegressionModel()
print(list(model_0.parameters()))
print(model_0.state_dict())
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.01)
torch.manual_seed(42)
epochs = 100
train_loss_values = []
test_loss_values = []
epoch_count = []
for epoch in range(epochs):
    model_0.train()
    y_pred = model_0(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_0.eval()
    with torch.inference_mode():
      test_pred = model_0(X_test)
      test_loss = loss_fn(test_pred, y_test.type(torch.float))
      if epoch % 10 == 0:
            epoch_count.append(epoch)
            train_loss_values.append(loss.detach().numpy())
            test_loss_values.append(test_loss.detach().numpy())
            print(f"Epoch: {epoch} | MAE Train Loss: {loss} | MAE Test Loss: {test_loss} ")
print("The model learned the following values for weights and bias:")
print(model_0.state_dict())
print("\\nAnd the original values for weights and bias are:")
print(f"weights: {weight}, bias: {bias}")
torch.manual_seed(42)
class LinearRegressionModelV2(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_layer = nn.Linear(in_features=1, out_features=1)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear_layer(x)
model_1 = LinearRegressionModelV2()
print(model_1, model_1.state_dict())
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.01)
torch.manual_seed(42)
epochs = 1000
for epoch in range(epochs):
    model_1.train()
    y_pred = model_1(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_1.eval()
    with torch.inference_mode():
        test_pred = model_1(X_test)
        test_loss = loss_fn(test_pred, y_test)
    if epoch % 100 == 0:
        print(f"Epoch: {epoch} | Train loss: {loss} | Test loss: {test_loss}")
from pprint import pprint
print("The model learned the following values for weights and bias:")
pprint(model_1.state_dict())
"""


@pytest.fixture(scope="module")
def printed() -> list[str]:
    r = run(NOTEBOOK)
    assert r.error is None, r.error
    return r.output.splitlines()


def test_the_seeded_parameters_are_the_courses(printed: list[str]) -> None:
    assert printed[3] == "OrderedDict([('weights', tensor([0.3367])), ('bias', tensor([0.1288]))])"
    assert printed[21].endswith(
        "OrderedDict([('linear_layer.weight', tensor([[0.7645]])), "
        "('linear_layer.bias', tensor([0.8300]))])"
    )


def _numbers(line: str) -> list[float]:
    return [float(w) for w in line.replace("|", " ").split() if w[0].isdigit() and "." in w]


def test_the_training_prints_the_courses_losses(printed: list[str]) -> None:
    want = {  # the course's output (float32: the last digit may differ by one unit)
        "Epoch: 0 ": (0.31288138031959534, 0.48106518387794495),
        "Epoch: 10 ": (0.1976713240146637, 0.3463551998138428),
        "Epoch: 90 ": (0.02788739837706089, 0.06473556160926819),
    }
    for start, losses in want.items():
        line = next(p for p in printed if p.startswith(start + "| MAE"))
        assert _numbers(line) == pytest.approx(losses, rel=3e-7)


def test_the_learned_weights_and_pprint_are_the_courses(printed: list[str]) -> None:
    assert "OrderedDict([('weights', tensor([0.5784])), ('bias', tensor([0.3513]))])" in printed
    assert printed[-2:] == [
        "OrderedDict([('linear_layer.weight', tensor([[0.6968]])),",
        "             ('linear_layer.bias', tensor([0.3025]))])",
    ]


def test_pprint_refuses_a_stream_and_huge_text() -> None:
    r = run(
        "from pprint import pprint, pformat\npprint({'b': 1, 'a': [1] * 3})\n"
        "print(pformat(list(range(30)), width=20, compact=True).count(chr(10)))"
    )
    assert r.error is None, r.error
    assert r.output.splitlines()[0] == "{'a': [1, 1, 1], 'b': 1}"
    r = run("import pprint\npprint.pprint(1, stream=[])")
    assert r.error is not None and "file" in r.error.message
    r = run("import pprint\npprint.pprint(list(range(3_000_000)))")
    assert r.error is not None and r.error.limit == "output"
