"""``nn.RNN``, ``nn.LSTM`` and ``nn.GRU``: torch's parameters, gate order and shapes, unrolled.

Each time step is ordinary ops on the tape (the graph shows the unrolled network), from torch's
equations: RNN ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)``; LSTM gates ``i, f, g, o`` (in that
order in the weights), ``c' = f c + i g``, ``h' = o tanh(c')``; GRU gates ``r, z, n``,
``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``, ``h' = (1 − z) n + z h``. Every weight starts
U(−1/√hidden, 1/√hidden), as torch's.
"""

from __future__ import annotations

import math
from typing import Any

from tapeviz.torch import _shape as S
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn import init
from tapeviz.torch.nn.layers import _empty
from tapeviz.torch.nn.module import Module
from tapeviz.torch.nn.parameter import Parameter

__all__ = ["GRU", "LSTM", "RNN"]


class _RNNBase(Module):
    """The stacked, optionally bidirectional recurrence over a sequence."""

    gates = 1

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if proj_size:
            raise ValueError("proj_size is not available in tapeviz")
        if not 0 <= float(dropout) <= 1:
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if hidden_size <= 0 or num_layers <= 0:
            raise ValueError("hidden_size and num_layers must be greater than zero")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, 0
        directions = 2 if bidirectional else 1
        self._names: list[list[str]] = []
        for layer in range(num_layers):
            size = input_size if layer == 0 else hidden_size * directions
            for d in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                names = [f"weight_ih{suffix}", f"weight_hh{suffix}"]
                rows = self.gates * hidden_size
                setattr(self, names[0], Parameter(_empty((rows, size), dtype)))
                setattr(self, names[1], Parameter(_empty((rows, hidden_size), dtype)))
                if bias:
                    names += [f"bias_ih{suffix}", f"bias_hh{suffix}"]
                    for n in names[2:]:
                        setattr(self, n, Parameter(_empty((self.gates * hidden_size,), dtype)))
                self._names.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight U(−1/√hidden, 1/√hidden)."""
        k = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -k, k)

    def _weights(self, i: int) -> tuple[Any, Any, Any, Any]:
        names = self._names[i]
        w_ih, w_hh = getattr(self, names[0]), getattr(self, names[1])
        if not self.bias:
            return w_ih, w_hh, None, None
        return w_ih, w_hh, getattr(self, names[2]), getattr(self, names[3])

    def _cell(self, x: Tensor, state: Any, w: tuple[Any, ...]) -> tuple[Tensor, Any]:
        raise NotImplementedError

    def _initial(self, hx: Any, batch: int, like: Tensor) -> list[Any]:
        """Each layer-direction's first state: ``hx`` split, or zeros (LSTM: pairs)."""
        n = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            return _zeros(n, batch, self.hidden_size, like)
        return _layers_of(hx, n, batch, self.hidden_size, "hidden")

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Any]:
        """``(output, h_n)`` (LSTM: ``(output, (h_n, c_n))``), torch's shapes."""
        if input.dim() not in (2, 3):
            raise ValueError(
                f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D "
                "tensor instead"
            )
        batched = input.dim() == 3
        x = input if batched else S.unsqueeze(input, 1)
        if batched and self.batch_first:
            x = S.transpose(x, 0, 1)  # (time, batch, features)
        if x.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                f"got {x.shape[-1]}"
            )
        states = self._initial(hx if batched else _batched_hx(hx), x.shape[1], x)
        directions = 2 if self.bidirectional else 1
        steps = list(S.unbind(x, 0))
        finals: list[Any] = []
        for layer in range(self.num_layers):
            outs = []
            for d in range(directions):
                i = layer * directions + d
                state, seq = states[i], []
                for xt in reversed(steps) if d else steps:
                    h, state = self._cell(xt, state, self._weights(i))
                    seq.append(h)
                outs.append(seq[::-1] if d else seq)
                finals.append(state)
            steps = [S.cat([o[t] for o in outs], -1) if d else outs[0][t]
                     for t in range(len(steps))]  # fmt: skip
            if self.dropout and self.training and layer < self.num_layers - 1:
                steps = [F.dropout(s, self.dropout, True) for s in steps]
        output = S.stack(steps, 0)
        if batched and self.batch_first:
            output = S.transpose(output, 0, 1)
        if not batched:
            output = S.squeeze(output, 1)
        return output, self._final(finals, batched)

    def _final(self, finals: list[Any], batched: bool) -> Any:
        h = S.stack(finals, 0)
        return h if batched else S.squeeze(h, 1)

    def extra_repr(self) -> str:
        """``4, 8, batch_first=True`` (what differs from the defaults)."""
        s = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False),
                              ("dropout", 0.0), ("bidirectional", False)):  # fmt: skip
            value = getattr(self, name)
            if value != default:
                s += f", {name}={value}"
        return s


