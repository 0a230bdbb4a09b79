"""torch.nn.Module and Parameter: registration, names, repr, state_dict, modes, engine names.

Expected strings are PyTorch 2.x's documented outputs (module reprs, ``named_parameters`` names,
``load_state_dict`` messages).
"""

from __future__ import annotations

import copy
from collections import OrderedDict

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
from tapeviz.engine.state import NameScope
from tapeviz.torch._autograd import walk


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.act(self.fc1(x)))


# -- Parameter ----------------------------------------------------------------------------------


def test_parameter_is_a_leaf_tensor_that_requires_grad() -> None:
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    assert isinstance(p, torch.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert str(p) == repr(p)
    q = nn.Parameter(torch.tensor([1.0]), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor([1.])"


def test_parameter_ops_give_plain_tensors_and_gradients() -> None:
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    y = (p * p).sum()
    assert type(y) is torch.Tensor
    y.backward()
    assert p.grad.tolist() == [2.0, 4.0]
    assert type(p.detach()) is torch.Tensor


def test_parameter_of_an_integer_tensor_raises() -> None:
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        nn.Parameter(torch.tensor([1, 2]))
    assert nn.Parameter(torch.tensor([1, 2]), requires_grad=False).dtype is torch.int64


def test_parameter_has_its_own_engine_id() -> None:
    t = torch.randn(3)
    p = nn.Parameter(t)
    assert p._t.id != t._t.id
    assert p.tolist() == t.tolist()


def test_parameter_deepcopy_is_a_new_parameter() -> None:
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    q = copy.deepcopy(p)
    assert isinstance(q, nn.Parameter) and q is not p and q._t.id != p._t.id
    assert q.tolist() == [1.0, 2.0] and q.requires_grad


# -- registration and names --------------------------------------------------------------------


def test_named_parameters_order_and_names() -> None:
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [tuple(p.shape) for p in net.parameters()] == [(3, 2), (3,), (1, 3), (1,)]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "fc2"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "fc2"]
    assert len(list(net.modules())) == 4
    assert next(iter(net.children())) is net.fc1


def test_sequential_names_and_engine_names() -> None:
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert [p._t.name for p in seq.parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_engine_names_are_re_prefixed_when_nested() -> None:
    class Outer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = nn.Sequential(nn.Linear(2, 2))
            self.blocks = nn.ModuleList()
            self.blocks.append(nn.Linear(2, 1))  # added after the list was registered

    o = Outer()
    expected = ["net.0.weight", "net.0.bias", "blocks.0.weight", "blocks.0.bias"]
    assert [n for n, _ in o.named_parameters()] == expected
    assert [p._t.name for p in o.parameters()] == expected


def test_forward_runs_in_the_module_name_scope() -> None:
    net = Net()
    y = net(torch.randn(4, 2))
    scopes = {n._name: set() for n in walk(y.grad_fn)}
    for n in walk(y.grad_fn):
        scopes[n._name] |= {r.scope for r in n._records}
    assert scopes["ReluBackward0"] == {("net", "act")}
    assert scopes["AddmmBackward0"] == {("net", "fc1"), ("net", "fc2")}
    with NameScope("outer"):
        z = nn.Sequential(nn.Linear(2, 1))(torch.randn(1, 2))
    assert {r.scope for r in z.grad_fn._records} == {("outer", "sequential", "0")}


def test_module_list_children_are_scoped_under_the_list_name() -> None:
    class M(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 2)])

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.layers[0](x)

    y = M()(torch.randn(1, 2))
    assert {r.scope for r in y.grad_fn._records} == {("m", "layers.0")}


def test_shared_parameters_are_listed_once() -> None:
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]


