"""``sklearn.preprocessing``: the two scalers and ``LabelEncoder``, as scikit-learn fits them."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tapeviz.sklearn._validation import as_2d, column_1d

__all__ = ["LabelEncoder", "MinMaxScaler", "StandardScaler"]


def _nonzero(scale: np.ndarray, constant: np.ndarray | None = None) -> np.ndarray:
    """Scales with constant features set to 1 (scikit-learn's ``_handle_zeros_in_scale``)."""
    if constant is None:
        constant = scale < 10 * np.finfo(scale.dtype).eps
    out = np.array(scale, copy=True)
    out[constant] = 1.0
    return out


class _Scaler:
    """What both scalers share: fit/transform plumbing, the feature check and the repr."""

    _defaults: ClassVar[dict[str, Any]] = {}

    def _settings(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self._defaults}

    def __repr__(self) -> str:
        changed = [f"{k}={v!r}" for k, v in self._settings().items() if v != self._defaults[k]]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _fit(self, x: np.ndarray) -> None:
        raise NotImplementedError

    def fit(self, X: Any, y: Any = None) -> Any:
        """Learn the per-feature statistics of ``X`` (rows are samples); returns the scaler."""
        x = as_2d(X, f"{type(self).__name__}.fit")
        self.n_features_in_ = x.shape[1]
        self.n_samples_seen_ = x.shape[0]
        self._fit(x)
        return self

    def _checked(self, X: Any, what: str) -> np.ndarray:
        if not hasattr(self, "n_features_in_"):
            raise ValueError(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                "appropriate arguments before using this estimator."
            )
        x = as_2d(X, f"{type(self).__name__}.{what}")
        if x.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {x.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input."
            )
        return np.array(x, copy=True)

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        """``fit(X)`` then ``transform(X)``."""
        return self.fit(X).transform(X)

    def transform(self, X: Any) -> np.ndarray:
        """``X`` scaled with the fitted statistics."""
        raise NotImplementedError

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's settings."""
        return self._settings()


class StandardScaler(_Scaler):
    """Standardise features: subtract each column's mean, divide by its standard deviation."""

    _defaults: ClassVar[dict[str, Any]] = {"copy": True, "with_mean": True, "with_std": True}

    def __init__(self, *, copy: bool = True, with_mean: bool = True, with_std: bool = True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def _fit(self, x: np.ndarray) -> None:
        x64 = x.astype(np.float64)  # scikit-learn accumulates in float64 for float32 data too
        self.mean_ = x64.mean(axis=0) if self.with_mean or self.with_std else None
        if self.with_std:
            self.var_ = x64.var(axis=0)
            upper = x.shape[0] * np.finfo(x.dtype).eps * (self.var_ + self.mean_**2)
            self.scale_ = _nonzero(np.sqrt(self.var_), self.var_ <= upper)
        else:
            self.var_ = self.scale_ = None
        if not self.with_mean and not self.with_std:
            self.mean_ = None

    def transform(self, X: Any) -> np.ndarray:
        """``(X - mean_) / scale_`` (each part only if the scaler was made with it)."""
        x = self._checked(X, "transform")
        if self.with_mean:
            x -= self.mean_.astype(x.dtype)
        if self.with_std:
            x /= self.scale_.astype(x.dtype)
        return x

    def inverse_transform(self, X: Any) -> np.ndarray:
        """Scaled data back in the original units."""
        x = self._checked(X, "inverse_transform")
        if self.with_std:
            x *= self.scale_.astype(x.dtype)
        if self.with_mean:
            x += self.mean_.astype(x.dtype)
        return x


class MinMaxScaler(_Scaler):
    """Scale each feature linearly so the fitted data spans ``feature_range`` (default 0..1)."""

    _defaults: ClassVar[dict[str, Any]] = {"feature_range": (0, 1), "copy": True, "clip": False}

    def __init__(
        self, feature_range: tuple[float, float] = (0, 1), *, copy: bool = True, clip: bool = False
    ) -> None:
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def _fit(self, x: np.ndarray) -> None:
        lo, hi = self.feature_range
        if lo >= hi:
            raise ValueError(
                "Minimum of desired feature range must be smaller than maximum. "
                f"Got {tuple(self.feature_range)!r}."
            )
        self.data_min_ = np.nanmin(x, axis=0)
        self.data_max_ = np.nanmax(x, axis=0)
        self.data_range_ = self.data_max_ - self.data_min_
        self.scale_ = (hi - lo) / _nonzero(self.data_range_)
        self.min_ = lo - self.data_min_ * self.scale_

    def transform(self, X: Any) -> np.ndarray:
        """``X * scale_ + min_`` (clipped to the range when made with ``clip=True``)."""
        x = self._checked(X, "transform")
        x *= self.scale_
        x += self.min_
        if self.clip:
            np.clip(x, self.feature_range[0], self.feature_range[1], out=x)
        return x

    def inverse_transform(self, X: Any) -> np.ndarray:
        """Scaled data back in the original units."""
        x = self._checked(X, "inverse_transform")
        x -= self.min_
        x /= self.scale_
        return x


class LabelEncoder:
    """Encode labels (numbers or strings) as 0 … n_classes − 1, in sorted order of the labels."""

    def __repr__(self) -> str:
        return "LabelEncoder()"

    def fit(self, y: Any) -> LabelEncoder:
        """Learn the sorted distinct labels (``classes_``); returns the encoder."""
        self.classes_ = np.unique(column_1d(y, "y"))
        return self

    def fit_transform(self, y: Any) -> np.ndarray:
        """``fit(y)`` then ``transform(y)``."""
        self.classes_, codes = np.unique(column_1d(y, "y"), return_inverse=True)
        return codes

    def _fitted(self) -> np.ndarray:
        if not hasattr(self, "classes_"):
            raise ValueError(
                "This LabelEncoder instance is not fitted yet. Call 'fit' with appropriate "
                "arguments before using this estimator."
            )
        return self.classes_

    def transform(self, y: Any) -> np.ndarray:
        """Each label's index in ``classes_``; an unseen label is an error."""
        classes = self._fitted()
        a = column_1d(y, "y")
        unseen = np.setdiff1d(a, classes)
        if len(unseen):
            raise ValueError(f"y contains previously unseen labels: {unseen!s}")
        return np.searchsorted(classes, a)

    def inverse_transform(self, y: Any) -> np.ndarray:
        """The labels of codes made by ``transform``."""
        classes = self._fitted()
        a = column_1d(y, "y")
        unseen = np.setdiff1d(a, np.arange(len(classes)))
        if len(unseen):
            raise ValueError(f"y contains previously unseen labels: {unseen!s}")
        return classes[a.astype(np.intp)]
