"""torch.save / torch.load (PyTorch's "Saving and loading models" recipe), data only."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

import pytest

import tapeviz.torch as torch
from tapeviz.tf import run_files
from tapeviz.tf.run_state import fresh_run_state

nn = torch.nn


@pytest.fixture(autouse=True)
def own_folder() -> Iterator[None]:
    with fresh_run_state():
        yield


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def _step(net: Net, opt: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    return loss


def test_a_state_dict_round_trips_into_a_new_model() -> None:
    torch.manual_seed(0)
    net = Net()
    torch.save(net.state_dict(), "model_weights.pth")
    state = torch.load("model_weights.pth", weights_only=True)
    assert isinstance(state, OrderedDict) and list(state) == list(net.state_dict())
    fresh = Net()
    fresh.load_state_dict(state)
    x = torch.randn(5, 3)
    assert torch.equal(fresh(x), net(x))
    state["fc1.weight"][0, 0] = 100.0  # the loaded tensors are new ones
    assert float(net.fc1.weight[0, 0]) != 100.0


def test_a_general_checkpoint_resumes_training_identically() -> None:
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    for _ in range(3):
        loss = _step(net, opt, x, y)
    torch.save({"epoch": 3, "model_state_dict": net.state_dict(),
                "optimizer_state_dict": opt.state_dict(), "loss": loss}, "ckpt.tar")  # fmt: skip
    checkpoint = torch.load("ckpt.tar", weights_only=True)
    assert checkpoint["epoch"] == 3 and float(checkpoint["loss"]) == float(loss)
    assert checkpoint["loss"].requires_grad
    fresh = Net()
    fresh_opt = torch.optim.Adam(fresh.parameters(), lr=0.5)
    fresh.load_state_dict(checkpoint["model_state_dict"])
    fresh_opt.load_state_dict(checkpoint["optimizer_state_dict"])
    assert fresh_opt.param_groups[0]["lr"] == 0.01
    _step(net, opt, x, y)
    _step(fresh, fresh_opt, x, y)
    assert torch.allclose(fresh(x), net(x))


def test_a_whole_module_is_kept_by_reference_with_its_saved_values() -> None:
    net = Net()
    torch.save(net, "model.pth")
    before = net.fc1.weight.detach().clone()
    with torch.no_grad():
        net.fc1.weight.add_(1.0)
    with pytest.raises(RuntimeError, match="Weights only load failed"):
        torch.load("model.pth", weights_only=True)
    model = torch.load("model.pth", weights_only=False)
    assert model is net and torch.equal(model.fc1.weight.detach(), before)


def test_plain_values_and_what_cannot_be_saved() -> None:
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.save([t, (1, "a"), {3: None}, torch.float64, torch.Size([2, 3])], "misc.pt")
    loaded = torch.load("misc.pt")
    assert loaded[0].requires_grad and loaded[0].tolist() == [1.0, 2.0]
    assert loaded[1:] == [(1, "a"), {3: None}, torch.float64, torch.Size([2, 3])]
    with pytest.raises(TypeError, match="save its state_dict"):
        torch.save(object(), "x.pt")
    with pytest.raises(FileNotFoundError):
        torch.load("missing.pt")
    assert run_files.listdir(".") == ["misc.pt"]