def test_setattr_errors_and_buffers() -> None:
    m = nn.Module()
    m.register_buffer("count", torch.tensor(0))
    m.w = nn.Parameter(torch.ones(2))
    assert [n for n, _ in m.named_buffers()] == ["count"]
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'w' "):
        m.w = torch.ones(2)
    m.w = None
    assert list(m.parameters()) == []
    with pytest.raises(KeyError, match="attribute 'count' already exists"):
        m.register_parameter("count", None)
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nope'"):
        _ = m.nope

    class Early(nn.Module):
        def __init__(self) -> None:
            self.w = nn.Parameter(torch.ones(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Early()


def test_non_leaf_parameter_assignment_raises() -> None:
    m = nn.Module()
    with pytest.raises(TypeError, match=r"cannot assign 'torch\.FloatTensor' object to parameter"):
        m.register_parameter("w", torch.ones(2))


def test_missing_forward_message() -> None:
    with pytest.raises(NotImplementedError, match=r"Module \[Module\] is missing the required"):
        nn.Module()(1)


# -- repr ----------------------------------------------------------------------------------------


def test_repr_as_torch_prints_it() -> None:
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    assert repr(seq) == (
        "Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n  (1): ReLU()\n)"
    )
    assert repr(Net()) == (
        "Net(\n"
        "  (fc1): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (act): ReLU()\n"
        "  (fc2): Linear(in_features=3, out_features=1, bias=True)\n"
        ")"
    )
    nested = nn.Sequential(nn.Sequential(nn.Tanh()), nn.Linear(1, 1, bias=False))
    assert repr(nested) == (
        "Sequential(\n  (0): Sequential(\n    (0): Tanh()\n  )\n"
        "  (1): Linear(in_features=1, out_features=1, bias=False)\n)"
    )
    assert repr(nn.Module()) == "Module()"


def test_module_list_repr_folds_repeats() -> None:
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    assert repr(ml) == (
        "ModuleList(\n  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n"
        "  (3): ReLU()\n)"
    )


def test_layer_reprs() -> None:
    cases = {
        nn.Softmax(dim=1): "Softmax(dim=1)",
        nn.LogSoftmax(dim=-1): "LogSoftmax(dim=-1)",
        nn.LeakyReLU(): "LeakyReLU(negative_slope=0.01)",
        nn.GELU(): "GELU(approximate='none')",
        nn.ELU(): "ELU(alpha=1.0)",
        nn.Softplus(): "Softplus(beta=1.0, threshold=20.0)",
        nn.Dropout(0.2): "Dropout(p=0.2, inplace=False)",
        nn.Flatten(): "Flatten(start_dim=1, end_dim=-1)",
        nn.Unflatten(1, (2, 5)): "Unflatten(dim=1, unflattened_size=(2, 5))",
        nn.Identity(): "Identity()",
        nn.Sigmoid(): "Sigmoid()",
        nn.BatchNorm1d(3): "BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, "
        "track_running_stats=True)",
        nn.Embedding(10, 3): "Embedding(10, 3)",
        nn.MSELoss(): "MSELoss()",
        nn.CrossEntropyLoss(): "CrossEntropyLoss()",
    }
    for module, text in cases.items():
        assert repr(module) == text


# -- containers ------------------------------------------------------------------------------------


def test_sequential_indexing_slicing_and_append() -> None:
    a, b, c = nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1)
    seq = nn.Sequential(a, b)
    assert seq[0] is a and seq[-1] is b and len(seq) == 2 and list(seq) == [a, b]
    seq.append(c)
    assert seq[2] is c
    tail = seq[1:]
    assert isinstance(tail, nn.Sequential) and list(tail._modules) == ["1", "2"]
    assert [p._t.name for p in seq.parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]
    del seq[0]
    assert list(seq._modules) == ["0", "1"]
    named = nn.Sequential(OrderedDict([("hidden", nn.Linear(1, 1)), ("out", nn.Tanh())]))
    assert [n for n, _ in named.named_children()] == ["hidden", "out"]
    assert named(torch.ones(1, 1)).shape == (1, 1)


def test_module_dict() -> None:
    md = nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.ReLU()})
    assert list(md.keys()) == ["a", "b"] and "a" in md and len(md) == 2
    assert [n for n, _ in md.named_parameters()] == ["a.weight", "a.bias"]
    md["c"] = nn.Tanh()
    assert list(md) == ["a", "b", "c"]


def test_parameter_list() -> None:
    pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3)])
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    assert isinstance(pl[1], nn.Parameter)


# -- state_dict ------------------------------------------------------------------------------------


