"""``np.poly1d`` in a script: numpy's one-variable polynomial, its work checked.

``p = np.poly1d(np.polyfit(x, y, 3))`` then ``p(x)``, ``p.coeffs``, ``p.deriv()``, ``p * q``:
each operation measures its work (coefficients times values, products of orders) against the
run's limits before numpy does it. This module is a public API for scripts (see
:data:`policy.PUBLIC_API`): everything not meant for them is behind a ``_``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.numpy_core import as_array, check_result


def _coefficients(value: Any) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(as_array(value)))
    if arr.ndim != 1:
        raise ValueError("Polynomial must be 1d only.")
    return arr


class poly1d:  # noqa: N801 (numpy's name)
    """A one-variable polynomial, highest power first (numpy's ``poly1d``)."""

    __slots__ = ("_p",)
    __hash__ = None  # type: ignore[assignment]
    __array_priority__ = 100  # ``array * p`` is p's product, as in numpy

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._p: np.poly1d = np.poly1d(c_or_r._p.coeffs, variable=variable)
            return
        values = _coefficients(c_or_r)
        if r:
            budget().check_flops(values.size**2, "np.poly1d of roots")
        if variable is not None and (not isinstance(variable, str) or len(variable) > 10):
            raise ValueError("np.poly1d's variable must be a short name")
        self._p = np.poly1d(values, bool(r), variable)

    @classmethod
    def _of(cls, p: np.poly1d) -> poly1d:
        out = object.__new__(cls)
        out._p = p
        check_result(p.coeffs)
        return out

    # -- what it holds -----------------------------------------------------------------------
    @property
    def coeffs(self) -> np.ndarray:
        """The coefficients, highest power first."""
        return self._p.coeffs.copy()

    c = coef = coefficients = coeffs

    @property
    def order(self) -> int:
        """The polynomial's degree."""
        return int(self._p.order)

    o = order

    @property
    def roots(self) -> np.ndarray:
        """The roots (eigenvalues of the companion matrix: ``order**3`` work)."""
        budget().check_flops(self.order**3, "np.poly1d.roots")
        return check_result(self._p.roots)

    r = roots

    @property
    def variable(self) -> str:
        """The variable's name in the printed polynomial."""
        return str(self._p.variable)

    # -- what it does ------------------------------------------------------------------------
    def __call__(self, val: Any) -> Any:
        if isinstance(val, poly1d):
            return self._of(self._p(val._p))
        x = as_array(val)
        budget().check_flops((self.order + 1) * max(int(np.size(x)), 1), "np.poly1d(x)")
        return check_result(self._p(x))

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative."""
        return self._of(self._p.deriv(min(int(m), self.order + 1)))

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative (constants ``k``)."""
        m = int(m)
        budget().check_size(self.order + m + 1, "np.poly1d.integ")
        return self._of(self._p.integ(m, as_array(k)))

    def _other(self, other: Any) -> np.poly1d:
        return other._p if isinstance(other, poly1d) else np.poly1d(_coefficients(other))

    def _product(self, other: np.poly1d) -> None:
        budget().check_flops((self.order + 1) * (other.order + 1), "the polynomial product")

    def __add__(self, other: Any) -> poly1d:
        return self._of(self._p + self._other(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> poly1d:
        return self._of(self._p - self._other(other))

    def __rsub__(self, other: Any) -> poly1d:
        return self._of(self._other(other) - self._p)

    def __mul__(self, other: Any) -> poly1d:
        q = self._other(other)
        self._product(q)
        return self._of(self._p * q)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> poly1d:
        if isinstance(other, poly1d):
            raise TypeError("divide polynomials with np.polydiv")
        return self._of(self._p / as_array(other))

    def __neg__(self) -> poly1d:
        return self._of(-self._p)

    def __pos__(self) -> poly1d:
        return self

    def __pow__(self, n: Any) -> poly1d:
        n = int(n)
        if n < 0:
            raise ValueError("Power to non-negative integers only.")
        budget().check_size(self.order * n + 1, "the polynomial power")
        budget().check_flops((self.order * n + 1) ** 2, "the polynomial power")
        return self._of(self._p**n)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, poly1d) and self._p == other._p

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __getitem__(self, power: int) -> Any:
        return self._p[int(power)]

    def __len__(self) -> int:
        return self.order

    def __iter__(self) -> Any:
        return iter(self.coeffs)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._p.coeffs, dtype=dtype)

    def __repr__(self) -> str:
        return repr(self._p)

    def __str__(self) -> str:
        return str(self._p)