def _batched_hx(hx: Any) -> Any:
    if hx is None:
        return None
    if isinstance(hx, tuple):
        return tuple(S.unsqueeze(h, 1) for h in hx)
    return S.unsqueeze(hx, 1)


def _zeros(n: int, batch: int, hidden: int, like: Tensor) -> list[Tensor]:
    zero = _empty((batch, hidden), like.dtype)
    return [zero] * n


def _layers_of(h: Tensor, n: int, batch: int, hidden: int, what: str) -> list[Tensor]:
    if tuple(h.shape) != (n, batch, hidden):
        raise RuntimeError(f"Expected {what} size ({n}, {batch}, {hidden}), got {list(h.shape)}")
    return list(S.unbind(h, 0))


def _gates(x: Tensor, h: Tensor, w: tuple[Any, ...]) -> tuple[Tensor, Tensor]:
    w_ih, w_hh, b_ih, b_hh = w
    return F.linear(x, w_ih, b_ih), F.linear(h, w_hh, b_hh)


class RNN(_RNNBase):
    """Elman RNN: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or ReLU)."""

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        self.nonlinearity = nonlinearity
        super().__init__(*args, **kwargs)

    def _cell(self, x: Tensor, state: Any, w: tuple[Any, ...]) -> tuple[Tensor, Any]:
        a, b = _gates(x, state, w)
        h = F.relu(a + b) if self.nonlinearity == "relu" else F.tanh(a + b)
        return h, h


class LSTM(_RNNBase):
    """Long short-term memory: gates ``i, f, g, o``; ``(output, (h_n, c_n))``."""

    gates = 4

    def _initial(self, hx: Any, batch: int, like: Tensor) -> list[Any]:
        n = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            zeros = _zeros(n, batch, self.hidden_size, like)
            return list(zip(zeros, zeros, strict=True))
        h0, c0 = hx
        hs = _layers_of(h0, n, batch, self.hidden_size, "hidden")
        cs = _layers_of(c0, n, batch, self.hidden_size, "cell")
        return list(zip(hs, cs, strict=True))

    def _cell(self, x: Tensor, state: Any, w: tuple[Any, ...]) -> tuple[Tensor, Any]:
        h, c = state
        a, b = _gates(x, h, w)
        i, f, g, o = S.chunk(a + b, 4, -1)
        c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
        h = F.sigmoid(o) * F.tanh(c)
        return h, (h, c)

    def _final(self, finals: list[Any], batched: bool) -> Any:
        h = S.stack([s[0] for s in finals], 0)
        c = S.stack([s[1] for s in finals], 0)
        return (h, c) if batched else (S.squeeze(h, 1), S.squeeze(c, 1))


class GRU(_RNNBase):
    """Gated recurrent unit: gates ``r, z, n``; ``h' = (1 − z) n + z h``."""

    gates = 3

    def _cell(self, x: Tensor, state: Any, w: tuple[Any, ...]) -> tuple[Tensor, Any]:
        a, b = _gates(x, state, w)
        ar, az, an = S.chunk(a, 3, -1)
        br, bz, bn = S.chunk(b, 3, -1)
        r, z = F.sigmoid(ar + br), F.sigmoid(az + bz)
        n = F.tanh(an + r * bn)
        h = (1 - z) * n + z * state
        return h, h