def test_state_dict_round_trip() -> None:
    a, b = Net(), Net()
    sd = a.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert all(not t.requires_grad for t in sd.values())
    ids = [p._t.id for p in b.parameters()]
    result = b.load_state_dict(sd)
    assert repr(result) == "<All keys matched successfully>"
    for pa, pb in zip(a.parameters(), b.parameters(), strict=True):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())
    assert [p._t.id for p in b.parameters()] == ids  # loaded in place


def test_state_dict_shares_values_with_the_parameters() -> None:
    lin = nn.Linear(1, 1)
    sd = lin.state_dict()
    with torch.no_grad():
        lin.weight.fill_(5.0)
    assert sd["weight"].item() == 5.0


def test_load_state_dict_errors() -> None:
    lin = nn.Linear(2, 2)
    with pytest.raises(RuntimeError) as err:
        lin.load_state_dict({"weight": torch.zeros(2, 2), "extra": torch.zeros(1)})
    assert str(err.value) == (
        "Error(s) in loading state_dict for Linear:\n"
        '\tMissing key(s) in state_dict: "bias". \n'
        '\tUnexpected key(s) in state_dict: "extra". '
    )
    with pytest.raises(
        RuntimeError,
        match="size mismatch for weight: copying a param with shape "
        r"torch.Size\(\[3, 2\]\) from checkpoint, the shape in current model is "
        r"torch.Size\(\[2, 2\]\).",
    ):
        lin.load_state_dict({"weight": torch.zeros(3, 2), "bias": torch.zeros(2)})
    got = lin.load_state_dict({"weight": torch.zeros(2, 2)}, strict=False)
    assert got.missing_keys == [] and got.unexpected_keys == []
    assert lin.weight.sum().item() == 0.0


def test_batchnorm_buffers_in_state_dict() -> None:
    bn = nn.BatchNorm1d(2)
    assert list(bn.state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked",
    ]  # fmt: skip


# -- modes, grads, dtypes, hooks ---------------------------------------------------------------


def test_train_eval_apply_zero_grad() -> None:
    net = Net()
    assert net.training and net.fc1.training
    assert net.eval() is net and not net.fc1.training
    net.train()
    assert net.fc1.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")  # type: ignore[arg-type]
    net(torch.randn(3, 2)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad.abs().sum().item() == 0 for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    seen: list[str] = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Net"]


def test_to_double_keeps_parameters_and_ids() -> None:
    net = Net()
    params = list(net.parameters())
    ids = [p._t.id for p in params]
    assert net.double() is net
    assert all(p.dtype is torch.float64 for p in net.parameters())
    assert list(net.parameters()) == params and [p._t.id for p in params] == ids
    assert [p._t.name for p in params] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert net(torch.randn(2, 2, dtype=torch.float64)).dtype is torch.float64
    net.to(torch.float32)
    assert net.fc1.weight.dtype is torch.float32
    assert net.to("cpu") is net
    with pytest.raises(TypeError, match="only accepts floating point"):
        net.to(torch.int64)


def test_requires_grad_and_forward_hooks() -> None:
    lin = nn.Linear(2, 1)
    lin.requires_grad_(False)
    assert not any(p.requires_grad for p in lin.parameters())
    calls: list[tuple[int, ...]] = []
    handle = lin.register_forward_hook(lambda m, args, out: calls.append(tuple(out.shape)))
    lin(torch.ones(3, 2))
    handle.remove()
    lin(torch.ones(3, 2))
    assert calls == [(3, 1)]
    lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    assert lin(torch.ones(1, 2)).item() == pytest.approx(lin.bias.item())


def test_get_submodule_and_parameter() -> None:
    seq = nn.Sequential(Net())
    assert seq.get_submodule("0.fc1") is seq[0].fc1
    assert seq.get_parameter("0.fc2.bias") is seq[0].fc2.bias
    with pytest.raises(AttributeError, match="Net has no attribute `fc9`"):
        seq.get_submodule("0.fc9")


def test_deepcopy_of_a_model() -> None:
    net = Net()
    clone = copy.deepcopy(net)
    assert [n for n, _ in clone.named_parameters()] == [n for n, _ in net.named_parameters()]
    for p, q in zip(net.parameters(), clone.parameters(), strict=True):
        assert p is not q and p._t.id != q._t.id and p.tolist() == q.tolist()
    x = torch.randn(2, 2)
    assert net(x).tolist() == clone(x).tolist()
