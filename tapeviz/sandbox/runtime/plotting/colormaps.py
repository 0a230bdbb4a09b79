"""Colormaps: ``plt.cm.viridis``, ``plt.get_cmap('coolwarm')``, ``cmap(np.linspace(0, 1, 5))``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox import figures as F
from tapeviz.sandbox.runtime.checks import budget


class Colormap:
    """A named colormap; calling it maps numbers in [0, 1] to RGBA (as matplotlib's do)."""

    def __init__(self, name: str) -> None:
        self.name = name
        stops = F.colormap_stops(name)
        self._rgb = np.array([[int(h[k : k + 2], 16) / 255 for k in (1, 3, 5)] for h in stops])

    def __call__(self, x: Any, alpha: Any = None) -> Any:
        if isinstance(x, TensorLike):
            x = x.numpy()
        arr = np.asarray(x)
        if arr.dtype.kind not in "biuf":
            raise TypeError("a colormap maps numbers")
        budget().check_size(int(arr.size) * 4, "the colours")
        if arr.dtype.kind in "biu":  # integers index the map's 256 entries
            t = np.clip(arr.astype(np.float64) / 255.0, 0.0, 1.0)
        else:
            t = np.clip(np.nan_to_num(arr.astype(np.float64), nan=0.0), 0.0, 1.0)
        pos = t * (len(self._rgb) - 1)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, len(self._rgb) - 1)
        w = (pos - lo)[..., None]
        rgb = self._rgb[lo] * (1 - w) + self._rgb[hi] * w
        a = np.full((*rgb.shape[:-1], 1), 1.0 if alpha is None else float(alpha))
        out = np.concatenate([rgb, a], axis=-1)
        return tuple(float(v) for v in out) if out.ndim == 1 else out

    def reversed(self) -> Colormap:
        """The same map, high to low."""
        name = self.name[:-2] if self.name.endswith("_r") else self.name + "_r"
        return Colormap(name)

    def __repr__(self) -> str:
        return f"<Colormap {self.name!r}>"


def cmap_name(spec: Any) -> str:
    """A colormap's canonical name from a name or a :class:`Colormap`; ValueError if unknown."""
    if isinstance(spec, Colormap):
        return spec.name
    if isinstance(spec, str):
        name = F.colormap_name(spec)
        if name is not None:
            return name
        known = ", ".join(list(F.COLORMAPS)[:8])
        raise ValueError(f"{spec[:40]!r} is not a colormap tapeviz draws (e.g. {known}, …)")
    raise TypeError("cmap must be a colormap name or plt.cm.<name>")


def get_cmap(name: Any = None, lut: Any = None) -> Colormap:
    """``plt.get_cmap(name)``."""
    return Colormap(cmap_name("viridis" if name is None else name))


def colormap_names() -> list[str]:
    """``plt.colormaps()``: the names tapeviz draws."""
    return [*F.COLORMAPS, *(n + "_r" for n in F.COLORMAPS)]


CM = Namespace(
    "matplotlib.cm",
    {**{n: Colormap(n) for n in colormap_names()}, "get_cmap": get_cmap},
)
