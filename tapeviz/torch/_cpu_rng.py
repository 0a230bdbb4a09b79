"""torch's CPU random numbers, bit for bit: mt19937 seeded as torch seeds it, torch's transforms.

``torch.manual_seed(42); torch.rand(3)`` prints ``tensor([0.8823, 0.9150, 0.3829])`` in every
PyTorch course, ``torch.randn(1)`` twice gives the course's ``0.3367`` and ``0.1288``, and
``nn.Linear(1, 1)`` after the seed starts at weight 0.7645, bias 0.8300. Those numbers come from
torch's CPU generator (``aten/src/ATen/core/{MT19937RNGEngine,DistributionsHelper,
TransformationHelper}.h``, ``native/cpu/DistributionTemplates.h``, ``native/TensorFactories``):

- the engine is mt19937 seeded with the seed's low 32 bits (``init_genrand``, as numpy's
  legacy ``RandomState(int)``); ``random()`` is one 32-bit draw, ``random64()`` two (high first);
- a float32 uniform is ``(random() & (2²⁴ − 1)) · 2⁻²⁴``, a float64 one ``(random64() &
  (2⁵³ − 1)) · 2⁻⁵³``, scaled as ``x · (to − from) + from`` in the tensor's dtype;
- ``normal_`` of 16 or more contiguous elements fills uniforms and turns each block of 16 into
  Box–Muller pairs (``u1 = 1 − d[j]``, ``u2 = d[j + 8]``; a last partial block is redrawn over the
  tail); fewer elements use the float64 Box–Muller ``r = √(−2 log1p(−u2))``, ``θ = 2π u1``,
  keeping ``r sin θ`` for the next draw (``manual_seed`` clears it);
- integers in ``[low, high)``: ``random() % range + low`` (``random64()`` for ranges ≥ 2³²);
  ``randperm(n)``: ``z = random() % (n − i)``, swap ``i`` and ``i + z``, for ``i < n − 1``;
- ``random_()`` of an int64 tensor: ``random64() % 2⁶³`` (a DataLoader's shuffle seed).

Where torch hands the numbers to Intel MKL (dropout's and ``bernoulli(p=0.5)``'s masks: one
``random()`` seeds MKL's own stream) tapeviz takes the same one draw and makes the mask from it
with numpy, so the numbers after a dropout stay torch's; the mask itself is not MKL's. The
float32 normal block uses numpy's ``log``/``cos``/``sin``: torch's vectorised ones may differ in
the last bit (printed digits agree).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapeviz.engine.guard import check_elements, checkpoint

__all__ = ["CPUNumbers"]

_MASK32 = 0xFFFFFFFF
_MASK53 = (1 << 53) - 1
_DIGITS = {np.dtype(np.float32): 24, np.dtype(np.float16): 11, np.dtype(np.float64): 53}


def _key(seed: int) -> np.ndarray:
    """mt19937's state after ``init_genrand(seed)``: numpy's legacy seeding of an int does it."""
    return np.random.RandomState(seed & _MASK32).get_state(legacy=True)[1]


class CPUNumbers:
    """torch's CPU generator: an mt19937 stream and the transforms torch applies to it."""

    def __init__(self, seed: int) -> None:
        """A stream started from ``seed`` (its low 32 bits), as ``manual_seed`` starts one."""
        self._bits = np.random.MT19937(0)
        state = {"key": _key(int(seed)), "pos": 624}
        self._bits.state = {"bit_generator": "MT19937", "state": state}
        self._next_normal: float | None = None

    # -- raw draws -------------------------------------------------------------------------
    def random(self, n: int) -> np.ndarray:
        """``n`` 32-bit draws (uint64 values below 2³²)."""
        return self._bits.random_raw(n) if n else np.zeros(0, np.uint64)

    def random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit draws, each two 32-bit ones (the first the high half)."""
        r = self.random(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def random_int64(self) -> int:
        """``torch.empty((), dtype=torch.int64).random_()``: ``random64() % 2⁶³``."""
        return int(self.random64(1)[0]) % (1 << 63)

    def seed_draw(self) -> int:
        """The one ``random()`` torch spends seeding MKL's stream (dropout, bernoulli(p))."""
        return int(self.random(1)[0])

    # -- floating ----------------------------------------------------------------------------
    def _unit(self, n: int, dtype: np.dtype) -> np.ndarray:
        """``n`` uniforms in [0, 1) as torch makes them for ``dtype`` (the size limit checked)."""
        check_elements(n, "the random tensor")
        digits = _DIGITS.get(dtype, 24)
        if digits == 53:
            return (self.random64(n) & np.uint64(_MASK53)).astype(np.float64) * 2.0**-53
        mask = np.uint64((1 << digits) - 1)
        return (self.random(n) & mask).astype(np.float32) * np.float32(2.0**-digits)

    def uniform(self, shape: tuple[int, ...], dtype: Any, low: float, high: float) -> np.ndarray:
        """``tensor.uniform_(low, high)``: ``x · (to − from) + from`` in the tensor's precision."""
        dtype = np.dtype(dtype)
        x = self._unit(math.prod(shape), dtype)
        kind = x.dtype.type
        lo, hi = kind(low), kind(high)
        return (x * (hi - lo) + lo).astype(dtype).reshape(shape)

    def normal(self, shape: tuple[int, ...], dtype: Any, mean: float, std: float) -> np.ndarray:
        """``tensor.normal_(mean, std)`` (see the module's note for the two paths)."""
        dtype = np.dtype(dtype)
        n = math.prod(shape)
        if n >= 16:
            return self._fill(n, dtype, mean, std).reshape(shape)
        out = np.empty(n, np.float64)
        for i in range(n):
            out[i] = self._one_normal() * std + mean
        return out.astype(dtype).reshape(shape)

    def _one_normal(self) -> float:
        if self._next_normal is not None:
            got, self._next_normal = self._next_normal, None
            return got
        u1, u2 = self._unit(2, np.dtype(np.float64)).tolist()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._next_normal = r * math.sin(theta)
        return r * math.cos(theta)

    def _fill(self, n: int, dtype: np.dtype, mean: float, std: float) -> np.ndarray:
        work = np.float64 if dtype == np.float64 else np.float32
        data = self._unit(n, np.dtype(work))
        full = n // 16 * 16
        data[:full] = self._box_muller(data[:full], work, mean, std)
        if n % 16:
            tail = self._unit(16, np.dtype(work))
            data[n - 16 :] = self._box_muller(tail, work, mean, std)
        return data.astype(dtype)

    @staticmethod
    def _box_muller(d: np.ndarray, work: type, mean: float, std: float) -> np.ndarray:
        blocks = d.reshape(-1, 2, 8)
        u1 = work(1) - blocks[:, 0]
        u2 = blocks[:, 1]
        radius = np.sqrt(work(-2) * np.log(u1))
        theta = (2.0 * math.pi * u2.astype(np.float64)).astype(work)
        s, m = work(std), work(mean)
        out = np.empty_like(blocks)
        out[:, 0] = radius * np.cos(theta) * s + m
        out[:, 1] = radius * np.sin(theta) * s + m
        return out.reshape(-1)

    # -- integers ----------------------------------------------------------------------------
    def integers(self, low: int, high: int, shape: tuple[int, ...]) -> np.ndarray:
        """``torch.randint(low, high, shape)``: ``random() % range + low``."""
        span = high - low
        n = math.prod(shape)
        check_elements(n, "the random tensor")
        raw = self.random64(n) if span >= 1 << 32 else self.random(n)
        return ((raw % np.uint64(span)).astype(np.int64) + low).reshape(shape)

    def permutation(self, n: int) -> np.ndarray:
        """``torch.randperm(n)``: torch's forward swaps (``z = random() % (n − i)``)."""
        check_elements(n, "torch.randperm")
        out = list(range(n))
        for start in range(0, max(n - 1, 0), 1 << 16):  # (a checkpoint between blocks)
            checkpoint()
            draws = self.random(min(1 << 16, n - 1 - start)).tolist()
            for i, r in enumerate(draws, start):
                j = i + r % (n - i)
                out[i], out[j] = out[j], out[i]
        return np.array(out, np.int64)

    def bernoulli(self, p: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """``torch.bernoulli(p)`` of a probability tensor: a float32 uniform ``< p`` each."""
        probs = np.broadcast_to(np.asarray(p), shape)
        wide = probs.dtype == np.float64
        u = self._unit(math.prod(shape), np.dtype(np.float64 if wide else np.float32))
        return u.reshape(shape) < probs

    def side_stream(self) -> np.random.Generator:
        """Numbers for a mask torch draws from MKL's stream: seeded by the one draw torch spends."""
        return np.random.Generator(np.random.PCG64(self.seed_draw()))
