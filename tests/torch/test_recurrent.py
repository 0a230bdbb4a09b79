"""nn.RNN / LSTM / GRU: torch's documented equations, gate order, parameter names and shapes."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
from tapeviz.sandbox import run


def _sig(v: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-v))


def _np_params(m: nn.Module) -> dict[str, np.ndarray]:
    return {k: np.asarray(p.detach().numpy(), np.float64) for k, p in m.named_parameters()}


def _reference(kind: str, m: nn.Module, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """(time, batch, features) through torch's equations in numpy: output, final states."""
    p = _np_params(m)
    layers, dirs, hidden = m.num_layers, 2 if m.bidirectional else 1, m.hidden_size
    seq, finals = list(x), []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            w_ih, w_hh = p["weight_ih" + sfx], p["weight_hh" + sfx]
            b_ih, b_hh = p["bias_ih" + sfx], p["bias_hh" + sfx]
            h = np.zeros((x.shape[1], hidden))
            c = np.zeros_like(h)
            out = []
            for xt in reversed(seq) if d else seq:
                a, b = xt @ w_ih.T + b_ih, h @ w_hh.T + b_hh
                if kind == "rnn":
                    h = np.tanh(a + b)
                elif kind == "lstm":
                    i, f, g, o = np.split(a + b, 4, axis=-1)
                    c = _sig(f) * c + _sig(i) * np.tanh(g)
                    h = _sig(o) * np.tanh(c)
                else:
                    ar, az, an = np.split(a, 3, axis=-1)
                    br, bz, bn = np.split(b, 3, axis=-1)
                    r, z = _sig(ar + br), _sig(az + bz)
                    h = (1 - z) * np.tanh(an + r * bn) + z * h
                out.append(h)
            outs.append(out[::-1] if d else out)
            finals.append((h, c))
        seq = [np.concatenate([o[t] for o in outs], -1) for t in range(len(seq))]
    return np.stack(seq), finals


@pytest.mark.parametrize("kind", ["rnn", "lstm", "gru"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_outputs_follow_torchs_equations(kind: str, bidirectional: bool) -> None:
    torch.manual_seed(3)
    cls = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind]
    m = cls(3, 5, num_layers=2, bidirectional=bidirectional)
    x = torch.randn(4, 2, 3)  # (time, batch, features)
    out, state = m(x)
    want, finals = _reference(kind, m, np.asarray(x.numpy(), np.float64))
    dirs = 2 if bidirectional else 1
    assert tuple(out.shape) == (4, 2, 5 * dirs)
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-5, atol=1e-6)
    h = state[0] if kind == "lstm" else state
    assert tuple(h.shape) == (2 * dirs, 2, 5)
    np.testing.assert_allclose(h.detach().numpy(), np.stack([f[0] for f in finals]), atol=1e-6)
    if kind == "lstm":
        np.testing.assert_allclose(
            state[1].detach().numpy(), np.stack([f[1] for f in finals]), atol=1e-6
        )


def test_parameters_are_named_and_shaped_as_torchs() -> None:
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = [(k, tuple(p.shape)) for k, p in m.named_parameters()]
    assert names[:5] == [
        ("weight_ih_l0", (16, 3)), ("weight_hh_l0", (16, 4)), ("bias_ih_l0", (16,)),
        ("bias_hh_l0", (16,)), ("weight_ih_l0_reverse", (16, 3)),
    ]  # fmt: skip
    assert ("weight_ih_l1", (16, 8)) in names and len(names) == 16
    assert all(abs(float(p.detach().abs().max())) <= 0.5 for p in m.parameters())  # U(±1/√4)
    assert repr(nn.GRU(3, 4, batch_first=True)) == "GRU(3, 4, batch_first=True)"
    assert len(list(nn.RNN(3, 4, bias=False).parameters())) == 2


def test_batch_first_unbatched_and_given_states() -> None:
    torch.manual_seed(0)
    m = nn.GRU(2, 3, batch_first=True)
    x = torch.randn(5, 7, 2)  # (batch, time, features)
    out, h = m(x)
    assert tuple(out.shape) == (5, 7, 3) and tuple(h.shape) == (1, 5, 3)
    np.testing.assert_allclose(out[:, -1].detach().numpy(), h[0].detach().numpy(), atol=1e-7)
    single, hs = m(x[0])  # one sequence, no batch dimension
    assert tuple(single.shape) == (7, 3) and tuple(hs.shape) == (1, 3)
    np.testing.assert_allclose(single.detach().numpy(), out[0].detach().numpy(), atol=1e-6)
    lstm = nn.LSTM(2, 3)
    h0, c0 = torch.ones(1, 4, 3), torch.zeros(1, 4, 3)
    out, (_, cn) = lstm(torch.randn(6, 4, 2), (h0, c0))
    assert tuple(out.shape) == (6, 4, 3) and tuple(cn.shape) == (1, 4, 3)
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 4, 3\), got \[2, 4, 3\]"):
        nn.RNN(2, 3)(torch.randn(6, 4, 2), torch.zeros(2, 4, 3))
    with pytest.raises(RuntimeError, match=r"input\.size\(-1\) must be equal to input_size"):
        nn.RNN(2, 3)(torch.randn(6, 4, 5))


def test_an_lstm_trains_in_a_script_and_its_gradients_reach_every_weight() -> None:
    r = run(
        "import torch\ntorch.manual_seed(0)\n"
        "lstm = torch.nn.LSTM(1, 8, batch_first=True)\nhead = torch.nn.Linear(8, 1)\n"
        "opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=0.05)\n"
        "x = torch.linspace(0, 3, 20).reshape(1, 20, 1)\ny = torch.sin(x)\n"
        "for step in range(30):\n    out, _ = lstm(x)\n    loss = ((head(out) - y) ** 2).mean()\n"
        "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    if step in (0, 29):\n"
        "        print(round(loss.item(), 4))\n"
        "print(all(p.grad is not None for p in lstm.parameters()))\n"
    )
    assert r.error is None, r.error
    first, last, grads = r.output.split()
    assert float(last) < float(first) / 2 and grads == "True"
    assert len(r.tapes) == 30
