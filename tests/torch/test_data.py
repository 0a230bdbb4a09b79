"""torch.utils.data: datasets, default_collate, DataLoader, random_split, and a training loop."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.optim as optim
from tapeviz.torch.utils import data
from tapeviz.torch.utils.data import DataLoader, Dataset, TensorDataset, default_collate


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


def test_tensor_dataset() -> None:
    x, y = torch.arange(10.0).reshape(5, 2), torch.arange(5)
    ds = TensorDataset(x, y)
    assert len(ds) == 5
    xi, yi = ds[3]
    assert xi.tolist() == [6.0, 7.0] and yi.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, torch.arange(4))


def test_loader_batches_in_order_with_len_and_drop_last() -> None:
    x, y = torch.arange(14.0).reshape(7, 2), torch.arange(7)
    loader = DataLoader(TensorDataset(x, y), batch_size=3)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    xb, yb = batches[0]
    assert isinstance(batches[0], list)  # default_collate turns the tuples into a list
    assert xb.shape == (3, 2) and yb.tolist() == [0, 1, 2] and yb.dtype is torch.int64
    assert batches[-1][1].tolist() == [6]
    dropped = DataLoader(TensorDataset(x, y), batch_size=3, drop_last=True)
    assert len(dropped) == 2 and [b[1].tolist() for b in dropped] == [[0, 1, 2], [3, 4, 5]]
    assert (
        DataLoader(TensorDataset(x, y)).batch_size == 1
        and len(DataLoader(TensorDataset(x, y))) == 7
    )


def test_shuffle_covers_every_sample_and_is_seeded() -> None:
    ds = TensorDataset(torch.arange(20))
    order = [int(v) for (b,) in DataLoader(ds, batch_size=4, shuffle=True) for v in b.tolist()]
    assert sorted(order) == list(range(20)) and order != list(range(20))
    again = [int(v) for (b,) in DataLoader(ds, batch_size=4, shuffle=True) for v in b.tolist()]
    assert again != order  # a new order each epoch
    torch.manual_seed(0)
    first = [int(v) for (b,) in DataLoader(ds, batch_size=4, shuffle=True) for v in b.tolist()]
    assert first == order


class Squares(Dataset):
    def __len__(self) -> int:
        return 5

    def __getitem__(self, i: int) -> tuple[float, int, dict[str, np.ndarray]]:
        return float(i) ** 2, i, {"v": np.array([i, -i], dtype=np.float32)}


def test_default_collate_of_a_custom_dataset() -> None:
    xs, ys, d = next(iter(DataLoader(Squares(), batch_size=2)))
    assert xs.dtype is torch.float64 and xs.tolist() == [0.0, 1.0]
    assert ys.dtype is torch.int64 and ys.tolist() == [0, 1]
    assert d["v"].dtype is torch.float32 and d["v"].tolist() == [[0.0, 0.0], [1.0, -1.0]]
    point = namedtuple("point", "a b")
    got = default_collate([point(1, 2.0), point(3, 4.0)])
    assert isinstance(got, point) and got.a.tolist() == [1, 3]
    assert default_collate(["a", "b"]) == ["a", "b"]
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors"):
        default_collate([object()])


def test_loader_without_batching_and_with_a_collate_fn() -> None:
    items = list(DataLoader(Squares(), batch_size=None))
    assert items[2][0] == 4.0 and items[2][2]["v"].tolist() == [2.0, -2.0]
    sums = list(DataLoader(Squares(), batch_size=5, collate_fn=lambda b: sum(s[1] for s in b)))
    assert sums == [10]


def test_random_split_and_subset() -> None:
    ds = TensorDataset(torch.arange(10))
    train, test = data.random_split(ds, [0.8, 0.2])
    assert len(train) == 8 and len(test) == 2
    seen = sorted(int(train[i][0]) for i in range(8)) + sorted(int(test[i][0]) for i in range(2))
    assert sorted(seen) == list(range(10))
    a, b, c = data.random_split(range(10), [0.34, 0.33, 0.33])
    assert [len(a), len(b), len(c)] == [4, 3, 3]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        data.random_split(ds, [3, 3])
    assert len(ds + ds) == 20


def test_training_loop_reduces_the_loss() -> None:
    true_w = np.array([[2.0, -3.4]])
    features = np.random.default_rng(0).normal(size=(1000, 2)).astype(np.float32)
    labels = (features @ true_w.T + 4.2).astype(np.float32)
    loader = DataLoader(
        TensorDataset(torch.tensor(features), torch.tensor(labels)), batch_size=10, shuffle=True
    )
    model = nn.Sequential(nn.Linear(2, 1))
    loss_fn = nn.MSELoss()
    opt = optim.SGD(model.parameters(), lr=0.03)
    first = loss_fn(model(torch.tensor(features)), torch.tensor(labels)).item()
    for _ in range(3):
        for x, y in loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
    last = loss_fn(model(torch.tensor(features)), torch.tensor(labels)).item()
    assert last < 0.01 * first
    np.testing.assert_allclose(model[0].weight.detach().numpy(), true_w, atol=0.05)
    assert model[0].bias.item() == pytest.approx(4.2, abs=0.05)


def test_classifier_training_loop_with_adam_and_cross_entropy() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(120, 2)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    loader = DataLoader(
        TensorDataset(torch.tensor(x), torch.tensor(y)), batch_size=16, shuffle=True
    )
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
    opt = optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(10):
        for xb, yb in loader:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(torch.tensor(x)).argmax(dim=1).numpy()
    assert (pred == y).mean() > 0.95


# -- torch.Generator: numbers of its own ----------------------------------------------------
def _order(loader: DataLoader) -> list[int]:
    return [int(v) for (b,) in loader for v in b.tolist()]


def test_a_seeded_generator_repeats_its_numbers_apart_from_the_global_seed() -> None:
    g = torch.Generator().manual_seed(42)
    assert isinstance(g, torch.Generator) and g.initial_seed() == 42
    a = torch.randn(3, generator=g).tolist()
    b = torch.randn(3, generator=torch.Generator().manual_seed(42)).tolist()
    assert a == b
    torch.manual_seed(42)
    assert torch.randn(3).tolist() == a  # as manual_seed(42): torch seeds both alike
    g.manual_seed(42)
    torch.manual_seed(7)  # the global seed does not move a generator of its own
    assert torch.randn(3, generator=g).tolist() == a
    assert torch.Generator().initial_seed() == 67280421310721  # torch's default seed
    perm = torch.randperm(10, generator=torch.Generator().manual_seed(1)).tolist()
    assert sorted(perm) == list(range(10))
    assert perm == torch.randperm(10, generator=torch.Generator().manual_seed(1)).tolist()
    with pytest.raises(TypeError, match=r"generator must be a torch\.Generator, not int"):
        torch.rand(2, generator=3)


def test_random_split_and_loader_with_a_generator_repeat_their_order() -> None:
    ds = TensorDataset(torch.arange(20))
    parts = [data.random_split(ds, [0.75, 0.25], generator=torch.Generator().manual_seed(3))
             for _ in range(2)]  # fmt: skip
    assert [s.indices for s in parts[0]] == [s.indices for s in parts[1]]
    assert sorted(parts[0][0].indices + parts[0][1].indices) == list(range(20))
    first = _order(DataLoader(ds, 4, shuffle=True, generator=torch.Generator().manual_seed(5)))
    torch.manual_seed(123)  # the global stream is not what the loader draws from
    again = _order(DataLoader(ds, 4, shuffle=True, generator=torch.Generator().manual_seed(5)))
    assert first == again and sorted(first) == list(range(20)) and first != list(range(20))


def test_init_functions_take_a_generator() -> None:
    w1, w2 = torch.empty(3, 4), torch.empty(3, 4)
    nn.init.xavier_uniform_(w1, generator=torch.Generator().manual_seed(9))
    nn.init.xavier_uniform_(w2, generator=torch.Generator().manual_seed(9))
    assert w1.tolist() == w2.tolist()
    assert w1.normal_(generator=torch.Generator().manual_seed(2)).tolist() == (
        w2.normal_(generator=torch.Generator().manual_seed(2)).tolist()
    )
